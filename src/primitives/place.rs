//! `placeItem(name, pos)`: put a block from the inventory at `pos`, against a neighbouring solid block, and check
//! that it is there. Each face it could be placed against is tried in turn, from where that face can be clicked (the
//! bot climbs or pillars to click the top of a block above its eyes); a failure says what was tried. A spot where
//! every try failed is passed over by `findFreeSpot` for a while, so code that looks for another spot finds one.

use std::{str::FromStr, time::Duration};

use azalea::{
    BlockPos, Vec3, WalkDirection,
    block::{BlockState, properties::Layers},
    pathfinder::world::{is_block_state_passable, is_block_state_standable},
    registry::builtin::BlockKind,
};
use rhai::Dynamic;

use super::{items, observe};
use crate::{
    bot::BotHandle,
    script::{Answer, Vec3 as ScriptVec3},
};

/// Blocks a placement may replace, as the game has it (a thin snow layer too; see [`replaceable`]).
const REPLACEABLE: [BlockKind; 9] = [
    BlockKind::Air,
    BlockKind::CaveAir,
    BlockKind::ShortGrass,
    BlockKind::TallGrass,
    BlockKind::Fern,
    BlockKind::LargeFern,
    BlockKind::DeadBush,
    BlockKind::Snow,
    BlockKind::Water,
];

/// Whether clicking the block opens it (a crafting table, furnace, chest…) rather than placing against it, as a
/// player who is not sneaking finds.
pub(super) fn opens_on_click(state: BlockState) -> bool {
    let name = BlockKind::from(state).to_string();
    let name = name.strip_prefix("minecraft:").unwrap_or(&name);
    matches!(
        name,
        "crafting_table"
            | "furnace"
            | "blast_furnace"
            | "smoker"
            | "chest"
            | "trapped_chest"
            | "barrel"
            | "ender_chest"
            | "anvil"
            | "enchanting_table"
            | "brewing_stand"
            | "hopper"
            | "dispenser"
            | "dropper"
            | "lever"
            | "cartography_table"
            | "smithing_table"
            | "loom"
            | "stonecutter"
            | "grindstone"
            | "crafter"
    ) || name.ends_with("_door")
        || name.ends_with("_trapdoor")
        || name.ends_with("_fence_gate")
        || name.ends_with("_button")
        || name.ends_with("_bed")
        || name.ends_with("shulker_box")
}

/// Whether a placed block may take the place of `state`: air, grass, ferns, water, or snow one layer deep.
pub(super) fn replaceable(state: BlockState) -> bool {
    let kind = BlockKind::from(state);
    REPLACEABLE.contains(&kind)
        && (kind != BlockKind::Snow || state.property::<Layers>().is_none_or(|l| l == Layers::_1))
}

/// How far down a block in the air looks for the ground of its column.
const MAX_DROP: i32 = 8;

/// How far from the bot a block of the kind to place is named when none is carried.
const PLACED_NEAR: f64 = 8.0;

/// When no `name` is carried, what to do instead: where a block of its `kind` stands near that digging with what is
/// carried gives (the local model placed its only table on top of the stone when asked for it beside, then could not
/// place it again), and the call that gets it: `; one stands at 4 65 -1: digBlock(vec3(4, 65, -1)) gets it`; else
/// the blocks that are carried (it copied a line of cobblestone into a floor of oak planks, carrying no cobblestone):
/// `; the blocks I carry: 4 oak_planks`. Else nothing.
async fn instead(bot: &BotHandle, name: &str, kind: BlockKind) -> String {
    let carried = items::carried(bot);
    let block = strip(kind);
    if super::facts::drops_of(&block).iter().any(|drop| drop == name)
        && super::facts::check_harvest(&block, &carried).is_ok()
        && let Some(p) = observe::nearest_blocks(bot, kind, PLACED_NEAR, 1).await.first()
    {
        return format!("; one stands at {}: digBlock(vec3({}, {}, {})) gets it", fmt(*p), p.x, p.y, p.z);
    }
    let mut blocks: Vec<(String, i32)> =
        carried.into_iter().filter(|(item, n)| *n > 0 && placed_kind(item).is_ok()).collect();
    if blocks.is_empty() {
        return String::new();
    }
    blocks.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let listed: Vec<String> = blocks.iter().take(CARRIED_SHOWN).map(|(item, n)| format!("{n} {item}")).collect();
    format!("; the blocks I carry: {}", listed.join(", "))
}

