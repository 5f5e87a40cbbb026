#!/usr/bin/env node
// Writes the blueprint files Wayfarer's tests read, with prismarine-nbt (an NBT writer Wayfarer does not share code
// with): a vanilla structure-block file, Sponge schematics of versions 2 and 3, and a cut-off one.
//   node tests/server/tools/blueprint_files.js [--out tests/data/blueprints]
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const nbt = require('prismarine-nbt')

const out = process.argv[2] === '--out' ? process.argv[3] : path.join(__dirname, '../../data/blueprints')
fs.mkdirSync(out, { recursive: true })

// A gate: two cobblestone posts, a log lintel lying east-west, slabs and stairs on top, air in the opening.
const GATE = [
  ...[0, 1].flatMap((y) => [b(0, y, 0, 'cobblestone'), b(1, y, 0, 'air'), b(2, y, 0, 'cobblestone')]),
  ...[0, 1, 2].map((x) => b(x, 2, 0, 'oak_log', { axis: 'x' })),
  b(0, 3, 0, 'stone_slab', { type: 'bottom' }),
  b(1, 3, 0, 'oak_stairs', { facing: 'south', half: 'bottom' }),
  b(2, 3, 0, 'stone_slab', { type: 'bottom' })
]

// A post with a step: an upright log, planks beside it, a stair facing north on the planks.
const POST = [
  b(0, 0, 0, 'oak_log', { axis: 'y' }), b(0, 1, 0, 'oak_log', { axis: 'y' }), b(0, 2, 0, 'oak_log', { axis: 'y' }),
  b(1, 0, 0, 'oak_planks'), b(1, 1, 0, 'spruce_stairs', { facing: 'north', half: 'bottom' }),
  b(0, 0, 1, 'oak_planks'), b(1, 0, 1, 'air')
]

function b (x, y, z, name, properties = {}) { return { x, y, z, name, properties } }

function size (blocks) { return ['x', 'y', 'z'].map((k) => Math.max(...blocks.map((p) => p[k])) + 1) }

/** The block as Sponge writes it: `minecraft:oak_log[axis=x]`. */
function stateString ({ name, properties }) {
  const props = Object.entries(properties).sort().map(([k, v]) => `${k}=${v}`)
  return `minecraft:${name}${props.length ? `[${props.join(',')}]` : ''}`
}

function structureFile (blocks) {
  const palette = []
  const index = (p) => {
    const key = stateString(p)
    let i = palette.findIndex((q) => stateString(q) === key)
    if (i < 0) { palette.push(p); i = palette.length - 1 }
    return i
  }
  const entries = blocks.map((p) => nbt.comp({ pos: nbt.list(nbt.int([p.x, p.y, p.z])), state: nbt.int(index(p)) }))
  const root = nbt.comp({
    DataVersion: nbt.int(4671),
    size: nbt.list(nbt.int(size(blocks))),
    palette: nbt.list(nbt.comp(palette.map((p) => {
      const entry = { Name: nbt.string(`minecraft:${p.name}`) }
      if (Object.keys(p.properties).length) {
        entry.Properties = nbt.comp(Object.fromEntries(Object.entries(p.properties).map(([k, v]) => [k, nbt.string(v)])))
      }
      return entry
    }))),
    blocks: nbt.list(nbt.comp(entries.map((e) => e.value))),
    entities: nbt.list(nbt.comp([]))
  }, '')
  return zlib.gzipSync(nbt.writeUncompressed(root))
}

function varints (values) {
  const bytes = []
  for (let v of values) {
    do { let byte = v & 0x7f; v >>>= 7; if (v) byte |= 0x80; bytes.push(byte) } while (v)
  }
  return bytes.map((x) => (x > 127 ? x - 256 : x))
}

function spongeFile (blocks, version) {
  const [w, h, l] = size(blocks)
  const palette = { 'minecraft:air': 0 }
  const data = new Array(w * h * l).fill(0)
  for (const p of blocks) {
    const key = stateString(p)
    if (!(key in palette)) palette[key] = Object.keys(palette).length
    data[p.x + p.z * w + p.y * w * l] = palette[key]
  }
  const paletteTag = nbt.comp(Object.fromEntries(Object.entries(palette).map(([k, v]) => [k, nbt.int(v)])))
  const common = { Version: nbt.int(version), DataVersion: nbt.int(4671), Width: nbt.short(w), Height: nbt.short(h), Length: nbt.short(l), Offset: nbt.intArray([0, 0, 0]) }
  const root = version === 3
    ? nbt.comp({ Schematic: nbt.comp({ ...common, Blocks: nbt.comp({ Palette: paletteTag, Data: nbt.byteArray(varints(data)) }) }) }, '')
    : nbt.comp({ ...common, PaletteMax: nbt.int(Object.keys(palette).length), Palette: paletteTag, BlockData: nbt.byteArray(varints(data)) }, 'Schematic')
  return zlib.gzipSync(nbt.writeUncompressed(root))
}

const files = {
  'gate.nbt': structureFile(GATE),
  'post.schem': spongeFile(POST, 3),
  'post_v2.schem': spongeFile(POST, 2)
}
files['cut_off.nbt'] = files['gate.nbt'].subarray(0, Math.floor(files['gate.nbt'].length / 2))
for (const [name, bytes] of Object.entries(files)) {
  fs.writeFileSync(path.join(out, name), bytes)
  console.log(`${path.join(out, name)}: ${bytes.length} bytes`)
}
