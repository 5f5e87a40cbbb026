// Referee, part 3: what players see of each other. Mineflayer bots and test-controlled players share one tab list,
// see each other's entities move and turn, hear public chat as vanilla player_chat with the right sender, whisper
// with /msg, get vanilla's red answer to an unknown command, and see virtual players leave. Also: multi-section
// fills, chunks unloading behind a teleported bot, time and health.
'use strict'

const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { once } = require('node:events')
const { Vec3 } = require('vec3')
const { startWorld, until } = require('../lib/harness')

let world
before(async () => { world = await startWorld() })
after(async () => { await world.close() })

/** Resolves with the first `event` from `emitter` whose arguments satisfy `pred`. */
function next (emitter, event, pred = () => true, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { emitter.off(event, on); reject(new Error(`no matching ${event} within ${timeoutMs} ms`)) }, timeoutMs)
    function on (...args) {
      if (!pred(...args)) return
      clearTimeout(timer)
      emitter.off(event, on)
      resolve(args)
    }
    emitter.on(event, on)
  })
}

test('two bots share the tab list, hear each other as player chat, and see each other move and turn', async () => {
  const a = await world.bot('PairA')
  const b = await world.bot('PairB')
  assert.equal(a.player?.username, 'PairA', 'a client is in its own tab list, as on vanilla')
  await until(() => a.players.PairB?.entity && b.players.PairA?.entity, 5000, 'each to see the other')

  // Public chat is a player_chat: Mineflayer reports it as type 'chat' with the sender's UUID, and renders "<B> …".
  const heardByA = next(a, 'message', (msg, position) => position === 'chat' && msg.toString().includes('from B'))
  const chatA = next(a, 'chat', (username) => username === 'PairB')
  const echoB = next(b, 'chat', (username) => username === 'PairB')
  b.chat('hello from B')
  const [msg, , sender] = await heardByA
  assert.equal(msg.toString(), '<PairB> hello from B')
  assert.equal(sender, b.player.uuid)
  assert.deepEqual((await chatA).slice(0, 2), ['PairB', 'hello from B'])
  assert.deepEqual((await echoB).slice(0, 2), ['PairB', 'hello from B'], 'the sender sees its own line')
  const chatB = next(b, 'chat', (username) => username === 'PairA')
  a.chat('and hello from A')
  assert.deepEqual((await chatB).slice(0, 2), ['PairA', 'and hello from A'])

  // B walks and turns; A sees B's entity where the world says B is.
  await b.look(Math.PI / 2, 0, true)
  b.setControlState('forward', true)
  await new Promise((resolve) => setTimeout(resolve, 600))
  b.setControlState('forward', false)
  await until(() => b.entity.velocity.x === 0 && b.entity.velocity.z === 0, 3000, 'B to stop')
  await until(async () => {
    const seen = a.players.PairB.entity.position
    const told = (await world.cmd({ cmd: 'players' })).find((p) => p.name === 'PairB')
    return seen.distanceTo(new Vec3(told.x, told.y, told.z)) < 0.01 && seen.distanceTo(b.entity.position) < 0.01
  }, 3000, 'A to see B where B is')
  assert.ok(b.entity.position.distanceTo(new Vec3(0.5, 64, 0.5)) > 1, 'B moved')
  assert.ok(Math.abs(a.players.PairB.entity.yaw - Math.PI / 2) < 0.05, `A sees B facing yaw ${a.players.PairB.entity.yaw}`)
  a.end(); b.end()
})

