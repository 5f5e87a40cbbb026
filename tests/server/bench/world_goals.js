#!/usr/bin/env node
// Goals no recipe plans (tests/tasks/world_goals.json): build shapes, dig, clear, stand on or go to things, put
// things in containers, place relative to other blocks, light an area, hand items to a player. Each is typed by an
// owner as `!task GOAL` in the flat test world with a real or a do-nothing LLM behind the bot, and judged by the
// world's own state afterwards, never by the bot's words. A false success is the bot saying "I succeeded" when the
// world disagrees. The LLM's calls and tokens are counted by a proxy in front of the endpoint.
//
// Usage: node world_goals.js --bot PATH/TO/wayfarer --llm-url URL|do-nothing [--library starter|empty]
//                            [--llm-only] [--only 1,5,7] [--results FILE] [--logs DIR] [--tasks FILE[,FILE]]
// `--max-minutes M` caps each goal's time (a do-nothing run, where a goal ends in seconds or never).
// `--tasks` runs other goal files in the same format (the paraphrase bench's tuning and sealed halves); each
// result keeps the file's name as its half, and the report gives every half its own total.
// `--llm-only` starts the bot with --no-plan-from-words: the LLM plans and writes the code of every goal, as a
// measure of the model alone (by default goals whose words the bot reads are planned and coded from them).
//        node world_goals.js --report RESULTS.json [MORE.json]
// `do-nothing` serves a model from this script: it plans the goal as one step, answers every request for code with
// a function that only says "done" in chat, and its critic believes every claim.
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
const TASK_FILES = (arg('tasks', null) ?? path.join(ROOT, 'tests', 'tasks', 'world_goals.json')).split(',')
const SUITE = {
  tasks: TASK_FILES.flatMap((file) => JSON.parse(fs.readFileSync(file, 'utf8')).tasks
    .map((task) => ({ ...task, half: path.basename(file, '.json') })))
}
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-world.json'))
const LOGS = arg('logs', path.join(os.tmpdir(), 'wayfarer-bench-world-logs'))
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** The goal's claims and what the bot understood, in each language it answers in (src/chat/phrases.toml). */
const WON = ['I succeeded in task: ', 'Tôi đã hoàn thành nhiệm vụ: ', "J'ai réussi la tâche : ", '任务完成：', 'Aufgabe geschafft: ', 'Tarea cumplida: ']
const LOST = ['I failed task: ', 'Tôi thất bại nhiệm vụ: ', "J'ai échoué la tâche : ", '任务失败：', 'Aufgabe gescheitert: ', 'Tarea fallida: ']
/** The status line's `idle`, in each language. */
const IDLE = / \| (idle|đang rảnh|inactif|空闲|untätig|sin hacer nada)/
const UNDERSTOOD = ['Understood: ', 'Đã hiểu: ', 'Compris : ', '明白了：', 'Verstanden: ', 'Entendido: ']
/** The box every judge looks at: x and z within this of the spawn column, y from FLOOR_Y to 70. */
const BOX = 10
/** Eight below the grass (y 63): a hole up to eight deep is seen whole (the box once began at 60, and a hole five
 * deep, dug right, was judged four deep). */
const FLOOR_Y = 55

