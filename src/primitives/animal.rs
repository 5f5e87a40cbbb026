//! What animals and fluids give without a kill: `shearSheep()` (wool), `milkCow()` (a bucket of milk) and
//! `fillBucket(fluid)` (a bucket of water or lava). Each finds the nearest animal or fluid source within 32 blocks
//! (exploring for one when there is none), walks up to it, uses the held shears or bucket on it, and answers with
//! what it gained; a use that gains nothing is an error saying so.

use std::time::Duration;

use azalea::{
    BlockPos, EntityRef, Vec3,
    block::fluid_state::FluidState,
    core::delta::LpVec3,
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity, metadata::SheepSheared},
    protocol::packets::game::s_interact::{InteractionHand, ServerboundInteract},
    registry::builtin::{BlockKind, EntityKind},
};
use rhai::Dynamic;

use super::{explore, items, kill, observe};
use crate::{bot::BotHandle, script::Answer};

/// How far around the bot an animal or a fluid source is looked for before exploring.
const RANGE: f64 = 32.0;
/// How close the bot walks to use an item on an animal (an interaction reaches about 3 blocks).
const REACH: f64 = 2.5;
/// How long the walk to an animal may take.
const WALK: Duration = Duration::from_secs(30);

/// Shears the nearest sheep that has its wool, with shears carried, and picks the wool up.
pub async fn shear_sheep(bot: &BotHandle, search_budget: Duration) -> Answer {
    need(bot, "shears", "craftItem(\"shears\", 1) makes a pair from 2 iron_ingot")?;
    let woolly = |e: &EntityRef| e.get_component::<SheepSheared>().is_none_or(|s| !s.0);
    let sheep = find(bot, EntityKind::Sheep, "sheep with wool", search_budget, woolly).await?;
    let before = items::count(bot, "white_wool");
    let bare = || sheep.get_component::<SheepSheared>().is_some_and(|s| s.0);
    if !use_on(bot, &sheep, "shears", bare).await? {
        return Err("I used shears on a sheep but it kept its wool".to_owned());
    }
    kill::pick_up_drops(bot, sheep.position()).await;
    let got = items::count(bot, "white_wool") - before;
    if got <= 0 {
        return Err("I sheared a sheep but picked up no wool".to_owned());
    }
    Ok(Dynamic::from(i64::from(got)))
}

/// Fills an empty bucket carried with milk from the nearest cow.
pub async fn milk_cow(bot: &BotHandle, search_budget: Duration) -> Answer {
    need(bot, "bucket", "craftItem(\"bucket\", 1) makes one from 3 iron_ingot")?;
    let cow = find(bot, EntityKind::Cow, "cow", search_budget, |_| true).await?;
    let before = items::count(bot, "milk_bucket");
    if !use_on(bot, &cow, "bucket", || items::count(bot, "milk_bucket") > before).await? {
        return Err("I used a bucket on a cow but got no milk".to_owned());
    }
    Ok(Dynamic::from(i64::from(items::count(bot, "milk_bucket"))))
}

/// Fills an empty bucket carried from the nearest source block of `fluid` (`water` or `lava`).
pub async fn fill_bucket(bot: &BotHandle, fluid: &str, search_budget: Duration) -> Answer {
    let kind = match fluid {
        "water" => BlockKind::Water,
        "lava" => BlockKind::Lava,
        other => return Err(format!("A bucket holds water or lava, not {other}")),
    };
    need(bot, "bucket", "craftItem(\"bucket\", 1) makes one from 3 iron_ingot")?;
    let source = match nearest_source(bot, kind).await {
        Some(at) => at,
        None => {
            bot.chat(&format!("No {fluid} within {RANGE} blocks; exploring for some."));
            explore::search(bot, search_budget, || nearest_source(bot, kind)).await.map_err(|searched| {
                format!("{} for {fluid} and saw no still {fluid} within {RANGE} blocks of my way", searched.describe())
            })?
        }
    };
    let filled_name = format!("{fluid}_bucket");
    let before = items::count(bot, &filled_name);
    // Aimed at the top of the source, where the look meets it first.
    let surface = Vec3::new(source.x as f64 + 0.5, source.y as f64 + 0.8, source.z as f64 + 0.5);
    let mut filled = false;
    // Beside it, not in it: three blocks off reaches it and keeps the bot out of lava. Something in the line of sight
    // from there (a cactus, a reed, the bank's edge) takes the bucket's use instead: then from the block next to it.
    for near in [3.0, 1.6] {
        tokio::time::timeout(WALK, bot.goto_near(surface, near))
            .await
            .map_err(|_| format!("I could not walk to the {fluid} at {} {} {}", source.x, source.y, source.z))?
            .map_err(|e| e.to_string())?;
        items::hold(bot, "bucket").await?;
        // A few tries: the first use can reach the server before the bucket is in hand there.
        for _ in 0..3 {
            bot.client().look_at(surface);
            bot.client().wait_ticks(2).await;
            super::reflex::use_held_item(bot);
            filled =
                items::wait_until(bot, Duration::from_millis(750), || items::count(bot, &filled_name) > before).await;
            if filled {
                break;
            }
        }
        if filled {
            break;
        }
        tracing::debug!("{}: the bucket stayed empty from {}; closer", bot.name(), crate::bot::fmt_pos(bot.position()));
    }
    if !filled {
        return Err(format!(
            "I used a bucket on the {fluid} at {} {} {} but it stayed empty",
            source.x, source.y, source.z
        ));
    }
    Ok(Dynamic::from(i64::from(items::count(bot, &filled_name))))
}

