//! Skill files: `skills/<name>.rhai` (the code: a Rhai `fn <name>(…)`) and `skills/<name>.json` (description, task,
//! created, version). Reading validates both; writing goes through a temporary file and a rename, so a crash leaves
//! either the old file or the new one, never half of one.

use std::{
    path::Path,
    time::{SystemTime, UNIX_EPOCH},
};

use rhai::AST;

use super::{
    SkillError,
    index::INDEX_DIR,
    text::{SkillMeta, search_text, typed_args},
};
use crate::script::{self, bindings};

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

    /// A skill with no code, its parameters and the task it was learned for: what tests of the agent read of one.
    #[cfg(test)]
    pub fn learned_for(name: &str, params: &[&str], task: &str) -> std::sync::Arc<Skill> {
        std::sync::Arc::new(Skill {
            name: name.to_owned(),
            code: String::new(),
            meta: SkillMeta { description: String::new(), task: task.to_owned(), created: String::new(), version: 1 },
            params: params.iter().map(|p| (*p).to_owned()).collect(),
            functions: AST::empty(),
        })
    }

    /// The text the search index embeds: the name in words, then the description (trimmed to what the index takes).
    pub fn search_text(&self) -> String {
        search_text(&self.name, &self.meta.description)
    }
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

/// Compiles `code` and checks it defines `fn name`. Errors carry the line when the compiler gave one.
pub fn compile(name: &str, code: &str) -> Result<(AST, Vec<String>), (String, Option<usize>)> {
    let ast = script::compile(code, &[]).map_err(|err| (err.message(), err.line()))?;
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

/// Reads and validates one skill's two files. A description longer than the index takes is kept whole (and trimmed
/// only for the index, see [`indexed_description`]): it is never a reason to skip a skill.
pub fn read(dir: &Path, name: &str) -> Result<Skill, ReadError> {
    let code_path = dir.join(format!("{name}.rhai"));
    let meta_path = dir.join(format!("{name}.json"));
    let code = match std::fs::read_to_string(&code_path) {
        Ok(code) => code,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Gone),
        Err(err) => return Err(ReadError::invalid(&code_path, err.to_string(), None)),
    };
    let meta_text = std::fs::read_to_string(&meta_path).map_err(|err| {
        let reason = match err.kind() {
            std::io::ErrorKind::NotFound => {
                "it is missing: every skill needs NAME.json with its description".to_owned()
            }
            _ => err.to_string(),
        };
        ReadError::invalid(&meta_path, reason, None)
    })?;
    let meta =
        super::text::parse_meta(&meta_text).map_err(|(reason, line)| ReadError::invalid(&meta_path, reason, line))?;
    let (functions, params) =
        compile(name, &code).map_err(|(reason, line)| ReadError::invalid(&code_path, reason, line))?;
    Ok(Skill { name: name.to_owned(), code, meta, params, functions })
}

/// Why a skill could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Its code file does not exist (any more).
    Gone,
    Invalid {
        file: String,
        line: Option<usize>,
        reason: String,
    },
}

impl ReadError {
    fn invalid(path: &Path, reason: String, line: Option<usize>) -> Self {
        let file = path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
        ReadError::Invalid { file, line, reason }
    }
}

/// Writes a skill's files: the metadata first, then the code, each atomically.
pub fn write(dir: &Path, skill: &Skill) -> Result<(), SkillError> {
    std::fs::create_dir_all(dir).map_err(|cause| SkillError::Io { path: dir.to_owned(), cause })?;
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
            Err(cause) => return Err(SkillError::Io { path, cause }),
        }
    }
    Ok(())
}

/// Writes `bytes` over `path` whole or not at all (see [`crate::files`]), as a library error.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), SkillError> {
    crate::files::write_atomically(path, bytes).map_err(|cause| SkillError::Io { path: path.to_owned(), cause })
}

