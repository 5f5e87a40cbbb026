//! The command line: raw flags as clap parses them, and the dispatch of each subcommand.
//!
//! Flags (and their `WAYFARER_*` environment twins) are only *read* here; [`crate::config`] resolves them, together
//! with `wayfarer.toml`, into the one validated [`Config`] the rest of the program uses.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

pub use super::skills_cli::SkillsAction;
use crate::config::{AuthMode, Config, Overrides, ReplyMode, TeamRole};

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
    Run(RunArgs),
    /// List, show, search, add or remove skills, or rebuild their search index (no server needed).
    Skills(SkillsArgs),
    /// Join a server and learn on its own: the curriculum proposes tasks, the LLM writes skills (needs an LLM).
    Learn(LearnArgs),
}

/// `wayfarer learn`: `run`'s flags, and how long to learn.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// Tasks to attempt before exiting [default: 160, as Voyager]
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<usize>,

    #[command(flatten)]
    pub run: RunArgs,
}

/// Flags of `wayfarer run`. Every flag also reads an environment variable; both override `wayfarer.toml`.
#[derive(Debug, Default, Args)]
pub struct RunArgs {
    /// Server to join: HOST or HOST:PORT (port defaults to 25565) [default: localhost]
    #[arg(long, short, env = "WAYFARER_SERVER", value_name = "HOST[:PORT]")]
    pub server: Option<String>,

    /// Player name (offline auth) or Microsoft account e-mail (microsoft auth) [default: Wayfarer]
    #[arg(long, short, env = "WAYFARER_USERNAME", value_name = "NAME")]
    pub username: Option<String>,

    /// How to log in: `offline` for servers with online-mode=false, `microsoft` for real accounts [default: offline]
    #[arg(long, env = "WAYFARER_AUTH", value_name = "offline|microsoft")]
    pub auth: Option<AuthMode>,

    /// A player allowed to command the bots; repeat the flag for several (env: comma-separated)
    #[arg(long = "owner", env = "WAYFARER_OWNERS", value_delimiter = ',', value_name = "PLAYER")]
    pub owners: Vec<String>,

    /// Run N bots in one process, named NAME_1..NAME_N [default: 1]
    #[arg(long, env = "WAYFARER_BOTS", value_name = "N")]
    pub bots: Option<usize>,

    /// What chat commands start with [default: !]
    #[arg(long, env = "WAYFARER_PREFIX", value_name = "TEXT")]
    pub prefix: Option<String>,

    /// Where replies go: `public` chat, or `whisper` (/msg) to the player who asked [default: public]
    #[arg(long, env = "WAYFARER_REPLY", value_name = "public|whisper")]
    pub reply: Option<ReplyMode>,

    /// Folder of hand-written Rhai scripts for `!run`, reloaded when files change [default: scripts]
    #[arg(long, env = "WAYFARER_SCRIPTS", value_name = "DIR")]
    pub scripts: Option<PathBuf>,

    /// Skill library folder: NAME.rhai + NAME.json per skill, reloaded when files change [default: skills]
    #[arg(long, env = "WAYFARER_SKILLS", value_name = "DIR")]
    pub skills: Option<PathBuf>,

    /// Folder with the embedding model and ONNX Runtime, filled by `make models` [default: ~/.cache/wayfarer/models]
    #[arg(long, env = "WAYFARER_MODELS", value_name = "DIR")]
    pub models: Option<PathBuf>,

    /// OpenAI-compatible endpoint for `!task`, up to /v1 (Ollama: http://localhost:11434/v1) [default: OpenAI's when
    /// OPENAI_API_KEY is set]
    #[arg(long, env = "WAYFARER_LLM_URL", value_name = "URL")]
    pub llm_url: Option<String>,

    /// Model name at that endpoint [default: gpt-4o-mini]
    #[arg(long, env = "WAYFARER_LLM_MODEL", value_name = "MODEL")]
    pub llm_model: Option<String>,

    /// An LLM budget, KEY=N: bot_ or process_, calls_ or tokens_, per_hour or per_day (e.g. bot_calls_per_hour=100);
    /// repeat the flag for several (env: comma-separated). Spent, LLM work pauses until it refills
    #[arg(long = "llm-budget", env = "WAYFARER_LLM_BUDGET", value_delimiter = ',', value_name = "KEY=N")]
    pub llm_budget: Vec<String>,

