//! Game facts the primitives plan with: crafting recipes, which tools harvest which blocks and what they drop,
//! smelting and fuel. They come from `data/facts.json`, generated from minecraft-data 26.1 by
//! `tests/server/tools/gen_facts.js` (facts, not code), and are parsed once on first use. Where each item comes
//! from in an overworld world, and what cannot be had, is [`super::sources`].

use std::{
    collections::{BTreeMap, HashMap},
    sync::LazyLock,
};

use serde::Deserialize;

/// One way to craft an item.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Recipe {
    /// A grid of item names (`None` = empty cell), top row first.
    Shaped {
        shape: Vec<Vec<Option<String>>>,
        count: u32,
    },
    Shapeless {
        ingredients: Vec<String>,
        count: u32,
    },
}

impl Recipe {
    /// How many items one craft yields.
    pub fn count(&self) -> u32 {
        match self {
            Recipe::Shaped { count, .. } | Recipe::Shapeless { count, .. } => *count,
        }
    }

    /// Ingredients of one craft, totalled by name.
    pub fn needs(&self) -> BTreeMap<String, u32> {
        let mut needs = BTreeMap::new();
        let names: Vec<&String> = match self {
            Recipe::Shaped { shape, .. } => shape.iter().flatten().flatten().collect(),
            Recipe::Shapeless { ingredients, .. } => ingredients.iter().collect(),
        };
        for name in names {
            *needs.entry(name.clone()).or_insert(0) += 1;
        }
        needs
    }

    /// True if the recipe fits the 2×2 grid of the player's inventory.
    pub fn fits_inventory_grid(&self) -> bool {
        match self {
            Recipe::Shaped { shape, .. } => shape.len() <= 2 && shape.iter().all(|row| row.len() <= 2),
            Recipe::Shapeless { ingredients, .. } => ingredients.len() <= 4,
        }
    }

    /// The grid cells to fill, as (row, column, item), for a grid `width` wide.
    pub fn cells(&self, width: usize) -> Vec<(usize, usize, String)> {
        match self {
            Recipe::Shaped { shape, .. } => shape
                .iter()
                .enumerate()
                .flat_map(|(r, row)| row.iter().enumerate().filter_map(move |(c, cell)| Some((r, c, cell.clone()?))))
                .collect(),
            Recipe::Shapeless { ingredients, .. } => {
                ingredients.iter().enumerate().map(|(i, name)| (i / width, i % width, name.clone())).collect()
            }
        }
    }
}

/// What is known about mining a block.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BlockFacts {
    /// Tools that harvest it; absent means anything (even a hand) does.
    pub tools: Option<Vec<String>>,
    /// What it drops, when that is not the block itself.
    pub drops: Option<Vec<String>>,
    pub hardness: Option<f64>,
}

#[derive(Debug, Deserialize)]
pub struct Facts {
    pub crafting: HashMap<String, Vec<Recipe>>,
    pub blocks: HashMap<String, BlockFacts>,
    pub smelting: HashMap<String, String>,
    /// Burn time in ticks; one item smelts in 200.
    pub fuels: HashMap<String, u32>,
    /// What each block drops when broken without silk touch: (item, chance of one roll).
    #[serde(default)]
    pub block_loot: HashMap<String, Vec<(String, f64)>>,
    /// What each mob drops when a player kills it: (item, chance).
    #[serde(default)]
    pub mob_loot: HashMap<String, Vec<(String, f64)>>,
}

static FACTS: LazyLock<Facts> = LazyLock::new(|| {
    serde_json::from_str(include_str!("data/facts.json")).expect("data/facts.json is generated and valid")
});

pub fn facts() -> &'static Facts {
    &FACTS
}

/// Ticks a furnace takes to smelt one item.
pub const SMELT_TICKS: u32 = 200;

/// How many of a fuel that burns `burn` ticks smelt `items` items (rounded up).
pub fn fuel_needed(items: u32, burn: u32) -> u32 {
    (items * SMELT_TICKS).div_ceil(burn.max(1))
}

