//! `digBlock(pos)`: dig the one block at a position with the best tool carried, collect what it drops, and say what
//! it was. For building and clearing, where `mineBlock`'s "the nearest of a kind" is not the block meant.

use azalea::BlockPos;
use rhai::Dynamic;

use super::{items, mine, observe};
use crate::{
    bot::BotHandle,
    script::{Answer, Vec3},
};

pub async fn dig_block(bot: &BotHandle, pos: Vec3) -> Answer {
    let pos = BlockPos::from(pos);
    let at = format!("{} {} {}", pos.x, pos.y, pos.z);
    let kind =
        observe::block_kind(bot, pos).ok_or_else(|| format!("The block at {at} is not loaded; go closer first"))?;
    let name = kind.to_string().trim_start_matches("minecraft:").to_owned();
    if super::area::is_air(&name) {
        return Err(format!("There is nothing to dig at {at}: it is {name} already"));
    }
    if matches!(name.as_str(), "water" | "lava" | "bedrock") {
        return Err(format!("The {name} at {at} cannot be dug"));
    }
    // A block that drops nothing without the right tool would be dug for nothing.
    super::facts::check_harvest(&name, &items::carried(bot))?;
    bot.goto_reach(pos).await.map_err(|e| format!("I could not get within reach of the {name} at {at}: {e}"))?;
    mine::dig_and_collect(bot, pos, kind).await?;
    items::settle(bot).await;
    Ok(Dynamic::from(name))
}
