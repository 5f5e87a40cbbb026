//! What an action prompt shows for one step: the kind of work the step is (mining, building, going somewhere…), the
//! game functions that kind needs, and a worked example from the library that does the same kind of work.
//!
//! A small model copies the example it is shown: a crafting skill shown for a floor gets a floor of crafting code.
//! And every line of documentation it does not need is prompt it reads slower and mixes up more.

use super::effect::{self, Effect, Shape, Side};

/// The kind of work a step or a skill does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Mine,
    Craft,
    Smelt,
    Kill,
    Place,
    Dig,
    Go,
    Store,
    Give,
    /// Anything else (`Equip iron_helmet`, `Say hello`).
    Other,
}

/// First words of item steps and the kind they are (world verbs are read by [`effect::asked`]).
const ITEM_VERBS: &[(&str, Kind)] = &[
    ("mine", Kind::Mine),
    ("collect", Kind::Mine),
    ("gather", Kind::Mine),
    ("get", Kind::Mine),
    ("chop", Kind::Mine),
    ("harvest", Kind::Mine),
    ("obtain", Kind::Mine),
    ("craft", Kind::Craft),
    ("make", Kind::Craft),
    ("smelt", Kind::Smelt),
    ("cook", Kind::Smelt),
    ("kill", Kind::Kill),
    ("hunt", Kind::Kill),
    ("fight", Kind::Kill),
];

/// The kind of a step, from its words (`is_id`: whether a word is a block or item of the game).
pub fn of_task(task: &str, is_id: impl Fn(&str) -> bool) -> Kind {
    if let Some(asked) = effect::loosely(task, is_id) {
        return match asked.effect {
            Effect::Place => Kind::Place,
            Effect::Dig => Kind::Dig,
            Effect::Go => Kind::Go,
            Effect::Store => Kind::Store,
            Effect::Give => Kind::Give,
        };
    }
    let first = task.split_whitespace().next().unwrap_or_default().to_lowercase();
    ITEM_VERBS.iter().find(|(verb, _)| *verb == first).map_or(Kind::Other, |(_, kind)| *kind)
}

/// Skill names' first words (`buildWall`, `placeTorch`, `digHole`) and the kind they are.
const SKILL_VERBS: &[(&str, Kind)] = &[
    ("mine", Kind::Mine),
    ("collect", Kind::Mine),
    ("gather", Kind::Mine),
    ("get", Kind::Mine),
    ("chop", Kind::Mine),
    ("harvest", Kind::Mine),
    ("craft", Kind::Craft),
    ("make", Kind::Craft),
    ("smelt", Kind::Smelt),
    ("cook", Kind::Smelt),
    ("kill", Kind::Kill),
    ("hunt", Kind::Kill),
    ("build", Kind::Place),
    ("place", Kind::Place),
    ("lay", Kind::Place),
    ("plant", Kind::Place),
    ("light", Kind::Place),
    ("dig", Kind::Dig),
    ("clear", Kind::Dig),
    ("break", Kind::Dig),
    ("go", Kind::Go),
    ("walk", Kind::Go),
    ("stand", Kind::Go),
    ("explore", Kind::Go),
    ("store", Kind::Store),
    ("deposit", Kind::Store),
    ("give", Kind::Give),
    ("deliver", Kind::Give),
];

/// The kind of a skill, from the verb its name starts with.
pub fn of_skill(name: &str) -> Kind {
    let verb: String = name.chars().take_while(|c| c.is_ascii_lowercase()).collect();
    SKILL_VERBS.iter().find(|(v, _)| *v == verb).map_or(Kind::Other, |(_, kind)| *kind)
}

/// The game functions a kind of step needs documented, beyond those every step gets.
pub fn primitives(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Mine => &["mineBlock", "findBlock", "exploreUntil"],
        Kind::Craft => &["craftItem", "mineBlock"],
        Kind::Smelt => &["smeltItem", "craftItem", "mineBlock"],
        Kind::Kill => &["killMob", "nearestEntity"],
        // Not `findFreeSpot`: `placeItem(name)` finds a free spot itself, and the next where one is refused.
        Kind::Place => &["placeItem", "findBlock", "blockAt"],
        Kind::Dig => &["digBlock", "findBlock", "blockAt"],
        Kind::Go => &["goTo", "standOn", "findBlock"],
        // Not `placeItem`, whose example builds a pillar: a store step shown it built one of the planks it was to
        // store. Its own example places a chest where none stands.
        Kind::Store => &["depositItemIntoChest", "findBlock"],
        Kind::Give => &["giveItem", "nearestEntity"],
        Kind::Other => &["mineBlock", "craftItem", "placeItem", "findBlock"],
    }
}

