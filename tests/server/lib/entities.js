// Non-player entities of the test world: dropped items (picked up by players who walk over them) and mobs
// (pigs and zombies with health, damage, death and drops). Mobs stand where they are put; zombies walk toward
// the nearest player, as far as flat ground needs.
'use strict'

const crypto = require('node:crypto')
const mcData = require('minecraft-data')('26.1')
const { toSlot } = require('./inventory')

const ITEM_TYPE = mcData.entitiesByName.item.id
const PICKUP_DELAY_MS = 500 // vanilla: 10 ticks
const ITEM_DESPAWN_MS = 5 * 60 * 1000

/** Mob kinds the world knows: health, drops (deterministic counts), walking speed in blocks/s. */
const MOBS = {
  pig: { health: 10, drops: [['porkchop', 2]], speed: 0 },
  cow: { health: 10, drops: [['beef', 2], ['leather', 1]], speed: 0 },
  sheep: { health: 8, drops: [['mutton', 1], ['white_wool', 1]], speed: 0 },
  chicken: { health: 4, drops: [['chicken', 1], ['feather', 1]], speed: 0 },
  zombie: { health: 20, drops: [['rotten_flesh', 1]], speed: 1.5 }
}

/** Attack damage by held item (vanilla base values); anything else hits like a fist. */
const DAMAGE = {
  wooden_sword: 4, golden_sword: 4, stone_sword: 5, copper_sword: 5, iron_sword: 6, diamond_sword: 7, netherite_sword: 8,
  wooden_axe: 7, golden_axe: 7, stone_axe: 9, copper_axe: 9, iron_axe: 9, diamond_axe: 9, netherite_axe: 10,
  wooden_pickaxe: 2, golden_pickaxe: 2, stone_pickaxe: 3, copper_pickaxe: 3, iron_pickaxe: 4, diamond_pickaxe: 5,
  wooden_shovel: 2.5, stone_shovel: 3.5, iron_shovel: 4.5, diamond_shovel: 5.5
}

function uuid () { return crypto.randomUUID() }

class Entities {
  /** `world` gives: players() (iterable of Player), send(p, name, params), nextEntityId(), give(p, stack) -> rest, emit(event). */
  constructor (world) {
    this.world = world
    this.items = new Map() // entityId -> { id, uuid, pos, stack, born }
    this.mobs = new Map() // entityId -> { id, uuid, kind, pos, health }
    this.timer = setInterval(() => this.tick(), 50)
    this.timer.unref()
  }

  broadcast (name, params) { for (const p of this.world.players()) this.world.send(p, name, params) }

  dropItem (stack, pos) {
    const id = this.world.nextEntityId()
    const item = { id, uuid: uuid(), pos: { ...pos }, stack, born: Date.now() }
    this.items.set(id, item)
    for (const p of this.world.players()) this.showItem(p, item)
    return id
  }

  showItem (p, item) {
    this.world.send(p, 'spawn_entity', {
      entityId: item.id, objectUUID: item.uuid, type: ITEM_TYPE, x: item.pos.x, y: item.pos.y, z: item.pos.z,
      velocity: { x: 0, y: 0, z: 0 }, pitch: 0, yaw: 0, headPitch: 0, objectData: 1
    })
    this.world.send(p, 'entity_metadata', { entityId: item.id, metadata: [{ key: 8, type: 'item_stack', value: toSlot(item.stack) }] })
  }

  spawnMob (kind, pos) {
    const spec = MOBS[kind]
    if (!spec) throw new Error(`unknown mob ${JSON.stringify(kind)}; known: ${Object.keys(MOBS).join(', ')}`)
    const id = this.world.nextEntityId()
    const mob = { id, uuid: uuid(), kind, pos: { ...pos }, health: spec.health, yaw: 0 }
    this.mobs.set(id, mob)
    for (const p of this.world.players()) this.showMob(p, mob)
    return id
  }

  showMob (p, mob) {
    this.world.send(p, 'spawn_entity', {
      entityId: mob.id, objectUUID: mob.uuid, type: mcData.entitiesByName[mob.kind].id, x: mob.pos.x, y: mob.pos.y, z: mob.pos.z,
      velocity: { x: 0, y: 0, z: 0 }, pitch: 0, yaw: 0, headPitch: 0, objectData: 0
    })
    this.world.send(p, 'entity_metadata', { entityId: mob.id, metadata: [{ key: 9, type: 'float', value: mob.health }] })
  }

