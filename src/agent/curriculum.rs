//! The automatic curriculum: the next task from what the bot sees, has done and failed, with a tracker.
//!
//! As in Voyager, the first task is fixed ("Mine 1 wood log"), a nearly full inventory forces a deposit task, and
//! parts of the observation are held back until enough tasks are done (entities after 5, the biome and the wider
//! surroundings after 10, health, food and the question-and-answer context after 15). Position, equipment,
//! inventory, nearby blocks and chests are always shown. (The time of day is not: 26.1 sends it as world clocks that
//! azalea 0.16 does not keep.) Unlike Voyager, the task's context comes in the
//! same answer as the task (Voyager asks a second question for it), and the question-and-answer step, once it runs,
//! reuses a cached answer for any question within cosine distance 0.05 of one asked before. The memories most
//! relevant to choosing (requests, resources and chests known, dangers, insights) and the bot's persona, when one is
//! configured, are shown too.

use super::{
    act::{Agent, Unusable, ask_usable_shaped, items_text},
    checkpoint::{Checkpoint, QaPair},
    plan::{TaskSpec, parse_proposal},
    prompts,
    tracker::Tracker,
};
use crate::{
    bot::BotHandle,
    llm::{Message, Role},
    primitives,
};

/// Completed tasks before each part of the observation is shown.
pub const WARM_UP_ENTITIES: usize = 5;
pub const WARM_UP_SURROUNDINGS: usize = 10;
pub const WARM_UP_CONTEXT: usize = 15;
/// Inventory slots in use that force a deposit task (Voyager's 33 of 36).
pub const FULL_INVENTORY: usize = 33;
/// A cached answer is reused for a question this close (cosine distance).
pub const QA_DISTANCE: f32 = 0.05;
const MAX_QUESTIONS: usize = 3;
/// What the curriculum asks of memory, and how many memories it is shown.
const MEMORY_QUERY: &str =
    "What should I do next: what players asked of me, resources and chests I know of, dangers, insights.";
const RECALLED: usize = 5;
/// The library's skills named in the curriculum's prompt (about 4 tokens each).
const MAX_SKILLS_SHOWN: usize = 120;

const WOOD_LOGS: [&str; 9] = [
    "oak_log",
    "birch_log",
    "spruce_log",
    "jungle_log",
    "acacia_log",
    "dark_oak_log",
    "mangrove_log",
    "cherry_log",
    "pale_oak_log",
];

/// The next task. Calls the LLM except for the first task and a forced deposit.
/// How [`next_task`] begins its error when the LLM answered but nothing in it could be used.
pub const UNUSABLE: &str = "the curriculum gave no usable task";

///
/// `refused` lists why the curriculum's last answers in a row could not be used: it is shown them, so it does not
/// answer the same again (a cached reply to the same question would be that same answer).
pub async fn next_task(agent: &Agent, checkpoint: &mut Checkpoint, refused: &[String]) -> Result<TaskSpec, String> {
    let done = checkpoint.tasks.completed.len();
    if done == 0 {
        return Ok(TaskSpec {
            task: "Mine 1 wood log".to_owned(),
            context: "Any kind of log counts: oak, birch, spruce and the rest; hands can mine logs.".to_owned(),
            tracker: Some(Tracker::Any {
                of: WOOD_LOGS
                    .iter()
                    .map(|log| Tracker::Inventory { item: (*log).to_owned(), count: 1, exactly: false })
                    .collect(),
            }),
            code: None,
        });
    }
    if slots_used(&agent.bot) >= FULL_INVENTORY {
        return Ok(TaskSpec {
            task: "Deposit useless items into a chest".to_owned(),
            context:
                "The inventory is nearly full. Place a chest if there is none nearby, then deposit items that are \
                      not tools, food or crafting materials, until at most 20 slots are used."
                    .to_owned(),
            tracker: None,
            code: None,
        });
    }
    // The blocks near (16) and within 32, scanned once for all the prompt shows and the proposal is held to.
    let near = primitives::observe::block_kinds_near(&agent.bot, 16, 24).await;
    let wider = primitives::observe::block_kinds_near(&agent.bot, 32, 40).await;
    let observed = observation(&agent.bot, done, &near, &wider).await;
    let builds = builds_now(agent, checkpoint, &near, None);
    let answers =
        if done >= WARM_UP_CONTEXT { qa_context(agent, checkpoint, &observed).await } else { "none yet".to_owned() };
    let list = |tasks: &[String]| if tasks.is_empty() { "none".to_owned() } else { tasks.join(", ") };
    let last = checkpoint.tasks.completed.last().map_or("nothing yet", String::as_str);
    let memories = agent.memories_about(&format!("{MEMORY_QUERY} The last task done: {last}."), RECALLED).await;
    let persona = agent
        .persona
        .as_deref()
        .map(|p| format!("\nWho the player is: {p} Let that colour the choice."))
        .unwrap_or_default();
    let user = prompts::render(
        "curriculum_task",
        &[
            ("observation", &observed),
            ("completed", &list(&checkpoint.tasks.completed)),
            ("failed", &list(&checkpoint.tasks.failed)),
            ("answers", &answers),
            ("memories", &memories),
            ("persona", &persona),
            ("skills", &skill_names(&agent.skills.list())),
            ("untried", &or_none(&untried_in_sight(&agent.bot, done, checkpoint, &near))),
            ("craftable", &or_none(&craftable_now(agent, checkpoint, &near))),
            ("builds_on", &or_none(&builds.iter().map(Built::to_string).collect::<Vec<_>>())),
        ],
    )
    .map_err(|e| e.to_string())?;
    let user = if refused.is_empty() {
        user
    } else {
        format!("{user}\n\nYour last answers could not be used:\n- {}\nPropose something else.", refused.join("\n- "))
    };
    let system = prompts::render("curriculum", &[]).map_err(|e| e.to_string())?;
    let messages = vec![Message::system(system), Message::user(user)];
    let correction = |why: &str| format!("That cannot be used: {why}. Answer with the JSON object only.");
    let schema = super::plan::proposal_schema();
    // What the bot could mine: the blocks within 32 and those its memories found.
    let within_reach = format!("{} {memories}", wider.join(" "));
    let library = agent.skills.list();
    let standing = standing(agent, &near);
    let parse = |reply: &str| proposal(reply, checkpoint, Some(&within_reach), &library, &builds, Some(&standing));
    ask_usable_shaped(agent, Role::Curriculum, "the next task", messages, Some(&schema), parse, correction)
        .await
        .map_err(|err| match err {
            Unusable::Llm(failure) => failure,
            Unusable::Answer(why) => format!("{UNUSABLE}: {why}"),
        })
}

