//! A scripted OpenAI-compatible endpoint: it answers `POST …/chat/completions` with replies queued in advance and
//! records every request. Tests use it to run the real client (and the agents on it) without a model. It is test
//! code only: the integration tests reach it through `support`, the client's unit tests include this file.

#![allow(dead_code)]

use std::{
    collections::VecDeque,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
};

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Scripted {
    /// A completion whose message content is this text (with made-up token counts: 100 prompt, 50 completion).
    Content(String),
    /// An HTTP status with a body (and an optional `Retry-After` in seconds).
    Status { status: u16, body: String, retry_after: Option<u32> },
    /// Wait this long before answering with the next scripted reply (to provoke timeouts).
    Stall(Duration),
    /// Close the connection without answering.
    Hang,
    /// Start a 200 completion with this content, send half of its body, and close the connection.
    CutOff(String),
    /// A whole completion with this content that ended at its `max_tokens` (`finish_reason: length`).
    AtLimit(String),
}

#[derive(Default)]
struct State {
    queue: VecDeque<Scripted>,
    requests: Vec<serde_json::Value>,
    /// When each request arrived.
    arrivals: Vec<std::time::Instant>,
    /// The answer when nothing is queued (`None`: a 500 saying so).
    otherwise: Option<String>,
    /// Answers a request from what it asks, when nothing is queued (before `otherwise`).
    responder: Option<Responder>,
    /// How long every answer takes (a real model's time to answer).
    latency: Duration,
}

/// Makes an answer from a request's body.
pub type Responder = Arc<dyn Fn(&serde_json::Value) -> String + Send + Sync>;

/// The endpoint. Dropping it stops it.
pub struct FakeEndpoint {
    address: SocketAddr,
    state: Arc<Mutex<State>>,
    task: tokio::task::JoinHandle<()>,
}

impl FakeEndpoint {
    /// Listens on a free local port (within a tokio runtime).
    pub async fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = shared.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, state).await;
                });
            }
        });
        Ok(Self { address, state, task })
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.address)
    }

    pub fn push(&self, reply: Scripted) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).queue.push_back(reply);
    }

    pub fn push_content(&self, content: impl Into<String>) {
        self.push(Scripted::Content(content.into()));
    }

    /// Every request body received so far.
    pub fn requests(&self) -> Vec<serde_json::Value> {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).requests.clone()
    }

    /// Answers `content` to every request once the queue is empty.
    pub fn answer_all(&self, content: impl Into<String>) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).otherwise = Some(content.into());
    }

    /// Answers every request (once the queue is empty) with what `respond` makes of its body.
    pub fn respond_with(&self, respond: impl Fn(&serde_json::Value) -> String + Send + Sync + 'static) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).responder = Some(Arc::new(respond));
    }

    /// Makes every answer take `latency`, as a real model's does.
    pub fn set_latency(&self, latency: Duration) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).latency = latency;
    }

    /// When each request arrived, in order.
    pub fn arrivals(&self) -> Vec<std::time::Instant> {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).arrivals.clone()
    }

    /// Scripted replies not yet used.
    pub fn pending(&self) -> usize {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).queue.len()
    }
}

impl Drop for FakeEndpoint {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(stream: tokio::net::TcpStream, state: Arc<Mutex<State>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    loop {
        let mut length = 0usize;
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        loop {
            line.clear();
            if reader.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).await?;
        let request = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        let (next, stall) = {
            let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
            state.requests.push(request.clone());
            state.arrivals.push(std::time::Instant::now());
            let latency = (!state.latency.is_zero()).then_some(state.latency);
            match state.queue.pop_front() {
                // A stall delays the reply after it.
                Some(Scripted::Stall(wait)) => (state.queue.pop_front(), Some(wait)),
                None => match &state.responder {
                    Some(respond) => (Some(Scripted::Content(respond(&request))), latency),
                    None => (state.otherwise.clone().map(Scripted::Content), latency),
                },
                next => (next, latency),
            }
        };
        if let Some(wait) = stall {
            tokio::time::sleep(wait).await;
        }
        let (status, body, retry_after) = match next {
            Some(Scripted::Content(content)) => (200, completion(&content), None),
            Some(Scripted::AtLimit(content)) => (200, completion_ending(&content, "length"), None),
            Some(Scripted::Status { status, body, retry_after }) => (status, body, retry_after),
            Some(Scripted::Hang) => return Ok(()),
            Some(Scripted::CutOff(content)) => {
                let body = completion(&content);
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let stream = reader.get_mut();
                stream.write_all(head.as_bytes()).await?;
                stream.write_all(&body.as_bytes()[..body.len() / 2]).await?;
                stream.flush().await?;
                return Ok(());
            }
            Some(Scripted::Stall(_)) => (500, r#"{"error":{"message":"two stalls in a row"}}"#.to_owned(), None),
            None => (500, r#"{"error":{"message":"the fake endpoint has no reply scripted"}}"#.to_owned(), None),
        };
        write_response(reader.get_mut(), status, &body, retry_after).await?;
    }
}

async fn write_response(
    stream: &mut tokio::net::TcpStream,
    status: u16,
    body: &str,
    retry_after: Option<u32>,
) -> std::io::Result<()> {
    let retry = retry_after.map(|s| format!("Retry-After: {s}\r\n")).unwrap_or_default();
    let head = format!(
        "HTTP/1.1 {status} Scripted\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{retry}\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.flush().await
}

fn completion(content: &str) -> String {
    completion_ending(content, "stop")
}

fn completion_ending(content: &str, finish_reason: &str) -> String {
    serde_json::json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
    })
    .to_string()
}
