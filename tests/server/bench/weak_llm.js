#!/usr/bin/env node
// A smoke run with a model too small to follow the formats (SmolLM2-135M-Instruct, `make llm-smoke` serves it): the
// owner gives a `!task` that needs an LLM plan and asks the bot to `!learn`, and meanwhile asks `!status` every 15 s.
// The bot must stay responsive (each `!status` answered within 5 s), stay bounded (each run ends within its minutes,
// with at most MAX_CALLS calls), and end with a reasoned failure or a success, never silence. Figures are printed
// for the README; the exit status says whether every check held.
//
// Usage: node weak_llm.js --bot PATH/TO/wayfarer --llm-url http://127.0.0.1:8013/v1 [--minutes 10] [--logs DIR]
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { countingProxy, checkEndpoint } = require('../lib/llm_proxy')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const BOT = arg('bot')
const LLM_URL = arg('llm-url')
const MINUTES = Number(arg('minutes', 10))
const LOGS = arg('logs', path.join(os.tmpdir(), 'wayfarer-weak-llm'))
/** No single run may call the LLM more often than this: the bot's own limits (two asks per plan, two re-plans, four
 * attempts a step) keep it far lower. */
const MAX_CALLS = 60
const STATUS_EVERY_MS = 15000
const STATUS_WITHIN_MS = 5000
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** The first event after index `from` that `pred` accepts, waiting up to `ms`; `null` if none comes. */
async function eventAfter (world, from, pred, ms) {
  const deadline = Date.now() + ms
  for (;;) {
    const found = world.events.slice(from).find(pred)
    if (found || Date.now() > deadline) return found ?? null
    await sleep(50)
  }
}
const log = (line) => process.stderr.write(`${line}\n`)

if (!BOT || !fs.existsSync(BOT) || !LLM_URL || !(MINUTES > 0)) {
  console.error('usage: node weak_llm.js --bot PATH/TO/wayfarer --llm-url URL [--minutes 10] [--logs DIR]\n(make llm-smoke runs it)')
  process.exit(2)
}

const RUNS = [
  { command: '!task build a small hut', ended: (t) => t.startsWith('I succeeded in task: build a small hut') || t.startsWith('I failed task: build a small hut because') },
  { command: '!learn start 2', ended: (t) => t.startsWith('Learning done:') }
]

