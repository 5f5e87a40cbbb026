// Non-player entities of the test world: dropped items, mobs and arrows, ticked 20 times a second.
//
// Items fall to the ground and are picked up by players who walk over them. Mobs fall, collide with full blocks,
// jump up one-block steps, swim up in water, burn in lava and take fall damage. Passive mobs (pig, cow, sheep,
// chicken) stroll about; hostile ones (zombie, skeleton, spider, creeper) notice a player, find a way to them over
// the block grid and attack: zombies and spiders hit, skeletons shoot arrows, creepers explode. Where natural
// spawning is on, animals appear on grass in daylight and monsters in the dark, as vanilla's NaturalSpawner places
// them. The numbers are vanilla 26.1's, each cited where it is used; mob attributes are in mobs/kinds.js.
//
// Where natural spawning is off (the superflat the tests build in), a mob a test spawns does not stroll about
// (hostile ones still come for players), is knocked back only a little and drops fixed counts, so tests stay
// deterministic. Mobs more than 128 blocks from every player stand frozen.
//
// Events: `{event: 'pickup', name, item, count}`, `{event: 'mobKilled', kind, entityId, by (player name or null),
// cause ('player' | 'fall' | 'lava' | 'fire' | 'explosion' | 'void')}`, `{event: 'explosion', x, y, z, broken
// (blocks), by (the mob kind)}`. Players hurt by mobs are reported by world.damagePlayer (`playerHurt`).
//
// The world interface (`new Entities(world)`):
//   world.players()              iterable of Player: { name, entityId, pos {x,y,z}, virtual (no client), dead,
//                                gameMode ('survival' | …) }
//   world.send(p, name, params)  sends a play packet to one player
//   world.nextEntityId()
//   world.give(p, stack) -> rest puts a stack in a player's inventory; returns what did not fit
//   world.emit(event)            writes a control-channel event
//   world.blockAt(x, y, z)       prismarine-registry block (.name, .boundingBox 'block' | 'empty')
//   world.setBlocks([{x,y,z,state}])  changes blocks and tells clients (creeper explosions)
//   world.stateOf(name)          a block's default state id
//   world.heightAt(x, z)         the highest motion-blocking or liquid block's y in a column
//   world.skyLight(x, y, z)      0..15, ignoring the time of day
//   world.dayTime()              0..23999
//   world.damagePlayer(p, amount, { type, attacker, knockback: {x, z} })  type 'mob_attack' | 'arrow' |
//                                'explosion'; deals the damage (cooldown, death, `playerHurt` event); true if dealt
//   world.naturalSpawning        whether mobs spawn by themselves
//   world.random()               a Math.random-like function
//
// Mobs only notice, hurt and shoot at players that are not virtual, not dead and in survival (or adventure) mode;
// virtual players are stand-ins for tests and mobs leave them alone. Natural spawning happens around connected
// players only.
'use strict'

const crypto = require('node:crypto')
const mcData = require('minecraft-data')('26.1')
const { toSlot } = require('./inventory')
const { DAMAGE_TYPES, SAFE_FALL, EYE_HEIGHT: PLAYER_EYE, angle } = require('./survival')
const { MOBS, DAMAGE } = require('./mobs/kinds')
const { Grid, SOLID, WATER, LAVA } = require('./mobs/grid')
const { findPath } = require('./mobs/path')
const { explode } = require('./mobs/explosion')
const { Spawner } = require('./mobs/spawner')

const ITEM_TYPE = mcData.entitiesByName.item.id
const ARROW_TYPE = mcData.entitiesByName.arrow.id
const PICKUP_DELAY = 10 // ticks (ItemEntity's default pickup delay)
const ITEM_LIFETIME = 6000 // ticks: items despawn after 5 minutes (ItemEntity.LIFETIME)
const ARROW_LIFETIME = 1200 // ticks an arrow stays stuck in a block (AbstractArrow's life counter)
const DEATH_TICKS = 20 // a dead mob lies for a second before it is removed (LivingEntity.tickDeath)
const HURT_COOLDOWN = 10 // ticks after a hit in which only a harder hit counts (invulnerableTime 20, above 10)
const PLAYER_WIDTH = 0.6
const PLAYER_HEIGHT = 1.8
const JUMP = 0.42 // LivingEntity.getJumpPower
const KNOCKBACK = 0.12 // blocks/tick a player's hit pushes a mob away (see attack())
const LIFT = 0.1 // and up
const REPATH = 10 // ticks at least between two path searches of a mob (vanilla: 4 to 11 while chasing)
const PATH_BUDGET = 1200 // cells all path searches of one tick may expand together, so no tick stalls
const NODES_PER_BLOCK = 16 // a chase search expands at most follow range × 16 cells (PathNavigation: 560 for a
//                            zombie, 256 for the rest)
const STROLL_NODES = 200
const SEND_EVERY = 2 // ticks between position updates of a moving mob (vanilla: 3 for mobs)
const DAY_SKY = 15
const SIMULATION = 128 // blocks from a player within which mobs move (see simulated())

// Damage types as the client numbers them: their order in the `minecraft:damage_type` registry the world sends.
const DAMAGE_TYPE_IDS = Object.fromEntries(Object.entries(DAMAGE_TYPES).map(([name, t]) => [name, t.id]))

// Sound event ids (the order of the sound_event registry, as minecraft-data lists it).
const SOUNDS = Object.fromEntries(['entity.creeper.primed', 'entity.skeleton.shoot', 'entity.arrow.hit'].map((name) => [name, mcData.soundsByName[name].id]))

function uuid () { return crypto.randomUUID() }

/** A rotation in degrees as a protocol angle byte. */

/** The yaw (degrees) of a horizontal direction, as vanilla measures it: 0 faces +z, 90 faces -x. */
function yawOf (dx, dz) { return Math.atan2(-dx, dz) * 180 / Math.PI }

function metaIndex (kind, name) {
  const i = mcData.entitiesByName[kind].metadataKeys.indexOf(name)
  if (i < 0) throw new Error(`${kind} has no metadata ${name}`)
  return i
}

const META = {
  flags: 0, // shared_flags: 0x01 on fire
  health: metaIndex('zombie', 'health'),
  livingFlags: metaIndex('zombie', 'living_entity_flags'), // 0x01 using an item (a skeleton drawing its bow)
  mobFlags: metaIndex('zombie', 'mob_flags'), // 0x04 aggressive (zombie arms up)
  swell: metaIndex('creeper', 'swell_dir'),
  item: metaIndex('item', 'item'),
  arrowInGround: metaIndex('arrow', 'in_ground'),
  wool: metaIndex('sheep', 'wool') // 0x10 sheared, low bits the colour (white is 0)
}

/** Whether a player may be noticed and hurt by mobs. */
function huntable (p) {
  return !p.virtual && !p.dead && (p.gameMode === undefined || p.gameMode === 'survival' || p.gameMode === 'adventure')
}

/**
 * Where the segment from a to a + d first enters the box, as a fraction of the segment (0 if a is inside), or
 * null if it misses.
 */
function segmentHitsBox (ax, ay, az, dx, dy, dz, x0, y0, z0, x1, y1, z1) {
  let t0 = 0; let t1 = 1
  const axes = [[ax, dx, x0, x1], [ay, dy, y0, y1], [az, dz, z0, z1]]
  for (const [a, d, lo, hi] of axes) {
    if (Math.abs(d) < 1e-12) { if (a < lo || a > hi) return null; continue }
    let ta = (lo - a) / d; let tb = (hi - a) / d
    if (ta > tb) { const s = ta; ta = tb; tb = s }
    if (ta > t0) t0 = ta
    if (tb < t1) t1 = tb
    if (t0 > t1) return null
  }
  return t0
}

