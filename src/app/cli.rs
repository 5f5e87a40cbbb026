//! The command line: raw flags as clap parses them, and the dispatch of each subcommand.
//!
//! Flags (and their `WAYFARER_*` environment twins) are only *read* here; [`crate::config`] resolves them, together
//! with `wayfarer.toml`, into the one validated [`Config`] the rest of the program uses.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

pub use super::skills_cli::SkillsAction;
use crate::config::{Config, Overrides};

/// Wayfarer: a Minecraft bot that joins a Java 26.1 server and obeys its owners in chat.
#[derive(Debug, Parser)]
#[command(name = "wayfarer", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Join a server with one or more bots and obey the owners' chat commands (`!help` in game lists them).
    Run(Overrides),
    /// List, show, search, add or remove skills, or rebuild their search index (no server needed).
    Skills(SkillsArgs),
    /// Join a server and learn on its own: the curriculum proposes tasks, the LLM writes skills (needs an LLM).
    Learn(LearnArgs),
    /// Join a server as `run` does and serve the bots to an AI assistant over MCP on standard input and output
    ///
    /// For clients that start the process (desktop apps, IDE agents). Tools give the bots goals and builds followed
    /// to the world's verdict, and answer status, inventory and what is around; resources hold each bot's goals and
    /// memory, the skills and the blueprints. Logs go to standard error. See src/docs/mcp.md.
    Mcp(Overrides),
    /// Check blueprint files (.txt, .nbt, .schem) and say what each builds and takes, or why it cannot be built.
    Blueprint(BlueprintArgs),
}

impl CliCommand {
    /// Whether the command prints an answer and ends (no server joined): it ends quietly when its reader goes away.
    pub fn prints_and_ends(&self) -> bool {
        matches!(self, CliCommand::Skills(_) | CliCommand::Blueprint(_))
    }
}

/// `wayfarer blueprint`: blueprints checked without joining a server.
#[derive(Debug, Args)]
pub struct BlueprintArgs {
    /// Blueprint files, or names in the blueprint folder
    #[arg(required = true, value_name = "FILE|NAME")]
    pub blueprints: Vec<String>,

    /// Folder names are looked up in [default: skills/blueprints]
    #[arg(long, env = "WAYFARER_BLUEPRINTS", value_name = "DIR")]
    pub folder: Option<PathBuf>,

    /// Print each as one JSON line: name, size, blocks, materials, and every position with its block
    #[arg(long)]
    pub json: bool,

    /// Only one team member's strip of each, as a leader hands it out (e.g. 2/3), facing as `--facing` says
    #[arg(long, value_name = "K/N")]
    pub share: Option<crate::blueprint::Share>,

    /// Turned to face this way (N, E, S or W), as `!build … facing` turns it [default: S, as drawn]
    #[arg(long, value_name = "SIDE")]
    pub facing: Option<crate::blueprint::Facing>,
}

/// `wayfarer learn`: `run`'s flags, and how long to learn.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Tasks to attempt before exiting [default: 160, as Voyager]
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<usize>,

    #[command(flatten)]
    pub run: Overrides,
}

/// `wayfarer skills`: the skill library, without joining a server.
#[derive(Debug, Args)]
pub struct SkillsArgs {
    /// Skill library folder [default: skills]
    #[arg(long, global = true, env = "WAYFARER_SKILLS", value_name = "DIR")]
    pub skills: Option<PathBuf>,

    /// Folder with the embedding model, filled by `make models` [default: ~/.cache/wayfarer/models]
    #[arg(long, global = true, env = "WAYFARER_MODELS", value_name = "DIR")]
    pub models: Option<PathBuf>,

    /// Configuration file (for skills_dir, models_dir and the store) [default: ./wayfarer.toml when it exists]
    #[arg(long, short, global = true, env = "WAYFARER_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The fleet's shared store, for `export` with no target: postgres://USER@HOST:PORT/DB
    #[arg(long, global = true, env = "WAYFARER_STORE", value_name = "URL")]
    pub store: Option<String>,

    #[command(subcommand)]
    pub action: SkillsAction,
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}

/// Runs one parsed command line to completion.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        CliCommand::Run(args) => {
            let config = Config::resolve(args)?;
            runtime()?.block_on(super::run(config))?;
            Ok(())
        }
        CliCommand::Mcp(args) => {
            let config = Config::resolve(args)?;
            let runtime = runtime()?;
            runtime.block_on(super::mcp(config))?;
            // The client has gone: the bots' connections and script threads need not wind down politely.
            runtime.shutdown_background();
            Ok(())
        }
        CliCommand::Learn(args) => {
            let iterations = args.max_iterations.unwrap_or(crate::agent::learn::DEFAULT_ITERATIONS);
            if iterations == 0 {
                anyhow::bail!("--max-iterations must be at least 1");
            }
            let config = Config::resolve(args.run)?;
            let runtime = runtime()?;
            runtime.block_on(super::learn(config, iterations))?;
            // Script threads and the swarm may still be winding down: the summary is out, so end here.
            runtime.shutdown_background();
            Ok(())
        }
        CliCommand::Blueprint(args) => blueprints(&args),
        CliCommand::Skills(args) => {
            let config = Config::resolve(Overrides {
                skills: args.skills,
                models: args.models,
                config: args.config,
                store: args.store,
                ..Overrides::default()
            })?;
            super::skills_cli::run(&config, args.action)
        }
    }
}

/// `wayfarer blueprint`: each blueprint's summary, or what is wrong with it; fails when any is wrong.
fn blueprints(args: &BlueprintArgs) -> anyhow::Result<()> {
    use crate::blueprint::{Blueprint, Folder};
    let folder = Folder::new(args.folder.clone().unwrap_or_else(|| PathBuf::from("skills/blueprints")));
    let mut wrong = 0;
    for name in &args.blueprints {
        let loaded = folder
            .path_of(name)
            .ok_or_else(|| format!("no such file, and no blueprint called {name} in {}", folder.dir().display()))
            .and_then(|path| Blueprint::load(&path).map_err(|e| e.to_string()))
            .map(|b| b.facing(args.facing.unwrap_or_default()))
            .map(|b| match args.share {
                Some(share) => b.share(share),
                None => b,
            });
        match loaded {
            Ok(blueprint) if args.json => {
                let materials: serde_json::Map<String, serde_json::Value> =
                    blueprint.materials().into_iter().map(|(item, n)| (item, n.into())).collect();
                let line = serde_json::json!({
                    "name": blueprint.name,
                    "description": blueprint.description,
                    "size": blueprint.size,
                    "blocks": blueprint.blocks().count(),
                    "materials": materials,
                    "parts": blueprint.parts.iter().map(|p| serde_json::json!({
                        "at": p.at, "name": p.block.name, "properties": p.block.properties,
                    })).collect::<Vec<_>>(),
                });
                println!("{line}");
            }
            Ok(blueprint) => {
                println!("{name}: {}", blueprint.summary());
                if !blueprint.description.is_empty() {
                    println!("  {}", blueprint.description);
                }
            }
            Err(problem) => {
                wrong += 1;
                eprintln!("{name}: {problem}");
            }
        }
    }
    if wrong > 0 {
        anyhow::bail!("{wrong} of {} blueprints cannot be built", args.blueprints.len());
    }
    Ok(())
}