/// Tool tiers from weakest to strongest, for "I need at least a(n) …".
const TIERS: [&str; 7] = ["wooden", "golden", "stone", "copper", "iron", "diamond", "netherite"];

fn tier(tool: &str) -> usize {
    TIERS.iter().position(|t| tool.starts_with(t)).unwrap_or(TIERS.len())
}

/// Checks that a block can be harvested with what the bot carries. `Err` names the weakest tool that would do.
/// How a failure lists the items it lacks (`I cannot make stick because I need: 2 more oak_planks`). The agent
/// reads the list after it to search skills that get them, so both sides use this one wording.
pub const MISSING_ITEMS: &str = "because I need: ";
/// How a failure names the weakest tool that would do (`I need at least a stone_pickaxe to mine iron_ore`).
pub const MISSING_TOOL: &str = "I need at least";

/// How a failure says no station of a kind is near (`no crafting_table within 48 blocks`).
pub fn no_station(station: &str, range: impl std::fmt::Display) -> String {
    format!("{} {range} blocks", no_station_near(station))
}

/// What to do about a missing crafting table or furnace, as code a script can copy: place the one carried, or make
/// one and place it.
pub fn place_station(station: &str, carried: &HashMap<String, i32>) -> String {
    let place = format!("placeItem(\"{station}\")");
    if carried.get(station).copied().unwrap_or(0) > 0 {
        format!("I carry one: place it first with {place}")
    } else {
        format!("make one and place it first: craftItem(\"{station}\", 1); {place}")
    }
}

/// The start of [`no_station`]'s words, whatever the range: what the agent looks for in a failure.
pub fn no_station_near(station: &str) -> String {
    format!("no {station} within")
}

pub fn check_harvest(block: &str, carried: &HashMap<String, i32>) -> Result<(), String> {
    let Some(tools) = facts().blocks.get(block).and_then(|b| b.tools.as_ref()) else { return Ok(()) };
    if tools.iter().any(|t| carried.get(t).copied().unwrap_or(0) > 0) {
        return Ok(());
    }
    let weakest = tools.iter().min_by_key(|t| tier(t)).map_or("tool", String::as_str);
    let article = if weakest.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    Err(format!("{MISSING_TOOL} {article} {weakest} to mine {block}"))
}

/// What mining `block` yields (empty for blocks that drop nothing, like leaves without shears).
pub fn drops_of(block: &str) -> Vec<String> {
    match facts().blocks.get(block).and_then(|b| b.drops.clone()) {
        Some(drops) => drops,
        // Chance drops the block list leaves out (gravel: flint or itself), from the loot table.
        None => match facts().block_loot.get(block) {
            Some(loot) if !loot.is_empty() => {
                // The block itself first: what `mine 3 gravel` counts.
                let mut drops: Vec<String> = loot.iter().map(|(item, _)| item.clone()).collect();
                drops.sort_by_key(|item| item != block);
                drops
            }
            _ => vec![block.to_owned()],
        },
    }
}

/// A craft that the inventory can pay for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CraftPlan {
    pub recipe: Recipe,
    /// How many times to craft (each yields `recipe.count()`).
    pub times: u32,
}

