//! The check before the world: every call in an answer's code resolved against what it can call — the game's
//! functions (`primitives/`), Rhai's own, the skill library and the helpers the answer defines — with the number and
//! kinds of values it passes. A miss goes back to the model with the real signature, an example and the nearest name,
//! and costs an LLM call instead of a world attempt.
//!
//! Small models write `exploreUntil("iron_ore", 64)` (two values of the wrong kinds), `findNearestBlock(…)` (a name
//! from another bot's API), or define `fn exploreUntil(…)` themselves after reading "function not found". Rhai finds
//! these only when the line runs, minutes into a world attempt; the AST shows them at once.

use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, ASTNode, Expr, FnCallExpr, Stmt};

use super::prompts::PRIMITIVES;

/// Whether `name` is one of the game's functions (`primitives/`, which a unit test holds to what is registered).
pub fn is_game_function(name: &str) -> bool {
    PRIMITIVES.iter().any(|(primitive, _)| *primitive == name)
}

/// Names Rhai itself resolves (not registered functions): always callable.
const KEYWORDS: &[&str] =
    &["Fn", "call", "curry", "type_of", "print", "debug", "is_def_var", "is_def_fn", "is_shared", "throw"];

/// Names other bots' APIs (Mineflayer's, and what models guess) use for what Wayfarer's functions do.
const ALIASES: &[(&str, &str)] = &[
    ("dig", "digBlock"),
    ("collectBlock", "mineBlock"),
    ("collect", "mineBlock"),
    ("mine", "mineBlock"),
    ("harvest", "mineBlock"),
    ("craft", "craftItem"),
    ("smelt", "smeltItem"),
    ("place", "placeItem"),
    ("placeBlock", "placeItem"),
    ("attack", "killMob"),
    ("kill", "killMob"),
    ("findNearestBlock", "findBlock"),
    ("moveTo", "goTo"),
    ("walkTo", "goTo"),
    ("goto", "goTo"),
    ("pathTo", "goTo"),
    ("navigate", "goTo"),
    ("explore", "exploreUntil"),
    ("say", "chat"),
    ("sendChat", "chat"),
    ("getInventory", "inventory"),
    ("countItem", "inventoryCount"),
    ("itemCount", "inventoryCount"),
    ("build", "buildStructure"),
    ("deposit", "depositItemIntoChest"),
    ("withdraw", "getItemFromChest"),
    ("give", "giveItem"),
    ("toss", "giveItem"),
    ("wait", "sleep"),
    ("delay", "sleep"),
    ("setTimeout", "sleep"),
    ("findEntity", "nearestEntity"),
    ("getPosition", "position"),
    ("length", "len"),
    ("size", "len"),
    ("count", "len"),
    ("includes", "contains"),
    ("has", "contains"),
    ("indexOf", "index_of"),
    ("toString", "to_string"),
    ("toUpperCase", "to_upper"),
    ("toLowerCase", "to_lower"),
    ("forEach", "for_each"),
    ("substring", "sub_string"),
    ("substr", "sub_string"),
    ("startsWith", "starts_with"),
    ("endsWith", "ends_with"),
    ("isEmpty", "is_empty"),
    ("is_none", "is_empty"),
];

/// What one name can be called with: the parameter counts it takes and, for a function shown to the model, how to
/// write a call.
#[derive(Clone, Debug, Default)]
struct Callable {
    /// Each overload's parameter types (`string`, `i64`, `Vec3`, `Dynamic` for any); a method's receiver first.
    overloads: Vec<Vec<String>>,
    /// `(direction, maxTime, callback)`, when the parameters have names the model was shown.
    params: Option<String>,
    /// A line using it, from its documentation.
    example: Option<String>,
    /// A game function (`primitives/`): its values' kinds are checked too.
    primitive: bool,
    /// A skill's parameters' kinds, where its code passes a parameter straight to a game function (`target` given to
    /// `findBlocks` as its first value is a string): checked like a game function's.
    param_kinds: Option<Vec<String>>,
}

/// Everything an answer may call.
pub struct Known {
    by_name: BTreeMap<String, Callable>,
    /// The game's names of blocks, items and mobs, when the caller has them: a literal name a game function cannot
    /// take is a miss too.
    names: Option<&'static GameNames>,
    /// The names of what the bot sees and carries (blocks near it, its items, mobs in sight): a name the game does
    /// not have is read as the one of these it plainly means.
    in_sight: BTreeSet<String>,
    /// The names of the items the bot carries: a value that names something carried (`inventoryCount("iron")` with
    /// raw iron in the inventory) is read as the one carried, before what is only seen.
    carried: BTreeSet<String>,
    /// What the task is about, when it names it: the thing to carry (`raw_iron` for "Mine 3 iron_ore") and the thing
    /// to find (`iron_ore`). A value like neither what is carried nor what is seen is read as the task's own.
    task_carried: BTreeSet<String>,
    task_found: BTreeSet<String>,
}

/// The game functions, and which of their values, that name something carried (counted, held, placed, smelted or
/// given), not something to find or make.
const CARRIED: &[(&str, usize)] =
    &[("inventoryCount", 0), ("equip", 0), ("placeItem", 0), ("smeltItem", 0), ("giveItem", 1)];

/// What a game function's string value names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Block,
    Item,
    /// A block's name, or an item's that places a block of another name (`wheat_seeds`).
    Placeable,
    Mob,
}

impl NameKind {
    fn word(self) -> &'static str {
        match self {
            NameKind::Block | NameKind::Placeable => "block",
            NameKind::Item => "item",
            NameKind::Mob => "mob",
        }
    }
}

/// The game's names, as the game functions take them (`oak_log`, `wooden_pickaxe`, `zombie`).
#[derive(Debug, Default)]
pub struct GameNames {
    pub blocks: BTreeSet<String>,
    pub items: BTreeSet<String>,
    /// The blocks and the items that place a block of another name.
    pub placeable: BTreeSet<String>,
    pub mobs: BTreeSet<String>,
}

impl GameNames {
    /// Whether the game has a block, item or mob called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.items.contains(name) || self.blocks.contains(name) || self.mobs.contains(name)
    }

    /// Up to four of the game's item names like `word` (by its parts, then by spelling).
    pub fn items_like(&self, word: &str) -> Vec<String> {
        names_like(word, &self.items, &BTreeSet::new())
    }

    fn of(&self, kind: NameKind) -> &BTreeSet<String> {
        match kind {
            NameKind::Block => &self.blocks,
            NameKind::Item => &self.items,
            NameKind::Placeable => &self.placeable,
            NameKind::Mob => &self.mobs,
        }
    }
}

/// The game functions' values that name a block, an item or a mob: (function, value, kind).
const NAMED: &[(&str, usize, NameKind)] = &[
    ("findBlock", 0, NameKind::Block),
    ("findBlocks", 0, NameKind::Block),
    ("mineBlock", 0, NameKind::Block),
    ("placeItem", 0, NameKind::Placeable),
    ("inventoryCount", 0, NameKind::Item),
    ("equip", 0, NameKind::Item),
    ("craftItem", 0, NameKind::Item),
    ("smeltItem", 0, NameKind::Item),
    ("smeltItem", 1, NameKind::Item),
    ("giveItem", 1, NameKind::Item),
    ("killMob", 0, NameKind::Mob),
];

