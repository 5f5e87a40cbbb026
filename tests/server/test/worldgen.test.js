// The natural terrain generator on its own (no server process): the same seed gives the same world, its chunk
// packets say what stateAt says (read back by prismarine-chunk and by minecraft-protocol's 26.1 client-side
// parser), the world looks like a vanilla overworld in proportion (ground height, sea level, bedrock, deepslate,
// ores at their heights, caves, trees), nothing floats, edits stick, and the map is a PNG.
'use strict'

const { test } = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const zlib = require('node:zlib')
const mc = require('minecraft-protocol')
const mcData = require('minecraft-data')('26.1')
const { Vec3 } = require('vec3')
const { NaturalTerrain, SEA_LEVEL } = require('../lib/natural')
const { registry, stateOf, MIN_Y, HEIGHT } = require('../lib/terrain')
const { FLAGS, GROUND } = require('../lib/worldgen/blocks')
const Chunk = require('prismarine-chunk')(registry)

const MAX_Y = MIN_Y + HEIGHT - 1
const nameAt = (t, x, y, z) => registry.blocksByStateId[t.stateAt(x, y, z)].name

/** SHA-256 over the block states of the 3 × 3 chunks around cx, cz. */
function digest (t, cx, cz) {
  const hash = crypto.createHash('sha256')
  const states = new Uint16Array(16 * 16 * HEIGHT)
  for (let dz = -1; dz <= 1; dz++) {
    for (let dx = -1; dx <= 1; dx++) {
      let i = 0
      for (let y = MIN_Y; y <= MAX_Y; y++) {
        for (let z = 0; z < 16; z++) for (let x = 0; x < 16; x++) states[i++] = t.stateAt((cx + dx) * 16 + x, y, (cz + dz) * 16 + z)
      }
      hash.update(states)
    }
  }
  return hash.digest('hex')
}

/** Calls fn(x, y, z, name) for every block of chunk cx, cz from y0 to y1. */
function eachBlock (t, cx, cz, y0, y1, fn) {
  for (let y = y0; y <= y1; y++) {
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) fn(cx * 16 + x, y, cz * 16 + z, nameAt(t, cx * 16 + x, y, cz * 16 + z))
    }
  }
}

// A sample of the world for the proportion tests: 3 seeds × 12 chunks spread over ~600 blocks.
const SAMPLE_SEEDS = [3, 1234, 'wayfarer']
const sample = SAMPLE_SEEDS.map((seed) => {
  const t = new NaturalTerrain({ seed })
  const chunks = []
  for (let i = 0; i < 12; i++) chunks.push([(i % 4) * 11 - 17, Math.floor(i / 4) * 13 - 15])
  return { seed, t, chunks }
})

test('the same seed gives the same world; another seed another; "42" is 42', () => {
  const a = digest(new NaturalTerrain({ seed: 42 }), 2, -3)
  assert.equal(digest(new NaturalTerrain({ seed: 42 }), 2, -3), a)
  assert.equal(digest(new NaturalTerrain({ seed: '42' }), 2, -3), a)
  assert.notEqual(digest(new NaturalTerrain({ seed: 43 }), 2, -3), a)
  const t = new NaturalTerrain({ seed: 'a string seed' })
  assert.equal(t.kind, 'natural')
  assert.equal(t.seed, 'a string seed')
  assert.equal(new NaturalTerrain({ seed: '42' }).seed, 42)
})

test('a column is the same whichever order columns are made in (trees across borders included)', () => {
  const a = new NaturalTerrain({ seed: 7 }); const b = new NaturalTerrain({ seed: 7 })
  for (let cx = -2; cx <= 2; cx++) for (let cz = -2; cz <= 2; cz++) a.column(cx, cz)
  for (let cx = 2; cx >= -2; cx--) for (let cz = 2; cz >= -2; cz--) b.column(cx, cz)
  assert.equal(digest(a, 0, 0), digest(b, 0, 0))
})

