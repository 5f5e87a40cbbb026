//! A headless Chromium for the dashboard's tests: `tests/server/tools/browser.js` (playwright-core driving the
//! system's Chromium) over its stdin and stdout, one JSON request and answer a line.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

pub struct Browser {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Browser {
    /// Starts the driver (the browser itself starts with the first [`Browser::open`]).
    pub fn start() -> Browser {
        let mut child = Command::new("node")
            .arg(super::repo_root().join("tests/server/tools/browser.js"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start node for the browser driver");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Browser { child, stdin, stdout }
    }

    /// Sends one request; its result, or the driver's error.
    pub fn try_call(&mut self, request: Value) -> Result<Value, String> {
        writeln!(self.stdin, "{request}").map_err(|e| format!("the browser driver is gone: {e}"))?;
        let mut line = String::new();
        self.stdout.read_line(&mut line).map_err(|e| e.to_string())?;
        let answer: Value = serde_json::from_str(&line).map_err(|e| format!("unreadable answer {line:?}: {e}"))?;
        match answer.get("error") {
            Some(error) => Err(error.as_str().unwrap_or_default().to_owned()),
            None => Ok(answer.get("ok").cloned().unwrap_or(Value::Null)),
        }
    }

    pub fn call(&mut self, request: Value) -> Value {
        let shown = request.to_string();
        self.try_call(request).unwrap_or_else(|e| panic!("the browser failed {shown}: {e}"))
    }

    pub fn open(&mut self, url: &str) -> Value {
        self.call(json!({"op": "open", "url": url}))
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, js: &str) -> Value {
        self.call(json!({"op": "eval", "js": js}))
    }

    /// The text of the first element `selector` matches, or `None`.
    pub fn text(&mut self, selector: &str) -> Option<String> {
        self.call(json!({"op": "text", "selector": selector})).as_str().map(str::to_owned)
    }

    pub fn fill(&mut self, selector: &str, text: &str) {
        self.call(json!({"op": "fill", "selector": selector, "text": text}));
    }

    pub fn press(&mut self, selector: &str, key: &str) {
        self.call(json!({"op": "press", "selector": selector, "key": key}));
    }

    pub fn click(&mut self, selector: &str) {
        self.call(json!({"op": "click", "selector": selector}));
    }

    pub fn screenshot(&mut self, path: &std::path::Path) {
        self.call(json!({"op": "screenshot", "path": path}));
    }

    /// The page's uncaught errors and console errors so far.
    pub fn errors(&mut self) -> Vec<String> {
        serde_json::from_value(self.call(json!({"op": "errors"}))).unwrap_or_default()
    }

    /// Polls `js` every 250 ms until `done` accepts its value; panics with the last value and `what` otherwise.
    pub fn wait_for(&mut self, what: &str, js: &str, timeout: Duration, mut done: impl FnMut(&Value) -> bool) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let value = self.eval(js);
            if done(&value) {
                return value;
            }
            if Instant::now() >= deadline {
                panic!("the page did not show {what} within {timeout:?}; last: {value}");
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.try_call(json!({"op": "close"}));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One plain HTTP/1.1 request; the status and body (the page's API, asked without the browser).
pub fn http(address: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).expect("the dashboard takes connections");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}