class Entities {
  /** `world`: see the interface at the top of this file. */
  constructor (world) {
    this.world = world
    this.random = typeof world.random === 'function' ? world.random : Math.random
    this.grid = new Grid(world)
    this.items = new Map() // entityId -> { id, uuid, pos, stack, age, vy, resting }
    this.mobs = new Map() // entityId -> mob (see spawnMob)
    this.arrows = new Map() // entityId -> { id, uuid, pos, vel, owner, inGround, life }
    this.dying = new Map() // entityId -> the tick it disappears
    this.ticks = 0
    this.spawner = new Spawner(this)
    this.failures = 0
    this.timer = setInterval(() => {
      try {
        this.tick()
      } catch (err) {
        // One bad tick must not take the world down; the first few are reported.
        if (this.failures++ < 5) process.stderr.write(`[entities] tick failed: ${err.stack}\n`)
      }
    }, 50)
    this.timer.unref()
  }

  /** Stops ticking (for tests that drive tick() themselves). */
  close () { clearInterval(this.timer) }

  /** Players that have a client to tell. */
  viewers () {
    const out = []
    for (const p of this.world.players()) if (!p.virtual) out.push(p)
    return out
  }

  broadcast (name, params) { for (const p of this.world.players()) if (!p.virtual) this.world.send(p, name, params) }

  // ---- items ------------------------------------------------------------------------------------------------

  /** Drops an item stack at a position; it falls to the ground. Returns its entity id. */
  dropItem (stack, pos, { pickupDelay = PICKUP_DELAY } = {}) {
    const id = this.world.nextEntityId()
    const item = { id, uuid: uuid(), pos: { ...pos }, stack, age: 0, vy: 0, resting: false, shown: null, pickupDelay }
    this.items.set(id, item)
    for (const p of this.viewers()) this.showItem(p, item)
    item.shown = { ...item.pos, onGround: false }
    return id
  }

  showItem (p, item) {
    this.world.send(p, 'spawn_entity', {
      entityId: item.id, objectUUID: item.uuid, type: ITEM_TYPE, x: item.pos.x, y: item.pos.y, z: item.pos.z,
      velocity: { x: 0, y: 0, z: 0 }, pitch: 0, yaw: 0, headPitch: 0, objectData: 1
    })
    this.world.send(p, 'entity_metadata', { entityId: item.id, metadata: [{ key: META.item, type: 'item_stack', value: toSlot(item.stack) }] })
  }

  /**
   * An item falls (ItemEntity.tick: gravity 0.04 a tick, then drag 0.98), rises slowly in water, burns in lava, and
   * is pushed up out of a block placed over it. A resting item only checks every 10 ticks that its floor is there.
   */
  moveItem (item) {
    const g = this.grid
    const x = Math.floor(item.pos.x); const z = Math.floor(item.pos.z)
    const y = item.pos.y
    const here = g.cls(x, Math.floor(y), z)
    if (here & LAVA) { this.removeItem(item); return }
    if (here & SOLID) { item.pos.y = Math.floor(y) + 1; item.vy = 0; item.resting = false; return }
    if (item.resting) {
      if (y === Math.floor(y) && (g.cls(x, y - 1, z) & SOLID)) return
      if (here & WATER && !(g.cls(x, Math.floor(y + 0.2), z) & WATER)) return
      item.resting = false
    }
    let vy = item.vy
    if (here & WATER) {
      vy = Math.min(vy * 0.9 + 0.005, 0.06) // setUnderwaterMovement: buoyant, rising slowly
      if (vy > 0 && !(g.cls(x, Math.floor(y + 0.2), z) & WATER)) { vy = 0; item.resting = true } // floating at the top
    } else vy -= 0.04
    let ny = y + vy
    if (vy < 0) {
      for (let cy = Math.floor(y + 1e-7) - 1; cy >= Math.floor(ny); cy--) {
        if (g.cls(x, cy, z) & SOLID) { ny = cy + 1; vy = 0; item.resting = true; break }
      }
    } else if (vy > 0 && (g.cls(x, Math.floor(ny + 0.25), z) & SOLID)) { ny = y; vy = 0 }
    item.pos.y = ny
    item.vy = vy * 0.98
    if (ny < -128) this.removeItem(item)
  }

  removeItem (item) {
    this.items.delete(item.id)
    this.broadcast('entity_destroy', { entityIds: [item.id] })
  }

  tickItem (item, viewers) {
    if (++item.age > ITEM_LIFETIME) { this.removeItem(item); return }
    if (!item.resting || (this.ticks + item.id) % 10 === 0) this.moveItem(item)
    if (!this.items.has(item.id)) return
    const s = item.shown
    if (s.x !== item.pos.x || s.y !== item.pos.y || s.z !== item.pos.z || s.onGround !== item.resting) {
      item.shown = { ...item.pos, onGround: item.resting }
      for (const p of viewers) {
        this.world.send(p, 'sync_entity_position', { entityId: item.id, ...item.pos, dx: 0, dy: 0, dz: 0, yaw: 0, pitch: 0, onGround: item.resting })
      }
    }
    if (item.age < item.pickupDelay) return
    // Picked up within the player's box grown by 1 sideways (Player.aiStep) and, downward, by a full block rather
    // than vanilla's 0.5: a block dug beside a player's feet drops into its hole and is still collected, as the
    // test world's players always have.
    for (const p of viewers) {
      if (p.dead) continue
      const dx = Math.abs(p.pos.x - item.pos.x); const dz = Math.abs(p.pos.z - item.pos.z); const dy = item.pos.y - p.pos.y
      if (dx > 1.3 || dz > 1.3 || dy < -1.05 || dy > 2.3) continue
      const rest = this.world.give(p, item.stack)
      const taken = item.stack.count - (rest?.count ?? 0)
      if (taken === 0) continue
      this.broadcast('collect', { collectedEntityId: item.id, collectorEntityId: p.entityId, pickupItemCount: taken })
      if (rest) { item.stack = rest; continue }
      this.items.delete(item.id)
      this.broadcast('entity_destroy', { entityIds: [item.id] })
      this.world.emit({ event: 'pickup', name: p.name, item: item.stack.name, count: taken })
      break
    }
  }

  // ---- mobs -------------------------------------------------------------------------------------------------

  /**
   * Spawns a mob of `kind` (a key of MOBS) at `pos`; returns its entity id. A position inside blocks is moved up
   * to the first space the mob fits in; one in the air falls.
   *
   * `options.wander`: strolls about when idle (default: whether natural spawning is on); `options.persistent`:
   * never despawns (default true; naturally spawned monsters are not).
   */
  spawnMob (kind, pos, { wander = !!this.world.naturalSpawning, persistent = true } = {}) {
    const spec = MOBS[kind]
    if (!spec) throw new Error(`unknown mob ${JSON.stringify(kind)}; known: ${Object.keys(MOBS).join(', ')}`)
    const id = this.world.nextEntityId()
    this.grid.clear() // blocks may have changed since the last tick
    const at = { x: pos.x, y: pos.y, z: pos.z }
    const hw = spec.width / 2
    for (let i = 0; i < 64 && this.grid.boxSolid(at.x - hw, at.y, at.z - hw, at.x + hw, at.y + spec.height, at.z + hw); i++) at.y = Math.floor(at.y) + 1
    const mob = {
      id,
      entityId: id,
      uuid: uuid(),
      kind,
      spec,
      pos: at,
      health: spec.health,
      yaw: 0,
      vy: 0, // blocks/tick
      kx: 0, // knockback, blocks/tick
      kz: 0,
      mx: 0, // walking this tick, blocks/tick
      mz: 0,
      onGround: false,
      fall: 0, // blocks fallen since last on the ground
      fire: 0, // ticks left burning
      hurt: 0, // ticks left of the hurt cooldown
      lastHurt: 0, // the damage that started it
      target: null,
      provoked: false, // targeting someone who hit it (spiders keep such a target in daylight)
      path: null,
      pathIndex: 0,
      pathGoal: null,
      repathAt: 0,
      progress: { best: Infinity, since: 0 },
      attackIn: 0,
      wander,
      persistent,
      panic: 0,
      strollSpeed: 0,
      swell: 0,
      swellDir: -1,
      sees: false,
      seeTime: 0,
      draw: -1, // ticks a skeleton has been drawing its bow, -1 when not
      bowIn: 0,
      flags: { fire: false, aggressive: false, drawing: false },
      shown: null,
      sentAt: 0,
      moved: false
    }
    this.mobs.set(id, mob)
    for (const p of this.viewers()) this.showMob(p, mob)
    mob.shown = { ...mob.pos, yaw: mob.yaw, onGround: mob.onGround }
    return id
  }