/** A model that does nothing and believes everything. */
async function doNothingModel () {
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (!req.url.endsWith('/chat/completions')) { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"data":[{"id":"do-nothing"}]}'); return }
      let request = {}
      try { request = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch {}
      const messages = request.messages ?? []
      const system = messages[0]?.content ?? ''
      const last = messages[messages.length - 1]?.content ?? ''
      let content = 'Done.'
      if (last.startsWith('You break a Minecraft goal')) {
        const goal = (last.match(/^Goal: (.*)$/m) ?? [])[1] ?? 'the goal'
        content = JSON.stringify([{ task: goal }])
      } else if (system.startsWith('You control a Minecraft player')) {
        // It says the task's words, so its code names what the task is about and passes the check before the world.
        // (in game ids too: `oak planks` is `oak_planks`).
        const task = ((last.match(/^Task: (.*)$/m) ?? [])[1] ?? 'the task').replaceAll('"', "'")
        content = `Description: Does the task.\n\`\`\`rhai\nfn doTheTask() {\n  chat("done: ${task} (${task.replaceAll(' ', '_')})");\n}\n\`\`\``
      } else if (system.startsWith('You judge')) {
        content = '{"reasoning": "The player said done.", "success": true, "critique": ""}'
      }
      const body = JSON.stringify({
        id: 'do-nothing', object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: Math.ceil(JSON.stringify(messages).length / 4), completion_tokens: Math.ceil(content.length / 4) }
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(body)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() }
}

/** Every block of the judged box, by `x,y,z`. */
async function scan (world) {
  const blocks = new Map()
  for (let x = -BOX; x <= BOX; x++) {
    for (let y = FLOOR_Y; y <= 70; y++) {
      for (let z = -BOX; z <= BOX; z++) blocks.set(`${x},${y},${z}`, await world.cmd({ cmd: 'getBlock', x, y, z }))
    }
  }
  return blocks
}

const AIR = new Set(['air', 'cave_air', 'void_air'])
const key = (x, y, z) => `${x},${y},${z}`
const turn = ([x, y, z], t) => [[x, y, z], [-z, y, x], [-x, y, -z], [z, y, -x]][t]

/** What the world says of the target: `{ done, got }`. */
async function judge (world, task, before) {
  const t = task.target
  const after = await scan(world)
  const fresh = (block) => [...after].filter(([k, b]) => b === block && before.get(k) !== block).map(([k]) => k.split(',').map(Number))
  const within = (p, r) => Math.max(Math.abs(p[0]), Math.abs(p[2])) <= r
  if (t.shape) {
    const placed = fresh(t.block).filter((p) => within(p, t.within))
    const set = new Set(placed.map((p) => key(...p)))
    let best = 0
    for (const p of placed) {
      for (let r = 0; r < 4; r++) {
        for (const offset of t.shape) {
          const o = turn(offset, r)
          const anchor = [p[0] - o[0], p[1] - o[1], p[2] - o[2]]
          const n = t.shape.filter((q) => { const s = turn(q, r); return set.has(key(anchor[0] + s[0], anchor[1] + s[1], anchor[2] + s[2])) }).length
          best = Math.max(best, n)
        }
      }
    }
    return { done: best === t.shape.length, got: `${best}/${t.shape.length} blocks of the shape (${placed.length} new ${t.block})` }
  }
  if (t.placed) {
    const n = fresh(t.block).filter((p) => within(p, t.within)).length
    return { done: n >= t.placed, got: `${n}/${t.placed} new ${t.block}` }
  }
  if (t.dug) {
    const n = [...after].filter(([k, b]) => AIR.has(b) && before.get(k) && !AIR.has(before.get(k)) && within(k.split(',').map(Number), t.within)).length
    return { done: n >= t.dug, got: `${n}/${t.dug} blocks dug` }
  }
  if (t.hole) {
    // A hole N deep: N cells one above another, each solid before and air now.
    const opened = new Set([...after].filter(([k, b]) => AIR.has(b) && before.get(k) && !AIR.has(before.get(k))).map(([k]) => k))
    let deepest = 0
    for (const k of opened) {
      const [x, y, z] = k.split(',').map(Number)
      if (!within([x, y, z], t.within) || opened.has(key(x, y + 1, z))) continue
      let depth = 0
      while (opened.has(key(x, y - depth, z))) depth++
      deepest = Math.max(deepest, depth)
    }
    return { done: deepest >= t.hole, got: `a hole ${deepest}/${t.hole} deep (${opened.size} cells dug)` }
  }
  if (t.cleared) {
    const left = t.cleared.filter(([x, y, z]) => after.get(key(x, y, z)) === t.block).length
    return { done: left === 0, got: `${t.cleared.length - left}/${t.cleared.length} ${t.block} cleared` }
  }
  if (t.at) {
    const b = after.get(key(...t.at))
    return { done: b === t.block, got: `${b} at ${t.at.join(' ')}` }
  }
  if (t.nextTo) {
    const [x, y, z] = t.nextTo
    // Next to: on its level, one of its four sides (on top of it is not next to it, as the bot judges it too).
    const beside = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]].filter(([dx, dy, dz]) => after.get(key(x + dx, y + dy, z + dz)) === t.block)
    return { done: beside.length > 0, got: `${beside.length} ${t.block} beside ${t.nextTo.join(' ')}` }
  }
  const me = (await world.cmd({ cmd: 'players' })).find((p) => p.name === 'Wayfarer')
  if (t.around) {
    // Walled in: the block on all four sides of the bot's feet.
    if (!me) return { done: false, got: 'the bot is not in the world' }
    const [x, y, z] = [Math.floor(me.x), Math.floor(me.y + 0.01), Math.floor(me.z)]
    const sides = [[1, 0], [-1, 0], [0, 1], [0, -1]].filter(([dx, dz]) => after.get(key(x + dx, y, z + dz)) === t.block).length
    return { done: sides === 4, got: `${sides}/4 sides of the bot's feet are ${t.block}` }
  }
  if (t.standing_on) {
    const under = me ? await world.cmd({ cmd: 'getBlock', x: Math.floor(me.x), y: Math.floor(me.y - 0.01), z: Math.floor(me.z) }) : 'nothing'
    return { done: under === t.standing_on, got: `standing on ${under}` }
  }
  if (t.near) {
    const d = me ? Math.hypot(me.x - t.near[0], me.y - t.near[1], me.z - t.near[2]) : Infinity
    return { done: d <= t.within, got: `${d.toFixed(1)} blocks away` }
  }
  if (t.container) {
    const chests = t.container === 'near'
      ? [...after].filter(([k, b]) => b === 'chest' && within(k.split(',').map(Number), t.within)).map(([k]) => k.split(',').map(Number))
      : [t.container]
    let best = 0
    for (const [x, y, z] of chests) {
      const slots = await world.cmd({ cmd: 'container', x, y, z }).catch(() => [])
      best = Math.max(best, slots.filter((s) => s && s.item === t.item).reduce((n, s) => n + s.count, 0))
    }
    return { done: best >= t.count, got: `${best}/${t.count} ${t.item} in a chest (${chests.length} chest(s))` }
  }
  if (t.given) {
    const inv = await world.cmd({ cmd: 'inventory', name: t.given }).catch(() => ({}))
    const got = inv[t.item] ?? 0
    return { done: got >= t.count, got: `${t.given} carries ${got}/${t.count} ${t.item}` }
  }
  throw new Error(`unknown target ${JSON.stringify(t)}`)
}

