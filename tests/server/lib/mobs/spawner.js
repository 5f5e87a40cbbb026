// Natural spawning around connected players, in the manner of vanilla's NaturalSpawner, scaled down to the test
// world: animals on grass in daylight, monsters in the dark, never within 24 blocks of a player, in groups, under
// small caps; monsters despawn far from players (Mob.checkDespawn).
'use strict'

const { MOBS, PASSIVE_WEIGHTS, HOSTILE_WEIGHTS } = require('./kinds')
const { SOLID } = require('./grid')

const NEAREST = 24 // no mob spawns closer than this to any player (NaturalSpawner.isRightDistanceToPlayerAndSpawnPoint)
const FARTHEST = 48 // spawn attempts pick spots 24..48 blocks from a player
const GROUP = 4 // plains spawn groups are 4 of a kind
const PASSIVE_CAP = 10 // animals within 64 blocks of a player
const HOSTILE_CAP = 15 // monsters within 128 blocks of a player (vanilla's cap is 70 per 17×17 chunks)
const DESPAWN_FAR = 128 // beyond this from every player a monster is removed at once
const DESPAWN_NEAR = 32 // beyond this it may be, 1 chance in 800 a tick

function pick (weights, random) {
  let total = 0
  for (const [, w] of weights) total += w
  let r = random() * total
  for (const [kind, w] of weights) { r -= w; if (r < 0) return kind }
  return weights[weights.length - 1][0]
}

class Spawner {
  constructor (entities) {
    this.entities = entities
  }

  get world () { return this.entities.world }
  get random () { return this.entities.random }

  /** Runs from Entities#tick while world.naturalSpawning is on; `time` is the day time. */
  tick (ctx, time) {
    const t = this.entities.ticks
    const spawners = []
    for (const p of ctx.viewers) if (!p.dead) spawners.push(p)
    // Animals: an attempt per player every second (vanilla spawns most animals with the chunk, so they should be
    // there soon after a player arrives). Monsters: an attempt per player 4 times a second.
    if (t % 20 === 0) for (const p of spawners) this.passive(p, ctx)
    if (t % 5 === 0) for (const p of spawners) this.hostile(p, ctx)
    if (t % 20 === 10) this.despawn(spawners)
  }

  /** Every player, virtual ones too, is kept 24 blocks clear of new mobs. */
  farFromPlayers (x, y, z) {
    for (const p of this.world.players()) {
      const dx = p.pos.x - x; const dy = p.pos.y - y; const dz = p.pos.z - z
      if (dx * dx + dy * dy + dz * dz < NEAREST * NEAREST) return false
    }
    return true
  }

  /** A random column 24..48 blocks across from a player. */
  around (p) {
    const a = this.random() * 2 * Math.PI
    const r = NEAREST + this.random() * (FARTHEST - NEAREST)
    return { x: Math.floor(p.pos.x + Math.cos(a) * r), z: Math.floor(p.pos.z + Math.sin(a) * r) }
  }

  count (p, hostile, radius) {
    let n = 0
    for (const m of this.entities.mobs.values()) {
      if (m.spec.hostile !== hostile) continue
      const dx = m.pos.x - p.pos.x; const dz = m.pos.z - p.pos.z
      const dy = hostile ? m.pos.y - p.pos.y : 0
      if (dx * dx + dy * dy + dz * dz <= radius * radius) n++
    }
    return n
  }

  /**
   * Animals (Animal.checkAnimalSpawnRules): on a grass block under open sky (light above 8) in daylight, a group of
   * one kind by the plains weights; they never despawn.
   */
  passive (p, ctx) {
    if (ctx.night) return
    const room = PASSIVE_CAP - this.count(p, false, 64)
    if (room <= 0) return
    const { x, z } = this.around(p)
    const kind = pick(PASSIVE_WEIGHTS, this.random)
    let placed = 0
    for (let i = 0; i < GROUP * 2 && placed < Math.min(GROUP, room); i++) {
      const at = i === 0 ? { x, z } : { x: x + Math.floor(this.random() * 7) - 3, z: z + Math.floor(this.random() * 7) - 3 }
      const y = this.world.heightAt(at.x, at.z)
      if (this.world.blockAt(at.x, y, at.z)?.name !== 'grass_block') { if (i === 0) return; continue }
      if (!this.entities.grid.standable(at.x, y + 1, at.z, MOBS[kind].cells, false)) continue
      if (this.world.skyLight(at.x, y + 1, at.z) <= 8) continue
      if (!this.farFromPlayers(at.x + 0.5, y + 1, at.z + 0.5)) continue
      this.entities.spawnMob(kind, { x: at.x + 0.5, y: y + 1, z: at.z + 0.5 }, { wander: true, persistent: true })
      placed++
    }
  }

