// Survival rules of the test world for connected players: health, hunger, air, falling, lava and fire, eating,
// death. The numbers are vanilla 26.1's (FoodData, FoodConstants, LivingEntity, Player) and minecraft-data's where it
// has them: food values from foods.json, each damage type's exhaustion from the `minecraft:damage_type` registry the
// world sends while configuring. The difficulty is normal.
'use strict'

const mcData = require('minecraft-data')('26.1')

const MAX_HEALTH = 20
const MAX_FOOD = 20
const MAX_AIR = 300 // ticks of breath
const START_SATURATION = 5
const EAT_TICKS = 32 // 1.6 s holding use on food (dried kelp: 0.8 s)
const FAST_FOOD = new Set(['dried_kelp'])
const FIRE_TICKS_FROM_LAVA = 300 // 15 s
const SAFE_FALL = 3 // blocks fallen without damage
const EYE_HEIGHT = 1.62

// Exhaustion per action (FoodConstants): walking and crouching cost nothing since 1.11.
const EXHAUSTION = { jump: 0.05, sprintJump: 0.2, sprintPerBlock: 0.1, swimPerBlock: 0.01, mine: 0.005, attack: 0.1, heal: 6, regen: 6 }

/** The registry position and exhaustion of each damage type, as the client numbers them. */
const DAMAGE_TYPES = Object.fromEntries(
  mcData.loginPacket.dimensionCodec['minecraft:damage_type'].entries.map((e, i) => [
    e.key.replace('minecraft:', ''), { id: i, exhaustion: e.value.value.exhaustion?.value ?? 0.1, message: e.value.value.message_id?.value }
  ])
)

// Armour (ArmorMaterials, CombatRules.getDamageAfterAbsorb): the points and toughness each worn piece gives, and the
// damage types armour takes from (those a mob, an arrow or a blast deal; falling, drowning, starving, burning and the
// like pass it by, as the `bypasses_armor` tag has them).
const ARMOUR_POINTS = {
  leather: [1, 3, 2, 1], golden: [2, 5, 3, 1], chainmail: [2, 5, 4, 1], iron: [2, 6, 5, 2], diamond: [3, 8, 6, 3], netherite: [3, 8, 6, 3], turtle: [2, 0, 0, 0]
}
const ARMOUR_TOUGHNESS = { diamond: 2, netherite: 3 }
const ARMOUR_PIECES = ['helmet', 'chestplate', 'leggings', 'boots'] // inventory slots 5 to 8
const ARMOUR_TAKES_FROM = new Set(['mob_attack', 'arrow', 'explosion', 'player_explosion', 'player_attack'])

// Shields (ShieldItem, LivingEntity.isBlocking): up after 5 ticks of holding use, against blows and shots.
const SHIELD_READY_TICKS = 5
const BLOCKABLE = new Set(['mob_attack', 'arrow', 'player_attack'])

/** Whether a player at `p` looks toward `source` (within 90° on the level: its yaw, 0 south, 90 west). */
function facing (p, source) {
  const yaw = (p.yaw * Math.PI) / 180
  const [lx, lz] = [-Math.sin(yaw), Math.cos(yaw)]
  return lx * (source.x - p.pos.x) + lz * (source.z - p.pos.z) > 0
}

/** The armour points and toughness of what `p` wears (inventory slots 5 head, 6 chest, 7 legs, 8 feet). */
function armourOf (p) {
  let points = 0
  let toughness = 0
  ARMOUR_PIECES.forEach((piece, i) => {
    const worn = p.inv?.[5 + i]
    const material = worn?.name?.endsWith(`_${piece}`) ? worn.name.slice(0, -piece.length - 1) : null
    if (!material || !ARMOUR_POINTS[material]) return
    points += ARMOUR_POINTS[material][i]
    toughness += ARMOUR_TOUGHNESS[material] ?? 0
  })
  return { points, toughness }
}

/** `amount` after armour of `points` and `toughness` (CombatRules.getDamageAfterAbsorb). */
function afterArmour (amount, { points, toughness }) {
  if (points <= 0) return amount
  const reduction = Math.min(20, Math.max(points * 0.2, points - amount / (2 + toughness / 4)))
  return amount * (1 - reduction / 25)
}

