//! Reflexes: what the bot's body wants right now, sensed every game tick.
//!
//! Each reflex is its own azalea plugin (and its own switch in the configuration): a `GameTick` system that looks at
//! the bot's health, hunger, air, surroundings and the monsters around it and offers an [`Urge`]. The strongest urge
//! of the tick is kept in the bot's [`Urges`] component; the primitives layer acts on it (eats, fights, runs) and
//! holds the script in flight meanwhile. Sensing is cheap and never waits; acting happens off the tick.

use azalea::{
    Vec3,
    app::{App, Plugin},
    core::tick::GameTick,
    ecs::prelude::*,
    entity::inventory::Inventory,
    entity::{
        EntityKindComponent, LocalEntity, Position,
        metadata::{AbstractMonster, AirSupply, Health},
    },
    inventory::ItemStack,
    local_player::{Hunger, WorldHolder},
    pathfinder::world::{is_block_state_passable, is_block_state_solid},
    registry::builtin::{BlockKind, EntityKind},
    world::WorldName,
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

use super::clock::DayClock;
use crate::config::Reflexes;

/// Something the body needs now, strongest first (the order of the variants is the order of precedence).
#[derive(Clone, Debug, PartialEq)]
pub enum Urge {
    /// Out of the lava or fire.
    Escape { from: Vec3 },
    /// Head out of the water before breath runs out: before running from monsters too, since a run under water
    /// walks the bottom until the bot drowns.
    Breathe,
    /// Hurt, with a monster about and health to win back: dig in under the feet, close the hole overhead, and wait
    /// there until healed. Before running: a hurt bot that runs is caught from behind, in a cave it has nowhere to go.
    Hide,
    /// Get away from `from` (a creeper about to blow, or monsters when health is low).
    Flee { from: Vec3, what: String },
    /// Outnumbered with zombies among the monsters, carrying blocks: build a three-block pillar and fight from its top,
    /// out of a zombie's reach (one climbing spider at a time reaches it, and is hit first).
    Perch { what: String },
    /// Hit back at the monster attacking in melee.
    Defend { target: Entity, what: String },
    /// Night in the open with monsters about: dig in under the feet, close the hole overhead, wait for morning.
    Shelter,
    /// Eat something.
    Eat,
    /// Kill the farm animal `target` for its meat (hungry, and carrying no food).
    Hunt { target: Entity, what: String },
}

impl Urge {
    fn rank(&self) -> u8 {
        match self {
            Urge::Escape { .. } => 0,
            Urge::Breathe => 1,
            Urge::Hide => 2,
            Urge::Flee { .. } => 3,
            Urge::Perch { .. } => 4,
            Urge::Defend { .. } => 5,
            Urge::Shelter => 6,
            Urge::Eat => 7,
            Urge::Hunt { .. } => 8,
        }
    }

    /// Whether the urge is about staying alive now (a monster, fire, air), as opposed to shelter or food, which can
    /// wait for a trip to finish.
    pub fn is_danger(&self) -> bool {
        self.rank() <= 5
    }

    /// `fleeing a creeper`, `eating`: what `!status` shows while the reflex acts.
    pub fn describe(&self) -> String {
        match self {
            Urge::Flee { what, .. } => format!("fleeing {what}"),
            Urge::Escape { .. } => "getting out of the fire".to_owned(),
            Urge::Breathe => "coming up for air".to_owned(),
            Urge::Hide => "hiding until healed".to_owned(),
            Urge::Perch { what } => format!("fighting off {what} from a pillar"),
            Urge::Defend { what, .. } => format!("fighting off {what}"),
            Urge::Shelter => "sheltering until morning".to_owned(),
            Urge::Eat => "eating".to_owned(),
            Urge::Hunt { what, .. } => format!("hunting {what} for food"),
        }
    }
}

/// The strongest urge of the last game tick, if any.
#[derive(Component, Clone, Debug, Default)]
pub struct Urges(pub Option<Urge>);

impl Urges {
    fn offer(&mut self, urge: Urge) {
        if self.0.as_ref().is_none_or(|held| urge.rank() < held.rank()) {
            self.0 = Some(urge);
        }
    }
}

/// Who has the body: `Some(what the reflex does)` while a reflex acts, `None` while scripts and commands may use it.
/// The primitives layer acts on urges and sets this; scripts wait on it.
#[derive(Component, Clone)]
pub struct Body(pub tokio::sync::watch::Sender<Option<String>>);

/// Health the bot tries to keep: below it, it eats whatever food it has (and regenerates from it).
pub const HEAL_BELOW: f32 = 14.0;
/// Food level at which the bot eats (vanilla regeneration needs 18; eating at 14 leaves room for a full meal).
pub const EAT_AT: u32 = 14;
/// Health at which the bot stops fighting and runs from monsters.
pub const FLEE_HEALTH: f32 = 6.0;
/// Health at which the bot, with a monster in sight, digs in to heal rather than fights on.
pub const HIDE_HEALTH: f32 = 10.0;
/// A monster that fights hand to hand this close keeps a hurt bot from starting to dig in.
pub const HIDE_CLEAR: f64 = 2.5;
/// How close a monster in sight must be for a hurt bot to hide from it.
pub const HIDE_FROM: f64 = 12.0;
/// How close a creeper may come before the bot runs (it explodes within 3 after 1.5 s of hissing).
pub const CREEPER_DISTANCE: f64 = 6.0;
/// This many monsters within [`PACK_DISTANCE`] make the bot run rather than fight.
pub const PACK_SIZE: usize = 3;
pub const PACK_DISTANCE: f64 = 8.0;
/// Monsters that only hit in melee, which the self-defence reflex holds off from beyond their reach.
const MELEE_ONLY: [EntityKind; 8] = [
    EntityKind::Zombie,
    EntityKind::Husk,
    EntityKind::Drowned,
    EntityKind::ZombieVillager,
    EntityKind::Spider,
    EntityKind::CaveSpider,
    EntityKind::Silverfish,
    EntityKind::Endermite,
];
/// How close a monster must be for the bot to hit back (an attacker is within reach).
pub const MELEE_DISTANCE: f64 = 3.5;
/// Monsters that shoot: running or standing still only gets the bot shot (a shot every 3 s from up to 15 blocks),
/// so the bot charges one in sight within [`ARCHER_DISTANCE`] and fights it at close quarters.
pub const ARCHERS: [EntityKind; 3] = [EntityKind::Skeleton, EntityKind::Stray, EntityKind::Bogged];
/// How far off an archer in sight is charged (a skeleton shoots from 15 blocks).
pub const ARCHER_DISTANCE: f64 = 15.0;
/// Breath (ticks, of 300) at which the bot heads for air.
pub const BREATHE_AT: i32 = 120;
/// Food level below which a bot carrying no food hunts (health stops coming back below 18).
pub const HUNT_BELOW: u32 = 18;
/// How far the bot goes for a farm animal when it needs food.
pub const HUNT_RANGE: f64 = 12.0;
/// Monsters within this distance make hunting wait (the other reflexes deal with them first).
const HUNT_SAFE_DISTANCE: f64 = 16.0;

/// Foods from best to worst (saturation first, then hunger points; vanilla 26.1's values). Raw chicken, rotten flesh
/// and the like can poison, so they come last and only when nothing else is left.
pub const FOODS: [&str; 27] = [
    "golden_carrot",
    "cooked_beef",
    "cooked_porkchop",
    "cooked_mutton",
    "cooked_salmon",
    "rabbit_stew",
    "mushroom_stew",
    "beetroot_soup",
    "cooked_chicken",
    "cooked_rabbit",
    "cooked_cod",
    "baked_potato",
    "bread",
    "pumpkin_pie",
    "golden_apple",
    "apple",
    "carrot",
    "melon_slice",
    "sweet_berries",
    "beef",
    "porkchop",
    "mutton",
    "rabbit",
    "cod",
    "salmon",
    "chicken",
    "rotten_flesh",
];

/// Weapons from best to worst; the first carried one is used. A pickaxe comes last: it hits for less and more
/// slowly, but a miner underground with nothing else is not unarmed.
pub const WEAPONS: [&str; 16] = [
    "netherite_sword",
    "diamond_sword",
    "iron_sword",
    "netherite_axe",
    "diamond_axe",
    "iron_axe",
    "copper_sword",
    "stone_sword",
    "stone_axe",
    "golden_sword",
    "wooden_sword",
    "wooden_axe",
    "netherite_pickaxe",
    "diamond_pickaxe",
    "iron_pickaxe",
    "stone_pickaxe",
];

/// Farm animals hunted for meat.
const PREY: [EntityKind; 6] = [
    EntityKind::Cow,
    EntityKind::Pig,
    EntityKind::Sheep,
    EntityKind::Chicken,
    EntityKind::Rabbit,
    EntityKind::Mooshroom,
];

#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
enum ReflexSystems {
    Clear,
    Sense,
}

/// Keeps the [`Urges`] component: cleared at the start of every tick, then offered to by the reflex plugins.
struct UrgesPlugin;

impl Plugin for UrgesPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(GameTick, (ReflexSystems::Clear, ReflexSystems::Sense).chain())
            .add_systems(GameTick, (clear_urges, note_wounds).in_set(ReflexSystems::Clear));
    }
}

