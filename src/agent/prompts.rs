//! The LLM prompts (`prompts/*.md`, Wayfarer's own wording), compiled into the binary and filled in one place.
//!
//! A prompt names its blanks `{{key}}`. [`render`] fills every one of them and refuses a missing or unknown key,
//! so no prompt ever reaches the model with a hole in it.

/// One prompt and the blanks it has.
#[derive(Debug)]
pub struct Prompt {
    pub name: &'static str,
    pub text: &'static str,
    pub keys: &'static [&'static str],
}

pub const PROMPTS: &[Prompt] = &[
    Prompt {
        name: "action_template",
        text: include_str!("../../prompts/action_template.md"),
        keys: &["primitives", "skills", "response_format"],
    },
    Prompt {
        name: "action_response_format",
        text: include_str!("../../prompts/action_response_format.md"),
        keys: &["name", "body"],
    },
    Prompt {
        name: "action_task",
        text: include_str!("../../prompts/action_task.md"),
        keys: &["task", "context", "goal", "observation", "last_code", "feedback", "critique"],
    },
    Prompt { name: "critic", text: include_str!("../../prompts/critic.md"), keys: &[] },
    Prompt {
        name: "blueprint",
        text: include_str!("../../prompts/blueprint.md"),
        keys: &["words", "named", "max_side", "max_blocks"],
    },
    Prompt {
        name: "critic_task",
        text: include_str!("../../prompts/critic_task.md"),
        keys: &["task", "context", "observation", "result", "chat"],
    },
    Prompt { name: "skill_description", text: include_str!("../../prompts/skill_description.md"), keys: &[] },
    Prompt {
        name: "skill_description_task",
        text: include_str!("../../prompts/skill_description_task.md"),
        keys: &["task", "code"],
    },
    Prompt { name: "curriculum", text: include_str!("../../prompts/curriculum.md"), keys: &[] },
    Prompt {
        name: "curriculum_task",
        text: include_str!("../../prompts/curriculum_task.md"),
        keys: &[
            "observation",
            "completed",
            "failed",
            "answers",
            "memories",
            "persona",
            "skills",
            "untried",
            "craftable",
            "builds_on",
        ],
    },
    Prompt { name: "curriculum_questions", text: include_str!("../../prompts/curriculum_questions.md"), keys: &[] },
    Prompt {
        name: "curriculum_answers",
        text: include_str!("../../prompts/curriculum_answers.md"),
        keys: &["question"],
    },
    Prompt {
        name: "task_decomposition",
        text: include_str!("../../prompts/task_decomposition.md"),
        keys: &["goal", "observation", "memories"],
    },
    Prompt {
        name: "leader",
        text: include_str!("../../prompts/leader.md"),
        keys: &["goal", "members", "plan", "verdicts", "conversation", "memories"],
    },
    Prompt { name: "read_goal", text: include_str!("../../prompts/read_goal.md"), keys: &[] },
    Prompt { name: "memory_importance", text: include_str!("../../prompts/memory_importance.md"), keys: &["memories"] },
    Prompt {
        name: "reflection_questions",
        text: include_str!("../../prompts/reflection_questions.md"),
        keys: &["memories"],
    },
    Prompt {
        name: "reflection_insights",
        text: include_str!("../../prompts/reflection_insights.md"),
        keys: &["questions", "statements"],
    },
    Prompt { name: "translate", text: include_str!("../../prompts/translate.md"), keys: &[] },
    Prompt {
        name: "monitor",
        text: include_str!("../../prompts/monitor.md"),
        keys: &["member", "job", "inventory", "talk"],
    },
];

