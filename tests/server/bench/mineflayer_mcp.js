#!/usr/bin/env node
// The Mineflayer way of serving a bot over MCP, for the MCP bench: a Mineflayer bot behind the official TypeScript
// SDK's server on standard input and output, with a `status` tool that answers what Wayfarer's `status` answers
// (position, health, food, what it carries), as the Mineflayer-based Minecraft MCP servers do.
//   node mineflayer_mcp.js --port PORT --username NAME
'use strict'

const mineflayer = require('mineflayer')
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js')
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js')
const { z } = require('zod')

const args = {}
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]

const bot = mineflayer.createBot({ host: '127.0.0.1', port: Number(args.port), username: args.username || 'Mf_mcp', auth: 'offline' })
let spawned = false
bot.once('spawn', () => { spawned = true })

const server = new McpServer({ name: 'mineflayer-bench', version: '1.0.0' })
server.registerTool('status', {
  description: 'Where the bot is and what it carries',
  inputSchema: { bot: z.string().optional() }
}, async () => {
  if (!spawned) return { content: [{ type: 'text', text: 'not connected' }], isError: true }
  const p = bot.entity.position
  const status = {
    name: bot.username,
    pos: [p.x, p.y, p.z],
    health: bot.health,
    food: bot.food,
    items: bot.inventory.items().map((i) => [i.name, i.count])
  }
  return { content: [{ type: 'text', text: `${bot.username} is at ${p.x.toFixed(0)} ${p.y.toFixed(0)} ${p.z.toFixed(0)}` }, { type: 'text', text: JSON.stringify(status) }] }
})

server.connect(new StdioServerTransport()).catch((err) => {
  process.stderr.write(`mineflayer_mcp.js: ${err.stack}\n`)
  process.exit(1)
})