/// Words for a thing that are not its name in the game, and the part of the names meant.
const NAME_WORDS: &[(&str, &str)] =
    &[("tree", "log"), ("trees", "log"), ("wood", "log"), ("plank", "planks"), ("cobble", "cobblestone")];

/// `word` written as the game writes names: lower case, `_` between words, no `minecraft:` (`Wooden Pickaxe` →
/// `wooden_pickaxe`).
fn game_spelling(word: &str) -> String {
    word.trim().trim_start_matches("minecraft:").to_lowercase().replace([' ', '-'], "_")
}

/// Up to four of `names` that a model writing `word` most likely meant: those with every part of the word among
/// their parts (`log` → `oak_log`, `spruce_log`…; `tree` → the logs), those `in_sight` first, then shortest first;
/// else the nearest by spelling.
fn names_like(word: &str, names: &BTreeSet<String>, in_sight: &BTreeSet<String>) -> Vec<String> {
    let lower = game_spelling(word);
    if names.contains(&lower) {
        return vec![lower];
    }
    let singular = |part: &str| part.strip_suffix('s').filter(|p| p.len() > 2).unwrap_or(part).to_owned();
    let parts: Vec<String> = lower
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| NAME_WORDS.iter().find(|(w, _)| *w == p).map_or(p, |(_, meant)| meant).to_owned())
        .collect();
    let mut found: Vec<&String> = names
        .iter()
        .filter(|name| {
            let theirs: Vec<&str> = name.split('_').collect();
            !parts.is_empty()
                && parts.iter().all(|p| theirs.contains(&p.as_str()) || theirs.contains(&singular(p).as_str()))
        })
        .collect();
    found.sort_by_key(|name| (!in_sight.contains(*name), name.len(), name.as_str()));
    if found.is_empty() {
        let limit = (lower.chars().count() / 3).max(2);
        if let Some((_, near)) = names.iter().map(|n| (edit_distance(&lower, n), n)).filter(|(d, _)| *d <= limit).min()
        {
            found.push(near);
        }
    }
    found.into_iter().take(4).cloned().collect()
}

/// The miss for a literal `word` given to `function` where it takes a `kind`'s name the game has none of.
fn unknown_name(
    function: &str,
    kind: NameKind,
    word: &str,
    names: &GameNames,
    in_sight: &BTreeSet<String>,
) -> Option<String> {
    if names.of(kind).contains(word) {
        return None;
    }
    let like = names_like(word, names.of(kind), in_sight);
    let what = kind.word();
    Some(match like.as_slice() {
        [] => format!(
            "there is no {what} called \"{word}\" in the game: `{function}` takes a {what}'s name as the game spells it"
        ),
        [same] if *same == game_spelling(word) => {
            format!("write the {what}'s name as the game does: \"{same}\", not \"{word}\"")
        }
        _ => format!(
            "there is no {what} called \"{word}\" in the game: `{function}` takes a {what}'s full name, such as {}{}",
            like.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "),
            if matches!(kind, NameKind::Block | NameKind::Placeable) {
                " (the names under Nearby blocks are close by)"
            } else {
                ""
            }
        ),
    })
}

impl Known {
    /// What a script can call, from `signatures` (each overload's name and parameter types, as the sandbox
    /// registers them: `crate::agent::act::known` passes the real ones), and the skill library's functions (`library`,
    /// when there is one).
    pub fn new<'a>(signatures: impl IntoIterator<Item = (&'a str, &'a [String])>, library: Option<&AST>) -> Self {
        let mut by_name: BTreeMap<String, Callable> = BTreeMap::new();
        for (name, params) in signatures {
            if name.contains('$') || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            let entry = by_name.entry(name.to_owned()).or_default();
            entry.overloads.push(params.iter().map(|p| kind_of_type(p).to_owned()).collect());
            entry.primitive = is_game_function(name);
        }
        for (name, doc) in PRIMITIVES {
            let entry = by_name.entry((*name).to_owned()).or_default();
            entry.params = doc.lines().find_map(|l| l.strip_prefix("fn ")).and_then(|l| {
                let open = l.find('(')?;
                Some(l[open..=l.find(')')?].to_owned())
            });
            entry.example = doc.lines().find_map(|l| l.strip_prefix("// ")).map(str::to_owned);
        }
        if let Some(library) = library {
            add_functions(&mut by_name, library);
        }
        Self {
            by_name,
            names: None,
            in_sight: BTreeSet::new(),
            carried: BTreeSet::new(),
            task_carried: BTreeSet::new(),
            task_found: BTreeSet::new(),
        }
    }

    /// Checks the names of blocks, items and mobs given as literals to game functions against `names`.
    pub fn with_names(mut self, names: &'static GameNames) -> Self {
        self.names = Some(names);
        self
    }

    /// What the bot sees and carries, by the game's names: the names meant are looked for among these first.
    pub fn with_in_sight(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.in_sight.extend(names);
        self
    }

    /// What the task is about: the thing it gets into the inventory and, for a task to mine, the block.
    pub fn with_task_things(mut self, carried: Option<String>, found: Option<String>) -> Self {
        self.task_carried.extend(carried);
        self.task_found.extend(found);
        self
    }

    /// The items the bot carries (also counted as in sight).
    pub fn with_carried(mut self, items: impl IntoIterator<Item = String>) -> Self {
        for item in items {
            self.in_sight.insert(item.clone());
            self.carried.insert(item);
        }
        self
    }
}

impl Known {
    /// Learns the kinds of the parameters of the skill `name` (`params`, defined in `ast`, its file's code) from the
    /// game functions its code passes them to.
    pub fn learn_kinds(&mut self, name: &str, params: &[String], ast: &AST) {
        let mut kinds: Vec<Option<String>> = vec![None; params.len()];
        let by_name = &self.by_name;
        each_call(ast, |call| {
            let Some(callee) = by_name.get(call.name.as_str()).filter(|c| c.primitive) else { return };
            for (at, arg) in call.args.iter().enumerate() {
                let Expr::Variable(variable, ..) = arg else { continue };
                let Some(param) = params.iter().position(|p| *p == variable.1.as_str()) else { continue };
                let types: BTreeSet<&str> =
                    callee.overloads.iter().filter(|o| o.len() == call.args.len()).map(|o| o[at].as_str()).collect();
                if let [only] = types.into_iter().collect::<Vec<_>>()[..]
                    && only != "Dynamic"
                {
                    kinds[param] = Some(only.to_owned());
                }
            }
        });
        if kinds.iter().any(Option::is_some)
            && let Some(callable) = self.by_name.get_mut(name)
            && !callable.primitive
        {
            callable.param_kinds = Some(kinds.into_iter().map(|k| k.unwrap_or_else(|| "Dynamic".to_owned())).collect());
        }
    }
}