/// A proposal, validated: a task not yet completed and not one that failed twice in this run, mining a block named
/// in `within_reach` (when given: the blocks near and those remembered), making a thing not [`too_far`] from what
/// the bot has (when its `standing` is given), with a valid tracker if it gave one (one the task's words contradict
/// is replaced by theirs).
fn proposal(
    reply: &str,
    checkpoint: &Checkpoint,
    within_reach: Option<&str>,
    library: &[std::sync::Arc<crate::skills::Skill>],
    builds: &[Built],
    standing: Option<&super::recipes::Setting>,
) -> Result<TaskSpec, String> {
    let (mut spec, reasoning) = parse_proposal(reply, &checkpoint.tasks.completed)?;
    if let Some(exact) = game_named(&spec.task) {
        tracing::info!("the task {:?} is worded {exact:?}, with the game's name", spec.task);
        spec.task = exact;
        if checkpoint.tasks.completed.iter().any(|t| t.eq_ignore_ascii_case(&spec.task)) {
            return Err(format!("\"{}\" is already completed; propose something new", spec.task));
        }
    }
    if let Some(why) = misnamed_thing(&spec.task) {
        return Err(why);
    }
    // "Mine 4 iron_ore" after "Mine 3 iron_ore" teaches nothing new: the small model's way of proposing the same again.
    // Once, though, a library skill that does it alone may do it with another count (no code to write: the skill is
    // reused, judged by the world); a second time is refused too.
    let uncounted = |task: &str| {
        task.split_whitespace().filter(|w| w.parse::<u32>().is_err()).collect::<Vec<_>>().join(" ").to_lowercase()
    };
    let variants: Vec<&String> =
        checkpoint.tasks.completed.iter().filter(|done| uncounted(done) == uncounted(&spec.task)).collect();
    if let Some(done) = variants.first() {
        let tracker = fitting_tracker(&spec.task, spec.tracker.clone());
        if variants.len() > 1 || skill_call(&spec.task, tracker.as_ref(), library, 0).is_none() {
            return Err(format!(
                "\"{}\" is the completed \"{done}\" with another count; propose something new",
                spec.task
            ));
        }
    }
    // "Mine 2 oak_log" in a spruce forest sends the bot walking for oaks it may never find.
    if let (Some(near), Some(super::recipes::Want::Mine { block, .. })) =
        (within_reach, super::recipes::parse_goal(&spec.task, "oak"))
        && spec.task.contains(&block)
        && !near
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w.strip_prefix("deepslate_").unwrap_or(w) == block.strip_prefix("deepslate_").unwrap_or(&block))
    {
        return Err(format!(
            "there is no {block} near the player and none remembered; propose a task with the blocks near it \
             (listed under Nearby blocks)"
        ));
    }
    // "Craft 2 iron_ore": no recipe makes it; the task sends the bot after something the game does not have.
    if let Some(why) = not_craftable(&spec.task) {
        return Err(why);
    }
    // Not in a row only: a 30-minute run of the local 1.5B spent 20 minutes on four tries at "Craft 2 iron_pickaxe",
    // with other tasks between them.
    let events = checkpoint.events();
    let failures: Vec<_> =
        events.iter().filter(|e| e.outcome == "failed" && e.task.eq_ignore_ascii_case(&spec.task)).collect();
    if let [.., last] = failures.as_slice()
        && failures.len() >= 2
    {
        return Err(format!(
            "\"{}\" failed {} times in this run already (the last time: {}); propose a smaller step towards it, or \
             something else",
            spec.task,
            failures.len(),
            last.reason
        ));
    }
    spec.tracker = fitting_tracker(&spec.task, spec.tracker.take());
    // Skills the library has teach nothing new: after two tasks in a row done by them alone (no code written), a third
    // is sent back. The local 1.5B's curriculum keeps to what the starter library does (iron ore, again and again).
    let routine = events.iter().rev().take(ROUTINE).filter(|e| e.outcome == "succeeded" && e.attempts == 0).count();
    if routine == ROUTINE {
        let carried = match (&spec.tracker, standing) {
            (Some(Tracker::Craft { item, .. } | Tracker::Inventory { item, .. }), Some(setting)) => {
                setting.carried.get(item).copied().unwrap_or(0).max(0) as u32
            }
            _ => 0,
        };
        // A skill learned in this run is welcome again: that is the library growing by reuse.
        let learned_in_this_run = |call: &str| {
            events.iter().filter_map(|e| e.skill.as_deref()).any(|skill| call.contains(&format!("{skill}(")))
        };
        if let Some(call) = skill_call(&spec.task, spec.tracker.as_ref(), library, carried)
            && !learned_in_this_run(&call)
        {
            return Err(format!(
                "the library's skill already does \"{}\" ({}), and the last {ROUTINE} tasks were done by the \
                 library's skills too; propose something no skill does yet, such as something craftable now",
                spec.task,
                call.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches(';')
            ));
        }
    }
    // A second tool or piece of armour of a kind carried teaches nothing, and the library's skill for it makes none
    // while one is carried: the local 1.5B's "Craft 1 wooden_pickaxe", holding one, spent six answers on it.
    if let (Some(super::recipes::Want::Have { item, .. }), Some(setting)) =
        (super::recipes::parse_goal(&spec.task, "oak"), standing)
        && spec.task.trim_start().to_lowercase().starts_with("craft ")
        && is_gear(&item)
        && setting.carried.get(&item).is_some_and(|n| *n > 0)
    {
        return Err(format!(
            "the player already has a {item}; propose something it lacks, such as something craftable now"
        ));
    }
    // A thing the overworld never gives (a nether star) is no task at all, whatever the bot carries.
    if let Some(super::recipes::Want::Have { item, .. }) = super::recipes::parse_goal(&spec.task, "oak")
        && let Err(why) = crate::primitives::sources::reach(&item)
    {
        return Err(format!(
            "\"{}\" cannot be done: {why}; propose something this world gives, such as something craftable now",
            spec.task
        ));
    }
    // A thing built on a skill learned here is one call away, however many steps the planner would take for it.
    let built = builds.iter().find(|b| spec_makes(&spec, &b.item));
    if built.is_none()
        && let Some(why) = standing.and_then(|setting| too_far(&spec, setting, library))
    {
        return Err(why);
    }
    // The small model's hint is often about a world it imagines ("the player has 1 dirt in inventory"); the game's
    // facts about the thing, and the call that gets it, are what the step needs.
    if let Some(facts) = facts_context(&spec.task, standing.map_or("oak", |s| s.wood.as_str())) {
        spec.context = facts;
    }
    // A thing a skill learned earlier gets the ingredients of: the step is told to call it.
    if let Some(built) = built {
        spec.context = format!("{} {}", spec.context, built.hint()).trim().to_owned();
    }
    tracing::info!("curriculum proposes {:?}: {reasoning}", spec.task);
    Ok(spec)
}

/// A tool, weapon or piece of armour: one carried does its work.
fn is_gear(item: &str) -> bool {
    const KINDS: [&str; 10] =
        ["_pickaxe", "_axe", "_shovel", "_hoe", "_sword", "_helmet", "_chestplate", "_leggings", "_boots", "shears"];
    KINDS.iter().any(|kind| item.ends_with(kind)) || ["bow", "crossbow", "shield", "fishing_rod"].contains(&item)
}

/// Tasks in a row done by the library's skills alone after which one more is sent back.
const ROUTINE: usize = 2;

/// Steps from what the bot has beyond which making a thing is too far for one task: each is a part the small model's
/// code must get right, and one wrong ends the task after minutes.
const FAR_STEPS: usize = 4;
/// Ore blocks to find beyond which making a thing is too far for one task: ores lie scattered and underground (six
/// iron ores for an iron block took a run of the local 1.5B three tries of five minutes each, and failed).
const FAR_ORE: u32 = 3;

/// Ore blocks beyond which a task to mine them is too many for one task.
const FAR_MINED_ORE: u32 = 5;

/// Why a task to make a thing is too far from what the bot has (`setting`) to be one task, with a nearer step to
/// propose instead, or a task to mine ore asks for more than [`FAR_MINED_ORE`]; `None` for a near one, one the
/// library's skill does by itself, or one the facts do not plan.
fn too_far(
    spec: &TaskSpec,
    setting: &super::recipes::Setting,
    library: &[std::sync::Arc<crate::skills::Skill>],
) -> Option<String> {
    use super::recipes::{Want, parse_goal, plan};
    let want = parse_goal(&spec.task, &setting.wood)?;
    // However the ore is mined, the blocks lie scattered underground: the local 1.5B's curriculum followed "Mine 3
    // iron_ore" with "Mine 15 iron_ore", and the library's skill spent the 22 minutes left of a 30-minute run on it,
    // through a night in which the bot died twice.
    if let Want::Mine { block, count } = &want
        && block.ends_with("_ore")
        && *count > FAR_MINED_ORE
    {
        return Some(format!(
            "\"{}\" is too many for one task: {block} lies scattered underground; propose at most {FAR_MINED_ORE}, \
             or something craftable now",
            spec.task
        ));
    }
    let Want::Have { item, count } = want else { return None };
    let carried = setting.carried.get(&item).copied().unwrap_or(0).max(0) as u32;
    if skill_call(&spec.task, spec.tracker.as_ref(), library, carried).is_some() {
        return None;
    }
    let steps = plan(&Want::Have { item, count }, setting).ok()?;
    // The planner's mining steps read `Mine iron_ore for 6 raw_iron` or `Mine 1 spruce_log`.
    let mined = |step: &TaskSpec| match step.task.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["Mine", block, "for", ..] | ["Mine", _, block] => Some((*block).to_owned()),
        _ => None,
    };
    let ore: u32 = steps
        .iter()
        .filter(|step| mined(step).is_some_and(|block| block.ends_with("_ore")))
        .map(|step| match &step.tracker {
            Some(Tracker::Craft { count, .. }) => *count,
            _ => 1,
        })
        .sum();
    if steps.len() <= FAR_STEPS && ore <= FAR_ORE {
        return None;
    }
    let first = &steps[0];
    let nearer = match (mined(first), &first.tracker) {
        (Some(block), Some(Tracker::Craft { count, .. })) => format!("Mine {count} {block}"),
        _ => first.task.clone(),
    };
    let ores = if ore > 0 { format!(" and {ore} ore to find") } else { String::new() };
    let listed: Vec<&str> = steps.iter().map(|s| s.task.as_str()).collect();
    Some(format!(
        "\"{}\" is too far from what the player has for one task: it takes {} steps{ores} ({}); propose a nearer \
         task, such as its first step \"{nearer}\" or something craftable now",
        spec.task,
        steps.len(),
        listed.join(", ")
    ))
}

/// What the fact planner needs of the bot as it stands for the curriculum: what it carries, a crafting table or
/// furnace among the blocks `near` it, and its wood (that of the logs or planks it carries, else of logs near, else
/// oak).
fn standing(agent: &Agent, near: &[String]) -> super::recipes::Setting {
    use super::recipes::{Setting, WOODS, carried_wood};
    let carried = primitives::items::carried(&agent.bot);
    let wood = carried_wood(&carried)
        .or_else(|| WOODS.iter().find(|w| near.contains(&format!("{w}_log"))).copied())
        .unwrap_or("oak");
    Setting {
        table_near: near.iter().any(|b| b == "crafting_table"),
        furnace_near: near.iter().any(|b| b == "furnace"),
        wood: wood.to_owned(),
        carried,
        ..Setting::default()
    }
}

/// Why a task names a thing the game lacks, of a kind it has (`Craft 2 iron_planks`: read as planks, it sent a
/// learning run after oak planks for ten minutes): the game has things called `iron_…`, but no iron planks. A loose
/// name no game thing begins like (`Mine 3 wood_log`) is left to be read loosely.
fn misnamed_thing(task: &str) -> Option<String> {
    let names = super::act::game_names();
    task.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).to_lowercase())
        .filter(|w| w.contains('_') && !names.has(w))
        .find_map(|word| {
            let kind = format!("{}_", word.split('_').next()?);
            if !names.items.iter().any(|name| name.starts_with(&kind)) {
                return None;
            }
            let like = names.items_like(&word);
            let such = if like.is_empty() { String::new() } else { format!(" (things like it: {})", like.join(", ")) };
            Some(format!("the game has no {word}{such}; propose a task naming a thing the game has"))
        })
}

/// The task worded with the game's name for its thing when it names it nearly so (`Craft 1 spruce_plank` →
/// `Craft 1 spruce_planks`, `Smelt 2 iron ingots` → `Smelt 2 iron_ingot`), so the step, its facts and its tracker
/// all speak of the same thing; `None` when it is already so worded, or names its thing loosely (`Mine 3 wood log`).
fn game_named(task: &str) -> Option<String> {
    use super::recipes::{Want, parse_goal};
    let id = match parse_goal(task, "oak")? {
        Want::Have { item, .. } => item,
        Want::Mine { block, .. } => block,
        _ => return None,
    };
    let words: Vec<&str> = task.split_whitespace().collect();
    let (verb, rest) = words.split_first()?;
    let (count, phrase) = match rest.split_first() {
        Some((n, phrase)) if n.parse::<u32>().is_ok() => (Some(*n), phrase),
        _ => (None, rest),
    };
    let phrase = phrase.join("_").to_lowercase();
    let plural_of = |one: &str, many: &str| [many.strip_suffix('s'), many.strip_suffix("es")].contains(&Some(one));
    if !(plural_of(&id, &phrase) || plural_of(&phrase, &id) || (phrase == id && !task.contains(&id))) {
        return None;
    }
    Some(match count {
        Some(n) => format!("{verb} {n} {id}"),
        None => format!("{verb} {id}"),
    })
}

