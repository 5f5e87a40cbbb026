//! `buildStructure(blueprint, pos, facing)` and `!build`: a blueprint built block by block, and judged by the world.
//!
//! The site is cleared first (only inside the blueprint's footprint: a wrong block there is dug, top down), then
//! blocks are placed layer by layer, bottom up; within a layer the nearest block that something already holds up
//! comes next, so every block has a face to be placed against. Doors and fence gates come last, so the builder never
//! shuts itself in, and it works from outside the footprint wherever it can reach. A block whose placement sets a
//! state (stairs' and doors' facing, the top or bottom half of slabs and stairs, logs' axis, ladders' and wall
//! torches' wall) is clicked on the face, at the height and looking the way the game turns into that state.
//!
//! The score is MineCollab's: the share of the blueprint's block positions that hold the right block, read from the
//! world; a second figure counts those whose placed state is right too. Air positions are cleared but not scored.

use std::{
    collections::{BTreeMap, HashMap},
    fmt,
    time::Duration,
};

use azalea::{
    BlockPos, Vec3,
    block::{BlockState, BlockTrait},
    core::direction::Direction,
    interact::BlockStatePredictionHandler,
    protocol::packets::game::{
        s_interact::InteractionHand,
        s_use_item_on::{BlockHit, ServerboundUseItemOn},
    },
};

use super::{dig, items, observe, place};
use crate::{
    blueprint::{Blueprint, Facing, Share, Spec},
    bot::BotHandle,
};

/// How often one block is tried before the build goes on without it.
const TRIES: u32 = 2;
/// Rounds of taking down what the build's walks put up (a walk to a high block can put up more).
const SCAFFOLD_ROUNDS: usize = 4;
/// How long a member building its share waits for the blocks of the others' shares that would hold up its own.
const SHARE_WAIT: Duration = Duration::from_secs(120);

/// How much of a blueprint stands in the world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Block positions in the blueprint (air not counted).
    pub blocks: u32,
    /// Positions holding the right block.
    pub right: u32,
    /// Positions holding the right block in the right state.
    pub states: u32,
}

impl Score {
    pub fn share(&self) -> f64 {
        if self.blocks == 0 { 1.0 } else { f64::from(self.right) / f64::from(self.blocks) }
    }

    pub fn state_share(&self) -> f64 {
        if self.blocks == 0 { 1.0 } else { f64::from(self.states) / f64::from(self.blocks) }
    }

    pub fn done(&self) -> bool {
        self.right == self.blocks
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "score {:.2} ({} of {} blocks right; {} in the right state)",
            self.share(),
            self.right,
            self.blocks,
            self.states
        )
    }
}

/// A block's name and properties, as the world holds it.
pub fn world_block(state: BlockState) -> (String, BTreeMap<String, String>) {
    let block = Box::<dyn BlockTrait>::from(state);
    let properties = block.property_map().into_iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    (block.id().to_owned(), properties)
}

/// Whether the world at `pos` holds `spec` as placed (`Some(false)` when it holds the block in another state).
fn holds(bot: &BotHandle, pos: BlockPos, spec: &Spec) -> Option<bool> {
    let (name, properties) = world_block(observe::block_state(bot, pos)?);
    (name == spec.name).then(|| spec.placed_as(&name, &properties))
}

/// World position of a blueprint part built with its north-west bottom corner at `origin`.
fn world(origin: BlockPos, at: [i32; 3]) -> BlockPos {
    BlockPos::new(origin.x + at[0], origin.y + at[1], origin.z + at[2])
}

/// The score of `blueprint` built at `origin`, as the bot's world shows it now.
pub fn score(bot: &BotHandle, blueprint: &Blueprint, origin: BlockPos) -> Score {
    let mut score = Score::default();
    for part in blueprint.blocks() {
        score.blocks += 1;
        match holds(bot, world(origin, part.at), &part.block) {
            Some(true) => {
                score.right += 1;
                score.states += 1;
            }
            Some(false) => score.right += 1,
            None => {}
        }
    }
    score
}

