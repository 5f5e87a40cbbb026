#!/usr/bin/env node
// The learning suite: every goal in tests/tasks/tasks.json typed by an owner as `!task GOAL`, with a real LLM behind
// the bot, once from the starter skill library and once from an empty one (each library kept from task to task, as
// a bot that keeps learning would). A task starts from the suite's natural spawn with its own inventory; the world,
// not the bot, judges it: what the bot carries at the end, or the blocks placed near it. The LLM's calls and tokens
// are counted by a proxy in front of the endpoint.
//
// Usage: node tasks.js --bot PATH/TO/wayfarer --llm-url http://127.0.0.1:8012/v1 [--library starter|empty|both]
//                      [--only 1,5,7] [--results FILE] [--logs DIR]
//        node tasks.js --report RESULTS.json [MORE.json]   (the summary again, from one or more results files)
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { countingProxy, checkEndpoint } = require('../lib/llm_proxy')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const SUITE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'tasks', 'tasks.json'), 'utf8'))
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-llm.json'))
const LOGS = arg('logs', path.join(os.tmpdir(), 'wayfarer-bench-llm-logs'))
const PLACEHOLDERS = /^(doTheTask|doTask|task|main|run|solve|solution|performTask|myFunction|func|f)\d*(V\d+)?$/i

const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

if (arg('report')) {
  // One results file or several (each library run on its own), merged.
  const files = process.argv.slice(process.argv.indexOf('--report') + 1).filter((a) => !a.startsWith('--'))
  const merged = { runs: [], libraries: {} }
  for (const file of files) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'))
    Object.assign(merged, { when: saved.when, seed: saved.seed, llm: saved.llm })
    merged.runs.push(...saved.runs)
    // A rerun's library starts afresh: what each run's library learned is added up.
    for (const [name, state] of Object.entries(saved.libraries)) {
      const into = merged.libraries[name] ?? { learned: [], placeholders: [], copies: [] }
      for (const key of ['learned', 'placeholders', 'copies']) into[key] = [...new Set([...into[key], ...(state[key] ?? [])])]
      merged.libraries[name] = into
    }
  }
  report(merged)
  process.exit(0)
}
const BOT = arg('bot')
const LLM_URL = arg('llm-url', process.env.WAYFARER_LLM_URL)
if (!BOT || !fs.existsSync(BOT) || !LLM_URL) {
  console.error('usage: node tasks.js --bot PATH/TO/wayfarer --llm-url URL [--library starter|empty|both] [--only 1,5] [--results FILE]\n' +
    '       node tasks.js --report RESULTS.json\n(make llm serves a local model at http://127.0.0.1:8012/v1)')
  process.exit(2)
}
const LIBRARIES = { both: ['starter', 'empty'], starter: ['starter'], empty: ['empty'] }[arg('library', 'both')]
const ONLY = arg('only', null)?.split(',').map(Number)

/** Positions within `r` of `at` holding `block`. */
async function blocksNear (world, block, at, r) {
  const found = new Set()
  const [cx, cy, cz] = [Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)]
  for (let x = cx - r; x <= cx + r; x++) {
    for (let y = cy - 3; y <= cy + r; y++) {
      for (let z = cz - r; z <= cz + r; z++) {
        if ((await world.cmd({ cmd: 'getBlock', x, y, z })) === block) found.add(`${x},${y},${z}`)
      }
    }
  }
  return found
}

/** What the world says of the target: `{ done, got }`. */
async function judge (world, target, before) {
  if (target.item) {
    const inv = await world.cmd({ cmd: 'inventory', name: 'Wayfarer' }).catch(() => ({}))
    const got = ['log', 'planks'].includes(target.item)
      ? Object.entries(inv).filter(([name]) => name.endsWith(`_${target.item}`)).reduce((n, [, c]) => n + c, 0)
      : inv[target.item] ?? 0
    return { done: got >= target.count, got: `${got}/${target.count} ${target.item}` }
  }
  const name = target.block ?? target.column
  const now = await blocksNear(world, name, before.at, target.within)
  const placed = [...now].filter((p) => !before.blocks.has(p)).map((p) => p.split(',').map(Number))
  if (target.block) return { done: placed.length > 0, got: `${placed.length} new ${name}` }
  // The longest run of new blocks one above another.
  const key = (x, y, z) => `${x},${y},${z}`
  const set = new Set(placed.map(([x, y, z]) => key(x, y, z)))
  let tallest = 0
  for (const [x, y, z] of placed) {
    if (set.has(key(x, y - 1, z))) continue
    let h = 0
    while (set.has(key(x, y + h, z))) h++
    tallest = Math.max(tallest, h)
  }
  return { done: tallest >= target.height, got: `a column of ${tallest} new ${name}` }
}