/// Picks the recipe variant for `count` × `item` that the inventory can pay for. `Err` says exactly what is missing
/// for the variant closest to being possible: `I cannot make wooden_pickaxe because I need: 2 more stick`. Variants
/// as close as it that differ in one ingredient are named beside it (`3 more cobblestone (or blackstone or
/// cobbled_deepslate), 2 more stick`), and an item a furnace makes says so (`iron_ingot`).
pub fn plan_craft(item: &str, count: u32, carried: &HashMap<String, i32>) -> Result<CraftPlan, String> {
    let smelt_hint = smelted_from(item).map(|input| format!("smelt {input} to get it (smeltItem)"));
    let Some(recipes) = facts().crafting.get(item) else {
        let hint = smelt_hint.map(|h| format!("; {h}")).unwrap_or_default();
        return Err(format!("{item} cannot be crafted{hint}"));
    };
    // Each variant's shortfall, as (total, [(count, ingredient)]).
    let mut shortfalls: Vec<(u32, Vec<(u32, String)>)> = Vec::new();
    for recipe in recipes {
        let times = count.div_ceil(recipe.count());
        let mut missing = Vec::new();
        for (name, per_craft) in recipe.needs() {
            let need = per_craft * times;
            let have = carried.get(&name).copied().unwrap_or(0).max(0) as u32;
            if have < need {
                missing.push((need - have, name));
            }
        }
        if missing.is_empty() {
            return Ok(CraftPlan { recipe: recipe.clone(), times });
        }
        shortfalls.push((missing.iter().map(|(n, _)| n).sum(), missing));
    }
    let least = shortfalls.iter().map(|(total, _)| *total).min().expect("an item in the table has at least one recipe");
    // The game's data lists a tag's variants last-first, so the last of the closest is the common one (cobblestone
    // before cobbled_deepslate, oak before cherry planks).
    let mut closest: Vec<&Vec<(u32, String)>> =
        shortfalls.iter().rev().filter(|(total, _)| *total == least).map(|(_, m)| m).collect();
    let base = closest.remove(0);
    let words: Vec<String> = base
        .iter()
        .map(|(n, name)| {
            let others: Vec<&str> = closest
                .iter()
                .filter_map(|other| swapped_for(base, other, name))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            match others.len() {
                0 => format!("{n} more {name}"),
                1..=MAX_ALTERNATIVES => format!("{n} more {name} (or {})", others.join(" or ")),
                _ => format!("{n} more {name} (or {} or another kind)", others[..MAX_ALTERNATIVES].join(" or ")),
            }
        })
        .collect();
    let hint = smelt_hint.map(|h| format!("; or {h}")).unwrap_or_default();
    Err(format!("I cannot make {item} {MISSING_ITEMS}{}{hint}", words.join(", ")))
}

/// How many other kinds a shortfall names beside the one it asks for.
const MAX_ALTERNATIVES: usize = 3;

/// The ingredient `other` needs in place of `name` when the two shortfalls differ in that one ingredient only, by the
/// same count (`cobblestone` → `blackstone`).
fn swapped_for<'a>(base: &[(u32, String)], other: &'a [(u32, String)], name: &str) -> Option<&'a str> {
    if base.len() != other.len() {
        return None;
    }
    let (n, _) = base.iter().find(|(_, b)| b == name)?;
    let only_other: Vec<&(u32, String)> = other.iter().filter(|o| !base.contains(o)).collect();
    let only_base: Vec<&(u32, String)> = base.iter().filter(|b| !other.contains(b)).collect();
    match (only_base.as_slice(), only_other.as_slice()) {
        ([(_, b)], [(m, o)]) if b == name && m == n => Some(o.as_str()),
        _ => None,
    }
}