/// What the blocks not yet standing need that the bot does not carry: `(item, count)`, most first.
pub fn missing(bot: &BotHandle, blueprint: &Blueprint, origin: BlockPos) -> Vec<(String, u32)> {
    let mut needed: BTreeMap<String, u32> = BTreeMap::new();
    for part in blueprint.blocks() {
        if holds(bot, world(origin, part.at), &part.block).is_some() {
            continue;
        }
        if let Some(item) = part.block.item() {
            *needed.entry(item).or_default() += part.block.item_count();
        }
    }
    let carried = items::carried(bot);
    let mut short: Vec<(String, u32)> = needed
        .into_iter()
        .filter_map(|(item, n)| {
            let have = carried.get(&item).copied().unwrap_or(0).max(0) as u32;
            (n > have).then(|| (item, n - have))
        })
        .collect();
    short.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    short
}

/// `12 cobblestone and 1 oak_door`
pub fn list(items: &[(String, u32)]) -> String {
    let parts: Vec<String> = items.iter().map(|(item, n)| format!("{n} {item}")).collect();
    match parts.as_slice() {
        [] => "nothing".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Clears the bot's build progress when the build ends, however it ends.
struct Progress<'a>(&'a BotHandle);

impl Drop for Progress<'_> {
    fn drop(&mut self) {
        self.0.set_building(None);
    }
}

/// What a build did: the score it ended at, and what went wrong on the way.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub score: Score,
    pub placed: u32,
    pub dug: u32,
    /// Blocks put under the footprint to level the ground.
    pub levelled: u32,
    /// Blocks of the pillars and bridges walks put up during the build, taken down again.
    pub scaffold: u32,
    pub problems: Vec<String>,
}

