//! The client against the scripted endpoint: requests, retries (only where they can help), timeouts, usage.

use std::time::{Duration, Instant};

use super::{
    fake::{FakeEndpoint, Scripted},
    *,
};
use crate::config::{BudgetLimit, BudgetMeasure, BudgetScope, CacheConfig};

fn config(endpoint: &FakeEndpoint) -> LlmConfig {
    LlmConfig {
        base_url: endpoint.base_url(),
        api_key: Some("sk-test".into()),
        model: "small".into(),
        role_models: BTreeMap::from([(Role::Action, "big".to_owned())]),
        timeout: Duration::from_millis(500),
        retries: 2,
        backoff: Duration::from_millis(20),
        ..LlmConfig::default()
    }
}

fn status(status: u16) -> Scripted {
    Scripted::Status { status, body: format!(r#"{{"error":{{"message":"status {status}"}}}}"#), retry_after: None }
}

#[tokio::test]
async fn sends_the_role_model_and_counts_tokens() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push_content("fn mineWoodLog() {}");
    endpoint.push_content("{\"success\": true}");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let reply = llm.chat(Role::Action, &[Message::system("write code"), Message::user("task")], 0.0).await.unwrap();
    assert_eq!(reply.content, "fn mineWoodLog() {}");
    llm.chat(Role::Critic, &[Message::user("judge")], 0.0).await.unwrap();

    let requests = endpoint.requests();
    assert_eq!(requests[0]["model"], "big");
    assert_eq!(requests[0]["messages"][0]["role"], "system");
    assert_eq!(requests[0]["messages"][1]["content"], "task");
    assert_eq!(requests[1]["model"], "small", "roles without a model use the default");
    let usage = llm.usage();
    assert_eq!(
        usage[&Role::Action],
        Usage { calls: 1, prompt_tokens: 100, completion_tokens: 50, millis: usage[&Role::Action].millis }
    );
    assert_eq!(llm.total_usage().calls, 2);
    assert_eq!(llm.total_usage().total_tokens(), 300);
}

#[tokio::test]
async fn retries_rate_limits_and_server_errors_then_succeeds() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(status(429));
    endpoint.push(status(503));
    endpoint.push_content("ok");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let reply = llm.chat(Role::Curriculum, &[Message::user("next task?")], 0.0).await.unwrap();
    assert_eq!(reply.content, "ok");
    assert_eq!(endpoint.requests().len(), 3);
    assert_eq!(llm.usage()[&Role::Curriculum].calls, 1, "only the answered call is counted");
}

#[tokio::test]
async fn gives_up_after_the_retries_with_the_last_error() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    for _ in 0..3 {
        endpoint.push(status(500));
    }
    let llm = Llm::new(config(&endpoint)).unwrap();
    let err = llm.chat(Role::Critic, &[Message::user("judge")], 0.0).await.unwrap_err();
    assert!(matches!(err, LlmError::Status { status: 500, .. }), "{err}");
    assert!(err.to_string().contains("answered 500"), "{err}");
    assert_eq!(endpoint.requests().len(), 3, "one try and two retries");
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(status(401));
    endpoint.push_content("never reached");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert!(err.to_string().contains("401") && err.to_string().contains("status 401"), "{err}");
    assert_eq!(endpoint.requests().len(), 1);
}

#[tokio::test]
async fn dropped_connections_are_retried() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Hang);
    endpoint.push_content("in time");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let reply = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap();
    assert_eq!(reply.content, "in time");
}

/// A model that rambles until the timeout was asked three more times the same way, and the owner waited four times
/// the timeout. All the attempts of one call now share the one time limit.
#[tokio::test]
async fn a_call_and_its_retries_share_one_time_limit() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Stall(Duration::from_secs(2)));
    endpoint.push_content("too late");
    let llm = Llm::new(LlmConfig { retries: 10, ..config(&endpoint) }).unwrap();
    let started = Instant::now();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout(_)), "{err}");
    assert!(started.elapsed() < Duration::from_millis(1500), "waited {:?}", started.elapsed());
    assert_eq!(endpoint.requests().len(), 1, "no time was left for a retry");

    // Server errors are retried only while the next wait fits in what is left.
    let endpoint = FakeEndpoint::start().await.unwrap();
    for _ in 0..10 {
        endpoint.push(status(503));
    }
    let llm = Llm::new(LlmConfig { retries: 10, backoff: Duration::from_millis(200), ..config(&endpoint) }).unwrap();
    let started = Instant::now();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert!(err.to_string().contains("503"), "{err}");
    assert_eq!(endpoint.requests().len(), 2, "0 ms, then 200 ms; a 400 ms wait would end past 500 ms");
    assert!(started.elapsed() < Duration::from_millis(700), "{:?}", started.elapsed());
}

