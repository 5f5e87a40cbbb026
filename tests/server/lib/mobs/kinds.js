// What each mob of the test world is: vanilla 26.1's numbers, gathered in one table. Health, speed, damage and
// follow range are the attribute values of each mob's createAttributes() (Pig, Cow, Sheep, Chicken, Zombie,
// AbstractSkeleton, Spider, Creeper); sizes come from minecraft-data's entities.json (EntityType's sized(...)).
'use strict'

const mcData = require('minecraft-data')('26.1')

/**
 * Blocks a second a mob covers on flat ground at a goal's speed modifier of 1.
 *
 * A mob's MoveControl sets both its speed and its forward input (zza) to `movement_speed × modifier`, and
 * LivingEntity.travel accelerates by input × speed, so the steady speed grows with the square of the attribute.
 * A walking player has input 0.98 and speed 0.1 and covers 4.317 blocks/s, hence s² / 0.098 × 4.317: a zombie's
 * 0.23 is 2.33 blocks/s (a sprinting player does 5.6), a pig's 0.25 is 2.75.
 */
function blocksPerSecond (movementSpeed, modifier = 1) {
  const s = movementSpeed * modifier
  return s * s / 0.098 * 4.317
}

function size (kind) {
  const e = mcData.entitiesByName[kind]
  return { width: e.width, height: e.height, typeId: e.id, metadataKeys: e.metadataKeys }
}

/**
 * Mob kinds the world knows. `drops` are the fixed drops used where natural spawning is off (the superflat the
 * tests build in), so a killed pig there always gives exactly 2 porkchops; natural worlds roll minecraft-data's
 * entityLoot instead (see Entities#lootOf). `speed` is the walking speed in blocks/s (blocksPerSecond).
 *
 * - `movementSpeed`: the movement_speed attribute; `stroll`/`chase`/`panic`: the speed modifiers of the mob's
 *   random-stroll, attack and panic goals (PanicGoal 1.25 for pigs and sheep, 2.0 for cows, 1.4 for chickens).
 * - `followRange`: how far it notices a player (follow_range; zombies 35, everything else the default 16).
 * - `damage`: attack_damage dealt to a player on normal difficulty (Player.hurt leaves normal unscaled).
 * - `sees`: it must see a player to notice it. `burns`: it catches fire in daylight (Zombie/AbstractSkeleton
 *   isSunSensitive). `floats`: FloatGoal (every mob here swims up; vanilla zombies sink and turn into drowned,
 *   which the test world does not have).
 */
const MOBS = {
  pig: { health: 10, drops: [['porkchop', 2]], movementSpeed: 0.25, stroll: 1, panic: 1.25 },
  cow: { health: 10, drops: [['beef', 2], ['leather', 1]], movementSpeed: 0.2, stroll: 1, panic: 2 },
  sheep: { health: 8, drops: [['mutton', 1], ['white_wool', 1]], movementSpeed: 0.23, stroll: 1, panic: 1.25 },
  chicken: { health: 4, drops: [['chicken', 1], ['feather', 1]], movementSpeed: 0.25, stroll: 1, panic: 1.4, noFallDamage: true },
  zombie: { health: 20, drops: [['rotten_flesh', 1]], movementSpeed: 0.23, stroll: 1, chase: 1, hostile: true, followRange: 35, damage: 3, burns: true, melee: true },
  skeleton: { health: 20, drops: [['bone', 1], ['arrow', 1]], movementSpeed: 0.25, stroll: 1, chase: 1, hostile: true, followRange: 16, sees: true, burns: true, archer: true },
  spider: { health: 16, drops: [['string', 1]], movementSpeed: 0.3, stroll: 0.8, chase: 1, hostile: true, followRange: 16, damage: 2, sees: true, melee: true, climbs: true, shy: true },
  creeper: { health: 20, drops: [['gunpowder', 1]], movementSpeed: 0.25, stroll: 0.8, chase: 1, hostile: true, followRange: 16, sees: true, explodes: true }
}

for (const [kind, spec] of Object.entries(MOBS)) {
  Object.assign(spec, size(kind))
  spec.kind = kind
  spec.hostile = !!spec.hostile
  spec.speed = Math.round(blocksPerSecond(spec.movementSpeed) * 100) / 100
  spec.eye = spec.height * 0.85 // EntityType's default eye height
  spec.cells = Math.ceil(spec.height) // blocks of head room it needs
  spec.floats = true
}

/**
 * Attack damage by held item (vanilla base values); anything else hits like a fist. Unlike vanilla, a hit always
 * deals the full value: the attack cooldown (0.2 + 0.8 s² of it for a hit made early) and critical hits are not
 * played, so a client that clicks fast hits harder here than on a vanilla server.
 */
const DAMAGE = {
  wooden_sword: 4, golden_sword: 4, stone_sword: 5, copper_sword: 5, iron_sword: 6, diamond_sword: 7, netherite_sword: 8,
  wooden_axe: 7, golden_axe: 7, stone_axe: 9, copper_axe: 9, iron_axe: 9, diamond_axe: 9, netherite_axe: 10,
  wooden_pickaxe: 2, golden_pickaxe: 2, stone_pickaxe: 3, copper_pickaxe: 3, iron_pickaxe: 4, diamond_pickaxe: 5,
  wooden_shovel: 2.5, stone_shovel: 3.5, iron_shovel: 4.5, diamond_shovel: 5.5
}

/**
 * Natural spawn weights of the plains biome (its `spawners` in the vanilla data pack): creatures and the four
 * monsters the test world has. Plains groups are 4 of a kind for all of them.
 */
const PASSIVE_WEIGHTS = [['sheep', 12], ['pig', 10], ['chicken', 10], ['cow', 8]]
const HOSTILE_WEIGHTS = [['zombie', 95], ['skeleton', 100], ['spider', 100], ['creeper', 100]]

module.exports = { MOBS, DAMAGE, PASSIVE_WEIGHTS, HOSTILE_WEIGHTS, blocksPerSecond }
