//! `smeltItem(item, fuel, count)`: load a furnace within walking range (48 blocks) with the input and enough fuel, wait for the
//! output, and take it.

use std::time::Duration;

use azalea::registry::builtin::BlockKind;
use rhai::Dynamic;

use super::{facts, items, observe};
use crate::{bot::BotHandle, script::Answer};

/// Ticks to smelt one item, and the game's tick length.
const SMELT_TICKS: u32 = 200;
const TICK: Duration = Duration::from_millis(50);

pub async fn smelt_item(bot: &BotHandle, item: &str, fuel: &str, count: u32) -> Answer {
    let facts = facts::facts();
    let output = facts.smelting.get(item).ok_or_else(|| format!("{item} cannot be smelted"))?.clone();
    let burn = *facts.fuels.get(fuel).ok_or_else(|| format!("{fuel} is not a fuel; use coal, charcoal or planks"))?;
    let fuel_needed = (count * SMELT_TICKS).div_ceil(burn) as i32;
    let have_item = items::count(bot, item);
    let have_fuel = items::count(bot, fuel);
    let mut missing = Vec::new();
    if have_item < count as i32 {
        missing.push(format!("{} more {item}", count as i32 - have_item));
    }
    if have_fuel < fuel_needed {
        missing.push(format!("{} more {fuel}", fuel_needed - have_fuel));
    }
    if !missing.is_empty() {
        return Err(format!("I cannot smelt {count} {item} because I need: {}", missing.join(", ")));
    }
    let Some(&furnace) = observe::nearest_reachable_blocks(bot, BlockKind::Furnace, super::craft::STATION_RANGE, 1).await.first() else {
        return Err(format!(
            "There is no furnace within {} blocks that I can get to; craft one from 8 cobblestone and place it",
            super::craft::STATION_RANGE
        ));
    };
    super::craft::go_to_station(bot, furnace, "furnace").await?;
    let handle = bot.client().open_container_at(furnace).await.ok_or_else(|| "The furnace did not open".to_owned())?;
    // Furnace: input 0, fuel 1, output 2, storage 3..=38.
    let slots = handle.slots().unwrap_or_default();
    items::move_items(&handle, &slots, fuel, fuel_needed, 3..=38, [1]);
    items::settle(bot).await;
    let slots = handle.slots().unwrap_or_default();
    items::move_items(&handle, &slots, item, count as i32, 3..=38, [0]);
    items::settle(bot).await;

    // While the furnace is open, the inventory is seen through its window (slots 3..=38).
    let carried_output = |slots: &[azalea::inventory::ItemStack]| -> i32 {
        items::slots_with(slots, 3..=38, &output).iter().map(|&i| slots[i].count()).sum()
    };
    let before = carried_output(&handle.slots().unwrap_or_default());
    let deadline = tokio::time::Instant::now() + TICK * (SMELT_TICKS * (count + 1)) + Duration::from_secs(5);
    loop {
        let slots = handle.slots().unwrap_or_default();
        if carried_output(&slots) >= before + count as i32 {
            break;
        }
        if tokio::time::Instant::now() > deadline {
            let got = carried_output(&slots) - before;
            handle.close();
            return Err(format!("The furnace made only {got} of {count} {output} in time"));
        }
        if slots.get(2).is_some_and(|s| !s.is_empty()) {
            handle.shift_click(2usize);
        }
        bot.client().wait_ticks(10).await;
    }
    handle.close();
    items::settle(bot).await;
    Ok(Dynamic::from_int(i64::from(count)))
}
