//! Plans from the game's facts. When a goal names an item to have, a block to mine or a mob to kill, its steps come
//! from the recipes and harvest rules (minecraft-data, see `primitives::facts`) with no LLM call: what is missing,
//! worked back to what can be mined or hunted, in the order it can be done, each step with a tracker that agrees
//! with its text and with code that does it (tried before any LLM is asked to write some).
//!
//! Each thing is got the cheapest way the overworld really gives (`primitives::sources`: natural blocks, mobs,
//! animals and fluids, by rough minutes of play); what it never gives is refused with the reason
//! ([`NoSteps::Unreachable`]).
//!
//! Pure: the bot's inventory, the stations near it and the wood that grows near it come in as a [`Setting`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{plan::TaskSpec, tracker::Tracker};
use crate::bot::reflex::WEAPONS;
use crate::primitives::{
    facts::{self, Recipe},
    sources,
};

/// What a goal asks for, when it can be read as one item, block or mob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// `count` of `item` carried in all.
    Have { item: String, count: u32 },
    /// `count` blocks of `block` mined (their drops picked up).
    Mine { block: String, count: u32 },
    /// `count` mobs of a kind killed.
    Kill { mob: String, count: u32 },
    /// A block placed beside the bot (made first when none is carried).
    Place { block: String },
    /// `count` of `item` handed to player `to` (gathered or made first when not carried).
    Give { item: String, count: u32, to: String },
}

/// Why the game's facts give no steps for a [`Want`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoSteps {
    /// Nothing is missing: the bot carries enough already.
    #[error("I already have {count} {item}")]
    Carried { item: String, count: i64 },
    /// The facts do not say how: no source, recipes that go round in a circle, a block that drops nothing.
    #[error("{0}")]
    Unknown(String),
    /// No way to get the item works in an overworld survival world (a nether star): refused at once, nothing is
    /// explored and no LLM asked.
    #[error("I cannot get {}: {why}", with_article(item))]
    Unreachable { item: String, why: String },
}

/// `nether_star` → `a nether star`, `iron_ingot` → `an iron ingot`.
pub fn with_article(item: &str) -> String {
    let words = sources::display(item);
    let article = if words.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {words}")
}

/// What the planner knows of the bot's situation.
#[derive(Clone, Debug, Default)]
pub struct Setting {
    pub carried: HashMap<String, i32>,
    /// A crafting table / furnace within walking range.
    pub table_near: bool,
    pub furnace_near: bool,
    /// The wood that grows nearest (`oak`, `birch`, …): planks, sticks and tables are made from it. Empty when
    /// none is carried or in sight: the plan then mines logs of any kind first, and is made again with their wood.
    pub wood: String,
    /// Chests the bot remembers, nearest first, with what they held when it last looked: taken from before anything
    /// is made.
    pub stored: Vec<([i32; 3], BTreeMap<String, u32>)>,
    /// Where the bot remembers seeing blocks it has not mined since (the nearest sighting of each): a mining step
    /// goes there when none is in sight, instead of exploring again.
    pub seen: HashMap<String, [i32; 3]>,
}

impl Setting {
    fn has(&self, item: &str) -> i64 {
        i64::from(self.carried.get(item).copied().unwrap_or(0).max(0))
    }

    fn wood(&self) -> &str {
        if self.wood.is_empty() { "oak" } else { &self.wood }
    }
}

/// Items got by mining another block, and the block (the common one where several drop it): how `mine 3 coal` is
/// read as the block to mine. What the planner mines for an item is chosen from `primitives::sources`.
const MINED: &[(&str, &str)] = &[
    ("cobblestone", "stone"),
    ("cobbled_deepslate", "deepslate"),
    ("raw_iron", "iron_ore"),
    ("raw_gold", "gold_ore"),
    ("raw_copper", "copper_ore"),
    ("coal", "coal_ore"),
    ("diamond", "diamond_ore"),
    ("emerald", "emerald_ore"),
    ("redstone", "redstone_ore"),
    ("lapis_lazuli", "lapis_ore"),
    ("flint", "gravel"),
    ("clay_ball", "clay"),
    ("wheat_seeds", "short_grass"),
    ("snowball", "snow_block"),
    ("glowstone_dust", "glowstone"),
    ("quartz", "nether_quartz_ore"),
];

/// The kinds of wood trees grow, for planks, sticks and tables.
pub const WOODS: [&str; 9] =
    ["oak", "birch", "spruce", "jungle", "acacia", "dark_oak", "mangrove", "cherry", "pale_oak"];

/// Mobs a goal may name.
pub const MOBS: &[&str] = &[
    "cow",
    "pig",
    "sheep",
    "chicken",
    "rabbit",
    "spider",
    "skeleton",
    "zombie",
    "creeper",
    "enderman",
    "slime",
    "squid",
    "witch",
    "husk",
    "drowned",
    "stray",
    "cave_spider",
    "horse",
    "llama",
    "goat",
    "wolf",
];

/// How an item is got.
#[derive(Clone, Debug)]
enum Source {
    /// Mined from `block`, with `tool` made first when nothing carried harvests it.
    Mine {
        block: String,
        tool: Option<String>,
    },
    /// Killed from `mob`, with `weapon` made first when the mob fights back and no weapon is carried.
    Hunt {
        mob: String,
        weapon: Option<String>,
    },
    /// Taken from an animal or a fluid without a kill (wool sheared, milk, a bucket of water), holding `take.holding`.
    Take {
        take: sources::Take,
    },
    Smelt {
        input: String,
        fuel: String,
    },
    Craft {
        recipe: Recipe,
    },
    /// No way known: an error only if some of it turns out to be needed.
    Unknown {
        why: String,
    },
}

impl Source {
    /// The items this source consumes (or needs at hand, for tools and stations), before any amount is known.
    fn inputs(&self, setting: &Setting) -> Vec<String> {
        match self {
            Source::Mine { tool, .. } | Source::Hunt { weapon: tool, .. } => tool.iter().cloned().collect(),
            Source::Unknown { .. } => Vec::new(),
            Source::Take { take } => vec![take.holding.clone()],
            Source::Smelt { input, fuel } => {
                let mut inputs = vec![input.clone(), fuel.clone()];
                if !setting.furnace_near {
                    inputs.push("furnace".to_owned());
                }
                inputs
            }
            Source::Craft { recipe } => {
                let mut inputs: Vec<String> = recipe.needs().into_keys().collect();
                if !recipe.fits_inventory_grid() && !setting.table_near {
                    inputs.push("crafting_table".to_owned());
                }
                inputs
            }
        }
    }
}

/// The steps that get what `want` asks for, or why the facts cannot tell.
pub fn plan(want: &Want, setting: &Setting) -> Result<Vec<TaskSpec>, NoSteps> {
    let mut steps = plan_steps(want, setting)?;
    let wanted = match want {
        Want::Have { item, .. } => Some(item.as_str()),
        Want::Mine { block, .. } => Some(block.as_str()),
        _ => None,
    };
    any_wood(&mut steps, setting, wanted);
    Ok(steps)
}

