//! `wayfarer skills …`: the library from a terminal.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Instant,
};

use anyhow::{Context, bail};
use clap::Subcommand;

use crate::{
    config::Config,
    skills::{
        Embedder, FETCH_COMMAND, INDEX_DIR, NewSkill, OnCollision, SkillLibrary, import::read_source,
        indexed_description,
    },
    store::is_store_url,
};

/// What `wayfarer skills` does.
#[derive(Debug, Subcommand)]
pub enum SkillsAction {
    /// List every skill with its signature and description
    List,
    /// Print one skill: its metadata and code
    Show {
        /// The skill's name
        name: String,
    },
    /// Find the skills nearest in meaning to a query, with similarity scores
    Search {
        /// What you want done, in words (e.g. "make a stone pick")
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
        /// How many skills to show
        #[arg(short, long, default_value_t = 5)]
        k: usize,
    },
    /// Add a skill from a Rhai file defining `fn NAME(...)`
    Add {
        /// The Rhai file
        file: PathBuf,
        /// The skill's name: the fn to use [default: the file name, or its only fn]
        #[arg(long)]
        name: Option<String>,
        /// One line saying what the skill does [default: the fn's `///` doc comment]
        #[arg(long, short)]
        description: Option<String>,
        /// The task the skill solves
        #[arg(long, default_value = "")]
        task: String,
        /// Replace a skill of the same name instead of keeping both (the new one would become NAMEV2)
        #[arg(long)]
        replace: bool,
    },
    /// Bring in a library from elsewhere: a folder of NAME.rhai (+ NAME.json) files, one JSON file of
    /// {"NAME": {"description": …, "code": …}}, or a fleet's store (postgres://…: the latest version of each skill,
    /// with its version number); a taken name keeps both (NAMEV2) unless --replace
    Import {
        /// The folder, JSON file or store URL
        source: PathBuf,
        /// Replace skills of the same name instead of keeping both
        #[arg(long)]
        replace: bool,
    },
    /// Copy every skill of the folder into a fleet's store, each as a new version where the store's latest differs
    /// (with its embedding when the model is at hand)
    Export {
        /// The store: postgres://USER@HOST:PORT/DB [default: the configured store, `--store` or `[store] url`]
        target: Option<String>,
    },
    /// Remove a skill's files and its entry in the index
    Remove {
        /// The skill's name
        name: String,
    },
    /// Embed every skill again and rebuild the search index
    Reindex,
}

pub fn run(config: &Config, action: SkillsAction) -> anyhow::Result<()> {
    let (library, events) = SkillLibrary::open(&config.skills_dir);
    for event in events.iter().filter(|e| e.is_warning()) {
        eprintln!("warning: {event}");
    }
    let dir = config.skills_dir.display();
    match action {
        SkillsAction::List => {
            if library.is_empty() {
                println!("No skills in {dir}/ yet. Add one with `wayfarer skills add FILE`.");
                return Ok(());
            }
            println!("{} skills in {dir}/", library.len());
            let skills = library.list();
            let width = skills.iter().map(|s| s.signature().len()).max().unwrap_or(0);
            for skill in skills {
                println!("  {:width$}  {}", skill.signature(), skill.meta.description);
            }
        }
        SkillsAction::Show { name } => {
            let skill = library.get(&name).with_context(|| unknown(&library, &name))?;
            println!(
                "{}  (version {}, created {})",
                skill.signature(),
                skill.meta.version,
                or_unknown(&skill.meta.created)
            );
            if !skill.meta.task.is_empty() {
                println!("task: {}", skill.meta.task);
            }
            println!("{}\n", skill.meta.description);
            print!("{}", skill.code);
        }
        SkillsAction::Search { query, k } => {
            let query = query.join(" ");
            enable_search(&library, &config.models_dir)?;
            let started = Instant::now();
            let found = library.retrieve(&query, k)?;
            let took = started.elapsed();
            if found.is_empty() {
                println!("No skills in {dir}/ to search.");
            }
            for m in &found {
                println!("{:.2}  {}  {}", m.score, m.skill.signature(), m.skill.meta.description);
            }
            eprintln!("({} of {} skills, {:.1} ms)", found.len(), library.len(), took.as_secs_f64() * 1000.0);
        }
        SkillsAction::Add { file, name, description, task, replace } => {
            let code = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let (name, doc) = main_function(&code, &file, name)?;
            let description = match description.or(doc) {
                Some(description) => description,
                None => bail!("give the skill a description: --description \"…\" or a /// comment above fn {name}"),
            };
            // Keep the index current when the model is at hand; otherwise it catches up the next time it is.
            let searchable = library.enable_search(&config.models_dir).is_ok();
            let on_collision = if replace { OnCollision::Replace } else { OnCollision::KeepBoth };
            let skill = library.add(NewSkill { name: name.clone(), code, description, task }, on_collision)?;
            match (skill.name == name, replace) {
                (true, true) if skill.meta.version > 1 => {
                    println!("Replaced {} (now version {}) in {dir}/", skill.name, skill.meta.version)
                }
                (true, _) => println!("Added {} to {dir}/", skill.signature()),
                (false, _) => println!(
                    "Added {}: {name} was taken, so the new skill is {} (use --replace to replace {name})",
                    skill.signature(),
                    skill.name
                ),
            }
            if let Some(reason) = indexed_description(&skill.meta.description).1 {
                eprintln!("note: search uses the start of the description only, because {reason}");
            }
            if !searchable {
                eprintln!("note: the search index was not updated (the model is missing; run `{}`)", FETCH_COMMAND);
            }
        }
        SkillsAction::Import { source, replace } => match source.to_str().filter(|s| is_store_url(s)) {
            Some(url) => super::skills_store::import(&library, config, url, replace)?,
            None => import(&library, config, &source, replace)?,
        },
        SkillsAction::Export { target } => {
            let Some(url) = target.or_else(|| config.store.clone()) else {
                bail!(
                    "no store to export to: give one (`wayfarer skills export postgres://USER@HOST/DB`), or set \
                     --store, WAYFARER_STORE or [store] url"
                );
            };
            super::skills_store::export(&library, config, &url)?
        }
        SkillsAction::Remove { name } => {
            if library.get(&name).is_none() {
                bail!(unknown(&library, &name));
            }
            let _ = library.enable_search(&config.models_dir);
            library.remove(&name)?;
            println!("Removed {name} from {dir}/");
        }
        SkillsAction::Reindex => {
            let started = Instant::now();
            let embedder = Arc::new(Embedder::load(&config.models_dir)?);
            let loaded = started.elapsed();
            let report = library.reindex(embedder)?;
            println!(
                "Embedded {} skills in {:.2} s (model load {:.2} s); index written to {dir}/{}/",
                report.embedded,
                started.elapsed().as_secs_f64(),
                loaded.as_secs_f64(),
                INDEX_DIR
            );
        }
    }
    Ok(())
}

