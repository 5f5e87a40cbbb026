//! Wayfarer's move set for azalea's pathfinder: azalea's own moves (walk, sprint, jump up, drop down at most 3
//! blocks, parkour, dig through with the best tool) with two changes.
//!
//! - No digging straight down: the bot goes underground by stairs it digs, which it can walk back up (azalea digs
//!   its way up stairs by itself), never down a shaft onto whatever lies beneath.
//! - Pillaring: where the way on is up and there is nothing to climb, the bot jumps and places a cheap block it
//!   carries ([`SCAFFOLD`]) under itself, block by block. This gets it out of pits and onto ledges.
//! - Bridging: over a gap or water the bot places a block ahead of it, against the side of the one it stands on,
//!   and steps onto it. While it carries blocks, it would rather bridge a short stretch of water than swim it.
//!
//! The planner sees only the world as it is, so a pillar is planned as a column of air the bot rises through; how
//! many scaffold blocks it carries reaches the (capture-less) move function through azalea's custom pathfinder state.

use azalea::{
    BlockPos, Vec3, WalkDirection,
    block::BlockState,
    core::direction::{CardinalDirection, Direction},
    ecs::world::EntityWorldMut,
    entity::inventory::Inventory,
    interact::BlockStatePredictionHandler,
    inventory::{ItemStack, LastSentSelectedHotbarSlot, SetSelectedHotbarSlotEvent},
    packet::game::SendGamePacketEvent,
    pathfinder::{
        astar::{Edge, Movement},
        costs::{FALL_N_BLOCKS_COST, WALK_OFF_BLOCK_COST, WALK_ONE_BLOCK_COST},
        custom_state::CustomPathfinderState,
        moves::{
            ExecuteCtx, IsReachedCtx, MoveData, MovesCtx,
            basic::{descend_is_reached, execute_descend_move},
            default_move,
        },
        positions::RelBlockPos,
        world::is_block_state_passable,
    },
    protocol::packets::game::{
        s_interact::InteractionHand,
        s_use_item_on::{BlockHit, ServerboundUseItemOn},
    },
    registry::builtin::{BlockKind, ItemKind},
};
// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;
use azalea::ecs::component::Component;

/// Blocks the bot may use up to build its way (cheapest first): what digging leaves in every inventory.
pub const SCAFFOLD: [ItemKind; 10] = [
    ItemKind::Dirt,
    ItemKind::Cobblestone,
    ItemKind::CobbledDeepslate,
    ItemKind::Netherrack,
    ItemKind::Andesite,
    ItemKind::Diorite,
    ItemKind::Granite,
    ItemKind::Tuff,
    ItemKind::Gravel,
    ItemKind::Sand,
];

/// Whether the item `name` (`dirt`, no `minecraft:`) is one of [`SCAFFOLD`].
pub fn is_scaffold(name: &str) -> bool {
    SCAFFOLD.iter().any(|kind| kind.to_string().trim_start_matches("minecraft:") == name)
}

/// The longest pillar planned at once (blocks).
const MAX_PILLAR: u32 = 12;
/// A pillar step: a jump and a placement (ticks), and a penalty that keeps blocks for when nothing else works.
const PILLAR_COST: f32 = 12.0 + 20.0;

/// How many scaffold blocks the bot carries, as the planner is told.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scaffold {
    pub blocks: u32,
}

/// A bridge step: placing (ticks) and a penalty, on top of the walk.
const BRIDGE_COST: f32 = 6.0 + 8.0;
/// Added to every step into water while the bot carries blocks to bridge with.
const WATER_PENALTY: f32 = 12.0;

/// The move set: azalea's moves less digging straight down, plus pillaring and bridging; steps into caves cost more
/// (see [`super::caves`]).
pub fn moves(ctx: &mut MovesCtx, node: RelBlockPos) {
    let first = ctx.edges.len();
    default_move(ctx, node);
    let below = node.down(1);
    let blocks = scaffold(ctx);
    let mut i = first;
    while i < ctx.edges.len() {
        let target = ctx.edges[i].movement.target;
        if target == below {
            ctx.edges.swap_remove(i);
            continue;
        }
        if blocks > 0 && ctx.world.is_block_water(target) {
            ctx.edges[i].cost += WATER_PENALTY;
        }
        i += 1;
    }
    stair_down_move(ctx, node);
    pillar_move(ctx, node);
    bridge_move(ctx, node);
    if let Some(under) = ctx.custom_state.get::<super::caves::Underground>().filter(|u| !u.is_empty()) {
        let origin = ctx.world.origin();
        for edge in &mut ctx.edges[first..] {
            let target = edge.movement.target;
            // Feet or head in a cave, or beside one, or a cave just over the head: stairs dug along a cave or
            // under its floor open into it.
            let open_cave = |cell: RelBlockPos| ctx.world.is_block_passable(cell) && under.is_cave(cell.apply(origin));
            let beside = |cell: RelBlockPos| {
                CardinalDirection::iter().any(|dir| open_cave(cell + RelBlockPos::new(dir.x(), 0, dir.z())))
            };
            if (0..=2).any(|up| open_cave(target.up(up))) || beside(target) || beside(target.up(1)) {
                edge.cost += super::caves::CAVE_PENALTY;
            }
        }
    }
}

