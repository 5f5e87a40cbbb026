//! `placeItem(name, pos)`: put a block from the inventory at `pos`, against a neighbouring solid block, and check
//! that it is there.

use std::{str::FromStr, time::Duration};

use azalea::{BlockPos, Vec3, registry::builtin::BlockKind};
use rhai::Dynamic;

use super::{items, observe};
use crate::{bot::BotHandle, script::{Answer, Vec3 as ScriptVec3}};

/// Blocks a placement may replace.
const REPLACEABLE: [BlockKind; 5] = [BlockKind::Air, BlockKind::CaveAir, BlockKind::ShortGrass, BlockKind::TallGrass, BlockKind::Water];

/// Neighbour offsets to place against, preferred first: the block below, then the sides, then above.
const AGAINST: [(i32, i32, i32); 6] = [(0, -1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1), (0, 1, 0)];

pub async fn place_item(bot: &BotHandle, name: &str, pos: ScriptVec3) -> Answer {
    let target = BlockPos::from(pos);
    let kind = BlockKind::from_str(name).map_err(|()| format!("{name} is not a block, so it cannot be placed"))?;
    if items::count(bot, name) == 0 {
        return Err(format!("I have no {name} to place"));
    }
    let here = observe::block_kind(bot, target)
        .ok_or_else(|| format!("The block at {} is not loaded; go closer first", fmt(target)))?;
    if !REPLACEABLE.contains(&here) {
        return Err(format!("There is already {} at {}; pick an empty spot", strip(here), fmt(target)));
    }
    let against = AGAINST
        .iter()
        .map(|&(x, y, z)| BlockPos::new(target.x + x, target.y + y, target.z + z))
        .find(|p| observe::block_kind(bot, *p).is_some_and(|k| !REPLACEABLE.contains(&k)))
        .ok_or_else(|| format!("Nothing to place {name} against at {}: it needs a solid block next to it", fmt(target)))?;

    bot.goto_reach(target).await.map_err(|e| format!("I could not get near {}: {e}", fmt(target)))?;
    step_out_of(bot, target).await?;
    items::hold(bot, name).await?;

    // Look at the middle of the face of `against` that touches the target, so the click lands on it.
    let face = Vec3::new(
        (against.x + target.x) as f64 / 2.0 + 0.5,
        (against.y + target.y) as f64 / 2.0 + 0.5,
        (against.z + target.z) as f64 / 2.0 + 0.5,
    );
    let client = bot.client();
    client.look_at(face);
    client.wait_ticks(2).await;
    client.block_interact(against);
    let placed = items::wait_until(bot, Duration::from_secs(2), || observe::block_kind(bot, target) == Some(kind)).await;
    if placed {
        if matches!(kind, BlockKind::CraftingTable | BlockKind::Furnace) {
            bot.remember_station(target);
        }
        Ok(Dynamic::UNIT)
    } else {
        Err(format!("I could not place {name} at {}; the server refused it", fmt(target)))
    }
}

/// Moves the bot off `target` if it stands in it (a block cannot be placed where the bot is).
async fn step_out_of(bot: &BotHandle, target: BlockPos) -> Result<(), String> {
    let feet = BlockPos::from(bot.position());
    if feet != target && BlockPos::new(feet.x, feet.y + 1, feet.z) != target {
        return Ok(());
    }
    let away = Vec3::new(target.x as f64 + 2.5, bot.position().y, target.z as f64 + 0.5);
    bot.goto_near(away, 1.0).await.map_err(|e| format!("I am standing where the block goes and cannot move: {e}"))
}

fn fmt(p: BlockPos) -> String {
    format!("{} {} {}", p.x, p.y, p.z)
}

fn strip(kind: BlockKind) -> String {
    let name = kind.to_string();
    name.strip_prefix("minecraft:").unwrap_or(&name).to_owned()
}