  showMob (p, mob) {
    this.world.send(p, 'spawn_entity', {
      entityId: mob.id, objectUUID: mob.uuid, type: mob.spec.typeId, x: mob.pos.x, y: mob.pos.y, z: mob.pos.z,
      velocity: { x: 0, y: 0, z: 0 }, pitch: 0, yaw: angle(mob.yaw), headPitch: 0, objectData: 0
    })
    const metadata = [{ key: META.health, type: 'float', value: Math.max(0, mob.health) }]
    if (mob.flags.fire) metadata.push({ key: META.flags, type: 'byte', value: 1 })
    if (mob.flags.aggressive) metadata.push({ key: META.mobFlags, type: 'byte', value: 4 })
    if (mob.flags.drawing) metadata.push({ key: META.livingFlags, type: 'byte', value: 1 })
    if (mob.spec.explodes) metadata.push({ key: META.swell, type: 'int', value: mob.swellDir })
    if (mob.sheared) metadata.push({ key: META.wool, type: 'byte', value: 0x10 })
    this.world.send(p, 'entity_metadata', { entityId: mob.id, metadata })
    this.world.send(p, 'entity_head_rotation', { entityId: mob.id, headYaw: angle(mob.yaw) })
  }

  /** Tells clients of a change in one of a mob's flags (on fire, aggressive, drawing a bow). */
  setFlag (mob, flag, on) {
    if (mob.flags[flag] === on) return
    mob.flags[flag] = on
    const [key, value] = flag === 'fire' ? [META.flags, 1] : flag === 'aggressive' ? [META.mobFlags, 4] : [META.livingFlags, 1]
    this.broadcast('entity_metadata', { entityId: mob.id, metadata: [{ key, type: 'byte', value: on ? value : 0 }] })
  }

  /** Sends everything that exists to a player who just joined. */
  showAll (p) {
    for (const item of this.items.values()) this.showItem(p, item)
    for (const mob of this.mobs.values()) this.showMob(p, mob)
    for (const arrow of this.arrows.values()) this.showArrow(p, arrow)
  }

  /**
   * A player hits an entity with the item they hold. Returns false if there is no such mob. Out of reach (6
   * blocks) or within the mob's hurt cooldown the hit is ignored, as vanilla does. A hit knocks the mob back; a
   * hostile mob turns on whoever hit it, and a strolling animal panics.
   */
  attack (p, entityId, held) {
    const mob = this.mobs.get(entityId)
    if (!mob) return false
    const dx = mob.pos.x - p.pos.x; const dz = mob.pos.z - p.pos.z; const dy = mob.pos.y - p.pos.y
    if (dx * dx + dy * dy + dz * dz > 6 * 6) return true
    if (this.hurt(mob, DAMAGE[held?.name] ?? 1, 'player_attack', p) !== 'hit' || !this.mobs.has(mob.id)) return true
    // Knocked back as LivingEntity.knockback does it (half the old speed plus a push away from the attacker, and a
    // hop if grounded), but with KNOCKBACK and LIFT rather than vanilla's 0.4 and 0.4, which fling a mob about 2.5
    // blocks: here it slides about 0.4 blocks, so a mob dies, and drops its loot, about where it stood, and a
    // zombie hit as it closes in still reaches the player who hits it.
    const d = Math.hypot(dx, dz)
    const ux = d > 1e-4 ? dx / d : -Math.sin((p.yaw ?? 0) * Math.PI / 180)
    const uz = d > 1e-4 ? dz / d : Math.cos((p.yaw ?? 0) * Math.PI / 180)
    mob.kx = mob.kx / 2 + ux * KNOCKBACK
    mob.kz = mob.kz / 2 + uz * KNOCKBACK
    if (mob.onGround) mob.vy = Math.min(LIFT, mob.vy / 2 + LIFT)
    if (mob.spec.hostile && huntable(p)) { this.setTarget(mob, p); mob.provoked = true }
    if (!mob.spec.hostile && mob.wander) mob.panic = 60 + Math.floor(this.random() * 40) // PanicGoal runs while hurt recently
    return true
  }

  /**
   * A player uses the item they hold on a mob (the interact packet): shears on a sheep with wool shear it (1 to 3
   * white wool dropped, the sheep bare; Sheep.mobInteract), an empty bucket on a cow fills with milk
   * (Cow.mobInteract). Out of reach (6 blocks) nothing happens. Returns what happened, or null.
   */
  interact (p, entityId, held) {
    const mob = this.mobs.get(entityId)
    if (!mob || !held) return null
    const dx = mob.pos.x - p.pos.x; const dz = mob.pos.z - p.pos.z; const dy = mob.pos.y - p.pos.y
    if (dx * dx + dy * dy + dz * dz > 6 * 6) return null
    if (mob.kind === 'sheep' && held.name === 'shears' && !mob.sheared) {
      mob.sheared = true
      this.broadcast('entity_metadata', { entityId: mob.id, metadata: [{ key: META.wool, type: 'byte', value: 0x10 }] })
      const count = 1 + Math.floor(this.random() * 3)
      this.dropItem({ name: 'white_wool', count }, { x: mob.pos.x, y: mob.pos.y + 1, z: mob.pos.z })
      this.world.emit({ event: 'sheared', entityId: mob.id, by: p.name, count })
      return 'sheared'
    }
    if (mob.kind === 'cow' && held.name === 'bucket') {
      this.world.emit({ event: 'milked', entityId: mob.id, by: p.name })
      return 'milked'
    }
    return null
  }

  /**
   * Damages a mob (LivingEntity.hurt); kills it at 0 health. `by` is the player responsible, if any. For 10 ticks
   * after a hit only a harder one counts, and only by the difference. Returns 'hit' for a fresh hit (the one that
   * knocks back and shows the hurt animation), 'more' for such a difference, null when nothing was dealt.
   */
  hurt (mob, amount, type, by = null) {
    if (!this.mobs.has(mob.id) || !(amount > 0)) return null
    let dealt = amount
    const fresh = mob.hurt === 0
    if (!fresh) {
      if (amount <= mob.lastHurt) return null
      dealt = amount - mob.lastHurt
    } else mob.hurt = HURT_COOLDOWN
    mob.lastHurt = amount
    mob.health -= dealt
    if (fresh) {
      const source = by ? by.entityId + 1 : 0
      this.broadcast('damage_event', { entityId: mob.id, sourceTypeId: DAMAGE_TYPE_IDS[type] ?? 0, sourceCauseId: source, sourceDirectId: source })
    }
    this.broadcast('entity_metadata', { entityId: mob.id, metadata: [{ key: META.health, type: 'float', value: Math.max(0, mob.health) }] })
    if (mob.health <= 0) this.kill(mob, by, type)
    return fresh ? 'hit' : 'more'
  }

