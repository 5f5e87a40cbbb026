//! Acting on reflexes: the bot eats, hits back, runs, comes up for air or out of the fire when its body says so
//! (the urges the `bot::reflex` plugins sense every tick), whatever a script or command was doing.
//!
//! [`drive`] runs beside everything else a bot does. When an urge comes, it takes the body (`BotHandle::body`
//! announces it): the primitive in flight is dropped and the bot stops, the reflex acts, and the script's call is
//! then carried out again from the start (see [`super::serve`]). `!status` shows the reflex meanwhile.

use std::time::Duration;

use azalea::{
    BlockPos, Vec3, WalkDirection,
    ecs::query::{With, Without},
    entity::{
        EntityKindComponent, LocalEntity, Position,
        metadata::{AbstractMonster, Health},
    },
    interact::BlockStatePredictionHandler,
    pathfinder::world::{is_block_state_passable, is_block_state_standable},
    protocol::packets::game::{
        s_interact::InteractionHand,
        s_player_action::{Action, ServerboundPlayerAction},
        s_use_item::ServerboundUseItem,
    },
    registry::builtin::{BlockKind, EntityKind},
};
use tokio::time::Instant;

use super::{items, kill, observe, place, shelter};
use crate::{
    bot::{
        BotHandle,
        reflex::{ARCHER_DISTANCE, ARCHERS, FOODS, GROUNDED, PACK_DISTANCE, PERCH_HEIGHT, Urge, edible, needs_food},
    },
    config::Reflexes,
};

/// Ticks of holding use to eat (vanilla: 32), with a margin for the server's answer.
const EAT_WAIT: Duration = Duration::from_millis(2200);
/// The longest any one reflex keeps the body.
const LONGEST: Duration = Duration::from_secs(20);
/// After a reflex that could not act (no food carried), the same urge is left alone this long.
const RETRY_AFTER: Duration = Duration::from_secs(30);
/// After a hunt that brought no food (the animal got away, or its meat out of reach), hunting waits this long.
const HUNT_RETRY_AFTER: Duration = Duration::from_secs(60);
/// After ground that would not do for a shelter, or a shelter that failed, the next try waits this long.
const SHELTER_RETRY_AFTER: Duration = Duration::from_secs(5);
/// Health a hiding bot waits for before it goes on.
const HEALED: f32 = 18.0;
/// The longest the bot hides (vanilla regeneration at full food heals 8 health in about 32 s).
const LONGEST_HIDE: Duration = Duration::from_secs(90);
/// A hide in which health has not risen for this long is given up.
const NO_HEALING_FOR: Duration = Duration::from_secs(20);
/// After a hide that healed nothing, or failed, the bot does not hide again for this long.
const HIDE_RETRY_AFTER: Duration = Duration::from_secs(60);
/// A run that gains less distance than this on what it ran from got nowhere ...
const CORNERED_GAIN: f64 = 3.0;
/// ... and the bot stands and fights (creepers aside) this long before it tries running again.
const CORNERED_FOR: Duration = Duration::from_secs(20);
/// How long one hunt may chase its animal.
const HUNT_TIME: Duration = Duration::from_secs(15);