/// Builds `blueprint` with its north-west bottom corner at `origin`, from what the bot carries; resumes where the
/// world shows it stopped (blocks already right are left alone).
///
/// With `whole`, `blueprint` is one member's share of it ([`Blueprint::share`]): blocks of the share that only the
/// others' blocks will hold up wait for them (up to [`SHARE_WAIT`] with nothing new to place), and scaffolding
/// keeps off the whole blueprint's positions, not only the share's.
pub async fn build(bot: &BotHandle, blueprint: &Blueprint, origin: BlockPos, whole: Option<&Blueprint>) -> Report {
    let [w, h, d] = blueprint.size;
    let least = origin;
    let most = BlockPos::new(origin.x + w - 1, origin.y + h - 1, origin.z + d - 1);
    let progress = Progress(bot);
    let mut report = Report::default();
    let show = |layer: i32| {
        let score = score(bot, blueprint, origin);
        progress.0.set_building(Some(format!(
            "{}: layer {} of {h}, {:.0}%",
            blueprint.name,
            layer + 1,
            score.share() * 100.0
        )));
    };
    // A site far off (its blocks maybe not even loaded yet) is walked to first, to stand beside the footprint.
    let centre = Vec3::new(
        f64::from(origin.x) + f64::from(w) / 2.0,
        f64::from(origin.y),
        f64::from(origin.z) + f64::from(d) / 2.0,
    );
    let beside = f64::from(w.max(d)) / 2.0 + 3.0;
    if bot.position().horizontal_distance_squared_to(centre) > (beside + 8.0).powi(2)
        && let Err(e) = bot.goto_near(centre, beside as f32).await
    {
        report.problems.push(format!("getting to the site: {e}"));
    }
    show(0);
    bot.take_scaffold();

    // The site: whatever stands where the blueprint wants something else (or air), top down.
    let mut clear: Vec<(BlockPos, &Spec)> = blueprint
        .parts
        .iter()
        .map(|p| (world(origin, p.at), &p.block))
        .filter(|(pos, spec)| {
            observe::block_state(bot, *pos).is_some_and(|s| in_the_way(s, spec)) && holds(bot, *pos, spec) != Some(true)
        })
        .collect();
    clear.sort_by_key(|(pos, _)| std::cmp::Reverse(pos.y));
    for (pos, spec) in clear {
        // A block the dig before took with it (a door's other half) needs no dig.
        if observe::block_state(bot, pos).is_none_or(|s| !in_the_way(s, spec)) {
            continue;
        }
        match dig::dig_block(bot, crate::script::Vec3::from(pos)).await {
            Ok(_) => report.dug += 1,
            Err(e) => report.problems.push(format!("clearing {}: {e}", crate::bot::fmt_block(pos))),
        }
    }

    // Level ground: where the bottom layer's blocks would stand over a dip, fill it up to them.
    let footing = footing(bot, blueprint, origin);
    if !footing.is_empty() {
        match fill_with(bot, blueprint, footing.len()) {
            Some(block) => {
                let support = Spec::new(&block, Default::default()).expect("scaffold blocks are blocks");
                for pos in footing {
                    let ways = clicks(bot, &support, pos);
                    match place_with(bot, &support, &block, pos, (least, most), ways).await {
                        Ok(()) => report.levelled += 1,
                        Err(e) => report.problems.push(format!("levelling {}: {e}", crate::bot::fmt_block(pos))),
                    }
                }
            }
            None => report.problems.push(format!(
                "the ground dips under {} of its blocks, and I carry nothing to fill it with (dirt, cobblestone…)",
                footing.len()
            )),
        }
    }

    // The blocks, bottom up; doors and gates last.
    let mut pending: Vec<(BlockPos, &Spec)> =
        blueprint.blocks().filter(|p| p.block.item().is_some()).map(|p| (world(origin, p.at), &p.block)).collect();
    let mut failures: HashMap<BlockPos, u32> = HashMap::new();
    let wanted: HashMap<BlockPos, &Spec> =
        whole.unwrap_or(blueprint).parts.iter().map(|p| (world(origin, p.at), &p.block)).collect();
    let mut last_layer = -1;
    let mut waited = Duration::ZERO;
    loop {
        pending
            .retain(|(pos, spec)| holds(bot, *pos, spec).is_none() && failures.get(pos).copied().unwrap_or(0) < TRIES);
        let next = match choose(bot, &pending) {
            Some(next) => next,
            // The others' blocks may yet hold up what is left of this share.
            None if whole.is_some() && !pending.is_empty() && waited < SHARE_WAIT => {
                if waited.is_zero() {
                    progress.0.set_building(Some(format!(
                        "{}: waiting for the others' blocks under {} of mine",
                        blueprint.name,
                        pending.len()
                    )));
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                waited += Duration::from_secs(1);
                continue;
            }
            None => break,
        };
        waited = Duration::ZERO;
        let (pos, spec) = pending[next];
        let layer = pos.y - origin.y;
        if layer != last_layer {
            show(layer);
            last_layer = layer;
        }
        match place_spec(bot, spec, pos, (least, most), &wanted).await {
            Ok(()) => report.placed += 1,
            Err(e) => {
                let tries = failures.entry(pos).or_default();
                *tries += 1;
                if *tries >= TRIES {
                    report.problems.push(format!("{} at {}: {e}", spec.name, crate::bot::fmt_block(pos)));
                }
                if items::count(bot, &spec.item().unwrap_or_default()) == 0 {
                    // Nothing left to place this kind with: the rest of it waits for more.
                    let item = spec.item();
                    pending.retain(|(_, s)| s.item() != item);
                    report.problems.push(format!("I ran out of {}", item.unwrap_or_default()));
                }
            }
        }
        if report.placed % 8 == 0 && report.placed > 0 {
            show(layer);
        }
    }
    // The pillars and bridges the walks put up come down again, top down (the ground under the site stays). Walking
    // to a high one can put up another, taken down in the next round.
    let scaffolds: Vec<String> = place::scaffold_names().collect();
    for _ in 0..SCAFFOLD_ROUNDS {
        let mut scaffold: Vec<BlockPos> = bot
            .take_scaffold()
            .into_iter()
            .filter(|pos| pos.y >= origin.y && !wanted.contains_key(pos))
            .filter(|pos| observe::block_state(bot, *pos).is_some_and(|s| scaffolds.contains(&world_block(s).0)))
            .collect();
        if scaffold.is_empty() {
            break;
        }
        scaffold.sort_by_key(|pos| (std::cmp::Reverse(pos.y), pos.x, pos.z));
        scaffold.dedup();
        for pos in scaffold {
            // Its drop is picked up on the way if it falls there; one that lands on the build is not chased.
            let taken = match bot.goto_reach(pos).await {
                Ok(()) => dig::dig_with_best_tool(bot, pos).await,
                Err(e) => Err(e.to_string()),
            };
            match taken {
                Ok(()) => report.scaffold += 1,
                Err(e) => tracing::warn!("{}: the scaffold at {} stays: {e}", bot.name(), crate::bot::fmt_block(pos)),
            }
        }
    }
    let unheld: Vec<String> =
        pending.iter().map(|(pos, spec)| format!("{} at {}", spec.name, crate::bot::fmt_block(*pos))).collect();
    if !unheld.is_empty() {
        report.problems.push(format!("nothing holds up {}", unheld.join(", ")));
    }
    report.score = score(bot, blueprint, origin);
    tracing::info!("{}: {} at {}: {}", bot.name(), blueprint.name, crate::bot::fmt_block(origin), report.score);
    report
}

/// Whether `state` must go before `spec` stands there: anything but air and liquids where the blueprint keeps air
/// (grass and snow too), and anything a placement would not replace where it wants a block.
fn in_the_way(state: BlockState, spec: &Spec) -> bool {
    use azalea::registry::builtin::BlockKind;
    if state.is_air() || matches!(BlockKind::from(state), BlockKind::Water | BlockKind::Lava) {
        return false;
    }
    spec.is_air() || !place::replaceable(state)
}

/// How deep a dip under the footprint is filled, at most.
const MAX_FILL: i32 = 4;

/// Empty spaces under the bottom layer's blocks, down to the ground (at most [`MAX_FILL`] deep), lowest first:
/// what levelling fills so the blueprint stands on the ground rather than over a hole.
fn footing(bot: &BotHandle, blueprint: &Blueprint, origin: BlockPos) -> Vec<BlockPos> {
    let open = |p: BlockPos| observe::block_state(bot, p).is_some_and(place::replaceable);
    let mut spots = Vec::new();
    for part in blueprint.blocks().filter(|p| p.at[1] == 0) {
        let top = world(origin, part.at).down(1);
        let mut column = Vec::new();
        let mut pos = top;
        while open(pos) && column.len() < MAX_FILL as usize {
            column.push(pos);
            pos = pos.down(1);
        }
        // A hole deeper than that is bridged over, not filled.
        if !open(pos) {
            spots.extend(column);
        }
    }
    spots.sort_by_key(|p| p.y);
    spots
}

/// Whether a block can be placed against at `p`: it stands, and clicking it does not open it.
fn solid(bot: &BotHandle, p: BlockPos) -> bool {
    observe::block_state(bot, p).is_some_and(|s| !place::replaceable(s) && !place::opens_on_click(s))
}

/// A cheap block the bot carries `count` of beyond what `blueprint` itself takes, to fill with.
fn fill_with(bot: &BotHandle, blueprint: &Blueprint, count: usize) -> Option<String> {
    let carried = items::carried(bot);
    let needed: HashMap<String, u32> = blueprint.materials().into_iter().collect();
    place::scaffold_names().find(|name| {
        let spare = carried.get(name).copied().unwrap_or(0).max(0) as usize;
        spare >= count + needed.get(name).copied().unwrap_or(0) as usize
    })
}

/// The next block to place, as an index into `pending`: in the lowest layer left (doors and gates after the rest),
/// the nearest one that something already holds up.
fn choose(bot: &BotHandle, pending: &[(BlockPos, &Spec)]) -> Option<usize> {
    let last = |spec: &Spec| spec.name.ends_with("_door") || spec.name.ends_with("_fence_gate");
    let feet = BlockPos::from(bot.position());
    let distance = |p: BlockPos| {
        let (dx, dy, dz) = (p.x - feet.x, p.y - feet.y, p.z - feet.z);
        dx * dx + dy * dy + dz * dz
    };
    let held: Vec<usize> =
        (0..pending.len()).filter(|&i| !clicks(bot, pending[i].1, pending[i].0).is_empty()).collect();
    let key = |i: &usize| {
        let (pos, spec) = pending[*i];
        (last(spec), pos.y, distance(pos))
    };
    held.into_iter().min_by_key(key)
}

/// One way to click a block into place: the face of `against` that touches the target, where on it (height within
/// the face), and which way to look when the state depends on it.
#[derive(Clone, Copy, Debug)]
struct Click {
    against: BlockPos,
    face: Direction,
    height: f64,
    yaw: Option<f32>,
}

/// The yaw of looking toward a side: south 0, west 90, north 180, east -90 (the game's convention).
fn yaw_toward(side: &str) -> Option<f32> {
    match side {
        "south" => Some(0.0),
        "west" => Some(90.0),
        "north" => Some(180.0),
        "east" => Some(-90.0),
        _ => None,
    }
}

fn opposite(side: &str) -> &'static str {
    match side {
        "north" => "south",
        "south" => "north",
        "east" => "west",
        "west" => "east",
        "up" => "down",
        _ => "up",
    }
}

