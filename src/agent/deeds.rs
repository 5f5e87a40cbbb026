//! Code for the steps that change the world, read from their words, as the game's facts give code for items: `Build
//! a wall of cobblestone 3 blocks long and 2 high`, `Place a dirt block on top of the gold block`, `Light up the area
//! with 4 torches`, `Dig a hole 2 blocks deep`, `Clear the tall grass`, `Go stand on the gold block`, `Put 4 oak
//! planks into the chest`, `Give 3 bread to Bob`. The code runs before any LLM is asked to write some, and is judged
//! like any other: by the step's tracker and the world diff. When it falls short, the LLM is asked with what
//! happened.
//!
//! Only ids the game knows and player names (letters, digits, `_`) go into the code, so no words can carry code.

use super::{
    effect::{Asked, Beside, Effect, Shape, Side},
    plan::TaskSpec,
    recipes::{self, Setting, Want},
};

/// The most blocks one step places or digs from its words.
const MOST: u32 = 64;
/// How far (blocks) a step looks for the blocks it digs or the chest it fills.
pub const NEAR: u32 = 8;

/// Code that does what `asked` (read from `task`) asks, when the words say enough to write it.
pub fn code(asked: &Asked) -> Option<String> {
    let count = asked.count.unwrap_or(1);
    if count == 0 || count > MOST {
        return None;
    }
    let thing = asked.thing.as_deref();
    match asked.effect {
        Effect::Place => {
            let block = thing.filter(|t| recipes::is_block(t))?;
            Some(match (asked.at, asked.shape, &asked.beside) {
                (Some(at), _, _) => format!("placeItem(\"{block}\", {});\n1", vec3(at)),
                (None, Some(Shape::Around), _) => around(block),
                (None, Some(Shape::Hole(_) | Shape::Pit { .. }), _) => return None,
                (None, Some(shape), _) => build(block, shape),
                (None, None, Some(beside)) => place_beside(block, beside.block.as_deref()?, beside.side),
                (None, None, None) => recipes::place_near(block, count),
            })
        }
        Effect::Dig => match (asked.at, asked.shape, thing) {
            (Some(at), _, _) => Some(format!("digBlock({});\n1", vec3(at))),
            (None, Some(Shape::Hole(deep)), _) if asked.here() => Some(hole_here(deep)),
            (None, Some(Shape::Hole(deep)), _) => Some(hole(deep)),
            (None, Some(Shape::Pit { long, wide, deep }), _) => Some(pit(long, wide, deep)),
            (None, None, Some(block)) if recipes::is_block(block) => Some(clear(block, asked.count)),
            // `dig any 4 blocks of ground`: no kind named, so the ground's own top blocks near the bot.
            (None, None, None) if asked.count.is_some() => Some(ground(count)),
            _ => None,
        },
        Effect::Go => match (asked.at, thing) {
            (Some(at), _) => Some(format!(
                "let there = {};\ntry {{ standOn(there); }} catch (err) {{ goTo(there, 1); }}\nposition()",
                vec3(at)
            )),
            (None, Some(block)) if recipes::is_block(block) => Some(format!(
                "let there = findBlock(\"{block}\", 64);\nif there == () {{ throw \"I see no {block} within 64 \
                 blocks\"; }}\nstandOn(there);\nthere"
            )),
            _ => None,
        },
        Effect::Store => Some(match &asked.beside {
            Some(beside) => store_beside(thing?, count, beside),
            None => store(thing?, count),
        }),
        Effect::Give => Some(format!("giveItem(\"{}\", \"{}\", {count})", asked.player.as_deref()?, thing?)),
    }
}

