//! What a learned skill is called and whether it is worth keeping: a meaningful camelCase name (the model's own
//! unless it is a placeholder or another skill's), no skill that only calls one other, no near-copy of a skill the
//! library has, no skill whose side effects are not what its task asks for, and a description in a later query's
//! words.
//!
//! Pure text in, decisions out: the library and the run come in as plain values.

use std::collections::{BTreeMap, BTreeSet};

/// Names a model gives when it does not name the function for what it does (from answer formats and habits).
const PLACEHOLDERS: &[&str] = &[
    "doTheTask",
    "doTask",
    "task",
    "main",
    "run",
    "solve",
    "solution",
    "performTask",
    "completeTask",
    "execute",
    "myFunction",
    "func",
    "function",
    "skill",
    "mySkill",
    "newSkill",
    "doIt",
    "start",
    "action",
    "test",
    "example",
];

/// Whether `name` says nothing of what the function does (`doTheTask`, `doTheTaskV2`, `main`, `f1`).
pub fn is_placeholder(name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let base = base.strip_suffix('V').unwrap_or(base);
    PLACEHOLDERS.iter().any(|p| p.eq_ignore_ascii_case(base)) || base.len() <= 2
}

/// Words a task name leaves out.
const FILLER: &[&str] = &["a", "an", "the", "some", "of", "to", "with", "and", "more", "new", "any"];
/// Materials English does not count, which keep their name for any number (`digDirt`, not `digDirts`).
const UNCOUNTED: &[&str] = &[
    "dirt",
    "cobblestone",
    "stone",
    "sand",
    "gravel",
    "glass",
    "wool",
    "clay",
    "snow",
    "coal",
    "wheat",
    "string",
    "leather",
    "gunpowder",
    "bread",
    "iron",
    "gold",
    "copper",
    "netherrack",
    "obsidian",
    "deepslate",
    "granite",
    "diorite",
    "andesite",
    "mud",
    "ice",
];
/// Verbs whose "X into Y" names what they make.
const MAKING: &[&str] = &["smelt", "cook", "craft", "make", "turn", "bake"];
/// Words that start where a task's thing goes, which its name leaves out.
const WHERE: &[&str] =
    &["next", "on", "in", "at", "around", "near", "beside", "onto", "under", "inside", "into", "from"];
/// Verbs of going somewhere, whose place is what the task is about.
const MOVING: &[&str] = &["go", "stand", "walk", "step", "climb", "come", "run", "move", "get"];

/// A camelCase name for a task: `Mine 2 oak_log` → `mineOakLogs`, `Mine iron_ore for 3 raw_iron` → `mineIronOre`,
/// `Smelt raw_iron into 3 iron_ingot` → `smeltIronIngots`, `Kill 1 pig` → `killPig`.
pub fn name_for_task(task: &str) -> String {
    let lower = task.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
    // "Smelt X into N Y": named for what it makes; "Mine X for N Y": for what it mines.
    let cut = |word: &str| words.iter().position(|w| *w == word);
    let makes = words.first().is_some_and(|w| MAKING.contains(w));
    let kept: Vec<&str> = match (cut("into"), cut("for")) {
        (Some(i), _) if makes => words[..1].iter().chain(&words[i + 1..]).copied().collect(),
        (None, Some(i)) if i > 1 => words[..i].to_vec(),
        _ => words,
    };
    // Where the thing goes is not what the skill is: `build a pillar of 3 dirt blocks next to you` →
    // `buildPillarDirtBlocks` (but `go stand on the gold block` keeps its place: the place is the whole task).
    let kept: Vec<&str> = match kept.iter().position(|w| WHERE.contains(w)) {
        Some(i) if i >= 2 && !kept[..i].iter().all(|w| MOVING.contains(w) || FILLER.contains(w)) => kept[..i].to_vec(),
        _ => kept,
    };
    let count = kept.iter().find_map(|w| w.parse::<u32>().ok()).unwrap_or(1);
    // The word the count counts (`3 blocks long`: blocks), which alone takes a plural, when it ends the name.
    let counted = kept
        .iter()
        .skip_while(|w| w.parse::<u32>().is_err())
        .skip(1)
        .find(|w| !FILLER.contains(w))
        .and_then(|w| w.rsplit('_').next());
    let mut parts: Vec<String> = Vec::new();
    for part in kept.iter().filter(|w| w.parse::<u32>().is_err() && !FILLER.contains(w)).flat_map(|w| w.split('_')) {
        if !part.is_empty() && !parts.iter().any(|p| p == part) && parts.len() < 6 {
            parts.push(part.to_owned());
        }
    }
    let mut name = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            name.push_str(part);
        } else {
            let mut chars = part.chars();
            if let Some(first) = chars.next() {
                name.extend(first.to_uppercase());
                name.push_str(chars.as_str());
            }
        }
    }
    let mass = counted.is_some_and(|w| UNCOUNTED.contains(&w));
    if count > 1 && parts.len() > 1 && !name.ends_with('s') && !mass && parts.last().map(String::as_str) == counted {
        name.push('s');
    }
    if name.is_empty() {
        return "learnedSkill".to_owned();
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "do");
    }
    if crate::script::bindings::FUNCTIONS.contains(&name.as_str()) {
        // `Shear sheep for 2 white_wool` would be named as the primitive it calls, which a script may not define.
        name.push_str("Task");
    }
    name
}