/// One step down a staircase: dig the two blocks ahead and the one under them, and step down onto solid ground.
/// (azalea drops only where the floor ahead is already open; it digs down only straight down.) Blocks next to water
/// or lava cost infinity to break, so a staircase never opens onto a liquid.
fn stair_down_move(ctx: &mut MovesCtx, node: RelBlockPos) {
    if ctx.world.is_block_water(node) {
        return;
    }
    for dir in CardinalDirection::iter() {
        let next = node + RelBlockPos::new(dir.x(), 0, dir.z());
        let target = next.down(1);
        // Open floor ahead is azalea's descend; here the step itself is dug.
        if ctx.world.is_block_passable(target) || !ctx.world.is_block_standable(target.down(1)) {
            continue;
        }
        let dig = ctx.world.cost_for_passing(next, ctx.mining_cache)
            + ctx.world.cost_for_breaking_block(target, ctx.mining_cache);
        if dig == f32::INFINITY {
            continue;
        }
        ctx.edges.push(Edge {
            movement: Movement {
                target,
                data: MoveData { execute: &execute_descend_move, is_reached: &descend_is_reached },
            },
            cost: WALK_OFF_BLOCK_COST + FALL_N_BLOCKS_COST[1] + dig,
        });
    }
}

fn scaffold(ctx: &MovesCtx) -> u32 {
    ctx.custom_state.get::<Scaffold>().map_or(0, |s| s.blocks)
}

fn pillar_move(ctx: &mut MovesCtx, node: RelBlockPos) {
    let blocks = scaffold(ctx);
    // Air under `node` is the pillar planned so far (the bot stands on blocks it will have placed).
    let height = ctx.world.fall_distance(node);
    if blocks == 0 || height >= blocks.min(MAX_PILLAR) || ctx.world.is_block_water(node) {
        return;
    }
    // The block above the head must be air, or dug out first.
    let head_room = ctx.world.cost_for_breaking_block(node.up(2), ctx.mining_cache);
    if head_room == f32::INFINITY {
        return;
    }
    ctx.edges.push(Edge {
        movement: Movement {
            target: node.up(1),
            data: MoveData { execute: &execute_pillar, is_reached: &pillar_is_reached },
        },
        cost: PILLAR_COST + head_room,
    });
}

fn bridge_move(ctx: &mut MovesCtx, node: RelBlockPos) {
    // Not while swimming. Water under `node` is fine: that is the bridge planned so far.
    if scaffold(ctx) == 0 || ctx.world.is_block_water(node) {
        return;
    }
    for dir in CardinalDirection::iter() {
        let next = node + RelBlockPos::new(dir.x(), 0, dir.z());
        let floor = next.down(1);
        // Only where there is nothing to stand on: air (a gap) or water, never lava.
        if ctx.world.is_block_standable(floor)
            || !(ctx.world.is_block_passable(floor) || ctx.world.is_block_water(floor))
        {
            continue;
        }
        if is_lava(ctx.world.get_block_state(floor)) {
            continue;
        }
        let passing = ctx.world.cost_for_passing(next, ctx.mining_cache);
        if passing == f32::INFINITY {
            continue;
        }
        ctx.edges.push(Edge {
            movement: Movement {
                target: next,
                data: MoveData { execute: &execute_bridge, is_reached: &bridge_is_reached },
            },
            cost: WALK_ONE_BLOCK_COST + BRIDGE_COST + passing,
        });
    }
}

fn is_lava(state: BlockState) -> bool {
    BlockKind::from(state) == BlockKind::Lava
}

