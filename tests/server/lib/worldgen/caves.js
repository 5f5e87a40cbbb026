// Noise caves, after vanilla 1.18+: "spaghetti" tunnels where two 3D noises are both near zero (the crossing of
// two noise surfaces is a winding line), and "cheese" caverns where a third noise is high, kept away from the
// surface. As vanilla does, the noises are sampled on a coarse grid (every 4 blocks across, 8 up) and
// interpolated, which is what makes a column's caves cheap. The grid is aligned to world coordinates, so a single
// block's answer (openAt) is the same number the chunk generator computes for it.
'use strict'

const { noise3D } = require('./noise')

const MIN_Y = -64
const CELL_Y = 8
const FXZ = 1 / 72 // spaghetti frequency across
const FY = 1 / 36 // ... and up: faster, so tunnels run mostly level
const CXZ = 1 / 90 // cheese frequency across
const CY = 1 / 48
const SPAGHETTI = 0.003 // a² + b² below this is tunnel (about 4 blocks wide)
const CAVE_FLOOR = -58 // carving stops here: the rough bedrock floor stays whole
const LAVA_LEVEL = -55 // vanilla's lava level: carved cells at or below it hold lava

/** The cheese noise value above which a block is cavern, at its lowest (deep down); larger caverns in deepslate. */
function cheeseBase (y) { return y < 0 ? 0.58 : 0.64 }

/** Cheese caverns need a higher noise value near the surface, so they stay underground. */
function cheeseThreshold (y, surface) {
  const depth = surface - y
  let t = cheeseBase(y)
  if (depth < 28) t += (28 - depth) * 0.04
  return t
}

function bilerp (v00, v10, v01, v11, fx, fz) {
  const a = v00 + (v10 - v00) * fx
  const b = v01 + (v11 - v01) * fx
  return a + (b - a) * fz
}

class Caves {
  /** @param {number|string} seed */
  constructor (seed) {
    this.a = noise3D(seed, 'cave-a')
    this.b = noise3D(seed, 'cave-b')
    this.c = noise3D(seed, 'cave-c')
  }

  /**
   * The three noises at the 5 × 5 × ny grid corners of chunk cx, cz (x and z every 4 blocks, y every 8 from
   * MIN_Y), into g.a, g.b, g.c at (j * 25 + k * 5 + i).
   */
  fillGrid (cx, cz, ny, g) {
    for (let j = 0; j < ny; j++) {
      const y = MIN_Y + j * CELL_Y
      for (let k = 0; k < 5; k++) {
        const z = cz * 16 + k * 4
        for (let i = 0; i < 5; i++) {
          const x = cx * 16 + i * 4
          const n = j * 25 + k * 5 + i
          g.a[n] = this.a(x * FXZ, y * FY, z * FXZ)
          g.b[n] = this.b(x * FXZ, y * FY, z * FXZ)
          g.c[n] = this.c(x * CXZ, y * CY, z * CXZ)
        }
      }
    }
  }

  /**
   * Whether block x, y, z is cave (spaghetti or cheese), given its column's ground height, ignoring any limit the
   * generator puts on carving near water. Trees ask this about their roots in columns they do not generate.
   */
  openAt (x, y, z, surface) {
    if (y < CAVE_FLOOR || y > surface) return false
    const x0 = Math.floor(x / 4) * 4; const z0 = Math.floor(z / 4) * 4
    const j = Math.floor((y - MIN_Y) / CELL_Y); const y0 = MIN_Y + j * CELL_Y; const y1 = y0 + CELL_Y
    const fx = (x - x0) * 0.25; const fz = (z - z0) * 0.25; const fy = (y - y0) / CELL_Y
    const at = (noise, f, fy, yy) => bilerp(
      noise(x0 * f, yy * fy, z0 * f), noise((x0 + 4) * f, yy * fy, z0 * f),
      noise(x0 * f, yy * fy, (z0 + 4) * f), noise((x0 + 4) * f, yy * fy, (z0 + 4) * f), fx, fz)
    const lerpY = (noise, f, fyy) => { const lo = at(noise, f, fyy, y0); return lo + (at(noise, f, fyy, y1) - lo) * fy }
    const a = lerpY(this.a, FXZ, FY)
    const b = lerpY(this.b, FXZ, FY)
    if (a * a + b * b < SPAGHETTI) return true
    return lerpY(this.c, CXZ, CY) > cheeseThreshold(y, surface)
  }
}

module.exports = { Caves, bilerp, cheeseBase, cheeseThreshold, SPAGHETTI, CAVE_FLOOR, LAVA_LEVEL, CELL_Y }
