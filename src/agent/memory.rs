//! The memory work that needs the LLM: rating, in batches, how much what people said matters, and reflecting once
//! enough importance has gathered: the three most salient questions about the latest memories, the memories recalled
//! for each, and up to five insights citing the memories they rest on, recorded as memories of their own. Also what
//! the planners are shown of memory: the memories most relevant to what they decide, with their age.
//!
//! The stream is behind a mutex and its work (embedding) is blocking: every use goes through [`blocking`], off the
//! async workers, and no lock is held across an LLM call.

use std::{collections::BTreeMap, sync::Arc};

use parking_lot::Mutex;

use super::prompts;
use crate::{
    bot::{BotHandle, Observation},
    config::{Config, MemoryConfig},
    llm::{Llm, LlmError, Message, Role},
    memory::{
        MemoryError, MemoryStream, NewMemory, Settings, Subject, Weights, age_text, answers, importance, pos_text,
    },
    skills::SkillLibrary,
};

/// One bot's memory stream, shared by its recorder, its commands and its agents.
pub type Memories = Arc<Mutex<MemoryStream>>;

/// The stream's settings from the configuration.
pub fn settings(config: &MemoryConfig) -> Settings {
    let [recency, importance, relevance] = config.weights;
    Settings {
        max_memories: config.max_memories,
        reflect_after: config.reflect_after,
        half_life: (config.half_life_days * crate::memory::DAY as f64).max(1.0) as u64,
        weights: Weights { recency, importance, relevance },
    }
}

/// Opens bot `name`'s stream (`memory/` in its checkpoint folder), unless memory is off. A stream that cannot be
/// opened is reported and the bot runs without one.
pub fn open(config: &Config, name: &str) -> Option<Memories> {
    if !config.memory.enabled {
        return None;
    }
    let dir = config.checkpoint_for(name).join("memory");
    match MemoryStream::open(&dir, settings(&config.memory)) {
        Ok((stream, opened)) => {
            for warning in opened.warnings {
                tracing::warn!("{name}: {warning}");
            }
            tracing::info!("{name}: {} memories in {}", stream.len(), dir.display());
            Some(Arc::new(Mutex::new(stream)))
        }
        Err(err) => {
            tracing::warn!("{name} keeps no memory this run: {err}");
            None
        }
    }
}