  kill (mob, killer, type = 'player_attack') {
    this.mobs.delete(mob.id)
    this.dying.set(mob.id, this.ticks + DEATH_TICKS)
    this.broadcast('entity_status', { entityId: mob.id, entityStatus: 3 })
    for (const [name, count] of this.lootOf(mob, !!killer)) this.dropItem({ name, count }, { ...mob.pos })
    const cause = { player_attack: 'player', on_fire: 'fire', out_of_world: 'void' }[type] ?? type
    this.world.emit({ event: 'mobKilled', kind: mob.kind, entityId: mob.id, by: killer?.name ?? null, cause })
  }

  /**
   * What a dead mob drops. Without natural spawning: the fixed MOBS drops. With it: minecraft-data's entityLoot
   * (drop chance, stack size, player-kill-only drops), with at least one of the mob's main drop, and a sheep's wool.
   */
  lootOf (mob, byPlayer) {
    // A sheep drops its wool unless sheared (vanilla's per-colour tables, which minecraft-data leaves out).
    const fixed = mob.sheared ? mob.spec.drops.filter(([name]) => name !== 'white_wool') : mob.spec.drops
    if (!this.world.naturalSpawning) return fixed
    const out = []
    for (const d of mcData.entityLoot?.[mob.kind]?.drops ?? []) {
      if (d.playerKill && !byPlayer) continue
      if (this.random() >= d.dropChance) continue
      const [lo, hi] = d.stackSizeRange ?? [1, 1]
      const count = lo + Math.floor(this.random() * (hi - lo + 1))
      if (count > 0 && mcData.itemsByName[d.item]) out.push([d.item, count])
    }
    const main = fixed[0][0]
    if (!out.some(([name]) => name === main)) out.unshift([main, 1])
    if (mob.kind === 'sheep' && !mob.sheared && !out.some(([name]) => name === 'white_wool')) out.push(['white_wool', 1])
    return out
  }

  /** Removes a mob without a death (despawning, or a creeper that exploded). */
  removeMob (mob) {
    this.mobs.delete(mob.id)
    this.broadcast('entity_destroy', { entityIds: [mob.id] })
  }

  setTarget (mob, p) {
    if (mob.target === p) return
    mob.target = p
    mob.provoked = false
    mob.path = null
    mob.repathAt = 0
    this.setFlag(mob, 'aggressive', !!p)
  }

  /** Whether `mob` may keep chasing `p`: still huntable and within its follow range (TargetGoal.canContinueToUse). */
  keepsTarget (mob, p, ctx) {
    if (!ctx.huntable.has(p)) return false
    const r = mob.spec.followRange
    const dx = p.pos.x - mob.pos.x; const dy = p.pos.y - mob.pos.y; const dz = p.pos.z - mob.pos.z
    return dx * dx + dy * dy + dz * dz <= r * r
  }

  /** Line of sight from a mob's eyes to a player's. */
  seesPlayer (mob, p) {
    return this.grid.sees(mob.pos.x, mob.pos.y + mob.spec.eye, mob.pos.z, p.pos.x, p.pos.y + PLAYER_EYE, p.pos.z)
  }

  /**
   * Spiders are hostile only in the dark (Spider.SpiderTargetGoal: not when the light at them is 0.5 or more of
   * full brightness): at night or out of the open sky.
   */
  inDaylight (mob, ctx) {
    if (ctx.night) return false
    return this.world.skyLight(Math.floor(mob.pos.x), Math.floor(mob.pos.y + mob.spec.eye), Math.floor(mob.pos.z)) >= DAY_SKY
  }

  /** The nearest huntable player a hostile mob notices (NearestAttackableTargetGoal), or null. */
  acquire (mob, ctx) {
    const spec = mob.spec
    if (spec.shy && this.inDaylight(mob, ctx)) return null
    const r2 = spec.followRange * spec.followRange
    let best = null; let bestD = r2
    for (const p of ctx.huntable) {
      const dx = p.pos.x - mob.pos.x; const dy = p.pos.y - mob.pos.y; const dz = p.pos.z - mob.pos.z
      const d = dx * dx + dy * dy + dz * dz
      if (d > bestD) continue
      if (spec.sees && !this.seesPlayer(mob, p)) continue
      best = p; bestD = d
    }
    return best
  }

  // ---- walking ----------------------------------------------------------------------------------------------

  /** The cell a mob's feet are in. */
  cellOf (pos) { return { x: Math.floor(pos.x), y: Math.floor(pos.y + 1e-3), z: Math.floor(pos.z) } }

  /** Walks along the mob's path at `speed` blocks/tick; false once there is no path left to walk. */
  followPath (mob, speed) {
    const path = mob.path
    if (!path) return false
    while (mob.pathIndex < path.length) {
      const n = path[mob.pathIndex]
      const dx = n.x + 0.5 - mob.pos.x; const dz = n.z + 0.5 - mob.pos.z
      const d = Math.hypot(dx, dz)
      if (d < 0.3) { mob.pathIndex++; mob.progress = { best: Infinity, since: this.ticks }; continue }
      // Stuck (pushed into a corner, or the world changed): give the path up after 2 s without getting closer.
      if (d < mob.progress.best - 0.05) mob.progress = { best: d, since: this.ticks }
      else if (this.ticks - mob.progress.since > 40) { mob.path = null; mob.repathAt = this.ticks; return false }
      const v = Math.min(speed, d)
      mob.mx = dx / d * v; mob.mz = dz / d * v
      mob.yaw = yawOf(dx, dz)
      return true
    }
    mob.path = null
    return false
  }

  /**
   * Walks straight toward (or, with `away`, away from) a point, unless the next step is into lava or off a drop
   * of more than 3 blocks: the fallback when no path is known.
   */
  walkStraight (mob, tx, tz, speed, away = false) {
    let dx = tx - mob.pos.x; let dz = tz - mob.pos.z
    if (away) { dx = -dx; dz = -dz }
    const d = Math.hypot(dx, dz)
    if (d < 1e-3) return
    const ux = dx / d; const uz = dz / d
    if (!this.safeAhead(mob, ux, uz)) return
    const v = Math.min(speed, away ? speed : d)
    mob.mx = ux * v; mob.mz = uz * v
    mob.yaw = yawOf(ux, uz)
  }

  safeAhead (mob, ux, uz) {
    const g = this.grid
    const reach = mob.spec.width / 2 + 0.4
    const x = Math.floor(mob.pos.x + ux * reach); const z = Math.floor(mob.pos.z + uz * reach)
    const y = Math.floor(mob.pos.y + 1e-3)
    if (g.cls(x, y, z) & SOLID) return true // a wall or a step: walking into it is harmless
    for (let k = 1; k <= SAFE_FALL + 1; k++) {
      const c = g.cls(x, y - k, z)
      if (c & LAVA) return false
      if (c & (SOLID | WATER)) return true
    }
    return false
  }