fn clear_urges(mut commands: Commands, mut bots: Query<(Entity, Option<&mut Urges>), With<LocalEntity>>) {
    for (entity, urges) in &mut bots {
        match urges {
            Some(mut urges) => urges.0 = None,
            None => {
                commands.entity(entity).insert(Urges::default());
            }
        }
    }
}

/// When the bot last lost health, from anything: a monster within reach of a bot it is hurting is fought (or hidden
/// from) even where the straight line between them grazes a block, as round the corner of a stair the bot dug.
#[derive(Component, Clone, Copy, Debug)]
pub struct Wounds {
    health: f32,
    last: Option<std::time::Instant>,
}

impl Wounds {
    /// How long a hurt counts as being attacked.
    const RECENT: std::time::Duration = std::time::Duration::from_millis(1500);

    fn recent(wounds: Option<&Wounds>) -> bool {
        wounds.and_then(|w| w.last).is_some_and(|at| at.elapsed() <= Self::RECENT)
    }
}

fn note_wounds(mut commands: Commands, mut bots: Query<(Entity, &Health, Option<&mut Wounds>), With<LocalEntity>>) {
    for (entity, health, wounds) in &mut bots {
        match wounds {
            Some(mut wounds) => {
                if health.0 < wounds.health && health.0 > 0.0 {
                    wounds.last = Some(std::time::Instant::now());
                }
                wounds.health = health.0;
            }
            None => {
                commands.entity(entity).insert(Wounds { health: health.0, last: None });
            }
        }
    }
}