/// Runs `work` on the stream on tokio's blocking pool.
pub async fn blocking<T: Send + 'static>(
    memories: &Memories,
    work: impl FnOnce(&mut MemoryStream) -> Result<T, MemoryError> + Send + 'static,
) -> Result<T, String> {
    let memories = memories.clone();
    tokio::task::spawn_blocking(move || {
        let mut stream = memories.lock();
        work(&mut stream).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| format!("the memory stream's work failed: {e}"))?
}

/// Loads the embedding model into the stream if it is not yet (the skill library's, loaded once per process), so
/// recall searches by meaning; memories recorded before are embedded now. Without the model, recall matches words
/// and the reason is logged.
pub async fn load_model(memories: &Memories, skills: &Arc<SkillLibrary>) {
    if blocking(memories, |stream| Ok(stream.has_embeddings())).await.unwrap_or(true) {
        return;
    }
    let (skills, stream) = (skills.clone(), memories.clone());
    let attached = tokio::task::spawn_blocking(move || {
        let embedder = skills.embedder().map_err(|e| e.to_string())?;
        let mut stream = stream.lock();
        if stream.has_embeddings() {
            return Ok(None);
        }
        stream.attach(embedder).map(Some).map_err(|e| e.to_string())
    })
    .await;
    match attached {
        Ok(Ok(Some(report))) => tracing::info!("memory search by meaning: {report}"),
        Ok(Ok(None)) => {}
        Ok(Err(err)) => tracing::warn!("recall matches words only until the embedding model loads: {err}"),
        Err(err) => tracing::warn!("the memory index did not open: {err}"),
    }
}

/// The world's clock in ticks, once the server has sent it.
pub fn world_ticks(bot: &BotHandle) -> Option<u64> {
    bot.clock().map(|clock| clock.total_ticks)
}

/// The game time now for this stream (the world's clock, or the stream's own run on by the wall clock).
pub async fn now(memories: &Memories, bot: &BotHandle) -> u64 {
    let world = world_ticks(bot);
    blocking(memories, move |stream| Ok(stream.now(world))).await.unwrap_or(0)
}

/// Records `new` at the current game time, in the background (embedding takes a few milliseconds); a failure is
/// logged.
pub fn record_later(memories: &Memories, bot: &BotHandle, new: NewMemory) {
    let world = world_ticks(bot);
    let memories = memories.clone();
    tokio::spawn(async move {
        let text = new.text.clone();
        let recorded = blocking(&memories, move |stream| {
            let now = stream.now(world);
            stream.record(new, now)
        })
        .await;
        if let Err(err) = recorded {
            tracing::warn!("could not remember {text:?}: {err}");
        }
    });
}

/// What the primitives saw since last asked, as memories.
pub fn observed(bot: &BotHandle) -> Vec<NewMemory> {
    bot.take_observations()
        .into_iter()
        .map(|observation| match observation {
            Observation::Chest { pos, items } => chest_memory([pos.x, pos.y, pos.z], items),
        })
        .collect()
}

/// Records what the primitives saw and the recorder has not taken yet, so an answer from memory includes it.
pub async fn record_observed(bot: &BotHandle, memories: &Memories) {
    let new = observed(bot);
    if new.is_empty() {
        return;
    }
    let world = world_ticks(bot);
    let recorded = blocking(memories, move |stream| {
        let now = stream.now(world);
        new.into_iter().try_for_each(|memory| stream.record(memory, now).map(|_| ()))
    })
    .await;
    if let Err(err) = recorded {
        tracing::warn!("memory not recorded: {err}");
    }
}

fn chest_memory(pos: [i32; 3], items: Vec<(String, u32)>) -> NewMemory {
    let contents: BTreeMap<String, u32> = items.into_iter().filter(|(_, n)| *n > 0).collect();
    let text = if contents.is_empty() {
        format!("the chest at {} is empty", pos_text(pos))
    } else {
        let list: Vec<String> = contents.iter().map(|(item, n)| format!("{n} {item}")).collect();
        format!("the chest at {} holds {}", pos_text(pos), list.join(", "))
    };
    NewMemory::new(text, Subject::Chest { items: contents }).at(pos, None)
}

/// The memories most relevant to `query` at `now`, one per line with their age (`- the chest at 4 64 9 holds 12
/// coal (5 min ago)`), or `none`; recalling them marks them recalled.
pub async fn relevant(memories: &Memories, query: &str, now: u64, k: usize) -> String {
    let query = query.to_owned();
    match blocking(memories, move |stream| stream.recall(&query, now, k)).await {
        Ok(found) if !found.is_empty() => found
            .iter()
            .map(|r| format!("- {} ({})", r.memory.text, age_text(now.saturating_sub(r.memory.at))))
            .collect::<Vec<_>>()
            .join("\n"),
        Ok(_) => "none".to_owned(),
        Err(err) => {
            tracing::warn!("no memories recalled: {err}");
            "none".to_owned()
        }
    }
}

/// Asks `llm` (role memory), and once more with what was wrong when the answer cannot be used.
async fn ask_usable<T>(llm: &Llm, prompt: String, parse: impl Fn(&str) -> Result<T, String>) -> Result<T, Failure> {
    let mut messages = vec![Message::user(prompt)];
    let mut problem = String::new();
    for _ in 0..2 {
        let content = match llm.chat(Role::Memory, &messages, 0.0).await {
            Ok(reply) => reply.content,
            Err(LlmError::CutOff { content, max_tokens, .. }) => {
                problem = format!("it was cut off at its limit of {max_tokens} tokens; answer much shorter");
                messages.push(Message { role: "assistant".to_owned(), content });
                messages.push(Message::user(format!("That cannot be used: {problem}.")));
                continue;
            }
            Err(err) => return Err(Failure::Llm(err.to_string())),
        };
        match parse(&content) {
            Ok(parsed) => return Ok(parsed),
            Err(why) => {
                tracing::info!("unusable memory answer: {why}");
                messages.push(Message { role: "assistant".to_owned(), content });
                messages.push(Message::user(format!("That cannot be used: {why}. Answer in the form asked for only.")));
                problem = why;
            }
        }
    }
    Err(Failure::Answer(problem))
}

/// Why a piece of memory work did not get its answer.
#[derive(Debug, PartialEq)]
pub enum Failure {
    /// The endpoint failed (down, budget, time limit): try again later.
    Llm(String),
    /// The answers could not be used, twice.
    Answer(String),
    Memory(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Llm(why) => write!(f, "the LLM failed: {why}"),
            Failure::Answer(why) => write!(f, "the answer could not be used: {why}"),
            Failure::Memory(why) => write!(f, "{why}"),
        }
    }
}

