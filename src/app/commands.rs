//! Carrying out owners' chat commands on one bot, and answering them.
//!
//! Quick commands answer at once; movements run as the bot's [`Activity`] so `!stop` (or the next movement) can end
//! them, and they answer again when they finish.

use std::{
    collections::BTreeMap,
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use azalea::{BlockPos, Vec3};

use super::{
    activity::Activity,
    memory,
    reply::Replier,
    state::BotState,
    team,
    work::{abandon_learning, begin, run_script, start_learning, start_task},
};
use crate::{
    agent::{
        act,
        goals::{self, Status},
        translate::{self, Kind, TranslateError},
        vocab,
    },
    bot::{BotHandle, MAX_AIR, fmt_pos},
    chat::{Command, TeamOrder, help_in, label},
    config::Lang,
    llm::{Role, Tally, Usage, budget::counted},
};

/// How many item kinds `!status` lists before summarising the rest.
const STATUS_ITEMS: usize = 5;
/// How many goals `!goals` lists.
const GOALS_LISTED: usize = 5;
/// How many skills `!skills WORDS` shows.
const SKILL_MATCHES: usize = 5;
/// How close `!come` and `!follow` get to the player.
const NEAR_PLAYER: f32 = 2.0;
/// How often `!follow` looks where its player went.
const FOLLOW_POLL: Duration = Duration::from_millis(250);

/// Runs `command`, given by `speaker`, on `bot`. A command that starts an activity ends the one before it, and any
/// learning the bot was doing.
pub fn execute(bot: BotHandle, state: &Arc<BotState>, speaker: &str, command: Command) {
    let reply = state.shared.replier(bot.clone(), speaker);
    execute_answering(bot, state, speaker, command, reply)
}

/// [`execute`], answering through `reply` (an MCP caller's, which also hears every answer).
pub fn execute_answering(bot: BotHandle, state: &Arc<BotState>, speaker: &str, command: Command, reply: Replier) {
    let prefix = &state.shared.config.prefix;
    tracing::info!("{} obeys {speaker}: {command:?}", bot.name());
    match command {
        Command::Help { topic } => reply.say(&help_in(topic.as_deref(), prefix, reply.lang())),
        Command::Status => {
            let waiting = state.llm.as_ref().and_then(|llm| llm.waiting());
            let line = status_line(&bot, &state.activity, waiting.as_deref(), reply.lang());
            reply.say(&match state.shared.store_link.status() {
                Some(store) => format!("{line} {store}"),
                None => line,
            })
        }
        Command::Usage => reply.say(&match &state.llm {
            None if state.mcp_calls.load(Ordering::Relaxed) > 0 => format!(
                "I have no LLM configured, so I have used none. MCP: {} tool calls.",
                state.mcp_calls.load(Ordering::Relaxed)
            ),
            Some(llm) => {
                let used = usage_text(
                    &llm.tally(),
                    &llm.process_tally(),
                    &|usage| llm.cost(usage),
                    state.shared.bot_names.len(),
                );
                let used = match crate::agent::act::CHECKS.line() {
                    Some(checks) => format!("{used} {checks}"),
                    None => used,
                };
                match state.mcp_calls.load(Ordering::Relaxed) {
                    0 => used,
                    1 => format!("{used} MCP: 1 tool call."),
                    n => format!("{used} MCP: {n} tool calls."),
                }
            }
            None => "I have no LLM configured, so I have used none.".to_owned(),
        }),
        Command::Inventory => reply.say(&inventory_line(&bot.items())),
        Command::Stop => {
            state.stops.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let learning = abandon_learning(state, &format!("stopped by {speaker}"));
            state.stop_goal(&format!("stopped by {speaker}"));
            let stopped = state.activity.cancel();
            bot.stop_all();
            // Learning names its current task as the activity; what ended is the learning, whatever task it was on.
            reply.say(&match stopped {
                _ if learning => "Stopped learning; what I learned is kept.".to_owned(),
                Some(label) => format!("Stopped {label}."),
                None => "I wasn't doing anything.".to_owned(),
            });
        }
        Command::Goto(target) => {
            let own = BlockPos::from(bot.position());
            let block = BlockPos::new(target.x.resolve(own.x), target.y.resolve(own.y), target.z.resolve(own.z));
            let label = format!("going to {} {} {}", block.x, block.y, block.z);
            let distance =
                bot.position().distance_to(Vec3::new(block.x as f64 + 0.5, block.y as f64, block.z as f64 + 0.5));
            reply.say(&format!("Going to {} {} {} ({distance:.0} blocks away).", block.x, block.y, block.z));
            let answer = reply.clone();
            let label_for_log = label.clone();
            begin(state, &reply, label.clone(), label, async move {
                // A reflex (eating, a monster) interrupts the walk, which carries on afterwards.
                match bot.between_reflexes(&label_for_log, || bot.goto_block(block)).await {
                    Ok(()) => answer.say(&format!("Arrived at {} {} {}.", block.x, block.y, block.z)),
                    Err(err) => answer.say(&format!("{err}.")),
                }
            });
        }
        Command::Come => come(bot, state, &reply, speaker),
        Command::Scripts => {
            let names = state.shared.scripts.names();
            reply.say(&if names.is_empty() {
                format!("No scripts yet: put NAME.rhai files in {}.", state.shared.scripts.dir().display())
            } else {
                format!("Scripts: {}. Run one with {prefix}run NAME.", names.join(", "))
            });
        }
        Command::Run { name, args } => run_script(bot, state, reply, name, args),
        Command::Skills { query: None } => {
            let skills = state.shared.skills.list();
            reply.say(&if skills.is_empty() {
                format!("No skills yet: put NAME.rhai + NAME.json files in {}.", state.shared.skills.dir().display())
            } else {
                let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
                format!(
                    "Skills ({}): {}. Find one with {prefix}skills WORDS, run one with {prefix}run NAME.",
                    names.len(),
                    names.join(", ")
                )
            });
        }
        // `come here`, `come over to me`: the walk `!come` makes.
        Command::Task { goal } if act::walks_to_speaker(&goal) => come(bot, state, &reply, speaker),
        Command::Task { goal } => {
            let from_leader =
                state.shared.takes_orders_from(&state.name, speaker) && !state.shared.owners.contains(speaker);
            let (me, answer, speaker) = (state.clone(), reply.clone(), speaker.to_owned());
            with_english_goal(state, reply, "task", goal, move |goal| {
                // `toss me 8 cobble`: handed to the one who asked, named, so the world is asked about them.
                let goal = match act::handed_to_speaker(&goal, &speaker) {
                    Some(named) => {
                        answer.say(&format!("Understood: {named}"));
                        named
                    }
                    None => goal,
                };
                start_task(bot, &me, answer, goal, from_leader)
            });
        }
        Command::Lead => {
            state.shared.set_leader(&state.name);
            let workers: Vec<String> = team::members(state).into_iter().skip(1).collect();
            reply.say(&if workers.is_empty() {
                "I lead now, but there is no one to lead: run more bots with --bots N, or name other processes' bots \
                 with --worker NAME."
                    .to_owned()
            } else {
                format!("I lead {} now. Give me a goal with {prefix}team GOAL.", workers.join(", "))
            });
        }
        Command::Goals => reply.say(&goals::with(&state.goals, |book| book.list_text(GOALS_LISTED))),
        Command::GoalDrop { id } => {
            let dropped = goals::with(&state.goals, |book| {
                let id = book.droppable(id)?;
                let running = book.active().is_some_and(|g| g.id == id);
                book.finish(id, Status::Dropped, Some(format!("dropped by {speaker}")));
                Ok::<_, String>((id, book.get(id).map(|g| g.text.clone()).unwrap_or_default(), running))
            });
            match dropped {
                Ok((id, text, running)) => {
                    if running {
                        state.activity.cancel();
                        bot.stop_all();
                    }
                    reply.say(&format!("Dropped goal #{id}: {text}."));
                }
                Err(why) => reply.say(&format!("{why}.")),
            }
        }
        Command::Recall { query } => {
            let state = state.clone();
            tokio::task::spawn_local(async move {
                let query = english_words(&state, &query).await;
                memory::recall(bot, state, reply, query).await
            });
        }
        Command::Remember { fact } => {
            tokio::task::spawn_local(memory::remember(bot, state.clone(), reply, speaker.to_owned(), fact));
        }
        Command::Forget { words } => {
            tokio::task::spawn_local(memory::forget(state.clone(), reply, words));
        }
        Command::Build { what, at, facing, share, preview } => {
            let from_leader =
                state.shared.takes_orders_from(&state.name, speaker) && !state.shared.owners.contains(speaker);
            let order = super::build::Order { at, facing: facing.unwrap_or_default(), share, from_leader, preview };
            // Words that describe a build, in another language, are searched and drawn from their English.
            let described = what.split_whitespace().count() > 1 && !what.contains(['/', '\\', '.']);
            if !described || !translate::is_foreign(&what) {
                return super::build::start(bot, state, reply, what, order);
            }
            let state = state.clone();
            tokio::task::spawn_local(async move {
                let english = english_words(&state, &what).await;
                if english != what {
                    reply.say(&format!("Understood: {english}"));
                }
                super::build::start(bot, &state, reply, english, order)
            });
        }
        Command::Team(TeamOrder::Goal(goal)) => {
            let (me, answer) = (state.clone(), reply.clone());
            with_english_goal(state, reply, "team", goal, move |goal| team::start(bot, &me, answer, goal));
        }
        Command::Team(TeamOrder::Status) => reply.say(&team::status(state)),
        Command::Team(TeamOrder::Stop) => {
            if state.team().is_none() {
                reply.say("I am not leading a team now.");
            } else {
                state.stop_goal(&format!("the team goal was stopped by {speaker}"));
                state.activity.cancel();
                bot.stop_all();
                reply.say("Stopped the team goal; I told every member still at work to stop.");
            }
        }
        Command::Learn { start: true, iterations } => {
            let iterations = iterations.unwrap_or(crate::agent::learn::DEFAULT_ITERATIONS);
            start_learning(bot, state, speaker, iterations, reply.tap())
        }
        Command::Learn { start: false, .. } => {
            if abandon_learning(state, &format!("stopped by {speaker}")) {
                state.activity.cancel();
                bot.stop_all();
                reply.say("Stopped learning; what I learned is kept.");
            } else {
                reply.say(&format!("I was not learning; I am {}.", state.activity.describe()));
            }
        }
        Command::Skills { query: Some(query) } => {
            let (skills, state) = (state.shared.skills.clone(), state.clone());
            tokio::task::spawn_local(async move {
                let asked = english_words(&state, &query).await;
                let found = tokio::task::spawn_blocking(move || skills.retrieve(&asked, SKILL_MATCHES)).await;
                reply.say(&match found {
                    Ok(Ok(found)) if found.is_empty() => "I have no skills yet.".to_owned(),
                    Ok(Ok(found)) => {
                        let listed: Vec<String> =
                            found.iter().map(|m| format!("{} {:.2}", m.skill.signature(), m.score)).collect();
                        format!("Skills for \"{query}\": {}", listed.join(", "))
                    }
                    Ok(Err(err)) => sentence(&err.to_string()),
                    Err(_) => "The skill search failed (see the log).".to_owned(),
                });
            });
        }
        Command::Follow { player } => {
            let seen = bot.player_position(&player).is_some();
            reply.say(&if seen {
                format!("Following {player}. Say {prefix}stop to stop.")
            } else {
                format!("I can't see {player} yet; I'll follow once they are in view. Say {prefix}stop to stop.")
            });
            let label = format!("following {player}");
            begin(state, &reply, label.clone(), label, follow(bot, player));
        }
    }
}

/// What an owner can write as an English goal, for the hint when theirs cannot be read.
fn english_example(prefix: &str, command: &str) -> String {
    format!("{prefix}{command} craft 1 wooden_pickaxe")
}

/// Reads `goal` as English (one LLM call the first time, none after), says what it understood, then calls `start`
/// with the English goal. An English goal goes straight to `start`. When it cannot be read, says why and how to say
/// it in English, in the owner's language; a `!stop` while it is read cancels the start.
/// Walks to `speaker` (`!come`), within reach of them.
fn come(bot: BotHandle, state: &Arc<BotState>, reply: &Replier, speaker: &str) {
    let Some(position) = bot.player_position(speaker) else {
        let prefix = &state.shared.config.prefix;
        reply.say(&format!("I can't see you, {speaker}. Tell me where with {prefix}goto X Y Z."));
        return;
    };
    let speaker = speaker.to_owned();
    let label = format!("coming to {speaker}");
    let answer = reply.clone();
    let label_for_log = label.clone();
    begin(state, reply, label.clone(), label, async move {
        match bot.between_reflexes(&label_for_log, || bot.goto_near(position, NEAR_PLAYER)).await {
            Ok(()) => answer.say(&format!("I'm here, {speaker}.")),
            Err(err) => answer.say(&format!("{err}.")),
        }
    });
}

/// Whether English `goal` reads whole, or leaves only `all` of a thing to count (`place coal into the chest`, read
/// from `mets le charbon dans le coffre`: all the coal carried, counted when the goal starts).
fn reads_whole(goal: &str) -> bool {
    match act::reading_of(goal) {
        Ok(_) => true,
        Err(unread) => unread.partial.is_some() && unread.words == ["all"],
    }
}

pub fn with_english_goal(
    state: &Arc<BotState>,
    reply: Replier,
    command: &'static str,
    goal: String,
    start: impl FnOnce(String) + 'static,
) {
    // Words of another language the vocabulary reads in full, into a change of the world the reader reads in full:
    // no LLM (`dat 4 khoi dat thanh mot hang` passes for English with the language reading, being plain letters).
    // Words the English reader reads whole are English, whatever single word looks foreign (`yo toss dave 16 cobble`).
    let english = act::reading_of(&goal).is_ok();
    let foreign = (!english).then(|| vocab::foreign(&goal, act::is_game_id)).flatten();
    if let Some(read) = foreign.as_ref().filter(|w| w.unknown.is_empty())
        && let english = read.text()
        && reads_whole(&english)
    {
        tracing::info!("{}: {goal:?} read in {} from the vocabulary as {english:?}", state.name, read.lang.name());
        reply.say(&format!("Understood: {english}"));
        return start(english);
    }
    if english || !translate::is_foreign(&goal) {
        return start(goal);
    }
    let said = foreign.map(|w| vocab::kept(&w)).unwrap_or_default();
    let state = state.clone();
    let stops = state.stops.load(Ordering::SeqCst);
    tokio::task::spawn_local(async move {
        let read = state.shared.translations.english(state.llm.as_deref(), Kind::Goal, &goal).await;
        let example = english_example(&state.shared.config.prefix, command);
        match read {
            Ok(english) => {
                if state.stops.load(Ordering::SeqCst) != stops {
                    tracing::info!(
                        "{}: {goal:?} was read as {:?} after a !stop; not starting it",
                        state.name,
                        english.text
                    );
                    return;
                }
                // Every number the owner wrote is in the English, an "all" they wrote and the deed their verb asks, or
                // the goal is not started (`doce` read as 10; `把沙子都挖掉` read as `mine the sand`, one sand; `stell
                // ne werkbank …` read as `craft crafting_table …`).
                let read = vocab::kept(&vocab::words(&english.text, Lang::En, act::is_game_id));
                if let Some(lost) = said.iter().find(|n| !read.contains(n)) {
                    let lost = if lost.parse::<u32>().is_ok() { lost.clone() } else { format!("\"{lost}\"") };
                    reply.say(&format!(
                        "I read \"{goal}\" as \"{}\", which leaves out the {lost} you wrote, so I did not start it. \
                         Say it again in other words, like: {example}",
                        english.text
                    ));
                    return;
                }
                reply.say(&format!("Understood: {}", english.text));
                start(english.text);
            }
            Err(TranslateError::NoLlm) => reply
                .say(&format!("I can read goals only in English without an LLM. Say it in English, like: {example}")),
            Err(why) => {
                reply.say(&format!("I could not understand \"{goal}\": {why}. Say it in English, like: {example}"))
            }
        }
    });
}

/// `words` (a skill search, a question to memory) in English: as they are when they are English or cannot be read
/// (the search then goes by the words themselves), else their kept or new translation.
pub async fn english_words(state: &BotState, words: &str) -> String {
    if !translate::is_foreign(words) {
        return words.to_owned();
    }
    match state.shared.translations.english(state.llm.as_deref(), Kind::Words, words).await {
        Ok(english) => {
            tracing::info!("{}: searching {words:?} as {:?}", state.name, english.text);
            english.text
        }
        Err(why) => {
            tracing::info!("{}: searching {words:?} as written ({why})", state.name);
            words.to_owned()
        }
    }
}

/// Keeps within reach of `player` until the activity is ended.
async fn follow(bot: BotHandle, player: String) {
    let mut heading_for: Option<Vec3> = None;
    loop {
        if let Some(target) = bot.player_position(&player) {
            let far = bot.position().distance_to(target) > f64::from(NEAR_PLAYER) + 1.0;
            let moved = heading_for.is_none_or(|goal| goal.distance_to(target) > 1.5);
            if far && moved {
                bot.start_toward(target, NEAR_PLAYER);
                heading_for = Some(target);
            } else if !far {
                heading_for = None;
            }
        }
        tokio::time::sleep(FOLLOW_POLL).await;
    }
}

/// `At 0.5 64.0 0.5 in overworld, day 0 07:00 | health 20/20, food 20/20 | carrying 3 dirt | idle`, with the air
/// when the bot is short of breath, `night` at night, the nearest monsters when there are any, and what the LLM
/// call under way waits for (`waiting`); its words in `lang` (ids, numbers and the activity as they are).
pub fn status_line(bot: &BotHandle, activity: &Activity, waiting: Option<&str>, lang: Lang) -> String {
    let word = |english: &str| label(english, lang);
    let status = bot.status();
    let carrying = if status.items.is_empty() {
        word("carrying nothing")
    } else {
        let mut shown: Vec<String> =
            status.items.iter().take(STATUS_ITEMS).map(|(name, count)| format!("{count} {name}")).collect();
        if status.items.len() > STATUS_ITEMS {
            shown.push(format!("{} {}", status.items.len() - STATUS_ITEMS, word("more kinds")));
        }
        format!("{} {}", word("carrying"), shown.join(", "))
    };
    let when = status.clock.map_or_else(String::new, |c| format!(", {}", c.describe()));
    let air =
        if status.air < MAX_AIR { format!(", {} {}/{MAX_AIR}", word("air"), status.air.max(0)) } else { String::new() };
    let danger = if status.hostiles.is_empty() {
        String::new()
    } else {
        let near: Vec<String> =
            status.hostiles.iter().take(3).map(|(kind, distance)| format!("{kind} {distance:.0}m")).collect();
        format!(" | {}: {}", word("hostile"), near.join(", "))
    };
    let reflex = status.reflex.map_or_else(String::new, |r| format!(" ({r} first)"));
    let waiting = waiting.map_or_else(String::new, |w| format!(" ({w})"));
    let changed = activity.showing().changes.map_or_else(String::new, |c| format!(" | {}: {c}", word("last run")));
    let building = bot.building().map_or_else(String::new, |b| format!(" (building {b})"));
    let doing = activity.describe();
    let doing = if doing == "idle" { word("idle") } else { doing };
    format!(
        "{} {} {} {}{when} | {} {}/20, {} {}/20{air}{danger} | {carrying} | {doing}{building}{reflex}{waiting}{changed}",
        word("At"),
        fmt_pos(status.position),
        word("in"),
        status.dimension,
        word("health"),
        trim_float(status.health),
        word("food"),
        status.food,
    )
}

/// `!usage`: this bot's LLM calls, tokens and estimated cost, per role and per task, then the process's (when it runs
/// more than one bot). `cost` prices a usage by the configured price table.
pub fn usage_text(
    mine: &Tally,
    process: &Tally,
    cost: &dyn Fn(&BTreeMap<Role, Usage>) -> Option<f64>,
    bots: usize,
) -> String {
    let total = mine.total();
    if total.calls == 0 && mine.cache_hits() == 0 {
        return if process.total().calls == 0 {
            "I have made no LLM calls yet.".to_owned()
        } else {
            format!("I have made no LLM calls yet. All bots: {}.", amount(&process.roles, cost))
        };
    }
    let mut text = format!("LLM use by me: {}", amount(&mine.roles, cost));
    if mine.cache_hits() > 0 {
        text.push_str(&format!(", and {} from the cache", counted(mine.cache_hits(), "answer")));
    }
    let roles: Vec<String> = mine
        .roles
        .iter()
        .filter(|(_, u)| u.calls > 0)
        .map(|(role, u)| format!("{} {} {}", role.name(), counted(u.calls, "call"), kilo(u.total_tokens())))
        .collect();
    text.push_str(&format!(". Per role: {}.", roles.join(", ")));
    let tasks: Vec<String> =
        mine.tasks.iter().rev().map(|(task, roles)| format!("{task}: {}", amount(roles, cost))).collect();
    if !tasks.is_empty() {
        text.push_str(&format!(" Per task, latest first: {}.", tasks.join("; ")));
    }
    if bots > 1 {
        text.push_str(&format!(" All bots: {}.", amount(&process.roles, cost)));
    }
    if cost(&mine.roles).is_none() {
        text.push_str(" (Set prices per model in [llm.prices] for the cost.)");
    }
    text
}

/// `4 calls, 5.1k tokens (4.6k in, 0.5k out), cost 0.0010`
fn amount(roles: &BTreeMap<Role, Usage>, cost: &dyn Fn(&BTreeMap<Role, Usage>) -> Option<f64>) -> String {
    let mut total = Usage::default();
    roles.values().for_each(|u| total.add(*u));
    let price = cost(roles).map_or_else(String::new, |c| format!(", cost {c:.4}"));
    format!(
        "{}, {} tokens ({} in, {} out){price}",
        counted(total.calls, "call"),
        kilo(total.total_tokens()),
        kilo(total.prompt_tokens),
        kilo(total.completion_tokens)
    )
}

/// `950`, `5.1k`, `2.3M`.
fn kilo(n: u64) -> String {
    match n {
        0..1000 => n.to_string(),
        1000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// `Inventory: 12 oak_log, 3 dirt` or `Inventory: empty`.
pub fn inventory_line(items: &[(String, i32)]) -> String {
    if items.is_empty() {
        return "Inventory: empty".to_owned();
    }
    let listed: Vec<String> = items.iter().map(|(name, count)| format!("{count} {name}")).collect();
    format!("Inventory: {}", listed.join(", "))
}

/// `skill search is off: …` → `Skill search is off: ….`
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    let end = if text.ends_with('.') { "" } else { "." };
    format!("{first}{}{end}", chars.as_str())
}

/// `20` for 20.0, `19.5` for 19.5.
fn trim_float(value: f32) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inventory_lines() {
        assert_eq!(inventory_line(&[]), "Inventory: empty");
        assert_eq!(inventory_line(&[("oak_log".into(), 12), ("dirt".into(), 3)]), "Inventory: 12 oak_log, 3 dirt");
    }

    #[test]
    fn usage_reads_per_role_and_task_with_cost_when_priced() {
        let none: &dyn Fn(&BTreeMap<Role, Usage>) -> Option<f64> = &|_| None;
        assert_eq!(usage_text(&Tally::default(), &Tally::default(), none, 1), "I have made no LLM calls yet.");
        let used = |calls, prompt, completion| Usage {
            calls,
            prompt_tokens: prompt,
            completion_tokens: completion,
            millis: 0,
        };
        let mine = Tally {
            roles: BTreeMap::from([(Role::Curriculum, used(1, 900, 100)), (Role::Action, used(2, 4000, 1200))]),
            cached: BTreeMap::from([(Role::Curriculum, 2)]),
            tasks: vec![
                ("get 2 oak logs".into(), BTreeMap::from([(Role::Curriculum, used(1, 900, 100))])),
                ("build a hut".into(), BTreeMap::from([(Role::Action, used(2, 4000, 1200))])),
            ],
        };
        let priced = |roles: &BTreeMap<Role, Usage>| {
            Some(roles.values().map(|u| u.prompt_tokens as f64 * 0.15e-6 + u.completion_tokens as f64 * 0.6e-6).sum())
        };
        let text = usage_text(&mine, &mine, &priced, 3);
        assert_eq!(
            text,
            "LLM use by me: 3 calls, 6.2k tokens (4.9k in, 1.3k out), cost 0.0015, and 2 answers from the cache. \
             Per role: curriculum 1 call 1.0k, action 2 calls 5.2k. Per task, latest first: build a hut: 2 calls, \
             5.2k tokens (4.0k in, 1.2k out), cost 0.0013; get 2 oak logs: 1 call, 1.0k tokens (900 in, 100 out), \
             cost 0.0002. All bots: 3 calls, 6.2k tokens (4.9k in, 1.3k out), cost 0.0015."
        );
        assert!(usage_text(&mine, &mine, none, 1).ends_with("(Set prices per model in [llm.prices] for the cost.)"));
    }

    #[test]
    fn health_shows_halves_only_when_present() {
        assert_eq!(trim_float(20.0), "20");
        assert_eq!(trim_float(19.5), "19.5");
    }
}
