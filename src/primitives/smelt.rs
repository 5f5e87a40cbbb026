//! `smeltItem(item, fuel, count)`: load a furnace within walking range (48 blocks) with the input and enough fuel, wait for the
//! output, and take it.

use std::time::Duration;

use azalea::registry::builtin::BlockKind;
use rhai::Dynamic;

use super::{facts, items, observe};
use crate::{
    bot::{BotHandle, SmeltJob},
    script::Answer,
};

use facts::SMELT_TICKS;

/// The game's tick length.
const TICK: Duration = Duration::from_millis(50);

pub async fn smelt_item(bot: &BotHandle, item: &str, fuel: &str, count: u32) -> Answer {
    let facts = facts::facts();
    let output = facts.smelting.get(item).ok_or_else(|| format!("{item} cannot be smelted"))?.clone();
    let burn = *facts.fuels.get(fuel).ok_or_else(|| format!("{fuel} is not a fuel; use coal, charcoal or planks"))?;
    let asked = count as i32;
    let carried = Job { input: items::count(bot, item), fuel: items::count(bot, fuel), output: 0 };
    // A smelt cut short by a reflex (and started again from the top) left its input and fuel, and perhaps some
    // output, in the furnace it loaded, and may have taken some output already: that furnace counts, and is the one
    // to use, and what was taken is not asked again.
    let range = super::craft::STATION_RANGE;
    let job = bot.smelt_job().filter(|job| {
        job.item == item
            && observe::block_kind(bot, job.furnace) == Some(BlockKind::Furnace)
            && job.furnace.center().distance_to(bot.position()) <= range
    });
    let output_now = items::count(bot, &output);
    let output_before = job.as_ref().and_then(|job| job.output_before).unwrap_or(output_now);
    let taken = (output_now - output_before).clamp(0, asked);
    let count = asked - taken;
    if count == 0 {
        bot.set_smelt_job(None);
        return Ok(Dynamic::from_int(i64::from(asked)));
    }
    let loaded = job.map(|job| job.furnace);
    if loaded.is_none() {
        bot.set_smelt_job(None);
        if let Some(missing) = carried.shortfall(&Job::default(), count, burn, false, item, fuel) {
            return Err(format!("I cannot smelt {count} {item} {}{missing}", facts::MISSING_ITEMS));
        }
    }
    let furnace = match loaded {
        Some(pos) => pos,
        None => {
            *observe::nearest_reachable_blocks(bot, BlockKind::Furnace, range, 1).await.first().ok_or_else(|| {
                format!(
                    "There is {} that I can get to; {}",
                    facts::no_station("furnace", range),
                    facts::place_station("furnace", &items::carried(bot))
                )
            })?
        }
    };
    super::craft::go_to_station(bot, furnace, "furnace").await?;
    let handle = bot.open_container(furnace).await.ok_or_else(|| "The furnace did not open".to_owned())?;
    // Furnace: input 0, fuel 1, output 2, storage 3..=38.
    let slots = handle.slots().unwrap_or_default();
    let held = Job::held(&slots, item, fuel, &output);
    // Someone else's input or fuel in the way comes out first (into the inventory: nothing is lost).
    for (slot, ours) in [(0usize, item), (1, fuel)] {
        if slots.get(slot).and_then(items::item_name).is_some_and(|name| name != ours) {
            handle.shift_click(slot);
            items::settle(bot).await;
        }
    }
    let ours = loaded == Some(furnace);
    if let Some(missing) = carried.shortfall(&held, count, burn, ours, item, fuel) {
        handle.close();
        bot.set_smelt_job(None);
        let there = if held.input + held.output > 0 {
            format!(
                " (the furnace at {} {} {} holds {} {item} and {} {output})",
                furnace.x, furnace.y, furnace.z, held.input, held.output
            )
        } else {
            String::new()
        };
        return Err(format!("I cannot smelt {count} {item} {}{missing}{there}", facts::MISSING_ITEMS));
    }
    let add = Job::to_add(&held, count, burn, ours);
    // Noted before the first item goes in: the call can be dropped at any await from here on.
    bot.set_smelt_job(Some(SmeltJob { furnace, item: item.to_owned(), output_before: Some(output_before) }));
    let slots = handle.slots().unwrap_or_default();
    items::move_items(&handle, &slots, fuel, add.fuel, 3..=38, [1]);
    items::settle(bot).await;
    let slots = handle.slots().unwrap_or_default();
    items::move_items(&handle, &slots, item, add.input, 3..=38, [0]);
    items::settle(bot).await;

    // While the furnace is open, the inventory is seen through its window (slots 3..=38). Output already waiting in
    // the furnace counts toward `count` once taken.
    let carried_output = |slots: &[azalea::inventory::ItemStack]| -> i32 {
        items::slots_with(slots, 3..=38, &output).iter().map(|&i| slots[i].count()).sum()
    };
    let before = carried_output(&handle.slots().unwrap_or_default());
    let to_smelt = (count - held.output).max(0) as u32;
    let deadline = tokio::time::Instant::now() + TICK * (SMELT_TICKS * (to_smelt + 1)) + Duration::from_secs(5);
    loop {
        let slots = handle.slots().unwrap_or_default();
        let got = carried_output(&slots) - before;
        if got >= count {
            break;
        }
        if tokio::time::Instant::now() > deadline {
            handle.close();
            bot.set_smelt_job(None);
            return Err(format!("The furnace made only {} of {asked} {output} in time", taken + got));
        }
        if slots.get(2).is_some_and(|s| !s.is_empty()) {
            handle.shift_click(2usize);
        }
        bot.client().wait_ticks(10).await;
    }
    handle.close();
    bot.set_smelt_job(None);
    items::settle(bot).await;
    Ok(Dynamic::from_int(i64::from(asked)))
}

