// The test world's natural terrain: a seeded overworld of rolling hills, plains, oceans, lakes and rivers, with
// caves, ore veins at vanilla heights, trees and ground cover, in vanilla 26.1 blocks and biomes. A drop-in for the
// superflat Terrain (same methods), generated lazily one 16 × 16 column at a time; the same seed always gives the
// same world. Edits are kept per column; unedited columns beyond `maxColumns` are dropped (oldest first) and simply
// generated again when next asked for.
'use strict'

const { stateOf, registry, MIN_Y, HEIGHT } = require('./terrain')
const { Generator, treeInCell } = require('./worldgen/generate')
const { SEA_LEVEL, classify, newSample } = require('./worldgen/shape')
const { B, BIOME_NAMES } = require('./worldgen/blocks')
const { OAK, BIRCH, TREE_CELL } = require('./worldgen/features')
const { encodePng } = require('./png')

const MAX_Y = MIN_Y + HEIGHT - 1
const SPAWN_GROUND = new Set(['grass_block', 'dirt', 'sand', 'podzol', 'coarse_dirt'].map((n) => registry.blocksByName[n].id))

/** A seed as given (number or string); a string of digits means the same world as that number. */
function normalizeSeed (seed) {
  if (typeof seed === 'string' && /^-?\d+$/.test(seed.trim()) && Number.isSafeInteger(Number(seed))) return Number(seed)
  if (typeof seed === 'number' && Number.isFinite(seed)) return seed
  if (typeof seed === 'string' && seed.length > 0) return seed
  throw new Error(`a seed is an integer or a non-empty string, not ${JSON.stringify(seed)}`)
}

class NaturalTerrain {
  /**
   * @param {object} [options]
   * @param {number|string} [options.seed=1] the world seed ('42' and 42 are the same world)
   * @param {number} [options.maxColumns=1024] unedited columns kept in memory (about 45 KB each)
   */
  constructor ({ seed = 1, maxColumns = 1024 } = {}) {
    this.kind = 'natural'
    this.seed = normalizeSeed(seed)
    this.gen = new Generator(this.seed)
    this.maxColumns = maxColumns
    this.generated = new Map() // "cx,cz" -> Column, oldest first; dropped when over maxColumns
    this.edited = new Map() // "cx,cz" -> Column with edits: kept for good
    this.last = null // the column of the previous lookup, as block reads come in runs
    this.spawn = null
  }

  /** The column cx, cz, generating it if needed. */
  column (cx, cz) {
    const last = this.last
    if (last !== null && last.cx === cx && last.cz === cz) return last
    const key = `${cx},${cz}`
    let col = this.edited.get(key)
    if (!col && (col = this.generated.get(key))) {
      // Least recently used goes first: a long search must not push out the columns players stand in.
      this.generated.delete(key)
      this.generated.set(key, col)
    } else if (!col) {
      col = this.gen.column(cx, cz)
      this.generated.set(key, col)
      if (this.generated.size > this.maxColumns) {
        const oldest = this.generated.keys().next().value
        this.generated.delete(oldest)
      }
    }
    this.last = col
    return col
  }

  /** Whether column cx, cz is in memory (generated and not dropped). */
  has (cx, cz) {
    const key = `${cx},${cz}`
    return this.edited.has(key) || this.generated.has(key)
  }

  /** The block state id at a world position (0, air, outside y -64..319). Generates the column if needed. */
  stateAt (x, y, z) {
    if (!(y >= MIN_Y && y <= MAX_Y)) return 0
    x = Math.floor(x); y = Math.floor(y); z = Math.floor(z)
    return this.column(x >> 4, z >> 4).get(x & 15, y, z & 15)
  }

  /** The block at a world position, as prismarine-registry's block object. */
  blockAt (x, y, z) {
    return registry.blocksByStateId[this.stateAt(x, y, z)]
  }

  /** Sets a block (by state id); returns false if y is outside the world. The edit stays for good. */
  setState (x, y, z, state) {
    if (!(y >= MIN_Y && y <= MAX_Y)) return false
    x = Math.floor(x); y = Math.floor(y); z = Math.floor(z)
    const cx = x >> 4; const cz = z >> 4
    const col = this.column(cx, cz)
    if (!col.edited) {
      const key = `${cx},${cz}`
      this.generated.delete(key)
      this.edited.set(key, col)
    }
    col.set(x & 15, y, z & 15, state)
    return true
  }

