//! `getItemFromChest`, `depositItemIntoChest`, `checkItemInsideChest`: open the chest at a position, move items with
//! clicks, and report what it holds.

use azalea::{BlockPos, container::ContainerHandle, registry::builtin::BlockKind};
use rhai::{Dynamic, Map};

use super::{items, observe};
use crate::{
    bot::{BotHandle, Observation},
    script::{Answer, Vec3},
};

/// Single chest: its slots 0..=26, then the inventory 27..=62.
const CHEST: std::ops::RangeInclusive<usize> = 0..=26;
const INVENTORY: std::ops::RangeInclusive<usize> = 27..=62;

async fn open(bot: &BotHandle, pos: Vec3) -> Result<ContainerHandle, String> {
    let pos = BlockPos::from(pos);
    let at = format!("{} {} {}", pos.x, pos.y, pos.z);
    match observe::block_kind(bot, pos) {
        Some(BlockKind::Chest) => {}
        Some(other) => return Err(format!("There is no chest at {at} (it is {other})")),
        None => return Err(format!("The block at {at} is not loaded; go closer first")),
    }
    bot.goto_reach(pos).await.map_err(|e| format!("I could not get to the chest at {at}: {e}"))?;
    bot.open_container(pos).await.ok_or_else(|| format!("The chest at {at} did not open"))
}

fn totals(slots: &[azalea::inventory::ItemStack], range: std::ops::RangeInclusive<usize>) -> Map {
    let mut map = Map::new();
    for i in range {
        if let Some(name) = slots.get(i).and_then(items::item_name) {
            let entry = map.entry(name.into()).or_insert(Dynamic::from_int(0));
            *entry = Dynamic::from_int(entry.as_int().unwrap_or(0) + i64::from(slots[i].count()));
        }
    }
    map
}

pub async fn check(bot: &BotHandle, pos: Vec3) -> Answer {
    let handle = open(bot, pos).await?;
    let _looking = bot.transaction();
    let slots = handle.slots().unwrap_or_default();
    handle.close();
    items::settle(bot).await;
    Ok(Dynamic::from_map(seen(bot, pos, &slots)))
}

/// The chest's contents, noted for the bot's memory.
fn seen(bot: &BotHandle, pos: Vec3, slots: &[azalea::inventory::ItemStack]) -> Map {
    let contents = totals(slots, CHEST);
    let items = contents.iter().map(|(name, n)| (name.to_string(), n.as_int().unwrap_or(0).max(0) as u32)).collect();
    bot.observe(Observation::Chest { pos: BlockPos::from(pos), items });
    contents
}

/// Moves items into (`deposit`) or out of the chest; fails before moving anything if something is short.
pub async fn transfer(bot: &BotHandle, pos: Vec3, wanted: &[(String, u32)], deposit: bool) -> Answer {
    let handle = open(bot, pos).await?;
    let _moving = bot.transaction();
    let slots = handle.slots().unwrap_or_default();
    let (from, to, holder) = if deposit { (INVENTORY, CHEST, "I have") } else { (CHEST, INVENTORY, "The chest has") };
    let available = totals(&slots, from.clone());
    if !deposit {
        seen(bot, pos, &slots);
    }
    let short: Vec<String> = wanted
        .iter()
        .filter_map(|(name, n)| {
            let have = available.get(name.as_str()).and_then(|d| d.as_int().ok()).unwrap_or(0);
            (have < i64::from(*n)).then(|| format!("{have} {name}, not {n}"))
        })
        .collect();
    if !short.is_empty() {
        handle.close();
        return Err(format!("{holder} only {}", short.join("; ")));
    }
    let before = totals(&slots, CHEST);
    for (name, n) in wanted {
        let slots = handle.slots().unwrap_or_default();
        items::move_items(&handle, &slots, name, *n as i32, from.clone(), to.clone());
        items::settle(bot).await;
    }
    let slots = handle.slots().unwrap_or_default();
    let after = totals(&slots, CHEST);
    for (name, _) in wanted {
        let count = |map: &Map| map.get(name.as_str()).and_then(|d| d.as_int().ok()).unwrap_or(0);
        bot.note_container(BlockPos::from(pos), name, count(&after) - count(&before));
    }
    handle.close();
    // Closing hands the inventory back to the server's view; let it arrive before anyone reads it.
    items::settle(bot).await;
    Ok(Dynamic::from_map(seen(bot, pos, &slots)))
}