/// Input, fuel and output of one smelting job, carried or already in a furnace.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Job {
    input: i32,
    fuel: i32,
    output: i32,
}

impl Job {
    /// What a furnace window shows of the job: its input, fuel and output slots, where they hold these items.
    fn held(slots: &[azalea::inventory::ItemStack], item: &str, fuel: &str, output: &str) -> Job {
        let amount = |slot: usize, name: &str| {
            slots.get(slot).filter(|s| items::item_name(s).as_deref() == Some(name)).map_or(0, |s| s.count())
        };
        Job { input: amount(0, item), fuel: amount(1, fuel), output: amount(2, output) }
    }

    /// Fuel items that smelt `items` items.
    fn fuel_for(items: i32, burn: u32) -> i32 {
        facts::fuel_needed(items.max(0) as u32, burn) as i32
    }

    /// What goes into a furnace holding `held` to get `count` outputs: input, and fuel. A furnace this bot loaded
    /// (`ours`) has the fuel for the input it holds (burning, or in its slot); another's has only what its fuel slot
    /// holds.
    fn to_add(held: &Job, count: i32, burn: u32, ours: bool) -> Job {
        let to_smelt = (count - held.output).max(0);
        let input = (to_smelt - held.input).max(0);
        let fuel = if ours { Self::fuel_for(input, burn) } else { Self::fuel_for(to_smelt, burn) - held.fuel };
        Job { input, fuel: fuel.max(0), output: 0 }
    }

    /// What is missing to get `count` outputs from `self` (carried) and `held` (in the furnace, `ours` as in
    /// [`Job::to_add`]): `None` when nothing is, else a list such as `2 more raw_iron, 1 more coal`.
    fn shortfall(&self, held: &Job, count: i32, burn: u32, ours: bool, item: &str, fuel: &str) -> Option<String> {
        let add = Self::to_add(held, count, burn, ours);
        let mut missing = Vec::new();
        let input = add.input - self.input;
        if input > 0 {
            missing.push(format!("{input} more {item}"));
        }
        let fuel_short = add.fuel - self.fuel;
        if fuel_short > 0 {
            missing.push(format!("{fuel_short} more {fuel}"));
        }
        (!missing.is_empty()).then(|| missing.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_smelt_started_again_counts_what_the_furnace_holds() {
        let carried = Job::default();
        // The first try loaded 3 raw iron and 1 coal, which is burning; one ingot is done.
        let held = Job { input: 2, fuel: 0, output: 1 };
        assert_eq!(carried.shortfall(&held, 3, 1600, true, "raw_iron", "coal"), None);
        assert_eq!(Job::to_add(&held, 3, 1600, true), Job::default());
        // Another's furnace with raw iron in it and no fuel: the fuel is ours to bring.
        assert_eq!(carried.shortfall(&held, 3, 1600, false, "raw_iron", "coal").as_deref(), Some("1 more coal"));
        assert_eq!(
            carried.shortfall(&Job::default(), 3, 1600, false, "raw_iron", "coal").as_deref(),
            Some("3 more raw_iron, 1 more coal")
        );
        // Planks burn 300 ticks: 3 items need 2 planks; one is in another's furnace.
        let carried = Job { input: 1, fuel: 0, output: 0 };
        let held = Job { input: 2, fuel: 1, output: 0 };
        assert_eq!(
            carried.shortfall(&held, 3, 300, false, "raw_iron", "oak_planks").as_deref(),
            Some("1 more oak_planks")
        );
        // Our own furnace, asked for more than it holds: fuel for the extra input only.
        let carried = Job { input: 4, fuel: 0, output: 0 };
        assert_eq!(Job::to_add(&held, 6, 300, true), Job { input: 4, fuel: 3, output: 0 });
        assert_eq!(
            carried.shortfall(&held, 6, 300, true, "raw_iron", "oak_planks").as_deref(),
            Some("3 more oak_planks")
        );
    }
}