/// What a step of `kind` whose example is `case` needs documented: [`primitives`], less the finding of blocks for a
/// shape built from where the bot stands (their examples look for a crafting table: shown them for a
/// wall, the local model looked for one, threw when none stood near, and sent that code back six times).
pub fn needed(kind: Kind, case: Option<&str>) -> Vec<&'static str> {
    let shaped = matches!(case, Some(A_LINE | A_WALL | A_FLOOR));
    primitives(kind).iter().copied().filter(|name| !(shaped && *name == "findBlock")).collect()
}

/// The call of a skill taking `params` that does what a placing `task` asks, when every parameter is one the words
/// give by its name: a shape (`build a wall of cobblestone 3 blocks long and 2 blocks high` →
/// `buildWall("cobblestone", 3, 2)`) or a block placed against another (`place a dirt block on top of the gold block`
/// → `placeBlockOnTop("dirt", "gold_block")`); `None` otherwise. Shown beside the skill, so a small model that would
/// rewrite it (and break it), or pass it a position for a block's name, sees the one line that does the step.
pub fn step_call(task: &str, skill: &str, params: &[String], is_id: impl Fn(&str) -> bool) -> Option<String> {
    let asked = effect::asked(task, is_id)?;
    if asked.effect != Effect::Place || (asked.shape.is_none() && asked.beside.is_none()) {
        return None;
    }
    let block = asked.thing.as_deref()?;
    let target = asked.beside.as_ref().and_then(|beside| beside.block.as_deref());
    let (long, high, wide) = match asked.shape {
        Some(Shape::Line(n)) => (Some(n), None, None),
        Some(Shape::Column(n)) => (None, Some(n), None),
        Some(Shape::Wall { long, high }) => (Some(long), Some(high), None),
        Some(Shape::Floor { long, wide }) => (Some(long), None, Some(wide)),
        // No library skill's parameters say these shapes.
        Some(Shape::Ring { .. } | Shape::Block { .. } | Shape::Hole(_) | Shape::Pit { .. } | Shape::Around) => {
            return None;
        }
        None => (None, None, None),
    };
    // Each thing the words ask for must be passed: a chest's skill taking nothing does not place it next to a furnace.
    let (mut target_passed, mut number_passed) = (false, false);
    let mut values = Vec::with_capacity(params.len());
    for param in params {
        let value = match param.to_ascii_lowercase().as_str() {
            "block" | "item" | "name" | "material" => format!("\"{block}\""),
            "target" | "base" | "beside" | "on" => {
                target_passed = true;
                format!("\"{}\"", target?)
            }
            "length" | "long" => {
                number_passed = true;
                long?.to_string()
            }
            "height" | "high" => {
                number_passed = true;
                high?.to_string()
            }
            "width" | "wide" => {
                number_passed = true;
                wide?.to_string()
            }
            // A count is the shape's one number: a line's length, a pillar's height.
            "count" | "n" => {
                number_passed = true;
                match (long, high, wide) {
                    (Some(n), None, None) | (None, Some(n), None) => n.to_string(),
                    _ => return None,
                }
            }
            _ => return None,
        };
        values.push(value);
    }
    if (target.is_some() && !target_passed) || (asked.shape.is_some() && !number_passed) {
        return None;
    }
    Some(format!("{skill}({})", values.join(", ")))
}

