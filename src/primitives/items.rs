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
        client
            .get_inventory()
            .click(ClickOperation::Swap(SwapClick { source_slot: slot as u16, target_slot: selected }));
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
    if slot != "off-hand" && item_name(&worn[at]).as_deref() == Some(name) && slots[source].count() == worn[at].count()
    {
        return Err(format!("{name} cannot be worn on the {slot}"));
    }
    Ok(())
}

/// Armour materials by how much they protect, least first.
const ARMOUR_TIERS: [&str; 7] = ["leather", "copper", "golden", "chainmail", "iron", "diamond", "netherite"];
/// The four pieces of armour, each with the slot `equip` wears it on (inventory slots 5 to 8, in this order).
const ARMOUR_PIECES: [(&str, &str); 4] =
    [("helmet", "head"), ("chestplate", "torso"), ("leggings", "legs"), ("boots", "feet")];

/// Puts on, piece by piece, the best armour carried where it protects more than what is worn (nothing for a piece
/// where nothing better is carried: no click is made). The pieces put on, by name.
pub async fn wear_best_armour(bot: &BotHandle) -> Vec<String> {
    let mut put_on = Vec::new();
    for (i, (piece, slot)) in ARMOUR_PIECES.iter().enumerate() {
        let slots = inventory_slots(bot);
        let tier = |stack: &ItemStack| {
            let name = item_name(stack)?;
            let material = name.strip_suffix(&format!("_{piece}"))?.to_owned();
            ARMOUR_TIERS.iter().position(|t| *t == material)
        };
        let worn = slots.get(5 + i).and_then(tier);
        let best = STORAGE.filter_map(|s| slots.get(s).and_then(tier)).max();
        if let Some(best) = best
            && worn.is_none_or(|worn| best > worn)
        {
            let name = format!("{}_{piece}", ARMOUR_TIERS[best]);
            match equip(bot, &name, slot).await {
                Ok(()) => put_on.push(name),
                Err(why) => tracing::warn!("{}: could not put on {name}: {why}", bot.name()),
            }
        }
    }
    if !put_on.is_empty() {
        tracing::info!("{}: put on {}", bot.name(), put_on.join(", "));
    }
    put_on
}

/// The player inventory's off-hand slot.
const OFF_HAND: usize = 45;

/// Whether a shield is in the off hand, after moving one carried there if need be.
pub async fn shield_in_off_hand(bot: &BotHandle) -> bool {
    let slots = inventory_slots(bot);
    if slots.get(OFF_HAND).and_then(item_name).as_deref() == Some("shield") {
        return true;
    }
    if slots_with(&slots, 9..=44, "shield").is_empty() {
        return false;
    }
    equip(bot, "shield", "off-hand").await.is_ok()
        && inventory_slots(bot).get(OFF_HAND).and_then(item_name).as_deref() == Some("shield")
}