/// The switched-on reflexes, each its own plugin.
pub struct ReflexPlugins(pub Reflexes);

impl Plugin for ReflexPlugins {
    fn build(&self, app: &mut App) {
        let on = self.0;
        app.add_plugins(UrgesPlugin);
        if on.eat {
            app.add_plugins(AutoEatPlugin);
        }
        if on.defend {
            app.add_plugins(SelfDefencePlugin);
        }
        if on.flee {
            app.add_plugins(FleePlugin);
        }
        if on.perch {
            app.add_plugins(PerchPlugin);
        }
        if on.breathe {
            app.add_plugins(BreathePlugin);
        }
        if on.escape_fire {
            app.add_plugins(EscapeFirePlugin);
        }
        if on.recover {
            app.add_plugins(RecoverPlugin);
        }
        if on.hunt {
            app.add_plugins(HuntPlugin);
        }
        if on.shelter {
            app.add_plugins(ShelterPlugin);
        }
        if on.hide {
            app.add_plugins(HidePlugin);
        }
    }
}

type Monsters<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static Position, &'static EntityKindComponent, &'static WorldName, Option<&'static Health>),
    (With<AbstractMonster>, Without<LocalEntity>),
>;

/// The monsters still alive: one that just died lies about (health 0) until the server takes it away, and is
/// neither fought nor run from.
fn living<'a>(
    monsters: &'a Monsters,
) -> impl Iterator<Item = (Entity, &'a Position, &'a EntityKindComponent, &'a WorldName)> {
    monsters.iter().filter(|(.., health)| health.is_none_or(|h| h.0 > 0.0)).map(|(e, p, k, w, _)| (e, p, k, w))
}

/// Eat when hungry (food ≤ 14), or when hurt (health < 14) and not full, so health comes back.
pub struct AutoEatPlugin;

impl Plugin for AutoEatPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_hunger.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_hunger(mut bots: Query<(&Hunger, &Health, &Inventory, Option<&OnHunt>, &mut Urges), With<LocalEntity>>) {
    for (hunger, health, inventory, on_hunt, mut urges) in &mut bots {
        // With nothing to eat the urge would only stand in the way of weaker ones (hunting for food).
        if needs_food(hunger.food, health.0) && carries_edible_food(inventory, on_hunt) {
            urges.offer(Urge::Eat);
        }
    }
}

/// Whether the bot should eat now (and has a reason to: the act itself needs food in the inventory).
pub fn needs_food(food: u32, health: f32) -> bool {
    health > 0.0 && (food <= EAT_AT || (health < HEAL_BELOW && food < 20))
}

/// Hit back at a monster within reach, and charge a skeleton in sight when armed (the flee reflex outranks it when
/// running is wiser).
pub struct SelfDefencePlugin;

impl Plugin for SelfDefencePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_attackers.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_attackers(
    mut bots: Query<
        (&Position, &WorldName, &WorldHolder, &Health, &Inventory, Option<&Wounds>, &mut Urges),
        With<LocalEntity>,
    >,
    monsters: Monsters,
) {
    for (position, world, holder, health, inventory, wounds, mut urges) in &mut bots {
        if health.0 <= 0.0 {
            continue;
        }
        let here = **position;
        let blocks = holder.shared.read();
        // Too weak to charge an archer (the flee reflex takes over below that), or with bare fists (twenty punches
        // for a skeleton), it still hits back within reach.
        let charges = health.0 > FLEE_HEALTH && carries_weapon(inventory);
        let hurt = Wounds::recent(wounds);
        let nearest = living(&monsters)
            .filter(|(_, _, kind, w)| *w == world && !NOT_FOUGHT.contains(&kind.0))
            .map(|(entity, p, kind, _)| (entity, **p, p.distance_to(here), kind.0))
            .filter(|(_, _, d, kind)| {
                *d <= MELEE_DISTANCE || (charges && ARCHERS.contains(kind) && *d <= ARCHER_DISTANCE)
            })
            // One on the other side of a block (over the lid of its shelter) can neither hit nor be hit; one that
            // is hitting the bot can.
            .filter(|(_, p, d, _)| sees_body(&blocks, here, *p) || (hurt && *d <= MELEE_DISTANCE))
            .min_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((target, _, _, kind)) = nearest {
            urges.offer(Urge::Defend { target, what: format!("a {}", short_name(kind)) });
        }
    }
}

