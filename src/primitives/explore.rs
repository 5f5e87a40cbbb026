//! Exploring: one leg of `exploreUntil` (keep walking toward a direction for a while, so the script can look around
//! between legs), and the search primitives fall back on when nothing they need is in range ([`search`]).
//!
//! The bot heads for a point 32 blocks ahead and is only re-aimed when the pathfinder is idle (arrived, or gave up
//! at an obstacle), so legs flow into each other without stopping.

use std::{future::Future, time::Duration};

use azalea::pathfinder::PathfinderClientExt;
use rhai::Dynamic;

use crate::{
    bot::BotHandle,
    script::{Answer, Vec3},
};

/// How far ahead each aim point lies.
const AHEAD: f64 = 32.0;

pub async fn leg(bot: &BotHandle, direction: Vec3, leg: Duration) -> Answer {
    let client = bot.client();
    if !client.is_executing_path() && !client.is_calculating_path() {
        let length = (direction.x * direction.x + direction.z * direction.z).sqrt();
        let here = bot.position();
        let target =
            azalea::Vec3::new(here.x + direction.x / length * AHEAD, here.y, here.z + direction.z / length * AHEAD);
        bot.start_toward_xz(target);
    }
    tokio::time::sleep(leg).await;
    Ok(Dynamic::UNIT)
}

/// How long a primitive explores for what it needs before it gives up.
pub const SEARCH_BUDGET: Duration = Duration::from_secs(90);
/// How often the search looks around while walking.
const LOOK_EVERY: Duration = Duration::from_millis(750);

/// What an exploring search covered, for the error when it found nothing.
pub struct Searched {
    pub walked: f64,
    pub from: azalea::Vec3,
    pub to: azalea::Vec3,
    pub took: Duration,
}

impl Searched {
    /// `I walked 180 blocks in 90 s (from 3 70 -2 to 120 64 40) looking`.
    pub fn describe(&self) -> String {
        format!(
            "I walked {:.0} blocks in {:.0} s (from {} to {}) looking",
            self.walked,
            self.took.as_secs_f64(),
            fmt_xyz(self.from),
            fmt_xyz(self.to)
        )
    }
}

fn fmt_xyz(p: azalea::Vec3) -> String {
    format!("{:.0} {:.0} {:.0}", p.x, p.y, p.z)
}

/// Walks a widening square spiral around where the bot stands (legs of 32, 32, 64, 64, 96… blocks, turning right),
/// asking `look` every 0.75 s, until it answers `Some` or `budget` runs out. The bot stops walking either way.
pub async fn search<T, F: Future<Output = Option<T>>>(
    bot: &BotHandle,
    budget: Duration,
    mut look: impl FnMut() -> F,
) -> Result<T, Searched> {
    // Leaving for good: the tables and furnaces placed here come along.
    super::dig::take_stations_along(bot).await;
    let started = tokio::time::Instant::now();
    let from = bot.position();
    let mut last = from;
    let mut walked = 0.0;
    let headings = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let mut leg = 0usize;
    let mut aim = from;
    while started.elapsed() < budget {
        let client = bot.client();
        let arrived = azalea::Vec3::new(aim.x, 0.0, aim.z).distance_to(azalea::Vec3::new(last.x, 0.0, last.z)) < 3.0;
        if leg == 0 || arrived || (!client.is_executing_path() && !client.is_calculating_path()) {
            // Square spiral: each length twice, then longer.
            let length = AHEAD * (1 + leg / 2) as f64;
            let (dx, dz) = headings[leg % 4];
            aim = azalea::Vec3::new(aim.x + dx * length, aim.y, aim.z + dz * length);
            bot.start_toward_xz(aim);
            leg += 1;
        }
        tokio::time::sleep(LOOK_EVERY).await;
        let here = bot.position();
        walked += here.distance_to(last);
        last = here;
        if let Some(found) = look().await {
            bot.stop_moving();
            return Ok(found);
        }
    }
    bot.stop_moving();
    Err(Searched { walked, from, to: bot.position(), took: started.elapsed() })
}