/// `Err` telling how to get `item` when none is carried.
fn need(bot: &BotHandle, item: &str, how: &str) -> Result<(), String> {
    if items::count(bot, item) > 0 { Ok(()) } else { Err(format!("I need {item} in my inventory: {how}")) }
}

/// The nearest mob of `kind` that `fits`, within [`RANGE`], exploring for one when there is none.
async fn find(
    bot: &BotHandle,
    kind: EntityKind,
    what: &str,
    search_budget: Duration,
    fits: impl Fn(&EntityRef) -> bool + Copy,
) -> Result<EntityRef, String> {
    let look = || {
        let nearest = bot.client().nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(
            move |k: &EntityKindComponent| k.0 == kind,
        );
        let found = nearest.into_iter().find(|e| e.position().distance_to(bot.position()) <= RANGE && fits(e));
        std::future::ready(found)
    };
    if let Some(found) = look().await {
        return Ok(found);
    }
    bot.chat(&format!("No {what} within {RANGE} blocks; exploring for one."));
    explore::search(bot, search_budget, look).await.map_err(|searched| {
        format!("{} for a {what} and saw none within {RANGE} blocks of my way", searched.describe())
    })
}

/// Walks up to `target` (it may wander) and uses `item` on it until `gained` says it worked, three times at most.
/// Whether it worked.
async fn use_on(bot: &BotHandle, target: &EntityRef, item: &str, gained: impl Fn() -> bool) -> Result<bool, String> {
    let deadline = tokio::time::Instant::now() + WALK;
    for _ in 0..3 {
        while bot.position().distance_to(target.position()) > REACH {
            if !target.exists() || tokio::time::Instant::now() > deadline {
                bot.stop_moving();
                return Err(format!("I could not get close to the {}", kind_name(target)));
            }
            bot.start_toward(target.position(), 1.5);
            bot.client().wait_ticks(2).await;
        }
        bot.stop_moving();
        // Taken in hand here: the walk may have dug through leaves with another tool.
        items::hold(bot, item).await?;
        target.look_at();
        bot.client().wait_ticks(2).await;
        bot.client().write_packet(ServerboundInteract {
            entity_id: target.minecraft_id(),
            hand: InteractionHand::MainHand,
            location: LpVec3::from(target.position()),
            using_secondary_action: false,
        });
        if items::wait_until(bot, Duration::from_millis(750), &gained).await {
            return Ok(true);
        }
    }
    Ok(false)
}

fn kind_name(target: &EntityRef) -> String {
    target.get_component::<EntityKindComponent>().map_or_else(|| "animal".to_owned(), |k| k.0.to_string())
}

/// The nearest still (source) block of `kind` within [`RANGE`] that has air above it, so a bucket reaches it.
async fn nearest_source(bot: &BotHandle, kind: BlockKind) -> Option<BlockPos> {
    let found = observe::nearest_blocks(bot, kind, RANGE, 64).await;
    found.into_iter().find(|pos| {
        let source = observe::block_state(bot, *pos).is_some_and(|s| FluidState::from(s).amount == 8);
        source && observe::block_kind(bot, pos.up(1)).is_some_and(|above| above == BlockKind::Air)
    })
}