/// Whether a straight line from the bot's eyes (the bot standing at `here`) reaches the feet, middle or head of a
/// mob standing at `there`.
fn sees_body(world: &azalea::world::World, here: Vec3, there: Vec3) -> bool {
    [0.3, 1.0, 1.6].into_iter().any(|h| in_sight(world, here.up(1.62), there.up(h)))
}

/// Whether the straight line from `from` to `to` passes through no solid block (sampled every quarter block).
fn in_sight(world: &azalea::world::World, from: Vec3, to: Vec3) -> bool {
    let steps = (from.distance_to(to) * 4.0).ceil().max(1.0) as i32;
    (1..steps).all(|i| {
        let t = f64::from(i) / f64::from(steps);
        let p = Vec3::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, from.z + (to.z - from.z) * t);
        world.get_block_state(azalea::BlockPos::from(p)).is_none_or(|s| !is_block_state_solid(s))
    })
}

/// Monsters the bot does not hit first: a creeper is run from, and these neutral ones only turn on a player who
/// provokes them (hitting, or looking at an enderman).
const NOT_FOUGHT: [EntityKind; 4] =
    [EntityKind::Creeper, EntityKind::Enderman, EntityKind::ZombifiedPiglin, EntityKind::Piglin];

/// Run from a creeper within 6 blocks, from a pack of three monsters within 8, and from monsters within 12 when
/// health is 6 or less (unless the only one is a zombie or spider and the bot carries a weapon: it is held off at
/// arm's length instead).
pub struct FleePlugin;