test('biome ids are the positions the server sends in its worldgen/biome registry', () => {
  const sent = mcData.loginPacket.dimensionCodec['minecraft:worldgen/biome'].entries.map((e) => e.key.replace('minecraft:', ''))
  for (const name of ['ocean', 'deep_ocean', 'river', 'beach', 'snowy_beach', 'plains', 'forest', 'birch_forest', 'taiga', 'snowy_taiga', 'snowy_plains', 'desert']) {
    assert.equal(sent.indexOf(name), registry.biomesByName[name].id, name)
  }
})

test('prismarine-chunk reads the chunk data back as the same blocks and biomes; sky light is 15 above the height', () => {
  const t = new NaturalTerrain({ seed: 1 })
  const pos = new Vec3(0, 0, 0)
  for (const [cx, cz] of [[0, 0], [-3, 5], [7, -2], [40, 40]]) {
    const p = t.chunkPacket(cx, cz)
    const chunk = new Chunk({ minY: MIN_Y, worldHeight: HEIGHT })
    chunk.load(p.chunkData)
    let states = 0; let biomes = 0
    for (let y = MIN_Y; y <= MAX_Y; y++) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          pos.set(x, y, z)
          if (chunk.getBlockStateId(pos) !== t.stateAt(cx * 16 + x, y, cz * 16 + z)) states++
          if (registry.biomes[chunk.getBiome(pos)].name !== t.biomeAt(cx * 16 + x, cz * 16 + z)) biomes++
        }
      }
    }
    assert.equal(states, 0, `block states differing in chunk ${cx},${cz}`)
    assert.equal(biomes, 0, `biomes differing in chunk ${cx},${cz}`)
    // Non-air counts as written (26.1's i16 block count, then i16 fluid count).
    for (let s = 0; s < chunk.sections.length; s++) {
      let nonAir = 0
      for (let i = 0; i < 4096; i++) if (!['air', 'cave_air', 'void_air'].includes(registry.blocksByStateId[chunk.sections[s].data.get(i)].name)) nonAir++
      assert.equal(chunk.sections[s].solidBlockCount, nonAir, `section ${s} block count`)
    }

    // Sky light in vanilla's DataLayer order: byte i >> 1, the even index in the low nibble.
    const mask = p.skyLightMask[0][1]; const empty = p.emptySkyLightMask[0][1]
    let next = 0; let wrong = 0
    for (let s = 0; s < 26; s++) {
      assert.ok(!((mask >> s) & 1 && (empty >> s) & 1), 'a section is either sent or empty')
      const data = (mask >> s) & 1 ? p.skyLight[next++] : null
      if (!data && !((empty >> s) & 1)) assert.fail(`light section ${s} neither sent nor empty`)
      for (let i = 0; i < 4096; i++) {
        const y = MIN_Y - 16 + s * 16 + (i >> 8); const x = i & 15; const z = (i >> 4) & 15
        const light = data ? (data[i >> 1] >> ((i & 1) * 4)) & 15 : 0
        if (light !== (y > t.heightAt(cx * 16 + x, cz * 16 + z) ? 15 : 0)) wrong++
      }
    }
    assert.equal(next, p.skyLight.length)
    assert.equal(wrong, 0, 'sky light differs from the height rule')
  }
})

