//! An MCP client for the MCP tests: `tests/server/tools/mcp_client.js` (the official TypeScript SDK) over its stdin
//! and stdout. Requests run side by side; each answer, its progress notifications and the server's own
//! notifications are sorted out by a reader thread.

use std::{
    collections::HashMap,
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::{Arc, Condvar, Mutex, atomic::AtomicU64, atomic::Ordering},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

#[derive(Default)]
struct Heard {
    answers: HashMap<u64, Value>,
    progress: HashMap<u64, Vec<Value>>,
    notifications: Vec<Value>,
}

pub struct McpClient {
    child: Child,
    stdin: Mutex<ChildStdin>,
    heard: Arc<(Mutex<Heard>, Condvar)>,
    next: AtomicU64,
}

/// A call's answer: its result, or the SDK's error (a protocol error's message and code).
pub type Answer = Result<Value, (String, Option<i64>)>;

impl McpClient {
    pub fn start() -> McpClient {
        let dir = super::repo_root().join("tests/server");
        assert!(
            dir.join("node_modules/@modelcontextprotocol/sdk").is_dir(),
            "the MCP SDK is missing: run `npm ci --prefix tests/server` (or `make setup`)"
        );
        let mut child = Command::new("node")
            .arg(dir.join("tools/mcp_client.js"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start node for the MCP client");
        let stdin = Mutex::new(child.stdin.take().unwrap());
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let heard: Arc<(Mutex<Heard>, Condvar)> = Arc::default();
        let sorted = heard.clone();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let Ok(value) = serde_json::from_str::<Value>(&line) else { continue };
                let mut heard = sorted.0.lock().unwrap();
                if let Some(notification) = value.get("notification") {
                    heard.notifications.push(notification.clone());
                } else if let Some(id) = value["id"].as_u64() {
                    match value.get("progress") {
                        Some(progress) => heard.progress.entry(id).or_default().push(progress.clone()),
                        None => {
                            heard.answers.insert(id, value);
                        }
                    }
                }
                sorted.1.notify_all();
            }
        });
        McpClient { child, stdin, heard, next: AtomicU64::new(1) }
    }

    /// Sends a request; its id, to wait for its answer with [`McpClient::answer`].
    pub fn send(&self, mut request: Value) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        request["id"] = json!(id);
        writeln!(self.stdin.lock().unwrap(), "{request}").expect("the MCP client is gone");
        id
    }

    /// The answer to request `id`, waiting up to `timeout`.
    pub fn answer(&self, id: u64, timeout: Duration) -> Answer {
        let deadline = Instant::now() + timeout;
        let (lock, changed) = &*self.heard;
        let mut heard = lock.lock().unwrap();
        loop {
            if let Some(answer) = heard.answers.remove(&id) {
                return match answer.get("ok") {
                    Some(ok) => Ok(ok.clone()),
                    None => Err((answer["error"].as_str().unwrap_or_default().to_owned(), answer["code"].as_i64())),
                };
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no answer to MCP request {id} within {timeout:?}");
            heard = changed.wait_timeout(heard, left).unwrap().0;
        }
    }

    /// Sends a request and waits for its answer.
    pub fn ask(&self, request: Value, timeout: Duration) -> Answer {
        let id = self.send(request);
        self.answer(id, timeout)
    }

    /// Like [`McpClient::ask`], for a request that must succeed.
    pub fn ok(&self, request: Value) -> Value {
        let shown = request.to_string();
        self.ask(request, Duration::from_secs(120)).unwrap_or_else(|e| panic!("MCP request {shown} failed: {e:?}"))
    }

    /// Calls a tool; its result (`content`, `isError`).
    pub fn call(&self, name: &str, arguments: Value, timeout: Duration) -> Answer {
        self.ask(json!({"op": "call", "name": name, "arguments": arguments}), timeout)
    }

    /// Starts a tool call without waiting; its id.
    pub fn start_call(&self, name: &str, arguments: Value) -> u64 {
        self.send(json!({"op": "call", "name": name, "arguments": arguments}))
    }

    /// The progress notifications request `id` got so far.
    pub fn progress(&self, id: u64) -> Vec<Value> {
        self.heard.0.lock().unwrap().progress.get(&id).cloned().unwrap_or_default()
    }

    /// Waits until request `id` has had a progress notification `pred` accepts.
    pub fn wait_progress(&self, id: u64, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + timeout;
        let (lock, changed) = &*self.heard;
        let mut heard = lock.lock().unwrap();
        loop {
            if let Some(found) = heard.progress.get(&id).and_then(|all| all.iter().find(|p| pred(p))) {
                return found.clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no such progress for MCP request {id}: {:?}", heard.progress.get(&id));
            heard = changed.wait_timeout(heard, left).unwrap().0;
        }
    }

    /// The notifications the server sent on its own so far.
    pub fn notifications(&self) -> Vec<Value> {
        self.heard.0.lock().unwrap().notifications.clone()
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin.lock().unwrap(), "{}", json!({"id": 0, "op": "close"}));
        std::thread::sleep(Duration::from_millis(200));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A tool result's text, all its content blocks joined.
pub fn text(result: &Value) -> String {
    result["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect::<Vec<_>>().join("\n")
}

/// Whether a tool result is an error result.
pub fn is_error(result: &Value) -> bool {
    result["isError"].as_bool().unwrap_or(false)
}

/// The MCP address and token a bot with a dashboard printed at start.
pub fn endpoint(bot: &super::Bot) -> (String, String) {
    let line = bot.expect_log("MCP: http://", Duration::from_secs(10));
    let url = line.split("MCP: ").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let token = line.split("Bearer ").nth(1).unwrap().trim_end_matches(')').trim().to_owned();
    (url, token)
}