/// What the game's facts say about getting the thing a task names, with the primitive that does it: how a block is
/// mined and what it drops, what one craft of an item takes and makes, what a furnace smelts into it. `None` for a
/// task about anything else, or one that names its thing only loosely ("Mine 3 wood log" would be read as oak, which
/// may not grow where the bot is).
pub fn facts_context(task: &str, wood: &str) -> Option<String> {
    use super::recipes::{Want, parse_goal};
    use primitives::facts;
    let words = task.to_lowercase();
    let named = |thing: &str| words.contains(thing);
    match parse_goal(task, "oak")? {
        Want::Mine { block, .. } if named(&block) => {
            let drop = facts::drops_of(&block).into_iter().next()?;
            let tools = facts::facts().blocks.get(&block).and_then(|b| b.tools.clone());
            let tool = match tools {
                None => "any tool or a bare hand harvests it".to_owned(),
                Some(tools) => {
                    let weakest = super::recipes::weakest_tool(&tools);
                    format!("it needs at least a {}", weakest.unwrap_or(&tools[0]))
                }
            };
            let gives = if drop == block { String::new() } else { format!(" and gives {drop}") };
            Some(format!("mineBlock(\"{block}\", n) mines it{gives}; {tool}."))
        }
        Want::Have { item, .. } if named(&item) || words.starts_with("smelt ") => {
            // A furnace first: iron ingots come from raw iron, not from an iron block.
            if let Some(input) = facts::smelted_from(&item) {
                Some(format!("smeltItem(\"{input}\", fuel, n) makes it in a furnace, from {input}."))
            } else {
                let recipes = facts::facts().crafting.get(&item)?;
                // The kind made of the bot's wood (a 1.5B model's code demanded oak planks in a spruce forest), else
                // the last: the game's data lists a tag's variants last-first, so the last is the common kind.
                let of_wood = |r: &&facts::Recipe| r.needs().keys().any(|n| n.starts_with(&format!("{wood}_")));
                let recipe = recipes.iter().find(of_wood).or(recipes.last())?;
                let needs: Vec<String> = recipe.needs().iter().map(|(name, n)| format!("{n} {name}")).collect();
                let others = if recipes.len() > 1 { " (or other kinds)" } else { "" };
                let table = if recipe.fits_inventory_grid() { "" } else { ", at a crafting table" };
                Some(format!(
                    "craftItem(\"{item}\", n) makes it: each craft takes {}{others} and makes {}{table}.",
                    needs.join(", "),
                    recipe.count()
                ))
            }
        }
        _ => None,
    }
}

/// Why a task to craft an item no recipe makes cannot be done, with how the item is got instead, or `None`.
fn not_craftable(task: &str) -> Option<String> {
    use super::recipes::{Want, parse_goal};
    use primitives::facts;
    if !task.trim_start().to_lowercase().starts_with("craft ") {
        return None;
    }
    let Want::Have { item, count } = parse_goal(task, "oak")? else { return None };
    if facts::facts().crafting.contains_key(&item) {
        return None;
    }
    let how = if let Some(input) = facts::smelted_from(&item) {
        format!("a furnace makes it from {input}: \"Smelt {count} {input}\"")
    } else if let Some(block) = facts::facts()
        .blocks
        .iter()
        .filter(|(name, b)| **name == item || b.drops.as_ref().is_some_and(|d| d.contains(&item)))
        .map(|(name, _)| name)
        .min_by_key(|name| (**name != item, name.len(), (*name).clone()))
    {
        format!("it is mined: \"Mine {count} {block}\"")
    } else {
        "it is found or dropped, not made".to_owned()
    };
    Some(format!("no recipe makes {item} ({how}); propose a task the game allows"))
}

/// Blocks worth a task besides ores and logs.
const WORTH_MINING: &[&str] =
    &["sand", "gravel", "clay", "pumpkin", "melon", "sugar_cane", "cactus", "bamboo", "obsidian", "sweet_berry_bush"];

/// What the bot sees that no task done or failed has named: ores, logs and a few other blocks worth mining and,
/// once entities are shown, the mobs in sight. A small model's curriculum keeps to the one thing it knows (iron ore,
/// again and again); these are something new within reach.
fn untried_in_sight(bot: &BotHandle, done: usize, checkpoint: &Checkpoint, blocks: &[String]) -> Vec<String> {
    let mobs: Vec<String> = if done >= WARM_UP_ENTITIES {
        primitives::observe::entities_near(bot, 32.0, 12)
            .into_iter()
            .filter_map(|seen| seen.split(" (").next().map(str::to_owned))
            .collect()
    } else {
        Vec::new()
    };
    let tasks: Vec<&String> = checkpoint.tasks.completed.iter().chain(&checkpoint.tasks.failed).collect();
    untried(blocks, &mobs, &tasks)
}

/// A task of the bot's own when the curriculum's answers could not be used: the first thing in sight no task has
/// named (`Mine 1 coal_ore`, tracked by what it drops; `Kill 1 sheep`), or `None` when there is none.
pub async fn untried_task(agent: &Agent, checkpoint: &Checkpoint) -> Option<TaskSpec> {
    // Building on a skill learned here first: the library grows by composing what it has (and the skill is reused).
    if let Some(built) = built_task(agent, checkpoint, None).await {
        return Some(built);
    }
    let done = checkpoint.tasks.completed.len();
    let near = primitives::observe::block_kinds_near(&agent.bot, 16, 24).await;
    let wood = standing(agent, &near).wood;
    // Then crafting: quick, safe, and a skill the library lacks.
    if let Some(item) = craftable_now(agent, checkpoint, &near).first() {
        let task = format!("Craft 1 {item}");
        return Some(TaskSpec {
            context: format!(
                "It can be made from what the player carries, and no skill makes it yet. {}",
                facts_context(&task, &wood).unwrap_or_default()
            ),
            task,
            tracker: Some(Tracker::Craft { item: item.clone(), count: 1 }),
            code: None,
        });
    }
    let untried = untried_in_sight(&agent.bot, done, checkpoint, &near);
    untried_spec(untried.first()?)
}

/// A task to craft the first thing [`builds_on`] a skill learned in this run (the skill named `on`, when given), with
/// the hint to call that skill; `None` when nothing does.
pub async fn built_task(agent: &Agent, checkpoint: &Checkpoint, on: Option<&str>) -> Option<TaskSpec> {
    let near = primitives::observe::block_kinds_near(&agent.bot, 16, 24).await;
    let built = builds_now(agent, checkpoint, &near, on).into_iter().next()?;
    let wood = standing(agent, &near).wood;
    let task = format!("Craft 1 {}", built.item);
    Some(TaskSpec {
        context: format!("{} {}", facts_context(&task, &wood).unwrap_or_default(), built.hint()).trim().to_owned(),
        task,
        tracker: Some(Tracker::Craft { item: built.item.clone(), count: 1 }),
        code: None,
    })
}

/// [`craftable_untried`] for the bot as it stands (a crafting table among the blocks `near` it counts as near), at
/// most [`CRAFTABLE_SHOWN`] of them.
fn craftable_now(agent: &Agent, checkpoint: &Checkpoint, near: &[String]) -> Vec<String> {
    let tasks: Vec<&String> = checkpoint.tasks.completed.iter().chain(&checkpoint.tasks.failed).collect();
    let table_near = near.iter().any(|block| block == "crafting_table");
    let carried = primitives::items::carried(&agent.bot);
    let mut found = craftable_untried(&carried, table_near, &agent.skills.list(), &tasks);
    found.truncate(CRAFTABLE_SHOWN);
    found
}

/// Something to craft that needs more of a thing than the bot carries, a thing a skill the curriculum learned gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// What to craft.
    pub item: String,
    /// The call of the learned skill (`mineSpruceLogs(count)`) and what its task got (`spruce_log`).
    pub call: String,
    pub got: String,
}

impl Built {
    /// The hint a task to craft it is given.
    fn hint(&self) -> String {
        format!(
            "It takes more {} than the player carries: {}, a skill learned earlier, gets {}; call it first, then craft.",
            self.got, self.call, self.got
        )
    }
}

impl std::fmt::Display for Built {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({} gets the {})", self.item, self.call, self.got)
    }
}

/// How many things built on learned skills the curriculum is shown.
const BUILDS_SHOWN: usize = 4;

/// Whether `spec` is a task to make `item`.
fn spec_makes(spec: &TaskSpec, item: &str) -> bool {
    matches!(super::recipes::parse_goal(&spec.task, "oak"), Some(super::recipes::Want::Have { item: wanted, .. }) if wanted == item)
}

/// The skills the curriculum learned (newest first, each kind of thing once) with what each one's task got: the item
/// its task counts (`Mine 3 spruce_log` got spruce_log), for skills still in the library.
fn learned_here(checkpoint: &Checkpoint, library: &[std::sync::Arc<crate::skills::Skill>]) -> Vec<(String, String)> {
    let mut learned: Vec<(String, String)> = Vec::new();
    for event in checkpoint.events().iter().rev().filter(|e| e.outcome == "succeeded") {
        let Some(skill) = event.skill.as_ref() else { continue };
        let Some(found) = library.iter().find(|s| &s.name == skill) else { continue };
        let item = match fitting_tracker(&event.task, None) {
            Some(Tracker::Craft { item, .. }) => item,
            // Any kind of log: the kind its run got.
            Some(Tracker::Any { of }) => {
                let Some(item) = of.iter().find_map(|t| match t {
                    Tracker::Craft { item, .. } if event.changed.iter().any(|c| gained(c, item)) => Some(item.clone()),
                    _ => None,
                }) else {
                    continue;
                };
                item
            }
            _ => continue,
        };
        if !learned.iter().any(|(_, got)| *got == item) {
            learned.push((found.signature(), item));
        }
    }
    learned
}