/// The steps for a goal whose every part (`place a chest and store 6 cobblestone in it`) reads as a change of the
/// world this module writes code for, each with the tracker that measures it; what must be carried first (the
/// blocks to place, the items to store) is planned from the game's facts. `None` when any part is not so, or what it
/// needs cannot be planned: then the LLM plans.
pub fn plan(goal: &str, setting: &Setting) -> Option<Vec<TaskSpec>> {
    let mut steps = Vec::new();
    let mut needed: Vec<(String, u32)> = Vec::new();
    let mut container_placed = false;
    for (part, joined) in parts(goal) {
        // `place a chest and put 3 torches in it`: `it` is the chest just placed.
        let part = if container_placed { into_it(&part) } else { part };
        let asked = super::act::asked_of(&part)?;
        container_placed |= asked.effect == Effect::Place && asked.thing.as_deref() == Some("chest");
        if joined && asked.shape.is_none() && asked.beside.as_ref().is_none_or(|b| b.not.is_none()) {
            // Words after an `and` that start no step of their own belong to this one: only a shape's sizes
            // (`3 long and 2 high`) and which chest it is not (`…, not the one by the iron block`) are read from
            // them, so anything else would be dropped unseen.
            return None;
        }
        let code = code(&asked)?;
        let tracker = super::effect::fitting(&asked)?;
        if matches!(asked.effect, Effect::Place | Effect::Store | Effect::Give)
            && asked.at.is_none()
            && let Some(thing) = &asked.thing
        {
            let count = asked.count.unwrap_or(1);
            match needed.iter_mut().find(|(t, _)| t == thing) {
                Some((_, n)) => *n += count,
                None => needed.push((thing.clone(), count)),
            }
        }
        steps.push(TaskSpec {
            task: super::text::capitalised(&part),
            context: String::new(),
            tracker: Some(tracker),
            code: Some(code),
        });
    }
    let mut first = Vec::new();
    for (item, count) in needed {
        match recipes::plan(&Want::Have { item: item.clone(), count }, setting) {
            Ok(more) => first.extend(more),
            Err(recipes::NoSteps::Carried { .. }) => {}
            Err(why) => {
                tracing::info!("{goal:?} reads as a change of the world, but the {item} it needs: {why}");
                return None;
            }
        }
    }
    first.extend(steps);
    Some(first)
}

/// How each part of `goal` (see [`parts`]) reads, in order: the goal's reading is theirs together. `in it` after a
/// part that placed a chest is that chest.
pub fn readings(goal: &str) -> Vec<(String, Result<Asked, super::reading::Unread>)> {
    let mut container_placed = false;
    let mut read = Vec::new();
    for (part, _) in parts(goal) {
        let part = if container_placed { into_it(&part) } else { part };
        let reading = super::act::reading_of(&part);
        if let Ok(asked) = &reading {
            container_placed |= asked.effect == Effect::Place && asked.thing.as_deref() == Some("chest");
        }
        read.push((part, reading));
    }
    read
}

/// The parts of a goal joined by `and`, `then` or commas, each a step: a joint starts a new part only where the words
/// after it begin with a verb of their own (`a wall 3 long and 2 high` stays whole, and is marked as joined). `it`
/// after a part that placed something means what it placed, which the code finds again by its kind.
fn parts(goal: &str) -> Vec<(String, bool)> {
    const JOINTS: [&str; 10] =
        [", and then ", " and then ", ", then ", " then ", ", and ", " and ", " n ", " & ", ", ", ". "];
    // `the chest by the gold block, put 5 iron in it`: one goal, the remark in the pronoun's place.
    let goal = super::reading::named_back(goal, &super::act::is_game_id).unwrap_or_else(|| goal.to_owned());
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut rest = goal.trim().trim_end_matches(['.', '!']);
    let mut joint = "";
    loop {
        // The nearest joint, the longest where several start at one place.
        let next =
            JOINTS.iter().filter_map(|j| Some((rest.find(j)?, *j))).min_by_key(|(at, j)| (*at, usize::MAX - j.len()));
        let piece = next.map_or(rest, |(at, _)| &rest[..at]);
        match parts.last_mut() {
            Some((last, joined)) if !starts_a_step(piece) => {
                last.push_str(joint);
                last.push_str(piece);
                // `…, pls`: words that ask nothing join no sizes to the step.
                *joined |= !super::vocab::says_nothing(piece);
            }
            _ => parts.push((piece.to_owned(), false)),
        }
        let Some((at, j)) = next else { break };
        joint = j;
        rest = &rest[at + j.len()..];
    }
    // A part of words that ask nothing (`brb, dig a hole`, `ok, …`) is no step, nor a `go` after the goal (`a wall
    // of dirt, 6 long. go`): the word to start, not a walk.
    let many = parts.len() > 1;
    let parts: Vec<(String, bool)> = parts
        .into_iter()
        .map(|(p, joined)| (p.trim().to_owned(), joined))
        .filter(|(p, _)| !p.is_empty() && !super::vocab::says_nothing(p) && !(many && starts_it(p)))
        .collect();
    let last = parts.len().saturating_sub(1);
    let parts: Vec<(String, bool)> = parts
        .into_iter()
        .enumerate()
        .filter(|(i, (p, _))| !(*i < last && comes_over(p)))
        .map(|(_, part)| part)
        .collect();
    on_it(parts)
}