/// The offset toward a side.
fn step(side: &str) -> (i32, i32, i32) {
    match side {
        "north" => (0, 0, -1),
        "south" => (0, 0, 1),
        "east" => (1, 0, 0),
        "west" => (-1, 0, 0),
        "up" => (0, 1, 0),
        _ => (0, -1, 0),
    }
}

/// The face of `against` that touches `target`.
fn face_between(target: BlockPos, against: BlockPos) -> Direction {
    match (target.x - against.x, target.y - against.y, target.z - against.z) {
        (0, 1, 0) => Direction::Up,
        (0, -1, 0) => Direction::Down,
        (1, 0, 0) => Direction::East,
        (-1, 0, 0) => Direction::West,
        (0, 0, 1) => Direction::South,
        _ => Direction::North,
    }
}

/// Every way to click `spec` into place at `target` from the blocks around it now, best first; none when nothing
/// holds it up.
fn clicks(bot: &BotHandle, spec: &Spec, target: BlockPos) -> Vec<Click> {
    let solid = |p: BlockPos| solid(bot, p);
    let name = spec.name.as_str();
    let prop = |key: &str| spec.properties.get(key).map(String::as_str);
    let facing = prop("facing");
    let top = prop("half") == Some("top") || prop("type") == Some("top");
    let halves = name.ends_with("_stairs") || name.ends_with("_slab") || name.ends_with("_trapdoor");
    // Which way to look: stairs, doors and gates face the way the player looks; other blocks that face a side
    // (furnaces, chests) face the player; signs and banners standing turn toward the player.
    let yaw = match facing {
        Some(f) if name.ends_with("_stairs") || name.ends_with("_door") || name.ends_with("_fence_gate") => {
            yaw_toward(f)
        }
        Some(f) => yaw_toward(opposite(f)),
        None => prop("rotation").and_then(|r| r.parse::<f32>().ok()).map(|r| r * 22.5 - 180.0),
    };
    let at = |(x, y, z): (i32, i32, i32)| BlockPos::new(target.x + x, target.y + y, target.z + z);
    let click = |against: BlockPos, height: f64| Click { against, face: face_between(target, against), height, yaw };
    // Blocks that hang on a wall: only the block behind them will do.
    let on_wall = name == "ladder" || name.ends_with("wall_torch") || name.ends_with("_wall_sign");
    if on_wall {
        let Some(f) = facing else { return Vec::new() };
        let behind = at(step(opposite(f)));
        return if solid(behind) { vec![Click { yaw: None, ..click(behind, 0.5) }] } else { Vec::new() };
    }
    let below = at((0, -1, 0));
    let above = at((0, 1, 0));
    let sides = [(1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)].map(at);
    let mut options: Vec<Click> = Vec::new();
    let axis = prop("axis");
    if halves && top {
        options.push(click(above, 0.5));
        options.extend(sides.iter().map(|s| click(*s, 0.75)));
    } else if halves {
        options.push(click(below, 0.5));
        options.extend(sides.iter().map(|s| click(*s, 0.25)));
    } else {
        options.push(click(below, 0.5));
        options.extend(sides.iter().map(|s| click(*s, 0.5)));
        // Torches, doors and the like stand on the block below; nothing hangs them from above.
        if !(name == "torch"
            || name.ends_with("_door")
            || name.ends_with("_carpet")
            || name.ends_with("_pressure_plate"))
        {
            options.push(click(above, 0.5));
        }
    }
    options.retain(|c| solid(c.against));
    if name == "torch" || name.ends_with("_door") {
        options.retain(|c| c.against == below);
    }
    // Logs and other pillars lie along the axis of the face clicked: such faces first.
    if let Some(axis) = axis {
        let along = |c: &Click| match c.face {
            Direction::Up | Direction::Down => axis == "y",
            Direction::East | Direction::West => axis == "x",
            Direction::North | Direction::South => axis == "z",
        };
        options.sort_by_key(|c| !along(c));
    }
    options
}

