#!/usr/bin/env node
// A learning run as an owner would start it: `wayfarer learn` on a natural world with the LLM at --llm-url, from the
// starter library (or an empty one), for a fixed time. Afterwards, from the bot's own checkpoint (events.jsonl: one
// line per task, with what the world showed changed and which library skills the code called) and its skill folder:
// the skills it added, whether the world confirmed each (a change the server reported while its task ran), copies
// (the same code under two names, or a second skill for the same task), and the later tasks that called a skill
// learned earlier in the run. LLM calls and tokens are counted by a proxy in front of the endpoint.
//
// Usage: node learn_run.js --bot PATH/TO/wayfarer --llm-url http://127.0.0.1:8012/v1 [--minutes 30]
//                          [--library starter|empty] [--seed N] [--results FILE] [--logs DIR]
//        node learn_run.js --report RESULTS.json
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { countingProxy, checkEndpoint } = require('../lib/llm_proxy')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const MINUTES = Number(arg('minutes', '30'))
const LIBRARY = arg('library', 'starter')
const SEED = Number(arg('seed', '7'))
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-learn.json'))
const LOGS = arg('logs', path.join(os.tmpdir(), 'wayfarer-bench-learn-logs'))

const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function usage (problem) {
  process.stderr.write(`learn_run.js: ${problem}\nusage: node learn_run.js --bot PATH --llm-url URL [--minutes 30] [--library starter|empty] [--seed N] [--results FILE] [--logs DIR]\n       node learn_run.js --report RESULTS.json\n`)
  process.exit(2)
}

/** Each skill file's code with its own name, comments and spacing taken out, to find the same code twice. */
function skillCode (dir, name) {
  return fs.readFileSync(path.join(dir, `${name}.rhai`), 'utf8').replaceAll(name, 'SELF').replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ').trim()
}

/** What the run did, from the checkpoint's events and the skill folder. */
function analyse (events, skillsDir, starter) {
  const names = fs.readdirSync(skillsDir).filter((f) => f.endsWith('.rhai')).map((f) => f.slice(0, -5)).sort()
  const added = names.filter((n) => !starter.has(n))
  const learned = []
  const reused = []
  for (const [i, event] of events.entries()) {
    const earlier = new Set(learned.map((l) => l.name))
    const calls = (event.used ?? []).filter((n) => earlier.has(n))
    if (event.outcome === 'succeeded' && calls.length) reused.push({ task: event.task, n: i + 1, calls })
    if (event.outcome === 'succeeded' && event.skill) {
      learned.push({ name: event.skill, task: event.task, n: i + 1, attempts: event.attempts, changed: event.changed ?? [] })
    }
  }
  // A later skill whose code calls an earlier one reuses it too, even when its task's event says nothing of it.
  for (const [i, skill] of learned.entries()) {
    if (!fs.existsSync(path.join(skillsDir, `${skill.name}.rhai`))) continue
    const code = fs.readFileSync(path.join(skillsDir, `${skill.name}.rhai`), 'utf8')
    const calls = learned.slice(0, i).map((l) => l.name).filter((n) => n !== skill.name && new RegExp(`\\b${n}\\s*\\(`).test(code))
    if (calls.length && !reused.some((r) => r.n === skill.n)) reused.push({ task: skill.task, n: skill.n, calls })
  }
  const copies = []
  const byCode = new Map()
  for (const name of names) {
    const code = skillCode(skillsDir, name)
    if (byCode.has(code)) copies.push(`${byCode.get(code)} = ${name}`); else byCode.set(code, name)
  }
  const byTask = new Map()
  for (const skill of learned) {
    const task = skill.task.toLowerCase().replace(/\s+/g, ' ').trim()
    if (byTask.has(task) && byTask.get(task) !== skill.name) copies.push(`${byTask.get(task)} and ${skill.name} for "${skill.task}"`)
    else byTask.set(task, skill.name)
  }
  return {
    tasks: events.length,
    succeeded: events.filter((e) => e.outcome === 'succeeded').length,
    failed: events.filter((e) => e.outcome === 'failed').length,
    added,
    learned,
    confirmed: learned.filter((l) => l.changed.length > 0).map((l) => l.name),
    reused,
    copies,
    calls: events.reduce((n, e) => n + (e.calls ?? 0), 0),
    tokens: events.reduce((n, e) => n + (e.tokens ?? 0), 0),
    events: events.map((e) => ({ task: e.task, outcome: e.outcome, skill: e.skill, used: e.used ?? [], attempts: e.attempts, reason: e.reason ?? '' }))
  }
}