async function main () {
  await checkEndpoint(LLM_URL, 'start it with `make llm-smoke` (or pass --llm-url)')
  fs.mkdirSync(LOGS, { recursive: true })
  const proxy = await countingProxy(LLM_URL)
  const world = await startWorld([])
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-weak-llm-'))
  const out = fs.openSync(path.join(LOGS, 'bot.log'), 'w')
  await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: 3.5, y: 64, z: 3.5 })
  const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice',
    '--skills', path.join(home, 'skills'), '--checkpoint', path.join(home, 'checkpoint'), '--llm-url', proxy.url, '--llm-model', 'smollm2'],
  { stdio: ['ignore', out, out], env: botEnv() })
  let exited = null
  bot.on('exit', (code) => { exited = code })
  const results = []
  let ok = true
  try {
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 60000).catch((err) => {
      throw new Error(exited === null ? err.message : `the bot exited (${exited}) before joining; see ${path.join(LOGS, 'bot.log')}`)
    })
    await sleep(3000)
    for (const run of RUNS) {
      const before = { ...proxy.meter }
      const from = world.events.length
      const started = Date.now()
      log(`${run.command}`)
      await world.cmd({ cmd: 'say', as: 'Alice', text: run.command })
      const latencies = []
      const said = () => world.events.slice(from).filter((e) => e.event === 'chat' && e.from === 'Wayfarer').map((e) => e.text)
      let end = null
      let nextStatus = started + STATUS_EVERY_MS
      while (Date.now() < started + MINUTES * 60000 && !(end = said().find(run.ended))) {
        if (Date.now() >= nextStatus) {
          nextStatus += STATUS_EVERY_MS
          const asked = world.events.length
          const t0 = Date.now()
          await world.cmd({ cmd: 'say', as: 'Alice', text: '!status' })
          const reply = await eventAfter(world, asked, (e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('At '), STATUS_WITHIN_MS * 2)
          latencies.push(reply ? Date.now() - t0 : Infinity)
        }
        await sleep(250)
      }
      const seconds = (Date.now() - started) / 1000
      if (!end) await world.cmd({ cmd: 'say', as: 'Alice', text: '!stop' })
      const lines = said()
      const calls = proxy.meter.calls - before.calls
      const result = {
        command: run.command,
        seconds: Math.round(seconds),
        calls,
        promptTokens: proxy.meter.prompt - before.prompt,
        completionTokens: proxy.meter.completion - before.completion,
        cutAtLimit: proxy.meter.cut - before.cut,
        llmSeconds: Math.round((proxy.meter.ms - before.ms) / 1000),
        stillThinking: lines.filter((t) => t.startsWith('Still thinking')).length,
        statusAsked: latencies.length,
        statusWorstMs: latencies.length ? Math.max(...latencies) : 0,
        end: end ?? `no end within ${MINUTES} min`,
        reasons: lines.filter((t) => / because /.test(t)).slice(0, 4)
      }
      const problems = []
      if (!end) problems.push(`no end within ${MINUTES} min`)
      if (calls > MAX_CALLS) problems.push(`${calls} LLM calls, more than ${MAX_CALLS}`)
      if (result.statusWorstMs > STATUS_WITHIN_MS) problems.push(`a !status took ${result.statusWorstMs} ms`)
      if (end && end.startsWith('I failed') && !/because .{10,}/.test(end)) problems.push('a failure without a reason')
      result.problems = problems
      ok &&= problems.length === 0
      results.push(result)
      log(`  ${end ?? 'no end'}\n  ${seconds.toFixed(0)} s, ${calls} calls, ${result.promptTokens}+${result.completionTokens} tokens, ` +
        `${result.cutAtLimit} cut at max_tokens, !status worst ${result.statusWorstMs} ms${problems.length ? `; PROBLEMS: ${problems.join('; ')}` : ''}`)
      await sleep(2000)
    }
    const asked = world.events.length
    await world.cmd({ cmd: 'say', as: 'Alice', text: '!usage' })
    const usage = await eventAfter(world, asked, (e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('LLM use by me'), 10000)
    report(results, usage ? usage.text : '(no !usage answer)')
  } finally {
    bot.kill('SIGTERM')
    await sleep(500)
    fs.closeSync(out)
    proxy.close()
    await world.close()
    fs.rmSync(home, { recursive: true, force: true })
  }
  log(`bot log: ${path.join(LOGS, 'bot.log')}`)
  process.exit(ok ? 0 : 1)
}

/** The environment for the bot: this one, without settings that would point it elsewhere. */
function botEnv () {
  const env = { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'wayfarer=info' }
  for (const key of ['WAYFARER_CONFIG', 'WAYFARER_LLM_URL', 'WAYFARER_LLM_MODEL', 'WAYFARER_LLM_BUDGET', 'OPENAI_API_KEY']) delete env[key]
  return env
}

function report (results, usage) {
  console.log(`\nWeak-model smoke: ${LLM_URL}, up to ${MINUTES} min a run\n`)
  console.log('| command | wall time | LLM calls | tokens (prompt + completion) | cut at max_tokens | LLM time | "Still thinking" | worst !status reply | how it ended |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const r of results) {
    console.log(`| \`${r.command}\` | ${r.seconds} s | ${r.calls} | ${r.promptTokens} + ${r.completionTokens} | ${r.cutAtLimit} | ${r.llmSeconds} s | ` +
      `${r.stillThinking} | ${r.statusWorstMs} ms (${r.statusAsked} asked) | ${r.end.replaceAll('|', '/').slice(0, 160)} |`)
  }
  console.log(`\n${usage}`)
  for (const r of results) for (const reason of r.reasons) console.log(`  ${r.command}: ${reason.slice(0, 200)}`)
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.command}: ${p}`))
  console.log(problems.length ? `\nPROBLEMS:\n  ${problems.join('\n  ')}` : '\nAll checks held: bounded, responsive, every run ended with a reason.')
}

main().catch((err) => { console.error(err); process.exit(1) })