/// `go to the hay bale and stand on it`: one step, standing on what the walk went to.
fn on_it(parts: Vec<(String, bool)>) -> Vec<(String, bool)> {
    const ON_IT: [&str; 8] = [
        "stand on it",
        "stand on top",
        "stand on top of it",
        "get on it",
        "hop on it",
        "climb on it",
        "get on top",
        "get on top of it",
    ];
    let mut out: Vec<(String, bool)> = Vec::with_capacity(parts.len());
    for (part, joined) in parts {
        let bare = part.trim_end_matches(['.', '!', '?']).to_lowercase();
        let walked_to = out
            .last()
            .and_then(|(last, _)| super::act::reading_of(last).ok())
            .filter(|asked| asked.effect == Effect::Go && asked.thing.is_some() && asked.at.is_none());
        match walked_to {
            Some(asked) if ON_IT.contains(&bare.as_str()) => {
                let thing = asked.thing.unwrap_or_default();
                out.last_mut().expect("a walk before").0 = format!("go stand on the {thing}");
            }
            _ => out.push((part, joined)),
        }
    }
    out
}

/// Whether `part` only says to come over before the step that says where (`walk over and stand on the emerald
/// block`): the walk is that step's.
fn comes_over(part: &str) -> bool {
    const OVER: [&str; 6] = ["walk over", "come over", "go over", "head over", "run over", "hop over"];
    let words: Vec<String> = part.split_whitespace().map(|w| w.trim_matches(['.', '!', ',']).to_lowercase()).collect();
    OVER.contains(&words.join(" ").as_str())
}

/// Whether `part` only says to begin (`go`, `go ahead`, `now go`).
fn starts_it(part: &str) -> bool {
    const START: [&str; 7] = ["go", "go go", "go now", "now go", "ok go", "go ahead", "go for it"];
    let words: Vec<String> = part.split_whitespace().map(|w| w.trim_matches(['.', '!', ',']).to_lowercase()).collect();
    START.contains(&words.join(" ").as_str())
}

/// `part` with `in it` / `into it` said as the chest it means.
fn into_it(part: &str) -> String {
    let words: Vec<&str> = part.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len() + 1);
    for (i, word) in words.iter().enumerate() {
        let it = ["it", "it."].contains(&word.to_lowercase().as_str());
        if it && i > 0 && ["in", "into", "inside"].contains(&words[i - 1].to_lowercase().as_str()) {
            out.extend(["the", "chest"]);
        } else {
            out.push(word);
        }
    }
    out.join(" ")
}

/// Whether `words` begin with a verb that changes the world (read loosely: whether the rest of them reads is the
/// step's own reading's business).
fn starts_a_step(words: &str) -> bool {
    // A verb of its own, not one its words imply (`could you build a 5 long, 2 tall wall`: the wall's height).
    let opens = super::vocab::words(words, crate::config::Lang::En, super::act::is_game_id)
        .words
        .first()
        .is_some_and(|w| super::vocab::is(w, super::vocab::Kind::Verb));
    opens && super::act::asked_loosely(words).is_some()
}