/// The most kinds of carried blocks a failed placement names.
const CARRIED_SHOWN: usize = 3;

/// Neighbour offsets to place against, preferred first: the block below, then the sides, then above.
const AGAINST: [(i32, i32, i32); 6] = [(0, -1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1), (0, 1, 0)];

/// Items that place a block of another name: seeds plant their crop, redstone lays wire, string a tripwire.
pub const PLACED_AS: &[(&str, BlockKind)] = &[
    ("wheat_seeds", BlockKind::Wheat),
    ("beetroot_seeds", BlockKind::Beetroots),
    ("carrot", BlockKind::Carrots),
    ("potato", BlockKind::Potatoes),
    ("melon_seeds", BlockKind::MelonStem),
    ("pumpkin_seeds", BlockKind::PumpkinStem),
    ("torchflower_seeds", BlockKind::TorchflowerCrop),
    ("pitcher_pod", BlockKind::PitcherCrop),
    ("sweet_berries", BlockKind::SweetBerryBush),
    ("glow_berries", BlockKind::CaveVines),
    ("cocoa_beans", BlockKind::Cocoa),
    ("redstone", BlockKind::RedstoneWire),
    ("string", BlockKind::Tripwire),
];

/// The item that places `block` where the two names differ (`carrot` for `carrots`).
pub fn item_placing(block: &str) -> Option<&'static str> {
    PLACED_AS.iter().find(|(_, kind)| strip(*kind) == block).map(|(item, _)| *item)
}

/// The block placing the item `name` makes.
fn placed_kind(name: &str) -> Result<BlockKind, String> {
    PLACED_AS
        .iter()
        .find(|(item, _)| *item == name)
        .map(|(_, kind)| *kind)
        .map_or_else(|| BlockKind::from_str(name), Ok)
        .map_err(|()| format!("{name} is not a block, so it cannot be placed"))
}

