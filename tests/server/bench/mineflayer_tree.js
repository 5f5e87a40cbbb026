// The Mineflayer side of the natural benches: the tech tree (wooden, stone, iron pickaxe, a diamond) and the monster
// hunts, written the way a Mineflayer user writes them with the plugins they reach for (mineflayer-pathfinder,
// -collectblock, -tool, -auto-eat, -pvp). natural.js races the tree; survival.js the tree and the hunts over days.
'use strict'

const { Vec3 } = require('vec3')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')
const { until } = require('../lib/harness')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const log = (line) => process.stderr.write(`${line}\n`)
const trace = process.env.BENCH_DEBUG ? (line) => log(`  mineflayer: ${line}`) : () => {}

const LOGS = ['oak_log', 'birch_log', 'spruce_log', 'jungle_log', 'acacia_log', 'dark_oak_log', 'mangrove_log', 'cherry_log']

/** Loads the plugins a Mineflayer user reaches for and hits back at whatever hurts the bot (mineflayer-pvp's README). */
function equipBot (bot) {
  bot.loadPlugin(pathfinder)
  bot.loadPlugin(require('mineflayer-tool').plugin)
  bot.loadPlugin(require('mineflayer-collectblock').plugin)
  bot.loadPlugin(require('mineflayer-pvp').plugin)
  bot.loadPlugin(require('mineflayer-auto-eat').loader)
  bot.pathfinder.setMovements(new Movements(bot))
  if (bot.autoEat?.enableAuto) bot.autoEat.enableAuto()
  bot.on('entityHurt', (entity) => {
    if (entity !== bot.entity) return
    const foe = bot.nearestEntity((e) => e.type === 'hostile' && e.position.distanceTo(bot.entity.position) < 6)
    if (foe && !bot.pvp.target) bot.pvp.attack(foe)
  })
  if (process.env.BENCH_DEBUG) {
    const pulse = setInterval(() => trace(`at ${bot.entity?.position.floored()}, moving ${bot.pathfinder.isMoving()}, mining ${bot.pathfinder.isMining()}, digging ${bot.targetDigBlock?.name ?? '-'}`), 10000)
    bot.on('end', () => clearInterval(pulse))
    bot.on('path_update', (r) => trace(`path ${r.status}, ${r.path.length} nodes, ${r.visitedNodes} visited`))
    bot.on('diggingAborted', (b) => trace(`digging ${b.name} aborted`))
  }
}

