// Mineflayer's side of the building benchmark (build.js): mineflayer-builder, on mineflayer-pathfinder, builds a
// blueprint given in Wayfarer's JSON form (`wayfarer blueprint --json`) as a prismarine-schematic Schematic made in
// memory. The builder was written for creative mode; the shim below is what it lacks to build in survival on the
// test world (its `/clear` when it carries over 30 stacks never comes into play: no blueprint takes more than 8 with
// the spare dirt). The result is judged by the world, never by the builder.
'use strict'

const { Vec3 } = require('vec3')
const { pathfinder } = require('mineflayer-pathfinder')
const { builder, Build } = require('mineflayer-builder')
const { Schematic } = require('prismarine-schematic')

/** The state id of block `name` with `properties`; properties left out keep the block's default (as the world's
 * stateWith does: prismarine alone would take each one's first value, an open door). */
function stateOf (registry, Block, name, properties) {
  const block = registry.blocksByName[name]
  if (!block) throw new Error(`no block called ${name} in ${registry.version.minecraftVersion}`)
  const defaults = Block.fromStateId(block.defaultState, 0).getProperties()
  return Block.fromProperties(name, { ...defaults, ...properties }, 0).stateId
}

/** `blueprint` as a Schematic for `version`: every cell of its box, air wherever no part names a block. */
function schematicOf (blueprint, version) {
  const registry = require('prismarine-registry')(version)
  const Block = require('prismarine-block')(registry)
  const [w, h, d] = blueprint.size
  const palette = [registry.blocksByName.air.defaultState]
  const blocks = new Array(w * h * d).fill(0)
  for (const part of blueprint.parts) {
    const state = stateOf(registry, Block, part.name, part.properties)
    if (!palette.includes(state)) palette.push(state)
    const [x, y, z] = part.at
    blocks[(y * d + z) * w + x] = palette.indexOf(state)
  }
  return new Schematic(version, new Vec3(w, h, d), new Vec3(0, 0, 0), palette, blocks)
}

/** Connects the Mineflayer bot `username` to `world` (harness.js) with the pathfinder and the builder loaded. */
async function connectBuilder (world, username) {
  const bot = await world.bot(username)
  bot.loadPlugin(pathfinder)
  bot.loadPlugin(builder)
  // Shim, survival: the builder takes a block it does not carry from the creative inventory (set_creative_slot,
  // which a survival server ignores while Mineflayer believes the slot filled). Here a missing block is an error,
  // which the builder reports and goes on to its next block.
  bot.creative.setInventorySlot = async (slot, item) => {
    throw new Error(`no ${item?.name ?? 'item'} left in the inventory`)
  }
  return bot
}

/**
 * Builds `blueprint` with its corner at `origin` ([x, y, z]) and stops it after `limitMs`. The bot must stand by
 * the site, with the materials. Resolves with `{ stopped, errors }`: whether the limit stopped it (else it ended
 * by itself: it tries each block once and stops when no block left has a face to be placed against), and the errors
 * it reported, each with how often.
 */
async function buildWithMineflayer (bot, blueprint, origin, limitMs) {
  const build = new Build(schematicOf(blueprint, bot.version), bot.world, new Vec3(...origin))
  const errors = new Map()
  const note = (message) => errors.set(message, (errors.get(message) ?? 0) + 1)
  // The builder logs every step with console.log and catches each block's error and logs it there; the steps are
  // dropped and the errors kept.
  const consoleLog = console.log
  console.log = (...args) => { for (const a of args) if (a instanceof Error) note(a.message) }
  let stopped = false
  let timer
  const limit = new Promise((resolve) => {
    timer = setTimeout(() => {
      stopped = true
      build.actions.length = 0 // the builder's loop ends once its list is empty
      bot.pathfinder.stop()
      resolve()
    }, limitMs)
  })
  const building = bot.builder.build(build).catch((err) => note(err.message))
  try {
    await Promise.race([building, limit])
    // After the limit, the block under way ends (a walk stops, a placement is answered within 5 s).
    if (stopped) await Promise.race([building, new Promise((resolve) => setTimeout(resolve, 10000))])
  } finally {
    clearTimeout(timer)
    console.log = consoleLog
    bot.pathfinder.setGoal(null)
    bot.clearControlStates()
  }
  return {
    stopped,
    errors: [...errors].map(([message, times]) => ({ message, times }))
  }
}

module.exports = { connectBuilder, buildWithMineflayer, schematicOf }