/// Whether `item` is a piece of armour (`iron_chestplate`).
pub fn is_armour(item: &str) -> bool {
    ARMOUR_PIECES.iter().any(|(piece, _)| {
        item.strip_suffix(&format!("_{piece}")).is_some_and(|material| ARMOUR_TIERS.contains(&material))
    })
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

/// Blocks and items the bot throws away first when its inventory is full, whole stacks, in this order. Nothing here
/// is a tool, weapon, armour, food, ore or ingot; scaffold blocks (dirt, cobblestone) are kept up to [`KEEP_SCAFFOLD`].
const JUNK: [&str; 16] = [
    "gravel",
    "andesite",
    "diorite",
    "granite",
    "tuff",
    "calcite",
    "dripstone_block",
    "pointed_dripstone",
    "rotten_flesh",
    "wheat_seeds",
    "poisonous_potato",
    "spider_eye",
    "flint",
    "sand",
    "red_sand",
    "netherrack",
];
/// Blocks kept for pillars and bridges (see `bot::moves`); stacks beyond the first this many go when room is needed.
const SCAFFOLD_KINDS: [&str; 3] = ["dirt", "cobbled_deepslate", "cobblestone"];
pub const KEEP_SCAFFOLD: i32 = 64;

/// Whether the main inventory and hotbar have no empty slot.
pub fn is_full(slots: &[ItemStack]) -> bool {
    (9..=44).all(|i| slots.get(i).is_some_and(|s| !s.is_empty()))
}

/// The slot to throw away to make room, by the rule: the first [`JUNK`] kind carried (its smallest stack), else a
/// stack of a scaffold kind beyond the first [`KEEP_SCAFFOLD`] of it; `None` when nothing can go.
pub fn junk_slot(slots: &[ItemStack]) -> Option<usize> {
    let smallest = |name: &str| {
        let mut found = slots_with(slots, 9..=44, name);
        found.sort_by_key(|&i| slots[i].count());
        found.first().copied()
    };
    if let Some(slot) = JUNK.iter().find_map(|name| smallest(name)) {
        return Some(slot);
    }
    SCAFFOLD_KINDS.iter().find_map(|name| {
        let total: i32 = slots_with(slots, 9..=44, name).iter().map(|&i| slots[i].count()).sum();
        let slot = smallest(name)?;
        (total - slots[slot].count() >= KEEP_SCAFFOLD).then_some(slot)
    })
}

/// When no slot is free, throws away one stack by the [`junk_slot`] rule so the next pickup fits, facing away from
/// `keep_clear` (where the bot will walk to collect, so it does not pick the junk up again). Returns what went, or an
/// error naming what fills the inventory when nothing may go.
pub async fn make_room(bot: &BotHandle, keep_clear: azalea::Vec3) -> Result<Option<String>, String> {
    let slots = inventory_slots(bot);
    if !is_full(&slots) {
        return Ok(None);
    }
    let Some(slot) = junk_slot(&slots) else {
        return Err("My inventory is full of things I need; store some in a chest (depositItemIntoChest)".to_owned());
    };
    let what = format!("{} {}", slots[slot].count(), item_name(&slots[slot]).unwrap_or_default());
    let here = bot.position();
    bot.client().look_at(azalea::Vec3::new(2.0 * here.x - keep_clear.x, here.y + 1.0, 2.0 * here.z - keep_clear.z));
    bot.client().wait_ticks(1).await;
    bot.client()
        .get_inventory()
        .click(ClickOperation::Throw(azalea::inventory::operations::ThrowClick::All { slot: slot as u16 }));
    settle(bot).await;
    tracing::info!("{}: inventory full; threw away {what}", bot.name());
    Ok(Some(what))
}

#[cfg(test)]
mod junk_tests {
    use azalea::registry::builtin::ItemKind;

    use super::*;

    fn full_of(items: &[(ItemKind, i32)]) -> Vec<ItemStack> {
        let mut slots = vec![ItemStack::Empty; 46];
        for (i, slot) in (9..=44).enumerate() {
            let (kind, count) = items[i % items.len()];
            slots[slot] = ItemStack::new(kind, count);
        }
        slots
    }

    #[test]
    fn junk_goes_first_then_spare_scaffold_never_tools() {
        let mut slots = full_of(&[(ItemKind::Dirt, 64), (ItemKind::IronPickaxe, 1), (ItemKind::Bread, 5)]);
        slots[20] = ItemStack::new(ItemKind::Gravel, 12);
        slots[30] = ItemStack::new(ItemKind::Gravel, 3);
        assert!(is_full(&slots));
        assert_eq!(junk_slot(&slots), Some(30), "the smaller gravel stack first");
        slots[20] = ItemStack::new(ItemKind::Bread, 1);
        slots[30] = ItemStack::new(ItemKind::Bread, 1);
        let slot = junk_slot(&slots).expect("spare dirt can go");
        assert_eq!(slots[slot].kind(), ItemKind::Dirt);
        let tools_and_food = full_of(&[(ItemKind::IronPickaxe, 1), (ItemKind::Bread, 5), (ItemKind::Dirt, 64)]);
        // 12 stacks of dirt: all but the first 64 blocks may go.
        assert_eq!(tools_and_food[junk_slot(&tools_and_food).unwrap()].kind(), ItemKind::Dirt);
        let needed = full_of(&[(ItemKind::IronPickaxe, 1), (ItemKind::Bread, 5), (ItemKind::RawIron, 3)]);
        assert_eq!(junk_slot(&needed), None);
    }
}