/// An answer cut at `max_tokens` is unusable, and asking again would cut it at the same place.
#[tokio::test]
async fn an_answer_cut_at_its_limit_is_unusable_and_not_retried() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::AtLimit("fn rambling() { // and so on".into()));
    let mut config = config(&endpoint);
    config.max_tokens.insert(Role::Action, 64);
    let llm = Llm::new(config).unwrap();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "the action answer was cut off at its limit of 64 tokens (max_tokens.action in [llm] sets it)"
    );
    assert!(matches!(&err, LlmError::CutOff { content, .. } if content.starts_with("fn rambling")));
    assert_eq!(endpoint.requests().len(), 1);
    assert_eq!(endpoint.requests()[0]["max_tokens"], 64, "every request carries its role's limit");
    assert_eq!(llm.total_usage().calls, 1, "its tokens were spent all the same");
}

/// A cut answer is kept as one: asked again with the same limit, it is cut again with no request.
#[tokio::test]
async fn a_cut_answer_in_the_cache_is_cut_again_without_a_request() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::AtLimit("Well, first".into()));
    let file = std::env::temp_dir().join(format!("wayfarer-llm-cut-cache-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let llm = Llm::new(LlmConfig {
        cache: Some(CacheConfig { file: file.clone(), max_bytes: 1 << 20 }),
        ..config(&endpoint)
    })
    .unwrap();
    for _ in 0..2 {
        let err = llm.chat(Role::Critic, &[Message::user("judge")], 0.0).await.unwrap_err();
        assert!(matches!(&err, LlmError::CutOff { max_tokens: 300, content, .. } if content == "Well, first"), "{err}");
    }
    assert_eq!(endpoint.requests().len(), 1);
    let _ = std::fs::remove_file(&file);
}

#[tokio::test]
async fn a_slow_answer_is_noticed_once() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Stall(Duration::from_millis(700)));
    endpoint.push_content("at last");
    let llm = Llm::new(LlmConfig {
        timeout: Duration::from_secs(5),
        slow_after: Duration::from_millis(200),
        ..config(&endpoint)
    })
    .unwrap();
    let notices = std::cell::RefCell::new(Vec::new());
    let reply = llm
        .chat_watched(Role::Curriculum, &[Message::user("plan")], 0.0, &|n| notices.borrow_mut().push(n))
        .await
        .unwrap();
    assert_eq!(reply.content, "at last");
    assert_eq!(notices.into_inner(), [Notice::Slow(Duration::from_millis(200))]);
}

/// A spent budget pauses the call, says which budget and when it refills, and the call goes on by itself once the
/// window has moved on.
#[tokio::test]
async fn a_budget_stops_calls_at_the_limit_and_they_resume_after_the_window() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.answer_all("ok");
    let budget = vec![BudgetLimit {
        scope: BudgetScope::Bot,
        measure: BudgetMeasure::Calls,
        window: Duration::from_millis(1500),
        limit: 2,
        key: "bot_calls_per_hour".into(),
    }];
    let shared = Llm::new(LlmConfig { budget, timeout: Duration::from_secs(5), ..config(&endpoint) }).unwrap();
    let llm = shared.for_bot();
    let started = Instant::now();
    for _ in 0..2 {
        llm.chat(Role::Action, &[Message::user("x")], 0.7).await.unwrap();
    }
    let notices = std::cell::RefCell::new(Vec::new());
    let note = |n| notices.borrow_mut().push(n);
    let asked = [Message::user("x")];
    let third = llm.chat_watched(Role::Action, &asked, 0.7, &note);
    let mut third = std::pin::pin!(third);
    assert!(tokio::time::timeout(Duration::from_millis(500), &mut third).await.is_err(), "the third call waits");
    assert_eq!(endpoint.requests().len(), 2, "no request while the budget is spent");
    let waiting = llm.waiting().unwrap();
    assert!(waiting.starts_with("paused: the LLM budget bot_calls_per_hour is spent, it refills in"), "{waiting}");
    third.await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(1500), "{:?}", started.elapsed());
    assert_eq!(endpoint.requests().len(), 3);
    let notices = notices.borrow().clone();
    assert!(matches!(&notices[..], [Notice::Paused(spent)] if spent.key == "bot_calls_per_hour"), "{notices:?}");
    assert_eq!(llm.waiting(), None, "nothing is waited for once the call is done");
    // Another bot has a budget of its own.
    shared.for_bot().chat(Role::Action, &[Message::user("x")], 0.7).await.unwrap();
}