  /**
   * Whether monsters may spawn in cell (x, y, z): sky light, as the time of day scales it, is 0 (the test world
   * has no block light). World.skyLight is 0 everywhere below the top block of a column, so in daytime a cell
   * must also be out of reach of open sky 3 blocks away, as light spreading sideways would reach it (under a tree
   * or an overhang there is light; in a cave there is none).
   */
  dark (x, y, z, ctx) {
    if (ctx.night) return true
    const w = this.world
    if (w.skyLight(x, y, z) > 0) return false
    return w.skyLight(x + 3, y, z) === 0 && w.skyLight(x - 3, y, z) === 0 && w.skyLight(x, y, z + 3) === 0 && w.skyLight(x, y, z - 3) === 0
  }

  /**
   * Monsters (Monster.checkMonsterSpawnRules): a spot 24..48 blocks away, on the surface or at a random height
   * between 32 below the player and the surface, the first cell there or below with a solid floor and two open
   * cells, in the dark; a group of up to 4 of one kind around it.
   */
  hostile (p, ctx) {
    const room = HOSTILE_CAP - this.count(p, true, 128)
    if (room <= 0) return
    const g = this.entities.grid
    const { x, z } = this.around(p)
    const top = this.world.heightAt(x, z)
    // Vanilla tries every loaded chunk each tick at a random height, so the surface gets its share although most
    // heights are underground; with a few attempts a second, half of them go to the surface instead.
    const low = Math.floor(p.pos.y) - 32
    const start = top + 1 <= low || this.random() < 0.5 ? top + 1 : low + Math.floor(this.random() * (top + 1 - low))
    let y = null
    for (let cy = start; cy >= start - 16; cy--) if (g.standable(x, cy, z, 2, false)) { y = cy; break }
    if (y === null || !this.dark(x, y, z, ctx)) return
    const kind = pick(HOSTILE_WEIGHTS, this.random)
    const spec = MOBS[kind]
    let placed = 0
    for (let i = 0; i < GROUP * 2 && placed < Math.min(GROUP, room); i++) {
      const at = i === 0 ? { x, y, z } : { x: x + Math.floor(this.random() * 7) - 3, y: y + Math.floor(this.random() * 3) - 1, z: z + Math.floor(this.random() * 7) - 3 }
      if (!g.standable(at.x, at.y, at.z, spec.cells, false) || !this.dark(at.x, at.y, at.z, ctx)) continue
      if (spec.width > 1 && !this.roomy(at)) continue
      if (!this.farFromPlayers(at.x + 0.5, at.y, at.z + 0.5)) continue
      this.entities.spawnMob(kind, { x: at.x + 0.5, y: at.y, z: at.z + 0.5 }, { wander: true, persistent: false })
      placed++
    }
  }

  /** A spider (1.4 wide) needs the cells around its feet open too. */
  roomy ({ x, y, z }) {
    const g = this.entities.grid
    for (let dx = -1; dx <= 1; dx++) for (let dz = -1; dz <= 1; dz++) if (g.cls(x + dx, y, z + dz) & SOLID) return false
    return true
  }

  /**
   * Mob.checkDespawn for monsters that spawned by themselves: gone at once beyond 128 blocks of every player,
   * beyond 32 with 1 chance in 800 a tick (checked here once a second, so 1 in 40).
   */
  despawn (players) {
    for (const m of [...this.entities.mobs.values()]) {
      if (m.persistent) continue
      let nearest = Infinity
      for (const p of players) {
        const dx = p.pos.x - m.pos.x; const dy = p.pos.y - m.pos.y; const dz = p.pos.z - m.pos.z
        nearest = Math.min(nearest, dx * dx + dy * dy + dz * dz)
      }
      if (nearest > DESPAWN_FAR * DESPAWN_FAR || (nearest > DESPAWN_NEAR * DESPAWN_NEAR && this.random() < 1 / 40)) this.entities.removeMob(m)
    }
  }
}

module.exports = { Spawner }