fn vec3([x, y, z]: [i32; 3]) -> String {
    format!("vec3({x}, {y}, {z})")
}

/// The natural ground's blocks: dug out from under a block that stands on them, for a block asked under it.
const GROUND: &str = "[\"grass_block\", \"dirt\", \"coarse_dirt\", \"podzol\", \"mycelium\", \"sand\", \"red_sand\", \
    \"gravel\", \"clay\", \"mud\", \"stone\", \"deepslate\", \"andesite\", \"diorite\", \"granite\", \"tuff\", \
    \"netherrack\", \"snow_block\"]";

/// Blocks that a placed block replaces: a spot holding them is open.
const OPEN: &str = r#"["air", "cave_air", "short_grass", "tall_grass", "fern", "snow"]"#;

/// Code that finds open, level ground beside the bot where `shape` fits (its lowest layer on solid blocks) and
/// places `block` there, lowest layer first.
fn build(block: &str, shape: Shape) -> String {
    let mut parts = shape.offsets();
    parts.sort_by_key(|[x, y, z]| (*y, *x, *z));
    let parts = parts.iter().map(|[x, y, z]| format!("[{x}, {y}, {z}]")).collect::<Vec<_>>().join(", ");
    let put = match shape {
        // Its top is out of reach from the ground, and there is nothing beside it to stand on: it goes up under the
        // bot, which then steps off it to the ground.
        Shape::Column(high) if high > REACHED => format!("standOn(anchor);\npillarUp(\"{block}\", {high});"),
        // A wall that tall goes up a column at a time, each from the ground beside the last.
        Shape::Wall { long, high } if high > REACHED => format!(
            "for i in 0..{long} {{\n    standOn(anchor + vec3(i, 0, 0));\n    pillarUp(\"{block}\", {high});\n}}"
        ),
        _ => format!("for p in parts {{\n    placeItem(\"{block}\", anchor + vec3(p[0], p[1], p[2]));\n}}"),
    };
    format!(
        r#"let parts = [{parts}];
let open = {OPEN};
let feet = position().floor();
let anchor = ();
for d in [[2, 0, 0], [-2, 0, 0], [0, 0, 2], [0, 0, -2], [2, 0, 2], [-2, 0, -2], [2, 0, -2], [-2, 0, 2], [3, 0, 0], [-3, 0, 0], [0, 0, 3], [0, 0, -3], [4, 0, 0], [-4, 0, 0], [0, 0, 4], [0, 0, -4]] {{
    let corner = feet + vec3(d[0], d[1], d[2]);
    let fits = true;
    for p in parts {{
        let spot = corner + vec3(p[0], p[1], p[2]);
        if !open.contains(blockAt(spot)) || (p[1] == 0 && open.contains(blockAt(spot - vec3(0, 1, 0)))) {{
            fits = false;
            break;
        }}
    }}
    if fits {{ anchor = corner; break; }}
}}
if anchor == () {{ throw "I found no open, level ground near me for {shape} of {block}"; }}
{put}
anchor"#
    )
}

/// The highest block (above the ground block the bot stands on) a placement from the ground reaches: a column or
/// a wall taller than this goes up under the bot, jump by jump.
const REACHED: u32 = 3;

