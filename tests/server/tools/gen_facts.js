#!/usr/bin/env node
// Turns minecraft-data's 26.1 facts (MIT-licensed data) into the compact file Wayfarer's primitives read:
// src/primitives/data/facts.json. Crafting recipes and block harvest facts come from minecraft-data; smelting and
// fuel facts, which minecraft-data does not carry, are listed below from the game's rules.
// Run from the repository root: node tests/server/tools/gen_facts.js
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const mcData = require('minecraft-data')('26.1')

const itemName = (id) => (id === null || id === undefined ? null : mcData.items[id]?.name ?? null)

const COLORS = ['white', 'orange', 'magenta', 'light_blue', 'yellow', 'lime', 'pink', 'gray', 'light_gray', 'cyan',
  'purple', 'blue', 'brown', 'green', 'red', 'black']

/**
 * minecraft-data writes a recipe over an item tag with the tag's first member only: "pink dye + any wool but pink"
 * comes out as "pink dye + black wool", which sent plans after a black dye (from wither roses) first. A re-dye
 * recipe (`COLOR_dye` + another colour's `X`) is therefore written once for every other colour of `X`.
 */
function redyes (name, recipe) {
  const color = COLORS.filter((c) => name.startsWith(`${c}_`)).sort((a, b) => b.length - a.length)[0]
  const ingredients = recipe.ingredients
  if (!color || !ingredients || ingredients.length !== 2 || ingredients[0] !== `${color}_dye`) return [recipe]
  const base = name.slice(color.length + 1)
  const other = COLORS.find((c) => ingredients[1] === `${c}_${base}`)
  if (!other || other === color) return [recipe]
  return COLORS.filter((c) => c !== color && mcData.itemsByName[`${c}_${base}`])
    .map((c) => ({ ingredients: [`${color}_dye`, `${c}_${base}`], count: recipe.count }))
}

// Crafting: every recipe of every result, ingredients by item name. Shaped recipes keep their grid (rows of names,
// null for empty cells); shapeless ones list their ingredients.
const crafting = {}
for (const [resultId, variants] of Object.entries(mcData.recipes)) {
  const out = []
  for (const v of variants) {
    const count = v.result.count
    if (v.inShape) {
      const shape = v.inShape.map((row) => row.map(itemName))
      if (shape.flat().some((n, i) => n === null && v.inShape.flat()[i] !== null)) continue // unknown item id
      out.push({ shape, count })
    } else if (v.ingredients) {
      const ingredients = v.ingredients.map(itemName)
      if (ingredients.includes(null)) continue
      out.push({ ingredients, count })
    }
  }
  const name = itemName(Number(resultId))
  if (name && out.length) crafting[name] = out.flatMap((recipe) => redyes(name, recipe))
}

// Blocks: the tools that can harvest each block that needs one, and what it drops when it differs from itself.
const blocks = {}
for (const b of mcData.blocksArray) {
  const entry = {}
  if (b.harvestTools) entry.tools = Object.keys(b.harvestTools).map((id) => itemName(Number(id))).filter(Boolean)
  const drops = (b.drops || []).map((d) => itemName(typeof d === 'object' ? d.drop?.id ?? d.id : d)).filter(Boolean)
  if (drops.length !== 1 || drops[0] !== b.name) entry.drops = drops
  if (b.hardness !== null && b.hardness !== undefined) entry.hardness = b.hardness
  if (entry.tools || entry.drops) blocks[b.name] = entry
}

// Smelting (furnace) inputs and outputs, and fuel burn times in ticks (200 ticks smelt one item).
const smelting = {
  raw_iron: 'iron_ingot', raw_gold: 'gold_ingot', raw_copper: 'copper_ingot',
  iron_ore: 'iron_ingot', deepslate_iron_ore: 'iron_ingot', gold_ore: 'gold_ingot', deepslate_gold_ore: 'gold_ingot',
  copper_ore: 'copper_ingot', deepslate_copper_ore: 'copper_ingot', cobblestone: 'stone', stone: 'smooth_stone',
  sand: 'glass', red_sand: 'glass', clay_ball: 'brick', netherrack: 'nether_brick', cactus: 'green_dye',
  beef: 'cooked_beef', porkchop: 'cooked_porkchop', chicken: 'cooked_chicken', mutton: 'cooked_mutton',
  rabbit: 'cooked_rabbit', cod: 'cooked_cod', salmon: 'cooked_salmon', potato: 'baked_potato', kelp: 'dried_kelp',
  oak_log: 'charcoal', spruce_log: 'charcoal', birch_log: 'charcoal', jungle_log: 'charcoal', acacia_log: 'charcoal',
  dark_oak_log: 'charcoal', mangrove_log: 'charcoal', cherry_log: 'charcoal', pale_oak_log: 'charcoal',
  wet_sponge: 'sponge', ancient_debris: 'netherite_scrap'
}
const fuels = { coal: 1600, charcoal: 1600, coal_block: 16000, lava_bucket: 20000, blaze_rod: 2400, stick: 100 }
for (const item of mcData.itemsArray) {
  if (/_planks$/.test(item.name) || /_log$/.test(item.name) || /_wood$/.test(item.name)) fuels[item.name] = 300
  if (/^wooden_/.test(item.name)) fuels[item.name] = 200
}
for (const [input, output] of Object.entries(smelting)) {
  if (!mcData.itemsByName[input] || !mcData.itemsByName[output]) throw new Error(`unknown smelting item ${input} -> ${output}`)
}

// Loot: what each block drops when broken without silk touch, and each mob when killed, with the chance of each
// item (one roll; a player's kill assumed). Where minecraft-data has no loot table for a block, its drops list.
const blockLoot = {}
for (const b of mcData.blocksArray) {
  const table = mcData.blockLoot[b.name]
  let drops = table
    ? table.drops.filter((d) => !d.silkTouch && d.item !== 'air').map((d) => [d.item, round(d.dropChance ?? 1)])
    : (blocks[b.name]?.drops ?? [b.name]).filter((n) => n !== 'air').map((n) => [n, 1])
  drops = drops.filter(([item]) => mcData.itemsByName[item])
  if (drops.length) blockLoot[b.name] = merge(drops)
}
const mobLoot = {}
for (const [mob, table] of Object.entries(mcData.entityLoot)) {
  const drops = table.drops.filter((d) => mcData.itemsByName[d.item]).map((d) => [d.item, round(d.dropChance ?? 1)])
  if (drops.length) mobLoot[mob] = merge(drops)
}
function round (chance) { return Math.round(chance * 1000) / 1000 }
/** One entry per item, its best chance. */
function merge (drops) {
  const best = new Map()
  for (const [item, chance] of drops) best.set(item, Math.max(best.get(item) ?? 0, chance))
  return [...best]
}

const facts = { version: '26.1', crafting, blocks, smelting, fuels, block_loot: blockLoot, mob_loot: mobLoot }
const target = path.join(__dirname, '..', '..', '..', 'src', 'primitives', 'data', 'facts.json')
fs.writeFileSync(target, JSON.stringify(facts) + '\n')
console.log(`wrote ${target}: ${Object.keys(crafting).length} craftable items, ${Object.keys(blocks).length} blocks, ` +
  `${Object.keys(smelting).length} smelting inputs, ${Object.keys(fuels).length} fuels, ` +
  `${Object.keys(blockLoot).length} block and ${Object.keys(mobLoot).length} mob loot tables`)