/// Which of the primitives' examples fits a step (`//# CASE` in `primitives/*.rhai`), from its words: a block placed
/// next to a named one (`next to the stone block`) is shown one found and offset from on its level, a block placed on
/// top of or under one the offset up or down (shown both offsets, a small model set a table asked next to the stone on
/// top of it); blocks in a line, a wall or a floor are shown that shape built (the first example is a pillar, which a
/// small model copied for a line); one block of no shape is shown a free spot found for it; every block of a kind dug
/// (`clear the tall grass`) is shown a loop over those found. Other steps see the first example.
pub fn case(task: &str, is_id: impl Fn(&str) -> bool) -> Option<&'static str> {
    let asked = effect::asked(task, is_id)?;
    match asked.effect {
        Effect::Place if asked.beside.is_some() => Some(match asked.beside?.side {
            Side::NextTo | Side::North | Side::South | Side::East | Side::West => BESIDE_A_BLOCK,
            Side::OnTop => ON_TOP_OF_A_BLOCK,
            Side::Under => UNDER_A_BLOCK,
        }),
        Effect::Place => match asked.shape {
            Some(Shape::Line(_)) => Some(A_LINE),
            Some(Shape::Wall { .. }) => Some(A_WALL),
            Some(Shape::Floor { .. } | Shape::Ring { .. }) => Some(A_FLOOR),
            Some(Shape::Block { .. } | Shape::Hole(_) | Shape::Pit { .. } | Shape::Around) => None,
            // The first example is a pillar.
            Some(Shape::Column(_)) => None,
            // A spot given is aimed at (`Place dirt at 1 64 2`), not a free spot found.
            None if asked.at.is_none() && asked.count.unwrap_or(1) == 1 => Some(ONE_BLOCK),
            None => None,
        },
        Effect::Dig if asked.dug_all().is_some() => Some(BLOCKS_OF_A_KIND),
        _ => None,
    }
}

/// The example cases of a block placed beside a named one: next to it on its level, on top of it, under it.
pub const BESIDE_A_BLOCK: &str = "beside a block";
pub const ON_TOP_OF_A_BLOCK: &str = "on top of a block";
pub const UNDER_A_BLOCK: &str = "under a block";
/// The example case of the blocks of a kind dug.
pub const BLOCKS_OF_A_KIND: &str = "blocks of a kind";
/// The example cases of blocks placed in a shape (a small model copies the pillar it is shown into a line).
pub const A_LINE: &str = "a line";
pub const A_WALL: &str = "a wall";
pub const A_FLOOR: &str = "a floor";
/// The example case of one block placed where there is room (the pillar shown instead was no help for a chest).
pub const ONE_BLOCK: &str = "one block";

/// Whether a skill described as `description` may be shown whole to a step (`task`) by the shape each builds, or the
/// side of a block each places against: a step building a shape is not shown a skill building another (the local
/// model copied a line's skill for a pillar), nor a step placing next to a block one placing on top of one (it copied
/// the dirt set on the gold block for a table asked next to the stone). Else (a shape and a side, or neither) it may.
pub fn shape_fits(task: &str, description: &str, is_id: impl Fn(&str) -> bool) -> bool {
    enum Form {
        Shape(std::mem::Discriminant<Shape>),
        Side(Side),
    }
    let shape = |text: &str| {
        // Descriptions are prose (`…, returning the position of the last block`): read for their shape only.
        let asked = effect::loosely(text, &is_id)?;
        match (asked.shape, asked.beside) {
            (Some(shape), _) => Some(Form::Shape(std::mem::discriminant(&shape))),
            (None, Some(beside)) => Some(Form::Side(beside.side)),
            (None, None) => None,
        }
    };
    // Descriptions say what a skill does (`Lays 4 cobblestone in a line`): read as the verb's plain form too.
    let described = |text: &str| {
        shape(text).or_else(|| {
            let (verb, rest) = text.trim_start().split_once(' ')?;
            shape(&format!("{} {rest}", verb.strip_suffix('s')?))
        })
    };
    match (shape(task), described(description)) {
        (Some(Form::Shape(wanted)), Some(Form::Shape(built))) => wanted == built,
        (Some(Form::Side(wanted)), Some(Form::Side(built))) => wanted == built,
        _ => true,
    }
}

/// The longest description shown beside a skill's signature, in characters.
const DESCRIPTION_CHARS: usize = 120;

/// A skill's description as the skill list shows it: its first sentence, cut at a word near
/// [`DESCRIPTION_CHARS`] when longer.
pub fn short_description(description: &str) -> String {
    let first = description.split_inclusive(". ").next().unwrap_or(description).trim_end();
    if first.chars().count() <= DESCRIPTION_CHARS {
        return first.to_owned();
    }
    let mut cut: String = first.chars().take(DESCRIPTION_CHARS).collect();
    if let Some(space) = cut.rfind(' ') {
        cut.truncate(space);
    }
    format!("{}…", cut.trim_end_matches([',', ';', ':']))
}

/// The longest skill shown whole as the worked example (longer ones are shown by signature only).
pub const EXAMPLE_CHARS: usize = 700;

