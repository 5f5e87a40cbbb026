//! Skill files: `skills/<name>.rhai` (the code: a Rhai `fn <name>(…)`) and `skills/<name>.json` (description, task,
//! created, version). Reading validates both; writing goes through a temporary file and a rename, so a crash leaves
//! either the old file or the new one, never half of one.

use std::{
    io::Write,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use rhai::{AST, Engine};
use serde::{Deserialize, Serialize};

use super::{SkillError, index::INDEX_DIR};
use crate::script::bindings;

/// Descriptions are one line; longer than this is not a description.
pub const MAX_DESCRIPTION: usize = 600;
/// Voyager's rule for skill descriptions.
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

/// A skill as loaded: its files' contents, and its functions compiled.
#[derive(Debug)]
pub struct Skill {
    pub name: String,
    pub code: String,
    pub meta: SkillMeta,
    /// The parameters of its main `fn`.
    pub params: Vec<String>,
    /// The file's `fn` definitions only (top-level statements never run).
    pub functions: AST,
}

impl Skill {
    /// `craftStonePickaxe()` or `mineWoodLog(count)`.
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }

    /// The text the search index embeds: the name in words, then the description.
    pub fn search_text(&self) -> String {
        search_text(&self.name, &self.meta.description)
    }
}

/// `mineWoodLog` + "Mines…" → `mine wood log: Mines…`.
pub fn search_text(name: &str, description: &str) -> String {
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

/// The skill a file in the skills folder belongs to: `mineWoodLog.rhai` and `mineWoodLog.json` → `mineWoodLog`.
/// Temporary files, other extensions and invalid names belong to none.
pub fn skill_name(path: &Path) -> Option<String> {
    let extension = path.extension()?;
    if extension != "rhai" && extension != "json" {
        return None;
    }
    let stem = path.file_stem()?.to_str()?;
    valid_name(stem).is_ok().then(|| stem.to_owned())
}

/// A skill name is a Rhai function name that does not hide one of Wayfarer's own functions.
pub fn valid_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let starts_well = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') || name.len() > 64 {
        return Err(format!("{name:?} is not a skill name: use 1 to 64 letters, digits or _, starting with a letter"));
    }
    if bindings::FUNCTIONS.contains(&name) || name == INDEX_DIR {
        return Err(format!("{name:?} is taken by Wayfarer itself; choose another name"));
    }
    Ok(())
}

/// Checks a description and returns it as one trimmed line.
pub fn clean_description(description: &str) -> Result<String, String> {
    let line = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.is_empty() {
        return Err("the description is empty".to_owned());
    }
    if line.len() > MAX_DESCRIPTION {
        return Err(format!("the description is {} characters long; keep it under {MAX_DESCRIPTION}", line.len()));
    }
    let sentences = line.split_terminator(['.', '!', '?']).filter(|s| !s.trim().is_empty()).count();
    if sentences > MAX_SENTENCES {
        return Err(format!("the description has {sentences} sentences; use at most {MAX_SENTENCES}"));
    }
    Ok(line)
}

/// Compiles `code` and checks it defines `fn name`. Errors carry the line when the compiler gave one.
pub fn compile(compiler: &Engine, name: &str, code: &str) -> Result<(AST, Vec<String>), (String, Option<usize>)> {
    let ast = compiler.compile(code).map_err(|err| (err.0.to_string(), err.1.line()))?;
    let params = ast
        .iter_functions()
        .find(|f| f.name == name)
        .map(|f| f.params.iter().map(|p| (*p).to_owned()).collect())
        .ok_or_else(|| {
            let defined: Vec<&str> = ast.iter_functions().map(|f| f.name).collect();
            let found = if defined.is_empty() { "none".to_owned() } else { defined.join(", ") };
            (format!("it defines no fn {name} (functions found: {found})"), None)
        })?;
    Ok((ast.clone_functions_only(), params))
}

/// Reads and validates one skill's two files.
pub fn read(dir: &Path, name: &str, compiler: &Engine) -> Result<Skill, ReadError> {
    let code_path = dir.join(format!("{name}.rhai"));
    let meta_path = dir.join(format!("{name}.json"));
    let code = match std::fs::read_to_string(&code_path) {
        Ok(code) => code,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Gone),
        Err(err) => return Err(ReadError::invalid(&code_path, err.to_string(), None)),
    };
    let meta_text = std::fs::read_to_string(&meta_path).map_err(|err| {
        let reason = match err.kind() {
            std::io::ErrorKind::NotFound => "it is missing: every skill needs NAME.json with its description".to_owned(),
            _ => err.to_string(),
        };
        ReadError::invalid(&meta_path, reason, None)
    })?;
    let mut meta: SkillMeta = serde_json::from_str(&meta_text)
        .map_err(|err| ReadError::invalid(&meta_path, format!("not valid skill metadata ({err})"), Some(err.line())))?;
    meta.description = clean_description(&meta.description).map_err(|reason| ReadError::invalid(&meta_path, reason, None))?;
    let (functions, params) =
        compile(compiler, name, &code).map_err(|(reason, line)| ReadError::invalid(&code_path, reason, line))?;
    Ok(Skill { name: name.to_owned(), code, meta, params, functions })
}

/// Why a skill could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Its code file does not exist (any more).
    Gone,
    Invalid { file: String, line: Option<usize>, reason: String },
}

