#!/usr/bin/env node
// What the dashboard costs: one idle Wayfarer bot in a natural world without the dashboard, with it served and
// nobody connected, and with a page open in headless Chromium (the page's one-second updates and map reads).
// Figures, not assertions: RSS (peak over the window) and CPU time used during the window, side by side.
// Usage: node dashboard.js --bot PATH/TO/wayfarer [--seconds 30] [--seed 5150]
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const readline = require('node:readline')
const { chromium } = require('playwright-core')
const { startWorld, until } = require('../lib/harness')

const args = {}
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
const SECONDS = Number(args.seconds || 30)
const SEED = args.seed || '5150'
if (!args.bot || !fs.existsSync(args.bot)) {
  console.error('usage: node dashboard.js --bot PATH/TO/wayfarer [--seconds 30] [--seed 5150]')
  process.exit(2)
}
const CHROMIUM = [process.env.WAYFARER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && fs.existsSync(p))

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const rssKb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
/** User + system CPU time of a process so far, in seconds. */
function cpuSeconds (pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function measure (world, mode) {
  const name = `Bench_${mode}`
  const checkpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-dashboard-'))
  const dashboard = mode === 'off' ? [] : ['--dashboard', '127.0.0.1:0']
  const bot = spawn(args.bot, ['run', '--server', `127.0.0.1:${world.port}`, '--username', name, '--owner', 'Alice', ...dashboard], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WAYFARER_CHECKPOINT: checkpoint, RUST_LOG: 'warn,wayfarer=info' }
  })
  const log = []
  for (const stream of [bot.stdout, bot.stderr]) readline.createInterface({ input: stream }).on('line', (l) => log.push(l))
  let browser = null
  try {
    await until(() => log.some((l) => l.includes(`${name} spawned`)), 60000, `${name} to spawn`)
    const url = (log.find((l) => l.includes('dashboard: http://')) || '').split('dashboard: ')[1]?.split(' ')[0]
    let stateBytes = null
    if (mode === 'watched') {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
      const page = await browser.newPage()
      await page.goto(url)
      await page.waitForFunction(() => document.querySelector('#map-note')?.textContent.startsWith('y '), null, { timeout: 20000 })
      stateBytes = (await (await fetch(url + 'api/state')).text()).length
    }
    await sleep(5000)
    const cpu0 = cpuSeconds(bot.pid)
    let peak = 0
    for (let s = 0; s < SECONDS; s++) {
      peak = Math.max(peak, rssKb(bot.pid))
      await sleep(1000)
    }
    const cpu = cpuSeconds(bot.pid) - cpu0
    return { mode, peakKb: peak, cpu, stateBytes }
  } finally {
    if (browser) await browser.close()
    bot.kill('SIGTERM')
    fs.rmSync(checkpoint, { recursive: true, force: true })
  }
}

async function main () {
  if (!CHROMIUM) throw new Error('no Chromium found: apt-get install chromium, or set WAYFARER_CHROMIUM')
  const world = await startWorld(['--world', 'natural', '--seed', SEED, '--mobs', 'off'])
  try {
    const rows = []
    for (const mode of ['off', 'idle', 'watched']) rows.push(await measure(world, mode))
    const base = rows[0]
    console.log(`\nDashboard cost: one idle bot, natural world seed ${SEED}, ${SECONDS} s window (release build)`)
    console.log('| dashboard | peak RSS | added | CPU in window | CPU share |')
    console.log('|---|---|---|---|---|')
    const label = { off: 'off', idle: 'on, nobody connected', watched: 'on, a page open' }
    for (const r of rows) {
      const added = r === base ? '–' : `${((r.peakKb - base.peakKb) / 1024).toFixed(2)} MB`
      console.log(`| ${label[r.mode]} | ${(r.peakKb / 1024).toFixed(1)} MB | ${added} | ${r.cpu.toFixed(2)} s | ${(r.cpu / SECONDS * 100).toFixed(1)} % |`)
    }
    const watched = rows.find((r) => r.mode === 'watched')
    console.log(`\nOne state update (every second while a page is open): ${(watched.stateBytes / 1024).toFixed(1)} kB`)
  } finally {
    await world.close()
  }
}

main().catch((err) => { console.error(`bench failed: ${err.message}`); process.exit(1) })
