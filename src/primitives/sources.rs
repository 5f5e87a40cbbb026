//! Where every item comes from in an overworld survival world, and what cannot be had there.
//!
//! The game's facts ([`super::facts`]: recipes, smelting, block and mob loot) say how an item can be made or what
//! drops it; `data/sources.toml` says what they do not: which blocks the overworld generates and where, which mobs
//! live in it, what animals and fluids give without a kill (wool, milk, buckets of water and lava), and why the rest
//! cannot be had (a nether star only comes from the wither). From both, [`reach`] works out for every item the
//! cheapest way to get one from nothing, in rough minutes of play, or why there is none.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    sync::LazyLock,
};

use serde::Deserialize;

use super::facts;

/// Where a group of blocks or mobs is found, and how long reaching one more takes.
#[derive(Clone, Debug, Deserialize)]
pub struct Place {
    #[serde(rename = "where")]
    pub place: String,
    /// Rough minutes of play from a natural spawn to one more.
    pub minutes: f64,
}

#[derive(Debug, Deserialize)]
struct NaturalGroup {
    #[serde(flatten)]
    place: Place,
    blocks: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct MobGroup {
    #[serde(flatten)]
    place: Place,
    mobs: Vec<String>,
    /// Monsters that fight back: hunted with a weapon in hand.
    #[serde(default)]
    fights: bool,
}

/// An item an animal or a fluid gives without being killed: wool sheared from a sheep, milk, a bucket of water.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Take {
    pub item: String,
    /// The mob, or the fluid block.
    pub from: String,
    /// The item held to do it: a tool kept (shears) or a container filled (a bucket).
    pub holding: String,
    /// The primitive call that does it once (`shearSheep()`), and the step's words for it (`Shear sheep`).
    pub call: String,
    pub doing: String,
    /// Items one action gives, on average.
    pub each: u32,
    pub minutes: f64,
}

impl Take {
    /// Whether the held item becomes the taken one (an empty bucket filled), rather than being kept.
    pub fn fills(&self) -> bool {
        self.holding == "bucket"
    }
}

#[derive(Debug, Deserialize)]
struct Drop {
    item: String,
    mob: String,
    chance: f64,
}

#[derive(Debug, Deserialize)]
struct Table {
    natural: Vec<NaturalGroup>,
    mob: Vec<MobGroup>,
    take: Vec<Take>,
    drop: Vec<Drop>,
    only: HashMap<String, String>,
}

/// The overworld's sources, read from `data/sources.toml` and indexed by item.
#[derive(Debug)]
pub struct Sources {
    /// Natural blocks, with their place and their order in the table (commoner first).
    natural: HashMap<String, (Place, usize)>,
    mobs: HashMap<String, Place>,
    /// Mobs that fight back.
    fighters: HashSet<String>,
    takes: Vec<Take>,
    only: HashMap<String, String>,
    /// Item → natural blocks whose loot gives it, with the chance.
    mined: HashMap<String, Vec<(String, f64)>>,
    /// Item → overworld mobs whose loot gives it, with the chance.
    hunted: HashMap<String, Vec<(String, f64)>>,
    /// Item → every block whose loot gives it, natural or not (for saying why not).
    any_block: HashMap<String, Vec<String>>,
    /// Item → every mob whose loot gives it (for saying why not).
    any_mob: HashMap<String, Vec<String>>,
}

static SOURCES: LazyLock<Sources> = LazyLock::new(|| {
    let table: Table =
        toml::from_str(include_str!("data/sources.toml")).expect("data/sources.toml is written by hand and valid");
    Sources::new(table)
});

/// The overworld's sources.
pub fn sources() -> &'static Sources {
    &SOURCES
}

