// Referee, part 1: Mineflayer 4.39 (tested by its authors against vanilla 26.1) joins the test world, stands on
// the ground, walks with mineflayer-pathfinder, chats, sees other players, sees block edits, loads far chunks,
// and is told why it was kicked. If the test world spoke 26.1 differently from vanilla, these would fail.
'use strict'

const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { once } = require('node:events')
const { Vec3 } = require('vec3')
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')
const { startWorld, until } = require('../lib/harness')

let world
before(async () => { world = await startWorld() })
after(async () => { await world.close() })

test('a Mineflayer bot spawns standing on the grass', async () => {
  const bot = await world.bot('Ref1')
  await until(() => bot.entity.onGround, 5000, 'the bot to land')
  assert.equal(bot.entity.position.y, 64)
  assert.equal(bot.blockAt(bot.entity.position.offset(0, -1, 0)).name, 'grass_block')
  assert.equal(bot.game.dimension, 'overworld')
  bot.end()
})

test('it walks 10 blocks with mineflayer-pathfinder and the world agrees where it is', async () => {
  const bot = await world.bot('Walker')
  bot.loadPlugin(pathfinder)
  bot.pathfinder.setMovements(new Movements(bot))
  await bot.pathfinder.goto(new goals.GoalBlock(8, 64, 6))
  assert.ok(bot.entity.position.distanceTo(new Vec3(8.5, 64, 6.5)) < 1, `stopped at ${bot.entity.position}`)
  await until(async () => {
    const me = (await world.cmd({ cmd: 'players' })).find((p) => p.name === 'Walker')
    return Math.hypot(me.x - 8.5, me.z - 6.5) < 1
  }, 3000, 'the world to see the bot at the goal')
  bot.end()
})

test('chat: a test-controlled player and a second bot are heard with the right names', async () => {
  const a = await world.bot('ChatA')
  const b = await world.bot('ChatB')
  await world.cmd({ cmd: 'addPlayer', name: 'Alice', x: 2.5, y: 64, z: 2.5 })
  const heard = once(a, 'chat')
  await world.cmd({ cmd: 'say', as: 'Alice', text: 'hello from Alice' })
  assert.deepEqual((await heard).slice(0, 2), ['Alice', 'hello from Alice'])

  const fromB = once(a, 'chat')
  b.chat('hello from B')
  assert.deepEqual((await fromB).slice(0, 2), ['ChatB', 'hello from B'])
  await world.waitEvent((e) => e.event === 'chat' && e.from === 'ChatB' && e.text === 'hello from B')

  await until(() => a.players.ChatB?.entity && a.players.Alice?.entity, 5000, 'players to be visible')
  assert.ok(a.players.Alice.entity.position.distanceTo(new Vec3(2.5, 64, 2.5)) < 0.01)
  await world.cmd({ cmd: 'movePlayer', name: 'Alice', x: 5.5, y: 64, z: -3.5 })
  await until(() => a.players.Alice.entity.position.distanceTo(new Vec3(5.5, 64, -3.5)) < 0.01, 3000, 'Alice to move')
  a.end(); b.end()
})

test('block edits reach the bot, and far chunks load after a teleport', async () => {
  const bot = await world.bot('Builder')
  await world.cmd({ cmd: 'setBlock', x: 3, y: 64, z: 3, block: 'oak_log' })
  await until(() => bot.blockAt(new Vec3(3, 64, 3))?.name === 'oak_log', 3000, 'the log to appear')
  await world.cmd({ cmd: 'fill', from: [-2, 63, -2], to: [-1, 63, -1], block: 'air' })
  await until(() => bot.blockAt(new Vec3(-2, 63, -2))?.name === 'air', 3000, 'the hole to appear')
  assert.equal(await world.cmd({ cmd: 'getBlock', x: -1, y: 63, z: -1 }), 'air')

  assert.equal(bot.blockAt(new Vec3(300, 63, 300)), null, 'a far chunk is not loaded yet')
  await world.cmd({ cmd: 'teleport', name: 'Builder', x: 300.5, y: 64, z: 300.5 })
  await until(() => bot.blockAt(new Vec3(300, 63, 300))?.name === 'grass_block', 5000, 'the far chunk')
  bot.end()
})

test('a kicked bot hears the reason', async () => {
  const bot = await world.bot('Kicked')
  const kicked = once(bot, 'kicked')
  await world.cmd({ cmd: 'kick', name: 'Kicked', reason: 'Testing kicks' })
  const [reason] = await kicked
  assert.match(typeof reason === 'string' ? reason : JSON.stringify(reason), /Testing kicks/)
})

test('bad control commands get errors, not crashes', async () => {
  await assert.rejects(world.cmd({ cmd: 'fly' }), /unknown command "fly"/)
  await assert.rejects(world.cmd({ cmd: 'setBlock', x: 1.5, y: 64, z: 0, block: 'stone' }), /x must be a whole number/)
  await assert.rejects(world.cmd({ cmd: 'setBlock', x: 1, y: 64, z: 0, block: 'unobtainium' }), /unknown block/)
  assert.ok(Array.isArray(await world.cmd({ cmd: 'players' })), 'the world still answers')
})
