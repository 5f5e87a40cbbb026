// The test world's terrain: a deterministic superflat overworld (bedrock at y=-64, stone up to 59, dirt 60..62,
// grass at 63) plus the block edits tests make. Chunks are cloned from one template column, so streaming a new
// chunk costs a copy, not 100 000 block writes.
'use strict'

const { Vec3 } = require('vec3')
const registry = require('prismarine-registry')('26.1')
const Chunk = require('prismarine-chunk')(registry)

const MIN_Y = -64
const HEIGHT = 384
const GROUND_Y = 63 // the grass layer; players stand at y = 64

function stateOf (name) {
  const block = registry.blocksByName[name]
  if (!block) throw new Error(`unknown block ${JSON.stringify(name)}`)
  return block.defaultState
}

function buildTemplate () {
  const chunk = new Chunk({ minY: MIN_Y, worldHeight: HEIGHT })
  const layers = [[-64, -64, 'bedrock'], [-63, 59, 'stone'], [60, 62, 'dirt'], [63, 63, 'grass_block']]
  const pos = new Vec3(0, 0, 0)
  for (let x = 0; x < 16; x++) {
    for (let z = 0; z < 16; z++) {
      pos.x = x; pos.z = z
      for (const [from, to, name] of layers) {
        const state = stateOf(name)
        for (let y = from; y <= to; y++) { pos.y = y; chunk.setBlockStateId(pos, state) }
      }
      for (let y = GROUND_Y + 1; y < MIN_Y + HEIGHT; y++) { pos.y = y; chunk.setSkyLight(pos, 15) }
    }
  }
  // Superflat is plains (biomes are stored per 4×4×4 cell; left alone they would be id 0, badlands).
  const plains = registry.biomesByName.plains.id
  for (let x = 0; x < 16; x += 4) {
    for (let z = 0; z < 16; z += 4) {
      for (let y = MIN_Y; y < MIN_Y + HEIGHT; y += 4) { pos.x = x; pos.y = y; pos.z = z; chunk.setBiome(pos, plains) }
    }
  }
  return chunk
}

class Terrain {
  constructor () {
    this.kind = 'flat'
    this.seed = null
    this.template = buildTemplate()
    this.templateData = this.template.dump()
    this.templateLight = this.template.dumpLight() // edits do not relight: every column keeps full sky light
    this.edited = new Map() // "cx,cz" -> Chunk, only for columns with edits
    this.packets = new Map() // "cx,cz" -> cached map_chunk fields
  }

  key (cx, cz) { return `${cx},${cz}` }

  column (cx, cz) {
    return this.edited.get(this.key(cx, cz)) || this.template
  }

  /** The block state id at a world position. */
  stateAt (x, y, z) {
    if (y < MIN_Y || y >= MIN_Y + HEIGHT) return 0
    return this.column(Math.floor(x / 16), Math.floor(z / 16)).getBlockStateId(new Vec3(mod16(x), y, mod16(z)))
  }

  blockAt (x, y, z) {
    return registry.blocksByStateId[this.stateAt(x, y, z)]
  }

  /** Sets a block (by state id); returns false if y is outside the world. */
  setState (x, y, z, state) {
    if (y < MIN_Y || y >= MIN_Y + HEIGHT) return false
    const cx = Math.floor(x / 16)
    const cz = Math.floor(z / 16)
    const key = this.key(cx, cz)
    let chunk = this.edited.get(key)
    if (!chunk) {
      chunk = new Chunk({ minY: MIN_Y, worldHeight: HEIGHT })
      chunk.load(this.templateData)
      this.edited.set(key, chunk)
    }
    chunk.setBlockStateId(new Vec3(mod16(x), y, mod16(z)), state)
    this.packets.delete(key)
    return true
  }

  /** The y of the highest block in a column that is not air (the grass at 63 unless a test built on it). */
  heightAt (x, z) {
    for (let y = MIN_Y + HEIGHT - 1; y >= MIN_Y; y--) if (this.stateAt(x, y, z) !== AIR) return y
    return MIN_Y - 1
  }

  /** The highest solid block of a column and its name: what a player would stand on. */
  surfaceAt (x, z) {
    for (let y = MIN_Y + HEIGHT - 1; y >= MIN_Y; y--) {
      const block = this.blockAt(x, y, z)
      if (block.boundingBox === 'block') return { y, block: block.name }
    }
    return { y: MIN_Y - 1, block: 'air' }
  }

  biomeAt () { return 'plains' }

  spawnPoint () { return { x: 0.5, y: GROUND_Y + 1, z: 0.5 } }

  /** The nearest block called `name` within `radius` blocks (horizontally) of `from`, or null. */
  locateBlock (name, from, radius) {
    const state = stateOf(name)
    let best = null; let bestD = Infinity
    const [x0, x1] = [Math.floor((from.x - radius) / 16), Math.floor((from.x + radius) / 16)]
    const [z0, z1] = [Math.floor((from.z - radius) / 16), Math.floor((from.z + radius) / 16)]
    for (let cx = x0; cx <= x1; cx++) {
      for (let cz = z0; cz <= z1; cz++) {
        const chunk = this.column(cx, cz)
        if (chunk === this.template && !TEMPLATE_STATES.has(state)) continue
        for (let y = MIN_Y; y < MIN_Y + HEIGHT; y++) {
          for (let x = 0; x < 16; x++) {
            for (let z = 0; z < 16; z++) {
              if (chunk.getBlockStateId(new Vec3(x, y, z)) !== state) continue
              const at = { x: cx * 16 + x, y, z: cz * 16 + z }
              const d = (at.x - from.x) ** 2 + (at.y - from.y) ** 2 + (at.z - from.z) ** 2
              if (d < bestD && Math.abs(at.x - from.x) <= radius && Math.abs(at.z - from.z) <= radius) { best = at; bestD = d }
            }
          }
        }
      }
    }
    return best
  }

  locateBiome (name, from) { return name === 'plains' ? { x: Math.floor(from.x), z: Math.floor(from.z) } : null }

  /** The map_chunk packet fields for a column. */
  chunkPacket (cx, cz) {
    const key = this.key(cx, cz)
    let cached = this.packets.get(key) || (this.edited.has(key) ? null : this.packets.get('template'))
    if (!cached) {
      cached = { chunkData: this.column(cx, cz).dump(), ...this.templateLight }
      this.packets.set(this.edited.has(key) ? key : 'template', cached)
    }
    return { x: cx, z: cz, heightmaps: [], blockEntities: [], ...cached }
  }
}

function mod16 (v) { return ((v % 16) + 16) % 16 }

const AIR = stateOf('air')
const TEMPLATE_STATES = new Set(['bedrock', 'stone', 'dirt', 'grass_block', 'air'].map(stateOf))

module.exports = { Terrain, stateOf, registry, MIN_Y, HEIGHT, GROUND_Y }
