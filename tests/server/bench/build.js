#!/usr/bin/env node
// Building from blueprints, judged by the world: every blueprint in skills/blueprints and the structure-block and
// Sponge fixtures in tests/data/blueprints, each built by Wayfarer (`!build NAME at X Y Z`) with its materials given,
// on the flat test world, one site after another. The score is MineCollab's: the share of the blueprint's block
// positions holding the right block, read from the world after the build (the bot's words are not used); a second
// figure counts blocks in the right state. Also: seconds from the command to the end, blocks a minute, deaths.
//
// Usage: node build.js --bot PATH/TO/wayfarer [--only hut,gate] [--results FILE]
'use strict'

const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const BOT = arg('bot')
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-build.json'))
const ONLY = arg('only') ? arg('only').split(',') : null
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** Properties placing sets, the ones the state figure checks (as Wayfarer's blueprint module lists them). */
const PLACED = ['facing', 'half', 'type', 'axis', 'rotation', 'face', 'hanging']
/** The longest one build may take. */
const LIMIT_MS = 10 * 60 * 1000

if (!BOT || !fs.existsSync(BOT)) {
  log('usage: node build.js --bot PATH/TO/wayfarer [--only hut,gate] [--results FILE]')
  process.exit(2)
}

/** Every blueprint, read by the bot's own checker (`wayfarer blueprint --json`). */
function blueprints () {
  const folder = path.join(ROOT, 'skills', 'blueprints')
  const files = [
    ...fs.readdirSync(folder).filter((f) => f.endsWith('.txt')).sort().map((f) => path.join(folder, f)),
    path.join(ROOT, 'tests', 'data', 'blueprints', 'gate.nbt'),
    path.join(ROOT, 'tests', 'data', 'blueprints', 'post.schem')
  ]
  const out = execFileSync(BOT, ['blueprint', '--json', ...files], { encoding: 'utf8' })
  return out.trim().split('\n').map((line, i) => ({ ...JSON.parse(line), file: files[i] }))
    .filter((b) => !ONLY || ONLY.includes(b.name))
}

/** The world's judgement of `blueprint` built at `origin`: blocks right, and right in state. */
async function judge (world, blueprint, origin) {
  const [w, h, d] = blueprint.size
  const found = await world.cmd({ cmd: 'getBlocks', from: origin, to: [origin[0] + w - 1, origin[1] + h - 1, origin[2] + d - 1] })
  const at = new Map(found.map((b) => [`${b.x},${b.y},${b.z}`, b]))
  let blocks = 0; let right = 0; let states = 0
  for (const part of blueprint.parts) {
    if (part.name === 'air') continue
    blocks++
    const there = at.get(`${origin[0] + part.at[0]},${origin[1] + part.at[1]},${origin[2] + part.at[2]}`)
    if (!there || there.name !== part.name) continue
    right++
    const same = Object.entries(part.properties).every(([k, v]) => !PLACED.includes(k) || String(there.properties[k]) === v)
    if (same) states++
  }
  return { blocks, right, states, score: right / blocks, stateScore: states / blocks }
}

async function main () {
  const list = blueprints()
  const world = await startWorld(['--mobs', 'off'])
  await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: 0.5, y: 64, z: 0.5 })
  const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice',
    '--blueprints', path.join(ROOT, 'skills', 'blueprints')], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } })
  bot.stderr.on('data', () => {})
  await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 60000)
  await sleep(2000)
  const results = []
  let site = 0
  for (const blueprint of list) {
    const origin = [site * 16 + 4, 64, -4]
    site++
    await world.cmd({ cmd: 'clearInventory', name: 'Wayfarer' })
    for (const [item, count] of Object.entries(blueprint.materials)) {
      await world.cmd({ cmd: 'give', name: 'Wayfarer', item, count })
    }
    await world.cmd({ cmd: 'give', name: 'Wayfarer', item: 'dirt', count: 16 })
    await world.cmd({ cmd: 'teleport', name: 'Alice', x: origin[0] - 2.5, y: 64, z: origin[2] - 2.5 })
    await sleep(1500)
    const from = world.events.length
    const started = Date.now()
    const what = blueprint.file.includes('tests/data') ? blueprint.file : blueprint.name
    await world.cmd({ cmd: 'say', as: 'Alice', text: `!build ${what} at ${origin.join(' ')}` })
    const ended = await world.waitEvent((e, i) => world.events.indexOf(e) >= from && e.event === 'chat' && e.from === 'Wayfarer' &&
      (/^Built /.test(e.text) || /^I failed|stands at|cannot|no blueprint/.test(e.text)), LIMIT_MS).catch(() => null)
    const seconds = (Date.now() - started) / 1000
    const judged = await judge(world, blueprint, origin)
    const deaths = world.events.slice(from).filter((e) => e.event === 'death' && e.name === 'Wayfarer').length
    const placedEvents = world.events.slice(from).filter((e) => e.event === 'blockPlaced' && e.name === 'Wayfarer')
    const placed = placedEvents.length
    // Blocks put anywhere the blueprint does not want them (scaffold, levelling, pillars, misplaced blocks).
    const wanted = new Set(blueprint.parts.filter((p) => p.name !== 'air').map((p) => `${origin[0] + p.at[0]},${origin[1] + p.at[1]},${origin[2] + p.at[2]}`))
    const elsewhere = placedEvents.filter((e) => !wanted.has(`${e.x},${e.y},${e.z}`)).map((e) => `${e.block} ${e.x} ${e.y} ${e.z}`)
    const result = { name: blueprint.name, blocks: judged.blocks, score: judged.score, states: judged.stateScore, seconds, blocksPerMinute: judged.right / (seconds / 60), placed, elsewhere, deaths, said: ended ? ended.text : 'nothing within the limit' }
    results.push(result)
    log(`${blueprint.name.padEnd(18)} score ${judged.score.toFixed(2)} states ${judged.stateScore.toFixed(2)}  ${judged.right}/${judged.blocks} blocks  ${seconds.toFixed(0)} s  ${result.blocksPerMinute.toFixed(0)} blocks/min  deaths ${deaths}`)
    // Out of the way of the next site.
    await sleep(500)
  }
  bot.kill('SIGTERM')
  await world.close()
  const mean = (key) => results.reduce((s, r) => s + r[key], 0) / results.length
  const summary = { blueprints: results.length, meanScore: mean('score'), meanStates: mean('states'), meanBlocksPerMinute: mean('blocksPerMinute'), deaths: results.reduce((s, r) => s + r.deaths, 0) }
  fs.writeFileSync(RESULTS, JSON.stringify({ summary, results }, null, 2))
  console.log(`\nWayfarer, flat world, materials given: ${results.length} blueprints, mean score ${summary.meanScore.toFixed(3)}, states ${summary.meanStates.toFixed(3)}, ${summary.meanBlocksPerMinute.toFixed(0)} blocks/min, ${summary.deaths} deaths (results in ${RESULTS})`)
}

main().catch((err) => { console.error(err); process.exit(1) })
