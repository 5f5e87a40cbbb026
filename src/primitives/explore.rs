//! One leg of `exploreUntil`: keep walking toward a direction for a while, so the script can look around between
//! legs. The bot heads for a point 32 blocks ahead and is only re-aimed when the pathfinder is idle (arrived, or
//! gave up at an obstacle), so legs flow into each other without stopping.

use std::time::Duration;

use azalea::pathfinder::PathfinderClientExt;
use rhai::Dynamic;

use crate::{bot::BotHandle, script::{Answer, Vec3}};

/// How far ahead each aim point lies.
const AHEAD: f64 = 32.0;

pub async fn leg(bot: &BotHandle, direction: Vec3, leg: Duration) -> Answer {
    let client = bot.client();
    if !client.is_executing_path() && !client.is_calculating_path() {
        let length = (direction.x * direction.x + direction.z * direction.z).sqrt();
        let here = bot.position();
        let target = azalea::Vec3::new(
            here.x + direction.x / length * AHEAD,
            here.y,
            here.z + direction.z / length * AHEAD,
        );
        bot.start_toward_xz(target);
    }
    tokio::time::sleep(leg).await;
    Ok(Dynamic::UNIT)
}