/// Fifty bots asking at once through one limiter: requests leave no closer than the configured rate allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_bots_asking_at_once_stay_under_the_requests_per_minute() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.answer_all("ok");
    let shared =
        Llm::new(LlmConfig { requests_per_minute: Some(1200), timeout: Duration::from_secs(10), ..config(&endpoint) })
            .unwrap();
    let bots: Vec<Arc<Llm>> = (0..50).map(|_| Arc::new(shared.for_bot())).collect();
    let started = Instant::now();
    let calls: Vec<_> = bots
        .iter()
        .map(|bot| {
            let bot = bot.clone();
            tokio::spawn(async move { bot.chat(Role::Action, &[Message::user("x")], 0.7).await.map(|_| ()) })
        })
        .collect();
    for call in calls {
        call.await.unwrap().unwrap();
    }
    let arrivals = endpoint.arrivals();
    assert_eq!(arrivals.len(), 50);
    // 1200 a minute is 20 a second: one every 50 ms.
    assert!(started.elapsed() >= Duration::from_millis(49 * 50), "{:?}", started.elapsed());
    for (i, at) in arrivals.iter().enumerate() {
        let within_a_second =
            arrivals[i..].iter().take_while(|later| later.duration_since(*at) < Duration::from_secs(1)).count();
        assert!(within_a_second <= 21, "{within_a_second} requests within a second of request {i}");
    }
}

/// One bot's 429 with `Retry-After` holds every bot back until then.
#[tokio::test]
async fn a_429_with_retry_after_slows_every_bot() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Status { status: 429, body: "slow down".into(), retry_after: Some(1) });
    endpoint.answer_all("ok");
    let shared = Llm::new(LlmConfig { timeout: Duration::from_secs(5), ..config(&endpoint) }).unwrap();
    let (first, others) = (shared.for_bot(), [shared.for_bot(), shared.for_bot()]);
    let started = Instant::now();
    let (x, y, z) = ([Message::user("x")], [Message::user("y")], [Message::user("z")]);
    let first_call = first.chat(Role::Action, &x, 0.7);
    let later = async {
        // Once the 429 has been answered.
        while endpoint.requests().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        let [a, b] = &others;
        let (one, two) = tokio::join!(a.chat(Role::Critic, &y, 0.7), b.chat(Role::Critic, &z, 0.7));
        one.unwrap();
        two.unwrap();
    };
    let (answered, ()) = tokio::join!(first_call, later);
    answered.unwrap();
    let arrivals = endpoint.arrivals();
    assert_eq!(arrivals.len(), 4);
    for at in &arrivals[1..] {
        assert!(
            at.duration_since(arrivals[0]) >= Duration::from_millis(950),
            "a request left {:?} after the 429",
            at.duration_since(arrivals[0])
        );
    }
    assert!(started.elapsed() >= Duration::from_secs(1));
}

/// A deterministic request asked again is answered from the cache, across a restart, with no request.
#[tokio::test]
async fn a_cached_reply_makes_no_request() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push_content("[{\"task\": \"Mine 1 oak_log\"}]");
    endpoint.push_content("something else");
    endpoint.push_content("warm");
    let file = std::env::temp_dir().join(format!("wayfarer-llm-cache-test-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let cached =
        || LlmConfig { cache: Some(CacheConfig { file: file.clone(), max_bytes: 1 << 20 }), ..config(&endpoint) };
    let plan = [Message::user("plan: get a log")];
    let llm = Llm::new(cached()).unwrap();
    let cold = llm.chat(Role::Curriculum, &plan, 0.0).await.unwrap();
    let warm = llm.chat(Role::Curriculum, &plan, 0.0).await.unwrap();
    assert_eq!((cold.cached, warm.cached), (false, true));
    assert_eq!(warm.content, cold.content);
    assert_eq!(endpoint.requests().len(), 1);
    assert_eq!(llm.tally().cache_hits(), 1);
    assert_eq!(llm.total_usage().calls, 1, "an answer from the cache costs nothing");
    // Not deterministic: asked every time.
    llm.chat(Role::Curriculum, &plan, 0.7).await.unwrap();
    assert_eq!(endpoint.requests().len(), 2);
    // After a restart.
    let restarted = Llm::new(cached()).unwrap();
    assert_eq!(restarted.chat(Role::Curriculum, &plan, 0.0).await.unwrap().content, cold.content);
    assert_eq!(endpoint.requests().len(), 2);
    // Another model is another request.
    let other = Llm::new(LlmConfig { model: "other".into(), ..cached() }).unwrap();
    assert_eq!(other.chat(Role::Curriculum, &plan, 0.0).await.unwrap().content, "warm");
    let _ = std::fs::remove_file(&file);
}

#[tokio::test]
async fn an_unreachable_endpoint_and_a_malformed_reply_say_so() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let llm = Llm::new(LlmConfig {
        base_url: format!("http://{closed}/v1"),
        retries: 1,
        backoff: Duration::from_millis(10),
        ..LlmConfig::default()
    })
    .unwrap();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("the LLM endpoint http://{closed}/v1/chat/completions could not be reached")),
        "{err}"
    );

    let endpoint = FakeEndpoint::start().await.unwrap();
    for _ in 0..3 {
        endpoint.push(Scripted::Status { status: 200, body: r#"{"choices": []}"#.into(), retry_after: None });
    }
    let llm = Llm::new(config(&endpoint)).unwrap();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err();
    assert!(err.to_string().contains("not a chat completion"), "{err}");
    assert!(err.to_string().contains(r#"it began: "{\"choices\": []}""#), "the raw body is kept: {err}");
    assert_eq!(endpoint.requests().len(), 3, "an unusable reply is retried like a 5xx");
}

/// A 200 reply whose body was cut off (or is not JSON) failed the task at once; it is retried like a 5xx.
#[tokio::test]
async fn cut_off_and_unparsable_replies_are_retried() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::CutOff("the whole plan".into()));
    endpoint.push(Scripted::Status {
        status: 200,
        body: r#"{"choices": [{"message": {"content": "half"#.into(),
        retry_after: None,
    });
    endpoint.push_content("the whole plan");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let reply = llm.chat(Role::Curriculum, &[Message::user("plan")], 0.0).await.unwrap();
    assert_eq!(reply.content, "the whole plan");
    assert_eq!(endpoint.requests().len(), 3);
}

#[tokio::test]
async fn a_huge_error_body_is_quoted_short_and_whole_characters() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Status { status: 400, body: "→".repeat(100_000), retry_after: None });
    let llm = Llm::new(config(&endpoint)).unwrap();
    let err = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap_err().to_string();
    assert!(err.len() < 2_000, "{} bytes", err.len());
    assert!(err.ends_with("→…"), "{err}");
}