/// Whether clicking `face` lays a block along `axis`.
fn along(face: Direction, axis: &str) -> bool {
    match face {
        Direction::Up | Direction::Down => axis == "y",
        Direction::East | Direction::West => axis == "x",
        Direction::North | Direction::South => axis == "z",
    }
}

/// Where scaffold blocks would give `target` a face along `axis` to be clicked, bottom one first, and the item to
/// use: a neighbour on that axis that is empty and held up by something (or by one more scaffold block under it),
/// and a cheap block the bot carries enough of and can dig back by hand or with its tools.
fn scaffold_spots(bot: &BotHandle, target: BlockPos, axis: &str) -> Option<(Vec<BlockPos>, String)> {
    let carried = items::carried(bot);
    let ends = match axis {
        "x" => [target.east(1), target.west(1)],
        "z" => [target.north(1), target.south(1)],
        _ => [target.down(1), target.up(1)],
    };
    let solid = |p: BlockPos| solid(bot, p);
    let open = |p: BlockPos| observe::block_state(bot, p).is_some_and(place::replaceable);
    let held = |p: BlockPos| {
        [p.down(1), p.up(1), p.east(1), p.west(1), p.north(1), p.south(1)].into_iter().any(|n| n != target && solid(n))
    };
    let spots = ends.into_iter().filter(|p| open(*p)).find_map(|p| {
        if held(p) { Some(vec![p]) } else { (open(p.down(1)) && held(p.down(1))).then(|| vec![p.down(1), p]) }
    })?;
    let item = place::scaffold_names().find(|name| {
        carried.get(name).is_some_and(|n| *n >= spots.len() as i32)
            && super::facts::check_harvest(name, &carried).is_ok()
    })?;
    Some((spots, item))
}

