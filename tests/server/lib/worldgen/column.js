// How the natural terrain keeps a generated 16 × 384 × 16 column, and writes it as 26.1's map_chunk fields without
// going through prismarine-chunk: 24 sections of 16³, each a palette plus one byte per block (null for all air),
// the per-column heights the world asks about (heightAt, surfaceAt), and a biome per 4 × 4 cell of the column.
//
// The wire format (checked against prismarine-chunk's reader in test/natural.test.js), per section, bottom up:
//   i16 non-air block count, i16 fluid count (new in 26.1),
//   block states: u8 bits; bits 0 → varint state; 4..8 → varint palette length, varint states, then the longs;
//     more → the longs of global state ids (15 bits for 26.1). Since 1.21.5 no long count is sent: it follows from
//     the bits (values never straddle two longs, so a long holds floor(64 / bits) values, lowest bits first).
//   biomes: the same with 64 cells, indirect at 1..3 bits, direct at 7.
'use strict'

const { MIN_Y, HEIGHT } = require('../terrain')
const { FLAGS, AIR, BLOCKING, GROUND, FLUID, DIRECT_BITS, BIOME_BITS } = require('./blocks')

const SECTIONS = HEIGHT >> 4 // 24
const LIGHT_SECTIONS = SECTIONS + 2 // light also covers the section below and above the world

/** One 16³ section: a palette of state ids and a byte per block indexing it; `idx` null means all palette[0]. */
class Section {
  constructor (palette, idx = null) {
    this.palette = palette // array of state ids, at most 256 (more switches to `raw`)
    this.idx = idx // Uint8Array(4096), index (y << 8) | (z << 4) | x
    this.raw = null // Uint16Array(4096) of state ids once a section holds more than 256 different states
  }

  get (i) {
    if (this.raw !== null) return this.raw[i]
    return this.idx === null ? this.palette[0] : this.palette[this.idx[i]]
  }

  set (i, state) {
    if (this.raw !== null) { this.raw[i] = state; return }
    let p = this.palette.indexOf(state)
    if (p < 0) {
      if (this.palette.length === 256) {
        const raw = new Uint16Array(4096)
        for (let j = 0; j < 4096; j++) raw[j] = this.get(j)
        raw[i] = state
        this.raw = raw; this.idx = null; this.palette = null
        return
      }
      p = this.palette.length
      this.palette.push(state)
    }
    if (this.idx === null) {
      if (p === 0) return
      this.idx = new Uint8Array(4096)
    }
    this.idx[i] = p
  }

  /** Whether any block of the section may have a state in [lo, hi] (a palette may list states no longer used). */
  mayHold (lo, hi) {
    if (this.raw !== null) return true
    for (const s of this.palette) if (s >= lo && s <= hi) return true
    return false
  }
}

class Column {
  constructor (cx, cz) {
    this.cx = cx
    this.cz = cz
    this.sections = new Array(SECTIONS).fill(null)
    this.height = new Int16Array(256) // per x + z * 16: highest BLOCKING y (MIN_Y - 1 if none)
    this.ground = new Int16Array(256) // per x + z * 16: highest GROUND y (MIN_Y - 1 if none)
    this.cells = new Uint8Array(16) // biome id per 4 × 4 cell, index (z >> 2) * 4 + (x >> 2), the same at every y
    this.biomeBytes = null // the wire biome container, the same for all 24 sections
    this.edited = false
  }

  get (x, y, z) {
    const s = this.sections[(y - MIN_Y) >> 4]
    return s === null ? 0 : s.get((((y - MIN_Y) & 15) << 8) | (z << 4) | x)
  }

  /** Sets a block (column-local x, z) and keeps the height arrays true. */
  set (x, y, z, state) {
    const si = (y - MIN_Y) >> 4
    let s = this.sections[si]
    if (s === null) {
      if (state === 0) return
      s = this.sections[si] = new Section([0])
    }
    s.set((((y - MIN_Y) & 15) << 8) | (z << 4) | x, state)
    this.edited = true
    const c = (z << 4) | x
    const f = FLAGS[state]
    if (f & BLOCKING) { if (y > this.height[c]) this.height[c] = y } else if (y === this.height[c]) this.height[c] = this.scanDown(x, y - 1, z, BLOCKING)
    if (f & GROUND) { if (y > this.ground[c]) this.ground[c] = y } else if (y === this.ground[c]) this.ground[c] = this.scanDown(x, y - 1, z, GROUND)
  }

