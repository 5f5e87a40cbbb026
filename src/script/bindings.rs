//! Registers Wayfarer's functions — the primitives and the observation helpers — on a script engine.
//!
//! Names and meanings follow Voyager (camelCase, `mineBlock(name, count)` …). Arguments are checked here, so a bad
//! call fails with a message saying what to pass; everything else is the [`Host`]'s job. Every function documented
//! in `primitives/*.rhai` is registered here and nothing else (a test holds the two together).

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use rhai::{Dynamic, Engine, EvalAltResult, FLOAT, FnPtr, INT, Map, NativeCallContext};

use super::{
    RunBounds,
    host::{Call, Host},
    vec3::Vec3,
};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

/// Every function name registered by [`register`], for the documentation check and the LLM's prompt.
pub const FUNCTIONS: &[&str] = &[
    "position",
    "inventory",
    "inventoryCount",
    "health",
    "food",
    "chat",
    "findBlock",
    "findBlocks",
    "nearestEntity",
    "findFreeSpot",
    "blockAt",
    "blocksAround",
    "goTo",
    "standOn",
    "equip",
    "mineBlock",
    "digBlock",
    "craftItem",
    "smeltItem",
    "placeItem",
    "pillarUp",
    "buildStructure",
    "killMob",
    "shearSheep",
    "milkCow",
    "fillBucket",
    "exploreUntil",
    "getItemFromChest",
    "depositItemIntoChest",
    "checkItemInsideChest",
    "giveItem",
    "vec3",
];

/// The tallest pillar `pillarUp` builds: the fall from its top is the bot's to survive.
const MAX_PILLAR: i64 = 12;
/// The farthest any search looks, as in Voyager.
pub const MAX_SEARCH_DISTANCE: f64 = 64.0;
/// Default search distance for `findBlock` and `nearestEntity`.
pub const DEFAULT_SEARCH_DISTANCE: f64 = 32.0;
/// How far `findFreeSpot` looks by default, and at most (a spot the bot can reach without a long walk).
const DEFAULT_SPOT_DISTANCE: i32 = 4;
const MAX_SPOT_DISTANCE: i32 = 8;
/// The farthest `blocksAround` shows on each side of its spot (a listing of 9 × 9 × 9 blocks).
const MAX_AROUND: i64 = 4;
/// How long one `exploreUntil` leg walks before the callback is asked again.
const EXPLORE_LEG: Duration = Duration::from_secs(1);

fn fail<T>(message: impl Into<String>) -> Fallible<T> {
    Err(message.into().into())
}