/// The name to store a learned function under: the model's own, unless it is a placeholder or a skill the library
/// keeps for another task (`existing_task(name)` gives that skill's task); then one made from the task.
pub fn choose_name(written: &str, task: &str, existing_task: impl Fn(&str) -> Option<String>) -> String {
    let ours = |name: &str| existing_task(name).is_none_or(|other| other.eq_ignore_ascii_case(task));
    if !is_placeholder(written) && ours(written) {
        return written.to_owned();
    }
    name_for_task(task)
}

/// The one skill a function does nothing but call (`fn x() { mineWoodLog(2) }`), if that is all it does.
pub fn only_calls(code: &str, main: &str, is_skill: impl Fn(&str) -> bool) -> Option<String> {
    let body = function_body(code, main)?;
    let statements: Vec<&str> =
        body.split([';', '\n']).map(str::trim).filter(|s| !s.is_empty() && !s.starts_with("//")).collect();
    let [only] = statements.as_slice() else { return None };
    let call = only.strip_prefix("return ").unwrap_or(only).trim();
    let name: String = call.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let rest = call[name.len()..].trim_start();
    (is_skill(&name) && rest.starts_with('(') && rest.ends_with(')')).then_some(name)
}

/// The text between the braces of `fn name(…) { … }` in `code`.
fn function_body<'a>(code: &'a str, name: &str) -> Option<&'a str> {
    let start = code.find(&format!("fn {name}("))?;
    let open = start + code[start..].find('{')?;
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&code[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// How alike two programs are, 0 to 1: the overlap of their words and literals (identifiers, strings, numbers),
/// with each program's own function name left out.
pub fn code_similarity(a: &str, a_name: &str, b: &str, b_name: &str) -> f64 {
    let tokens = |code: &str, name: &str| -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        let code: String = code.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
        for token in
            code.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|t| !t.is_empty() && *t != name)
        {
            *counts.entry(token.to_owned()).or_insert(0) += 1;
        }
        counts
    };
    let (a, b) = (tokens(a, a_name), tokens(b, b_name));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let (mut shared, mut all) = (0usize, 0usize);
    for key in keys {
        let (x, y) = (a.get(key).copied().unwrap_or(0), b.get(key).copied().unwrap_or(0));
        shared += x.min(y);
        all += x.max(y);
    }
    if all == 0 { 1.0 } else { shared as f64 / all as f64 }
}

/// Above this [`code_similarity`], a new skill is the same as an old one.
pub const SAME_CODE: f64 = 0.85;

/// The inventory changes (`deltas`) outside `related` (the task's item and everything on the way to it: ingredients,
/// tools, fuel), as `+4 oak_planks, -1 coal`; `None` when the run only touched related items.
pub fn side_effects(deltas: &[(String, i64)], related: &BTreeSet<String>) -> Option<String> {
    let stray: Vec<String> = deltas
        .iter()
        .filter(|(name, delta)| *delta != 0 && !related.contains(name))
        .map(|(name, delta)| format!("{delta:+} {name}"))
        .collect();
    (!stray.is_empty()).then(|| stray.join(", "))
}

/// A description fit for the index: the model's own unless it talks about the code instead of what it does
/// (names the function, "the function … is called", the inventory), else one made from the task.
pub fn usable_description(written: Option<&str>, main: &str) -> Option<String> {
    let written = written?.trim();
    let lower = written.to_lowercase();
    let about_code = written.contains(main)
        || written.contains('`')
        || lower.starts_with("the function")
        || lower.starts_with("this function is called")
        || lower.contains("is called, which")
        || lower.contains("inventory:");
    (!about_code && !written.is_empty()).then(|| written.to_owned())
}