  /** The highest y ≤ from in column x, z whose state has `flag`, or MIN_Y - 1. */
  scanDown (x, from, z, flag) {
    for (let y = from; y >= MIN_Y; y--) if (FLAGS[this.get(x, y, z)] & flag) return y
    return MIN_Y - 1
  }

  /** The chunkData bytes of map_chunk. */
  encode () {
    let size = 0
    for (const s of this.sections) size += sectionSize(s) + this.biomeBytes.length
    const buf = Buffer.allocUnsafe(size)
    let off = 0
    for (const s of this.sections) {
      off = writeSection(buf, off, s)
      off += this.biomeBytes.copy(buf, off)
    }
    return buf
  }

  /**
   * Sky light as the light fields of map_chunk: 15 above each x, z's height, 0 at and below it (no spreading
   * sideways), so caves and the ground under water and leaves are dark and the open surface is lit. No block light.
   * Sections wholly dark are flagged empty rather than left out: a vanilla client reads a section it was told
   * nothing about as lit from above. Each array is vanilla's DataLayer: block (y << 8 | z << 4 | x) in byte
   * index >> 1, the even one in the low nibble. (prismarine-chunk, so Mineflayer, reads these bytes as big-endian
   * longs and sees each row of 16 reordered: its sky light is right only in sections that are all 15 or all 0.)
   */
  light () {
    let top = MIN_Y - 1; let bottom = MIN_Y + HEIGHT
    for (let c = 0; c < 256; c++) { top = Math.max(top, this.height[c]); bottom = Math.min(bottom, this.height[c]) }
    const skyLight = []
    let mask = 0; let empty = 0
    for (let s = 0; s < LIGHT_SECTIONS; s++) {
      const y0 = MIN_Y - 16 + s * 16
      if (y0 > top) { mask |= 1 << s; skyLight.push(FULL_LIGHT); continue }
      if (y0 + 15 <= bottom) { empty |= 1 << s; continue }
      const nibbles = new Uint8Array(2048)
      for (let c = 0; c < 256; c++) {
        const from = Math.max(0, this.height[c] + 1 - y0) // lit from this dy up
        for (let dy = from; dy < 16; dy++) {
          const i = (dy << 8) | c // (y << 8) | (z << 4) | x, two blocks a byte, the even one low
          nibbles[i >> 1] |= i & 1 ? 0xf0 : 0x0f
        }
      }
      mask |= 1 << s
      skyLight.push(nibbles)
    }
    return {
      skyLightMask: [[0, mask]],
      blockLightMask: [[0, 0]],
      emptySkyLightMask: [[0, empty]],
      emptyBlockLightMask: [[0, 0]],
      skyLight,
      blockLight: []
    }
  }

  /**
   * The heightmaps a 26.1 client keeps (MOTION_BLOCKING: the height array; WORLD_SURFACE: highest non-air), each
   * 256 values of y - MIN_Y + 1 at 9 bits, 7 to a long, as [high, low] i32 pairs.
   */
  heightmaps () {
    const surface = new Int16Array(256)
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) surface[(z << 4) | x] = this.topNonAir(x, z)
    }
    return [
      { type: 'world_surface', data: packHeights(surface) },
      { type: 'motion_blocking', data: packHeights(this.height) }
    ]
  }

  topNonAir (x, z) {
    for (let si = SECTIONS - 1; si >= 0; si--) {
      const s = this.sections[si]
      if (s === null) continue
      for (let dy = 15; dy >= 0; dy--) {
        if (!(FLAGS[s.get((dy << 8) | (z << 4) | x)] & AIR)) return MIN_Y + si * 16 + dy
      }
    }
    return MIN_Y - 1
  }

  /** Recomputes height and ground for every x, z (after generation), scanning down from `top`. */
  computeHeights (top) {
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const c = (z << 4) | x
        this.height[c] = this.scanDown(x, top, z, BLOCKING)
        this.ground[c] = this.scanDown(x, this.height[c], z, GROUND)
      }
    }
  }

  /** Sets the biome cells and builds their wire container. */
  setBiomes (cells) {
    this.cells.set(cells)
    this.biomeBytes = encodeBiomes(this.cells)
  }
}

const FULL_LIGHT = new Uint8Array(2048).fill(0xff)

function neededBits (n) { return 32 - Math.clz32(n) }

function varintSize (v) { return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4 }

function writeVarint (buf, off, v) {
  while (v >= 0x80) { buf[off++] = (v & 0x7f) | 0x80; v >>>= 7 }
  buf[off++] = v
  return off
}