/// The steps of [`plan`], before logs are made logs of any kind where no wood is known.
fn plan_steps(want: &Want, setting: &Setting) -> Result<Vec<TaskSpec>, NoSteps> {
    match want {
        Want::Kill { mob, count } => {
            // A monster is not hunted bare-handed: the sword is made first.
            let (mut steps, demand) = match Planner::new(setting).weapon_for(mob) {
                Some(weapon) => Planner::new(setting).run_counting(&weapon, 1, None)?,
                None => (Vec::new(), BTreeMap::new()),
            };
            if sources::sources().fights_back(mob) {
                steps.extend(armour_steps(setting, &demand));
                steps.extend(perch_blocks_step(setting));
            }
            steps.push(TaskSpec {
                task: format!("Kill {count} {mob}"),
                context: String::new(),
                tracker: Some(Tracker::Kill { mob: mob.clone(), count: *count }),
                code: Some(format!(
                    "let done = 0;\nwhile done < {count} {{\n    killMob(\"{mob}\", 120);\n    done += 1;\n}}"
                )),
            });
            Ok(steps)
        }
        Want::Have { item, count } => {
            let (mut steps, demand) = Planner::new(setting).run_counting(item, i64::from(*count), None)?;
            // Before the first fight with monsters that hit back, armour from what is carried beyond the plan's needs.
            if let Some(first) = steps.iter().position(|step| monster_hunted(step).is_some()) {
                let ready: Vec<TaskSpec> =
                    armour_steps(setting, &demand).into_iter().chain(perch_blocks_step(setting)).collect();
                steps.splice(first..first, ready);
            }
            Ok(steps)
        }
        Want::Place { block } => {
            let mut steps = match Planner::new(setting).run(block, 1, None) {
                Ok(steps) => steps,
                Err(NoSteps::Carried { .. }) => Vec::new(),
                Err(why) => return Err(why),
            };
            steps.push(TaskSpec {
                task: format!("Place 1 {block}"),
                context: "beside the bot".to_owned(),
                tracker: Some(Tracker::Placed {
                    block: block.clone(),
                    count: 1,
                    at: None,
                    radius: super::tracker::NEAR,
                }),
                code: Some(place_near(block, 1)),
            });
            Ok(steps)
        }
        Want::Mine { block, count } => {
            let drop = facts::drops_of(block)
                .into_iter()
                .next()
                .ok_or_else(|| NoSteps::Unknown(format!("{block} drops nothing")))?;
            let wanted = setting.has(&drop) + i64::from(*count);
            Planner::new(setting).run(&drop, wanted, Some(block))
        }
        Want::Give { item, count, to } => {
            let mut steps = match Planner::new(setting).run(item, i64::from(*count), None) {
                Ok(steps) => steps,
                Err(NoSteps::Carried { .. }) => Vec::new(),
                Err(why) => return Err(why),
            };
            // `to` is a player name and `item` an id the facts know: neither can carry code.
            steps.push(TaskSpec {
                task: format!("Give {count} {item} to {to}"),
                context: format!("walk up to {to} and toss the items to them"),
                tracker: None,
                code: Some(format!("giveItem(\"{to}\", \"{item}\", {count})")),
            });
            Ok(steps)
        }
    }
}

/// Armour materials, best first, with the item each piece is made of.
const ARMOUR_MATERIALS: [(&str, &str); 5] = [
    ("diamond", "diamond"),
    ("iron", "iron_ingot"),
    ("golden", "gold_ingot"),
    ("copper", "copper_ingot"),
    ("leather", "leather"),
];
/// Armour pieces, the one that protects most first.
const ARMOUR_PIECES: [&str; 4] = ["chestplate", "leggings", "helmet", "boots"];

/// The monster (a mob that fights back) a step's code hunts with `killMob`, if any.
pub fn monster_hunted(spec: &TaskSpec) -> Option<String> {
    let (_, call) = spec.code.as_deref()?.split_once("killMob(\"")?;
    let (mob, _) = call.split_once('"')?;
    sources::sources().fights_back(mob).then(|| mob.to_owned())
}

/// Steps that craft armour for a fight from materials at hand: what the bot carries beyond what the plan itself
/// needs (`demand`), best material first, the piece that protects most first, one of each kind of piece it carries
/// none of. Only with a crafting table near, carried, or made by the plan: no table is gathered for it.
fn armour_steps(setting: &Setting, demand: &BTreeMap<String, i64>) -> Vec<TaskSpec> {
    let table = setting.table_near || setting.has("crafting_table") > 0 || demand.contains_key("crafting_table");
    if !table {
        return Vec::new();
    }
    let mut spare: HashMap<&str, i64> = ARMOUR_MATERIALS
        .iter()
        .map(|(_, item)| (*item, setting.has(item) - demand.get(*item).copied().unwrap_or(0)))
        .collect();
    let mut steps = Vec::new();
    for piece in ARMOUR_PIECES {
        let worn = setting.carried.iter().any(|(item, n)| *n > 0 && item.ends_with(&format!("_{piece}")));
        if worn {
            continue;
        }
        let made = ARMOUR_MATERIALS.iter().find_map(|(material, item)| {
            let name = format!("{material}_{piece}");
            let recipe = facts::facts().crafting.get(&name)?.first()?;
            let needs = recipe.needs();
            // Only the material itself: a recipe that wants anything else is not "at hand".
            let takes = i64::from(*needs.get(*item)?);
            (needs.len() == 1 && spare[item] >= takes).then_some((name, *item, takes))
        });
        if let Some((name, item, takes)) = made {
            *spare.get_mut(item).expect("a material") -= takes;
            steps.push(TaskSpec {
                task: format!("Craft 1 {name}"),
                context: format!("armour for the fight ahead, from {takes} {item} carried beyond what the plan needs"),
                tracker: Some(Tracker::Craft { item: name.clone(), count: 1 }),
                code: Some(format!("{}craftItem(\"{name}\", 1);", station("crafting_table"))),
            });
        }
    }
    steps
}

/// The step that digs the blocks a pillar to fight from takes (the perch reflex: outnumbered with zombies about, the
/// bot fights from the top of a three-block pillar), when the bot carries fewer: dirt, dug by hand in seconds.
fn perch_blocks_step(setting: &Setting) -> Option<TaskSpec> {
    let height = i64::from(crate::bot::reflex::PERCH_HEIGHT);
    let carried: i64 =
        setting.carried.keys().filter(|item| crate::bot::moves::is_scaffold(item)).map(|item| setting.has(item)).sum();
    if carried >= height {
        return None;
    }
    let want = Want::Mine { block: "dirt".to_owned(), count: (height - carried) as u32 };
    let mut steps = plan(&want, setting).ok()?;
    // Dirt is dug by hand: the one step.
    (steps.len() == 1).then(|| {
        let mut step = steps.remove(0);
        step.context = "blocks for a pillar to fight from if monsters come in numbers".to_owned();
        step
    })
}