/// A description made from the task, in its own words: `Mine 2 oak_log` → `Mine 2 oak log.`
pub fn description_from_task(task: &str) -> String {
    let text = task.replace('_', " ");
    let text = text.trim().trim_end_matches('.');
    format!("{text}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_recognised() {
        for name in ["doTheTask", "doTheTaskV2", "main", "task3", "f", "myFunction"] {
            assert!(is_placeholder(name), "{name}");
        }
        for name in ["mineOakLogs", "craftShears", "mineWoodLog", "smeltIronIngot"] {
            assert!(!is_placeholder(name), "{name}");
        }
    }

    #[test]
    fn names_come_from_the_task() {
        assert_eq!(name_for_task("Mine 2 oak_log"), "mineOakLogs");
        // Never a primitive's own name.
        assert_eq!(name_for_task("Shear sheep for 2 white_wool"), "shearSheepTask");
        assert_eq!(name_for_task("Milk a cow for 1 milk_bucket"), "milkCowTask");
        assert_eq!(name_for_task("Mine 1 oak_log"), "mineOakLog");
        assert_eq!(name_for_task("Craft 1 crafting_table"), "craftCraftingTable");
        assert_eq!(name_for_task("Mine iron_ore for 3 raw_iron"), "mineIronOre");
        assert_eq!(name_for_task("Smelt raw_iron into 3 iron_ingot"), "smeltIronIngots");
        assert_eq!(name_for_task("Kill 1 pig"), "killPig");
        assert_eq!(name_for_task("get 2 oak logs"), "getOakLogs");
        assert_eq!(name_for_task("Build a shelter with a door"), "buildShelterDoor");
        assert_eq!(name_for_task("!!!"), "learnedSkill");
        assert_eq!(name_for_task("3 logs"), "logs");
        // Where it goes is left out; each word once.
        assert_eq!(name_for_task("build a pillar of 3 dirt blocks next to you"), "buildPillarDirtBlocks");
        assert_eq!(name_for_task("put 4 oak planks into the chest next to you"), "putOakPlanks");
        assert_eq!(name_for_task("place a dirt block on top of the gold block"), "placeDirtBlock");
        assert_eq!(
            name_for_task("build a wall of cobblestone 3 blocks long and 2 blocks high"),
            "buildWallCobblestoneBlocksLongHigh"
        );
        assert_eq!(name_for_task("go stand on the gold block"), "goStandOnGoldBlock");
        assert_eq!(name_for_task("Dig 2 dirt"), "digDirt");
        assert_eq!(name_for_task("lay 4 cobblestone in a line on the ground"), "layCobblestone");
        assert_eq!(name_for_task("light up the area around you with 4 torches"), "lightUpArea");
    }

    #[test]
    fn the_models_name_is_kept_unless_it_says_nothing_or_is_taken() {
        let library = |name: &str| (name == "mineWoodLog").then(|| "Mine 1 wood log".to_owned());
        assert_eq!(choose_name("collectLogs", "Mine 2 oak_log", library), "collectLogs");
        assert_eq!(choose_name("doTheTask", "Mine 2 oak_log", library), "mineOakLogs");
        assert_eq!(choose_name("mineWoodLog", "Mine 2 oak_log", library), "mineOakLogs", "another task's skill");
        assert_eq!(
            choose_name("mineWoodLog", "mine 1 wood log", library),
            "mineWoodLog",
            "the same task: a new version"
        );
    }

    #[test]
    fn a_function_that_only_calls_a_skill_is_found_out() {
        let skills = |name: &str| ["mineWoodLog", "craftPlanks"].contains(&name);
        let code = "// gets logs\nfn getLogs() {\n    mineWoodLog(2);\n}\n";
        assert_eq!(only_calls(code, "getLogs", skills), Some("mineWoodLog".to_owned()));
        let code = "fn getLogs() { return mineWoodLog(2) }";
        assert_eq!(only_calls(code, "getLogs", skills), Some("mineWoodLog".to_owned()));
        let code = "fn getLogs() {\n    mineWoodLog(2);\n    craftPlanks(4);\n}";
        assert_eq!(only_calls(code, "getLogs", skills), None, "two calls");
        let code = "fn getLogs() { mineBlock(\"oak_log\", 2) }";
        assert_eq!(only_calls(code, "getLogs", skills), None, "a primitive, not a skill");
    }

    #[test]
    fn near_copies_score_high_and_different_code_low() {
        let a = "fn doTheTask() {\n    craftItem(\"wooden_pickaxe\", 1);\n    mineBlock(\"oak_log\", 1);\n}";
        let b =
            "// again\nfn doTheTaskV2() {\n    craftItem(\"wooden_pickaxe\", 1);\n    mineBlock(\"oak_log\", 1);\n}";
        assert!(code_similarity(a, "doTheTask", b, "doTheTaskV2") > SAME_CODE);
        let c = "fn smeltIron() {\n    smeltItem(\"raw_iron\", \"coal\", 3);\n}";
        assert!(code_similarity(a, "doTheTask", c, "smeltIron") < 0.3);
    }

    #[test]
    fn side_effects_outside_the_task_are_named() {
        let related: BTreeSet<String> = ["oak_log".to_owned()].into();
        let planks = vec![("oak_planks".to_owned(), 4)];
        assert_eq!(side_effects(&planks, &related).as_deref(), Some("+4 oak_planks"));
        let logs = vec![("oak_log".to_owned(), 2)];
        assert_eq!(side_effects(&logs, &related), None);
    }

    #[test]
    fn descriptions_about_the_code_are_replaced() {
        let bad = "The function `doTheTask` is called, which crafts a pickaxe. Inventory: 1 oak_log.";
        assert_eq!(usable_description(Some(bad), "doTheTask"), None);
        let good = "Mines oak logs with bare hands and picks them up.";
        assert_eq!(usable_description(Some(good), "mineOakLogs").as_deref(), Some(good));
        assert_eq!(description_from_task("Mine 2 oak_log"), "Mine 2 oak log.");
    }
}
