#!/usr/bin/env node
// Building from blueprints, judged by the world: every blueprint in skills/blueprints and the structure-block and
// Sponge fixtures in tests/data/blueprints, each built by Wayfarer (`!build NAME at X Y Z`) and, at a site of its
// own beside it, by Mineflayer with mineflayer-builder (mineflayer_builder.js), each with the blueprint's materials
// and the same spare dirt, on the flat test world, one blueprint after another. The score is MineCollab's: the
// share of the blueprint's block positions holding the right block, read from the world after the build (the bots'
// words are not used); a second figure counts blocks in the right state. Also: seconds from the command to the end,
// blocks a minute, deaths.
//
// `--world natural --seed S` builds on a natural seed's ground instead, on the dry sites nearest spawn, each on the
// ground as it is (the builder levels and clears). `--gather` gives no materials: Wayfarer gets only stone tools and
// gathers, mines, crafts and smelts what each blueprint takes (Mineflayer's builder cannot gather: it sits out).
//
// Usage: node build.js --bot PATH/TO/wayfarer [--only hut,gate] [--sides wayfarer,mineflayer] [--world flat|natural]
//        [--seed S] [--gather] [--bot-log FILE] [--results FILE]
'use strict'

const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')
const { connectBuilder, buildWithMineflayer } = require('./mineflayer_builder')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const BOT = arg('bot')
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-build.json'))
const ONLY = arg('only') ? arg('only').split(',') : null
const GATHER = process.argv.includes('--gather')
const SIDES = arg('sides', GATHER ? 'wayfarer' : 'wayfarer,mineflayer').split(',')
const NATURAL = arg('world', 'flat') === 'natural'
const SEED = Number(arg('seed', 1009))
/** Where the bot's own log goes, if anywhere (`--bot-log FILE`). */
const BOT_LOG = arg('bot-log')
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** Properties placing sets, the ones the state figure checks (as Wayfarer's blueprint module lists them). */
const PLACED = ['facing', 'half', 'type', 'axis', 'rotation', 'face', 'hanging']
/** The longest one build may take (gathering included). */
const LIMIT_MS = (GATHER ? 12 : 10) * 60 * 1000
/** The tools a gathering builder starts with. */
const TOOLS = ['stone_pickaxe', 'stone_axe', 'stone_shovel']
/** Dirt each builder carries besides the materials, for scaffold and levelling. */
const SPARE_DIRT = 16
/** How far (in z) Mineflayer's sites lie from Wayfarer's, so the two never meet. */
const MINEFLAYER_Z = 32

if (!BOT || !fs.existsSync(BOT)) {
  log('usage: node build.js --bot PATH/TO/wayfarer [--only hut,gate] [--sides wayfarer,mineflayer] [--world flat|natural] [--seed S] [--gather] [--bot-log FILE] [--results FILE]')
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

/** Clears `name`'s inventory and gives it `blueprint`'s materials and the spare dirt (gathering: stone tools only). */
async function equip (world, name, blueprint) {
  await world.cmd({ cmd: 'clearInventory', name })
  if (GATHER) {
    for (const item of TOOLS) await world.cmd({ cmd: 'give', name, item, count: 1 })
    return
  }
  for (const [item, count] of Object.entries(blueprint.materials)) await world.cmd({ cmd: 'give', name, item, count })
  await world.cmd({ cmd: 'give', name, item: 'dirt', count: SPARE_DIRT })
}

/** The figures of `name`'s build of `blueprint` at `origin`, from the world's judgement and its events since
 * `from`: score, states, blocks a minute, deaths, and the blocks placed where the blueprint wants none (scaffold,
 * levelling, pillars, misplaced blocks). */
async function figures (world, name, blueprint, origin, from, seconds) {
  const judged = await judge(world, blueprint, origin)
  const since = world.events.slice(from)
  const deaths = since.filter((e) => e.event === 'death' && e.name === name).length
  const placed = since.filter((e) => e.event === 'blockPlaced' && e.name === name)
  const wanted = new Set(blueprint.parts.filter((p) => p.name !== 'air').map((p) => `${origin[0] + p.at[0]},${origin[1] + p.at[1]},${origin[2] + p.at[2]}`))
  const elsewhere = placed.filter((e) => !wanted.has(`${e.x},${e.y},${e.z}`)).map((e) => `${e.block} ${e.x} ${e.y} ${e.z}`)
  return { right: judged.right, score: judged.score, states: judged.stateScore, seconds, blocksPerMinute: judged.right / (seconds / 60), placed: placed.length, elsewhere, deaths }
}

/** The y a player stands at on column x, z: 64 on the flat world, one above the top solid block on a natural one. */
async function standY (world, x, z) {
  return NATURAL ? (await world.cmd({ cmd: 'surface', x, z })).y + 1 : 64
}

/** Whether the footprint `w` × `d` from x, z is dry ground near the level of `y` on a natural world: no sea or lake
 * under its corners and centre, no cliff (trees may stand there: the builder clears them). */
async function dryGround (world, x, z, w, d, y) {
  const cells = [[x, z], [x + w - 1, z], [x, z + d - 1], [x + w - 1, z + d - 1], [x + (w >> 1), z + (d >> 1)]]
  for (const [cx, cz] of cells) {
    const at = await world.cmd({ cmd: 'surface', x: cx, z: cz })
    const [top] = await world.cmd({ cmd: 'getBlocks', from: [cx, at.height, cz], to: [cx, at.height, cz] })
    if (/water|lava|ice/.test(at.block) || /water|lava/.test(top ? top.name : '') || Math.abs(at.y + 1 - y) > 10) return false
  }
  return true
}

/** Sites for one blueprint after another: on the flat world a row east of spawn; on a natural one the nearest free
 * dry ground in a grid round spawn (12 blocks apart), so neither builder walks far. */
async function* sites (world, sx, sz, y) {
  if (!NATURAL) {
    for (let site = 0; ; site++) yield [sx + site * 16 + 4, sz - 4]
  }
  const grid = []
  for (let i = -8; i <= 8; i++) for (let j = -8; j <= 8; j++) if (Math.abs(i) + Math.abs(j) > 1) grid.push([sx + i * 12, sz + j * 12])
  grid.sort((a, b) => Math.hypot(a[0] - sx, a[1] - sz) - Math.hypot(b[0] - sx, b[1] - sz))
  const wet = []
  for (const [x, z] of grid) {
    if (await dryGround(world, x, z, 12, 12, y)) yield [x, z]
    else wet.push([x, z])
  }
  // Past the dry ground: the rest as they come, nearest first.
  log('no dry ground left round spawn: building where there is water or a cliff')
  yield * wet
  throw new Error('no site left round spawn')
}

/** Wayfarer builds `blueprint` at `origin`, told by its owner Alice; timed from the command to its last word. */
async function buildWayfarer (world, blueprint, origin) {
  await equip(world, 'Wayfarer', blueprint)
  await world.cmd({ cmd: 'teleport', name: 'Alice', x: origin[0] - 2.5, y: await standY(world, origin[0] - 3, origin[2] - 3), z: origin[2] - 2.5 })
  await sleep(1500)
  const from = world.events.length
  const started = Date.now()
  const what = blueprint.file.includes('tests/data') ? blueprint.file : blueprint.name
  await world.cmd({ cmd: 'say', as: 'Alice', text: `!build ${what} at ${origin.join(' ')}` })
  const ended = await world.waitEvent((e) => world.events.indexOf(e) >= from && e.event === 'chat' && e.from === 'Wayfarer' &&
    (/^Built /.test(e.text) || /^I failed|stands at|cannot|no blueprint/.test(e.text)), LIMIT_MS).catch(() => null)
  const seconds = (Date.now() - started) / 1000
  return { ...await figures(world, 'Wayfarer', blueprint, origin, from, seconds), said: ended ? ended.text : 'nothing within the limit' }
}

/** Mineflayer's builder builds `blueprint` at `origin`, standing where Alice stands for Wayfarer (its path search
 * does not reach a site 16 blocks off); timed from the start of its build to its end. */
async function buildMineflayer (world, bot, blueprint, origin) {
  await equip(world, bot.username, blueprint)
  await world.cmd({ cmd: 'teleport', name: bot.username, x: origin[0] - 2.5, y: await standY(world, origin[0] - 3, origin[2] - 3), z: origin[2] - 2.5 })
  await sleep(1500)
  await bot.waitForChunksToLoad()
  const from = world.events.length
  const started = Date.now()
  const { stopped, errors } = await buildWithMineflayer(bot, blueprint, origin, LIMIT_MS)
  const seconds = (Date.now() - started) / 1000
  return { ...await figures(world, bot.username, blueprint, origin, from, seconds), stopped, errors }
}

const line = (who, r) => `${who.padEnd(10)} score ${r.score.toFixed(2)} states ${r.states.toFixed(2)}  ${r.right} blocks right  ` +
  `${r.seconds.toFixed(0)} s  ${r.blocksPerMinute.toFixed(0)} blocks/min  deaths ${r.deaths}`

/** The side-by-side table: a Wayfarer and a Mineflayer column for each figure, a row a blueprint, then the means. */
function table (results, summary) {
  const sides = SIDES.map((side) => side === 'wayfarer' ? 'Wayfarer' : 'Mineflayer')
  const figure = [['score', (v) => v.toFixed(2)], ['states', (v) => v.toFixed(2)], ['seconds', (v) => v.toFixed(0)],
    ['blocksPerMinute', (v) => v.toFixed(0)], ['deaths', String]]
  const head = ['blueprint', 'blocks', ...figure.flatMap(([key]) => sides.map((who) => `${key === 'blocksPerMinute' ? 'blocks/min' : key} ${who}`))]
  const rows = results.map((r) => [r.name, String(r.blocks), ...figure.flatMap(([key, show]) => SIDES.map((side) => show(r[side][key])))])
  rows.push([`mean of ${results.length} (deaths: sum)`, '', ...figure.flatMap(([key, show]) => SIDES.map((side) => show(summary[side][key])))])
  rows.push(['all blocks / all seconds', '', ...figure.flatMap(([key, show]) => SIDES.map((side) => key === 'blocksPerMinute' ? show(summary[side].overallBlocksPerMinute) : ''))])
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i].length)))
  const row = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [row(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(row)].join('\n')
}

