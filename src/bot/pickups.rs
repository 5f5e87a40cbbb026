//! Who picked up which item entity: the server says so (`take_item_entity`) for every pickup in sight, and azalea
//! 0.16 drops the packet. This plugin keeps the latest ones, so `giveItem` can tell whether the player it threw to
//! is the one who caught the items.

use std::collections::VecDeque;

use azalea::{
    app::{App, Plugin, Update},
    ecs::prelude::*,
    packet::game::ReceiveGamePacketEvent,
    protocol::packets::game::ClientboundGamePacket,
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

/// How many pickups are remembered.
const KEPT: usize = 256;

/// One pickup: item entity `item` (its network id), taken by entity `by`, `amount` of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pickup {
    pub item: u32,
    pub by: i32,
    pub amount: u32,
}

/// The latest pickups this bot saw, oldest first.
#[derive(Component, Clone, Debug, Default)]
pub struct Pickups(pub VecDeque<Pickup>);

pub struct PickupsPlugin;

impl Plugin for PickupsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, read_pickups);
    }
}

fn read_pickups(
    mut packets: MessageReader<ReceiveGamePacketEvent>,
    mut seen: Query<&mut Pickups>,
    mut commands: Commands,
) {
    // The first pickups a bot sees arrive before it has the component, often several in one frame (three items
    // thrown together are taken together): they are gathered here and the component inserted once, with all.
    let mut first: std::collections::HashMap<Entity, VecDeque<Pickup>> = std::collections::HashMap::new();
    for event in packets.read() {
        let ClientboundGamePacket::TakeItemEntity(packet) = &*event.packet else { continue };
        let pickup = Pickup { item: packet.item_id, by: packet.player_id.0, amount: packet.amount };
        let kept = match seen.get_mut(event.entity) {
            Ok(pickups) => &mut pickups.into_inner().0,
            Err(_) => first.entry(event.entity).or_default(),
        };
        kept.push_back(pickup);
        if kept.len() > KEPT {
            kept.pop_front();
        }
    }
    for (entity, pickups) in first {
        commands.entity(entity).insert(Pickups(pickups));
    }
}