test('the map_chunk packet serializes, and a 26.1 client-side parser reads it back', () => {
  const t = new NaturalTerrain({ seed: 31337 })
  const serializer = mc.createSerializer({ state: 'play', isServer: true, version: '26.1' })
  const deserializer = mc.createDeserializer({ state: 'play', isServer: false, version: '26.1' })
  const params = t.chunkPacket(-1, 2)
  const buffer = serializer.createPacketBuffer({ name: 'map_chunk', params })
  const { data } = deserializer.parsePacketBuffer(buffer)
  assert.equal(data.name, 'map_chunk')
  assert.equal(data.params.x, -1)
  assert.equal(data.params.z, 2)
  assert.deepEqual(Buffer.from(data.params.chunkData), params.chunkData)
  assert.equal(data.params.skyLight.length, params.skyLight.length)
  // MOTION_BLOCKING: 9-bit values, 7 a long, of height - MIN_Y + 1.
  const motion = data.params.heightmaps.find((h) => h.type === 'motion_blocking')
  assert.equal(motion.data.length, 37)
  for (const [x, z] of [[0, 0], [5, 9], [15, 15]]) {
    const i = z * 16 + x
    const [hi, lo] = motion.data[Math.floor(i / 7)]
    const long = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)
    const value = Number((long >> BigInt((i % 7) * 9)) & 511n)
    assert.equal(value, t.heightAt(-16 + x, 32 + z) - MIN_Y + 1)
  }
})

test('ground mostly at y 55–100, water up to sea level over low ground, bedrock floor, deepslate below 0', () => {
  let columns = 0; let inRange = 0
  for (const { t, chunks } of sample) {
    for (const [cx, cz] of chunks) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          const wx = cx * 16 + x; const wz = cz * 16 + z
          const ground = t.surfaceAt(wx, wz)
          columns++
          if (ground.y >= 55 && ground.y <= 100) inRange++
          assert.ok(ground.y < 130, `ground at ${ground.y}`)
          assert.equal(nameAt(t, wx, MIN_Y, wz), 'bedrock')
          if (ground.y < SEA_LEVEL && nameAt(t, wx, ground.y + 1, wz) !== 'air') {
            // Under water: water from above the floor up to sea level, then air.
            for (let y = ground.y + 1; y <= SEA_LEVEL; y++) assert.equal(nameAt(t, wx, y, wz), 'water', `${wx} ${y} ${wz}`)
            assert.notEqual(nameAt(t, wx, SEA_LEVEL + 1, wz), 'water')
            assert.ok(t.heightAt(wx, wz) >= SEA_LEVEL) // leaves of a tree on the shore may hang over the water
          }
        }
      }
      eachBlock(t, cx, cz, MIN_Y, 20, (x, y, z, name) => {
        if (y < 0) assert.notEqual(name, 'stone', `stone below y 0 at ${x} ${y} ${z}`)
        if (y >= 8) assert.ok(!name.startsWith('deepslate'), `${name} above y 8 at ${x} ${y} ${z}`)
        if (name === 'lava') assert.ok(y <= -55, `lava above the lava level at ${x} ${y} ${z}`)
      })
    }
  }
  assert.ok(inRange / columns > 0.6, `only ${(100 * inRange / columns).toFixed(0)}% of the ground is at y 55–100`)
})