fn numbered<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    texts.into_iter().enumerate().map(|(i, text)| format!("{}. {text}", i + 1)).collect::<Vec<_>>().join("\n")
}

/// One round of memory's LLM work at `now`: a batch of the memories waiting for a rating is rated when `rate_now`,
/// told how many wait (at least one), says so; then, unless the rating failed (the model is likely down), a
/// reflection if enough importance has gathered, with the embedding model loaded for its recall. Returns the
/// insights recorded.
pub async fn llm_round(
    llm: &Llm,
    memories: &Memories,
    skills: &Arc<SkillLibrary>,
    now: u64,
    rate_now: impl FnOnce(usize) -> bool,
) -> Result<Vec<String>, Failure> {
    let unrated =
        blocking(memories, |stream| Ok(stream.unrated(importance::BATCH).len())).await.map_err(Failure::Memory)?;
    if unrated > 0 && rate_now(unrated) {
        rate_batch(llm, memories).await?;
    }
    if !blocking(memories, |stream| Ok(stream.reflection_due())).await.map_err(Failure::Memory)? {
        return Ok(Vec::new());
    }
    load_model(memories, skills).await;
    reflect_if_due(llm, memories, now).await
}

/// Rates up to one batch of memories waiting for the LLM; returns how many were rated. Answers that cannot be used
/// twice leave the batch at the provisional importance, marked rated (it is not asked about again).
pub async fn rate_batch(llm: &Llm, memories: &Memories) -> Result<usize, Failure> {
    let unrated = blocking(memories, |stream| Ok(stream.unrated(importance::BATCH))).await.map_err(Failure::Memory)?;
    if unrated.is_empty() {
        return Ok(0);
    }
    let count = unrated.len();
    let list = numbered(unrated.iter().map(|(_, text)| text.as_str()));
    let prompt =
        prompts::render("memory_importance", &[("memories", &list)]).map_err(|e| Failure::Memory(e.to_string()))?;
    let (ratings, failure) = match ask_usable(llm, prompt, |reply| answers::parse_ratings(reply, count)).await {
        Ok(ratings) => (ratings, None),
        Err(Failure::Answer(why)) => (vec![importance::PROVISIONAL; count], Some(Failure::Answer(why))),
        Err(other) => return Err(other),
    };
    let rated: Vec<(u64, u8)> = unrated.iter().map(|(id, _)| *id).zip(ratings).collect();
    blocking(memories, move |stream| stream.rate(&rated)).await.map_err(Failure::Memory)?;
    match failure {
        Some(failure) => Err(failure),
        None => Ok(count),
    }
}

/// Reflects at `now` if enough importance gathered: returns the insights recorded (none when it was not due).
/// Answers that cannot be used still count as a reflection, so a model that cannot do this is not asked every time.
pub async fn reflect_if_due(llm: &Llm, memories: &Memories, now: u64) -> Result<Vec<String>, Failure> {
    let recent = blocking(memories, move |stream| {
        Ok(if stream.reflection_due() {
            stream.recent(answers::RECENT, now).into_iter().map(|m| m.text.clone()).collect()
        } else {
            Vec::new()
        })
    })
    .await
    .map_err(Failure::Memory)?;
    if recent.is_empty() {
        return Ok(Vec::new());
    }
    let outcome = reflect(llm, memories, &recent, now).await;
    if !matches!(outcome, Err(Failure::Llm(_))) {
        blocking(memories, move |stream| stream.reflected(now)).await.map_err(Failure::Memory)?;
    }
    outcome
}

