//! What each bot records in its memory stream, and the memory commands.
//!
//! A recorder runs per connection: every two seconds it takes what the primitives saw (chest contents), notes
//! players who came near and monsters that hurt the bot; every ten seconds it looks for ores, chests and stations
//! around and records new sightings (forgetting those whose block is gone). Chat heard and deaths are recorded as
//! they happen; task outcomes by the agent. With an LLM, the recorder also has what people said rated in batches and
//! reflects when enough importance has gathered. `!recall`, `!remember` and `!forget` answer from the stream.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::{Arc, atomic::Ordering},
    time::{Duration, Instant},
};

use azalea::BlockPos;

use super::{reply::Replier, state::BotState};
use crate::{
    agent::memory::{self as agent_memory, Failure, Memories, blocking, world_ticks},
    bot::BotHandle,
    chat::{Command, ParseError, TeamOrder},
    memory::{NewMemory, Subject, age_text, importance, places, pos_text},
    primitives::observe,
};

/// How often the recorder looks around, and how many rounds between searches for notable blocks.
const ROUND: Duration = Duration::from_secs(2);
const SCAN_EVERY: u32 = 5;
/// How far the recorder looks for ores, chests and stations, and for players.
const SCAN_RADIUS: f64 = 24.0;
const MEET_RANGE: f64 = 16.0;
/// Notable blocks found per search at most.
const SCAN_LIMIT: usize = 256;
/// A monster kind that hurt the bot is recorded again only after this long.
const HURT_AGAIN_AFTER: Duration = Duration::from_secs(30);
/// Unrated memories are sent to the LLM once a batch is full or the oldest waited this long.
const RATE_AFTER: Duration = Duration::from_secs(60);
/// The bot must have been idle this long before memory work asks the LLM.
const IDLE_BEFORE_LLM: Duration = Duration::from_secs(30);
/// After the LLM failed, memory work waits this long before asking again.
const LLM_REST: Duration = Duration::from_secs(300);
/// Memories `!recall` answers with.
const RECALLED: usize = 3;
/// Chat kept per memory, in characters.
const CHAT_CHARS: usize = 240;

/// The block position of `pos` as three numbers.
fn block(pos: azalea::Vec3) -> [i32; 3] {
    let p = BlockPos::from(pos);
    [p.x, p.y, p.z]
}

/// Records a chat line heard from `sender` (not one of this process's bots, unless its leader): ordinary chat as it
/// was said, a goal given to this bot as what was asked; other commands are not worth remembering.
pub fn heard(
    state: &BotState,
    bot: &BotHandle,
    sender: &str,
    content: &str,
    command: Option<&Result<Command, ParseError>>,
) {
    let Some(memories) = &state.memory else { return };
    let new = match command {
        None => {
            let mut said: String = content.chars().take(CHAT_CHARS).collect();
            if said.len() < content.len() {
                said.push('…');
            }
            NewMemory::new(format!("{sender} said: {said}"), Subject::Heard { from: sender.to_owned() })
        }
        Some(Ok(Command::Task { goal })) => {
            NewMemory::new(format!("{sender} asked me to {goal}"), Subject::Asked { by: sender.to_owned() })
        }
        Some(Ok(Command::Team(TeamOrder::Goal(goal)))) => {
            NewMemory::new(format!("{sender} asked my team to {goal}"), Subject::Asked { by: sender.to_owned() })
        }
        Some(_) => return,
    };
    agent_memory::record_later(memories, bot, new);
}

/// Records the bot's death, with the monster nearest (the likely cause), if one was near.
pub fn died(state: &BotState, bot: &BotHandle) {
    let Some(memories) = &state.memory else { return };
    let at = block(bot.position());
    let cause = bot.hostiles_near(8.0).first().map(|(kind, _)| format!(", with a {kind} near")).unwrap_or_default();
    let new = NewMemory::new(format!("I died at {}{cause}", pos_text(at)), Subject::Died).at(at, observe::biome(bot));
    agent_memory::record_later(memories, bot, new);
}

