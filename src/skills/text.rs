//! The text of skills: descriptions (and how much of one the index embeds), names, metadata files, and the words an
//! owner types after `!run SKILL`. Pure functions over outside text — skill files may come from anywhere — so none of
//! them can panic on any input (they are property-tested and fuzzed).

use serde::{Deserialize, Serialize};

/// Descriptions are one line; the index embeds at most this many characters of one.
pub const MAX_DESCRIPTION: usize = 600;
/// Voyager's rule for skill descriptions: the index embeds at most this many sentences of one.
pub const MAX_SENTENCES: usize = 6;

/// What `<name>.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SkillMeta {
    /// One line, at most six sentences: what the skill does and what it needs.
    pub description: String,
    /// The task it was written for, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub task: String,
    /// When it was added (UTC, RFC 3339).
    #[serde(default)]
    pub created: String,
    /// 1 for a new skill, one more each time it is replaced.
    #[serde(default = "first_version")]
    pub version: u32,
}

fn first_version() -> u32 {
    1
}

/// Reads `NAME.json`: the metadata, with the description made one line. An overlong description is kept whole
/// ([`indexed_description`] says how much of it search uses); only an empty one is refused. Errors carry the line.
pub fn parse_meta(text: &str) -> Result<SkillMeta, (String, Option<usize>)> {
    let mut meta: SkillMeta =
        serde_json::from_str(text).map_err(|err| (format!("not valid skill metadata ({err})"), Some(err.line())))?;
    meta.description = meta.description.split_whitespace().collect::<Vec<_>>().join(" ");
    if meta.description.is_empty() {
        return Err(("the description is empty".to_owned(), None));
    }
    Ok(meta)
}

/// The part of a description the index embeds: its first [`MAX_SENTENCES`] sentences, at most [`MAX_DESCRIPTION`]
/// characters (cut at a word). Also returns why it was trimmed, when it was.
pub fn indexed_description(description: &str) -> (String, Option<String>) {
    let line = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut kept = line.as_str();
    let mut why = None;
    let mut sentences = 0;
    for (at, c) in line.char_indices() {
        if matches!(c, '.' | '!' | '?') && !line[..at].trim_end_matches(['.', '!', '?']).trim().is_empty() {
            let next = line[at + c.len_utf8()..].chars().next();
            if next.is_none_or(char::is_whitespace) {
                sentences += 1;
                if sentences == MAX_SENTENCES && next.is_some() {
                    kept = &line[..at + c.len_utf8()];
                    why = Some(format!("it has more than {MAX_SENTENCES} sentences"));
                    break;
                }
            }
        }
    }
    if let Some((cut, _)) = kept.char_indices().nth(MAX_DESCRIPTION) {
        let at_word = kept[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
        kept = &kept[..at_word];
        why = Some(format!("it is longer than {MAX_DESCRIPTION} characters"));
    }
    (kept.to_owned(), why)
}

/// `mineWoodLog` + "Mines…" → `mine wood log: Mines…`.
pub fn search_text(name: &str, description: &str) -> String {
    let description = indexed_description(description).0;
    let mut words = String::new();
    for (i, c) in name.chars().enumerate() {
        if c == '_' {
            words.push(' ');
        } else if c.is_ascii_uppercase() && i > 0 {
            words.push(' ');
            words.push(c.to_ascii_lowercase());
        } else {
            words.push(c.to_ascii_lowercase());
        }
    }
    format!("{}: {description}", words.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Checks a description and returns it as one trimmed line.
pub fn clean_description(description: &str) -> Result<String, String> {
    let line = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        return Err("the description is empty".to_owned());
    }
    if line.chars().count() > MAX_DESCRIPTION {
        return Err(format!(
            "the description is {} characters long; keep it under {MAX_DESCRIPTION}",
            line.chars().count()
        ));
    }
    let sentences = line.split_terminator(['.', '!', '?']).filter(|s| !s.trim().is_empty()).count();
    if sentences > MAX_SENTENCES {
        return Err(format!("the description has {sentences} sentences; use at most {MAX_SENTENCES}"));
    }
    Ok(line)
}

/// `name`, or `nameV2`, `nameV3`… — the first that `taken` refuses.
pub fn free_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_owned();
    }
    (2..).map(|n| format!("{name}V{n}")).find(|candidate| !taken(candidate)).expect("some version is free")
}