/// Registers every script-facing function. `host` carries out the calls; `bounds` ends waits when the run ends.
pub fn register(engine: &mut Engine, host: Arc<dyn Host>, bounds: RunBounds) {
    super::vec3::register(engine);
    let call: Arc<dyn Fn(Call) -> Fallible<Dynamic> + Send + Sync> =
        Arc::new(move |call: Call| host.call(call, &bounds).map_err(Into::into));

    // `reg!(call, "name", |args| body)`: registers `name`; inside `body`, `call(Call::…)` asks the host.
    macro_rules! reg {
        ($call:ident, $name:literal, || $body:expr) => {
            reg!($call, $name, | | $body)
        };
        ($call:ident, $name:literal, |$($arg:ident : $ty:ty),*| $body:expr) => {{
            let $call = $call.clone();
            engine.register_fn($name, move |$($arg: $ty),*| -> Fallible<Dynamic> {
                let $call: &dyn Fn(Call) -> Fallible<Dynamic> = &*$call;
                $body
            });
        }};
    }

    // Observations and small actions.
    reg!(call, "position", || call(Call::Position));
    reg!(call, "inventory", || call(Call::Inventory));
    reg!(call, "inventoryCount", |name: &str| call(Call::InventoryCount { name: item_name(name)? }));
    reg!(call, "health", || call(Call::Health));
    reg!(call, "food", || call(Call::Food));
    reg!(call, "chat", |text: &str| {
        if text.trim().is_empty() {
            return fail("chat needs some text");
        }
        call(Call::Chat { text: text.to_owned() })
    });
    reg!(call, "findBlock", |name: &str| find_block(call, name, DEFAULT_SEARCH_DISTANCE));
    reg!(call, "findBlock", |name: &str, max_distance: INT| find_block(call, name, max_distance as f64));
    reg!(call, "findBlocks", |name: &str, max_distance: INT, count: INT| {
        call(Call::FindBlocks {
            name: block_name(name)?,
            max_distance: distance(max_distance as f64)?,
            count: positive(count, "count", 4096)? as usize,
        })
    });
    reg!(call, "nearestEntity", |name: &str| {
        call(Call::NearestEntity { name: name.trim().to_owned(), max_distance: DEFAULT_SEARCH_DISTANCE })
    });
    reg!(call, "nearestEntity", |name: &str, max_distance: INT| {
        call(Call::NearestEntity { name: name.trim().to_owned(), max_distance: distance(max_distance as f64)? })
    });
    reg!(call, "findFreeSpot", || call(Call::FreeSpot { max_distance: DEFAULT_SPOT_DISTANCE }));
    reg!(call, "findFreeSpot", |max_distance: INT| {
        call(Call::FreeSpot { max_distance: positive(max_distance, "maxDistance", MAX_SPOT_DISTANCE as i64)? as i32 })
    });
    reg!(call, "blockAt", |pos: Vec3| call(Call::BlockAt { pos }));
    reg!(call, "blocksAround", |pos: Vec3| call(Call::BlocksAround { pos, radius: 2 }));
    reg!(call, "blocksAround", |pos: Vec3, radius: INT| {
        call(Call::BlocksAround { pos, radius: positive(radius, "radius", MAX_AROUND)? as i32 })
    });
    reg!(call, "standOn", |pos: Vec3| call(Call::StandOn { pos }));
    reg!(call, "digBlock", |pos: Vec3| call(Call::DigBlock { pos }));
    reg!(call, "goTo", |pos: Vec3| call(Call::Goto { pos, range: 1.0 }));
    reg!(call, "goTo", |pos: Vec3, range: INT| call(Call::Goto { pos, range: (range as f64).clamp(0.0, 64.0) }));
    reg!(call, "goTo", |pos: Vec3, range: FLOAT| call(Call::Goto { pos, range: range.clamp(0.0, 64.0) }));
    reg!(call, "equip", |name: &str| call(Call::Equip { name: item_name(name)?, slot: "hand".to_owned() }));
    reg!(call, "equip", |name: &str, slot: &str| call(Call::Equip { name: item_name(name)?, slot: equip_slot(slot)? }));

    // The primitives.
    reg!(call, "mineBlock", |name: &str| call(Call::MineBlock { name: block_name(name)?, count: 1 }));
    reg!(call, "mineBlock", |name: &str, count: INT| {
        call(Call::MineBlock { name: block_name(name)?, count: positive(count, "count", 256)? })
    });
    reg!(call, "craftItem", |name: &str| call(Call::CraftItem { name: item_name(name)?, count: 1 }));
    reg!(call, "craftItem", |name: &str, count: INT| {
        call(Call::CraftItem { name: item_name(name)?, count: positive(count, "count", 2304)? })
    });
    reg!(call, "smeltItem", |item: &str| {
        call(Call::SmeltItem { item: item_name(item)?, fuel: "coal".to_owned(), count: 1 })
    });
    reg!(call, "smeltItem", |item: &str, fuel: &str| {
        call(Call::SmeltItem { item: item_name(item)?, fuel: item_name(fuel)?, count: 1 })
    });
    reg!(call, "smeltItem", |item: &str, fuel: &str, count: INT| {
        call(Call::SmeltItem { item: item_name(item)?, fuel: item_name(fuel)?, count: positive(count, "count", 64)? })
    });
    reg!(call, "placeItem", |name: &str, pos: Vec3| call(Call::PlaceItem { name: item_name(name)?, pos }));
    reg!(call, "placeItem", |name: &str| call(Call::PlaceItemNear { name: item_name(name)? }));
    reg!(call, "pillarUp", |name: &str, height: INT| {
        call(Call::PillarUp { name: item_name(name)?, height: positive(height, "height", MAX_PILLAR)? })
    });
    reg!(call, "buildStructure", |blueprint: &str, pos: Vec3| {
        call(Call::BuildStructure { blueprint: blueprint.to_owned(), pos, facing: "south".to_owned(), share: None })
    });
    reg!(call, "buildStructure", |blueprint: &str, pos: Vec3, facing: &str| {
        call(Call::BuildStructure { blueprint: blueprint.to_owned(), pos, facing: facing.to_owned(), share: None })
    });
    reg!(call, "buildStructure", |blueprint: &str, pos: Vec3, facing: &str, share: &str| {
        let (blueprint, facing, share) = (blueprint.to_owned(), facing.to_owned(), Some(share.to_owned()));
        call(Call::BuildStructure { blueprint, pos, facing, share })
    });
    reg!(call, "killMob", |name: &str| {
        call(Call::KillMob { name: mob_name(name)?, timeout: Duration::from_secs(300) })
    });
    reg!(call, "killMob", |name: &str, timeout: INT| {
        let timeout = Duration::from_secs(positive(timeout, "timeout (seconds)", 3600)? as u64);
        call(Call::KillMob { name: mob_name(name)?, timeout })
    });
    reg!(call, "shearSheep", || call(Call::ShearSheep));
    reg!(call, "milkCow", || call(Call::MilkCow));
    reg!(call, "fillBucket", |fluid: &str| match fluid {
        "water" | "lava" => call(Call::FillBucket { fluid: fluid.to_owned() }),
        other => fail(format!("fillBucket takes \"water\" or \"lava\", not {other:?}")),
    });
    reg!(call, "getItemFromChest", |pos: Vec3, items: Map| {
        call(Call::GetItemFromChest { pos, items: item_counts(&items)? })
    });
    reg!(call, "depositItemIntoChest", |pos: Vec3, items: Map| {
        call(Call::DepositItemIntoChest { pos, items: item_counts(&items)? })
    });
    reg!(call, "checkItemInsideChest", |pos: Vec3| call(Call::CheckItemInsideChest { pos }));
    reg!(call, "giveItem", |player: &str, item: &str, count: INT| {
        call(Call::GiveItem {
            player: player_name(player)?,
            item: item_name(item)?,
            count: positive(count, "count", 2304)?,
        })
    });

    // exploreUntil calls back into the script between legs, so it needs the calling context.
    engine.register_fn(
        "exploreUntil",
        move |ctx: NativeCallContext, direction: Vec3, max_time: INT, callback: FnPtr| -> Fallible<Dynamic> {
            explore_until(&ctx, &*call, direction, max_time, &callback)
        },
    );
}