pub async fn place_item(bot: &BotHandle, name: &str, pos: ScriptVec3) -> Answer {
    let target = BlockPos::from(pos);
    let here = observe::block_state(bot, target)
        .ok_or_else(|| format!("The block at {} is not loaded; go closer first", fmt(target)))?;
    let there = strip(BlockKind::from(here));
    if observe::CONTAINERS.contains(&there.as_str()) && !observe::CONTAINERS.contains(&name) {
        // Items "placed in a chest" are put into it: a small model reaches for placeItem.
        return Err(format!(
            "There is a {there} at {}: placeItem puts a block into the world. To put {name} into the {there}, call \
             depositItemIntoChest(vec3({}, {}, {}), #{{{name}: how_many}})",
            fmt(target),
            target.x,
            target.y,
            target.z
        ));
    }
    let kind = placed_kind(name)?;
    if items::count(bot, name) == 0 {
        return Err(format!("I have no {name} to place{}", instead(bot, name, kind).await));
    }
    if !replaceable(here) {
        // The spot named is often the block to build on (the ground, a block found): the one on top of it is said,
        // when it is free, for the code to aim at instead.
        let above = target.up(1);
        let on_top = match observe::block_state(bot, above) {
            Some(state) if replaceable(state) => format!(" such as {}, on top of it (offset(0, 1, 0))", fmt(above)),
            _ => String::new(),
        };
        return Err(format!(
            "There is already {there} at {}; `pos` is where the new block goes: pick an empty spot{on_top}",
            fmt(target)
        ));
    }
    let faces: Vec<BlockPos> = AGAINST
        .iter()
        .map(|&(x, y, z)| BlockPos::new(target.x + x, target.y + y, target.z + z))
        .filter(|p| observe::block_state(bot, *p).is_some_and(|s| !replaceable(s) && !opens_on_click(s)))
        .collect();
    if faces.is_empty() {
        // A block in the air: the lowest free spot of its column, on the ground, is where building starts.
        let ground = (1..=MAX_DROP)
            .map(|down| target.down(down))
            .find_map(|p| observe::block_state(bot, p).filter(|s| !replaceable(*s)).map(|s| (p, s)));
        let start = match ground {
            Some((ground, state)) if !opens_on_click(state) => {
                format!("; build from the bottom up, starting at {} on the ground", fmt(ground.up(1)))
            }
            _ => String::new(),
        };
        return Err(format!(
            "Nothing to place {name} against at {}: it needs a solid block next to it (a table, furnace or chest \
             opens when clicked, so it does not count){start}",
            fmt(target)
        ));
    }
    let mut tried: Vec<String> = Vec::new();
    for against in faces {
        let side = side_of(target, against);
        let against_kind = observe::block_kind(bot, against).map_or_else(|| "block".to_owned(), strip);
        if let Err(e) = bot.goto_click(target, against).await {
            tried.push(format!(
                "the {side} of the {against_kind} at {}: I could not get where I can click it ({e})",
                fmt(against)
            ));
            continue;
        }
        if let Err(e) = step_out_of(bot, target).await {
            tried.push(format!("the {side} of the {against_kind}: {e}"));
            continue;
        }
        items::hold(bot, name).await?;
        if click_place(bot, name, kind, target, against).await {
            if matches!(kind, BlockKind::CraftingTable | BlockKind::Furnace) {
                bot.remember_station(target);
            }
            return Ok(Dynamic::UNIT);
        }
        let now = observe::block_kind(bot, target).map_or_else(|| "not loaded".to_owned(), strip);
        tried.push(format!(
            "the {side} of the {against_kind} at {}: the server refused it (the spot holds {now})",
            fmt(against)
        ));
        if items::count(bot, name) == 0 {
            break;
        }
    }
    bot.mark_unreachable(target);
    Err(format!("I could not place {name} at {}. I tried {}", fmt(target), tried.join("; ")))
}

/// The most free spots `placeItem(name)` tries before it fails.
const SPOTS_TRIED: usize = 6;

/// `placeItem(name)`: places a carried block on a free spot near the bot ([`free_spot`], within 4 blocks, else 8),
/// and when the world refuses it there (every face tried), on the next free spot, up to [`SPOTS_TRIED`]: a refused
/// spot is passed over by `free_spot` for a while. The spot it stands on is the answer; the error names every spot
/// tried and why each was refused.
pub async fn place_item_near(bot: &BotHandle, name: &str) -> Answer {
    let mut tried: Vec<String> = Vec::new();
    for _ in 0..SPOTS_TRIED {
        let Some(spot) = free_spot(bot, 4).or_else(|| free_spot(bot, MAX_SPOT_DISTANCE)) else { break };
        match place_item(bot, name, spot.into()).await {
            Ok(_) => return Ok(Dynamic::from(ScriptVec3::from(spot))),
            // Nothing to place: no other spot helps.
            Err(why) if items::count(bot, name) == 0 => return Err(why),
            Err(why) => {
                let prefix = format!("I could not place {name} at {}. I tried ", fmt(spot));
                let why = why.strip_prefix(&prefix).unwrap_or(&why).to_owned();
                tried.push(format!("at {}: {why}", fmt(spot)));
            }
        }
    }
    let here = fmt(BlockPos::from(bot.position()));
    if tried.is_empty() {
        return Err(format!(
            "I could not find a free spot on solid ground within {MAX_SPOT_DISTANCE} blocks of {here} to place \
             {name}; move to open ground"
        ));
    }
    Err(format!("I could not place {name} near {here}. I tried {} spots: {}", tried.len(), tried.join(" | ")))
}

/// Which face of `against` touches `target`: `top`, `bottom`, `east side`…
fn side_of(target: BlockPos, against: BlockPos) -> &'static str {
    match (target.x - against.x, target.y - against.y, target.z - against.z) {
        (0, 1, 0) => "top",
        (0, -1, 0) => "bottom",
        (1, 0, 0) => "east side",
        (-1, 0, 0) => "west side",
        (0, 0, 1) => "south side",
        _ => "north side",
    }
}

