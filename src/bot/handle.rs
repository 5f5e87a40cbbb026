//! `BotHandle`: the bot as the rest of Wayfarer sees it — observations and movements as plain values and async
//! calls, over azalea's `Client`.
//!
//! Every method copies what it needs out of the ECS and drops the guard before returning or awaiting; nothing here
//! holds a component guard across an `.await`.

use std::time::Duration;

use azalea::{
    BlockPos, Client, Vec3,
    container::ContainerHandle,
    ecs::query::{With, Without},
    entity::inventory::Inventory,
    entity::{
        EntityKindComponent, LocalEntity,
        metadata::{AbstractMonster, AirSupply},
    },
    inventory::ItemStack,
    mining::StopMiningBlockEvent,
    pathfinder::{
        PathfinderClientExt, PathfinderOpts,
        goals::{BlockPosGoal, Goal, RadiusGoal, ReachBlockPosGoal, XZGoal},
    },
};

use super::{
    clock::DayClock,
    moves::{self, Building},
    reflex,
};
// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;
use azalea::ecs::component::Component;

/// Why a walk ended short of its goal.
#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    #[error("I could not get there within {}s; I stopped at {}", .waited.as_secs(), fmt_pos(*.stopped_at))]
    Timeout { waited: Duration, stopped_at: Vec3 },
    #[error("I found no way there; I stopped at {}", fmt_pos(*.stopped_at))]
    Unreachable { stopped_at: Vec3 },
}

/// What `!status` reports, copied out of the world at one moment.
#[derive(Clone, Debug)]
pub struct Status {
    pub position: Vec3,
    pub health: f32,
    pub food: u32,
    /// Ticks of breath left, of [`MAX_AIR`].
    pub air: i32,
    pub dimension: String,
    /// The world's clock, once the server has sent it.
    pub clock: Option<DayClock>,
    /// Monsters within [`HOSTILE_RANGE`], nearest first: kind and distance.
    pub hostiles: Vec<(String, f64)>,
    /// What a reflex is doing with the body (`eating`), if one is.
    pub reflex: Option<String>,
    pub items: Vec<(String, i32)>,
}

/// Something the bot's primitives saw that is worth remembering, kept until the app takes it (its memory stream).
#[derive(Clone, Debug, PartialEq)]
pub enum Observation {
    /// A chest's contents when the bot last had it open: item and count.
    Chest { pos: BlockPos, items: Vec<(String, u32)> },
}

/// Observations not yet taken, oldest first (at most [`JOURNAL_LIMIT`]).
#[derive(Component, Clone, Debug, Default)]
pub struct Journal(pub Vec<Observation>);

/// Observations kept for the app at most; older ones give way.
const JOURNAL_LIMIT: usize = 256;

/// Crafting tables and furnaces the bot placed.
#[derive(Component, Clone, Debug, Default)]
pub struct Stations(pub Vec<BlockPos>);

/// The furnace the bot last loaded for a smelt that has not finished: a smelt cut short by a reflex finds its input
/// there when it starts again, and counts the output it already took.
#[derive(Component, Clone, Debug, Default)]
pub struct LoadedFurnace(pub Option<SmeltJob>);

/// A smelt under way: the furnace loaded for it, what it smelts, and how much of its output the bot carried when the
/// call started (`None` for a new call: output taken by an earlier one is not this call's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmeltJob {
    pub furnace: BlockPos,
    pub item: String,
    pub output_before: Option<i32>,
}

/// Monsters the reflexes killed, by kind (`zombie`): a `killMob` call a reflex cut short by killing its mob counts
/// that kill when it starts again, rather than looking for another.
#[derive(Component, Clone, Debug, Default)]
pub struct ReflexKills(pub std::collections::HashMap<String, u32>);

/// How many item moves in an open container are under way: a call stopped meanwhile lets them finish first.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Transactions(pub u32);

/// Held while the bot moves items in an open container; see [`BotHandle::transaction`].
#[must_use = "the transaction ends when the guard drops"]
pub struct Transaction(BotHandle);

impl Drop for Transaction {
    fn drop(&mut self) {
        // Not `update`: a bot gone from the ECS (disconnected) must not panic here, where a panic may be unwinding.
        let mut ecs = self.0.client.ecs.write();
        if let Ok(mut entity) = ecs.get_entity_mut(self.0.client.entity)
            && let Some(mut moving) = entity.get_mut::<Transactions>()
        {
            moving.0 = moving.0.saturating_sub(1);
        }
    }
}

/// Where `buildStructure` finds blueprints by name (the process's `--blueprints` folder).
#[derive(Component, Clone, Debug)]
pub struct Blueprints(pub crate::blueprint::Folder);

/// Things noted with when they were noted; each counts for a while, then is forgotten.
#[derive(Clone, Debug)]
pub struct TimedMarks<T>(Vec<(T, std::time::Instant)>);

impl<T> Default for TimedMarks<T> {
    fn default() -> Self {
        TimedMarks(Vec::new())
    }
}

