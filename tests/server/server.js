#!/usr/bin/env node
// Wayfarer's test world: a Minecraft Java 26.1 server for tests and the demo, on minecraft-protocol.
//
//   node tests/server/server.js --port 0 [--view-distance 4] [--world flat|natural] [--seed N] [--time-scale K]
//                                        [--time T] [--mobs on|off]
//
// `--world flat` (the default) is a superflat where tests place what they need; `--world natural` generates seeded
// terrain (lib/natural.js) with caves, ores, trees, water and mobs that spawn by themselves (`--mobs off` keeps
// them to the ones tests spawn). Both play vanilla's
// survival rules (lib/survival.js): day and night, hunger, falling, drowning, lava, death and respawn.
//
// Prints `READY {"port":N}` once listening. Afterwards every stdout line is JSON: replies to control commands
// (`{"id":…,"ok":true,"result":…}`) and events (`{"event":"chat",…}`). Control commands are JSON lines on stdin
// (src/docs/architecture.md's "The test world" lists them). Human-readable logs go to stderr.
'use strict'

const crypto = require('node:crypto')
const readline = require('node:readline')
const mc = require('minecraft-protocol')
const mcData = require('minecraft-data')('26.1')
const { Terrain, stateOf, registry, GROUND_Y, MIN_Y, HEIGHT } = require('./lib/terrain')
const Block = require('prismarine-block')(registry)
const { MENU, stack, maxStack, toSlot, playerWindow, containerWindow, range } = require('./lib/inventory')
const { Entities } = require('./lib/entities')
const { Chat, text } = require('./lib/chat')
const { Survival, freshState, angle, EXHAUSTION, EYE_HEIGHT } = require('./lib/survival')

const args = parseArgs(process.argv.slice(2))
const VIEW_DISTANCE = Number(args['view-distance'] ?? 4)
const WORLD_KIND = args.world ?? 'flat'
const SEED = args.seed ?? '1'
const TIME_SCALE = Number(args['time-scale'] ?? 1) // day ticks per game tick: 20 turns a day into a minute
const PLAYER_TYPE = mcData.entitiesByName.player.id
if (!['flat', 'natural'].includes(WORLD_KIND)) usage(`--world must be flat or natural, not ${JSON.stringify(WORLD_KIND)}`)
if (!(TIME_SCALE >= 0 && TIME_SCALE <= 1000)) usage(`--time-scale must be a number from 0 (the clock stands still) to 1000, not ${JSON.stringify(args['time-scale'])}`)
if (args.time !== undefined && !(Number.isInteger(Number(args.time)) && args.time >= 0 && args.time < 24000)) usage(`--time must be 0 to 23999 ticks of the day, not ${JSON.stringify(args.time)}`)
if (args.mobs !== undefined && !['on', 'off'].includes(args.mobs)) usage(`--mobs must be on or off, not ${JSON.stringify(args.mobs)}`)

function usage (problem) {
  process.stderr.write(`server.js: ${problem}\nusage: node server.js [--port N] [--view-distance N] [--world flat|natural] [--seed N] [--time-scale K] [--time T] [--mobs on|off]\n`)
  process.exit(2)
}

function parseArgs (argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue
    const [key, inline] = argv[i].slice(2).split('=')
    out[key] = inline ?? argv[++i]
  }
  return out
}

const log = (...parts) => process.stderr.write(`[world] ${parts.join(' ')}\n`)
const emit = (object) => process.stdout.write(JSON.stringify(object) + '\n')
// The test that started the world may be gone; losing its events must not crash the world.
process.stdout.on('error', () => {})

const terrain = WORLD_KIND === 'natural' ? new (require('./lib/natural').NaturalTerrain)({ seed: SEED }) : new Terrain()
const SPAWN = WORLD_KIND === 'natural' ? terrain.spawnPoint() : { x: 0.5, y: GROUND_Y + 1, z: 0.5 }
let nextEntityId = 100000
let worldAge = 0 // game ticks since the world started
let dayTime = Number(args.time ?? 1000) // the overworld clock: 0 sunrise, 6000 noon, 13000 night, 18000 midnight