  /** A hostile mob makes its way to its target: along a path over the grid, straight when that fails. */
  chase (mob, p, speed, reach = 1.5) {
    const g = this.grid
    let goal = this.cellOf(p.pos)
    for (let i = 0; i < 4 && !g.standable(goal.x, goal.y, goal.z, mob.spec.cells, true); i++) goal = { ...goal, y: goal.y - 1 }
    const settled = mob.onGround || (g.cls(Math.floor(mob.pos.x), Math.floor(mob.pos.y + 0.1), Math.floor(mob.pos.z)) & WATER)
    const finished = !mob.path || mob.pathIndex >= mob.path.length
    const moved = !mob.pathGoal || Math.abs(goal.x - mob.pathGoal.x) + Math.abs(goal.y - mob.pathGoal.y) + Math.abs(goal.z - mob.pathGoal.z) > 1
    if (settled && this.ticks >= mob.repathAt && (finished || moved) && this.pathBudget > 0) {
      const from = this.cellOf(mob.pos)
      const maxNodes = Math.min(mob.spec.followRange * NODES_PER_BLOCK, this.pathBudget)
      const res = findPath(g, from, goal, { cells: mob.spec.cells, swim: mob.spec.floats, maxNodes, reach })
      this.pathBudget -= res.expanded + 1
      mob.path = res.path.length ? res.path : null
      mob.pathIndex = 0
      mob.pathGoal = goal
      mob.progress = { best: Infinity, since: this.ticks }
      // A search that found no way costs the most, so the next waits longer (vanilla also backs off when
      // a path keeps failing).
      mob.repathAt = this.ticks + (res.complete ? REPATH : 4 * REPATH) + Math.floor(this.random() * REPATH)
    }
    if (!this.followPath(mob, speed)) this.walkStraight(mob, p.pos.x, p.pos.z, speed)
  }

  /**
   * Picks somewhere to stroll to (RandomStrollGoal: a random standable cell within 10 blocks across and 7 up or
   * down, over land, that a path reaches) and sets off. A panicking mob runs to a spot 5 blocks off (PanicGoal).
   */
  stroll (mob, range, speed) {
    const g = this.grid
    const from = this.cellOf(mob.pos)
    for (let attempt = 0; attempt < 4; attempt++) {
      const x = from.x + Math.floor(this.random() * (2 * range + 1)) - range
      const z = from.z + Math.floor(this.random() * (2 * range + 1)) - range
      let y = null
      for (let dy = 3; dy >= -4; dy--) if (g.standable(x, from.y + dy, z, mob.spec.cells, false)) { y = from.y + dy; break }
      if (y === null) continue
      const res = findPath(g, from, { x, y, z }, { cells: mob.spec.cells, swim: false, maxNodes: STROLL_NODES })
      this.pathBudget -= res.expanded + 1
      if (!res.complete || !res.path.length) continue
      mob.path = res.path
      mob.pathIndex = 0
      mob.progress = { best: Infinity, since: this.ticks }
      mob.strollSpeed = speed
      return
    }
  }

  /** An idle mob: strolls now and then (1 chance in 120 a tick, RandomStrollGoal's interval) if it wanders. */
  idle (mob, ctx) {
    const spec = mob.spec
    const base = spec.speed / 20
    if (mob.panic > 0) {
      mob.panic--
      if (!mob.path && this.pathBudget > 0) this.stroll(mob, 5, base * spec.panic * spec.panic)
      this.followPath(mob, mob.strollSpeed)
      return
    }
    if (!mob.wander) return
    if (mob.path && this.followPath(mob, mob.strollSpeed)) return
    if (mob.onGround && this.pathBudget > 0 && this.random() < 1 / 120) this.stroll(mob, 10, base * spec.stroll * spec.stroll)
  }

  // ---- hostile behaviour ------------------------------------------------------------------------------------

  hostile (mob, ctx) {
    const spec = mob.spec
    let p = mob.target
    if (p && !this.keepsTarget(mob, p, ctx)) { this.setTarget(mob, null); p = null }
    // Spiders give up a chase in daylight now and then unless provoked (SpiderAttackGoal: 1 chance in 100 a tick).
    if (p && spec.shy && !mob.provoked && this.random() < 0.01 && this.inDaylight(mob, ctx)) { this.setTarget(mob, null); p = null }
    if (!p && (this.ticks + mob.id) % 10 === 0) { p = this.acquire(mob, ctx); if (p) this.setTarget(mob, p) }
    if (spec.explodes) this.creeper(mob, p, ctx)
    else if (spec.archer) this.skeleton(mob, p, ctx)
    else if (p) this.melee(mob, p)
    if (!p && !(spec.explodes && mob.swell > 0)) this.idle(mob, ctx)
  }

  /**
   * Zombies and spiders (MeleeAttackGoal): chase, and hit every 20 ticks while the target is within reach: the
   * mob's box grown by sqrt(2.04) - 0.6 ≈ 0.83 sideways touches the player's (Mob.isWithinMeleeAttackRange).
   */
  melee (mob, p) {
    const spec = mob.spec
    const dx = p.pos.x - mob.pos.x; const dz = p.pos.z - mob.pos.z
    const dh = Math.hypot(dx, dz)
    if (mob.attackIn > 0) mob.attackIn--
    const reach = spec.width / 2 + 0.828 + PLAYER_WIDTH / 2
    const inReach = Math.abs(dx) < reach && Math.abs(dz) < reach && mob.pos.y < p.pos.y + PLAYER_HEIGHT && p.pos.y < mob.pos.y + spec.height
    // MeleeAttackGoal.canPerformAttack: in reach, the cooldown over, and the target in sight (not through a wall).
    if (inReach && mob.attackIn <= 0 && this.seesPlayer(mob, p)) {
      mob.attackIn = 20
      this.broadcast('animation', { entityId: mob.id, animation: 0 }) // swing the main arm
      const u = dh > 1e-4 ? 1 / dh : 0
      this.world.damagePlayer(p, spec.damage, { type: 'mob_attack', attacker: mob, knockback: { x: dx * u * 0.4, z: dz * u * 0.4 } })
    }
    if (dh > 0.9 || Math.abs(p.pos.y - mob.pos.y) >= 1) this.chase(mob, p, spec.speed * spec.chase * spec.chase / 20)
    if (dh > 1e-4) mob.yaw = yawOf(dx, dz)
  }

