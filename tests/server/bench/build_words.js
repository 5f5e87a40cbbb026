#!/usr/bin/env node
// Blueprints from words, drawn by the LLM at --llm-url (the local 1.5B model of `make llm`): ten starter blueprints'
// descriptions are said to the bot as `!build WORDS`, each with the other nine in its blueprint folder (held out:
// the bot never has the one the words came from). The bot draws a design (its prompt shows the folder's nearest
// small blueprints as examples of the form), or reuses a folder blueprint the words fit; either is scored against
// the starter blueprint the words came from.
//
// The measure (written down in the README): the mean of
//   footprint: the cells (x, z) holding any block, shared / in either (Jaccard), corners aligned, best of the four
//              sides the design may face;
//   materials: the items both take, Σ min(design, reference) / Σ max(design, reference) over every item.
// A description the LLM draws nothing for (no usable answer in two tries) scores 0.
//
// Three sets of descriptions: `starters` (the ten above, each with the other nine in the folder), and thirty of
// things no starter blueprint is (tests/tasks/designs: gardens, docks, market stalls, fountains, windmills, statues,
// walls with towers, rooms with furniture…), each with a reference blueprint written before the designer was tuned
// and all ten starters in the folder: `open` (the half the designer may be tuned on) and `sealed` (never tuned on).
// Each set is reported on its own: its mean, and its lowest score.
//
// Usage: node build_words.js --bot PATH/TO/wayfarer --llm-url URL [--set starters,open,sealed] [--only hut,bridge]
//                            [--results FILE] [--logs FILE]
'use strict'

const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const BOT = arg('bot')
const LLM_URL = arg('llm-url')
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-build-words.json'))
const LOGS = arg('logs')
const STARTERS = path.join(ROOT, 'skills', 'blueprints')
const REFERENCES = ['hut', 'watchtower', 'wall_with_gate', 'bridge', 'staircase', 'two_storey_house', 'farm_plot',
  'shelter', 'pillar', 'lamp_post']
const DESIGNS = path.join(ROOT, 'tests', 'tasks', 'designs')
const SETS = (arg('set') ?? 'starters,open,sealed').split(',')
const ONLY = arg('only') ? arg('only').split(',') : null
/** Every description to run: its set, name and reference file. */
const CASES = SETS.flatMap((set) => {
  const names = set === 'starters'
    ? REFERENCES
    : fs.readdirSync(path.join(DESIGNS, set)).filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4)).sort()
  const dir = set === 'starters' ? STARTERS : path.join(DESIGNS, set)
  return names.filter((name) => !ONLY || ONLY.includes(name)).map((name) => ({ set, name, file: path.join(dir, `${name}.txt`) }))
})
/** How long one design may take (two LLM answers on a CPU). */
const LIMIT_MS = 6 * 60 * 1000
const log = (line) => process.stderr.write(`${line}\n`)

if (!BOT || !fs.existsSync(BOT) || !LLM_URL) {
  log('usage: node build_words.js --bot PATH/TO/wayfarer --llm-url URL [--set starters,open,sealed] [--only hut,bridge] [--results FILE]')
  process.exit(2)
}

/** A blueprint file as the bot's own checker reads it, turned to face `facing`. */
function read (file, facing = 'S') {
  return JSON.parse(execFileSync(BOT, ['blueprint', '--json', '--facing', facing, file], { encoding: 'utf8' }))
}

function footprint (blueprint) {
  return new Set(blueprint.parts.filter((p) => p.name !== 'air').map((p) => `${p.at[0]},${p.at[2]}`))
}

function jaccard (a, b) {
  const both = [...a].filter((x) => b.has(x)).length
  const either = new Set([...a, ...b]).size
  return either === 0 ? 0 : both / either
}

/** The design's score against the reference: footprint and materials, and their mean. */
function score (file, reference) {
  const ref = footprint(reference)
  const foot = Math.max(...['S', 'W', 'N', 'E'].map((side) => jaccard(footprint(read(file, side)), ref)))
  const design = read(file).materials
  const items = new Set([...Object.keys(design), ...Object.keys(reference.materials)])
  let least = 0; let most = 0
  for (const item of items) {
    const [a, b] = [design[item] ?? 0, reference.materials[item] ?? 0]
    least += Math.min(a, b); most += Math.max(a, b)
  }
  const materials = most === 0 ? 0 : least / most
  return { footprint: foot, materials, score: (foot + materials) / 2 }
}

