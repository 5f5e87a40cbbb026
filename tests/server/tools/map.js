#!/usr/bin/env node
// Draws a natural world seed from above (heights and biomes) as a PNG, the way the README shows one:
//   node tests/server/tools/map.js --seed 7 [--size 512] [--scale 1] [--out map.png]
'use strict'

const fs = require('node:fs')
const { NaturalTerrain } = require('../lib/natural')

const opts = { seed: '1', size: '512', scale: '1' }
for (let i = 2; i < process.argv.length; i += 2) opts[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
const out = opts.out ?? `seed-${opts.seed}.png`
const terrain = new NaturalTerrain({ seed: opts.seed })
const spawn = terrain.spawnPoint()
const started = Date.now()
const png = terrain.mapPng({ x: spawn.x, z: spawn.z, size: Number(opts.size), scale: Number(opts.scale) })
fs.writeFileSync(out, png)
console.log(`${out}: seed ${opts.seed}, ${opts.size}×${opts.size} px at ${opts.scale} block(s) a pixel around spawn ${Math.floor(spawn.x)} ${Math.floor(spawn.z)}, drawn in ${Date.now() - started} ms`)
