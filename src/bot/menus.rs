//! Which menus' contents the server has sent. azalea's wait for a menu ends at the first contents packet of any
//! menu, the player's own inventory's too, so a chest can be "open" while its contents are still on their way; and
//! closing such a menu copies its (still empty) player slots over the bot's inventory, which then looks empty until
//! the server next sends it. `BotHandle::open_container` waits on this record for the opened menu's own contents.

use std::collections::HashMap;

use azalea::{
    app::{App, Plugin, Update},
    ecs::prelude::*,
    packet::game::ReceiveGamePacketEvent,
    protocol::packets::game::ClientboundGamePacket,
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

/// Contents packets received, counted: `serial` counts all of them, `latest` holds each menu id's last serial.
#[derive(Component, Clone, Debug, Default)]
pub struct MenuContents {
    pub serial: u64,
    latest: HashMap<i32, u64>,
}

impl MenuContents {
    /// Whether the contents of menu `id` arrived after the packet numbered `since`.
    pub fn arrived_after(&self, id: i32, since: u64) -> bool {
        self.latest.get(&id).is_some_and(|&n| n > since)
    }

    fn note(&mut self, id: i32) {
        self.serial += 1;
        self.latest.insert(id, self.serial);
    }
}

pub struct MenusPlugin;

impl Plugin for MenusPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, read_contents);
    }
}

fn read_contents(
    mut packets: MessageReader<ReceiveGamePacketEvent>,
    mut seen: Query<&mut MenuContents>,
    mut commands: Commands,
) {
    // A bot's first contents arrive before it has the component: gathered here and inserted once.
    let mut first: HashMap<Entity, MenuContents> = HashMap::new();
    for event in packets.read() {
        let ClientboundGamePacket::ContainerSetContent(packet) = &*event.packet else { continue };
        match seen.get_mut(event.entity) {
            Ok(contents) => contents.into_inner().note(packet.container_id),
            Err(_) => first.entry(event.entity).or_default().note(packet.container_id),
        }
    }
    for (entity, contents) in first {
        commands.entity(entity).insert(contents);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_menu_counts_as_filled_only_by_its_own_contents_after_the_mark() {
        let mut contents = MenuContents::default();
        contents.note(0);
        let mark = contents.serial;
        contents.note(0); // the player's inventory, resent: not the chest's
        assert!(!contents.arrived_after(1, mark));
        contents.note(1);
        assert!(contents.arrived_after(1, mark));
        assert!(!contents.arrived_after(1, contents.serial), "nothing came after the newest mark");
    }
}