fn add_functions(by_name: &mut BTreeMap<String, Callable>, ast: &AST) {
    for function in ast.iter_functions() {
        if function.name.contains('$') {
            continue;
        }
        let entry = by_name.entry(function.name.to_owned()).or_default();
        // A function the code defines hides any of the same name and count (Rhai calls the script's).
        entry.overloads.push(vec!["Dynamic".to_owned(); function.params.len()]);
        if entry.params.is_none() || !entry.primitive {
            entry.params = Some(format!("({})", function.params.join(", ")));
        }
    }
}

/// A Rhai type name as the kind of value the check compares (`&mut Vec3` is `Vec3`; unknown types take anything).
fn kind_of_type(ty: &str) -> &str {
    match ty.trim_start_matches("&mut ").trim() {
        "string" | "&str" | "ImmutableString" | "String" => "string",
        "i64" | "INT" => "i64",
        "f64" | "FLOAT" => "f64",
        "Vec3" => "Vec3",
        "map" | "Map" => "map",
        "array" | "Array" => "array",
        "bool" => "bool",
        "Fn" | "FnPtr" => "Fn",
        "char" => "char",
        _ => "Dynamic",
    }
}

/// What game functions return, where it is one kind (`findBlock` returns a position, or () when there is none).
const RETURNS: &[(&str, &str)] = &[
    ("position", "Vec3"),
    ("vec3", "Vec3"),
    ("findBlock", "Vec3"),
    ("findFreeSpot", "Vec3"),
    ("findBlocks", "array"),
    ("inventoryCount", "i64"),
    ("blockAt", "string"),
    ("nearestEntity", "map"),
];

/// The kinds of the answer's variables that are bound once, to a value of a kind [`kind_of_arg`] knows, and never
/// assigned again (a name bound in two places to different kinds has none).
fn variable_kinds(ast: &AST) -> BTreeMap<String, Option<&'static str>> {
    let mut kinds: BTreeMap<String, Option<&'static str>> = BTreeMap::new();
    let empty = BTreeMap::new();
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Stmt(Stmt::Var(var, ..))) => {
                let kind = kind_of_arg(&var.1, &empty);
                kinds
                    .entry(var.0.name.to_string())
                    .and_modify(|known| {
                        if *known != kind {
                            *known = None;
                        }
                    })
                    .or_insert(kind);
            }
            Some(ASTNode::Stmt(Stmt::Assignment(assignment))) => {
                if let Expr::Variable(variable, ..) = &assignment.1.lhs {
                    kinds.insert(variable.1.to_string(), None);
                }
            }
            _ => {}
        }
        true
    });
    kinds
}

/// The block each variable holds the position of, when the code set it once from `findBlock("NAME", …)`: `gold` in
/// `let gold = findBlock("gold_block", 32);`. A position passed where a name is wanted is then shown the name.
fn found_blocks(ast: &AST) -> BTreeMap<String, Option<String>> {
    let mut found: BTreeMap<String, Option<String>> = BTreeMap::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::Var(var, ..))) = path.last() {
            let name = match &var.1 {
                Expr::FnCall(call, _) if call.name == "findBlock" => match call.args.first() {
                    Some(Expr::StringConstant(name, _)) => Some(name.to_string()),
                    _ => None,
                },
                _ => None,
            };
            // Set twice, to different things: no one name.
            found.entry(var.0.name.to_string()).and_modify(|known| *known = None).or_insert(name);
        }
        true
    });
    found
}

/// The kind of value an argument surely is: a literal, what a game function of one kind of result returns, or a
/// variable of a known kind.
fn kind_of_arg(arg: &Expr, variables: &BTreeMap<String, Option<&'static str>>) -> Option<&'static str> {
    if let Expr::FnCall(call, _) = arg
        && let Some((_, kind)) = RETURNS.iter().find(|(name, _)| *name == call.name.as_str())
    {
        return Some(kind);
    }
    if let Expr::Variable(variable, ..) = arg {
        return variables.get(variable.1.as_str()).copied().flatten();
    }
    Some(match arg {
        Expr::StringConstant(..) | Expr::InterpolatedString(..) => "string",
        Expr::IntegerConstant(..) => "i64",
        Expr::FloatConstant(..) => "f64",
        Expr::BoolConstant(..) => "bool",
        Expr::CharConstant(..) => "char",
        Expr::Array(..) => "array",
        Expr::Map(..) => "map",
        Expr::FnCall(call, _) if call.name == "vec3" || call.name == "position" => "Vec3",
        Expr::FnCall(call, _) if call.name == "Fn" || call.name == "curry" => "Fn",
        Expr::DynamicConstant(value, _) if value.is_fnptr() => "Fn",
        _ => return None,
    })
}

/// A kind in the words the model is shown.
fn kind_in_words(kind: &str) -> &'static str {
    match kind {
        "string" => "a string",
        "i64" => "a whole number",
        "f64" => "a number with a fraction",
        "bool" => "true or false",
        "char" => "a character",
        "array" => "an array",
        "map" => "a map (#{name: count})",
        "Vec3" => "a position (vec3(x, y, z))",
        "Fn" => "a function (|| …)",
        _ => "a value",
    }
}

fn fits(kinds: &[Option<&str>], params: &[String]) -> bool {
    kinds.len() == params.len()
        && kinds.iter().zip(params).all(|(kind, param)| match kind {
            None => true,
            Some(kind) => param == "Dynamic" || param == kind,
        })
}

/// The misses in `ast`, each a sentence with its line, at most a few: nothing when every call
/// resolves.
pub fn calls(ast: &AST, known: &Known) -> Vec<String> {
    let mut names = known.by_name.clone();
    let mut misses = Vec::new();
    for function in ast.iter_functions() {
        if is_game_function(function.name) {
            let params = names.get(function.name).and_then(|c| c.params.clone()).unwrap_or_default();
            misses.push(format!(
                "`{}` is a built-in function of the game: call it as {}{params}, do not define it (name your \
                 own function something else)",
                function.name, function.name
            ));
        }
    }
    misses.extend(endless_self_calls(ast));
    add_functions(&mut names, ast);
    let variables = variables(ast);
    let kinds = variable_kinds(ast);
    let found = found_blocks(ast);
    let mut seen = BTreeSet::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let (call, method, pos) = match path.last() {
            // A call standing as a statement is a statement of its own kind.
            Some(ASTNode::Expr(Expr::FnCall(call, pos)) | ASTNode::Stmt(Stmt::FnCall(call, pos))) => {
                (call, false, *pos)
            }
            Some(ASTNode::Expr(Expr::MethodCall(call, pos))) => (call, true, *pos),
            _ => return true,
        };
        if let Some(miss) = miss(call, method, &names, &variables, &kinds, &found)
            .or_else(|| known.names.and_then(|game| misnamed(call, method, &names, game, &known.in_sight)))
        {
            let line = pos.line().map(|l| format!("line {l}: ")).unwrap_or_default();
            if seen.insert(miss.clone()) {
                misses.push(format!("{line}{miss}"));
            }
        }
        true
    });
    misses.truncate(4);
    misses
}

