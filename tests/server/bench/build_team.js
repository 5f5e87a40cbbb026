#!/usr/bin/env node
// One bot against a team of three on the same blueprints, judged by the world. The one bot is told
// `!build NAME at X Y Z` with all the materials; the team's leader is told the same and splits the blueprint into a
// strip a member, each member carrying what its own strip takes (`wayfarer blueprint NAME --share K/3 --json`).
// Each run has a fresh flat world. Figures: seconds from the command until the world shows the whole blueprint
// standing (the bots' words are not used), the score then, and the team's speed-up.
//
// Usage: node build_team.js --bot PATH/TO/wayfarer [--only two_storey_house,hut] [--results FILE]
'use strict'

const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { startWorld } = require('../lib/harness')

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback }
const ROOT = path.join(__dirname, '..', '..', '..')
const BOT = arg('bot')
const RESULTS = arg('results', path.join(os.tmpdir(), 'wayfarer-bench-build-team.json'))
const ONLY = (arg('only') ?? 'two_storey_house,watchtower,hut').split(',')
const FOLDER = path.join(ROOT, 'skills', 'blueprints')
const TEAM = 3
const ORIGIN = [4, 64, -4]
/** The longest one build may take. */
const LIMIT_MS = 10 * 60 * 1000
/** Dirt the builders carry besides their materials, to scaffold with: this much each in the team, all of it for
 * the one bot. */
const SPARE_DIRT = 8
const log = (line) => process.stderr.write(`${line}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

if (!BOT || !fs.existsSync(BOT)) {
  log('usage: node build_team.js --bot PATH/TO/wayfarer [--only two_storey_house,hut] [--results FILE]')
  process.exit(2)
}

/** A blueprint (or one member's strip of it) as the bot's own checker reads it. */
function blueprint (name, share) {
  const args = ['blueprint', '--json', '--folder', FOLDER, name, ...(share ? ['--share', share] : [])]
  return JSON.parse(execFileSync(BOT, args, { encoding: 'utf8' }))
}

/** Blocks of `whole` (built at ORIGIN) the world shows right. */
async function right (world, whole) {
  const [w, h, d] = whole.size
  const found = await world.cmd({ cmd: 'getBlocks', from: ORIGIN, to: [ORIGIN[0] + w - 1, ORIGIN[1] + h - 1, ORIGIN[2] + d - 1] })
  const at = new Map(found.map((b) => [`${b.x},${b.y},${b.z}`, b.name]))
  return whole.parts.filter((p) => p.name !== 'air' && at.get(`${ORIGIN[0] + p.at[0]},${ORIGIN[1] + p.at[1]},${ORIGIN[2] + p.at[2]}`) === p.name).length
}

/** One build on a fresh world: `names` are the bots, `loads` what each carries; `to` is told `!build`. */
async function run (whole, botArgs, names, loads) {
  const world = await startWorld(['--mobs', 'off'])
  await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: 0.5, y: 64, z: 8.5 })
  // A checkpoint of its own: no goal or memory from an earlier run carries over.
  const checkpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-checkpoint-'))
  const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--owner', 'Alice', '--blueprints', FOLDER, '--checkpoint', checkpoint, ...botArgs],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } })
  bot.stderr.on('data', () => {})
  try {
    for (const name of names) await world.waitEvent((e) => e.event === 'join' && e.name === name, 60000)
    for (const [i, name] of names.entries()) {
      for (const [item, count] of Object.entries(loads[i])) await world.cmd({ cmd: 'give', name, item, count })
      await world.cmd({ cmd: 'give', name, item: 'dirt', count: SPARE_DIRT * TEAM / names.length })
    }
    await sleep(2000)
    const blocks = whole.parts.filter((p) => p.name !== 'air').length
    const from = world.events.length
    const started = Date.now()
    const to = names.length > 1 ? `${names[0]} ` : ''
    await world.cmd({ cmd: 'say', as: 'Alice', text: `${to}!build ${whole.name} at ${ORIGIN.join(' ')}` })
    let done = 0
    let finished = null
    while (Date.now() - started < LIMIT_MS) {
      await sleep(250)
      done = await right(world, whole)
      if (done === blocks) { finished = Date.now(); break }
      // The build is over (well or not) once the bot that was told says so.
      const over = world.events.slice(from).find((e) => e.event === 'chat' && e.from === names[0] &&
        (names.length > 1 ? /^Built \S+ with|^The team's/ : /^Built |^I failed/).test(e.text))
      if (over) { await sleep(2000); done = await right(world, whole); finished = Date.now(); break }
    }
    const seconds = ((finished ?? Date.now()) - started) / 1000
    const deaths = world.events.slice(from).filter((e) => e.event === 'death').length
    return { seconds, score: done / blocks, blocks, deaths }
  } finally {
    bot.kill('SIGTERM')
    await world.close()
  }
}

async function main () {
  const results = []
  for (const name of ONLY) {
    const whole = blueprint(name)
    const solo = await run(whole, ['--username', 'Solo'], ['Solo'], [whole.materials])
    log(`${name}: one bot ${solo.seconds.toFixed(0)} s, score ${solo.score.toFixed(2)}`)
    const strips = Array.from({ length: TEAM }, (_, i) => blueprint(name, `${i + 1}/${TEAM}`).materials)
    const names = Array.from({ length: TEAM }, (_, i) => `Crew_${i + 1}`)
    const team = await run(whole, ['--username', 'Crew', '--bots', String(TEAM), '--role', 'leader'], names, strips)
    log(`${name}: team of ${TEAM} ${team.seconds.toFixed(0)} s, score ${team.score.toFixed(2)}`)
    results.push({ name, blocks: whole.parts.filter((p) => p.name !== 'air').length, solo, team, speedup: solo.seconds / team.seconds })
  }
  fs.writeFileSync(RESULTS, JSON.stringify(results, null, 2))
  console.log(`\nOne bot against a team of ${TEAM} (flat world, materials given; seconds until the world shows it whole)`)
  console.log('| blueprint | blocks | one bot: s | score | team of 3: s | score | speed-up |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of results) {
    console.log(`| ${r.name} | ${r.blocks} | ${r.solo.seconds.toFixed(0)} | ${r.solo.score.toFixed(2)} | ${r.team.seconds.toFixed(0)} | ${r.team.score.toFixed(2)} | ${r.speedup.toFixed(2)}× |`)
  }
  console.log(`(results in ${RESULTS})`)
}

main().catch((err) => { console.error(err); process.exit(1) })
