//! `wayfarer skills export` and `wayfarer skills import postgres://…`: skills between a folder and a fleet's store,
//! with their versions.

use anyhow::{Context, bail};

use crate::{
    config::Config,
    skills::{NewSkill, OnCollision, SkillLibrary},
    store::{Store, Stored, StoredSkill},
};

/// Every skill of the folder into the store: a new version where the store's latest differs, nothing where it is the
/// same. Each comes with its search embedding when the model is at hand.
pub fn export(library: &SkillLibrary, config: &Config, url: &str) -> anyhow::Result<()> {
    let dir = config.skills_dir.display();
    let skills = library.list();
    if skills.is_empty() {
        bail!("{dir}/ holds no skills to export");
    }
    let embedder = library.enable_search(&config.models_dir).ok().and_then(|_| library.embedder().ok());
    let origin = format!("export from {}:{dir}", super::store_sync::host_name());
    let outgoing: Vec<StoredSkill> =
        skills.iter().map(|skill| StoredSkill::of(skill, embedder.as_deref(), &origin)).collect::<Result<_, _>>()?;
    let (mut new, mut unchanged) = (0, 0);
    runtime()?.block_on(async {
        let mut store = Store::connect(url).await?;
        println!("Exporting {} skills from {dir}/ to the store at {}", outgoing.len(), store.at());
        for skill in &outgoing {
            match store.put_skill(skill).await? {
                Stored::New(version) => {
                    new += 1;
                    println!("  {}  (version {version})", skill.name);
                }
                Stored::Unchanged(_) => unchanged += 1,
            }
        }
        anyhow::Ok(())
    })?;
    println!("Exported {new} new versions; {unchanged} skills were already in the store as they are here.");
    if embedder.is_none() {
        eprintln!("note: no embeddings were stored (the model is missing; run `make models`)");
    }
    Ok(())
}

/// The latest version of every skill in the store into the folder, with its version number and creation date. A
/// skill the folder has in an older version is updated; one it has otherwise keeps both (NAMEV2) unless `replace`.
pub fn import(library: &SkillLibrary, config: &Config, url: &str, replace: bool) -> anyhow::Result<()> {
    let dir = config.skills_dir.display();
    let (at, stored) = runtime()?.block_on(async {
        let store = Store::connect(url).await?;
        let skills = store.latest_skills().await?;
        anyhow::Ok((store.at().to_owned(), skills))
    })?;
    if stored.is_empty() {
        bail!("the store at {at} holds no skills yet");
    }
    println!("Importing {} skills from the store at {at} into {dir}/", stored.len());
    // Keep the index current when the model is at hand; otherwise it catches up the next time it is.
    let searchable = library.enable_search(&config.models_dir).is_ok();
    let (mut added, mut unchanged, mut failed) = (0, 0, 0);
    for skill in stored {
        let local = library.get(&skill.name);
        if local.as_ref().is_some_and(|local| {
            local.code.trim_end() == skill.code.trim_end()
                && local.meta.description == skill.description
                && local.meta.task == skill.task
        }) {
            unchanged += 1;
            continue;
        }
        let older_here = local.as_ref().is_some_and(|local| local.meta.version < skill.version);
        let on_collision = if replace || older_here { OnCollision::Replace } else { OnCollision::KeepBoth };
        let name = skill.name.clone();
        let new = NewSkill { name: name.clone(), code: skill.code, description: skill.description, task: skill.task };
        match library.add_as(new, on_collision, Some((skill.version, skill.created))) {
            Ok(stored) => {
                added += 1;
                match (&local, stored.name == name) {
                    (Some(old), true) => println!(
                        "  {}  (version {} replaces version {})",
                        stored.signature(),
                        stored.meta.version,
                        old.meta.version
                    ),
                    (Some(_), false) => println!("  {}  ({name} was taken)", stored.signature()),
                    (None, _) => println!("  {}  (version {})", stored.signature(), stored.meta.version),
                }
            }
            Err(err) => {
                failed += 1;
                eprintln!("  skipped {name}: {err}");
            }
        }
    }
    println!("Imported {added}; {unchanged} were here already as they are in the store; {failed} skipped.");
    if !searchable {
        eprintln!("note: the search index was not updated (the model is missing; run `make models`)");
    }
    if added == 0 && failed > 0 {
        bail!("no skill from the store could be imported");
    }
    Ok(())
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")
}