/// Clicks the face of `against` that touches `target` with the held block; whether the block then stands there.
///
/// The block may show in the bot's world before the server takes it from the inventory, so this also waits (briefly)
/// for the count carried to drop: a script that reads its inventory right after sees the block gone.
async fn click_place(bot: &BotHandle, name: &str, kind: BlockKind, target: BlockPos, against: BlockPos) -> bool {
    let carried = items::count(bot, name);
    // Look at the middle of the face of `against` that touches the target, so the click lands on it.
    let face = Vec3::new(
        (against.x + target.x) as f64 / 2.0 + 0.5,
        (against.y + target.y) as f64 / 2.0 + 0.5,
        (against.z + target.z) as f64 / 2.0 + 0.5,
    );
    let client = bot.client();
    client.look_at(face);
    client.wait_ticks(2).await;
    client.block_interact(against);
    let stands = || observe::block_kind(bot, target) == Some(kind);
    if !items::wait_until(bot, Duration::from_secs(2), stands).await {
        return false;
    }
    items::wait_until(bot, Duration::from_secs(1), || items::count(bot, name) < carried).await;
    stands()
}

/// Places `name` at `target` from where the bot stands, against a solid block beside `target` (not above or below
/// it): a lid over a hole the bot stands in.
pub(super) async fn place_against_side(bot: &BotHandle, name: &str, target: BlockPos) -> Result<(), String> {
    let kind = placed_kind(name)?;
    let against = [target.north(1), target.south(1), target.east(1), target.west(1)]
        .into_iter()
        .find(|p| observe::block_state(bot, *p).is_some_and(|s| !replaceable(s) && !opens_on_click(s)))
        .ok_or_else(|| format!("Nothing beside {} to place {name} against", fmt(target)))?;
    items::hold(bot, name).await?;
    if click_place(bot, name, kind, target, against).await {
        Ok(())
    } else {
        Err(format!("I could not place {name} at {}; the server refused it", fmt(target)))
    }
}

/// Walks the bot to the middle of the block it stands on (a few ticks at most).
pub(super) async fn centre_on_block(bot: &BotHandle) {
    centre_over(bot, BlockPos::from(bot.position())).await;
}

/// Walks the bot over the middle of the column of `block` (knocked aside from a hole it dug, back over it).
pub(super) async fn centre_over(bot: &BotHandle, feet: BlockPos) {
    walk_over(bot, feet, 20, 0.15, || false).await;
}

/// Walks the bot toward the middle of the column of `column`, `ticks` at most, until within `within` blocks of it
/// (across) or `done` says so; then stands still.
async fn walk_over(bot: &BotHandle, column: BlockPos, ticks: usize, within: f64, done: impl Fn() -> bool) {
    let client = bot.client();
    for _ in 0..ticks {
        let here = bot.position();
        let centre = Vec3::new(f64::from(column.x) + 0.5, here.y + 1.62, f64::from(column.z) + 0.5);
        if done() || (here.x - centre.x).hypot(here.z - centre.z) < within {
            break;
        }
        client.look_at(centre);
        client.walk(WalkDirection::Forward);
        client.wait_ticks(1).await;
    }
    client.walk(WalkDirection::None);
    client.wait_ticks(2).await;
}

/// The cheap blocks walks build with ([`crate::bot::moves::SCAFFOLD`]), by item name, cheapest first.
pub(super) fn scaffold_names() -> impl Iterator<Item = String> {
    crate::bot::moves::SCAFFOLD.iter().map(|k| k.to_string().trim_start_matches("minecraft:").to_owned())
}

/// Ticks a jump may take to lift the feet a whole block (vanilla's jump tops out at 1.25 blocks after 6 ticks).
const RISE_TICKS: usize = 10;
/// Jumps in a row that may place nothing (a blow threw the bot aside, the server refused) before the pillar fails.
const PILLAR_MISSES: u32 = 4;

