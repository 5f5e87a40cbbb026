// Seeded simplex noise for the natural terrain (the simplex-noise package, seeded through alea). Each field also
// gets a seeded offset: simplex noise is 0 at its lattice points, the origin among them, so without one every
// world would share its shape at 0, 0 (a river through spawn at the meeting point of four biomes).
'use strict'

const { createNoise2D, createNoise3D } = require('simplex-noise')
const alea = require('alea')

/** A 2D noise field in [-1, 1] named `name` within the world `seed`. */
function noise2D (seed, name) {
  const noise = createNoise2D(alea(seed, name))
  const random = alea(seed, name, 'offset')
  const ox = random() * 4096; const oz = random() * 4096
  return (x, z) => noise(x + ox, z + oz)
}

/** A 3D noise field in [-1, 1] named `name` within the world `seed`. */
function noise3D (seed, name) {
  const noise = createNoise3D(alea(seed, name))
  const random = alea(seed, name, 'offset')
  const ox = random() * 4096; const oy = random() * 4096; const oz = random() * 4096
  return (x, y, z) => noise(x + ox, y + oy, z + oz)
}

module.exports = { noise2D, noise3D }