  /**
   * Skeletons (RangedBowAttackGoal with attack radius 15): approach until within 15 blocks and in sight, back off
   * inside 8, and otherwise stand and shoot. The bow is drawn for 20 ticks, then an arrow flies and the next draw
   * starts 40 ticks later (normal difficulty's attack interval), so a shot every 3 s, the first 1 s after seeing
   * the target.
   */
  skeleton (mob, p, ctx) {
    const spec = mob.spec
    if (!p) {
      if (mob.draw >= 0) { mob.draw = -1; this.setFlag(mob, 'drawing', false) }
      mob.seeTime = 0
      return
    }
    if ((this.ticks + mob.id) % 4 === 0 || mob.draw >= 19) mob.sees = this.seesPlayer(mob, p)
    mob.seeTime = mob.sees ? Math.max(0, mob.seeTime) + 1 : Math.min(0, mob.seeTime) - 1
    const dx = p.pos.x - mob.pos.x; const dy = p.pos.y - mob.pos.y; const dz = p.pos.z - mob.pos.z
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz)
    const speed = spec.speed * spec.chase * spec.chase / 20
    if (d > 15 || !mob.sees) this.chase(mob, p, speed, 3)
    else if (d < 8) { mob.path = null; this.walkStraight(mob, p.pos.x, p.pos.z, speed / 2, true) } // strafes back at 0.5
    else mob.path = null
    mob.yaw = yawOf(dx, dz)
    if (mob.draw >= 0) {
      if (!mob.sees && mob.seeTime < -60) { mob.draw = -1; this.setFlag(mob, 'drawing', false) } else if (mob.sees && ++mob.draw >= 20 && d <= 15) {
        mob.draw = -1
        this.setFlag(mob, 'drawing', false)
        this.shoot(mob, p)
        mob.bowIn = 40
      }
    } else if (--mob.bowIn <= 0 && mob.seeTime >= -60 && mob.sees) {
      mob.draw = 0
      this.setFlag(mob, 'drawing', true)
    }
  }

  /**
   * Creepers (SwellGoal): once the target is within 3 blocks the fuse burns (swell +1 a tick, standing still);
   * out of sight or beyond 7 blocks it burns back down (-1 a tick). At 30 ticks (1.5 s) the creeper explodes with
   * power 3 (Creeper.explosionRadius).
   */
  creeper (mob, p, ctx) {
    let dir = -1
    if (p) {
      if ((this.ticks + mob.id) % 4 === 0 || mob.swellDir > 0) mob.sees = this.seesPlayer(mob, p)
      const dx = p.pos.x - mob.pos.x; const dy = p.pos.y - mob.pos.y; const dz = p.pos.z - mob.pos.z
      const d2 = dx * dx + dy * dy + dz * dz
      const swelling = mob.swellDir > 0 || d2 < 9
      if (swelling) {
        mob.path = null
        dir = d2 > 49 || !mob.sees ? -1 : 1
      } else this.chase(mob, p, mob.spec.speed * mob.spec.chase * mob.spec.chase / 20)
      mob.yaw = yawOf(dx, dz)
    }
    if (dir !== mob.swellDir) {
      if (dir > 0 && mob.swell === 0) {
        this.broadcast('entity_sound_effect', {
          sound: { soundId: SOUNDS['entity.creeper.primed'] }, soundCategory: 'hostile', entityId: mob.id, volume: 1, pitch: 0.5, seed: 0n
        })
      }
      mob.swellDir = dir
      this.broadcast('entity_metadata', { entityId: mob.id, metadata: [{ key: META.swell, type: 'int', value: dir }] })
    }
    mob.swell = Math.max(0, mob.swell + mob.swellDir)
    if (mob.swell >= 30) {
      this.removeMob(mob)
      explode(this, { x: mob.pos.x, y: mob.pos.y, z: mob.pos.z }, 3, mob)
    }
  }

  // ---- arrows -----------------------------------------------------------------------------------------------

  /**
   * A skeleton looses an arrow at a player (AbstractSkeleton.performRangedAttack): from 0.1 below its eyes toward
   * a third of the way up the target, aimed higher by a fifth of the distance to make up for the drop, at 1.6
   * blocks/tick with normal difficulty's inaccuracy of 6 (Projectile.shoot: each axis off by a triangular
   * 0.0172275 × 6).
   */
  shoot (mob, p) {
    const x = mob.pos.x; const y = mob.pos.y + mob.spec.eye - 0.1; const z = mob.pos.z
    const dx = p.pos.x - x; const dy = p.pos.y + PLAYER_HEIGHT / 3 - y; const dz = p.pos.z - z
    const dh = Math.hypot(dx, dz)
    let vx = dx; let vy = dy + dh * 0.2; let vz = dz
    const len = Math.hypot(vx, vy, vz) || 1
    const spread = 0.0172275 * 6
    const tri = () => spread * (this.random() - this.random())
    vx = (vx / len + tri()) * 1.6; vy = (vy / len + tri()) * 1.6; vz = (vz / len + tri()) * 1.6
    const id = this.world.nextEntityId()
    const arrow = { id, uuid: uuid(), pos: { x, y, z }, vel: { x: vx, y: vy, z: vz }, owner: mob, inGround: false, life: 0 }
    this.arrows.set(id, arrow)
    for (const v of this.viewers()) this.showArrow(v, arrow)
    this.broadcast('sound_effect', {
      sound: { soundId: SOUNDS['entity.skeleton.shoot'] }, soundCategory: 'hostile', x: Math.floor(x * 8), y: Math.floor(y * 8), z: Math.floor(z * 8),
      volume: 1, pitch: 1 / (this.random() * 0.4 + 0.8), seed: 0n
    })
    this.broadcast('animation', { entityId: mob.id, animation: 0 })
    return id
  }

  arrowRotation (a) {
    const { x, y, z } = a.vel
    return { yaw: Math.atan2(x, z) * 180 / Math.PI, pitch: Math.atan2(y, Math.hypot(x, z)) * 180 / Math.PI }
  }

  showArrow (p, a) {
    const r = this.arrowRotation(a)
    this.world.send(p, 'spawn_entity', {
      entityId: a.id, objectUUID: a.uuid, type: ARROW_TYPE, x: a.pos.x, y: a.pos.y, z: a.pos.z,
      velocity: { ...a.vel }, pitch: angle(r.pitch), yaw: angle(r.yaw), headPitch: 0, objectData: a.owner?.id ?? 0
    })
    if (a.inGround) this.world.send(p, 'entity_metadata', { entityId: a.id, metadata: [{ key: META.arrowInGround, type: 'boolean', value: true }] })
  }

  removeArrow (a) {
    this.arrows.delete(a.id)
    this.broadcast('entity_destroy', { entityIds: [a.id] })
  }

  /**
   * An arrow flies (AbstractArrow.tick): it hits the first thing on this tick's segment, a huntable player's box
   * grown by 0.3 (ProjectileUtil's margin) or a solid block, then moves, slows by 0.99 (0.6 in water) and drops
   * 0.05. A hit deals ceil(speed × 2) (base damage 2) and the arrow is gone; in a block it stays 60 s.
   */
  tickArrow (a, ctx) {
    const g = this.grid
    if (a.inGround) {
      if (++a.life >= ARROW_LIFETIME) { this.removeArrow(a); return }
      if (!(g.cls(a.stuck.x, a.stuck.y, a.stuck.z) & SOLID)) { a.inGround = false; a.vel = { x: 0, y: 0, z: 0 } } // its block is gone: it falls
      return
    }
    if (++a.life > ARROW_LIFETIME || a.pos.y < -128) { this.removeArrow(a); return }
    const { x, y, z } = a.pos
    const v = a.vel
    const block = g.raycast(x, y, z, x + v.x, y + v.y, z + v.z)
    let tEnd = block ? block.t : 1
    let victim = null
    for (const p of ctx.huntable) {
      const t = segmentHitsBox(x, y, z, v.x, v.y, v.z,
        p.pos.x - PLAYER_WIDTH / 2 - 0.3, p.pos.y - 0.3, p.pos.z - PLAYER_WIDTH / 2 - 0.3,
        p.pos.x + PLAYER_WIDTH / 2 + 0.3, p.pos.y + PLAYER_HEIGHT + 0.3, p.pos.z + PLAYER_WIDTH / 2 + 0.3)
      if (t !== null && t <= tEnd) { victim = p; tEnd = t }
    }
    if (victim) {
      const speed = Math.hypot(v.x, v.y, v.z)
      const dh = Math.hypot(v.x, v.z) || 1
      this.removeArrow(a)
      this.world.damagePlayer(victim, Math.ceil(speed * 2), { type: 'arrow', attacker: a.owner, direct: a, knockback: { x: v.x / dh * 0.4, z: v.z / dh * 0.4 } })
      return
    }
    if (block) {
      // Stops just short of where it entered the block, and stays.
      const t = Math.max(0, block.t - 0.05 / (Math.hypot(v.x, v.y, v.z) || 1))
      a.pos = { x: x + v.x * t, y: y + v.y * t, z: z + v.z * t }
      a.inGround = true
      a.stuck = { x: block.x, y: block.y, z: block.z }
      a.life = 0
      const r = this.arrowRotation(a)
      this.broadcast('sync_entity_position', { entityId: a.id, ...a.pos, dx: 0, dy: 0, dz: 0, yaw: r.yaw, pitch: r.pitch, onGround: false })
      this.broadcast('entity_metadata', { entityId: a.id, metadata: [{ key: META.arrowInGround, type: 'boolean', value: true }] })
      this.broadcast('sound_effect', {
        sound: { soundId: SOUNDS['entity.arrow.hit'] }, soundCategory: 'neutral',
        x: Math.floor(a.pos.x * 8), y: Math.floor(a.pos.y * 8), z: Math.floor(a.pos.z * 8), volume: 1, pitch: 1.2 / (this.random() * 0.2 + 0.9), seed: 0n
      })
      return
    }
    a.pos = { x: x + v.x, y: y + v.y, z: z + v.z }
    const drag = g.cls(Math.floor(a.pos.x), Math.floor(a.pos.y), Math.floor(a.pos.z)) & WATER ? 0.6 : 0.99
    a.vel = { x: v.x * drag, y: v.y * drag - 0.05, z: v.z * drag }
    const r = this.arrowRotation(a)
    this.broadcast('sync_entity_position', { entityId: a.id, ...a.pos, dx: a.vel.x, dy: a.vel.y, dz: a.vel.z, yaw: r.yaw, pitch: r.pitch, onGround: false })
  }

  // ---- physics ----------------------------------------------------------------------------------------------

  /**
   * Moves a mob by its velocity with full-block collision (Entity.move: vertical first, then each horizontal axis,
   * sliding along walls), then applies gravity and drag for the next tick (LivingEntity.travel): in air -0.08 then
   * ×0.98; in water ×0.8 and -0.02, in lava ×0.5 and -0.02, plus 0.04 up while the body is under (FloatGoal's
   * jumpInLiquid). Walking into a one-block step makes a grounded mob jump (0.42, clearing 1.25 blocks); spiders
   * climb walls instead (0.2 up while against one). Landing after more than 3 blocks of fall costs
   * ceil(fall - 3) health (LivingEntity.causeFallDamage).
   */
  physics (mob, ctx) {
    const g = this.grid
    const spec = mob.spec
    const hw = spec.width / 2
    const h = spec.height
    let { x, y, z } = mob.pos
    // A block placed into the mob's feet pushes it up on top (Entity.moveTowardsClosestSpace, simplified).
    if (g.cls(Math.floor(x), Math.floor(y), Math.floor(z)) & SOLID) { y = Math.floor(y) + 1; mob.vy = 0 }
    const env = g.boxClasses(x - hw, y, z - hw, x + hw, y + h, z + hw)
    const inWater = (env & WATER) !== 0
    const inLava = (env & LAVA) !== 0
    const slow = inWater || inLava ? 0.5 : 1
    const wantsMove = mob.mx !== 0 || mob.mz !== 0
    const vx = mob.mx * slow + mob.kx
    const vz = mob.mz * slow + mob.kz

    // Vertical.
    let vy = mob.vy
    let ny = y + vy
    let landed = false
    if (vy < 0) {
      const x0 = Math.floor(x - hw); const x1 = Math.floor(x + hw - 1e-7)
      const z0 = Math.floor(z - hw); const z1 = Math.floor(z + hw - 1e-7)
      search:
      for (let cy = Math.floor(y + 1e-7) - 1; cy >= Math.floor(ny); cy--) {
        for (let cx = x0; cx <= x1; cx++) {
          for (let cz = z0; cz <= z1; cz++) {
            if (g.cls(cx, cy, cz) & SOLID) { ny = cy + 1; landed = true; break search }
          }
        }
      }
    } else if (vy > 0) {
      if (g.boxSolid(x - hw, y + h, z - hw, x + hw, ny + h, z + hw)) { ny = y; vy = 0 }
    }
    if (!landed && !inWater && ny < y) mob.fall += y - ny
    y = ny

    // Horizontal, one axis at a time.
    let blocked = false
    if (vx !== 0) {
      const nx = x + vx
      if (!g.boxSolid(nx - hw, y, z - hw, nx + hw, y + h, z + hw)) x = nx
      else { blocked = true; mob.kx = 0 }
    }
    if (vz !== 0) {
      const nz = z + vz
      if (!g.boxSolid(x - hw, y, nz - hw, x + hw, y + h, nz + hw)) z = nz
      else { blocked = true; mob.kz = 0 }
    }

    mob.moved = x !== mob.pos.x || y !== mob.pos.y || z !== mob.pos.z
    mob.pos.x = x; mob.pos.y = y; mob.pos.z = z
    mob.onGround = landed

    if (landed) {
      const splash = inWater || (g.cls(Math.floor(x), Math.floor(y), Math.floor(z)) & WATER) // water breaks a fall
      if (mob.fall > SAFE_FALL && !spec.noFallDamage && !splash) this.hurt(mob, Math.ceil(mob.fall - SAFE_FALL - 1e-6), 'fall')
      mob.fall = 0
      vy = 0
    }
    if (inWater || inLava) mob.fall = 0

    // Velocity for the next tick.
    if (inWater || inLava) {
      vy = vy * (inWater ? 0.8 : 0.5) - 0.02
      const bodyCell = g.cls(Math.floor(x), Math.floor(y + Math.min(0.4, spec.eye)), Math.floor(z))
      if (spec.floats && (bodyCell & (WATER | LAVA))) vy += 0.04
    } else {
      vy = (vy - 0.08) * 0.98
      if (spec.noFallDamage && !landed && vy < 0) vy *= 0.6 // chickens flap (Chicken.aiStep)
    }
    if (blocked && wantsMove) {
      if (spec.climbs) vy = Math.max(vy, 0.2)
      else if ((landed || inWater) && this.stepAhead(mob)) vy = inWater ? Math.max(vy, 0.3) : JUMP
    }
    mob.vy = vy
    const friction = landed ? 0.546 : 0.91 // block friction 0.6 × 0.91 on the ground, 0.91 in the air
    mob.kx = Math.abs(mob.kx) < 0.003 ? 0 : mob.kx * friction
    mob.kz = Math.abs(mob.kz) < 0.003 ? 0 : mob.kz * friction
    if (y < -128) this.kill(mob, null, 'out_of_world')
  }

  /** The block ahead of a walking mob is a one-high step it can jump onto (room above it and above the mob). */
  stepAhead (mob) {
    const g = this.grid
    const d = Math.hypot(mob.mx, mob.mz)
    if (d === 0) return false
    const reach = mob.spec.width / 2 + 0.35
    const x = Math.floor(mob.pos.x + mob.mx / d * reach); const z = Math.floor(mob.pos.z + mob.mz / d * reach)
    const y = Math.floor(mob.pos.y + 1e-3)
    if (!(g.cls(x, y, z) & SOLID)) return false
    return g.bodyFits(x, y + 1, z, mob.spec.cells) && !(g.cls(Math.floor(mob.pos.x), y + mob.spec.cells, Math.floor(mob.pos.z)) & SOLID)
  }

  /**
   * Fire and lava: lava hurts 4 (then sets the mob on fire for 15 s), burning hurts 1 a second, water puts fire out.
   * Zombies and skeletons catch fire (8 s) in daylight under open sky (Mob.isSunBurnTick), checked once a second.
   */
  hazards (mob, ctx) {
    const spec = mob.spec
    const g = this.grid
    const hw = spec.width / 2
    const env = g.boxClasses(mob.pos.x - hw, mob.pos.y, mob.pos.z - hw, mob.pos.x + hw, mob.pos.y + spec.height, mob.pos.z + hw)
    if (env & LAVA) {
      mob.fire = Math.max(mob.fire, 300)
      this.hurt(mob, 4, 'lava')
    } else if (env & WATER) mob.fire = 0
    if (spec.burns && !ctx.night && !(env & WATER) && (this.ticks + mob.id) % 20 === 0) {
      const sky = this.world.skyLight(Math.floor(mob.pos.x), Math.floor(mob.pos.y + spec.eye), Math.floor(mob.pos.z))
      if (sky >= DAY_SKY) mob.fire = Math.max(mob.fire, 160)
    }
    if (mob.fire > 0) {
      mob.fire--
      if (mob.fire % 20 === 0 && this.mobs.has(mob.id)) this.hurt(mob, 1, 'on_fire')
    }
    this.setFlag(mob, 'fire', mob.fire > 0)
  }

  /** Tells clients where a mob is if it moved or turned: at most every SEND_EVERY ticks while moving. */
  syncMob (mob, viewers) {
    const s = mob.shown
    const moved = s.x !== mob.pos.x || s.y !== mob.pos.y || s.z !== mob.pos.z || s.onGround !== mob.onGround
    const turned = angle(s.yaw) !== angle(mob.yaw)
    if (!moved && !turned) return
    if (mob.moved && this.ticks - mob.sentAt < SEND_EVERY) return
    mob.sentAt = this.ticks
    mob.shown = { x: mob.pos.x, y: mob.pos.y, z: mob.pos.z, yaw: mob.yaw, onGround: mob.onGround }
    const packet = { entityId: mob.id, x: mob.pos.x, y: mob.pos.y, z: mob.pos.z, dx: 0, dy: 0, dz: 0, yaw: mob.yaw, pitch: 0, onGround: mob.onGround }
    for (const p of viewers) {
      this.world.send(p, 'sync_entity_position', packet)
      if (turned) this.world.send(p, 'entity_head_rotation', { entityId: mob.id, headYaw: angle(mob.yaw) })
    }
  }

  /**
   * Whether a mob is within SIMULATION blocks (across) of some player, virtual or not. Farther mobs stand frozen, as
   * vanilla's do in chunks beyond the simulation distance, so animals left behind by a travelling player cost nothing.
   */
  simulated (mob, players) {
    for (const p of players) {
      const dx = p.pos.x - mob.pos.x; const dz = p.pos.z - mob.pos.z
      if (dx * dx + dz * dz <= SIMULATION * SIMULATION) return true
    }
    return false
  }

  /**
   * Mobs whose boxes overlap push each other apart (Entity.push: 0.05 a tick, less when farther apart), so a group
   * that spawned together or followed the same path spreads out instead of standing inside one another. Unlike
   * vanilla, a push never shoves a mob off its ledge or into water or lava.
   */
  pushApart (mobs) {
    for (let i = 0; i < mobs.length; i++) {
      const a = mobs[i]
      for (let j = i + 1; j < mobs.length; j++) {
        const b = mobs[j]
        const reach = (a.spec.width + b.spec.width) / 2
        let dx = b.pos.x - a.pos.x; let dz = b.pos.z - a.pos.z
        if (Math.abs(dx) >= reach || Math.abs(dz) >= reach) continue
        if (b.pos.y >= a.pos.y + a.spec.height || a.pos.y >= b.pos.y + b.spec.height) continue
        let m = Math.max(Math.abs(dx), Math.abs(dz))
        if (m < 0.01) { const r = this.random() * 2 * Math.PI; dx = Math.cos(r) * 0.01; dz = Math.sin(r) * 0.01; m = 0.01 } // exactly together: any way
        m = Math.sqrt(m)
        const f = Math.min(1, 1 / m) * 0.05 / m
        if (this.firmAhead(a, -dx, -dz)) { a.kx -= dx * f; a.kz -= dz * f }
        if (this.firmAhead(b, dx, dz)) { b.kx += dx * f; b.kz += dz * f }
      }
    }
  }

  /** Level, dry ground (or a wall) just beyond the mob's edge in direction (dx, dz). */
  firmAhead (mob, dx, dz) {
    const g = this.grid
    const d = Math.hypot(dx, dz) || 1
    const reach = mob.spec.width / 2 + 0.3
    const x = Math.floor(mob.pos.x + dx / d * reach); const z = Math.floor(mob.pos.z + dz / d * reach)
    const y = Math.floor(mob.pos.y + 1e-3)
    const feet = g.cls(x, y, z)
    if (feet & SOLID) return true
    return !(feet & (WATER | LAVA)) && (g.cls(x, y - 1, z) & SOLID) !== 0
  }

  tickMob (mob, ctx) {
    if (mob.hurt > 0) mob.hurt--
    mob.mx = 0; mob.mz = 0
    if (mob.spec.hostile) this.hostile(mob, ctx)
    else this.idle(mob, ctx)
    if (!this.mobs.has(mob.id)) return // exploded
    this.physics(mob, ctx)
    if (!this.mobs.has(mob.id)) return
    this.hazards(mob, ctx)
    if (!this.mobs.has(mob.id)) return
    this.syncMob(mob, ctx.viewers)
  }

  // ---- the tick ---------------------------------------------------------------------------------------------

  tick () {
    this.ticks++
    this.grid.clear()
    this.pathBudget = PATH_BUDGET
    const viewers = []
    const everyone = []
    const huntableSet = new Set()
    for (const p of this.world.players()) {
      everyone.push(p)
      if (p.virtual) continue
      viewers.push(p)
      if (huntable(p)) huntableSet.add(p)
    }
    const t = typeof this.world.dayTime === 'function' ? this.world.dayTime() : 6000
    // Night as monsters see it: from about 13 000 to 23 000 the sky is dark enough (sky light counts as 0).
    const ctx = { viewers, huntable: huntableSet, night: t >= 13000 && t < 23000 }
    for (const item of [...this.items.values()]) this.tickItem(item, viewers)
    const awake = []
    for (const mob of this.mobs.values()) if (this.simulated(mob, everyone)) awake.push(mob)
    this.pushApart(awake)
    for (const mob of awake) if (this.mobs.has(mob.id)) this.tickMob(mob, ctx)
    for (const arrow of [...this.arrows.values()]) this.tickArrow(arrow, ctx)
    for (const [id, at] of this.dying) {
      if (this.ticks < at) continue
      this.dying.delete(id)
      this.broadcast('entity_destroy', { entityIds: [id] })
    }
    if (this.world.naturalSpawning) this.spawner.tick(ctx, t)
  }

  // ---- looking ----------------------------------------------------------------------------------------------

  summary (m) {
    return { entityId: m.id, kind: m.kind, health: m.health, x: m.pos.x, y: m.pos.y, z: m.pos.z, target: m.target?.name ?? null }
  }

  /** Every item, mob and arrow: `{ entityId, kind, … , x, y, z }`; mobs have `health` and `target`. */
  list () {
    return [
      ...[...this.items.values()].map((i) => ({ entityId: i.id, kind: 'item', item: i.stack.name, count: i.stack.count, ...i.pos })),
      ...[...this.mobs.values()].map((m) => this.summary(m)),
      ...[...this.arrows.values()].map((a) => ({ entityId: a.id, kind: 'arrow', inGround: a.inGround, ...a.pos }))
    ]
  }

  /** Mobs within `radius` blocks of `pos`, as list() gives them plus `hostile`. */
  mobsNear (pos, radius) {
    const out = []
    for (const m of this.mobs.values()) {
      const dx = m.pos.x - pos.x; const dy = m.pos.y - pos.y; const dz = m.pos.z - pos.z
      if (dx * dx + dy * dy + dz * dz <= radius * radius) out.push({ ...this.summary(m), hostile: m.spec.hostile })
    }
    return out
  }
}

module.exports = { Entities, MOBS }