  /** The map_chunk packet fields for a column (built fresh each call: the server keeps the serialized bytes). */
  chunkPacket (cx, cz) {
    const col = this.column(cx, cz)
    return { x: cx, z: cz, heightmaps: col.heightmaps(), blockEntities: [], chunkData: col.encode(), ...col.light() }
  }

  /** The y of the highest block at x, z that blocks motion or holds a fluid (ground, water surface, leaves). */
  heightAt (x, z) {
    x = Math.floor(x); z = Math.floor(z)
    return this.column(x >> 4, z >> 4).height[((z & 15) << 4) | (x & 15)]
  }

  /**
   * The highest block at x, z that one stands on: solid, not leaves, not fluid (the sea floor under water; the top
   * log of a tree's trunk under its canopy), and its name.
   */
  surfaceAt (x, z) {
    x = Math.floor(x); z = Math.floor(z)
    const col = this.column(x >> 4, z >> 4)
    const y = col.ground[((z & 15) << 4) | (x & 15)]
    return { y, block: registry.blocksByStateId[col.get(x & 15, y, z & 15)].name }
  }

  /** The biome name at x, z, as the client sees it (one per 4 × 4 cell). Does not generate the column. */
  biomeAt (x, z) {
    return BIOME_NAMES[this.cellBiome(Math.floor(Math.floor(x) / 4), Math.floor(Math.floor(z) / 4))]
  }

  cellBiome (c, k) {
    const cx = c >> 2; const cz = k >> 2
    if (this.has(cx, cz)) return this.column(cx, cz).cells[(k & 3) * 4 + (c & 3)]
    return this.gen.shape.biomeAt(c * 4 + 2, k * 4 + 2)
  }

  /**
   * Where a player joins: the centre of the nearest column to 0, 0 (in rings outward, a fixed order) whose
   * surface is grass, dirt, podzol or sand with two air blocks over it and nothing (water, leaves) above. Fixed by
   * the first call.
   */
  spawnPoint () {
    if (this.spawn) return { ...this.spawn }
    const s = newSample()
    for (let r = 0; r <= 1024 && !this.spawn; r++) {
      for (let z = -r; z <= r && !this.spawn; z++) {
        const step = Math.abs(z) === r ? 1 : 2 * r
        for (let x = -r; x <= r && !this.spawn; x += step || 1) {
          if (this.gen.shape.sample(x, z, s).h <= SEA_LEVEL) continue // under water: skip without generating
          const ground = this.surfaceAt(x, z)
          const state = this.stateAt(x, ground.y, z)
          if (!SPAWN_GROUND.has(registry.blocksByStateId[state].id)) continue
          if (this.stateAt(x, ground.y + 1, z) !== 0 || this.stateAt(x, ground.y + 2, z) !== 0) continue
          if (this.heightAt(x, z) !== ground.y) continue
          this.spawn = { x: x + 0.5, y: ground.y + 1, z: z + 0.5 }
        }
      }
    }
    if (!this.spawn) throw new Error(`no dry land within 1024 blocks of 0, 0 for seed ${this.seed}`)
    return { ...this.spawn }
  }