impl Sources {
    fn new(table: Table) -> Self {
        let facts = facts::facts();
        let mut natural = HashMap::new();
        for group in &table.natural {
            for block in &group.blocks {
                let order = natural.len();
                natural.entry(block.clone()).or_insert_with(|| (group.place.clone(), order));
            }
        }
        let mut mobs = HashMap::new();
        let mut fighters = HashSet::new();
        for group in &table.mob {
            for mob in &group.mobs {
                mobs.entry(mob.clone()).or_insert_with(|| group.place.clone());
                if group.fights {
                    fighters.insert(mob.clone());
                }
            }
        }
        let mut mined: HashMap<String, Vec<(String, f64)>> = HashMap::new();
        let mut any_block: HashMap<String, Vec<String>> = HashMap::new();
        let mut loot: Vec<(&String, &Vec<(String, f64)>)> = facts.block_loot.iter().collect();
        loot.sort_by_key(|(block, _)| natural.get(*block).map_or(usize::MAX, |(_, order)| *order));
        for (block, drops) in loot {
            for (item, chance) in drops {
                any_block.entry(item.clone()).or_default().push(block.clone());
                if natural.contains_key(block) && *chance > 0.0 {
                    mined.entry(item.clone()).or_default().push((block.clone(), *chance));
                }
            }
        }
        let mut hunted: HashMap<String, Vec<(String, f64)>> = HashMap::new();
        let mut any_mob: HashMap<String, Vec<String>> = HashMap::new();
        let extra = table.drop.iter().map(|d| (&d.mob, (d.item.clone(), d.chance)));
        let loot = facts.mob_loot.iter().flat_map(|(mob, drops)| drops.iter().map(move |d| (mob, d.clone())));
        let mut loot: Vec<(&String, (String, f64))> = loot.chain(extra).collect();
        loot.sort_by(|a, b| a.0.cmp(b.0));
        for (mob, (item, chance)) in loot {
            any_mob.entry(item.clone()).or_default().push(mob.clone());
            if mobs.contains_key(mob) && chance > 0.0 {
                hunted.entry(item).or_default().push((mob.clone(), chance));
            }
        }
        Sources { natural, mobs, fighters, takes: table.take, only: table.only, mined, hunted, any_block, any_mob }
    }

    /// Where `block` generates in the overworld, if it does.
    pub fn natural(&self, block: &str) -> Option<&Place> {
        self.natural.get(block).map(|(place, _)| place)
    }

    /// Where `mob` lives in the overworld, if it does.
    pub fn mob(&self, mob: &str) -> Option<&Place> {
        self.mobs.get(mob)
    }

    /// Whether `mob` fights back (a monster), so that it is hunted with a weapon in hand.
    pub fn fights_back(&self, mob: &str) -> bool {
        self.fighters.contains(mob)
    }

    /// The natural blocks whose loot gives `item`, commoner first, with the chance of each.
    pub fn mined_from(&self, item: &str) -> &[(String, f64)] {
        self.mined.get(item).map_or(&[], Vec::as_slice)
    }

    /// The overworld mobs whose loot gives `item`, with the chance of each.
    pub fn dropped_by(&self, item: &str) -> &[(String, f64)] {
        self.hunted.get(item).map_or(&[], Vec::as_slice)
    }

    /// The animals and fluids that give `item` without a kill.
    pub fn takes(&self, item: &str) -> impl Iterator<Item = &Take> {
        self.takes.iter().filter(move |t| t.item == item)
    }

    /// Why `item` can never be had in an overworld survival world, when the table says so.
    pub fn only(&self, item: &str) -> Option<&str> {
        self.only.get(item).map(String::as_str)
    }

    /// Minutes to one more `item` by mining `block` (chance of the drop counted).
    pub fn mine_minutes(&self, block: &str, chance: f64) -> f64 {
        let Some((place, order)) = self.natural.get(block) else { return f64::INFINITY };
        // The table's order breaks ties: stone before deepslate, the common ores before their deepslate kinds.
        place.minutes / chance.max(0.01) + *order as f64 / 10_000.0
    }

    /// Minutes to one more item by hunting `mob` (chance of the drop counted).
    pub fn hunt_minutes(&self, mob: &str, chance: f64) -> f64 {
        self.mobs.get(mob).map_or(f64::INFINITY, |place| place.minutes / chance.max(0.01))
    }
}

/// Every item the facts and the table know of: made, smelted, dropped or taken.
static ITEMS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let facts = facts::facts();
    let sources = sources();
    let mut items: BTreeSet<&str> = BTreeSet::new();
    for (item, recipes) in &facts.crafting {
        items.insert(item);
        for recipe in recipes {
            items.extend(recipe_items(recipe));
        }
    }
    items.extend(facts.smelting.keys().map(String::as_str));
    items.extend(facts.smelting.values().map(String::as_str));
    items.extend(sources.mined.keys().map(String::as_str));
    items.extend(sources.hunted.keys().map(String::as_str));
    items.extend(sources.takes.iter().map(|t| t.item.as_str()));
    items.into_iter().map(str::to_owned).collect()
});