#[test]
fn backoff_doubles_and_is_capped() {
    let second = Duration::from_secs(1);
    let waits: Vec<u64> = (0..8).map(|attempt| retry_wait(second, attempt, None).as_secs()).collect();
    assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
    assert_eq!(retry_wait(second, 40, None), MAX_LLM_BACKOFF, "no overflow");
    assert_eq!(retry_wait(second, 0, Some(Duration::from_secs(7))), Duration::from_secs(7), "Retry-After wins");
    assert_eq!(retry_wait(second, 0, Some(Duration::from_secs(86_400))), MAX_LLM_BACKOFF, "a day is cut to the cap");
}

#[tokio::test]
async fn each_bot_counts_its_own_calls_and_the_process_counts_all() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push_content("a");
    endpoint.push_content("b");
    endpoint.push_content("c");
    let shared = Llm::new(config(&endpoint)).unwrap();
    let (one, two) = (shared.for_bot(), shared.for_bot());
    one.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap();
    two.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap();
    two.chat(Role::Critic, &[Message::user("x")], 0.0).await.unwrap();
    assert_eq!((one.total_usage().calls, two.total_usage().calls), (1, 2));
    assert_eq!(one.process_usage().calls, 3);
    assert_eq!(shared.total_usage().calls, 0);
}

/// An answer asked in a schema carries it as `response_format`; an endpoint that refuses the field (400) is asked
/// again in words, and later calls do not send it again.
#[tokio::test]
async fn a_refused_schema_is_asked_again_in_words_and_not_sent_again() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Status {
        status: 400,
        body: r#"{"error":{"message":"response_format is not supported"}}"#.into(),
        retry_after: None,
    });
    endpoint.push_content("{\"success\": true}");
    endpoint.push_content("{\"success\": false}");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let schema = serde_json::json!({"type": "object", "properties": {"success": {"type": "boolean"}}});
    let first = llm.chat_json(Role::Critic, &[Message::user("judge")], 0.0, &schema).await.unwrap();
    assert_eq!(first.content, "{\"success\": true}");
    llm.chat_json(Role::Critic, &[Message::user("judge again")], 0.0, &schema).await.unwrap();
    let requests = endpoint.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0]["response_format"]["type"], "json_schema");
    assert_eq!(requests[0]["response_format"]["json_schema"]["schema"], schema);
    assert!(requests[1].get("response_format").is_none(), "{}", requests[1]);
    assert!(requests[2].get("response_format").is_none(), "{}", requests[2]);
    // Refused for an object at the top, an array is still asked in its schema (and the other way round).
    endpoint.push_content("[1]");
    let array = serde_json::json!({"type": "array", "items": {"type": "integer"}});
    llm.chat_json(Role::Curriculum, &[Message::user("plan")], 0.0, &array).await.unwrap();
    assert_eq!(endpoint.requests()[3]["response_format"]["json_schema"]["schema"], array);
}
