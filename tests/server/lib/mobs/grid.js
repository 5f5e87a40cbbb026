// The block grid as mobs, items and arrows see it: each cell is solid (a full-block collision box is enough for the
// test world), water, lava, something to keep away from, or open. Lookups are cached for one tick, since a tick asks
// about the same few hundred cells many times (collision, path finding, line of sight) and blocks only change
// between ticks.
'use strict'

const SOLID = 1
const WATER = 2
const LAVA = 4
const AVOID = 8 // hurts to stand in or on: paths never use it

// Blocks that hold water without being called water (vanilla waterlogs them).
const WATERY = new Set(['water', 'bubble_column', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass'])
// Blocks that hurt whoever touches them (WalkNodeEvaluator's DAMAGE_* and DANGER_* path types).
const HARMFUL = new Set(['fire', 'soul_fire', 'magma_block', 'cactus', 'sweet_berry_bush', 'powder_snow', 'wither_rose',
  'campfire', 'soul_campfire', 'cobweb'])

// The cache is an open-addressing hash table of typed arrays (2^15 cells), emptied each tick by bumping a
// generation number: far cheaper than a Map keyed by packed coordinates. When it fills up past 3/4, further cells
// are looked up uncached until the next tick.
const SLOTS = 1 << 15
const MASK = SLOTS - 1
const FULL = SLOTS * 3 / 4

function classify (block) {
  if (!block) return 0
  let c = 0
  if (block.boundingBox === 'block') c |= SOLID
  if (WATERY.has(block.name)) c |= WATER
  if (block.name === 'lava') c |= LAVA | AVOID
  if (HARMFUL.has(block.name)) c |= AVOID
  return c
}

class Grid {
  /** `world.blockAt(x, y, z)` gives a prismarine-registry block (`.name`, `.boundingBox`). */
  constructor (world) {
    this.world = world
    this.xs = new Int32Array(SLOTS)
    this.ys = new Int32Array(SLOTS)
    this.zs = new Int32Array(SLOTS)
    this.vals = new Uint8Array(SLOTS)
    this.gens = new Uint32Array(SLOTS)
    this.gen = 1
    this.used = 0
    this.byBlock = new Map() // block object -> class, so each block kind is classified once
  }

  /** Forgets cached cells: called at the start of every tick, and after an explosion changes blocks. */
  clear () {
    this.gen++
    this.used = 0
    if (this.gen === 0xffffffff) { this.gens.fill(0); this.gen = 1 }
  }

  /** The class of cell (x, y, z): SOLID, WATER, LAVA and AVOID bits. */
  cls (x, y, z) {
    let i = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & MASK
    const gen = this.gen
    for (;;) {
      if (this.gens[i] !== gen) break
      if (this.xs[i] === x && this.ys[i] === y && this.zs[i] === z) return this.vals[i]
      i = (i + 1) & MASK
    }
    const c = this.lookup(x, y, z)
    if (this.used < FULL) {
      this.gens[i] = gen; this.xs[i] = x; this.ys[i] = y; this.zs[i] = z; this.vals[i] = c
      this.used++
    }
    return c
  }

  lookup (x, y, z) {
    const block = this.world.blockAt(x, y, z)
    let c = this.byBlock.get(block)
    if (c === undefined) { c = classify(block); if (block) this.byBlock.set(block, c) }
    return c
  }

  solid (x, y, z) { return (this.cls(x, y, z) & SOLID) !== 0 }

  /** Whether any solid cell overlaps the box [x0, x1) × [y0, y1) × [z0, z1). */
  boxSolid (x0, y0, z0, x1, y1, z1) {
    const ax = Math.floor(x0); const bx = Math.floor(x1 - 1e-7)
    const ay = Math.floor(y0); const by = Math.floor(y1 - 1e-7)
    const az = Math.floor(z0); const bz = Math.floor(z1 - 1e-7)
    for (let x = ax; x <= bx; x++) {
      for (let z = az; z <= bz; z++) {
        for (let y = ay; y <= by; y++) if (this.cls(x, y, z) & SOLID) return true
      }
    }
    return false
  }

  /** The classes of every cell the box overlaps, or-ed together. */
  boxClasses (x0, y0, z0, x1, y1, z1) {
    let c = 0
    for (let x = Math.floor(x0); x <= Math.floor(x1 - 1e-7); x++) {
      for (let z = Math.floor(z0); z <= Math.floor(z1 - 1e-7); z++) {
        for (let y = Math.floor(y0); y <= Math.floor(y1 - 1e-7); y++) c |= this.cls(x, y, z)
      }
    }
    return c
  }

  /** `cells` blocks from (x, y, z) up are neither solid nor lava: a body fits there. */
  bodyFits (x, y, z, cells) {
    for (let i = 0; i < cells; i++) if (this.cls(x, y + i, z) & (SOLID | LAVA)) return false
    return true
  }

  /**
   * A mob `cells` high can stand in cell (x, y, z): its body fits, nothing there hurts, and it stands on a solid
   * block that does not hurt either. With `swim`, a cell of water counts as somewhere to be (floating).
   */
  standable (x, y, z, cells, swim) {
    const feet = this.cls(x, y, z)
    if (feet & (SOLID | AVOID)) return false
    if (!this.bodyFits(x, y + 1, z, cells - 1)) return false
    if (feet & WATER) return !!swim
    const ground = this.cls(x, y - 1, z)
    return (ground & SOLID) !== 0 && (ground & AVOID) === 0
  }

  /**
   * The first solid cell a segment from a to b passes through (Amanatides–Woo voxel walk), as
   * `{ x, y, z, t }` with t the fraction of the segment where it enters the cell; null if the way is clear.
   * The cell holding `a` itself is skipped, so a ray from inside a block is not stopped at once.
   */
  raycast (ax, ay, az, bx, by, bz) {
    const dx = bx - ax; const dy = by - ay; const dz = bz - az
    let x = Math.floor(ax); let y = Math.floor(ay); let z = Math.floor(az)
    const ex = Math.floor(bx); const ey = Math.floor(by); const ez = Math.floor(bz)
    const sx = dx > 0 ? 1 : dx < 0 ? -1 : 0
    const sy = dy > 0 ? 1 : dy < 0 ? -1 : 0
    const sz = dz > 0 ? 1 : dz < 0 ? -1 : 0
    const tdx = sx ? Math.abs(1 / dx) : Infinity
    const tdy = sy ? Math.abs(1 / dy) : Infinity
    const tdz = sz ? Math.abs(1 / dz) : Infinity
    let tmx = sx > 0 ? (x + 1 - ax) * tdx : sx < 0 ? (ax - x) * tdx : Infinity
    let tmy = sy > 0 ? (y + 1 - ay) * tdy : sy < 0 ? (ay - y) * tdy : Infinity
    let tmz = sz > 0 ? (z + 1 - az) * tdz : sz < 0 ? (az - z) * tdz : Infinity
    for (let steps = 0; steps < 1024; steps++) {
      if (x === ex && y === ey && z === ez) return null
      let t
      if (tmx <= tmy && tmx <= tmz) { x += sx; t = tmx; tmx += tdx } else if (tmy <= tmz) { y += sy; t = tmy; tmy += tdy } else { z += sz; t = tmz; tmz += tdz }
      if (t > 1) return null
      if (this.cls(x, y, z) & SOLID) return { x, y, z, t }
    }
    return null
  }

  /** Nothing solid between two points (LivingEntity.hasLineOfSight clips against collision shapes the same way). */
  sees (ax, ay, az, bx, by, bz) {
    if (this.cls(Math.floor(ax), Math.floor(ay), Math.floor(az)) & SOLID) return false
    return this.raycast(ax, ay, az, bx, by, bz) === null
  }
}

module.exports = { Grid, SOLID, WATER, LAVA, AVOID }
