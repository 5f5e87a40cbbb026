//! `!task <goal>`: the LLM splits the goal into small tasks with trackers, and the agent does them in order,
//! saying in chat the fixed phrases leader/worker teams monitor progress by: `I will start task: …`,
//! `I succeeded in task: …`, `I failed task: … because …`.

use std::collections::HashMap;

use super::{
    act::{Agent, TaskOutcome, Unusable, ask_usable_shaped, observation, usage_since},
    effect::{Asked, Effect},
    goals::{Goals, Status, with},
    plan::TaskSpec,
    prompts,
    reading::{Question, Unread},
    recipes::{self, Setting, WOODS, monster_hunted},
    tracker::Tracker,
};
use crate::{
    llm::{Message, Role},
    primitives::{items, observe},
};

/// How many times a goal is planned again after a step fails, from what the bot has by then.
const REPLANS: usize = 2;
/// How many times more a goal is planned again after a step during which the bot died: a death (monsters at night)
/// is not the plan's failing, and what it lost (a sword) is planned for again.
const REPLANS_AFTER_DEATH: usize = 4;

/// Monsters that burn in daylight: by day none walks the surface, so a hunt for one is taken at night.
const BURN_BY_DAY: [&str; 4] = ["zombie", "skeleton", "stray", "zombie_villager"];
/// How far off a monster may be for its hunt to begin by day all the same.
const HUNT_IN_SIGHT: f64 = 32.0;

