//! The languages the bots answer their owners in, and how an owner's language is set (`[languages]`,
//! `--owner-language PLAYER=LANG`).

use std::{collections::BTreeMap, fmt, str::FromStr};

use super::ConfigError;

/// A language the bots' replies, `!help` and hints are written in. Goals in any other language are still read (with
/// an LLM); replies to their writers stay English.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    #[default]
    En,
    Vi,
    Fr,
    Zh,
    De,
    Es,
}

impl Lang {
    pub const ALL: [Lang; 6] = [Lang::En, Lang::Vi, Lang::Fr, Lang::Zh, Lang::De, Lang::Es];

    /// The ISO 639-1 code: `en`, `vi`, `fr`, `zh`, `de`, `es`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
            Lang::Fr => "fr",
            Lang::Zh => "zh",
            Lang::De => "de",
            Lang::Es => "es",
        }
    }

    /// The language's English name, for prompts and logs.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Vietnamese",
            Lang::Fr => "French",
            Lang::Zh => "Chinese",
            Lang::De => "German",
            Lang::Es => "Spanish",
        }
    }

    /// The language's name in itself, as an owner would write it.
    fn native(self) -> &'static str {
        match self {
            Lang::En => "english",
            Lang::Vi => "tiếng việt",
            Lang::Fr => "français",
            Lang::Zh => "中文",
            Lang::De => "deutsch",
            Lang::Es => "español",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;

    /// A code (`fr`, `zh-CN`, `pt_BR` is refused), an English name (`French`) or the name in the language itself
    /// (`français`), in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_lowercase();
        let code = wanted.split(['-', '_']).next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code() == code || lang.name().eq_ignore_ascii_case(&wanted) || lang.native() == wanted)
            .ok_or_else(|| {
                let known: Vec<String> = Lang::ALL.iter().map(|l| format!("{} ({})", l.code(), l.name())).collect();
                format!("{text:?} is not a language the bots answer in; use one of {}", known.join(", "))
            })
    }
}

/// Each owner's configured language, by lower-case player name, from the file's `[languages]` table and the
/// `--owner-language PLAYER=LANG` flags (which win).
pub(super) fn resolve_languages(
    file: &BTreeMap<String, String>,
    flags: &[String],
) -> Result<BTreeMap<String, Lang>, ConfigError> {
    let mut languages = BTreeMap::new();
    let pairs = file.iter().map(|(player, lang)| (player.as_str(), lang.as_str(), "[languages]")).chain(
        flags.iter().filter(|f| !f.trim().is_empty()).map(|flag| match flag.split_once('=') {
            Some((player, lang)) => (player, lang, "--owner-language"),
            None => (flag.as_str(), "", "--owner-language"),
        }),
    );
    for (player, lang, source) in pairs {
        let player = player.trim();
        if !super::is_player_name(player, 1) {
            return Err(ConfigError::Language {
                origin: source.to_owned(),
                message: format!("{player:?} is not a player name (write PLAYER=LANG, e.g. Alice=fr)"),
            });
        }
        let lang: Lang =
            lang.parse().map_err(|message| ConfigError::Language { origin: source.to_owned(), message })?;
        languages.insert(player.to_ascii_lowercase(), lang);
    }
    Ok(languages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_read_by_code_and_by_name() {
        assert_eq!("fr".parse(), Ok(Lang::Fr));
        assert_eq!("zh-CN".parse(), Ok(Lang::Zh));
        assert_eq!("German".parse(), Ok(Lang::De));
        assert_eq!("Español".parse(), Ok(Lang::Es));
        assert_eq!("tiếng Việt".parse(), Ok(Lang::Vi));
        let refused = "pt".parse::<Lang>().unwrap_err();
        assert!(refused.contains("\"pt\" is not a language") && refused.contains("vi (Vietnamese)"), "{refused}");
    }

    #[test]
    fn flags_win_over_the_file_and_bad_pairs_are_named() {
        let file = BTreeMap::from([("Alice".to_owned(), "fr".to_owned()), ("Bao".to_owned(), "vi".to_owned())]);
        let got = resolve_languages(&file, &["alice=de".to_owned()]).unwrap();
        assert_eq!(got, BTreeMap::from([("alice".to_owned(), Lang::De), ("bao".to_owned(), Lang::Vi)]));
        let err = resolve_languages(&BTreeMap::new(), &["Alice".to_owned()]).unwrap_err().to_string();
        assert!(err.contains("--owner-language") && err.contains("is not a language"), "{err}");
        let err = resolve_languages(&BTreeMap::new(), &["no one=fr".to_owned()]).unwrap_err().to_string();
        assert!(err.contains("\"no one\" is not a player name"), "{err}");
    }
}