    /// Folder where learning keeps, in one folder per bot, its tasks, question cache and event log [default:
    /// ~/.local/state/wayfarer/checkpoint]
    #[arg(long, env = "WAYFARER_CHECKPOINT", value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,

    /// Team role: `leader` makes the first bot lead the others (and any --worker) on `!team GOAL` [default: none]
    #[arg(long, env = "WAYFARER_ROLE", value_name = "leader|worker")]
    pub role: Option<TeamRole>,

    /// A bot whose assignments these bots take, as they take their owners' commands
    #[arg(long, env = "WAYFARER_LEADER", value_name = "BOT")]
    pub leader: Option<String>,

    /// A bot of another process that this leader hands work to; repeat for several (env: comma-separated)
    #[arg(long = "worker", env = "WAYFARER_WORKERS", value_delimiter = ',', value_name = "BOT")]
    pub workers: Vec<String>,

    /// Keep no memory stream (what the bot saw, heard and did; `!recall`) [default: kept, per bot, in the checkpoint
    /// folder]
    #[arg(long, env = "WAYFARER_NO_MEMORY")]
    pub no_memory: bool,

    /// Let the LLM plan and write the code of every goal the game's facts do not cover, even those whose words say
    /// what to do (`build a wall of cobblestone 3 long and 2 high`, `put 4 planks into the chest`): to measure a
    /// model alone [default: such goals are planned from their words]
    #[arg(long, env = "WAYFARER_NO_PLAN_FROM_WORDS")]
    pub no_plan_from_words: bool,

    /// Serve the live dashboard (a web page to watch and command the bots) at IP:PORT, e.g. 127.0.0.1:8080; any
    /// address other than loopback needs a token (WAYFARER_DASHBOARD_TOKEN, or one is made and printed at start)
    #[arg(long, env = "WAYFARER_DASHBOARD", value_name = "IP:PORT")]
    pub dashboard: Option<String>,

    /// The dashboard's token (read from the environment only, so it stays out of the process list)
    #[arg(skip = std::env::var("WAYFARER_DASHBOARD_TOKEN").ok())]
    pub dashboard_token: Option<String>,

    /// API key for the endpoint (read from the environment only)
    #[arg(skip = std::env::var("OPENAI_API_KEY").ok())]
    pub llm_key: Option<String>,

    /// Configuration file [default: ./wayfarer.toml when it exists]
    #[arg(long, short, env = "WAYFARER_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
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

    /// Configuration file (for skills_dir and models_dir) [default: ./wayfarer.toml when it exists]
    #[arg(long, short, global = true, env = "WAYFARER_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub action: SkillsAction,
}

impl From<RunArgs> for Overrides {
    fn from(args: RunArgs) -> Self {
        Overrides {
            server: args.server,
            username: args.username,
            auth: args.auth,
            owners: args.owners,
            bots: args.bots,
            prefix: args.prefix,
            reply: args.reply,
            scripts: args.scripts,
            skills: args.skills,
            models: args.models,
            llm_url: args.llm_url,
            llm_model: args.llm_model,
            llm_key: args.llm_key,
            llm_budget: args.llm_budget,
            checkpoint: args.checkpoint,
            role: args.role,
            leader: args.leader,
            workers: args.workers,
            no_memory: args.no_memory,
            no_plan_from_words: args.no_plan_from_words,
            dashboard: args.dashboard,
            dashboard_token: args.dashboard_token,
            config: args.config,
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}

/// Runs one parsed command line to completion.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        CliCommand::Run(args) => {
            let config = Config::resolve(args.into())?;
            runtime()?.block_on(super::run(config))?;
            Ok(())
        }
        CliCommand::Learn(args) => {
            let iterations = args.max_iterations.unwrap_or(crate::agent::learn::DEFAULT_ITERATIONS);
            if iterations == 0 {
                anyhow::bail!("--max-iterations must be at least 1");
            }
            let config = Config::resolve(args.run.into())?;
            let runtime = runtime()?;
            runtime.block_on(super::learn(config, iterations))?;
            // Script threads and the swarm may still be winding down: the summary is out, so end here.
            runtime.shutdown_background();
            Ok(())
        }
        CliCommand::Skills(args) => {
            let config = Config::resolve(Overrides {
                skills: args.skills,
                models: args.models,
                config: args.config,
                ..Overrides::default()
            })?;
            super::skills_cli::run(&config, args.action)
        }
    }
}
