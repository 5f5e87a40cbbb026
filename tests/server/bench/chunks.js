#!/usr/bin/env node
// How fast the natural terrain makes chunks, as a player meets them: for each seed, columns in a square spiral
// outward from the spawn chunk (the order a player walking or sprinting away from spawn needs them in), timing
// (a) generating each column and (b) generating it and serializing its map_chunk packet, as the server does.
// Seeds default to 1, 42, 31337 and one random seed (printed, to replay). Figures, not assertions: it exits
// non-zero only if something crashes. Usage: node bench/chunks.js [--seeds 1,2,3] [--chunks 400]
'use strict'

const mc = require('minecraft-protocol')
const { NaturalTerrain } = require('../lib/natural')

const args = parseArgs(process.argv.slice(2))
const CHUNKS = Number(args.chunks || 400)
const SEEDS = args.seeds ? args.seeds.split(',') : ['1', '42', '31337', String(Math.floor(Math.random() * 2 ** 31))]
const WARMUP = 24 // columns made first, away from the measured ones, so the JIT has compiled the generator
const TARGET_MS = 5

function parseArgs (argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? 'true' : argv[++i]
  }
  return out
}

/** Chunk offsets in a square spiral from 0, 0: ring by ring, as a view distance grows around a walker. */
function * spiral () {
  yield [0, 0]
  for (let r = 1; ; r++) {
    for (let x = -r; x < r; x++) yield [x, -r]
    for (let z = -r; z < r; z++) yield [r, z]
    for (let x = r; x > -r; x--) yield [x, r]
    for (let z = r; z > -r; z--) yield [-r, z]
  }
}

function stats (ms) {
  const s = [...ms].sort((a, b) => a - b)
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1] }
}

const fmt = (v) => v.toFixed(2).padStart(6)
const now = () => Number(process.hrtime.bigint()) / 1e6

const serializer = mc.createSerializer({ state: 'play', isServer: true, version: '26.1' })
let worstP95 = 0
console.log(`${CHUNKS} columns a seed, spiralling out from spawn; ms per column`)
console.log('seed         |   generate: p50    p95    max | + serialize: p50    p95    max')
for (const seed of SEEDS) {
  const terrain = new NaturalTerrain({ seed })
  const spawn = terrain.spawnPoint()
  for (let i = 0; i < WARMUP; i++) serializer.createPacketBuffer({ name: 'map_chunk', params: terrain.chunkPacket(1000 + i, 1000) })
  // A fresh world, so the spawn search's columns do not count as already made.
  const world = new NaturalTerrain({ seed })
  const scx = Math.floor(spawn.x) >> 4; const scz = Math.floor(spawn.z) >> 4
  const gen = []; const total = []
  const it = spiral()
  for (let n = 0; n < CHUNKS; n++) {
    const [dx, dz] = it.next().value
    const t0 = now()
    world.column(scx + dx, scz + dz)
    const t1 = now()
    serializer.createPacketBuffer({ name: 'map_chunk', params: world.chunkPacket(scx + dx, scz + dz) })
    const t2 = now()
    gen.push(t1 - t0); total.push(t2 - t0)
  }
  const g = stats(gen); const t = stats(total)
  worstP95 = Math.max(worstP95, g.p95)
  console.log(`${seed.padEnd(12)} |          ${fmt(g.p50)} ${fmt(g.p95)} ${fmt(g.max)} |           ${fmt(t.p50)} ${fmt(t.p95)} ${fmt(t.max)}`)
}
console.log(`p95 generation ${worstP95 <= TARGET_MS ? '≤' : '>'} ${TARGET_MS} ms on every seed: ${worstP95 <= TARGET_MS ? 'yes' : 'NO'} (worst p95 ${worstP95.toFixed(2)} ms)`)