/// Whether a run's changes (`…; items +5 spruce_log, -1 stick`) say it got more of `item`.
fn gained(changed: &str, item: &str) -> bool {
    changed.rsplit_once("items ").is_some_and(|(_, items)| {
        items.split(", ").any(|entry| entry.starts_with('+') && entry.split_once(' ').is_some_and(|(_, i)| i == item))
    })
}

/// The function a call or signature names: `mineSpruceLogs` in `mineSpruceLogs(count)`.
fn called(call: &str) -> &str {
    call.split_once('(').map_or(call, |(name, _)| name)
}

/// [`builds_on`] for the bot as it stands (on the learned skill named `on` alone, when given), at most
/// [`BUILDS_SHOWN`] of them.
fn builds_now(agent: &Agent, checkpoint: &Checkpoint, near: &[String], on: Option<&str>) -> Vec<Built> {
    let library = agent.skills.list();
    let mut learned = learned_here(checkpoint, &library);
    if let Some(on) = on {
        learned.retain(|(call, _)| called(call) == on);
    }
    if learned.is_empty() {
        return Vec::new();
    }
    let tasks: Vec<&String> = checkpoint.tasks.completed.iter().chain(&checkpoint.tasks.failed).collect();
    let table_near = near.iter().any(|block| block == "crafting_table");
    let carried = primitives::items::carried(&agent.bot);
    let mut found = builds_on(&carried, table_near, &learned, &library, &tasks);
    found.truncate(BUILDS_SHOWN);
    found
}

/// Items crafting alone makes from what is carried plus what one `learned` skill gets (each given as its call and
/// the thing it got), and not from what is carried alone: a task for one composes the learned skill with crafting,
/// as Voyager's library grows. Only items whose craft's calls ([`super::recipes::craft_calls`], with the library's
/// getters for what is missing) call the learned skill: the planks a learned planks skill crafts need a log, and with
/// no log carried and no skill that gets one, a bowl built on it failed three times in a run. The same items as
/// [`craftable_untried`] leaves out are left out (carried, made by a skill, named by a task); each learned skill's
/// best two (by how many recipes use them) in turn, newest first.
pub fn builds_on(
    carried: &std::collections::HashMap<String, i32>,
    table_near: bool,
    learned: &[(String, String)],
    library: &[std::sync::Arc<crate::skills::Skill>],
    tasks: &[&String],
) -> Vec<Built> {
    let now = craftable_untried(carried, table_near, library, tasks);
    let getters = super::recipes::Getter::in_library(library);
    let calls_skill = |item: &str, call: &str| {
        super::recipes::craft_calls(&format!("Craft 1 {item}"), carried, table_near, &getters)
            .is_some_and(|calls| calls.iter().any(|c| called(c) == called(call)))
    };
    let per_skill: Vec<Vec<Built>> = learned
        .iter()
        .map(|(call, got)| {
            let mut more = carried.clone();
            let held = more.entry(got.clone()).or_insert(0);
            *held = (*held).max(0) + 64;
            craftable_untried(&more, table_near, library, tasks)
                .into_iter()
                .filter(|item| !now.contains(item) && item != got && calls_skill(item, call))
                .take(2)
                .map(|item| Built { item, call: call.clone(), got: got.clone() })
                .collect()
        })
        .collect();
    let mut found: Vec<Built> = Vec::new();
    for round in 0..2 {
        for built in per_skill.iter().filter_map(|list| list.get(round)) {
            if !found.iter().any(|f| f.item == built.item) {
                found.push(built.clone());
            }
        }
    }
    found
}

fn untried_spec(thing: &str) -> Option<TaskSpec> {
    let kill = format!("Kill 1 {thing}");
    let (task, tracker) = match fitting_tracker(&kill, None) {
        Some(tracker) => (kill, tracker),
        None => {
            let mine = format!("Mine 1 {thing}");
            let tracker = fitting_tracker(&mine, None)?;
            (mine, tracker)
        }
    };
    Some(TaskSpec {
        context: format!(
            "It is in sight and no task has tried it yet. {}",
            facts_context(&task, "oak").unwrap_or_default()
        ),
        task,
        tracker: Some(tracker),
        code: None,
    })
}

/// The blocks worth mining and the mobs among `blocks` and `mobs` that none of `tasks` names (a deepslate ore counts
/// as its plain ore), each once.
fn untried(blocks: &[String], mobs: &[String], tasks: &[&String]) -> Vec<String> {
    let tasks: Vec<String> = tasks.iter().map(|t| t.to_lowercase()).collect();
    let named = |thing: &str| {
        let plain = thing.strip_prefix("deepslate_").unwrap_or(thing);
        tasks.iter().any(|t| t.contains(plain))
    };
    let worth =
        |block: &&String| block.ends_with("_ore") || block.ends_with("_log") || WORTH_MINING.contains(&block.as_str());
    let mut found: Vec<String> = Vec::new();
    for thing in blocks.iter().filter(worth).chain(mobs) {
        if !named(thing) && !found.contains(thing) {
            found.push(thing.clone());
        }
    }
    found
}

/// How many things the bot could craft now the curriculum is shown.
const CRAFTABLE_SHOWN: usize = 6;

/// Items the bot can make now by crafting alone from what it carries (planks from its logs, sticks from planks, a
/// crafting table where one is needed and none is near), that it carries none of, that no library skill makes and no
/// task has named; the ones more recipes use first. Something new one step from where the bot stands, for a small
/// model that otherwise keeps to what its library already does.
pub fn craftable_untried(
    carried: &std::collections::HashMap<String, i32>,
    table_near: bool,
    library: &[std::sync::Arc<crate::skills::Skill>],
    tasks: &[&String],
) -> Vec<String> {
    use super::recipes::{Setting, Want, carried_wood, plan};
    let has = |item: &str| carried.get(item).is_some_and(|n| *n > 0);
    let setting = Setting {
        carried: carried.clone(),
        table_near,
        wood: carried_wood(carried).unwrap_or("oak").to_owned(),
        ..Setting::default()
    };
    let tasks: Vec<String> = tasks.iter().map(|t| t.to_lowercase()).collect();
    let made_by_library = |item: &str| {
        let name = super::naming::name_for_task(&format!("Craft 1 {item}")).to_lowercase();
        let quoted = format!("\"{item}\"");
        library.iter().any(|skill| {
            let own = skill.name.to_lowercase();
            own == name || own.strip_suffix('s') == Some(&name) || skill.code.contains(&quoted)
        })
    };
    // First, cheaply, the kinds of thing crafting could reach from what is carried at all (counts aside); the planner
    // then weighs the counts for those alone.
    let crafting = &primitives::facts::facts().crafting;
    let mut reach: std::collections::HashSet<&str> =
        carried.iter().filter(|(_, n)| **n > 0).map(|(item, _)| item.as_str()).collect();
    loop {
        let more: Vec<&str> = crafting
            .iter()
            .filter(|(item, recipes)| {
                !reach.contains(item.as_str())
                    && recipes.iter().any(|r| r.needs().keys().all(|n| reach.contains(n.as_str())))
            })
            .map(|(item, _)| item.as_str())
            .collect();
        if more.is_empty() {
            break;
        }
        reach.extend(more);
    }
    let mut found: Vec<(usize, String)> = crafting
        .keys()
        .filter(|item| reach.contains(item.as_str()))
        .filter(|item| !has(item) && !tasks.iter().any(|t| t.contains(item.as_str())))
        .filter(|item| {
            plan(&Want::Have { item: (*item).clone(), count: 1 }, &setting)
                .is_ok_and(|steps| steps.iter().all(|step| step.task.starts_with("Craft ")))
        })
        .filter(|item| !made_by_library(item))
        .map(|item| (uses(item), item.clone()))
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.into_iter().map(|(_, item)| item).collect()
}

/// How many recipes take `item` as an ingredient.
fn uses(item: &str) -> usize {
    static USES: std::sync::LazyLock<std::collections::HashMap<String, usize>> = std::sync::LazyLock::new(|| {
        let mut uses = std::collections::HashMap::new();
        for recipe in primitives::facts::facts().crafting.values().flatten() {
            for ingredient in recipe.needs().into_keys() {
                *uses.entry(ingredient).or_insert(0) += 1;
            }
        }
        uses
    });
    USES.get(item).copied().unwrap_or(0)
}