/// The values to call `skill` with, from the words an owner typed (see [`typed_args`]).
pub fn call_args(skill: &Skill, args: &[String]) -> Result<Vec<rhai::Dynamic>, String> {
    typed_args(&skill.name, &skill.params, args)
}

/// Now, as `2026-11-22T13:45:07Z`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    utc_timestamp(secs)
}

fn utc_timestamp(secs: u64) -> String {
    let time = chrono::DateTime::from_timestamp(i64::try_from(secs).unwrap_or(i64::MAX), 0).unwrap_or_default();
    time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::text::*;

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
    fn the_index_takes_six_sentences_and_600_characters() {
        assert_eq!(indexed_description("Mines one log. Then stops."), ("Mines one log. Then stops.".to_owned(), None));
        let (kept, why) = indexed_description("A b. C d. E f. G h. I j. K l. M n. O p.");
        assert_eq!(kept, "A b. C d. E f. G h. I j. K l.");
        assert!(why.unwrap().contains("more than 6 sentences"));
        assert_eq!(
            indexed_description("Uses v1.5 of it. Version 2.0 too.").1,
            None,
            "a dot inside a word ends nothing"
        );
        let (kept, why) = indexed_description(&"wörd ".repeat(200));
        assert!(kept.chars().count() <= MAX_DESCRIPTION && !kept.ends_with(' '), "{kept}");
        assert!(why.unwrap().contains("longer than 600"));
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

    fn skill(code: &str, name: &str) -> Skill {
        let (functions, params) = compile(name, code).unwrap();
        let meta = SkillMeta { description: "d".into(), task: String::new(), created: String::new(), version: 1 };
        Skill { name: name.into(), code: code.into(), meta, params, functions }
    }

    #[test]
    fn owner_words_become_typed_values() {
        let give = skill("fn give(what, n, fast) { }", "give");
        let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let values = call_args(&give, &words(&["\"oak\"", "3", "true"])).unwrap();
        assert_eq!(values[0].clone().into_string().unwrap(), "oak");
        assert_eq!((values[1].as_int(), values[2].as_bool()), (Ok(3), Ok(true)));
        assert!(call_args(&give, &[]).unwrap_err().contains("give(what, n, fast)"));
        assert!(compile("take", "fn give() {}").unwrap_err().0.contains("functions found: give"));
        assert_eq!(call_args(&skill("fn f(speed) {}", "f"), &words(&["1.5"])).unwrap()[0].as_float(), Ok(1.5));
    }

    /// `!run craftPlanks -5` and `!run mineWoodLog "x"` finished with nothing done and no word of why: the skill's
    /// loop compared the count and stopped at once. Such arguments are refused, saying what the parameter takes.
    #[test]
    fn arguments_a_skill_cannot_use_are_refused_with_the_reason() {
        let words = |w: &str| vec![w.to_owned()];
        let planks = skill("fn craftPlanks(count) { count }", "craftPlanks");
        let err = call_args(&planks, &words("-5")).unwrap_err();
        assert_eq!(err, "craftPlanks's count must be a whole number of at least 1, not -5");
        assert!(call_args(&planks, &words("\"x\"")).unwrap_err().contains("not \"x\""));
        assert!(call_args(&planks, &words("2.5")).is_err());
        assert!(call_args(&planks, &words("4")).is_ok());
        let mine = skill("fn mineBlocks(block, count) { }", "mineBlocks");
        let two = |a: &str, b: &str| vec![a.to_owned(), b.to_owned()];
        assert!(call_args(&mine, &two("Oak_Log", "1")).unwrap_err().contains("Minecraft id"));
        assert!(call_args(&mine, &two("minecraft:oak_log", "1")).is_ok());
        let walk = skill("fn walkTo(x, y, z) { }", "walkTo");
        assert!(
            call_args(&walk, &["1".into(), "up".into(), "3".into()])
                .unwrap_err()
                .contains("walkTo's y must be a whole number")
        );
    }
}