  /**
   * The nearest block called `name` (any of its states) to `from` within `radius` blocks horizontally (a square),
   * or null. Generates the columns it looks through, chunk rings outward from `from`, and stops once no nearer
   * block can be left; sections whose palette lacks the block are skipped unread.
   */
  locateBlock (name, from, radius) {
    const block = registry.blocksByName[name]
    if (!block) stateOf(name) // throws "unknown block"
    const lo = block.minStateId; const hi = block.maxStateId
    const fcx = Math.floor(from.x) >> 4; const fcz = Math.floor(from.z) >> 4
    const xMin = Math.ceil(from.x - radius); const xMax = Math.floor(from.x + radius)
    const zMin = Math.ceil(from.z - radius); const zMax = Math.floor(from.z + radius)
    const match = new Uint8Array(256)
    let best = null; let bestD = Infinity
    const rings = Math.ceil(radius / 16) + 1
    for (let d = 0; d <= rings; d++) {
      if (d > 1 && ((d - 1) * 16) ** 2 >= bestD) break
      for (let cz = fcz - d; cz <= fcz + d; cz++) {
        const step = Math.abs(cz - fcz) === d ? 1 : 2 * d // the ring only: its top and bottom rows, else two ends
        for (let cx = fcx - d; cx <= fcx + d; cx += step || 1) {
          if (cx * 16 + 15 < xMin || cx * 16 > xMax || cz * 16 + 15 < zMin || cz * 16 > zMax) continue
          const col = this.column(cx, cz)
          for (let si = 0; si < col.sections.length; si++) {
            const s = col.sections[si]
            if (s === null || !s.mayHold(lo, hi)) continue
            const y0 = MIN_Y + si * 16
            // Nothing in this section can beat the best so far: skip it.
            const dy = from.y < y0 ? y0 - from.y : from.y > y0 + 15 ? from.y - y0 - 15 : 0
            const dx = Math.max(0, cx * 16 - from.x, from.x - cx * 16 - 15)
            const dz = Math.max(0, cz * 16 - from.z, from.z - cz * 16 - 15)
            if (dx * dx + dy * dy + dz * dz >= bestD) continue
            if (s.idx !== null) { match.fill(0); s.palette.forEach((p, i) => { if (p >= lo && p <= hi) match[i] = 1 }) }
            for (let i = 0; i < 4096; i++) {
              if (s.raw !== null) { const v = s.raw[i]; if (v < lo || v > hi) continue } else if (s.idx !== null && !match[s.idx[i]]) continue
              const x = cx * 16 + (i & 15); const z = cz * 16 + ((i >> 4) & 15); const y = y0 + (i >> 8)
              if (x < xMin || x > xMax || z < zMin || z > zMax) continue
              const dist = (x - from.x) ** 2 + (y - from.y) ** 2 + (z - from.z) ** 2
              if (dist < bestD) { bestD = dist; best = { x, y, z } }
            }
          }
        }
      }
    }
    return best
  }

  /**
   * The centre of the nearest 4 × 4 biome cell of biome `name` to `from` within `radius` blocks (a square), or
   * null. Reads the world's shape, so it generates nothing.
   */
  locateBiome (name, from, radius) {
    const biome = registry.biomesByName[name]
    if (!biome) throw new Error(`unknown biome ${JSON.stringify(name)}`)
    const fc = Math.floor(Math.floor(from.x) / 4); const fk = Math.floor(Math.floor(from.z) / 4)
    const rings = Math.ceil(radius / 4) + 1
    let best = null; let bestD = Infinity
    for (let r = 0; r <= rings; r++) {
      if (r > 1 && ((r - 1) * 4) ** 2 >= bestD) break
      for (let k = fk - r; k <= fk + r; k++) {
        const step = Math.abs(k - fk) === r ? 1 : 2 * r
        for (let c = fc - r; c <= fc + r; c += step || 1) {
          const x = c * 4 + 2; const z = k * 4 + 2
          if (Math.abs(x - from.x) > radius || Math.abs(z - from.z) > radius) continue
          const dist = (x - from.x) ** 2 + (z - from.z) ** 2
          if (dist >= bestD) continue
          if (this.cellBiome(c, k) === biome.id) { best = { x, z }; bestD = dist }
        }
      }
    }
    return best
  }

