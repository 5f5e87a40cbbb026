#!/usr/bin/env node
// The tech tree in natural worlds, Wayfarer beside Mineflayer: from a fresh surface spawn with an empty inventory,
// monsters, hunger and night on (the world starts at noon, so night falls within 6 minutes), each client climbs to
// a wooden, stone and iron pickaxe and a diamond (Voyager's milestones) with no LLM: Wayfarer with its starter skills
// (one `!run techTree`, run again if it fails, as an owner would), Mineflayer with the same tree written as a script
// with the plugins its users reach for (mineflayer-pathfinder, -collectblock, -tool, -auto-eat, -pvp).
//
// Game time to each milestone is read from the world's clock; deaths from its events. The seeds are drawn at random
// for each run (and printed first, so a run can be replayed with --seed-list), so no seed is kept because a client
// passes on it; --fixed takes the bench's own list instead (hashed from each index).
//
// Usage: node natural.js --bot PATH/TO/wayfarer [--seeds 10] [--minutes 15] [--parallel 1] [--seed S | --seed-list A,B,… | --fixed] [--only wayfarer|mineflayer]
//        node natural.js --report RESULTS.json   (the summary of an earlier run again, from its results file)
'use strict'

const { spawn } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { equipBot, techTree } = require('./mineflayer_tree')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const BOT = arg('bot')
const SEED_COUNT = Number(arg('seeds', 10))
const MINUTES = Number(arg('minutes', 15))
const ONLY = arg('only', null)
const PARALLEL = Math.max(1, Number(arg('parallel', 1)))
const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'diamond']
const TICKS_PER_MINUTE = 1200
/** The run's seeds: one given (--seed), a list given (--seed-list), the bench's fixed list (--fixed: the first 31
 * bits of SHA-256("wayfarer natural bench N")), or SEED_COUNT drawn at random (the default). */
const SEEDS = arg('seed', null) !== null
  ? [Number(arg('seed'))]
  : arg('seed-list', null) !== null
    ? arg('seed-list').split(',').map(Number)
    : process.argv.includes('--fixed')
      ? Array.from({ length: SEED_COUNT }, (_, i) =>
        crypto.createHash('sha256').update(`wayfarer natural bench ${i + 1}`).digest().readUInt32BE(0) & 0x7fffffff)
      : Array.from({ length: SEED_COUNT }, () => crypto.randomInt(0x7fffffff))
if (SEEDS.some((seed) => !Number.isInteger(seed) || seed < 0)) { console.error(`seeds must be whole numbers: ${SEEDS}`); process.exit(2) }

// Each race runs in a child process of its own (`--child NAME --seed S --result FILE`), so that a client that eats
// memory without end (a pathfinder searching for good) ends only its own run, with what it reached so far.
const CHILD = arg('child', null)
const RESULT_FILE = arg('result', null)
const CHILD_HEAP_MB = 6144

if (arg('report')) {
  // Re-prints the summary of an earlier run's results file (written after every run, so a cut-short run has one too).
  let saved
  try { saved = JSON.parse(fs.readFileSync(arg('report'), 'utf8')) } catch (err) { console.error(`cannot read the results file: ${err.message}`); process.exit(2) }
  report(saved)
  process.exit(0)
}
if (!BOT || !fs.existsSync(BOT)) { console.error('usage: node natural.js --bot PATH/TO/wayfarer [--seeds 10] [--minutes 15] [--parallel 1] [--seed S | --seed-list A,B,… | --fixed] [--only wayfarer|mineflayer]\n       node natural.js --report RESULTS.json'); process.exit(2) }

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const log = (line) => process.stderr.write(`${line}\n`)
const trace = process.env.BENCH_DEBUG ? (line) => log(`  mineflayer: ${line}`) : () => {}