/// The items a task for `want` may rightly use up or make: the item, and everything on the way to it from nothing
/// (ingredients, tools, fuel, stations), with every kind of wood. `None` for kills (mobs drop what they drop).
pub fn related_items(want: &Want) -> Option<BTreeSet<String>> {
    let setting = Setting::default();
    let mut planner = Planner::new(&setting);
    let item = match want {
        Want::Have { item, .. } => item.clone(),
        Want::Mine { block, .. } => {
            let drop = facts::drops_of(block).into_iter().next()?;
            let tool = planner.tool_for(block);
            planner.sources.insert(drop.clone(), Source::Mine { block: block.clone(), tool });
            drop
        }
        Want::Kill { .. } => return None,
        Want::Place { block } => block.clone(),
        Want::Give { item, .. } => item.clone(),
    };
    planner.visit(&item, &mut Vec::new()).ok()?;
    let mut related: BTreeSet<String> = planner.order.into_iter().collect();
    related.insert(item);
    if let Want::Mine { block, .. } = want {
        related.insert(block.clone());
    }
    // Any wood will do where one does: logs for logs, planks for planks, slabs for slabs (planks made when logs were
    // asked for are not on the way; the slabs a barrel's batch left over were).
    let wooden: BTreeSet<String> = related
        .iter()
        .filter_map(|name| WOODS.iter().find_map(|wood| name.strip_prefix(wood)?.strip_prefix('_').map(str::to_owned)))
        .collect();
    for kind in wooden {
        related.extend(WOODS.iter().map(|wood| format!("{wood}_{kind}")));
    }
    // A recipe that takes logs takes wood and stripped logs too (the game's `logs` tag): a smoker crafted of spruce
    // wood was not kept as a skill for the wood it used.
    if related.iter().any(|n| n.ends_with("_log")) {
        for wood in WOODS {
            related.extend([format!("{wood}_wood"), format!("stripped_{wood}_log"), format!("stripped_{wood}_wood")]);
        }
    }
    Some(related)
}

/// The weakest of the overworld's tool tiers (wooden, stone, iron, diamond) among `tools`.
pub fn weakest_tool(tools: &[String]) -> Option<&String> {
    const TIERS: [&str; 4] = ["wooden", "stone", "iron", "diamond"];
    TIERS.iter().find_map(|tier| tools.iter().find(|t| t.starts_with(tier)))
}

struct Planner<'a> {
    setting: &'a Setting,
    sources: HashMap<String, Source>,
    /// What one more of each item costs here, in rough minutes (worked out once, when first asked).
    costs: std::cell::OnceCell<std::sync::Arc<HashMap<String, f64>>>,
    /// Items in the order they can be made: each after everything it needs.
    order: Vec<String>,
}

/// Deeper than this, a recipe chain is going round in circles.
const MAX_DEPTH: usize = 12;

impl<'a> Planner<'a> {
    fn new(setting: &'a Setting) -> Self {
        Planner { setting, sources: HashMap::new(), costs: Default::default(), order: Vec::new() }
    }

    fn run(self, item: &str, wanted: i64, mine: Option<&str>) -> Result<Vec<TaskSpec>, NoSteps> {
        self.run_counting(item, wanted, mine).map(|(steps, _)| steps)
    }

    /// [`Planner::run`], with how many of each item the plan needs in all (what it makes and what it uses).
    fn run_counting(
        mut self,
        item: &str,
        wanted: i64,
        mine: Option<&str>,
    ) -> Result<(Vec<TaskSpec>, BTreeMap<String, i64>), NoSteps> {
        if let Some(block) = mine {
            let tool = self.tool_for(block);
            self.sources.insert(item.to_owned(), Source::Mine { block: block.to_owned(), tool });
        } else if let Err(why) = sources::reach(item) {
            // Refused at once unless enough is carried or stored: nothing to explore for, no LLM to ask.
            let stored: i64 =
                self.setting.stored.iter().map(|(_, held)| i64::from(held.get(item).copied().unwrap_or(0))).sum();
            if self.setting.has(item) + stored < wanted {
                return Err(NoSteps::Unreachable { item: item.to_owned(), why });
            }
        }
        self.visit(item, &mut Vec::new()).map_err(NoSteps::Unknown)?;
        // How many of each item are needed, consumers first so that every demand is in before an item is counted.
        let mut demand: BTreeMap<String, i64> = BTreeMap::new();
        demand.insert(item.to_owned(), wanted);
        let mut make: Vec<(String, i64)> = Vec::new();
        // What remembered chests give, per chest (nearest first): taken before anything is made.
        let mut takes: Vec<([i32; 3], BTreeMap<String, u32>)> = Vec::new();
        for name in self.order.iter().rev() {
            let mut missing = demand.get(name).copied().unwrap_or(0) - self.setting.has(name);
            if missing <= 0 {
                continue;
            }
            for (pos, held) in &self.setting.stored {
                let n = i64::from(held.get(name).copied().unwrap_or(0)).min(missing);
                if n > 0 {
                    match takes.iter_mut().find(|(p, _)| p == pos) {
                        Some((_, items)) => {
                            items.insert(name.clone(), n as u32);
                        }
                        None => takes.push((*pos, BTreeMap::from([(name.clone(), n as u32)]))),
                    }
                    missing -= n;
                }
            }
            if missing <= 0 {
                continue;
            }
            let source = &self.sources[name];
            match source {
                Source::Mine { tool, .. } | Source::Hunt { weapon: tool, .. } => {
                    if let Some(tool) = tool {
                        let d = demand.entry(tool.clone()).or_insert(0);
                        *d = (*d).max(1);
                    }
                }
                Source::Take { take } => {
                    let d = demand.entry(take.holding.clone()).or_insert(0);
                    // A bucket is filled once for each item; shears are kept.
                    *d = if take.fills() { *d + missing } else { (*d).max(1) };
                }
                Source::Unknown { why } => return Err(NoSteps::Unknown(why.clone())),
                Source::Smelt { input, fuel } => {
                    *demand.entry(input.clone()).or_insert(0) += missing;
                    *demand.entry(fuel.clone()).or_insert(0) += fuel_for(missing, fuel);
                    if !self.setting.furnace_near {
                        let d = demand.entry("furnace".to_owned()).or_insert(0);
                        *d = (*d).max(1);
                    }
                }
                Source::Craft { recipe } => {
                    let times = ceil_div(missing, i64::from(recipe.count()));
                    for (ingredient, per) in recipe.needs() {
                        *demand.entry(ingredient).or_insert(0) += i64::from(per) * times;
                    }
                    if !recipe.fits_inventory_grid() && !self.setting.table_near {
                        let d = demand.entry("crafting_table".to_owned()).or_insert(0);
                        *d = (*d).max(1);
                    }
                }
            }
            make.push((name.clone(), missing));
        }
        make.reverse();
        let steps: Vec<TaskSpec> =
            takes.iter().map(take_step).chain(make.iter().map(|(name, missing)| self.step(name, *missing))).collect();
        if steps.is_empty() {
            return Err(NoSteps::Carried { item: item.to_owned(), count: wanted });
        }
        Ok((steps, demand))
    }

    /// Chooses how to get `item` and, first, everything that needs; appends `item` to the order after them.
    fn visit(&mut self, item: &str, path: &mut Vec<String>) -> Result<(), String> {
        if self.order.iter().any(|done| done == item) {
            return Ok(());
        }
        if path.iter().any(|on| on == item) || path.len() > MAX_DEPTH {
            // Only reached through a recipe's alternatives (iron ingots from nuggets): left for the demand to judge.
            return Err(format!("the recipes for {item} go round in a circle"));
        }
        if !self.sources.contains_key(item) {
            let source = self.source(item, path).unwrap_or_else(|why| Source::Unknown { why });
            self.sources.insert(item.to_owned(), source);
        }
        path.push(item.to_owned());
        for input in self.sources[item].inputs(self.setting) {
            self.visit(&input, path)?;
        }
        path.pop();
        self.order.push(item.to_owned());
        Ok(())
    }

