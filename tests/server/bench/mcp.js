#!/usr/bin/env node
// What serving the bots over MCP costs: the time of one small tool call (`status`) through the official TypeScript
// SDK's client, over Streamable HTTP (`wayfarer run --dashboard`, `/mcp`) and over standard input and output
// (`wayfarer mcp`), side by side with the Mineflayer way (a Mineflayer bot behind the SDK's own server, as the
// Mineflayer-based Minecraft MCP servers are built); and the memory each process holds, with Wayfarer's without MCP
// beside it. Figures, not assertions.
// Usage: node mcp.js --bot PATH/TO/wayfarer [--calls 200] [--seed 5150]
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const readline = require('node:readline')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { startWorld, until } = require('../lib/harness')

const args = {}
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
const CALLS = Number(args.calls || 200)
const SEED = args.seed || '5150'
if (!args.bot || !fs.existsSync(args.bot)) {
  console.error('usage: node mcp.js --bot PATH/TO/wayfarer [--calls 200] [--seed 5150]')
  process.exit(2)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const rssKb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

/** Peak RSS of `pid` over a few seconds. */
async function settledRss (pid, seconds = 5) {
  let peak = 0
  for (let s = 0; s < seconds; s++) {
    peak = Math.max(peak, rssKb(pid))
    await sleep(1000)
  }
  return peak
}

/** `CALLS` status calls one after another (after 20 to warm up): p50 and p95 in ms. */
async function time (client, bot) {
  const call = async () => {
    const result = await client.callTool({ name: 'status', arguments: bot ? { bot } : {} })
    if (result.isError) throw new Error(`status failed: ${JSON.stringify(result.content)}`)
  }
  for (let i = 0; i < 20; i++) await call()
  const times = []
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint()
    await call()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) }
}

/** A Wayfarer process (`run`, with or without the dashboard), joined and idle; its log and a stop. */
async function wayfarerRun (world, name, dashboard) {
  const checkpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-mcp-'))
  const more = dashboard ? ['--dashboard', '127.0.0.1:0'] : []
  const bot = spawn(args.bot, ['run', '--server', `127.0.0.1:${world.port}`, '--username', name, '--owner', 'Alice', ...more], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WAYFARER_CHECKPOINT: checkpoint, RUST_LOG: 'warn,wayfarer=info' }
  })
  const log = []
  for (const stream of [bot.stdout, bot.stderr]) readline.createInterface({ input: stream }).on('line', (l) => log.push(l))
  await until(() => log.some((l) => l.includes(`${name} spawned`)), 60000, `${name} to spawn`)
  const stop = () => { bot.kill('SIGTERM'); fs.rmSync(checkpoint, { recursive: true, force: true }) }
  return { bot, log, stop }
}

async function stdioClient (command, commandArgs, env) {
  const transport = new StdioClientTransport({ command, args: commandArgs, env: { ...process.env, ...env }, stderr: 'ignore' })
  const client = new Client({ name: 'wayfarer-bench', version: '1.0.0' }, { capabilities: {} })
  await client.connect(transport, { timeout: 120000 })
  return { client, pid: transport.pid }
}

/** Waits until a stdio server's bot answers `status`. */
async function online (client) {
  await until(async () => {
    const result = await client.callTool({ name: 'status', arguments: {} })
    return !result.isError && !JSON.stringify(result.content).includes('not connected')
  }, 60000, 'the bot to be online')
}

async function main () {
  const world = await startWorld(['--world', 'natural', '--seed', SEED, '--mobs', 'off'])
  const rows = []
  try {
    // Wayfarer without MCP: the baseline for the memory MCP adds.
    const plain = await wayfarerRun(world, 'Plain')
    await sleep(5000)
    const plainKb = await settledRss(plain.bot.pid)
    plain.stop()

    // Over HTTP: the dashboard's listener, before and with an MCP session.
    const served = await wayfarerRun(world, 'Served', true)
    await sleep(5000)
    const idleKb = await settledRss(served.bot.pid)
    const line = served.log.find((l) => l.includes('MCP: http://'))
    const url = line.split('MCP: ')[1].split(' ')[0]
    const token = /Bearer ([0-9a-f]+)/.exec(line)[1]
    const http = new Client({ name: 'wayfarer-bench', version: '1.0.0' }, { capabilities: {} })
    await http.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }))
    const httpTimes = await time(http)
    const httpKb = await settledRss(served.bot.pid)
    await http.close()
    served.stop()
    rows.push({ who: 'Wayfarer, HTTP (`run --dashboard`, /mcp)', ...httpTimes, kb: httpKb, added: httpKb - idleKb })

    // Over standard input and output: `wayfarer mcp`, started by the client.
    const checkpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-mcp-'))
    const stdio = await stdioClient(args.bot, ['mcp', '--server', `127.0.0.1:${world.port}`, '--username', 'Stdio', '--owner', 'Alice'],
      { WAYFARER_CHECKPOINT: checkpoint, RUST_LOG: 'warn' })
    await online(stdio.client)
    await sleep(5000)
    const stdioTimes = await time(stdio.client)
    const stdioKb = await settledRss(stdio.pid)
    await stdio.client.close()
    fs.rmSync(checkpoint, { recursive: true, force: true })
    rows.push({ who: 'Wayfarer, stdio (`wayfarer mcp`)', ...stdioTimes, kb: stdioKb, added: stdioKb - plainKb })

    // The Mineflayer way, the same call.
    const mineflayer = await stdioClient('node', [path.join(__dirname, 'mineflayer_mcp.js'), '--port', String(world.port), '--username', 'Mf_mcp'], {})
    await online(mineflayer.client)
    await sleep(5000)
    const mfTimes = await time(mineflayer.client)
    const mfKb = await settledRss(mineflayer.pid)
    await mineflayer.client.close()
    rows.push({ who: 'Mineflayer + the SDK\'s server, stdio', ...mfTimes, kb: mfKb })

    console.log(`\nMCP: ${CALLS} \`status\` calls one after another through the official TypeScript SDK's client; natural world seed ${SEED}`)
    console.log(`Wayfarer without MCP (\`run\`, no dashboard): ${(plainKb / 1024).toFixed(1)} MB RSS; with the dashboard served, before any MCP session: ${(idleKb / 1024).toFixed(1)} MB`)
    console.log('| server | status p50 | status p95 | process RSS | added by MCP |')
    console.log('|---|---|---|---|---|')
    for (const r of rows) {
      const added = r.added === undefined ? '–' : `${(r.added / 1024).toFixed(1)} MB`
      console.log(`| ${r.who} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${(r.kb / 1024).toFixed(1)} MB | ${added} |`)
    }
  } finally {
    await world.close()
  }
}

main().catch((err) => { console.error(`bench failed: ${err.stack}`); process.exit(1) })