/// Code that places `block` against a side of the nearest `beside` block that has room there.
/// Under a block that stands on the ground, the ground is dug out first (`a stone block underneath the gold block`:
/// where the grass was); nothing else in the way is taken away.
fn place_beside(block: &str, target: &str, side: Side) -> String {
    let (sides, words) = sides_of(side);
    let ground = if side == Side::Under { GROUND } else { "[]" };
    format!(
        r#"let found = findBlocks("{target}", 32, 16);
if found.len() == 0 {{ throw "I see no {target} within 32 blocks to put the {block} {words}"; }}
let open = {OPEN};
let ground = {ground};
let why = "there is no room {words} any {target} near me";
for there in found {{
    for side in {sides} {{
        let spot = there + side;
        if ground.contains(blockAt(spot)) && blockAt(spot) != "{block}" {{
            try {{ digBlock(spot); }} catch (err) {{ why = `${{err}}`; continue; }}
        }}
        if !open.contains(blockAt(spot)) {{ continue; }}
        try {{
            placeItem("{block}", spot);
            return spot;
        }} catch (err) {{
            why = `${{err}}`;
        }}
    }}
}}
throw `I could not place the {block} {words} a {target}: ${{why}}`;"#
    )
}

/// The kinds of block a step naming `block` digs: grass asked for by either name is both kinds.
pub fn kinds_of(block: &str) -> Vec<&str> {
    if ["short_grass", "tall_grass"].contains(&block) { vec!["short_grass", "tall_grass"] } else { vec![block] }
}

/// Code that digs the `block`s within [`NEAR`] blocks (the nearest `count` of them, or all): grass asked for by
/// either name is both kinds.
fn clear(block: &str, count: Option<u32>) -> String {
    let kinds = format!("[\"{}\"]", kinds_of(block).join("\", \""));
    let most = count.unwrap_or(MOST);
    // More than asked are looked at (as many as may be dug), so blocks in the open come first: `the 3 stone blocks
    // by you` are the ones standing out, not one buried under the ground beside them.
    let looked = MOST;
    format!(
        r#"let found = [];
for kind in {kinds} {{ found.append(findBlocks(kind, {NEAR}, {looked})); }}
if found.len() == 0 {{ throw "I see no {block} within {NEAR} blocks"; }}
let open = ["air", "cave_air", "water", "short_grass", "tall_grass", "snow"];
let faces = [vec3(0, 1, 0), vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, -1, 0)];
let exposed = [];
let buried = [];
for spot in found {{
    let out = false;
    for face in faces {{ if open.contains(blockAt(spot + face)) {{ out = true; break; }} }}
    if out {{ exposed.push(spot); }} else {{ buried.push(spot); }}
}}
found = exposed + buried;
let dug = 0;
for spot in found {{
    if dug >= {most} {{ break; }}
    if blockAt(spot) == "air" {{ continue; }}
    digBlock(spot);
    dug += 1;
}}
dug"#
    )
}

/// Code that digs `count` blocks of the ground's top layer around the bot, nearest ring first (never under its feet),
/// whatever they are made of.
fn ground(count: u32) -> String {
    format!(
        r#"let feet = position().floor();
let hard = ["air", "cave_air", "water", "lava", "bedrock"];
let dug = 0;
for r in 1..5 {{
    for dx in -r..=r {{
        for dz in -r..=r {{
            if dug >= {count} {{ return dug; }}
            if dx.abs() != r && dz.abs() != r {{ continue; }}
            let spot = feet + vec3(dx, -1, dz);
            if hard.contains(blockAt(spot)) || blockAt(spot + vec3(0, 1, 0)) != "air" {{ continue; }}
            digBlock(spot);
            dug += 1;
        }}
    }}
}}
if dug < {count} {{ throw `I found only ${{dug}} blocks of open ground near me to dig`; }}
dug"#
    )
}

/// Code that digs a hole `deep` blocks deep beside the bot, into the first side that has ground to dig.
fn hole(deep: u32) -> String {
    format!(
        r#"let feet = position().floor();
let why = "I found no ground beside me to dig into";
for side in [vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 0, 1), vec3(0, 0, -1)] {{
    let top = feet + side - vec3(0, 1, 0);
    if blockAt(top) == "air" || blockAt(top + vec3(0, 1, 0)) != "air" {{ continue; }}
    try {{
        for i in 0..{deep} {{ digBlock(top - vec3(0, i, 0)); }}
        return top;
    }} catch (err) {{
        why = `${{err}}`;
    }}
}}
throw why;"#
    )
}