/// What the LLM is shown about every function it can call: `primitives/NAME.rhai`, in the order scripts use them.
pub const PRIMITIVES: &[(&str, &str)] = &[
    ("position", include_str!("../../primitives/position.rhai")),
    ("inventory", include_str!("../../primitives/inventory.rhai")),
    ("inventoryCount", include_str!("../../primitives/inventoryCount.rhai")),
    ("health", include_str!("../../primitives/health.rhai")),
    ("food", include_str!("../../primitives/food.rhai")),
    ("chat", include_str!("../../primitives/chat.rhai")),
    ("findBlock", include_str!("../../primitives/findBlock.rhai")),
    ("findBlocks", include_str!("../../primitives/findBlocks.rhai")),
    ("nearestEntity", include_str!("../../primitives/nearestEntity.rhai")),
    ("findFreeSpot", include_str!("../../primitives/findFreeSpot.rhai")),
    ("blockAt", include_str!("../../primitives/blockAt.rhai")),
    ("blocksAround", include_str!("../../primitives/blocksAround.rhai")),
    ("goTo", include_str!("../../primitives/goTo.rhai")),
    ("standOn", include_str!("../../primitives/standOn.rhai")),
    ("equip", include_str!("../../primitives/equip.rhai")),
    ("mineBlock", include_str!("../../primitives/mineBlock.rhai")),
    ("digBlock", include_str!("../../primitives/digBlock.rhai")),
    ("craftItem", include_str!("../../primitives/craftItem.rhai")),
    ("smeltItem", include_str!("../../primitives/smeltItem.rhai")),
    ("placeItem", include_str!("../../primitives/placeItem.rhai")),
    ("pillarUp", include_str!("../../primitives/pillarUp.rhai")),
    ("buildStructure", include_str!("../../primitives/buildStructure.rhai")),
    ("killMob", include_str!("../../primitives/killMob.rhai")),
    ("shearSheep", include_str!("../../primitives/shearSheep.rhai")),
    ("milkCow", include_str!("../../primitives/milkCow.rhai")),
    ("fillBucket", include_str!("../../primitives/fillBucket.rhai")),
    ("exploreUntil", include_str!("../../primitives/exploreUntil.rhai")),
    ("getItemFromChest", include_str!("../../primitives/getItemFromChest.rhai")),
    ("depositItemIntoChest", include_str!("../../primitives/depositItemIntoChest.rhai")),
    ("checkItemInsideChest", include_str!("../../primitives/checkItemInsideChest.rhai")),
    ("giveItem", include_str!("../../primitives/giveItem.rhai")),
    ("vec3", include_str!("../../primitives/vec3.rhai")),
];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PromptError {
    #[error("there is no prompt called {0}")]
    Unknown(String),
    #[error("prompt {prompt} needs a value for {{{{{key}}}}}")]
    Missing { prompt: String, key: String },
    #[error("prompt {prompt} has no blank {{{{{key}}}}}")]
    Unexpected { prompt: String, key: String },
}

/// The prompt `name` with every blank filled from `values`.
pub fn render(name: &str, values: &[(&str, &str)]) -> Result<String, PromptError> {
    let prompt = PROMPTS.iter().find(|p| p.name == name).ok_or_else(|| PromptError::Unknown(name.to_owned()))?;
    if let Some((key, _)) = values.iter().find(|(key, _)| !prompt.keys.contains(key)) {
        return Err(PromptError::Unexpected { prompt: name.to_owned(), key: (*key).to_owned() });
    }
    let mut text = prompt.text.trim_end().to_owned();
    for key in prompt.keys {
        let (_, value) = values
            .iter()
            .find(|(k, _)| k == key)
            .ok_or_else(|| PromptError::Missing { prompt: name.to_owned(), key: (*key).to_owned() })?;
        text = text.replace(&format!("{{{{{key}}}}}"), value);
    }
    Ok(text)
}

/// Every primitive's documentation, one after another.
#[cfg(test)]
fn primitives_doc() -> String {
    PRIMITIVES.iter().map(|(_, doc)| doc.trim_end()).collect::<Vec<_>>().join("\n\n")
}

