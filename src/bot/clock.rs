//! The time of day.
//!
//! Minecraft 26.1 sends the time as world clocks in `set_time` (total ticks, and the rate at which the client should
//! run the clock until the next update, about once a second). azalea 0.16 drops that packet, so this plugin reads it
//! and runs the clock between updates as the game's own client does: `rate` ticks of the day per game tick.

use azalea::{
    app::{App, Plugin, Update},
    core::tick::GameTick,
    ecs::prelude::*,
    packet::game::ReceiveGamePacketEvent,
    protocol::packets::game::ClientboundGamePacket,
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

/// Ticks in a Minecraft day.
pub const DAY_TICKS: u64 = 24_000;

/// The bot's view of its world's clock.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct DayClock {
    /// Ticks since the world's first sunrise, as the server last said plus what the clock ran since.
    pub total_ticks: u64,
    partial: f32,
    /// Day ticks per game tick: 1 normally, 0 when the server stopped the daylight cycle.
    pub rate: f32,
}

impl DayClock {
    /// Ticks into the current day: 0 sunrise, 6000 noon, 13000 nightfall, 18000 midnight.
    pub fn time_of_day(&self) -> u32 {
        (self.total_ticks % DAY_TICKS) as u32
    }

    /// Whether it is night: from 13000 to 23000, when monsters spawn on the surface and beds can be used.
    pub fn is_night(&self) -> bool {
        (13_000..23_000).contains(&self.time_of_day())
    }

    /// How long until nightfall (tick 13000 of the day) at the clock's rate; zero at night, `None` when the daylight
    /// cycle is stopped (night never comes).
    pub fn until_night(&self) -> Option<std::time::Duration> {
        if self.is_night() {
            return Some(std::time::Duration::ZERO);
        }
        if self.rate <= 0.0 {
            return None;
        }
        let ticks = (13_000 + DAY_TICKS as u32 - self.time_of_day()) % DAY_TICKS as u32;
        Some(std::time::Duration::from_secs_f64(f64::from(ticks) / (20.0 * f64::from(self.rate))))
    }

    /// How long until morning (tick 23000, when the night's monsters stop coming) at the clock's rate; zero by day,
    /// `None` when the daylight cycle is stopped.
    pub fn until_morning(&self) -> Option<std::time::Duration> {
        if !self.is_night() {
            return Some(std::time::Duration::ZERO);
        }
        if self.rate <= 0.0 {
            return None;
        }
        let ticks = 23_000 - self.time_of_day();
        Some(std::time::Duration::from_secs_f64(f64::from(ticks) / (20.0 * f64::from(self.rate))))
    }

    /// The day number, counting from 0.
    pub fn day(&self) -> u64 {
        self.total_ticks / DAY_TICKS
    }

    /// `day 2 21:30 night`: the day number, the game's clock time (tick 0 is 06:00) and whether it is night.
    pub fn describe(&self) -> String {
        let minutes = (u64::from(self.time_of_day()) * 60 / 1000 + 6 * 60) % (24 * 60);
        let night = if self.is_night() { " night" } else { "" };
        format!("day {} {:02}:{:02}{night}", self.day(), minutes / 60, minutes % 60)
    }

    fn advance(&mut self) {
        self.partial += self.rate;
        let whole = self.partial.floor();
        if whole >= 1.0 {
            self.total_ticks = self.total_ticks.saturating_add(whole as u64);
            self.partial -= whole;
        }
    }
}

/// Keeps a [`DayClock`] on every bot.
pub struct DayClockPlugin;

impl Plugin for DayClockPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, read_clock).add_systems(GameTick, run_clock);
    }
}

/// A `set_time` packet sets the clock. A server sends the clocks of the bot's world; the first is the one its days
/// follow (the overworld's, in the overworld).
fn read_clock(mut packets: MessageReader<ReceiveGamePacketEvent>, mut commands: Commands) {
    for event in packets.read() {
        let ClientboundGamePacket::SetTime(packet) = &*event.packet else { continue };
        let Some(state) = packet.clock_updates.values().next() else { continue };
        let clock = DayClock { total_ticks: state.total_ticks, partial: state.partial_tick, rate: state.rate };
        commands.entity(event.entity).insert(clock);
    }
}

fn run_clock(mut clocks: Query<&mut DayClock>) {
    for mut clock in &mut clocks {
        clock.advance();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(total_ticks: u64, rate: f32) -> DayClock {
        DayClock { total_ticks, partial: 0.0, rate }
    }

    #[test]
    fn nightfall_is_reckoned_at_the_clock_s_rate() {
        let secs = |c: DayClock| c.until_night().map(|d| d.as_secs());
        assert_eq!(secs(clock(12_600, 1.0)), Some(20), "400 ticks at 20 a second");
        assert_eq!(secs(clock(6_000, 1.0)), Some(350), "from noon");
        assert_eq!(secs(clock(23_500, 1.0)), Some(675), "after dawn, the next night");
        assert_eq!(secs(clock(12_600, 2.0)), Some(10));
        assert_eq!(secs(clock(18_000, 0.0)), Some(0), "night already");
        assert_eq!(secs(clock(6_000, 0.0)), None, "the daylight cycle stopped");
    }

    #[test]
    fn night_is_13000_to_23000() {
        assert!(!clock(1_000, 1.0).is_night());
        assert!(!clock(12_999, 1.0).is_night());
        assert!(clock(13_000, 1.0).is_night());
        assert!(clock(24_000 * 3 + 18_000, 1.0).is_night());
        assert!(!clock(23_000, 1.0).is_night());
        assert_eq!(clock(24_000 * 3 + 18_000, 1.0).day(), 3);
    }

    #[test]
    fn the_clock_runs_at_its_rate() {
        let mut c = clock(0, 0.5);
        for _ in 0..5 {
            c.advance();
        }
        assert_eq!(c.total_ticks, 2);
        let mut fast = clock(23_990, 20.0);
        fast.advance();
        assert_eq!((fast.time_of_day(), fast.day()), (10, 1));
        assert_eq!(clock(24_000 + 18_000, 1.0).describe(), "day 1 00:00 night");
        assert_eq!(clock(1_000, 1.0).describe(), "day 0 07:00");
        assert_eq!(clock(13_500, 1.0).describe(), "day 0 19:30 night");
        let mut stopped = clock(6_000, 0.0);
        stopped.advance();
        assert_eq!(stopped.total_ticks, 6_000);
    }
}
