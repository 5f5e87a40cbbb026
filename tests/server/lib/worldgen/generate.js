// The natural terrain's chunk generator: from the seed to one 16 × 384 × 16 column of block states, in vanilla's
// order: shape the ground and its surface layers, fill water to sea level, carve caves, place ore veins, then
// decorate (ground cover, trees). It works in one reused 16 × 384 × 16 scratch array and packs that into the
// column's sections at the end, which is what keeps a column to about a millisecond.
'use strict'

const alea = require('alea')
const { MIN_Y, HEIGHT } = require('../terrain')
const { S, B, FLAGS, GRAVITY, STATE_COUNT } = require('./blocks')
const { Shape, SEA_LEVEL, classify, newField, SHORE_PROBES } = require('./shape')
const { Caves, bilerp, cheeseBase, cheeseThreshold, SPAGHETTI, CAVE_FLOOR, LAVA_LEVEL, CELL_Y } = require('./caves')
const { placeOres, hash, unit, growTree, TREE_CELL, OAK, BIRCH, SPRUCE, TREE_BLOCKS } = require('./features')
const { Column, Section, SECTIONS } = require('./column')

const MARGIN = 3 // the height field reaches this far past the chunk: shores look 3 blocks out, trees 2
const FW = 16 + 2 * MARGIN // field width
const MAX_Y = MIN_Y + HEIGHT - 1

// Salts for per-position hashes.
const SALT_BEDROCK = 1; const SALT_DEEPSLATE = 2; const SALT_DEPTH = 3; const SALT_COVER = 4; const SALT_TREE = 5
const SALT_PODZOL = 6; const SALT_SHAPE = 7; const SALT_KIND = 8; const SALT_CACTUS = 9

/** Trees per 4 × 4 cell (the chance the cell has one) by biome; biomes not listed grow none. */
const TREE_CHANCE = {
  [B.plains]: 0.05, [B.forest]: 0.6, [B.birch_forest]: 0.6, [B.taiga]: 0.5, [B.snowy_taiga]: 0.35, [B.snowy_plains]: 0.03
}

const FLOWERS = [S.dandelion, S.poppy, S.oxeye_daisy, S.azure_bluet, S.cornflower]
const SNOWY = new Set([B.snowy_plains, B.snowy_taiga, B.snowy_beach])
const GRASSY = new Set([S.grass_block, S.snowy_grass_block, S.podzol, S.snowy_podzol])
// What a log may replace: air, leaves and the plants and snow of the ground cover.
const LOG_REPLACES = new Set([0, S.oak_leaves, S.birch_leaves, S.spruce_leaves, S.short_grass, S.fern,
  ...FLOWERS, S.dead_bush, S.snow])

/** The tree kind of a biome: a hash picks oak or birch in forests. */
function treeKind (biome, roll) {
  if (biome === B.birch_forest) return BIRCH
  if (biome === B.forest) return roll < 0.8 ? OAK : BIRCH
  if (biome === B.plains) return OAK
  return SPRUCE
}

class Generator {
  /** @param {number|string} seed */
  constructor (seed) {
    this.seed = seed
    this.seedHash = Math.floor(alea(seed, 'hash')() * 4294967296) | 0
    this.shape = new Shape(seed)
    this.caves = new Caves(seed)
    this.blocks = new Uint16Array(16 * 16 * HEIGHT) // index ((y - MIN_Y) << 8) | (z << 4) | x
    this.dirtyTop = MAX_Y // the scratch is clean above this y
    this.field = newField(FW * FW)
    this.biomes = new Uint8Array(256)
    this.carveTop = new Int16Array(256)
    this.rowLow = new Int16Array(FW * FW)
    this.low = new Int16Array(256)
    const ny = (HEIGHT >> 3) + 2
    this.grid = { a: new Float64Array(25 * ny), b: new Float64Array(25 * ny), c: new Float64Array(25 * ny) }
    this.lookup = new Int16Array(STATE_COUNT).fill(-1) // state -> palette index while packing a section
  }

