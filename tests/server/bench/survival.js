#!/usr/bin/env node
// Days and nights in natural worlds, Wayfarer beside Mineflayer: from a fresh surface spawn with an empty inventory,
// monsters, hunger, day and night on, each client works through the same goal list — a wooden and a stone pickaxe, a
// stone sword, an iron pickaxe, two bones and two string (the last two only monsters give, mostly at night) — and then
// lives on until the days are over. Wayfarer gets each goal as an owner's `!task`, asked again when it fails (three
// times, then the next goal; the list goes round again while time is left); Mineflayer runs the same goals as a
// script on mineflayer-pathfinder, -collectblock, -tool, -pvp and -auto-eat, hitting back at whatever hurts it.
//
// Judged by the world: a goal is done when the player holds the items; deaths come from the world's events, each
// counted in the game day it happened. The seeds are drawn at random for each run and printed first (replay with
// --seed-list), so no seed is kept because a client passes on it. --time-scale K runs the day clock K times faster
// than the game (a night is then 1/K of a vanilla night's ticks, so fewer monsters spawn in it: a scaled run is
// easier than a vanilla one, and says so in its summary).
//
// Usage: node survival.js --bot PATH/TO/wayfarer [--seeds 10 | --seed-list A,B,…] [--days 3] [--time-scale 1]
//                         [--parallel 1] [--only wayfarer|mineflayer] [--logs DIR]
//        node survival.js --report RESULTS.json
'use strict'

const { spawn } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { equipBot, tree } = require('./mineflayer_tree')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const BOT = arg('bot')
const DAYS = Number(arg('days', 3))
const TIME_SCALE = Number(arg('time-scale', 1))
const PARALLEL = Math.max(1, Number(arg('parallel', 1)))
const ONLY = arg('only', null)
const SEEDS = arg('seed-list', null) !== null
  ? arg('seed-list').split(',').map(Number)
  : Array.from({ length: Number(arg('seeds', 10)) }, () => crypto.randomInt(0x7fffffff))
const LOGS = arg('logs', null) // a folder for each run's bot log and world events, to read a death afterwards
const CHILD = arg('child', null)
const RESULT_FILE = arg('result', null)
const DAY = 24000
/** The world starts in the morning (vanilla's first day begins at 0; 1000 is when the sun is up). */
const START_TIME = 1000
/** The longest one ask of a goal may take, in game ticks (ten minutes). */
const ATTEMPT_TICKS = 12000
const TRIES = 3

/** The goal list: what Wayfarer's owner types, what the world must show, and the Mineflayer script for it. */
const GOALS = [
  { goal: 'craft 1 wooden_pickaxe', item: 'wooden_pickaxe', count: 1, script: (t) => t.woodenPickaxe() },
  { goal: 'craft 1 stone_pickaxe', item: 'stone_pickaxe', count: 1, script: (t) => t.stonePickaxe() },
  { goal: 'craft 1 stone_sword', item: 'stone_sword', count: 1, script: (t) => t.stoneSword() },
  { goal: 'craft 1 iron_pickaxe', item: 'iron_pickaxe', count: 1, script: (t) => t.ironPickaxe() },
  { goal: 'get 2 bones', item: 'bone', count: 2, script: (t) => t.hunt(['skeleton'], 'bone', 2) },
  { goal: 'get 2 string', item: 'string', count: 2, script: (t) => t.hunt(['spider', 'cave_spider'], 'string', 2) }
]

const USAGE = 'usage: node survival.js --bot PATH/TO/wayfarer [--seeds 10 | --seed-list A,B,…] [--days 3] [--time-scale 1] [--parallel 1] [--only wayfarer|mineflayer] [--logs DIR]\n' +
  '       node survival.js --report RESULTS.json'
if (arg('report')) {
  let saved
  try { saved = JSON.parse(fs.readFileSync(arg('report'), 'utf8')) } catch (err) { console.error(`cannot read the results file: ${err.message}`); process.exit(2) }
  report(saved)
  process.exit(0)
}
if (!arg('mineflayer-port') && (!BOT || !fs.existsSync(BOT))) { console.error(USAGE); process.exit(2) }
if (LOGS) fs.mkdirSync(LOGS, { recursive: true })
if (!(DAYS > 0) || !(TIME_SCALE > 0 && TIME_SCALE <= 20)) { console.error(`--days must be above 0 and --time-scale in (0, 20]\n${USAGE}`); process.exit(2) }
if (SEEDS.some((seed) => !Number.isInteger(seed) || seed < 0)) { console.error(`seeds must be whole numbers: ${SEEDS}`); process.exit(2) }

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const log = (line) => process.stderr.write(`${line}\n`)