    /// The cheapest way to get `item` that the overworld gives, or why there is none. Recipes through an item on
    /// `path` (being made already) would go round in circles and are passed over.
    fn source(&self, item: &str, path: &[String]) -> Result<Source, String> {
        let best = self.options(item, path).into_iter().min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        match best {
            Some((cost, _, source)) if cost.is_finite() => Ok(source),
            _ => Err(match sources::reach(item) {
                Err(why) => format!("I cannot get {}: {why}", with_article(item)),
                Ok(_) => format!("every way to get {item} goes through something being made for it"),
            }),
        }
    }

    /// Every way to get one `item`, each with its cost in rough minutes (infinite when it goes through something
    /// the overworld does not give) and a tie-break (recipes of other wood than the wood near come later).
    fn options(&self, item: &str, path: &[String]) -> Vec<(f64, usize, Source)> {
        self.options_by(item, path, &|name| self.cost(name))
    }

    /// [`Planner::options`], with what one more of each other item costs given by `cost`.
    fn options_by(&self, item: &str, path: &[String], cost: &dyn Fn(&str) -> f64) -> Vec<(f64, usize, Source)> {
        let facts = facts::facts();
        let sources = sources::sources();
        let mut options = Vec::new();
        if sources.only(item).is_some() {
            return options;
        }
        for (block, chance) in sources.mined_from(item) {
            let mut minutes = sources.mine_minutes(block, *chance);
            if *block == format!("{}_log", self.setting.wood()) {
                // The wood that grows near is in sight.
                minutes /= 2.0;
            }
            // One remembered in sight, or its deepslate kind (the mining code looks for both).
            if self.setting.seen.contains_key(block) || self.setting.seen.contains_key(&format!("deepslate_{block}")) {
                minutes /= 2.0;
            }
            options.push((minutes, 0, Source::Mine { block: block.clone(), tool: self.tool_for(block) }));
        }
        for (mob, chance) in sources.dropped_by(item) {
            let weapon = self.weapon_for(mob);
            let minutes = sources.hunt_minutes(mob, *chance) + weapon.as_deref().map_or(0.0, cost);
            options.push((minutes, 0, Source::Hunt { mob: mob.clone(), weapon }));
        }
        for take in sources.takes(item) {
            // A bucket is used up by every fill; shears are made once (their cost counted in full, as for one item).
            let holding = cost(&take.holding);
            let minutes = take.minutes / f64::from(take.each.max(1)) + holding;
            options.push((minutes, 0, Source::Take { take: take.clone() }));
        }
        // A station to make first counts: coal mined can be quicker than charcoal from a furnace still to build.
        let station = |near: bool, station: &str| if near { 0.0 } else { cost(station) };
        for (input, output) in &facts.smelting {
            if output == item && !path.contains(input) && !path.iter().any(|p| p == "furnace") {
                let minutes = 0.3 + cost(input) + station(self.setting.furnace_near, "furnace");
                options.push((minutes, 0, Source::Smelt { input: input.clone(), fuel: self.fuel() }));
            }
        }
        if let Some(recipes) = facts.crafting.get(item) {
            for recipe in recipes {
                let needs = recipe.needs();
                if needs.keys().any(|n| n == item || path.contains(n)) {
                    continue;
                }
                // More raw iron from a block of raw iron made of the raw iron carried: the carried items cost
                // nothing, but they are used up. Only a block (or nuggets) carried is worth taking apart.
                let made_of_item = |n: &String| {
                    facts.crafting.get(n).is_some_and(|rs| rs.iter().any(|r| r.needs().contains_key(item)))
                };
                if self.setting.has(item) > 0
                    && needs.len() == 1
                    && needs.keys().all(|n| self.setting.has(n) == 0 && made_of_item(n))
                {
                    continue;
                }
                let sum: f64 = needs.iter().map(|(name, n)| f64::from(*n) * cost(name)).sum();
                let table = if recipe.fits_inventory_grid() || item == "crafting_table" {
                    0.0
                } else {
                    station(self.setting.table_near, "crafting_table")
                };
                let minutes = (sum + table) / f64::from(recipe.count()) + 0.05;
                options.push((minutes, self.foreign_wood(recipe), Source::Craft { recipe: recipe.clone() }));
            }
        }
        options
    }

    /// How many of a recipe's ingredients are wood of another kind than the wood near.
    fn foreign_wood(&self, recipe: &Recipe) -> usize {
        let wood = self.setting.wood();
        let woody = |n: &str| ["_planks", "_log", "_stem", "_wood", "_hyphae"].iter().any(|end| n.ends_with(end));
        recipe.needs().keys().filter(|n| (woody(n) || *n == "bamboo") && !n.starts_with(&format!("{wood}_"))).count()
    }

    /// Roughly how many minutes one more `item` takes here: nothing when carried, else its cheapest way.
    fn cost(&self, item: &str) -> f64 {
        if self.setting.has(item) > 0 {
            return 0.0;
        }
        self.costs.get_or_init(|| self.settled()).get(item).copied().unwrap_or(f64::INFINITY)
    }

