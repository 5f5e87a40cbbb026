//! Chat commands: the grammar (`!goto 1 64 2` → [`Command::Goto`]), who may give them, and how replies are cut to
//! fit Minecraft's chat.
//!
//! This module is pure text: it never touches the network or the world, so every rule is unit-tested. Executing a
//! command is the app layer's job.

mod command;
mod owners;
mod reply;

pub use command::{Command, ParseError, Target, TeamOrder, help_text, parse_line};
pub use owners::Owners;
pub use reply::{MAX_CHAT_LEN, split_for_chat};
