//! One leg of `exploreUntil`: walk toward a direction for a while, then stop so the script can look around.

use std::time::Duration;

use rhai::Dynamic;

use crate::{bot::BotHandle, script::{Answer, Vec3}};

/// Walking speed is about 4.3 blocks/s; aim a little past what one leg can cover so the bot never idles.
const BLOCKS_PER_SECOND: f64 = 5.0;

pub async fn leg(bot: &BotHandle, direction: Vec3, leg: Duration) -> Answer {
    let length = (direction.x * direction.x + direction.z * direction.z).sqrt();
    let here = bot.position();
    let reach = leg.as_secs_f64() * BLOCKS_PER_SECOND + 2.0;
    let target = azalea::Vec3::new(
        here.x + direction.x / length * reach,
        here.y,
        here.z + direction.z / length * reach,
    );
    bot.start_toward_xz(target);
    tokio::time::sleep(leg).await;
    bot.stop_moving();
    Ok(Dynamic::UNIT)
}