/// Places `spec` at `target` and checks it stands there (its state is the score's business). A block that lies along
/// an axis with nothing on that axis to click gets a scaffold block there first, dug again afterwards (unless the
/// blueprint wants that block there).
async fn place_spec(
    bot: &BotHandle,
    spec: &Spec,
    target: BlockPos,
    footprint: (BlockPos, BlockPos),
    wanted: &HashMap<BlockPos, &Spec>,
) -> Result<(), String> {
    let item = spec.item().ok_or_else(|| format!("no item places {}", spec.name))?;
    if items::count(bot, &item) == 0 {
        return Err(format!("I have no {item} left"));
    }
    let mut options = clicks(bot, spec, target);
    if options.is_empty() {
        return Err("nothing holds it up yet".to_owned());
    }
    let mut scaffold: Vec<BlockPos> = Vec::new();
    let mut block = String::new();
    if let Some(axis) = spec.properties.get("axis")
        && !options.iter().any(|c| along(c.face, axis))
        && let Some((spots, item)) = scaffold_spots(bot, target, axis)
    {
        let support = Spec::new(&item, Default::default())?;
        for spot in spots {
            let ways = clicks(bot, &support, spot);
            if place_with(bot, &support, &item, spot, footprint, ways).await.is_err() {
                break;
            }
            scaffold.push(spot);
        }
        block = item;
        options = clicks(bot, spec, target);
    }
    let placed = place_with(bot, spec, &item, target, footprint, options).await;
    for spot in scaffold.into_iter().rev() {
        if wanted.get(&spot).is_some_and(|w| w.name == block) {
            continue;
        }
        if let Err(e) = dig::dig_block(bot, crate::script::Vec3::from(spot)).await {
            tracing::warn!("{}: the scaffold at {} stays: {e}", bot.name(), crate::bot::fmt_block(spot));
        }
    }
    placed
}