/// Builds a pillar of `height` scaffold blocks under the bot where it stands, as a player does: look down, jump, and
/// at the top of the jump put a block under the feet, then land on it. No path is planned and no walk made, so it
/// holds with monsters pushing the bot about: each jump places under wherever the bot then is. Fails saying how many
/// blocks went up and why the rest did not.
pub(super) async fn pillar_up(bot: &BotHandle, height: u32) -> Result<(), String> {
    pillar_of(bot, None, height).await
}

/// `pillarUp(name, height)`: a pillar of `height` blocks of `name` built under the bot jump by jump, as
/// [`pillar_up`] builds one of scaffold: the way a column too tall to reach from the ground goes up (a tower of
/// stone bricks or logs, where no cheap block is carried to stand on). Then the bot steps off its top to the ground
/// beside it, unless the fall would take more health than it has to spare. The answer is the pillar's top block.
pub async fn pillar_up_with(bot: &BotHandle, name: &str, height: u32) -> Answer {
    placed_kind(name)?;
    let have = items::count(bot, name);
    if have < height as i32 {
        return Err(format!("A pillar of {height} {name} needs {height}; I have {have}"));
    }
    pillar_of(bot, Some(name), height).await?;
    let top = BlockPos::from(bot.position()).down(1);
    // Vanilla's fall damage: a point of health for each block past the third.
    let hurt = height.saturating_sub(3) as f32;
    if hurt + SPARE_HEALTH >= bot.client().health() {
        tracing::info!("{}: I stay on the pillar at {}: the fall would hurt too much", bot.name(), fmt(top));
    } else if let Err(e) = step_off(bot).await {
        tracing::info!("{}: I stay on the pillar at {}: {e}", bot.name(), fmt(top));
    }
    Ok(Dynamic::from(ScriptVec3::from(top)))
}

/// Health a step off a pillar leaves at the least.
const SPARE_HEALTH: f32 = 6.0;

/// Walks off the block the bot stands on toward a side with room to fall (open at its level and the one above),
/// and waits to land.
async fn step_off(bot: &BotHandle) -> Result<(), String> {
    let feet = BlockPos::from(bot.position());
    let open = |p: BlockPos| observe::block_state(bot, p).is_some_and(is_block_state_passable);
    let sides = [feet.east(1), feet.west(1), feet.south(1), feet.north(1)];
    let room = |p: &BlockPos| open(*p) && open(p.up(1));
    // A side with nothing under it first: a drop to the ground, not a step onto something built beside.
    let side = sides
        .into_iter()
        .find(|p| room(p) && open(p.down(1)))
        .or_else(|| sides.into_iter().find(room))
        .ok_or_else(|| format!("no side of {} is open to step off", fmt(feet)))?;
    let client = bot.client();
    let on_ground = || client.component::<azalea::entity::Physics>().on_ground();
    // Off the edge once lower than the top, or once clear of it: the body is 0.6 wide, so its middle must be well
    // past the line.
    let falling = || bot.position().y < f64::from(feet.y) - 0.5;
    walk_over(bot, side, 40, 0.2, falling).await;
    let landed = items::wait_until(bot, Duration::from_secs(4), || on_ground() && falling()).await;
    if landed { Ok(()) } else { Err(format!("I did not get down from {}", fmt(feet))) }
}