/** What a death message says, by damage type (vanilla's English death messages, shortened). */
const DEATH_MESSAGES = {
  fall: '%s hit the ground too hard',
  drown: '%s drowned',
  lava: '%s tried to swim in lava',
  on_fire: '%s burned to death',
  in_fire: '%s went up in flames',
  starve: '%s starved to death',
  mob_attack: '%s was slain by %a',
  arrow: '%s was shot by %a',
  explosion: '%s was blown up by %a',
  generic: '%s died',
  generic_kill: '%s was killed'
}

/** The survival state a player starts and respawns with. */
function freshState () {
  return {
    health: MAX_HEALTH,
    food: MAX_FOOD,
    saturation: START_SATURATION,
    exhaustion: 0,
    foodTimer: 0,
    air: MAX_AIR,
    fire: 0, // ticks left burning
    fallDistance: 0,
    invulnerable: 0, // ticks left of the hurt cooldown
    lastHurt: 0, // the damage taken when the cooldown began (a harder hit within it deals the difference)
    eating: null, // { ticks, slot, item } while holding use on food
    blocking: null, // ticks a shield has been held up (use held with a shield in a hand), null when it is down
    sprinting: false,
    dead: false
  }
}

class Survival {
  /**
   * `world` gives: send(p, name, params), broadcast(name, params), emit(event), blockAt(x, y, z), die(p, cause,
   * attacker), heldStack(p), consumeHeld(p) (takes one from the held stack), players().
   */
  constructor (world) {
    this.world = world
  }

  /** Sends the client its health, food and saturation (update_health), and its air (entity metadata). */
  sendHealth (p) {
    const s = p.life
    this.world.send(p, 'update_health', { health: s.health, food: s.food, foodSaturation: s.saturation })
  }

  sendAir (p) {
    this.world.send(p, 'entity_metadata', { entityId: p.entityId, metadata: [{ key: 1, type: 'int', value: p.life.air }] })
  }

  exhaust (p, amount) {
    if (!p.life || p.life.dead) return
    p.life.exhaustion = Math.min(40, p.life.exhaustion + amount)
  }

  /**
   * A movement from `from` to `to` with the client's on-ground flag (vanilla's ServerGamePacketListener +
   * Entity.checkFallDamage): fall distance grows while descending and is dealt as damage on landing; water breaks a
   * fall; leaving the ground upward is a jump; sprinting and swimming cost exhaustion by distance.
   */
  moved (p, from, to, onGround, wasOnGround) {
    const s = p.life
    if (!s || s.dead || !from) return
    const dy = to.y - from.y
    const horizontal = Math.hypot(to.x - from.x, to.z - from.z)
    const inWater = this.inFluid(p, 'water')
    if (inWater) {
      s.fallDistance = 0
      this.exhaust(p, EXHAUSTION.swimPerBlock * Math.hypot(horizontal, dy))
    } else if (s.sprinting && onGround) {
      this.exhaust(p, EXHAUSTION.sprintPerBlock * horizontal)
    }
    if (wasOnGround && !onGround && dy > 0 && !inWater) this.exhaust(p, s.sprinting ? EXHAUSTION.sprintJump : EXHAUSTION.jump)
    if (!onGround && dy < 0 && !inWater) s.fallDistance -= dy
    if (onGround) {
      const fell = s.fallDistance
      s.fallDistance = 0
      const damage = Math.ceil(fell - SAFE_FALL)
      if (damage > 0) this.damage(p, damage, { type: 'fall' })
    }
  }

  /** Forgets any fall in progress (the server moved the player). */
  teleported (p) { if (p.life) p.life.fallDistance = 0 }

  /** Whether any block the player's 0.6 × 1.8 box touches is this fluid. */
  inFluid (p, fluid) {
    const { x, y, z } = p.pos
    for (let by = Math.floor(y); by <= Math.floor(y + 1.8 - 1e-3); by++) {
      for (let bx = Math.floor(x - 0.3); bx <= Math.floor(x + 0.3); bx++) {
        for (let bz = Math.floor(z - 0.3); bz <= Math.floor(z + 0.3); bz++) {
          if (this.world.blockAt(bx, by, bz).name === fluid) return true
        }
      }
    }
    return false
  }