impl Plugin for FleePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_danger.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_danger(
    mut bots: Query<
        (&Position, &WorldName, &WorldHolder, &Health, &Inventory, Option<&Cornered>, Option<&OnPillar>, &mut Urges),
        With<LocalEntity>,
    >,
    monsters: Monsters,
    perching: Option<Res<Perching>>,
) {
    for (position, world, holder, health, inventory, cornered, pillar, mut urges) in &mut bots {
        if health.0 <= 0.0 {
            continue;
        }
        let here = **position;
        let blocks = holder.shared.read();
        let weak = health.0 <= FLEE_HEALTH;
        // Monsters behind rock (in the next cave) are no threat yet.
        let near: Vec<(Vec3, f64, EntityKind)> = living(&monsters)
            .filter(|(_, _, _, w)| *w == world)
            .map(|(_, p, kind, _)| (**p, p.distance_to(here), kind.0))
            .filter(|(p, d, _)| *d <= 12.0 && in_sight(&blocks, here.up(1.62), p.up(1.0)))
            .collect();
        // A pack is more than one sword holds off: each of them hits while the bot strikes one.
        let pack =
            near.iter().filter(|(_, d, kind)| *d <= PACK_DISTANCE && !NOT_FOUGHT.contains(kind)).count() >= PACK_SIZE;
        // Hurt, the bot runs from monsters, unless the only one is a melee fighter it can hold off at arm's length
        // with a weapon (running from a lone spider, which is faster, only gets the bot bitten in the back; fists
        // take twenty hits to kill a zombie, which hits back every second).
        let lone_brawler = near.len() == 1 && MELEE_ONLY.contains(&near[0].2) && carries_weapon(inventory);
        // Cornered (the last run got nowhere), it stands and fights instead, except against a creeper. On a pillar
        // out of the zombies' reach, or able to build one, it stays and fights from there (the perch reflex).
        let perch = perching.is_some()
            && (OnPillar::holds(pillar, here) || (pack && can_perch(&blocks, here, inventory) && any_grounded(&near)));
        let may_run = cornered.is_none_or(|c| c.0 <= std::time::Instant::now()) && !perch;
        let threat = near
            .into_iter()
            .filter(|(_, d, kind)| {
                (*kind == EntityKind::Creeper && *d <= CREEPER_DISTANCE)
                    || (may_run && weak && !lone_brawler)
                    || (may_run && pack && *d <= PACK_DISTANCE)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((from, _, kind)) = threat {
            urges.offer(Urge::Flee { from, what: format!("a {}", short_name(kind)) });
        }
    }
}

/// How high the bot builds a pillar to fight from: a zombie's reach ends below the feet of a player two blocks over
/// the ground it stands on, and one more block keeps the bot out of reach of a zombie standing on a one-block bump
/// beside the pillar (a hit would knock the bot off it).
pub const PERCH_HEIGHT: i32 = 3;
/// Monsters that fight hand to hand and cannot climb: the ones a pillar holds off.
pub const GROUNDED: [EntityKind; 4] =
    [EntityKind::Zombie, EntityKind::Husk, EntityKind::Drowned, EntityKind::ZombieVillager];
/// This many monsters (besides those it does not fight) within [`PACK_DISTANCE`], zombies among them, make the bot
/// fight from a pillar when it can build one.
pub const OUTNUMBERED: usize = 2;

/// Set while the perch reflex is on: the flee reflex then leaves a pack the bot can fight from a pillar to it.
#[derive(Resource)]
struct Perching;

/// Outnumbered (two monsters or more within 8, zombies among them) and carrying three blocks, on solid ground with
/// room overhead: build a three-block pillar and fight from its top, where a zombie cannot reach; stay there while zombies
/// are below.
pub struct PerchPlugin;

impl Plugin for PerchPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Perching)
            .add_systems(GameTick, sense_outnumbered.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

/// Whether some monster in `near` (position, distance, kind) is one a pillar holds off.
fn any_grounded(near: &[(Vec3, f64, EntityKind)]) -> bool {
    near.iter().any(|(_, d, kind)| *d <= PACK_DISTANCE && GROUNDED.contains(kind))
}

/// Set while the bot fights from the top of a pillar it built (at `top`, its feet's place there): until `until`,
/// while it stands there, it neither runs (from anything but a creeper) nor digs in to hide.
#[derive(Component, Clone, Copy, Debug)]
pub struct OnPillar {
    pub top: Vec3,
    pub until: std::time::Instant,
}

impl OnPillar {
    /// Whether the bot, at `here`, still stands on its pillar.
    pub fn holds(pillar: Option<&OnPillar>, here: Vec3) -> bool {
        pillar.is_some_and(|p| {
            p.until > std::time::Instant::now()
                && (here.x - p.top.x).hypot(here.z - p.top.z) < 0.8
                && here.y > p.top.y - 0.5
        })
    }
}

/// Whether the bot at `here` can build its pillar: [`PERCH_HEIGHT`] scaffold blocks carried, standing on something
/// solid (not in a liquid), and air for its body on the pillar's top.
fn can_perch(world: &azalea::world::World, here: Vec3, inventory: &Inventory) -> bool {
    let feet = azalea::BlockPos::from(here);
    let room = |pos: azalea::BlockPos| {
        world.get_block_state(pos).is_some_and(|s| {
            let kind = BlockKind::from(s);
            is_block_state_passable(s) && kind != BlockKind::Water && kind != BlockKind::Lava
        })
    };
    super::moves::scaffold_count(&inventory.inventory_menu.slots()) >= PERCH_HEIGHT as u32
        && world.get_block_state(feet.down(1)).is_some_and(is_block_state_solid)
        && (0..PERCH_HEIGHT + 2).all(|dy| room(feet.up(dy)))
}

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_outnumbered(
    mut bots: Query<
        (&Position, &WorldName, &WorldHolder, &Health, &Inventory, Option<&OnPillar>, &mut Urges),
        With<LocalEntity>,
    >,
    monsters: Monsters,
) {
    for (position, world, holder, health, inventory, pillar, mut urges) in &mut bots {
        if health.0 <= 0.0 {
            continue;
        }
        let here = **position;
        let blocks = holder.shared.read();
        // From the top of its pillar, the pillar itself hides the zombies at its foot.
        let up = OnPillar::holds(pillar, here);
        let near: Vec<(Vec3, f64, EntityKind)> = living(&monsters)
            .filter(|(_, _, kind, w)| *w == world && !NOT_FOUGHT.contains(&kind.0))
            .map(|(_, p, kind, _)| (**p, p.distance_to(here), kind.0))
            .filter(|(p, d, _)| *d <= PACK_DISTANCE && (up || in_sight(&blocks, here.up(1.62), p.up(1.0))))
            .collect();
        if !any_grounded(&near) {
            continue;
        }
        if up || (near.len() >= OUTNUMBERED && can_perch(&blocks, here, inventory)) {
            let what = if near.len() > 1 {
                format!("{} monsters", near.len())
            } else {
                format!("a {}", short_name(near[0].2))
            };
            urges.offer(Urge::Perch { what });
        }
    }
}

/// Set when running from monsters got the bot nowhere (walls all round): until the instant passes, it fights
/// rather than runs (a creeper aside).
#[derive(Component, Clone, Copy, Debug)]
pub struct Cornered(pub std::time::Instant);

/// Hurt (health 10 or less) with a monster in sight within 12 blocks, and able to heal (food 18 or more, or food
/// carried): dig in and wait in the closed hole until healed. A creeper within 6 is run from instead.
pub struct HidePlugin;

impl Plugin for HidePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_hurt.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

/// Set when the ground would not do for hiding, or a hide healed nothing: until the instant passes the bot fights
/// or runs instead.
#[derive(Component, Clone, Copy, Debug)]
pub struct NoHiding(pub std::time::Instant);

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_hurt(
    mut bots: Query<
        (
            &Position,
            &WorldName,
            &WorldHolder,
            &Health,
            &Hunger,
            &Inventory,
            Option<&NoHiding>,
            Option<&Wounds>,
            Option<&OnHunt>,
            Option<&OnPillar>,
            &mut Urges,
        ),
        With<LocalEntity>,
    >,
    monsters: Monsters,
) {
    for (position, world, holder, health, hunger, inventory, no_hiding, wounds, on_hunt, pillar, mut urges) in &mut bots
    {
        // On a pillar over zombies, digging in would dig the pillar away from under it.
        if health.0 <= 0.0
            || OnPillar::holds(pillar, **position)
            || health.0 > HIDE_HEALTH
            || no_hiding.is_some_and(|n| n.0 > std::time::Instant::now())
            || !(hunger.food >= HEALS_AT || carries_edible_food(inventory, on_hunt))
        {
            continue;
        }
        let here = **position;
        let blocks = holder.shared.read();
        let hurt = Wounds::recent(wounds);
        let near: Vec<(f64, EntityKind)> = living(&monsters)
            .filter(|(_, _, _, w)| *w == world)
            .map(|(_, p, kind, _)| (p.distance_to(here), kind.0, **p))
            .filter(|(d, _, p)| *d <= HIDE_FROM && (sees_body(&blocks, here, *p) || (hurt && *d <= MELEE_DISTANCE)))
            .map(|(d, kind, _)| (d, kind))
            .collect();
        let creeper_close = near.iter().any(|(d, kind)| *kind == EntityKind::Creeper && *d <= CREEPER_DISTANCE);
        // A hole cannot be dug under blows: the bot is knocked off it, or killed standing still. One that hits hand
        // to hand within reach is fought (or run from) first.
        let brawler_close = near.iter().any(|(d, kind)| MELEE_ONLY.contains(kind) && *d <= HIDE_CLEAR);
        if !near.is_empty() && !creeper_close && !brawler_close {
            urges.offer(Urge::Hide);
        }
    }
}

/// Food level from which health comes back by itself (vanilla regeneration).
pub const HEALS_AT: u32 = 18;

/// Hunt a farm animal within 12 blocks when hungry (food below 18) and carrying no food, with no monster near.
pub struct HuntPlugin;

impl Plugin for HuntPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_prey.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

type Animals<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static Position, &'static EntityKindComponent, &'static WorldName, Option<&'static Health>),
    Without<LocalEntity>,
>;

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_prey(
    mut bots: Query<(&Position, &WorldName, &Health, &Hunger, &Inventory, &mut Urges), With<LocalEntity>>,
    animals: Animals,
    monsters: Monsters,
) {
    for (position, world, health, hunger, inventory, mut urges) in &mut bots {
        if health.0 <= FLEE_HEALTH || hunger.food >= HUNT_BELOW {
            continue;
        }
        let here = **position;
        let prey = animals
            .iter()
            .filter(|(_, _, kind, w, life)| *w == world && PREY.contains(&kind.0) && life.is_none_or(|h| h.0 > 0.0))
            .map(|(entity, p, kind, _, _)| (entity, p.distance_to(here), (p.y - here.y).abs(), kind.0))
            .filter(|(_, d, dy, _)| *d <= HUNT_RANGE && *dy <= 4.0)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((target, _, _, kind)) = prey else { continue };
        if living(&monsters).any(|(_, p, _, w)| w == world && p.distance_to(here) <= HUNT_SAFE_DISTANCE)
            || carries_food(inventory)
        {
            continue;
        }
        urges.offer(Urge::Hunt { target, what: format!("a {}", short_name(kind)) });
    }
}

/// Whether any of [`WEAPONS`] is in the inventory (the crafting grid aside).
fn carries_weapon(inventory: &Inventory) -> bool {
    carries_any(inventory, &WEAPONS)
}

/// Whether any of `names` is in the inventory (the crafting grid aside).
fn carries_any(inventory: &Inventory, names: &[&str]) -> bool {
    carries_such(inventory, |name| names.contains(&name))
}

/// Whether an item whose name (`bread`, no `minecraft:`) `wanted` accepts is in the inventory (the crafting grid
/// aside).
fn carries_such(inventory: &Inventory, wanted: impl Fn(&str) -> bool) -> bool {
    inventory.inventory_menu.slots().iter().skip(5).any(|stack| match stack {
        ItemStack::Present(data) => wanted(data.kind.to_string().trim_start_matches("minecraft:")),
        ItemStack::Empty => false,
    })
}

/// Whether any of [`FOODS`] is in the inventory (the crafting grid aside).
fn carries_food(inventory: &Inventory) -> bool {
    carries_any(inventory, &FOODS)
}

/// Whether the bot may eat `food` now: not what a hunt under way is for (`get 2 rotten flesh`, `get 2 porkchops`).
pub fn edible(food: &str, on_hunt: Option<&OnHunt>) -> bool {
    !on_hunt.is_some_and(|hunt| hunt.keeps_food(food))
}

fn carries_edible_food(inventory: &Inventory, on_hunt: Option<&OnHunt>) -> bool {
    carries_such(inventory, |name| FOODS.contains(&name) && edible(name, on_hunt))
}

/// At night, in the open (nothing but air over its head) with a monster within 16 blocks, dig in and wait for
/// morning: zombies, spiders and skeletons cannot reach a bot in a closed hole. A bot that died this night digs in as
/// soon as it is back, monster in sight or not: it respawns empty-handed where the night's monsters gather.
pub struct ShelterPlugin;

impl Plugin for ShelterPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_night.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

/// How close a monster must be at night for the bot to take shelter.
pub const SHELTER_WHEN_WITHIN: f64 = 16.0;
/// How far above its head the bot looks for a roof.
const ROOF_SEARCH: i32 = 24;

/// A hunt for a mob an owner or a script asked for (`killMob`), and until when: a hunt for a night's monsters is done
/// in the dark, so the bot does not dig in for the night meanwhile, and what the mob drops is not eaten.
#[derive(Component, Clone, Debug)]
pub struct OnHunt {
    pub until: std::time::Instant,
    /// What the hunted mob drops: what the hunt is for.
    pub keeps: std::sync::Arc<[String]>,
}

impl OnHunt {
    pub fn is_on(&self) -> bool {
        self.until > std::time::Instant::now()
    }

    /// Whether `food` is what the hunt under way is for.
    pub fn keeps_food(&self, food: &str) -> bool {
        self.is_on() && self.keeps.iter().any(|kept| kept == food)
    }
}

/// The bot died during the night that is still on: until daybreak it digs in wherever it stands in the open and leaves
/// its dropped things where they lie (a survival run's bot, back at its spawn point with nothing, died again and again
/// there, or on its way back to its things).
#[derive(Component, Clone, Copy, Debug)]
pub struct DiedTonight;

#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn sense_night(
    mut bots: Query<
        (
            Entity,
            &Position,
            &WorldName,
            &WorldHolder,
            &Health,
            Option<&DayClock>,
            Option<&OnHunt>,
            Option<&DiedTonight>,
            &mut Urges,
        ),
        With<LocalEntity>,
    >,
    monsters: Monsters,
    mut commands: Commands,
) {
    for (entity, position, world, holder, health, clock, on_hunt, died_tonight, mut urges) in &mut bots {
        let night = clock.is_some_and(DayClock::is_night);
        if !night && died_tonight.is_some() {
            commands.entity(entity).remove::<DiedTonight>();
        }
        if health.0 <= 0.0 || !night || on_hunt.is_some_and(OnHunt::is_on) {
            continue;
        }
        let here = **position;
        if died_tonight.is_none()
            && !living(&monsters).any(|(_, p, _, w)| w == world && p.distance_to(here) <= SHELTER_WHEN_WITHIN)
        {
            continue;
        }
        let head = azalea::BlockPos::from(here.up(1.62));
        let world = holder.shared.read();
        let open_sky = (1..=ROOF_SEARCH).all(|dy| {
            world
                .get_block_state(head.up(dy))
                .is_none_or(|s| matches!(BlockKind::from(s), BlockKind::Air | BlockKind::CaveAir))
        });
        if open_sky {
            urges.offer(Urge::Shelter);
        }
    }
}

/// Head for air when breath runs low.
pub struct BreathePlugin;

impl Plugin for BreathePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_breath.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

fn sense_breath(mut bots: Query<(&AirSupply, &Health, &Position, &WorldHolder, &mut Urges), With<LocalEntity>>) {
    for (air, health, position, holder, mut urges) in &mut bots {
        if health.0 <= 0.0 || air.0 > BREATHE_AT {
            continue;
        }
        // Only with the head under water (the air count can lag, or start low before the server sends it).
        let eyes = azalea::BlockPos::from(position.up(1.62));
        let head_in_water = holder.shared.read().get_block_state(eyes).map(BlockKind::from) == Some(BlockKind::Water);
        if head_in_water {
            urges.offer(Urge::Breathe);
        }
    }
}

/// Out of lava or fire the moment the bot's feet or body are in it.
pub struct EscapeFirePlugin;

impl Plugin for EscapeFirePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(GameTick, sense_fire.in_set(ReflexSystems::Sense).ambiguous_with_all());
    }
}

