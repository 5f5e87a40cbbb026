//! What the bot changed in the world, as the server tells it: every block update within the bot's reach (a block
//! placed, dug, or turned into another), the containers its primitives filled or emptied, and the items it handed to
//! other players. The agent takes a mark when an attempt starts and reads everything after it, so the critic, the
//! hard rules and the owner see what the world shows rather than what the code claims.
//!
//! A block's state before the change is read from the bot's view of the world just before azalea applies the
//! server's update. Digging is predicted by the client (the block turns to air before the server answers), so the
//! digging primitives note the block as it was before they start ([`BotHandle::note_block`]).

use std::collections::{BTreeMap, VecDeque};

use azalea::{
    BlockPos,
    app::{App, Plugin, Update},
    block::BlockState,
    block_update::{QueuedServerBlockUpdates, handle_block_update_event},
    ecs::prelude::*,
    entity::Position,
    local_player::WorldHolder,
    registry::builtin::BlockKind,
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

use super::BotHandle;

/// How far from the bot a block update counts as its own doing: a little more than a player's reach.
const REACH: f64 = 7.0;
/// Changes kept at most; older ones give way (an attempt reads its own long before).
const KEPT: usize = 8192;

/// One thing the bot changed, numbered in order.
#[derive(Clone, Debug, PartialEq)]
enum Entry {
    Block { pos: BlockPos, before: BlockState, after: BlockState },
    Container { pos: BlockPos, item: String, delta: i64 },
    Given { player: String, item: String, count: u32 },
}

/// The bot's change log.
#[derive(Component, Clone, Debug, Default)]
pub struct Changes {
    /// The number the next entry gets.
    next: u64,
    entries: VecDeque<(u64, Entry)>,
    /// Everything handed over since the bot started, by player then item (never trimmed).
    given: BTreeMap<String, BTreeMap<String, u32>>,
}

impl Changes {
    fn push(&mut self, entry: Entry) {
        if let Entry::Given { player, item, count } = &entry {
            *self.given.entry(player.clone()).or_default().entry(item.clone()).or_default() += count;
        }
        self.entries.push_back((self.next, entry));
        self.next += 1;
        if self.entries.len() > KEPT {
            self.entries.pop_front();
        }
    }
}

/// What changed after a mark, folded: each block once, from its first known state to its last.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changed {
    /// Position, block before, block after (only where they differ).
    pub blocks: Vec<([i32; 3], String, String)>,
    /// Container position, item, count put in (negative: taken out).
    pub containers: Vec<([i32; 3], String, i64)>,
    /// Player, item, count handed over.
    pub given: Vec<(String, String, u32)>,
    /// Blocks that stood for a while where there was air and were gone again by the end: position, block. The
    /// net change hides them; the model is told (its code placed the dirt on the gold block, then dug it out to stand
    /// on the gold, and read "nothing placed" as nothing done).
    pub undone: Vec<([i32; 3], String)>,
}

pub struct ChangesPlugin;

impl Plugin for ChangesPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, record_block_updates.before(handle_block_update_event));
    }
}

/// Notes the server's block updates near each bot with the state they replace, before azalea applies them.
fn record_block_updates(
    mut bots: Query<(Entity, &QueuedServerBlockUpdates, &WorldHolder, &Position, Option<&mut Changes>)>,
    mut commands: Commands,
) {
    for (entity, queued, world, position, changes) in &mut bots {
        if queued.list.is_empty() {
            continue;
        }
        let eyes = **position + azalea::Vec3::new(0.0, 1.62, 0.0);
        let world = world.shared.read();
        let near: Vec<Entry> = queued
            .list
            .iter()
            .filter(|(pos, _)| pos.center().distance_to(eyes) <= REACH)
            .map(|(pos, after)| Entry::Block {
                pos: *pos,
                before: world.get_block_state(*pos).unwrap_or_default(),
                after: *after,
            })
            .collect();
        if near.is_empty() {
            continue;
        }
        match changes {
            Some(mut changes) => near.into_iter().for_each(|e| changes.push(e)),
            None => {
                let mut changes = Changes::default();
                near.into_iter().for_each(|e| changes.push(e));
                commands.entity(entity).insert(changes);
            }
        }
    }
}

