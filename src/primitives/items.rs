//! Inventory helpers the primitives share: what the bot carries, where an item sits, taking an item in hand, and
//! moving stacks between an open container and the inventory with plain clicks.

use std::{collections::HashMap, time::Duration};

use azalea::{
    container::ContainerHandleRef,
    entity::inventory::Inventory,
    inventory::{
        ItemStack,
        operations::{ClickOperation, SwapClick},
    },
};

use crate::bot::BotHandle;

/// Player-inventory slots: main 9..=35, hotbar 36..=44, off-hand 45; armour head 5, chest 6, legs 7, feet 8.
pub const HOTBAR: std::ops::RangeInclusive<usize> = 36..=44;
pub const STORAGE: std::ops::RangeInclusive<usize> = 9..=45;

/// The item id without namespace, or `None` for an empty slot.
pub fn item_name(stack: &ItemStack) -> Option<String> {
    if stack.is_empty() {
        return None;
    }
    let name = stack.kind().to_string();
    Some(name.strip_prefix("minecraft:").unwrap_or(&name).to_owned())
}

/// Everything carried, totalled by name.
pub fn carried(bot: &BotHandle) -> HashMap<String, i32> {
    bot.items().into_iter().collect()
}

pub fn count(bot: &BotHandle, name: &str) -> i32 {
    carried(bot).get(name).copied().unwrap_or(0)
}

/// The player inventory's slots as they are now.
pub fn inventory_slots(bot: &BotHandle) -> Vec<ItemStack> {
    bot.client().component::<Inventory>().inventory_menu.slots()
}

/// Slots in `range` of `slots` holding `name`, fullest first.
pub fn slots_with(slots: &[ItemStack], range: impl IntoIterator<Item = usize>, name: &str) -> Vec<usize> {
    let mut found: Vec<usize> =
        range.into_iter().filter(|&i| slots.get(i).and_then(item_name).as_deref() == Some(name)).collect();
    found.sort_by_key(|&i| std::cmp::Reverse(slots[i].count()));
    found
}

/// Puts `name` in the bot's main hand: selects it if it is on the hotbar, else swaps it into the selected slot.
pub async fn hold(bot: &BotHandle, name: &str) -> Result<(), String> {
    let slots = inventory_slots(bot);
    let Some(&slot) = slots_with(&slots, STORAGE, name).first() else {
        return Err(format!("I have no {name}"));
    };
    let client = bot.client();
    if HOTBAR.contains(&slot) {
        client.set_selected_hotbar_slot((slot - HOTBAR.start()) as u8);
    } else {
        let selected = client.selected_hotbar_slot();
        // azalea applies the swap to its own copy at once, and the server gets it before anything sent later.
        client.get_inventory().click(ClickOperation::Swap(SwapClick { source_slot: slot as u16, target_slot: selected }));
    }
    Ok(())
}

/// Takes `name` into `slot`: "hand", "off-hand", "head", "torso", "legs" or "feet".
pub async fn equip(bot: &BotHandle, name: &str, slot: &str) -> Result<(), String> {
    let slots = inventory_slots(bot);
    let Some(&source) = slots_with(&slots, STORAGE, name).first() else {
        return Err(format!("I have no {name} to equip"));
    };
    let inventory = bot.client().get_inventory();
    match slot {
        "hand" => return hold(bot, name).await,
        "off-hand" => inventory.click(ClickOperation::Swap(SwapClick { source_slot: source as u16, target_slot: 40 })),
        armour => {
            let target = match armour {
                "head" => 5,
                "torso" => 6,
                "legs" => 7,
                _ => 8,
            };
            inventory.left_click(source);
            inventory.left_click(target);
            // Whatever was worn before is now on the cursor: put it where the new piece came from.
            if !slots[target].is_empty() {
                inventory.left_click(source);
            }
        }
    }
    settle(bot).await;
    let worn = inventory_slots(bot);
    let at = if slot == "off-hand" { 45 } else { source };
    if slot != "off-hand" && item_name(&worn[at]).as_deref() == Some(name) && slots[source].count() == worn[at].count() {
        return Err(format!("{name} cannot be worn on the {slot}"));
    }
    Ok(())
}

/// Lets clicks reach the server and its corrections come back.
pub async fn settle(bot: &BotHandle) {
    bot.client().wait_ticks(3).await;
}

/// Moves exactly `amount` of `name` from slots in `from` to slots in `to` of an open container, with clicks: whole
/// stacks are placed with a left click, the last part one item at a time with right clicks. Returns how many moved.
pub fn move_items(
    handle: &ContainerHandleRef,
    slots: &[ItemStack],
    name: &str,
    amount: i32,
    from: impl IntoIterator<Item = usize> + Clone,
    to: impl IntoIterator<Item = usize> + Clone,
) -> i32 {
    let mut slots = slots.to_vec();
    let max_stack = 64; // the stacks moved here (materials, tools) never exceed it; the server caps smaller ones
    let mut moved = 0;
    for source in slots_with(&slots, from, name) {
        if moved >= amount {
            break;
        }
        let have = slots[source].count();
        handle.left_click(source);
        let mut in_hand = have;
        let targets: Vec<usize> = to.clone().into_iter().collect();
        for &target in &targets {
            if moved >= amount || in_hand == 0 {
                break;
            }
            let there = &slots[target];
            let room = match item_name(there) {
                None => max_stack,
                Some(n) if n == name => max_stack - there.count(),
                Some(_) => 0,
            };
            let want = (amount - moved).min(in_hand).min(room);
            if want <= 0 {
                continue;
            }
            if want == in_hand {
                handle.left_click(target);
            } else {
                for _ in 0..want {
                    handle.right_click(target);
                }
            }
            moved += want;
            in_hand -= want;
            let mut placed = slots[source].clone();
            if let Some(data) = placed.as_present_mut() {
                data.count = there.count() + want;
            }
            slots[target] = placed;
        }
        // Whatever is still on the cursor goes back where it came from.
        if in_hand > 0 {
            handle.left_click(source);
        } else {
            slots[source] = ItemStack::Empty;
        }
    }
    moved
}

/// Waits until `check` holds, polling every tick, for at most `timeout`.
pub async fn wait_until(bot: &BotHandle, timeout: Duration, mut check: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if check() {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        bot.client().wait_ticks(1).await;
    }
}