/// Tries the first few of `options` in turn until `spec` stands at `target`.
async fn place_with(
    bot: &BotHandle,
    spec: &Spec,
    item: &str,
    target: BlockPos,
    (least, most): (BlockPos, BlockPos),
    options: Vec<Click>,
) -> Result<(), String> {
    // Nothing is placed where a player stands; say who, rather than that the server refused.
    if let Some((name, _)) = bot.players_near(64.0).into_iter().find(|(_, at)| place::overlaps(*at, target)) {
        return Err(format!("{name} is standing where it goes"));
    }
    let mut tried = Vec::new();
    for click in options.into_iter().take(3) {
        let reached = match bot.goto_click_outside(target, click.against, least, most).await {
            Ok(()) => Ok(()),
            // Some blocks can only be reached from inside (a ladder on an inner wall).
            Err(_) => bot.goto_click(target, click.against).await,
        };
        if let Err(e) = reached {
            tried.push(format!(
                "I could not get where I can click the {} at {}: {e}",
                face_name(click.face),
                crate::bot::fmt_block(click.against)
            ));
            continue;
        }
        if let Err(e) = place::step_out_of(bot, target).await {
            tried.push(e);
            continue;
        }
        items::hold(bot, item).await?;
        if click_face(bot, item, click, spec, target).await {
            return Ok(());
        }
        tried.push(format!(
            "the server refused a click on the {} of {}",
            face_name(click.face),
            crate::bot::fmt_block(click.against)
        ));
    }
    Err(tried.join("; "))
}

/// Clicks `click`'s face looking the way it needs; whether the block then stands at `target`.
async fn click_face(bot: &BotHandle, item: &str, click: Click, spec: &Spec, target: BlockPos) -> bool {
    let client = bot.client();
    let carried = items::count(bot, item);
    let a = click.against;
    let (nx, ny, nz) = (f64::from(target.x - a.x), f64::from(target.y - a.y), f64::from(target.z - a.z));
    // The point clicked: on the face, at the wanted height for a side face.
    let height = if ny == 0.0 { click.height } else { 0.5 + ny * 0.5 };
    let point = Vec3::new(f64::from(a.x) + 0.5 + nx * 0.5, f64::from(a.y) + height, f64::from(a.z) + 0.5 + nz * 0.5);
    // Look at the point, or the way the state needs (`look_at` would apply a tick later, over a direction set now).
    let eyes = client.eye_position();
    let (dx, dy, dz) = (point.x - eyes.x, point.y - eyes.y, point.z - eyes.z);
    let toward = (-dx.atan2(dz).to_degrees()) as f32;
    let pitch = (-dy.atan2(dx.hypot(dz)).to_degrees()) as f32;
    client.set_direction(click.yaw.unwrap_or(toward), pitch);
    client.wait_ticks(2).await;
    let seq = {
        let mut ecs = client.ecs.write();
        let mut entity = ecs.entity_mut(client.entity);
        entity.get_mut::<BlockStatePredictionHandler>().map_or(0, |mut p| p.start_predicting())
    };
    client.write_packet(ServerboundUseItemOn {
        hand: InteractionHand::MainHand,
        block_hit: BlockHit {
            block_pos: a,
            direction: click.face,
            location: point,
            inside: false,
            world_border: false,
        },
        seq,
    });
    let stands = || holds(bot, target, spec).is_some();
    if !items::wait_until(bot, Duration::from_secs(2), stands).await {
        return false;
    }
    items::wait_until(bot, Duration::from_secs(1), || items::count(bot, item) < carried).await;
    stands()
}