fn execute_bridge(mut ctx: ExecuteCtx) {
    let (start, target) = (ctx.start, ctx.target);
    let floor = target.down(1);
    if is_block_state_passable(ctx.get_block_state(floor))
        || BlockKind::from(ctx.get_block_state(floor)) == BlockKind::Water
    {
        // Stand still on the start block and put the floor in place, against the side of the block underfoot.
        if ctx.mine_while_at_start(target) || ctx.mine_while_at_start(target.up(1)) {
            return;
        }
        ctx.walk(WalkDirection::None);
        let against = start.down(1);
        let face = face_towards(against, floor);
        ctx.look_at_exact(face_centre(against, face));
        let Some(slot) = scaffold_in_hotbar(&ctx.menu.slots()) else { return };
        ctx.commands.trigger(SetSelectedHotbarSlotEvent { entity: ctx.entity, slot });
        place_on_face(&mut ctx, against, face, slot);
        return;
    }
    ctx.look_at(target.center());
    ctx.walk(WalkDirection::Forward);
}

fn bridge_is_reached(ctx: IsReachedCtx) -> bool {
    BlockPos::from(ctx.position) == ctx.target && ctx.physics.on_ground()
}

/// The face of `block` that looks at `neighbour` (one of its six neighbours).
fn face_towards(block: BlockPos, neighbour: BlockPos) -> Direction {
    match (neighbour.x - block.x, neighbour.y - block.y, neighbour.z - block.z) {
        (1, _, _) => Direction::East,
        (-1, _, _) => Direction::West,
        (_, _, 1) => Direction::South,
        (_, _, -1) => Direction::North,
        (_, -1, _) => Direction::Down,
        _ => Direction::Up,
    }
}

fn face_centre(block: BlockPos, face: Direction) -> Vec3 {
    let c = block.center();
    Vec3::new(c.x + f64::from(face.x()) * 0.5, c.y + f64::from(face.y()) * 0.5, c.z + f64::from(face.z()) * 0.5)
}

/// A build under way: walks dig nothing (the way out of a house is its door, not its wall), how far it got, for
/// `!status`, and the blocks its walks put up, for the build to take down.
#[derive(Component, Clone, Debug, Default)]
pub struct Building {
    pub progress: Option<String>,
    /// Where this bot's walks put blocks (pillars, bridges) while the build was under way.
    pub scaffold: Vec<BlockPos>,
}

/// Right-clicks `face` of `against` with hotbar slot `slot`, as a player looking at that face does: the server
/// places the block on that side. Sent as the packet itself, so the face is the one meant even when the crosshair
/// (which azalea would fall back on) shows another. Until the server has been told `slot` is held (azalea sends that
/// later in the tick), nothing is clicked: the click would place whatever was held before (a build's slab), and the
/// move tries again next tick.
fn place_on_face(ctx: &mut ExecuteCtx, against: BlockPos, face: Direction, slot: u8) {
    let location = face_centre(against, face);
    ctx.commands.entity(ctx.entity).queue(move |mut entity: EntityWorldMut<'_>| {
        if entity.get::<LastSentSelectedHotbarSlot>().is_none_or(|sent| sent.slot != slot) {
            return;
        }
        let Some(mut prediction) = entity.get_mut::<BlockStatePredictionHandler>() else { return };
        let seq = prediction.start_predicting();
        let id = entity.id();
        let block_hit = BlockHit { block_pos: against, direction: face, location, inside: false, world_border: false };
        let packet = ServerboundUseItemOn { hand: InteractionHand::MainHand, block_hit, seq };
        entity.world_scope(|world| world.trigger(SendGamePacketEvent::new(id, packet)));
        // A build takes its walks' blocks down again when it is over.
        if let Some(mut building) = entity.get_mut::<Building>()
            && building.progress.is_some()
        {
            building.scaffold.push(BlockPos::new(against.x + face.x(), against.y + face.y(), against.z + face.z()));
        }
    });
}

fn execute_pillar(mut ctx: ExecuteCtx) {
    let (start, target, position) = (ctx.start, ctx.target, ctx.position);
    if ctx.mine_while_at_start(target.up(1)) {
        return;
    }
    let centre = start.center();
    let on_ground = ctx.physics.on_ground();
    if on_ground && horizontal_distance(position, centre) > 0.2 {
        ctx.look_at(centre);
        ctx.walk(WalkDirection::Forward);
        return;
    }
    ctx.walk(WalkDirection::None);
    // Straight down, so the crosshair is on the top of the block the new one goes on.
    ctx.look_at_exact(Vec3::new(position.x, f64::from(start.y) - 0.5, position.z));
    if on_ground {
        ctx.jump();
        return;
    }
    let placed = !is_block_state_passable(ctx.get_block_state(start));
    if placed || position.y < f64::from(start.y) + 1.0 {
        return;
    }
    let Some(slot) = scaffold_in_hotbar(&ctx.menu.slots()) else {
        tracing::debug!("pillaring at {start:?}: no scaffold block in the hotbar");
        return;
    };
    ctx.commands.trigger(SetSelectedHotbarSlotEvent { entity: ctx.entity, slot });
    // The top face of the block below the gap: the new block fills the gap, under the bot's feet.
    place_on_face(&mut ctx, start.down(1), Direction::Up, slot);
}