impl<T: Copy> TimedMarks<T> {
    /// Notes `item` now, forgetting marks older than `lasts` and those `replaced` says the new one stands for.
    fn note(&mut self, item: T, lasts: Duration, replaced: impl Fn(&T) -> bool) {
        let now = std::time::Instant::now();
        self.0.retain(|(old, at)| !replaced(old) && now.duration_since(*at) < lasts);
        self.0.push((item, now));
    }

    /// The things noted within the last `lasts`.
    fn current(&self, lasts: Duration) -> impl Iterator<Item = T> + '_ {
        let now = std::time::Instant::now();
        self.0.iter().filter(move |(_, at)| now.duration_since(*at) < lasts).map(|(item, _)| *item)
    }
}

/// Blocks this bot failed to walk to, and when: searches pass over them for [`UNREACHABLE_FOR`].
#[derive(Component, Clone, Debug, Default)]
pub struct Unreachable(pub TimedMarks<BlockPos>);

/// How long a block the bot could not reach is left out of its searches (the way may open as it moves on).
pub const UNREACHABLE_FOR: Duration = Duration::from_secs(300);

/// Places where monsters drove the bot off or killed it, and when: searches for blocks to mine pass over blocks
/// within [`DANGER_RADIUS`] of them for [`DANGER_FOR`] (the monsters are still there: a cave full of zombies).
#[derive(Component, Clone, Debug, Default)]
pub struct Dangerous(pub TimedMarks<Vec3>);

/// How long a dangerous place is kept away from.
pub const DANGER_FOR: Duration = Duration::from_secs(180);
/// How far around a dangerous place the bot keeps away from.
pub const DANGER_RADIUS: f64 = 12.0;

/// A player's breath, in ticks (15 s).
pub const MAX_AIR: i32 = 300;
/// How far `!status` and the agents look for monsters: vanilla's zombie follow range is 35, most others 16.
pub const HOSTILE_RANGE: f64 = 24.0;

/// A connected bot.
#[derive(Clone)]
pub struct BotHandle {
    client: Client,
}

impl BotHandle {
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn name(&self) -> String {
        self.client.username()
    }

    /// Opens the container block at `pos` (a chest, a furnace, a crafting table) by clicking it.
    ///
    /// azalea's wait for the menu ends at the first window contents the server sends, the player's own inventory's
    /// too (a server resends it after a click on a stale state): the wait then ends at once with no menu, while the
    /// real one is still on its way. Such an early end waits on for that menu, and clicks again if none came. A menu
    /// that opened is handed out once its own contents have come (see [`super::menus`]).
    pub async fn open_container(&self, pos: BlockPos) -> Option<ContainerHandle> {
        const TRIES: usize = 3;
        const MENU_WAIT_TICKS: usize = 20;
        const EARLY: Duration = Duration::from_secs(2);
        for _ in 0..TRIES {
            let clicked = std::time::Instant::now();
            let mark = self.contents_serial();
            if let Some(handle) = self.client.open_container_at(pos).await {
                return self.filled(handle, mark).await;
            }
            if clicked.elapsed() >= EARLY {
                return None; // a real timeout: the block did not open
            }
            tracing::debug!("{}: the wait for the menu at {pos} ended early; waiting on", self.name());
            if let Some(handle) = self.menu_opened(MENU_WAIT_TICKS).await {
                return self.filled(handle, mark).await;
            }
            let open = self.client.get_inventory();
            if open.id() != 0 {
                // A menu that opened too late to wait for: open it afresh.
                self.keep_inventory_through_close(open.id(), mark);
                open.close();
            }
        }
        None
    }

    /// The menu that opens within `ticks` ticks, handed out as soon as it opens: its contents may still be on their
    /// way, and [`Self::filled`] waits for those. (azalea's own wait ends only at a contents packet, so a menu whose
    /// contents lag would be waited for there, against the shorter budget, and clicked again when they lag longer.)
    async fn menu_opened(&self, ticks: usize) -> Option<ContainerHandle> {
        for _ in 0..ticks {
            if self.client.get_inventory().id() != 0 {
                // No wait is pending (the early end removed it): azalea hands out the open menu at the next tick.
                return self.client.wait_for_container_open(Some(1)).await;
            }
            self.client.wait_ticks(1).await;
        }
        None
    }

    /// How many menu contents the server has sent this bot so far.
    fn contents_serial(&self) -> u64 {
        self.client.get_component::<super::menus::MenuContents>().map_or(0, |c| c.serial)
    }

    /// `handle` once the contents of its menu came after packet `mark`; `None` (the menu closed without touching the
    /// inventory) if they did not come in a few seconds. Dropped while it waits (a reflex takes the body, the call is
    /// stopped), the menu closes without touching the inventory too.
    async fn filled(&self, handle: ContainerHandle, mark: u64) -> Option<ContainerHandle> {
        const CONTENTS_WAIT_TICKS: usize = 60;
        let id = handle.id();
        let mut waiting = Unfilled { bot: self, handle: Some(handle), mark };
        for waited in 0..=CONTENTS_WAIT_TICKS {
            let arrived =
                self.client.get_component::<super::menus::MenuContents>().is_some_and(|c| c.arrived_after(id, mark));
            if arrived {
                if waited > 0 {
                    tracing::debug!("{}: menu {id}'s contents came {waited} tick(s) after it opened", self.name());
                }
                return waiting.handle.take();
            }
            self.client.wait_ticks(1).await;
        }
        tracing::warn!("{}: menu {id} opened but its contents never came; closing it", self.name());
        None
    }

