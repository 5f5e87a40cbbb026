//! `giveItem(player, item, count)`: walk up to a player and toss them items, the way a vanilla player hands things
//! over (thrown stacks land a block and a half ahead and the receiver picks them up).

use std::time::Duration;

use azalea::{
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity},
    inventory::operations::{ClickOperation, ThrowClick},
    registry::builtin::EntityKind,
};
use rhai::Dynamic;

use super::{items, observe};
use crate::{bot::BotHandle, script::Answer};

/// How close the giver stands: thrown items land about 1.5 blocks ahead, within the receiver's reach.
const HAND_OVER_DISTANCE: f32 = 2.0;
/// How long the receiver has to pick the items up (they cannot for the first 2 s after the throw).
const PICKUP_WAIT: Duration = Duration::from_secs(6);
/// How far the giver steps back after throwing.
const STEP_BACK: f64 = 3.0;

/// Gives `count` of `item` to `player`: walks within two blocks, faces them, throws, steps back (out of reach of
/// its own throw, and out of the way of the next giver) and waits until the items are picked up — by them: a
/// bystander who catches them makes it fail, naming who has them. Returns how many were given.
pub async fn give_item(bot: &BotHandle, player: &str, item: &str, count: u32) -> Answer {
    if player.eq_ignore_ascii_case(&bot.name()) {
        return Err(format!("I cannot give items to myself; name another player than {player}"));
    }
    let have = items::count(bot, item);
    if have < count as i32 {
        return Err(format!(
            "I have {have} {item}, not the {count} to give {player}; get {} more first",
            count as i32 - have
        ));
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
    tracing::debug!(
        "{}: throwing {count} {item} to {player} at {} from {}",
        bot.name(),
        crate::bot::fmt_pos(there),
        crate::bot::fmt_pos(bot.position())
    );
    bot.client().look_at(azalea::Vec3::new(there.x, there.y + 0.6, there.z));
    bot.client().wait_ticks(2).await;
    let lying_before = item_entities(bot, bot.position(), 8.0);
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
    // The thrown stacks are the item entities that were not there before; the server says who takes each.
    let middle = (bot.position() + there) * 0.5;
    let thrown: Vec<i32> =
        item_entities(bot, middle, 4.0).into_iter().filter(|id| !lying_before.contains(id)).collect();
    // Step back at once, before anyone can pick the items up (2 s after the throw): a throw that falls short must
    // not land nearer the giver than the receiver, or the giver catches its own throw. It also leaves room for the
    // next giver.
    let from_them = bot.position() - there;
    if from_them.length() > 0.1 {
        bot.start_toward(bot.position() + from_them.normalize() * STEP_BACK, 1.0);
    }
    let taken = |id: &i32| bot.pickups().iter().any(|p| p.item as i32 == *id);
    let picked = if thrown.is_empty() {
        // Not seen (already out of sight): handed over when nothing is left lying between the two players.
        items::wait_until(bot, PICKUP_WAIT, || observe::items_near(bot, middle, 3.0).is_empty()).await
    } else {
        items::wait_until(bot, PICKUP_WAIT, || thrown.iter().all(taken)).await
    };
    let receiver = bot.player_entity_id(player);
    let caught_by_others: Vec<(i32, u32)> = bot
        .pickups()
        .iter()
        .filter(|p| thrown.contains(&(p.item as i32)) && Some(p.by) != receiver)
        .map(|p| (p.by, p.amount))
        .collect();
    if let Some((by, _)) = caught_by_others.first() {
        let caught: u32 = caught_by_others.iter().map(|(_, n)| n).sum();
        let who = bot.player_name_by_entity_id(*by).unwrap_or_else(|| "someone else".to_owned());
        return Err(format!(
            "I threw {count} {item} to {player}, but {who}, standing near them, picked up {caught} of it; ask {who} to pass it on"
        ));
    }
    if !picked {
        tracing::debug!(
            "{}: thrown {thrown:?}; pickups seen {:?}; lying {:?}",
            bot.name(),
            bot.pickups(),
            item_entities(bot, middle, 8.0)
        );
        return Err(format!(
            "I threw {count} {item} to {player}, but they have not picked it up; it lies at their feet"
        ));
    }
    tracing::info!("{}: gave {count} {item} to {player}", bot.name());
    bot.note_given(player, item, count);
    Ok(Dynamic::from(count as i64))
}

/// The network ids of item entities within `radius` of `at`.
fn item_entities(bot: &BotHandle, at: azalea::Vec3, radius: f64) -> Vec<i32> {
    bot.client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(|k: &EntityKindComponent| {
            k.0 == EntityKind::Item
        })
        .iter()
        .filter(|e| e.position().distance_to(at) <= radius)
        .map(|e| e.minecraft_id().0)
        .collect()
}