async function runTask (task, index, skills, proxy, library) {
  const world = await startWorld(['--time', '1000'])
  const logFile = path.join(LOGS, `${library}-${String(index + 1).padStart(2, '0')}.log`)
  const out = fs.openSync(logFile, 'w')
  const bots = []
  const result = { n: index + 1, goal: task.goal, half: task.half, lang: task.lang, library, done: false, claimed: '', claim: 'none', plan: '', calls: 0, tokens: 0, promptTokens: 0, seconds: 0 }
  try {
    for (const [x, y, z, block] of task.blocks ?? []) await world.cmd({ cmd: 'setBlock', x, y, z, block })
    const config = path.join(path.dirname(skills), 'wayfarer.toml')
    fs.writeFileSync(config, `script_time_limit_secs = ${task.minutes * 60}\n`)
    // Each bot remembers only this goal: its own checkpoint (and memory) folder.
    const start = (name, extra) => {
      const checkpoint = path.join(path.dirname(skills), `checkpoint-${index + 1}`)
      const child = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', name, '--owner', 'Alice', '--checkpoint', checkpoint, ...extra],
        { stdio: ['ignore', out, out], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'wayfarer=info' } })
      bots.push(child)
      return world.waitEvent((e) => e.event === 'join' && e.name === name, 30000)
    }
    // A player who receives items is a connected client (a virtual player picks nothing up): the owner too, when
    // the goal hands things to them.
    const receivers = [...(task.receiver ? [task.receiver] : [])]
    if (task.target?.given === 'Alice') receivers.push({ name: 'Alice', at: [-6.5, 64, -6.5] })
    else await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: -6.5, y: 64, z: -6.5 })
    for (const receiver of receivers) {
      // The receiver is in place before the bot joins, so the bot sees it where it stands.
      const [x, y, z] = receiver.at
      await start(receiver.name, ['--skills', path.join(path.dirname(skills), 'receiver-skills')])
      await sleep(2000)
      await world.cmd({ cmd: 'teleport', name: receiver.name, x, y, z })
      await sleep(1000)
    }
    await start('Wayfarer', ['--skills', skills, '--config', config, '--llm-url', proxy.url, '--llm-model', 'local', ...(LLM_ONLY ? ['--no-plan-from-words'] : [])])
    for (const [item, count] of Object.entries(task.inventory ?? {})) await world.cmd({ cmd: 'give', name: 'Wayfarer', item, count })
    await sleep(2000)
    const before = await scan(world)
    const meter0 = { ...proxy.meter }
    const started = Date.now()
    const from = world.events.length
    await world.cmd({ cmd: 'say', as: 'Alice', text: `Wayfarer !task ${task.goal}` })
    // The goal as the bot took it: the owner's words, or the English it understood them as (`Understood: …`); its
    // claims in the owner's language (src/chat/phrases.toml).
    const goals = () => {
      const understood = world.events.slice(from).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && UNDERSTOOD.some((p) => e.text.startsWith(p)))
      return understood ? [task.goal, understood.text.slice(UNDERSTOOD.find((p) => understood.text.startsWith(p)).length)] : [task.goal]
    }
    const claims = (prefixes, e) => prefixes.some((p) => goals().some((g) => e.text.startsWith(p + g)))
    const won = (e) => claims(WON, e)
    const ended = (e) => e.event === 'chat' && e.from === 'Wayfarer' && (won(e) || claims(LOST, e))
    const minutes = Math.min(task.minutes, Number(arg('max-minutes', task.minutes)))
    const deadline = started + minutes * 60000
    // A plan of one step says the goal's words for that step too: the goal has ended when the bot is idle.
    const idle = async () => {
      const asked = world.events.length
      await world.cmd({ cmd: 'say', as: 'Alice', text: 'Wayfarer !status' })
      for (let i = 0; i < 20; i++) {
        // The status line, in whatever language the owner is answered in (its words are translated, the activity
        // is not): `At 0.5 64 0.5 … | idle`.
        const reply = world.events.slice(asked).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && / \| /.test(e.text) && /-?\d+(\.\d+)? -?\d+(\.\d+)? -?\d+(\.\d+)?/.test(e.text))
        if (reply) return IDLE.test(reply.text)
        await sleep(250)
      }
      return false
    }
    // A goal refused before it started (a question, words not understood, in the owner's language) ends with the
    // bot idle and quiet: judged then, not at the deadline.
    const lastSaid = () => world.events.slice(from).findLast((e) => e.event === 'chat' && e.from === 'Wayfarer')
    let quietSince = Date.now()
    let lastLine = null
    while (Date.now() < deadline) {
      if (world.events.slice(from).some(ended) && await idle()) break
      const line = lastSaid()
      if (line !== lastLine) { lastLine = line; quietSince = Date.now() }
      if (line && Date.now() - quietSince > 15000 && await idle()) break
      await sleep(1000)
    }
    result.seconds = Math.round((Date.now() - started) / 1000)
    const last = world.events.slice(from).findLast(ended)
    result.claimed = last ? last.text : `no answer within ${minutes} min`
    result.claim = !last ? 'none' : won(last) ? 'succeeded' : 'failed'
    result.plan = world.events.slice(from).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && e.text.startsWith('Plan for'))?.text ?? ''
    // How the bot said it read the goal (or the question it asked instead).
    result.reading = world.events.slice(from).find((e) => e.event === 'chat' && e.from === 'Wayfarer' && /^(I read|Did you mean|I am not sure)/.test(e.text))?.text ?? ''
    if (!last) {
      await world.cmd({ cmd: 'say', as: 'Alice', text: 'Wayfarer !stop' })
      await sleep(1000)
    }
    const verdict = await judge(world, task, before)
    result.done = verdict.done
    result.got = verdict.got
    result.falseSuccess = result.claim === 'succeeded' && !verdict.done
    result.calls = proxy.meter.calls - meter0.calls
    result.promptTokens = proxy.meter.prompt - meter0.prompt
    result.tokens = result.promptTokens + proxy.meter.completion - meter0.completion
  } catch (err) {
    result.claimed = `bench error: ${err.message}`
    result.error = true
  } finally {
    for (const bot of bots) bot.kill('SIGTERM')
    await sleep(500)
    fs.closeSync(out)
    await world.close()
  }
  // Who planned the goal, from the bot's log: its words, the game's facts or the LLM.
  const logged = fs.readFileSync(logFile, 'utf8')
  result.planner = / from its words: /.test(logged) ? 'words' : / from the game's facts: /.test(logged) ? 'facts' : 'llm'
  // Answers that could not run: sent back by the check before the world, or run and broken on their own code.
  result.caught = (logged.match(/caught before the world/g) ?? []).length
  result.broken = (logged.match(/code that cannot run reached the world/g) ?? []).length
  // The action prompts' sizes, as the endpoint counted them.
  result.actionPrompts = [...logged.matchAll(/action call: \d+ ms, (\d+) \+ \d+ tokens/g)].map((m) => Number(m[1]))
  return result
}