/// Acts on the bot's urges for as long as it is connected. Spawn it on azalea's local task set when the bot spawns;
/// a second call for the same connection returns at once.
pub async fn drive(bot: BotHandle, on: Reflexes) {
    let Some(body) = bot.claim_body() else { return };
    let mut no_food_until: Option<Instant> = None;
    let mut no_hunt_until: Option<Instant> = None;
    let mut no_shelter_until: Option<Instant> = None;
    let mut gone_since: Option<Instant> = None;
    // The death already announced in chat, by when it happened.
    let mut told_of_death: Option<std::time::Instant> = None;
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The connection's entity goes away when the bot disconnects; a reconnect starts another driver.
        if bot.client().get_component::<Position>().is_none() {
            let since = *gone_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(5) {
                return;
            }
            continue;
        }
        gone_since = None;
        if on.recover {
            // Said before any reflex acts: back at night, the bot digs in at once, until morning.
            tell_of_death(&bot, &mut told_of_death);
        }
        let Some(urge) = bot.urge() else {
            if on.recover {
                recover_if_safe(&bot, &body).await;
            }
            continue;
        };
        if urge == Urge::Eat {
            // Hungry with nothing to eat: the script goes on undisturbed (the agents see the food level).
            if no_food_until.is_some_and(|t| t > Instant::now()) {
                continue;
            }
            if best_food(&bot).is_none() {
                no_food_until = Some(Instant::now() + RETRY_AFTER);
                continue;
            }
        }
        if matches!(urge, Urge::Hunt { .. }) && no_hunt_until.is_some_and(|t| t > Instant::now()) {
            continue;
        }
        if urge == Urge::Shelter {
            // Ground that will not do is passed over without disturbing the script; the bot moves on meanwhile.
            if no_shelter_until.is_some_and(|t| t > Instant::now()) {
                continue;
            }
            if let Err(why) = shelter::check_ground(&bot) {
                tracing::debug!("{}: no shelter here: {why}", bot.name());
                no_shelter_until = Some(Instant::now() + SHELTER_RETRY_AFTER);
                continue;
            }
        }
        if urge == Urge::Hide
            && let Err(why) = shelter::check_ground(&bot)
        {
            // It fights or runs instead, and looks again a little later (it may have moved onto better ground).
            tracing::debug!("{}: nowhere to hide here: {why}", bot.name());
            bot.forbid_hiding(SHELTER_RETRY_AFTER);
            continue;
        }
        let what = urge.describe();
        tracing::info!("{}: reflex: {what}", bot.name());
        body.send_replace(Some(what.clone()));
        take_over(&bot).await;
        if let Urge::Flee { from, .. } = &urge {
            // Whatever drove it off is still there after: the scripts' searches keep away from it a while.
            bot.mark_dangerous(*from);
        }
        let longest = match urge {
            Urge::Shelter => shelter::LONGEST_NIGHT + LONGEST,
            Urge::Hide => LONGEST_HIDE + LONGEST,
            Urge::Perch { .. } => LONGEST_PERCH,
            _ => LONGEST,
        };
        let started_at = bot.position();
        let acted = tokio::time::timeout(longest, act(&bot, &urge)).await;
        if let Urge::Flee { from, .. } = &urge
            && bot.position().distance_to(*from) < started_at.distance_to(*from) + CORNERED_GAIN
        {
            tracing::info!("{}: running got it nowhere; it fights for a while instead", bot.name());
            bot.mark_cornered(CORNERED_FOR);
        }
        bot.client().set_jumping(false);
        take_over(&bot).await;
        match acted {
            Ok(Ok(())) => {}
            Ok(Err(why)) => {
                tracing::info!("{}: reflex {what} could not act: {why}", bot.name());
                if urge == Urge::Eat {
                    no_food_until = Some(Instant::now() + RETRY_AFTER);
                }
                if matches!(urge, Urge::Hunt { .. }) {
                    no_hunt_until = Some(Instant::now() + HUNT_RETRY_AFTER);
                }
                if urge == Urge::Shelter {
                    no_shelter_until = Some(Instant::now() + SHELTER_RETRY_AFTER);
                }
                if urge == Urge::Hide {
                    bot.forbid_hiding(HIDE_RETRY_AFTER);
                }
            }
            Err(_) => tracing::warn!("{}: reflex {what} gave up after {}s", bot.name(), LONGEST.as_secs()),
        }
        body.send_replace(None);
    }
}

/// How long dropped items stay in the world (vanilla: 6000 ticks).
const ITEMS_LAST: Duration = Duration::from_secs(300);
/// Monsters closer than this make going back unsafe.
const SAFE_DISTANCE: f64 = 16.0;

/// After a death, once back alive: says where it died and when it will go back there (once per death).
fn tell_of_death(bot: &BotHandle, told: &mut Option<std::time::Instant>) {
    let Some(death) = bot.last_death() else { return };
    if *told == Some(death.at) || !bot.is_alive() {
        return;
    }
    *told = Some(death.at);
    bot.mark_dangerous(death.position);
    let place = crate::bot::fmt_block(BlockPos::from(death.position));
    if bot.died_tonight() {
        bot.chat(&format!("I died at {place}. I'll dig in for the night and go back for my things in the morning."));
    } else {
        bot.chat(&format!("I died at {place}. I'll go back for my things when it's safe."));
    }
}