/** The steps of the tree for `bot`, each skipping what is already done; `stopped()` ends a step with an error. */
function tree (bot, stopped) {
  const count = (name) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0)
  const ids = (names) => names.map((n) => bot.registry.blocksByName[n]?.id).filter((id) => id !== undefined)
  const check = () => { if (stopped()) throw new Error('stopped') }

  // Every walk gets a time limit too (two minutes: a long way down is slow digging); the caller carries on from
  // wherever the bot got to.
  async function go (goal) {
    let timer
    const late = new Promise((resolve) => { timer = setTimeout(() => { trace(`walk timed out at ${bot.entity.position.floored()}`); bot.pathfinder.stop(); resolve() }, 120000) })
    try { await Promise.race([bot.pathfinder.goto(goal).catch(() => {}), late]) } finally { clearTimeout(timer) }
  }
  async function explore () {
    const a = Math.random() * Math.PI * 2
    const p = bot.entity.position
    await go(new goals.GoalXZ(Math.floor(p.x + Math.cos(a) * 40), Math.floor(p.z + Math.sin(a) * 40)))
  }
  // The pathfinder can circle a target it never reaches: as a careful user would, give each block a minute, then
  // cancel and leave that block out of later searches.
  const given_up = new Set()
  async function collectOne (block) {
    let timer
    const stuck = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error('stuck')), 60000) })
    try {
      await Promise.race([bot.collectBlock.collect(block, { ignoreNoPath: true }), stuck])
    } catch (err) {
      trace(`gave up on ${block.name} at ${block.position}: ${err.message}`)
      given_up.add(block.position.toString())
      bot.pathfinder.stop()
      await bot.collectBlock.cancelTask().catch(() => {})
    } finally { clearTimeout(timer) }
  }
  function find (names, n) {
    return bot.findBlocks({ matching: ids(names), maxDistance: 64, count: n + given_up.size })
      .filter((p) => !given_up.has(p.toString())).slice(0, n)
  }
  async function collect (names, drop, n) {
    while (count(drop) < n) {
      check()
      const found = find(names, 1)
      trace(`collect ${names[0]}: ${found.length} in sight, ${count(drop)}/${n} ${drop}, at ${bot.entity.position.floored()}`)
      if (found.length === 0) { await explore(); continue }
      await collectOne(bot.blockAt(found[0]))
    }
  }
  // Mineflayer's view of the inventory can trail a craft or a placement by a packet, and it clicks without waiting:
  // as bench/actions.js and the referee do, let the world's answers land first and wait for what each craft made.
  async function craft (name, times, table) {
    check()
    await bot.waitForTicks(5)
    const recipe = bot.recipesFor(bot.registry.itemsByName[name].id, null, 1, table)[0]
    if (!recipe) throw new Error(`no recipe for ${name} with what I carry`)
    const before = count(name)
    await bot.craft(recipe, times, table)
    await until(() => count(name) >= before + recipe.result.count * times, 3000, `${name} to be crafted`)
  }
  const logs = () => LOGS.reduce((n, l) => n + count(l), 0)
  async function collectLogs (n) {
    while (logs() < n) {
      check()
      const found = find(LOGS, 1)
      if (found.length === 0) { await explore(); continue }
      await collectOne(bot.blockAt(found[0]))
    }
  }
  async function planks (n) {
    while (LOGS.every((l) => count(l.replace('_log', '_planks')) < n)) {
      if (logs() === 0) await collectLogs(1)
      await craft(LOGS.find((l) => count(l) > 0).replace('_log', '_planks'), 1, null)
    }
  }
  async function place (name, fresh = false) {
    const existing = fresh ? null : bot.findBlock({ matching: bot.registry.blocksByName[name].id, maxDistance: 32 })
    if (existing) return existing
    const me = bot.entity.position.floored()
    for (const [dx, dz] of [[2, 0], [0, 2], [-2, 0], [0, -2], [1, 1], [-1, -1]]) {
      const ground = bot.blockAt(me.offset(dx, -1, dz))
      const spot = bot.blockAt(me.offset(dx, 0, dz))
      if (!ground || ground.boundingBox !== 'block' || !spot || spot.name !== 'air') continue
      await bot.equip(bot.registry.itemsByName[name].id, 'hand')
      try { await bot.placeBlock(ground, new Vec3(0, 1, 0)) } catch { continue }
      const placed = bot.blockAt(me.offset(dx, 0, dz))
      if (placed?.name === name) return placed
    }
    throw new Error(`no spot to place the ${name}`)
  }
  async function table () {
    if (!bot.findBlock({ matching: bot.registry.blocksByName.crafting_table.id, maxDistance: 32 }) && count('crafting_table') === 0) {
      await planks(4)
      await craft('crafting_table', 1, null)
    }
    const t = await place('crafting_table')
    // A table is used from beside it (bot.craft opens it where it stands).
    await go(new goals.GoalNear(t.position.x, t.position.y, t.position.z, 2))
    if (bot.entity.position.distanceTo(t.position.offset(0.5, 0.5, 0.5)) > 4.5) {
      // Out of reach (the walk failed): a new table here.
      trace('the table is out of reach; making a new one')
      if (count('crafting_table') === 0) { await planks(4); await craft('crafting_table', 1, null) }
      return bot.blockAt((await place('crafting_table', true)).position)
    }
    return bot.blockAt(t.position)
  }
  async function sticks (n) {
    if (count('stick') >= n) return
    await planks(2)
    await craft('stick', 1, null)
  }
  async function goDown (y) {
    const p = bot.entity.position
    await go(new goals.GoalBlock(Math.floor(p.x) + 8, y, Math.floor(p.z)))
  }


  // Wooden pickaxe: three logs, planks, a table, sticks.
  async function woodenPickaxe () {
    if (count('wooden_pickaxe') === 0 && count('stone_pickaxe') === 0 && count('iron_pickaxe') === 0) {
      await collectLogs(3)
      const t = await table()
      await sticks(2)
      await planks(3)
      await craft('wooden_pickaxe', 1, t)
    }
  }
  // Stone pickaxe: three cobblestone.
  async function stonePickaxe () {
    if (count('stone_pickaxe') === 0 && count('iron_pickaxe') === 0) {
      await collect(['stone'], 'cobblestone', 3)
      const t = await table()
      await sticks(2)
      await craft('stone_pickaxe', 1, t)
    }
  }
  // Iron pickaxe: three iron ore (down to y 16 if none is near), a furnace, three ingots.
  async function ironPickaxe () {
    if (count('iron_pickaxe') === 0) {
      const start = bot.entity.position.clone()
      if (count('raw_iron') + count('iron_ingot') < 3 && bot.findBlocks({ matching: ids(['iron_ore', 'deepslate_iron_ore']), maxDistance: 64, count: 1 }).length === 0) await goDown(16)
      while (count('raw_iron') + count('iron_ingot') < 3) await collect(['iron_ore', 'deepslate_iron_ore'], 'raw_iron', 3 - count('iron_ingot'))
      await collect(['stone'], 'cobblestone', 8)
      await go(new goals.GoalNear(start.x, start.y, start.z, 3))
      if (count('iron_ingot') < 3) {
        if (count('furnace') === 0 && !bot.findBlock({ matching: bot.registry.blocksByName.furnace.id, maxDistance: 32 })) await craft('furnace', 1, await table())
        const furnaceBlock = await place('furnace')
        const furnace = await bot.openFurnace(furnaceBlock)
        await planks(3)
        const plank = LOGS.map((l) => l.replace('_log', '_planks')).find((p) => count(p) >= 3)
        await furnace.putFuel(bot.registry.itemsByName[plank].id, null, 3)
        await furnace.putInput(bot.registry.itemsByName.raw_iron.id, null, 3 - count('iron_ingot'))
        while (count('iron_ingot') < 3) { check(); await sleep(1000); if (furnace.outputItem()) await furnace.takeOutput() }
        furnace.close()
      }
      const t = await table()
      await sticks(2)
      await craft('iron_pickaxe', 1, t)
    }
  }
  // A diamond: down to y -50, the nearest diamond ore.
  async function diamond () {
    if (count('diamond') === 0) {
      if (bot.findBlocks({ matching: ids(['diamond_ore', 'deepslate_diamond_ore']), maxDistance: 64, count: 1 }).length === 0) await goDown(-50)
      await collect(['diamond_ore', 'deepslate_diamond_ore'], 'diamond', 1)
    }
  }
  // A stone sword: two cobblestone and a stick at a table.
  async function stoneSword () {
    if (count('stone_sword') > 0) return
    await collect(['stone'], 'cobblestone', 2)
    const t = await table()
    await sticks(1)
    await craft('stone_sword', 1, t)
  }
  // `n` of `drop` from monsters of `kinds`: the nearest one in sight attacked with mineflayer-pvp, what it dropped
  // walked over; none in sight, a walk to look further (by day most of them are not out).
  async function hunt (kinds, drop, n) {
    while (count(drop) < n) {
      check()
      const loot = bot.nearestEntity((e) => e.name === 'item' && e.getDroppedItem?.()?.name === drop && e.position.distanceTo(bot.entity.position) < 16)
      if (loot) { await go(new goals.GoalBlock(Math.floor(loot.position.x), Math.floor(loot.position.y), Math.floor(loot.position.z))); continue }
      const mob = bot.nearestEntity((e) => kinds.includes(e.name) && e.position.distanceTo(bot.entity.position) < 48)
      if (!mob) { await explore(); continue }
      const sword = bot.inventory.items().find((i) => i.name.endsWith('_sword'))
      if (sword) await bot.equip(sword, 'hand').catch(() => {})
      bot.pvp.attack(mob)
      const started = Date.now()
      while (mob.isValid && Date.now() - started < 60000) { check(); await sleep(250) }
      bot.pvp.stop()
      await sleep(500)
    }
  }
  return { count, woodenPickaxe, stonePickaxe, ironPickaxe, diamond, stoneSword, hunt }
}

/** Climbs the whole tree (natural.js's race). */
async function techTree (bot, stopped) {
  const t = tree(bot, stopped)
  await t.woodenPickaxe()
  await t.stonePickaxe()
  await t.ironPickaxe()
  await t.diamond()
}

module.exports = { equipBot, tree, techTree, LOGS }