test('ores at their vanilla heights, replacing only stone and deepslate; coal is common, diamond deep', () => {
  const found = {}
  for (const { t, chunks } of sample) {
    for (const [cx, cz] of chunks) {
      eachBlock(t, cx, cz, MIN_Y, 140, (x, y, z, name) => {
        if (!name.endsWith('_ore')) return
        const ore = name.replace('deepslate_', '')
        found[ore] = found[ore] || { n: 0, lo: Infinity, hi: -Infinity }
        found[ore].n++; found[ore].lo = Math.min(found[ore].lo, y); found[ore].hi = Math.max(found[ore].hi, y)
        // The deepslate variant where it replaced deepslate, the stone one where stone.
        if (y < 0) assert.ok(name.startsWith('deepslate_'), `${name} at y ${y}`)
        if (y >= 8) assert.ok(!name.startsWith('deepslate_'), `${name} at y ${y}`)
      })
    }
  }
  const chunks = sample.reduce((n, s) => n + s.chunks.length, 0)
  for (const ore of ['coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'redstone_ore', 'lapis_ore', 'diamond_ore']) assert.ok(found[ore], `no ${ore} in ${chunks} chunks`)
  assert.ok(found.coal_ore.n / chunks > 20, `coal: ${found.coal_ore.n / chunks} a chunk`)
  // Diamond veins centre at y ≤ 16 (a trapezoid over -144..16); a vein's spheres reach a block past its centre.
  assert.ok(found.diamond_ore.hi <= 17, `diamond at y ${found.diamond_ore.hi}`)
  assert.ok(found.redstone_ore.hi <= 17, `redstone at y ${found.redstone_ore.hi}`)
  assert.ok(found.gold_ore.hi <= 34, `gold at y ${found.gold_ore.hi}`)
  assert.ok(found.copper_ore.lo >= -18 && found.copper_ore.hi <= 114, `copper at ${found.copper_ore.lo}..${found.copper_ore.hi}`)
  assert.ok(found.coal_ore.lo >= -2, `coal at y ${found.coal_ore.lo}`)
})

test('caves: carved underground, some open to the sky on land, lava pools at the bottom', () => {
  let underground = 0; let carved = 0; let openings = 0; let lava = 0
  const s = {}
  for (const { t, chunks } of sample) {
    for (const [cx, cz] of chunks) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          const wx = cx * 16 + x; const wz = cz * 16 + z
          const h = t.gen.shape.sample(wx, wz, s).h // the ground before caves
          for (let y = -50; y < h - 8; y += 2) {
            underground++
            if (t.stateAt(wx, y, wz) === 0) carved++
          }
          // A cave opening: land whose top block went missing (the sky reaches below the ground's height).
          if (h > SEA_LEVEL + 2 && t.heightAt(wx, wz) < h && t.surfaceAt(wx, wz).y < h) openings++
          for (let y = -58; y <= -55; y++) if (nameAt(t, wx, y, wz) === 'lava') lava++
        }
      }
    }
  }
  const fraction = carved / underground
  assert.ok(fraction > 0.02 && fraction < 0.2, `${(100 * fraction).toFixed(1)}% of the underground is cave`)
  assert.ok(openings > 0, 'no cave reaches the surface')
  assert.ok(lava > 0, 'no lava at the bottom')
})

test('trees: trunks of 4–7 logs on dirt with leaves, no leaf without a log near it', () => {
  let trees = 0
  for (const { t, chunks } of sample) {
    for (const [cx, cz] of chunks) {
      eachBlock(t, cx, cz, SEA_LEVEL, 140, (x, y, z, name) => {
        if (name.endsWith('_log') && !nameAt(t, x, y - 1, z).endsWith('_log')) {
          let top = y
          while (nameAt(t, x, top + 1, z).endsWith('_log')) top++
          const logs = top - y + 1
          assert.ok(logs >= 4 && logs <= 7, `a trunk of ${logs} logs at ${x} ${y} ${z}`)
          assert.equal(nameAt(t, x, y - 1, z), 'dirt', `a trunk at ${x} ${y} ${z} on ${nameAt(t, x, y - 1, z)}`)
          const leaves = name.replace('_log', '_leaves')
          assert.ok([[0, 1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]].some(([dx, dy, dz]) => nameAt(t, x + dx, top + dy, z + dz) === leaves), `no ${leaves} by the top of ${x} ${y} ${z}`)
          trees++
        }
        if (name.endsWith('_leaves')) {
          let near = false
          for (let dy = -1; dy <= 1 && !near; dy++) {
            for (let dz = -2; dz <= 2 && !near; dz++) {
              for (let dx = -2; dx <= 2 && !near; dx++) if (nameAt(t, x + dx, y - dy, z + dz).endsWith('_log')) near = true
            }
          }
          assert.ok(near, `leaves without a trunk at ${x} ${y} ${z}`)
        }
      })
    }
  }
  assert.ok(trees > 10, `only ${trees} trees`)
})

