//! The client against the scripted endpoint: requests, retries (only where they can help), timeouts, usage.

use std::time::{Duration, Instant};

use super::{
    fake::{FakeEndpoint, Scripted},
    *,
};

fn config(endpoint: &FakeEndpoint) -> LlmConfig {
    LlmConfig {
        base_url: endpoint.base_url(),
        api_key: Some("sk-test".into()),
        model: "small".into(),
        role_models: BTreeMap::from([(Role::Action, "big".to_owned())]),
        timeout: Duration::from_millis(500),
        retries: 2,
        backoff: Duration::from_millis(20),
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
    assert_eq!(usage[&Role::Action], Usage { calls: 1, prompt_tokens: 100, completion_tokens: 50 });
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
async fn timeouts_and_dropped_connections_are_retried() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Stall(Duration::from_secs(2)));
    endpoint.push_content("too late");
    endpoint.push(Scripted::Hang);
    endpoint.push_content("in time");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let started = Instant::now();
    let reply = llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap();
    assert_eq!(reply.content, "in time");
    assert!(started.elapsed() < Duration::from_secs(2), "the stalled request was not cut at the timeout");
}

#[tokio::test]
async fn honours_retry_after() {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.push(Scripted::Status { status: 429, body: "slow down".into(), retry_after: Some(1) });
    endpoint.push_content("ok");
    let llm = Llm::new(config(&endpoint)).unwrap();
    let started = Instant::now();
    llm.chat(Role::Action, &[Message::user("x")], 0.0).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1), "retried before Retry-After");
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
    assert!(err.to_string().starts_with(&format!("the LLM endpoint http://{closed}/v1/chat/completions could not be reached")), "{err}");

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
    endpoint.push(Scripted::Status { status: 200, body: r#"{"choices": [{"message": {"content": "half"#.into(), retry_after: None });
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
fn retry_after_is_read_and_capped() {
    assert_eq!(retry_after(" 2 "), Some(Duration::from_secs(2)));
    assert_eq!(retry_after("1.5"), Some(Duration::from_millis(1500)));
    assert_eq!(retry_after("86400"), Some(MAX_LLM_BACKOFF), "a day is cut to the cap, not ignored");
    for bad in ["-1", "soon", "NaN", "inf", ""] {
        assert_eq!(retry_after(bad), None, "{bad}");
    }
}

#[test]
fn backoff_doubles_and_is_capped() {
    let second = Duration::from_secs(1);
    let waits: Vec<u64> = (0..8).map(|attempt| retry_wait(second, attempt, None).as_secs()).collect();
    assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
    assert_eq!(retry_wait(second, 40, None), MAX_LLM_BACKOFF, "no overflow");
    assert_eq!(retry_wait(second, 0, Some(Duration::from_secs(7))), Duration::from_secs(7), "Retry-After wins");
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