  eyesIn (p, fluid) {
    return this.world.blockAt(Math.floor(p.pos.x), Math.floor(p.pos.y + EYE_HEIGHT), Math.floor(p.pos.z)).name === fluid
  }

  /**
   * Hurts a player (LivingEntity.hurt): for 10 ticks after a hit a weaker or equal hit does nothing and a harder one
   * deals only the difference, quietly (no hurt event, no knockback, the cooldown is not renewed). Adds the damage
   * type's exhaustion, tells every client, and kills at 0 health. `direct` is what struck (an arrow) when it is not
   * the attacker. Returns whether any damage was dealt.
   */
  damage (p, amount, { type = 'generic', attacker = null, direct = attacker, knockback = null } = {}) {
    const s = p.life
    if (!s || s.dead || p.gameMode !== 'survival' || !(amount > 0)) return false
    const kind = DAMAGE_TYPES[type] ?? DAMAGE_TYPES.generic
    // A shield held up for 5 ticks or more stops a blow or a shot from in front (LivingEntity.isDamageSourceBlocked:
    // the source within 90° of where the player looks).
    const from = direct ?? attacker
    if (s.blocking !== null && s.blocking >= SHIELD_READY_TICKS && BLOCKABLE.has(type) && from?.pos && facing(p, from.pos)) {
      this.world.emit({ event: 'blocked', name: p.name, cause: type, by: attacker?.kind ?? attacker?.name ?? null, amount })
      return false
    }
    // Armour worn takes its share of a blow, a shot or a blast; the cooldown compares what is left.
    if (ARMOUR_TAKES_FROM.has(type)) amount = afterArmour(amount, armourOf(p))
    let dealt = amount
    const fresh = s.invulnerable <= 0
    if (!fresh) {
      if (amount <= s.lastHurt) return false
      dealt = amount - s.lastHurt
    } else {
      s.invulnerable = 10
    }
    s.lastHurt = amount
    s.health = Math.max(0, s.health - dealt)
    this.exhaust(p, kind.exhaustion)
    if (fresh) {
      const id = (entity) => { const e = entity?.entityId ?? entity?.id; return e != null ? e + 1 : 0 }
      this.world.broadcast('damage_event', { entityId: p.entityId, sourceTypeId: kind.id, sourceCauseId: id(attacker), sourceDirectId: id(direct), sourcePosition: undefined })
      if (knockback) this.world.send(p, 'entity_velocity', { entityId: p.entityId, velocity: { x: knockback.x, y: knockback.y ?? 0.36, z: knockback.z } })
    }
    this.sendHealth(p)
    this.world.emit({ event: 'playerHurt', name: p.name, amount: dealt, cause: type, health: s.health, by: attacker?.kind ?? attacker?.name ?? null })
    if (s.health <= 0) this.die(p, type, attacker)
    return true
  }

  heal (p, amount) {
    const s = p.life
    if (s.dead || s.health >= MAX_HEALTH) return
    s.health = Math.min(MAX_HEALTH, s.health + amount)
    this.sendHealth(p)
  }

  die (p, type, attacker) {
    const s = p.life
    s.dead = true
    s.eating = null
    s.fire = 0
    const who = attacker?.kind ?? attacker?.name ?? 'something'
    const message = (DEATH_MESSAGES[type] ?? DEATH_MESSAGES.generic).replace('%s', p.name).replace('%a', who)
    this.world.die(p, type, message)
  }

  /** The player raised a shield (use with a shield in a hand); it blocks once held up 5 ticks. */
  raiseShield (p) { if (p.life && p.life.blocking === null) p.life.blocking = 0 }

  /** The player let go of use: a raised shield goes down. */
  lowerShield (p) { if (p.life) p.life.blocking = null }

  /** The player pressed use with `item` in hand (use_item): food starts being eaten if the player can eat it. */
  startUsing (p, item) {
    const s = p.life
    const food = item && mcData.foodsByName[item.name]
    if (!s || s.dead || !food) return false
    const alwaysEdible = ['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle', 'suspicious_stew'].includes(item.name)
    if (s.food >= MAX_FOOD && !alwaysEdible) return false
    s.eating = { ticks: 0, item: item.name, slot: p.held }
    return true
  }

  /** The player let go of use (or switched items): eating stops without effect. */
  stopUsing (p) { if (p.life) p.life.eating = null }

