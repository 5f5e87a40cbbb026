//! `standOn(pos)`: walk until the bot stands on top of the block at `pos`, and say so only when it does.

use azalea::BlockPos;
use rhai::Dynamic;

use super::{area, observe};
use crate::{bot::BotHandle, script::{Answer, Vec3}};

pub async fn stand_on(bot: &BotHandle, pos: Vec3) -> Answer {
    let block = BlockPos::from(pos);
    let at = format!("{} {} {}", block.x, block.y, block.z);
    let name = observe::block_kind(bot, block)
        .map(|k| k.to_string().trim_start_matches("minecraft:").to_owned())
        .ok_or_else(|| format!("The block at {at} is not loaded; go closer first"))?;
    if area::is_open(&name) {
        return Err(format!("There is nothing to stand on at {at}: it is {name}"));
    }
    bot.goto_block(block.up(1)).await.map_err(|e| format!("I could not get onto the {name} at {at}: {e}"))?;
    let feet = BlockPos::from(bot.position() - azalea::Vec3::new(0.0, 0.01, 0.0));
    if feet != block {
        let under = observe::block_kind(bot, feet).map_or_else(|| "?".to_owned(), |k| k.to_string());
        return Err(format!("I ended up on the {} at {} {} {}, not on the {name} at {at}", under.trim_start_matches("minecraft:"), feet.x, feet.y, feet.z));
    }
    Ok(Dynamic::UNIT)
}
