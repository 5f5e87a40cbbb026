// Explosions (a creeper's), as vanilla's ServerExplosion computes them: which blocks break, how much each nearby
// player and mob is hurt and pushed, the blocks' drops, and the packet and event that tell of it.
'use strict'

const mcData = require('minecraft-data')('26.1')

const AIR = new Set(['air', 'cave_air', 'void_air'])
// Never broken, whatever the power: bedrock-like blocks (hardness -1) are caught by the hardness test; these are
// the ones an explosion of power 3 could otherwise reach.
const UNBREAKABLE = new Set(['obsidian', 'crying_obsidian', 'water', 'lava', 'bubble_column'])
const PLAYER_WIDTH = 0.6
const PLAYER_HEIGHT = 1.8
const { EYE_HEIGHT: PLAYER_EYE } = require('../survival')
const EXPLODE_SOUND = mcData.soundsByName['entity.generic.explode'].id

/**
 * Blocks an explosion of `power` at `c` destroys (ServerExplosion.calculateExplodedPositions): 1352 rays from the
 * centre through the surface of a 16×16×16 grid, each starting with power × (0.7..1.3) and, every 0.3 blocks,
 * losing 0.225 plus (resistance + 0.3) × 0.3 for the block there; a block breaks if a ray still has strength in it.
 * Water and lava (resistance 100) stop the rays, which is how water shields what is behind it.
 */
function explodedBlocks (world, c, power, random) {
  const seen = new Map() // "x,y,z" -> block, so each block is fetched once
  const at = (x, y, z) => {
    const k = `${x},${y},${z}`
    let b = seen.get(k)
    if (b === undefined) { b = world.blockAt(x, y, z) ?? null; seen.set(k, b) }
    return b
  }
  const out = new Map()
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      for (let k = 0; k < 16; k++) {
        if (i !== 0 && i !== 15 && j !== 0 && j !== 15 && k !== 0 && k !== 15) continue
        let dx = i / 15 * 2 - 1; let dy = j / 15 * 2 - 1; let dz = k / 15 * 2 - 1
        const len = Math.hypot(dx, dy, dz)
        dx /= len; dy /= len; dz /= len
        let f = power * (0.7 + random() * 0.6)
        let x = c.x; let y = c.y; let z = c.z
        for (; f > 0; f -= 0.22500001) {
          const bx = Math.floor(x); const by = Math.floor(y); const bz = Math.floor(z)
          const block = at(bx, by, bz)
          if (block && !AIR.has(block.name)) f -= ((block.resistance ?? 0) + 0.3) * 0.3
          if (f > 0 && block && !AIR.has(block.name) && !UNBREAKABLE.has(block.name) && block.hardness !== null && block.hardness >= 0) {
            out.set(`${bx},${by},${bz}`, { x: bx, y: by, z: bz, block })
          }
          x += dx * 0.3; y += dy * 0.3; z += dz * 0.3
        }
      }
    }
  }
  return [...out.values()]
}

/**
 * The share of a box an explosion at `c` can see (ServerExplosion.getSeenPercent): rays to the centre from a grid
 * of points over the box, counting those no solid block stops.
 */
function seenPercent (grid, c, x0, y0, z0, x1, y1, z1) {
  const sx = 1 / ((x1 - x0) * 2 + 1); const sy = 1 / ((y1 - y0) * 2 + 1); const sz = 1 / ((z1 - z0) * 2 + 1)
  const ox = (1 - Math.floor(1 / sx) * sx) / 2; const oz = (1 - Math.floor(1 / sz) * sz) / 2
  let clear = 0; let all = 0
  for (let a = 0; a <= 1; a += sx) {
    for (let b = 0; b <= 1; b += sy) {
      for (let d = 0; d <= 1; d += sz) {
        const px = x0 + (x1 - x0) * a + ox; const py = y0 + (y1 - y0) * b; const pz = z0 + (z1 - z0) * d + oz
        if (grid.raycast(px, py, pz, c.x, c.y, c.z) === null) clear++
        all++
      }
    }
  }
  return all ? clear / all : 0
}

/**
 * How hard an explosion hits something (ServerExplosion.hurtEntities): within 2 × power blocks, exposure
 * k = (1 - distance / (2 × power)) × seen share; damage (k² + k) / 2 × 7 × 2 × power + 1 (43 at the centre of a
 * power-3 blast, nothing beyond 6 blocks), and a push of k away from the centre (toward the eyes).
 */
