// Referee, part 2: Mineflayer does every action Wayfarer's primitives do — dig and collect logs, craft planks,
// a crafting table, sticks and a wooden pickaxe (in the table), mine stone with it, smelt raw iron, use a chest,
// kill a pig and collect the drops. Each passing test is evidence that the test world behaves as vanilla does.
'use strict'

const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { Vec3 } = require('vec3')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')
const { startWorld, until } = require('../lib/harness')

let world
before(async () => { world = await startWorld() })
after(async () => { await world.close() })

const count = (bot, name) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0)

async function walkTo (bot, x, y, z, range = 0) {
  if (!bot.pathfinder) { bot.loadPlugin(pathfinder); bot.pathfinder.setMovements(new Movements(bot)) }
  await bot.pathfinder.goto(range ? new goals.GoalNear(x, y, z, range) : new goals.GoalBlock(x, y, z))
}

/** Digs the block at `pos` and walks over the drop; resolves once `item` arrived. */
async function digAndCollect (bot, pos, item) {
  const before = count(bot, item)
  await walkTo(bot, pos.x, pos.y, pos.z, 2)
  await bot.dig(bot.blockAt(pos))
  await walkTo(bot, pos.x, bot.entity.position.y === pos.y ? pos.y : Math.floor(bot.entity.position.y), pos.z)
  await until(() => count(bot, item) > before, 5000, `${item} to be picked up`)
}

test('dig three logs and collect them; the world counts the same', async () => {
  const bot = await world.bot('Lumber')
  for (const z of [4, 6, 8]) await world.cmd({ cmd: 'setBlock', x: 4, y: 64, z, block: 'oak_log' })
  for (const z of [4, 6, 8]) await digAndCollect(bot, new Vec3(4, 64, z), 'oak_log')
  assert.equal(count(bot, 'oak_log'), 3)
  assert.deepEqual(await world.cmd({ cmd: 'inventory', name: 'Lumber' }), { oak_log: 3 })
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 4, y: 64, z: 6 }), 'air')
  bot.end()
})

test('a spot the world is told to refuse takes no block, and says so; the spot beside it does', async () => {
  const bot = await world.bot('Refused')
  await world.cmd({ cmd: 'give', name: 'Refused', item: 'dirt', count: 2 })
  await until(() => count(bot, 'dirt') === 2, 3000, 'the dirt')
  const ground = bot.entity.position.floored().offset(2, -1, 0)
  const spot = ground.offset(0, 1, 0)
  await world.cmd({ cmd: 'refusePlace', spots: [[spot.x, spot.y, spot.z]] })
  await bot.equip(bot.registry.itemsByName.dirt.id, 'hand')
  await assert.rejects(bot.placeBlock(bot.blockAt(ground), new Vec3(0, 1, 0)))
  assert.equal(await world.cmd({ cmd: 'getBlock', x: spot.x, y: spot.y, z: spot.z }), 'air')
  const refused = world.events.filter((e) => e.event === 'placeRefused' && e.name === 'Refused')
  assert.equal(refused.length, 1)
  await bot.placeBlock(bot.blockAt(ground.offset(0, 0, 1)), new Vec3(0, 1, 0))
  assert.equal(await world.cmd({ cmd: 'getBlock', x: spot.x, y: spot.y, z: spot.z + 1 }), 'dirt')
  await world.cmd({ cmd: 'refusePlace', clear: true })
  bot.end()
})