test('nothing floats: plants stand on ground, sand and gravel rest on something', () => {
  const plants = new Set(['short_grass', 'fern', 'dandelion', 'poppy', 'oxeye_daisy', 'azure_bluet', 'cornflower', 'dead_bush', 'snow'])
  for (const { t, chunks } of sample) {
    for (const [cx, cz] of chunks) {
      eachBlock(t, cx, cz, -58, 140, (x, y, z, name) => {
        if (plants.has(name)) assert.ok(FLAGS[t.stateAt(x, y - 1, z)] & GROUND, `${name} over ${nameAt(t, x, y - 1, z)} at ${x} ${y} ${z}`)
        if (name === 'cactus') assert.ok(['sand', 'cactus'].includes(nameAt(t, x, y - 1, z)), `cactus over ${nameAt(t, x, y - 1, z)}`)
        if (name === 'sand' || name === 'gravel') {
          const below = nameAt(t, x, y - 1, z)
          assert.ok(!['air', 'lava', 'water'].includes(below), `${name} over ${below} at ${x} ${y} ${z}`)
        }
      })
    }
  }
})

test('biomes: plains, forest, taiga, desert, ocean, beach and river all exist; locateBiome finds them', () => {
  const t = new NaturalTerrain({ seed: 1 })
  for (const name of ['plains', 'forest', 'taiga', 'desert', 'ocean', 'beach', 'river']) {
    const at = t.locateBiome(name, { x: 0, z: 0 }, 3000)
    assert.ok(at, `no ${name} within 3000 blocks`)
    assert.equal(t.biomeAt(at.x, at.z), name)
  }
  assert.equal(t.locateBiome('nether_wastes', { x: 0, z: 0 }, 64), null)
  assert.throws(() => t.locateBiome('not_a_biome', { x: 0, z: 0 }, 64), /unknown biome/)
})

test('the spawn point stands on dry solid ground with two air blocks above, the same each time', () => {
  for (const seed of [1, 42, 31337, 'wayfarer']) {
    const t = new NaturalTerrain({ seed })
    const spawn = t.spawnPoint()
    const [x, y, z] = [Math.floor(spawn.x), spawn.y, Math.floor(spawn.z)]
    assert.equal(spawn.x, x + 0.5); assert.equal(spawn.z, z + 0.5)
    const ground = t.blockAt(x, y - 1, z)
    assert.equal(ground.boundingBox, 'block')
    assert.ok(!ground.name.endsWith('_leaves') && ground.name !== 'water', `spawn on ${ground.name}`)
    assert.equal(nameAt(t, x, y, z), 'air'); assert.equal(nameAt(t, x, y + 1, z), 'air')
    assert.equal(t.surfaceAt(x, z).y, y - 1)
    assert.ok(Math.hypot(x, z) < 300, `spawn ${x}, ${z} is far from 0, 0`)
    assert.deepEqual(new NaturalTerrain({ seed }).spawnPoint(), spawn)
  }
})

