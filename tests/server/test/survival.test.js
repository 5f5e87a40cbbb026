// Referee, survival rules: Mineflayer 4.39 reads health, food, air, time and deaths the way vanilla 26.1 sends them,
// so these fail if the test world's rules or packets differ from vanilla's. Run on the superflat, where heights are
// known; the natural-world referee (natural.test.js) repeats the ones that depend on terrain.
'use strict'

const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { once } = require('node:events')
const { Vec3 } = require('vec3')
const { startWorld, until } = require('../lib/harness')

let world
before(async () => { world = await startWorld() })
after(async () => { await world.close() })

/** Teleports a bot and waits until its client has taken the move. */
async function moveTo (bot, pos) {
  const moved = once(bot, 'forcedMove')
  await world.cmd({ cmd: 'teleport', name: bot.username, ...pos })
  await Promise.race([moved, new Promise((resolve, reject) => setTimeout(() => reject(new Error('the teleport never reached the bot')), 5000))])
}

test('a fall of 10 blocks costs 7 health, as vanilla counts it', async () => {
  const bot = await world.bot('Faller')
  assert.equal(bot.health, 20)
  await world.cmd({ cmd: 'teleport', name: 'Faller', x: 20.5, y: 74, z: 20.5 })
  const hurt = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === 'Faller', 10000)
  assert.equal(hurt.cause, 'fall')
  assert.equal(hurt.amount, 7)
  assert.equal(hurt.health, 13)
  await until(() => bot.health >= 13 && bot.health < 20, 3000, 'Mineflayer to read the lost health')
  bot.end()
})

test('eating bread restores 5 food and 6 saturation', async () => {
  const bot = await world.bot('Eater')
  await world.cmd({ cmd: 'setFood', name: 'Eater', food: 10, saturation: 0 })
  await until(() => bot.food === 10, 3000, 'Mineflayer to read food 10')
  await world.cmd({ cmd: 'give', name: 'Eater', item: 'bread', count: 2 })
  await until(() => bot.inventory.items().some((i) => i.name === 'bread'), 3000, 'the bread to arrive')
  await bot.equip(bot.inventory.items().find((i) => i.name === 'bread'), 'hand')
  const started = Date.now()
  await bot.consume()
  assert.ok(Date.now() - started >= 1400, `eating took ${Date.now() - started} ms; vanilla takes 1.6 s`)
  await until(() => bot.food === 15, 3000, 'food 15')
  assert.equal(bot.foodSaturation, 6)
  assert.equal(bot.inventory.count(bot.registry.itemsByName.bread.id), 1)
  await assert.rejects(world.cmd({ cmd: 'setFood', name: 'Eater', food: 21 }), /food must be 0 to 20/)
  bot.end()
})

test('a hurt player with full food regenerates; a starving one loses health down to 1', async () => {
  const bot = await world.bot('Healer')
  await world.cmd({ cmd: 'setHealth', name: 'Healer', health: 10 })
  await until(() => bot.health === 10, 3000, 'health 10')
  await until(() => bot.health >= 12, 5000, 'saturated regeneration (a heart in half a second)')
  await world.cmd({ cmd: 'setFood', name: 'Healer', food: 0, saturation: 0 })
  await world.cmd({ cmd: 'setHealth', name: 'Healer', health: 2 })
  await until(() => bot.health === 1, 10000, 'starvation to take a point every 4 s')
  await new Promise((resolve) => setTimeout(resolve, 4500))
  assert.equal(bot.health, 1, 'normal difficulty starves down to half a heart, never to death')
  bot.end()
})

test('sprinting 40 blocks on an empty stomach costs a food point', async () => {
  const bot = await world.bot('Sprinter')
  await moveTo(bot, { x: -30.5, y: 64, z: 40.5 })
  await world.cmd({ cmd: 'setFood', name: 'Sprinter', food: 17, saturation: 0 })
  await until(() => bot.food === 17, 3000, 'food 17')
  await bot.look(-Math.PI / 2, 0) // facing +x
  bot.setControlState('forward', true)
  bot.setControlState('sprint', true)
  // Mineflayer 4.39 numbers the sprint action as before 1.21.6 (3, now "start riding jump"), which a 26.1 server
  // does not read as sprinting; say it the 26.1 way as a vanilla client does.
  bot._client.write('entity_action', { entityId: bot.entity.id, actionId: 'start_sprinting', jumpBoost: 0 })
  await until(() => bot.entity.position.x > 20, 20000, 'the bot to sprint 50 blocks')
  bot.clearControlStates()
  await until(() => bot.food === 16, 3000, 'exhaustion 4 (0.1 a block) to take a food point')
  bot.end()
})

