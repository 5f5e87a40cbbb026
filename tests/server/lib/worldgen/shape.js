// The natural world's shape from its seed, without any blocks: the ground height of a column, its climate and
// its biome. Everything here is a pure function of the seed and the world position, so the chunk generator, the
// biome locator and the map all see the same world, and a column's neighbours can be asked about without
// generating them (trees that hang over a chunk border need their roots' height).
'use strict'

const { noise2D } = require('./noise')
const { B } = require('./blocks')

const SEA_LEVEL = 62

/** Noise frequencies (1 / wavelength in blocks). */
const F = {
  continent: 1 / 1100,
  continent2: 1 / 330,
  hills: 1 / 520,
  detail1: 1 / 170,
  detail2: 1 / 64,
  detail3: 1 / 23,
  river: 1 / 560,
  river2: 1 / 170,
  temperature: 1 / 1300,
  humidity: 1 / 900,
  jitter: 1 / 37,
  floor: 1 / 21
}

const RIVER_WIDTH = 0.04 // |river noise| below this is river water
const RIVER_VALLEY = 0.13 // ... and below this the land slopes down toward it

function smoothstep (edge0, edge1, x) {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)))
  return t * t * (3 - 2 * t)
}

/** Piecewise-linear base ground height over continentalness: deep sea, shelf, coast, inland. */
const BASE = [[-1, 30], [-0.6, 34], [-0.42, 44], [-0.28, 56], [-0.2, 63], [-0.05, 66], [0.4, 72], [1, 80]]
function baseHeight (c) {
  for (let i = 1; i < BASE.length; i++) {
    if (c <= BASE[i][0]) {
      const [c0, h0] = BASE[i - 1]; const [c1, h1] = BASE[i]
      return h0 + (h1 - h0) * (c - c0) / (c1 - c0)
    }
  }
  return BASE[BASE.length - 1][1]
}

/** A column sample: filled in place by Shape.sample so hot loops allocate nothing. */
function newSample () { return { h: 0, c: 0, temp: 0, humid: 0, river: 0, floor: 0 } }

class Shape {
  /** @param {number|string} seed */
  constructor (seed) {
    const noise = (name) => noise2D(seed, name)
    this.continent = noise('continent')
    this.continent2 = noise('continent2')
    this.hills = noise('hills')
    this.detail1 = noise('detail1')
    this.detail2 = noise('detail2')
    this.detail3 = noise('detail3')
    this.river = noise('river')
    this.river2 = noise('river2')
    this.temperature = noise('temperature')
    this.humidity = noise('humidity')
    this.jitter = noise('jitter')
    this.floorNoise = noise('floor')
  }

  /**
   * The ground height (the y of the top solid block, before caves) and climate of column x, z, into `out`.
   * Continentalness picks sea or land; a low-frequency "hilliness" scales three octaves of detail, so some land
   * is nearly flat and some rolls to y ~100; rivers are a narrow band of one noise's zero crossing, with a valley.
   */
  sample (x, z, out) {
    const c = (this.continent(x * F.continent, z * F.continent) + 0.45 * this.continent2(x * F.continent2, z * F.continent2)) / 1.3
    const base = baseHeight(c)
    const land = smoothstep(-0.3, -0.05, c) // 0 at sea, 1 inland
    const hill = (this.hills(x * F.hills, z * F.hills) + 1) * 0.5
    const amplitude = 3 + land * (5 + 40 * hill * Math.sqrt(hill))
    const detail = (this.detail1(x * F.detail1, z * F.detail1) + 0.45 * this.detail2(x * F.detail2, z * F.detail2) +
      0.18 * this.detail3(x * F.detail3, z * F.detail3)) / 1.63
    // Hills rise more than valleys sink, as vanilla's terrain shaper does: plains with lakes, and hilltops.
    let h = base + amplitude * (detail > 0 ? detail * 1.25 : detail * 0.5)

    // A second octave bends the zero line: one octave of simplex noise makes long straight rivers.
    const r = Math.abs(this.river(x * F.river, z * F.river) + 0.3 * this.river2(x * F.river2, z * F.river2))
    const inland = smoothstep(-0.24, -0.12, c)
    const river = inland * (1 - smoothstep(0, RIVER_WIDTH, r))
    if (inland > 0 && r < RIVER_VALLEY) {
      const valley = inland * (1 - smoothstep(RIVER_WIDTH * 0.5, RIVER_VALLEY, r))
      if (h > 64) h -= (h - 64) * valley * 0.8
      h += (56 - h) * river // river bed ~6 blocks under sea level in the middle
    }

    out.h = Math.floor(h)
    out.c = c
    out.river = river
    out.temp = this.temperature(x * F.temperature, z * F.temperature) + 0.06 * this.jitter(x * F.jitter, z * F.jitter)
    out.humid = this.humidity(x * F.humidity, z * F.humidity) + 0.06 * this.jitter(z * F.jitter, x * F.jitter)
    return out
  }