const BOT = arg('bot')
const LLM_URL = arg('llm-url', process.env.WAYFARER_LLM_URL)
const LLM_ONLY = process.argv.includes('--llm-only')

async function main () {
  if (arg('report')) {
    const files = process.argv.slice(process.argv.indexOf('--report') + 1).filter((a) => !a.startsWith('--'))
    report(files.flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')).runs))
    return
  }
  if (!BOT || !fs.existsSync(BOT) || !LLM_URL) {
    console.error('usage: node world_goals.js --bot PATH/TO/wayfarer --llm-url URL|do-nothing [--library starter|empty] [--only 1,5] [--results FILE]\n' +
      '       node world_goals.js --report RESULTS.json\n(make llm serves a local model at http://127.0.0.1:8012/v1)')
    process.exit(2)
  }
  const model = LLM_URL === 'do-nothing' ? await doNothingModel() : null
  const upstream = model ? model.url : LLM_URL
  await checkEndpoint(upstream)
  fs.mkdirSync(LOGS, { recursive: true })
  const proxy = await countingProxy(upstream)
  const library = arg('library', 'starter')
  const only = arg('only', null)?.split(',').map(Number)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wayfarer-bench-world-${library}-`))
  const skills = path.join(dir, 'skills')
  fs.mkdirSync(skills)
  if (library === 'starter') {
    for (const f of fs.readdirSync(path.join(ROOT, 'skills'))) if (/\.(rhai|json)$/.test(f)) fs.copyFileSync(path.join(ROOT, 'skills', f), path.join(skills, f))
  }
  const before = new Set(fs.readdirSync(skills))
  const runs = []
  const llm = (model ? 'do-nothing' : LLM_URL) + (LLM_ONLY ? ' (LLM plans all)' : '')
  for (const [i, task] of SUITE.tasks.entries()) {
    if (only && !only.includes(i + 1)) continue
    log(`[${llm}, ${library}] ${i + 1}/${SUITE.tasks.length} !task ${task.goal}`)
    const result = await runTask(task, i, skills, proxy, library)
    result.llm = llm
    if (result.reading) log(`  reading: ${result.reading.slice(0, 160)}`)
    log(`  world: ${result.done ? 'done' : 'NOT done'} (${result.got ?? '?'}); bot: ${result.claim}${result.falseSuccess ? ' — FALSE SUCCESS' : ''}; ` +
      `${result.seconds} s, ${result.calls} LLM call(s), ${result.tokens} tokens; ${result.claimed.slice(0, 140)}`)
    runs.push(result)
    const learned = fs.readdirSync(skills).filter((f) => f.endsWith('.rhai') && !before.has(f))
    fs.writeFileSync(RESULTS, JSON.stringify({ when: new Date().toISOString(), llm, library, runs, learned }, null, 2))
  }
  const learned = fs.readdirSync(skills).filter((f) => f.endsWith('.rhai') && !before.has(f))
  proxy.close()
  model?.close()
  fs.rmSync(dir, { recursive: true, force: true })
  report(runs, learned)
  log(`results: ${RESULTS}; bot logs: ${LOGS}`)
  if (runs.some((r) => r.error)) process.exit(1)
}

function report (runs, learned) {
  const models = [...new Set(runs.map((r) => r.llm))]
  const goals = [...new Set(runs.map((r) => r.goal))]
  const cell = (r) => r ? `${r.done ? 'done' : 'not done'} · said ${r.claim}${r.falseSuccess ? ' (FALSE)' : ''} · ${r.planner ?? 'llm'} plan · ${r.calls} calls · ${(r.tokens / 1000).toFixed(1)} k tok · ${r.seconds} s` : '—'
  console.log(`\nWorld goals: ${goals.length}, judged by the world\n`)
  console.log(`| # | goal | ${models.join(' | ')} |`)
  console.log(`|---|---|${models.map(() => '---').join('|')}|`)
  for (const goal of goals) {
    const n = runs.find((r) => r.goal === goal).n
    console.log(`| ${n} | ${goal} | ${models.map((m) => cell(runs.findLast((r) => r.goal === goal && r.llm === m))).join(' | ')} |`)
  }
  for (const m of models) {
    const mine = goals.map((g) => runs.findLast((r) => r.goal === g && r.llm === m)).filter(Boolean)
    const done = mine.filter((r) => r.done).length
    const claims = mine.filter((r) => r.claim === 'succeeded').length
    const falses = mine.filter((r) => r.falseSuccess).length
    console.log(`\n${m}: world says ${done}/${mine.length} done (${Math.round(100 * done / Math.max(1, mine.length))} %); ` +
      `bot said succeeded ${claims} times; false successes ${falses}; ${mine.reduce((n, r) => n + r.calls, 0)} LLM calls, ` +
      `${(mine.reduce((n, r) => n + r.tokens, 0) / 1000).toFixed(1)} k tokens, ${Math.round(mine.reduce((n, r) => n + r.seconds, 0) / 60)} min`)
    const caught = mine.reduce((n, r) => n + (r.caught ?? 0), 0)
    const broken = mine.reduce((n, r) => n + (r.broken ?? 0), 0)
    const prompts = mine.flatMap((r) => r.actionPrompts ?? []).sort((a, b) => a - b)
    if (caught + broken > 0) {
      console.log(`  answers that could not run: ${caught + broken}, caught before the world ${caught} ` +
        `(${Math.round(100 * caught / (caught + broken))} %), broke in the world ${broken}`)
    }
    if (prompts.length) {
      const at = (q) => prompts[Math.min(prompts.length - 1, Math.floor(q * prompts.length))]
      console.log(`  action prompts: ${prompts.length}, tokens p50 ${at(0.5)}, p95 ${at(0.95)}, max ${prompts[prompts.length - 1]}`)
    }
    const successes = mine.filter((r) => r.done && r.planner === 'llm').length
    if (successes) {
      const llmRuns = mine.filter((r) => r.planner === 'llm')
      console.log(`  per goal the LLM planned and the world confirmed: ${(llmRuns.reduce((n, r) => n + r.calls, 0) / successes).toFixed(1)} calls, ` +
        `${(llmRuns.reduce((n, r) => n + r.tokens, 0) / successes / 1000).toFixed(1)} k tokens`)
    }
    const halves = [...new Set(mine.map((r) => r.half).filter(Boolean))]
    if (halves.length > 1) {
      for (const half of halves) {
        const part = mine.filter((r) => r.half === half)
        const refused = part.filter((r) => r.claim !== 'succeeded' && !r.done).length
        console.log(`  ${half}: done ${part.filter((r) => r.done).length}/${part.length} ` +
          `(${Math.round(100 * part.filter((r) => r.done).length / Math.max(1, part.length))} %), ` +
          `false successes ${part.filter((r) => r.falseSuccess).length}, not done and not claimed ${refused}`)
      }
    }
    const by = (p) => mine.filter((r) => r.planner === p)
    console.log(`  planned from words ${by('words').length} (done ${by('words').filter((r) => r.done).length}), ` +
      `from the game's facts ${by('facts').length} (done ${by('facts').filter((r) => r.done).length}), ` +
      `by the LLM ${by('llm').length} (done ${by('llm').filter((r) => r.done).length})`)
  }
  if (learned) console.log(`learned: ${learned.length ? learned.join(', ') : 'nothing'}`)
}

main().catch((err) => { console.error(err); process.exit(1) })