/// `wayfarer skills import`: every skill in `source` that compiles comes in; the others are listed with the reason.
fn import(library: &SkillLibrary, config: &Config, source: &Path, replace: bool) -> anyhow::Result<()> {
    let same = |a: &Path, b: &Path| a.canonicalize().ok().is_some_and(|a| b.canonicalize().is_ok_and(|b| a == b));
    if same(source, &config.skills_dir) {
        bail!("{} is the library itself; import from another folder or file", source.display());
    }
    let incoming = read_source(source).map_err(anyhow::Error::msg)?;
    let dir = config.skills_dir.display();
    let total = incoming.len();
    println!("Importing {total} skills from {} into {dir}/", source.display());
    // Keep the index current when the model is at hand; otherwise it catches up the next time it is.
    let searchable = library.enable_search(&config.models_dir).is_ok();
    let on_collision = if replace { OnCollision::Replace } else { OnCollision::KeepBoth };
    let mut imported = 0;
    for item in incoming {
        let added = item.and_then(|new| {
            let name = new.name.clone();
            library.add(new, on_collision).map(|skill| (name.clone(), skill)).map_err(|err| (name, err.to_string()))
        });
        match added {
            Ok((asked, skill)) => {
                imported += 1;
                if skill.name != asked {
                    println!("  {}  ({asked} was taken)", skill.signature());
                } else if skill.meta.version > 1 {
                    println!("  {}  (replaced; now version {})", skill.signature(), skill.meta.version);
                } else {
                    println!("  {}", skill.signature());
                }
                if let Some(reason) = indexed_description(&skill.meta.description).1 {
                    println!("    note: search uses the start of its description only, because {reason}");
                }
            }
            Err((name, why)) => eprintln!("  skipped {name}: {why}"),
        }
    }
    let skipped = total - imported;
    if skipped == 0 {
        println!("Imported all {total} skills.");
    } else {
        println!("Imported {imported} of {total} skills; {skipped} skipped (see above).");
    }
    if !searchable {
        eprintln!("note: the search index was not updated (the model is missing; run `{}`)", FETCH_COMMAND);
    }
    if imported == 0 {
        bail!("no skill from {} could be imported", source.display());
    }
    Ok(())
}

fn enable_search(library: &SkillLibrary, models_dir: &Path) -> anyhow::Result<()> {
    let report = library.enable_search(models_dir)?;
    if let Some(reason) = &report.rebuilt {
        eprintln!("(rebuilt the search index: {reason})");
    } else if report.embedded > 0 || report.removed > 0 {
        eprintln!("(index updated: {} embedded, {} removed)", report.embedded, report.removed);
    }
    Ok(())
}

/// Which fn in `code` is the skill, and its `///` doc comment.
fn main_function(code: &str, file: &Path, name: Option<String>) -> anyhow::Result<(String, Option<String>)> {
    let ast = crate::script::compile(code, &[])
        .map_err(|err| anyhow::anyhow!("{} does not compile: {err}", file.display()))?;
    let functions: Vec<_> = ast.iter_functions().collect();
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let chosen = match &name {
        Some(name) => functions.iter().find(|f| f.name == name),
        None if functions.len() == 1 => functions.first(),
        None => functions.iter().find(|f| f.name == stem),
    };
    let Some(function) = chosen else {
        let names: Vec<&str> = functions.iter().map(|f| f.name).collect();
        match name {
            Some(name) => bail!("{} defines no fn {name} (functions: {})", file.display(), list(&names)),
            None => bail!(
                "{} defines {} functions ({}); say which is the skill with --name",
                file.display(),
                names.len(),
                list(&names)
            ),
        }
    };
    Ok((function.name.to_owned(), crate::skills::import::doc_comment(code, function.name)))
}

fn list(names: &[&str]) -> String {
    if names.is_empty() { "none".to_owned() } else { names.join(", ") }
}

fn or_unknown(text: &str) -> &str {
    if text.is_empty() { "unknown" } else { text }
}

fn unknown(library: &SkillLibrary, name: &str) -> String {
    let names: Vec<String> = library.list().iter().map(|s| s.name.clone()).collect();
    let close: Vec<&String> =
        names.iter().filter(|n| n.to_lowercase().contains(&name.to_lowercase())).take(5).collect();
    if close.is_empty() {
        format!("there is no skill called {name} (`wayfarer skills list` shows them all)")
    } else {
        format!(
            "there is no skill called {name}; did you mean {}?",
            close.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        )
    }
}