    /// [`Planner::settle`] for this setting, kept for the next planner with the same one (the curriculum plans many
    /// items for one inventory).
    fn settled(&self) -> std::sync::Arc<HashMap<String, f64>> {
        type Kept = Option<(String, std::sync::Arc<HashMap<String, f64>>)>;
        static LAST: std::sync::Mutex<Kept> = std::sync::Mutex::new(None);
        let setting = self.setting;
        let carried: BTreeMap<&String, &i32> = setting.carried.iter().filter(|(_, n)| **n > 0).collect();
        let seen: BTreeSet<&String> = setting.seen.keys().collect();
        let key = format!("{carried:?}|{}|{}|{}|{seen:?}", setting.table_near, setting.furnace_near, setting.wood());
        if let Some((kept, costs)) = &*LAST.lock().unwrap_or_else(|e| e.into_inner())
            && *kept == key
        {
            return costs.clone();
        }
        let costs = std::sync::Arc::new(self.settle());
        *LAST.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, costs.clone()));
        costs
    }

    /// What one more of every item costs here: nothing for what is carried, the rest settled by
    /// [`sources::settle`] over this planner's ways to get each thing.
    fn settle(&self) -> HashMap<String, f64> {
        let mut costs: HashMap<String, f64> =
            sources::items().iter().map(|item| (item.clone(), f64::INFINITY)).collect();
        for (item, n) in &self.setting.carried {
            if *n > 0 {
                costs.insert(item.clone(), 0.0);
            }
        }
        sources::settle(&mut costs, |item, cost| {
            let known = |name: &str| if self.setting.has(name) > 0 { 0.0 } else { cost(name) };
            self.options_by(item, &[], &known).into_iter().map(|(c, _, _)| c).fold(f64::INFINITY, f64::min)
        });
        costs
    }

    /// The weakest tool that harvests `block`, unless one that does is carried.
    fn tool_for(&self, block: &str) -> Option<String> {
        let tools = facts::facts().blocks.get(block)?.tools.as_ref()?;
        if tools.iter().any(|t| self.setting.has(t) > 0) {
            return None;
        }
        weakest_tool(tools).cloned()
    }

    /// The sword to make before hunting `mob`: one that fights back is not hunted bare-handed (twenty punches for a
    /// skeleton, which shoots all the while), unless some weapon (a pickaxe will do) is carried.
    fn weapon_for(&self, mob: &str) -> Option<String> {
        if !sources::sources().fights_back(mob) || WEAPONS.iter().any(|w| self.setting.has(w) > 0) {
            return None;
        }
        Some(HUNTING_WEAPON.to_owned())
    }

    /// Coal when some is carried, else planks of the wood near.
    fn fuel(&self) -> String {
        for fuel in ["coal", "charcoal"] {
            if self.setting.has(fuel) > 0 {
                return fuel.to_owned();
            }
        }
        format!("{}_planks", self.setting.wood())
    }

    /// The step that makes `missing` more of `item`.
    fn step(&self, item: &str, missing: i64) -> TaskSpec {
        let gained = |count: i64| Some(Tracker::Craft { item: item.to_owned(), count: count as u32 });
        match &self.sources[item] {
            Source::Unknown { why } => unreachable!("{item} is made, though {why}"),
            Source::Mine { block, .. } => {
                let task = if block == item {
                    format!("Mine {missing} {block}")
                } else {
                    format!("Mine {block} for {missing} {item}")
                };
                let code = match ORE_DEPTHS.iter().find(|(ore, _, _)| ore == block) {
                    Some((ore, deep, y)) => ore_loop(item, missing, ore, deep, *y),
                    None => gather_loop(item, missing, &format!("mineBlock(\"{block}\", 1);")),
                };
                let deep = format!("deepslate_{block}");
                let remembered = self.setting.seen.get(block).or_else(|| self.setting.seen.get(&deep));
                let code = match remembered {
                    Some(pos) => format!("{}{code}", go_to_remembered(block, *pos)),
                    None => code,
                };
                TaskSpec { task, context: String::new(), tracker: gained(missing), code: Some(code) }
            }
            Source::Hunt { mob, .. } => {
                let code = gather_loop(item, missing, &format!("killMob(\"{mob}\", 120);"));
                TaskSpec {
                    task: format!("Kill {mob} for {missing} {item}"),
                    context: String::new(),
                    tracker: gained(missing),
                    code: Some(code),
                }
            }
            Source::Take { take } => {
                let code = gather_loop(item, missing, &format!("{};", take.call));
                TaskSpec {
                    task: format!("{} for {missing} {item}", take.doing),
                    context: format!("holding {}", take.holding),
                    tracker: gained(missing),
                    code: Some(code),
                }
            }
            Source::Smelt { input, fuel } => {
                let code = format!("{}smeltItem(\"{input}\", \"{fuel}\", {missing});", station("furnace"));
                TaskSpec {
                    task: format!("Smelt {input} into {missing} {item}"),
                    context: format!("fuel: {fuel}"),
                    tracker: gained(missing),
                    code: Some(code),
                }
            }
            Source::Craft { recipe } => {
                let made = ceil_div(missing, i64::from(recipe.count())) * i64::from(recipe.count());
                let table = if recipe.fits_inventory_grid() { String::new() } else { station("crafting_table") };
                let from: Vec<String> = recipe.needs().iter().map(|(n, c)| format!("{c} {n}")).collect();
                TaskSpec {
                    task: format!("Craft {made} {item}"),
                    context: format!("each craft takes {} and makes {}", from.join(", "), recipe.count()),
                    tracker: gained(made),
                    code: Some(format!("{table}craftItem(\"{item}\", {made});")),
                }
            }
        }
    }
}

/// The wood whose planks or logs the bot carries (the first in [`WOODS`]), if any.
pub fn carried_wood(carried: &HashMap<String, i32>) -> Option<&'static str> {
    let has = |item: String| carried.get(&item).is_some_and(|n| *n > 0);
    WOODS.iter().find(|w| has(format!("{w}_planks")) || has(format!("{w}_log"))).copied()
}

/// Names of count parameters: a skill taking only one of these is called with the count it is to get.
pub const COUNT_PARAMS: [&str; 6] = ["count", "n", "amount", "number", "quantity", "times"];

/// Whether a skill's code returns early when one `item` is carried (`if inventoryCount("iron_pickaxe") > 0`): it makes
/// one at most, and none when one is carried, so called twice it does nothing the second time.
pub fn makes_one_at_most(code: &str, item: &str) -> bool {
    let spaceless: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    [">0", "==0", ">=1", "<1"].iter().any(|test| spaceless.contains(&format!("inventoryCount(\"{item}\"){test}")))
}

/// What a task names, by the game's names: the thing it gets into the inventory (for a block to mine, what it drops,
/// if anything), how many, and the block to mine when it names one (`Mine 3 iron_ore` → raw_iron, 3, iron_ore;
/// `Craft 1 bowl` → bowl, 1).
pub fn task_things(task: &str) -> Option<TaskThings> {
    task_things_in(task, "oak")
}

/// [`task_things`] with `wood` for the wood a task names by no kind (`Mine 1 wood log`).
fn task_things_in(task: &str, wood: &str) -> Option<TaskThings> {
    // `Mine 3 wood_log`, as the curriculum words logs of any kind, is `Mine 3 wood log` to the goal reader.
    match parse_goal(&task.replace("wood_log", "wood log"), wood)? {
        Want::Have { item, count } => Some(TaskThings { gets: Some(item), count, block: None }),
        Want::Mine { block, count } => {
            Some(TaskThings { gets: facts::drops_of(&block).into_iter().next(), count, block: Some(block) })
        }
        _ => None,
    }
}

/// What [`task_things`] reads in a task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskThings {
    /// The thing it gets into the inventory.
    pub gets: Option<String>,
    /// How many it asks for.
    pub count: u32,
    /// The block it mines.
    pub block: Option<String>,
}

/// A skill learned for a task that gets a thing, read from that task's words and the skill's parameters:
/// `mineSpruceLog()`, learned for `Mine 1 spruce_log`, gets one spruce_log a call. The world confirmed the task when
/// the skill was kept, so what it asked for is what one call gets at least.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Getter {
    /// The skill's name.
    pub name: String,
    /// What it gets into the inventory.
    pub gets: String,
    /// What one call gets at least (for a skill taking the count: what it is passed).
    pub per_call: u32,
    /// It takes the count as its one value.
    pub counted: bool,
    /// It takes nothing and returns early when one is carried: called again it does nothing.
    pub once: bool,
    /// Its task named wood of no kind (`Mine 3 wood_log`): it gets the wood that grows near, named in `gets` as oak.
    pub any_wood: bool,
}

impl Getter {
    /// The getter a skill is, when it was learned for a task that gets a thing and takes nothing or the count.
    pub fn of(skill: &crate::skills::Skill) -> Option<Getter> {
        let things = task_things(&skill.meta.task)?;
        // A task for wood of any kind (`Mine 3 wood_log`) gets whichever grew near.
        let any_wood = task_things_in(&skill.meta.task, "spruce").as_ref() != Some(&things);
        let TaskThings { gets, count: per_call, .. } = things;
        let gets = gets?;
        let counted = match skill.params.as_slice() {
            [] => false,
            [param] if COUNT_PARAMS.contains(&param.as_str()) => true,
            _ => return None,
        };
        let once = !counted && makes_one_at_most(&skill.code, &gets);
        // A craft makes whole batches: a skill learned for `Craft 1 oak_planks` made four.
        let crafted = skill.meta.task.trim_start().to_lowercase().starts_with("craft ");
        let recipes = facts::facts().crafting.get(&gets).filter(|_| crafted);
        let batch = recipes.and_then(|r| r.iter().map(Recipe::count).min()).unwrap_or(1);
        let per_call = per_call.max(1).div_ceil(batch) * batch;
        Some(Getter { name: skill.name.clone(), per_call, counted, once, any_wood, gets })
    }