/// One function a script can call: its name and its parameters' types as Rhai names them (`&str`, `i64`, `Vec3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub params: Vec<String>,
}

/// Every function a sandboxed script can call (the standard packages, Vec3's methods and Wayfarer's functions), one
/// entry per overload: what code is checked against before it runs.
pub fn signatures() -> &'static [Signature] {
    static SIGNATURES: std::sync::OnceLock<Vec<Signature>> = std::sync::OnceLock::new();
    SIGNATURES.get_or_init(|| {
        /// Never asked: the engine is only read for what it has registered.
        struct Unused;
        impl Host for Unused {
            fn call(&self, _: Call, _: &RunBounds) -> super::Answer {
                Err("no host".to_owned())
            }
        }
        let limits = super::Limits::default();
        let bounds = RunBounds::new(super::StopFlag::default(), &limits);
        let mut engine = super::build_engine(&limits, bounds.clone());
        register(&mut engine, Arc::new(Unused), bounds);
        let mut all: Vec<Signature> =
            engine.gen_fn_signatures(true).iter().filter_map(|text| parse_signature(text)).collect();
        all.sort_by(|a, b| (&a.name, a.params.len()).cmp(&(&b.name, b.params.len())));
        all.dedup();
        all
    })
}

/// `name(a: &str, b: i64) -> Result<…>` (or `name(_: &str)`), as `gen_fn_signatures` writes them.
fn parse_signature(text: &str) -> Option<Signature> {
    let text = text.strip_prefix("fn ").unwrap_or(text);
    let (name, rest) = text.split_once('(')?;
    let params = rest.rsplit_once(')').map_or(rest, |(params, _)| params);
    let mut depth = 0i32;
    let mut list = Vec::new();
    let mut current = String::new();
    for c in params.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                list.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        list.push(current);
    }
    let params =
        list.iter().map(|param| param.split_once(':').map_or(param.as_str(), |(_, ty)| ty).trim().to_owned()).collect();
    Some(Signature { name: name.trim().to_owned(), params })
}