/// Primitives every action prompt documents: small, and used by steps of every kind.
const CORE_PRIMITIVES: &[&str] = &["position", "inventoryCount", "vec3"];

/// Words in a task that make a primitive worth documenting in its prompt.
const PRIMITIVE_WORDS: &[(&str, &[&str])] = &[
    ("smeltItem", &["smelt", "cook", "ingot", "furnace", "charcoal", "glass", "cooked"]),
    (
        "killMob",
        &[
            "kill", "hunt", "fight", "slay", "mob", "leather", "beef", "pork", "mutton", "wool", "string", "feather",
            "bone", "meat",
        ],
    ),
    ("nearestEntity", &["kill", "hunt", "fight", "mob", "animal", "player", "entity", "follow"]),
    ("shearSheep", &["shear", "wool", "sheep"]),
    ("milkCow", &["milk"]),
    ("fillBucket", &["bucket", "water", "lava"]),
    ("exploreUntil", &["explore", "search", "seek", "locate", "far", "diamond", "ore"]),
    ("findBlocks", &["every", "all", "count"]),
    ("equip", &["equip", "wear", "armor", "armour", "helmet", "chestplate", "leggings", "boots", "hold", "shield"]),
    ("inventory", &["inventory", "items", "carry", "drop"]),
    ("digBlock", &["dig", "clear", "remove", "break", "hole", "tunnel", "flatten", "excavate"]),
    ("buildStructure", &["blueprint", "hut", "house", "tower", "bridge", "shelter", "structure", "gate"]),
    ("standOn", &["stand", "onto", "climb", "step"]),
    ("pillarUp", &["tower", "column", "tall"]),
    ("goTo", &["go", "walk", "come", "move", "return"]),
    ("chat", &["say", "tell", "chat", "greet", "announce", "ask", "report"]),
    ("blockAt", &["top", "on", "next", "beside", "under", "above", "below", "hole"]),
    ("blocksAround", &["hole", "clear", "shape"]),
    ("health", &["health", "heal", "hurt", "safe", "fight"]),
    ("food", &["food", "eat", "hungry", "hunger"]),
    ("getItemFromChest", &["take", "retrieve", "withdraw", "from"]),
    ("depositItemIntoChest", &["chest", "deposit", "store", "storage"]),
    ("checkItemInsideChest", &["check", "inside", "contains"]),
];

/// A primitive's cue that misses when the task starts with one of the verbs: a chest placed or crafted is no chest
/// used (shown `depositItemIntoChest` for `Place 1 chest`, the local model stored the goal's cobblestone in a chest
/// that did not stand yet, seven times over). Its other cues (`store`, `deposit`) still call for it.
const CUES_MISS_AFTER: &[(&str, &str, &[&str])] =
    &[("depositItemIntoChest", "chest", &["place", "set", "craft", "make"])];

/// Primitives whose cues call for them only beside a word naming the container they work on: `takes` and `from` are
/// in most crafting contexts ("each craft takes 1 spruce_log"), and shown `getItemFromChest` for `Craft 1
/// spruce_planks` with no chest near, the local model took its log from `findBlock("chest", 32)` (nothing) six times.
const CUES_NEED_A_CONTAINER: &[&str] = &["getItemFromChest", "checkItemInsideChest"];
const CONTAINERS: &[&str] = &["chest", "chests", "barrel", "barrels", "shulker"];

/// Whether a task's word calls for a cue: the word itself, or a longer form of a cue of four letters or more
/// (`cooked` for `cook`; `gold` is not `go`, nor `one` `on`).
fn cue_fits(cue: &str, word: &str) -> bool {
    word == cue || (cue.len() >= 4 && word.starts_with(cue))
}