fn face_name(face: Direction) -> &'static str {
    match face {
        Direction::Up => "top",
        Direction::Down => "bottom",
        Direction::North => "north side",
        Direction::South => "south side",
        Direction::East => "east side",
        Direction::West => "west side",
    }
}

/// A blueprint by name (in the bot's blueprint folder) or file path, read and turned to face `facing`.
pub fn blueprint(bot: &BotHandle, name: &str, facing: Facing) -> Result<Blueprint, String> {
    let folder = bot.blueprints();
    let path = folder.path_of(name).ok_or_else(|| {
        let names = folder.names();
        let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
        format!("There is no blueprint called {name} (blueprints in {}: {known})", folder.dir().display())
    })?;
    Blueprint::load(&path).map(|b| b.facing(facing)).map_err(|e| format!("The blueprint {name} cannot be built: {e}"))
}

/// `buildStructure(blueprint, pos, facing[, share])`: builds it (or, with `share` such as "2/3", that member's share
/// of it) from what the bot carries and answers with the world's score (`#{score, states, blocks, placed, dug}`), or
/// fails saying what is missing or what went wrong.
pub async fn structure(
    bot: &BotHandle,
    name: &str,
    pos: crate::script::Vec3,
    facing: &str,
    share: Option<&str>,
) -> crate::script::Answer {
    let facing: Facing = facing.parse()?;
    let whole = blueprint(bot, name, facing)?;
    let share: Option<Share> = share.map(str::parse).transpose()?;
    let blueprint = share.map_or_else(|| whole.clone(), |share| whole.share(share));
    let whole = share.is_some().then_some(&whole);
    let origin = BlockPos::from(pos);
    let short = missing(bot, &blueprint, origin);
    if !short.is_empty() {
        return Err(format!("To build {} I need {} more", blueprint.name, list(&short)));
    }
    let started = std::time::Instant::now();
    let report = build(bot, &blueprint, origin, whole).await;
    if !report.score.done() {
        return Err(format!("{} stands at {}: {}", blueprint.name, report.score, report.problems.join("; ")));
    }
    bot.chat(&format!(
        "Built {} at {} in {:.0} s: {}.",
        blueprint.name,
        crate::bot::fmt_block(origin),
        started.elapsed().as_secs_f64(),
        report.score
    ));
    let mut map = rhai::Map::new();
    map.insert("score".into(), rhai::Dynamic::from_float(report.score.share()));
    map.insert("states".into(), rhai::Dynamic::from_float(report.score.state_share()));
    map.insert("blocks".into(), rhai::Dynamic::from_int(i64::from(report.score.blocks)));
    map.insert("placed".into(), rhai::Dynamic::from_int(i64::from(report.placed)));
    map.insert("dug".into(), rhai::Dynamic::from_int(i64::from(report.dug)));
    map.insert("levelled".into(), rhai::Dynamic::from_int(i64::from(report.levelled)));
    Ok(rhai::Dynamic::from_map(map))
}