/** Starts the seed's world in the morning and follows `name` until the days are over: goals held, deaths by day. */
async function live (seed, name, play) {
  const world = await startWorld(['--world', 'natural', '--seed', String(seed), '--time', String(START_TIME), '--time-scale', String(TIME_SCALE)])
  const result = { seed, done: {}, deathsByDay: Array(Math.ceil(DAYS)).fill(0), causes: {}, note: '' }
  const clock = async () => { const w = await world.cmd({ cmd: 'world' }); return { day: w.day, time: w.time, age: w.age } }
  const count = async (item) => (await world.cmd({ cmd: 'inventory', name }).catch(() => ({})))[item] ?? 0
  let session = null
  try {
    const spawnAt = (await world.cmd({ cmd: 'world' })).spawn
    session = await play(world, spawnAt, count, clock)
    let seenDeaths = 0
    const startDay = (await clock()).day
    while (true) {
      const now = await clock()
      const day = now.day - startDay
      if (day + (now.time - START_TIME) / DAY >= DAYS) break
      for (const g of GOALS) if (result.done[g.item] === undefined && (await count(g.item)) >= g.count) result.done[g.item] = +(day + now.time / DAY).toFixed(2)
      const deaths = world.events.filter((e) => e.event === 'death' && e.name === name)
      for (const d of deaths.slice(seenDeaths)) {
        result.deathsByDay[Math.min(day, result.deathsByDay.length - 1)]++
        result.causes[d.cause] = (result.causes[d.cause] ?? 0) + 1
      }
      seenDeaths = deaths.length
      if (RESULT_FILE) fs.writeFileSync(RESULT_FILE, JSON.stringify({ ...result, note: `cut short on day ${day + 1}` }))
      await sleep(1000)
    }
    result.note = session.note()
  } finally {
    if (session) await session.stop()
    await world.close()
    if (LOGS) {
      const lines = world.events.filter((e) => ['death', 'chat', 'playerHurt', 'mobKilled'].includes(e.event) && (e.name ?? e.from ?? e.by) !== 'Alice')
      fs.writeFileSync(path.join(LOGS, `${name.toLowerCase()}-${seed}.world.log`), lines.map((e) => JSON.stringify(e)).join('\n') + '\n')
    }
  }
  return result
}

/** Wayfarer: the binary with its starter skills and no LLM; each goal an owner's `!task`, asked again when it fails. */
async function wayfarer (seed) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-survival-'))
  const skills = path.join(dir, 'skills')
  fs.mkdirSync(skills)
  const repoSkills = path.join(__dirname, '..', '..', '..', 'skills')
  for (const f of fs.readdirSync(repoSkills)) if (/\.(rhai|json)$/.test(f)) fs.copyFileSync(path.join(repoSkills, f), path.join(skills, f))
  const config = path.join(dir, 'wayfarer.toml')
  fs.writeFileSync(config, `script_time_limit_secs = ${ATTEMPT_TICKS / 20}\n`)
  return live(seed, 'Wayfarer', async (world, spawnAt, count, clock) => {
    await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: spawnAt.x + 1, y: spawnAt.y + 30, z: spawnAt.z + 1 })
    const env = { ...process.env, RUST_LOG: process.env.RUST_LOG ?? (process.env.BENCH_DEBUG || LOGS ? 'wayfarer=info' : 'warn') }
    delete env.WAYFARER_LLM_URL
    const err = LOGS ? fs.openSync(path.join(LOGS, `wayfarer-${seed}.log`), 'w') : process.env.BENCH_DEBUG ? 'inherit' : 'ignore'
    const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice', '--skills', skills,
      '--checkpoint', path.join(dir, 'checkpoint'), '--config', config],
    { stdio: ['ignore', 'ignore', err], env })
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 30000)
    await sleep(2000)
    let stopped = false
    let asked = 0
    let last = ''
    const ask = async (g) => {
      asked++
      const from = world.events.length
      const t0 = (await clock()).age
      await world.cmd({ cmd: 'say', as: 'Alice', text: `Wayfarer !task ${g.goal}` })
      // The goal's own end (each step of its plan is announced the same way, with the step's words).
      const ended = (e) => e.event === 'chat' && e.from === 'Wayfarer' &&
        (e.text.startsWith(`I succeeded in task: ${g.goal}`) || e.text.startsWith(`I failed task: ${g.goal} because`))
      while (!stopped) {
        const said = world.events.slice(from).find(ended)
        if (said) { if (said.text.startsWith('I failed')) last = said.text; return }
        if ((await clock()).age - t0 >= ATTEMPT_TICKS) {
          last = `${g.goal}: no answer within ${ATTEMPT_TICKS / 1200} game minutes`
          await world.cmd({ cmd: 'say', as: 'Alice', text: 'Wayfarer !stop' })
          await sleep(2000)
          return
        }
        await sleep(1000)
      }
    }
    const run = runGoals(count, ask, () => stopped)
    return {
      note: () => `${asked} ask(s)${last ? `; last failure: ${last.slice(0, 160)}` : ''}`,
      stop: async () => { stopped = true; bot.kill('SIGTERM'); await run.catch(() => {}); fs.rmSync(dir, { recursive: true, force: true }) }
    }
  })
}