/// [`pillar_up`] with `block` (any carried scaffold block when `None`).
async fn pillar_of(bot: &BotHandle, block: Option<&str>, height: u32) -> Result<(), String> {
    let client = bot.client();
    client.walk(WalkDirection::None);
    let on_ground = || client.component::<azalea::entity::Physics>().on_ground();
    let (mut built, mut misses) = (0, 0);
    let mut ground = BlockPos::from(bot.position()).y;
    let mut why = String::new();
    while built < height {
        if misses >= PILLAR_MISSES {
            return Err(format!("I built {built} of {height} blocks of a pillar: {why}"));
        }
        let next = match block {
            Some(name) => (items::count(bot, name) > 0).then(|| name.to_owned()),
            None => scaffold_names().find(|name| items::count(bot, name) > 0),
        };
        let Some(block) = next else {
            return Err(format!("I built {built} of {height} blocks of a pillar and ran out of blocks"));
        };
        items::hold(bot, &block).await?;
        if !items::wait_until(bot, Duration::from_secs(2), on_ground).await {
            misses += 1;
            why = "I was off the ground".to_owned();
            continue;
        }
        let base = BlockPos::from(bot.position());
        if base.y != ground + built as i32 {
            // Thrown off what was built so far (or a first jump): the pillar starts again where the bot now stands.
            (ground, built) = (base.y, 0);
        }
        // Straight down, so the crosshair is on the top of the block underfoot.
        client.set_direction(client.direction().y_rot(), 90.0);
        client.wait_ticks(1).await;
        client.jump();
        let mut clicked = None;
        for _ in 0..RISE_TICKS {
            client.wait_ticks(1).await;
            let here = bot.position();
            if here.y < f64::from(base.y) + 1.05 {
                continue;
            }
            let target = BlockPos::new(here.x.floor() as i32, base.y, here.z.floor() as i32);
            let against = target.down(1);
            let free = observe::block_state(bot, target).is_some_and(replaceable);
            let firm = observe::block_state(bot, against).is_some_and(|s| !replaceable(s) && !opens_on_click(s));
            if free && firm {
                client.block_interact(against);
                clicked = Some(target);
            } else {
                why = format!("nothing to build on under {}", fmt(target));
            }
            break;
        }
        let stands = |target: BlockPos| observe::block_state(bot, target).is_some_and(|s| !replaceable(s));
        let placed = match clicked {
            Some(target) => items::wait_until(bot, Duration::from_millis(400), || stands(target)).await,
            None => false,
        };
        // Landed: on the new block when the server took it and no blow threw the bot off.
        items::wait_until(bot, Duration::from_secs(1), || on_ground() && bot.position().y >= f64::from(base.y) + 0.9)
            .await;
        let up = bot.position().y >= f64::from(base.y) + 0.9;
        tracing::debug!(
            "{}: pillar jump from {}: clicked {clicked:?}, placed {placed}, up {up}",
            bot.name(),
            fmt(base)
        );
        if up {
            built += 1;
            misses = 0;
            continue;
        }
        misses += 1;
        why = match (clicked, placed) {
            (Some(target), false) => format!("the server refused {block} at {}", fmt(target)),
            (Some(_), true) => "a blow threw me off it".to_owned(),
            (None, _) if why.is_empty() => "my jumps did not lift me a block".to_owned(),
            (None, _) => why,
        };
    }
    client.walk(WalkDirection::None);
    Ok(())
}

/// The farthest a spot is looked for (scripts are held to this by their bindings too).
const MAX_SPOT_DISTANCE: i32 = 8;