/// Code that calls the library's skill doing `task` by itself: the skill named for the task or written for it
/// (`Craft 1 wooden_pickaxe` → `craftWoodenPickaxe();`, `Mine 3 wood log` → `mineWoodLog(3);`), or named for the
/// task's verb and what its tracker counts (`Smelt 3 iron_ore`, counted in iron ingots → `smeltIronIngot(3);`), when
/// it takes nothing or only the count. A skill taking nothing is called once per thing the task counts. A skill that
/// makes sure of "at least" its count carried is asked for `carried` (what the bot holds of the tracked thing now)
/// more: `Craft 1 stick` holding 4 calls `craftSticks(5)`.
pub fn skill_call(
    task: &str,
    tracker: Option<&Tracker>,
    library: &[std::sync::Arc<crate::skills::Skill>],
    carried: u32,
) -> Option<String> {
    let count = task.split_whitespace().find_map(|w| w.parse::<u32>().ok()).unwrap_or(1).max(1);
    let mut wordings = vec![task.to_owned()];
    if let (Some(Tracker::Craft { item, .. } | Tracker::Inventory { item, .. }), Some(verb)) =
        (tracker, task.split_whitespace().next())
    {
        wordings.push(format!("{verb} {count} {item}"));
    }
    let names: Vec<String> = wordings
        .iter()
        .flat_map(|wording| {
            let named = super::naming::name_for_task(wording);
            let base = named.strip_suffix('s').unwrap_or(&named).to_owned();
            [named.clone(), base.clone(), format!("{base}s"), format!("{base}es")]
        })
        .collect();
    let skill = names
        .iter()
        .find_map(|name| library.iter().find(|skill| &skill.name == name))
        .or_else(|| library.iter().find(|skill| skill.meta.task.eq_ignore_ascii_case(task.trim())))?;
    // A skill taking nothing that returns early when one is carried (`if inventoryCount("iron_pickaxe") > 0`) makes
    // one at most, and none when one is carried: called twice it does nothing the second time.
    let counted = match tracker {
        Some(Tracker::Craft { item, .. } | Tracker::Inventory { item, .. }) => Some(item.as_str()),
        _ => None,
    };
    let one_at_most = counted.is_some_and(|item| super::recipes::makes_one_at_most(&skill.code, item));
    match skill.params.as_slice() {
        [] if one_at_most && (count > 1 || carried > 0) => None,
        [] if count == 1 => Some(format!("{}();", skill.name)),
        [] if count <= 16 => Some(format!("for _ in 0..{count} {{\n    {}();\n}}", skill.name)),
        [param] if super::recipes::COUNT_PARAMS.contains(&param.as_str()) => {
            let at_least = [&skill.meta.description, &skill.code].iter().any(|t| t.to_lowercase().contains("at least"));
            let count = if at_least { count + carried } else { count };
            Some(format!("{}({count});", skill.name))
        }
        _ => None,
    }
}

/// The library's skill names for the curriculum, sorted, at most `MAX_SKILLS_SHOWN` of them.
pub fn skill_names(library: &[std::sync::Arc<crate::skills::Skill>]) -> String {
    let mut names: Vec<&str> = library.iter().map(|s| s.name.as_str()).collect();
    if names.is_empty() {
        return "none yet".to_owned();
    }
    names.sort_unstable();
    let more = names.len().saturating_sub(MAX_SKILLS_SHOWN);
    names.truncate(MAX_SKILLS_SHOWN);
    let shown = names.join(", ");
    if more > 0 { format!("{shown} and {more} more") } else { shown }
}

/// The tracker for a task that names an item, a block to mine or a mob with its count (`Craft 2 iron_pickaxe`): the
/// one proposed when it is about that thing, else one that is (a proposal tracking 4 sticks for two iron pickaxes would
/// call the task done when it is not).
fn fitting_tracker(task: &str, proposed: Option<Tracker>) -> Option<Tracker> {
    use super::recipes::{Want, parse_goal};
    // "Mine 2 wood logs" names no kind of wood, and is read as oak: any kind counts, as for the first task (a run in
    // a spruce forest failed it with five spruce logs got).
    if let Some(Want::Mine { block: log, count } | Want::Have { item: log, count }) = parse_goal(task, "oak")
        && log.ends_with("_log")
        && !task.to_lowercase().replace(' ', "_").contains(&log)
    {
        return Some(Tracker::Any {
            of: WOOD_LOGS.iter().map(|log| Tracker::Craft { item: (*log).to_owned(), count }).collect(),
        });
    }
    let (thing, count, fits) = match parse_goal(task, "oak")? {
        Want::Have { item, count } => (item.clone(), count, Tracker::Craft { item, count }),
        Want::Kill { mob, count } => (mob.clone(), count, Tracker::Kill { mob, count }),
        // Mining is counted by what the block drops (`Mine 1 iron_ore`: one more raw_iron; a tracker counting
        // iron_ore carried could never be met).
        Want::Mine { block, count } => {
            let drop = crate::primitives::facts::drops_of(&block).into_iter().next()?;
            (drop.clone(), count, Tracker::Craft { item: drop, count })
        }
        _ => return proposed,
    };
    // Kept when it counts the very thing, as many as the task says ("Mine 3 iron_ore" tracked by 10 was not).
    let about_it = proposed.as_ref().is_some_and(|t| {
        serde_json::to_string(t)
            .is_ok_and(|json| json.contains(&format!("\"{thing}\"")) && json.contains(&format!("\"count\":{count}")))
    });
    if about_it {
        return proposed;
    }
    tracing::info!("the task {task:?} is tracked by its own words, not by {proposed:?}");
    Some(fits)
}

/// What the curriculum is shown, gated by how many tasks are done: `near` and `wider` are the kinds of block within
/// 16 and 32.
pub async fn observation(bot: &BotHandle, done: usize, near: &[String], wider: &[String]) -> String {
    let status = bot.status();
    let p = status.position;
    let items = items_text(&status.items);
    let mut text = format!(
        "Position: {:.1} {:.1} {:.1}\nEquipment: {}\nInventory ({}/36 slots used): {items}\nNearby blocks: {}\n\
         Chests: {}",
        p.x,
        p.y,
        p.z,
        primitives::observe::equipment(bot),
        slots_used(bot),
        or_none(near),
        or_none(&primitives::observe::chests_near(bot, 16.0, 5).await)
    );
    if done >= WARM_UP_ENTITIES {
        text.push_str(&format!("\nNearby entities: {}", or_none(&primitives::observe::entities_near(bot, 32.0, 12))));
    }
    if done >= WARM_UP_SURROUNDINGS {
        text.push_str(&format!("\nBiome: {}", primitives::observe::biome(bot).unwrap_or_else(|| "unknown".to_owned())));
        text.push_str(&format!("\nOther blocks within 32: {}", or_none(wider)));
    }
    if done >= WARM_UP_CONTEXT {
        text.push_str(&format!("\nHealth: {}/20\nFood: {}/20", status.health, status.food));
        let dangers = super::act::dangers_text(&status);
        if !dangers.is_empty() {
            text.push('\n');
            text.push_str(dangers.trim_end());
        }
    }
    text
}

fn or_none(list: &[String]) -> String {
    if list.is_empty() { "none".to_owned() } else { list.join(", ") }
}

fn slots_used(bot: &BotHandle) -> usize {
    primitives::items::inventory_slots(bot).iter().skip(9).take(36).filter(|s| !s.is_empty()).count()
}

/// Questions about the surroundings (`observation`, as the curriculum is shown it) and their answers, from the cache
/// where a close enough question was asked.
async fn qa_context(agent: &Agent, checkpoint: &mut Checkpoint, observation: &str) -> String {
    let system = match prompts::render("curriculum_questions", &[]) {
        Ok(system) => system,
        Err(_) => return "none".to_owned(),
    };
    let asked = [Message::system(system), Message::user(observation)];
    let questions = match agent.ask(Role::Curriculum, "what to ask about the surroundings", &asked, 0.0).await {
        Ok(reply) => reply
            .content
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Question:").map(|q| q.trim().to_owned()))
            .filter(|q| !q.is_empty())
            .take(MAX_QUESTIONS)
            .collect::<Vec<_>>(),
        Err(err) => {
            tracing::warn!("no curriculum questions: {err}");
            return "none".to_owned();
        }
    };
    let mut lines = Vec::new();
    for question in questions {
        let answer = match cached_answer(agent, checkpoint, &question).await {
            Some(answer) => answer,
            None => {
                let Ok(prompt) = prompts::render("curriculum_answers", &[("question", &question)]) else { continue };
                match agent
                    .ask(Role::Curriculum, "an answer about the surroundings", &[Message::user(prompt)], 0.0)
                    .await
                {
                    Ok(reply) => {
                        let answer = reply.content.trim().to_owned();
                        checkpoint.qa.push(QaPair { question: question.clone(), answer: answer.clone() });
                        answer
                    }
                    Err(err) => {
                        tracing::warn!("no answer to {question:?}: {err}");
                        continue;
                    }
                }
            }
        };
        lines.push(format!("Question: {question}\nAnswer: {answer}"));
    }
    if lines.is_empty() { "none".to_owned() } else { lines.join("\n") }
}

