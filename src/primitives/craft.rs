//! `craftItem(name, count)`: plan the recipe from the inventory, then click it together in the 2×2 inventory grid
//! or in a crafting table within walking range (48 blocks), and take the results.

use std::time::Duration;

use azalea::{container::ContainerHandleRef, inventory::ItemStack, registry::builtin::BlockKind};
use rhai::Dynamic;

use super::{facts, items, observe};
use crate::{bot::BotHandle, script::Answer};

/// How far the bot walks to a crafting table or furnace rather than making a new one (~11 s of walking).
pub const STATION_RANGE: f64 = 48.0;
/// How many crafting tables one craft tries to get to before it gives up.
const MAX_STATION_TRIES: u32 = 3;

/// Walks to the crafting table or furnace at `pos`. One it cannot get to is passed over for a while (by findBlock
/// too), so the next try uses or places another.
pub(super) async fn go_to_station(bot: &BotHandle, pos: azalea::BlockPos, name: &str) -> Result<(), String> {
    bot.goto_reach(pos).await.map_err(|err| {
        bot.mark_unreachable(pos);
        format!(
            "I could not get to the {name} at {} {} {}: {err}; I will use another one, or place a new one",
            pos.x, pos.y, pos.z
        )
    })
}

pub async fn craft_item(bot: &BotHandle, name: &str, count: u32) -> Answer {
    let plan = facts::plan_craft(name, count, &items::carried(bot))?;
    let before = items::count(bot, name);
    let made = plan.recipe.count() * plan.times;
    if plan.recipe.fits_inventory_grid() {
        let inventory = bot.client().get_inventory();
        // Player inventory: result 0, grid 1..=4 (2 wide), storage 9..=44.
        craft_in(&inventory, &plan, 2, 9..=44);
    } else {
        // A table found but not reached is passed over: the next nearest is tried.
        let mut tries = 0;
        let mut missed: Option<String> = None;
        let table = loop {
            let Some(&table) =
                observe::nearest_reachable_blocks(bot, BlockKind::CraftingTable, STATION_RANGE, 1).await.first()
            else {
                // The table it could not get to says more than "none": where it is, and what to do.
                return Err(missed.unwrap_or_else(|| {
                    format!(
                        "I cannot make {name} because there is {} that I can get to; {}",
                        facts::no_station("crafting_table", STATION_RANGE),
                        facts::place_station("crafting_table", &items::carried(bot))
                    )
                }));
            };
            tries += 1;
            match go_to_station(bot, table, "crafting_table").await {
                Ok(()) => break table,
                Err(err) if tries >= MAX_STATION_TRIES => return Err(err),
                Err(err) => {
                    tracing::info!("{}: {err}", bot.name());
                    missed = Some(err);
                }
            }
        };
        let handle = bot.open_container(table).await.ok_or_else(|| "The crafting_table did not open".to_owned())?;
        // Crafting table: result 0, grid 1..=9 (3 wide), storage 10..=45.
        craft_in(&handle, &plan, 3, 10..=45);
        handle.close();
    }
    let arrived =
        items::wait_until(bot, Duration::from_secs(3), || items::count(bot, name) >= before + made as i32).await;
    if arrived {
        Ok(Dynamic::from_int(i64::from(made)))
    } else {
        Err(format!(
            "Crafting {name} did not work: I have {} of the {made} I expected",
            items::count(bot, name) - before
        ))
    }
}

/// Fills the grid for each craft and shift-clicks the result into the inventory. The clicks go out back to back:
/// azalea predicts each one locally (so the next ingredient is found where it now is) and the server applies them
/// in order, computing the result before the shift-click reaches it.
fn craft_in(
    handle: &ContainerHandleRef,
    plan: &facts::CraftPlan,
    width: usize,
    storage: std::ops::RangeInclusive<usize>,
) {
    for _ in 0..plan.times {
        for (row, column, ingredient) in plan.recipe.cells(width) {
            let slots: Vec<ItemStack> = handle.slots().unwrap_or_default();
            let grid_slot = 1 + row * width + column;
            items::move_items(handle, &slots, &ingredient, 1, storage.clone(), [grid_slot]);
        }
        handle.shift_click(0usize);
    }
}