    /// The library's getters, one for each thing: one for a wood's own kind before one for any wood, and of two for
    /// the same thing the newer (a skill learned in a run before the starter's that gets the same), then the first
    /// by name.
    pub fn in_library(library: &[std::sync::Arc<crate::skills::Skill>]) -> Vec<Getter> {
        let mut getters: Vec<(Getter, &str)> =
            library.iter().filter_map(|skill| Some((Getter::of(skill)?, skill.meta.created.as_str()))).collect();
        getters.sort_by(|(a, a_made), (b, b_made)| {
            (a.any_wood, std::cmp::Reverse(a_made), &a.name).cmp(&(b.any_wood, std::cmp::Reverse(b_made), &b.name))
        });
        let mut seen = BTreeSet::new();
        getters.retain(|(g, _)| seen.insert((g.gets.clone(), g.any_wood)));
        getters.into_iter().map(|(g, _)| g).collect()
    }

    /// Whether it gets `item` where `wood` grows (the wood of a [`Getter::any_wood`] one is the wood near, when the
    /// bot's wood is known).
    pub fn gets_item(&self, item: &str, wood: Option<&str>) -> bool {
        match (self.any_wood, wood, self.gets.strip_prefix("oak_")) {
            (false, ..) => self.gets == item,
            (true, Some(wood), Some(kind)) => item.strip_prefix(wood).and_then(|i| i.strip_prefix('_')) == Some(kind),
            (true, ..) => false,
        }
    }

    /// The calls that get `n` more: `mineSpruceLog(3)`, or `mineSpruceLog()` as many times as it takes (at most
    /// [`GETTER_CALLS`]); `None` when a skill that gets one at most would have to be called again.
    pub fn calls_for(&self, n: u32) -> Option<Vec<String>> {
        if self.counted {
            return Some(vec![format!("{}({n})", self.name)]);
        }
        let times = n.div_ceil(self.per_call).max(1);
        (times <= GETTER_CALLS && (times == 1 || !self.once)).then(|| vec![format!("{}()", self.name); times as usize])
    }
}

/// The most calls of a skill taking nothing [`craft_calls`] writes out for one step.
const GETTER_CALLS: u32 = 4;

/// The game calls that do a task to craft something from what the bot carries: crafts, with a crafting table near
/// where a recipe needs one, and for what is missing the calls of the library's [`Getter`]s that get it (a skill
/// learned earlier, reused as Voyager's library grows). `craftItem("lever", 1)`; `craftItem("bone_meal", 3)` then
/// `craftItem("white_dye", 1)`; `mineSpruceLog()` then `craftItem("spruce_planks", 4)` then
/// `craftItem("spruce_button", 1)`; with no crafting table near, the one crafted is placed where the bot stands
/// (`placeItem("crafting_table")`) before the craft that needs it. `None` for any other task, or when
/// more is needed than crafting and the getters.
/// Told `craftItem("spruce_pressure_plate", n) makes it` with the two planks it takes carried, the local model crafted
/// planks instead, and for a button it crafted a pickaxe first; three tasks of a learning run called a learned
/// planks skill with no log, and never the learned log skill.
pub fn craft_calls(
    task: &str,
    carried: &HashMap<String, i32>,
    table_near: bool,
    getters: &[Getter],
) -> Option<Vec<String>> {
    if !task.trim_start().to_lowercase().starts_with("craft ") {
        return None;
    }
    // With no wood carried, the wood a getter of one kind gets.
    let got_wood = || {
        WOODS.iter().copied().find(|w| {
            getters.iter().any(|g| !g.any_wood && [format!("{w}_log"), format!("{w}_planks")].contains(&g.gets))
        })
    };
    let known_wood = carried_wood(carried).or_else(got_wood);
    let wood = known_wood.unwrap_or("oak");
    let want = parse_goal(task, wood)?;
    let Want::Have { item: wanted, .. } = &want else { return None };
    let setting = Setting { carried: carried.clone(), table_near, wood: wood.to_owned(), ..Setting::default() };
    let table = station("crafting_table");
    let mut table_near = table_near;
    let mut calls = Vec::new();
    for step in plan(&want, &setting).ok()? {
        let getter = match &step.tracker {
            Some(Tracker::Craft { item, count }) if item != wanted => {
                getters.iter().find(|g| g.gets_item(item, known_wood)).and_then(|g| g.calls_for(*count))
            }
            _ => None,
        };
        if let Some(got) = getter {
            calls.extend(got);
            continue;
        }
        let code = step.code.as_deref()?;
        // The table the step would place first is near, or placed now (the plan crafted one, or one is carried).
        let code = match code.strip_prefix(&table) {
            Some(call) if table_near => call,
            Some(call) => {
                calls.push(PLACE_TABLE.to_owned());
                table_near = true;
                call
            }
            None => code,
        };
        let call = code.trim().strip_suffix(';')?;
        if !call.starts_with("craftItem(") || call.contains(';') {
            return None;
        }
        calls.push(call.to_owned());
    }
    (!calls.is_empty()).then_some(calls)
}

/// The call that places a crafting table carried where the bot stands, in a craft's calls.
const PLACE_TABLE: &str = "placeItem(\"crafting_table\")";

/// The step that takes `items` from the remembered chest at `pos`.
fn take_step((pos, items): &([i32; 3], BTreeMap<String, u32>)) -> TaskSpec {
    let [x, y, z] = *pos;
    let listed: Vec<String> = items.iter().map(|(item, n)| format!("{n} {item}")).collect();
    let map: Vec<String> = items.iter().map(|(item, n)| format!("{item}: {n}")).collect();
    let gained: Vec<Tracker> = items.iter().map(|(item, n)| Tracker::Craft { item: item.clone(), count: *n }).collect();
    let tracker = if gained.len() == 1 { gained.into_iter().next() } else { Some(Tracker::All { of: gained }) };
    TaskSpec {
        task: format!("Take {} from the chest at {x} {y} {z}", listed.join(", ")),
        context: "the chest held them when I last looked".to_owned(),
        tracker,
        // Item ids from the game's facts and numbers only: nothing in them can carry code.
        code: Some(format!(
            "goTo(vec3({x}, {y}, {z}), 3);\ngetItemFromChest(vec3({x}, {y}, {z}), #{{{}}});",
            map.join(", ")
        )),
    }
}

/// Code that walks to where `block` was seen when none is in sight (a failed walk leaves the search to the rest).
fn go_to_remembered(block: &str, [x, y, z]: [i32; 3]) -> String {
    format!("if findBlock(\"{block}\", 32) == () {{\n    try {{ goTo(vec3({x}, {y}, {z}), 3); }} catch {{ }}\n}}\n")
}

/// Code that repeats `action` until `count` more `item` are carried (drops can be chances), a few tries over.
fn gather_loop(item: &str, count: i64, action: &str) -> String {
    // Gravel gives flint one time in ten.
    let per = if item == "flint" { 15 } else { 3 };
    format!(
        "let goal = inventoryCount(\"{item}\") + {count};\nlet tries = 0;\nwhile inventoryCount(\"{item}\") < goal && tries < {} {{\n    {action}\n    tries += 1;\n}}\ninventoryCount(\"{item}\")",
        count * per + 2
    )
}

/// How a plan names logs of any kind (see [`any_wood`]); the goal loop plans again once they are got.
pub const ANY_LOG: &str = "wood log";