function blockBits (s) {
  if (s === null || (s.raw === null && s.idx === null)) return 0
  if (s.raw !== null) return DIRECT_BITS
  return Math.max(4, neededBits(s.palette.length - 1))
}

function longsFor (bits, n) { return bits === 0 ? 0 : Math.ceil(n / Math.floor(64 / bits)) }

function sectionSize (s) {
  const bits = blockBits(s)
  let size = 4 + 1
  if (bits === 0) size += varintSize(s === null ? 0 : s.palette[0])
  else if (s.raw === null) { size += varintSize(s.palette.length); for (const p of s.palette) size += varintSize(p) }
  return size + longsFor(bits, 4096) * 8
}

const HISTOGRAM = new Int32Array(256)

function writeSection (buf, off, s) {
  let nonAir = 0; let fluid = 0
  if (s !== null) {
    if (s.raw !== null) {
      for (let i = 0; i < 4096; i++) { const f = FLAGS[s.raw[i]]; if (!(f & AIR)) nonAir++; if (f & FLUID) fluid++ }
    } else if (s.idx === null) {
      const f = FLAGS[s.palette[0]]
      if (!(f & AIR)) nonAir = 4096
      if (f & FLUID) fluid = 4096
    } else {
      HISTOGRAM.fill(0, 0, s.palette.length)
      const idx = s.idx
      for (let i = 0; i < 4096; i++) HISTOGRAM[idx[i]]++
      for (let p = 0; p < s.palette.length; p++) {
        const f = FLAGS[s.palette[p]]
        if (!(f & AIR)) nonAir += HISTOGRAM[p]
        if (f & FLUID) fluid += HISTOGRAM[p]
      }
    }
  }
  buf.writeInt16BE(nonAir, off)
  buf.writeInt16BE(fluid, off + 2)
  off += 4
  const bits = blockBits(s)
  buf[off++] = bits
  if (bits === 0) return writeVarint(buf, off, s === null ? 0 : s.palette[0])
  if (s.raw !== null) return packLongs(buf, off, s.raw, 4096, bits)
  off = writeVarint(buf, off, s.palette.length)
  for (const p of s.palette) off = writeVarint(buf, off, p)
  return packLongs(buf, off, s.idx, 4096, bits)
}

/** Packs n values of `bits` bits into big-endian longs, floor(64 / bits) a long from the low bits up. */
function packLongs (buf, off, values, n, bits) {
  const per = Math.floor(64 / bits)
  let i = 0
  while (i < n) {
    let lo = 0; let hi = 0
    for (let k = 0; k < per && i < n; k++, i++) {
      const v = values[i]; const o = k * bits
      if (o + bits <= 32) lo |= v << o
      else if (o >= 32) hi |= v << (o - 32)
      else { lo |= v << o; hi |= v >>> (32 - o) }
    }
    buf.writeUInt32BE(hi >>> 0, off)
    buf.writeUInt32BE(lo >>> 0, off + 4)
    off += 8
  }
  return off
}

/** The biome container of a section whose 64 cells repeat the column's 16 (x, z) cells at each of 4 heights. */
function encodeBiomes (cells) {
  const palette = [...new Set(cells)]
  if (palette.length === 1) {
    const buf = Buffer.alloc(1 + varintSize(palette[0]))
    writeVarint(buf, 1, palette[0])
    return buf
  }
  const direct = palette.length > 8
  const bits = direct ? BIOME_BITS : neededBits(palette.length - 1)
  const values = new Uint8Array(64)
  for (let i = 0; i < 64; i++) values[i] = direct ? cells[i & 15] : palette.indexOf(cells[i & 15])
  let size = 1 + longsFor(bits, 64) * 8
  if (!direct) { size += varintSize(palette.length); for (const p of palette) size += varintSize(p) }
  const buf = Buffer.alloc(size)
  let off = 0
  buf[off++] = bits
  if (!direct) {
    off = writeVarint(buf, off, palette.length)
    for (const p of palette) off = writeVarint(buf, off, p)
  }
  packLongs(buf, off, values, 64, bits)
  return buf
}

function packHeights (heights) {
  const values = new Uint16Array(256)
  for (let c = 0; c < 256; c++) values[c] = heights[c] - MIN_Y + 1
  const buf = Buffer.alloc(longsFor(9, 256) * 8)
  packLongs(buf, 0, values, 256, 9)
  const longs = []
  for (let off = 0; off < buf.length; off += 8) longs.push([buf.readInt32BE(off), buf.readInt32BE(off + 4)])
  return longs
}

module.exports = { Column, Section, SECTIONS }
