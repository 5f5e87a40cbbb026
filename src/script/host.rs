//! The boundary between a script thread and the bot: typed calls go out, values or error texts come back.
//!
//! A script thread never touches azalea. It sends a [`Call`] to the bot's async side and blocks until the answer
//! comes — or until its run is stopped, in which case the call in flight is cancelled too.

use std::{sync::mpsc, time::Duration};

use rhai::Dynamic;
use tokio_util::sync::CancellationToken;

use super::{RunBounds, vec3::Vec3};

/// Everything a script can ask of the bot.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Position,
    Inventory,
    InventoryCount {
        name: String,
    },
    Health,
    Food,
    Chat {
        text: String,
    },
    FindBlocks {
        name: String,
        max_distance: f64,
        count: usize,
    },
    NearestEntity {
        name: String,
        max_distance: f64,
    },
    /// A spot near the bot to put a block down (`findFreeSpot`).
    FreeSpot {
        max_distance: i32,
    },
    Goto {
        pos: Vec3,
        range: f64,
    },
    Equip {
        name: String,
        slot: String,
    },
    MineBlock {
        name: String,
        count: u32,
    },
    CraftItem {
        name: String,
        count: u32,
    },
    SmeltItem {
        item: String,
        fuel: String,
        count: u32,
    },
    PlaceItem {
        name: String,
        pos: Vec3,
    },
    /// Place a block item on a free spot near the bot, trying spot after spot (`placeItem(name)`).
    PlaceItemNear {
        name: String,
    },
    /// Build a pillar of a block under the bot, jump by jump (`pillarUp`).
    PillarUp {
        name: String,
        height: u32,
    },
    /// Build a blueprint (by name or file) with its north-west bottom corner at a position (`buildStructure`).
    BuildStructure {
        blueprint: String,
        pos: Vec3,
        facing: String,
        /// One team member's share (`2/3`), or the whole blueprint.
        share: Option<String>,
    },
    /// Dig the block at a position (`digBlock`).
    DigBlock {
        pos: Vec3,
    },
    /// Walk onto the block at a position (`standOn`).
    StandOn {
        pos: Vec3,
    },
    /// The name of the block at a position (`blockAt`).
    BlockAt {
        pos: Vec3,
    },
    /// The blocks around a spot as a layered listing (`blocksAround`).
    BlocksAround {
        pos: Vec3,
        radius: i32,
    },
    KillMob {
        name: String,
        timeout: Duration,
    },
    /// Shear the nearest sheep with wool.
    ShearSheep,
    /// Fill a carried bucket with milk from the nearest cow.
    MilkCow,
    /// Fill a carried bucket from the nearest source of `fluid` (`water` or `lava`).
    FillBucket {
        fluid: String,
    },
    /// One leg of `exploreUntil`: keep walking toward `direction` (the script thread polls its callback between legs).
    Explore {
        direction: Vec3,
        leg: Duration,
    },
    /// Stop walking (the end of `exploreUntil`).
    StopMoving,
    GetItemFromChest {
        pos: Vec3,
        items: Vec<(String, u32)>,
    },
    DepositItemIntoChest {
        pos: Vec3,
        items: Vec<(String, u32)>,
    },
    CheckItemInsideChest {
        pos: Vec3,
    },
    GiveItem {
        player: String,
        item: String,
        count: u32,
    },
}

/// The answer to a call: a script value, or a message telling the script (and an LLM reading it) what went wrong.
pub type Answer = Result<Dynamic, String>;

/// Carries out calls for scripts.
pub trait Host: Send + Sync {
    /// Performs `call`, blocking the calling (script) thread until it is answered or `bounds` says the run must end.
    fn call(&self, call: Call, bounds: &RunBounds) -> Answer;
}

/// One call in flight, as the async side receives it.
pub struct Job {
    pub call: Call,
    pub reply: mpsc::Sender<Answer>,
    /// Cancelled when the script's run is stopped while this call is in flight.
    pub cancel: CancellationToken,
    /// When the run's deadline falls: a call that may take long (exploring) gives up in time to say why.
    pub deadline: std::time::Instant,
}

/// A [`Host`] that forwards calls over a channel to an async executor (see `crate::primitives::Executor`).
#[derive(Clone)]
pub struct ChannelHost {
    jobs: tokio::sync::mpsc::UnboundedSender<Job>,
}

/// How often a waiting script thread checks whether its run was stopped.
const STOP_POLL: Duration = Duration::from_millis(50);

impl ChannelHost {
    pub fn new(jobs: tokio::sync::mpsc::UnboundedSender<Job>) -> Self {
        Self { jobs }
    }
}

impl Host for ChannelHost {
    fn call(&self, call: Call, bounds: &RunBounds) -> Answer {
        if let Some(reason) = bounds.reason_to_end() {
            return Err(reason.to_owned());
        }
        let (reply, answer) = mpsc::channel();
        let cancel = CancellationToken::new();
        self.jobs
            .send(Job { call, reply, cancel: cancel.clone(), deadline: bounds.deadline })
            .map_err(|_| "the bot is not connected".to_owned())?;
        loop {
            match answer.recv_timeout(STOP_POLL) {
                Ok(answer) => return answer,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err("the bot disconnected".to_owned()),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(reason) = bounds.reason_to_end() {
                        cancel.cancel();
                        return Err(reason.to_owned());
                    }
                }
            }
        }
    }
}