test('held under water a player runs out of air after 15 s and drowns 2 health a second', async () => {
  const bot = await world.bot('Diver')
  // A flooded shaft with a lid, away from everyone.
  await world.cmd({ cmd: 'fill', from: [40, 58, 40], to: [42, 63, 42], block: 'stone' })
  await world.cmd({ cmd: 'fill', from: [41, 59, 41], to: [41, 62, 41], block: 'water' })
  await moveTo(bot, { x: 41.5, y: 59, z: 41.5 })
  const under = Date.now()
  await until(() => bot.oxygenLevel < 20, 3000, 'air to start falling')
  const drowned = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === 'Diver' && e.cause === 'drown', 20000)
  const held = Date.now() - under
  assert.ok(held > 14000 && held < 17500, `first drowning damage after ${held} ms; vanilla: 15 s of air, then 1 s`)
  assert.equal(drowned.amount, 2)
  await until(() => bot.oxygenLevel === 0, 2000, 'Mineflayer to read no air')
  const again = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === 'Diver' && e.cause === 'drown' && e.health < drowned.health, 3000)
  const gap = Date.now() - under - held
  assert.ok(gap > 600 && gap < 1600, `second drowning damage ${gap} ms after the first; vanilla: 1 s`)
  assert.equal(again.amount, 2)
  await world.cmd({ cmd: 'teleport', name: 'Diver', x: 45.5, y: 64, z: 45.5 })
  await until(() => bot.oxygenLevel === 20, 5000, 'air to come back in the open')
  bot.end()
})

test('lava burns: the player takes lava damage and keeps burning after leaving it', async () => {
  const bot = await world.bot('Burner')
  await world.cmd({ cmd: 'fill', from: [-40, 63, -40], to: [-40, 63, -40], block: 'lava' })
  await world.cmd({ cmd: 'teleport', name: 'Burner', x: -39.5, y: 63.2, z: -39.5 })
  const burn = await world.waitEvent((e) => e.event === 'playerHurt' && e.name === 'Burner' && e.cause === 'lava', 5000)
  assert.equal(burn.amount, 4)
  await world.cmd({ cmd: 'teleport', name: 'Burner', x: -34.5, y: 64, z: -34.5 })
  await world.waitEvent((e) => e.event === 'playerHurt' && e.name === 'Burner' && e.cause === 'on_fire', 3000)
  bot.end()
})

test('death drops the inventory where the player died; respawn is at spawn with nothing, and the items can be picked up', async () => {
  const bot = await world.bot('Mortal')
  await world.cmd({ cmd: 'give', name: 'Mortal', item: 'cobblestone', count: 12 })
  await world.cmd({ cmd: 'give', name: 'Mortal', item: 'iron_pickaxe', count: 1 })
  await until(() => bot.inventory.items().length === 2, 3000, 'the items to arrive')
  await moveTo(bot, { x: 15.5, y: 64, z: -15.5 })
  const died = once(bot, 'death')
  await world.cmd({ cmd: 'teleport', name: 'Mortal', x: 15.5, y: 100, z: -15.5 }) // a 36-block fall
  await died
  const death = await world.waitEvent((e) => e.event === 'death' && e.name === 'Mortal', 5000)
  assert.equal(death.cause, 'fall')
  assert.match(death.message, /Mortal hit the ground too hard/)
  await world.waitEvent((e) => e.event === 'respawn' && e.name === 'Mortal', 5000) // Mineflayer respawns by itself
  await until(() => bot.health === 20 && bot.entity.position.distanceTo(new Vec3(0.5, 64, 0.5)) < 1, 5000, 'respawn at spawn')
  assert.equal(bot.food, 20)
  assert.deepEqual(await world.cmd({ cmd: 'inventory', name: 'Mortal' }), {})
  const left = (await world.cmd({ cmd: 'entities' })).filter((e) => e.kind === 'item')
  assert.deepEqual(left.map((e) => e.item).sort(), ['cobblestone', 'iron_pickaxe'])
  for (const item of left) assert.ok(Math.hypot(item.x - 15.5, item.z + 15.5) < 1.5, `${item.item} at ${item.x} ${item.z}`)
  await world.cmd({ cmd: 'teleport', name: 'Mortal', x: 15.5, y: 64, z: -15.5 })
  await until(async () => Object.keys(await world.cmd({ cmd: 'inventory', name: 'Mortal' })).length === 2, 5000, 'the items picked up again')
  bot.end()
})

test('a player who leaves and comes back keeps place, inventory and health', async () => {
  let bot = await world.bot('Returner')
  await world.cmd({ cmd: 'give', name: 'Returner', item: 'oak_log', count: 5 })
  await world.cmd({ cmd: 'teleport', name: 'Returner', x: -12.5, y: 64, z: 7.5 })
  await world.cmd({ cmd: 'setFood', name: 'Returner', food: 17, saturation: 0 }) // no regeneration below 18
  await world.cmd({ cmd: 'setHealth', name: 'Returner', health: 15 })
  await until(() => bot.health === 15, 3000, 'health 15')
  bot.end()
  await world.waitEvent((e) => e.event === 'leave' && e.name === 'Returner')
  bot = await world.bot('Returner')
  assert.ok(bot.entity.position.distanceTo(new Vec3(-12.5, 64, 7.5)) < 1, `back at ${bot.entity.position}`)
  assert.deepEqual(await world.cmd({ cmd: 'inventory', name: 'Returner' }), { oak_log: 5 })
  assert.equal(bot.health, 15)
  assert.equal(bot.food, 17)
  bot.end()
})