async function main () {
  const BOT = arg('bot')
  const LLM_URL = arg('llm-url')
  if (!BOT) usage('--bot is required: the wayfarer binary to run')
  if (!LLM_URL) usage('--llm-url is required (start `make llm` first)')
  if (!(MINUTES > 0)) usage(`--minutes must be a positive number, not ${arg('minutes')}`)
  if (!['starter', 'empty'].includes(LIBRARY)) usage(`--library must be starter or empty, not ${LIBRARY}`)
  await checkEndpoint(LLM_URL)
  fs.mkdirSync(LOGS, { recursive: true })
  const proxy = await countingProxy(LLM_URL)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayfarer-bench-learn-${LIBRARY}-`))
  const skills = path.join(dir, 'skills')
  const checkpoint = path.join(dir, 'checkpoint')
  fs.mkdirSync(skills)
  const starter = new Set()
  if (LIBRARY === 'starter') {
    for (const f of fs.readdirSync(path.join(ROOT, 'skills'))) {
      if (!/\.(rhai|json)$/.test(f)) continue
      fs.copyFileSync(path.join(ROOT, 'skills', f), path.join(skills, f))
      if (f.endsWith('.rhai')) starter.add(f.slice(0, -5))
    }
  }
  const world = await startWorld(['--world', 'natural', '--seed', String(SEED)])
  const logFile = path.join(LOGS, `learn-${LIBRARY}.log`)
  const out = fs.openSync(logFile, 'w')
  log(`learning for ${MINUTES} min from the ${LIBRARY} library on natural seed ${SEED}; bot log: ${logFile}`)
  const started = Date.now()
  const bot = spawn(BOT, ['learn', '--max-iterations', '1000', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer',
    '--skills', skills, '--checkpoint', checkpoint, '--llm-url', proxy.url, '--llm-model', 'local'],
  { stdio: ['ignore', out, out], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'wayfarer=info' } })
  const exited = new Promise((resolve) => bot.once('exit', resolve))
  let ended = false
  exited.then(() => { ended = true })
  // Progress as the bot says it in chat.
  let seen = 0
  while (!ended && Date.now() - started < MINUTES * 60000) {
    await sleep(2000)
    for (const e of world.events.slice(seen)) {
      if (e.event === 'chat' && e.from === 'Wayfarer' && /^(I will start task|I succeeded in task|I failed task|I stopped learning|The curriculum gave no usable task)/.test(e.text)) {
        log(`  ${Math.round((Date.now() - started) / 60000)} min: ${e.text.slice(0, 160)}`)
      }
    }
    seen = world.events.length
  }
  if (!ended) {
    bot.kill('SIGTERM')
    await Promise.race([exited, sleep(10000)])
    if (!ended) bot.kill('SIGKILL')
  }
  fs.closeSync(out)
  await world.close()
  proxy.close()
  const eventsFile = path.join(checkpoint, 'Wayfarer', 'events.jsonl')
  const events = fs.existsSync(eventsFile)
    ? fs.readFileSync(eventsFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
    : []
  const result = {
    when: new Date().toISOString(),
    bot: BOT,
    llm: LLM_URL,
    seed: SEED,
    library: LIBRARY,
    minutes: Math.round((Date.now() - started) / 6000) / 10,
    proxy: { calls: proxy.meter.calls, prompt: proxy.meter.prompt, completion: proxy.meter.completion },
    ...analyse(events, skills, starter),
    skills: {}
  }
  for (const l of result.learned) {
    const file = path.join(skills, `${l.name}.rhai`)
    if (fs.existsSync(file)) result.skills[l.name] = fs.readFileSync(file, 'utf8')
  }
  fs.writeFileSync(RESULTS, JSON.stringify(result, null, 2))
  fs.rmSync(dir, { recursive: true, force: true })
  report(result)
  log(`results: ${RESULTS}; bot log: ${logFile}`)
}

function report (r) {
  console.log(`\nLearning run: ${r.minutes} min from the ${r.library} library, natural seed ${r.seed}, ${r.llm} (${r.when})\n`)
  console.log('| # | task | outcome | skill learned | library skills called |')
  console.log('|---|---|---|---|---|')
  for (const [i, e] of r.events.entries()) {
    console.log(`| ${i + 1} | ${e.task} | ${e.outcome}${e.outcome === 'failed' ? `: ${e.reason.slice(0, 80)}` : ''} | ${e.skill ?? ''} | ${e.used.join(', ')} |`)
  }
  console.log(`\ntasks ${r.tasks}: ${r.succeeded} succeeded, ${r.failed} failed; LLM calls ${r.proxy.calls}, tokens ${r.proxy.prompt + r.proxy.completion}`)
  console.log(`new skills: ${r.learned.length} (${r.learned.map((l) => l.name).join(', ') || 'none'}); confirmed by the world: ${r.confirmed.length}`)
  for (const l of r.learned) console.log(`  ${l.name} (task ${l.n}: ${l.task}): ${l.changed.join('; ') || 'no change reported'}`)
  console.log(`copies: ${r.copies.length ? r.copies.join('; ') : 'none'}`)
  console.log(`reused later: ${r.reused.length ? r.reused.map((u) => `task ${u.n} (${u.task}) called ${u.calls.join(', ')}`).join('; ') : 'none'}`)
  const pass = r.confirmed.length >= 3 && r.copies.length === 0 && r.reused.length > 0
  console.log(`\ngoal (≥ 3 world-confirmed new skills, no copy, one reused): ${pass ? 'met' : 'not met'}`)
}

if (arg('report')) {
  report(JSON.parse(fs.readFileSync(arg('report'), 'utf8')))
} else {
  main().catch((err) => { log(`learn_run.js: ${err.stack || err}`); process.exit(1) })
}