    /// Closing a menu copies its player slots over the inventory the bot knows; before its contents come those slots
    /// are empty. This fills them with the inventory as it is (one lock: no contents can land in between), so that a
    /// menu of `id` whose contents did not come after packet `mark` closes leaving the inventory as it was.
    fn keep_inventory_through_close(&self, id: i32, mark: u64) {
        let mut ecs = self.client.ecs.write();
        let entity = self.client.entity;
        if ecs.get::<super::menus::MenuContents>(entity).is_some_and(|c| c.arrived_after(id, mark)) {
            return; // its player slots are the server's word
        }
        let Some(mut inventory) = ecs.get_mut::<Inventory>(entity) else { return };
        if inventory.id != id {
            return;
        }
        let carried = inventory.inventory_menu.as_player().inventory.to_vec();
        if let Some(menu) = inventory.container_menu.as_mut() {
            for (i, stack) in menu.player_slots_range().zip(carried) {
                if let Some(slot) = menu.slot_mut(i) {
                    *slot = stack;
                }
            }
        }
    }

    /// Feet position.
    pub fn position(&self) -> Vec3 {
        self.client.position()
    }

    pub fn status(&self) -> Status {
        let dimension = self.client.world_name().to_string();
        Status {
            position: self.position(),
            health: self.client.health(),
            food: self.client.hunger().food,
            air: self.air(),
            dimension: dimension.strip_prefix("minecraft:").unwrap_or(&dimension).to_owned(),
            clock: self.clock(),
            hostiles: self.hostiles_near(HOSTILE_RANGE),
            reflex: self.reflex(),
            items: self.items(),
        }
    }

    /// What a reflex is doing with the body right now (`eating`), if one is.
    pub fn reflex(&self) -> Option<String> {
        self.client.get_component::<reflex::Body>().and_then(|body| body.0.borrow().clone())
    }

    /// Watches who has the body (see [`reflex::Body`]); `None` until the reflexes started for this bot.
    pub fn body(&self) -> Option<tokio::sync::watch::Receiver<Option<String>>> {
        self.client.get_component::<reflex::Body>().map(|body| body.0.subscribe())
    }