/// A branch of a function that does nothing but call the function again with the same values (`else { chopLog(); }`
/// in `fn chopLog()`): nothing changed, so the same branch is taken again, until Rhai's call depth runs out after
/// minutes of play. A 1.5B model wrote this for a bowl.
fn endless_self_calls(ast: &AST) -> Vec<String> {
    // Each function's lines, to tell which function a branch is in.
    let spans: Vec<(String, Vec<String>, usize, usize)> = ast
        .iter_fn_def()
        .filter_map(|def| {
            let (from, to) = (def.body.start_position().line()?, def.body.end_position().line()?);
            Some((def.name.to_string(), def.params.iter().map(|p| p.to_string()).collect(), from, to))
        })
        .collect();
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(ASTNode::Stmt(Stmt::If(flow, pos))) = path.last() else { return true };
        let Some(line) = pos.line() else { return true };
        let Some((name, params, ..)) = spans.iter().find(|(_, _, from, to)| (*from..=*to).contains(&line)) else {
            return true;
        };
        let calls_itself = |stmt: &Stmt| {
            let call = match stmt {
                Stmt::FnCall(call, _) => call,
                Stmt::Expr(expr) => match expr.as_ref() {
                    Expr::FnCall(call, _) => call,
                    _ => return false,
                },
                _ => return false,
            };
            call.name == name.as_str()
                && call.args.len() == params.len()
                && call
                    .args
                    .iter()
                    .zip(params)
                    .all(|(arg, param)| matches!(arg, Expr::Variable(variable, ..) if variable.1.as_str() == param))
        };
        if [&flow.body, &flow.branch].iter().any(|block| matches!(block.statements(), [only] if calls_itself(only))) {
            found.push(format!(
                "line {line}: a branch of `{name}` only calls `{name}` again with the same values: nothing changes, \
                 so it would call itself forever; do something in that branch (mine, craft) or return"
            ));
        }
        true
    });
    found
}

/// The names `ast` calls as functions (not methods or operators), wherever they are called: its own helpers
/// included.
pub fn called(ast: &AST) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    each_call(ast, |call| {
        if call.name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            names.insert(call.name.to_string());
        }
    });
    names
}

/// Calls `each` with every function call in `ast`, as a statement or inside an expression, in its functions too.
fn each_call(ast: &AST, mut each: impl FnMut(&FnCallExpr)) {
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) = path.last() {
            each(call);
        }
        true
    });
}

/// Names the code binds to values (`let`, parameters, loop variables): one of them called is a function pointer.
fn variables(ast: &AST) -> BTreeSet<String> {
    let mut found: BTreeSet<String> =
        ast.iter_functions().flat_map(|f| f.params.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>()).collect();
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Stmt(Stmt::Var(var, ..))) => {
                found.insert(var.0.name.to_string());
            }
            Some(ASTNode::Stmt(Stmt::For(for_loop, ..))) => {
                found.insert(for_loop.0.name.to_string());
                if let Some(index) = &for_loop.1 {
                    found.insert(index.name.to_string());
                }
            }
            _ => {}
        }
        true
    });
    found
}

fn miss(
    call: &FnCallExpr,
    method: bool,
    names: &BTreeMap<String, Callable>,
    variables: &BTreeSet<String>,
    kinds: &BTreeMap<String, Option<&'static str>>,
    found: &BTreeMap<String, Option<String>>,
) -> Option<String> {
    let name = call.name.as_str();
    if call.is_operator_call() || name.contains('$') || KEYWORDS.contains(&name) {
        return None;
    }
    if !call.namespace.is_empty() {
        return Some(format!(
            "`{}::{name}` is not Rhai: there are no modules; call functions by their name",
            call.namespace
        ));
    }
    // A method's receiver is its first value.
    let count = call.args.len() + usize::from(method);
    let Some(callable) = names.get(name) else {
        if !method && variables.contains(name) {
            return None;
        }
        return Some(unknown(name, method, names));
    };
    if !callable.overloads.iter().any(|o| o.len() == count) {
        let mut counts: Vec<usize> =
            callable.overloads.iter().map(|o| o.len().saturating_sub(usize::from(method))).collect();
        counts.sort();
        counts.dedup();
        let takes = match counts.as_slice() {
            [0] => "no values".to_owned(),
            [one] => format!("{one} value{}", if *one == 1 { "" } else { "s" }),
            [many @ .., last] => {
                format!("{} or {last} values", many.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))
            }
            [] => "no values".to_owned(),
        };
        // In words: told "you passed 1", the local model read the 1 as the value to change, and passed 0.
        let passed = match count - usize::from(method) {
            0 => "none".to_owned(),
            1 => "one value".to_owned(),
            n => format!("{n} values"),
        };
        let shown = callable.params.as_deref().filter(|_| counts != [0]).map(|p| format!(" {p}")).unwrap_or_default();
        let example = match callable.example.as_deref() {
            Some(e) => format!(". For example: `{e}`"),
            None if counts == [0] && !method => format!(": write `{name}()`, with nothing between the brackets"),
            None => String::new(),
        };
        return Some(format!("`{name}` takes {takes}{shown}; you passed {passed}{example}"));
    }
    let overloads = match &callable.param_kinds {
        Some(skill) if !method => std::slice::from_ref(skill),
        _ if callable.primitive && !method => callable.overloads.as_slice(),
        _ => return None,
    };
    {
        let kinds: Vec<Option<&str>> = call.args.iter().map(|arg| kind_of_arg(arg, kinds)).collect();
        if !overloads.iter().any(|o| fits(&kinds, o)) {
            let wanted = overloads.iter().find(|o| o.len() == count)?;
            let (at, (kind, param)) =
                kinds.iter().zip(wanted).enumerate().find(|(_, (kind, param))| {
                    kind.is_some_and(|k| k != param.as_str() && param.as_str() != "Dynamic")
                })?;
            let shown = callable.params.as_deref().unwrap_or("");
            let example = callable.example.as_deref().map(|e| format!(". For example: `{e}`")).unwrap_or_default();
            // A block's position for its name (the local model found the gold block and passed where it is to
            // `placeBlockOnTop(block, target)`, six times): the name it found it by.
            let instead = match (*kind, param.as_str(), &call.args[at]) {
                (Some("Vec3"), "string", Expr::Variable(variable, ..)) => match found.get(variable.1.as_str()) {
                    Some(Some(block)) => format!(": pass the block's name, \"{block}\", not where `{}` is", variable.1),
                    _ => ": pass a name in quotes (\"stone\"), not a position".to_owned(),
                },
                (Some("Vec3"), "string", _) => ": pass a name in quotes (\"stone\"), not a position".to_owned(),
                _ => String::new(),
            };
            return Some(format!(
                "`{name}{shown}` takes {} as its {} value; you passed {}{instead}{example}",
                kind_in_words(param),
                ordinal(at),
                kind_in_words(kind.unwrap_or_default())
            ));
        }
    }
    None
}