/** Starts the seed's world at noon and follows one player's milestones and deaths until `done()` or time is up. */
async function race (seed, name, play) {
  const world = await startWorld(['--world', 'natural', '--seed', String(seed), '--time', '6000'])
  const result = { seed, milestones: {}, deaths: 0, note: '' }
  let stop = null
  try {
    const spawnAt = (await world.cmd({ cmd: 'world' })).spawn
    const startAge = () => world.cmd({ cmd: 'world' }).then((w) => w.age)
    const limitTicks = MINUTES * TICKS_PER_MINUTE
    const session = await play(world, spawnAt)
    stop = session.stop
    const t0 = await startAge()
    let lastPulse = -Infinity
    while (true) {
      const age = (await startAge()) - t0
      const inv = await world.cmd({ cmd: 'inventory', name }).catch(() => ({}))
      for (const m of MILESTONES) if (result.milestones[m] === undefined && (inv[m] ?? 0) > 0) result.milestones[m] = age
      const deaths = world.events.filter((e) => e.event === 'death' && e.name === name)
      result.deaths = deaths.length
      result.causes = {}
      for (const d of deaths) result.causes[d.cause] = (result.causes[d.cause] ?? 0) + 1
      if (process.env.BENCH_DEBUG && age - lastPulse >= 300) {
        lastPulse = age
        const life = await world.cmd({ cmd: 'health', name }).catch(() => null)
        const at = (await world.cmd({ cmd: 'players' }).catch(() => [])).find?.((p) => p.name === name)
        log(`  ${name} ${(age / TICKS_PER_MINUTE).toFixed(1)}m: health ${life?.health?.toFixed?.(1)}, food ${life?.food}, at ${at ? [at.x, at.y, at.z].map(Math.floor).join(' ') : '?'}, deaths ${deaths.map((d) => d.cause).join(' ')}`)
      }
      if (RESULT_FILE) fs.writeFileSync(RESULT_FILE, JSON.stringify({ ...result, note: `cut short at ${(age / TICKS_PER_MINUTE).toFixed(1)} game minutes` }))
      if (result.milestones.diamond !== undefined || age >= limitTicks || session.finished()) break
      await sleep(1000)
    }
    result.note = session.note()
  } finally {
    if (stop) await stop()
    await world.close()
  }
  return result
}

/** Wayfarer: the release binary, the starter skills and a `techTree` skill calling them in order. */
async function wayfarer (seed) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-natural-'))
  const skills = path.join(dir, 'skills')
  fs.mkdirSync(skills)
  const repoSkills = path.join(__dirname, '..', '..', '..', 'skills')
  for (const f of fs.readdirSync(repoSkills)) if (/\.(rhai|json)$/.test(f)) fs.copyFileSync(path.join(repoSkills, f), path.join(skills, f))
  fs.writeFileSync(path.join(skills, 'techTree.rhai'),
    'fn techTree() { craftWoodenPickaxe(); craftStonePickaxe(); craftIronPickaxe(); mineDiamond(1); "done" }\n')
  fs.writeFileSync(path.join(skills, 'techTree.json'), JSON.stringify({ description: 'Climbs the tech tree from nothing: wooden, stone and iron pickaxe, then a diamond.', task: '', created: '2026-11-23T00:00:00Z', version: 1 }))
  const config = path.join(dir, 'wayfarer.toml')
  fs.writeFileSync(config, `script_time_limit_secs = ${MINUTES * 60 + 60}\n`)
  return race(seed, 'Wayfarer', async (world, spawnAt) => {
    await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: spawnAt.x + 1, y: spawnAt.y + 30, z: spawnAt.z + 1 })
    const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice', '--skills', skills, '--config', config],
      { stdio: ['ignore', 'ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? (process.env.BENCH_DEBUG ? 'wayfarer=info' : 'warn') } })
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 30000)
    await sleep(2000)
    let runs = 0
    let last = ''
    const start = () => { runs++; world.cmd({ cmd: 'say', as: 'Alice', text: '!run techTree' }) }
    start()
    // An owner runs it again when it fails (the skills skip what is already done).
    const watcher = setInterval(() => {
      const failed = world.events.filter((e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('techTree failed'))
      if (failed.length >= runs) { last = failed[failed.length - 1].text; start() }
    }, 1000)
    return {
      finished: () => world.events.some((e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('techTree finished')),
      note: () => `${runs} run(s)${last ? `; last failure: ${last.slice(0, 160)}` : ''}`,
      stop: async () => { clearInterval(watcher); bot.kill('SIGTERM'); fs.rmSync(dir, { recursive: true, force: true }) }
    }
  })
}

/** Mineflayer: the same tree, the way a Mineflayer user writes it with the usual plugins. */
async function mineflayer (seed) {
  return race(seed, 'Mineflayer', async (world) => {
    const bot = await world.bot('Mineflayer')
    equipBot(bot)
    let stopped = false
    let done = false
    let error = ''
    const run = async () => {
      while (!stopped && !done) {
        try { await techTree(bot, () => stopped); done = true } catch (err) { error = String(err?.message ?? err); trace(`failed: ${error}`); await sleep(1000) }
      }
    }
    run()
    return {
      finished: () => done,
      note: () => (error ? `last error: ${error.slice(0, 160)}` : ''),
      stop: async () => { stopped = true; bot.pathfinder.stop(); bot.pvp.stop(); bot.quit(); bot.removeAllListeners() }
    }
  })
}

