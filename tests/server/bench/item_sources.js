#!/usr/bin/env node
// Item goals from every kind of source (tests/tasks/item_goals.json: wood, tools, armour, ores at every height,
// surface blocks, dyes, wool, food, animal products, fluids, monster drops, redstone parts, decorations, and items the
// overworld does not give), each typed by an owner as `!task GOAL` to a bot with no LLM in a fresh natural world of
// each seed, with monsters, and judged by the world: the bot's inventory gained the item within the game-time limit,
// or the goal was refused at once with the right reason and nothing planned. Every plan is checked for steps through
// an item the overworld does not give.
//
// Usage: node item_sources.js --bot PATH/TO/wayfarer [--seeds 3|2024,3371] [--minutes 10] [--parallel 2] [--only 1,5,7]
//                             [--results FILE] [--logs DIR]
//        node item_sources.js --report RESULTS.json
// The seeds are the bench's own: the first N of SEEDS below, picked once so that runs compare.
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const SUITE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'tasks', 'item_goals.json'), 'utf8'))
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-items.json'))
const LOGS = arg('logs', path.join(os.tmpdir(), 'wayfarer-bench-items-logs'))
const SEEDS = [1013, 2024, 3371]
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Items the overworld never gives (sources.toml's `[only]` table): no plan step may get one. */
function neverGiven () {
  const text = fs.readFileSync(path.join(ROOT, 'src', 'primitives', 'data', 'sources.toml'), 'utf8')
  const only = text.slice(text.indexOf('\n[only]'))
  return new Set([...only.matchAll(/^([a-z0-9_]+) = "/gm)].map((m) => m[1]))
}
const NEVER = neverGiven()

/** How many of `item` the world counts in the bot's inventory (`_planks`: any planks). */
async function count (world, item) {
  const inv = await world.cmd({ cmd: 'inventory', name: 'Wayfarer' }).catch(() => ({}))
  return Object.entries(inv).filter(([name]) => (item.startsWith('_') ? name.endsWith(item) : name === item)).reduce((n, [, c]) => n + c, 0)
}

/** Ticks since the world began, from its clock. */
async function ticks (world) {
  const w = await world.cmd({ cmd: 'world' })
  return w.day * 24000 + w.time
}

async function runGoal (task, index, seed, minutes) {
  const world = await startWorld(['--world', 'natural', '--seed', String(seed), '--time', String(task.time ?? 1000)])
  const logFile = path.join(LOGS, `seed${seed}-${String(index + 1).padStart(2, '0')}.log`)
  const out = fs.openSync(logFile, 'w')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-items-'))
  let bot = null
  const result = { n: index + 1, seed, goal: task.goal, kind: task.kind, done: false, said: '', plan: '', seconds: 0, gameSeconds: 0 }
  try {
    const spawnAt = (await world.cmd({ cmd: 'world' })).spawn
    const [ax, az] = [Math.floor(spawnAt.x) + 2, Math.floor(spawnAt.z) + 2]
    const ground = await world.cmd({ cmd: 'surface', x: ax, z: az })
    await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: ax + 0.5, y: ground.y + 1, z: az + 0.5 })
    fs.mkdirSync(path.join(dir, 'skills'))
    const config = path.join(dir, 'wayfarer.toml')
    fs.writeFileSync(config, `script_time_limit_secs = ${minutes * 60}\n`)
    const env = { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'wayfarer=info' }
    delete env.WAYFARER_LLM_URL
    bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice',
      '--skills', path.join(dir, 'skills'), '--checkpoint', path.join(dir, 'checkpoint'), '--config', config],
    { stdio: ['ignore', out, out], env })
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 30000)
    for (const [item, n] of Object.entries(task.give ?? {})) await world.cmd({ cmd: 'give', name: 'Wayfarer', item, count: n })
    await sleep(2000)
    const had = task.item ? await count(world, task.item) : 0
    const started = Date.now()
    const tick0 = await ticks(world)
    const from = world.events.length
    await world.cmd({ cmd: 'say', as: 'Alice', text: `Wayfarer !task ${task.goal}` })
    const ended = (e) => e.event === 'chat' && e.from === 'Wayfarer' &&
      (e.text.startsWith(`I succeeded in task: ${task.goal}`) || e.text.startsWith(`I failed task: ${task.goal} because`))
    const deadline = started + minutes * 60000
    let last = null
    while (Date.now() < deadline && !(last = world.events.slice(from).find(ended))) await sleep(task.refuse ? 50 : 1000)
    result.seconds = Math.round((Date.now() - started) / 100) / 10
    result.gameSeconds = Math.round((await ticks(world) - tick0) / 20)
    result.said = last ? last.text : `no answer within ${minutes} game minutes`
    result.plan = world.events.slice(from).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('Plan for'))?.text ?? ''
    const steps = result.plan.split(': ').slice(1).join(': ').replace(/\.$/, '').split('; ').filter(Boolean)
    result.through = steps.filter((s) => s.split(/[ ,]+/).some((w) => NEVER.has(w)))
    if (task.refuse) {
      result.done = last !== null && last.text.endsWith(task.refuse) && !result.plan && result.seconds < 1
      result.why = result.done ? '' : `expected "${task.refuse}" at once with no plan; got "${result.said}" after ${result.seconds} s`
    } else {
      const got = await count(world, task.item) - had
      result.done = got >= task.count
      result.got = got
      if (!result.done) result.why = last ? result.said.replace(/^I failed task: .*? because /, '') : result.said
    }
    if (!last) {
      await world.cmd({ cmd: 'say', as: 'Alice', text: 'Wayfarer !stop' })
      await sleep(1000)
    }
  } catch (err) {
    result.why = `bench error: ${err.message}`
    result.error = true
  } finally {
    if (bot) bot.kill('SIGTERM')
    await sleep(500)
    fs.closeSync(out)
    await world.close()
    // The world's log and its events (pickups, kills, chat), for reading a failure afterwards.
    const events = world.events.filter((e) => e.event !== 'chunk').map((e) => JSON.stringify(e))
    fs.writeFileSync(logFile.replace(/\.log$/, '.world.log'), [...world.log, ...events].join('\n') + '\n')
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return result
}

