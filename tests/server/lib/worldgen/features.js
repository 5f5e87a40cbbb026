// What the natural terrain places on and in its ground: ore veins (vanilla's ore placements), trees and ground
// cover, and the integer hash the generator uses for per-block choices.
'use strict'

const { S } = require('./blocks')

/**
 * A 32-bit hash of (seed, x, z, salt), murmur3's finaliser between inputs: per-block and per-column choices
 * (rough bedrock, flowers, tree cells) without a stateful random stream, so they are the same whichever chunk asks.
 */
function hash (seed, x, z, salt) {
  let h = (seed ^ Math.imul(salt, 0x9e3779b1)) | 0
  h = Math.imul(h ^ x, 0x85ebca6b); h ^= h >>> 13
  h = Math.imul(h ^ z, 0xc2b2ae35); h ^= h >>> 16
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d); h ^= h >>> 12
  h = Math.imul(h ^ (h >>> 13), 0x297a2d39)
  return (h ^ (h >>> 15)) >>> 0
}

/** A hash as a float in [0, 1). */
function unit (seed, x, z, salt) { return hash(seed, x, z, salt) / 4294967296 }

/** mulberry32: a small seeded stream for one tree's shape. */
function stream (seed) {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ---- ores ------------------------------------------------------------------------------------------------------

/**
 * Ore veins per chunk, vanilla 1.18+'s numbers: data/minecraft/worldgen/placed_feature/ore_*.json (OrePlacements)
 * for count, height distribution and rarity, and configured_feature/ore_*.json (OreFeatures) for vein size and
 * discard_chance_on_air_exposure. "uniform" is an even y in [min, max]; "trapezoid" (plateau 0) the sum of two even
 * halves, peaking mid-range; ranges reach outside the world as vanilla's do (-144..16 for diamond: bottom-80 to
 * bottom+80), so part of the attempts miss. `rarity` N: one attempt in N chunks. `count` [a, b]: a to b attempts.
 * Each vein replaces stone with `stone` and deepslate with `deepslate` (the deepslate_* ore) and nothing else.
 */
const ORES = [
  { name: 'ore_coal_upper', stone: S.coal_ore, deepslate: S.deepslate_coal_ore, count: 30, shape: 'uniform', min: 136, max: 319, size: 17, discard: 0 },
  { name: 'ore_coal_lower', stone: S.coal_ore, deepslate: S.deepslate_coal_ore, count: 20, shape: 'trapezoid', min: 0, max: 192, size: 17, discard: 0.5 },
  { name: 'ore_iron_upper', stone: S.iron_ore, deepslate: S.deepslate_iron_ore, count: 90, shape: 'trapezoid', min: 80, max: 384, size: 9, discard: 0 },
  { name: 'ore_iron_middle', stone: S.iron_ore, deepslate: S.deepslate_iron_ore, count: 10, shape: 'trapezoid', min: -24, max: 56, size: 9, discard: 0 },
  { name: 'ore_iron_small', stone: S.iron_ore, deepslate: S.deepslate_iron_ore, count: 10, shape: 'uniform', min: -64, max: 72, size: 4, discard: 0 },
  { name: 'ore_copper', stone: S.copper_ore, deepslate: S.deepslate_copper_ore, count: 16, shape: 'trapezoid', min: -16, max: 112, size: 10, discard: 0 },
  { name: 'ore_gold', stone: S.gold_ore, deepslate: S.deepslate_gold_ore, count: 4, shape: 'trapezoid', min: -64, max: 32, size: 9, discard: 0.5 },
  { name: 'ore_gold_lower', stone: S.gold_ore, deepslate: S.deepslate_gold_ore, count: [0, 1], shape: 'uniform', min: -64, max: -48, size: 9, discard: 0.5 },
  { name: 'ore_redstone', stone: S.redstone_ore, deepslate: S.deepslate_redstone_ore, count: 4, shape: 'uniform', min: -64, max: 15, size: 8, discard: 0 },
  { name: 'ore_redstone_lower', stone: S.redstone_ore, deepslate: S.deepslate_redstone_ore, count: 8, shape: 'trapezoid', min: -96, max: -32, size: 8, discard: 0 },
  { name: 'ore_lapis', stone: S.lapis_ore, deepslate: S.deepslate_lapis_ore, count: 2, shape: 'trapezoid', min: -32, max: 32, size: 7, discard: 0 },
  { name: 'ore_lapis_buried', stone: S.lapis_ore, deepslate: S.deepslate_lapis_ore, count: 4, shape: 'uniform', min: -64, max: 64, size: 7, discard: 1 },
  { name: 'ore_diamond', stone: S.diamond_ore, deepslate: S.deepslate_diamond_ore, count: 7, shape: 'trapezoid', min: -144, max: 16, size: 4, discard: 0.5 },
  { name: 'ore_diamond_medium', stone: S.diamond_ore, deepslate: S.deepslate_diamond_ore, count: 2, shape: 'uniform', min: -64, max: -4, size: 8, discard: 0.5 },
  { name: 'ore_diamond_large', stone: S.diamond_ore, deepslate: S.deepslate_diamond_ore, rarity: 9, shape: 'trapezoid', min: -144, max: 16, size: 12, discard: 0.7 },
  { name: 'ore_diamond_buried', stone: S.diamond_ore, deepslate: S.deepslate_diamond_ore, count: 4, shape: 'trapezoid', min: -144, max: 16, size: 8, discard: 1 },
  { name: 'ore_gravel', stone: S.gravel, deepslate: S.gravel, count: 14, shape: 'uniform', min: -64, max: 319, size: 33, discard: 0 },
  { name: 'ore_dirt', stone: S.dirt, deepslate: S.dirt, count: 7, shape: 'uniform', min: 0, max: 160, size: 33, discard: 0 },
  { name: 'ore_granite_upper', stone: S.granite, deepslate: S.granite, rarity: 6, shape: 'uniform', min: 64, max: 128, size: 64, discard: 0 },
  { name: 'ore_granite_lower', stone: S.granite, deepslate: S.granite, count: 2, shape: 'uniform', min: 0, max: 60, size: 64, discard: 0 },
  { name: 'ore_diorite_upper', stone: S.diorite, deepslate: S.diorite, rarity: 6, shape: 'uniform', min: 64, max: 128, size: 64, discard: 0 },
  { name: 'ore_diorite_lower', stone: S.diorite, deepslate: S.diorite, count: 2, shape: 'uniform', min: 0, max: 60, size: 64, discard: 0 },
  { name: 'ore_andesite_upper', stone: S.andesite, deepslate: S.andesite, rarity: 6, shape: 'uniform', min: 64, max: 128, size: 64, discard: 0 },
  { name: 'ore_andesite_lower', stone: S.andesite, deepslate: S.andesite, count: 2, shape: 'uniform', min: 0, max: 60, size: 64, discard: 0 },
  { name: 'ore_tuff', stone: S.tuff, deepslate: S.tuff, count: 2, shape: 'uniform', min: -64, max: 0, size: 64, discard: 0 }
]

// One object shape for every entry (count, rarity and all), so the placement loop's property reads stay monomorphic.
for (let i = 0; i < ORES.length; i++) {
  const o = ORES[i]
  const [countLo, countHi] = o.rarity ? [0, 0] : Array.isArray(o.count) ? o.count : [o.count, o.count]
  ORES[i] = { name: o.name, stone: o.stone, deepslate: o.deepslate, countLo, countHi, rarity: o.rarity || 0, trapezoid: o.shape === 'trapezoid', min: o.min, max: o.max, size: o.size, discard: o.discard }
}

function intBetween (random, lo, hi) { return lo + Math.floor(random() * (hi - lo + 1)) }

function veinY (random, ore) {
  if (!ore.trapezoid) return intBetween(random, ore.min, ore.max)
  const range = ore.max - ore.min
  const half = range >> 1
  return ore.min + intBetween(random, 0, range - half) + intBetween(random, 0, half)
}

/**
 * Places the chunk's ore veins into `blocks` (the generator's 16 × 384 × 16 scratch, index
 * ((y - MIN_Y) << 8) | (z << 4) | x). Veins follow vanilla's OreFeature: a segment of length size / 8 at a random
 * angle, with a sphere every step whose radius swells in the middle; blocks outside the chunk are dropped. `top` is
 * the highest y holding stone, so veins wholly above the ground cost nothing.
 */
function placeOres (blocks, random, minY, top) {
  for (const ore of ORES) {
    let count = ore.countLo === ore.countHi ? ore.countLo : intBetween(random, ore.countLo, ore.countHi)
    if (ore.rarity) count = random() * ore.rarity < 1 ? 1 : 0
    for (let n = 0; n < count; n++) {
      const x = Math.floor(random() * 16); const z = Math.floor(random() * 16)
      const y = veinY(random, ore)
      if (y - 4 > top || y + 4 < minY) continue
      vein(blocks, random, minY, top, x, y, z, ore)
    }
  }
}

const STONE = S.stone; const DEEPSLATE = S.deepslate
const SPHERES = { x: new Float64Array(64), y: new Float64Array(64), z: new Float64Array(64), r: new Float64Array(64) }

function vein (blocks, random, minY, top, x, y, z, ore) {
  const size = ore.size; const onStone = ore.stone; const onDeepslate = ore.deepslate; const discard = ore.discard
  const angle = random() * Math.PI
  const spread = size / 8
  const x0 = x + 0.5 + Math.sin(angle) * spread; const x1 = x + 0.5 - Math.sin(angle) * spread
  const z0 = z + 0.5 + Math.cos(angle) * spread; const z1 = z + 0.5 - Math.cos(angle) * spread
  const y0 = y + 0.5 + intBetween(random, 0, 2) - 2; const y1 = y + 0.5 + intBetween(random, 0, 2) - 2
  const { x: sx, y: sy, z: sz, r: sr } = SPHERES
  for (let step = 0; step < size; step++) {
    const t = step / size
    sx[step] = x0 + (x1 - x0) * t; sy[step] = y0 + (y1 - y0) * t; sz[step] = z0 + (z1 - z0) * t
    sr[step] = (((Math.sin(Math.PI * t) + 1) * random() * size / 16) + 1) / 2
  }
  // As vanilla does, drop spheres wholly inside another: neighbours overlap so much that this skips most of them.
  for (let i = 0; i < size; i++) {
    if (sr[i] < 0) continue
    for (let j = i + 1; j < size; j++) {
      if (sr[j] < 0) continue
      const dx = sx[i] - sx[j]; const dy = sy[i] - sy[j]; const dz = sz[i] - sz[j]
      const d2 = dx * dx + dy * dy + dz * dz
      const dr = sr[i] - sr[j]
      if (d2 < dr * dr) {
        if (dr > 0) sr[j] = -1
        else { sr[i] = -1; break }
      }
    }
  }
  for (let step = 0; step < size; step++) {
    const r = sr[step]
    if (r < 0) continue
    const cx = sx[step]; const cy = sy[step]; const cz = sz[step]
    const r2 = r * r
    const xa = Math.max(0, Math.floor(cx - r)); const xb = Math.min(15, Math.floor(cx + r))
    const za = Math.max(0, Math.floor(cz - r)); const zb = Math.min(15, Math.floor(cz + r))
    const ya = Math.max(minY, Math.floor(cy - r)); const yb = Math.min(top, Math.floor(cy + r))
    for (let by = ya; by <= yb; by++) {
      const dy = by + 0.5 - cy
      for (let bz = za; bz <= zb; bz++) {
        const dz = bz + 0.5 - cz
        const rest = r2 - dy * dy - dz * dz
        if (rest <= 0) continue
        // The row's blocks inside the sphere: (bx + 0.5 - cx)² < rest.
        const half = Math.sqrt(rest)
        const bxa = Math.max(xa, Math.floor(cx - half - 0.5) + 1); const bxb = Math.min(xb, Math.ceil(cx + half - 0.5) - 1)
        const row = ((by - minY) << 8) | (bz << 4)
        for (let bx = bxa; bx <= bxb; bx++) {
          const i = row | bx
          const s = blocks[i]
          let to
          if (s === STONE) to = onStone
          else if (s === DEEPSLATE) to = onDeepslate
          else continue
          if (discard > 0 && exposed(blocks, bx, by - minY, bz) && (discard >= 1 || random() < discard)) continue
          blocks[i] = to
        }
      }
    }
  }
}

/** Whether a block of the scratch touches air (outside the chunk counts as not air). */
function exposed (blocks, x, dy, z) {
  const i = (dy << 8) | (z << 4) | x
  return (x > 0 && blocks[i - 1] === 0) || (x < 15 && blocks[i + 1] === 0) ||
    (z > 0 && blocks[i - 16] === 0) || (z < 15 && blocks[i + 16] === 0) ||
    (dy > 0 && blocks[i - 256] === 0) || blocks[i + 256] === 0
}

// ---- trees -----------------------------------------------------------------------------------------------------

const TREE_CELL = 4 // at most one tree per 4 × 4 columns, at a hashed spot in it

const OAK = 1; const BIRCH = 2; const SPRUCE = 3
const TREE_BLOCKS = {
  [OAK]: { log: S.oak_log, leaves: S.oak_leaves },
  [BIRCH]: { log: S.birch_log, leaves: S.birch_leaves },
  [SPRUCE]: { log: S.spruce_log, leaves: S.spruce_leaves }
}

/**
 * The blocks of one tree growing from ground y `ground` at x, z, as calls to leaf(x, y, z) then log(x, y, z) (all
 * leaves first: where trees overlap, a log wins over a leaf whatever order trees come in). Trunks are 4–6 logs
 * (oak), 5–7 (birch, spruce); oak and birch wear vanilla's blob canopy (two layers of radius 2 with ragged corners
 * under two of radius 1), spruce a cone of alternating radius 2 and 1 from the third log up, tipped by one leaf.
 */
function growTree (kind, x, ground, z, shapeSeed, leaf, log) {
  const random = stream(shapeSeed)
  const trunk = kind === OAK ? 4 + Math.floor(random() * 3) : 5 + Math.floor(random() * 3)
  const top = ground + trunk // the highest log
  if (kind === SPRUCE) {
    leaf(x, top + 1, z)
    for (let y = top; y >= ground + 3; y--) {
      const r = (top - y) % 2 === 0 ? 1 : 2
      for (let dz = -r; dz <= r; dz++) {
        for (let dx = -r; dx <= r; dx++) {
          if (Math.abs(dx) + Math.abs(dz) > (r === 1 ? 1 : 3)) continue
          leaf(x + dx, y, z + dz)
        }
      }
    }
  } else {
    for (let y = top - 2; y <= top + 1; y++) {
      const r = y < top ? 2 : 1
      for (let dz = -r; dz <= r; dz++) {
        for (let dx = -r; dx <= r; dx++) {
          const corner = Math.abs(dx) === r && Math.abs(dz) === r
          if (corner && (y === top + 1 || random() < 0.5)) continue
          leaf(x + dx, y, z + dz)
        }
      }
    }
  }
  for (let y = ground + 1; y <= top; y++) log(x, y, z)
  return trunk
}

module.exports = { ORES, placeOres, hash, unit, stream, growTree, TREE_CELL, OAK, BIRCH, SPRUCE, TREE_BLOCKS }