/// Records what the bot perceives while this connection lasts (see the module's description). Ends when the bot
/// disconnects or a newer recorder starts (after a respawn or a reconnect).
pub async fn record(bot: BotHandle, state: Arc<BotState>, generation: u64) {
    let Some(memories) = state.memory.clone() else { return };
    let spawn = block(bot.position());
    let _ = blocking(&memories, move |stream| stream.set_spawn(spawn)).await;
    let mut near: HashSet<String> = HashSet::new();
    let mut health = bot.status().health;
    let mut hurt_by: HashMap<String, Instant> = HashMap::new();
    let mut llm_rest_until: Option<Instant> = None;
    let mut rated_at = Instant::now();
    let mut gone_since: Option<Instant> = None;
    let mut idle_since: Option<Instant> = None;
    for round in 1u32.. {
        tokio::time::sleep(ROUND).await;
        if state.memory_generation.load(Ordering::SeqCst) != generation {
            return;
        }
        if bot.client().get_component::<azalea::entity::Position>().is_none() {
            if gone_since.get_or_insert_with(Instant::now).elapsed() > Duration::from_secs(5) {
                return;
            }
            continue;
        }
        gone_since = None;
        let mut new = agent_memory::observed(&bot);
        let biome = observe::biome(&bot);
        let players: HashMap<String, azalea::Vec3> = bot.players_near(MEET_RANGE).into_iter().collect();
        for (player, pos) in &players {
            if !near.contains(player) {
                let at = block(*pos);
                let text = format!("I met {player} at {}", pos_text(at));
                new.push(NewMemory::new(text, Subject::Met { player: player.clone() }).at(at, biome.clone()));
            }
        }
        near = players.into_keys().collect();
        let status = bot.status();
        if status.health + 0.5 < health
            && let Some((kind, distance)) = bot.hostiles_near(6.0).into_iter().next()
            && hurt_by.get(&kind).is_none_or(|at| at.elapsed() >= HURT_AGAIN_AFTER)
        {
            let at = block(status.position);
            let text = format!(
                "a {kind} hurt me at {} ({distance:.0} blocks away; health {:.0}/20)",
                pos_text(at),
                status.health
            );
            new.push(NewMemory::new(text, Subject::Hurt { by: kind.clone() }).at(at, biome.clone()));
            hurt_by.insert(kind, Instant::now());
        }
        health = status.health;
        let world = world_ticks(&bot);
        let here = block(status.position);
        let scan = if round % SCAN_EVERY == 0 { Some(look_around(&bot, &memories, here).await) } else { None };
        let recorded = blocking(&memories, move |stream| {
            let now = stream.now(world);
            for memory in new {
                stream.record(memory, now)?;
            }
            if let Some((found, gone)) = scan {
                for (kind, cells) in gone {
                    stream.forget_sightings(&kind, &cells)?;
                }
                for ((kind, cell), (pos, count)) in found {
                    // Fewer than remembered: the bot mined some; the memory still says where they are.
                    let known = stream.sightings(&kind).iter().any(|(p, n, _)| places::cell(*p) == cell && *n >= count);
                    if !known {
                        let what = if count == 1 { format!("a {kind}") } else { format!("{count} {kind}") };
                        let text = format!("I found {what} at {}", pos_text(pos));
                        stream.record(
                            NewMemory::new(text, Subject::Seen { block: kind, count }).at(pos, biome.clone()),
                            now,
                        )?;
                    }
                }
            }
            Ok(now)
        })
        .await;
        let now = match recorded {
            Ok(now) => now,
            Err(err) => {
                tracing::warn!("{}: memory not recorded: {err}", state.name);
                continue;
            }
        };
        // The LLM's part, when there is one, it is not resting after a failure, and the bot has been idle a while:
        // memory work is background work and never holds up a task or learning for the model, nor slips in between
        // an owner's commands (learning does its own between tasks).
        if state.activity.describe() == "idle" {
            idle_since.get_or_insert_with(Instant::now);
        } else {
            idle_since = None;
        }
        let Some(llm) = state.llm.clone().filter(|llm| llm.is_enabled()) else { continue };
        let settled = idle_since.is_some_and(|since| since.elapsed() >= IDLE_BEFORE_LLM);
        if llm_rest_until.is_some_and(|until| Instant::now() < until) || !settled || llm.waiting().is_some() {
            continue;
        }
        let rate_now = |unrated| {
            let due = unrated >= importance::BATCH || rated_at.elapsed() >= RATE_AFTER;
            if due {
                rated_at = Instant::now();
            }
            due
        };
        match agent_memory::llm_round(&llm, &memories, &state.shared.skills, now, rate_now).await {
            Ok(insights) if !insights.is_empty() => tracing::info!("{} reflected: {}", state.name, insights.join("; ")),
            Ok(_) => {}
            Err(Failure::Llm(why)) => {
                tracing::warn!(
                    "{}: memory work waits {} min, the LLM failed: {why}",
                    state.name,
                    LLM_REST.as_secs() / 60
                );
                llm_rest_until = Some(Instant::now() + LLM_REST);
            }
            Err(other) => tracing::info!("{}: memory work: {other}", state.name),
        }
    }
}

