//! The chat command grammar.
//!
//! A line is a command when its first word starts with the prefix (`!status`), or when its first word names a bot
//! and the second starts with the prefix (`Wayfarer_2 !come`, `Wayfarer_2: !come`, `@Wayfarer_2 !come`). Anything
//! else is ordinary chat and parses to `None`.

use std::fmt;

use crate::blueprint::{Facing, Share};

/// One command an owner can give, fully parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// List the commands, or show one command's usage.
    Help { topic: Option<String> },
    /// Report position, health, food, dimension, main inventory items and the current activity.
    Status,
    /// List everything in the inventory.
    Inventory,
    /// Walk to the player who gave the command.
    Come,
    /// Walk to a block position.
    Goto(Target),
    /// Keep walking after a player until stopped.
    Follow { player: String },
    /// Stop whatever the bot is doing.
    Stop,
    /// List the scripts `!run` knows.
    Scripts,
    /// Run a script by name, with words after the name as its `args`, or a skill with them as its arguments.
    Run { name: String, args: Vec<String> },
    /// List the skills, or find the ones nearest in meaning to a query.
    Skills { query: Option<String> },
    /// Plan a goal with the LLM and do it, step by step.
    Task { goal: String },
    /// Start learning on its own (for at most N tasks), or stop.
    Learn { start: bool, iterations: Option<usize> },
    /// LLM calls, tokens and estimated cost, per role and per task, for this bot and the process.
    Usage,
    /// A team goal for a leader to hand out, or the team's progress, or stopping every member.
    Team(TeamOrder),
    /// Lead this process's other bots (and the configured workers) from now on.
    Lead,
    /// The latest goals, with their status and progress.
    Goals,
    /// Abandon goal N, or the one under way (else the latest unfinished).
    GoalDrop { id: Option<u32> },
    /// Answer from memory: the memories that best fit the words, or where something was seen (`where …`).
    Recall { query: String },
    /// An owner's fact for the bot to remember.
    Remember { fact: String },
    /// Forget the memories holding every one of the words.
    Forget { words: String },
    /// Build a blueprint (by name, file or description), with its north-west bottom corner at a place and its front
    /// facing a side.
    /// `share` is one team member's part of it (`part 2/3`), which a leader hands out.
    Build { what: String, at: Option<Target>, facing: Option<Facing>, share: Option<Share>, preview: bool },
}

/// What `!team` asks of a leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamOrder {
    /// Plan `goal`, hand its work to the workers, and see it done.
    Goal(String),
    /// Each worker's assignment, last report and idle time.
    Status,
    /// Stop every member and end the goal.
    Stop,
}

/// One axis of a `!goto` target: an absolute block coordinate, or `~N` relative to the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coord {
    Absolute(i32),
    Relative(i32),
}

impl Coord {
    /// The block coordinate, given the bot's own block coordinate on this axis.
    pub fn resolve(self, own: i32) -> i32 {
        match self {
            Coord::Absolute(v) => v,
            Coord::Relative(d) => own.saturating_add(d),
        }
    }
}

/// A `!goto` target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub x: Coord,
    pub y: Coord,
    pub z: Coord,
}

/// What a command is called, how it is written, and what it does: the source of `!help` and usage hints.
#[derive(Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    /// Arguments after the name, e.g. `X Y Z`.
    pub args: &'static str,
    pub summary: &'static str,
}