/// Of skills found for a step of `kind`, best first (name, code), which one to show whole: the first of the same
/// kind short enough to show; for a step of no particular kind, the first short enough. `None`: no code is shown.
pub fn example<'a>(kind: Kind, found: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> Option<usize> {
    let short = |code: &str| code.len() <= EXAMPLE_CHARS;
    let fits = found.clone().into_iter().position(|(name, code)| of_skill(name) == kind && short(code));
    match kind {
        Kind::Other => fits.or_else(|| found.into_iter().position(|(_, code)| short(code))),
        _ => fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of_task_(task: &str) -> Kind {
        of_task(task, crate::agent::act::is_game_id)
    }

    #[test]
    fn steps_and_skills_read_as_kinds_of_work() {
        assert_eq!(of_task_("Mine 3 oak_log"), Kind::Mine);
        assert_eq!(of_task_("Craft 1 wooden_pickaxe"), Kind::Craft);
        assert_eq!(of_task_("Place 4 cobblestone in a line"), Kind::Place);
        assert_eq!(of_task_("build a wall of cobblestone 3 blocks long"), Kind::Place);
        assert_eq!(of_task_("Dig 2 dirt"), Kind::Dig);
        assert_eq!(of_task_("Go stand on gold_block"), Kind::Go);
        assert_eq!(of_task_("Store 4 oak_planks in a chest"), Kind::Store);
        assert_eq!(of_task_("Give 3 bread to Bob"), Kind::Give);
        assert_eq!(of_task_("Cook 2 beef"), Kind::Smelt);
        assert_eq!(of_task_("Equip iron_helmet"), Kind::Other);
        assert_eq!(of_skill("buildFloor"), Kind::Place);
        assert_eq!(of_skill("placeBlockOnTop"), Kind::Place);
        assert_eq!(of_skill("craftWoodenPickaxe"), Kind::Craft);
        assert_eq!(of_skill("standOnBlock"), Kind::Go);
        assert_eq!(of_skill("storeItemsInChest"), Kind::Store);
        assert_eq!(of_skill("wearIronArmor"), Kind::Other);
    }

    #[test]
    fn a_skill_building_another_shape_is_no_example() {
        let fits = |task, description| shape_fits(task, description, crate::agent::act::is_game_id);
        let line = "Lay 4 cobblestones in a line on the ground, returning the position of the last cobblestone placed.";
        assert!(!fits("Build a pillar of 3 dirt blocks next to you", line));
        // As a model describes what it wrote: the line's skill was shown whole to the pillar, and copied.
        let lays = "Lays 4 cobblestone in a line on the ground at a specified position.";
        assert!(!fits("Build a pillar of 3 dirt blocks next to you", lays));
        assert!(!fits("build a wall of cobblestone 3 blocks long and 2 blocks high", "Builds a 2 by 2 floor of dirt."));
        let on_gold = "Place 1 dirt on top of gold_block.";
        assert!(!fits("Place a crafting table next to the stone block", on_gold), "another side");
        assert!(fits("Place a torch on top of the stone block", on_gold));
        assert!(fits("Place 1 crafting_table", on_gold), "a step of no side may see it");
        assert!(fits("lay 6 dirt in a line", line));
        assert!(fits("Place 1 torch", line), "a step of no shape may see any");
        assert!(fits("build a pillar of 3 dirt", "Places a crafting table next to a stone block."));
    }

    #[test]
    fn steps_read_as_the_case_of_their_example() {
        let case_ = |task| case(task, crate::agent::act::is_game_id);
        assert_eq!(case_("place a crafting table next to the stone block"), Some(BESIDE_A_BLOCK));
        assert_eq!(case_("place a dirt block on top of the gold block"), Some(ON_TOP_OF_A_BLOCK));
        assert_eq!(case_("put a torch beside the gold block"), Some(BESIDE_A_BLOCK));
        assert_eq!(case_("place a stone block under the oak planks"), Some(UNDER_A_BLOCK));
        assert_eq!(case_("clear the tall grass around you"), Some(BLOCKS_OF_A_KIND));
        assert_eq!(case_("break the cobblestone wall next to you"), Some(BLOCKS_OF_A_KIND));
        assert_eq!(case_("dig a hole 2 blocks deep next to you"), None);
        assert_eq!(case_("Dig 4 cobblestone"), None, "a count is dug by a count, not every one in reach");
        assert_eq!(case_("Dig the block at 1 63 2"), None);
        assert_eq!(case_("lay 4 cobblestone in a line on the ground"), Some(A_LINE));
        assert_eq!(case_("build a wall of cobblestone 3 blocks long and 2 blocks high"), Some(A_WALL));
        assert_eq!(case_("make a 2 by 2 floor of oak planks"), Some(A_FLOOR));
        assert_eq!(case_("build a pillar of 3 dirt blocks next to you"), None, "the first example is a pillar");
        assert_eq!(case_("Place 3 dirt"), None);
        assert_eq!(case_("Place 1 chest"), Some(ONE_BLOCK));
        assert_eq!(case_("place a crafting table"), Some(ONE_BLOCK));
        assert_eq!(case_("Place 1 chest at 5 64 3"), None, "a spot given is aimed at, not a free spot found");
        assert_eq!(case_("Mine 3 oak_log"), None);
        // Every case named here has its example in primitives/.
        for case in
            [BESIDE_A_BLOCK, ON_TOP_OF_A_BLOCK, UNDER_A_BLOCK, BLOCKS_OF_A_KIND, A_LINE, A_WALL, A_FLOOR, ONE_BLOCK]
        {
            let marker = format!("\n//# {case}\n");
            assert!(crate::agent::prompts::PRIMITIVES.iter().any(|(_, doc)| doc.contains(&marker)), "{case}");
        }
    }

    /// A floor is shown a building skill, not the crafting skill search put first; a step of a kind the library has
    /// no short skill for is shown none.
    #[test]
    fn the_example_does_the_same_kind_of_work() {
        let long = "x".repeat(EXAMPLE_CHARS + 1);
        let found = [
            ("craftWoodenPickaxe", "craftItem(\"x\", 1);"),
            ("mineDiamond", long.as_str()),
            ("buildFloor", "placeItem"),
        ];
        assert_eq!(example(of_task_("make a 2 by 2 floor of oak planks"), found), Some(2));
        assert_eq!(example(Kind::Craft, found), Some(0));
        assert_eq!(example(Kind::Mine, found), None, "the only mining skill is too long to show");
        assert_eq!(example(Kind::Give, found), None);
        assert_eq!(example(Kind::Other, found), Some(0));
    }

    #[test]
    fn a_placing_skill_is_called_with_the_step_s_words() {
        let is_id = crate::agent::act::is_game_id;
        let params = |list: &[&str]| list.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>();
        let wall = "Build a wall of cobblestone 3 blocks long and 2 blocks high";
        let call = step_call(wall, "buildWall", &params(&["block", "length", "height"]), is_id);
        assert_eq!(call.as_deref(), Some("buildWall(\"cobblestone\", 3, 2)"));
        let floor =
            step_call("make a 2 by 3 floor of oak planks", "buildFloor", &params(&["block", "width", "length"]), is_id);
        assert!(floor.as_deref().is_some_and(|c| c.starts_with("buildFloor(\"oak_planks\", ")), "{floor:?}");
        let line = "lay 4 cobblestone in a line on the ground";
        let call = step_call(line, "placeBlocksInLine", &params(&["block", "count"]), is_id);
        assert_eq!(call.as_deref(), Some("placeBlocksInLine(\"cobblestone\", 4)"));
        let pillar = step_call(
            "build a pillar of 3 dirt blocks next to you",
            "buildPillar",
            &params(&["block", "height"]),
            is_id,
        );
        assert_eq!(pillar.as_deref(), Some("buildPillar(\"dirt\", 3)"));
        // A parameter the words do not give, a wall's count, or no shape: no call.
        assert_eq!(step_call(wall, "buildWall", &params(&["block", "length", "start"]), is_id), None);
        assert_eq!(step_call(wall, "buildWall", &params(&["block", "count"]), is_id), None);
        assert_eq!(step_call("Place 1 chest", "placeChest", &[], is_id), None);
        assert_eq!(step_call("place a chest next to the furnace", "placeChest", &[], is_id), None);
        assert_eq!(step_call(wall, "placeBlocks", &params(&["block"]), is_id), None);
        let on_top = "place a dirt block on top of the gold block";
        let call = step_call(on_top, "placeBlockOnTop", &params(&["block", "target"]), is_id);
        assert_eq!(call.as_deref(), Some("placeBlockOnTop(\"dirt\", \"gold_block\")"));
        assert_eq!(
            step_call("lay 4 cobblestone in a line", "placeBlockOnTop", &params(&["block", "target"]), is_id),
            None
        );
        // Shapes built where the bot stands need no block found: their examples would look for a crafting table.
        assert!(!needed(Kind::Place, Some(A_WALL)).contains(&"findBlock"));
        assert!(needed(Kind::Place, Some(BESIDE_A_BLOCK)).contains(&"findBlock"));
        assert!(
            needed(Kind::Place, None).contains(&"placeItem") && !needed(Kind::Place, None).contains(&"findFreeSpot")
        );
    }

    #[test]
    fn descriptions_are_shown_short() {
        assert_eq!(short_description("Mines logs. Then more."), "Mines logs.");
        let long = "Hunts animals of one kind (cow, pig, sheep, chicken or rabbit) with the best weapon until the bot has count more of what they drop";
        let short = short_description(long);
        assert!(short.ends_with("count more of…") && short.chars().count() <= DESCRIPTION_CHARS + 1, "{short}");
        assert_eq!(short_description("Déjà vu → ça"), "Déjà vu → ça");
    }

    /// The action prompt stays under 2 000 tokens (the issue's goal for small models) at its largest: the second
    /// attempt of each world goal and item step, the longest starter skill of the step's kind shown whole, the four
    /// longest signatures beside it, a full observation and the last attempt's code and what it did. Tokens are
    /// counted as characters / 3.4 (Qwen2.5's tokenizer gave 3.6 on these prompts: `tests/llm` measures them).
    #[test]
    fn the_action_prompt_fits_two_thousand_tokens() {
        let dir = crate::crate_dir().join("skills");
        let mut skills: Vec<(String, String, String)> = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rhai") {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                let meta: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(path.with_extension("json")).unwrap()).unwrap();
                let code = std::fs::read_to_string(&path).unwrap();
                skills.push((name, meta["description"].as_str().unwrap().to_owned(), code));
            }
        }
        let line = |(name, description, _): &(String, String, String)| {
            format!("// {name}(): {}", short_description(description))
        };
        let mut lines: Vec<String> = skills.iter().map(line).collect();
        lines.sort_by_key(|l| std::cmp::Reverse(l.len()));
        let goals: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/tasks/world_goals.json")).unwrap();
        let mut steps: Vec<String> =
            goals["tasks"].as_array().unwrap().iter().map(|t| t["goal"].as_str().unwrap().to_owned()).collect();
        steps.extend(
            ["Mine 3 iron_ore", "Craft 1 stone_pickaxe", "Smelt 3 raw_iron", "Kill 1 cow", "Equip iron_helmet"]
                .map(String::from),
        );
        let observation = "x".repeat(900);
        let last_code = format!("```rhai\n{}\n```", "y".repeat(600));
        let feedback = "z".repeat(500);
        for step in &steps {
            let kind = of_task_(step);
            let mut fitting: Vec<&(String, String, String)> =
                skills.iter().filter(|(name, _, code)| of_skill(name) == kind && code.len() <= EXAMPLE_CHARS).collect();
            fitting.sort_by_key(|(_, _, code)| std::cmp::Reverse(code.len()));
            let example = fitting.first().map(|s| format!("{}\n{}", line(s), s.2)).unwrap_or_default();
            let example_code = fitting.first().map(|s| s.2.as_str()).unwrap_or_default();
            let others = lines.iter().filter(|l| !example.starts_with(l.as_str())).take(4).cloned();
            let section = std::iter::once(example.clone()).chain(others).collect::<Vec<_>>().join("\n\n");
            let mut needed = primitives(kind).to_vec();
            needed
                .extend(crate::script::bindings::FUNCTIONS.iter().filter(|f| example_code.contains(&format!("{f}("))));
            let format =
                super::super::prompts::render("action_response_format", &[("name", "doTheStep"), ("body", "// ...")])
                    .unwrap();
            let system = super::super::prompts::render(
                "action_template",
                &[
                    (
                        "primitives",
                        &super::super::prompts::primitives_doc_for(
                            step,
                            &needed,
                            case(step, crate::agent::act::is_game_id),
                        ),
                    ),
                    ("skills", &section),
                    ("response_format", &format),
                ],
            )
            .unwrap();
            let user = super::super::prompts::render(
                "action_task",
                &[
                    ("task", step),
                    ("context", "none"),
                    ("goal", "none"),
                    ("observation", &observation),
                    ("last_code", &last_code),
                    ("feedback", &feedback),
                    ("critique", "none"),
                ],
            )
            .unwrap();
            let tokens = (system.len() + user.len()) as f64 / 3.4;
            assert!(tokens <= 2000.0, "{step:?} ({kind:?}): about {tokens:.0} tokens\n{system}\n{user}");
        }
    }
}