  /** Generates chunk column cx, cz. */
  column (cx, cz) {
    const blocks = this.blocks
    blocks.fill(0, 0, (this.dirtyTop - MIN_Y + 1) << 8)
    this.dirtyTop = MAX_Y // until this column is done (should it throw, the next one clears everything)
    const x0 = cx * 16; const z0 = cz * 16
    const f = this.shape.field(x0 - MARGIN, z0 - MARGIN, FW, FW, this.field)

    // Biomes and carving limits per x, z. Near water (or on a shore) caves stay 7 blocks under the lowest ground
    // within 2 blocks, so no cave opens beside or under water or sand; elsewhere they may open at the surface.
    // That lowest ground is a 5 × 5 minimum: over rows first, then over those.
    const rowLow = this.rowLow; const low = this.low
    for (let fz = 0; fz < FW; fz++) {
      for (let fx = 2; fx < FW - 2; fx++) {
        const i = fz * FW + fx
        rowLow[i] = Math.min(f.h[i - 2], f.h[i - 1], f.h[i], f.h[i + 1], f.h[i + 2])
      }
    }
    let top = SEA_LEVEL; let carveMax = CAVE_FLOOR
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const fi = (z + MARGIN) * FW + x + MARGIN
        const h = f.h[fi]
        let nearWater = false
        if (h >= SEA_LEVEL && h <= SEA_LEVEL + 2) {
          for (const [dx, dz] of SHORE_PROBES) if (f.h[fi + dz * FW + dx] < SEA_LEVEL) { nearWater = true; break }
        }
        const c = (z << 4) | x
        this.biomes[c] = classify(h, f.c[fi], f.temp[fi], f.humid[fi], f.river[fi], nearWater)
        low[c] = Math.min(rowLow[fi - 2 * FW], rowLow[fi - FW], rowLow[fi], rowLow[fi + FW], rowLow[fi + 2 * FW])
        this.carveTop[c] = h <= SEA_LEVEL + 2 || low[c] < SEA_LEVEL ? low[c] - 7 : h
        if (this.carveTop[c] > carveMax) carveMax = this.carveTop[c]
        if (h > top) top = h
      }
    }

    // Cave noise on the coarse grid, up to the highest carvable y.
    const ny = ((carveMax - MIN_Y) >> 3) + 2
    this.caves.fillGrid(cx, cz, ny, this.grid)

    // The body every x, z shares, a layer at a time (contiguous fills): deepslate to y -1, stone from y 8 to 9
    // under the lowest ground (surface layers are at most 8 deep). Columns fill in the rest themselves.
    let minH = MAX_Y
    for (let c = 0; c < 256; c++) minH = Math.min(minH, f.h[((c >> 4) + MARGIN) * FW + (c & 15) + MARGIN])
    const bodyTop = minH - 9
    if (bodyTop >= 8) {
      blocks.fill(S.deepslate, (MIN_Y + 5 - MIN_Y) << 8, (0 - MIN_Y) << 8)
      blocks.fill(S.stone, (8 - MIN_Y) << 8, (bodyTop + 1 - MIN_Y) << 8)
    }
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        this.fillColumn(x, z, x0 + x, z0 + z, f.h[(z + MARGIN) * FW + x + MARGIN], this.biomes[(z << 4) | x], bodyTop >= 8 ? bodyTop : null)
      }
    }
    this.carve(f)

    placeOres(blocks, alea(this.seed, 'ores', cx, cz), MIN_Y, top)

    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const h = f.h[(z + MARGIN) * FW + x + MARGIN]
        this.settle(x, z, h)
        this.cover(x, z, x0 + x, z0 + z, h, this.biomes[(z << 4) | x])
      }
    }
    // Cover reaches 3 above the ground (cacti), trees as high as their tips.
    top = Math.max(top + 4, this.trees(cx, cz, f))

    const column = new Column(cx, cz)
    this.pack(column, top)
    column.computeHeights(top)
    const cells = new Uint8Array(16)
    for (let k = 0; k < 4; k++) for (let i = 0; i < 4; i++) cells[k * 4 + i] = this.biomes[((k * 4 + 2) << 4) | (i * 4 + 2)]
    column.setBiomes(cells)
    this.dirtyTop = top
    return column
  }

  /** Bedrock, deepslate, stone, the biome's surface layers and water up to sea level, for one x, z. */
  fillColumn (x, z, wx, wz, h, biome, bodyTop) {
    const blocks = this.blocks
    const seed = this.seedHash
    const col = (z << 4) | x // index of y = MIN_Y; each block up adds 256
    blocks[col] = S.bedrock
    // Vanilla's rough floor: bedrock at y -64 + k with chance 1 - k / 5.
    for (let k = 1; k < 5; k++) {
      blocks[col + (k << 8)] = unit(seed, wx, wz, SALT_BEDROCK * 1024 + k) < 1 - k / 5 ? S.bedrock : S.deepslate
    }
    const stoneTop = Math.min(h, MAX_Y)
    let y = bodyTop === null ? MIN_Y + 5 : 0 // with a shared body, deepslate up to -1 is already there
    for (; y < 0 && y <= stoneTop; y++) blocks[col + ((y - MIN_Y) << 8)] = S.deepslate
    // Deepslate gives way to stone over y 0..7, its chance falling linearly, as in vanilla.
    for (; y < 8 && y <= stoneTop; y++) {
      blocks[col + ((y - MIN_Y) << 8)] = unit(seed, wx, wz, SALT_DEEPSLATE * 1024 + y) < (8 - y) / 8 ? S.deepslate : S.stone
    }
    if (bodyTop !== null) y = bodyTop + 1
    for (; y <= stoneTop; y++) blocks[col + ((y - MIN_Y) << 8)] = S.stone

    // Surface layers, top down from h.
    const depth = 3 + (hash(seed, wx, wz, SALT_DEPTH) & 1)
    let surface; let filler; let under = 0; let underDepth = 0
    if (h < SEA_LEVEL) {
      const floor = this.shape.floor(wx, wz)
      surface = filler = (h < 48 ? floor > -0.2 : floor > 0.25) ? S.gravel : S.sand
    } else if (biome === B.beach || biome === B.snowy_beach) {
      surface = filler = S.sand; under = S.sandstone; underDepth = 2
    } else if (biome === B.desert) {
      surface = filler = S.sand; under = S.sandstone; underDepth = 4
    } else {
      const snowy = SNOWY.has(biome)
      const podzol = (biome === B.taiga || biome === B.snowy_taiga) && unit(seed, wx, wz, SALT_PODZOL) < 0.15
      surface = podzol ? (snowy ? S.snowy_podzol : S.podzol) : (snowy ? S.snowy_grass_block : S.grass_block)
      filler = S.dirt
    }
    const at = col + ((h - MIN_Y) << 8)
    blocks[at] = surface
    for (let d = 1; d <= depth; d++) blocks[at - (d << 8)] = filler
    for (let d = 1; d <= underDepth; d++) blocks[at - ((depth + d) << 8)] = under
    for (let wy = h + 1; wy <= SEA_LEVEL; wy++) blocks[col + ((wy - MIN_Y) << 8)] = S.water
  }

  /**
   * Carves the chunk's caves from the interpolated grid: air above the lava level, lava at or below it, never
   * above an x, z's carveTop. Interpolation stays within its 8 corners' range, so a grid cell (4 × 8 × 4 blocks)
   * whose corners keep either spaghetti noise away from zero, and cheese below its lowest threshold, is skipped
   * unread: most of them.
   */
  carve (f) {
    const g = this.grid; const blocks = this.blocks
    const w = Math.sqrt(SPAGHETTI)
    const jLo = (CAVE_FLOOR - MIN_Y) >> 3
    for (let k = 0; k < 4; k++) {
      for (let i = 0; i < 4; i++) {
        // The cell column's highest carvable y.
        let cellTop = CAVE_FLOOR - 1
        for (let z = k * 4; z < k * 4 + 4; z++) for (let x = i * 4; x < i * 4 + 4; x++) cellTop = Math.max(cellTop, this.carveTop[(z << 4) | x])
        if (cellTop < CAVE_FLOOR) continue
        const jHi = (cellTop - MIN_Y) >> 3
        for (let j = jLo; j <= jHi; j++) {
          const n = j * 25 + k * 5 + i
          if (!(open(g.a, n, w) && open(g.b, n, w)) && max8(g.c, n) <= cheeseBase(MIN_Y + j * CELL_Y)) continue
          const yLo = Math.max(CAVE_FLOOR, MIN_Y + j * CELL_Y)
          for (let z = k * 4; z < k * 4 + 4; z++) {
            const fz = (z & 3) * 0.25
            for (let x = i * 4; x < i * 4 + 4; x++) {
              const c = (z << 4) | x
              const yHi = Math.min(this.carveTop[c], MIN_Y + j * CELL_Y + CELL_Y - 1)
              if (yHi < yLo) continue
              const fx = (x & 3) * 0.25
              const h = f.h[(z + MARGIN) * FW + x + MARGIN]
              const a0 = bilerp(g.a[n], g.a[n + 1], g.a[n + 5], g.a[n + 6], fx, fz)
              const a1 = bilerp(g.a[n + 25], g.a[n + 26], g.a[n + 30], g.a[n + 31], fx, fz)
              const b0 = bilerp(g.b[n], g.b[n + 1], g.b[n + 5], g.b[n + 6], fx, fz)
              const b1 = bilerp(g.b[n + 25], g.b[n + 26], g.b[n + 30], g.b[n + 31], fx, fz)
              const c0 = bilerp(g.c[n], g.c[n + 1], g.c[n + 5], g.c[n + 6], fx, fz)
              const c1 = bilerp(g.c[n + 25], g.c[n + 26], g.c[n + 30], g.c[n + 31], fx, fz)
              for (let y = yLo; y <= yHi; y++) {
                const fy = ((y - MIN_Y) & (CELL_Y - 1)) / CELL_Y
                const a = a0 + (a1 - a0) * fy
                const b = b0 + (b1 - b0) * fy
                if (a * a + b * b >= SPAGHETTI) {
                  const cv = c0 + (c1 - c0) * fy
                  if (cv <= cheeseThreshold(y, h)) continue
                }
                blocks[((y - MIN_Y) << 8) | c] = y <= LAVA_LEVEL ? S.lava : 0
              }
            }
          }
        }
      }
    }
  }

  /** Sand or gravel left over a cave becomes sandstone or stone, so nothing hangs in the air. */
  settle (x, z, h) {
    const blocks = this.blocks
    for (let y = CAVE_FLOOR + 1; y <= h; y++) {
      const i = ((y - MIN_Y) << 8) | (z << 4) | x
      const s = blocks[i]
      if (!(FLAGS[s] & GRAVITY)) continue
      const below = blocks[i - 256]
      if (below !== 0 && below !== S.lava) continue
      blocks[i] = s === S.sand ? S.sandstone : y < 0 ? S.deepslate : S.stone
    }
  }

  /** Grass, flowers, ferns, snow, dead bushes and cacti on x, z's ground, if it is still there and supported. */
  cover (x, z, wx, wz, h, biome) {
    if (h < SEA_LEVEL || h >= MAX_Y - 4) return
    const blocks = this.blocks
    const i = ((h - MIN_Y) << 8) | (z << 4) | x
    const ground = blocks[i]
    if (blocks[i + 256] !== 0 || blocks[i - 256] === 0) return
    const roll = unit(this.seedHash, wx, wz, SALT_COVER)
    if (GRASSY.has(ground)) {
      if (SNOWY.has(biome)) { blocks[i + 256] = S.snow; return }
      const forest = biome === B.forest || biome === B.birch_forest
      if (biome === B.taiga) {
        if (roll < 0.08) blocks[i + 256] = S.fern
        else if (roll < 0.14) blocks[i + 256] = S.short_grass
      } else if (roll < (forest ? 0.012 : 0.025)) {
        blocks[i + 256] = FLOWERS[Math.floor(roll * 1000) % FLOWERS.length]
      } else if (roll < (forest ? 0.12 : 0.3)) {
        blocks[i + 256] = S.short_grass
      }
    } else if (ground === S.sand && biome === B.desert) {
      if (roll < 0.008) {
        blocks[i + 256] = S.dead_bush
      } else if (roll < 0.013 && x > 0 && x < 15 && z > 0 && z < 15) {
        // A cactus dies with anything beside it: only where the four sides stay clear all the way up.
        const tall = 1 + (hash(this.seedHash, wx, wz, SALT_CACTUS) % 3)
        for (let d = 1; d <= tall; d++) {
          const j = i + d * 256
          if (blocks[j - 1] || blocks[j + 1] || blocks[j - 16] || blocks[j + 16]) return
        }
        for (let d = 1; d <= tall; d++) blocks[i + d * 256] = S.cactus
      }
    }
  }

  /**
   * Grows every tree whose blocks reach into chunk cx, cz, including trees rooted up to 2 blocks into the
   * neighbours, so canopies continue across chunk borders. Whether and how a tree grows depends only on its cell,
   * its root's height and climate and the caves at its root (never on the chunk asking). Returns the top y written.
   */
  trees (cx, cz, f) {
    const x0 = cx * 16; const z0 = cz * 16
    const found = []
    const c0 = Math.floor((x0 - 2) / TREE_CELL); const c1 = Math.floor((x0 + 17) / TREE_CELL)
    const k0 = Math.floor((z0 - 2) / TREE_CELL); const k1 = Math.floor((z0 + 17) / TREE_CELL)
    for (let k = k0; k <= k1; k++) {
      for (let c = c0; c <= c1; c++) {
        const t = treeInCell(this, c, k, (x, z) => {
          const fi = (z - z0 + MARGIN) * FW + (x - x0 + MARGIN)
          return { h: f.h[fi], c: f.c[fi], temp: f.temp[fi], humid: f.humid[fi], river: f.river[fi] }
        }, x0 - 2, x0 + 17, z0 - 2, z0 + 17)
        if (t) found.push(t)
      }
    }
    if (found.length === 0) return MIN_Y
    const blocks = this.blocks
    const inside = (x, y, z) => x >= x0 && x < x0 + 16 && z >= z0 && z < z0 + 16 && y <= MAX_Y
    const index = (x, y, z) => ((y - MIN_Y) << 8) | ((z - z0) << 4) | (x - x0)
    let top = MIN_Y
    for (const pass of ['leaves', 'logs']) {
      for (const t of found) {
        const { log, leaves } = TREE_BLOCKS[t.kind]
        const trunk = growTree(t.kind, t.x, t.h, t.z, t.shape,
          (x, y, z) => { if (pass === 'leaves' && inside(x, y, z) && blocks[index(x, y, z)] === 0) blocks[index(x, y, z)] = leaves },
          (x, y, z) => { if (pass === 'logs' && inside(x, y, z) && LOG_REPLACES.has(blocks[index(x, y, z)])) blocks[index(x, y, z)] = log })
        top = Math.max(top, t.h + trunk + 1)
        // Vanilla turns the grass under a trunk to dirt.
        if (pass === 'logs' && inside(t.x, t.h, t.z) && GRASSY.has(blocks[index(t.x, t.h, t.z)])) blocks[index(t.x, t.h, t.z)] = S.dirt
      }
    }
    return top
  }

  /** Packs the scratch into the column's sections: null above `top` or when all air, one palette each. */
  pack (column, top) {
    const blocks = this.blocks
    const lookup = this.lookup
    const last = (top - MIN_Y) >> 4
    for (let si = 0; si <= last && si < SECTIONS; si++) {
      const base = si << 12
      const palette = []
      const idx = new Uint8Array(4096)
      for (let i = 0; i < 4096; i++) {
        const s = blocks[base + i]
        let p = lookup[s]
        if (p < 0) { p = lookup[s] = palette.length; palette.push(s) }
        idx[i] = p
      }
      for (const s of palette) lookup[s] = -1
      if (palette.length === 1) column.sections[si] = palette[0] === 0 ? null : new Section(palette)
      else column.sections[si] = new Section(palette, idx)
    }
  }
}

