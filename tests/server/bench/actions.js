#!/usr/bin/env node
// Wayfarer vs Mineflayer (+ mineflayer-pathfinder) doing the same jobs in the same test world, wall time each:
// walk 20 blocks, mine 10 dirt, craft a wooden pickaxe from 3 logs (planks, table placed, sticks, pickaxe).
// Wayfarer's time is its script run's own report; Mineflayer's is measured around the same calls.
// Usage: node actions.js --bot PATH/TO/wayfarer
'use strict'

const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Vec3 } = require('vec3')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')
const { startWorld, until } = require('../lib/harness')

const BOT = (() => { const i = process.argv.indexOf('--bot'); return i > 0 ? process.argv[i + 1] : null })()
if (!BOT || !fs.existsSync(BOT)) { console.error('usage: node actions.js --bot PATH/TO/wayfarer (build it with `make build`)'); process.exit(2) }

/**
 * The same scene for both clients: 10 dirt blocks in a row on the surface, and no other dirt within reach (the
 * ground's dirt layer there is stone), so both clients mine exactly that row; 3 logs are given for the pickaxe.
 */
async function scene (world) {
  await world.cmd({ cmd: 'fill', from: [-12, 60, -16], to: [40, 62, 24], block: 'stone' })
  await world.cmd({ cmd: 'fill', from: [3, 64, 4], to: [12, 64, 4], block: 'dirt' })
}

const SCRIPTS = {
  home: 'goTo(vec3(0, 64, 0))',
  walk: 'goTo(vec3(20, 64, 0))',
  dirt: 'mineBlock("dirt", 10)',
  pickaxe: `craftItem("oak_planks", 12);
craftItem("crafting_table", 1);
placeItem("crafting_table", position().floor() + vec3(2, 0, 0));
craftItem("stick", 4);
craftItem("wooden_pickaxe", 1);`
}

async function wayfarer () {
  const world = await startWorld()
  await scene(world)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wayfarer-bench-'))
  for (const [name, source] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(dir, `${name}.rhai`), source)
  await world.cmd({ cmd: 'addPlayer', name: 'Owner', x: -5.5, y: 64, z: -5.5 })
  const bot = spawn(BOT, ['run', '--server', `127.0.0.1:${world.port}`, '--username', 'Wayfarer', '--owner', 'Owner', '--scripts', dir],
    { stdio: ['ignore', 'ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore'], env: { ...process.env, RUST_LOG: process.env.BENCH_DEBUG ? 'wayfarer=debug' : 'warn' } })
  try {
    await world.waitEvent((e) => e.event === 'join' && e.name === 'Wayfarer', 30000)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const times = {}
    // `home` (untimed) brings the bot back to open ground at spawn before crafting, as the Mineflayer run does.
    for (const name of ['walk', 'dirt', 'home', 'pickaxe']) {
      if (name === 'pickaxe') await world.cmd({ cmd: 'give', name: 'Wayfarer', item: 'oak_log', count: 3 })
      process.stderr.write(`wayfarer: ${name}\n`)
      const seen = world.events.length
      await world.cmd({ cmd: 'say', as: 'Owner', text: `!run ${name}` })
      const done = await world.waitEvent((e) => world.events.indexOf(e) >= seen && e.event === 'chat' && e.from === 'Wayfarer' &&
        (e.text.startsWith(`${name} finished`) || e.text.startsWith(`${name} failed`)), 120000)
      if (done.text.startsWith(`${name} failed`)) throw new Error(done.text)
      times[name] = Number(/ in ([\d.]+) s/.exec(done.text)[1]) * 1000
    }
    return times
  } finally {
    bot.kill('SIGTERM')
    await world.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function mineflayer () {
  const world = await startWorld()
  await scene(world)
  try {
    const bot = await world.bot('Mineflayer')
    bot.loadPlugin(pathfinder)
    bot.pathfinder.setMovements(new Movements(bot))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const times = {}
    const timed = async (name, job) => { const t = performance.now(); await job(); times[name] = performance.now() - t }
    const count = (name) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0)

    await timed('walk', () => bot.pathfinder.goto(new goals.GoalBlock(20, 64, 0)))
    await timed('dirt', async () => {
      for (let i = 0; i < 10; i++) {
        const block = bot.findBlock({ matching: bot.registry.blocksByName.dirt.id, maxDistance: 32 })
        await bot.pathfinder.goto(new goals.GoalNear(block.position.x, block.position.y, block.position.z, 2))
        await bot.dig(block)
        const before = count('dirt')
        await bot.pathfinder.goto(new goals.GoalBlock(block.position.x, block.position.y, block.position.z))
        await until(() => count('dirt') > before, 3000, 'the dirt')
      }
    })
    await bot.pathfinder.goto(new goals.GoalBlock(0, 64, 0))
    await world.cmd({ cmd: 'give', name: 'Mineflayer', item: 'oak_log', count: 3 })
    await until(() => count('oak_log') === 3, 3000, 'the logs')
    await timed('pickaxe', async () => {
      const recipe = (name, table = null) => bot.recipesFor(bot.registry.itemsByName[name].id, null, 1, table)[0]
      // Mineflayer's view of the inventory can trail a craft's end by a packet, and it clicks without waiting: an
      // update landing mid-craft overwrites its predicted cursor and the craft comes to nothing. So, as the referee
      // (test/actions.test.js) does, each step waits for the inventory it made before the next one clicks.
      const has = (name, n) => until(() => count(name) >= n, 3000, `${n} ${name}`)
      await bot.craft(recipe('oak_planks'), 3, null)
      await has('oak_planks', 12)
      await bot.craft(recipe('crafting_table'), 1, null)
      await has('crafting_table', 1)
      await until(() => count('oak_planks') === 8, 3000, '8 oak_planks')
      await bot.equip(bot.registry.itemsByName.crafting_table.id, 'hand')
      const ground = bot.blockAt(bot.entity.position.floored().offset(2, -1, 0))
      await bot.placeBlock(ground, new Vec3(0, 1, 0))
      const table = bot.blockAt(ground.position.offset(0, 1, 0))
      // Let the world's answer to the placement (the held slot's new count) land before clicking again.
      await bot.waitForTicks(5)
      await bot.craft(recipe('stick'), 1, null)
      await has('stick', 4)
      await until(() => recipe('wooden_pickaxe', table), 3000, 'the sticks')
      await bot.craft(recipe('wooden_pickaxe', table), 1, table)
      if (count('wooden_pickaxe') !== 1) throw new Error('no pickaxe')
    })
    return times
  } finally {
    await world.close()
  }
}

async function main () {
  const w = await wayfarer()
  const m = await mineflayer()
  const rows = [['job', 'Wayfarer', 'Mineflayer', 'Wayfarer / Mineflayer']]
  const labels = { walk: 'walk 20 blocks', dirt: 'mine 10 dirt (and collect)', pickaxe: 'wooden pickaxe from 3 logs' }
  for (const job of ['walk', 'dirt', 'pickaxe']) {
    rows.push([labels[job], `${(w[job] / 1000).toFixed(2)} s`, `${(m[job] / 1000).toFixed(2)} s`, `${(w[job] / m[job]).toFixed(2)}×`])
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  const line = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  console.log(line(rows[0]))
  console.log('|' + widths.map((n) => '-'.repeat(n + 2)).join('|') + '|')
  for (const r of rows.slice(1)) console.log(line(r))
  process.exit(0)
}

main().catch((err) => { console.error(`bench failed: ${err.stack}`); process.exit(1) })