/// After a death: goes back for the dropped things when no monster is near and health is 10 or more, and not in the
/// night it died in (or gives them up once they have vanished).
async fn recover_if_safe(bot: &BotHandle, body: &tokio::sync::watch::Sender<Option<String>>) {
    let Some(death) = bot.last_death() else { return };
    if !bot.is_alive() {
        return;
    }
    let place = crate::bot::fmt_block(BlockPos::from(death.position));
    if death.at.elapsed() > ITEMS_LAST {
        bot.chat(&format!("My things at {place} are gone by now."));
        bot.forget_death();
        return;
    }
    // Things dropped under water sink and drift; going down for them is how a drowned bot drowns again.
    let feet = BlockPos::from(death.position);
    if [feet, feet.up(1)].iter().all(|p| observe::block_kind(bot, *p) == Some(BlockKind::Water)) {
        bot.chat(&format!("My things at {place} are under water; I'm leaving them."));
        bot.forget_death();
        return;
    }
    // Not during the night it died in, nor while hurt, nor with monsters around the bot or around the place it died
    // (often what killed it).
    if bot.died_tonight()
        || bot.client().health() < 10.0
        || !bot.hostiles_near(SAFE_DISTANCE).is_empty()
        || !bot.hostiles_around(death.position, SAFE_DISTANCE).is_empty()
    {
        return;
    }
    body.send_replace(Some("going back for my things".to_owned()));
    take_over(bot).await;
    let before: i32 = bot.items().iter().map(|(_, n)| n).sum();
    // A monster met on the way (an urge to fight or run) ends the trip; the other reflexes take over, and the bot
    // tries again once it is safe.
    let fetched = tokio::select! {
        fetched = tokio::time::timeout(Duration::from_secs(120), fetch_drops(bot, death.position)) => Some(fetched),
        () = urge_arises(bot) => None,
    };
    let got = bot.items().iter().map(|(_, n)| n).sum::<i32>() - before;
    match fetched {
        None => {
            tracing::info!("{}: going back for its things was cut short", bot.name());
            take_over(bot).await;
            body.send_replace(None);
            return;
        }
        Some(Ok(Err(why))) => bot.chat(&format!("I could not get back to {place}: {why}")),
        _ if got > 0 => bot.chat(&format!("I got {got} of my things back from {place}.")),
        _ => bot.chat(&format!("I found none of my things at {place}.")),
    }
    bot.forget_death();
    take_over(bot).await;
    body.send_replace(None);
}