fn find_block(call: &dyn Fn(Call) -> Fallible<Dynamic>, name: &str, max_distance: f64) -> Fallible<Dynamic> {
    let found = call(Call::FindBlocks { name: block_name(name)?, max_distance: distance(max_distance)?, count: 1 })?;
    let list = found.into_array().map_err(|t| format!("findBlocks answered a {t}, not an array"))?;
    Ok(list.into_iter().next().unwrap_or(Dynamic::UNIT))
}

/// Walks toward `direction` a leg at a time, asking `callback` after each leg; returns the callback's first
/// non-unit answer, or unit when `max_time` seconds run out.
fn explore_until(
    ctx: &NativeCallContext,
    call: &dyn Fn(Call) -> Fallible<Dynamic>,
    direction: Vec3,
    max_time: INT,
    callback: &FnPtr,
) -> Fallible<Dynamic> {
    let horizontal = (direction.x * direction.x + direction.z * direction.z).sqrt();
    if horizontal.is_nan() || horizontal <= 0.0 || direction.x.is_nan() || direction.z.is_nan() {
        return fail("exploreUntil needs a direction with an x or z part, e.g. vec3(1, 0, 0) or vec3(-1, 0, 1)");
    }
    let max_time = Duration::from_secs(positive(max_time, "maxTime (seconds)", 1200)? as u64);
    let started = Instant::now();
    let found = loop {
        let found: Dynamic = callback.call_within_context(ctx, ())?;
        let left = max_time.saturating_sub(started.elapsed());
        if !found.is_unit() || left.is_zero() {
            break found;
        }
        let _walking = call(Call::Explore { direction, leg: left.min(EXPLORE_LEG) })?;
    };
    let _stopped = call(Call::StopMoving)?;
    Ok(found)
}

/// Names are Minecraft ids without the namespace: `oak_log`, not `minecraft:oak_log` or `Oak Log`.
fn id_name(name: &str, what: &str) -> Fallible<String> {
    let trimmed = name.trim();
    let bare = trimmed.strip_prefix("minecraft:").unwrap_or(trimmed);
    if bare.is_empty() || !bare.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
        return fail(format!(
            "{name:?} is not a {what} name; use Minecraft ids such as \"oak_log\" (lowercase, with _)"
        ));
    }
    Ok(bare.to_owned())
}

fn item_name(name: &str) -> Fallible<String> {
    id_name(name, "item")
}

fn block_name(name: &str) -> Fallible<String> {
    id_name(name, "block")
}

fn mob_name(name: &str) -> Fallible<String> {
    id_name(name, "mob")
}

fn player_name(name: &str) -> Fallible<String> {
    if crate::config::is_player_name(name, 1) {
        Ok(name.to_owned())
    } else {
        fail(format!("{name:?} is not a player name (1 to 16 letters, digits or _)"))
    }
}

fn positive(value: INT, what: &str, max: INT) -> Fallible<u32> {
    if (1..=max).contains(&value) {
        Ok(value as u32)
    } else {
        fail(format!("{what} must be from 1 to {max}, not {value}"))
    }
}

fn distance(value: f64) -> Fallible<f64> {
    if value > 0.0 && value <= MAX_SEARCH_DISTANCE {
        Ok(value)
    } else {
        fail(format!("maxDistance must be from 1 to {MAX_SEARCH_DISTANCE}, not {value}"))
    }
}

fn equip_slot(slot: &str) -> Fallible<String> {
    const SLOTS: [&str; 6] = ["hand", "off-hand", "head", "torso", "legs", "feet"];
    match SLOTS.iter().find(|s| s.eq_ignore_ascii_case(slot.trim())) {
        Some(s) => Ok((*s).to_owned()),
        None => fail(format!("{slot:?} is not an equipment slot; use one of {}", SLOTS.join(", "))),
    }
}