/// Every item the facts and the table know of.
pub fn items() -> &'static [String] {
    &ITEMS
}

/// Every item the sources know, each with the cheapest way from nothing in minutes (infinite when none works).
static REACH: LazyLock<HashMap<String, f64>> = LazyLock::new(|| {
    let mut cost: HashMap<String, f64> = items().iter().map(|i| (i.clone(), f64::INFINITY)).collect();
    settle(&mut cost, |item, cost| cheapest(item, cost));
    cost
});

/// Lowers each item's cost in `costs` to its cheapest way given the others' (`cheapest(item, cost of another)`),
/// round after round until nothing gets cheaper. Costs only fall and every way costs something, so a way round a
/// circle (white wool from a dyed wool made of white wool) never wins; each round settles at least one more item, so
/// there are as many rounds as the longest chain.
pub fn settle(costs: &mut HashMap<String, f64>, cheapest: impl Fn(&str, &dyn Fn(&str) -> f64) -> f64) {
    let items = items();
    for _ in 0..64 {
        let mut changed = false;
        for item in items {
            let best = cheapest(item, &|name| costs.get(name).copied().unwrap_or(f64::INFINITY));
            if best < costs.get(item).copied().unwrap_or(f64::INFINITY) - 1e-9 {
                costs.insert(item.clone(), best);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

fn recipe_items(recipe: &facts::Recipe) -> Vec<&str> {
    match recipe {
        facts::Recipe::Shaped { shape, .. } => shape.iter().flatten().flatten().map(String::as_str).collect(),
        facts::Recipe::Shapeless { ingredients, .. } => ingredients.iter().map(String::as_str).collect(),
    }
}

/// The cheapest way to one `item` in minutes, given what each other item costs.
pub fn cheapest(item: &str, cost: impl Fn(&str) -> f64) -> f64 {
    let facts = facts::facts();
    let sources = sources();
    if sources.only(item).is_some() {
        return f64::INFINITY;
    }
    let mut best = f64::INFINITY;
    for (block, chance) in sources.mined_from(item) {
        // A block some tool must harvest counts only when such a tool can be had.
        let tools = facts.blocks.get(block).and_then(|b| b.tools.as_ref());
        if tools.is_none_or(|tools| tools.iter().any(|t| cost(t).is_finite())) {
            best = best.min(sources.mine_minutes(block, *chance));
        }
    }
    for (mob, chance) in sources.dropped_by(item) {
        best = best.min(sources.hunt_minutes(mob, *chance));
    }
    for take in sources.takes(item) {
        // A bucket is used up by each fill; shears are kept, so from nothing they only need to be had.
        let holding = cost(&take.holding);
        if holding.is_finite() {
            let used_up = if take.fills() { holding } else { 0.0 };
            best = best.min(take.minutes / f64::from(take.each.max(1)) + used_up);
        }
    }
    // From nothing, stations are made too: the furnace for a smelt, the table for a recipe the 2×2 grid cannot hold.
    for (input, output) in &facts.smelting {
        if output == item {
            best = best.min(cost(input) + 0.3 + cost("furnace"));
        }
    }
    if let Some(recipes) = facts.crafting.get(item) {
        for recipe in recipes {
            let needs = recipe.needs();
            if needs.contains_key(item) {
                continue;
            }
            let sum: f64 = needs.iter().map(|(name, n)| f64::from(*n) * cost(name)).sum();
            let table = if recipe.fits_inventory_grid() { 0.0 } else { cost("crafting_table") };
            best = best.min((sum + table) / f64::from(recipe.count()) + 0.05);
        }
    }
    best
}

/// Minutes to one `item` from nothing by its cheapest way, or why the overworld gives no way to get it.
pub fn reach(item: &str) -> Result<f64, String> {
    match REACH.get(item) {
        Some(minutes) if minutes.is_finite() => Ok(*minutes),
        _ => Err(why_not(item, 0)),
    }
}

/// Whether `item` can be had in an overworld survival world.
pub fn reachable(item: &str) -> bool {
    reach(item).is_ok()
}

/// Why `item` cannot be had, in words an owner reads after "I cannot get a nether star: ".
fn why_not(item: &str, depth: usize) -> String {
    let facts = facts::facts();
    let sources = sources();
    if let Some(why) = sources.only(item) {
        return why.to_owned();
    }
    let blocked = |name: &str| !REACH.get(name).is_some_and(|c| c.is_finite());
    if depth < 3 {
        // The recipe that comes closest: the fewest ingredients that cannot be had.
        let closest = facts.crafting.get(item).and_then(|recipes| {
            recipes
                .iter()
                .map(|r| r.needs().into_keys().filter(|n| blocked(n)).collect::<Vec<_>>())
                .filter(|missing| !missing.is_empty())
                .min_by_key(Vec::len)
        });
        if let Some(missing) = closest {
            let first = &missing[0];
            return format!("it is made with {} ({})", display(first), why_not(first, depth + 1));
        }
        let input = facts.smelting.iter().find(|(input, out)| *out == item && blocked(input)).map(|(i, _)| i);
        if let Some(input) = input {
            return format!("it is smelted from {} ({})", display(input), why_not(input, depth + 1));
        }
    }
    if let Some(mobs) = sources.any_mob.get(item) {
        let mob = display(&mobs[0]);
        return format!("only the {mob} drops it, and the {mob} does not live in the overworld");
    }
    if let Some(blocks) = sources.any_block.get(item) {
        let block = display(&blocks[0]);
        return if blocks[0] == item {
            "it does not generate in the overworld".to_owned()
        } else {
            format!("it only comes from {block}, which does not generate in the overworld")
        };
    }
    "the game gives no way to get it in survival".to_owned()
}

/// An id in words: `nether_star` → `nether star`.
pub fn display(id: &str) -> String {
    id.replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_only_real_blocks_mobs_and_items() {
        let facts = facts::facts();
        let sources = sources();
        for block in sources.natural.keys() {
            assert!(facts.block_loot.contains_key(block), "{block} is not a block that drops something");
        }
        for mob in sources.mobs.keys() {
            use std::str::FromStr;
            assert!(azalea::registry::builtin::EntityKind::from_str(mob).is_ok(), "{mob} is not a mob of the game");
        }
        for take in &sources.takes {
            assert!(
                sources.mobs.contains_key(&take.from) || ["water", "lava"].contains(&take.from.as_str()),
                "{} is taken from {}, which is neither an overworld mob nor a fluid",
                take.item,
                take.from
            );
            assert!(reachable(&take.holding), "{} needs {}, which cannot be had", take.item, take.holding);
        }
    }

    #[test]
    fn everyday_items_can_be_had_and_nether_ones_cannot() {
        for item in [
            "oak_log",
            "cobblestone",
            "iron_ingot",
            "diamond",
            "white_wool",
            "pink_wool",
            "purple_wool",
            "pink_dye",
            "blue_dye",
            "leather",
            "feather",
            "string",
            "bone_meal",
            "milk_bucket",
            "water_bucket",
            "lava_bucket",
            "bread",
            "cooked_beef",
            "book",
            "redstone",
            "emerald",
            "shears",
            "bucket",
            "white_bed",
            "torch",
        ] {
            assert!(reachable(item), "{item}: {:?}", reach(item));
        }
        assert_eq!(reach("nether_star"), Err("it only comes from killing the wither".to_owned()));
        for (item, why) in [
            ("beacon", "it is made with nether star (it only comes from killing the wither)"),
            ("netherrack", "it is only found in the Nether"),
            ("blaze_powder", "it is made from blaze rods"),
            ("wither_rose", "it only drops when a wither kills a mob"),
        ] {
            let got = reach(item).expect_err(item);
            assert!(got.starts_with(why), "{item}: {got}");
        }
    }

    #[test]
    fn cheaper_ways_cost_less() {
        let minutes = |item| reach(item).unwrap();
        assert!(minutes("cobblestone") < minutes("iron_ingot"));
        assert!(minutes("iron_ingot") < minutes("diamond"));
        assert!(minutes("white_wool") < minutes("pink_wool"));
        assert!(minutes("stick") < minutes("wooden_pickaxe"));
    }
}