async function runTask (task, index, skills, proxy, library) {
  const world = await startWorld(['--world', 'natural', '--seed', String(SUITE.seed), '--time', '1000'])
  const logFile = path.join(LOGS, `${library}-${String(index + 1).padStart(2, '0')}.log`)
  const out = fs.openSync(logFile, 'w')
  let bot = null
  const result = { n: index + 1, goal: task.goal, library, done: false, claimed: '', plan: '', calls: 0, tokens: 0, promptTokens: 0, seconds: 0 }
  try {
    const spawnAt = (await world.cmd({ cmd: 'world' })).spawn
    await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: spawnAt.x + 1, y: spawnAt.y + 30, z: spawnAt.z + 1 })
    const config = path.join(path.dirname(skills), 'wayfarer.toml')
    fs.writeFileSync(config, `script_time_limit_secs = ${task.minutes * 60}\n`)
    bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice', '--skills', skills,
      '--config', config, '--llm-url', proxy.url, '--llm-model', 'local'],
    { stdio: ['ignore', out, out], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'wayfarer=info' } })
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 30000)
    for (const [item, count] of Object.entries(task.inventory ?? {})) await world.cmd({ cmd: 'give', name: 'Wayfarer', item, count })
    await sleep(3000)
    const me = (await world.cmd({ cmd: 'players' })).find((p) => p.name === 'Wayfarer')
    const at = { x: me.x, y: me.y, z: me.z }
    const before = { at, blocks: task.target.item ? new Set() : await blocksNear(world, task.target.block ?? task.target.column, at, task.target.within) }
    const meter0 = { ...proxy.meter }
    const started = Date.now()
    const from = world.events.length
    await world.cmd({ cmd: 'say', as: 'Alice', text: `!task ${task.goal}` })
    const ended = (e) => e.event === 'chat' && e.from === 'Wayfarer' &&
      (e.text.startsWith(`I succeeded in task: ${task.goal}`) || e.text.startsWith(`I failed task: ${task.goal} because`))
    const deadline = started + task.minutes * 60000
    while (Date.now() < deadline && !world.events.slice(from).some(ended)) await sleep(500)
    result.seconds = Math.round((Date.now() - started) / 1000)
    const last = world.events.slice(from).find(ended)
    result.claimed = last ? last.text : `no answer within ${task.minutes} min`
    result.plan = world.events.slice(from).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('Plan for'))?.text ?? ''
    if (!last) await world.cmd({ cmd: 'say', as: 'Alice', text: '!stop' })
    const verdict = await judge(world, task.target, before)
    result.done = verdict.done
    result.got = verdict.got
    result.calls = proxy.meter.calls - meter0.calls
    result.promptTokens = proxy.meter.prompt - meter0.prompt
    result.tokens = result.promptTokens + proxy.meter.completion - meter0.completion
    result.llmSeconds = Math.round((proxy.meter.ms - meter0.ms) / 1000)
  } catch (err) {
    result.claimed = `bench error: ${err.message}`
  } finally {
    if (bot) { bot.kill('SIGTERM'); await sleep(500) }
    fs.closeSync(out)
    await world.close()
  }
  return result
}

/** What a library holds: skill names, placeholder names, and copies (the same code under two names). */
function libraryState (dir) {
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.rhai')).map((f) => f.slice(0, -5)).sort()
  const code = new Map()
  const copies = []
  for (const name of names) {
    const body = fs.readFileSync(path.join(dir, `${name}.rhai`), 'utf8').replaceAll(name, 'SELF').replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ').trim()
    if (code.has(body)) copies.push(`${code.get(body)} = ${name}`); else code.set(body, name)
  }
  return { count: names.length, names, placeholders: names.filter((n) => PLACEHOLDERS.test(n)), copies }
}

