//! `giveItem(player, item, count)`: walk up to a player and toss them items, the way a vanilla player hands things
//! over (thrown stacks land a block and a half ahead and the receiver picks them up).

use std::time::Duration;

use azalea::inventory::operations::{ClickOperation, ThrowClick};
use rhai::Dynamic;

use super::{items, observe};
use crate::{bot::BotHandle, script::Answer};

/// How close the giver stands: thrown items land about 1.5 blocks ahead, within the receiver's reach.
const HAND_OVER_DISTANCE: f32 = 2.0;
/// How long the receiver has to pick the items up (they cannot for the first 2 s after the throw).
const PICKUP_WAIT: Duration = Duration::from_secs(6);

/// Gives `count` of `item` to `player`: walks within two blocks, faces them, throws, and waits until the items
/// are picked up. Returns how many were given.
pub async fn give_item(bot: &BotHandle, player: &str, item: &str, count: u32) -> Answer {
    if player.eq_ignore_ascii_case(&bot.name()) {
        return Err(format!("I cannot give items to myself; name another player than {player}"));
    }
    let have = items::count(bot, item);
    if have < count as i32 {
        return Err(format!("I have {have} {item}, not the {count} to give {player}; get {} more first", count as i32 - have));
    }
    let Some(there) = bot.player_position(player) else {
        return Err(format!("I cannot see {player}: they must be online and within sight to be given items"));
    };
    bot.goto_near(there, HAND_OVER_DISTANCE).await.map_err(|e| format!("I could not reach {player}: {e}"))?;
    // They may have moved while the bot walked.
    let there = bot.player_position(player).ok_or_else(|| format!("I lost sight of {player}"))?;
    if bot.position().distance_to(there) > f64::from(HAND_OVER_DISTANCE) + 2.0 {
        return Err(format!("{player} moved away before I could hand over the {item}"));
    }
    bot.client().look_at(azalea::Vec3::new(there.x, there.y + 0.6, there.z));
    bot.client().wait_ticks(2).await;
    let before = items::count(bot, item);
    let mut left = count as i32;
    let slots = items::inventory_slots(bot);
    for slot in items::slots_with(&slots, items::STORAGE, item) {
        if left == 0 {
            break;
        }
        let in_slot = slots[slot].count();
        let inventory = bot.client().get_inventory();
        if in_slot <= left {
            inventory.click(ClickOperation::Throw(ThrowClick::All { slot: slot as u16 }));
            left -= in_slot;
        } else {
            for _ in 0..left {
                inventory.click(ClickOperation::Throw(ThrowClick::Single { slot: slot as u16 }));
            }
            left = 0;
        }
    }
    items::settle(bot).await;
    let thrown = before - items::count(bot, item);
    if thrown < count as i32 {
        return Err(format!("I could throw only {thrown} of {count} {item} to {player}"));
    }
    // Handed over when no thrown item is left lying between the two players.
    let middle = (bot.position() + there) * 0.5;
    let picked = items::wait_until(bot, PICKUP_WAIT, || observe::items_near(bot, middle, 3.0).is_empty()).await;
    if !picked {
        return Err(format!("I threw {count} {item} to {player}, but they have not picked it up; it lies at their feet"));
    }
    tracing::info!("{}: gave {count} {item} to {player}", bot.name());
    Ok(Dynamic::from(count as i64))
}