/// Cells the server opened near the bot (a block turned into air or another block one can walk through): its own
/// digging, mostly.
pub(super) fn opened(client: &azalea::Client) -> std::collections::HashSet<BlockPos> {
    let Some(log) = client.get_component::<Changes>() else { return std::collections::HashSet::new() };
    log.entries
        .iter()
        .filter_map(|(_, entry)| match entry {
            Entry::Block { pos, after, .. } if azalea::pathfinder::world::is_block_state_passable(*after) => Some(*pos),
            _ => None,
        })
        .collect()
}

fn name(state: BlockState) -> String {
    let name = BlockKind::from(state).to_string();
    name.strip_prefix("minecraft:").unwrap_or(&name).to_owned()
}

impl BotHandle {
    /// A mark to read changes after ([`BotHandle::changes_since`]).
    pub fn changes_mark(&self) -> u64 {
        self.client().get_component::<Changes>().map_or(0, |c| c.next)
    }

    /// Notes the block at `pos` as it is now, before the bot changes it (digging is predicted by the client, so
    /// the server's update finds the block already gone).
    pub fn note_block(&self, pos: BlockPos) {
        if let Some(state) = self.client().world().read().get_block_state(pos) {
            self.update::<Changes>(|c| c.push(Entry::Block { pos, before: state, after: state }));
        }
    }

    /// Notes that the bot put `delta` of `item` into the container at `pos` (negative: took them out).
    pub fn note_container(&self, pos: BlockPos, item: &str, delta: i64) {
        if delta != 0 {
            self.update::<Changes>(|c| c.push(Entry::Container { pos, item: item.to_owned(), delta }));
        }
    }

    /// Notes that `player` picked up `count` of `item` the bot handed them.
    pub fn note_given(&self, player: &str, item: &str, count: u32) {
        self.update::<Changes>(|c| c.push(Entry::Given { player: player.to_owned(), item: item.to_owned(), count }));
    }

    /// Everything handed over since the bot started, by player then item.
    pub fn given_totals(&self) -> BTreeMap<String, BTreeMap<String, u32>> {
        self.client().get_component::<Changes>().map(|c| c.given.clone()).unwrap_or_default()
    }

    /// What changed after `mark`, folded.
    pub fn changes_since(&self, mark: u64) -> Changed {
        let Some(log) = self.client().get_component::<Changes>() else { return Changed::default() };
        let mut blocks: Vec<(BlockPos, BlockState, BlockState)> = Vec::new();
        let mut seen_at: std::collections::HashMap<BlockPos, usize> = std::collections::HashMap::new();
        // The first block that stood in between, where there was air.
        let mut between: std::collections::HashMap<BlockPos, BlockState> = std::collections::HashMap::new();
        let mut containers: Vec<([i32; 3], String, i64)> = Vec::new();
        let mut given: Vec<(String, String, u32)> = Vec::new();
        for (_, entry) in log.entries.iter().filter(|(n, _)| *n >= mark) {
            match entry {
                Entry::Block { pos, before, after } => {
                    match seen_at.get(pos) {
                        Some(i) => blocks[*i].2 = *after,
                        None => {
                            seen_at.insert(*pos, blocks.len());
                            blocks.push((*pos, *before, *after));
                        }
                    }
                    if !after.is_air() && blocks[seen_at[pos]].1.is_air() {
                        between.entry(*pos).or_insert(*after);
                    }
                }
                Entry::Container { pos, item, delta } => {
                    let at = [pos.x, pos.y, pos.z];
                    match containers.iter_mut().find(|(p, i, _)| *p == at && i == item) {
                        Some(seen) => seen.2 += delta,
                        None => containers.push((at, item.clone(), *delta)),
                    }
                }
                Entry::Given { player, item, count } => {
                    match given.iter_mut().find(|(p, i, _)| p == player && i == item) {
                        Some(seen) => seen.2 += count,
                        None => given.push((player.clone(), item.clone(), *count)),
                    }
                }
            }
        }
        let undone = blocks
            .iter()
            .filter(|(_, before, after)| before.is_air() && after.is_air())
            .filter_map(|(p, ..)| Some(([p.x, p.y, p.z], name(*between.get(p)?))))
            .collect();
        Changed {
            undone,
            blocks: blocks
                .into_iter()
                .filter(|(_, before, after)| BlockKind::from(*before) != BlockKind::from(*after))
                .map(|(p, before, after)| ([p.x, p.y, p.z], name(before), name(after)))
                .collect(),
            containers: containers.into_iter().filter(|(_, _, d)| *d != 0).collect(),
            given,
        }
    }
}