/** Mineflayer: the same goals as a script with the plugins its users reach for, in a process of its own that is
 * started again when it dies (mineflayer-pathfinder can search until the heap is gone), as a user's supervisor would;
 * the world keeps the player's inventory while it is away. */
async function mineflayer (seed) {
  return live(seed, 'Mineflayer', async (world) => {
    let stopped = false
    let restarts = 0
    let last = ''
    let child = null
    const start = () => {
      child = spawn(process.execPath, ['--max-old-space-size=4096', __filename, '--mineflayer-port', String(world.port)], { stdio: ['ignore', 'ignore', 'pipe'] })
      child.stderr.on('data', (d) => { const m = /last failure: (.*)/.exec(String(d)); if (m) last = m[1] })
      child.on('exit', () => { if (!stopped) { restarts++; setTimeout(() => { if (!stopped) start() }, 2000) } })
    }
    start()
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Mineflayer', 30000)
    return {
      note: () => `${restarts} restart(s) of its process${last ? `; last failure: ${last.slice(0, 160)}` : ''}`,
      stop: async () => { stopped = true; child.kill('SIGKILL') }
    }
  })
}

/** The Mineflayer player's own process: connects, loads the plugins and works through the goals until killed. */
async function mineflayerPlayer (port) {
  const bot = require('mineflayer').createBot({ host: '127.0.0.1', port, username: 'Mineflayer', version: '26.1', auth: 'offline' })
  await require('node:events').once(bot, 'spawn')
  bot.on('end', () => process.exit(1)) // kicked or cut off: the supervisor starts it again
  equipBot(bot)
  const steps = tree(bot, () => false)
  const count = async (item) => steps.count(item)
  const ask = async (g) => {
    try { await g.script(steps) } catch (err) { log(`last failure: ${g.goal}: ${String(err?.message ?? err).slice(0, 200)}`); await sleep(1000) }
  }
  await runGoals(count, ask, () => false)
  await new Promise(() => {}) // all done: it lives on, hitting back, eating
}

/** Works through the goal list: each goal asked until the world shows it or it failed TRIES times; the list goes
 * round again while any goal is left; with all done the player just lives on. */
async function runGoals (count, ask, stopped) {
  const tries = new Map()
  while (!stopped()) {
    let left = 0
    for (const g of GOALS) {
      if (stopped()) return
      if ((await count(g.item)) >= g.count) continue
      left++
      if ((tries.get(g.item) ?? 0) >= TRIES) continue
      tries.set(g.item, (tries.get(g.item) ?? 0) + 1)
      await ask(g)
    }
    if (left === 0) return
    // Every goal left has been asked TRIES times: a new round for each.
    if (GOALS.every((g) => (tries.get(g.item) ?? 0) >= TRIES)) tries.clear()
    await sleep(1000)
  }
}

/** Runs `name` on `seed` in a child process (a client that eats memory ends only its own run). */
function runIsolated (name, seed) {
  const file = path.join(os.tmpdir(), `wayfarer-survival-${name}-${seed}-${process.pid}.json`)
  const args = ['--max-old-space-size=6144', __filename, '--child', name, '--seed-list', String(seed), '--bot', BOT,
    '--days', String(DAYS), '--time-scale', String(TIME_SCALE), '--result', file, ...(LOGS ? ['--logs', LOGS] : [])]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true })
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
      let result = { seed, done: {}, deathsByDay: [], causes: {}, note: '' }
      try { result = JSON.parse(fs.readFileSync(file, 'utf8')) } catch {}
      fs.rmSync(file, { force: true })
      if (code !== 0) result.note = `its process died (${signal ?? `exit ${code}`}); ${result.note}`
      resolve(result)
    })
  })
}