/// Every command, in the order `!help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec { name: "help", args: "[COMMAND]", summary: "list commands, or show how to use one" },
    CommandSpec { name: "status", args: "", summary: "position, health, food, dimension, items, activity" },
    CommandSpec { name: "inventory", args: "", summary: "everything I carry" },
    CommandSpec { name: "come", args: "", summary: "walk to you" },
    CommandSpec { name: "goto", args: "X Y Z", summary: "walk to a block (~ for relative, e.g. ~5 ~ ~-3)" },
    CommandSpec { name: "follow", args: "PLAYER", summary: "keep following a player until !stop" },
    CommandSpec { name: "stop", args: "", summary: "stop what I am doing" },
    CommandSpec { name: "scripts", args: "", summary: "list the scripts I can run" },
    CommandSpec { name: "run", args: "SCRIPT|SKILL [ARGS...]", summary: "run a script or a skill, with arguments" },
    CommandSpec { name: "skills", args: "[WORDS...]", summary: "list my skills, or find the ones that fit the words" },
    CommandSpec {
        name: "task",
        args: "GOAL...",
        summary: "plan a goal with the LLM and do it (e.g. !task get a stone pickaxe)",
    },
    CommandSpec { name: "learn", args: "start [N] | stop", summary: "learn new skills on my own (N tasks), or stop" },
    CommandSpec { name: "usage", args: "", summary: "LLM calls, tokens and cost, per role and task" },
    CommandSpec {
        name: "team",
        args: "GOAL... | status | stop",
        summary: "a leader hands a goal's work to its workers; its progress; stop all",
    },
    CommandSpec { name: "lead", args: "", summary: "become the leader of this process's other bots" },
    CommandSpec { name: "goals", args: "", summary: "my latest goals, their status and progress" },
    CommandSpec { name: "goal", args: "drop [N]", summary: "abandon goal N, or the one under way" },
    CommandSpec { name: "recall", args: "WORDS...", summary: "what I remember about it (\"where …\" for places)" },
    CommandSpec {
        name: "remember",
        args: "FACT...",
        summary: "remember a fact (e.g. !remember the base is at 10 64 -20)",
    },
    CommandSpec { name: "forget", args: "WORDS...", summary: "forget the memories that hold all these words" },
    CommandSpec {
        name: "build",
        args: "NAME|FILE|WORDS... [at X Y Z] [facing N|E|S|W] [part K/N] [preview]",
        summary: "build a blueprint by name or file, or one that fits the words (e.g. !build hut at 10 64 -5); \
                  `preview` at the end says what it would build, placing nothing",
    },
];

/// A command line that was recognised as meant for the bots, with the bot it names (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Addressed {
    /// The bot named in front of the command; `None` means every bot.
    pub to: Option<String>,
    pub command: Result<Command, ParseError>,
}

impl Addressed {
    /// True if a bot called `bot_name` should act on this line.
    pub fn is_for(&self, bot_name: &str) -> bool {
        self.to.as_deref().is_none_or(|to| to.eq_ignore_ascii_case(bot_name))
    }
}

