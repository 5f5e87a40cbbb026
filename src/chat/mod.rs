//! Chat commands: the grammar (`!goto 1 64 2` → [`Command::Goto`]), who may give them, which language a line is
//! written in, how replies are said in an owner's language, and how they are cut to fit Minecraft's chat.
//!
//! This module is pure text: it never touches the network or the world, so every rule is unit-tested. Executing a
//! command is the app layer's job.

mod command;
mod lang;
mod owners;
mod phrases;
mod reply;

pub use command::{Command, ParseError, Target, TeamOrder, help_text, parse_line};
pub use lang::{Reading, head as language_head, is_english_word, read as read_language};
pub use owners::Owners;
pub use phrases::{help_in, label, say_in};
pub use reply::{MAX_CHAT_LEN, split_for_chat};