/** Seeded randomness for the world's own choices (scatter, mobs), so a seed replays alike. */
const random = (() => {
  let a = crypto.createHash('sha256').update(`random:${SEED}`).digest().readUInt32LE(0)
  return () => { // mulberry32
    a = (a + 0x6D2B79F5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()

/** Players who left, by name, with what vanilla saves for them: where they were, their inventory and survival state. */
const saved = new Map()

/** Everyone in the world: real clients and test-controlled players alike. */
const players = new Map() // name -> Player

class Player {
  constructor ({ name, uuid, entityId, client = null, pos = { ...SPAWN } }) {
    Object.assign(this, { name, uuid, entityId, client, pos, yaw: 0, pitch: 0, onGround: true })
    this.gameMode = 'survival'
    this.life = client ? freshState() : null // health, food, air…: only connected players have a body to look after
    this.loaded = new Set() // chunk keys this client has
    this.center = null // chunk the view is centred on
    this.inv = Array(46).fill(null) // the inventory window's slots (see lib/inventory.js)
    this.cursor = null // the stack held by the mouse in an open window
    this.held = 0 // selected hotbar slot, 0-8
    this.invWindow = playerWindow(this)
    // A stack the player throws (drop key, or clicked out of a window) lands 1.5 blocks ahead of their eyes, and
    // cannot be picked up for 40 ticks (vanilla's delay for thrown items).
    this.throwStack = (stack) => {
      const yaw = this.yaw * Math.PI / 180
      const at = { x: this.pos.x - Math.sin(yaw) * 1.5, y: this.pos.y + EYE_HEIGHT - 0.3, z: this.pos.z + Math.cos(yaw) * 1.5 }
      entities.dropItem(stack, at, { pickupDelay: 40 })
      emit({ event: 'thrown', name: this.name, item: stack.name, count: stack.count })
    }
    this.window = null // an open container window
    this.windowIds = 0
    this.digging = null // { x, y, z, started, ms }
    this.chatIndex = 0 // player_chat packets this client has been sent (their globalIndex)
    this.teleportId = 0 // the last `position` packet's id
    this.awaitingTeleport = null // { id, sent }: moves are ignored until the client confirms, as vanilla does
    this.shown = null // the position and rotation others were last shown
  }

  heldStack () { return this.inv[36 + this.held] }

  get dead () { return !!this.life?.dead }

  get virtual () { return this.client === null }

  send (name, params) { if (this.client && this.client.state === 'play') this.client.write(name, params) }

  /** Sends an already serialized play packet (see chunkBuffer), in order with the packets sent before it. */
  sendRaw (buffer) {
    const c = this.client
    if (c && c.state === 'play' && c.serializer.writable) passesRaw(c.serializer).write({ raw: buffer })
  }
}

/**
 * Makes a client's packet serializer pass `{raw: Buffer}` through unchanged. Writing bytes there rather than with
 * nmp's writeRaw (which skips the serializer) keeps them in order behind packets still queued in the serializer.
 */
function passesRaw (serializer) {
  if (!serializer.passesRaw) {
    const create = serializer.createPacketBuffer.bind(serializer)
    serializer.createPacketBuffer = (packet) => packet.raw ?? create(packet)
    serializer.passesRaw = true
  }
  return serializer
}

/** Offline-mode UUID for a name, as vanilla derives it (MD5 of "OfflinePlayer:NAME", version 3). */
function offlineUuid (name) {
  const hash = crypto.createHash('md5').update(`OfflinePlayer:${name}`).digest()
  hash[6] = (hash[6] & 0x0f) | 0x30
  hash[8] = (hash[8] & 0x3f) | 0x80
  const hex = hash.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

// ---- what players see of each other -------------------------------------------------------------------------

function infoAdd (p) {
  return {
    action: { add_player: true, update_game_mode: true, update_listed: true, update_latency: true },
    data: [{ uuid: p.uuid, player: { name: p.name, properties: [] }, gamemode: 0, listed: 1, latency: 0 }]
  }
}

function spawnPacket (p) {
  return {
    entityId: p.entityId,
    objectUUID: p.uuid,
    type: PLAYER_TYPE,
    x: p.pos.x,
    y: p.pos.y,
    z: p.pos.z,
    velocity: { x: 0, y: 0, z: 0 },
    pitch: 0,
    yaw: angle(p.yaw),
    headPitch: 0,
    objectData: 0
  }
}


/**
 * Shows `p` to everyone else and everyone else to `p`, as vanilla does on join: every client's tab list holds
 * every player, itself included (a client needs its own entry to show its own chat), and player entities for
 * everyone but itself.
 */
function introduce (p) {
  p.send('player_info', infoAdd(p))
  p.shown = { ...p.pos, yaw: p.yaw, pitch: p.pitch }
  for (const other of players.values()) {
    if (other === p) continue
    other.send('player_info', infoAdd(p))
    other.send('spawn_entity', spawnPacket(p))
    p.send('player_info', infoAdd(other))
    p.send('spawn_entity', spawnPacket(other))
    p.send('entity_head_rotation', { entityId: other.entityId, headYaw: angle(other.yaw) })
  }
}

/** Tells everyone else where `p` is now, if it moved or turned since they were last told. */
function relayMove (p) {
  const was = p.shown
  const moved = !was || was.x !== p.pos.x || was.y !== p.pos.y || was.z !== p.pos.z
  const turned = !was || was.yaw !== p.yaw || was.pitch !== p.pitch
  if (!moved && !turned) return
  p.shown = { ...p.pos, yaw: p.yaw, pitch: p.pitch }
  for (const other of players.values()) {
    if (other === p || !other.client) continue
    other.send('sync_entity_position', {
      entityId: p.entityId, x: p.pos.x, y: p.pos.y, z: p.pos.z, dx: 0, dy: 0, dz: 0, yaw: p.yaw, pitch: p.pitch, onGround: p.onGround
    })
    if (turned) other.send('entity_head_rotation', { entityId: p.entityId, headYaw: angle(p.yaw) })
  }
}

function removeFromWorld (p, reason) {
  players.delete(p.name)
  if (p.client) {
    closeWindow(p)
    if (p.cursor) { const rest = give(p, p.cursor); p.cursor = null; if (rest) entities.dropItem(rest, p.pos) }
    if (p.life) { p.life.eating = null; p.life.sprinting = false }
    saved.set(p.name, { pos: { ...p.pos }, yaw: p.yaw, pitch: p.pitch, inv: p.inv, held: p.held, life: p.life })
  }
  for (const other of players.values()) {
    other.send('player_remove', { players: [p.uuid] })
    other.send('entity_destroy', { entityIds: [p.entityId] })
  }
  emit({ event: 'leave', name: p.name, reason })
}

// ---- chunks -------------------------------------------------------------------------------------------------

function chunkOf (v) { return Math.floor(v / 16) }

/** Sends the chunks around `p` that it lacks and unloads the ones out of range. */
function streamChunks (p, force = false) {
  if (!p.client) return
  const cx = chunkOf(p.pos.x)
  const cz = chunkOf(p.pos.z)
  if (!force && p.center && p.center.cx === cx && p.center.cz === cz) return
  p.center = { cx, cz }
  p.send('update_view_position', { chunkX: cx, chunkZ: cz })
  const wanted = new Set()
  const fresh = []
  for (let dx = -VIEW_DISTANCE; dx <= VIEW_DISTANCE; dx++) {
    for (let dz = -VIEW_DISTANCE; dz <= VIEW_DISTANCE; dz++) {
      const key = `${cx + dx},${cz + dz}`
      wanted.add(key)
      if (!p.loaded.has(key)) fresh.push([cx + dx, cz + dz, dx * dx + dz * dz])
    }
  }
  fresh.sort((a, b) => a[2] - b[2])
  if (fresh.length) {
    p.send('chunk_batch_start', {})
    for (const [x, z] of fresh) { p.sendRaw(chunkBuffer(x, z)); p.loaded.add(`${x},${z}`) }
    p.send('chunk_batch_finished', { batchSize: fresh.length })
  }
  for (const key of [...p.loaded]) {
    if (wanted.has(key)) continue
    const [x, z] = key.split(',').map(Number)
    p.send('unload_chunk', { chunkX: x, chunkZ: z })
    p.loaded.delete(key)
  }
}

// Serializing a column takes about 1 ms and most clients want the same columns, so each column's map_chunk packet
// is serialized once and the bytes shared; an edit drops that column's copy. At most CHUNK_CACHE columns are kept.
const serializer = mc.createSerializer({ state: 'play', isServer: true, version: '26.1' })
const chunkBuffers = new Map() // "cx,cz" -> Buffer
const CHUNK_CACHE = 1024

function chunkBuffer (cx, cz) {
  const key = `${cx},${cz}`
  let buffer = chunkBuffers.get(key)
  if (!buffer) {
    buffer = serializer.createPacketBuffer({ name: 'map_chunk', params: terrain.chunkPacket(cx, cz) })
    if (chunkBuffers.size >= CHUNK_CACHE) chunkBuffers.delete(chunkBuffers.keys().next().value)
    chunkBuffers.set(key, buffer)
  }
  return buffer
}

/** Changes a block and tells every client that has its chunk. */
function setBlock (x, y, z, state) {
  setBlocks([{ x, y, z, state }])
}

/**
 * Changes blocks (`[{x, y, z, state}]`) and tells every client that has their chunks, as vanilla does: a
 * block_change for a lone block, one multi_block_change per 16³ section otherwise. Unchanged blocks are skipped;
 * every changed one is a `blockChanged` event.
 */
function setBlocks (changes) {
  for (const { y } of changes) if (y < MIN_Y || y >= MIN_Y + HEIGHT) throw new Error(`y=${y} is outside the world`)
  const sections = new Map() // "cx,sy,cz" -> changes in that section
  for (const c of changes) {
    if (terrain.stateAt(c.x, c.y, c.z) === c.state) continue
    terrain.setState(c.x, c.y, c.z, c.state)
    chunkBuffers.delete(`${chunkOf(c.x)},${chunkOf(c.z)}`)
    const key = `${chunkOf(c.x)},${chunkOf(c.y)},${chunkOf(c.z)}`
    if (!sections.has(key)) sections.set(key, [])
    sections.get(key).push(c)
    emit({ event: 'blockChanged', x: c.x, y: c.y, z: c.z, block: registry.blocksByStateId[c.state].name })
  }
  sendChanges(sections)
  settle(changes)
}

function sendChanges (sections) {
  for (const [key, list] of sections) {
    const [cx, sy, cz] = key.split(',').map(Number)
    const packet = list.length === 1
      ? ['block_change', { location: { x: list[0].x, y: list[0].y, z: list[0].z }, type: list[0].state }]
      : ['multi_block_change', {
          chunkCoordinates: { x: cx, y: sy, z: cz },
          // state id << 12 | x << 8 | z << 4 | y, coordinates within the section
          records: list.map((c) => c.state * 4096 + (((c.x & 15) << 8) | ((c.z & 15) << 4) | (c.y & 15)))
        }]
    for (const p of players.values()) if (p.loaded.has(`${cx},${cz}`)) p.send(...packet)
  }
}

const FALLING = new Set(['sand', 'red_sand', 'gravel', 'suspicious_sand', 'suspicious_gravel'])
const FALLS_THROUGH = new Set(['air', 'cave_air', 'water', 'lava', 'short_grass', 'tall_grass', 'fern', 'dead_bush', 'fire'])

/**
 * Sand and gravel with nothing under them fall to the first block that holds them, and the column above follows
 * (vanilla's FallingBlock, without the falling entity): checked for every changed block and the block above it.
 */
function settle (changes) {
  const falls = []
  const moved = new Set()
  for (const c of changes) {
    for (let y = c.y; y < MIN_Y + HEIGHT && y <= c.y + 1; y++) {
      const block = terrain.blockAt(c.x, y, c.z)
      const key = blockKey(c.x, y, c.z)
      if (!FALLING.has(block.name) || moved.has(key) || !FALLS_THROUGH.has(terrain.blockAt(c.x, y - 1, c.z).name)) continue
      let land = y - 1
      while (land > MIN_Y && FALLS_THROUGH.has(terrain.blockAt(c.x, land - 1, c.z).name)) land--
      moved.add(key)
      falls.push({ x: c.x, y, z: c.z, state: stateOf('air') }, { x: c.x, y: land, z: c.z, state: terrain.stateAt(c.x, y, c.z) })
      emit({ event: 'blockFell', x: c.x, from: y, to: land, z: c.z, block: block.name })
    }
  }
  if (falls.length) setBlocks(falls)
}

/** The state id for a block name, default state unless `properties` (e.g. `{axis: 'x'}`) say otherwise. */
function stateWith (name, properties) {
  const state = stateOf(name)
  if (properties == null) return state
  if (typeof properties !== 'object') throw new Error('properties must be an object')
  // Properties left out keep the block's default (prismarine would take each one's first value: an open door).
  const defaults = Block.fromStateId(registry.blocksByName[name].defaultState, 0).getProperties()
  const block = Block.fromProperties(name, { ...defaults, ...properties }, 0)
  const actual = block.getProperties()
  for (const [key, value] of Object.entries(properties)) {
    if (!(key in actual) || String(actual[key]) !== String(value)) {
      const known = (registry.blocksByName[name].states ?? []).map((s) => `${s.name}: ${s.values ? s.values.join('|') : s.type}`)
      throw new Error(`${name} has no property ${key}=${value}; its properties: ${known.join(', ') || 'none'}`)
    }
  }
  return block.stateId
}

// ---- inventories, digging, placing, containers ----------------------------------------------------------------

/** Puts a stack in a player's inventory (hotbar first, then main, as vanilla does); returns what did not fit. */
function give (p, s) {
  const rest = p.invWindow.insert(s, [...range(36, 44), ...range(9, 35)])
  syncInventory(p)
  return rest
}

/** One of the held stack becomes `name` (an empty bucket filled): in the hand when it was the last one. */
function swapHeld (p, name) {
  const held = p.heldStack()
  if (!held) return
  if (held.count > 1) {
    p.inv[36 + p.held] = { ...held, count: held.count - 1 }
    give(p, { name, count: 1 })
  } else {
    p.inv[36 + p.held] = { name, count: 1 }
    syncInventory(p)
  }
}

/**
 * An empty bucket used while looking at water or lava (BucketItem.use): the first fluid source along the player's
 * look within 5 blocks is taken up, unless a solid block stands in the way, and the bucket is filled with it.
 */
function fillBucket (p) {
  const yaw = (p.yaw ?? 0) * Math.PI / 180
  const pitch = (p.pitch ?? 0) * Math.PI / 180
  const dir = { x: -Math.sin(yaw) * Math.cos(pitch), y: -Math.sin(pitch), z: Math.cos(yaw) * Math.cos(pitch) }
  const eye = { x: p.pos.x, y: p.pos.y + EYE_HEIGHT, z: p.pos.z }
  for (let t = 0; t <= 5; t += 0.05) {
    const x = Math.floor(eye.x + dir.x * t); const y = Math.floor(eye.y + dir.y * t); const z = Math.floor(eye.z + dir.z * t)
    const block = terrain.blockAt(x, y, z).name
    if (block === 'water' || block === 'lava') {
      if (terrain.stateAt(x, y, z) !== stateOf(block)) continue // flowing, not a source: look past it
      setBlock(x, y, z, stateOf('air'))
      swapHeld(p, `${block}_bucket`)
      emit({ event: 'bucketFilled', name: p.name, fluid: block, x, y, z })
      return
    }
    if (block !== 'air' && block !== 'cave_air' && registry.blocksByName[block]?.boundingBox === 'block') return
  }
}

function syncInventory (p) {
  if (p.client) (p.window ?? p.invWindow).syncChanges(p.client)
}

function blockKey (x, y, z) { return `${x},${y},${z}` }

/** Furnace and chest contents, by block position. */
const chests = new Map()
const furnaces = new Map()

function chestAt (x, y, z) {
  const key = blockKey(x, y, z)
  if (!chests.has(key)) chests.set(key, Array(27).fill(null))
  return chests.get(key)
}

function furnaceAt (x, y, z) {
  const key = blockKey(x, y, z)
  if (!furnaces.has(key)) furnaces.set(key, { slots: [null, null, null], burn: 0, burnTotal: 0, cook: 0, viewers: new Set() })
  return furnaces.get(key)
}

/** What breaking `block` while holding `held` drops: nothing if the block needs a tool the player lacks. */
function dropsOf (block, held) {
  if (block.harvestTools && !(held && block.harvestTools[mcData.itemsByName[held.name].id])) return []
  // Gravel drops flint one time in ten (its vanilla loot table; minecraft-data lists gravel only).
  if (block.name === 'gravel') return [random() < 0.1 ? 'flint' : 'gravel']
  return (block.drops || []).map((d) => mcData.items[typeof d === 'object' ? d.drop?.id ?? d.id : d]?.name).filter(Boolean)
}

/**
 * Survival dig time, as vanilla computes it. minecraft-data 26.1 files some ores (iron, diamond, …) under their tier
 * tag (`incorrect_for_wooden_tool`) instead of `mineable/pickaxe`, which makes prismarine-block time them as if no
 * tool fitted (iron ore with a stone pickaxe: 4.55 s instead of vanilla's 1.15 s); they are pickaxe blocks.
 */
function digTimeMs (state, held) {
  const heldId = held ? mcData.itemsByName[held.name].id : null
  const block = Block.fromStateId(state, 0)
  if (block.material?.startsWith('incorrect_for_')) block.material = 'mineable/pickaxe'
  return block.digTime(heldId, false, false, false, [], [])
}

function breakBlock (p, x, y, z) {
  const state = terrain.stateAt(x, y, z)
  const block = registry.blocksByStateId[state]
  survival.exhaust(p, EXHAUSTION.mine)
  setBlock(x, y, z, stateOf('air'))
  // A door is one block in two halves: breaking either breaks both (and drops one door).
  if (block.name.endsWith('_door')) {
    const other = y + (Block.fromStateId(state, 0).getProperties().half === 'upper' ? -1 : 1)
    if (terrain.blockAt(x, other, z).name === block.name) setBlock(x, other, z, stateOf('air'))
  }
  for (const name of dropsOf(block, p.heldStack())) entities.dropItem({ name, count: 1 }, { x: x + 0.5, y: y + 0.25, z: z + 0.5 })
  if (block.name === 'chest') { for (const s of chestAt(x, y, z)) if (s) entities.dropItem(s, { x: x + 0.5, y: y + 0.25, z: z + 0.5 }); chests.delete(blockKey(x, y, z)) }
  if (block.name === 'furnace') { for (const s of furnaceAt(x, y, z).slots) if (s) entities.dropItem(s, { x: x + 0.5, y: y + 0.25, z: z + 0.5 }); furnaces.delete(blockKey(x, y, z)) }
  emit({ event: 'blockBroken', name: p.name, x, y, z, block: block.name })
}

function onDig (p, d) {
  const { x, y, z } = d.location
  const state = terrain.stateAt(x, y, z)
  const block = registry.blocksByStateId[state]
  if (process.env.WORLD_DEBUG) log('dig', JSON.stringify({ status: d.status, block: block.name, slot: p.held, held: p.heldStack()?.name }))
  const ack = () => p.send('acknowledge_player_digging', { sequenceId: d.sequence })
  const reach = Math.hypot(x + 0.5 - p.pos.x, y + 0.5 - (p.pos.y + 1.62), z + 0.5 - p.pos.z)
  if (d.status === 0) { // start
    if (block.name === 'air' || block.hardness === null || block.hardness < 0 || reach > 6) { p.send('block_change', { location: d.location, type: state }); ack(); return }
    const ms = digTimeMs(state, p.heldStack())
    if (ms <= 50) breakBlock(p, x, y, z)
    else p.digging = { x, y, z, started: Date.now(), ms }
  } else if (d.status === 5) { // let go of use: eating stops, a shield goes down
    survival.stopUsing(p)
    survival.lowerShield(p)
    return
  } else if (d.status === 1) { // cancel
    p.digging = null
  } else if (d.status === 2) { // finish: accept when at least 70% of the survival dig time has passed, as vanilla
    const dig = p.digging
    p.digging = null
    const ok = dig && dig.x === x && dig.y === y && dig.z === z && Date.now() - dig.started >= dig.ms * 0.7 - 100
    if (ok && block.name !== 'air') breakBlock(p, x, y, z)
    else p.send('block_change', { location: d.location, type: state })
  }
  ack()
}

const FACES = [[0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1], [-1, 0, 0], [1, 0, 0]]
// Spots where the world refuses every placement (`refusePlace`), as vanilla refuses some for reasons this world does
// not model (an entity in the way, a face the click cannot reach through leaves, spawn protection).
const refusedSpots = new Set()
const REPLACEABLE = new Set(['air', 'cave_air', 'short_grass', 'tall_grass', 'water', 'lava', 'snow', 'fern', 'dead_bush'])

function onPlace (p, d) {
  const { x, y, z } = d.location
  const clicked = terrain.blockAt(x, y, z).name
  const ack = () => p.send('acknowledge_player_digging', { sequenceId: d.sequence })
  if (['crafting_table', 'furnace', 'chest'].includes(clicked)) { openContainer(p, clicked, x, y, z); ack(); return }
  const held = p.heldStack()
  const [fx, fy, fz] = FACES[d.direction] ?? [0, 1, 0]
  const at = { x: x + fx, y: y + fy, z: z + fz }
  // A refused placement is answered as vanilla answers it: the clicked block's state, then the one across the face
  // (Mineflayer takes a placement that changed nothing as answered only once the clicked block's update has come).
  const reject = () => {
    p.send('block_change', { location: d.location, type: terrain.stateAt(x, y, z) })
    p.send('block_change', { location: at, type: terrain.stateAt(at.x, at.y, at.z) })
    ack()
  }
  if (!held || !registry.blocksByName[held.name] || !REPLACEABLE.has(terrain.blockAt(at.x, at.y, at.z).name)) return reject()
  if (refusedSpots.has(`${at.x},${at.y},${at.z}`)) {
    emit({ event: 'placeRefused', name: p.name, ...at, block: held.name })
    return reject()
  }
  const inside = (o, y) => o.pos.x + 0.3 > at.x && o.pos.x - 0.3 < at.x + 1 && o.pos.z + 0.3 > at.z && o.pos.z - 0.3 < at.z + 1 && o.pos.y + 1.8 > y && o.pos.y < y + 1
  const placed = placedState(held.name, d.direction, d.cursorY, p.yaw)
  // A door takes the space above too.
  const tall = placed.name.endsWith('_door')
  if (tall && !REPLACEABLE.has(terrain.blockAt(at.x, at.y + 1, at.z).name)) return reject()
  if ([...players.values()].some((o) => inside(o, at.y) || (tall && inside(o, at.y + 1)))) return reject()
  const changes = [{ ...at, state: stateWith(placed.name, placed.properties) }]
  if (tall) changes.push({ x: at.x, y: at.y + 1, z: at.z, state: stateWith(placed.name, { ...placed.properties, half: 'upper' }) })
  setBlocks(changes)
  p.inv[36 + p.held] = held.count > 1 ? { ...held, count: held.count - 1 } : null
  syncInventory(p)
  emit({ event: 'blockPlaced', name: p.name, ...at, block: placed.name, properties: placed.properties })
  ack()
}

const FACE_NAMES = ['down', 'up', 'north', 'south', 'west', 'east']
const OPPOSITE = { north: 'south', south: 'north', east: 'west', west: 'east', up: 'down', down: 'up' }

/** The side a player looks toward, from their yaw (0 south, 90 west, 180 north, 270 east). */
function lookingSide (yaw) {
  return ['south', 'west', 'north', 'east'][((Math.floor(yaw / 90 + 0.5) % 4) + 4) % 4]
}

/**
 * The block a held item becomes when placed against face `face` (0 down … 5 east) of a block, clicked at height
 * `cursorY` within that face, by a player looking along `yaw`, with vanilla's rules: logs lie along the clicked
 * face's axis; stairs, doors and fence gates face the way the player looks; furnaces, chests and the like face the
 * player; stairs, slabs and trapdoors take the top half when the underside or the upper half of a side was clicked;
 * ladders and wall torches hang on the clicked side; signs and banners turn toward the player.
 */
function placedState (item, face, cursorY, yaw) {
  const faceName = FACE_NAMES[face] ?? 'up'
  const side = face >= 2
  const looking = lookingSide(yaw)
  let name = item
  if (side && ['torch', 'soul_torch', 'redstone_torch'].includes(item)) name = item.replace('torch', 'wall_torch')
  if (side && /_sign$/.test(item) && !/hanging/.test(item)) name = item.replace(/_sign$/, '_wall_sign')
  const props = {}
  const has = (key) => (registry.blocksByName[name]?.states ?? []).some((s) => s.name === key)
  const upper = face === 0 || (side && cursorY > 0.5)
  if (has('axis')) props.axis = face < 2 ? 'y' : face < 4 ? 'z' : 'x'
  if (has('facing')) {
    if (/_stairs$|_door$|_fence_gate$/.test(name)) props.facing = looking
    else if (/^ladder$|_wall_torch$|^wall_torch$|_wall_sign$/.test(name)) props.facing = side ? faceName : OPPOSITE[looking]
    else if (/_trapdoor$/.test(name)) props.facing = side ? faceName : OPPOSITE[looking]
    else if (registry.blocksByName[name].states.find((s) => s.name === 'facing').values.length === 4) props.facing = OPPOSITE[looking]
  }
  if (/_stairs$/.test(name)) props.half = upper ? 'top' : 'bottom'
  if (/_trapdoor$/.test(name)) props.half = side ? (cursorY > 0.5 ? 'top' : 'bottom') : (face === 0 ? 'top' : 'bottom')
  if (/_slab$/.test(name)) props.type = upper ? 'top' : 'bottom'
  if (/_door$/.test(name)) props.half = 'lower'
  if (has('rotation')) props.rotation = String(((Math.floor((yaw + 180) * 16 / 360 + 0.5) % 16) + 16) % 16)
  return { name, properties: props }
}

/** Set by the `lagMenus` command: how late a container's contents follow its opening, in ms (0: at once). */
let menuLag = 0

function openContainer (p, kind, x, y, z) {
  closeWindow(p)
  // A lagging server resends the player's own inventory first, as a server answering a stale click does: a client
  // that takes any contents for the menu's own sees it open before its contents come.
  if (menuLag > 0) p.invWindow.sync(p.client)
  const id = (p.windowIds % 100) + 1
  p.windowIds++
  if (kind === 'crafting_table') {
    const grid = Array(10).fill(null)
    p.window = containerWindow({ id, kind, title: 'Crafting', store: grid, player: p, craft: { result: 0, grid: range(1, 9), size: 3 } })
    p.window.onClose = () => { for (const s of grid.slice(1)) if (s) { const rest = give(p, s); if (rest) entities.dropItem(rest, p.pos) } }
    p.send('open_window', { windowId: id, inventoryType: MENU.crafting, windowTitle: text('Crafting') })
  } else if (kind === 'chest') {
    p.window = containerWindow({ id, kind, title: 'Chest', store: chestAt(x, y, z), player: p })
    p.send('open_window', { windowId: id, inventoryType: MENU.generic_9x3, windowTitle: text('Chest') })
  } else {
    const furnace = furnaceAt(x, y, z)
    const own = range(0, 2); const main = range(3, 29); const hotbar = range(30, 38)
    p.window = containerWindow({
      id, kind, title: 'Furnace', store: furnace.slots, player: p,
      sections: [
        { slots: own, to: [...hotbar.slice().reverse(), ...main.slice().reverse()] },
        { slots: [...main, ...hotbar], to: null }
      ]
    })
    // Shift-click from the inventory goes to the fuel slot for fuel, the input slot for anything smeltable.
    const targetsFor = p.window.targetsFor.bind(p.window)
    p.window.targetsFor = (i) => {
      if (i <= 2) return targetsFor(i)
      const s = p.window.get(i)
      return s && FUELS[s.name] && !SMELTING[s.name] ? [1] : [0]
    }
    const click = p.window.click.bind(p.window)
    p.window.click = (slot, button, mode) => { if (!(slot === 2 && mode === 0 && p.cursor)) click(slot, button, mode) }
    furnace.viewers.add(p)
    p.window.onClose = () => furnace.viewers.delete(p)
    p.send('open_window', { windowId: id, inventoryType: MENU.furnace, windowTitle: text('Furnace') })
    sendFurnaceProgress(furnace)
  }
  const window = p.window
  if (menuLag > 0) setTimeout(() => { if (p.client) window.sync(p.client) }, menuLag)
  else window.sync(p.client)
  emit({ event: 'windowOpened', name: p.name, kind, x, y, z })
}

function closeWindow (p) {
  if (!p.window) return
  if (p.cursor) { const rest = give(p, p.cursor); p.cursor = null; if (rest) entities.dropItem(rest, p.pos) }
  p.window.onClose?.()
  p.window = null
  syncInventory(p)
}

// Smelting: what each input becomes, and fuel burn times in ticks (200 ticks smelt one item).
const SMELTING = require('../../src/primitives/data/facts.json').smelting
const FUELS = require('../../src/primitives/data/facts.json').fuels

function sendFurnaceProgress (f) {
  for (const p of f.viewers) {
    if (!p.window) continue
    const props = [f.burn, f.burnTotal, f.cook, 200]
    props.forEach((value, property) => p.send('craft_progress_bar', { windowId: p.window.id, property, value }))
  }
}

/** Furnaces burn and cook 20 times a second, as vanilla's tick does. */
setInterval(() => {
  for (const f of furnaces.values()) {
    const [input, fuel, output] = f.slots
    const product = input && SMELTING[input.name]
    const fits = product && (!output || (output.name === product && output.count < maxStack(product)))
    const slotsBefore = JSON.stringify(f.slots)
    const burningBefore = f.burn > 0
    if (f.burn === 0 && fits && fuel && FUELS[fuel.name]) {
      f.burn = f.burnTotal = FUELS[fuel.name]
      f.slots[1] = fuel.count > 1 ? { ...fuel, count: fuel.count - 1 } : null
    }
    if (f.burn > 0) {
      f.burn--
      if (fits) {
        f.cook++
        if (f.cook >= 200) {
          f.cook = 0
          f.slots[0] = input.count > 1 ? { ...input, count: input.count - 1 } : null
          f.slots[2] = { name: product, count: (output?.count ?? 0) + 1 }
        }
      } else f.cook = 0
    } else f.cook = Math.max(0, f.cook - 2)
    if (!f.viewers.size) continue
    if (JSON.stringify(f.slots) !== slotsBefore) for (const v of f.viewers) v.window?.syncChanges(v.client)
    if (f.cook % 10 === 0 || burningBefore !== f.burn > 0) sendFurnaceProgress(f)
  }
}, 50).unref()

const entities = new Entities({
  players: () => players.values(),
  send: (p, name, params) => p.send(name, params),
  nextEntityId: () => nextEntityId++,
  give,
  emit,
  blockAt: (x, y, z) => terrain.blockAt(x, y, z),
  setBlocks,
  stateOf,
  heightAt: (x, z) => terrain.heightAt(x, z),
  skyLight: (x, y, z) => (y > terrain.heightAt(x, z) ? 15 : 0),
  dayTime: () => Math.floor(dayTime) % 24000,
  damagePlayer: (p, amount, how) => survival.damage(p, amount, how),
  naturalSpawning: WORLD_KIND === 'natural' && args.mobs !== 'off',
  random
})

// ---- chat and movement ----------------------------------------------------------------------------------------

const chat = new Chat({ players: () => players.values(), find: findPlayer, emit })

/** A line `p` typed: a command if it starts with `/`, public chat otherwise. */
function typed (p, line) {
  if (line.startsWith('/')) chat.command(p, line.slice(1))
  else chat.say(p, line)
}

function findPlayer (name) {
  if (players.has(name)) return players.get(name)
  const lower = String(name).toLowerCase()
  return [...players.values()].find((p) => p.name.toLowerCase() === lower)
}

/** Moves a player: a real client is teleported (it confirms), a virtual one just moves. Others see it. */
function teleport (p, pos) {
  p.pos = { x: pos.x, y: pos.y, z: pos.z }
  survival.teleported(p)
  if (p.client) {
    sendPosition(p)
    streamChunks(p)
  }
  relayMove(p)
}

/** Sends a client where the server says it is; until it confirms, its own moves are ignored (vanilla does so). */
function sendPosition (p) {
  const id = ++p.teleportId
  p.awaitingTeleport = { id, sent: Date.now() }
  p.send('position', { teleportId: id, ...p.pos, dx: 0, dy: 0, dz: 0, yaw: p.yaw, pitch: p.pitch, flags: {} })
}

/** A movement packet from a client: position, rotation and on-ground flag, each only if the packet has it. */
function onMove (p, d) {
  if (players.get(p.name) !== p || p.awaitingTeleport || p.dead) return
  const from = p.pos
  const wasOnGround = p.onGround
  if (d.x !== undefined) p.pos = { x: d.x, y: d.y, z: d.z }
  if (d.yaw !== undefined) { p.yaw = d.yaw; p.pitch = d.pitch }
  if (d.flags) p.onGround = !!d.flags.onGround
  if (d.x !== undefined) survival.moved(p, from, p.pos, p.onGround, wasOnGround)
  streamChunks(p)
  relayMove(p)
}

function onTeleportConfirm (p, d) {
  if (p.awaitingTeleport && d.teleportId === p.awaitingTeleport.id) p.awaitingTeleport = null
}

// ---- survival: health, hunger, death and respawn ---------------------------------------------------------------

const survival = new Survival({
  send: (p, name, params) => p.send(name, params),
  broadcast: (name, params) => { for (const p of players.values()) p.send(name, params) },
  emit,
  blockAt: (x, y, z) => terrain.blockAt(x, y, z),
  heldStack: (p) => p.heldStack(),
  consumeHeld (p) {
    const held = p.heldStack()
    p.inv[36 + p.held] = held && held.count > 1 ? { ...held, count: held.count - 1 } : null
    syncInventory(p)
  },
  die
})

/** The dimension as login and respawn describe it: a superflat says so; a natural world has vanilla's sea level. */
function worldState () {
  const base = mcData.loginPacket.worldState
  if (WORLD_KIND === 'flat') return base
  const hash = crypto.createHash('sha256').update(String(SEED)).digest()
  return { ...base, isFlat: false, seaLevel: 62, hashedSeed: [hash.readInt32BE(0), hash.readInt32BE(4)] }
}

/** What a client needs after login or respawn: spawn point, chunks, health, position, the others, its inventory. */
function enterWorld (p) {
  const c = p.client
  c.write('spawn_position', { globalPos: { dimensionName: 'minecraft:overworld', location: { x: Math.floor(SPAWN.x), y: Math.floor(SPAWN.y), z: Math.floor(SPAWN.z) } }, yaw: 0, pitch: 0 })
  c.write('game_state_change', { reason: 'level_chunks_load_start', gameMode: 0 })
  sendTime(p)
  p.loaded.clear()
  streamChunks(p, true)
  survival.sendHealth(p)
  survival.sendAir(p)
  sendPosition(p)
  introduce(p)
  entities.showAll(p)
  p.invWindow.sync(c)
}

/**
 * A player's health reached 0: everyone reads how, the inventory falls where they died (vanilla scatters it;
 * items despawn after 5 minutes) and the client shows its death screen until it asks to respawn.
 */
function die (p, cause, message) {
  closeWindow(p)
  const at = { ...p.pos }
  // Slot 0 is only the 2×2 grid's crafting result, made from what lies in slots 1-4; the cursor's stack is real.
  const stacks = [...p.inv.slice(1), p.cursor].filter(Boolean)
  p.inv.fill(null)
  p.cursor = null
  for (const s of stacks) {
    const angle = random() * Math.PI * 2; const r = random() * 0.5
    entities.dropItem(s, { x: at.x + Math.cos(angle) * r, y: at.y + 0.5, z: at.z + Math.sin(angle) * r })
  }
  syncInventory(p)
  p.digging = null
  p.send('death_combat_event', { playerId: p.entityId, message: text(message) })
  for (const other of players.values()) other.send('system_chat', { content: text(message), isActionBar: false })
  for (const other of players.values()) if (other !== p) other.send('entity_status', { entityId: p.entityId, entityStatus: 3 })
  emit({ event: 'death', name: p.name, cause, message, x: at.x, y: at.y, z: at.z })
  log(message)
}

/** The client asked to respawn (client_command perform_respawn): back at spawn with a fresh body and empty hands. */
function respawn (p) {
  if (!p.dead) return
  p.life = freshState()
  p.pos = { ...SPAWN }
  p.client.write('respawn', { worldState: worldState(), copyMetadata: 0 })
  enterWorld(p) // chunks, players and entities again, as after login: a client that kept its level loses nothing
  for (const other of players.values()) {
    if (other === p) continue
    other.send('entity_destroy', { entityIds: [p.entityId] })
    other.send('spawn_entity', spawnPacket(p))
  }
  emit({ event: 'respawn', name: p.name, ...p.pos })
}

// ---- time -----------------------------------------------------------------------------------------------------

/** The overworld clock (the 26.1 `world_clock` registry's entry 0), which the client runs on between updates. */
function sendTime (p) {
  // minecraft-protocol writes this varlong from a 32-bit number: the clock wraps after 10 000 moon cycles instead.
  const ticks = Math.floor(dayTime) % (24000 * 8 * 10000)
  p.send('update_time', { age: BigInt(worldAge), clockUpdates: [{ id: 0, totalTicks: ticks, partialTick: 0, rate: TIME_SCALE }] })
}

/** The game tick, 20 a second: time passes and every connected player's body is looked after. */
let tickFailures = 0
setInterval(() => {
  worldAge++
  dayTime += TIME_SCALE
  for (const p of players.values()) {
    if (!p.client) continue
    try { survival.tick(p) } catch (err) { if (tickFailures++ < 5) log(`survival tick for ${p.name} failed: ${err.stack}`) }
  }
}, 50).unref()

// ---- the server ---------------------------------------------------------------------------------------------

const server = mc.createServer({
  'online-mode': false,
  host: '127.0.0.1',
  port: Number(args.port ?? 25565),
  version: '26.1',
  motd: 'Wayfarer test world',
  maxPlayers: 1000,
  hideErrors: true,
  validateChannelProtocol: false // skips compiling a packet validator for every joining client (~90 ms each)
})

server.on('playerJoin', (client) => {
  const existing = findPlayer(client.username)
  if (existing) {
    if (existing.client) existing.client.end('You logged in from another location')
    removeFromWorld(existing, 'replaced')
  }
  const p = new Player({ name: client.username, uuid: client.uuid, entityId: client.id, client })
  const before = saved.get(p.name)
  if (before) { // vanilla keeps a player's place, inventory, health and hunger while they are away
    Object.assign(p, { pos: before.pos, yaw: before.yaw, pitch: before.pitch, held: before.held, life: before.life })
    before.inv.forEach((s, i) => { p.inv[i] = s })
    saved.delete(p.name)
  }
  players.set(p.name, p)

  const login = { ...mcData.loginPacket }
  delete login.dimensionCodec
  client.write('login', { ...login, worldState: worldState(), entityId: client.id, viewDistance: VIEW_DISTANCE, simulationDistance: VIEW_DISTANCE, enforcesSecureChat: false })
  enterWorld(p)
  emit({ event: 'join', name: p.name })
  log(`${p.name} joined`)

  // A packet from a client that has been replaced (same name, newer login) is ignored; a handler that throws is
  // logged, never allowed to take the world down.
  const on = (name, handler) => client.on(name, (d) => {
    if (players.get(p.name) !== p) return
    try { handler(d) } catch (err) { log(`${p.name}: ${name} failed: ${err.stack}`) }
  })
  for (const name of ['position', 'position_look', 'look', 'flying']) on(name, (d) => onMove(p, d))
  on('teleport_confirm', (d) => onTeleportConfirm(p, d))
  on('chat_message', (d) => chat.say(p, d.message))
  on('held_item_slot', (d) => { if (d.slotId >= 0 && d.slotId <= 8) { p.held = d.slotId; survival.stopUsing(p) } })
  on('block_dig', (d) => { if (!p.dead) onDig(p, d) })
  on('block_place', (d) => { if (!p.dead) onPlace(p, d) })
  on('use_item', (d) => {
    if (p.dead) return
    const inHand = d.hand === 'main_hand' ? p.heldStack() : p.inv[45]
    if (inHand?.name === 'shield') return survival.raiseShield(p)
    if (d.hand !== 'main_hand') return
    if (p.heldStack()?.name === 'bucket') fillBucket(p)
    else survival.startUsing(p, p.heldStack())
  })
  on('use_entity', (d) => {
    if (process.env.WORLD_DEBUG) log('interact', JSON.stringify({ target: d.target, hand: d.hand, held: p.heldStack() }))
    if (p.dead || d.hand !== 'main_hand') return
    if (entities.interact(p, d.target, p.heldStack()) === 'milked') swapHeld(p, 'milk_bucket')
  })
  on('entity_action', (d) => {
    if (d.actionId === 'start_sprinting') p.life.sprinting = true
    else if (d.actionId === 'stop_sprinting') p.life.sprinting = false
  })
  on('client_command', (d) => { if (d.actionId === 'perform_respawn' || d.actionId === 0) respawn(p) })
  on('attack', (d) => {
    if (process.env.WORLD_DEBUG) log('attack', JSON.stringify({ target: d.entityId, held: p.heldStack() }))
    if (p.dead) return
    survival.exhaust(p, EXHAUSTION.attack)
    entities.attack(p, d.entityId, p.heldStack())
  })
  on('window_click', (d) => {
    const w = d.windowId === 0 ? p.invWindow : p.window
    if (!w || w.id !== d.windowId) return
    if (process.env.WORLD_DEBUG) log('click', JSON.stringify({ w: d.windowId, slot: d.slot, b: d.mouseButton, mode: d.mode, cursor: p.cursor }))
    w.handleClick(client, d)
  })
  on('close_window', () => closeWindow(p))
  on('chat_command', (d) => chat.command(p, d.command))
  on('chat_command_signed', (d) => chat.command(p, d.command))
  client.on('end', (reason) => {
    if (players.get(p.name) === p) removeFromWorld(p, reason || 'disconnected')
    log(`${p.name} left (${reason || 'disconnected'})`)
  })
  client.on('error', (err) => log(`${p.name}: ${err.message}`))
})

server.on('error', (err) => { log(`server error: ${err.message}`); process.exitCode = 1 })
server.on('listening', () => {
  process.stdout.write(`READY ${JSON.stringify({ port: server.socketServer.address().port })}\n`)
  log(`listening on 127.0.0.1:${server.socketServer.address().port}`)
})

// Once a second: clients get the time (vanilla sends it every second too), and a teleport a client has not
// confirmed within a second is sent again, as vanilla resends it.
setInterval(() => {
  for (const p of players.values()) {
    sendTime(p)
    if (p.awaitingTeleport && Date.now() - p.awaitingTeleport.sent > 1000) sendPosition(p)
  }
}, 1000).unref()

// ---- the control channel ------------------------------------------------------------------------------------

const commands = {
  /** Every placement into each of `spots` (`[[x, y, z], …]`) is refused from now on; `clear` forgets them first. */
  refusePlace ({ spots = [], clear = false }) {
    if (clear) refusedSpots.clear()
    for (const spot of spots) refusedSpots.add(corner(spot, 'spot').join(','))
    return refusedSpots.size
  },
  setBlock ({ x, y, z, block, properties }) {
    setBlock(int(x, 'x'), int(y, 'y'), int(z, 'z'), stateWith(block, properties))
    return null
  },
  fill ({ from, to, block, properties }) {
    const state = stateWith(block, properties)
    const [a, b] = [corner(from, 'from'), corner(to, 'to')]
    const count = (Math.abs(a[0] - b[0]) + 1) * (Math.abs(a[1] - b[1]) + 1) * (Math.abs(a[2] - b[2]) + 1)
    if (count > 100000) throw new Error(`fill of ${count} blocks is over the limit of 100000`)
    const changes = []
    for (let x = Math.min(a[0], b[0]); x <= Math.max(a[0], b[0]); x++) {
      for (let y = Math.min(a[1], b[1]); y <= Math.max(a[1], b[1]); y++) {
        for (let z = Math.min(a[2], b[2]); z <= Math.max(a[2], b[2]); z++) changes.push({ x, y, z, state })
      }
    }
    setBlocks(changes)
    return count
  },
  getBlock ({ x, y, z }) { return terrain.blockAt(int(x, 'x'), int(y, 'y'), int(z, 'z')).name },
  /** Every block in a box that is not air, with its properties: `[{x, y, z, name, properties}]`. */
  getBlocks ({ from, to }) {
    const [a, b] = [corner(from, 'from'), corner(to, 'to')]
    const count = (Math.abs(a[0] - b[0]) + 1) * (Math.abs(a[1] - b[1]) + 1) * (Math.abs(a[2] - b[2]) + 1)
    if (count > 100000) throw new Error(`a box of ${count} blocks is over the limit of 100000`)
    const found = []
    for (let x = Math.min(a[0], b[0]); x <= Math.max(a[0], b[0]); x++) {
      for (let y = Math.min(a[1], b[1]); y <= Math.max(a[1], b[1]); y++) {
        for (let z = Math.min(a[2], b[2]); z <= Math.max(a[2], b[2]); z++) {
          const state = terrain.stateAt(x, y, z)
          const block = Block.fromStateId(state, 0)
          if (block.name !== 'air' && block.name !== 'cave_air') found.push({ x, y, z, name: block.name, properties: block.getProperties() })
        }
      }
    }
    return found
  },
  addPlayer ({ name, x = SPAWN.x, y = SPAWN.y, z = SPAWN.z }) {
    if (!/^\w{1,16}$/.test(name ?? '')) throw new Error('name must be 1 to 16 letters, digits or _')
    if (findPlayer(name)) throw new Error(`${name} is already in the world`)
    const pos = { x: num(x, 'x'), y: num(y, 'y'), z: num(z, 'z') }
    const p = new Player({ name, uuid: offlineUuid(name), entityId: nextEntityId++, pos })
    players.set(name, p)
    introduce(p)
    emit({ event: 'join', name, virtual: true })
    return { entityId: p.entityId, uuid: p.uuid }
  },
  movePlayer ({ name, x, y, z }) { return commands.teleport({ name, x, y, z }) },
  teleport ({ name, x, y, z }) {
    const p = mustFind(name)
    teleport(p, { x: num(x, 'x'), y: num(y, 'y'), z: num(z, 'z') })
    return null
  },
  removePlayer ({ name }) {
    const p = mustFind(name)
    if (!p.virtual) throw new Error(`${name} is a connected client; use kick`)
    removeFromWorld(p, 'removed')
    return null
  },
  // What a player types: chat, or a command if it starts with `/` (e.g. "/msg Bot hi").
  say ({ as, text: message }) {
    const p = mustFind(as)
    if (typeof message !== 'string' || !message) throw new Error('text must be a non-empty string')
    typed(p, message)
    return null
  },
  whisper ({ from, to, text: message }) {
    const p = mustFind(from)
    if (typeof message !== 'string' || !message) throw new Error('text must be a non-empty string')
    if (!chat.whisper(p, to, message)) throw new Error(`no player called ${JSON.stringify(to)}`)
    return null
  },
  kick ({ name, reason = 'Kicked by the test' }) {
    const p = mustFind(name)
    if (p.virtual) throw new Error(`${name} is a virtual player; use removePlayer`)
    p.client.end(String(reason), text(String(reason))) // sends kick_disconnect with the reason, then closes
    return null
  },
  players () {
    return [...players.values()].map((p) => ({
      name: p.name, x: p.pos.x, y: p.pos.y, z: p.pos.z, yaw: p.yaw, pitch: p.pitch, onGround: p.onGround, virtual: p.virtual, entityId: p.entityId,
      ...(p.life ? { health: p.life.health, food: p.life.food, dead: p.life.dead } : {})
    }))
  },
  give ({ name, item, count = 1 }) {
    const p = mustFind(name)
    if (p.virtual) throw new Error(`${name} is a virtual player and has no inventory`)
    const rest = give(p, stack(item, int(count, 'count')))
    return { given: count - (rest?.count ?? 0) }
  },
  clearInventory ({ name }) {
    const p = mustFind(name)
    p.inv.fill(null); p.cursor = null
    syncInventory(p)
    return null
  },
  /** What a player wears: `{ head, chest, legs, feet }`, each an item's name or null. */
  worn ({ name }) {
    const p = mustFind(name)
    const [head, chest, legs, feet] = [5, 6, 7, 8].map((slot) => p.inv[slot]?.name ?? null)
    return { head, chest, legs, feet }
  },
  inventory ({ name }) {
    const p = mustFind(name)
    const totals = {}
    for (const s of p.inv.slice(1)) if (s) totals[s.name] = (totals[s.name] ?? 0) + s.count
    return totals
  },
  /** Takes the mob with entity id `id` out of the world, with no death (as despawning does); whether it was there. */
  removeMob ({ id }) {
    const mob = entities.mobs.get(int(id, 'id'))
    if (mob) entities.removeMob(mob)
    return Boolean(mob)
  },
  // A mob anywhere; without y it stands on the ground there.
  spawnMob ({ kind, x, y, z }) {
    const at = { x: num(x, 'x'), z: num(z, 'z') }
    at.y = y === undefined ? terrain.surfaceAt(Math.floor(at.x), Math.floor(at.z)).y + 1 : num(y, 'y')
    return entities.spawnMob(kind, at)
  },
  // A stack lying on the ground at x y z (as a mob's loot or a player's throw leaves it).
  dropItem ({ item, count = 1, x, y, z }) {
    const at = { x: num(x, 'x'), z: num(z, 'z') }
    at.y = y === undefined ? terrain.surfaceAt(Math.floor(at.x), Math.floor(at.z)).y + 1 : num(y, 'y')
    return entities.dropItem(stack(item, int(count, 'count')), at)
  },
  world () {
    return { kind: WORLD_KIND, seed: WORLD_KIND === 'natural' ? SEED : null, spawn: SPAWN, time: Math.floor(dayTime) % 24000, day: Math.floor(dayTime / 24000), timeScale: TIME_SCALE, age: worldAge }
  },
  // The overworld clock, in ticks of the day (0 sunrise, 6000 noon, 13000 night, 18000 midnight).
  setTime ({ time }) {
    const t = int(time, 'time')
    if (t < 0 || t >= 24000) throw new Error('time must be 0 to 23999 ticks of the day')
    dayTime = Math.floor(dayTime / 24000) * 24000 + t
    for (const p of players.values()) sendTime(p)
    return null
  },
  setHealth ({ name, health }) {
    const p = mustLive(name)
    const value = num(health, 'health')
    if (value <= 0 || value > 20) throw new Error('health must be in (0, 20]; hurt a player with damage to kill it')
    p.life.health = value
    survival.sendHealth(p)
    return null
  },
  setFood ({ name, food, saturation }) {
    const p = mustLive(name)
    const f = int(food, 'food')
    if (f < 0 || f > 20) throw new Error('food must be 0 to 20')
    p.life.food = f
    p.life.saturation = saturation === undefined ? Math.min(p.life.saturation, f) : Math.min(num(saturation, 'saturation'), f)
    survival.sendHealth(p)
    return null
  },
  // Hurts a player as `cause` would (fall, drown, lava, mob_attack, generic, …), through the survival rules.
  damage ({ name, amount, cause = 'generic' }) {
    const p = mustLive(name)
    return survival.damage(p, num(amount, 'amount'), { type: String(cause) })
  },
  health ({ name }) {
    const p = mustFind(name)
    if (!p.life) throw new Error(`${name} is a virtual player and has no health`)
    const { health, food, saturation, exhaustion, air, fire, dead } = p.life
    return { health, food, saturation, exhaustion, air, fire, dead }
  },
  // The nearest block of a kind (`block`) or biome (`biome`) to x, y, z within `radius` blocks.
  locate ({ block, biome, x = SPAWN.x, y = SPAWN.y, z = SPAWN.z, radius = 64 }) {
    const from = { x: num(x, 'x'), y: num(y, 'y'), z: num(z, 'z') }
    const r = int(radius, 'radius')
    if (block !== undefined) {
      // A block search generates every column it looks at (about 1 ms each), so it stays within 160 blocks.
      if (r < 0 || r > 160) throw new Error('a block search radius must be 0 to 160')
      if (!registry.blocksByName[block]) throw new Error(`unknown block ${JSON.stringify(block)}`)
      return terrain.locateBlock(block, from, r)
    }
    if (biome !== undefined) {
      if (r < 0 || r > 2048) throw new Error('a biome search radius must be 0 to 2048')
      if (!registry.biomesByName[biome]) throw new Error(`unknown biome ${JSON.stringify(biome)}`)
      return terrain.locateBiome(biome, from, r)
    }
    throw new Error('locate needs a block or a biome')
  },
  // The surface at x, z: the top solid block, the highest block of any kind, and the biome.
  surface ({ x, z }) {
    const [bx, bz] = [Math.floor(num(x, 'x')), Math.floor(num(z, 'z'))]
    return { ...terrain.surfaceAt(bx, bz), height: terrain.heightAt(bx, bz), biome: terrain.biomeAt(bx, bz) }
  },
  // A top-down PNG of heights and biomes around x, z (`size` pixels a side, `scale` blocks a pixel), written to
  // `path` if given, else returned as base64.
  map ({ x = SPAWN.x, z = SPAWN.z, size = 256, scale = 1, path: file }) {
    if (!terrain.mapPng) throw new Error('the superflat has no map; start the world with --world natural')
    if (!(int(size, 'size') >= 1 && size <= 1024)) throw new Error('size must be 1 to 1024 pixels')
    const png = terrain.mapPng({ x: num(x, 'x'), z: num(z, 'z'), size, scale: num(scale, 'scale') })
    if (file === undefined) return { png: png.toString('base64') }
    require('node:fs').writeFileSync(String(file), png)
    return { path: String(file), bytes: png.length }
  },
  entities () { return entities.list() },
  container ({ x, y, z }) {
    const block = terrain.blockAt(int(x, 'x'), int(y, 'y'), int(z, 'z')).name
    const slots = block === 'chest' ? chestAt(x, y, z) : block === 'furnace' ? furnaceAt(x, y, z).slots : null
    if (!slots) throw new Error(`the block at ${x} ${y} ${z} is ${block}, not a chest or furnace`)
    return slots.map((s) => s && { item: s.name, count: s.count })
  },
  fillChest ({ x, y, z, items }) {
    if (terrain.blockAt(int(x, 'x'), int(y, 'y'), int(z, 'z')).name !== 'chest') setBlock(x, y, z, stateOf('chest'))
    const slots = chestAt(x, y, z)
    slots.fill(null)
    Object.entries(items ?? {}).forEach(([item, count], i) => { slots[i] = stack(item, int(count, 'count')) })
    return null
  },
  lagMenus ({ ms }) {
    if (!(int(ms, 'ms') >= 0 && ms <= 10000)) throw new Error('ms must be 0 to 10000')
    menuLag = ms
    return null
  },
  stop () { setImmediate(shutdown); return null }
}

/** A connected player who is alive. */
function mustLive (name) {
  const p = mustFind(name)
  if (!p.life) throw new Error(`${name} is a virtual player and has no health`)
  if (p.life.dead) throw new Error(`${name} is dead`)
  return p
}

function mustFind (name) {
  const p = findPlayer(name)
  if (!p) throw new Error(`no player called ${JSON.stringify(name)}`)
  return p
}

function int (v, what) {
  if (!Number.isInteger(v)) throw new Error(`${what} must be a whole number`)
  return v
}

/** An `[x, y, z]` of whole numbers. */
function corner (v, what) {
  if (!Array.isArray(v) || v.length !== 3) throw new Error(`${what} must be [x, y, z]`)
  return v.map((n) => int(n, what))
}

function num (v, what) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${what} must be a number`)
  return v
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  let request
  try {
    request = JSON.parse(line)
  } catch (err) {
    emit({ id: null, ok: false, error: `not JSON: ${err.message}` })
    return
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    emit({ id: null, ok: false, error: 'a request must be a JSON object like {"cmd":"players"}' })
    return
  }
  const id = request.id ?? null
  const handler = Object.hasOwn(commands, request.cmd) ? commands[request.cmd] : null
  if (!handler) {
    emit({ id, ok: false, error: `unknown command ${JSON.stringify(request.cmd)}; known: ${Object.keys(commands).join(', ')}` })
    return
  }
  try {
    emit({ id, ok: true, result: handler(request) ?? null })
  } catch (err) {
    emit({ id, ok: false, error: err.message })
  }
})

function shutdown () {
  for (const p of players.values()) if (p.client) p.client.end('Server closed')
  server.close()
  setTimeout(() => process.exit(0), 100).unref()
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