/// Code that digs a hole `deep` blocks straight down under the bot's feet (the bot goes down with it), answering
/// the top of the hole.
fn hole_here(deep: u32) -> String {
    format!(
        r#"let top = position().floor() - vec3(0, 1, 0);
for i in 0..{deep} {{ digBlock(top - vec3(0, i, 0)); }}
top"#
    )
}

/// Code that digs a hole `long` by `wide` and `deep` into level ground beside the bot (not under its feet), a layer
/// at a time from the top, answering its top north-west corner.
fn pit(long: u32, wide: u32, deep: u32) -> String {
    format!(
        r#"let feet = position().floor();
let corner = ();
for d in [[1, 0, 0], [-{long}, 0, 0], [0, 0, 1], [0, 0, -{wide}], [1, 0, 1], [-{long}, 0, -{wide}], [1, 0, -{wide}], [-{long}, 0, 1]] {{
    let top = feet + vec3(d[0], -1, d[2]);
    let fits = true;
    for x in 0..{long} {{
        for z in 0..{wide} {{
            let cell = top + vec3(x, 0, z);
            if blockAt(cell) == "air" || blockAt(cell + vec3(0, 1, 0)) != "air" {{ fits = false; }}
        }}
    }}
    if fits {{ corner = top; break; }}
}}
if corner == () {{ throw "I found no level ground beside me for a hole {long} by {wide}"; }}
for y in 0..{deep} {{
    for x in 0..{long} {{
        for z in 0..{wide} {{
            digBlock(corner + vec3(x, -y, z));
        }}
    }}
}}
corner"#
    )
}

/// Code that places `block` on each of the four sides of where the bot stands, on its level, staying put: the
/// sides already holding it are left as they are.
fn around(block: &str) -> String {
    format!(
        r#"let feet = position().floor();
let open = {OPEN};
for side in [vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 0, 1), vec3(0, 0, -1)] {{
    let spot = feet + side;
    if blockAt(spot) == "{block}" {{ continue; }}
    if !open.contains(blockAt(spot)) {{ digBlock(spot); }}
    placeItem("{block}", spot);
}}
feet"#
    )
}

/// Code that puts `count` of `item` into a chest standing `beside` a block of the kind named (`the chest next to
/// the crafting table`), the nearest such chest, and into no other; or, named only by what it is not beside (`the
/// chest that isn't next to the furnace`), the nearest chest apart from that.
fn store_beside(item: &str, count: u32, beside: &Beside) -> String {
    let deposit = deposit(item, count);
    // The blocks searched, the sides of them where the chest stands, and the words naming it; with no block it
    // stands beside, the chests themselves are searched, each its own spot.
    let (sought, (sides, words), target) = match (&beside.block, &beside.not) {
        (Some(block), _) => (block.as_str(), sides_of(beside.side), block.as_str()),
        (None, not) => ("chest", ("[vec3(0, 0, 0)]", "not next to"), not.as_deref().unwrap_or("chest")),
    };
    // `not the one by the iron block`: a chest with that kind next to it is passed over.
    let (next_to, _) = sides_of(Side::NextTo);
    let apart = match &beside.not {
        Some(not) => format!(
            r#"
        let apart = true;
        for o in {next_to} {{
            if blockAt(spot + o) == "{not}" {{ apart = false; }}
        }}
        if !apart {{ continue; }}"#
        ),
        None => String::new(),
    };
    format!(
        r#"let chest = ();
for there in findBlocks("{sought}", 32, 16) {{
    for side in {sides} {{
        let spot = there + side;
        if blockAt(spot) != "chest" {{ continue; }}{apart}
        chest = spot;
        break;
    }}
    if chest != () {{ break; }}
}}
if chest == () {{ throw "I see no chest {words} a {target} within 32 blocks to put the {item} in"; }}
{deposit}"#
    )
}