fn sense_fire(mut bots: Query<(&Position, &WorldHolder, &Health, &mut Urges), With<LocalEntity>>) {
    for (position, holder, health, mut urges) in &mut bots {
        if health.0 <= 0.0 {
            continue;
        }
        let world = holder.shared.read();
        let feet = azalea::BlockPos::from(**position);
        let burning = [feet, feet.up(1)].into_iter().any(|p| {
            world
                .get_block_state(p)
                .map(BlockKind::from)
                .is_some_and(|k| matches!(k, BlockKind::Lava | BlockKind::Fire | BlockKind::SoulFire))
        });
        if burning {
            urges.offer(Urge::Escape { from: **position });
        }
    }
}

/// Where the bot last died, until it has been back there for its things.
#[derive(Component, Clone, Copy, Debug)]
pub struct LastDeath {
    pub position: Vec3,
    /// When it died: dropped items vanish after 5 minutes.
    pub at: std::time::Instant,
}

/// Remembers where the bot died (the items it carried lie there), for the driver to go back when it is safe.
pub struct RecoverPlugin;

impl Plugin for RecoverPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(note_death);
    }
}

/// How many times the bot has died since it joined and where it last did, for whoever must know that a death
/// happened during its work (kept when [`LastDeath`] is forgotten).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Deaths {
    pub count: u32,
    pub last: Vec3,
}