fn pillar_is_reached(ctx: IsReachedCtx) -> bool {
    BlockPos::from(ctx.position) == ctx.target && ctx.physics.on_ground()
}

fn horizontal_distance(a: Vec3, b: Vec3) -> f64 {
    ((a.x - b.x).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

/// The hotbar slot (0..=8) holding a scaffold block, cheapest kind first.
pub fn scaffold_in_hotbar(slots: &[ItemStack]) -> Option<u8> {
    SCAFFOLD.iter().find_map(|kind| {
        (36..=44).find(|&i| slots.get(i).is_some_and(|s| s.kind() == *kind && s.count() > 0)).map(|i| (i - 36) as u8)
    })
}

/// How many scaffold blocks `slots` (the player menu) hold, crafting grid left out.
pub fn scaffold_count(slots: &[ItemStack]) -> u32 {
    slots.iter().skip(9).filter(|s| SCAFFOLD.contains(&s.kind())).map(|s| s.count().max(0) as u32).sum()
}

/// Whether a walk keeps out of caves (a script's `goTo` far down) or goes straight through them (every other walk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caves {
    Avoided,
    Walked,
}

/// Tells the planner how many scaffold blocks the bot carries and, for a way down, where caves lie around it, and puts
/// some in the hotbar if they are all in the main inventory (the placing move can only select hotbar slots).
pub fn prepare(client: &azalea::Client, caves: Caves) {
    let slots = client.component::<Inventory>().inventory_menu.slots();
    let blocks = scaffold_count(&slots);
    if blocks > 0 && scaffold_in_hotbar(&slots).is_none() {
        let main = SCAFFOLD.iter().find_map(|kind| (9..=35).find(|&i| slots.get(i).is_some_and(|s| s.kind() == *kind)));
        if let Some(source) = main {
            // The last hotbar slot: tools are picked into the selected one.
            let target = if client.selected_hotbar_slot() == 8 { 7 } else { 8 };
            client.get_inventory().click(azalea::inventory::operations::ClickOperation::Swap(
                azalea::inventory::operations::SwapClick { source_slot: source as u16, target_slot: target },
            ));
        }
    }
    let under = match caves {
        Caves::Avoided => {
            // Read from the ECS before the world's lock is taken: azalea's tick takes them the other way round.
            let opened = super::changes::opened(client);
            let feet = BlockPos::from(client.position());
            let world = client.world();
            let world = world.read();
            super::caves::Underground::around(&world, feet, opened)
        }
        Caves::Walked => super::caves::Underground::default(),
    };
    let mut ecs = client.ecs.write();
    let mut entity = ecs.entity_mut(client.entity);
    match entity.get::<CustomPathfinderState>().cloned() {
        Some(state) => {
            // The planner holds the read lock while it searches; a busy lock means these arrive next walk.
            if let Some(mut state) = state.0.try_write() {
                state.insert(Scaffold { blocks });
                state.insert(under);
            }
        }
        None => {
            let state = CustomPathfinderState::default();
            state.0.write().insert(Scaffold { blocks });
            state.0.write().insert(under);
            entity.insert(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots_with(items: &[(usize, ItemKind, i32)]) -> Vec<ItemStack> {
        let mut slots = vec![ItemStack::Empty; 46];
        for &(i, kind, count) in items {
            slots[i] = ItemStack::new(kind, count);
        }
        slots
    }

    #[test]
    fn scaffold_counts_every_cheap_block_outside_the_crafting_grid() {
        let slots = slots_with(&[
            (1, ItemKind::Dirt, 4),
            (10, ItemKind::Dirt, 20),
            (40, ItemKind::Cobblestone, 7),
            (41, ItemKind::OakLog, 9),
        ]);
        assert_eq!(scaffold_count(&slots), 27);
    }

    #[test]
    fn the_cheapest_scaffold_in_the_hotbar_is_chosen() {
        let slots = slots_with(&[(37, ItemKind::Cobblestone, 3), (43, ItemKind::Dirt, 1), (12, ItemKind::Dirt, 64)]);
        assert_eq!(scaffold_in_hotbar(&slots), Some(7));
        assert_eq!(scaffold_in_hotbar(&slots_with(&[(12, ItemKind::Dirt, 64)])), None);
    }
}