/// With no tree in sight and no wood carried, the logs a plan mines for planks, sticks or a table are logs of any
/// kind (the plan is made again once they are got, for planks of their wood): a plan for oak explored a desert past
/// birch and acacia for good. Logs the goal itself asks for (`wanted`) stay the kind asked.
fn any_wood(steps: &mut [TaskSpec], setting: &Setting, wanted: Option<&str>) {
    let log = format!("{}_log", setting.wood());
    if !setting.wood.is_empty() || wanted == Some(log.as_str()) {
        return;
    }
    for step in steps {
        let Some(Tracker::Craft { item, count }) = &step.tracker else { continue };
        if *item != log || step.task != format!("Mine {count} {log}") {
            continue;
        }
        let count = *count;
        *step = TaskSpec {
            task: format!("Mine {count} {ANY_LOG}"),
            context: "Any kind of log counts: oak, birch, spruce and the rest; hands can mine logs.".to_owned(),
            tracker: Some(Tracker::Any {
                of: WOODS.iter().map(|w| Tracker::Craft { item: format!("{w}_log"), count }).collect(),
            }),
            code: Some(any_log_loop(i64::from(count))),
        };
    }
}

/// Code that mines `count` logs of any kind, the nearest tree first; with none within 64 blocks it explores a new
/// way each time (east, south, west, north) until one is in sight.
fn any_log_loop(count: i64) -> String {
    let kinds: Vec<String> = WOODS.iter().map(|w| format!("\"{w}_log\"")).collect();
    format!(
        r#"let kinds = [{kinds}];
let logs = || {{ let n = 0; for k in kinds {{ n += inventoryCount(k); }} n }};
let goal = logs.call() + {count};
let tries = 0;
let looked = 0;
while logs.call() < goal && tries < {tries} {{
    let here = position();
    let nearest = ();
    let best = 0.0;
    for k in kinds {{
        let spot = findBlock(k, 64);
        if spot != () && (nearest == () || here.distance(spot) < best) {{ nearest = k; best = here.distance(spot); }}
    }}
    if nearest == () {{
        let headings = [vec3(1, 0, 0), vec3(0, 0, 1), vec3(-1, 0, 0), vec3(0, 0, -1)];
        exploreUntil(headings[looked % 4], 60, || {{
            for k in kinds {{ if findBlock(k, 48) != () {{ return true; }} }}
            ()
        }});
        looked += 1;
    }} else {{
        mineBlock(nearest, 1);
    }}
    tries += 1;
}}
logs.call()"#,
        kinds = kinds.join(", "),
        tries = count * 3 + 6,
    )
}

/// The sword made to hunt a monster with when no weapon is carried: the quickest to make from a tree.
const HUNTING_WEAPON: &str = "wooden_sword";

/// Ores that lie underground: the ore, its deepslate kind, and the height where it is common.
const ORE_DEPTHS: &[(&str, &str, i32)] = &[
    ("iron_ore", "deepslate_iron_ore", 16),
    ("coal_ore", "deepslate_coal_ore", 48),
    ("copper_ore", "deepslate_copper_ore", 48),
    ("gold_ore", "deepslate_gold_ore", -16),
    ("lapis_ore", "deepslate_lapis_ore", 0),
    ("redstone_ore", "deepslate_redstone_ore", -50),
    ("diamond_ore", "deepslate_diamond_ore", -50),
];

/// Code that mines `ore` (or its deepslate kind) until `count` more `item` are carried: when neither is within 64
/// blocks, it digs stairs down toward height `y` once and looks again; back up where it started at the end.
fn ore_loop(item: &str, count: i64, ore: &str, deep: &str, y: i32) -> String {
    let tries = count * 3 + 2;
    format!(
        r#"let start = position();
let goal = inventoryCount("{item}") + {count};
let tries = 0;
let went_down = false;
while inventoryCount("{item}") < goal && tries < {tries} {{
    let ore = "{ore}";
    if findBlock("{ore}", 64) == () {{
        if findBlock("{deep}", 64) != () {{
            ore = "{deep}";
        }} else if !went_down && position().y > {y} + 8 {{
            went_down = true;
            let here = position().floor();
            goTo(vec3(here.x + 8, {y}, here.z), 4);
            continue;
        }}
    }}
    mineBlock(ore, 1);
    tries += 1;
}}
if went_down {{
    goTo(start, 3);
}}
inventoryCount("{item}")"#
    )
}

/// Code that places a carried `block` (crafting table, furnace) beside the bot unless one is within walking range.
fn station(block: &str) -> String {
    let place = super::text::indent(&place_near(block, 1));
    format!("if findBlock(\"{block}\", 48) == () {{\n{place}\n}}\n")
}

/// Code that places `count` carried `block`s on free spots beside the bot: `placeItem(block)` tries spot after spot
/// where the world refuses one. What failed is thrown when nothing was placed; how many were, and what failed, when
/// some were.
pub(super) fn place_near(block: &str, count: u32) -> String {
    if count == 1 {
        return format!("placeItem(\"{block}\");");
    }
    format!(
        r#"let placed = 0;
while placed < {count} {{
    try {{ placeItem("{block}"); placed += 1; }} catch (err) {{
        if placed == 0 {{ throw err; }}
        throw `I placed ${{placed}} of {count} {block}: ${{err}}`;
    }}
}}"#
    )
}

/// `a / b` rounded up, for positive `b`.
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1).div_euclid(b)
}

/// Fuel items that smelt `items` items.
fn fuel_for(items: i64, fuel: &str) -> i64 {
    let burn = facts::facts().fuels.get(fuel).copied().unwrap_or(facts::SMELT_TICKS);
    i64::from(facts::fuel_needed(items.clamp(0, i64::from(u32::MAX / facts::SMELT_TICKS)) as u32, burn))
}