/// `#{oak_log: 3, dirt: 10}` → pairs. Counts must be positive whole numbers.
fn item_counts(items: &Map) -> Fallible<Vec<(String, u32)>> {
    if items.is_empty() {
        return fail("name at least one item, e.g. #{oak_log: 3}");
    }
    items
        .iter()
        .map(|(name, count)| {
            let count = count.as_int().map_err(|_| format!("the count for {name} must be a whole number"))?;
            Ok((item_name(name)?, positive(count, &format!("the count for {name}"), 2304)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::script::{Limits, StopFlag, build_engine};

    /// Records calls and answers each with a canned value.
    struct Recorder(Mutex<Vec<Call>>);

    impl Host for Recorder {
        fn call(&self, call: Call, _bounds: &RunBounds) -> Result<Dynamic, String> {
            self.0.lock().unwrap().push(call.clone());
            let items = || {
                let mut map = Map::new();
                map.insert("oak_log".into(), Dynamic::from_int(4));
                Dynamic::from_map(map)
            };
            Ok(match call {
                Call::Position => Dynamic::from(Vec3::new(1.0, 64.0, 2.0)),
                Call::FindBlocks { .. } => Dynamic::from_array(vec![Dynamic::from(Vec3::new(5.0, 63.0, 5.0))]),
                Call::MineBlock { name, .. } if name == "bedrock" => return Err("I cannot mine bedrock".into()),
                Call::Inventory | Call::CheckItemInsideChest { .. } => items(),
                Call::InventoryCount { .. } | Call::Food => Dynamic::from_int(4),
                Call::Health => Dynamic::from_float(20.0),
                Call::NearestEntity { name, .. } => {
                    let mut map = Map::new();
                    map.insert("name".into(), name.into());
                    map.insert("position".into(), Dynamic::from(Vec3::new(3.0, 64.0, 3.0)));
                    map.insert("distance".into(), Dynamic::from_float(2.0));
                    Dynamic::from_map(map)
                }
                _ => Dynamic::UNIT,
            })
        }
    }

    fn engine(recorder: Arc<Recorder>) -> Engine {
        let limits = Limits::default();
        let bounds = RunBounds::new(StopFlag::default(), &limits);
        let mut engine = build_engine(&limits, bounds.clone());
        register(&mut engine, recorder, bounds);
        engine
    }

    /// The documentation the LLM is shown (`primitives/*.rhai`) and what is registered must name the same functions,
    /// with the same parameter counts.
    #[test]
    fn primitive_docs_match_registered_functions() {
        let engine = engine(Arc::new(Recorder(Mutex::new(Vec::new()))));
        let vec3_methods = [
            "distance",
            "floor",
            "offset",
            "to_string",
            "to_debug",
            "normalize",
            "distanceTo",
            "floored",
            "plus",
            "minus",
            "scaled",
        ];
        let mut registered: Vec<(String, usize)> = engine
            .gen_fn_signatures(false)
            .iter()
            .filter_map(|sig| {
                let (name, rest) = sig.split_once('(')?;
                let params = rest.split_once(')')?.0;
                let arity = if params.trim().is_empty() { 0 } else { params.split(',').count() };
                Some((name.trim().to_owned(), arity))
            })
            .filter(|(name, _)| name.starts_with(|c: char| c.is_ascii_lowercase()) && !name.contains('$'))
            .filter(|(name, _)| !vec3_methods.contains(&name.as_str()))
            .collect();
        registered.sort();
        registered.dedup();
        let mut names: Vec<&str> = registered.iter().map(|(n, _)| n.as_str()).collect();
        names.dedup();
        let mut expected = FUNCTIONS.to_vec();
        expected.sort();
        assert_eq!(names, expected, "FUNCTIONS and the registered functions differ");

        let dir = crate::crate_dir().join("primitives");
        let mut documented = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            assert!(text.lines().any(|l| l.starts_with("///")), "{stem}.rhai has no doc comment");
            assert!(text.lines().any(|l| l.starts_with("// ")), "{stem}.rhai has no example");
            let signature =
                text.lines().find(|l| l.starts_with("fn ")).unwrap_or_else(|| panic!("{stem}.rhai names no fn"));
            let (name, rest) = signature[3..].split_once('(').unwrap();
            assert_eq!(name, stem, "{stem}.rhai documents {name}");
            let params = rest.split_once(')').unwrap().0;
            let arity = if params.trim().is_empty() { 0 } else { params.split(',').count() };
            assert!(
                registered.contains(&(name.to_owned(), arity)),
                "{stem}.rhai shows {arity} parameters, but no such overload is registered: {registered:?}"
            );
            documented.push(stem);
        }
        documented.sort();
        assert_eq!(documented, expected, "every registered function needs primitives/NAME.rhai, and only those");
    }

    /// Every example in `primitives/*.rhai` compiles and runs against the registered functions (a reserved word such
    /// as `goto` used as a function name would fail here).
    #[test]
    fn the_sandbox_counts_blocks_in_a_range_with_a_coordinate_at_an_end() {
        let engine = engine(Arc::new(Recorder(Mutex::new(Vec::new()))));
        let n: rhai::INT = engine.eval("let p = vec3(3.5, 64, 0); let n = 0; for x in 0..p.x { n += 1; } n").unwrap();
        assert_eq!(n, 3);
    }

    #[test]
    fn primitive_examples_run() {
        let engine = engine(Arc::new(Recorder(Mutex::new(Vec::new()))));
        let dir = crate::crate_dir().join("primitives");
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let example: String =
                text.lines().filter_map(|l| l.strip_prefix("// ")).map(|l| format!("{l}\n")).collect();
            if let Err(err) = engine.eval::<Dynamic>(&example) {
                panic!("{}: {err}\n{example}", path.display());
            }
        }
    }

    #[test]
    fn calls_reach_the_host_with_checked_arguments() {
        let recorder = Arc::new(Recorder(Mutex::new(Vec::new())));
        let engine = engine(recorder.clone());
        let found: Vec3 =
            engine.eval("mineBlock(\"oak_log\", 3); craftItem(\"minecraft:stick\"); findBlock(\"stone\")").unwrap();
        assert_eq!(found, Vec3::new(5.0, 63.0, 5.0));
        let calls = recorder.0.lock().unwrap().clone();
        assert_eq!(calls[0], Call::MineBlock { name: "oak_log".into(), count: 3 });
        assert_eq!(calls[1], Call::CraftItem { name: "stick".into(), count: 1 });
        assert_eq!(calls[2], Call::FindBlocks { name: "stone".into(), max_distance: 32.0, count: 1 });
    }

    #[test]
    fn bad_arguments_say_what_to_pass() {
        let engine = engine(Arc::new(Recorder(Mutex::new(Vec::new()))));
        let err = engine.eval::<Dynamic>("mineBlock(\"Oak Log\", 1)").unwrap_err().to_string();
        assert!(err.contains("use Minecraft ids such as \"oak_log\""), "{err}");
        let err = engine.eval::<Dynamic>("craftItem(\"stick\", 0)").unwrap_err().to_string();
        assert!(err.contains("count must be from 1 to 2304, not 0"), "{err}");
        let err = engine.eval::<Dynamic>("equip(\"iron_helmet\", \"hat\")").unwrap_err().to_string();
        assert!(err.contains("not an equipment slot"), "{err}");
        let err = engine.eval::<Dynamic>("getItemFromChest(vec3(1, 2, 3), #{})").unwrap_err().to_string();
        assert!(err.contains("name at least one item"), "{err}");
    }

    #[test]
    fn host_errors_become_script_errors_with_a_line() {
        let engine = engine(Arc::new(Recorder(Mutex::new(Vec::new()))));
        let err = engine.eval::<Dynamic>("let a = 1;\nmineBlock(\"bedrock\", 1);").unwrap_err();
        assert!(err.to_string().contains("I cannot mine bedrock"), "{err}");
        assert_eq!(err.position().line(), Some(2));
    }

    #[test]
    fn explore_until_returns_the_callback_answer() {
        let recorder = Arc::new(Recorder(Mutex::new(Vec::new())));
        let engine = engine(recorder.clone());
        let found: Dynamic =
            engine.eval("let found = exploreUntil(vec3(1, 0, 0), 60, || findBlock(\"stone\")); found").unwrap();
        assert_eq!(found.cast::<Vec3>(), Vec3::new(5.0, 63.0, 5.0));
        let err = engine.eval::<Dynamic>("exploreUntil(vec3(0, 1, 0), 60, || ())").unwrap_err().to_string();
        assert!(err.contains("needs a direction with an x or z part"), "{err}");
    }
}