/// Code that puts up to `count` of the carried `item` into the chest at `chest` (a variable of the code before it).
fn deposit(item: &str, count: u32) -> String {
    format!(
        r#"let n = inventoryCount("{item}");
if n == 0 {{ throw "I have no {item} to store"; }}
if n > {count} {{ n = {count}; }}
let items = #{{}};
items["{item}"] = n;
depositItemIntoChest(chest, items);
n"#
    )
}

/// The offsets from a block to the spots on `side` of it, as Rhai, and the side in words.
fn sides_of(side: Side) -> (&'static str, &'static str) {
    let offsets = match side {
        Side::NextTo => "[vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 0, 1), vec3(0, 0, -1)]",
        Side::OnTop => "[vec3(0, 1, 0)]",
        Side::Under => "[vec3(0, -1, 0)]",
        Side::North => "[vec3(0, 0, -1)]",
        Side::South => "[vec3(0, 0, 1)]",
        Side::East => "[vec3(1, 0, 0)]",
        Side::West => "[vec3(-1, 0, 0)]",
    };
    (offsets, side.words())
}

/// Code that puts `count` of `item` into the nearest chest, placing a carried one first when none is near.
fn store(item: &str, count: u32) -> String {
    let place_chest = super::text::indent(&recipes::place_near("chest", 1));
    let deposit = deposit(item, count);
    format!(
        r#"let chest = findBlock("chest", {NEAR});
if chest == () && inventoryCount("chest") > 0 {{
{place_chest}
    chest = findBlock("chest", {NEAR});
}}
if chest == () {{ throw "I see no chest within {NEAR} blocks to put the {item} in"; }}
{deposit}"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(task: &str) -> Asked {
        super::super::act::asked_of(task).unwrap_or_else(|| panic!("{task:?} reads as no change of the world"))
    }

    /// Every piece of code this module writes compiles as a function body the runner accepts.
    fn compiles(task: &str) -> String {
        let code = code(&asked(task)).unwrap_or_else(|| panic!("no code for {task:?}"));
        let text = format!("```rhai\nfn doIt() {{\n{code}\n}}\n```");
        if let Err(why) = super::super::extract::program(&text, &super::super::act::known(None)) {
            panic!("the code for {task:?} does not compile: {why}\n{code}");
        }
        code
    }

    #[test]
    fn a_hole_with_sides_is_dug_a_layer_at_a_time_beside_the_bot() {
        let pit = compiles("dig a 2 by 3 hole 2 deep");
        assert!(
            pit.contains("for y in 0..2") && pit.contains("for x in 0..2") && pit.contains("for z in 0..3"),
            "{pit}"
        );
    }

    #[test]
    fn the_words_of_world_steps_give_code_that_compiles() {
        let wall = compiles("build a wall of cobblestone 3 blocks long and 2 blocks high");
        assert!(
            wall.contains("let parts = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]];"),
            "{wall}"
        );
        assert!(compiles("make a 2 by 2 floor of oak planks").contains("placeItem(\"oak_planks\""));
        assert!(compiles("lay 4 cobblestone in a line on the ground").contains("[3, 0, 0]"));
        assert!(compiles("build a pillar of 3 dirt blocks next to you").contains("[0, 2, 0]"));
        let torches = compiles("light up the area around you with 4 torches");
        assert!(torches.contains("while placed < 4") && torches.contains("\"torch\""), "{torches}");
        let on_top = compiles("place a dirt block on top of the gold block");
        assert!(on_top.contains("findBlocks(\"gold_block\"") && on_top.contains("[vec3(0, 1, 0)]"), "{on_top}");
        assert!(compiles("place a crafting table next to the stone block").contains("findBlocks(\"stone\""));
        assert!(compiles("dig a hole 2 blocks deep next to you").contains("for i in 0..2"));
        assert!(compiles("break the cobblestone wall next to you").contains("[\"cobblestone\"]"));
        assert!(compiles("clear the tall grass around you").contains("[\"short_grass\", \"tall_grass\"]"));
        assert!(compiles("go stand on the gold block").contains("findBlock(\"gold_block\", 64)"));
        assert!(compiles("walk over to the diamond block").contains("standOn(there)"));
        assert!(compiles("Go stand on -7 64 -7").contains("vec3(-7, 64, -7)"));
        let store = compiles("put 4 oak planks into the chest next to you");
        assert!(store.contains("items[\"oak_planks\"] = n") && store.contains("if n > 4"), "{store}");
        assert_eq!(compiles("give 3 bread to Bob"), "giveItem(\"Bob\", \"bread\", 3)");
        assert!(compiles("Place dirt at 1 64 2").starts_with("placeItem(\"dirt\", vec3(1, 64, 2))"));
        // No kind named: the ground's own top blocks.
        assert!(compiles("dig any 4 blocks of ground near you").contains("if dug >= 4 { return dug; }"));
    }

    #[test]
    fn words_that_do_not_say_enough_give_no_code() {
        // No block named, or a hole of no depth; an item that is not a block; more than a step should place.
        for task in
            ["flatten the area", "dig down", "build a house", "place 100 dirt", "place 3 sticks", "go somewhere"]
        {
            if let Some(asked) = super::super::act::asked_of(task) {
                assert_eq!(code(&asked), None, "{task:?}");
            }
        }
    }

    #[test]
    fn a_goal_of_world_changes_is_planned_from_its_words_with_what_it_needs_first() {
        let carrying = |items: &[(&str, i32)]| Setting {
            carried: items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect(),
            ..Setting::default()
        };
        let steps = plan("place a chest and store 6 cobblestone in it", &carrying(&[("chest", 1), ("cobblestone", 6)]))
            .expect("planned");
        let tasks: Vec<&str> = steps.iter().map(|s| s.task.as_str()).collect();
        assert_eq!(tasks, ["Place a chest", "Store 6 cobblestone in the chest"]);
        assert!(steps.iter().all(|s| s.code.is_some() && s.tracker.is_some()));
        // Without the cobblestone, mining it comes first.
        let steps = plan("build a pillar of 3 cobblestone", &carrying(&[])).expect("planned");
        assert!(steps[0].task.starts_with("Mine") || steps[0].task.contains("cobblestone"), "{:?}", steps[0].task);
        assert_eq!(steps.last().map(|s| s.task.as_str()), Some("Build a pillar of 3 cobblestone"));
        // A part that says too little leaves the whole goal to the LLM.
        assert!(plan("place a chest and make it look nice", &carrying(&[("chest", 1)])).is_none());
        assert!(plan("build a house", &carrying(&[])).is_none());
    }

    #[test]
    fn goals_split_at_their_joints() {
        let texts = |goal| parts(goal).into_iter().map(|(p, _)| p).collect::<Vec<_>>();
        assert_eq!(
            texts("place a chest and store 6 cobblestone in it."),
            ["place a chest", "store 6 cobblestone in it"]
        );
        assert_eq!(texts("go to the tree, then dig 2 dirt"), ["go to the tree", "dig 2 dirt"]);
        let wall = "build a wall of cobblestone 3 blocks long and 2 blocks high";
        assert_eq!(parts(wall), [(wall.to_owned(), true)]);
        // Words that ask nothing are no part; ` n ` joins; a remark naming the chest stands in for `it`.
        assert_eq!(texts("brb, dig a hole 2 deep"), ["dig a hole 2 deep"]);
        assert_eq!(texts("set down a chest n stash 3 bread in it"), ["set down a chest", "stash 3 bread in it"]);
        assert_eq!(texts("the chest by the furnace, put 4 coal in it"), ["put 4 coal in the chest by the furnace"]);
        // A sentence ends a part; a `go` after the goal is the word to start.
        assert_eq!(texts("wall of dirt, 6 long 3 tall. go"), ["wall of dirt, 6 long 3 tall"]);
        assert_eq!(texts("dig a hole 2 deep. place a torch"), ["dig a hole 2 deep", "place a torch"]);
        assert_eq!(texts("go"), ["go"]);
    }
}