/// What a furnace smelts into `item`, preferring what the bot would carry (`raw_iron`) over a block that mining
/// does not give (`iron_ore`, which drops raw iron).
pub fn smelted_from(item: &str) -> Option<String> {
    let mut inputs: Vec<&String> =
        facts().smelting.iter().filter(|(_, out)| *out == item).map(|(input, _)| input).collect();
    inputs.sort_by_key(|input| (drops_of(input) != [input.to_string()], input.len(), input.to_string()));
    inputs.first().map(|input| input.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(items: &[(&str, i32)]) -> HashMap<String, i32> {
        items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect()
    }

    #[test]
    fn a_missing_station_is_answered_with_code_to_copy() {
        assert_eq!(
            place_station("crafting_table", &inv(&[("crafting_table", 1)])),
            r#"I carry one: place it first with placeItem("crafting_table")"#
        );
        assert_eq!(
            place_station("furnace", &inv(&[("cobblestone", 8)])),
            r#"make one and place it first: craftItem("furnace", 1); placeItem("furnace")"#
        );
    }

    #[test]
    fn missing_ingredients_are_listed_exactly() {
        let err = plan_craft("wooden_pickaxe", 1, &inv(&[("oak_planks", 3)])).unwrap_err();
        assert_eq!(err, "I cannot make wooden_pickaxe because I need: 2 more stick");
        let err = plan_craft("stick", 8, &inv(&[])).unwrap_err();
        assert!(err.starts_with("I cannot make stick because I need: 4 more "), "{err}");
    }

    #[test]
    fn an_empty_inventory_is_told_the_common_variant_and_its_alternatives() {
        let err = plan_craft("stone_pickaxe", 1, &inv(&[])).unwrap_err();
        assert_eq!(
            err,
            "I cannot make stone_pickaxe because I need: 3 more cobblestone (or blackstone or cobbled_deepslate), \
             2 more stick"
        );
        let err = plan_craft("crafting_table", 1, &inv(&[])).unwrap_err();
        assert!(err.contains("4 more oak_planks (or ") && err.ends_with(" or another kind)"), "{err}");
        // Carrying some of one kind makes that kind the closest, alone.
        let err = plan_craft("stone_pickaxe", 1, &inv(&[("cobbled_deepslate", 2), ("stick", 2)])).unwrap_err();
        assert_eq!(err, "I cannot make stone_pickaxe because I need: 1 more cobbled_deepslate");
    }

    #[test]
    fn an_item_a_furnace_makes_says_so() {
        let err = plan_craft("iron_ingot", 3, &inv(&[])).unwrap_err();
        assert!(err.ends_with("; or smelt raw_iron to get it (smeltItem)"), "{err}");
        assert_eq!(smelted_from("iron_ingot").as_deref(), Some("raw_iron"));
        assert_eq!(smelted_from("glass").as_deref(), Some("sand"));
        assert_eq!(smelted_from("stick"), None);
    }

    #[test]
    fn the_variant_the_inventory_can_pay_for_is_chosen() {
        let plan = plan_craft("wooden_pickaxe", 1, &inv(&[("birch_planks", 3), ("stick", 2)])).unwrap();
        assert_eq!(plan.times, 1);
        assert_eq!(plan.recipe.needs().get("birch_planks"), Some(&3));
        assert!(!plan.recipe.fits_inventory_grid());
        let plan = plan_craft("oak_planks", 6, &inv(&[("oak_log", 2)])).unwrap();
        assert_eq!(plan.times, 2, "4 planks per log: 6 planks need 2 crafts");
        assert!(plan.recipe.fits_inventory_grid());
    }

    #[test]
    fn uncraftable_items_say_how_to_get_them() {
        assert_eq!(plan_craft("iron_ore", 1, &inv(&[])).unwrap_err(), "iron_ore cannot be crafted");
        // iron_ingot has crafting recipes (from nuggets or a block), so it is planned, not refused
        assert!(plan_craft("iron_ingot", 1, &inv(&[])).unwrap_err().starts_with("I cannot make iron_ingot"));
    }

    #[test]
    fn harvest_rules_name_the_weakest_tool() {
        assert_eq!(
            check_harvest("iron_ore", &inv(&[("wooden_pickaxe", 1)])),
            Err("I need at least a stone_pickaxe to mine iron_ore".into())
        );
        assert_eq!(check_harvest("stone", &inv(&[])), Err("I need at least a wooden_pickaxe to mine stone".into()));
        assert_eq!(
            check_harvest("diamond_ore", &inv(&[("stone_pickaxe", 1)])),
            Err("I need at least an iron_pickaxe to mine diamond_ore".into())
        );
        assert!(check_harvest("iron_ore", &inv(&[("stone_pickaxe", 1)])).is_ok());
        assert!(check_harvest("oak_log", &inv(&[])).is_ok());
        assert_eq!(drops_of("stone"), ["cobblestone"]);
        assert_eq!(drops_of("oak_log"), ["oak_log"]);
        assert_eq!(drops_of("gravel"), ["gravel", "flint"]);
        assert!(drops_of("oak_leaves").is_empty());
    }

    #[test]
    fn shaped_cells_keep_positions() {
        let plan = plan_craft("stick", 4, &inv(&[("oak_planks", 2)])).unwrap();
        let cells = plan.recipe.cells(2);
        assert_eq!(cells.len(), 2);
        assert!(cells.iter().all(|(_, c, _)| *c == cells[0].1), "a stick is one column: {cells:?}");
    }
}