/// Renames every use of the identifier `from` in `code` to `to` (its definition and any recursive calls); text inside
/// string literals and comments is left alone.
pub fn rename_identifier(code: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(code.len() + 8);
    let mut rest = code;
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    while let Some(c) = rest.chars().next() {
        if c == '"' || c == '`' {
            let end = rest[1..].find(c).map_or(rest.len(), |i| i + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if is_ident(c) {
            let end = rest.find(|d: char| !is_ident(d)).unwrap_or(rest.len());
            let word = &rest[..end];
            out.push_str(if word == from { to } else { word });
            rest = &rest[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// What a skill's parameter accepts, judged from its name: counts must be whole numbers of at least 1, coordinates
/// whole numbers, item/block/mob names Minecraft ids; any other parameter takes any value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Count,
    Coordinate,
    Id,
    Any,
}

impl ParamKind {
    pub fn of(param: &str) -> ParamKind {
        let lower = param.to_ascii_lowercase();
        let ends = |suffix: &str| lower.ends_with(suffix);
        if ["count", "n", "amount", "times", "number", "quantity", "howmany"].contains(&lower.as_str())
            || ends("count")
            || ends("_n")
        {
            ParamKind::Count
        } else if ["x", "y", "z"].contains(&lower.as_str()) {
            ParamKind::Coordinate
        } else if ["item", "block", "mob", "kind", "name", "itemname", "blockname", "mobname"].contains(&lower.as_str())
            || ends("_item")
            || ends("_block")
            || ends("_name")
        {
            ParamKind::Id
        } else {
            ParamKind::Any
        }
    }
}

/// The values to call `skill` with, from the words an owner typed: whole and decimal numbers and true/false as
/// themselves, `"quoted text"` and anything else as text. Each value is checked against what its parameter accepts
/// ([`ParamKind`]), so `!run craftPlanks -5` is refused with the reason instead of doing nothing.
pub fn typed_args(name: &str, params: &[String], args: &[String]) -> Result<Vec<rhai::Dynamic>, String> {
    if args.len() != params.len() {
        return Err(format!("{name} takes {} argument(s): {name}({})", params.len(), params.join(", ")));
    }
    params
        .iter()
        .zip(args)
        .map(|(param, word)| {
            let value = owner_value(word);
            let wrong = |wanted: &str| format!("{name}'s {param} must be {wanted}, not {word}");
            match ParamKind::of(param) {
                ParamKind::Count => match value.as_int() {
                    Ok(n) if n >= 1 => Ok(value),
                    _ => Err(wrong("a whole number of at least 1")),
                },
                ParamKind::Coordinate if !value.is_int() => Err(wrong("a whole number")),
                ParamKind::Id => match value.clone().into_immutable_string() {
                    Ok(id) if is_id(id.strip_prefix("minecraft:").unwrap_or(&id)) => Ok(value),
                    _ => Err(wrong("a Minecraft id like oak_log")),
                },
                _ => Ok(value),
            }
        })
        .collect()
}

/// `oak_log`: lower-case letters, digits and `_`.
fn is_id(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// One word an owner typed, as a script value.
fn owner_value(word: &str) -> rhai::Dynamic {
    if let Ok(n) = word.parse::<i64>() {
        return n.into();
    }
    if word.contains('.')
        && let Ok(x) = word.parse::<f64>()
        && x.is_finite()
    {
        return x.into();
    }
    match word {
        "true" => true.into(),
        "false" => false.into(),
        _ => {
            let unquoted = word.strip_prefix('"').and_then(|w| w.strip_suffix('"')).unwrap_or(word);
            unquoted.chars().filter(|c| !c.is_control()).collect::<String>().into()
        }
    }
}