/** Whether grid cell n's 8 corners of one noise let it come within w of zero (its values straddle (-w, w)). */
function open (v, n, w) {
  const lo = Math.min(v[n], v[n + 1], v[n + 5], v[n + 6], v[n + 25], v[n + 26], v[n + 30], v[n + 31])
  const hi = Math.max(v[n], v[n + 1], v[n + 5], v[n + 6], v[n + 25], v[n + 26], v[n + 30], v[n + 31])
  return lo < w && hi > -w
}

function max8 (v, n) {
  return Math.max(v[n], v[n + 1], v[n + 5], v[n + 6], v[n + 25], v[n + 26], v[n + 30], v[n + 31])
}

/**
 * The tree of cell (c, k), if it has one rooted within [xa, xb] × [za, zb]: its root x, z and ground height h,
 * kind and shape seed. `sample(x, z)` gives the root column's height and climate. A tree needs a grassy biome,
 * ground at least 3 above sea level (so never on a shore) and no cave at or just under its root.
 */
function treeInCell (gen, c, k, sample, xa, xb, za, zb) {
  const seed = gen.seedHash
  const cellHash = hash(seed, c, k, SALT_TREE)
  const x = c * TREE_CELL + (cellHash & 3); const z = k * TREE_CELL + ((cellHash >>> 2) & 3)
  if (x < xa || x > xb || z < za || z > zb) return null
  const roll = ((cellHash >>> 8) & 0xffff) / 65536
  if (roll >= 0.6) return null // the highest chance of any biome: skip the sample for most empty cells
  const s = sample(x, z)
  if (s.h < SEA_LEVEL + 3 || s.h > MAX_Y - 12) return null
  const biome = classify(s.h, s.c, s.temp, s.humid, s.river, false)
  if (!(roll < (TREE_CHANCE[biome] || 0))) return null
  if (gen.caves.openAt(x, s.h, z, s.h) || gen.caves.openAt(x, s.h - 1, z, s.h)) return null
  return { x, z, h: s.h, biome, kind: treeKind(biome, unit(seed, x, z, SALT_KIND)), shape: hash(seed, x, z, SALT_SHAPE) }
}

module.exports = { Generator, treeInCell, TREE_CHANCE, MARGIN }