/// A block, item or mob named as a literal to a game function (not redefined by the answer) that the game has no
/// such name for.
fn misnamed(
    call: &FnCallExpr,
    method: bool,
    names: &BTreeMap<String, Callable>,
    game: &GameNames,
    in_sight: &BTreeSet<String>,
) -> Option<String> {
    let name = call.name.as_str();
    if method || !names.get(name).is_some_and(|c| c.primitive) {
        return None;
    }
    NAMED.iter().filter(|(function, ..)| *function == name).find_map(|(_, at, kind)| match call.args.get(*at) {
        Some(Expr::StringConstant(word, _)) => unknown_name(name, *kind, word, game, in_sight),
        _ => None,
    })
}

/// `code` with each position the code found a block at passed where a block's name is wanted, replaced by that name:
/// `let stone = findBlock("stone", 16); placeBlockNextTo("crafting_table", stone);` calls
/// `placeBlockNextTo("crafting_table", "stone")`, which finds the nearest stone itself. The local 1.5B model wrote the
/// first form for nine answers in a row, told each time which name to pass. Only a variable set once, from
/// `findBlock` with a literal name, given to a skill or game function whose value there is a string. Returns the code
/// and what was replaced (`` `stone` → "stone" ``), or `None` when nothing was.
pub fn mend_found_positions(code: &str, ast: &AST, known: &Known) -> Option<(String, Vec<String>)> {
    let found = found_blocks(ast);
    let kinds = variable_kinds(ast);
    let own: BTreeSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut replacements: Vec<(usize, usize, (String, String))> = Vec::new();
    each_call(ast, |call| {
        let Some(callable) = known.by_name.get(call.name.as_str()).filter(|_| !own.contains(call.name.as_str())) else {
            return;
        };
        let overloads = match &callable.param_kinds {
            Some(skill) => std::slice::from_ref(skill),
            None if callable.primitive => callable.overloads.as_slice(),
            None => return,
        };
        let fitting: Vec<&Vec<String>> = overloads.iter().filter(|o| o.len() == call.args.len()).collect();
        for (at, arg) in call.args.iter().enumerate() {
            let Expr::Variable(variable, _, pos) = arg else { continue };
            let name = variable.1.as_str();
            let (Some(Some(block)), Some(Some("Vec3"))) = (found.get(name), kinds.get(name)) else { continue };
            if fitting.is_empty() || !fitting.iter().all(|o| o[at] == "string") {
                continue;
            }
            if let (Some(line), Some(column)) = (pos.line(), pos.position()) {
                replacements.push((line, column, (name.to_owned(), block.clone())));
            }
        }
    });
    rewrite(code, replacements, |text, (variable, block)| {
        let rest = text.strip_prefix(variable.as_str())?;
        (!rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')).then(|| {
            let said = format!("`{variable}` (where a {block} was found) → \"{block}\", the name the call takes");
            (variable.len(), format!("\"{block}\""), said)
        })
    })
}

/// `code` with the count `1` taken out of each call of a library skill that takes no values:
/// `craftWoodenPickaxe(1)` calls `craftWoodenPickaxe()`, which makes one pickaxe. The local 1.5B model passed the count seven
/// answers in a row, told each time that the skill takes none. Any other value is the model's to fix: what it meant
/// is not plain. Returns the code and what was taken out, or `None` when nothing was.
pub fn mend_counts(code: &str, ast: &AST, known: &Known) -> Option<(String, Vec<String>)> {
    let own: BTreeSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut counts: Vec<(usize, usize, String)> = Vec::new();
    each_call(ast, |call| {
        let takes_none = known
            .by_name
            .get(call.name.as_str())
            .is_some_and(|c| !c.primitive && !c.overloads.is_empty() && c.overloads.iter().all(Vec::is_empty));
        if takes_none
            && !own.contains(call.name.as_str())
            && let [Expr::IntegerConstant(1, pos)] = call.args.as_slice()
            && let (Some(line), Some(column)) = (pos.line(), pos.position())
        {
            counts.push((line, column, call.name.to_string()));
        }
    });
    rewrite(code, counts, |text, skill| {
        let rest = text.strip_prefix('1')?;
        (!rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            .then(|| (1, String::new(), format!("`{skill}(1)` → `{skill}()`: it takes no values")))
    })
}

/// `code` with each literal name the game does not have, given to a game function, replaced by the one name it
/// plainly means: the game's spelling of it (`"Wooden Pickaxe"` → `"wooden_pickaxe"`), or the only name of its
/// kind like it that the bot sees or carries (`"log"` beside spruce trees → `"spruce_log"`). Returns the code and
/// what was replaced (`"log" → "spruce_log"`), or `None` when nothing was.
pub fn mend_names(code: &str, ast: &AST, known: &Known) -> Option<(String, Vec<String>)> {
    let game = known.names?;
    let own: BTreeSet<&str> = ast.iter_functions().map(|f| f.name).collect();
    let mut replacements: Vec<(usize, usize, (String, String))> = Vec::new();
    each_call(ast, |call| {
        if !is_game_function(call.name.as_str()) || own.contains(call.name.as_str()) {
            return;
        }
        for (_, at, kind) in NAMED.iter().filter(|(function, ..)| *function == call.name.as_str()) {
            let Some(Expr::StringConstant(word, pos)) = call.args.get(*at) else { continue };
            let (Some(line), Some(column)) = (pos.line(), pos.position()) else { continue };
            let all = game.of(*kind);
            if all.contains(word.as_str()) {
                continue;
            }
            let spelled = game_spelling(word);
            let meant = if all.contains(&spelled) {
                Some(spelled)
            } else {
                let like = names_like(word, all, &known.in_sight);
                let among = |names: &BTreeSet<String>| -> Vec<&String> {
                    like.iter().filter(|n| names.contains(n.as_str())).collect()
                };
                let of_carried = CARRIED.contains(&(call.name.as_str(), *at));
                // The task's own things are looked for among all names like it, not only the first few: what it
                // gets, for a name carried or made ("boat" crafted for "Craft 1 spruce_boat"), else what it finds.
                let made = call.name == "craftItem" && *at == 0;
                let task_things = if of_carried || made { &known.task_carried } else { &known.task_found };
                let of_task: Vec<String> = names_like(word, task_things, &BTreeSet::new())
                    .into_iter()
                    .filter(|n| all.contains(n.as_str()))
                    .collect();
                match (of_carried, among(&known.carried).as_slice(), among(&known.in_sight).as_slice()) {
                    (true, [only], _) | (_, _, [only]) => Some((*only).clone()),
                    _ => match of_task.as_slice() {
                        [only] => Some(only.clone()),
                        _ => None,
                    },
                }
            };
            if let Some(meant) = meant {
                replacements.push((line, column, (word.to_string(), meant)));
            }
        }
    });
    rewrite(code, replacements, |text, (word, meant)| {
        // The literal starts at its quote.
        let quote = ['"', '`'].into_iter().find(|q| text.starts_with(&format!("{q}{word}{q}")))?;
        Some((word.len() + 2, format!("{quote}{meant}{quote}"), format!("\"{word}\" → \"{meant}\"")))
    })
}

/// `code` with each of `at` (line and column from 1, counted in characters, and what stands there) replaced where
/// `replace`, given the line's text from that column on, says how many bytes to replace, with what, and how to tell
/// it. Returns the code and what was told, each once, or `None` when nothing was replaced.
fn rewrite<T: Ord>(
    code: &str,
    mut at: Vec<(usize, usize, T)>,
    replace: impl Fn(&str, &T) -> Option<(usize, String, String)>,
) -> Option<(String, Vec<String>)> {
    // From the end of each line back, so earlier columns stay where they were.
    at.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then_with(|| a.2.cmp(&b.2)));
    at.dedup();
    let mut lines: Vec<String> = code.lines().map(str::to_owned).collect();
    let mut said = Vec::new();
    for (line, column, what) in at {
        let Some(text) = line.checked_sub(1).and_then(|line| lines.get_mut(line)) else { continue };
        let Some((start, _)) = column.checked_sub(1).and_then(|column| text.char_indices().nth(column)) else {
            continue;
        };
        let Some((len, new, told)) = text.get(start..).and_then(|rest| replace(rest, &what)) else { continue };
        text.replace_range(start..start + len, &new);
        if !said.contains(&told) {
            said.push(told);
        }
    }
    if said.is_empty() {
        return None;
    }
    let mut mended = lines.join("\n");
    if code.ends_with('\n') {
        mended.push('\n');
    }
    Some((mended, said))
}