test('whispers go only to the target, and unknown commands get vanilla\'s red error', async () => {
  const bot = await world.bot('Listener')
  const other = await world.bot('Bystander')
  await world.cmd({ cmd: 'addPlayer', name: 'Whisperer', x: 3.5, y: 64, z: 0.5 })
  await until(() => bot.players.Whisperer, 3000, 'the virtual player in the tab list')

  let overheard = false
  other.on('messagestr', (s) => { if (s.includes('psst')) overheard = true })
  const whisper = once(bot, 'whisper')
  await world.cmd({ cmd: 'say', as: 'Whisperer', text: '/msg Listener psst' })
  assert.deepEqual((await whisper).slice(0, 2), ['Whisperer', 'psst'])
  await world.waitEvent((e) => e.event === 'whisper' && e.from === 'Whisperer' && e.to === 'Listener' && e.text === 'psst')

  const outgoing = next(bot, 'messagestr', (s) => s === 'You whisper to Whisperer: hi back')
  bot.whisper('Whisperer', 'hi back')
  await world.waitEvent((e) => e.event === 'whisper' && e.from === 'Listener' && e.to === 'Whisperer' && e.text === 'hi back')
  await outgoing
  assert.equal(overheard, false, 'a bystander does not hear whispers')

  const unknown = next(bot, 'message', (m) => m.toString().startsWith('Unknown or incomplete command'))
  bot.chat('/fly away')
  assert.equal((await unknown)[0].color, 'red')
  await world.waitEvent((e) => e.event === 'command' && e.from === 'Listener' && e.command === 'fly away')
  const missing = next(bot, 'messagestr', (s) => s === 'No player was found')
  bot.chat('/msg Nobody hello')
  await missing
  bot.end(); other.end()
})

test('a virtual player appears, moves and leaves like a real one', async () => {
  const bot = await world.bot('Watcher')
  const joined = next(bot, 'playerJoined', (p) => p.username === 'Visitor')
  const { entityId } = await world.cmd({ cmd: 'addPlayer', name: 'Visitor', x: -3.5, y: 64, z: 2.5 })
  await joined
  await until(() => bot.players.Visitor?.entity, 3000, 'the visitor entity')
  const entity = bot.players.Visitor.entity
  assert.equal(entity.id, entityId)
  assert.equal(entity.type, 'player')
  assert.ok(entity.position.equals(new Vec3(-3.5, 64, 2.5)), `at ${entity.position}`)

  await world.cmd({ cmd: 'movePlayer', name: 'Visitor', x: 6.5, y: 64, z: 6.5 })
  await until(() => entity.position.equals(new Vec3(6.5, 64, 6.5)), 3000, 'the visitor to move')

  const left = next(bot, 'playerLeft', (p) => p.username === 'Visitor')
  const gone = next(bot, 'entityGone', (e) => e.id === entityId)
  await world.cmd({ cmd: 'removePlayer', name: 'Visitor' })
  await Promise.all([left, gone])
  assert.equal(bot.players.Visitor, undefined)
  await world.waitEvent((e) => e.event === 'leave' && e.name === 'Visitor')
  bot.end()
})

test('a fill across sections reaches the bot; chunks behind a teleport unload, ones ahead load', async () => {
  const bot = await world.bot('Surveyor')
  const before = world.events.length
  const changed = await world.cmd({ cmd: 'fill', from: [20, 60, 20], to: [24, 70, 24], block: 'glass' })
  assert.equal(changed, 5 * 11 * 5)
  await until(() => [[20, 60, 20], [24, 70, 24], [22, 63, 21], [21, 64, 23]].every(([x, y, z]) => bot.blockAt(new Vec3(x, y, z))?.name === 'glass'),
    3000, 'the glass box')
  assert.equal(world.events.slice(before).filter((e) => e.event === 'blockChanged' && e.block === 'glass').length, 5 * 11 * 5)

  assert.ok(bot.blockAt(new Vec3(0, 63, 0)), 'spawn is loaded')
  await world.cmd({ cmd: 'teleport', name: 'Surveyor', x: 500.5, y: 64, z: -500.5 })
  await until(() => bot.blockAt(new Vec3(500, 63, -501))?.name === 'grass_block', 5000, 'the chunks at the destination')
  await until(() => bot.blockAt(new Vec3(0, 63, 0)) === null, 5000, 'spawn chunks to unload')
  await until(async () => {
    const me = (await world.cmd({ cmd: 'players' })).find((p) => p.name === 'Surveyor')
    return me.x === 500.5 && me.z === -500.5 && me.onGround
  }, 3000, 'the world to agree where the bot stands')
  bot.end()
})

test('time passes and the bot is at full health and food', async () => {
  const bot = await world.bot('Clock')
  assert.equal(bot.health, 20)
  assert.equal(bot.food, 20)
  const age = bot.time.age
  await next(bot, 'time', () => bot.time.age > age, 3000)
  bot.end()
})