  /** Sea/lake floor material noise (gravel where high): a cheap per-column value in [-1, 1]. */
  floor (x, z) { return this.floorNoise(x * F.floor, z * F.floor) }

  /**
   * Samples a w × d rectangle of columns starting at x0, z0 into typed arrays (index dz * w + dx), the chunk
   * generator's view of its column plus a margin.
   */
  field (x0, z0, w, d, f) {
    const s = newSample()
    for (let dz = 0; dz < d; dz++) {
      for (let dx = 0; dx < w; dx++) {
        this.sample(x0 + dx, z0 + dz, s)
        const i = dz * w + dx
        f.h[i] = s.h; f.c[i] = s.c; f.temp[i] = s.temp; f.humid[i] = s.humid; f.river[i] = s.river
      }
    }
    return f
  }

  /** The biome of column x, z, looking at its neighbours' heights for shores (the pointwise version of field use). */
  biomeAt (x, z) {
    const s = this.sample(x, z, newSample())
    let nearWater = false
    if (s.h <= SEA_LEVEL + 2 && s.h >= SEA_LEVEL) {
      const t = newSample()
      for (const [dx, dz] of SHORE_PROBES) {
        if (this.sample(x + dx, z + dz, t).h < SEA_LEVEL) { nearWater = true; break }
      }
    }
    return classify(s.h, s.c, s.temp, s.humid, s.river, nearWater)
  }
}

/** Where a shore looks for water: 3 blocks along the axes, 2 along the diagonals. */
const SHORE_PROBES = [[3, 0], [-3, 0], [0, 3], [0, -3], [2, 2], [2, -2], [-2, 2], [-2, -2]]

function newField (n) {
  return { h: new Int16Array(n), c: new Float32Array(n), temp: new Float32Array(n), humid: new Float32Array(n), river: new Float32Array(n) }
}

/**
 * The biome id of a column from its height and climate. Oceans are the low ground of low continentalness (inland
 * low ground is a lake in its land biome); beaches are land within 2 of sea level with water nearby; land biomes
 * come from temperature × humidity, vanilla-style: cold → snowy, cool → taiga, hot and dry → desert, wet → forest.
 */
function classify (h, c, temp, humid, river, nearWater) {
  if (h < SEA_LEVEL) {
    if (river > 0.35) return B.river
    if (c < -0.2) return h < 44 ? B.deep_ocean : B.ocean
  } else if (h <= SEA_LEVEL + 2 && nearWater) {
    if (temp < -0.55) return B.snowy_beach
    if (!(temp > 0.3 && humid < 0.05)) return B.beach
  }
  return landBiome(temp, humid)
}

function landBiome (temp, humid) {
  if (temp < -0.55) return humid > 0.05 ? B.snowy_taiga : B.snowy_plains
  if (temp < -0.25) return B.taiga
  if (temp > 0.3 && humid < 0.05) return B.desert
  if (humid > 0.3) return B.birch_forest
  if (humid > 0.02) return B.forest
  return B.plains
}

module.exports = { Shape, SEA_LEVEL, classify, landBiome, newSample, newField, SHORE_PROBES, smoothstep }