async function main () {
  await checkEndpoint(LLM_URL)
  fs.mkdirSync(LOGS, { recursive: true })
  const proxy = await countingProxy(LLM_URL)
  const saved = { when: new Date().toISOString(), bot: BOT, llm: LLM_URL, seed: SUITE.seed, runs: [], libraries: {} }
  const starterNames = new Set(fs.readdirSync(path.join(ROOT, 'skills')).filter((f) => f.endsWith('.rhai')).map((f) => f.slice(0, -5)))
  for (const library of LIBRARIES) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayfarer-bench-llm-${library}-`))
    const skills = path.join(dir, 'skills')
    fs.mkdirSync(skills)
    if (library === 'starter') {
      for (const f of fs.readdirSync(path.join(ROOT, 'skills'))) if (/\.(rhai|json)$/.test(f)) fs.copyFileSync(path.join(ROOT, 'skills', f), path.join(skills, f))
    }
    for (const [i, task] of SUITE.tasks.entries()) {
      if (ONLY && !ONLY.includes(i + 1)) continue
      log(`[${library}] ${i + 1}/${SUITE.tasks.length} !task ${task.goal}`)
      const result = await runTask(task, i, skills, proxy, library)
      log(`  ${result.done ? 'done' : 'NOT done'} (${result.got ?? '?'}) in ${result.seconds} s, ${result.calls} LLM call(s), ${result.tokens} tokens; bot: ${result.claimed.slice(0, 140)}`)
      saved.runs.push(result)
      const state = libraryState(skills)
      state.learned = state.names.filter((n) => !starterNames.has(n) || library === 'empty')
      saved.libraries[library] = state
      fs.writeFileSync(RESULTS, JSON.stringify(saved, null, 2))
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
  proxy.close()
  report(saved)
  log(`results: ${RESULTS}; bot logs: ${LOGS}`)
}

function report (saved) {
  const libraries = [...new Set(saved.runs.map((r) => r.library))]
  const goals = [...new Set(saved.runs.map((r) => r.goal))]
  // A task run again (after a fix, or a bench error) counts by its last run.
  const last = (goal, library) => saved.runs.findLast((r) => r.goal === goal && r.library === library)
  saved.runs = libraries.flatMap((l) => goals.map((g) => last(g, l)).filter(Boolean))
  const cell = (r) => r ? `${r.done ? 'yes' : 'no'} · ${r.calls} calls · ${(r.tokens / 1000).toFixed(1)} k tok · ${r.seconds} s` : '—'
  console.log(`\nLearning suite: ${goals.length} goals, seed ${saved.seed}, ${saved.llm} (${saved.when})\n`)
  console.log(`| # | goal | ${libraries.map((l) => `${l} library`).join(' | ')} |`)
  console.log(`|---|---|${libraries.map(() => '---').join('|')}|`)
  for (const goal of goals) {
    const n = saved.runs.find((r) => r.goal === goal).n
    console.log(`| ${n} | ${goal} | ${libraries.map((l) => cell(last(goal, l))).join(' | ')} |`)
  }
  for (const l of libraries) {
    const runs = saved.runs.filter((r) => r.library === l)
    const ok = runs.filter((r) => r.done).length
    const sum = (f) => runs.reduce((n, r) => n + f(r), 0)
    const calls = sum((r) => r.calls)
    const state = saved.libraries[l] ?? { learned: [], placeholders: [], copies: [] }
    console.log(`\n${l} library: ${ok}/${runs.length} done (${Math.round(100 * ok / Math.max(1, runs.length))} %); ` +
      `${calls} LLM calls, ${(sum((r) => r.tokens) / 1000).toFixed(1)} k tokens, ${Math.round(sum((r) => r.seconds) / 60)} min; ` +
      `prompt tokens per call ${calls ? Math.round(sum((r) => r.promptTokens) / calls) : 0}`)
    console.log(`  learned: ${state.learned.length ? state.learned.join(', ') : 'nothing'}; placeholder names: ${state.placeholders.length}; copies: ${state.copies.length ? state.copies.join(', ') : 'none'}`)
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