  /**
   * A top-down PNG map centred on x, z: `size` pixels a side, `scale` blocks a pixel. Colours come from the
   * world's shape (height, biome, water depth) and its trees, shaded by height and lit from the north-west as
   * vanilla maps are; it generates no chunks, so edits and caves do not show.
   */
  mapPng ({ x = 0, z = 0, size = 256, scale = 1 } = {}) {
    if (!(Number.isInteger(size) && size >= 1 && size <= 4096)) throw new Error('map size must be 1 to 4096 pixels')
    if (!(scale > 0 && scale <= 64)) throw new Error('map scale must be in (0, 64] blocks a pixel')
    const shape = this.gen.shape
    const n = size * size
    const hs = new Int16Array(n); const biomes = new Uint8Array(n)
    const cs = new Float32Array(n); const temps = new Float32Array(n); const humids = new Float32Array(n); const rivers = new Float32Array(n)
    const s = newSample()
    const wx0 = x - size * scale / 2; const wz0 = z - size * scale / 2
    for (let py = 0; py < size; py++) {
      const wz = Math.floor(wz0 + (py + 0.5) * scale)
      for (let px = 0; px < size; px++) {
        shape.sample(Math.floor(wx0 + (px + 0.5) * scale), wz, s)
        const i = py * size + px
        hs[i] = s.h; cs[i] = s.c; temps[i] = s.temp; humids[i] = s.humid; rivers[i] = s.river
      }
    }
    // Shores look a few blocks out for water; on the map that is the neighbouring pixels.
    const reach = Math.max(1, Math.round(3 / scale))
    for (let py = 0; py < size; py++) {
      for (let px = 0; px < size; px++) {
        const i = py * size + px
        const h = hs[i]
        let nearWater = false
        if (h >= SEA_LEVEL && h <= SEA_LEVEL + 2) {
          for (let dy = -reach; dy <= reach && !nearWater; dy++) {
            for (let dx = -reach; dx <= reach; dx++) {
              const qx = px + dx; const qy = py + dy
              if (qx >= 0 && qy >= 0 && qx < size && qy < size && hs[qy * size + qx] < SEA_LEVEL) { nearWater = true; break }
            }
          }
        }
        biomes[i] = classify(h, cs[i], temps[i], humids[i], rivers[i], nearWater)
      }
    }
    const rgb = Buffer.alloc(n * 3)
    for (let i = 0; i < n; i++) {
      const h = hs[i]
      const north = i >= size ? hs[i - size] : h
      const [r, g, b] = groundColour(h, biomes[i])
      let shade = h < SEA_LEVEL ? 1 : Math.min(1.2, Math.max(0.7, 0.8 + (h - SEA_LEVEL) / 100))
      if (h >= SEA_LEVEL) shade *= h > north ? 1.08 : h < north ? 0.88 : 1
      rgb[i * 3] = Math.min(255, r * shade); rgb[i * 3 + 1] = Math.min(255, g * shade); rgb[i * 3 + 2] = Math.min(255, b * shade)
    }
    if (scale <= 4) this.paintTrees(rgb, size, scale, wx0, wz0)
    return encodePng(size, size, rgb)
  }

  /** Draws each tree of the map's area as a canopy disc of radius 2 blocks (at least a pixel). */
  paintTrees (rgb, size, scale, wx0, wz0) {
    const span = size * scale
    const sample = (x, z) => this.gen.shape.sample(x, z, newSample())
    const c0 = Math.floor((wx0 - 2) / TREE_CELL); const c1 = Math.floor((wx0 + span + 2) / TREE_CELL)
    const k0 = Math.floor((wz0 - 2) / TREE_CELL); const k1 = Math.floor((wz0 + span + 2) / TREE_CELL)
    for (let k = k0; k <= k1; k++) {
      for (let c = c0; c <= c1; c++) {
        const t = treeInCell(this.gen, c, k, sample, -Infinity, Infinity, -Infinity, Infinity)
        if (!t) continue
        const colour = t.kind === OAK ? [48, 104, 38] : t.kind === BIRCH ? [92, 148, 66] : [38, 78, 52]
        const shade = Math.min(1.2, Math.max(0.7, 0.8 + (t.h + 5 - SEA_LEVEL) / 100))
        const r = Math.max(0.5, 2 / scale)
        const pcx = (t.x + 0.5 - wx0) / scale; const pcz = (t.z + 0.5 - wz0) / scale
        for (let py = Math.floor(pcz - r); py <= Math.floor(pcz + r); py++) {
          for (let px = Math.floor(pcx - r); px <= Math.floor(pcx + r); px++) {
            if (px < 0 || py < 0 || px >= size || py >= size) continue
            if ((px + 0.5 - pcx) ** 2 + (py + 0.5 - pcz) ** 2 > (r + 0.5) ** 2) continue
            const o = (py * size + px) * 3
            const edge = (px + 0.5 - pcx) + (py + 0.5 - pcz) > 0 ? 0.85 : 1 // the south-east side in shadow
            rgb[o] = colour[0] * shade * edge; rgb[o + 1] = colour[1] * shade * edge; rgb[o + 2] = colour[2] * shade * edge
          }
        }
      }
    }
  }
}

/** A map colour for ground at height h in a biome (water by depth). */
function groundColour (h, biome) {
  if (h < SEA_LEVEL) {
    const t = Math.min(1, (SEA_LEVEL - h) / 24)
    return [70 - 50 * t, 130 - 80 * t, 232 - 90 * t]
  }
  switch (biome) {
    case B.beach: case B.desert: return [218, 205, 155]
    case B.snowy_beach: case B.snowy_plains: case B.snowy_taiga: return [236, 240, 248]
    case B.forest: return [86, 150, 58]
    case B.birch_forest: return [108, 168, 78]
    case B.taiga: return [84, 128, 86]
    default: return [118, 178, 72]
  }
}

module.exports = { NaturalTerrain, SEA_LEVEL, normalizeSeed }
