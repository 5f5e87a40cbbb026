#!/usr/bin/env node
// Wayfarer vs Mineflayer, side by side in one run against the local test world:
//   - RSS of one idle bot process (Wayfarer) vs one idle Mineflayer bot process
//   - RSS of N bots in one Wayfarer process vs N Mineflayer bots in one Node process (N = 10, 50 by default)
//   - connect -> spawned time (measured inside each client, and from process start as the world sees the join)
// Figures, not assertions. Usage: node compare.js --bot PATH/TO/wayfarer [--counts 1,10,50] [--idle-ms 5000]
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const readline = require('node:readline')

const args = parseArgs(process.argv.slice(2))
const BOT = args.bot
const COUNTS = (args.counts || '1,10,50').split(',').map(Number)
const IDLE_MS = Number(args['idle-ms'] || 5000)
if (!BOT || !fs.existsSync(BOT)) {
  console.error('usage: node compare.js --bot PATH/TO/wayfarer [--counts 1,10,50] [--idle-ms 5000]')
  console.error(BOT ? `no file at ${BOT}; build it with \`make build\`` : 'missing --bot')
  process.exit(2)
}

function parseArgs (argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? 'true' : argv[++i]
  }
  return out
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resident set size of a process, in bytes, read from /proc. */
function rssBytes (pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024
}

/** Starts a process and calls onLine for every line it prints (stdout and stderr). */
function start (cmd, argv, onLine, env = {}) {
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  const lines = []
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => { lines.push(line); onLine(line) })
  }
  child.on('exit', (code) => {
    if (code !== 0 && code !== null && !child.stopping) {
      console.error(`bench: ${path.basename(cmd)} exited with ${code}:\n${lines.slice(-10).join('\n')}`)
      process.exit(1)
    }
  })
  return child
}

function waitFor (label, timeoutMs, check) {
  return new Promise((resolve, reject) => {
    const began = Date.now()
    const timer = setInterval(() => {
      const value = check()
      if (value !== undefined) { clearInterval(timer); resolve(value) } else if (Date.now() - began > timeoutMs) {
        clearInterval(timer); reject(new Error(`timed out waiting for ${label}`))
      }
    }, 20)
  })
}

async function startWorld () {
  let port
  const world = start('node', [path.join(__dirname, '..', 'server.js'), '--port', '0'], (line) => {
    if (line.startsWith('READY ')) port = JSON.parse(line.slice(6)).port
  })
  await waitFor('the test world', 30000, () => port)
  return { world, port }
}

async function stop (child) {
  if (child.exitCode !== null) return
  child.stopping = true
  child.kill('SIGTERM')
  await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(3000)])
  if (child.exitCode === null) child.kill('SIGKILL')
}

/** N Wayfarer bots in one process: connect times (internal and from process start) and idle RSS. */
async function measureWayfarer (port, n) {
  const inside = []
  let firstSpawnWall
  const began = Date.now()
  const child = start(BOT, ['run', '--server', `127.0.0.1:${port}`, '--username', 'Wayfarer', '--bots', String(n)], (line) => {
    const m = / spawned at .* in (\d+) ms/.exec(line)
    if (m) { inside.push(Number(m[1])); firstSpawnWall ??= Date.now() - began }
  }, { RUST_LOG: 'warn,wayfarer=info' })
  await waitFor(`${n} Wayfarer bots`, 120000, () => (inside.length >= n ? true : undefined))
  const allSpawnedWall = Date.now() - began
  await sleep(IDLE_MS)
  const rss = rssBytes(child.pid)
  await stop(child)
  return { rss, connectInside: inside[0], firstSpawnWall, allSpawnedWall }
}

/** N Mineflayer bots in one Node process, via mineflayer_bots.js. */
async function measureMineflayer (port, n) {
  const inside = []
  let firstSpawnWall
  let done = false
  const began = Date.now()
  const child = start('node', [path.join(__dirname, 'mineflayer_bots.js'), '--host', '127.0.0.1', '--port', String(port),
    '--count', String(n), '--prefix', 'MF'], (line) => {
    if (!line.startsWith('{')) return
    const msg = JSON.parse(line)
    if (msg.connect_to_spawn_ms !== undefined) { inside.push(msg.connect_to_spawn_ms); firstSpawnWall ??= Date.now() - began }
    if (msg.all_spawned) done = true
  })
  await waitFor(`${n} Mineflayer bots`, 180000, () => (done ? true : undefined))
  const allSpawnedWall = Date.now() - began
  await sleep(IDLE_MS)
  const rss = rssBytes(child.pid)
  await stop(child)
  return { rss, connectInside: inside[0], firstSpawnWall, allSpawnedWall }
}

const mb = (bytes) => (bytes / 1048576).toFixed(1) + ' MB'
const ms = (v) => (v === undefined ? 'n/a' : `${Math.round(v)} ms`)
const ratio = (a, b) => (b ? (a / b).toFixed(2) + '×' : 'n/a')

async function main () {
  const { world, port } = await startWorld()
  const results = {}
  try {
    for (const n of COUNTS) {
      process.stderr.write(`measuring ${n} bot(s)...\n`)
      results[n] = { wayfarer: await measureWayfarer(port, n), mineflayer: await measureMineflayer(port, n) }
      await sleep(1000)
    }
  } finally {
    await stop(world)
  }

  const rows = [['measure', 'Wayfarer', 'Mineflayer', 'Wayfarer / Mineflayer']]
  for (const n of COUNTS) {
    const { wayfarer: w, mineflayer: m } = results[n]
    rows.push([`RSS, ${n} idle bot${n === 1 ? '' : 's'} in one process`, mb(w.rss), mb(m.rss), ratio(w.rss, m.rss)])
  }
  const lo = Math.min(...COUNTS)
  const hi = Math.max(...COUNTS)
  if (hi > lo) {
    const w = (results[hi].wayfarer.rss - results[lo].wayfarer.rss) / (hi - lo)
    const m = (results[hi].mineflayer.rss - results[lo].mineflayer.rss) / (hi - lo)
    rows.push([`RSS per extra bot (${lo} -> ${hi})`, mb(w), mb(m), ratio(w, m)])
  }
  const one = results[lo]
  rows.push(['connect -> spawned (inside the client)', ms(one.wayfarer.connectInside), ms(one.mineflayer.connectInside),
    ratio(one.wayfarer.connectInside, one.mineflayer.connectInside)])
  rows.push(['process start -> spawned', ms(one.wayfarer.firstSpawnWall), ms(one.mineflayer.firstSpawnWall),
    ratio(one.wayfarer.firstSpawnWall, one.mineflayer.firstSpawnWall)])
  if (hi > lo) {
    rows.push([`process start -> all ${hi} spawned`, ms(results[hi].wayfarer.allSpawnedWall),
      ms(results[hi].mineflayer.allSpawnedWall), ratio(results[hi].wayfarer.allSpawnedWall, results[hi].mineflayer.allSpawnedWall)])
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const line = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  console.log(line(rows[0]))
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|')
  for (const r of rows.slice(1)) console.log(line(r))
}

main().catch((err) => { console.error(`bench failed: ${err.message}`); process.exit(1) })