test('craft planks, a crafting table, sticks and a wooden pickaxe in the table, mine stone with it, craft a stone pickaxe', async () => {
  const bot = await world.bot('Crafter')
  await world.cmd({ cmd: 'give', name: 'Crafter', item: 'oak_log', count: 3 })
  await until(() => count(bot, 'oak_log') === 3, 3000, 'the logs')
  const recipe = (name, table = null) => bot.recipesFor(bot.registry.itemsByName[name].id, null, 1, table)[0]

  // Mineflayer's view of the inventory can trail the end of a craft by a packet: wait for it, then compare.
  const has = (name, n) => until(() => count(bot, name) === n, 3000, `${n} ${name}`)
  await bot.craft(recipe('oak_planks'), 3, null)
  await has('oak_planks', 12)
  await bot.craft(recipe('crafting_table'), 1, null)
  await has('crafting_table', 1)
  await has('oak_planks', 8)

  // Place the table on the ground two blocks away and craft in it.
  await bot.equip(bot.registry.itemsByName.crafting_table.id, 'hand')
  const ground = bot.blockAt(bot.entity.position.floored().offset(2, -1, 0))
  await bot.placeBlock(ground, new Vec3(0, 1, 0))
  const table = bot.blockAt(ground.position.offset(0, 1, 0))
  assert.equal(table.name, 'crafting_table')
  // Let the world's answer to the placement (the held slot's new count) land before clicking again: Mineflayer
  // clicks without waiting, and an update arriving mid-craft can still overwrite its predicted cursor.
  await bot.waitForTicks(5)
  await bot.craft(recipe('stick'), 1, null)
  await has('stick', 4)
  await until(() => recipe('wooden_pickaxe', table), 3000, 'the pickaxe recipe to be possible')
  await bot.craft(recipe('wooden_pickaxe', table), 1, table)
  await has('wooden_pickaxe', 1)
  assert.deepEqual(await world.cmd({ cmd: 'inventory', name: 'Crafter' }), { oak_planks: 3, stick: 2, wooden_pickaxe: 1 })

  // Stone needs a pickaxe: with it, stone drops cobblestone.
  await bot.equip(bot.registry.itemsByName.wooden_pickaxe.id, 'hand')
  const stone = bot.entity.position.floored().offset(-1, -1, 0)
  await world.cmd({ cmd: 'setBlock', x: stone.x, y: stone.y, z: stone.z, block: 'stone' })
  await until(() => bot.blockAt(stone)?.name === 'stone', 2000, 'the stone')
  await bot.dig(bot.blockAt(stone))
  await until(() => count(bot, 'cobblestone') === 1, 5000, 'cobblestone')

  // A stone pickaxe in the table, the whole stack of cobblestone used: the world sends the (still empty) result
  // slot after every click in the grid, as vanilla does, or Mineflayer's craft waits for it forever.
  await world.cmd({ cmd: 'give', name: 'Crafter', item: 'cobblestone', count: 2 })
  await has('cobblestone', 3)
  await until(() => recipe('stone_pickaxe', table), 3000, 'the stone pickaxe recipe to be possible')
  await bot.craft(recipe('stone_pickaxe', table), 1, table)
  await has('stone_pickaxe', 1)
  assert.equal(count(bot, 'cobblestone'), 0)
  bot.end()
})

test('a block dug too fast is refused and put back', async () => {
  const bot = await world.bot('Cheater')
  const pos = bot.entity.position.floored().offset(1, -1, 0)
  await world.cmd({ cmd: 'setBlock', x: pos.x, y: pos.y, z: pos.z, block: 'stone' })
  await until(() => bot.blockAt(pos)?.name === 'stone', 2000, 'the stone')
  // Start and finish at once: bare-handed stone takes 7.5 s in survival.
  bot._client.write('block_dig', { status: 0, location: pos, face: 1, sequence: 1 })
  bot._client.write('block_dig', { status: 2, location: pos, face: 1, sequence: 2 })
  await new Promise((resolve) => setTimeout(resolve, 500))
  assert.equal(await world.cmd({ cmd: 'getBlock', x: pos.x, y: pos.y, z: pos.z }), 'stone')
  bot.end()
})

test('smelt raw iron with coal in a furnace', async () => {
  const bot = await world.bot('Smelter')
  const pos = bot.entity.position.floored().offset(2, 0, 0)
  await world.cmd({ cmd: 'setBlock', x: pos.x, y: pos.y, z: pos.z, block: 'furnace' })
  await world.cmd({ cmd: 'give', name: 'Smelter', item: 'raw_iron', count: 1 })
  await world.cmd({ cmd: 'give', name: 'Smelter', item: 'coal', count: 1 })
  await until(() => count(bot, 'coal') === 1 && bot.blockAt(pos)?.name === 'furnace', 3000, 'the furnace and items')
  const furnace = await bot.openFurnace(bot.blockAt(pos))
  await furnace.putFuel(bot.registry.itemsByName.coal.id, null, 1)
  await furnace.putInput(bot.registry.itemsByName.raw_iron.id, null, 1)
  await until(() => furnace.outputItem()?.name === 'iron_ingot', 15000, 'the ingot (10 s of smelting)')
  await furnace.takeOutput()
  furnace.close()
  await until(() => count(bot, 'iron_ingot') === 1, 3000, 'the ingot in the inventory')
  assert.equal(count(bot, 'raw_iron'), 0)
  bot.end()
})