fn ordinal(at: usize) -> &'static str {
    ["first", "second", "third", "fourth", "fifth"].get(at).copied().unwrap_or("next")
}

/// Says a name is unknown, with the nearest known one.
fn unknown(name: &str, method: bool, names: &BTreeMap<String, Callable>) -> String {
    let what = if method { "method" } else { "function" };
    match nearest(name, names) {
        Some(near) => {
            let callable = &names[&near];
            let params = if method { "()".to_owned() } else { callable.params.clone().unwrap_or_default() };
            let example = callable.example.as_deref().map(|e| format!(" (for example `{e}`)")).unwrap_or_default();
            format!(
                "there is no {what} `{name}`: did you mean `{near}{params}`{example}? Call only the functions and skills you are shown, or helpers you define"
            )
        }
        None => format!(
            "there is no {what} `{name}`: call only the functions and skills you are shown, or define `{name}` as a \
             helper before your task function"
        ),
    }
}

/// The known name nearest `name`: another API's name for it, or one a few letters away (case aside).
fn nearest(name: &str, names: &BTreeMap<String, Callable>) -> Option<String> {
    let bare = name.trim_start_matches("bot.");
    if let Some((_, ours)) = ALIASES.iter().find(|(theirs, _)| theirs.eq_ignore_ascii_case(bare)) {
        return Some((*ours).to_owned());
    }
    let lower = bare.to_lowercase();
    let limit = (lower.chars().count() / 3).max(2);
    names
        .keys()
        .filter(|known| known.starts_with(|c: char| c.is_ascii_alphabetic()))
        .map(|known| (edit_distance(&lower, &known.to_lowercase()), known))
        .filter(|(distance, _)| *distance <= limit)
        .min()
        .map(|(_, known)| known.clone())
}

