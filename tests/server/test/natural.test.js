// Referee, natural worlds: a Mineflayer 4.39 bot lives in seeded terrain the way it would on a vanilla 26.1 server.
// Three seeds nobody tuned for; on each the bot lands on the surface, climbs the highest ground near spawn with
// mineflayer-pathfinder, digs down to y 16 and sees ore, takes fall damage, drowns in the seed's own water, eats,
// is found by a zombie at night and kills it, and dies and respawns with its items left where it died. Nothing is
// built for it: every place it goes is found in the generated world through the control channel.
'use strict'

const { describe, test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { once } = require('node:events')
const { Vec3 } = require('vec3')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')
const { startWorld, until } = require('../lib/harness')

const SEEDS = (process.env.REFEREE_SEEDS ?? '3,1009,77777').split(',')
const ORES = ['coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'redstone_ore', 'lapis_ore', 'diamond_ore']
const UNDERFOOT = new Set(['water', 'lava', 'air', 'oak_leaves', 'birch_leaves', 'spruce_leaves'])
const TREE = /_(log|leaves)$/

/** Teleports a bot and waits until its client has taken the move. */
async function moveTo (world, bot, pos) {
  const moved = once(bot, 'forcedMove')
  await world.cmd({ cmd: 'teleport', name: bot.username, ...pos })
  await Promise.race([moved, sleep(5000).then(() => { throw new Error('the teleport never reached the bot') })])
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Open ground (not a tree, not water) near x, z, best first by `score`: searched within 12 blocks, then wider (a
 * spawn on a shore may have only water on one side).
 */
async function findGround (world, x, z, score, need = () => true) {
  for (const radius of [12, 24, 48]) {
    const found = []
    for (let dx = -radius; dx <= radius; dx += 3) {
      for (let dz = -radius; dz <= radius; dz += 3) {
        const s = await world.cmd({ cmd: 'surface', x: x + dx, z: z + dz })
        if (TREE.test(s.block) || s.height !== s.y || UNDERFOOT.has(s.block)) continue
        const ground = { x: Math.floor(x + dx), y: s.y, z: Math.floor(z + dz), block: s.block }
        if (need(ground)) found.push(ground)
      }
    }
    if (found.length) return found.sort((a, b) => score(b) - score(a))
  }
  throw new Error(`no open ground that fits within 48 blocks of ${x} ${z}`)
}

/** A column of still water at least 3 deep near x, z (the nearest water first, then oceans and rivers). */
async function findDeepWater (world, x, z) {
  const near = []
  const water = await world.cmd({ cmd: 'locate', block: 'water', x, y: 62, z, radius: 160 })
  if (water) near.push(water)
  for (const biome of ['river', 'ocean', 'deep_ocean']) {
    const at = await world.cmd({ cmd: 'locate', biome, x, z, radius: 400 })
    if (at) near.push(at)
  }
  for (const at of near) {
    for (let r = 0; r <= 24; r += 2) {
      for (let dx = -r; dx <= r; dx += 2) {
        for (let dz = -r; dz <= r; dz += 2) {
          if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue
          const s = await world.cmd({ cmd: 'surface', x: at.x + dx, z: at.z + dz })
          if (s.height === 62 && s.y <= 59) return { x: Math.floor(at.x + dx), z: Math.floor(at.z + dz), floor: s.y }
        }
      }
    }
  }
  throw new Error(`no water 3 deep near ${x} ${z} (looked at ${JSON.stringify(near)})`)
}

for (const seed of SEEDS) {
  describe(`natural world, seed ${seed}`, { concurrency: true }, () => {
    let world
    let spawn
    before(async () => {
      // Monsters have a world of their own below; here they would come out of the caves the digger opens.
      world = await startWorld(['--world', 'natural', '--seed', seed, '--mobs', 'off'])
      spawn = (await world.cmd({ cmd: 'world' })).spawn
    })
    after(async () => { await world.close() })

    test('lands on the surface, then climbs the highest ground near spawn with mineflayer-pathfinder', async () => {
      const bot = await world.bot(`Climb${seed}`.slice(0, 16))
      await until(() => bot.entity.onGround, 5000, 'the bot to land')
      const under = bot.blockAt(bot.entity.position.offset(0, -1, 0))
      assert.ok(!UNDERFOOT.has(under.name), `spawned on ${under.name}`)
      assert.equal(bot.blockAt(bot.entity.position).name, 'air')
      const surface = await world.cmd({ cmd: 'surface', x: spawn.x, z: spawn.z })
      assert.equal(Math.floor(bot.entity.position.y), surface.y + 1, 'spawned standing on the top block')

      const start = bot.entity.position.y
      // The nearest ground at least 3 blocks above the spawn.
      const [hill] = await findGround(world, spawn.x, spawn.z, (g) => -Math.hypot(g.x - spawn.x, g.z - spawn.z), (g) => g.y + 1 >= start + 3)
      bot.loadPlugin(pathfinder)
      const moves = new Movements(bot)
      moves.canDig = false // walk and jump up it, as a player would
      bot.pathfinder.setMovements(moves)
      await bot.pathfinder.goto(new goals.GoalNear(hill.x, hill.y + 1, hill.z, 1))
      assert.ok(bot.entity.position.y >= start + 3, `climbed from y ${start} to ${bot.entity.position.y}`)
      bot.end()
    })

    test('digs down to y 16 and sees ore around it', async () => {
      const bot = await world.bot(`Dig${seed}`)
      await world.cmd({ cmd: 'give', name: bot.username, item: 'diamond_pickaxe' })
      await world.cmd({ cmd: 'give', name: bot.username, item: 'diamond_shovel' })
      const [site] = await findGround(world, spawn.x + 16, spawn.z + 16, (g) => -Math.hypot(g.x - spawn.x - 16, g.z - spawn.z - 16))
      await moveTo(world, bot, { x: site.x + 0.5, y: site.y + 1, z: site.z + 0.5 })
      // Straight down, block by block, with the right tool for each (a test, not a safe way to mine).
      const tools = Object.fromEntries(bot.inventory.items().map((i) => [i.name, i]))
      while (Math.floor(bot.entity.position.y) > 16) {
        const below = bot.blockAt(bot.entity.position.offset(0, -1, 0).floored())
        if (below.name === 'lava' || below.name === 'water') assert.fail(`${below.name} under the bot at ${below.position}`)
        if (below.boundingBox === 'block') {
          await bot.equip(/shovel/.test(below.material ?? '') ? tools.diamond_shovel : tools.diamond_pickaxe, 'hand')
          await bot.dig(below, true)
        }
        await until(() => bot.entity.onGround && bot.entity.position.y < below.position.y + 0.01, 5000, 'the bot to drop into the hole')
      }
      assert.ok(Math.floor(bot.entity.position.y) <= 16, `stopped at y ${bot.entity.position.y}`)
      const ids = ORES.flatMap((n) => [n, `deepslate_${n}`]).map((n) => bot.registry.blocksByName[n].id)
      const ore = bot.findBlock({ matching: ids, maxDistance: 32 })
      assert.ok(ore, 'no ore within 32 blocks of y 16')
      assert.equal(await world.cmd({ cmd: 'getBlock', x: ore.position.x, y: ore.position.y, z: ore.position.z }), ore.name)
      bot.end()
    })

    test('takes fall damage on the seed\'s ground and eats to get its food back', async () => {
      const bot = await world.bot(`Fall${seed}`)
      const [ground] = await findGround(world, spawn.x - 20, spawn.z, (g) => -Math.hypot(g.x - spawn.x + 20, g.z - spawn.z))
      const hurt = world.waitEvent((e) => e.event === 'playerHurt' && e.name === bot.username && e.cause === 'fall', 10000)
      await world.cmd({ cmd: 'teleport', name: bot.username, x: ground.x + 0.5, y: ground.y + 11, z: ground.z + 0.5 })
      const fall = await hurt
      assert.equal(fall.amount, 7, `a 10-block fall onto ${ground.block}`)
      assert.equal(fall.health, 13)

      await world.cmd({ cmd: 'setFood', name: bot.username, food: 12, saturation: 0 })
      await world.cmd({ cmd: 'give', name: bot.username, item: 'cooked_beef', count: 1 })
      await until(() => bot.food === 12 && bot.inventory.items().length === 1, 3000, 'food 12 and the beef')
      await bot.equip(bot.inventory.items()[0], 'hand')
      await bot.consume()
      await until(() => bot.food === 20, 3000, 'cooked beef (8 food) to fill the bar')
      bot.end()
    })

    test('drowns when held under the seed\'s own water', async () => {
      const bot = await world.bot(`Swim${seed}`)
      const deep = await findDeepWater(world, spawn.x, spawn.z)
      // The bot stands on the bottom; a lid on the surface keeps it from coming up for air.
      await world.cmd({ cmd: 'setBlock', x: deep.x, y: 63, z: deep.z, block: 'stone' })
      await moveTo(world, bot, { x: deep.x + 0.5, y: deep.floor + 1, z: deep.z + 0.5 })
      const drowned = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === bot.username && e.cause === 'drown', 25000)
      assert.equal(drowned.amount, 2)
      assert.ok(bot.oxygenLevel < 1, `air ${bot.oxygenLevel}`)
      bot.end()
    })

    test('dies and respawns at spawn; its items lie where it died', async () => {
      const bot = await world.bot(`Die${seed}`)
      await world.cmd({ cmd: 'give', name: bot.username, item: 'torch', count: 9 })
      await world.cmd({ cmd: 'give', name: bot.username, item: 'stone_axe' })
      await until(() => bot.inventory.items().length === 2, 3000, 'the items')
      const [ground] = await findGround(world, spawn.x, spawn.z + 24, (g) => -Math.hypot(g.x - spawn.x, g.z - spawn.z - 24))
      const died = world.waitEvent((e) => e.event === 'death' && e.name === bot.username, 10000)
      await world.cmd({ cmd: 'teleport', name: bot.username, x: ground.x + 0.5, y: ground.y + 40, z: ground.z + 0.5 })
      const death = await died
      assert.equal(death.cause, 'fall')
      await world.waitEvent((e) => e.event === 'respawn' && e.name === bot.username, 5000)
      await until(() => bot.health === 20 && bot.entity.position.distanceTo(new Vec3(spawn.x, spawn.y, spawn.z)) < 1.5, 5000, 'respawn at spawn')
      assert.deepEqual(await world.cmd({ cmd: 'inventory', name: bot.username }), {})
      await until(async () => {
        const items = (await world.cmd({ cmd: 'entities' })).filter((e) => e.kind === 'item' && Math.hypot(e.x - ground.x - 0.5, e.z - ground.z - 0.5) < 2)
        return items.map((i) => i.item).sort().join() === 'stone_axe,torch'
      }, 3000, 'the torches and the axe on the ground where it died')
      bot.end()
    })
  })

  // Night in a world of its own: monsters come for every player, and a bot digging a shaft elsewhere would meet them.
  describe(`natural world, seed ${seed}, at night`, () => {
    let world
    before(async () => { world = await startWorld(['--world', 'natural', '--seed', seed]) })
    after(async () => { await world.close() })

    test('at night a zombie finds it and it kills the zombie', async () => {
      const bot = await world.bot(`Night${seed}`)
      await world.cmd({ cmd: 'give', name: bot.username, item: 'diamond_sword' })
      await until(() => bot.inventory.items().length === 1, 3000, 'the sword')
      await bot.equip(bot.inventory.items()[0], 'hand')
      await world.cmd({ cmd: 'setTime', time: 14000 })
      // It waits to be bitten (a bot that struck first would win before the zombie ever reached it), then fights
      // back: the nearest zombie in reach, faced, hit no faster than the sword's cooldown.
      const hit = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === bot.username && e.by === 'zombie', 120000)
      assert.ok(hit.amount > 0)
      const killed = world.waitEvent((e) => e.event === 'mobKilled' && e.kind === 'zombie' && e.by === bot.username, 60000)
      let done = false
      killed.then(() => { done = true }, () => { done = true })
      while (!done) {
        const zombie = bot.nearestEntity((e) => e.name === 'zombie' && e.position.distanceTo(bot.entity.position) < 3.5)
        if (zombie) {
          await bot.lookAt(zombie.position.offset(0, 1.6, 0), true)
          bot.attack(zombie)
        }
        await sleep(650)
      }
      await killed
      await world.cmd({ cmd: 'setTime', time: 1000 })
      bot.end()
    })
  })
}
