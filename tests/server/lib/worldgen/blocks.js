// Block states and per-state facts the natural terrain generator needs, looked up once: the states it places
// (vanilla 26.1 names) and a flag table over every state id, so the generator and the column store can ask
// "does this block stop motion?" with one array read instead of a registry lookup.
'use strict'

const { stateOf, registry } = require('../terrain')

/** The states the generator places, by short name. Leaves and logs are their default states (axis y, leaves not persistent). */
const S = {}
for (const name of [
  'air', 'stone', 'deepslate', 'bedrock', 'dirt', 'podzol', 'sand', 'sandstone', 'gravel', 'water', 'lava',
  'oak_log', 'oak_leaves', 'birch_log', 'birch_leaves', 'spruce_log', 'spruce_leaves',
  'short_grass', 'fern', 'dandelion', 'poppy', 'oxeye_daisy', 'azure_bluet', 'cornflower', 'dead_bush', 'cactus', 'snow',
  'coal_ore', 'deepslate_coal_ore', 'iron_ore', 'deepslate_iron_ore', 'copper_ore', 'deepslate_copper_ore',
  'gold_ore', 'deepslate_gold_ore', 'redstone_ore', 'deepslate_redstone_ore', 'lapis_ore', 'deepslate_lapis_ore',
  'diamond_ore', 'deepslate_diamond_ore', 'granite', 'diorite', 'andesite', 'tuff'
]) S[name] = stateOf(name)
S.grass_block = stateOf('grass_block') // snowy=false
S.snowy_grass_block = registry.blocksByName.grass_block.minStateId // snowy=true (booleans list true first)
S.snowy_podzol = registry.blocksByName.podzol.minStateId

/** Highest state id + 1, and the bits a direct (global) palette needs on the wire (15 for 26.1). */
const STATE_COUNT = registry.blocksArray.reduce((m, b) => Math.max(m, b.maxStateId), 0) + 1
const DIRECT_BITS = 32 - Math.clz32(STATE_COUNT - 1)

// Flag bits per state id.
const AIR = 1 // air, cave_air, void_air: not counted in a section's non-empty block count
const BLOCKING = 2 // vanilla's MOTION_BLOCKING heightmap: blocks motion, or holds a fluid (water surfaces count)
const GROUND = 4 // something to stand on: a full collision box that is neither leaves nor fluid
const FLUID = 8 // holds a fluid (water, lava, waterlogged blocks): the section's fluid count in 26.1
const GRAVITY = 16 // falls when unsupported (sand, gravel, ...)
const LEAVES = 32

const FLAGS = new Uint8Array(STATE_COUNT)
const ALWAYS_WET = new Set(['water', 'lava', 'bubble_column', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass'])
for (const block of registry.blocksArray) {
  let flags = 0
  const liquid = block.name === 'water' || block.name === 'lava'
  if (['air', 'cave_air', 'void_air'].includes(block.name)) flags |= AIR
  if (block.boundingBox === 'block' || liquid) flags |= BLOCKING
  if (block.name.endsWith('_leaves')) flags |= LEAVES
  if (block.boundingBox === 'block' && !(flags & LEAVES)) flags |= GROUND
  if (ALWAYS_WET.has(block.name)) flags |= FLUID
  if (['sand', 'red_sand', 'gravel', 'suspicious_sand', 'suspicious_gravel'].includes(block.name) || block.name.endsWith('concrete_powder')) flags |= GRAVITY
  for (let s = block.minStateId; s <= block.maxStateId; s++) FLAGS[s] = flags
  // Waterlogged states hold water too. States enumerate properties mixed-radix, the last property fastest, and a
  // boolean lists true first.
  const props = block.states || []
  const w = props.findIndex((p) => p.name === 'waterlogged')
  if (w >= 0) {
    let stride = 1
    for (let i = props.length - 1; i > w; i--) stride *= props[i].num_values
    for (let s = block.minStateId; s <= block.maxStateId; s++) {
      if (Math.floor((s - block.minStateId) / stride) % 2 === 0) FLAGS[s] |= FLUID
    }
  }
}

/** Biome ids: positions in the worldgen/biome registry the server sends at login (checked in the tests). */
const B = {}
for (const name of ['ocean', 'deep_ocean', 'river', 'beach', 'snowy_beach', 'plains', 'forest', 'birch_forest',
  'taiga', 'snowy_taiga', 'snowy_plains', 'desert']) B[name] = registry.biomesByName[name].id
const BIOME_NAMES = registry.biomesArray.map((b) => b.name)
const BIOME_BITS = 32 - Math.clz32(registry.biomesArray.length - 1)

module.exports = { S, B, BIOME_NAMES, BIOME_BITS, STATE_COUNT, DIRECT_BITS, FLAGS, AIR, BLOCKING, GROUND, FLUID, GRAVITY, LEAVES }
