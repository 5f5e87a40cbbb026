//! Answering in chat: publicly or by `/msg`, as configured, cut to fit Minecraft's chat.

use crate::{
    bot::BotHandle,
    chat::{MAX_CHAT_LEN, say_in, split_for_chat},
    config::{Lang, ReplyMode},
};

/// The most chat messages one answer takes; the rest is cut (a server kicks a client that floods its chat).
pub const MAX_REPLY_LINES: usize = 8;

/// `lines`, at most [`MAX_REPLY_LINES`] of them, the last saying how many were cut.
fn capped(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > MAX_REPLY_LINES {
        let cut = lines.len() - (MAX_REPLY_LINES - 1);
        lines.truncate(MAX_REPLY_LINES - 1);
        lines.push(format!("(… {cut} more lines not shown)"));
    }
    lines
}

/// Answers one player (or everyone) through one bot, in the player's language.
#[derive(Clone)]
pub struct Replier {
    bot: BotHandle,
    to: String,
    mode: ReplyMode,
    lang: Lang,
    /// Where every answer also goes, in English, as it is said (an MCP caller following its command).
    tap: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

impl Replier {
    /// Answers `to` in English (a bot, or a player whose language is not known).
    pub fn new(bot: BotHandle, to: impl Into<String>, mode: ReplyMode) -> Self {
        Self { bot, to: to.into(), mode, lang: Lang::En, tap: None }
    }

    /// The same answers said in `lang` where the phrase book knows them.
    pub fn in_language(self, lang: Lang) -> Self {
        Self { lang, ..self }
    }

    /// The same answers, each also sent to `tap` (in English) as it is said.
    pub fn tapped(self, tap: tokio::sync::mpsc::UnboundedSender<String>) -> Self {
        Self { tap: Some(tap), ..self }
    }

    /// Where the answers also go, if anywhere (see [`Replier::tapped`]).
    pub fn tap(&self) -> Option<tokio::sync::mpsc::UnboundedSender<String>> {
        self.tap.clone()
    }

    /// The language the answers are said in.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Who is answered (empty: everyone).
    pub fn to(&self) -> &str {
        &self.to
    }

    /// Says `text` (written in English) in the player's language.
    pub fn say(&self, text: &str) {
        if let Some(tap) = &self.tap {
            // A caller that went away leaves the chat answer as it was.
            let _ = tap.send(text.to_owned());
        }
        let text = &say_in(text, self.lang);
        // Nobody to whisper to (learning with no owner configured): say it publicly rather than lose it.
        let mode = if self.to.is_empty() { ReplyMode::Public } else { self.mode };
        match mode {
            ReplyMode::Public => capped(split_for_chat(text, MAX_CHAT_LEN)).iter().for_each(|line| self.bot.chat(line)),
            ReplyMode::Whisper => {
                let head = format!("/msg {} ", self.to);
                let room = MAX_CHAT_LEN.saturating_sub(head.chars().count()).max(16);
                for line in capped(split_for_chat(text, room)) {
                    self.bot.chat(&format!("{head}{line}"));
                }
            }
        }
    }

    /// A callback for an activity's panic: says that `what` failed because of an internal error.
    pub fn internal_error(&self, what: impl Into<String>) -> impl FnOnce(String) + 'static {
        let (reply, what) = (self.clone(), what.into());
        move |message| reply.say(&format!("I failed task: {what} because of an internal error: {message}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_answer_is_cut_to_a_few_messages() {
        let lines = capped(split_for_chat(&"word ".repeat(100_000), MAX_CHAT_LEN));
        assert_eq!(lines.len(), MAX_REPLY_LINES);
        assert!(
            lines[MAX_REPLY_LINES - 1].starts_with("(… ")
                && lines[MAX_REPLY_LINES - 1].ends_with(" more lines not shown)")
        );
        assert_eq!(capped(vec!["one".into()]), ["one"]);
    }
}