test('edits show in stateAt, heights and the next chunk packet, and survive the column cache', () => {
  const t = new NaturalTerrain({ seed: 9, maxColumns: 4 })
  const spawn = t.spawnPoint()
  const x = Math.floor(spawn.x); const z = Math.floor(spawn.z); const y = spawn.y
  const before = t.chunkPacket(x >> 4, z >> 4).chunkData
  assert.equal(t.setState(x, y - 1, z, 0), true) // dig out the ground
  assert.ok(t.surfaceAt(x, z).y < y - 1)
  assert.equal(t.heightAt(x, z), t.surfaceAt(x, z).y)
  assert.equal(t.setState(x, y + 5, z, stateOf('gold_block')), true)
  assert.equal(t.setState(x, MAX_Y + 1, z, stateOf('stone')), false)
  assert.equal(nameAt(t, x, y + 5, z), 'gold_block')
  assert.equal(t.heightAt(x, z), y + 5)
  assert.equal(t.surfaceAt(x, z).y, y + 5)
  const p = t.chunkPacket(x >> 4, z >> 4)
  assert.notDeepEqual(p.chunkData, before)
  const chunk = new Chunk({ minY: MIN_Y, worldHeight: HEIGHT })
  chunk.load(p.chunkData)
  assert.equal(registry.blocksByStateId[chunk.getBlockStateId(new Vec3(x & 15, y + 5, z & 15))].name, 'gold_block')
  assert.equal(chunk.getBlockStateId(new Vec3(x & 15, y - 1, z & 15)), 0)
  // Far more columns than the cache holds: the edited one stays as edited.
  for (let i = 0; i < 12; i++) t.column(100 + i, 100)
  assert.equal(nameAt(t, x, y + 5, z), 'gold_block')
  t.setState(x, y + 5, z, 0)
  assert.equal(t.heightAt(x, z), t.surfaceAt(x, z).y)
  // Many states in one section switch it to a direct palette, which must still round-trip.
  const many = registry.blocksArray.filter((b) => b.boundingBox === 'block').slice(0, 300).map((b) => b.defaultState)
  many.forEach((s, i) => t.setState(16 * 50 + (i & 15), 200 + ((i >> 8) & 15), 16 * 50 + ((i >> 4) & 15), s))
  const chunk2 = new Chunk({ minY: MIN_Y, worldHeight: HEIGHT })
  chunk2.load(t.chunkPacket(50, 50).chunkData)
  many.forEach((s, i) => assert.equal(chunk2.getBlockStateId(new Vec3(i & 15, 200 + ((i >> 8) & 15), (i >> 4) & 15)), s))
})

test('locateBlock finds the nearest block of a kind within the radius, or null', () => {
  const t = new NaturalTerrain({ seed: 1 })
  const from = t.spawnPoint()
  const coal = t.locateBlock('coal_ore', from, 64)
  assert.ok(coal, 'no coal within 64 blocks')
  assert.equal(nameAt(t, coal.x, coal.y, coal.z), 'coal_ore')
  const d = Math.hypot(coal.x - from.x, coal.y - from.y, coal.z - from.z)
  // Nothing nearer in the 3 × 3 chunks around it (a brute-force check).
  const fcx = Math.floor(from.x) >> 4; const fcz = Math.floor(from.z) >> 4
  for (let cx = fcx - 1; cx <= fcx + 1; cx++) {
    for (let cz = fcz - 1; cz <= fcz + 1; cz++) {
      eachBlock(t, cx, cz, MIN_Y, 140, (x, y, z, name) => {
        if (name === 'coal_ore') assert.ok(Math.hypot(x - from.x, y - from.y, z - from.z) >= d - 1e-9)
      })
    }
  }
  assert.equal(t.locateBlock('diamond_block', from, 16), null)
  assert.throws(() => t.locateBlock('no_such_block', from, 16), /unknown block/)
})

test('the map is a PNG of the requested size', () => {
  const t = new NaturalTerrain({ seed: 1 })
  const png = t.mapPng({ x: 0, z: 0, size: 96, scale: 2 })
  assert.deepEqual(png.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  assert.equal(png.toString('latin1', 12, 16), 'IHDR')
  assert.equal(png.readUInt32BE(16), 96)
  assert.equal(png.readUInt32BE(20), 96)
  // The pixels inflate to 96 rows of a filter byte and 96 RGB pixels.
  const idat = png.indexOf('IDAT', 0, 'latin1')
  const length = png.readUInt32BE(idat - 4)
  const raw = zlib.inflateSync(png.subarray(idat + 4, idat + 4 + length))
  assert.equal(raw.length, 96 * (1 + 96 * 3))
  // Not one flat colour: water, land and trees differ.
  const colours = new Set()
  for (let row = 0; row < 96; row++) {
    for (let px = 0; px < 96; px++) colours.add(raw.readUIntBE(row * (1 + 96 * 3) + 1 + px * 3, 3))
  }
  assert.ok(colours.size > 20)
  assert.equal(t.has(0, 0), false, 'the map generated chunks')
})
