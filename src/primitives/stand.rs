//! `standOn(pos)`: walk until the bot stands on top of the block at `pos`, and say so only when it does.

use azalea::BlockPos;
use rhai::Dynamic;

use super::{area, observe};
use crate::{
    bot::BotHandle,
    script::{Answer, Vec3},
};

pub async fn stand_on(bot: &BotHandle, pos: Vec3) -> Answer {
    let kind_at = |p: BlockPos| {
        observe::block_kind(bot, p)
            .map(|k| k.to_string().trim_start_matches("minecraft:").to_owned())
            .ok_or_else(|| format!("The block at {} {} {} is not loaded; go closer first", p.x, p.y, p.z))
    };
    let mut block = BlockPos::from(pos);
    let mut name = kind_at(block)?;
    if area::is_open(&name) {
        // A position where the feet go (air over ground) means the ground under it.
        let below = kind_at(block.down(1))?;
        if area::is_open(&below) {
            return Err(format!(
                "There is nothing to stand on at {} {} {}: it is {name}, over {below}",
                block.x, block.y, block.z
            ));
        }
        (block, name) = (block.down(1), below);
    }
    let at = format!("{} {} {}", block.x, block.y, block.z);
    bot.goto_block(block.up(1)).await.map_err(|e| format!("I could not get onto the {name} at {at}: {e}"))?;
    let feet = BlockPos::from(bot.position() - azalea::Vec3::new(0.0, 0.01, 0.0));
    if feet != block {
        let under = observe::block_kind(bot, feet).map_or_else(|| "?".to_owned(), |k| k.to_string());
        return Err(format!(
            "I ended up on the {} at {} {} {}, not on the {name} at {at}",
            under.trim_start_matches("minecraft:"),
            feet.x,
            feet.y,
            feet.z
        ));
    }
    Ok(Dynamic::UNIT)
}