/// The cached answer to the nearest earlier question, if it is within [`QA_DISTANCE`].
async fn cached_answer(agent: &Agent, checkpoint: &Checkpoint, question: &str) -> Option<String> {
    if checkpoint.qa.is_empty() {
        return None;
    }
    let skills = agent.skills.clone();
    let mut texts: Vec<String> = checkpoint.qa.iter().map(|qa| qa.question.clone()).collect();
    texts.push(question.to_owned());
    let vectors = tokio::task::spawn_blocking(move || {
        let embedder = skills.embedder().ok()?;
        embedder.embed(&texts.iter().map(String::as_str).collect::<Vec<_>>()).ok()
    })
    .await
    .ok()??;
    let (asked, cached) = vectors.split_last()?;
    let (best, similarity) = cached
        .iter()
        .enumerate()
        .map(|(i, v)| (i, v.iter().zip(asked).map(|(a, b)| a * b).sum::<f32>()))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (1.0 - similarity <= QA_DISTANCE).then(|| checkpoint.qa[best].answer.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_given_the_game_facts_about_its_thing() {
        assert_eq!(
            facts_context("Mine 1 dirt", "oak").unwrap(),
            "mineBlock(\"dirt\", n) mines it; any tool or a bare hand harvests it."
        );
        assert_eq!(
            facts_context("Mine 2 iron_ore", "oak").unwrap(),
            "mineBlock(\"iron_ore\", n) mines it and gives raw_iron; it needs at least a stone_pickaxe."
        );
        assert_eq!(
            facts_context("Craft 1 barrel", "oak").unwrap(),
            "craftItem(\"barrel\", n) makes it: each craft takes 6 oak_planks, 2 oak_slab (or other kinds) and makes 1, at a crafting table."
        );
        assert_eq!(
            facts_context("Smelt 3 iron_ingot", "oak").unwrap(),
            "smeltItem(\"raw_iron\", fuel, n) makes it in a furnace, from raw_iron."
        );
        // In a spruce forest, the spruce kind.
        assert_eq!(
            facts_context("Craft 1 bowl", "spruce").unwrap(),
            "craftItem(\"bowl\", n) makes it: each craft takes 3 spruce_planks (or other kinds) and makes 4, at a \
             crafting table."
        );
        assert_eq!(facts_context("Deposit useless items into a chest", "oak"), None);
        // Named loosely, the thing would be guessed (oak): no facts rather than the wrong ones.
        assert_eq!(facts_context("Mine 3 wood log", "oak"), None);
        assert_eq!(facts_context("Craft 4 planks", "oak"), None);
        assert!(facts_context("Smelt 3 iron_ore", "oak").is_some_and(|c| c.starts_with("smeltItem(\"raw_iron\"")));
    }

    #[test]
    fn a_task_naming_its_thing_nearly_is_worded_with_the_game_name() {
        assert_eq!(game_named("Craft 1 spruce_plank").as_deref(), Some("Craft 1 spruce_planks"));
        assert_eq!(game_named("Smelt 2 iron ingots").as_deref(), Some("Smelt 2 iron_ingot"));
        assert_eq!(game_named("Mine 3 Coal_Ores").as_deref(), Some("Mine 3 coal_ore"));
        assert_eq!(game_named("Craft 1 Crafting Table").as_deref(), Some("Craft 1 crafting_table"));
        // Already so, loosely named (the wood is a guess), or about something else: left as it is.
        for task in ["Craft 1 spruce_planks", "Mine 3 wood log", "Mine 2 coal", "Deposit useless items into a chest"] {
            assert_eq!(game_named(task), None, "{task}");
        }
        let checkpoint = Checkpoint::open(std::env::temp_dir().join("wayfarer-curriculum-unused"));
        let spec = proposal("{\"task\": \"Craft 1 spruce_plank\"}", &checkpoint, None, &[], &[], None).unwrap();
        assert_eq!(spec.task, "Craft 1 spruce_planks");
        assert_eq!(spec.tracker, Some(Tracker::Craft { item: "spruce_planks".into(), count: 1 }));
        assert!(spec.context.starts_with("craftItem(\"spruce_planks\", n)"), "{}", spec.context);
    }

    #[test]
    fn things_craftable_now_that_no_skill_makes_are_offered() {
        let carried = |items: &[(&str, i32)]| items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect();
        let library = |names: &[(&str, &str)]| -> Vec<std::sync::Arc<crate::skills::Skill>> {
            let with_code = |(name, code): &(&str, &str)| {
                let mut made = std::sync::Arc::into_inner(skill(name, &[], "")).unwrap();
                made.code = (*code).to_owned();
                std::sync::Arc::new(made)
            };
            names.iter().map(with_code).collect()
        };
        let started = std::time::Instant::now();
        let from_logs = craftable_untried(&carried(&[("spruce_log", 2)]), false, &[], &[]);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "took {:?}", started.elapsed());
        // Made from the carried wood, crafting only: no pickaxe (its stone is mined), nothing of oak.
        assert!(from_logs.contains(&"spruce_slab".to_owned()), "{from_logs:?}");
        assert!(from_logs.contains(&"stick".to_owned()) && from_logs.contains(&"crafting_table".to_owned()));
        assert!(!from_logs.iter().any(|i| i.starts_with("oak_") || i == "stone_pickaxe"), "{from_logs:?}");
        // What the library makes, what is carried and what a task named are not new.
        let known = library(&[("craftSticks", "craftItem(\"stick\", 4);"), ("craftCraftingTable", "")]);
        let tried = "Craft 1 spruce_slab".to_owned();
        let rest = craftable_untried(&carried(&[("spruce_log", 2), ("spruce_button", 1)]), false, &known, &[&tried]);
        for gone in ["stick", "crafting_table", "spruce_slab", "spruce_button"] {
            assert!(!rest.contains(&gone.to_owned()), "{gone} in {rest:?}");
        }
        assert!(rest.contains(&"spruce_pressure_plate".to_owned()), "{rest:?}");
        // Planks, used by the most recipes, come before a button, used by none.
        let at = |item: &str| from_logs.iter().position(|i| i == item).unwrap();
        assert!(at("spruce_planks") < at("spruce_button"), "{from_logs:?}");
    }

    #[test]
    fn things_a_learned_skill_gets_the_ingredients_of_are_offered_with_its_call() {
        let dir = crate::test_dir("curriculum-learned");
        let checkpoint = Checkpoint::open(&dir);
        let event = |task: &str, outcome: &str, skill: Option<&str>| super::super::checkpoint::TaskEvent {
            time: String::new(),
            task: task.to_owned(),
            outcome: outcome.to_owned(),
            skill: skill.map(str::to_owned),
            used: Vec::new(),
            reason: String::new(),
            attempts: 1,
            calls: 1,
            tokens: 1,
            voyager_calls: 1,
            roles: Default::default(),
            cost: None,
            changed: Vec::new(),
        };
        for e in [
            event("Mine 1 wood log", "succeeded", None),
            event("Mine 3 spruce_log", "succeeded", Some("mineSpruceLogs")),
            event("Mine 1 gravel", "failed", Some("mineGravel")),
            event("Mine 2 dirt", "succeeded", Some("mineDirt")),
            event("Mine 1 sand", "succeeded", Some("removedSince")),
        ] {
            checkpoint.log(&e).unwrap();
        }
        // Logs of no named kind: the kind the run got.
        let mut logs = event("Mine 2 wood logs", "succeeded", Some("mineLogs"));
        logs.changed = vec!["dug 2 birch_log (1 64 2, 1 65 2); items +2 birch_log, -1 stick".into()];
        let logs_dir = crate::test_dir("curriculum-learned-logs");
        let wanting = Checkpoint::open(&logs_dir);
        wanting.log(&logs).unwrap();
        let library = vec![skill("mineLogs", &[], "Mine 2 wood logs")];
        assert_eq!(learned_here(&wanting, &library), vec![("mineLogs()".to_owned(), "birch_log".to_owned())]);
        let library =
            vec![skill("mineSpruceLogs", &["count"], "Mine 3 spruce_log"), skill("mineDirt", &[], "Mine 2 dirt")];
        // Newest first; a failed task's skill and one no longer in the library are not offered.
        let learned = learned_here(&checkpoint, &library);
        assert_eq!(
            learned,
            vec![
                ("mineDirt()".to_owned(), "dirt".to_owned()),
                ("mineSpruceLogs(count)".to_owned(), "spruce_log".to_owned())
            ]
        );
        let carried: std::collections::HashMap<String, i32> = [("oak_log".to_owned(), 1)].into();
        let built = builds_on(&carried, false, &learned, &library, &[]);
        // Spruce things need the learned log; oak things the carried log already makes are not among them.
        assert!(built.iter().any(|b| b.item.starts_with("spruce_") && b.call == "mineSpruceLogs(count)"), "{built:?}");
        assert!(!built.iter().any(|b| b.item.starts_with("oak_") || b.item == "stick"), "{built:?}");
        let spruce = built.iter().find(|b| b.got == "spruce_log").unwrap();
        assert_eq!(spruce.to_string(), format!("{} (mineSpruceLogs(count) gets the spruce_log)", spruce.item));
        // A proposal to make it is told to call the skill.
        let mut checkpoint = checkpoint;
        checkpoint.tasks.completed.push("Mine 1 wood log".into());
        let answer = format!("{{\"task\": \"Craft 1 {}\"}}", spruce.item);
        let spec = proposal(&answer, &checkpoint, None, &library, &built, None).unwrap();
        assert!(
            spec.context.contains("mineSpruceLogs(count), a skill learned earlier, gets spruce_log"),
            "{}",
            spec.context
        );
        let other = proposal("{\"task\": \"Craft 1 oak_planks\"}", &checkpoint, None, &library, &built, None).unwrap();
        assert!(!other.context.contains("learned earlier"), "{}", other.context);
    }

    fn skill(name: &str, params: &[&str], task: &str) -> std::sync::Arc<crate::skills::Skill> {
        crate::skills::Skill::learned_for(name, params, task)
    }

    /// A build is offered only when its craft's calls call the learned skill: planks by a learned planks skill need a
    /// log, which the starter's log skill gets (a learning run's first task had spent the one it got); with no skill
    /// that gets a log, nothing is built on the planks skill.
    #[test]
    fn a_build_is_offered_only_when_its_calls_reach_the_learned_skill() {
        let starter =
            crate::skills::SkillLibrary::open(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills")).0.list();
        let planks = skill("craftSprucePlanks", &[], "Craft 1 spruce_planks");
        let learned = vec![("craftSprucePlanks()".to_owned(), "spruce_planks".to_owned())];
        let carried: std::collections::HashMap<String, i32> = [("spruce_planks".to_owned(), 4)].into();
        let alone = builds_on(&carried, false, &learned, std::slice::from_ref(&planks), &[]);
        assert_eq!(alone, Vec::new());
        let library: Vec<_> = starter.iter().cloned().chain([planks]).collect();
        let built = builds_on(&carried, false, &learned, &library, &[]);
        assert!(!built.is_empty(), "{built:?}");
        let getters = super::super::recipes::Getter::in_library(&library);
        for b in &built {
            let calls = super::super::recipes::craft_calls(&format!("Craft 1 {}", b.item), &carried, false, &getters)
                .unwrap()
                .join("; ");
            assert!(calls.contains("mineWoodLog(1); craftSprucePlanks();"), "{}: {calls}", b.item);
        }
    }

    #[test]
    fn an_untried_thing_makes_a_tracked_task() {
        let coal = untried_spec("coal_ore").unwrap();
        assert_eq!(coal.task, "Mine 1 coal_ore");
        assert_eq!(coal.tracker, Some(Tracker::Craft { item: "coal".into(), count: 1 }));
        let sheep = untried_spec("sheep").unwrap();
        assert_eq!(sheep.task, "Kill 1 sheep");
        assert_eq!(sheep.tracker, Some(Tracker::Kill { mob: "sheep".into(), count: 1 }));
    }

    #[test]
    fn what_is_in_sight_and_untried_is_suggested() {
        let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let blocks = strings(&["stone", "dirt", "iron_ore", "deepslate_iron_ore", "coal_ore", "oak_log", "sand"]);
        let mobs = strings(&["sheep", "cow", "sheep"]);
        let tasks = strings(&["Mine 3 iron_ore", "Kill 1 cow"]);
        let tasks: Vec<&String> = tasks.iter().collect();
        assert_eq!(untried(&blocks, &mobs, &tasks), ["coal_ore", "oak_log", "sand", "sheep"]);
        assert_eq!(untried(&blocks, &[], &[]), ["iron_ore", "deepslate_iron_ore", "coal_ore", "oak_log", "sand"]);
    }

    #[test]
    fn a_task_the_library_does_calls_its_skill() {
        let library = [
            skill("craftWoodenPickaxe", &[], ""),
            skill("mineWoodLog", &["count"], ""),
            skill("craftTorches", &["count"], ""),
            skill("huntAnimal", &["animal", "count"], ""),
            skill("killPig", &[], ""),
            skill("fetchWater", &[], "Fill 1 bucket with water"),
        ];
        let call = |task: &str| skill_call(task, None, &library, 0);
        assert_eq!(call("Craft 1 wooden_pickaxe").as_deref(), Some("craftWoodenPickaxe();"));
        assert_eq!(call("Mine 3 wood log").as_deref(), Some("mineWoodLog(3);"));
        assert_eq!(call("Craft 8 torch").as_deref(), Some("craftTorches(8);"));
        assert_eq!(call("Kill 2 pig").as_deref(), Some("for _ in 0..2 {\n    killPig();\n}"));
        assert_eq!(call("fill 1 bucket with water").as_deref(), Some("fetchWater();"));
        // Not one of the library's, or a skill whose values the task does not give.
        assert_eq!(call("Craft 1 stone_pickaxe"), None);
        assert_eq!(call("Hunt 1 animal"), None);
        // Named for what the task's tracker counts: smelting iron ore is counted in iron ingots.
        let smelt = [skill("smeltIronIngot", &["count"], "")];
        let ingots = Tracker::Craft { item: "iron_ingot".into(), count: 3 };
        assert_eq!(skill_call("Smelt 3 iron_ore", Some(&ingots), &smelt, 0).as_deref(), Some("smeltIronIngot(3);"));
        assert_eq!(skill_call("Smelt 3 iron_ore", None, &smelt, 0), None);
        // A skill that makes sure of at least its count is asked for what is carried more.
        let sticks = [std::sync::Arc::new({
            let mut made = std::sync::Arc::into_inner(skill("craftSticks", &["count"], "")).unwrap();
            made.meta.description = "Crafts sticks until the bot carries at least count sticks.".into();
            made
        })];
        let gain = Tracker::Craft { item: "stick".into(), count: 1 };
        assert_eq!(skill_call("Craft 1 stick", Some(&gain), &sticks, 4).as_deref(), Some("craftSticks(5);"));
        assert_eq!(skill_call("Smelt 3 iron_ore", Some(&ingots), &smelt, 2).as_deref(), Some("smeltIronIngot(3);"));
        // One that returns early when one is carried makes one at most, and only when none is carried.
        let pickaxe = [std::sync::Arc::new({
            let mut made = std::sync::Arc::into_inner(skill("craftIronPickaxe", &[], "")).unwrap();
            made.code = "fn craftIronPickaxe() {\n    if inventoryCount(\"iron_pickaxe\") > 0 { return 1; }\n}".into();
            made
        })];
        let one = |count: u32| Tracker::Craft { item: "iron_pickaxe".into(), count };
        assert_eq!(
            skill_call("Craft 1 iron_pickaxe", Some(&one(1)), &pickaxe, 0).as_deref(),
            Some("craftIronPickaxe();")
        );
        assert_eq!(skill_call("Craft 1 iron_pickaxe", Some(&one(1)), &pickaxe, 1), None);
        assert_eq!(skill_call("Craft 2 iron_pickaxe", Some(&one(2)), &pickaxe, 0), None);
        let kills = Tracker::Kill { mob: "iron_ingot".into(), count: 3 };
        assert_eq!(skill_call("Smelt 3 iron_ore", Some(&kills), &smelt, 0), None);
        assert_eq!(skill_names(&library[..2]), "craftWoodenPickaxe, mineWoodLog");
        assert_eq!(skill_names(&[]), "none yet");
    }

    #[test]
    fn a_thing_the_overworld_never_gives_is_sent_back_with_why() {
        let checkpoint = Checkpoint::open(std::env::temp_dir().join("wayfarer-curriculum-never"));
        let star = proposal("{\"task\": \"Obtain 1 nether_star\"}", &checkpoint, None, &[], &[], None).unwrap_err();
        assert_eq!(
            star,
            "\"Obtain 1 nether_star\" cannot be done: it only comes from killing the wither; propose something this \
             world gives, such as something craftable now"
        );
    }

    #[test]
    fn a_thing_far_from_what_is_carried_is_sent_back_with_a_nearer_step() {
        use crate::agent::recipes::Setting;
        let checkpoint = Checkpoint::open(std::env::temp_dir().join("wayfarer-curriculum-far"));
        let carrying = |items: &[(&str, i32)]| Setting {
            carried: items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect(),
            table_near: true,
            furnace_near: true,
            wood: "spruce".into(),
            ..Setting::default()
        };
        let block = "{\"task\": \"Craft 1 iron_block\"}";
        // Three raw iron carried: six more ores to find.
        let iron = carrying(&[("raw_iron", 3), ("stone_pickaxe", 1), ("coal", 3)]);
        let far = proposal(block, &checkpoint, None, &[], &[], Some(&iron)).unwrap_err();
        assert!(
            far.starts_with(
                "\"Craft 1 iron_block\" is too far from what the player has for one task: it takes 3 steps and 6 ore \
                 to find (Mine iron_ore for 6 raw_iron, "
            ),
            "{far}"
        );
        assert!(far.ends_with("such as its first step \"Mine 6 iron_ore\" or something craftable now"), "{far}");
        // Unless a skill learned here gets what it needs.
        let built = [Built { item: "iron_block".into(), call: "mineIron(count)".into(), got: "raw_iron".into() }];
        assert!(proposal(block, &checkpoint, None, &[], &built, Some(&iron)).is_ok());
        // Eight raw iron: one more ore is near enough.
        let nearly = carrying(&[("raw_iron", 8), ("stone_pickaxe", 1), ("coal", 3)]);
        assert!(proposal(block, &checkpoint, None, &[], &[], Some(&nearly)).is_ok());
        // Eight steps from a wooden pickaxe to an iron one (with a furnace near).
        let pickaxe = "{\"task\": \"Craft 1 iron_pickaxe\"}";
        let wooden = carrying(&[("wooden_pickaxe", 1)]);
        let far = proposal(pickaxe, &checkpoint, None, &[], &[], Some(&wooden)).unwrap_err();
        assert!(far.contains("it takes 8 steps and 3 ore to find"), "{far}");
        assert!(far.contains("its first step \"Mine 3 stone\""), "{far}");
        // From ingots it is near; and a skill that makes it by itself is reused, however far.
        let ingots = carrying(&[("iron_ingot", 3), ("stick", 2)]);
        assert!(proposal(pickaxe, &checkpoint, None, &[], &[], Some(&ingots)).is_ok());
        let library = [skill("craftIronPickaxe", &[], "Craft 1 iron_pickaxe")];
        assert!(proposal(pickaxe, &checkpoint, None, &library, &[], Some(&wooden)).is_ok());
        // A bowl from a log is four steps, all crafting.
        let log = carrying(&[("spruce_log", 1)]);
        assert!(proposal("{\"task\": \"Craft 1 bowl\"}", &checkpoint, None, &[], &[], Some(&log)).is_ok());
        // A second wooden pickaxe teaches nothing; sticks beside those carried do.
        let second = proposal("{\"task\": \"Craft 1 wooden_pickaxe\"}", &checkpoint, None, &[], &[], Some(&wooden));
        assert_eq!(
            second.unwrap_err(),
            "the player already has a wooden_pickaxe; propose something it lacks, such as something craftable now"
        );
        let planks = carrying(&[("spruce_planks", 2), ("stick", 2)]);
        assert!(proposal("{\"task\": \"Craft 4 stick\"}", &checkpoint, None, &[], &[], Some(&planks)).is_ok());
        // Fifteen iron ores are too many for one task, though the library's skill mines them; five are not.
        let library = [skill("mineIronOre", &["count"], "")];
        let many = proposal("{\"task\": \"Mine 15 iron_ore\"}", &checkpoint, None, &library, &[], Some(&wooden));
        assert_eq!(
            many.unwrap_err(),
            "\"Mine 15 iron_ore\" is too many for one task: iron_ore lies scattered underground; propose at most 5, or \
             something craftable now"
        );
        assert!(proposal("{\"task\": \"Mine 5 iron_ore\"}", &checkpoint, None, &library, &[], Some(&wooden)).is_ok());
        assert!(proposal("{\"task\": \"Mine 15 stone\"}", &checkpoint, None, &library, &[], Some(&wooden)).is_ok());
    }

    #[test]
    fn a_third_task_in_a_row_the_library_does_alone_is_sent_back() {
        let dir = crate::test_dir("curriculum-routine");
        let checkpoint = Checkpoint::open(&dir);
        let library = [skill("mineIronOre", &["count"], ""), skill("mineDirt", &[], "Mine 1 dirt")];
        let ore = "{\"task\": \"Mine 2 iron_ore\"}";
        let done = |task: &str, attempts: u64, skill: Option<&str>| crate::agent::checkpoint::TaskEvent {
            time: "t".into(),
            task: task.into(),
            outcome: "succeeded".into(),
            skill: skill.map(str::to_owned),
            used: Vec::new(),
            reason: String::new(),
            attempts,
            calls: attempts,
            tokens: 1,
            voyager_calls: 1,
            roles: Default::default(),
            cost: None,
            changed: Vec::new(),
        };
        checkpoint.log(&done("Mine 1 wood log", 0, None)).unwrap();
        checkpoint.log(&done("Mine 1 dirt", 1, Some("mineDirt"))).unwrap();
        checkpoint.log(&done("Mine 1 coal_ore", 0, None)).unwrap();
        assert!(proposal(ore, &checkpoint, None, &library, &[], None).is_ok(), "one of the last two wrote code");
        checkpoint.log(&done("Mine 3 coal_ore", 0, None)).unwrap();
        let refused = proposal(ore, &checkpoint, None, &library, &[], None).unwrap_err();
        assert_eq!(
            refused,
            "the library's skill already does \"Mine 2 iron_ore\" (mineIronOre(2)), and the last 2 tasks were done by \
             the library's skills too; propose something no skill does yet, such as something craftable now"
        );
        // Something no skill does is welcome, and so is a skill learned in this run, done again.
        assert!(proposal("{\"task\": \"Craft 1 bowl\"}", &checkpoint, None, &library, &[], None).is_ok());
        assert!(proposal("{\"task\": \"Mine 2 dirt\"}", &checkpoint, None, &library, &[], None).is_ok());
    }

    #[test]
    fn proposals_must_be_new_and_well_formed() {
        let mut checkpoint = Checkpoint::open(std::env::temp_dir().join("wayfarer-curriculum-unused"));
        checkpoint.tasks.completed.push("Mine 1 wood log".into());
        let spec = proposal(
            "{\"reasoning\": \"planks next\", \"task\": \"Craft  4 oak_planks\", \"context\": \"from the log\", \
             \"tracker\": {\"type\": \"craft\", \"item\": \"oak_planks\", \"count\": 4}}",
            &checkpoint,
            None,
            &[],
            &[],
            None,
        )
        .unwrap();
        assert_eq!(spec.task, "Craft 4 oak_planks");
        assert!(matches!(spec.tracker, Some(Tracker::Craft { count: 4, .. })));
        assert!(
            proposal("{\"task\": \"mine 1 WOOD log\"}", &checkpoint, None, &[], &[], None)
                .unwrap_err()
                .contains("already completed")
        );
        assert!(
            proposal("I think you should mine", &checkpoint, None, &[], &[], None)
                .unwrap_err()
                .contains("no JSON object")
        );
        let quoted_first = "Not {\"task\": \"Mine 1 wood log\"} again; instead {\"task\": \"Craft 1 crafting_table\"}";
        assert_eq!(proposal(quoted_first, &checkpoint, None, &[], &[], None).unwrap().task, "Craft 1 crafting_table");
        assert!(
            proposal("{\"task\": \"x\", \"tracker\": {\"type\": \"inventory\"}}", &checkpoint, None, &[], &[], None)
                .unwrap_err()
                .contains("invalid tracker")
        );
    }

    #[test]
    fn a_task_is_tracked_by_its_words_and_not_proposed_after_failing_twice() {
        let dir = crate::test_dir("curriculum-repeats");
        let mut checkpoint = Checkpoint::open(&dir);
        let pickaxes = "{\"task\": \"Craft 2 iron_pickaxe\", \"tracker\": {\"type\": \"inventory\", \"item\": \"stick\", \
                        \"count\": 4}}";
        let spec = proposal(pickaxes, &checkpoint, None, &[], &[], None).unwrap();
        assert_eq!(spec.tracker, Some(Tracker::Craft { item: "iron_pickaxe".into(), count: 2 }));
        let ore = "{\"task\": \"Mine 1 iron_ore\", \"tracker\": {\"type\": \"inventory\", \"item\": \"stick\", \"count\": 4}}";
        assert_eq!(
            proposal(ore, &checkpoint, None, &[], &[], None).unwrap().tracker,
            Some(Tracker::Craft { item: "raw_iron".into(), count: 1 })
        );
        // Mining iron ore carries raw iron, not the ore; a tracker counting more than the task says is not kept.
        let carried = "{\"task\": \"Mine 3 iron_ore\", \"tracker\": {\"type\": \"inventory\", \"item\": \"iron_ore\", \"count\": 3}}";
        assert_eq!(
            proposal(carried, &checkpoint, None, &[], &[], None).unwrap().tracker,
            Some(Tracker::Craft { item: "raw_iron".into(), count: 3 })
        );
        // Logs of no named kind: any kind counts.
        let logs = "{\"task\": \"Mine 2 wood logs\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}}";
        match proposal(logs, &checkpoint, None, &[], &[], None).unwrap().tracker {
            Some(Tracker::Any { of }) => {
                assert_eq!(of.len(), WOOD_LOGS.len());
                assert!(of.contains(&Tracker::Craft { item: "spruce_log".into(), count: 2 }), "{of:?}");
            }
            other => panic!("{other:?}"),
        }
        let more = "{\"task\": \"Get 3 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 10}}";
        assert_eq!(
            proposal(more, &checkpoint, None, &[], &[], None).unwrap().tracker,
            Some(Tracker::Craft { item: "oak_log".into(), count: 3 })
        );
        // A tracker about the task's own item and count stays as proposed.
        let own = "{\"task\": \"Get 3 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 3}}";
        assert!(matches!(
            proposal(own, &checkpoint, None, &[], &[], None).unwrap().tracker,
            Some(Tracker::Inventory { count: 3, .. })
        ));
        let failed = |task: &str| crate::agent::checkpoint::TaskEvent {
            time: "t".into(),
            task: task.into(),
            outcome: "failed".into(),
            skill: None,
            used: Vec::new(),
            reason: "no iron_ingot".into(),
            attempts: 4,
            calls: 4,
            tokens: 1,
            voyager_calls: 8,
            roles: Default::default(),
            cost: None,
            changed: Vec::new(),
        };
        checkpoint.log(&failed("Craft 2 iron_pickaxe")).unwrap();
        assert!(proposal(pickaxes, &checkpoint, None, &[], &[], None).is_ok(), "one failure is not a loop");
        let mut between = failed("Mine 1 more iron_ore");
        between.outcome = "succeeded".into();
        checkpoint.log(&between).unwrap();
        checkpoint.log(&failed("Craft 2 iron_pickaxe")).unwrap();
        let refused = proposal(pickaxes, &checkpoint, None, &[], &[], None).unwrap_err();
        assert!(refused.contains("failed 2 times in this run already (the last time: no iron_ingot)"), "{refused}");
        assert!(proposal(own, &checkpoint, None, &[], &[], None).is_ok());

        // A thing the game lacks, of a kind it has; a loose name is read loosely.
        let planks = proposal("{\"task\": \"Craft 2 iron_planks\"}", &checkpoint, None, &[], &[], None).unwrap_err();
        assert!(planks.starts_with("the game has no iron_planks (things like it: "), "{planks}");
        assert!(planks.ends_with("); propose a task naming a thing the game has"), "{planks}");
        assert!(proposal("{\"task\": \"Mine 3 wood_log\"}", &checkpoint, None, &[], &[], None).is_ok());
        // The same task with another count is done already.
        checkpoint.tasks.completed.push("Mine 3 gold_ore".into());
        let again = proposal("{\"task\": \"Mine 4 gold_ore\"}", &checkpoint, None, &[], &[], None).unwrap_err();
        assert!(again.contains("is the completed \"Mine 3 gold_ore\" with another count"), "{again}");
        assert!(proposal("{\"task\": \"Smelt 4 gold_ore\"}", &checkpoint, None, &[], &[], None).is_ok());
        // A thing no recipe makes is not crafted.
        let ore = proposal("{\"task\": \"Craft 2 iron_ore\"}", &checkpoint, None, &[], &[], None).unwrap_err();
        assert_eq!(ore, "no recipe makes iron_ore (it is mined: \"Mine 2 iron_ore\"); propose a task the game allows");
        let ingot = proposal("{\"task\": \"Craft 1 glass\"}", &checkpoint, None, &[], &[], None).unwrap_err();
        assert!(ingot.contains("a furnace makes it from sand: \"Smelt 1 sand\""), "{ingot}");
        // Once, a library skill that does it alone may do it again with another count.
        let miner = [skill("mineGoldOre", &["count"], "")];
        assert!(proposal("{\"task\": \"Mine 4 gold_ore\"}", &checkpoint, None, &miner, &[], None).is_ok());
        checkpoint.tasks.completed.push("Mine 4 gold_ore".into());
        let twice = proposal("{\"task\": \"Mine 5 gold_ore\"}", &checkpoint, None, &miner, &[], None).unwrap_err();
        assert!(twice.contains("with another count"), "{twice}");

        // A block to mine must be near or remembered (a deepslate ore counts as its plain one); a task naming no
        // block by name is not held to it.
        let oak = "{\"task\": \"Mine 2 oak_log\"}";
        let near = "stone spruce_log deepslate_iron_ore - I found 3 coal_ore at 1 2 3";
        let refused = proposal(oak, &checkpoint, Some(near), &[], &[], None).unwrap_err();
        assert!(refused.starts_with("there is no oak_log near the player"), "{refused}");
        assert!(proposal("{\"task\": \"Mine 2 spruce_log\"}", &checkpoint, Some(near), &[], &[], None).is_ok());
        assert!(proposal("{\"task\": \"Mine 2 iron_ore\"}", &checkpoint, Some(near), &[], &[], None).is_ok());
        assert!(proposal("{\"task\": \"Mine 2 coal_ore\"}", &checkpoint, Some(near), &[], &[], None).is_ok());
        assert!(proposal("{\"task\": \"Mine 2 wood log\"}", &checkpoint, Some(near), &[], &[], None).is_ok());
    }
}