/// Before a step that hunts `mob`, one of [`BURN_BY_DAY`]: by day, with none within [`HUNT_IN_SIGHT`] and none of its
/// loot lying near, says so and waits where it is for nightfall (or for one to come near), rather than explore sunlit
/// ground for what burns there.
/// Goes on at once when the daylight cycle is stopped. Returns false if the owner's `!stop` came meanwhile.
async fn wait_for_night(agent: &Agent, mob: &str) -> bool {
    let bot = &agent.bot;
    // One in sight, or what one dropped lying near (the hunt picks that up first), and the hunt begins now.
    let near = || {
        bot.hostiles_near(HUNT_IN_SIGHT).iter().any(|(kind, _)| kind == mob)
            || crate::primitives::loot_lying_near(bot, mob)
    };
    let Some(wait) = bot.clock().and_then(|c| c.until_night()) else { return true };
    if !BURN_BY_DAY.contains(&mob) || wait.is_zero() || near() {
        return true;
    }
    let secs = wait.as_secs();
    let when = if secs < 90 { format!("{secs} s") } else { format!("{} minutes", secs.div_ceil(60)) };
    (agent.say)(&format!("A {mob} comes out only at night: I will wait here for nightfall, in about {when}."));
    (agent.relabel)(format!("waiting for nightfall to hunt a {mob}"));
    // A minute past the reckoned nightfall at most: a clock the server set back is not waited on for ever.
    let deadline = tokio::time::Instant::now() + wait + std::time::Duration::from_secs(60);
    loop {
        if agent.stop.is_stopped() {
            return false;
        }
        let night = bot.clock().is_none_or(|c| c.is_night());
        if night || near() || tokio::time::Instant::now() >= deadline {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// After a death in the night that is still on: waits until morning with no hunt on (the bot digs in meanwhile),
/// saying so; `hunting` when the goal's plan has a hunt ahead (made ready by day, it hunts at nightfall). False when the
/// goal was stopped meanwhile.
async fn wait_for_morning(agent: &Agent, goal: &str, hunting: bool) -> bool {
    let bot = &agent.bot;
    let Some(wait) = bot.clock().and_then(|c| c.until_morning()) else { return true };
    bot.set_on_hunt(std::time::Duration::ZERO, std::sync::Arc::from([]));
    let minutes = wait.as_secs().div_ceil(60);
    if hunting {
        (agent.say)(&format!(
            "I died hunting at night: I will shelter until morning (about {minutes} minutes), make ready by day and hunt at nightfall."
        ));
    } else {
        (agent.say)(&format!(
            "I died at night: I will shelter until morning (about {minutes} minutes), then go on with {goal}."
        ));
    }
    (agent.relabel)("sheltering until morning after a death".to_owned());
    let deadline = tokio::time::Instant::now() + wait + std::time::Duration::from_secs(60);
    while bot.clock().is_some_and(|c| c.is_night()) && tokio::time::Instant::now() < deadline {
        if agent.stop.is_stopped() {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    !agent.stop.is_stopped()
}

/// Plans goal `id` of the book (`goal` is its text) and does it, reporting in chat through `agent.say`; every plan
/// and every task's status goes into the book as it changes. A goal whose plan has tasks left (a restart cut it
/// off) goes on from its next task without planning again. A failed step has the goal planned again from what the
/// bot has then (the reason goes to the LLM planner), up to [`REPLANS`] times (and [`REPLANS_AFTER_DEATH`] more for
/// steps during which the bot died). Returns whether the goal was reached.
pub async fn run_goal(agent: &Agent, goal: &str, goals: &Goals, id: u32) -> bool {
    agent.llm.begin_task(goal);
    let before = agent.llm.total_usage();
    let mut failures: Vec<String> = Vec::new();
    let mut learned = Vec::new();
    let mut resumed = with(goals, |book| book.get(id).and_then(|g| g.next().map(|_| g.progress())));
    if let Some((done, all)) = resumed {
        (agent.say)(&format!("Going on with {goal}: {done} of {all} tasks were done."));
    }
    // What the world looked like as the goal began, to hold the goal's own words to it at the end (not for a goal
    // taken up again after a restart: what it did before is not in this run's change log).
    let began = resumed.is_none().then(|| (agent.bot.changes_mark(), agent.bot.position()));
    let mut died_in = 0;
    // A blueprint's build (`build hut at 1 64 2 facing north part 1/3`) is read by its own typed reader.
    let typed = super::building::BuildGoal::parse(goal).is_some();
    // The words planned and checked: the owner's, or the second reader's for them when they were not read whole.
    let mut read_as = goal.to_owned();
    if resumed.is_none() && !typed {
        match read_goal(agent, goal).await {
            Ok(Some(words)) => read_as = words,
            Ok(None) => {}
            Err(why) => {
                (agent.say)(&format!("I failed task: {goal} because {why}"));
                with(goals, |book| book.finish(id, Status::Failed, Some(why)));
                return false;
            }
        }
    }
    let goal_words = read_as.as_str();
    'plans: loop {
        if resumed.take().is_none() {
            let plan = match plan(agent, goal_words, &failures).await {
                Ok(plan) => plan,
                Err(reason) => {
                    (agent.say)(&format!("I failed task: {goal} because I could not plan it: {reason}"));
                    agent.remember_outcome(goal, Some(&format!("I could not plan it: {reason}")));
                    with(goals, |book| book.finish(id, Status::Failed, Some(reason)));
                    return false;
                }
            };
            if plan.is_empty() {
                (agent.say)(&format!("I succeeded in task: {goal} (I already had it)"));
                with(goals, |book| book.finish(id, Status::Completed, None));
                return true;
            }
            let steps: Vec<&str> = plan.iter().map(|s| s.task.as_str()).collect();
            (agent.say)(&format!("Plan for {goal}: {}.", steps.join("; ")));
            with(goals, |book| book.set_plan(id, &plan));
        }
        while let Some(((p, t), spec, all)) = with(goals, |book| {
            let goal = book.get(id)?;
            let (p, t) = goal.next()?;
            Some(((p, t), goal.plans[p].tasks[t].spec(), goal.plans[p].tasks.len()))
        }) {
            // The tracker counts from the task's first start, which a restart does not move.
            let now = agent.snapshot(spec.tracker.as_ref(), &Default::default(), None).await;
            let mut start = now.clone();
            start.inventory = with(goals, |book| book.begin_task(id, (p, t), now.inventory.clone()));
            // Done before it starts only by a tracker that measures what the step asks (see `tidy`): carrying dirt
            // is no dirt placed.
            if let Some(tracker) = &spec.tracker
                && tracker.progress(&start, &now).done
                && !matches!(tracker, Tracker::Kill { .. })
            {
                (agent.say)(&format!("Already done: {}.", spec.task));
                with(goals, |book| book.set_task(id, (p, t), Status::Completed, None));
                continue;
            }
            // A hunt for a monster only the night brings out waits for nightfall, armed by the steps before it.
            if let Some(mob) = monster_hunted(&spec)
                && !wait_for_night(agent, &mob).await
            {
                return false;
            }
            // Steps that ready a hunt for a monster (the sword made first) keep the hunt on.
            let hunted = with(goals, |book| {
                let tasks = &book.get(id)?.plans[p].tasks;
                tasks[t..].iter().find_map(|task| monster_hunted(&task.spec()))
            });
            if let Some(mob) = hunted {
                crate::primitives::ready_hunt(&agent.bot, &mob);
            }
            (agent.relabel)(format!("{goal}: step {}/{all} {}", t + 1, spec.task));
            let summary = with(goals, |book| book.get(id).map(|g| g.summary(None)));
            *agent.goal.lock() = summary;
            (agent.say)(&format!("I will start task: {}", spec.task));
            let deaths = agent.bot.deaths().count;
            match agent.attempt_task_since(&spec, start).await {
                TaskOutcome::Succeeded { skill, .. } => {
                    (agent.say)(&format!("I succeeded in task: {}", spec.task));
                    with(goals, |book| book.set_task(id, (p, t), Status::Completed, None));
                    learned.extend(skill);
                    // Logs of any kind got: the rest is planned again for planks of their wood.
                    if spec.task.ends_with(super::recipes::ANY_LOG) && t + 1 < all {
                        (agent.say)(&format!("Planning {goal} again for the wood I got."));
                        continue 'plans;
                    }
                }
                TaskOutcome::Failed { reason } => {
                    (agent.say)(&format!("I failed task: {} because {reason}", spec.task));
                    with(goals, |book| book.set_task(id, (p, t), Status::Failed, Some(reason.clone())));
                    if agent.bot.deaths().count > deaths && died_in < REPLANS_AFTER_DEATH {
                        died_in += 1;
                        // Killed at night, the bot would come back with nothing from its spawn point into the same
                        // night (a run died five times so): it waits for the morning, dug in, and then plans again;
                        // a hunt is made ready by day and done at the next nightfall.
                        let hunting = with(goals, |book| {
                            let tasks = &book.get(id)?.plans[p].tasks;
                            tasks[t..].iter().find_map(|task| monster_hunted(&task.spec()))
                        });
                        if agent.bot.died_tonight()
                            && agent.bot.clock().is_some_and(|c| c.is_night())
                            && !wait_for_morning(agent, goal, hunting.is_some()).await
                        {
                            return false;
                        }
                        (agent.say)(&format!("I died during it. Planning {goal} again from what I have now."));
                        continue 'plans;
                    }
                    if failures.len() >= REPLANS {
                        let why = format!("step {} ({}) failed", t + 1, spec.task);
                        (agent.say)(&format!("I failed task: {goal} because {why}"));
                        agent.remember_outcome(goal, Some(&format!("{why}: {reason}")));
                        with(goals, |book| book.finish(id, Status::Failed, Some(why)));
                        return false;
                    }
                    failures.push(format!("{} failed: {reason}", spec.task));
                    (agent.say)(&format!("Planning {goal} again from what I have now."));
                    continue 'plans;
                }
                // The goal stays active: stopped by a lost connection, it goes on when the bot is back; an owner's
                // `!stop` marks it stopped.
                TaskOutcome::Stopped => return false,
            }
        }
        // Ended from elsewhere while a step ran (handed to another bot by the leader while this one was gone): not
        // done, and not this bot's to say anything more of.
        if let Some(why) = with(goals, |book| {
            let ended = |g: &&super::goals::Goal| g.status.is_finished() && g.status != Status::Completed;
            book.get(id).filter(ended).map(|g| g.reason.clone().unwrap_or_default())
        }) {
            tracing::info!("goal {goal:?} ended while it ran: {why}");
            *agent.goal.lock() = None;
            return false;
        }
        // Every step is done; a goal whose words ask a change of the world is held to the world too: a plan that
        // laid 3 blocks of a wall of 6 did every step, but not the goal.
        if let Some(why) = began.and_then(|mark| goal_unshown(agent, goal_words, mark)) {
            if failures.len() >= REPLANS {
                let why = format!("every step was done, but the world shows {why}");
                (agent.say)(&format!("I failed task: {goal} because {why}"));
                // What its steps learned served a plan that did not do the goal: nothing of it is kept.
                forget(agent, &learned).await;
                agent.remember_outcome(goal, Some(&why));
                with(goals, |book| book.finish(id, Status::Failed, Some(why)));
                return false;
            }
            failures.push(format!("every step was done, but the world shows {why}"));
            (agent.say)(&format!("Every step is done, but the world shows {why}. Planning {goal} again."));
            continue 'plans;
        }
        break;
    }
    *agent.goal.lock() = None;
    // A goal no reader read has no check of its own: every step of its plan was judged, the goal was not, and it
    // is not announced as done (`I succeeded` is said only of what the world was held to).
    let tracked = with(goals, |book| {
        let plan = book.get(id).and_then(|g| g.plans.last())?;
        Some(plan.tasks.iter().filter_map(|task| task.spec().tracker).collect::<Vec<_>>())
    })
    .unwrap_or_default();
    if !typed && !has_own_check(goal_words, &tracked) {
        let why = "every step of its plan was done, but nothing I can check says the goal itself is";
        (agent.say)(&format!(
            "I did every step of my plan for {goal}, but nothing I can check says the goal itself is done: look, and \
             tell me if it is what you asked."
        ));
        agent.remember_outcome(goal, Some(why));
        with(goals, |book| book.finish(id, Status::Completed, Some(format!("unchecked: {why}"))));
        return true;
    }
    with(goals, |book| book.finish(id, Status::Completed, None));
    let used = usage_since(before, agent.llm.total_usage());
    tracing::info!("goal {goal:?} done with {} LLM calls, {} tokens", used.calls, used.total_tokens());
    let skills = if learned.is_empty() { String::new() } else { format!(" (new skills: {})", learned.join(", ")) };
    (agent.say)(&format!("I succeeded in task: {goal}{skills}"));
    agent.remember_outcome(goal, None);
    true
}

/// Whether the world can be held to `goal` itself, not only to its plan's steps: each of its parts is read whole (a
/// change of the world naming what, in what shape or where, judged by `goal_unshown`), names an item to have, a
/// block to mine or a mob to kill (judged by the count its last step tracks), or names game things every one of
/// which the plan (`tracked`, its steps' trackers) counts in the inventory (`prepare some wood planks`).
fn has_own_check(goal: &str, tracked: &[Tracker]) -> bool {
    // A count of blocks dug of no kind (`dig any 4 blocks of ground`) is judged too: that many blocks broken.
    let judged = |asked: &Asked| {
        asked.thing.is_some()
            || asked.shape.is_some()
            || asked.at.is_some()
            || (asked.effect == super::effect::Effect::Dig && asked.count.is_some())
    };
    let counted = |item: &str| {
        tracked.iter().any(|tracker| match tracker {
            Tracker::Inventory { item: counted, .. } | Tracker::Craft { item: counted, .. } => counted == item,
            _ => false,
        })
    };
    let readings = super::deeds::readings(goal);
    !readings.is_empty()
        && readings.iter().all(|(part, reading)| match reading {
            Ok(asked) => judged(asked),
            // Words left over that ask nothing precise (`store planks in a chest you place`): the goal's check holds
            // the world to what was read of it.
            Err(Unread { significant: false, partial: Some(asked), .. }) if judged(asked) => true,
            Err(_) => {
                let words = super::vocab::words(part, crate::config::Lang::En, super::act::is_game_id).words;
                let named: Vec<&String> = words.iter().filter(|w| super::act::is_game_id(w)).collect();
                // Words that say where (`craft crafting_table west of iron`, a placing translated as crafting): no
                // count in the inventory says the thing is there.
                recipes::parse_goal(part, "oak").is_some()
                    || (!names_a_side(&words) && !named.is_empty() && named.iter().all(|w| counted(w)))
            }
        })
}

/// How `goal` reads, said to the owner before anything is done: read whole, `I read "…" as: …` (`Ok(None)`); not
/// read whole but a part of it names a change of the world, the second reader's words for it when they hold to the
/// owner's (`Ok(Some(words))`, planned and checked instead); when they do not and the words left unread ask something
/// precise (`a square` of no size, `the left chest`), the owner is asked and the goal is not started (`Err(why)`).
/// Words that say nothing precise (`build a small shelter`) go on to the planners as they are.
async fn read_goal(agent: &Agent, goal: &str) -> Result<Option<String>, String> {
    let readings = super::deeds::readings(goal);
    let unread = readings.iter().find_map(|(_, reading)| match reading {
        Err(unread @ Unread { partial: Some(_), .. }) => Some(unread),
        _ => None,
    });
    // Words with no verb the reader knows that still say how many, where or into what (`4 gold ingots in the chest
    // next to the gold block, pls`), and that no item planner reads: the second reader may find the change they ask;
    // planned from the words by the LLM instead, no check of the goal itself would judge them.
    if unread.is_none()
        && agent.llm.is_enabled()
        && verbless_but_precise(goal, &readings)
        && let Ok(words) = second_read(agent, goal).await
    {
        return Ok(Some(words));
    }
    let Some(unread) = unread else {
        let read: Vec<String> =
            readings.iter().filter_map(|(_, reading)| reading.as_ref().ok().map(ToString::to_string)).collect();
        if !read.is_empty() && read.len() == readings.len() {
            (agent.say)(&format!("I read \"{goal}\" as: {}.", read.join("; then ")));
        }
        return Ok(None);
    };
    // `dump all ur dirt in the chest`: all of it is what the bot carries now.
    if let Some(all) = all_carried(agent, goal, unread) {
        return all.map(Some);
    }
    // The second reader is asked where the words ask something precise: a number, size, side or qualifier left
    // unread, or a shape or a neighbouring block read (`a lil cobble tower, five tall`); words that name nothing it
    // could fill (`build a small hut`) go on to the planners as they are.
    let precise =
        unread.significant || unread.partial.as_ref().is_some_and(|p| p.shape.is_some() || p.beside.is_some());
    if precise
        && agent.llm.is_enabled()
        && let Ok(words) = second_read(agent, goal).await
    {
        return Ok(Some(words));
    }
    if !unread.significant {
        return Ok(None);
    }
    // Words that ask something precise the readers do not follow: asked, not guessed, and nothing is done.
    let words = format!("\"{}\"", unread.words.join(" "));
    let guess = unread
        .partial
        .as_ref()
        .map(|p| format!(" I could only read it as {p}, which leaves that out."))
        .unwrap_or_default();
    let guess_words = unread
        .partial
        .as_deref()
        .and_then(super::second_reader::Form::of)
        .as_ref()
        .and_then(super::second_reader::words);
    let ask = if guess_words.is_some() {
        "Say yes to have just that, no to leave it, or tell me the goal again in other words"
    } else {
        "Tell me the goal again in other words"
    };
    (agent.say)(&format!(
        "I am not sure what you mean by {words} in \"{goal}\".{guess} {ask}, with sizes as numbers (3 by 3, 4 high, \
         2 deep)."
    ));
    (agent.ask)(Question { goal: goal.to_owned(), guess: guess_words });
    Err(format!("I did not understand {words} in it, and asked"))
}

/// The words for a goal that stores or hands over `all` of a thing (`dump all ur dirt in the chest`, `give bob all
/// your bread`) and leaves nothing else unread: the count the bot carries now, said to the owner; an error when it
/// carries none. `None` for any other reading.
fn all_carried(agent: &Agent, goal: &str, unread: &Unread) -> Option<Result<String, String>> {
    const ALL: [&str; 6] = ["all", "of", "the", "my", "your", "everything"];
    if !unread.words.iter().any(|w| w == "all") || !unread.words.iter().all(|w| ALL.contains(&w.as_str())) {
        return None;
    }
    let partial = unread.partial.as_deref()?;
    if !matches!(partial.effect, Effect::Store | Effect::Give) || partial.at.is_some() {
        return None;
    }
    let thing = partial.thing.as_deref()?;
    let carried = u32::try_from(crate::primitives::items::count(&agent.bot, thing)).unwrap_or(0);
    if carried == 0 {
        return Some(Err(format!("you asked for all my {thing}, and I carry none")));
    }
    let whole = Asked { count: Some(carried), ..partial.clone() };
    let words = super::second_reader::Form::of(&whole).as_ref().and_then(super::second_reader::words)?;
    (agent.say)(&format!("I read \"{goal}\" as: {whole} (all the {thing} I carry)."));
    Some(Ok(words))
}

/// Whether `goal` reads as no change of the world (no verb the reader knows) and no item to have, yet names a game
/// thing or a shape (`5 wide 2 high cobblestne wall`), and a number, a side of a block or a container.
fn verbless_but_precise(goal: &str, readings: &[(String, Result<Asked, Unread>)]) -> bool {
    use super::vocab::{self, Kind};
    if !readings.iter().all(|(_, reading)| matches!(reading, Err(Unread { effect: None, .. }))) {
        return false;
    }
    if recipes::parse_goal(goal, "oak").is_some() || super::building::BuildGoal::parse(goal).is_some() {
        return false;
    }
    let words = vocab::words(goal, crate::config::Lang::En, super::act::is_game_id).words;
    let names = words.iter().enumerate().any(|(i, w)| {
        super::act::is_game_id(w) || vocab::run_at(&words, i, Kind::Shape).is_some_and(|(_, kind)| kind != "around")
    });
    let precise = names_a_side(&words)
        || words.iter().any(|w| w.parse::<u32>().is_ok() || vocab::is(w, Kind::Container) || w == "chest");
    names && precise
}

/// Whether `words` name a side of a block (`next to`, `west of`), a bare `on` aside (`get 4 planks on the way`).
fn names_a_side(words: &[String]) -> bool {
    use super::vocab::{self, Kind};
    (0..words.len()).any(|i| vocab::run_at(words, i, Kind::Side).is_some_and(|(len, _)| len > 1 || words[i] != "on"))
}

/// The second reader's words for `goal`, said to the owner as the reading, when they hold to the owner's words.
async fn second_read(agent: &Agent, goal: &str) -> Result<String, ()> {
    match super::second_reader::read(&agent.llm, goal, super::act::is_game_id).await {
        Ok(words) => {
            let read: Vec<String> = super::deeds::readings(&words)
                .iter()
                .filter_map(|(_, reading)| reading.as_ref().ok().map(ToString::to_string))
                .collect();
            (agent.say)(&format!(
                "I read \"{goal}\" as: {} (the LLM's reading, held to your words).",
                read.join("; then ")
            ));
            tracing::info!("{goal:?} read by the LLM as {words:?}");
            Ok(words)
        }
        Err(why) => {
            tracing::info!("the LLM's reading of {goal:?} is not used: {why}");
            Err(())
        }
    }
}

/// Removes the skills `learned` from the library.
async fn forget(agent: &Agent, learned: &[String]) {
    for name in learned {
        let (skills, skill) = (agent.skills.clone(), name.clone());
        match tokio::task::spawn_blocking(move || skills.remove(&skill)).await {
            Ok(Ok(())) => tracing::info!("the skill {name} was learned for a goal its plan did not do; removed"),
            Ok(Err(why)) => tracing::warn!("the skill {name} could not be removed: {why}"),
            Err(_) => {}
        }
    }
}

/// Why the world since `mark` (the change log's mark and where the bot stood) does not show what `goal`'s words ask,
/// when they ask a change of the world and it does not.
fn goal_unshown(agent: &Agent, goal: &str, mark: (u64, azalea::Vec3)) -> Option<String> {
    let diff = agent.changes_since(mark);
    for (part, reading) in super::deeds::readings(goal) {
        let why = match reading {
            Ok(asked) => super::effect::unshown(&asked, &diff)
                .or_else(|| agent.misplaced(&asked, &diff))
                .or_else(|| left_standing(agent, &asked, mark.1)),
            // Words not read whole are held to what was read of them: a check that can only fail (a kind dug with no
            // count is all of it near where the goal began, as when read whole).
            Err(_) => super::act::asked_loosely(&part).and_then(|asked| {
                super::effect::unshown(&asked, &diff).or_else(|| left_standing(agent, &asked, mark.1))
            }),
        };
        if let Some(why) = why {
            tracing::info!("goal {goal:?}: its steps are done, but the world shows {why} (it changed: {diff})");
            return Some(why);
        }
    }
    None
}

/// Why the world says a goal that digs a kind of block with no count and no spot (`break the cobblestone wall
/// next to you`, `clear the tall grass around you`) is not done: its words ask for all of them near where it
/// began, as the code read from such words digs them, and some still stand within [`super::deeds::NEAR`] blocks of
/// `around`.
fn left_standing(agent: &Agent, asked: &Asked, around: azalea::Vec3) -> Option<String> {
    let block = asked.dug_all()?;
    let left = standing_near(agent, block, around);
    if left.is_empty() {
        return None;
    }
    let mut at: Vec<String> = left.iter().take(3).map(|([x, y, z], _)| format!("{x} {y} {z}")).collect();
    if left.len() > 3 {
        at.push(format!("{} more", left.len() - 3));
    }
    let stand = if left.len() == 1 { "stands" } else { "stand" };
    Some(format!(
        "{} {block} still {stand} within {} blocks of where I began: {}",
        left.len(),
        super::deeds::NEAR,
        at.join(", ")
    ))
}

/// Where blocks of `block`'s kinds stand within [`super::deeds::NEAR`] blocks of `around`, with the kind of each.
fn standing_near(agent: &Agent, block: &str, around: azalea::Vec3) -> Vec<([i32; 3], String)> {
    let kinds = super::deeds::kinds_of(block);
    let near = super::deeds::NEAR as i32;
    let centre = azalea::BlockPos::from(around);
    let area = observe::area(
        &agent.bot,
        [centre.x - near, centre.y - near, centre.z - near],
        [centre.x + near, centre.y + near, centre.z + near],
    );
    area.blocks().filter(|(_, name)| kinds.contains(name)).map(|(p, name)| (p, name.to_owned())).collect()
}

/// The steps for `goal`: from the game's facts when the goal names an item to have, a block to mine or a mob to
/// kill (no LLM call); else from the LLM, tidied (see [`tidy`]). An unusable answer is asked for once more with
/// what was wrong with it.
async fn plan(agent: &Agent, goal: &str, failures: &[String]) -> Result<Vec<TaskSpec>, String> {
    let setting = setting(agent).await;
    if let Some(build) = super::building::BuildGoal::parse(goal) {
        let steps = super::building::plan(&agent.bot, &build, &setting)?;
        tracing::info!("planned {goal:?} from its blueprint and the game's facts: {} step(s)", steps.len());
        return Ok(steps);
    }
    // Words read whole into changes of the world are planned from that reading before the item planner reads
    // them its own way (it reads `put down a 3x3 square of dirt` as one dirt to place).
    let read_whole = super::deeds::readings(goal).iter().all(|(_, reading)| reading.is_ok());
    if agent.plan_from_words
        && read_whole
        && let Some(steps) = super::deeds::plan(goal, &setting)
    {
        tracing::info!("planned {goal:?} from its words: {} step(s)", steps.len());
        return Ok(steps);
    }
    if let Some(want) = recipes::parse_goal(goal, &setting.wood) {
        match recipes::plan(&want, &setting) {
            Ok(steps) => {
                tracing::info!("planned {goal:?} from the game's facts: {} step(s)", steps.len());
                return Ok(steps);
            }
            Err(recipes::NoSteps::Carried { .. }) => return Ok(Vec::new()),
            // Nothing to explore for and nothing for an LLM to write: said at once.
            Err(why @ recipes::NoSteps::Unreachable { .. }) => return Err(why.to_string()),
            Err(why) => tracing::info!("the game's facts cannot plan {goal:?} ({why}); asking the LLM"),
        }
    }
    if agent.plan_from_words
        && let Some(steps) = super::deeds::plan(goal, &setting)
    {
        tracing::info!("planned {goal:?} from its words: {} step(s)", steps.len());
        return Ok(steps);
    }
    if !agent.llm.is_enabled() {
        return Err(format!("the game's facts do not cover it, and {}", crate::llm::LlmError::NotConfigured));
    }
    let asked = if failures.is_empty() {
        goal.to_owned()
    } else {
        format!("{goal}\n(Planned before; these steps failed, so plan around them: {}.)", failures.join("; "))
    };
    match llm_plan(agent, &asked).await {
        Ok(steps) => {
            let standing = super::act::asked_of(goal)
                .as_ref()
                .and_then(Asked::dug_all)
                .map(|block| standing_near(agent, block, agent.bot.position()))
                .unwrap_or_default();
            let steps =
                unneeded(goal, shaped(goal, trailing_walks(goal, unasked_walks(goal, tidy(steps)))), &setting.carried);
            let steps = cleared(goal, steps, &standing);
            Ok(if agent.plan_from_words { worded(steps) } else { steps })
        }
        // A small model may list every motion (19 steps to place a table) or nothing at all: then the goal is one
        // step, for the action agent to write code for and the critic to judge.
        Err(Unusable::Answer(why @ PlanError::StepCount(_))) => {
            tracing::info!("no usable plan for {goal:?} ({why}); doing it as one step");
            let tracker = super::act::asked_of(goal).as_ref().and_then(super::effect::fitting);
            Ok(vec![TaskSpec { task: goal.to_owned(), context: String::new(), tracker, code: None }])
        }
        Err(Unusable::Answer(why)) => Err(why.to_string()),
        Err(Unusable::Llm(failure)) => Err(failure),
    }
}

/// `steps` holding the shape or the place `goal`'s words name: when the goal asks for blocks placed in a shape
/// (`lay 4 cobblestone in a line`) or beside a block (`next to the stone block`) and no step says so, the steps
/// placing that block become one step in the goal's own words, with a tracker that sees the shape — a small
/// model's plan keeps the count and drops the rest.
fn shaped(goal: &str, mut steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    use super::effect::Effect;
    let Some(wanted) = super::act::asked_of(goal) else { return steps };
    let Some(thing) = wanted.thing.as_deref() else { return steps };
    if wanted.effect != Effect::Place || (wanted.shape.is_none() && wanted.beside.is_none()) {
        return steps;
    }
    // What each step places of the thing, read once.
    let placing: Vec<Option<super::effect::Asked>> = steps
        .iter()
        .map(|step| {
            super::act::asked_of(&step.task).filter(|a| a.effect == Effect::Place && a.thing.as_deref() == Some(thing))
        })
        .collect();
    if placing.iter().flatten().any(|a| a.shape.is_some() || a.beside.is_some()) {
        return steps;
    }
    let Some(first) = placing.iter().position(Option::is_some) else { return steps };
    let context = steps[first].context.clone();
    let mut placing = placing.into_iter();
    steps.retain(|_| placing.next().flatten().is_none());
    let task = super::text::capitalised(goal.trim());
    let how = wanted.shape.map(|shape| format!("builds {shape}")).unwrap_or_default();
    let how = match &wanted.beside {
        Some(beside) if how.is_empty() => format!("places it {beside}"),
        Some(beside) => format!("{how} {beside}"),
        None => how,
    };
    tracing::info!("the plan for {goal:?} places {thing} without where or in what shape; one step {how}");
    steps.insert(
        first.min(steps.len()),
        TaskSpec { task, context, tracker: super::effect::fitting(&wanted), code: None },
    );
    steps
}

/// `steps` without walks to spots when `goal` changes the world and names no spot to go to: a small model reads
/// "I met Alice at -7 64 -7" among its memories and plans `Go stand on -7 64 -7` before putting planks in the chest
/// beside it. Every game function walks where it must by itself.
fn unasked_walks(goal: &str, steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    let Some(wanted) = super::act::asked_of(goal) else { return steps };
    // A player to find, or the owner's own place (`next to me`), may be where the plan walks.
    let owner =
        goal.split(|c: char| !c.is_ascii_alphabetic()).any(|w| ["me", "here", "my"].contains(&&*w.to_lowercase()));
    if wanted.effect == Effect::Go || wanted.at.is_some() || wanted.player.is_some() || owner {
        return steps;
    }
    let walk =
        |step: &TaskSpec| super::act::asked_of(&step.task).is_some_and(|a| a.effect == Effect::Go && a.at.is_some());
    if !steps.iter().any(walk) {
        return steps;
    }
    let (walks, kept): (Vec<TaskSpec>, Vec<TaskSpec>) = steps.into_iter().partition(walk);
    let names: Vec<&str> = walks.iter().map(|step| step.task.as_str()).collect();
    tracing::info!("the goal {goal:?} names no spot to go to; the plan's walks {names:?} are dropped");
    kept
}

/// `steps` without the walks that end them when `goal` is not one of going: they do nothing for the goal and may undo
/// it (a plan to place dirt on top of the gold block ended with `Go stand on gold_block`, and the bot dug the dirt out
/// to stand there). A plan of walks only is left as it is.
fn trailing_walks(goal: &str, mut steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    if super::act::asked_of(goal).is_none_or(|wanted| wanted.effect == Effect::Go) {
        return steps;
    }
    let walk = |step: &TaskSpec| super::act::asked_of(&step.task).is_some_and(|a| a.effect == Effect::Go);
    let kept = steps.iter().rposition(|step| !walk(step)).map_or(steps.len(), |last| last + 1);
    if kept < steps.len() {
        let dropped: Vec<String> = steps.drain(kept..).map(|step| step.task).collect();
        tracing::info!("the plan for {goal:?} ends with walks {dropped:?} that do nothing for it; dropped");
    }
    steps
}

/// How many of the blocks a goal asks all of dug the step's context lists.
const SHOWN_STANDING: usize = 8;

/// `steps` doing what `goal`'s words ask when they ask to dig every block of a kind near (`break the cobblestone wall
/// next to you`): a small model's plan mines one of them (`Mine 1 cobblestone`) and walks to spots the goal does not
/// name (twelve `Go stand on` steps for a wall of four). Its steps that dig or walk (anything, anywhere) or get the
/// kind become one step in the goal's own words, done when each of those `standing` (where the kind stood when the
/// plan was made) is dug, after the steps kept (those making what it takes: a pickaxe). No blocks standing: the plan
/// as it is.
fn cleared(goal: &str, steps: Vec<TaskSpec>, standing: &[([i32; 3], String)]) -> Vec<TaskSpec> {
    let Some(wanted) = super::act::asked_of(goal) else { return steps };
    let Some(block) = wanted.dug_all() else { return steps };
    if standing.is_empty() {
        return steps;
    }
    let kinds = super::deeds::kinds_of(block);
    let about_it = |step: &TaskSpec| match super::act::asked_of(&step.task) {
        Some(asked) => matches!(asked.effect, Effect::Dig | Effect::Go),
        None => read_step(&step.task).is_some_and(|(verb, _, item)| {
            !["craft", "smelt", "kill"].contains(&verb.as_str()) && kinds.contains(&&*item)
        }),
    };
    // Where they stand, and the kinds by the game's names with the call that finds them (a small model's
    // `findBlocks("tall_grass")` finds no short grass; told "the tall_grass", it dug dirt).
    let mut at: Vec<String> =
        standing.iter().take(SHOWN_STANDING).map(|([x, y, z], _)| format!("{x} {y} {z}")).collect();
    if standing.len() > SHOWN_STANDING {
        at.push(format!("and {} more", standing.len() - SHOWN_STANDING));
    }
    let mut names: Vec<&str> = Vec::new();
    for (_, name) in standing {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    // Each kind's call asks for as many as stand of it (tall grass near may be more than those shown).
    let calls: Vec<String> = names
        .iter()
        .map(|name| {
            let many = standing.iter().filter(|(_, n)| n == name).count();
            format!("findBlocks(\"{name}\", {}, {many})", super::deeds::NEAR)
        })
        .collect();
    let (stand, find) = if standing.len() == 1 { ("stands", "finds it") } else { ("stand", "find them") };
    let context = format!(
        "The {} {} to dig {stand} at {}; {} {find}.",
        standing.len(),
        names.join(" and "),
        at.join(", "),
        calls.join(" and ")
    );
    let (dropped, mut kept): (Vec<TaskSpec>, Vec<TaskSpec>) = steps.into_iter().partition(about_it);
    let names: Vec<&str> = dropped.iter().map(|step| step.task.as_str()).collect();
    tracing::info!(
        "the plan for {goal:?} digs {block} without all of it; steps {names:?} become one step for the {} standing",
        standing.len()
    );
    let tracker = Tracker::Dug {
        positions: standing.iter().take(super::tracker::MAX_PARTS).map(|(p, _)| *p).collect(),
        count: None,
        block: None,
        at: None,
        radius: super::tracker::NEAR,
    };
    // After what the kept steps make (a pickaxe for the wall).
    kept.push(TaskSpec { task: super::text::capitalised(goal.trim()), context, tracker: Some(tracker), code: None });
    kept
}

/// `steps` without those that gather what the bot already carries enough of for the steps that use it up: a small
/// model plans `Mine 2 oak_log; Craft 4 oak_planks` before a 2 by 2 floor of the planks in the bot's hands (and the
/// logs may be a long walk away). A step is dropped when it gets a thing that steps of the plan place, store or give
/// in a number the words say (or what that thing is made of, two recipes deep) and the bot carries all of it; it is
/// kept when anything else in the plan still needs it (a thing used but not carried in full, what a kept step crafts
/// or smelts, or what those are made of), and when the goal itself asks to gather.
fn unneeded(goal: &str, steps: Vec<TaskSpec>, carried: &std::collections::HashMap<String, i32>) -> Vec<TaskSpec> {
    use super::effect::Effect;
    use std::collections::{BTreeMap, BTreeSet};
    const GATHERING: &[&str] = &["mine", "craft", "smelt", "collect", "gather", "get", "obtain", "chop", "cook"];
    let goal_gathers = goal.split(|c: char| !c.is_ascii_alphabetic()).any(|w| GATHERING.contains(&&*w.to_lowercase()));
    if goal_gathers {
        return steps;
    }
    let facts = crate::primitives::facts::facts();
    // `things` and everything they are made of, two recipes deep (a chest of planks, planks of logs).
    let made_of = |mut things: BTreeSet<String>| {
        for _ in 0..2 {
            let inputs: Vec<String> = things
                .iter()
                .filter_map(|thing| facts.crafting.get(thing))
                .flatten()
                .flat_map(|recipe| recipe.needs().into_keys())
                .collect();
            things.extend(inputs);
        }
        things
    };
    // What the world steps use up, by thing, where their words say how many.
    let mut used: BTreeMap<String, u32> = BTreeMap::new();
    for asked in steps.iter().filter_map(|step| super::act::asked_of(&step.task)) {
        let (Effect::Place | Effect::Store | Effect::Give, Some(thing)) = (asked.effect, &asked.thing) else {
            continue;
        };
        let Some(n) = asked.shape.map(|shape| shape.size()).or(asked.count) else { continue };
        *used.entry(thing.clone()).or_insert(0) += n;
    }
    let in_full = |thing: &str, n: u32| carried.get(thing).is_some_and(|have| *have >= n as i32);
    let covered = made_of(used.iter().filter(|(t, n)| in_full(t, **n)).map(|(t, _)| t.clone()).collect());
    if covered.is_empty() {
        return steps;
    }
    let read: Vec<Option<(String, u32, String)>> = steps.iter().map(|step| read_step(&step.task)).collect();
    let candidate = |r: &Option<(String, u32, String)>| {
        r.as_ref().is_some_and(|(verb, _, item)| verb != "kill" && covered.contains(item))
    };
    let mut still: BTreeSet<String> = used.iter().filter(|(t, n)| !in_full(t, **n)).map(|(t, _)| t.clone()).collect();
    still.extend(read.iter().filter(|r| !candidate(r)).flatten().map(|(_, _, item)| item.clone()));
    let needed = made_of(still);
    let drop: Vec<bool> =
        read.iter().map(|r| candidate(r) && r.as_ref().is_some_and(|(_, _, item)| !needed.contains(item))).collect();
    if !drop.contains(&true) {
        return steps;
    }
    let (dropped, kept): (Vec<_>, Vec<_>) = steps.into_iter().zip(drop).partition(|(_, drop)| *drop);
    let names: Vec<&str> = dropped.iter().map(|(step, _)| step.task.as_str()).collect();
    tracing::info!("the plan's steps {names:?} get what the bot already carries; dropped");
    kept.into_iter().map(|(step, _)| step).collect()
}

/// `steps` with code from their words where they change the world in words the bot reads (see `deeds`): tried
/// before the LLM is asked to write any.
fn worded(mut steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    for step in steps.iter_mut().filter(|s| s.code.is_none()) {
        step.code = super::act::asked_of(&step.task).and_then(|asked| super::deeds::code(&asked));
    }
    steps
}

/// What the fact-based planner needs to know of the bot: what it carries, the stations in reach, its wood (the kind
/// of logs or planks it carries, else of the nearest tree, none when none is in sight), and from memory the chests it
/// looked into and where it saw ores, within [`REMEMBERED_RANGE`].
async fn setting(agent: &Agent) -> Setting {
    let bot = &agent.bot;
    use azalea::registry::builtin::BlockKind;
    use std::str::FromStr;
    let carried = items::carried(bot);
    let station = |kind| observe::nearest_reachable_blocks(bot, kind, crate::primitives::STATION_RANGE, 1);
    let table_near = !station(BlockKind::CraftingTable).await.is_empty();
    let furnace_near = !station(BlockKind::Furnace).await.is_empty();
    let mut wood = WOODS
        .iter()
        .find(|w| carried.get(&format!("{w}_planks")).or(carried.get(&format!("{w}_log"))).is_some_and(|n| *n > 0))
        .map(|w| (*w).to_owned());
    if wood.is_none() {
        let here = bot.position();
        let mut nearest: Option<(f64, &str)> = None;
        for w in WOODS {
            let Ok(kind) = BlockKind::from_str(&format!("{w}_log")) else { continue };
            if let Some(pos) = observe::nearest_blocks(bot, kind, 64.0, 1).await.first() {
                let distance = pos.center().distance_to(here);
                if nearest.is_none_or(|(d, _)| distance < d) {
                    nearest = Some((distance, w));
                }
            }
        }
        wood = nearest.map(|(_, w)| w.to_owned());
    }
    let (stored, seen) = remembered(agent).await;
    Setting { carried, table_near, furnace_near, wood: wood.unwrap_or_default(), stored, seen }
}

/// How far away a remembered chest or ore may be for the planner to send the bot there.
const REMEMBERED_RANGE: f64 = 160.0;

/// The chests the bot remembers (nearest first, empty ones left out) and the nearest remembered sighting of each
/// block, within [`REMEMBERED_RANGE`].
async fn remembered(
    agent: &Agent,
) -> (Vec<([i32; 3], std::collections::BTreeMap<String, u32>)>, HashMap<String, [i32; 3]>) {
    let Some(memory) = agent.memory.clone() else { return Default::default() };
    super::memory::record_observed(&agent.bot, &memory).await;
    let here = agent.bot.position();
    let here = [here.x, here.y, here.z];
    let found = super::memory::blocking(&memory, move |stream| {
        let distance = |p: &[i32; 3]| (0..3).map(|i| (f64::from(p[i]) - here[i]).powi(2)).sum::<f64>().sqrt();
        let mut chests: Vec<(f64, [i32; 3], std::collections::BTreeMap<String, u32>)> = stream
            .chests()
            .into_iter()
            .filter(|(pos, items, _)| !items.is_empty() && distance(pos) <= REMEMBERED_RANGE)
            .map(|(pos, items, _)| (distance(&pos), pos, items.clone()))
            .collect();
        chests.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut seen: HashMap<String, (f64, [i32; 3])> = HashMap::new();
        for block in crate::primitives::observe::NOTABLE {
            for (pos, _, _) in stream.sightings(block) {
                let d = distance(&pos);
                if d <= REMEMBERED_RANGE && seen.get(*block).is_none_or(|(best, _)| d < *best) {
                    seen.insert((*block).to_owned(), (d, pos));
                }
            }
        }
        Ok((
            chests.into_iter().map(|(_, p, items)| (p, items)).collect(),
            seen.into_iter().map(|(b, (_, p))| (b, p)).collect(),
        ))
    })
    .await;
    found.unwrap_or_else(|err| {
        tracing::warn!("the planner goes without memory: {err}");
        Default::default()
    })
}

/// Asks the LLM for the steps.
async fn llm_plan(agent: &Agent, goal: &str) -> Result<Vec<TaskSpec>, Unusable<PlanError>> {
    let memories = agent.memories_about(goal, 5).await;
    let prompt = prompts::render(
        "task_decomposition",
        &[("goal", goal), ("observation", &observation(&agent.bot).await), ("memories", &memories)],
    )
    .map_err(|e| Unusable::Llm(e.to_string()))?;
    let correction = |why: &str| format!("That plan cannot be used: {why}. Answer with the JSON array only.");
    let schema = super::plan::plan_schema();
    let messages = vec![Message::user(prompt)];
    ask_usable_shaped(agent, Role::Curriculum, "the plan", messages, Some(&schema), parse_plan, correction).await
}

pub use super::plan::{PlanError, parse_plan};

/// Makes an LLM's plan say what it means: each step whose text reads `Verb N item` gets a tracker that counts
/// that item and number (a craft rounded up to what its recipe makes: `Craft 1 stick` → `Craft 4 stick`), and
/// identical steps in a row become one (`Mine 1 oak_log; Mine 1 oak_log` → `Mine 2 oak_log`). A step whose verb
/// changes the world (place, dig, go, store, give) keeps its tracker only if that tracker measures the change; else
/// it gets one that does, read from its words (`Place 3 dirt` → 3 dirt placed), or none (the critic judges, held to
/// the world diff). Placing or digging the same thing in steps in a row becomes one step.
pub fn tidy(steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    let counted = tidy_counts(steps);
    let mut agreed: Vec<(TaskSpec, Option<super::effect::Asked>)> = Vec::new();
    for step in counted {
        let step = agree_with_verb(step);
        let asked = super::act::asked_of(&step.task);
        if let (Some(now), Some((last, Some(before)))) = (&asked, agreed.last_mut())
            && matches!(now.effect, super::effect::Effect::Place | super::effect::Effect::Dig)
            && now.effect == before.effect
            && now.thing.is_some()
            && now.thing == before.thing
            && now.shape.is_none()
            && before.shape.is_none()
            && now.beside.is_none()
            && before.beside.is_none()
            && step.task.split_whitespace().next() == last.task.split_whitespace().next()
        {
            let n = before.count.unwrap_or(1).saturating_add(now.count.unwrap_or(1));
            let verb = last.task.split_whitespace().next().unwrap_or("Place").to_owned();
            let thing = now.thing.clone().unwrap_or_default();
            let merged = super::effect::Asked { count: Some(n), ..before.clone() };
            *last = TaskSpec {
                task: format!("{verb} {n} {thing}"),
                context: last.context.clone(),
                tracker: super::effect::fitting(&merged),
                code: None,
            };
            *before = merged;
            continue;
        }
        agreed.push((step, asked));
    }
    agreed.into_iter().map(|(step, _)| step).collect()
}

/// `step`, with a tracker that measures what its verb asks of the world (see [`tidy`]).
fn agree_with_verb(step: TaskSpec) -> TaskSpec {
    let Some(asked) = super::act::asked_of(&step.task) else { return step };
    if step.tracker.as_ref().is_some_and(|t| super::effect::measures_asked(t, &asked)) {
        return step;
    }
    let fitted = super::effect::fitting(&asked);
    if step.tracker.is_some() || fitted.is_some() {
        tracing::info!(
            "step {:?} asks for {:?}; its tracker {:?} becomes {:?}",
            step.task,
            asked.effect,
            step.tracker.as_ref().map(|t| serde_json::to_string(t).unwrap_or_default()),
            fitted.as_ref().map(|t| serde_json::to_string(t).unwrap_or_default())
        );
    }
    TaskSpec { tracker: fitted, ..step }
}

/// The counting half of [`tidy`]: trackers for `Verb N item` steps, and identical steps in a row merged.
fn tidy_counts(steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    /// A step as read: its verb, count and item.
    type Read = Option<(String, u32, String)>;
    let mut tidied: Vec<(TaskSpec, Read)> = Vec::new();
    for step in steps {
        let read = read_step(&step.task);
        if let (Some((verb, n, item)), Some((last, Some((last_verb, last_n, last_item))))) = (&read, tidied.last_mut())
            && verb == last_verb
            && item == last_item
        {
            // One step for both: it counts what both steps make.
            last.tracker = None;
            *last = agreeing(last, verb, last_n.saturating_add(*n), item);
            *last_n = last_n.saturating_add(*n);
            continue;
        }
        let step = match &read {
            Some((verb, n, item)) => agreeing(&step, verb, *n, item),
            None => step,
        };
        tidied.push((step, read));
    }
    tidied.into_iter().map(|(step, _)| step).collect()
}

/// `Mine 2 oak_log` → (`mine`, 2, `oak_log`), when the item is one the game has.
fn read_step(task: &str) -> Option<(String, u32, String)> {
    let mut words = task.split_whitespace();
    let verb = words.next()?.to_lowercase();
    if !["mine", "craft", "smelt", "kill", "collect", "get", "obtain", "gather"].contains(&verb.as_str()) {
        return None;
    }
    let n: u32 = words.next()?.parse().ok().filter(|n| *n > 0)?;
    let item = words.next()?.trim_end_matches(['.', ',']).to_lowercase();
    if words.next().is_some() || !item.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        return None;
    }
    let known = super::act::is_game_id(&item)
        || <azalea::registry::builtin::EntityKind as std::str::FromStr>::from_str(&item).is_ok();
    known.then_some((verb, n, item))
}

/// `step` with its text and tracker agreeing on `n` of `item`. An inventory tracker is kept as it is (it counts
/// what is carried in all, which may rightly exceed what the step adds).
fn agreeing(step: &TaskSpec, verb: &str, n: u32, item: &str) -> TaskSpec {
    if matches!(step.tracker, Some(Tracker::Inventory { .. }) | Some(Tracker::All { .. }) | Some(Tracker::Any { .. })) {
        return step.clone();
    }
    use crate::primitives::facts;
    let facts = facts::facts();
    let (task, tracker) = match verb {
        "craft" => {
            let per = facts.crafting.get(item).and_then(|r| r.first()).map_or(1, |r| r.count().max(1));
            let made = n.div_ceil(per) * per;
            (format!("Craft {made} {item}"), Tracker::Craft { item: item.to_owned(), count: made })
        }
        "smelt" => {
            // "Smelt 3 raw_iron" counts the ingots; "Smelt 3 iron_ingot" too.
            let output = facts.smelting.get(item).cloned().unwrap_or_else(|| item.to_owned());
            (format!("Smelt {n} {item}"), Tracker::Craft { item: output, count: n })
        }
        "kill" => (format!("Kill {n} {item}"), Tracker::Kill { mob: item.to_owned(), count: n }),
        _ => {
            let drop = facts::drops_of(item).into_iter().next().unwrap_or_else(|| item.to_owned());
            let verb = if verb == "mine" { "Mine" } else { "Get" };
            (format!("{verb} {n} {item}"), Tracker::Craft { item: drop, count: n })
        }
    };
    TaskSpec { task, context: step.context.clone(), tracker: Some(tracker), code: step.code.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(task: &str, tracker: Option<Tracker>) -> TaskSpec {
        TaskSpec { task: task.to_owned(), context: String::new(), tracker, code: None }
    }

    #[test]
    fn the_steps_before_a_monster_hunt_know_it() {
        let spec = |code: Option<&str>| TaskSpec {
            task: "x".into(),
            context: String::new(),
            tracker: None,
            code: code.map(str::to_owned),
        };
        let hunt = "let goal = inventoryCount(\"string\") + 2;\nkillMob(\"spider\", 120);";
        assert_eq!(monster_hunted(&spec(Some(hunt))).as_deref(), Some("spider"));
        assert_eq!(monster_hunted(&spec(Some("killMob(\"cow\", 120);"))), None, "a cow does not fight back");
        assert_eq!(monster_hunted(&spec(Some("craftItem(\"wooden_sword\", 1);"))), None);
        assert_eq!(monster_hunted(&spec(None)), None);
    }

    #[test]
    fn a_plan_digging_one_of_a_kind_asked_all_of_becomes_the_goal_s_step() {
        let plan = |tasks: &[&str]| tidy(tasks.iter().map(|task| step(task, None)).collect());
        let tasks = |steps: &[TaskSpec]| steps.iter().map(|s| s.task.clone()).collect::<Vec<_>>();
        let wall = "break the cobblestone wall next to you";
        let standing = [[3, 64, -2], [3, 64, -1], [3, 65, -2], [3, 65, -1]].map(|p| (p, "cobblestone".to_owned()));
        // The local model's plan for the wall (cut short): walks to spots the goal does not name, one block mined.
        let steps = plan(&["Go stand on -7 64 -7", "Mine 1 cobblestone", "Go stand on -7 64 -6", "Mine 1 cobblestone"]);
        let done = cleared(wall, steps, &standing);
        assert_eq!(tasks(&done), ["Break the cobblestone wall next to you"]);
        let Some(Tracker::Dug { positions, count: None, .. }) = &done[0].tracker else {
            panic!("{:?}", done[0].tracker)
        };
        let stood: Vec<[i32; 3]> = standing.iter().map(|(p, _)| *p).collect();
        assert_eq!(positions, &stood, "done when every block that stood is dug");
        assert_eq!(
            done[0].context,
            "The 4 cobblestone to dig stand at 3 64 -2, 3 64 -1, 3 65 -2, 3 65 -1; findBlocks(\"cobblestone\", 8, 4) \
             find them."
        );
        // A pickaxe made in the plan is made first, wherever the plan had it.
        let steps = plan(&["Mine 3 cobblestone", "Craft 1 wooden_pickaxe", "Dig 4 cobblestone"]);
        assert_eq!(
            tasks(&cleared(wall, steps, &standing)),
            ["Craft 1 wooden_pickaxe", "Break the cobblestone wall next to you"]
        );
        let steps =
            plan(&["Mine 1 oak_log", "Craft 1 wooden_pickaxe", "Go stand on cobblestone", "Mine 1 cobblestone"]);
        assert_eq!(
            tasks(&cleared(wall, steps, &standing)),
            ["Mine 1 oak_log", "Craft 1 wooden_pickaxe", "Break the cobblestone wall next to you"]
        );
        // Tall grass by either name; the context names the kinds that stand, by the game's names.
        let steps = plan(&["Mine 2 tall_grass", "Mine 2 short_grass"]);
        let grass = [([1, 64, 2], "short_grass".to_owned())];
        let done = cleared("clear the tall grass around you", steps, &grass);
        assert_eq!(tasks(&done), ["Clear the tall grass around you"]);
        assert_eq!(
            done[0].context,
            "The 1 short_grass to dig stands at 1 64 2; findBlocks(\"short_grass\", 8, 1) finds it."
        );
        // Goals with a count or a spot, and goals of other kinds, keep their plans; so does a goal with none standing.
        for (goal, step) in [
            ("dig 2 dirt next to you", "Dig 2 dirt"),
            ("dig a hole 2 blocks deep next to you", "Dig 2 dirt"),
            ("go stand on the gold block", "Mine 1 gold_block"),
            ("place a dirt block on top of the gold block", "Go stand on gold_block"),
        ] {
            assert_eq!(tasks(&cleared(goal, plan(&[step]), &standing)), [step], "{goal}");
        }
        assert_eq!(tasks(&cleared(wall, plan(&["Mine 1 cobblestone"]), &[])), ["Mine 1 cobblestone"]);
    }

    #[test]
    fn walks_to_spots_a_goal_does_not_name_are_dropped() {
        let plan = |tasks: &[&str]| tidy(tasks.iter().map(|task| step(task, None)).collect());
        let tasks = |steps: Vec<TaskSpec>| steps.into_iter().map(|s| s.task).collect::<Vec<_>>();
        let chest = "put 4 oak planks into the chest next to you";
        let steps = plan(&["Go stand on -7 64 -7", "Store 4 oak_planks in a chest next to you"]);
        assert_eq!(tasks(unasked_walks(chest, steps)), ["Store 4 oak_planks in a chest next to you"]);
        // A goal of going, or one naming its spot, keeps them; so do walks to things.
        for goal in [
            "walk over to the diamond block",
            "go stand on -7 64 -7",
            "place dirt at 1 64 2",
            "give 3 dirt to Bob",
            "build a pillar of dirt next to me",
        ] {
            let steps = plan(&["Go stand on -7 64 -7", "Place 1 dirt"]);
            assert_eq!(tasks(unasked_walks(goal, steps)).len(), 2, "{goal}");
        }
        let steps = plan(&["Go stand on chest", "Store 4 oak_planks in a chest"]);
        assert_eq!(tasks(unasked_walks(chest, steps)).len(), 2);
    }

    #[test]
    fn walks_that_end_a_plan_are_dropped_unless_the_goal_is_going() {
        let plan = |tasks: &[&str]| tidy(tasks.iter().map(|task| step(task, None)).collect());
        let tasks = |steps: Vec<TaskSpec>| steps.into_iter().map(|s| s.task).collect::<Vec<_>>();
        let dirt = "place a dirt block on top of the gold block";
        let steps = plan(&["Place 1 dirt", "Go stand on gold_block"]);
        assert_eq!(tasks(trailing_walks(dirt, steps)), ["Place 1 dirt"]);
        // A walk before the work stays; so does every walk of a goal of going, and a plan of walks only.
        let steps = plan(&["Go stand on gold_block", "Place 1 dirt"]);
        assert_eq!(tasks(trailing_walks(dirt, steps)).len(), 2);
        let steps = plan(&["Place 1 dirt", "Go stand on gold_block"]);
        assert_eq!(tasks(trailing_walks("go stand on the gold block", steps)).len(), 2);
        assert_eq!(tasks(trailing_walks(dirt, plan(&["Go stand on gold_block"]))), ["Go stand on gold_block"]);
    }

    #[test]
    fn steps_that_get_what_the_bot_carries_are_dropped() {
        let has = |items: &[(&str, i32)]| -> std::collections::HashMap<String, i32> {
            items.iter().map(|(item, n)| ((*item).to_owned(), *n)).collect()
        };
        let plan = |tasks: &[&str]| tidy(tasks.iter().map(|task| step(task, None)).collect());
        let tasks = |steps: Vec<TaskSpec>| steps.into_iter().map(|s| s.task).collect::<Vec<_>>();
        let floor = "make a 2 by 2 floor of oak planks";
        let planks = has(&[("oak_planks", 6), ("cobblestone", 2)]);
        let steps = plan(&["Mine 2 oak_log", "Craft 4 oak_planks", "Make a 2 by 2 floor of oak planks"]);
        assert_eq!(tasks(unneeded(floor, steps, &planks)), ["Make a 2 by 2 floor of oak planks"]);
        // Two cobblestone carried, four used: the mining stays.
        let steps = plan(&["Mine 2 cobblestone", "Lay 4 cobblestone in a line"]);
        assert_eq!(tasks(unneeded("lay 4 cobblestone in a line", steps, &planks)).len(), 2);
        // What is mined for something else stays.
        let steps = plan(&["Mine 3 dirt", "Place 4 oak_planks"]);
        assert_eq!(tasks(unneeded("place 4 oak planks", steps, &planks)), ["Mine 3 dirt", "Place 4 oak_planks"]);
        // A chest carried: the planks and logs it is made of are not needed for it.
        let chest = has(&[("chest", 1), ("cobblestone", 6)]);
        let steps = plan(&["Mine 2 oak_log", "Craft 1 chest", "Place 1 chest", "Store 6 cobblestone in the chest"]);
        let kept = tasks(unneeded("store cobblestone in a chest", steps, &chest));
        assert_eq!(kept, ["Place 1 chest", "Store 6 cobblestone in the chest"]);
        // ...but planks the plan stores, not carried in full, keep their planks and logs.
        let chest = has(&[("chest", 1), ("oak_planks", 2)]);
        let steps = plan(&["Mine 2 oak_log", "Craft 8 oak_planks", "Place 1 chest", "Store 8 oak_planks in the chest"]);
        assert_eq!(tasks(unneeded("store planks in a chest", steps, &chest)).len(), 4);
        // A table crafted in the plan uses carried planks: the planks' craft stays.
        let steps = plan(&[
            "Craft 4 oak_planks",
            "Craft 1 crafting_table",
            "Place 1 crafting_table",
            "Make a 2 by 2 floor of oak planks",
        ]);
        assert_eq!(tasks(unneeded(floor, steps, &planks)).len(), 4);
        // A goal that asks to gather keeps its gathering; a use of no stated number covers nothing.
        let steps = plan(&["Craft 4 oak_planks", "Place 4 oak_planks"]);
        assert_eq!(tasks(unneeded("craft 4 oak planks and place them", steps, &planks)).len(), 2);
        let steps = plan(&["Mine 5 oak_log", "Give the oak logs to Alice"]);
        assert_eq!(tasks(unneeded("give logs to Alice", steps, &has(&[("oak_log", 1)]))).len(), 2);
    }

    #[test]
    fn llm_plans_are_tidied() {
        let inventory = |item: &str, count| Some(Tracker::Inventory { item: item.to_owned(), count, exactly: false });
        let plan = tidy(vec![
            step("Mine 1 oak_log", inventory("oak_log", 1)),
            step("Mine 1 oak_log", inventory("oak_log", 1)),
            step("Craft 1 stick", Some(Tracker::Craft { item: "stick".into(), count: 4 })),
            step("Smelt 3 raw_iron", None),
            step("Mine 2 stone", None),
            step("Build a small hut", None),
            step("Kill 1 pig", None),
        ]);
        let tasks: Vec<&str> = plan.iter().map(|s| s.task.as_str()).collect();
        assert_eq!(
            tasks,
            ["Mine 2 oak_log", "Craft 4 stick", "Smelt 3 raw_iron", "Mine 2 stone", "Build a small hut", "Kill 1 pig"]
        );
        assert_eq!(
            plan[0].tracker,
            Some(Tracker::Craft { item: "oak_log".into(), count: 2 }),
            "merged: both steps' logs"
        );
        let kept = tidy(vec![step("Mine 2 oak_log", inventory("oak_log", 3))]);
        assert_eq!(kept[0].tracker, inventory("oak_log", 3), "an inventory tracker counts what is carried in all");
        assert_eq!(plan[1].tracker, Some(Tracker::Craft { item: "stick".into(), count: 4 }));
        assert_eq!(plan[2].tracker, Some(Tracker::Craft { item: "iron_ingot".into(), count: 3 }));
        assert_eq!(
            plan[3].tracker,
            Some(Tracker::Craft { item: "cobblestone".into(), count: 2 }),
            "stone drops cobblestone"
        );
        assert_eq!(plan[4].tracker, None);
        assert_eq!(plan[5].tracker, Some(Tracker::Kill { mob: "pig".into(), count: 1 }));
    }

    #[test]
    fn a_plan_keeps_the_shape_its_goal_names() {
        let goal = "lay 4 cobblestone in a line on the ground";
        let plan = shaped(
            goal,
            tidy(vec![
                step("Mine 1 cobblestone", None),
                step("Place 1 cobblestone", None),
                step("Place 1 cobblestone", None),
                step("Place 2 cobblestone", None),
                step("Say done", None),
            ]),
        );
        let tasks: Vec<&str> = plan.iter().map(|s| s.task.as_str()).collect();
        assert_eq!(tasks, ["Mine 1 cobblestone", "Lay 4 cobblestone in a line on the ground", "Say done"]);
        assert!(matches!(&plan[1].tracker, Some(Tracker::Structure { blocks, .. }) if blocks.len() == 4));
        // A step that names its shape is the planner's own, kept as it is.
        let own = shaped(goal, vec![step("Place 4 cobblestone in a row", None)]);
        assert_eq!(own[0].task, "Place 4 cobblestone in a row");
        // A goal with no shape leaves the plan alone.
        let plain = shaped("place 3 dirt", vec![step("Place 3 dirt", None)]);
        assert_eq!(plain[0].task, "Place 3 dirt");
        // A Placed tracker on a step that names a shape cannot see the shape: it becomes a structure.
        let fixed = tidy(vec![step(
            "Build a pillar of 3 dirt",
            Some(Tracker::Placed { block: "dirt".into(), count: 3, at: None, radius: 8 }),
        )]);
        assert!(matches!(&fixed[0].tracker, Some(Tracker::Structure { blocks, .. }) if blocks.len() == 3));
    }

    #[test]
    fn words_with_no_verb_that_name_a_shape_or_a_thing_and_a_size_go_to_the_second_reader() {
        let precise = |goal: &str| verbless_but_precise(goal, &super::super::deeds::readings(goal));
        // A shape and its sizes, its block in words no table has: not a plan for the LLM to guess.
        assert!(precise("3 by 3 platform of the grey stuff"));
        // With a container and a side of a block, the reader itself reads it as a store.
        let store = super::super::deeds::readings("4 gold ingots in the chest next to the gold block, pls");
        assert!(matches!(store.as_slice(), [(_, Ok(Asked { effect: Effect::Store, .. }))]), "{store:?}");
        for vague in ["a nice wall", "wood please", "iron pickaxe", "5 minutes of exploring"] {
            assert!(!precise(vague), "{vague}");
        }
    }

    #[test]
    fn a_goal_has_its_own_check_when_every_part_is_read() {
        for goal in [
            "craft a wooden pickaxe",
            "get 2 string",
            "kill a zombie",
            "mine 3 oak_log",
            "dig a hole 3 deep",
            "place a 3 by 3 floor of dirt",
            "craft a chest and put 5 dirt in it",
            "store 4 cobblestone in the chest next to the crafting_table",
        ] {
            assert!(has_own_check(goal, &[]), "{goal}");
        }
        assert!(has_own_check("store planks in a chest you place", &[]));
        // Things the owner named that the plan counted in the inventory; a thing it did not count.
        let planks = [Tracker::Craft { item: "oak_planks".to_owned(), count: 4 }];
        assert!(has_own_check("prepare some wood planks", &planks));
        assert!(!has_own_check("prepare some wood planks", &[]));
        assert!(!has_own_check("prepare some planks and a torch", &planks));
        // Where the words put it, no inventory count judges (a placing translated as crafting was claimed).
        let table = [Tracker::Craft { item: "crafting_table".to_owned(), count: 1 }];
        assert!(has_own_check("craft crafting_table", &table));
        assert!(!has_own_check("craft crafting_table west of iron", &table));
        for goal in [
            "build a small shelter",
            "light up the area",
            "make the base look nice",
            "explore for 2 minutes",
            "gather some timber",
            "make the thing a door opens with when stepped on",
        ] {
            assert!(!has_own_check(goal, &planks), "{goal}");
        }
    }

    #[test]
    fn plans_are_validated() {
        let plan = parse_plan(
            "Here:\n[{\"task\": \"Mine 2 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}},\n \
             {\"task\": \"Craft 1 crafting_table\", \"context\": \"from planks\"}]",
        )
        .unwrap();
        assert_eq!(plan.len(), 2);
        assert_eq!(plan[0].tracker, Some(Tracker::Inventory { item: "oak_log".into(), count: 2, exactly: false }));
        assert_eq!((plan[1].context.as_str(), plan[1].tracker.is_none()), ("from planks", true));
        let err = |reply: &str| parse_plan(reply).unwrap_err().to_string();
        assert!(err("mine some logs").contains("no JSON array"));
        assert_eq!(parse_plan("[]").unwrap_err(), PlanError::StepCount(0));
        assert!(err("[]").contains("1 to 12 steps"));
        assert!(err("[{\"task\": \"x\", \"tracker\": {\"type\": \"fly\"}}]").contains("x: invalid tracker"));
        assert!(err("[{\"name\": \"x\"}]").contains("does not fit (missing field `task`"));
        let remarks = "Steps [in order]:\n[{\"task\": \"Mine 1 oak_log\"}]\n[Done]";
        assert_eq!(parse_plan(remarks).unwrap()[0].task, "Mine 1 oak_log");
        let empty_first = "Inventory: [] so:\n[{\"task\": \"Mine 1 oak_log\"}]";
        assert_eq!(
            parse_plan(empty_first).unwrap()[0].task,
            "Mine 1 oak_log",
            "an empty array before the plan is passed over"
        );
    }
}