async function main () {
  const list = blueprints()
  const began = Date.now()
  const world = await startWorld(['--mobs', 'off', ...(NATURAL ? ['--world', 'natural', '--seed', String(SEED), '--time', '6000'] : [])])
  // Sites lie in a row east of the world's spawn, each on the ground at its north-west corner.
  const spawnAt = (await world.cmd({ cmd: 'world' })).spawn
  const [sx, sz] = NATURAL ? [Math.floor(spawnAt.x), Math.floor(spawnAt.z)] : [0, 0]
  let bot = null
  let mineflayer = null
  try {
    if (SIDES.includes('wayfarer')) {
      await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: sx + 0.5, y: await standY(world, sx, sz), z: sz + 0.5 })
      bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Alice',
        '--blueprints', path.join(ROOT, 'skills', 'blueprints'),
        // A checkpoint of its own: no goal, memory or cached reply from an earlier run carries over.
        '--checkpoint', fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-checkpoint-'))], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RUST_LOG: BOT_LOG ? 'info' : 'warn' } })
      const botLog = BOT_LOG ? fs.createWriteStream(BOT_LOG) : null
      bot.stderr.on('data', (chunk) => botLog && botLog.write(chunk))
      await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 60000)
    }
    if (SIDES.includes('mineflayer')) mineflayer = await connectBuilder(world, 'Mineflayer')
    await sleep(2000)
    const results = []
    const site = sites(world, sx, sz, await standY(world, sx, sz))
    for (const blueprint of list) {
      const [x, z] = (await site.next()).value
      const [mx, mz] = NATURAL ? (await site.next()).value : [x, z + MINEFLAYER_Z]
      const result = { name: blueprint.name, blocks: blueprint.parts.filter((p) => p.name !== 'air').length }
      if (bot) {
        result.wayfarer = await buildWayfarer(world, blueprint, [x, await standY(world, x, z), z])
        log(`${blueprint.name.padEnd(18)} ${line('Wayfarer', result.wayfarer)}`)
        // Out of the way of the next site.
        await sleep(500)
      }
      if (mineflayer) {
        result.mineflayer = await buildMineflayer(world, mineflayer, blueprint, [mx, await standY(world, mx, mz), mz])
        const errors = result.mineflayer.errors.map((e) => `${e.message} (${e.times}x)`).join('; ')
        log(`${blueprint.name.padEnd(18)} ${line('Mineflayer', result.mineflayer)}${errors ? `  errors: ${errors}` : ''}`)
      }
      results.push(result)
      // Kept as it goes: a run cut short still shows what it measured.
      fs.writeFileSync(RESULTS, JSON.stringify({ partial: true, results }, null, 2))
    }
    const summary = { blueprints: results.length, seconds: (Date.now() - began) / 1000 }
    const sum = (side, key) => results.reduce((s, r) => s + r[side][key], 0)
    const mean = (side, key) => sum(side, key) / results.length
    for (const side of SIDES) {
      // A builder that gives a blueprint up at once scores many blocks a minute on it; the overall figure, every
      // right block over every second, does not reward that.
      summary[side] = { score: mean(side, 'score'), states: mean(side, 'states'), seconds: mean(side, 'seconds'), blocksPerMinute: mean(side, 'blocksPerMinute'), overallBlocksPerMinute: sum(side, 'right') / (sum(side, 'seconds') / 60), deaths: sum(side, 'deaths') }
    }
    fs.writeFileSync(RESULTS, JSON.stringify({ summary, results }, null, 2))
    const where = NATURAL ? `natural seed ${SEED}` : 'the flat world'
    console.log(`\nBuilding on ${where}, ${GATHER ? 'materials gathered (stone tools given)' : 'materials given'} (results in ${RESULTS}):\n`)
    console.log(table(results, summary))
  } finally {
    if (bot) bot.kill('SIGTERM')
    await world.close()
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