function median (xs) {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** Runs `name`'s race on `seed` in a child process; resolves to its result, or to what it reached if it died. */
function runIsolated (name, seed) {
  const file = path.join(os.tmpdir(), `wayfarer-bench-${name}-${seed}-${process.pid}.json`)
  const args = [`--max-old-space-size=${CHILD_HEAP_MB}`, __filename, '--child', name, '--seed', String(seed), '--bot', BOT,
    '--minutes', String(MINUTES), '--result', file]
  // Its own process group, so the world and the bot it started go with it whatever way it ends.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true })
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
      let result = { seed, milestones: {}, deaths: 0, note: '' }
      try { result = JSON.parse(fs.readFileSync(file, 'utf8')) } catch {}
      fs.rmSync(file, { force: true })
      if (code !== 0) result.note = `its process died (${signal ?? `exit ${code}`}, out of memory at ${CHILD_HEAP_MB} MB?); ${result.note}`
      resolve(result)
    })
  })
}

async function main () {
  const clients = { wayfarer, mineflayer }
  if (CHILD) {
    const result = await clients[CHILD](SEEDS[0]).catch((err) => {
      let sofar = { seed: SEEDS[0], milestones: {}, deaths: 0 }
      try { sofar = JSON.parse(fs.readFileSync(RESULT_FILE, 'utf8')) } catch {}
      return { ...sofar, note: `crashed: ${err.message}` }
    })
    fs.writeFileSync(RESULT_FILE, JSON.stringify(result))
    return
  }
  const results = { wayfarer: [], mineflayer: [] }
  // Both clients race each seed at once (and PARALLEL seeds at a time), each in its own world: times are game time,
  // read from each world's clock, so a world slowed by the machine's load slows its own clock with it.
  const out = path.join(os.tmpdir(), 'wayfarer-bench-natural.json')
  log(`seeds of this run (replay with --seed-list ${SEEDS.join(',')}): ${SEEDS.join(', ')}`)
  const queue = [...SEEDS]
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      await Promise.all(Object.entries(clients).filter(([name]) => !ONLY || ONLY === name).map(async ([name]) => {
        const r = await runIsolated(name, seed)
        const got = MILESTONES.map((m) => (r.milestones[m] === undefined ? `${m} -` : `${m} ${(r.milestones[m] / TICKS_PER_MINUTE).toFixed(1)}m`))
        log(`${name}, seed ${seed}: ${got.join(', ')}; deaths ${r.deaths}${r.deaths ? ` (${Object.entries(r.causes ?? {}).map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}${r.note ? `; ${r.note}` : ''}`)
        results[name].push(r)
        fs.writeFileSync(out, JSON.stringify({ seeds: SEEDS, minutes: MINUTES, results }, null, 2))
      }))
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker))
  report({ seeds: SEEDS, minutes: MINUTES, results })
  log(`results: ${out}`)
}

/** Prints the side-by-side summary of a run's results (the object written to the results file). */
function report ({ seeds, minutes, results }) {
  const cell = (runs, m) => {
    if (runs.length === 0) return 'not run'
    const times = runs.map((r) => r.milestones[m]).filter((t) => t !== undefined)
    const med = median(times)
    return `${times.length}/${runs.length}, ${med === null ? '-' : `${(med / TICKS_PER_MINUTE).toFixed(1)} min`}`
  }
  console.log(`\nTech tree from a natural spawn, ${seeds.length} seeds (${seeds.join(', ')}), monsters, hunger and night on, ${minutes} game minutes a run`)
  console.log('milestone'.padEnd(16) + 'Wayfarer: reached, median time'.padEnd(34) + 'Mineflayer: reached, median time')
  for (const m of MILESTONES) console.log(m.padEnd(16) + cell(results.wayfarer, m).padEnd(34) + cell(results.mineflayer, m))
  const deaths = (runs) => (runs.length ? (runs.reduce((n, r) => n + r.deaths, 0) / runs.length).toFixed(2) : '-')
  console.log('deaths per run'.padEnd(16) + deaths(results.wayfarer).padEnd(34) + deaths(results.mineflayer))
  const causes = (runs) => {
    const all = {}
    for (const r of runs) for (const [c, n] of Object.entries(r.causes ?? {})) all[c] = (all[c] ?? 0) + n
    return Object.entries(all).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ') || 'none'
  }
  console.log('deaths by cause'.padEnd(16) + causes(results.wayfarer).padEnd(34) + causes(results.mineflayer))
  // Per seed, as a Markdown table for the README.
  const at = (r, m) => (r.milestones[m] === undefined ? '–' : (r.milestones[m] / TICKS_PER_MINUTE).toFixed(1))
  const row = (r) => (r ? `${MILESTONES.map((m) => at(r, m)).join(' / ')}, ${r.deaths}` : 'not run')
  console.log('\n| seed | Wayfarer wooden / stone / iron / diamond (min), deaths | Mineflayer wooden / stone / iron / diamond (min), deaths |')
  console.log('| --- | --- | --- |')
  for (const seed of seeds) {
    const [w, f] = ['wayfarer', 'mineflayer'].map((name) => results[name].find((r) => r.seed === seed))
    console.log(`| ${seed} | ${row(w)} | ${row(f)} |`)
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1) })
