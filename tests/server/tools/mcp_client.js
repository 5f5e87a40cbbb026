// An MCP client (the official TypeScript SDK) driven over stdin/stdout, for tests written in another language
// (Wayfarer's MCP tests and bench).
//
//   node tests/server/tools/mcp_client.js
//
// Reads one JSON request a line; requests run at once, side by side, and each is answered with one JSON line
// {"id": ID, "ok": RESULT} or {"id": ID, "error": MESSAGE, "code": JSON_RPC_CODE}. While a call runs, its progress
// notifications come as {"id": ID, "progress": {progress, total, message}}; notifications the server sends on its
// own come as {"notification": {method, params}}.
//   {"id", "op": "connect", "http": URL, "token": T, "headers": {...}}      Streamable HTTP
//   {"id", "op": "connect", "command": EXE, "args": [...], "stderr": FILE}  standard input/output (starts EXE)
//   {"id", "op": "tools" | "resources" | "templates" | "prompts"}          the lists
//   {"id", "op": "read", "uri": URI}        {"id", "op": "subscribe", "uri": URI}
//   {"id", "op": "prompt", "name": N, "arguments": {...}}
//   {"id", "op": "call", "name": TOOL, "arguments": {...}, "timeout_ms": N}  the tool's result (isError included)
//   {"id", "op": "time", "name": TOOL, "arguments": {...}, "n": N}          N calls one after another: their times (ms)
//   {"id", "op": "close"}
'use strict'

const fs = require('node:fs')
const readline = require('node:readline')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const {
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema
} = require('@modelcontextprotocol/sdk/types.js')

let client = null

function send (line) {
  process.stdout.write(JSON.stringify(line) + '\n')
}

async function connect (request) {
  client = new Client({ name: 'wayfarer-tests', version: '1.0.0' }, { capabilities: {} })
  for (const schema of [ResourceUpdatedNotificationSchema, ResourceListChangedNotificationSchema]) {
    client.setNotificationHandler(schema, (notification) => send({ notification }))
  }
  let transport
  if (request.http) {
    const headers = { ...(request.headers || {}) }
    if (request.token) headers.Authorization = `Bearer ${request.token}`
    transport = new StreamableHTTPClientTransport(new URL(request.http), { requestInit: { headers } })
  } else {
    transport = new StdioClientTransport({
      command: request.command,
      args: request.args || [],
      env: { ...process.env, ...(request.env || {}) },
      stderr: request.stderr ? 'pipe' : 'inherit'
    })
    if (request.stderr) {
      const log = fs.createWriteStream(request.stderr)
      transport.stderr.pipe(log)
    }
  }
  await client.connect(transport, { timeout: request.timeout_ms || 120000 })
  return { server: client.getServerVersion(), capabilities: client.getServerCapabilities() }
}

async function handle (request) {
  switch (request.op) {
    case 'connect':
      return connect(request)
    case 'tools':
      return (await client.listTools()).tools
    case 'resources':
      return (await client.listResources()).resources
    case 'templates':
      return (await client.listResourceTemplates()).resourceTemplates
    case 'prompts':
      return (await client.listPrompts()).prompts
    case 'prompt':
      return client.getPrompt({ name: request.name, arguments: request.arguments || {} })
    case 'read':
      return client.readResource({ uri: request.uri })
    case 'subscribe':
      return client.subscribeResource({ uri: request.uri })
    case 'call': {
      const timeout = request.timeout_ms || 60000
      return client.callTool({ name: request.name, arguments: request.arguments || {} }, undefined, {
        onprogress: (progress) => send({ id: request.id, progress }),
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: request.max_ms || 30 * 60000
      })
    }
    case 'time': {
      const times = []
      for (let i = 0; i < (request.n || 1); i++) {
        const start = process.hrtime.bigint()
        const result = await client.callTool({ name: request.name, arguments: request.arguments || {} })
        if (result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result.content)}`)
        times.push(Number(process.hrtime.bigint() - start) / 1e6)
      }
      return times
    }
    case 'close':
      if (client) await client.close()
      client = null
      return true
    default:
      throw new Error(`unknown op ${JSON.stringify(request.op)}`)
  }
}

async function main () {
  const lines = readline.createInterface({ input: process.stdin })
  const running = []
  for await (const line of lines) {
    if (!line.trim()) continue
    let request
    try {
      request = JSON.parse(line)
    } catch (err) {
      send({ id: null, error: `not JSON: ${err.message}` })
      continue
    }
    running.push(handle(request).then(
      (ok) => send({ id: request.id, ok }),
      (err) => send({ id: request.id, error: err.message, code: err.code })
    ))
  }
  await Promise.allSettled(running)
  if (client) await client.close()
}

main().catch((err) => {
  process.stderr.write(`mcp_client.js: ${err.stack}\n`)
  process.exit(1)
})