impl ReadError {
    fn invalid(path: &Path, reason: String, line: Option<usize>) -> Self {
        let file = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
        ReadError::Invalid { file, line, reason }
    }
}

/// Writes a skill's files: the metadata first, then the code, each atomically.
pub fn write(dir: &Path, skill: &Skill) -> Result<(), SkillError> {
    std::fs::create_dir_all(dir).map_err(|source| SkillError::Io { path: dir.to_owned(), source })?;
    let json = serde_json::to_string_pretty(&skill.meta).expect("skill metadata serializes") + "\n";
    write_atomically(&dir.join(format!("{}.json", skill.name)), json.as_bytes())?;
    write_atomically(&dir.join(format!("{}.rhai", skill.name)), skill.code.as_bytes())
}

/// Deletes a skill's files: the code first, so a crash leaves no loadable half.
pub fn delete(dir: &Path, name: &str) -> Result<(), SkillError> {
    for extension in ["rhai", "json"] {
        let path = dir.join(format!("{name}.{extension}"));
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(SkillError::Io { path, source }),
        }
    }
    Ok(())
}

/// Writes `bytes` to a hidden temporary file beside `path`, flushes it to disk, and renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), SkillError> {
    let io = |source| SkillError::Io { path: path.to_owned(), source };
    let file_name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary: PathBuf = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(io)?;
    drop(file);
    std::fs::rename(&temporary, path).map_err(io)
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

/// Rhai source that calls `skill` with the words an owner typed: integers, decimals and true/false as themselves,
/// anything else as a string.
pub fn call_source(skill: &Skill, args: &[String]) -> Result<String, String> {
    if args.len() != skill.params.len() {
        return Err(format!("{} takes {} argument(s): {}", skill.name, skill.params.len(), skill.signature()));
    }
    let literals: Vec<String> = args
        .iter()
        .map(|arg| {
            let number = arg.parse::<i64>().is_ok() || (arg.parse::<f64>().is_ok_and(f64::is_finite) && arg.contains('.'));
            if number || arg == "true" || arg == "false" {
                arg.clone()
            } else {
                let clean: String = arg.chars().filter(|c| !c.is_control()).collect();
                format!("\"{}\"", clean.replace('\\', "\\\\").replace('"', "\\\""))
            }
        })
        .collect();
    Ok(format!("{}({})", skill.name, literals.join(", ")))
}

/// Now, as `2026-11-22T13:45:07Z`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    utc_timestamp(secs)
}

fn utc_timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (hour, minute, second) = (secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(skill_name(Path::new("skills/mineWoodLog.rhai")).as_deref(), Some("mineWoodLog"));
        assert_eq!(skill_name(Path::new("skills/mineWoodLog.json")).as_deref(), Some("mineWoodLog"));
        assert_eq!(skill_name(Path::new("skills/.mineWoodLog.rhai.77.tmp")), None);
        assert_eq!(skill_name(Path::new("skills/mineBlock.rhai")), None, "a primitive's name");
        assert_eq!(skill_name(Path::new("skills/2fast.rhai")), None);
        assert!(valid_name("mineBlock").unwrap_err().contains("taken by Wayfarer"));
    }

    #[test]
    fn versions_and_renames() {
        let taken = ["dig", "digV2"];
        assert_eq!(free_name("dig", |n| taken.contains(&n)), "digV3");
        assert_eq!(free_name("build", |n| taken.contains(&n)), "build");
        let code = "// dig( stays\nfn dig(n) {\n  if n > 0 { dig(n - 1) }\n  chat(\"dig(\"); digger(1)\n}";
        assert_eq!(
            rename_identifier(code, "dig", "digV2"),
            "// dig( stays\nfn digV2(n) {\n  if n > 0 { digV2(n - 1) }\n  chat(\"dig(\"); digger(1)\n}"
        );
    }

    #[test]
    fn descriptions_are_one_short_line() {
        assert_eq!(clean_description("  Mines\n one log. ").unwrap(), "Mines one log.");
        assert!(clean_description(" \n").is_err());
        assert!(clean_description("A. B. C. D. E. F. G.").unwrap_err().contains("7 sentences"));
    }

    #[test]
    fn search_text_spells_the_name_out() {
        assert_eq!(search_text("craftStonePickaxe", "Crafts one."), "craft stone pickaxe: Crafts one.");
        assert_eq!(search_text("get_wood", "Gets wood."), "get wood: Gets wood.");
    }

    #[test]
    fn timestamps() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(1_795_354_507), "2026-11-22T13:35:07Z");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn owner_words_become_literals() {
        let compiler = Engine::new_raw();
        let (functions, params) = compile(&compiler, "give", "fn give(what, n, fast) { }").unwrap();
        let skill = Skill {
            name: "give".into(),
            code: String::new(),
            meta: SkillMeta { description: "d".into(), task: String::new(), created: String::new(), version: 1 },
            params,
            functions,
        };
        let args = ["oak \"log\"".to_owned(), "3".to_owned(), "true".to_owned()];
        assert_eq!(call_source(&skill, &args).unwrap(), r#"give("oak \"log\"", 3, true)"#);
        assert!(call_source(&skill, &[]).unwrap_err().contains("give(what, n, fast)"));
        assert!(compile(&compiler, "take", "fn give() {}").unwrap_err().0.contains("functions found: give"));
    }
}