/// A line that looked like a command but is not a valid one. `Display` gives the one-line hint for chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Unknown { name: String, prefix: String },
    Usage { spec: &'static str, prefix: String, problem: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown { name, prefix } if name.is_empty() => {
                write!(f, "Which command? Try {prefix}help")
            }
            ParseError::Unknown { name, prefix } => write!(f, "Unknown command {prefix}{name}. Try {prefix}help"),
            ParseError::Usage { spec, prefix, problem } => {
                let spec = spec_named(spec).expect("usage errors name a known command");
                write!(f, "Usage: {}", usage(spec, prefix))?;
                if !problem.is_empty() {
                    write!(f, " ({problem})")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// `!goto X Y Z` for a spec and prefix.
pub fn usage(spec: &CommandSpec, prefix: &str) -> String {
    if spec.args.is_empty() { format!("{prefix}{}", spec.name) } else { format!("{prefix}{} {}", spec.name, spec.args) }
}

fn spec_named(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// Parses one chat line. Returns `None` for ordinary chat, which the bots ignore silently.
pub fn parse_line(line: &str, prefix: &str) -> Option<Addressed> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if let Some(name) = first.strip_prefix(prefix) {
        return Some(Addressed { to: None, command: parse_command(name, words.collect(), prefix) });
    }
    // `Bot !cmd`, `Bot: !cmd`, `@Bot !cmd`, `@Bot: !cmd`
    let to = first.strip_prefix('@').unwrap_or(first);
    let to = to.strip_suffix(':').unwrap_or(to);
    if !crate::config::is_player_name(to, 1) {
        return None;
    }
    let name = words.next()?.strip_prefix(prefix)?;
    Some(Addressed { to: Some(to.to_owned()), command: parse_command(name, words.collect(), prefix) })
}

fn parse_command(name: &str, args: Vec<&str>, prefix: &str) -> Result<Command, ParseError> {
    let Some(spec) = spec_named(name) else {
        return Err(ParseError::Unknown { name: name.to_owned(), prefix: prefix.to_owned() });
    };
    let usage_error =
        |problem: &str| ParseError::Usage { spec: spec.name, prefix: prefix.to_owned(), problem: problem.to_owned() };
    let no_args = |command: Command| {
        if args.is_empty() { Ok(command) } else { Err(usage_error("it takes no arguments")) }
    };
    match spec.name {
        "help" => match args.as_slice() {
            [] => Ok(Command::Help { topic: None }),
            [topic] => Ok(Command::Help { topic: Some(topic.strip_prefix(prefix).unwrap_or(topic).to_lowercase()) }),
            _ => Err(usage_error("one command at a time")),
        },
        "status" => no_args(Command::Status),
        "inventory" => no_args(Command::Inventory),
        "come" => no_args(Command::Come),
        "stop" => no_args(Command::Stop),
        "scripts" => no_args(Command::Scripts),
        "usage" => no_args(Command::Usage),
        "lead" => no_args(Command::Lead),
        "goals" => no_args(Command::Goals),
        "goal" => match args.as_slice() {
            [drop] if drop.eq_ignore_ascii_case("drop") => Ok(Command::GoalDrop { id: None }),
            [drop, n] if drop.eq_ignore_ascii_case("drop") => match n.trim_start_matches('#').parse::<u32>() {
                Ok(id) => Ok(Command::GoalDrop { id: Some(id) }),
                Err(_) => Err(usage_error(&format!("{n:?} is not a goal number (!goals lists them)"))),
            },
            _ => Err(usage_error("drop, or drop N")),
        },
        "team" => match args.as_slice() {
            [] => Err(usage_error("what is the goal?")),
            [word] if word.eq_ignore_ascii_case("status") => Ok(Command::Team(TeamOrder::Status)),
            [word] if word.eq_ignore_ascii_case("stop") => Ok(Command::Team(TeamOrder::Stop)),
            _ => Ok(Command::Team(TeamOrder::Goal(args.join(" ")))),
        },
        "run" => match args.split_first() {
            Some((name, rest)) if is_script_name(name) => {
                Ok(Command::Run { name: (*name).to_owned(), args: rest.iter().map(|a| (*a).to_owned()).collect() })
            }
            Some((name, _)) => Err(usage_error(&format!("{name:?} is not a script or skill name"))),
            None => Err(usage_error("which script or skill?")),
        },
        "skills" => Ok(Command::Skills { query: (!args.is_empty()).then(|| args.join(" ")) }),
        "recall" if args.is_empty() => Err(usage_error("about what?")),
        "recall" => Ok(Command::Recall { query: args.join(" ") }),
        "remember" if args.is_empty() => Err(usage_error("what should I remember?")),
        "remember" => Ok(Command::Remember { fact: args.join(" ") }),
        "forget" if args.is_empty() => Err(usage_error("which words? (forgetting everything is not a chat command)")),
        "forget" => Ok(Command::Forget { words: args.join(" ") }),
        "task" if args.is_empty() => Err(usage_error("what should I do?")),
        "task" => Ok(Command::Task { goal: args.join(" ") }),
        "learn" => match args.as_slice() {
            ["start"] => Ok(Command::Learn { start: true, iterations: None }),
            ["start", n] => match n.parse::<usize>() {
                Ok(n) if (1..=10_000).contains(&n) => Ok(Command::Learn { start: true, iterations: Some(n) }),
                _ => Err(usage_error(&format!("{n:?} is not a number of tasks (1 to 10000)"))),
            },
            ["stop"] => Ok(Command::Learn { start: false, iterations: None }),
            _ => Err(usage_error("start or stop")),
        },
        "build" => {
            let mut words = args.as_slice();
            // `preview` at the end: say what would be built, place nothing.
            let mut preview = false;
            if let [rest @ .., last] = words
                && last.eq_ignore_ascii_case("preview")
            {
                preview = true;
                words = rest;
            }
            let mut share = None;
            if let [rest @ .., key, part] = words
                && key.eq_ignore_ascii_case("part")
            {
                share = Some(part.parse::<Share>().map_err(|e| usage_error(&e))?);
                words = rest;
            }
            let mut facing = None;
            if let [rest @ .., key, side] = words
                && key.eq_ignore_ascii_case("facing")
            {
                facing = Some(side.parse::<Facing>().map_err(|e| usage_error(&e))?);
                words = rest;
            }
            let mut at = None;
            if let [rest @ .., key, x, y, z] = words
                && key.eq_ignore_ascii_case("at")
            {
                let coord = |s: &str| parse_coord(s).ok_or_else(|| usage_error(&format!("{s:?} is not a coordinate")));
                at = Some(Target { x: coord(x)?, y: coord(y)?, z: coord(z)? });
                words = rest;
            }
            // `at` before a number that is not three coordinates at the end is a slip, not a description.
            if at.is_none() && words.windows(2).any(|w| w[0].eq_ignore_ascii_case("at") && parse_coord(w[1]).is_some())
            {
                return Err(usage_error("at takes three coordinates (X Y Z), after the name and before facing"));
            }
            if words.is_empty() {
                return Err(usage_error("what should I build? (a blueprint's name, a file, or words)"));
            }
            Ok(Command::Build { what: words.join(" "), at, facing, share, preview })
        }
        "goto" => match args.as_slice() {
            [x, y, z] => {
                let coord = |s: &str| parse_coord(s).ok_or_else(|| usage_error(&format!("{s:?} is not a coordinate")));
                Ok(Command::Goto(Target { x: coord(x)?, y: coord(y)?, z: coord(z)? }))
            }
            _ => Err(usage_error("three coordinates")),
        },
        "follow" => match args.as_slice() {
            [player] if crate::config::is_player_name(player, 1) => {
                Ok(Command::Follow { player: (*player).to_owned() })
            }
            [player] => Err(usage_error(&format!("{player:?} is not a player name"))),
            _ => Err(usage_error("one player name")),
        },
        other => unreachable!("command {other} is in COMMANDS but has no parser"),
    }
}

/// Script names are file stems: letters, digits and `_`.
fn is_script_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `12`, `-4`, `~`, `~5`, `~-3`. Coordinates are whole blocks, within the world border (±30 million).
fn parse_coord(text: &str) -> Option<Coord> {
    const BORDER: i32 = 30_000_000;
    let (relative, digits) = match text.strip_prefix('~') {
        Some("") => return Some(Coord::Relative(0)),
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let value: i32 = digits.parse().ok().filter(|v: &i32| (-BORDER..=BORDER).contains(v))?;
    Some(if relative { Coord::Relative(value) } else { Coord::Absolute(value) })
}

/// The `!help` text: every command on one line, or one command's usage and summary.
pub fn help_text(topic: Option<&str>, prefix: &str) -> String {
    match topic {
        None => {
            let names: Vec<String> = COMMANDS.iter().map(|s| format!("{prefix}{}", s.name)).collect();
            format!(
                "Commands: {}. {prefix}help COMMAND for details; a bot's name first commands only that bot.",
                names.join(", ")
            )
        }
        Some(topic) => match spec_named(topic) {
            Some(spec) => format!("{}: {}", usage(spec, prefix), spec.summary),
            None => ParseError::Unknown { name: topic.to_owned(), prefix: prefix.to_owned() }.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Result<Command, ParseError> {
        parse_line(line, "!").expect("line is a command").command
    }

    #[test]
    fn ordinary_chat_is_not_a_command() {
        for line in ["", "hello there", "I said !status", "wow!", "Alice says hi", "x! status"] {
            assert_eq!(parse_line(line, "!"), None, "{line:?}");
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("!status"), Ok(Command::Status));
        assert_eq!(cmd("  !STATUS  "), Ok(Command::Status));
        assert_eq!(cmd("!inventory"), Ok(Command::Inventory));
        assert_eq!(cmd("!come"), Ok(Command::Come));
        assert_eq!(cmd("!stop"), Ok(Command::Stop));
        assert_eq!(cmd("!help"), Ok(Command::Help { topic: None }));
        assert_eq!(cmd("!help !goto"), Ok(Command::Help { topic: Some("goto".into()) }));
        assert_eq!(cmd("!follow Alice"), Ok(Command::Follow { player: "Alice".into() }));
        assert_eq!(cmd("!scripts"), Ok(Command::Scripts));
        assert_eq!(cmd("!usage"), Ok(Command::Usage));
        assert_eq!(
            cmd("!team make a  stone pickaxe"),
            Ok(Command::Team(TeamOrder::Goal("make a stone pickaxe".into())))
        );
        assert_eq!(cmd("!team Status"), Ok(Command::Team(TeamOrder::Status)));
        assert_eq!(cmd("!team stop"), Ok(Command::Team(TeamOrder::Stop)));
        assert_eq!(cmd("!team stop the zombies"), Ok(Command::Team(TeamOrder::Goal("stop the zombies".into()))));
        assert_eq!(cmd("!team").unwrap_err().to_string(), "Usage: !team GOAL... | status | stop (what is the goal?)");
        assert_eq!(cmd("!lead"), Ok(Command::Lead));
        assert_eq!(cmd("!goals"), Ok(Command::Goals));
        assert_eq!(cmd("!goal drop"), Ok(Command::GoalDrop { id: None }));
        assert_eq!(cmd("!goal drop #3"), Ok(Command::GoalDrop { id: Some(3) }));
        assert_eq!(
            cmd("!goal drop three").unwrap_err().to_string(),
            "Usage: !goal drop [N] (\"three\" is not a goal number (!goals lists them))"
        );
        assert_eq!(cmd("!goal").unwrap_err().to_string(), "Usage: !goal drop [N] (drop, or drop N)");
        assert_eq!(cmd("!usage now").unwrap_err().to_string(), "Usage: !usage (it takes no arguments)");
        assert_eq!(cmd("!skills"), Ok(Command::Skills { query: None }));
        assert_eq!(cmd("!task get a  stone pickaxe"), Ok(Command::Task { goal: "get a stone pickaxe".into() }));
        assert_eq!(cmd("!task").unwrap_err().to_string(), "Usage: !task GOAL... (what should I do?)");
        assert_eq!(cmd("!learn start 3"), Ok(Command::Learn { start: true, iterations: Some(3) }));
        assert_eq!(cmd("!learn stop"), Ok(Command::Learn { start: false, iterations: None }));
        assert_eq!(cmd("!learn").unwrap_err().to_string(), "Usage: !learn start [N] | stop (start or stop)");
        assert!(cmd("!learn start lots").unwrap_err().to_string().contains("not a number of tasks"));
        assert_eq!(
            cmd("!skills  make a   stone pick"),
            Ok(Command::Skills { query: Some("make a stone pick".into()) })
        );
        assert_eq!(cmd("!run get_wood"), Ok(Command::Run { name: "get_wood".into(), args: vec![] }));
        assert_eq!(
            cmd("!run dig 3 dirt"),
            Ok(Command::Run { name: "dig".into(), args: vec!["3".into(), "dirt".into()] })
        );
    }

    #[test]
    fn build_takes_a_name_or_words_then_a_place_and_a_side() {
        let at = |x, y, z| Some(Target { x: Coord::Absolute(x), y: Coord::Absolute(y), z: Coord::Absolute(z) });
        assert_eq!(
            cmd("!build hut"),
            Ok(Command::Build { what: "hut".into(), at: None, facing: None, share: None, preview: false })
        );
        assert_eq!(
            cmd("!build hut at 10 64 -5 facing w"),
            Ok(Command::Build {
                what: "hut".into(),
                at: at(10, 64, -5),
                facing: Some(Facing::West),
                share: None,
                preview: false
            })
        );
        assert_eq!(
            cmd("!build a small cobblestone hut with a door facing North"),
            Ok(Command::Build {
                what: "a small cobblestone hut with a door".into(),
                at: None,
                facing: Some(Facing::North),
                share: None,
                preview: false,
            })
        );
        assert_eq!(
            cmd("!build tower.nbt at ~2 ~ ~"),
            Ok(Command::Build {
                what: "tower.nbt".into(),
                at: Some(Target { x: Coord::Relative(2), y: Coord::Relative(0), z: Coord::Relative(0) }),
                facing: None,
                share: None,
                preview: false,
            })
        );
        assert_eq!(
            cmd("!build a tower at the lake"),
            Ok(Command::Build {
                what: "a tower at the lake".into(),
                at: None,
                facing: None,
                share: None,
                preview: false
            })
        );
        assert_eq!(
            cmd("!build two_storey_house at 4 64 -4 facing south part 2/3"),
            Ok(Command::Build {
                what: "two_storey_house".into(),
                at: at(4, 64, -4),
                facing: Some(Facing::South),
                share: Some(Share { index: 2, of: 3 }),
                preview: false,
            })
        );
        assert_eq!(
            cmd("!build a spruce dock 5 by 7 at 1 64 1 preview"),
            Ok(Command::Build {
                what: "a spruce dock 5 by 7".into(),
                at: at(1, 64, 1),
                facing: None,
                share: None,
                preview: true,
            })
        );
        let usage = |line: &str| cmd(line).unwrap_err().to_string();
        assert!(usage("!build hut part 4/3").contains("not a share"), "{}", usage("!build hut part 4/3"));
        assert!(usage("!build").contains("what should I build?"));
        assert!(usage("!build hut at 10 64").contains("three coordinates"), "{}", usage("!build hut at 10 64"));
        assert!(usage("!build hut facing up").contains("N, E, S or W"));
        assert!(
            usage("!build hut at 1 2 x").contains("three coordinates")
                || usage("!build hut at 1 2 x").contains("not a coordinate")
        );
    }

    #[test]
    fn goto_takes_absolute_and_relative_coordinates() {
        let target = Target { x: Coord::Absolute(10), y: Coord::Relative(0), z: Coord::Relative(-3) };
        assert_eq!(cmd("!goto 10 ~ ~-3"), Ok(Command::Goto(target)));
        assert_eq!(Coord::Relative(-3).resolve(5), 2);
        assert_eq!(Coord::Absolute(-3).resolve(5), -3);
    }

    #[test]
    fn malformed_commands_give_usage_lines() {
        assert_eq!(cmd("!goto 1 two 3").unwrap_err().to_string(), "Usage: !goto X Y Z (\"two\" is not a coordinate)");
        assert_eq!(cmd("!goto 1 2").unwrap_err().to_string(), "Usage: !goto X Y Z (three coordinates)");
        assert_eq!(cmd("!goto 1 2 99999999999").unwrap_err().to_string().lines().count(), 1);
        assert_eq!(cmd("!goto 1.5 2 3").unwrap_err().to_string(), "Usage: !goto X Y Z (\"1.5\" is not a coordinate)");
        assert_eq!(cmd("!status now").unwrap_err().to_string(), "Usage: !status (it takes no arguments)");
        assert_eq!(cmd("!follow").unwrap_err().to_string(), "Usage: !follow PLAYER (one player name)");
        assert_eq!(cmd("!follow a-b").unwrap_err().to_string(), "Usage: !follow PLAYER (\"a-b\" is not a player name)");
        assert_eq!(cmd("!dance").unwrap_err().to_string(), "Unknown command !dance. Try !help");
        assert_eq!(cmd("!run").unwrap_err().to_string(), "Usage: !run SCRIPT|SKILL [ARGS...] (which script or skill?)");
        assert_eq!(
            cmd("!run ../x").unwrap_err().to_string(),
            "Usage: !run SCRIPT|SKILL [ARGS...] (\"../x\" is not a script or skill name)"
        );
        assert_eq!(cmd("!").unwrap_err().to_string(), "Which command? Try !help");
    }

    #[test]
    fn memory_commands_take_free_words() {
        assert_eq!(cmd("!recall where is iron"), Ok(Command::Recall { query: "where is iron".into() }));
        assert_eq!(
            cmd("!remember the base is at 10 64 -20"),
            Ok(Command::Remember { fact: "the base is at 10 64 -20".into() })
        );
        assert_eq!(cmd("!forget old base"), Ok(Command::Forget { words: "old base".into() }));
        assert_eq!(cmd("!recall").unwrap_err().to_string(), "Usage: !recall WORDS... (about what?)");
        assert!(cmd("!forget").unwrap_err().to_string().contains("forgetting everything is not a chat command"));
        assert!(cmd("!remember").unwrap_err().to_string().starts_with("Usage: !remember FACT..."));
    }

    #[test]
    fn addressed_commands_name_one_bot() {
        for line in ["Wayfarer_2 !come", "Wayfarer_2: !come", "@Wayfarer_2 !come", "@wayfarer_2: !come"] {
            let parsed = parse_line(line, "!").unwrap();
            assert_eq!(parsed.command, Ok(Command::Come), "{line}");
            assert!(parsed.is_for("Wayfarer_2"), "{line}");
            assert!(!parsed.is_for("Wayfarer_1"), "{line}");
        }
        assert!(parse_line("!come", "!").unwrap().is_for("anyone"));
        // A name followed by ordinary chat is not a command.
        assert_eq!(parse_line("Wayfarer_2 come here", "!"), None);
    }

    #[test]
    fn custom_prefix() {
        assert_eq!(parse_line("#status", "#").unwrap().command, Ok(Command::Status));
        assert_eq!(parse_line("!status", "#"), None);
        assert_eq!(parse_line("wf:status", "wf:").unwrap().command, Ok(Command::Status));
        assert_eq!(cmd_with("#goto", "#").unwrap_err().to_string(), "Usage: #goto X Y Z (three coordinates)");
    }

    fn cmd_with(line: &str, prefix: &str) -> Result<Command, ParseError> {
        parse_line(line, prefix).unwrap().command
    }

    #[test]
    fn help_lists_every_command_within_one_chat_line() {
        let text = help_text(None, "!");
        assert!(text.chars().count() <= super::super::MAX_CHAT_LEN, "{}", text.len());
        for spec in COMMANDS {
            assert!(text.contains(&format!("!{}", spec.name)));
            assert!(help_text(Some(spec.name), "!").starts_with(&format!("!{}", spec.name)));
        }
        assert_eq!(help_text(Some("dance"), "!"), "Unknown command !dance. Try !help");
    }
}