    /// Runs `action` once no reflex has the body, and again from the start each time a reflex takes the body while
    /// it runs (the unfinished try is dropped; the reflex stops the bot). `what` names the action in the log.
    pub async fn between_reflexes<T, F: Future<Output = T>>(&self, what: &str, mut action: impl FnMut() -> F) -> T {
        let mut body = self.body();
        loop {
            if let Some(body) = body.as_mut() {
                let _ = body.wait_for(Option::is_none).await;
            }
            let taken = async {
                match body.as_mut() {
                    Some(body) => {
                        let _ = body.wait_for(Option::is_some).await;
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                done = action() => return done,
                () = taken => {
                    tracing::info!("{}: {what} waits for a reflex ({})", self.name(), self.reflex().unwrap_or_default());
                }
            }
        }
    }

    /// Hands the body to reflexes (once per connection): returns the sender to announce them with, or `None` if they
    /// already have it.
    pub fn claim_body(&self) -> Option<tokio::sync::watch::Sender<Option<String>>> {
        if self.client.get_component::<reflex::Body>().is_some() {
            return None;
        }
        let (sender, _) = tokio::sync::watch::channel(None);
        self.client.ecs.write().entity_mut(self.client.entity).insert(reflex::Body(sender.clone()));
        Some(sender)
    }

    /// Where the bot last died, if it has not been back for its things yet.
    pub fn last_death(&self) -> Option<reflex::LastDeath> {
        self.client.get_component::<reflex::LastDeath>().map(|d| *d)
    }

    /// How many times the bot has died since it joined, and where it last did.
    pub fn deaths(&self) -> reflex::Deaths {
        self.client.get_component::<reflex::Deaths>().map(|d| *d).unwrap_or_default()
    }

    /// Whether the bot died during the night that is still on (it digs in and leaves its things until morning).
    pub fn died_tonight(&self) -> bool {
        self.client.get_component::<reflex::DiedTonight>().is_some()
    }

    /// Forgets the last death (its things were fetched, or are gone).
    pub fn forget_death(&self) {
        self.client.ecs.write().entity_mut(self.client.entity).remove::<reflex::LastDeath>();
    }

    /// Whether the bot is alive (it has health and is not waiting to respawn).
    pub fn is_alive(&self) -> bool {
        self.client.get_component::<azalea::entity::Dead>().is_none() && self.client.health() > 0.0
    }

    /// Remembers a crafting table or furnace this bot placed, to reuse it and to take it along when leaving.
    pub fn remember_station(&self, pos: BlockPos) {
        self.update::<Stations>(|stations| {
            if !stations.0.contains(&pos) {
                stations.0.push(pos);
            }
        });
    }

    /// Notes what a primitive saw, for the app to take ([`BotHandle::take_observations`]).
    pub fn observe(&self, observation: Observation) {
        self.update::<Journal>(|journal| {
            if journal.0.len() >= JOURNAL_LIMIT {
                journal.0.remove(0);
            }
            journal.0.push(observation);
        });
    }

    /// What primitives saw since the last call, oldest first.
    pub fn take_observations(&self) -> Vec<Observation> {
        let mut ecs = self.client.ecs.write();
        ecs.entity_mut(self.client.entity)
            .get_mut::<Journal>()
            .map(|mut j| std::mem::take(&mut j.0))
            .unwrap_or_default()
    }

    /// Changes the bot's `C` component, starting from `C::default()` when it has none yet.
    pub(super) fn update<C: Component<Mutability = bevy_ecs::component::Mutable> + Default>(
        &self,
        change: impl FnOnce(&mut C),
    ) {
        let mut ecs = self.client.ecs.write();
        let mut entity = ecs.entity_mut(self.client.entity);
        match entity.get_mut::<C>() {
            Some(mut component) => change(&mut component),
            None => {
                let mut component = C::default();
                change(&mut component);
                entity.insert(component);
            }
        }
    }

    /// The crafting tables and furnaces this bot placed (and has not taken back), oldest first.
    pub fn stations(&self) -> Vec<BlockPos> {
        self.client.get_component::<Stations>().map(|s| s.0.clone()).unwrap_or_default()
    }

    pub fn forget_station(&self, pos: BlockPos) {
        if let Some(mut stations) = self.client.ecs.write().entity_mut(self.client.entity).get_mut::<Stations>() {
            stations.0.retain(|p| *p != pos);
        }
    }

    /// Marks a build as under way with `progress` (walks dig nothing meanwhile), or as over with `None`.
    pub fn set_building(&self, progress: Option<String>) {
        self.update::<Building>(|building| building.progress = progress);
    }

    /// Where this bot's walks put blocks (pillars, bridges) since the last call, while a build was under way.
    pub fn take_scaffold(&self) -> Vec<BlockPos> {
        let mut taken = Vec::new();
        self.update::<Building>(|building| taken = std::mem::take(&mut building.scaffold));
        taken
    }

    /// How far the build under way got (`hut: layer 2 of 4, 45%`), if one is.
    pub fn building(&self) -> Option<String> {
        self.client.get_component::<Building>().and_then(|b| b.progress.clone())
    }

    /// Sets the folder blueprints are found in by name.
    pub fn set_blueprints(&self, folder: crate::blueprint::Folder) {
        self.client.ecs.write().entity_mut(self.client.entity).insert(Blueprints(folder));
    }

    /// The folder blueprints are found in by name (`skills/blueprints` until the app sets one).
    pub fn blueprints(&self) -> crate::blueprint::Folder {
        self.client
            .get_component::<Blueprints>()
            .map_or_else(|| crate::blueprint::Folder::new("skills/blueprints"), |b| b.0.clone())
    }

    /// Notes that a reflex killed a mob of `kind` (`zombie`).
    pub fn note_reflex_kill(&self, kind: &str) {
        self.update::<ReflexKills>(|kills| *kills.0.entry(kind.to_owned()).or_default() += 1);
    }

    /// How many mobs of `kind` the reflexes have killed so far.
    pub fn reflex_kills(&self, kind: &str) -> u32 {
        self.client.get_component::<ReflexKills>().and_then(|k| k.0.get(kind).copied()).unwrap_or(0)
    }

    /// Notes the smelt a furnace is loaded for (`None` once it is done).
    pub fn set_smelt_job(&self, job: Option<SmeltJob>) {
        self.update::<LoadedFurnace>(|loaded| loaded.0 = job);
    }

    /// The smelt that left a furnace loaded and did not finish, if any.
    pub fn smelt_job(&self) -> Option<SmeltJob> {
        self.client.get_component::<LoadedFurnace>().and_then(|l| l.0.clone())
    }

    /// Marks the bot as moving items in an open container until the guard drops. A call stopped meanwhile (the
    /// owner's `!stop`, or a step the world shows done) finishes the moves first, so the bot notes what the container
    /// then holds and closes it, rather than leaving its memory of it stale.
    pub fn transaction(&self) -> Transaction {
        self.update::<Transactions>(|t| t.0 += 1);
        Transaction(self.clone())
    }

    /// Whether items are moving in an open container (see [`BotHandle::transaction`]).
    pub fn in_transaction(&self) -> bool {
        self.client.get_component::<Transactions>().is_some_and(|t| t.0 > 0)
    }

    /// Notes that the bot could not walk to `pos`.
    pub fn mark_unreachable(&self, pos: BlockPos) {
        self.update::<Unreachable>(|marked| marked.0.note(pos, UNREACHABLE_FOR, |p| *p == pos));
    }

    /// The blocks the bot failed to reach within the last [`UNREACHABLE_FOR`].
    pub fn unreachable(&self) -> Vec<BlockPos> {
        self.client.get_component::<Unreachable>().map(|u| u.0.current(UNREACHABLE_FOR).collect()).unwrap_or_default()
    }

    /// Marks a hunt for a mob (`killMob`) as under way for `how_long` more, for what the mob drops (`keeps`):
    /// meanwhile the bot does not dig in for the night, nor eat what the hunt is for.
    pub fn set_on_hunt(&self, how_long: Duration, keeps: std::sync::Arc<[String]>) {
        let until = std::time::Instant::now() + how_long;
        self.client.ecs.write().entity_mut(self.client.entity).insert(reflex::OnHunt { until, keeps });
    }

    /// The hunt for a mob (`killMob`) under way, if any.
    pub fn on_hunt(&self) -> Option<reflex::OnHunt> {
        self.client.get_component::<reflex::OnHunt>().filter(|h| h.is_on()).map(|h| (*h).clone())
    }

    /// Notes that running away got the bot nowhere: for `how_long` it fights rather than runs (a creeper aside).
    pub fn mark_cornered(&self, how_long: Duration) {
        let until = std::time::Instant::now() + how_long;
        self.client.ecs.write().entity_mut(self.client.entity).insert(reflex::Cornered(until));
    }

    /// Notes that the bot stands on the top of a pillar it built to fight from (at `top`), for at most `how_long`:
    /// meanwhile it neither runs (a creeper aside) nor digs in. A zero `how_long` ends it.
    pub fn mark_on_pillar(&self, top: Vec3, how_long: Duration) {
        let until = std::time::Instant::now() + how_long;
        self.client.ecs.write().entity_mut(self.client.entity).insert(reflex::OnPillar { top, until });
    }

    /// Whether the bot stands on the pillar it built to fight from.
    pub fn on_pillar(&self) -> bool {
        let pillar = self.client.get_component::<reflex::OnPillar>().map(|p| *p);
        reflex::OnPillar::holds(pillar.as_ref(), self.position())
    }

    /// Keeps the bot from hiding to heal for `how_long` (the ground here would not do, or hiding healed nothing).
    pub fn forbid_hiding(&self, how_long: Duration) {
        let until = std::time::Instant::now() + how_long;
        self.client.ecs.write().entity_mut(self.client.entity).insert(reflex::NoHiding(until));
    }

    /// Notes that monsters drove the bot off, or killed it, at `at`.
    pub fn mark_dangerous(&self, at: Vec3) {
        self.update::<Dangerous>(|marked| marked.0.note(at, DANGER_FOR, |p| p.distance_to(at) <= 2.0));
    }

    /// Where the bot should not go now, as (centre, radius): places monsters drove it off or killed it in the last
    /// [`DANGER_FOR`] ([`DANGER_RADIUS`] around them), and every monster it sees (8 blocks around it).
    pub fn danger_zones(&self) -> Vec<(Vec3, f64)> {
        let mut zones: Vec<(Vec3, f64)> = self
            .client
            .get_component::<Dangerous>()
            .map(|d| d.0.current(DANGER_FOR).map(|p| (p, DANGER_RADIUS)).collect())
            .unwrap_or_default();
        let monsters =
            self.client.nearest_entities_by::<&EntityKindComponent, (With<AbstractMonster>, Without<LocalEntity>)>(
                |_: &EntityKindComponent| true,
            );
        zones.extend(monsters.iter().map(|m| (m.position(), 8.0)));
        zones
    }

    /// The strongest urge the reflexes sensed on the last tick.
    pub fn urge(&self) -> Option<reflex::Urge> {
        self.client.get_component::<reflex::Urges>().and_then(|u| u.0.clone())
    }

    /// The world's clock as the server last set it and the bot ran it since; `None` before the first time update.
    pub fn clock(&self) -> Option<DayClock> {
        self.client.get_component::<DayClock>().map(|c| *c)
    }

    /// Ticks of breath left: [`MAX_AIR`] unless the bot's head is under water.
    pub fn air(&self) -> i32 {
        self.client.get_component::<AirSupply>().map_or(MAX_AIR, |a| a.0)
    }

    /// Monsters within `range` blocks, nearest first, as `(kind, distance)`.
    pub fn hostiles_near(&self, range: f64) -> Vec<(String, f64)> {
        self.hostiles_around(self.position(), range)
    }

    /// Monsters the bot can see within `range` of `origin`, nearest to the bot first: kind and distance from `origin`.
    pub fn hostiles_around(&self, origin: Vec3, range: f64) -> Vec<(String, f64)> {
        self.client
            .nearest_entities_by::<&EntityKindComponent, (With<AbstractMonster>, Without<LocalEntity>)>(
                |_: &EntityKindComponent| true,
            )
            .iter()
            .filter_map(|entity| {
                let distance = entity.position().distance_to(origin);
                let kind = entity.get_component::<EntityKindComponent>()?.0.to_string();
                (distance <= range).then(|| (kind.trim_start_matches("minecraft:").to_owned(), distance))
            })
            .collect()
    }

    /// Every item the bot carries (armour and off-hand included, crafting grid excluded), totalled by kind, most
    /// numerous first, then by name.
    pub fn items(&self) -> Vec<(String, i32)> {
        let slots = {
            let inventory = self.client.component::<Inventory>();
            inventory.inventory_menu.slots()
        };
        // Player menu slots 0..=4 are the crafting result and 2×2 grid.
        let mut totals: Vec<(String, i32)> = Vec::new();
        for stack in slots.iter().skip(5) {
            if let ItemStack::Present(data) = stack {
                let name = data.kind.to_string();
                let name = name.strip_prefix("minecraft:").unwrap_or(&name).to_owned();
                match totals.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += data.count,
                    None => totals.push((name, data.count)),
                }
            }
        }
        totals.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        totals
    }

    /// The latest pickups of item entities the bot saw (who took which), oldest first.
    pub fn pickups(&self) -> Vec<super::pickups::Pickup> {
        self.client
            .get_component::<super::pickups::Pickups>()
            .map(|p| p.0.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The player called `name` (any case), if the bot can see them.
    fn player_entity(&self, name: &str) -> Option<azalea::EntityRef> {
        let uuid = self
            .client
            .tab_list()
            .into_iter()
            .find(|(_, info)| info.profile.name.eq_ignore_ascii_case(name))
            .map(|(uuid, _)| uuid)?;
        self.client.entity_by_uuid(uuid)
    }

    /// The network entity id of the player called `name` (any case), if the bot can see them.
    pub fn player_entity_id(&self, name: &str) -> Option<i32> {
        Some(self.player_entity(name)?.minecraft_id().0)
    }

    /// The name of the player whose network entity id is `id`, if the bot can see them.
    pub fn player_name_by_entity_id(&self, id: i32) -> Option<String> {
        self.client.tab_list().into_iter().find_map(|(uuid, info)| {
            let entity = self.client.entity_by_uuid(uuid)?;
            (entity.minecraft_id().0 == id).then(|| info.profile.name.clone())
        })
    }

    /// Whether a player called `name` (any case) is in the server's player list.
    pub fn is_online(&self, name: &str) -> bool {
        self.client.tab_list().values().any(|info| info.profile.name.eq_ignore_ascii_case(name))
    }

    /// Other players the bot can see within `range`, by name, with their positions.
    pub fn players_near(&self, range: f64) -> Vec<(String, Vec3)> {
        let me = self.position();
        let own = self.client.uuid();
        self.client
            .tab_list()
            .into_iter()
            .filter(|(uuid, _)| *uuid != own)
            .filter_map(|(uuid, info)| {
                let position = self.client.entity_by_uuid(uuid)?.position();
                (position.distance_to(me) <= range).then(|| (info.profile.name.clone(), position))
            })
            .collect()
    }

    /// The feet position of the player called `name` (any case), if the bot can see them.
    pub fn player_position(&self, name: &str) -> Option<Vec3> {
        Some(self.player_entity(name)?.position())
    }

    /// Walks to stand on block position `target` (feet in that block). Succeeds if and only if the bot ends within
    /// 1 block of the target's centre.
    pub async fn goto_block(&self, target: BlockPos) -> Result<(), MoveError> {
        let centre = Vec3::new(target.x as f64 + 0.5, target.y as f64, target.z as f64 + 0.5);
        self.walk(BlockPosGoal(target), centre, 1.0).await
    }

    /// Walks until the block at `pos` is within reach (4.5 blocks from the eyes) and in sight.
    pub async fn goto_reach(&self, pos: BlockPos) -> Result<(), MoveError> {
        let chunks = self.client.world().read().chunks.clone();
        let eyes = self.client.eye_position();
        if eyes.distance_to(pos.center()) <= 4.0 {
            return Ok(());
        }
        self.walk(ReachBlockPosGoal::new(pos, chunks), pos.center(), 5.5).await
    }

    /// Walks (climbing, or pillaring on scaffold it carries, when it must get higher) to where the bot can click
    /// the face of `against` that touches `target`: the eyes on that face's open side, within reach, and the body
    /// out of `target`. Clicking the top of a block above the eyes lands on its side instead, so a block placed
    /// higher than the eyes needs the bot to stand higher.
    pub async fn goto_click(&self, target: BlockPos, against: BlockPos) -> Result<(), MoveError> {
        let goal = ClickGoal::new(target, against);
        if goal.success(BlockPos::from(self.position())) {
            return Ok(());
        }
        self.walk(goal.clone(), goal.face, CLICK_REACH + 1.0).await
    }

    /// Walks to where the face of `against` that touches `target` is within reach, from somewhere outside the box
    /// from `least` to `most` (a build's footprint, so the builder does not wall itself in; standing on top of it
    /// counts as outside). Unlike [`BotHandle::goto_click`], the eyes need not be on the face's open side: a builder
    /// that names the face in its click (as the game allows) reaches the top of a block above its eyes.
    pub async fn goto_click_outside(
        &self,
        target: BlockPos,
        against: BlockPos,
        least: BlockPos,
        most: BlockPos,
    ) -> Result<(), MoveError> {
        let goal = OutsideGoal { click: ClickGoal::new(target, against), least, most };
        if goal.success(BlockPos::from(self.position())) {
            return Ok(());
        }
        self.walk(goal.clone(), goal.click.face, CLICK_REACH + 2.0).await
    }

    /// Walks until within `radius` blocks of `position`.
    pub async fn goto_near(&self, position: Vec3, radius: f32) -> Result<(), MoveError> {
        self.walk(RadiusGoal::new(position, radius), position, radius as f64 + 0.5).await
    }

    /// Walks down until within `radius` blocks of `position`, digging its own stairs rather than walking caves (see
    /// `bot::caves`): caves are where monsters spawn in the dark on every side.
    pub async fn goto_down(&self, position: Vec3, radius: f32) -> Result<(), MoveError> {
        let goal = RadiusGoal::new(position, radius);
        self.walk_with(goal, position, radius as f64 + 0.5, moves::Caves::Avoided).await
    }

    /// Starts walking toward `position` without waiting (used to keep up with a moving player).
    pub fn start_toward(&self, position: Vec3, radius: f32) {
        moves::prepare(&self.client, moves::Caves::Walked);
        self.client.start_goto_with_opts(RadiusGoal::new(position, radius), path_opts());
    }

    /// Starts walking toward the column at `position`, at whatever height the ground there has.
    pub fn start_toward_xz(&self, position: Vec3) {
        moves::prepare(&self.client, moves::Caves::Walked);
        self.client
            .start_goto_with_opts(XZGoal { x: position.x.floor() as i32, z: position.z.floor() as i32 }, path_opts());
    }

    /// Stops walking at once.
    pub fn stop_moving(&self) {
        self.client.force_stop_pathfinding();
    }

    /// Stops walking and abandons a block being dug (telling the server, as a client letting go of the mouse does).
    pub fn stop_all(&self) {
        self.stop_moving();
        if self.client.is_mining() {
            self.client.ecs.write().write_message(StopMiningBlockEvent { entity: self.client.entity });
        }
    }

    /// Says `text` in public chat.
    pub fn chat(&self, text: &str) {
        self.client.chat(text);
    }

    async fn walk(&self, goal: impl Goal + Clone + 'static, target: Vec3, tolerance: f64) -> Result<(), MoveError> {
        self.walk_with(goal, target, tolerance, moves::Caves::Walked).await
    }

    async fn walk_with(
        &self,
        goal: impl Goal + Clone + 'static,
        target: Vec3,
        tolerance: f64,
        caves: moves::Caves,
    ) -> Result<(), MoveError> {
        let started = std::time::Instant::now();
        let walked = self.walk_once(goal.clone(), target, tolerance, caves).await;
        // A search that finds no way at once and leaves the bot where it was most often started from a passing state
        // (falling after a dig, a block change not seen yet): once more, a few ticks later.
        if let Err(MoveError::Unreachable { stopped_at }) = walked
            && started.elapsed() < Duration::from_secs(1)
        {
            tracing::debug!("{}: no way found from {} at once; searching again", self.name(), fmt_pos(stopped_at));
            self.client.wait_ticks(5).await;
            return self.walk_once(goal, target, tolerance, caves).await;
        }
        walked
    }

    async fn walk_once(
        &self,
        goal: impl Goal + 'static,
        target: Vec3,
        tolerance: f64,
        caves: moves::Caves,
    ) -> Result<(), MoveError> {
        let here = self.position();
        let waited = walk_timeout(here.distance_to(target), here.y - target.y);
        moves::prepare(&self.client, caves);
        // While building, a walk goes round what stands (the builder's own blocks among it) rather than through.
        let opts = path_opts().allow_mining(self.building().is_none());
        let finished = self.until_walked(self.client.goto_with_opts(goal, opts), waited).await;
        let stopped_at = self.position();
        if !finished {
            self.stop_moving();
            // A path search still running for this goal (one that cannot be reached searches to its time limit)
            // holds up the next walk's: let it end first.
            for _ in 0..120 {
                if !self.client.is_calculating_path() {
                    break;
                }
                self.client.wait_ticks(1).await;
            }
            return Err(MoveError::Timeout { waited, stopped_at });
        }
        if stopped_at.distance_to(target) <= tolerance { Ok(()) } else { Err(MoveError::Unreachable { stopped_at }) }
    }

    /// Drives `walk` until it ends (true) or `waited` has passed without it (false). Time spent digging a block on
    /// the way does not count, up to [`DIGGING_EXTRA`]: the walk's time is reckoned from its length, and a path
    /// through stone dug by hand (7.5 s a block) would run out of it half-way through a block and stop for good.
    async fn until_walked(&self, walk: impl std::future::Future<Output = ()>, waited: Duration) -> bool {
        const STEP: Duration = Duration::from_millis(250);
        let started = tokio::time::Instant::now();
        let mut deadline = started + waited;
        let latest = deadline + DIGGING_EXTRA;
        tokio::pin!(walk);
        loop {
            tokio::select! {
                () = &mut walk => return true,
                () = tokio::time::sleep(STEP) => {
                    if self.client.is_mining() {
                        deadline = (deadline + STEP).min(latest);
                    }
                    if tokio::time::Instant::now() >= deadline {
                        return false;
                    }
                }
            }
        }
    }
}

/// How much longer than its length allows a walk may take for the blocks it digs on the way.
const DIGGING_EXTRA: Duration = Duration::from_secs(60);

/// How far from the eyes a face is clicked: a little short of the game's 4.5, so a click from the edge of a block
/// still lands.
pub const CLICK_REACH: f64 = 4.2;

/// Where a face can be clicked from (see [`BotHandle::goto_click`]).
#[derive(Clone, Debug)]
pub struct ClickGoal {
    /// The middle of the face, and the way it faces (out of `against`, into `target`).
    pub face: Vec3,
    normal: Vec3,
    target: BlockPos,
}

impl ClickGoal {
    pub fn new(target: BlockPos, against: BlockPos) -> ClickGoal {
        let face = Vec3::new(
            (against.x + target.x) as f64 / 2.0 + 0.5,
            (against.y + target.y) as f64 / 2.0 + 0.5,
            (against.z + target.z) as f64 / 2.0 + 0.5,
        );
        let normal =
            Vec3::new((target.x - against.x) as f64, (target.y - against.y) as f64, (target.z - against.z) as f64);
        ClickGoal { face, normal, target }
    }

    /// Whether the bot's eyes, standing with its feet at `feet`, see the face and reach it.
    pub fn reaches(&self, eyes: Vec3) -> bool {
        let side = (eyes.x - self.face.x) * self.normal.x
            + (eyes.y - self.face.y) * self.normal.y
            + (eyes.z - self.face.z) * self.normal.z;
        side > 0.2 && eyes.distance_to(self.face) <= CLICK_REACH
    }
}

impl Goal for ClickGoal {
    fn heuristic(&self, n: BlockPos) -> f32 {
        let eyes = Vec3::new(n.x as f64 + 0.5, n.y as f64 + 1.62, n.z as f64 + 0.5);
        ((eyes.distance_to(self.face) - CLICK_REACH).max(0.0) * 4.6) as f32
    }

    fn success(&self, n: BlockPos) -> bool {
        let eyes = Vec3::new(n.x as f64 + 0.5, n.y as f64 + 1.62, n.z as f64 + 0.5);
        n != self.target && n.up(1) != self.target && self.reaches(eyes)
    }
}

/// A [`ClickGoal`] reached from outside a box.
#[derive(Clone, Debug)]
struct OutsideGoal {
    click: ClickGoal,
    least: BlockPos,
    most: BlockPos,
}

impl Goal for OutsideGoal {
    fn heuristic(&self, n: BlockPos) -> f32 {
        self.click.heuristic(n)
    }

    fn success(&self, n: BlockPos) -> bool {
        let inside = (self.least.x..=self.most.x).contains(&n.x)
            && (self.least.y..=self.most.y).contains(&n.y)
            && (self.least.z..=self.most.z).contains(&n.z);
        let eyes = Vec3::new(n.x as f64 + 0.5, n.y as f64 + 1.62, n.z as f64 + 0.5);
        let target = self.click.target;
        !inside && n != target && n.up(1) != target && eyes.distance_to(self.click.face) <= CLICK_REACH
    }
}

/// Every walk plans with Wayfarer's move set (stairs, not shafts; pillars where there is nothing to climb).
fn path_opts() -> PathfinderOpts {
    PathfinderOpts::new().successors_fn(moves::moves)
}

/// How long a walk of `distance` blocks may take: generous for detours (walking speed is ~4.3 blocks/s), for the
/// stairs dug on the way down when the goal lies `depth` blocks below (three blocks dug a step), and for climbing
/// (stairs walked up a jump at a time, or dug, or pillared) when it lies above.
fn walk_timeout(distance: f64, depth: f64) -> Duration {
    let vertical = if depth > 0.0 { depth * 4.0 } else { -depth * 2.0 };
    Duration::from_secs_f64((10.0 + distance * 0.75 + vertical).min(600.0))
}

/// `12.5 64 -3.5`: one decimal, as `!status` shows positions.
pub fn fmt_pos(p: Vec3) -> String {
    format!("{:.1} {:.1} {:.1}", p.x, p.y, p.z)
}

/// `12 64 -4`: a block's position, as commands take them.
pub fn fmt_block(p: BlockPos) -> String {
    format!("{} {} {}", p.x, p.y, p.z)
}

/// A menu [`BotHandle::open_container`] opened and waits on for its contents: dropped before they come, it closes
/// keeping the inventory the bot knows.
struct Unfilled<'a> {
    bot: &'a BotHandle,
    handle: Option<ContainerHandle>,
    mark: u64,
}

impl Drop for Unfilled<'_> {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            self.bot.keep_inventory_through_close(handle.id(), self.mark);
            handle.close();
        }
    }
}
