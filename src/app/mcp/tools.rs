//! The tools: their arguments (whose JSON schemas the caller's model reads) and what each does.
//!
//! The goal tools (`task`, `build`, `team`) follow their goal to the world's verdict, with progress notifications;
//! the others answer directly. Each takes an optional `bot`.

use std::{sync::Arc, time::Duration};

use rmcp::{
    Peer, RoleServer,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock, RequestMetaObject},
    schemars::{self, JsonSchema},
    tool, tool_router,
};
use serde::{Deserialize, Serialize};

use super::{
    MAX_WORDS, Server,
    follow::{self, Outcome, Progress, Until},
};
use crate::app::state::BotState;

/// The longest a goal tool follows its goal unless told otherwise.
const GOAL_WAIT: Duration = Duration::from_secs(60 * 60);
/// How long a walk, a skill run or a follow is followed to its end.
const WALK_WAIT: Duration = Duration::from_secs(30 * 60);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BotArg {
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskArgs {
    /// The goal in words, as a player would say it: "a stone pickaxe", "12 oak logs", "a 3 by 3 platform of dirt
    /// here", "put 8 cobblestone in the chest". Plain English works best; other languages are read too.
    pub goal: String,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
    /// Follow the goal to its end (default), sending progress; false returns as soon as the goal has its number.
    pub wait: Option<bool>,
    /// Start even though the bot is busy, ending what it does (default false: a busy bot is refused).
    pub replace: Option<bool>,
    /// The most seconds to follow the goal (default 3600); the goal goes on after that.
    pub timeout_s: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildArgs {
    /// A blueprint's name in the blueprint folder (the `blueprints` resources list them: "hut", "watchtower"), or a
    /// description in words ("a 5 by 5 cobblestone hut with a door and a flat roof"), drawn when no blueprint fits.
    pub what: String,
    /// Where the build's corner stands; beside the bot when left out.
    pub at: Option<Position>,
    /// The side the build's front faces (N, E, S or W; default S, as drawn).
    pub facing: Option<Side>,
    /// Only say what would be built (size, parts, materials, layers), placing nothing.
    pub preview: Option<bool>,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
    /// Follow the build to its end (default); false returns as soon as it has its goal number.
    pub wait: Option<bool>,
    /// Start even though the bot is busy, ending what it does (default false).
    pub replace: Option<bool>,
    /// The most seconds to follow the build (default 3600); it goes on after that.
    pub timeout_s: Option<u64>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
pub enum Side {
    N,
    E,
    S,
    W,
}

#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamArgs {
    /// The team's goal in words; the leader splits it into jobs for the workers.
    pub goal: String,
    /// The bot that leads (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
    /// Follow the team goal to its end (default); false returns as soon as it has its number.
    pub wait: Option<bool>,
    /// Start even though the leader is busy, ending what it does (default false: a busy bot is refused).
    pub replace: Option<bool>,
    /// The most seconds to follow it (default 3600).
    pub timeout_s: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LearnArgs {
    /// How many tasks to learn from (1 to 10000); the default is the curriculum's own (160).
    pub iterations: Option<u32>,
    /// Stop learning instead (what was learned is kept).
    pub stop: Option<bool>,
    /// Follow the learning to its end, each task it takes and how it went sent as progress, and answer with what was
    /// learned (default false: answer as soon as it has started).
    pub wait: Option<bool>,
    /// The most seconds to follow it (default 3600); the learning goes on after that.
    pub timeout_s: Option<u64>,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GotoArgs {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerArgs {
    /// A player's name, as the server shows it.
    pub player: String,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WordsArgs {
    /// The words.
    pub words: String,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// What the skill should do, in everyday words ("make a wooden pickaxe", "get food").
    pub query: String,
    /// How many skills to return (1 to 20, default 5).
    pub limit: Option<u32>,
    /// Which bot counts the call (the library is the same for all).
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunArgs {
    /// A skill's or script's name (`skills_search` finds skills; the `skills` resources list them).
    pub name: String,
    /// Its arguments, one word each.
    #[serde(default)]
    pub args: Vec<String>,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookArgs {
    /// How far to look, in blocks (4 to 48, default 16).
    pub radius: Option<u32>,
    /// Which bot (by its player name); the first bot of the process when left out.
    pub bot: Option<String>,
}

/// A tool's answer: a line a model reads first, then the details as JSON.
fn answer(ok: bool, summary: &str, details: &impl Serialize) -> CallToolResult {
    let json = serde_json::to_string_pretty(details).unwrap_or_default();
    let content = vec![ContentBlock::text(summary), ContentBlock::text(json)];
    if ok { CallToolResult::success(content) } else { CallToolResult::error(content) }
}

/// Why a bot cannot answer now.
fn not_connected(bot: &BotState) -> String {
    format!("{} is not connected now; try again when it is back", bot.name)
}

/// How long a goal tool follows its goal: to its end unless `wait` is false, at most `timeout_s`.
fn goal_until(wait: Option<bool>, timeout_s: Option<u64>) -> Until {
    Until::Goal { wait: wait.unwrap_or(true), most: timeout_s.map_or(GOAL_WAIT, Duration::from_secs) }
}

/// Words a tool passes on as part of a command line: one line, not empty, not too long.
fn words(what: &str, field: &str) -> Result<String, String> {
    let text = what.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Err(format!("{field} is empty"));
    }
    if text.chars().count() > MAX_WORDS || text.chars().any(char::is_control) {
        return Err(format!("{field} must be one line of at most {MAX_WORDS} characters"));
    }
    Ok(text)
}

/// What the bot is busy with, when it is: `task get 3 oak logs (goal #4: get 3 oak logs)`.
fn busy(bot: &BotState) -> Option<String> {
    let doing = bot.activity.describe();
    if doing == "idle" {
        return None;
    }
    let goal = crate::agent::goals::with(&bot.goals, |book| book.active().map(|g| (g.id, g.text.clone())));
    Some(match goal {
        Some((id, text)) => format!("{doing} (goal #{id}: {text})"),
        None => doing,
    })
}

/// The summary of a followed goal command.
fn goal_answer(bot: &str, outcome: &Outcome) -> CallToolResult {
    let said = outcome.said.join(" ");
    match (&outcome.goal, &outcome.question) {
        (Some(goal), _) if goal.finished() => {
            let reason = match goal.reason.as_deref() {
                Some(reason) if let Some(score) = &outcome.score => format!(": {reason}; the world shows {score}"),
                Some(reason) => format!(": {reason}"),
                None if let Some(score) = &outcome.score => {
                    format!(", {} of {} steps done; the world shows {score}", goal.done, goal.all)
                }
                None if goal.succeeded() => {
                    // The bot's last word on it is the world's verdict (`Built hut …: score 1.00 (…)`).
                    let last = outcome.said.last().map_or_else(String::new, |said| format!(" {said}"));
                    format!(", {} of {} steps done, each checked in the world.{last}", goal.done, goal.all)
                }
                None => String::new(),
            };
            let summary = format!("{bot}: goal #{} ({}) {}{reason}.", goal.id, goal.text, goal.status);
            answer(goal.succeeded(), &summary, outcome)
        }
        (Some(goal), _) => {
            let summary = format!(
                "{bot}: goal #{} ({}) is under way, {}/{} steps done; `status` and the goals resource follow it.",
                goal.id, goal.text, goal.done, goal.all
            );
            answer(true, &summary, outcome)
        }
        (None, Some(question)) => {
            answer(false, &format!("{bot} did not start it and asks: {question} Call again in other words."), outcome)
        }
        (None, None) if outcome.running => answer(true, &format!("{bot} is still at it: {said}"), outcome),
        (None, None) => answer(false, &format!("{bot} started no goal: {said}"), outcome),
    }
}

impl Server {
    /// The bot a call names, refusing a busy one for a goal unless `replace`.
    fn pick(&self, name: Option<&str>, goal: bool, replace: bool) -> Result<Arc<BotState>, String> {
        let bot = self.fleet.bot(name).inspect_err(|why| self.fleet.refused(None, why))?;
        if goal
            && !replace
            && let Some(doing) = busy(&bot)
        {
            let why =
                format!("{} is busy with {doing}. Call `stop` first, or call again with replace: true.", bot.name);
            self.fleet.refused(Some(&bot), &why);
            return Err(why);
        }
        Ok(bot)
    }

    /// The world's score of the build goal `goal` as the bot sees its site now: `score 1.00 (5 of 5 blocks right;
    /// 5 in the right state)`.
    async fn score(&self, bot: &Arc<BotState>, goal: &str) -> Option<String> {
        let goal = crate::agent::building::BuildGoal::parse(goal)?;
        let state = bot.clone();
        let scored = self.fleet.on_bots(move || {
            use crate::primitives::build;
            let handle = state.connected()?;
            let blueprint = build::blueprint(&handle, &goal.blueprint, goal.facing).ok()?;
            let blueprint = match goal.share {
                Some(share) => blueprint.share(share),
                None => blueprint,
            };
            let [x, y, z] = goal.origin;
            Some(build::score(&handle, &blueprint, azalea::BlockPos::new(x, y, z)).to_string())
        });
        scored.await.ok().flatten()
    }

    async fn carry_out(
        &self,
        bot: &Arc<BotState>,
        line: String,
        until: Until,
        meta: &RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<Outcome, String> {
        let mut progress = Progress::new(peer, meta.get_progress_token());
        follow::command(&self.fleet, bot, line, until, &mut progress).await
    }

    /// Says what `line` was answered, for the tools that answer directly.
    async fn say(
        &self,
        bot: &Arc<BotState>,
        line: String,
        until: Until,
        meta: &RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let outcome = self.carry_out(bot, line, until, meta, peer).await?;
        let said = outcome.said.join(" ");
        let summary = if said.is_empty() { format!("{} said nothing back.", bot.name) } else { said };
        Ok(answer(true, &summary, &outcome))
    }
}

#[tool_router(vis = "pub(super)")]
impl Server {
    #[tool(description = "Give a bot a goal in words and follow it to the world's verdict. The bot plans it from the \
        game's facts (an LLM only when the facts cannot), does each step, and the world checks every step: the \
        answer says whether the goal was completed, failed or stopped, and why. Progress notifications carry the \
        steps done and the step under way. Refused while the bot is busy, unless replace is true.")]
    async fn task(
        &self,
        Parameters(args): Parameters<TaskArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let goal = words(&args.goal, "goal")?;
        let bot = self.pick(args.bot.as_deref(), true, args.replace.unwrap_or(false))?;
        if let Some((asked, near)) = crate::agent::recipes::unknown_thing(&goal) {
            let why = format!(
                "the game has no item or block called \"{asked}\"; the nearest names are {}. Call again with the \
                 game's name.",
                near.join(", ")
            );
            self.fleet.refused(Some(&bot), &why);
            return Err(why);
        }
        let prefix = &self.fleet.shared.config.prefix;
        let until = goal_until(args.wait, args.timeout_s);
        let outcome = self.carry_out(&bot, format!("{prefix}task {goal}"), until, &meta, peer).await?;
        Ok(goal_answer(&bot.name, &outcome))
    }

    #[tool(
        description = "Build a blueprint (by name from the blueprint folder, or drawn from a description in words) \
        beside the bot or at a position, and follow it to the world's verdict: the answer gives the score the world \
        shows (blocks in place of all). With preview true, only says what would be built."
    )]
    async fn build(
        &self,
        Parameters(args): Parameters<BuildArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let what = words(&args.what, "what")?;
        let preview = args.preview.unwrap_or(false);
        let bot = self.pick(args.bot.as_deref(), !preview, args.replace.unwrap_or(false))?;
        let mut line = format!("{}build {what}", self.fleet.shared.config.prefix);
        if let Some(Position { x, y, z }) = args.at {
            line.push_str(&format!(" at {x} {y} {z}"));
        }
        if let Some(side) = args.facing {
            line.push_str(&format!(" facing {side:?}"));
        }
        if preview {
            line.push_str(" preview");
        }
        let mut outcome = self.carry_out(&bot, line, goal_until(args.wait, args.timeout_s), &meta, peer).await?;
        if preview {
            return Ok(answer(outcome.goal.is_none(), &outcome.said.join("\n"), &outcome));
        }
        if let Some(goal) = &outcome.goal {
            outcome.score = self.score(&bot, &goal.text).await;
        }
        Ok(goal_answer(&bot.name, &outcome))
    }

    #[tool(description = "Give a team goal to a bot that leads other bots: it splits the goal into jobs, hands them \
        to its workers over chat and follows them; the answer is the team goal's verdict.")]
    async fn team(
        &self,
        Parameters(args): Parameters<TeamArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let goal = words(&args.goal, "goal")?;
        let bot = self.pick(args.bot.as_deref(), true, args.replace.unwrap_or(false))?;
        let prefix = &self.fleet.shared.config.prefix;
        let until = goal_until(args.wait, args.timeout_s);
        let outcome = self.carry_out(&bot, format!("{prefix}team {goal}"), until, &meta, peer).await?;
        Ok(goal_answer(&bot.name, &outcome))
    }

    #[tool(description = "Start the bot learning on its own (the curriculum proposes tasks, the LLM writes skills, \
        the world judges them; needs an LLM), or stop it. Returns at once (`status` shows how far it got), or with \
        wait true follows it to its end: each task and the world's verdict on it as progress, then what was learned.")]
    async fn learn(
        &self,
        Parameters(args): Parameters<LearnArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let stop = args.stop.unwrap_or(false);
        let bot = self.pick(args.bot.as_deref(), !stop, false)?;
        let prefix = &self.fleet.shared.config.prefix;
        let line = match (stop, args.iterations) {
            (true, _) => format!("{prefix}learn stop"),
            (false, Some(n)) => format!("{prefix}learn start {n}"),
            (false, None) => format!("{prefix}learn start"),
        };
        if stop || !args.wait.unwrap_or(false) {
            return self.say(&bot, line, Until::Said, &meta, peer).await;
        }
        let most = args.timeout_s.map_or(GOAL_WAIT, Duration::from_secs);
        let outcome = self.carry_out(&bot, line, Until::Ends { most }, &meta, peer).await?;
        // The last word is the learning's own summary (`Learning done: 3 of 4 tasks done, 2 new skills …`).
        let last = outcome.said.last().cloned().unwrap_or_else(|| format!("{} said nothing back.", bot.name));
        let summary = match outcome.running {
            true => format!("{} is still learning after {} s; `status` follows it. {last}", bot.name, most.as_secs()),
            false => last.clone(),
        };
        Ok(answer(outcome.running || last.starts_with("Learning done"), &summary, &outcome))
    }

    #[tool(description = "What a bot is and does now: position, health, food, time of day, activity, what it \
        carries, monsters near it, its current goal with each step's progress, learning and team state.")]
    async fn status(&self, Parameters(args): Parameters<BotArg>) -> Result<CallToolResult, String> {
        let bot = self.fleet.bot(args.bot.as_deref())?;
        self.fleet.count(&bot, "status");
        let state = bot.clone();
        let view = self.fleet.on_bots(move || crate::app::dashboard::view::bot(&state)).await?;
        let mut json = serde_json::to_value(&view).unwrap_or_default();
        if let Some(fields) = json.as_object_mut() {
            // The code last run and the path's blocks are for the page's panels, not for a status.
            fields.remove("code");
            fields.remove("path");
        }
        let summary = match view.pos {
            Some([x, y, z]) => format!(
                "{} is at {x:.0} {y:.0} {z:.0}, health {:.0}/20, food {}/20, {}.",
                view.name, view.health, view.food, view.activity
            ),
            None => format!("{} is not connected now.", view.name),
        };
        Ok(answer(true, &summary, &json))
    }

    #[tool(description = "What a bot carries (item id and count) and what it wears and holds.")]
    async fn inventory(&self, Parameters(args): Parameters<BotArg>) -> Result<CallToolResult, String> {
        let bot = self.fleet.bot(args.bot.as_deref())?;
        self.fleet.count(&bot, "inventory");
        let state = bot.clone();
        let look = self.fleet.on_bots(move || {
            let handle = state.connected()?;
            let worn: std::collections::BTreeMap<&str, String> =
                crate::primitives::observe::worn(&handle).into_iter().collect();
            Some((handle.items(), worn))
        });
        let (items, worn) = look.await?.ok_or_else(|| not_connected(&bot))?;
        let carried: serde_json::Map<String, serde_json::Value> =
            items.iter().map(|(name, n)| (name.clone(), serde_json::json!(n))).collect();
        let details = serde_json::json!({ "items": carried, "worn": worn });
        Ok(answer(true, &crate::app::inventory_line(&items), &details))
    }

    #[tool(description = "Walk a bot to a block position and answer when it arrives (or why it could not).")]
    async fn goto(
        &self,
        Parameters(args): Parameters<GotoArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let line = format!("{}goto {} {} {}", self.fleet.shared.config.prefix, args.x, args.y, args.z);
        self.say(&bot, line, Until::Ends { most: WALK_WAIT }, &meta, peer).await
    }

    #[tool(description = "Walk a bot to a player it can see, and answer when it is there.")]
    async fn come(
        &self,
        Parameters(args): Parameters<PlayerArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let (state, player) = (bot.clone(), args.player.trim().to_owned());
        let seen = {
            let player = player.clone();
            self.fleet.on_bots(move || state.connected().and_then(|handle| handle.player_position(&player))).await
        };
        let at = azalea::BlockPos::from(seen?.ok_or_else(|| format!("{} cannot see {player} now", bot.name))?);
        let line = format!("{}goto {} {} {}", self.fleet.shared.config.prefix, at.x, at.y, at.z);
        self.say(&bot, line, Until::Ends { most: WALK_WAIT }, &meta, peer).await
    }

    #[tool(description = "Make a bot keep following a player until `stop` (returns at once).")]
    async fn follow(
        &self,
        Parameters(args): Parameters<PlayerArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let player = match words(&args.player, "player") {
            Ok(player) if !player.contains(' ') => player,
            _ => return Err("player is one player name".to_owned()),
        };
        let line = format!("{}follow {player}", self.fleet.shared.config.prefix);
        self.say(&bot, line, Until::Said, &meta, peer).await
    }

    #[tool(description = "Stop what a bot is doing: its goal (which then ends as stopped), a walk, learning.")]
    async fn stop(
        &self,
        Parameters(args): Parameters<BotArg>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let line = format!("{}stop", self.fleet.shared.config.prefix);
        self.say(&bot, line, Until::Said, &meta, peer).await
    }

    #[tool(description = "Ask a bot's memory stream what it remembers about something (places, chests, what \
        happened), most relevant first.")]
    async fn recall(
        &self,
        Parameters(args): Parameters<WordsArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let query = words(&args.words, "words")?;
        let line = format!("{}recall {query}", self.fleet.shared.config.prefix);
        self.say(&bot, line, Until::Said, &meta, peer).await
    }

    #[tool(description = "Tell a bot a fact to keep in its memory stream (\"the iron is in the chest by the door\").")]
    async fn remember(
        &self,
        Parameters(args): Parameters<WordsArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        let fact = words(&args.words, "words")?;
        let line = format!("{}remember {fact}", self.fleet.shared.config.prefix);
        self.say(&bot, line, Until::Said, &meta, peer).await
    }

    #[tool(description = "Search the skill library (skills the bots learned or were given) for what a skill \
        should do, in everyday words; nearest first with a score from 0 to 1. `run_skill` runs one.")]
    async fn skills_search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<CallToolResult, String> {
        let bot = self.fleet.bot(args.bot.as_deref())?;
        let query = words(&args.query, "query")?;
        self.fleet.count(&bot, &format!("skills_search {query}"));
        let limit = args.limit.unwrap_or(5).clamp(1, 20) as usize;
        let library = self.fleet.shared.skills.clone();
        let found = tokio::task::spawn_blocking(move || library.retrieve(&query, limit))
            .await
            .map_err(|_| "the skill search failed (see the log)".to_owned())?
            .map_err(|err| format!("the skill search failed: {err}"))?;
        let rows: Vec<serde_json::Value> = found
            .iter()
            .map(|m| {
                serde_json::json!({
                    "name": m.skill.name,
                    "signature": m.skill.signature(),
                    "description": m.skill.meta.description,
                    "score": (m.score * 100.0).round() / 100.0,
                })
            })
            .collect();
        let names: Vec<&str> = found.iter().map(|m| m.skill.name.as_str()).collect();
        let summary = if names.is_empty() {
            "The library has no skills yet.".to_owned()
        } else {
            format!("Nearest skills: {}.", names.join(", "))
        };
        Ok(answer(true, &summary, &rows))
    }

    #[tool(description = "Run a skill or script by name with its arguments, and answer when it ends with what it \
        returned or how it failed.")]
    async fn run_skill(
        &self,
        Parameters(args): Parameters<RunArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, String> {
        let bot = self.pick(args.bot.as_deref(), false, false)?;
        if args.args.iter().chain([&args.name]).any(|a| a.is_empty() || a.contains(char::is_whitespace)) {
            return Err("name and each of args are one word each".to_owned());
        }
        let line = format!("{}run {} {}", self.fleet.shared.config.prefix, args.name, args.args.join(" "));
        self.say(&bot, line.trim_end().to_owned(), Until::Ends { most: WALK_WAIT }, &meta, peer).await
    }

    #[tool(
        description = "What is near a bot: notable blocks (ores, chests, crafting tables, furnaces) with where the \
        nearest of each is and how many, the kinds of block around (logs, water, stone…), the creatures and players \
        in sight, the biome."
    )]
    async fn look_around(&self, Parameters(args): Parameters<LookArgs>) -> Result<CallToolResult, String> {
        let bot = self.fleet.bot(args.bot.as_deref())?;
        self.fleet.count(&bot, "look_around");
        let radius = args.radius.unwrap_or(16).clamp(4, 48);
        let state = bot.clone();
        let seen = self
            .fleet
            .on_bots_later(move || async move {
                use crate::primitives::observe;
                let handle = state.connected()?;
                let at = handle.position();
                // The nearest of each notable kind, with how many of it are in range.
                let mut blocks: Vec<(String, azalea::BlockPos, usize)> = Vec::new();
                for (name, p) in observe::notable_blocks(&handle, f64::from(radius), 400).await {
                    match blocks.iter_mut().find(|(n, ..)| *n == name) {
                        Some((.., count)) => *count += 1,
                        None => blocks.push((name, p, 1)),
                    }
                }
                let kinds = observe::block_kinds_near(&handle, radius as i32, 24).await;
                let near = |p: azalea::BlockPos| {
                    let d = at.distance_to(azalea::Vec3::new(p.x as f64 + 0.5, p.y as f64 + 0.5, p.z as f64 + 0.5));
                    (d * 10.0).round() / 10.0
                };
                Some(serde_json::json!({
                    "position": [at.x.floor() as i32, at.y.floor() as i32, at.z.floor() as i32],
                    "biome": observe::biome(&handle),
                    "notable": blocks.into_iter().map(|(name, p, count)| serde_json::json!({
                        "block": name, "nearest": [p.x, p.y, p.z], "distance": near(p), "count": count,
                    })).collect::<Vec<_>>(),
                    "blocks": kinds,
                    "entities": observe::entities_near(&handle, f64::from(radius), 24),
                    "players": handle.players_near(f64::from(radius)).into_iter().map(|(name, p)| serde_json::json!({
                        "name": name, "at": [p.x.floor() as i32, p.y.floor() as i32, p.z.floor() as i32],
                    })).collect::<Vec<_>>(),
                }))
            })
            .await?
            .ok_or_else(|| not_connected(&bot))?;
        let notable: Vec<&str> =
            seen["notable"].as_array().into_iter().flatten().filter_map(|b| b["block"].as_str()).collect();
        let summary = format!(
            "{} looks {radius} blocks around: {}.",
            bot.name,
            if notable.is_empty() { "nothing notable".to_owned() } else { notable.join(", ") }
        );
        Ok(answer(true, &summary, &seen))
    }
}