/// Runs the moment azalea marks the bot dead (it respawns within a tick or two, so a system could miss it).
#[allow(clippy::type_complexity)] // an ECS query names every component it reads
fn note_death(
    died: On<Add, azalea::entity::Dead>,
    mut commands: Commands,
    bots: Query<(&Position, Option<&Deaths>, Option<&DayClock>), With<LocalEntity>>,
) {
    if let Ok((position, deaths, clock)) = bots.get(died.entity) {
        let deaths = Deaths { count: deaths.map_or(0, |d| d.count) + 1, last: **position };
        let mut bot = commands.entity(died.entity);
        bot.insert((LastDeath { position: **position, at: std::time::Instant::now() }, deaths));
        if clock.is_some_and(DayClock::is_night) {
            bot.insert(DiedTonight);
        }
    }
}

fn short_name(kind: EntityKind) -> String {
    let name = kind.to_string();
    name.trim_start_matches("minecraft:").replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pillar_holds_while_the_bot_stands_on_its_top() {
        let top = Vec3::new(10.5, 67.0, 3.5);
        let pillar = OnPillar { top, until: std::time::Instant::now() + std::time::Duration::from_secs(60) };
        assert!(OnPillar::holds(Some(&pillar), top));
        assert!(OnPillar::holds(Some(&pillar), Vec3::new(10.8, 67.0, 3.2)), "a little off the middle");
        assert!(!OnPillar::holds(Some(&pillar), Vec3::new(11.6, 67.2, 3.5)), "knocked off sideways");
        assert!(!OnPillar::holds(Some(&pillar), Vec3::new(10.5, 64.0, 3.5)), "down at its foot");
        let ended = OnPillar { top, until: std::time::Instant::now() };
        assert!(!OnPillar::holds(Some(&ended), top));
        assert!(!OnPillar::holds(None, top));
    }

    #[test]
    fn the_strongest_urge_wins_whatever_the_order() {
        let mut urges = Urges::default();
        urges.offer(Urge::Eat);
        urges.offer(Urge::Flee { from: Vec3::ZERO, what: "a creeper".into() });
        urges.offer(Urge::Defend { target: Entity::from_raw_u32(1).unwrap(), what: "a zombie".into() });
        assert_eq!(urges.0.as_ref().map(Urge::describe).as_deref(), Some("fleeing a creeper"));
        urges.offer(Urge::Breathe);
        assert_eq!(urges.0, Some(Urge::Breathe), "a run under water drowns the bot: air first");
    }

    #[test]
    fn food_waits_for_shelter_and_shelter_for_a_fight() {
        let defend = Urge::Defend { target: Entity::from_raw_u32(1).unwrap(), what: "a zombie".into() };
        let hunt = Urge::Hunt { target: Entity::from_raw_u32(2).unwrap(), what: "a cow".into() };
        let mut urges = Urges::default();
        urges.offer(hunt.clone());
        urges.offer(Urge::Eat);
        assert_eq!(urges.0, Some(Urge::Eat), "eating what it carries comes before hunting");
        urges.offer(Urge::Shelter);
        assert_eq!(urges.0, Some(Urge::Shelter));
        urges.offer(defend.clone());
        assert_eq!(urges.0, Some(defend), "a monster within reach is fought before digging in");
        assert!(!hunt.is_danger() && !Urge::Shelter.is_danger() && !Urge::Eat.is_danger());
        assert!(Urge::Breathe.is_danger());
    }

    #[test]
    fn a_hurt_bot_hides_before_it_runs_or_fights() {
        let mut urges = Urges::default();
        urges.offer(Urge::Defend { target: Entity::from_raw_u32(1).unwrap(), what: "a zombie".into() });
        urges.offer(Urge::Flee { from: Vec3::ZERO, what: "a zombie".into() });
        urges.offer(Urge::Hide);
        assert_eq!(urges.0, Some(Urge::Hide), "running hurt in a cave is caught from behind");
        assert!(Urge::Hide.is_danger(), "a trip back for its things gives way to hiding");
        urges.offer(Urge::Breathe);
        assert_eq!(urges.0, Some(Urge::Breathe), "no digging in under water");
    }

    #[test]
    fn hunger_or_hurt_means_eat() {
        assert!(needs_food(14, 20.0));
        assert!(!needs_food(15, 20.0));
        assert!(needs_food(19, 10.0), "hurt and not full: eat to heal");
        assert!(!needs_food(20, 10.0), "a full bot cannot eat");
        assert!(!needs_food(3, 0.0), "the dead do not eat");
    }

    #[test]
    fn a_hunt_eats_anything_but_what_it_is_for() {
        let now = std::time::Instant::now();
        let keeps: std::sync::Arc<[String]> = ["bone".to_owned(), "arrow".to_owned()].into();
        let for_bones = OnHunt { until: now + std::time::Duration::from_secs(60), keeps: keeps.clone() };
        assert!(edible("rotten_flesh", Some(&for_bones)), "a skeleton hunt eats a zombie's flesh");
        let for_flesh = OnHunt { until: for_bones.until, keeps: ["rotten_flesh".to_owned()].into() };
        assert!(!edible("rotten_flesh", Some(&for_flesh)));
        assert!(edible("bread", Some(&for_flesh)));
        let over = OnHunt { until: now, keeps: ["rotten_flesh".to_owned()].into() };
        assert!(edible("rotten_flesh", Some(&over)), "a hunt that is over keeps nothing");
        assert!(edible("rotten_flesh", None));
    }
}