function impact (grid, c, power, pos, width, height, eye) {
  const reach = power * 2
  const dx = pos.x - c.x; const dy = pos.y - c.y; const dz = pos.z - c.z
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz) / reach
  if (dist > 1) return null
  const ex = pos.x - c.x; const ey = pos.y + eye - c.y; const ez = pos.z - c.z
  const len = Math.hypot(ex, ey, ez)
  if (len === 0) return null
  const seen = seenPercent(grid, c, pos.x - width / 2, pos.y, pos.z - width / 2, pos.x + width / 2, pos.y + height, pos.z + width / 2)
  const k = (1 - dist) * seen
  return { damage: Math.floor((k * k + k) / 2 * 7 * reach + 1), push: { x: ex / len * k, y: ey / len * k, z: ez / len * k }, k }
}

/**
 * Explodes at `c` with `power`, caused by `source` (the creeper, for damage messages): hurts and pushes huntable
 * players (through world.damagePlayer) and mobs, breaks blocks, drops a third of them as items (a mob's explosion
 * drops each block with chance 1 / power, the loot tables' explosion_decay), sends the `explosion` packet to
 * players within 64 blocks and emits `{event: 'explosion', x, y, z, broken, by}`. Returns the blocks broken.
 */
function explode (entities, c, power, source) {
  const { world, grid } = entities
  const random = entities.random
  const blocks = explodedBlocks(world, c, power, random)

  // Damage first, with the blocks still standing (vanilla hurts entities before it removes blocks).
  for (const p of world.players()) {
    if (p.virtual || p.dead || !(p.gameMode === undefined || p.gameMode === 'survival' || p.gameMode === 'adventure')) continue
    const hit = impact(grid, c, power, p.pos, PLAYER_WIDTH, PLAYER_HEIGHT, PLAYER_EYE)
    if (!hit || hit.k <= 0) continue
    world.damagePlayer(p, hit.damage, { type: 'explosion', attacker: source, knockback: hit.push })
  }
  for (const mob of [...entities.mobs.values()]) {
    const hit = impact(grid, c, power, mob.pos, mob.spec.width, mob.spec.height, mob.spec.eye)
    if (!hit || hit.k <= 0) continue
    mob.kx += hit.push.x; mob.kz += hit.push.z; mob.vy += hit.push.y
    entities.hurt(mob, hit.damage, 'explosion')
  }

  if (blocks.length) {
    const air = world.stateOf('air')
    world.setBlocks(blocks.map(({ x, y, z }) => ({ x, y, z, state: air })))
    grid.clear()
    for (const { x, y, z, block } of blocks) {
      if (random() >= 1 / power) continue
      const drop = block.drops?.[0]
      const id = typeof drop === 'object' ? drop?.drop?.id ?? drop?.id : drop
      const name = id != null ? mcData.items[id]?.name : null
      if (name) entities.dropItem({ name, count: 1 }, { x: x + 0.5, y: y + 0.25, z: z + 0.5 })
    }
  }

  for (const p of world.players()) {
    if (p.virtual) continue
    const dx = p.pos.x - c.x; const dy = p.pos.y - c.y; const dz = p.pos.z - c.z
    if (dx * dx + dy * dy + dz * dz > 64 * 64) continue
    world.send(p, 'explosion', {
      center: { x: c.x, y: c.y, z: c.z },
      radius: power,
      blockCount: blocks.length,
      playerKnockback: undefined, // the push comes with the damage (world.damagePlayer's knockback)
      explosionParticle: { type: power >= 2 && blocks.length ? 'explosion_emitter' : 'explosion' },
      sound: { soundId: EXPLODE_SOUND },
      blockParticles: [
        { data: { particle: { type: 'poof' }, scaling: 0.5, speed: 1 }, weight: 1 },
        { data: { particle: { type: 'smoke' }, scaling: 1, speed: 1 }, weight: 1 }
      ]
    })
  }
  world.emit({ event: 'explosion', x: c.x, y: c.y, z: c.z, broken: blocks.length, by: source?.kind ?? null })
  return blocks
}

module.exports = { explode, explodedBlocks, seenPercent, impact }
