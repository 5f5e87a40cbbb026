//! Which language each owner is answered in: configured, or learned from what they write.

use std::{collections::BTreeMap, path::PathBuf};

use parking_lot::Mutex;

use crate::{chat::read_language, config::Lang};

/// Each owner's language: the configured ones (`[languages]`), then what was learned from what they wrote (kept in
/// `owner-languages.json` in the checkpoint folder, so a restart remembers it).
#[derive(Debug)]
pub struct Languages {
    configured: BTreeMap<String, Lang>,
    learned: Mutex<BTreeMap<String, Lang>>,
    path: Option<PathBuf>,
}

impl Languages {
    pub fn new(configured: BTreeMap<String, Lang>, path: Option<PathBuf>) -> Self {
        let learned = path
            .as_ref()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|bytes| serde_json::from_slice::<BTreeMap<String, String>>(&bytes).ok())
            .map(|codes| codes.into_iter().filter_map(|(who, code)| Some((who, code.parse().ok()?))).collect())
            .unwrap_or_default();
        Self { configured, learned: Mutex::new(learned), path }
    }

    /// The language `player` is answered in: English unless configured or learned.
    pub fn of(&self, player: &str) -> Lang {
        let player = player.to_ascii_lowercase();
        self.configured.get(&player).or(self.learned.lock().get(&player)).copied().unwrap_or_default()
    }

    /// Learns `player`'s language from a command line they wrote (`!task baue eine Werkbank`): from the words after
    /// the command word.
    pub fn heard_command(&self, player: &str, line: &str, prefix: &str) -> Option<Lang> {
        let words = line.split_whitespace().skip_while(|w| !w.starts_with(prefix)).skip(1);
        self.heard(player, &words.collect::<Vec<_>>().join(" "))
    }

    /// Learns `player`'s language from `text` they wrote, unless it is configured or the text does not say (item ids,
    /// numbers, a language the bots do not answer in). Returns the language when it changed.
    pub fn heard(&self, player: &str, text: &str) -> Option<Lang> {
        let player = player.to_ascii_lowercase();
        if self.configured.contains_key(&player) {
            return None;
        }
        // Words the goal reader reads whole as English are English, whatever one word looks like (`yo toss bob 4
        // apples`).
        let lang =
            if crate::agent::act::reading_of(text).is_ok() { Lang::En } else { read_language(text).answer_in()? };
        let snapshot = {
            let mut learned = self.learned.lock();
            if learned.get(&player) == Some(&lang) || (lang == Lang::En && !learned.contains_key(&player)) {
                return None;
            }
            learned.insert(player.clone(), lang);
            learned.iter().map(|(who, l)| (who.clone(), l.code())).collect::<BTreeMap<_, _>>()
        };
        tracing::info!("{player} writes in {}: answering in it from now on", lang.name());
        if let Some(path) = &self.path {
            let bytes = serde_json::to_vec_pretty(&snapshot).expect("strings serialise");
            if let Err(err) = crate::files::write_atomically(path, &bytes) {
                tracing::warn!("cannot keep the owners' languages in {}: {err}", path.display());
            }
        }
        Some(lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owners_language_is_configured_or_learned_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("owner-languages.json");
        let configured = BTreeMap::from([("alice".to_owned(), Lang::De)]);
        let languages = Languages::new(configured.clone(), Some(path.clone()));
        assert_eq!(languages.of("Bao"), Lang::En);
        assert_eq!(languages.heard("Bao", "yo toss bob 4 apples"), None, "English the goal reader reads whole");
        assert_eq!(languages.of("Bao"), Lang::En);
        assert_eq!(languages.heard("Bao", "chế tạo một cái cuốc gỗ"), Some(Lang::Vi));
        assert_eq!(languages.of("BAO"), Lang::Vi);
        // Ids and numbers say nothing; English said later switches back.
        assert_eq!(languages.heard("Bao", "3 oak_log"), None);
        assert_eq!(languages.of("bao"), Lang::Vi);
        // The configured language is never overridden.
        assert_eq!(languages.heard("Alice", "fabrique une pioche en fer"), None);
        assert_eq!(languages.of("alice"), Lang::De);
        // An English owner stays English without a write.
        assert_eq!(languages.heard("Carol", "get 3 oak logs"), None);
        let again = Languages::new(configured, Some(path));
        assert_eq!(again.of("bao"), Lang::Vi);
        assert_eq!(again.heard("Bao", "craft a stone pickaxe"), Some(Lang::En));
        assert_eq!(again.heard_command("Bao", "Wayfarer: !task fabrique une pioche", "!"), Some(Lang::Fr));
        assert_eq!(again.heard_command("Bao", "!status", "!"), None);
    }
}