  /** Sends everything that exists to a player who just joined. */
  showAll (p) {
    for (const item of this.items.values()) this.showItem(p, item)
    for (const mob of this.mobs.values()) this.showMob(p, mob)
  }

  /** A player hits an entity with the item they hold. Returns false if there is no such mob. */
  attack (p, entityId, held) {
    const mob = this.mobs.get(entityId)
    if (!mob) return false
    const dx = mob.pos.x - p.pos.x; const dz = mob.pos.z - p.pos.z; const dy = mob.pos.y - p.pos.y
    if (dx * dx + dy * dy + dz * dz > 6 * 6) return true // out of reach: ignored, as vanilla does
    const now = Date.now()
    if (mob.hurtUntil && now < mob.hurtUntil) return true // invulnerable for 10 ticks after a hit
    mob.hurtUntil = now + 500
    mob.health -= DAMAGE[held?.name] ?? 1
    this.broadcast('damage_event', { entityId: mob.id, sourceTypeId: 0, sourceCauseId: p.entityId + 1, sourceDirectId: p.entityId + 1 })
    this.broadcast('entity_metadata', { entityId: mob.id, metadata: [{ key: 9, type: 'float', value: Math.max(0, mob.health) }] })
    if (mob.health <= 0) this.kill(mob, p)
    return true
  }

  kill (mob, killer) {
    this.mobs.delete(mob.id)
    this.broadcast('entity_status', { entityId: mob.id, entityStatus: 3 })
    setTimeout(() => this.broadcast('entity_destroy', { entityIds: [mob.id] }), 1000).unref()
    for (const [name, count] of MOBS[mob.kind].drops) this.dropItem({ name, count }, { ...mob.pos })
    this.world.emit({ event: 'mobKilled', kind: mob.kind, entityId: mob.id, by: killer?.name ?? null })
  }

  tick () {
    const now = Date.now()
    for (const item of this.items.values()) {
      if (now - item.born > ITEM_DESPAWN_MS) { this.items.delete(item.id); this.broadcast('entity_destroy', { entityIds: [item.id] }); continue }
      if (now - item.born < PICKUP_DELAY_MS) continue
      for (const p of this.world.players()) {
        if (p.virtual) continue
        const dx = Math.abs(p.pos.x - item.pos.x); const dz = Math.abs(p.pos.z - item.pos.z); const dy = item.pos.y - p.pos.y
        if (dx > 1.3 || dz > 1.3 || dy < -0.8 || dy > 2.3) continue
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
    for (const mob of this.mobs.values()) this.walk(mob)
  }

  /** Zombies walk toward the nearest real player within 16 blocks (flat ground: y stays). */
  walk (mob) {
    const speed = MOBS[mob.kind].speed
    if (!speed) return
    let target = null; let best = 16
    for (const p of this.world.players()) {
      const d = Math.hypot(p.pos.x - mob.pos.x, p.pos.z - mob.pos.z)
      if (!p.virtual && d < best) { best = d; target = p }
    }
    if (!target || best < 1.2) return
    const step = speed / 20
    mob.pos.x += (target.pos.x - mob.pos.x) / best * step
    mob.pos.z += (target.pos.z - mob.pos.z) / best * step
    mob.yaw = Math.atan2(-(target.pos.x - mob.pos.x), target.pos.z - mob.pos.z) * 180 / Math.PI
    this.broadcast('sync_entity_position', { entityId: mob.id, x: mob.pos.x, y: mob.pos.y, z: mob.pos.z, dx: 0, dy: 0, dz: 0, yaw: mob.yaw, pitch: 0, onGround: true })
  }

  list () {
    return [
      ...[...this.items.values()].map((i) => ({ entityId: i.id, kind: 'item', item: i.stack.name, count: i.stack.count, ...i.pos })),
      ...[...this.mobs.values()].map((m) => ({ entityId: m.id, kind: m.kind, health: m.health, ...m.pos }))
    ]
  }
}

module.exports = { Entities, MOBS }