  /** One 50 ms game tick for one player. */
  tick (p) {
    const s = p.life
    if (!s || s.dead) return
    if (s.invulnerable > 0) s.invulnerable--
    if (s.blocking !== null) s.blocking++

    // Eating: after 32 ticks still holding the same food, one is consumed (FoodData.eat).
    if (s.eating) {
      const held = this.world.heldStack(p)
      if (!held || held.name !== s.eating.item || p.held !== s.eating.slot) s.eating = null
      else if (++s.eating.ticks >= (FAST_FOOD.has(s.eating.item) ? EAT_TICKS / 2 : EAT_TICKS)) {
        const food = mcData.foodsByName[held.name]
        s.eating = null
        this.world.consumeHeld(p)
        s.food = Math.min(MAX_FOOD, s.food + food.foodPoints)
        s.saturation = Math.min(s.food, s.saturation + food.saturation)
        this.world.send(p, 'entity_status', { entityId: p.entityId, entityStatus: 9 }) // "finished using"
        this.sendHealth(p)
        this.world.emit({ event: 'ate', name: p.name, item: held.name, food: s.food, saturation: s.saturation })
      }
    }

    // Air: eyes under water lose one tick of breath a tick; at -20 the player takes 2 drowning damage and the
    // counter starts over (LivingEntity.baseTick). Out of water breath comes back 4 ticks a tick.
    const airBefore = s.air
    if (this.eyesIn(p, 'water')) {
      s.air--
      if (s.air <= -20) { s.air = 0; this.damage(p, 2, { type: 'drown' }) }
    } else if (s.air < MAX_AIR) {
      s.air = Math.min(MAX_AIR, s.air + 4)
    }
    if (s.air !== airBefore && (s.air % 15 === 0 || s.air === MAX_AIR || s.air <= 0)) this.sendAir(p)
    if (s.dead) return

    // Lava: 4 damage a hit and set on fire for 15 s; water puts fire out; burning deals 1 a second, checked before
    // the timer counts down, and not while the lava itself is burning the player (Entity.baseTick).
    const inLava = this.inFluid(p, 'lava')
    if (inLava) {
      s.fire = Math.max(s.fire, FIRE_TICKS_FROM_LAVA)
      this.damage(p, 4, { type: 'lava' })
    } else if (s.fire > 0 && this.inFluid(p, 'water')) {
      s.fire = 0
    }
    if (s.fire > 0) {
      if (s.fire % 20 === 0 && !inLava) this.damage(p, 1, { type: 'on_fire' })
      s.fire--
    }
    if (s.dead) return

    this.tickFood(p)
  }

  /** FoodData.tick on normal difficulty. */
  tickFood (p) {
    const s = p.life
    let changed = false
    if (s.exhaustion > 4) {
      s.exhaustion -= 4
      if (s.saturation > 0) s.saturation = Math.max(0, s.saturation - 1)
      else s.food = Math.max(0, s.food - 1)
      changed = true
    }
    const hurt = s.health < MAX_HEALTH
    if (s.saturation > 0 && hurt && s.food >= MAX_FOOD) {
      if (++s.foodTimer >= 10) {
        const spent = Math.min(s.saturation, 6)
        this.heal(p, spent / 6)
        this.exhaust(p, spent)
        s.foodTimer = 0
      }
    } else if (s.food >= 18 && hurt) {
      if (++s.foodTimer >= 80) {
        this.heal(p, 1)
        this.exhaust(p, EXHAUSTION.regen)
        s.foodTimer = 0
      }
    } else if (s.food <= 0) {
      if (++s.foodTimer >= 80) {
        if (s.health > 1) this.damage(p, 1, { type: 'starve' }) // normal difficulty starves down to half a heart
        s.foodTimer = 0
      }
    } else {
      s.foodTimer = 0
    }
    if (changed) this.sendHealth(p)
  }
}

/** A rotation in degrees as the protocol's one-byte angle. */
function angle (degrees) { return (Math.round(degrees * 256 / 360) << 24) >> 24 }

module.exports = { Survival, freshState, armourOf, afterArmour, facing, angle, DAMAGE_TYPES, EXHAUSTION, MAX_HEALTH, MAX_FOOD, MAX_AIR, SAFE_FALL, EYE_HEIGHT }