/// Sightings for the search around `here`: the notable blocks found, grouped by kind and area (nearest block and
/// how many), and the remembered sightings whose block is loaded and is no longer there (by kind, their areas).
type Found = BTreeMap<(String, [i32; 3]), ([i32; 3], u32)>;
async fn look_around(bot: &BotHandle, memories: &Memories, here: [i32; 3]) -> (Found, Vec<(String, Vec<[i32; 3]>)>) {
    let mut found: Found = BTreeMap::new();
    for (kind, pos) in observe::notable_blocks(bot, SCAN_RADIUS, SCAN_LIMIT).await {
        let pos = [pos.x, pos.y, pos.z];
        found.entry((kind, places::cell(pos))).and_modify(|(_, n)| *n += 1).or_insert((pos, 1));
    }
    let remembered: Vec<(String, [i32; 3])> = blocking(memories, move |stream| {
        let near = |p: &[i32; 3]| (0..3).map(|i| f64::from(p[i] - here[i]).powi(2)).sum::<f64>() <= SCAN_RADIUS.powi(2);
        Ok(observe::NOTABLE
            .iter()
            .flat_map(|kind| {
                stream.sightings(kind).into_iter().filter(|(p, _, _)| near(p)).map(|(p, _, _)| ((*kind).to_owned(), p))
            })
            .collect())
    })
    .await
    .unwrap_or_default();
    let mut gone: BTreeMap<String, Vec<[i32; 3]>> = BTreeMap::new();
    for (kind, pos) in remembered {
        let Some(now) = observe::block_kind(bot, BlockPos::new(pos[0], pos[1], pos[2])) else { continue };
        let now = now.to_string();
        if now.trim_start_matches("minecraft:") != kind && !found.contains_key(&(kind.clone(), places::cell(pos))) {
            gone.entry(kind).or_default().push(places::cell(pos));
        }
    }
    (found, gone.into_iter().collect())
}

/// `!recall WORDS`: where things were seen for a `where …` question, else the memories that fit best, with their
/// age.
pub async fn recall(bot: BotHandle, state: Arc<BotState>, reply: Replier, query: String) {
    let Some(memories) = state.memory.clone() else { return reply.say(NO_MEMORY) };
    agent_memory::record_observed(&bot, &memories).await;
    agent_memory::load_model(&memories, &state.shared.skills).await;
    let now = agent_memory::now(&memories, &bot).await;
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let asks_where =
        words.first().is_some_and(|w| ["where", "wo", "où", "dónde", "donde", "onde"].contains(&w.as_str()));
    if asks_where {
        let from = block(bot.position());
        let places = blocking(&memories, move |stream| {
            let regions = stream.places();
            Ok(places::find(&regions, &words[1..], from)
                .into_iter()
                .take(RECALLED)
                .map(|(path, o)| {
                    format!(
                        "{} ×{} at {}: {} ({})",
                        o.what,
                        o.count,
                        pos_text(o.pos),
                        path,
                        age_text(now.saturating_sub(o.at))
                    )
                })
                .collect::<Vec<_>>())
        })
        .await
        .unwrap_or_default();
        if !places.is_empty() {
            return reply.say(&format!("I saw {}.", places.join("; ")));
        }
    }
    let found = blocking(&memories, move |stream| stream.recall(&query, now, RECALLED)).await;
    reply.say(&match found {
        Ok(found) if found.is_empty() => "I remember nothing about that.".to_owned(),
        Ok(found) => {
            let lines: Vec<String> = found
                .iter()
                .map(|r| format!("{} ({})", r.memory.text, age_text(now.saturating_sub(r.memory.at))))
                .collect();
            format!("I remember: {}.", lines.join("; "))
        }
        Err(err) => format!("I could not recall: {err}"),
    });
}

/// `!remember FACT`: an owner's fact, important (8) and never expiring.
pub async fn remember(bot: BotHandle, state: Arc<BotState>, reply: Replier, speaker: String, fact: String) {
    let Some(memories) = state.memory.clone() else { return reply.say(NO_MEMORY) };
    let world = world_ticks(&bot);
    let text = format!("{speaker} told me: {fact}");
    let new = NewMemory::new(text, Subject::Told { by: speaker });
    let recorded = blocking(&memories, move |stream| {
        let now = stream.now(world);
        stream.record(new, now).map(|_| stream.len())
    })
    .await;
    reply.say(&match recorded {
        Ok(count) => format!("I'll remember that ({count} memories)."),
        Err(err) => format!("I could not remember it: {err}"),
    });
}

/// `!forget WORDS`: forgets the memories holding every word.
pub async fn forget(state: Arc<BotState>, reply: Replier, words: String) {
    let Some(memories) = state.memory.clone() else { return reply.say(NO_MEMORY) };
    let asked = words.clone();
    reply.say(&match blocking(&memories, move |stream| stream.forget_matching(&asked)).await {
        Ok(gone) if gone.is_empty() => format!("I remember nothing with all of: {words}."),
        Ok(gone) => {
            let first: String = gone[0].text.chars().take(80).collect();
            let more = if gone.len() > 1 { format!(" and {} more", gone.len() - 1) } else { String::new() };
            format!("Forgot {} memories: \"{first}\"{more}.", gone.len())
        }
        Err(err) => format!("I could not forget: {err}"),
    });
}

const NO_MEMORY: &str = "I keep no memory in this run (started with --no-memory, or [memory] enabled = false).";