/// Reads a goal such as `get 2 oak logs`, `craft shears`, `mine 3 iron ore`, `kill a pig` or `smelt 4 iron
/// ingots` as one [`Want`]; `None` when it is anything else (build, explore, two things at once, …).
pub fn parse_goal(goal: &str, wood: &str) -> Option<Want> {
    if let Some(give) = parse_give(goal, wood) {
        return Some(give);
    }
    let words = goal_words(goal);
    let (verb, after) = words.split_first()?;
    let (kind, rest) = match verb.as_str() {
        "get" | "obtain" | "collect" | "gather" | "make" | "craft" | "smelt" | "cook" | "have" | "acquire" | "find" => {
            ("have", after)
        }
        "mine" | "dig" | "chop" | "cut" | "harvest" => ("mine", after),
        "kill" | "hunt" | "slay" | "fight" => ("kill", after),
        "place" | "put" | "set" => ("place", after),
        // No verb: the thing alone (`a stone pickaxe`, `12 oak logs`) is asked to be had, when the words name
        // nothing but it.
        _ => ("have", words.as_slice()),
    };
    let (count, rest) = match rest.split_first() {
        Some((first, tail)) => match number(first) {
            Some(n) => (n, tail),
            None => (1, rest),
        },
        None => return None,
    };
    let mut rest: Vec<&str> =
        rest.iter().map(String::as_str).skip_while(|w| ["of", "some", "more", "the", "new"].contains(w)).collect();
    if kind == "place" {
        // "place a crafting table next to you", "put down a furnace here": where is beside the bot. A place named
        // otherwise ("next to the stone block", "on top of the gold block") is not for the facts to plan: the
        // placement code puts the block beside the bot, which would not be where it was asked for.
        let ends = ["next", "near", "here", "beside", "by", "down", "nearby", "in", "on"];
        rest.retain(|w| !["down", "a", "an", "the"].contains(w));
        if let Some(cut) = rest.iter().position(|w| ends.contains(w)) {
            let at = rest[cut..].join(" ");
            // "on the ground next to you" is still beside the bot.
            let at = at.strip_prefix("on ground").or_else(|| at.strip_prefix("on floor")).unwrap_or(&at).trim();
            let beside_the_bot = [
                "",
                "next to you",
                "next to me",
                "near you",
                "near me",
                "here",
                "beside you",
                "beside me",
                "by you",
                "by me",
                "nearby",
            ];
            if !beside_the_bot.contains(&at) {
                return None;
            }
            rest.truncate(cut);
        }
    }
    if rest.is_empty() || rest.len() > 4 || count == 0 {
        return None;
    }
    let phrase = rest.join(" ");
    if kind == "place" {
        let block = singular_id(&phrase, is_block)?;
        return (count == 1).then_some(Want::Place { block });
    }
    if kind == "kill" {
        let mob = singular_id(&phrase, |id| MOBS.contains(&id))?;
        return Some(Want::Kill { mob, count });
    }
    let wood_words = match phrase.as_str() {
        "wood" | "log" | "logs" | "wood log" | "wood logs" | "tree" | "trees" => Some(format!("{wood}_log")),
        "planks" | "plank" | "wood planks" | "wooden planks" => Some(format!("{wood}_planks")),
        "wool" => Some("white_wool".to_owned()),
        "bed" | "beds" => Some("white_bed".to_owned()),
        "boat" | "boats" => Some(format!("{wood}_boat")),
        "cobble" => Some("cobblestone".to_owned()),
        "iron" => Some(if kind == "mine" { "iron_ore".to_owned() } else { "iron_ingot".to_owned() }),
        _ => None,
    };
    let known = |id: &str| known_item(id);
    let mut id = wood_words.or_else(|| singular_id(&phrase, known))?;
    if ["cook", "smelt"].contains(&verb.as_str())
        && let Some(output) = facts::facts().smelting.get(&id)
    {
        // "cook 2 beef" asks for cooked beef; "smelt 3 iron ingots" names the output already.
        id = output.clone();
    }
    if kind == "mine" && is_block(&id) {
        // "chop 3 logs", "mine 5 stone": the block itself.
        return Some(Want::Mine { block: id, count });
    }
    if kind == "mine" {
        // "mine 3 coal", "mine 2 diamonds": the block that drops it.
        if let Some((_, block)) = MINED.iter().find(|(drop, _)| *drop == id) {
            return Some(Want::Mine { block: (*block).to_owned(), count });
        }
    }
    Some(Want::Have { item: id, count })
}

/// `give 8 cobblestone to Crew_1`, `bring 3 logs to Alice`, `hand Alice 2 sticks`: the player keeps the case it
/// was written in.
fn parse_give(goal: &str, wood: &str) -> Option<Want> {
    let words: Vec<&str> = goal.split_whitespace().map(|w| w.trim_end_matches(['.', '!', ','])).collect();
    let (verb, rest) = words.split_first()?;
    if !["give", "bring", "hand", "deliver"].contains(&verb.to_lowercase().as_str()) {
        return None;
    }
    let (to, what) = match rest {
        [what @ .., to_word, name] if to_word.eq_ignore_ascii_case("to") => (*name, what),
        [name, what @ ..]
            if crate::config::is_player_name(name, 3)
                && what.first().and_then(|w| number(&w.to_lowercase())).is_some() =>
        {
            (*name, what)
        }
        _ => return None,
    };
    if !crate::config::is_player_name(to, 3) || what.is_empty() {
        return None;
    }
    match parse_goal(&format!("get {}", what.join(" ")), wood)? {
        Want::Have { item, count } => Some(Want::Give { item, count, to: to.to_owned() }),
        _ => None,
    }
}

fn number(word: &str) -> Option<u32> {
    const WORDS: [&str; 13] =
        ["a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    if word == "an" {
        return Some(1);
    }
    if let Some(i) = WORDS.iter().position(|w| *w == word) {
        return Some(i.max(1) as u32);
    }
    word.parse().ok().filter(|n| (1..=64 * 36).contains(n))
}

/// The id for `phrase` (`iron ingots` → `iron_ingot`), trying the words as they are and with a plural taken off
/// the last one, and Minecraft's display names (`block of iron` → `iron_block`).
fn singular_id(phrase: &str, known: impl Fn(&str) -> bool) -> Option<String> {
    let display = crate::skills::lexical::display_to_id(phrase);
    let mut candidates: Vec<String> = display.into_iter().collect();
    let words: Vec<&str> = phrase.split(' ').collect();
    let (last, head) = words.split_last()?;
    let mut lasts = vec![(*last).to_owned()];
    for (plural, singular) in [("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("es", ""), ("s", "")] {
        if let Some(stem) = last.strip_suffix(plural) {
            lasts.push(format!("{stem}{singular}"));
        }
    }
    // "spruce_plank": the game names some things only in the plural.
    lasts.push(format!("{last}s"));
    for last in lasts {
        let mut words: Vec<&str> = head.to_vec();
        words.push(&last);
        candidates.push(words.join("_"));
    }
    candidates.into_iter().find(|c| known(c))
}

/// Whether `id` is a block of the game.
pub(super) fn is_block(id: &str) -> bool {
    use std::str::FromStr;
    azalea::registry::builtin::BlockKind::from_str(id).is_ok()
}

/// Whether `id` is an item of the game (the facts know how to get it, or why it cannot be had).
/// A goal's words, lower case, split at everything but letters, digits and `_`.
fn goal_words(goal: &str) -> Vec<String> {
    goal.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// When `goal` asks for one thing by a name the game does not have (`a diamond pickax`, `get 3 irn ingots`): the
/// name as written and the game's ids a few letters from it, nearest first (at most three).
pub fn unknown_thing(goal: &str) -> Option<(String, Vec<String>)> {
    if parse_goal(goal, "oak").is_some() {
        return None;
    }
    let words = goal_words(goal);
    const ASKING: [&str; 12] =
        ["get", "obtain", "collect", "gather", "make", "craft", "smelt", "cook", "have", "acquire", "find", "me"];
    let rest: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| ASKING.contains(w))
        .skip_while(|w| number(w).is_some() || ["of", "some", "more", "the", "new"].contains(w))
        .collect();
    if rest.is_empty() || rest.len() > 3 {
        return None;
    }
    let phrase = rest.join("_");
    let limit = (phrase.chars().count() / 4).clamp(1, 3);
    let facts = facts::facts();
    let ids: std::collections::BTreeSet<&str> =
        facts.crafting.keys().chain(facts.blocks.keys()).chain(facts.smelting.values()).map(String::as_str).collect();
    let mut near: Vec<(usize, &str)> = ids
        .into_iter()
        .map(|id| (super::check::edit_distance(&phrase, id), id))
        .filter(|(distance, _)| *distance <= limit)
        .collect();
    near.sort();
    let near: Vec<String> = near.into_iter().take(3).map(|(_, id)| id.to_owned()).collect();
    (!near.is_empty()).then(|| (rest.join(" "), near))
}

/// Whether the game has an item or a block of this id.
pub(super) fn known_item(id: &str) -> bool {
    use std::str::FromStr;
    azalea::registry::builtin::ItemKind::from_str(id).is_ok() || is_block(id)
}

#[cfg(test)]
mod tests;