test('day turns to night on the 26.1 clock; setTime moves it; sand falls when what holds it is dug', async () => {
  const bot = await world.bot('Watcher')
  await until(() => bot.time.timeOfDay !== null, 3000, 'a time update')
  assert.ok(bot.time.isDay)
  const { time: before } = await world.cmd({ cmd: 'world' })
  await new Promise((resolve) => setTimeout(resolve, 1100))
  const { time: after } = await world.cmd({ cmd: 'world' })
  assert.ok(after - before >= 18 && after - before <= 26, `the clock moved ${after - before} ticks in 1.1 s; vanilla: 20 a second`)
  await world.cmd({ cmd: 'setTime', time: 18000 })
  await until(() => bot.time.isDay === false && Math.abs(bot.time.timeOfDay - 18000) < 100, 3000, 'midnight')
  assert.equal((await world.cmd({ cmd: 'world' })).time >= 18000, true)
  await world.cmd({ cmd: 'setTime', time: 1000 })

  await world.cmd({ cmd: 'setBlock', x: 30, y: 64, z: -30, block: 'dirt' })
  await world.cmd({ cmd: 'setBlock', x: 30, y: 65, z: -30, block: 'gravel' })
  await world.cmd({ cmd: 'setBlock', x: 30, y: 66, z: -30, block: 'sand' })
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 30, y: 66, z: -30 }), 'sand', 'held up by the gravel')
  await world.cmd({ cmd: 'setBlock', x: 30, y: 64, z: -30, block: 'air' })
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 30, y: 64, z: -30 }), 'gravel')
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 30, y: 65, z: -30 }), 'sand')
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 30, y: 66, z: -30 }), 'air')
  await until(() => bot.blockAt(new Vec3(30, 64, -30))?.name === 'gravel', 3000, 'Mineflayer to see the gravel land')
  await world.cmd({ cmd: 'setBlock', x: 33, y: 70, z: -30, block: 'sand' }) // placed in the air, it drops at once
  assert.equal(await world.cmd({ cmd: 'getBlock', x: 33, y: 64, z: -30 }), 'sand')
  bot.end()
})

test('armour worn takes its share of a blow as vanilla reckons it; a fall passes it by', () => {
  const { armourOf, afterArmour } = require('../lib/survival')
  const inv = []
  inv[5] = { name: 'iron_helmet', count: 1 }
  inv[6] = { name: 'iron_chestplate', count: 1 }
  inv[7] = { name: 'iron_leggings', count: 1 }
  inv[8] = { name: 'iron_boots', count: 1 }
  const iron = armourOf({ inv })
  assert.deepEqual(iron, { points: 15, toughness: 0 })
  // A zombie's 3 on normal difficulty: 15 points take 13.5 of 25 parts.
  assert.ok(Math.abs(afterArmour(3, iron) - 1.38) < 1e-9)
  // A creeper's blast of 20: the points less 20 / 2, 5 of 25 parts.
  assert.equal(afterArmour(20, iron), 16)
  assert.equal(afterArmour(3, armourOf({ inv: [] })), 3)
  inv[6] = { name: 'diamond_chestplate', count: 1 }
  assert.deepEqual(armourOf({ inv }), { points: 17, toughness: 2 })
})

test('a shield held up toward a skeleton stops its arrows; let down, they hit', async () => {
  const bot = await world.bot('Shielded')
  await world.cmd({ cmd: 'give', name: 'Shielded', item: 'shield', count: 1 })
  await until(() => bot.inventory.items().some((i) => i.name === 'shield'), 3000, 'the shield')
  await bot.equip(bot.registry.itemsByName.shield.id, 'off-hand')
  const me = bot.entity.position
  const from = world.events.length
  const skeleton = await world.cmd({ cmd: 'spawnMob', kind: 'skeleton', x: me.x + 8, z: me.z })
  await bot.lookAt(me.offset(8, 1.6, 0), true)
  bot.activateItem(true)
  const blocked = await world.waitEvent((e) => world.events.indexOf(e) >= from && e.event === 'blocked' && e.name === 'Shielded', 15000)
  assert.equal(blocked.cause, 'arrow')
  assert.ok(!world.events.slice(from).some((e) => e.event === 'playerHurt' && e.name === 'Shielded'), 'an arrow got through the shield')
  bot.deactivateItem()
  await world.waitEvent((e) => world.events.indexOf(e) >= from && e.event === 'playerHurt' && e.name === 'Shielded' && e.cause === 'arrow', 15000)
  await world.cmd({ cmd: 'removeMob', id: skeleton }) // if the sun has not burned it yet
  bot.end()
})

test('a shield faces where its holder looks: a blow from behind is not stopped', () => {
  const { facing } = require('../lib/survival')
  const p = { pos: { x: 0, y: 64, z: 0 }, yaw: 0 } // looking south, toward +z
  assert.equal(facing(p, { x: 0, z: 5 }), true)
  assert.equal(facing(p, { x: 0, z: -5 }), false)
  assert.equal(facing({ ...p, yaw: 90 }, { x: -5, z: 0 }), true) // west
  assert.equal(facing({ ...p, yaw: 90 }, { x: 5, z: 0 }), false)
})