/// Levenshtein distance over characters.
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script;

    fn misses(code: &str) -> Vec<String> {
        let library = script::compile("fn mineWoodLog(count) { count }\nfn craftPlanks() { 1 }", &[]).unwrap();
        let ast = script::compile(code, &[]).unwrap_or_else(|e| panic!("{e}: {code}"));
        calls(&ast, &crate::agent::act::known(Some(&library)))
    }

    #[test]
    fn code_that_calls_what_exists_passes() {
        let code = "fn helper(n) { n * 2 }\nfn mineLogs() {\n  let f = |x| x + 1;\n  let n = helper(f.call(1));\n  \
                    mineWoodLog(n);\n  craftPlanks();\n  let p = position().offset(1, 0, 0);\n  placeItem(\"dirt\", p);\n  \
                    let ore = exploreUntil(vec3(1, 0, 1), 60, || findBlock(\"iron_ore\", 32));\n  let list = [1, 2];\n  \
                    list.push(3);\n  if list.len() > 2 && inventoryCount(\"dirt\") >= 0 { chat(`${n}`); }\n  \
                    depositItemIntoChest(p, #{dirt: 1});\n  goTo(p, 2.5);\n  print(type_of(n));\n}";
        assert_eq!(misses(code), Vec::<String>::new());
    }

    #[test]
    fn called_names_every_function_call_but_not_methods() {
        let ast = script::compile(
            "fn helper() { mineWoodLog(2) }\nfn main() {\n  helper();\n  let n = craftPlanks() + 1;\n  \
             let p = position().offset(1, 0, 0);\n  if n > 0 { placeItem(\"dirt\", p); }\n}",
            &[],
        )
        .unwrap();
        let found: Vec<String> = called(&ast).into_iter().collect();
        assert_eq!(found, ["craftPlanks", "helper", "mineWoodLog", "placeItem", "position"]);
    }

    #[test]
    fn names_the_game_has_none_of_are_misses_with_the_names_meant() {
        let library = script::compile("fn mineWoodLog(count) { count }", &[]).unwrap();
        let check = |code: &str| {
            let ast = script::compile(code, &[]).unwrap_or_else(|e| panic!("{e}: {code}"));
            calls(&ast, &crate::agent::act::known(Some(&library)))
        };
        let found = check("fn a() {\n  let t = findBlock(\"tree\", 32);\n  mineBlock(\"log\", 1);\n}");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("line 2: there is no block called \"tree\" in the game"), "{found:?}");
        assert!(found[0].contains("\"oak_log\""), "{found:?}");
        assert!(found[1].starts_with("line 3: there is no block called \"log\""), "{found:?}");
        assert!(check("fn a() { craftItem(\"Wooden Pickaxe\", 1); }")[0].contains("\"wooden_pickaxe\", not"));
        assert!(check("fn a() { inventoryCount(\"planks\"); }")[0].contains("\"oak_planks\""));
        assert!(check("fn a() { killMob(\"zombi\", 60); }")[0].contains("\"zombie\""));
        assert!(check("fn a() { placeItem(\"stick\", position()); }")[0].contains("no block called \"stick\""));
        // Real names, names in variables and a skill's values are the game's business at run time.
        let fine = "fn a() {\n  mineBlock(\"spruce_log\", 1);\n  let n = \"tree\";\n  mineBlock(n, 1);\n  \
                    craftItem(\"crafting_table\", 1);\n  killMob(\"zombie\", 60);\n  smeltItem(\"raw_iron\", \
                    \"oak_planks\", 1);\n  inventoryCount(\"cobblestone\");\n  mineWoodLog(\"tree\");\n}";
        assert_eq!(check(fine), Vec::<String>::new());
    }

    #[test]
    fn a_name_plainly_meant_is_read_as_the_game_spells_it() {
        let known = |seen: &[&str]| crate::agent::act::known(None).with_in_sight(seen.iter().map(|s| (*s).to_owned()));
        let mend = |code: &str, seen: &[&str]| {
            let ast = script::compile(code, &[]).unwrap();
            mend_names(code, &ast, &known(seen))
        };
        // The only log in sight is the log meant; the literal changes, nothing else does.
        let code = "fn a() {\n  let t = findBlock(\"tree\", 32);\n  mineBlock(\"log\", 1); chat(\"log\");\n}\n";
        let (mended, said) = mend(code, &["dirt", "spruce_log", "spruce_leaves"]).unwrap();
        assert_eq!(
            mended,
            "fn a() {\n  let t = findBlock(\"spruce_log\", 32);\n  mineBlock(\"spruce_log\", 1); chat(\"log\");\n}\n"
        );
        assert_eq!(said, ["\"log\" → \"spruce_log\"", "\"tree\" → \"spruce_log\""]);
        // The game's spelling needs nothing in sight.
        let (mended, _) = mend("fn a() { craftItem(\"Wooden Pickaxe\", 1); }", &[]).unwrap();
        assert_eq!(mended, "fn a() { craftItem(\"wooden_pickaxe\", 1); }");
        // Two logs in sight: not plain; the miss names those in sight first.
        assert_eq!(mend("fn a() { mineBlock(\"log\", 1); }", &["spruce_log", "jungle_log"]), None);
        let ast = script::compile("fn a() { mineBlock(\"log\", 1); }", &[]).unwrap();
        let found = calls(&ast, &known(&["spruce_log", "jungle_log"]));
        assert!(found[0].contains("such as \"jungle_log\", \"spruce_log\", \"oak_log\""), "{found:?}");
        // A value naming something carried is read as the one carried: raw iron counted, not the ore in sight.
        let beside_ore = crate::agent::act::known(None)
            .with_in_sight(["iron_ore".to_owned(), "stone".to_owned()])
            .with_carried(["raw_iron".to_owned(), "stone_pickaxe".to_owned()]);
        let code = "fn a() { mineBlock(\"iron\", 2); inventoryCount(\"iron\") }";
        let ast = script::compile(code, &[]).unwrap();
        let (mended, _) = mend_names(code, &ast, &beside_ore).unwrap();
        assert_eq!(mended, "fn a() { mineBlock(\"iron_ore\", 2); inventoryCount(\"raw_iron\") }");
        // Nothing of it carried, two iron ores in sight: the task's own things ("Mine 3 iron_ore" counts raw iron).
        let mining_iron = crate::agent::act::known(None)
            .with_in_sight(["iron_ore".to_owned(), "deepslate_iron_ore".to_owned()])
            .with_task_things(Some("raw_iron".to_owned()), Some("iron_ore".to_owned()));
        let (mended, _) = mend_names(code, &ast, &mining_iron).unwrap();
        assert_eq!(mended, "fn a() { mineBlock(\"iron_ore\", 2); inventoryCount(\"raw_iron\") }");
        // What is to be made is not read as what is carried (raw iron and iron ore are both like it).
        let code = "fn a() { craftItem(\"iron\", 1); }";
        assert_eq!(mend_names(code, &script::compile(code, &[]).unwrap(), &beside_ore), None);
        // It is read as what the task makes ("Craft 1 spruce_boat"; the game has a boat of each wood).
        let boat = crate::agent::act::known(None).with_task_things(Some("spruce_boat".to_owned()), None);
        let code = "fn a() { craftItem(\"boat\", 1); }";
        let (mended, said) = mend_names(code, &script::compile(code, &[]).unwrap(), &boat).unwrap();
        assert_eq!(
            (mended.as_str(), said),
            ("fn a() { craftItem(\"spruce_boat\", 1); }", vec!["\"boat\" → \"spruce_boat\"".to_owned()])
        );
        // Real names, a function of the answer's own and names in other calls stay.
        assert_eq!(mend("fn a() { mineBlock(\"stone\", 1); chat(\"log\"); }", &["spruce_log"]), None);
        assert_eq!(mend("fn mineBlock(n, c) { n }\nfn a() { mineBlock(\"log\", 1); }", &["spruce_log"]), None);
    }

    #[test]
    fn a_branch_that_only_calls_its_own_function_again_is_caught() {
        let endless = "fn craftBowl() {\n  chopLog();\n  craftItem(\"bowl\", 1);\n}\n\
                       fn chopLog() {\n  if inventoryCount(\"spruce_log\") < 1 {\n    mineBlock(\"spruce_log\", 1);\n  } \
                       else {\n    chopLog();\n  }\n}";
        let found = misses(endless);
        assert_eq!(
            found,
            ["line 6: a branch of `chopLog` only calls `chopLog` again with the same values: nothing changes, so it \
              would call itself forever; do something in that branch (mine, craft) or return"]
        );
        let with_count = "fn dig(n) {\n  if n > 0 {\n    dig(n)\n  }\n}";
        assert_eq!(misses(with_count).len(), 1, "{:?}", misses(with_count));
        // Calling itself after doing something, or with other values, may end.
        for fine in [
            "fn getLog() {\n  if inventoryCount(\"oak_log\") < 2 {\n    mineBlock(\"oak_log\", 1);\n    getLog();\n  }\n}",
            "fn dig(n) {\n  if n > 0 {\n    dig(n - 1)\n  }\n}",
            "fn a() {\n  if inventoryCount(\"stick\") < 1 {\n    b();\n  }\n}\nfn b() {\n  craftItem(\"stick\", 4);\n}",
        ] {
            assert!(misses(fine).is_empty(), "{fine}: {:?}", misses(fine));
        }
    }

    #[test]
    fn a_wrong_count_gets_the_signature_and_an_example() {
        let found = misses("fn a() {\n  exploreUntil(\"iron_ore\", 64);\n}");
        assert_eq!(
            found,
            [
                "line 2: `exploreUntil` takes 3 values (direction, maxTime, callback); you passed 2 values. For example: \
              `let ore = exploreUntil(vec3(1, 0, 1), 60, || findBlock(\"iron_ore\", 32));`"
            ]
        );
        assert!(
            misses("fn a() { mineBlock(\"a\", 1, 2); }")[0]
                .contains("`mineBlock` takes 1 or 2 values (name, count); you passed 3 values")
        );
        assert!(
            misses("fn a() { mineWoodLog(); }")[0].contains("`mineWoodLog` takes 1 value (count); you passed none")
        );
        assert!(
            misses("fn h(a, b) {}\nfn a() { h(1); }")[0].contains("`h` takes 2 values (a, b); you passed one value")
        );
    }

    #[test]
    fn a_wrong_kind_is_named() {
        let found = misses("fn a() {\n  placeItem(\"dirt\", \"here\");\n}");
        assert!(found[0].starts_with("line 2: `placeItem(name, pos)` takes a position (vec3(x, y, z)) as its second value; you passed a string"), "{found:?}");
        assert!(misses("fn a() { mineBlock(\"stone\", \"3\"); }")[0].contains("whole number as its second value"));
        assert!(misses("fn a() { exploreUntil(vec3(1, 0, 0), 60, 5); }")[0].contains("a function (|| …) as its third"));
        // A variable bound to what a game function returns has that kind; one assigned again has none.
        let found = misses("fn a() {\n  let gold = findBlock(\"gold_block\", 32);\n  mineBlock(gold, 1);\n}");
        assert!(
            found[0].starts_with(
                "line 3: `mineBlock(name, count)` takes a string as its first value; you passed a position"
            ),
            "{found:?}"
        );
        assert_eq!(
            misses("fn a() { let n = findBlock(\"stone\"); n = \"dirt\"; mineBlock(n, 1); }"),
            Vec::<String>::new()
        );
    }

    /// A skill's parameter passed straight to a game function takes that function's kind: the local model passed
    /// the gold block's position to `placeBlockOnTop(block, target)`, whose `target` is a block's name.
    #[test]
    fn a_skills_parameters_take_the_kinds_of_the_game_functions_they_reach() {
        let skill = "fn placeBlockOnTop(block, target) {\n  let found = findBlocks(target, 32, 4096);\n  placeItem(block, found[0]);\n}";
        let library = script::compile(skill, &[]).unwrap();
        let mut known = crate::agent::act::known(Some(&library));
        known.learn_kinds("placeBlockOnTop", &["block".into(), "target".into()], &library);
        let code = "fn a() {\n  let gold = findBlock(\"gold_block\", 32);\n  placeBlockOnTop(\"dirt\", gold);\n}";
        let found = calls(&script::compile(code, &[]).unwrap(), &known);
        assert_eq!(
            found,
            ["line 3: `placeBlockOnTop(block, target)` takes a string as its second value; you passed a position \
                 (vec3(x, y, z)): pass the block's name, \"gold_block\", not where `gold` is"]
        );
        let right = "fn a() { placeBlockOnTop(\"dirt\", \"gold_block\"); }";
        assert_eq!(calls(&script::compile(right, &[]).unwrap(), &known), Vec::<String>::new());

        // The position found by a block's name, passed for the name, is read as the name.
        let (mended, said) = mend_found_positions(code, &script::compile(code, &[]).unwrap(), &known).unwrap();
        assert!(mended.contains("placeBlockOnTop(\"dirt\", \"gold_block\");"), "{mended}");
        assert!(mended.contains("let gold = findBlock(\"gold_block\", 32);"), "{mended}");
        assert_eq!(said, ["`gold` (where a gold_block was found) → \"gold_block\", the name the call takes"]);
        assert_eq!(calls(&script::compile(&mended, &[]).unwrap(), &known), Vec::<String>::new());
        // Not a variable set again, nor one found by a name that is not a literal, nor a value that is a position.
        for code in [
            "fn a() {\n  let gold = findBlock(\"gold_block\", 32);\n  gold = position();\n  placeBlockOnTop(\"dirt\", gold);\n}",
            "fn a() {\n  let n = \"gold_block\";\n  let gold = findBlock(n, 32);\n  placeBlockOnTop(\"dirt\", gold);\n}",
            "fn a() {\n  let gold = findBlock(\"gold_block\", 32);\n  placeItem(\"dirt\", gold);\n}",
        ] {
            assert_eq!(mend_found_positions(code, &script::compile(code, &[]).unwrap(), &known), None, "{code}");
        }
    }

    #[test]
    fn a_count_given_to_a_skill_that_takes_none_is_taken_out() {
        let library = script::compile("fn craftWoodenPickaxe() { craftItem(\"wooden_pickaxe\", 1); }", &[]).unwrap();
        let known = crate::agent::act::known(Some(&library));
        let code =
            "fn a() {\n  craftPlanks(1);\n  craftWoodenPickaxe(1); // one\n  craftItem(\"spruce_button\", 1);\n}";
        let found = calls(&script::compile(code, &[]).unwrap(), &known);
        assert!(
            found.iter().any(|m| m.ends_with(
                "`craftWoodenPickaxe` takes no values; you passed one value: write `craftWoodenPickaxe()`, with nothing \
                 between the brackets"
            )),
            "{found:?}"
        );
        let (mended, said) = mend_counts(code, &script::compile(code, &[]).unwrap(), &known).unwrap();
        assert!(mended.contains("  craftWoodenPickaxe(); // one\n"), "{mended}");
        assert_eq!(said, ["`craftWoodenPickaxe(1)` → `craftWoodenPickaxe()`: it takes no values"]);
        // A count other than one, a game function's count, and the answer's own function are left to the model.
        for code in [
            "fn a() { craftWoodenPickaxe(2); }",
            "fn a() { craftItem(\"stick\", 1); }",
            "fn craftWoodenPickaxe() { craftItem(\"wooden_pickaxe\", 1); }\nfn a() { craftWoodenPickaxe(1); }",
        ] {
            assert_eq!(mend_counts(code, &script::compile(code, &[]).unwrap(), &known), None, "{code}");
        }
    }

    #[test]
    fn an_unknown_name_gets_the_nearest() {
        let found = misses("fn a() {\n  exploreUntill(vec3(1, 0, 0), 60, || ());\n}");
        assert!(found[0].starts_with("line 2: there is no function `exploreUntill`: did you mean `exploreUntil(direction, maxTime, callback)`"), "{found:?}");
        assert!(
            misses("fn a() { findNearestBlock(\"stone\"); }")[0]
                .contains("did you mean `findBlock(name, maxDistance)`")
        );
        assert!(misses("fn a() { craftplanks(); }")[0].contains("did you mean `craftPlanks()`"));
        assert!(
            misses("fn a() { let l = [1]; l.indexOf(1); }")[0]
                .contains("no method `indexOf`: did you mean `index_of()`")
        );
        let far = misses("fn a() { levitateSkyward(); }");
        assert!(far[0].contains("there is no function `levitateSkyward`: call only the functions"), "{far:?}");
    }

    #[test]
    fn defining_a_game_function_is_refused() {
        let found = misses("fn exploreUntil(name, maxDistance) { 1 }\nfn a() { exploreUntil(\"x\", 2) }");
        assert!(found[0].starts_with("`exploreUntil` is a built-in function of the game: call it as exploreUntil(direction, maxTime, callback)"), "{found:?}");
    }

    /// The check must not refuse what already runs: every starter skill against the starter library, and every
    /// example in the primitives' documentation.
    #[test]
    fn the_starter_library_and_the_examples_pass() {
        let dir = crate::crate_dir().join("skills");
        let mut sources = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rhai") {
                sources.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
        assert!(sources.len() > 40, "{} starter skills", sources.len());
        let mut library = AST::empty();
        for (path, code) in &sources {
            library += script::compile(code, &[]).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        let mut known = crate::agent::act::known(Some(&library));
        for (_, code) in &sources {
            let ast = script::compile(code, &[]).unwrap();
            for function in ast.iter_functions() {
                let params: Vec<String> = function.params.iter().map(|p| (*p).to_owned()).collect();
                known.learn_kinds(function.name, &params, &ast);
            }
        }
        for (path, code) in &sources {
            let found = calls(&script::compile(code, &[]).unwrap(), &known);
            assert!(found.is_empty(), "{path}: {found:?}");
        }
        for (name, doc) in PRIMITIVES {
            let example: String = doc.lines().filter_map(|l| l.strip_prefix("// ")).collect::<Vec<_>>().join("\n");
            let code = format!("fn example() {{\n{example}\n}}");
            let found = calls(&script::compile(&code, &[]).unwrap(), &known);
            assert!(found.is_empty(), "{name}: {found:?}");
        }
    }
}
