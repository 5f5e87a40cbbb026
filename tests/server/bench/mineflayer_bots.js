#!/usr/bin/env node
// Connects N Mineflayer bots in one Node process, for the footprint comparison in compare.js. Prints one JSON line
// per bot as it spawns ({"bot","connect_to_spawn_ms"}), then, after all have spawned and 5 s of idling,
// {"all_spawned":true,"rss_bytes":…}; stays idle until SIGTERM.
// Usage: node mineflayer_bots.js --host 127.0.0.1 --port P --count N [--prefix MF]
'use strict'

const { once } = require('node:events')
const mineflayer = require('mineflayer')

const opts = { host: '127.0.0.1', count: '1', prefix: 'MF' }
for (let i = 2; i < process.argv.length; i += 2) opts[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
if (!opts.port) { console.error('usage: node mineflayer_bots.js --host H --port P --count N [--prefix MF]'); process.exit(2) }

const bots = []
async function main () {
  await Promise.all(Array.from({ length: Number(opts.count) }, async (_, i) => {
    const username = `${opts.prefix}_${i + 1}`
    const started = performance.now()
    const bot = mineflayer.createBot({ host: opts.host, port: Number(opts.port), username, version: '26.1', auth: 'offline' })
    bots.push(bot)
    bot.on('error', (err) => console.error(`${username}: ${err.message}`))
    await once(bot, 'spawn')
    console.log(JSON.stringify({ bot: username, connect_to_spawn_ms: Math.round(performance.now() - started) }))
  }))
  await new Promise((resolve) => setTimeout(resolve, 5000))
  console.log(JSON.stringify({ all_spawned: true, rss_bytes: process.memoryUsage().rss }))
}

process.on('SIGTERM', () => { for (const bot of bots) bot.quit(); setTimeout(() => process.exit(0), 200) })
main().catch((err) => { console.error(err.message); process.exit(1) })