/// The documentation of the primitives a task needs: the core ones, `needed` (what the step's kind of work and its
/// worked example use), and those its words call for (`cook` brings `smeltItem` and `food`). A small model gets a
/// shorter prompt and fewer functions to mix up. Where a primitive has an example for the step's `case` (see
/// [`with_example`]) that one is shown instead of its first, and the functions it calls are documented too.
pub fn primitives_doc_for(task: &str, needed: &[&str], case: Option<&str>) -> String {
    let words: Vec<String> =
        task.to_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_owned).collect();
    let verb = words.iter().find(|w| !w.is_empty()).map_or("", String::as_str);
    let misses = |name: &str, cue: &str| {
        CUES_MISS_AFTER
            .iter()
            .any(|(primitive, missed, verbs)| *primitive == name && *missed == cue && verbs.contains(&verb))
    };
    let container = words.iter().any(|w| CONTAINERS.contains(&w.as_str()));
    let cued = |name: &str| {
        (container || !CUES_NEED_A_CONTAINER.contains(&name))
            && PRIMITIVE_WORDS.iter().any(|(primitive, cues)| {
                *primitive == name
                    && cues.iter().any(|cue| !misses(name, cue) && words.iter().any(|w| cue_fits(cue, w)))
            })
    };
    let wanted = |name: &str| CORE_PRIMITIVES.contains(&name) || needed.contains(&name) || cued(name);
    // The examples of the step's case, and what they call the list would lack (a dig of every block of a kind calls
    // `findBlocks`).
    let cased: Vec<String> =
        PRIMITIVES.iter().filter(|(name, _)| wanted(name)).filter_map(|(_, doc)| case_example(doc, case?)).collect();
    // Called as itself: `findBlocks(` is no call of `findBlock(`, nor `.offset(` of an `offset`.
    let called = |name: &str| {
        cased.iter().any(|example| {
            example
                .match_indices(&format!("{name}("))
                .any(|(at, _)| !example[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        })
    };
    PRIMITIVES
        .iter()
        .filter(|(name, _)| wanted(name) || called(name))
        .map(|(name, doc)| with_example(doc, if wanted(name) { case } else { None }))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The lines after `doc`'s `//# case` line, up to its next case or its end: the example for steps of `case`.
fn case_example(doc: &str, case: &str) -> Option<String> {
    let mut lines = doc.lines().map(str::trim_end).skip_while(|line| case_of(line) != Some(case)).skip(1);
    let example: Vec<&str> = lines.by_ref().take_while(|line| case_of(line).is_none()).collect();
    (!example.is_empty()).then(|| example.join("\n"))
}

/// The case a `//# case` line names.
fn case_of(line: &str) -> Option<&str> {
    line.strip_prefix("//#").map(str::trim)
}

/// A primitive's documentation (`primitives/NAME.rhai`) with one example: the lines after its `//# case` line when
/// it has one for `case` (`//# beside a block`: an example for a step placing a block beside another), else its first
/// example. A small model copies the example it sees, so it should be the one that fits the step.
fn with_example(doc: &str, case: Option<&str>) -> String {
    let first: Vec<&str> = doc.lines().map(str::trim_end).take_while(|line| case_of(line).is_none()).collect();
    match case.and_then(|case| case_example(doc, case)) {
        Some(example) => {
            let head: Vec<&str> = first.into_iter().take_while(|line| !line.starts_with("// ")).collect();
            format!("{}\n{example}", head.join("\n"))
        }
        None => first.join("\n").trim_end().to_owned(),
    }
}

#[cfg(test)]
/// The `{{key}}` blanks in `text`, in order of appearance.
fn blanks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open..].find("}}") else { break };
        found.push(rest[open + 2..open + close].to_owned());
        rest = &rest[open + close + 2..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_shown_the_primitives_it_needs() {
        let all = primitives_doc();
        let logs = primitives_doc_for("Mine 2 oak_log", &["mineBlock"], None);
        assert!(logs.contains("mineBlock(") && !logs.contains("smeltItem(") && !logs.contains("getItemFromChest("));
        assert!(logs.len() * 4 < all.len(), "{} of {} bytes", logs.len(), all.len());
        let cook = primitives_doc_for("Cook 2 beef", &[], None);
        assert!(cook.contains("smeltItem(") && cook.contains("killMob("), "{cook}");
        assert!(primitives_doc_for("Deposit cobblestone into a chest", &[], None).contains("depositItemIntoChest("));
        // Taking needs a chest named: a crafting context's "takes" is no chest to take from.
        let craft = "Craft 1 spruce_planks craftItem(\"spruce_planks\", n) makes it: each craft takes 1 spruce_log";
        assert!(!primitives_doc_for(craft, &["craftItem"], None).contains("getItemFromChest("));
        let take = primitives_doc_for("Take 3 coal from the chest", &[], None);
        assert!(take.contains("getItemFromChest(") && !take.contains("checkItemInsideChest("), "{take}");
        assert!(primitives_doc_for("check what is inside the chest", &[], None).contains("checkItemInsideChest("));
        let chest = primitives_doc_for("Place 1 chest", &["placeItem", "findFreeSpot"], None);
        assert!(!chest.contains("depositItemIntoChest("), "a chest placed is no chest used: {chest}");
        // A step of storing is shown it by its kind whatever its verb; a whole goal placing and storing, by its words.
        let is_id = crate::agent::act::is_game_id;
        let place_in = "Place 6 cobblestone in the chest";
        let needed = crate::agent::focus::primitives(crate::agent::focus::of_task(place_in, is_id));
        assert!(primitives_doc_for(place_in, needed, None).contains("depositItemIntoChest("));
        let whole = primitives_doc_for("place a chest and store 6 cobblestone in it", &["placeItem"], None);
        assert!(whole.contains("depositItemIntoChest("), "{whole}");
        let gold = primitives_doc_for("place a dirt block on top of the gold block", &[], None);
        assert!(gold.contains("blockAt(") && !gold.contains("goTo("), "{gold}");
        for (name, _) in PRIMITIVE_WORDS {
            assert!(PRIMITIVES.iter().any(|(p, _)| p == name), "{name} is not a primitive");
        }
        for name in CORE_PRIMITIVES {
            assert!(PRIMITIVES.iter().any(|(p, _)| p == name), "{name} is not a primitive");
        }
    }

    /// A step is shown the example of its case, and what that example calls; other steps the first example, and
    /// never an example of a case.
    #[test]
    fn a_step_sees_the_example_of_its_case() {
        let dig = |case| primitives_doc_for("break the cobblestone wall next to you", &["digBlock"], case);
        let every = dig(Some("blocks of a kind"));
        assert!(every.contains("for pos in findBlocks(\"sand\", 8, 20) {"), "{every}");
        assert!(every.contains("fn findBlocks(name, maxDistance, count)"), "the example's call is documented: {every}");
        assert!(!every.contains("digBlock(position().offset(1, -1, 0))"), "{every}");
        let one = dig(None);
        assert!(one.contains("digBlock(position().offset(1, -1, 0))") && !one.contains("findBlocks"), "{one}");
        let beside = primitives_doc_for(
            "place a crafting table next to the stone block",
            &["placeItem"],
            Some("beside a block"),
        );
        assert!(beside.contains("stone.offset(1, 0, 0)") && !beside.contains("for dy in 0..3"), "{beside}");
        assert!(beside.contains("fn findBlock(name, maxDistance)"), "{beside}");
        assert!(!beside.contains("offset(0, 1, 0)"), "a table next to the stone was set on top of it: {beside}");
        let on_top = primitives_doc_for(
            "place a dirt block on top of the gold block",
            &["placeItem"],
            Some("on top of a block"),
        );
        assert!(on_top.contains("gold.offset(0, 1, 0)") && !on_top.contains("stone.offset(1, 0, 0)"), "{on_top}");
        let unknown = primitives_doc_for("Place 3 dirt", &["placeItem"], Some("no such case"));
        assert!(unknown.contains("for dy in 0..3") && !unknown.contains("//#"), "{unknown}");
        for (name, doc) in PRIMITIVES {
            assert!(!with_example(doc, None).contains("//#"), "{name} shows a case's example to every step");
        }
        // Written on another machine (CRLF, spaces around the case): read the same.
        let crlf =
            "/// Digs.\r\nfn digBlock(pos) {}\r\n// digBlock(here);\r\n//#  blocks of a kind \r\n// for p in x { }\r\n";
        assert_eq!(with_example(crlf, Some("blocks of a kind")), "/// Digs.\nfn digBlock(pos) {}\n// for p in x { }");
        assert_eq!(with_example(crlf, None), "/// Digs.\nfn digBlock(pos) {}\n// digBlock(here);");
    }

    #[test]
    fn every_prompt_names_the_blanks_its_text_has() {
        for prompt in PROMPTS {
            let mut blanks: Vec<&str> = prompt
                .text
                .split("{{")
                .skip(1)
                .filter_map(|rest| rest.split_once("}}").map(|(key, _)| key))
                .filter(|key| key.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                .collect();
            blanks.sort_unstable();
            blanks.dedup();
            let mut keys = prompt.keys.to_vec();
            keys.sort_unstable();
            assert_eq!(blanks, keys, "prompt {}", prompt.name);
        }
    }

    /// The stems of the files ending in `.ext` in a folder of the crate, sorted.
    fn stems(folder: &str, ext: &str) -> Vec<String> {
        let dir = crate::crate_dir().join(folder);
        let mut stems: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == ext))
            .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        stems.sort();
        stems
    }

    #[test]
    fn every_prompt_declares_exactly_its_blanks() {
        let files = stems("prompts", "md");
        let mut declared: Vec<String> = PROMPTS.iter().map(|p| p.name.to_owned()).collect();
        declared.sort();
        assert_eq!(files, declared, "prompts/ and PROMPTS differ");
        for prompt in PROMPTS {
            let mut found = blanks(prompt.text);
            found.sort();
            found.dedup();
            let mut keys: Vec<String> = prompt.keys.iter().map(|k| (*k).to_owned()).collect();
            keys.sort();
            assert_eq!(found, keys, "blanks of prompts/{}.md", prompt.name);
        }
    }

    #[test]
    fn rendering_fills_every_blank_or_refuses() {
        for prompt in PROMPTS {
            let values: Vec<(&str, &str)> = prompt.keys.iter().map(|k| (*k, "VALUE")).collect();
            let text = render(prompt.name, &values).unwrap();
            assert!(!text.contains("{{"), "{} kept a blank", prompt.name);
            if let Some(first) = prompt.keys.first() {
                let missing: Vec<(&str, &str)> = values.iter().copied().filter(|(k, _)| k != first).collect();
                assert_eq!(
                    render(prompt.name, &missing),
                    Err(PromptError::Missing { prompt: prompt.name.into(), key: (*first).into() })
                );
            }
        }
        let err = render("critic", &[("task", "x")]).unwrap_err();
        assert_eq!(err.to_string(), "prompt critic has no blank {{task}}");
        assert!(render("nothing", &[]).is_err());
    }

    #[test]
    fn the_llm_sees_every_primitive() {
        let files = stems("primitives", "rhai");
        let mut shown: Vec<String> = PRIMITIVES.iter().map(|(n, _)| (*n).to_owned()).collect();
        shown.sort();
        assert_eq!(files, shown);
        let doc = primitives_doc();
        assert!(doc.contains("mineBlock(") && doc.contains("exploreUntil("));
        let action =
            render("action_template", &[("primitives", &doc), ("skills", "none yet"), ("response_format", "FORMAT")])
                .unwrap();
        assert!(action.contains("craftItem(") && action.ends_with("FORMAT"));
    }
}