const BOT = arg('bot')

async function main () {
  if (arg('report')) {
    report(JSON.parse(fs.readFileSync(arg('report'), 'utf8')).runs)
    return
  }
  if (!BOT || !fs.existsSync(BOT)) {
    console.error('usage: node item_sources.js --bot PATH/TO/wayfarer [--seeds 3|2024,3371] [--minutes 10] [--parallel 2] [--only 1,5]\n' +
      '       node item_sources.js --report RESULTS.json')
    process.exit(2)
  }
  fs.mkdirSync(LOGS, { recursive: true })
  // --seeds N: the first N of the bench's seeds; --seeds 2024,3371: those seeds.
  const seedsArg = String(arg('seeds', 3))
  const seeds = seedsArg.includes(',') || Number(seedsArg) > SEEDS.length ? seedsArg.split(',').map(Number) : SEEDS.slice(0, Number(seedsArg))
  const minutes = Number(arg('minutes', 10))
  const parallel = Math.max(1, Number(arg('parallel', 2)))
  const only = arg('only', null)?.split(',').map(Number)
  const jobs = seeds.flatMap((seed) => SUITE.goals.map((task, i) => ({ task, i, seed }))).filter(({ i }) => !only || only.includes(i + 1))
  const runs = []
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const { task, i, seed } = jobs[next++]
      const result = await runGoal(task, i, seed, minutes)
      log(`seed ${seed} ${i + 1}/${SUITE.goals.length} !task ${task.goal}: ${result.done ? 'done' : 'NOT done'} in ${result.gameSeconds} game s` +
        `${result.why ? ` — ${result.why.slice(0, 160)}` : ''}${result.through?.length ? ` — PLAN THROUGH ${result.through.join(', ')}` : ''}`)
      runs.push(result)
      fs.writeFileSync(RESULTS, JSON.stringify({ when: new Date().toISOString(), seeds, minutes, runs }, null, 2))
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  report(runs)
  log(`results: ${RESULTS}; bot logs: ${LOGS}`)
  if (runs.some((r) => r.error)) process.exit(1)
}

function report (runs) {
  runs.sort((a, b) => a.seed - b.seed || a.n - b.n)
  const seeds = [...new Set(runs.map((r) => r.seed))]
  const goals = [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b)
  console.log(`\nItem goals: ${goals.length} on ${seeds.length} seed(s), no LLM, judged by the world\n`)
  console.log(`| # | goal | kind | ${seeds.map((s) => `seed ${s}`).join(' | ')} |`)
  console.log(`|---|---|---|${seeds.map(() => '---').join('|')}|`)
  for (const n of goals) {
    const any = runs.find((r) => r.n === n)
    const cell = (r) => !r ? '—' : r.done ? `done, ${r.gameSeconds} s` : `**not done**: ${(r.why ?? '').slice(0, 80)}`
    console.log(`| ${n} | ${any.goal} | ${any.kind} | ${seeds.map((s) => cell(runs.find((r) => r.n === n && r.seed === s))).join(' | ')} |`)
  }
  const reachable = runs.filter((r) => r.kind !== 'unreachable')
  const refused = runs.filter((r) => r.kind === 'unreachable')
  const done = reachable.filter((r) => r.done)
  const times = done.map((r) => r.gameSeconds).sort((a, b) => a - b)
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  console.log(`\nreachable goals done: ${done.length}/${reachable.length} (${Math.round(100 * done.length / Math.max(1, reachable.length))} %); ` +
    `game time p50 ${at(0.5)} s, p90 ${at(0.9)} s, max ${times[times.length - 1] ?? 0} s`)
  console.log(`unreachable goals refused at once with the right reason: ${refused.filter((r) => r.done).length}/${refused.length}`)
  console.log(`plans through an item the overworld does not give: ${runs.filter((r) => r.through?.length).length}`)
  for (const kind of [...new Set(reachable.map((r) => r.kind))]) {
    const mine = reachable.filter((r) => r.kind === kind)
    console.log(`  ${kind}: ${mine.filter((r) => r.done).length}/${mine.length}`)
  }
  const failed = runs.filter((r) => !r.done)
  if (failed.length) {
    console.log('\nfailures:')
    for (const r of failed) console.log(`  seed ${r.seed} #${r.n} ${r.goal}: ${r.why}`)
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