/// The best spot within `max_distance` blocks of the bot to put a block down (a crafting table, a furnace, a chest):
/// empty or grass, on ground a block can stand on, not where the bot stands, with room above it to reach it, and no
/// liquid beside it. Spots level with the bot's feet come first, then the nearest; a spot in a one-wide passage (a
/// staircase the bot dug) only when there is nothing else, since a block there walls the way back.
pub fn free_spot(bot: &BotHandle, max_distance: i32) -> Option<BlockPos> {
    let here = bot.position();
    let feet = BlockPos::from(here);
    let r = max_distance.clamp(1, MAX_SPOT_DISTANCE);
    // Spots where a placement failed lately are passed over, so code asking again gets another one.
    let refused = bot.unreachable();
    let world = bot.client().world();
    let world = world.read();
    let state = |p: BlockPos| world.get_block_state(p);
    let kind = |p: BlockPos| state(p).map(BlockKind::from);
    let liquid = |p: BlockPos| matches!(kind(p), Some(BlockKind::Water | BlockKind::Lava));
    let open = |p: BlockPos| state(p).is_some_and(is_block_state_passable) && !liquid(p);
    let sides = |p: BlockPos| [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|(x, z)| BlockPos::new(p.x + x, p.y, p.z + z));

    let mut best: Option<(f64, BlockPos)> = None;
    for dy in -2..=2 {
        for dx in -r..=r {
            for dz in -r..=r {
                let p = BlockPos::new(feet.x + dx, feet.y + dy, feet.z + dz);
                if (dx == 0 && dz == 0) || dx * dx + dz * dz > r * r || overlaps(here, p) {
                    continue;
                }
                let spot_ok = state(p).is_some_and(replaceable) && !liquid(p) && !refused.contains(&p);
                let ground = BlockPos::new(p.x, p.y - 1, p.z);
                let ground_ok = state(ground).is_some_and(|s| is_block_state_standable(s) && !opens_on_click(s));
                if !spot_ok || !ground_ok || !open(p.up(1)) {
                    continue;
                }
                if sides(p).into_iter().chain([p.up(1), ground]).any(liquid) {
                    continue;
                }
                // A spot the bot could walk through from one side to the opposite one (level, or a step up or
                // down, as along a staircase) is a way through; a table there walls it off. Such spots are kept
                // only as a last resort, or where every spot is one (open ground).
                let way = |s: BlockPos| {
                    (open(s) && open(s.up(1))) || (open(s.up(1)) && open(s.up(2))) || (open(s.down(1)) && open(s))
                };
                let [east, west, south, north] = sides(p).map(way);
                let passage = (east && west) || (south && north);
                let score = f64::from(dx * dx + dz * dz).sqrt()
                    + 2.0 * f64::from(dy.abs())
                    + if passage { 100.0 } else { 0.0 }
                    // A spot right beside the bot (or at its corner) leaves no room to step around it.
                    + if dx.abs() <= 1 && dz.abs() <= 1 { 1.5 } else { 0.0 };
                if best.is_none_or(|(s, _)| score < s) {
                    best = Some((score, p));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}

/// Moves the bot clear of `target` (a block cannot be placed where a player stands, even partly): out of that
/// block altogether when it stands in it, or back to the middle of its own block when its body reaches into it.
pub(super) async fn step_out_of(bot: &BotHandle, target: BlockPos) -> Result<(), String> {
    let feet = BlockPos::from(bot.position());
    if feet.x == target.x && feet.z == target.z && (feet.y == target.y || feet.y + 1 == target.y) {
        let away = Vec3::new(target.x as f64 + 2.5, bot.position().y, target.z as f64 + 0.5);
        bot.goto_near(away, 1.0)
            .await
            .map_err(|e| format!("I am standing where the block goes and cannot move: {e}"))?;
    }
    if !overlaps(bot.position(), target) {
        return Ok(());
    }
    centre_on_block(bot).await;
    if overlaps(bot.position(), target) {
        return Err(format!("I am in the way of {}; move me a step and try again", fmt(target)));
    }
    Ok(())
}

/// Whether a player standing at `feet` (0.6 wide, 1.8 tall) reaches into the block at `block`.
pub(super) fn overlaps(feet: Vec3, block: BlockPos) -> bool {
    let (x, y, z) = (f64::from(block.x), f64::from(block.y), f64::from(block.z));
    feet.x + 0.3 > x
        && feet.x - 0.3 < x + 1.0
        && feet.z + 0.3 > z
        && feet.z - 0.3 < z + 1.0
        && feet.y + 1.8 > y
        && feet.y < y + 1.0
}

fn fmt(p: BlockPos) -> String {
    format!("{} {} {}", p.x, p.y, p.z)
}

fn strip(kind: BlockKind) -> String {
    let name = kind.to_string();
    name.strip_prefix("minecraft:").unwrap_or(&name).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_reaches_into_the_next_block_only_near_its_edge() {
        let next = BlockPos::new(1, 64, 0);
        assert!(!overlaps(Vec3::new(0.5, 64.0, 0.5), next), "in the middle of its own block");
        assert!(overlaps(Vec3::new(0.8, 64.0, 0.5), next), "0.1 from the edge, the body crosses it");
        assert!(overlaps(Vec3::new(0.5, 63.0, 0.5), BlockPos::new(0, 64, 0)), "its head is in the block above");
        assert!(!overlaps(Vec3::new(0.8, 65.0, 0.5), next), "standing a block higher");
    }
}