async fn reflect(llm: &Llm, memories: &Memories, recent: &[String], now: u64) -> Result<Vec<String>, Failure> {
    let list = numbered(recent.iter().map(String::as_str));
    let prompt =
        prompts::render("reflection_questions", &[("memories", &list)]).map_err(|e| Failure::Memory(e.to_string()))?;
    let questions = ask_usable(llm, prompt, |reply| {
        let questions = answers::parse_questions(reply);
        if questions.is_empty() {
            Err("it has no questions (one per line, each ending with ?)".to_owned())
        } else {
            Ok(questions)
        }
    })
    .await?;
    // The memories recalled for each question, without repeats: the statements the insights cite by number.
    let asked = questions.clone();
    let statements = blocking(memories, move |stream| {
        let mut statements: Vec<(u64, String)> = Vec::new();
        for question in &asked {
            for recalled in stream.recall(question, now, answers::PER_QUESTION)? {
                if !statements.iter().any(|(id, _)| *id == recalled.memory.id) {
                    statements.push((recalled.memory.id, recalled.memory.text));
                }
            }
        }
        Ok(statements)
    })
    .await
    .map_err(Failure::Memory)?;
    if statements.is_empty() {
        return Ok(Vec::new());
    }
    let prompt = prompts::render(
        "reflection_insights",
        &[
            ("questions", &questions.iter().map(|q| format!("- {q}")).collect::<Vec<_>>().join("\n")),
            ("statements", &numbered(statements.iter().map(|(_, text)| text.as_str()))),
        ],
    )
    .map_err(|e| Failure::Memory(e.to_string()))?;
    let count = statements.len();
    let insights = ask_usable(llm, prompt, |reply| {
        let insights = answers::parse_insights(reply, count);
        if insights.is_empty() {
            Err(format!("it has no insight citing statements 1 to {count} (end each line with \"(because of 1, 3)\")"))
        } else {
            Ok(insights)
        }
    })
    .await?;
    let texts: Vec<String> = insights.iter().map(|i| i.text.clone()).collect();
    blocking(memories, move |stream| {
        for insight in insights {
            let evidence = insight.cites.iter().map(|n| statements[n - 1].0).collect();
            stream.record_insight(&insight.text, evidence, now)?;
        }
        Ok(())
    })
    .await
    .map_err(Failure::Memory)?;
    tracing::info!("reflected on {} memories: {}", recent.len(), texts.join("; "));
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        llm::{LlmConfig, fake::FakeEndpoint},
        memory::{NewMemory, Settings, Subject},
    };

    fn stream(tag: &str, settings: Settings) -> (Memories, crate::TestDir) {
        let dir = crate::test_dir(&format!("agent-memory-{tag}"));
        (Arc::new(Mutex::new(MemoryStream::open(&dir, settings).unwrap().0)), dir)
    }

    fn llm(endpoint: &FakeEndpoint) -> Llm {
        Llm::new(LlmConfig { base_url: endpoint.base_url(), model: "small".into(), ..LlmConfig::default() }).unwrap()
    }

    fn last_user(request: &serde_json::Value) -> String {
        let messages = request["messages"].as_array().unwrap();
        messages.iter().rev().find(|m| m["role"] == "user").unwrap()["content"].as_str().unwrap().to_owned()
    }

    #[tokio::test]
    async fn what_people_said_is_rated_in_a_batch_and_a_bad_answer_is_asked_again() {
        let endpoint = FakeEndpoint::start().await.unwrap();
        let (memories, _dir) = stream("rate", Settings::default());
        {
            let mut s = memories.lock();
            s.record(NewMemory::new("Alex said: hi", Subject::Heard { from: "Alex".into() }), 1).unwrap();
            s.record(NewMemory::new("I died", Subject::Died), 2).unwrap();
            s.record(NewMemory::new("Alex said: a creeper is behind you", Subject::Heard { from: "Alex".into() }), 3)
                .unwrap();
        }
        endpoint.push_content("Sure! The first is boring.");
        endpoint.push_content("[1, 8]");
        assert_eq!(rate_batch(&llm(&endpoint), &memories).await, Ok(2));
        let requests = endpoint.requests();
        assert_eq!(requests.len(), 2);
        assert!(
            last_user(&requests[0]).contains("1. Alex said: hi\n2. Alex said: a creeper is behind you"),
            "only what people said"
        );
        assert!(last_user(&requests[1]).contains("rates 0 of the 2"), "{}", last_user(&requests[1]));
        let s = memories.lock();
        assert_eq!(s.memories().map(|m| m.importance).collect::<Vec<_>>(), [1, 9, 8]);
        assert!(s.unrated(5).is_empty());
    }

    #[tokio::test]
    async fn reflection_comes_when_importance_gathers_and_its_insights_cite_their_evidence() {
        let endpoint = FakeEndpoint::start().await.unwrap();
        let (memories, _dir) = stream("reflect", Settings { reflect_after: 20, ..Settings::default() });
        let llm = llm(&endpoint);
        let ids: Vec<u64> = {
            let mut s = memories.lock();
            let alex = |text: &str| NewMemory::new(text, Subject::Told { by: "Alex".into() });
            vec![
                s.record(alex("Alex wants an iron pickaxe by tonight"), 10).unwrap(),
                s.record(
                    NewMemory::new("a zombie hurt me in the cave at 40 30 -12", Subject::Hurt { by: "zombie".into() }),
                    11,
                )
                .unwrap(),
            ]
        };
        // 8 + 6 gathered: not yet.
        assert_eq!(reflect_if_due(&llm, &memories, 12).await, Ok(vec![]));
        assert!(endpoint.requests().is_empty(), "no call before it is due");
        let third = memories.lock().record(NewMemory::new("I died in the cave", Subject::Died), 13).unwrap();

        endpoint.push_content("1. What does Alex want?\n2. Is the cave safe?");
        endpoint.push_content(
            "Alex needs iron soon (because of 1)\nThe cave at 40 30 -12 is deadly (because of 2, 3)\nNo evidence here",
        );
        let insights = reflect_if_due(&llm, &memories, 14).await.unwrap();
        assert_eq!(insights, ["Alex needs iron soon", "The cave at 40 30 -12 is deadly"]);
        let requests = endpoint.requests();
        assert!(last_user(&requests[0]).contains("3. I died in the cave"));
        let statements = last_user(&requests[1]);
        assert!(statements.contains("- What does Alex want?"), "{statements}");

        let s = memories.lock();
        let recorded: Vec<_> = s.memories().filter(|m| m.subject == Subject::Insight).collect();
        assert_eq!(recorded.len(), 2);
        // Each insight's evidence is the memories its cited numbers stood for in that prompt.
        for insight in &recorded {
            for id in &insight.evidence {
                let text = &s.get(*id).unwrap().text;
                assert!(statements.contains(text.as_str()), "{text} was shown");
            }
        }
        let deadly = recorded.iter().find(|m| m.text.contains("deadly")).unwrap();
        let mut evidence = deadly.evidence.clone();
        evidence.sort();
        assert_eq!(evidence, [ids[1], third], "{statements}");
        assert_eq!(s.gathered(), 0, "the reflection starts a new count");
    }

    #[tokio::test]
    async fn a_round_rates_when_told_and_reflects_only_after_a_rating_that_went_through() {
        let endpoint = FakeEndpoint::start().await.unwrap();
        let (memories, _dir) = stream("round", Settings { reflect_after: 5, ..Settings::default() });
        let llm = llm(&endpoint);
        let skills_dir = crate::test_dir("round");
        let skills = Arc::new(SkillLibrary::open(skills_dir.join("skills")).0);
        {
            let mut s = memories.lock();
            s.record(NewMemory::new("Alex said: the mine is north", Subject::Heard { from: "Alex".into() }), 1)
                .unwrap();
            s.record(NewMemory::new("I died", Subject::Died), 2).unwrap();
        }
        // Not told to rate: the one waiting waits; the reflection that is due comes.
        endpoint.push_content("1. Where is the mine?");
        endpoint.push_content("The mine is north (because of 1)");
        let mut asked = None;
        let insights = llm_round(&llm, &memories, &skills, 3, |waiting| {
            asked = Some(waiting);
            false
        })
        .await;
        assert_eq!(insights, Ok(vec!["The mine is north".to_owned()]));
        assert_eq!(asked, Some(1), "told how many wait");
        assert_eq!(memories.lock().unrated(5).len(), 1);

        // Told to rate, and the rating cannot be read twice: no reflection after it, though one is due.
        memories.lock().record(NewMemory::new("I died again", Subject::Died), 4).unwrap();
        assert!(memories.lock().reflection_due());
        endpoint.push_content("no idea");
        endpoint.push_content("still no idea");
        let before = endpoint.requests().len();
        assert!(matches!(llm_round(&llm, &memories, &skills, 5, |_| true).await, Err(Failure::Answer(_))));
        assert_eq!(endpoint.requests().len(), before + 2, "two rating questions, no reflection");
        assert!(memories.lock().reflection_due());
        assert!(memories.lock().unrated(5).is_empty(), "an unreadable rating is not asked again");
    }

    #[tokio::test]
    async fn an_endpoint_that_is_down_leaves_the_reflection_due() {
        let (memories, _dir) = stream("down", Settings { reflect_after: 5, ..Settings::default() });
        memories.lock().record(NewMemory::new("I died", Subject::Died), 1).unwrap();
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
        let llm = Llm::new(LlmConfig {
            base_url: format!("http://{closed}/v1"),
            model: "small".into(),
            retries: 0,
            ..LlmConfig::default()
        })
        .unwrap();
        assert!(matches!(reflect_if_due(&llm, &memories, 2).await, Err(Failure::Llm(_))));
        assert!(memories.lock().reflection_due());
    }
}