async function main () {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-words-'))
  const world = await startWorld(['--mobs', 'off'])
  await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: 0.5, y: 64, z: 0.5 })
  const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice',
    '--blueprints', folder, '--llm-url', LLM_URL,
        // A checkpoint of its own: no goal, memory or cached reply from an earlier run carries over.
        '--checkpoint', fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-checkpoint-'))], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RUST_LOG: LOGS ? 'warn,wayfarer::agent::design=debug' : 'warn' } })
  // With --logs, the designer's notes (what each answer missed, why one was refused) go to that file.
  const logs = LOGS ? fs.createWriteStream(LOGS) : null
  bot.stderr.on('data', (chunk) => logs && logs.write(chunk))
  const results = []
  try {
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 60000)
    for (const { set, name, file: referenceFile } of CASES) {
      for (const f of fs.readdirSync(folder)) fs.rmSync(path.join(folder, f))
      // A starter's own blueprint is held out; the new descriptions have every starter beside them.
      const others = fs.readdirSync(STARTERS).filter((f) => f.endsWith('.txt') && f !== `${name}.txt`)
      for (const f of others) fs.copyFileSync(path.join(STARTERS, f), path.join(folder, f))
      const reference = read(referenceFile)
      const words = reference.description
      const from = world.events.length
      const started = Date.now()
      await world.cmd({ cmd: 'say', as: 'Alice', text: `!build ${words} at 20 64 20` })
      const said = await world.waitEvent((e) => world.events.indexOf(e) >= from && e.event === 'chat' && e.from === 'Wayfarer' &&
        /^Drew |^I could not draw|^I drew .* but cannot keep|^There is no blueprint|^Building /.test(e.text), LIMIT_MS).catch(() => null)
      const seconds = (Date.now() - started) / 1000
      // Only the design is measured: the build it starts is stopped.
      await world.cmd({ cmd: 'say', as: 'Alice', text: '!stop' })
      const drawn = fs.readdirSync(folder).filter((f) => f.endsWith('.txt') && !others.includes(f))
      // Words a kept blueprint fits are built from it: `Building NAME (…`.
      const reused = said && !drawn.length && /^Building (\S+) \(/.exec(said.text)
      let result = { set, name, words, seconds, said: said ? said.text : 'nothing within the limit', footprint: 0, materials: 0, score: 0 }
      const file = drawn.length === 1 ? path.join(folder, drawn[0]) : reused ? path.join(folder, `${reused[1]}.txt`) : null
      if (file && fs.existsSync(file)) {
        const design = read(file)
        const how = drawn.length ? 'drew' : 'reused'
        result = { ...result, ...score(file, reference), how, design: `${how} ${design.name} ${design.size.join('×')}, ${design.blocks} blocks` }
      }
      results.push(result)
      log(`${set.padEnd(8)} ${name.padEnd(22)} footprint ${result.footprint.toFixed(2)} materials ${result.materials.toFixed(2)} score ${result.score.toFixed(2)}  ${seconds.toFixed(0)} s  ${result.design ?? result.said}`)
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  } finally {
    bot.kill('SIGTERM')
    await world.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
  const summarise = (rows) => {
    const mean = (key) => rows.reduce((s, r) => s + r[key], 0) / rows.length
    return { descriptions: rows.length, drawn: rows.filter((r) => r.how === 'drew').length, reused: rows.filter((r) => r.how === 'reused').length, footprint: mean('footprint'), materials: mean('materials'), score: mean('score'), lowest: Math.min(...rows.map((r) => r.score)) }
  }
  const summary = Object.fromEntries(SETS.map((set) => [set, results.filter((r) => r.set === set)]).filter(([, rows]) => rows.length).map(([set, rows]) => [set, summarise(rows)]))
  fs.writeFileSync(RESULTS, JSON.stringify({ llm: LLM_URL, summary, results }, null, 2))
  console.log('\n| set | reference | design | footprint | materials | score | s |')
  console.log('|---|---|---|---|---|---|---|')
  // The sealed half's words are not printed: its scores are reported, its contents never read while tuning.
  for (const r of results) console.log(`| ${r.set} | ${r.name} | ${r.design ?? '—'} | ${r.footprint.toFixed(2)} | ${r.materials.toFixed(2)} | ${r.score.toFixed(2)} | ${r.seconds.toFixed(0)} |`)
  for (const [set, s] of Object.entries(summary)) {
    console.log(`\nFrom words, ${set}: ${s.drawn}/${s.descriptions} drawn, ${s.reused} reused, mean footprint ${s.footprint.toFixed(2)}, materials ${s.materials.toFixed(2)}, score ${s.score.toFixed(3)}, lowest ${s.lowest.toFixed(2)}`)
  }
  console.log(`(results in ${RESULTS})`)
}

main().catch((err) => { console.error(err); process.exit(1) })