/// Returns once the reflexes sense an urge other than hunger (a monster to fight or flee, air, fire).
async fn urge_arises(bot: &BotHandle) {
    loop {
        if bot.urge().is_some_and(|u| u.is_danger()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Walks to where the bot died and over every item lying within 8 blocks of it.
async fn fetch_drops(bot: &BotHandle, at: Vec3) -> Result<(), String> {
    bot.goto_near(at, 2.0).await.map_err(|e| e.to_string())?;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let Some(item) = observe::items_near(bot, at, 8.0).first().copied() else { break };
        if bot.goto_block(BlockPos::from(item)).await.is_err() {
            // Out of reach (fell into a hole, in lava): leave it.
            break;
        }
        bot.client().wait_ticks(4).await;
    }
    Ok(())
}

/// Stops whatever the body was doing, and waits until the stop has reached the pathfinder (on the next tick): a walk
/// started before that, by the reflex or the script resuming, would be stopped with it. The script's call in flight
/// is dropped meanwhile.
async fn take_over(bot: &BotHandle) {
    tokio::task::yield_now().await;
    bot.stop_all();
    bot.client().wait_ticks(2).await;
}

async fn act(bot: &BotHandle, urge: &Urge) -> Result<(), String> {
    match urge {
        Urge::Eat => eat(bot).await,
        Urge::Defend { target, .. } => defend(bot, *target).await,
        Urge::Flee { from, .. } => flee(bot, *from).await,
        Urge::Breathe => breathe(bot).await,
        Urge::Escape { from } => escape(bot, *from).await,
        Urge::Hunt { target, what } => hunt(bot, *target, what).await,
        Urge::Shelter => take_shelter(bot).await,
        Urge::Hide => hide(bot).await,
        Urge::Perch { .. } => perch(bot).await,
    }
}

/// The best food carried, if any.
pub fn best_food(bot: &BotHandle) -> Option<&'static str> {
    let on_hunt = bot.on_hunt();
    FOODS.iter().copied().find(|food| edible(food, on_hunt.as_ref()) && items::count(bot, food) > 0)
}

/// Eats one of the best food carried, as a player holding use for 32 ticks does; again while still hungry.
async fn eat(bot: &BotHandle) -> Result<(), String> {
    for _ in 0..4 {
        let Some(food) = best_food(bot) else { return Err("no food carried".to_owned()) };
        items::hold(bot, food).await?;
        // The slot change goes out on the next tick; a use sent before it would be for the old slot, and cut short.
        bot.client().wait_ticks(2).await;
        let before = items::count(bot, food);
        use_held_item(bot);
        if !items::wait_until(bot, EAT_WAIT, || items::count(bot, food) < before).await {
            return Err(format!("the server did not let me eat the {food}"));
        }
        let hunger = bot.client().hunger();
        if !needs_food(hunger.food, bot.client().health()) {
            return Ok(());
        }
    }
    Ok(())
}

/// Presses use with the held item into the air (not at a block, which would place or open it instead).
pub(super) fn use_held_item(bot: &BotHandle) {
    use_item(bot, InteractionHand::MainHand);
}

/// Presses use with what `hand` holds, into the air.
fn use_item(bot: &BotHandle, hand: InteractionHand) {
    let client = bot.client();
    let seq = {
        let mut ecs = client.ecs.write();
        let mut entity = ecs.entity_mut(client.entity);
        entity.get_mut::<BlockStatePredictionHandler>().map_or(0, |mut p| p.start_predicting())
    };
    let look = client.direction();
    client.write_packet(ServerboundUseItem { hand, seq, y_rot: look.y_rot(), x_rot: look.x_rot() });
}

/// How close a player's hit reaches (the server measures from the eyes to the nearest point of the mob's box: about 3
/// blocks between centres).
const HIT_REACH: f64 = 3.0;
/// Closer than this a zombie or spider is about to reach the bot (their reach ends where their box, grown by 0.83,
/// touches the player's: about 1.4 blocks between centres); the bot steps back and hits from beyond it.
const KEEP_AWAY: f64 = 2.3;

/// Puts on the best armour carried, then hits the attacker with the best weapon until it dies or is out of reach, keeping just beyond the monster's own
/// reach: a step back whenever it closes in (where the ground behind allows; a walking player outpaces a zombie or a
/// spider), a hit whenever the swing is ready.
async fn defend(bot: &BotHandle, target: azalea::ecs::entity::Entity) -> Result<(), String> {
    // Armour carried and not worn goes on first (a few ticks, once): a zombie's blow of 3 is 1.4 through iron.
    items::wear_best_armour(bot).await;
    kill::hold_best_weapon(bot).await;
    let client = bot.client();
    let target = client.entity_ref_for(target);
    // An archer is chased from as far as it shoots; a monster that fights hand to hand is let go beyond 8 blocks.
    let archer = target.get_component::<EntityKindComponent>().is_some_and(|k| ARCHERS.contains(&k.0));
    let chase = if archer { ARCHER_DISTANCE + 1.0 } else { 8.0 };
    // Charging an archer, a shield carried goes into the off hand and is held up until the archer is within reach
    // (a blow cannot be struck with it up): its arrows from in front are stopped.
    let shield = archer && items::shield_in_off_hand(bot).await;
    let mut raised = false;
    let mut last_hit: Option<Instant> = None;
    let mut last_seen = target.position();
    let mut approaching = false;
    while target.exists() && target.is_alive() {
        let here = bot.position();
        let there = target.position();
        last_seen = there;
        let distance = here.distance_to(there);
        // Running or hiding comes first when a stronger reflex says so (a creeper, a pack, hurt).
        if distance > chase
            || bot.urge().is_some_and(|u| matches!(u, Urge::Flee { .. } | Urge::Escape { .. } | Urge::Hide))
        {
            client.walk(WalkDirection::None);
            bot.stop_moving();
            if raised {
                shield_down(bot);
            }
            return Ok(());
        }
        if distance > HIT_REACH {
            client.walk(WalkDirection::None);
            bot.start_toward(there, 2.6);
            approaching = true;
            if shield && !raised {
                shield_up(bot);
                raised = true;
            }
        } else {
            if approaching {
                bot.stop_moving();
                approaching = false;
            }
            if raised {
                shield_down(bot);
                raised = false;
            }
            target.look_at();
            let backing = distance < KEEP_AWAY && ground_behind(bot, here, there);
            client.walk(if backing { WalkDirection::Backward } else { WalkDirection::None });
            if last_hit.is_none_or(|t| t.elapsed() >= kill::ATTACK_INTERVAL) {
                kill::attack(bot, &target);
                last_hit = Some(Instant::now());
            }
        }
        client.wait_ticks(2).await;
    }
    client.walk(WalkDirection::None);
    bot.stop_moving();
    if raised {
        shield_down(bot);
    }
    // The kind is read (and the world's lock let go) before the kill is noted, which writes to it.
    let kind = target.get_component::<EntityKindComponent>().map(|k| k.0);
    if last_hit.is_some()
        && let Some(kind) = kind
    {
        bot.note_reflex_kill(kind.to_string().trim_start_matches("minecraft:"));
    }
    // What it dropped (bones, string, …) is what a hunt for it wanted: picked up before the script goes on, unless
    // another danger needs the body.
    if last_hit.is_some() && !bot.urge().is_some_and(|u| u.is_danger()) {
        kill::pick_up_drops(bot, last_seen).await;
    }
    Ok(())
}

/// Holds up the shield in the off hand (use pressed, and held).
fn shield_up(bot: &BotHandle) {
    use_item(bot, InteractionHand::OffHand);
}

/// Lets the shield down (use let go).
fn shield_down(bot: &BotHandle) {
    bot.client().write_packet(ServerboundPlayerAction {
        action: Action::ReleaseUseItem,
        pos: azalea::BlockPos::new(0, 0, 0),
        direction: azalea::core::direction::Direction::Down,
        seq: 0,
    });
}

/// Whether a step straight back from `foe` lands on safe ground: room for the body, something to stand on at most
/// one block down, and no liquid, fire or cliff there.
fn ground_behind(bot: &BotHandle, here: Vec3, foe: Vec3) -> bool {
    let (dx, dz) = (here.x - foe.x, here.z - foe.z);
    let length = dx.hypot(dz);
    if length < 1e-3 {
        return false;
    }
    let step = BlockPos::from(Vec3::new(here.x + dx / length * 0.9, here.y, here.z + dz / length * 0.9));
    let world = bot.client().world();
    let world = world.read();
    let state = |p: BlockPos| world.get_block_state(p);
    let clear = |p: BlockPos| state(p).is_some_and(|s| is_block_state_passable(s) && is_clear(BlockKind::from(s)));
    let floor = |p: BlockPos| state(p).is_some_and(is_block_state_standable);
    clear(step) && clear(step.up(1)) && (floor(step.down(1)) || (clear(step.down(1)) && floor(step.down(2))))
}

/// Digs in for the night and waits for morning there; leaves early when fire, water or a stronger danger reaches in,
/// or when a hunt for the night's monsters begins (an owner's goal came after the bot dug in).
async fn take_shelter(bot: &BotHandle) -> Result<(), String> {
    let health_at_start = bot.client().health();
    let morning = || bot.clock().is_none_or(|c| !c.is_night());
    let leave = || {
        bot.urge().is_some_and(|u| matches!(u, Urge::Escape { .. } | Urge::Breathe))
            || bot.client().health() < health_at_start - 4.0
            || bot.on_hunt().is_some_and(|hunt| hunt.is_on())
    };
    shelter::dig_in(bot, morning, leave).await
}

/// Digs in and waits in the closed hole until health is back to [`HEALED`], eating when hungry; leaves early when
/// fire, water or a hurt reaches in, or when health stops coming back (an error if it never came back, and then no
/// hiding for a while).
async fn hide(bot: &BotHandle) -> Result<(), String> {
    shelter::close_in(bot).await?;
    // Hits taken while digging do not count: only one that reaches into the closed hole.
    let health_at_start = bot.client().health();
    let leave = || {
        bot.urge().is_some_and(|u| matches!(u, Urge::Escape { .. } | Urge::Breathe))
            || bot.client().health() < health_at_start - 4.0
    };
    tracing::info!("{}: hiding at {} until healed", bot.name(), crate::bot::fmt_block(BlockPos::from(bot.position())));
    let (started, mut best, mut best_at) = (Instant::now(), health_at_start, Instant::now());
    while !leave() && started.elapsed() < LONGEST_HIDE {
        let health = bot.client().health();
        // Health comes back in fractions (17.999…).
        if health >= HEALED - 0.5 {
            return Ok(());
        }
        if health > best {
            (best, best_at) = (health, Instant::now());
        }
        // Whatever the meal came to (the last of the food eaten, a bite refused), the wait goes on.
        if needs_food(bot.client().hunger().food, health)
            && best_food(bot).is_some()
            && let Err(why) = eat(bot).await
        {
            tracing::debug!("{}: could not eat while hiding: {why}", bot.name());
        }
        if best_at.elapsed() > NO_HEALING_FOR {
            // Hungry with nothing to eat, health stops coming back: what was won is kept, and the bot goes on.
            if best - health_at_start >= 2.0 {
                return Ok(());
            }
            return Err(format!("my health stopped coming back at {health:.0}"));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Ok(())
}

/// Kills the farm animal and picks up its meat; gives the body back at once if a monster, fire or water needs it.
async fn hunt(bot: &BotHandle, target: azalea::ecs::entity::Entity, what: &str) -> Result<(), String> {
    kill::hold_best_weapon(bot).await;
    let target = bot.client().entity_ref_for(target);
    let danger = || bot.urge().is_some_and(|u| u.is_danger());
    let fell_at = match kill::strike_until_dead(bot, &target, Instant::now() + HUNT_TIME, danger).await {
        kill::Struck::Dead { at } => at,
        kill::Struck::Interrupted => return Ok(()),
        kill::Struck::TimedOut => return Err(format!("I could not catch {what} within {}s", HUNT_TIME.as_secs())),
    };
    kill::pick_up_drops(bot, fell_at).await;
    match best_food(bot) {
        Some(_) => Ok(()),
        None => Err(format!("{what} left no meat I could pick up")),
    }
}

/// The longest the bot fights from its pillar at one go.
const LONGEST_PERCH: Duration = Duration::from_secs(120);
/// How long no zombie may have been below before the bot leaves its pillar.
const PERCH_CLEAR: Duration = Duration::from_secs(2);
/// The longest building the pillar may take.
const PILLAR_TIME: Duration = Duration::from_secs(10);

/// The monsters alive within `range` of the bot: each one's entity, position, distance and kind.
fn monsters_near(bot: &BotHandle, range: f64) -> Vec<(azalea::EntityRef, Vec3, f64, EntityKind)> {
    let here = bot.position();
    bot.client()
        .nearest_entities_by::<&EntityKindComponent, (With<AbstractMonster>, Without<LocalEntity>)>(
            |_: &EntityKindComponent| true,
        )
        .into_iter()
        .filter(|m| m.is_alive())
        .filter_map(|m| {
            let kind = m.get_component::<EntityKindComponent>()?.0;
            let at = m.position();
            let distance = at.distance_to(here);
            (distance <= range).then_some((m, at, distance, kind))
        })
        .collect()
}

/// How far the bot's eyes (the bot standing at `here`) are from the nearest point of a mob's box (a zombie's size)
/// standing at `there`: what the server measures a hit's reach by.
fn reach_to(here: Vec3, there: Vec3) -> f64 {
    let eyes = here.up(1.62);
    let clamp = |v: f64, lo: f64, hi: f64| v.clamp(lo, hi);
    let nearest = Vec3::new(
        clamp(eyes.x, there.x - 0.3, there.x + 0.3),
        clamp(eyes.y, there.y, there.y + 1.95),
        clamp(eyes.z, there.z - 0.3, there.z + 0.3),
    );
    eyes.distance_to(nearest)
}

/// Builds a three-block pillar where the bot stands (unless it already stands over the zombies) and fights from its
/// top, where a zombie cannot reach: the nearest monster within reach is hit whenever the swing is ready (a spider
/// that climbs up is hit first), a carried shield is held up toward an archer in between, and the bot stays until no
/// zombie has been below for two seconds. A creeper, fire or water takes the body from it.
async fn perch(bot: &BotHandle) -> Result<(), String> {
    if !bot.on_pillar() {
        make_room(bot).await;
        // Jump by jump where the bot stands: a path to the pillar's top is planned from a spot a blow moves it off.
        match tokio::time::timeout(PILLAR_TIME, place::pillar_up(bot, PERCH_HEIGHT as u32)).await {
            Ok(Ok(())) => tracing::info!("{}: on a pillar at {}", bot.name(), crate::bot::fmt_pos(bot.position())),
            Ok(Err(e)) => return Err(format!("I could not build a pillar: {e}")),
            Err(_) => return Err(format!("I could not build a pillar within {}s", PILLAR_TIME.as_secs())),
        }
    }
    bot.mark_on_pillar(bot.position(), LONGEST_PERCH);
    let result = fight_from_pillar(bot).await;
    bot.mark_on_pillar(bot.position(), Duration::ZERO);
    result
}

/// Monsters nearer than this stop a pillar from going up: each blow throws the bot off the block it builds on.
const ROOM_TO_BUILD: f64 = 3.5;
/// The longest the bot runs to make room for its pillar.
const ROOM_RUN: Duration = Duration::from_secs(4);

/// Runs from the monsters at the bot's side until none is within [`ROOM_TO_BUILD`] (a zombie walks at about half a
/// player's pace, so a few seconds' run leaves room for the three jumps), or for [`ROOM_RUN`] at most.
async fn make_room(bot: &BotHandle) {
    let close = |bot: &BotHandle| monsters_near(bot, ROOM_TO_BUILD);
    let near = close(bot);
    if near.is_empty() {
        return;
    }
    let n = near.len() as f64;
    let (x, z) = near.iter().fold((0.0, 0.0), |(x, z), (_, at, ..)| (x + at.x / n, z + at.z / n));
    let here = bot.position();
    let (dx, dz) = (here.x - x, here.z - z);
    let length = dx.hypot(dz).max(0.1);
    bot.start_toward_xz(Vec3::new(here.x + dx / length * 20.0, here.y, here.z + dz / length * 20.0));
    let started = Instant::now();
    while started.elapsed() < ROOM_RUN && !close(bot).is_empty() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bot.stop_moving();
    tracing::debug!("{}: ran {:.1} blocks to make room for a pillar", bot.name(), bot.position().distance_to(here));
}

/// Fights from the top of the pillar until no zombie has been below it for [`PERCH_CLEAR`].
async fn fight_from_pillar(bot: &BotHandle) -> Result<(), String> {
    items::wear_best_armour(bot).await;
    kill::hold_best_weapon(bot).await;
    let shield = items::shield_in_off_hand(bot).await;
    let client = bot.client();
    let mut raised = false;
    let mut last_hit: Option<Instant> = None;
    let mut clear_since: Option<Instant> = None;
    let mut last_fallen: Option<Vec3> = None;
    // Monsters hit from the pillar, until they die (each then counted as the reflexes' kill).
    let mut struck: Vec<(azalea::EntityRef, EntityKind)> = Vec::new();
    loop {
        struck.retain(|(mob, kind)| {
            let dead = !mob.exists() || !mob.is_alive();
            if dead {
                bot.note_reflex_kill(kind.to_string().trim_start_matches("minecraft:"));
            }
            !dead
        });
        if bot.urge().is_some_and(|u| matches!(u, Urge::Escape { .. } | Urge::Breathe | Urge::Flee { .. })) {
            break;
        }
        if !bot.on_pillar() {
            // Knocked off it: the reflexes look afresh (another pillar, a fight, a run).
            return Err("I was knocked off my pillar".to_owned());
        }
        let here = bot.position();
        let near = monsters_near(bot, ARCHER_DISTANCE);
        let zombies_below =
            near.iter().any(|(_, at, d, kind)| GROUNDED.contains(kind) && *d <= PACK_DISTANCE && at.y < here.y - 1.0);
        if zombies_below {
            clear_since = None;
        } else if clear_since.get_or_insert_with(Instant::now).elapsed() >= PERCH_CLEAR {
            break;
        }
        let in_reach = near
            .iter()
            .filter(|(_, at, _, kind)| !NOT_HIT.contains(kind) && reach_to(here, *at) <= HIT_REACH)
            .min_by(|a, b| reach_to(here, a.1).total_cmp(&reach_to(here, b.1)));
        match in_reach {
            Some((target, at, _, kind)) => {
                if raised {
                    shield_down(bot);
                    raised = false;
                }
                target.look_at();
                if last_hit.is_none_or(|t| t.elapsed() >= kill::ATTACK_INTERVAL) {
                    kill::attack(bot, target);
                    last_hit = Some(Instant::now());
                    last_fallen = Some(*at);
                    if !struck.iter().any(|(mob, _)| mob.id() == target.id()) {
                        struck.push((target.clone(), *kind));
                    }
                }
            }
            None => {
                let archer =
                    near.iter().filter(|(_, _, _, kind)| ARCHERS.contains(kind)).min_by(|a, b| a.2.total_cmp(&b.2));
                match archer {
                    Some((archer, ..)) if shield => {
                        archer.look_at();
                        if !raised {
                            shield_up(bot);
                            raised = true;
                        }
                    }
                    _ if raised => {
                        shield_down(bot);
                        raised = false;
                    }
                    _ => {}
                }
            }
        }
        client.wait_ticks(2).await;
    }
    if raised {
        shield_down(bot);
    }
    // What the last one hit dropped lies at the foot of the pillar: picked up when a hunt wants it and it is safe.
    if let Some(at) = last_fallen
        && bot.on_hunt().is_some()
        && !bot.urge().is_some_and(|u| u.is_danger())
    {
        kill::pick_up_drops(bot, at).await;
    }
    Ok(())
}

/// Monsters not hit from a pillar: a creeper (it would blow the pillar up; the flee reflex runs from it) and the
/// neutral ones.
const NOT_HIT: [EntityKind; 3] = [EntityKind::Creeper, EntityKind::Enderman, EntityKind::ZombifiedPiglin];

/// Runs 20 blocks straight away from `from` (or as straight as the ground allows).
async fn flee(bot: &BotHandle, from: Vec3) -> Result<(), String> {
    let here = bot.position();
    let (dx, dz) = (here.x - from.x, here.z - from.z);
    let length = (dx * dx + dz * dz).sqrt().max(0.1);
    let away = Vec3::new(here.x + dx / length * 20.0, here.y, here.z + dz / length * 20.0);
    bot.start_toward_xz(away);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(8) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if bot.position().distance_to(from) >= 14.0 {
            break;
        }
    }
    Ok(())
}

/// Swims up (jump held) until breath is full, heading for the nearest block of dry ground if one is near.
async fn breathe(bot: &BotHandle) -> Result<(), String> {
    let client = bot.client();
    client.set_jumping(true);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(12) && bot.air() < crate::bot::MAX_AIR {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    client.set_jumping(false);
    Ok(())
}

/// Steps out of lava or fire onto the nearest block that is neither, jumping as it goes.
async fn escape(bot: &BotHandle, from: Vec3) -> Result<(), String> {
    let feet = BlockPos::from(from);
    let safe = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1), (2, 0), (-2, 0), (0, 2), (0, -2)]
        .into_iter()
        .map(|(x, z)| BlockPos::new(feet.x + x, feet.y, feet.z + z))
        .find(|p| {
            let here = observe::block_kind(bot, *p);
            let below = observe::block_kind(bot, p.down(1));
            here.is_some_and(is_clear) && below.is_some_and(|k| !is_clear(k) && !is_burning(k))
        })
        .ok_or_else(|| "no safe block next to the fire".to_owned())?;
    bot.client().set_jumping(true);
    let _ = bot.goto_block(safe).await;
    bot.client().set_jumping(false);
    Ok(())
}

fn is_burning(kind: azalea::registry::builtin::BlockKind) -> bool {
    use azalea::registry::builtin::BlockKind::{Fire, Lava, MagmaBlock, SoulFire};
    matches!(kind, Lava | Fire | SoulFire | MagmaBlock)
}

fn is_clear(kind: azalea::registry::builtin::BlockKind) -> bool {
    use azalea::registry::builtin::BlockKind::{Air, CaveAir, ShortGrass, TallGrass};
    matches!(kind, Air | CaveAir | ShortGrass | TallGrass)
}

/// The bot's health, or 0 while it has none (dead, or not in the world).
pub fn health(bot: &BotHandle) -> f32 {
    bot.client().get_component::<Health>().map_or(0.0, |h| h.0)
}