test('deposit into a chest and take back out', async () => {
  const bot = await world.bot('Keeper')
  const pos = bot.entity.position.floored().offset(0, 0, 2)
  await world.cmd({ cmd: 'fillChest', x: pos.x, y: pos.y, z: pos.z, items: { coal: 5 } })
  await world.cmd({ cmd: 'give', name: 'Keeper', item: 'dirt', count: 10 })
  await until(() => count(bot, 'dirt') === 10 && bot.blockAt(pos)?.name === 'chest', 3000, 'the chest and dirt')
  const chest = await bot.openContainer(bot.blockAt(pos))
  assert.equal(chest.containerItems().find((i) => i.name === 'coal')?.count, 5)
  await chest.deposit(bot.registry.itemsByName.dirt.id, null, 7)
  await chest.withdraw(bot.registry.itemsByName.coal.id, null, 2)
  chest.close()
  await until(() => count(bot, 'coal') === 2, 3000, 'the coal')
  assert.equal(count(bot, 'dirt'), 3)
  const stored = (await world.cmd({ cmd: 'container', x: pos.x, y: pos.y, z: pos.z })).filter(Boolean)
  assert.deepEqual(stored.sort((a, b) => a.item.localeCompare(b.item)), [{ item: 'coal', count: 3 }, { item: 'dirt', count: 7 }])
  bot.end()
})

test('kill a pig and collect its drops', async () => {
  const bot = await world.bot('Hunter')
  await world.cmd({ cmd: 'give', name: 'Hunter', item: 'stone_sword', count: 1 })
  const id = await world.cmd({ cmd: 'spawnMob', kind: 'pig', x: 3.5, z: 0.5 })
  await until(() => bot.entities[id], 3000, 'the pig to be seen')
  await until(() => count(bot, 'stone_sword') === 1, 3000, 'the sword')
  await bot.equip(bot.registry.itemsByName.stone_sword.id, 'hand')
  await walkTo(bot, 3, 64, 0, 2)
  const killed = world.waitEvent((e) => e.event === 'mobKilled' && e.entityId === id, 10000)
  while (!world.events.some((e) => e.event === 'mobKilled' && e.entityId === id)) {
    if (bot.entities[id]) bot.attack(bot.entities[id])
    await new Promise((resolve) => setTimeout(resolve, 600))
  }
  assert.equal((await killed).by, 'Hunter')
  await walkTo(bot, 3, 64, 0)
  await until(() => count(bot, 'porkchop') === 2, 5000, 'the porkchops')
  bot.end()
})

test('throw a stack and one item; neither comes back before the pickup delay, both can be picked up after', async () => {
  const bot = await world.bot('Thrower')
  await world.cmd({ cmd: 'give', name: 'Thrower', item: 'gravel', count: 10 })
  await until(() => count(bot, 'gravel') === 10, 5000, 'the gravel to arrive')
  const seen = world.events.length
  await bot.toss(bot.registry.itemsByName.gravel.id, null, 1)
  await until(() => count(bot, 'gravel') === 9, 5000, 'one gravel to be thrown')
  await bot.tossStack(bot.inventory.items().find((i) => i.name === 'gravel'))
  await until(() => count(bot, 'gravel') === 0, 5000, 'the stack to be thrown')
  const thrown = () => world.events.slice(seen).filter((e) => e.event === 'thrown' && e.name === 'Thrower')
  await until(() => thrown().length === 2, 5000, 'the world to see both throws')
  assert.deepEqual(thrown().map((e) => e.count), [1, 9])
  assert.deepEqual(await world.cmd({ cmd: 'inventory', name: 'Thrower' }), {})
  const items = (await world.cmd({ cmd: 'entities' })).filter((e) => e.kind === 'item')
  assert.ok(items.length >= 2, JSON.stringify(items))
  // Walk onto them once the 2 s delay is over: all 10 come back.
  await new Promise((resolve) => setTimeout(resolve, 2200))
  const at = items[0].pos ?? items[0]
  await walkTo(bot, Math.floor(at.x), 64, Math.floor(at.z), 1)
  await until(() => count(bot, 'gravel') === 10, 8000, 'the gravel to be picked up again')
  bot.end()
})