async function main () {
  const clients = { wayfarer, mineflayer }
  if (arg('mineflayer-port')) return mineflayerPlayer(Number(arg('mineflayer-port')))
  if (CHILD) {
    const result = await clients[CHILD](SEEDS[0]).catch((err) => {
      let sofar = { seed: SEEDS[0], done: {}, deathsByDay: [], causes: {} }
      try { sofar = JSON.parse(fs.readFileSync(RESULT_FILE, 'utf8')) } catch {}
      return { ...sofar, note: `crashed: ${err.message}` }
    })
    fs.writeFileSync(RESULT_FILE, JSON.stringify(result))
    return
  }
  const out = path.join(os.tmpdir(), 'wayfarer-bench-survival.json')
  const results = { wayfarer: [], mineflayer: [] }
  log(`seeds of this run (replay with --seed-list ${SEEDS.join(',')}): ${SEEDS.join(', ')}; ${DAYS} game days each, day clock ×${TIME_SCALE}`)
  const queue = [...SEEDS]
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      await Promise.all(Object.keys(clients).filter((name) => !ONLY || ONLY === name).map(async (name) => {
        const r = await runIsolated(name, seed)
        log(`${name}, seed ${seed}: goals ${Object.keys(r.done).length}/${GOALS.length} (${GOALS.map((g) => `${g.item} ${r.done[g.item] ?? '-'}`).join(', ')}); ` +
          `deaths by day ${r.deathsByDay.join(' / ')}${r.note ? `; ${r.note}` : ''}`)
        results[name].push(r)
        fs.writeFileSync(out, JSON.stringify({ seeds: SEEDS, days: DAYS, timeScale: TIME_SCALE, results }, null, 2))
      }))
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker))
  report({ seeds: SEEDS, days: DAYS, timeScale: TIME_SCALE, results })
  log(`results: ${out}`)
}

/** Prints the side-by-side summary of a run (the object in its results file). */
function report ({ seeds, days, timeScale, results }) {
  const deaths = (r) => r.deathsByDay.reduce((a, b) => a + b, 0)
  const line = (runs) => {
    if (runs.length === 0) return 'not run'
    const goals = runs.reduce((n, r) => n + Object.keys(r.done).length, 0)
    const clean = runs.filter((r) => deaths(r) === 0).length
    const perDay = runs.reduce((n, r) => n + deaths(r), 0) / (runs.length * days)
    return `${clean}/${runs.length} seeds with no death, ${perDay.toFixed(2)} deaths a day, ${goals}/${runs.length * GOALS.length} goals`
  }
  console.log(`\nSurvival in natural worlds, ${seeds.length} seeds (${seeds.join(', ')}), ${days} game days each` +
    (timeScale === 1 ? '' : `, day clock ×${timeScale} (nights ${timeScale} times shorter than vanilla's: fewer monsters)`))
  console.log(`Wayfarer:   ${line(results.wayfarer)}`)
  console.log(`Mineflayer: ${line(results.mineflayer)}`)
  for (const g of GOALS) {
    const held = (runs) => `${runs.filter((r) => r.done[g.item] !== undefined).length}/${runs.length}`
    console.log(`  ${g.goal.padEnd(24)} Wayfarer ${held(results.wayfarer).padEnd(8)} Mineflayer ${held(results.mineflayer)}`)
  }
  const cell = (r) => (r ? `${Object.keys(r.done).length}/${GOALS.length}, ${r.deathsByDay.join(' / ')}${Object.keys(r.causes).length ? ` (${Object.entries(r.causes).map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}` : 'not run')
  console.log('\n| seed | Wayfarer goals, deaths by day | Mineflayer goals, deaths by day |')
  console.log('| --- | --- | --- |')
  for (const seed of seeds) {
    const [w, f] = ['wayfarer', 'mineflayer'].map((name) => results[name].find((r) => r.seed === seed))
    console.log(`| ${seed} | ${cell(w)} | ${cell(f)} |`)
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1) })
