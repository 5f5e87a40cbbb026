//! Test support: start the test world (`tests/server`, a Node process) and the real `wayfarer` binary, talk to the
//! world's control channel, and wait for what happens.
//!
//! Every wait has a timeout and panics with what was seen instead, so a failing scenario says why.

#![allow(dead_code)] // each scenario file uses a different part of this module

use std::{
    io::{BufRead, BufReader, Read, Write},
    path::PathBuf,
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Condvar, Mutex,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use serde_json::{Value, json};

pub mod browser;
pub mod fake_llm;
pub mod mcp;
pub mod pg;

/// Where the bots spawn in the test world (feet position).
pub const SPAWN: [f64; 3] = [0.5, 64.0, 0.5];

/// Lines collected from a child process, with a condition variable to wait on.
#[derive(Clone, Default)]
struct Lines(Arc<(Mutex<Vec<String>>, Condvar)>);

impl Lines {
    fn push(&self, line: String) {
        let (lines, ready) = &*self.0;
        lines.lock().unwrap().push(line);
        ready.notify_all();
    }

    /// Waits until a line at index `from` or later satisfies `pred`; returns its index and text.
    fn wait(&self, from: usize, timeout: Duration, mut pred: impl FnMut(&str) -> bool) -> Option<(usize, String)> {
        let deadline = Instant::now() + timeout;
        let (lines, ready) = &*self.0;
        let mut guard = lines.lock().unwrap();
        loop {
            if let Some((i, line)) = guard.iter().enumerate().skip(from).find(|(_, l)| pred(l)) {
                return Some((i, line.clone()));
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            guard = ready.wait_timeout(guard, deadline - now).unwrap().0;
        }
    }

    fn len(&self) -> usize {
        self.0.0.lock().unwrap().len()
    }

    fn snapshot(&self) -> Vec<String> {
        self.0.0.lock().unwrap().clone()
    }
}

fn collect(stream: impl Read + Send + 'static, lines: Lines, echo: &'static str) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if std::env::var_os("WAYFARER_TEST_ECHO").is_some() {
                eprintln!("[{echo}] {line}");
            }
            lines.push(line);
        }
    });
}

/// The checkout the tests run in: cargo says so at run time (the compiled-in path can be another clone's when a
/// build cache is shared).
pub fn repo_root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// A player as the world sees it.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub pos: [f64; 3],
    pub virtual_player: bool,
}

impl Player {
    pub fn distance_to(&self, p: [f64; 3]) -> f64 {
        ((self.pos[0] - p[0]).powi(2) + (self.pos[1] - p[1]).powi(2) + (self.pos[2] - p[2]).powi(2)).sqrt()
    }
}

/// A running test world.
pub struct World {
    child: Child,
    stdin: Mutex<ChildStdin>,
    pub port: u16,
    events: Lines,
    replies: Arc<Mutex<std::collections::HashMap<u64, mpsc::Sender<Value>>>>,
    next_id: AtomicU64,
    log: Lines,
}

impl World {
    /// Starts the world on a free port.
    pub fn start() -> World {
        Self::start_on(0)
    }

    /// Starts the world on `port` (0 = any free port) and waits for its ready line.
    pub fn start_on(port: u16) -> World {
        Self::start_with(port, &[])
    }

    /// Starts a seeded natural world (terrain, caves, ores, trees; day, mobs as `extra` says) on a free port.
    pub fn start_natural(seed: u64, extra: &[&str]) -> World {
        let seed = seed.to_string();
        let mut args = vec!["--world", "natural", "--seed", &seed];
        args.extend_from_slice(extra);
        Self::start_with(0, &args)
    }

    /// Starts the world on `port` with more of `server.js`'s arguments (`--world natural --seed 7 --mobs off`).
    pub fn start_with(port: u16, args: &[&str]) -> World {
        let dir = repo_root().join("tests/server");
        assert!(
            dir.join("node_modules/minecraft-protocol").is_dir(),
            "the test world's npm packages are missing: run `npm ci --prefix tests/server` (or `make setup`)"
        );
        let mut child = Command::new("node")
            .arg(dir.join("server.js"))
            .args(["--port", &port.to_string()])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start `node` for the test world: is Node.js installed?");
        let stdin = child.stdin.take().unwrap();
        let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
        let log = Lines::default();
        collect(stderr, log.clone(), "world");

        let events = Lines::default();
        let replies: Arc<Mutex<std::collections::HashMap<u64, mpsc::Sender<Value>>>> = Default::default();
        let (ready_tx, ready_rx) = mpsc::channel();
        {
            let (events, replies) = (events.clone(), replies.clone());
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if std::env::var_os("WAYFARER_TEST_ECHO").is_some() {
                        eprintln!("[world>] {line}");
                    }
                    if let Some(ready) = line.strip_prefix("READY ") {
                        let _ = ready_tx.send(ready.to_owned());
                        continue;
                    }
                    let Ok(value) = serde_json::from_str::<Value>(&line) else { continue };
                    if let Some(id) = value.get("id").and_then(Value::as_u64) {
                        if let Some(tx) = replies.lock().unwrap().remove(&id) {
                            let _ = tx.send(value);
                        }
                    } else if value.get("event").is_some() {
                        events.push(line);
                    }
                }
            });
        }
        let ready = match ready_rx.recv_timeout(Duration::from_secs(30)) {
            Ok(ready) => ready,
            Err(_) => {
                let _ = child.kill();
                panic!("the test world did not print READY within 30 s; its log:\n{}", log.snapshot().join("\n"));
            }
        };
        let port = serde_json::from_str::<Value>(&ready).unwrap()["port"].as_u64().unwrap() as u16;
        World { child, stdin: Mutex::new(stdin), port, events, replies, next_id: AtomicU64::new(1), log }
    }

    /// `127.0.0.1:PORT`
    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Sends one control command and waits for its reply; `Err` carries the world's error text.
    pub fn try_cmd(&self, mut request: Value) -> Result<Value, String> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        request["id"] = json!(id);
        let (tx, rx) = mpsc::channel();
        self.replies.lock().unwrap().insert(id, tx);
        {
            let mut stdin = self.stdin.lock().unwrap();
            writeln!(stdin, "{request}").expect("the test world's control channel is closed");
            stdin.flush().unwrap();
        }
        let reply = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_else(|_| panic!("no reply to {request}"));
        if reply["ok"].as_bool() == Some(true) {
            Ok(reply.get("result").cloned().unwrap_or(Value::Null))
        } else {
            Err(reply["error"].as_str().unwrap_or("unknown error").to_owned())
        }
    }

    pub fn cmd(&self, request: Value) -> Value {
        let text = request.to_string();
        self.try_cmd(request).unwrap_or_else(|e| panic!("world command {text} failed: {e}"))
    }

    /// Adds a player the test controls (it looks like any other player to the bots).
    pub fn add_player(&self, name: &str, pos: [f64; 3]) {
        self.cmd(json!({"cmd": "addPlayer", "name": name, "x": pos[0], "y": pos[1], "z": pos[2]}));
    }

    pub fn move_player(&self, name: &str, pos: [f64; 3]) {
        self.cmd(json!({"cmd": "movePlayer", "name": name, "x": pos[0], "y": pos[1], "z": pos[2]}));
    }

    /// `name` says `text` in chat. Returns the event cursor from before the line was said.
    pub fn say(&self, name: &str, text: &str) -> usize {
        let cursor = self.cursor();
        self.cmd(json!({"cmd": "say", "as": name, "text": text}));
        cursor
    }

    pub fn players(&self) -> Vec<Player> {
        let list = self.cmd(json!({"cmd": "players"}));
        list.as_array()
            .expect("players returns a list")
            .iter()
            .map(|p| Player {
                name: p["name"].as_str().unwrap().to_owned(),
                pos: [p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap(), p["z"].as_f64().unwrap()],
                virtual_player: p["virtual"].as_bool().unwrap_or(false),
            })
            .collect()
    }

    pub fn player(&self, name: &str) -> Player {
        let players = self.players();
        players
            .iter()
            .find(|p| p.name == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} is not in the world; players: {players:?}"))
    }

    /// The index the next event will have: pass it to the waits to see only what comes after.
    pub fn cursor(&self) -> usize {
        self.events.len()
    }

    /// Every event from index `from` on.
    pub fn events_since(&self, from: usize) -> Vec<Value> {
        self.events.snapshot().iter().skip(from).filter_map(|line| serde_json::from_str(line).ok()).collect()
    }

    /// Waits for an event (a JSON object) after `from` that satisfies `pred`.
    pub fn wait_event(&self, from: usize, timeout: Duration, mut pred: impl FnMut(&Value) -> bool) -> Option<Value> {
        self.events
            .wait(from, timeout, |line| serde_json::from_str::<Value>(line).is_ok_and(|v| pred(&v)))
            .map(|(_, line)| serde_json::from_str(&line).unwrap())
    }

    /// Waits for `from_player` to say something containing `needle`; panics with the chat seen so far if not.
    pub fn expect_chat(&self, from: usize, from_player: &str, needle: &str, timeout: Duration) -> String {
        let found = self.wait_event(from, timeout, |e| {
            e["event"] == "chat" && e["from"] == from_player && e["text"].as_str().is_some_and(|t| t.contains(needle))
        });
        match found {
            Some(event) => event["text"].as_str().unwrap().to_owned(),
            None => panic!(
                "{from_player} did not say {needle:?} within {timeout:?}; chat seen:\n{}",
                self.chat_since(from).join("\n")
            ),
        }
    }

    /// Every chat line after `from`, as `<name> text`.
    pub fn chat_since(&self, from: usize) -> Vec<String> {
        self.events
            .snapshot()
            .iter()
            .skip(from)
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|e| e["event"] == "chat")
            .map(|e| format!("<{}> {}", e["from"].as_str().unwrap_or("?"), e["text"].as_str().unwrap_or("")))
            .collect()
    }

    /// Waits until `name` has joined (after `from`).
    pub fn expect_join(&self, from: usize, name: &str, timeout: Duration) {
        if self.wait_event(from, timeout, |e| e["event"] == "join" && e["name"] == name).is_none() {
            panic!("{name} did not join within {timeout:?}; world log:\n{}", self.log.snapshot().join("\n"));
        }
    }

    /// The block column players spawn in.
    pub fn spawn_column(&self) -> (i64, i64) {
        let spawn = self.cmd(json!({ "cmd": "world" }))["spawn"].clone();
        (spawn["x"].as_f64().unwrap().floor() as i64, spawn["z"].as_f64().unwrap().floor() as i64)
    }

    /// The y a player stands at on column x, z (one above its top solid block).
    pub fn ground_y(&self, x: i64, z: i64) -> i64 {
        self.cmd(json!({ "cmd": "surface", "x": x, "z": z }))["y"].as_i64().unwrap() + 1
    }

    /// Kills the world process at once, as a crash would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `wayfarer` process.
pub struct Bot {
    child: Child,
    log: Lines,
    /// The bot's own empty skill library, unless the test passed `--skills`.
    skills: PathBuf,
}

impl Bot {
    /// Runs `wayfarer run --server ADDRESS` with `args` and the test's log level.
    pub fn start(address: &str, args: &[&str]) -> Bot {
        Self::start_subcommand("run", address, args)
    }

    /// Runs `wayfarer SUBCOMMAND --server ADDRESS` with `args`; its standard output and error are the log.
    pub fn start_subcommand(subcommand: &str, address: &str, args: &[&str]) -> Bot {
        static BOTS: AtomicU64 = AtomicU64::new(0);
        let skills = std::env::temp_dir().join(format!(
            "wayfarer-test-skills-{}-{}",
            std::process::id(),
            BOTS.fetch_add(1, Ordering::Relaxed)
        ));
        let mut child = Command::new(env!("CARGO_BIN_EXE_wayfarer"))
            .args([subcommand, "--server", address])
            .args(args)
            .env("RUST_LOG", "warn,wayfarer=debug")
            .env("WAYFARER_SKILLS", &skills)
            .env("WAYFARER_CHECKPOINT", skills.with_extension("checkpoint"))
            .env_remove("WAYFARER_CONFIG")
            .env_remove("WAYFARER_STORE")
            // No LLM unless a test passes --llm-url.
            .env_remove("OPENAI_API_KEY")
            .env_remove("WAYFARER_LLM_URL")
            .env_remove("WAYFARER_LLM_MODEL")
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start the wayfarer binary");
        let log = Lines::default();
        collect(child.stdout.take().unwrap(), log.clone(), "bot");
        collect(child.stderr.take().unwrap(), log.clone(), "bot");
        Bot { child, log, skills }
    }

    /// Waits for a log line containing `needle`; panics with the log so far if it does not come.
    pub fn expect_log(&self, needle: &str, timeout: Duration) -> String {
        match self.log.wait(0, timeout, |l| l.contains(needle)) {
            Some((_, line)) => line,
            None => panic!("the bot did not log {needle:?} within {timeout:?}; its log:\n{}", self.log_text()),
        }
    }

    /// Waits for `count` distinct log lines containing `needle`.
    pub fn expect_log_count(&self, needle: &str, count: usize, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let mut from = 0;
        for _ in 0..count {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.log.wait(from, left, |l| l.contains(needle)) {
                Some((i, _)) => from = i + 1,
                None => panic!("the bot logged {needle:?} fewer than {count} times; its log:\n{}", self.log_text()),
            }
        }
    }

    /// The bot process's id (to read its memory use).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_text(&self) -> String {
        self.log.snapshot().join("\n")
    }

    /// Waits for the process to exit by itself; returns its status, or `None` if it is still running.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader threads take the last lines.
                std::thread::sleep(Duration::from_millis(100));
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // A failed test shows what the bot did last: a CI log is all there is to go on.
        // `WAYFARER_TEST_LOGS=DIR` keeps every bot's whole log, one file a process.
        if let Some(dir) = std::env::var_os("WAYFARER_TEST_LOGS") {
            let file = std::path::Path::new(&dir).join(format!("bot-{}.log", self.child.id()));
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(file, self.log.snapshot().join("\n"));
        }
        if std::thread::panicking() {
            let lines = self.log.snapshot();
            let tail = &lines[lines.len().saturating_sub(120)..];
            eprintln!(
                "--- the bot's last {} log lines ---\n{}\n--- end of the bot's log ---",
                tail.len(),
                tail.join("\n")
            );
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.skills);
        let _ = std::fs::remove_dir_all(self.skills.with_extension("checkpoint"));
    }
}

/// Starts a world with an owner `Alice` standing near spawn, and one bot called `name` owned by Alice; waits until
/// the bot has spawned.
pub fn world_with_bot(name: &str) -> (World, Bot) {
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let bot = Bot::start(&world.address(), &["--username", name, "--owner", "Alice"]);
    bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    (world, bot)
}

/// A scripts folder for one test, removed when dropped.
pub struct ScriptDir(pub PathBuf);

impl ScriptDir {
    /// Writes `files` (name, source) into a fresh folder (its own, whatever other scenario runs beside it).
    pub fn new(tag: &str, files: &[(&str, &str)]) -> ScriptDir {
        static DIRS: AtomicU64 = AtomicU64::new(0);
        let n = DIRS.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("wayfarer-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, source) in files {
            std::fs::write(dir.join(name), source).unwrap();
        }
        ScriptDir(dir)
    }

    /// A copy of the starter skill library (`skills/*.rhai` and `*.json`), plus `files`.
    pub fn starter_skills(tag: &str, files: &[(&str, &str)]) -> ScriptDir {
        let dir = ScriptDir::new(tag, files);
        for entry in std::fs::read_dir(repo_root().join("skills")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rhai" || e == "json") {
                std::fs::copy(&path, dir.0.join(path.file_name().unwrap())).unwrap();
            }
        }
        dir
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for ScriptDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Like [`world_with_bot`], the bot called `Wayfarer`, started with `extra` flags besides its name and owner.
pub fn world_with_bot_args(extra: &[&str]) -> (World, Bot) {
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let bot = start_owned_bot(&world, extra);
    (world, bot)
}

/// Starts the bot `Wayfarer`, owned by Alice, with `extra` flags, and waits until it has spawned.
fn start_owned_bot(world: &World, extra: &[&str]) -> Bot {
    let mut args = vec!["--username", "Wayfarer", "--owner", "Alice"];
    args.extend_from_slice(extra);
    let bot = Bot::start(&world.address(), &args);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    bot
}

/// Like [`world_with_bot`], with the bot's scripts folder set to `scripts`.
pub fn world_with_scripted_bot(scripts: &ScriptDir) -> (World, Bot) {
    world_with_bot_args(&["--scripts", scripts.path()])
}

/// Like [`world_with_bot`], with the bot's skill library in `skills` and any `extra` flags.
pub fn world_with_skilled_bot(skills: &ScriptDir, extra: &[&str]) -> (World, Bot) {
    let mut args = vec!["--skills", skills.path()];
    args.extend_from_slice(extra);
    world_with_bot_args(&args)
}

/// A seeded natural world started with `world_args` (`--mobs off`, `--time 18000`…), Alice standing on the ground
/// two blocks from spawn, and the bot `Wayfarer` she owns started with `bot_args`; returns the spawn column too.
pub fn natural_world_with_bot(seed: u64, world_args: &[&str], bot_args: &[&str]) -> (World, Bot, (i64, i64)) {
    let world = World::start_natural(seed, world_args);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    let bot = start_owned_bot(&world, bot_args);
    (world, bot, (sx, sz))
}

/// Gives the bot items through the world and waits until the world counts them in its inventory.
pub fn give(world: &World, player: &str, item: &str, count: u32) {
    world.cmd(json!({"cmd": "give", "name": player, "item": item, "count": count}));
}

/// Waits until bot `bot` itself counts `count` of `item` (its answer to Alice's `!inventory`), not just the world:
/// the items reach the bot a packet later than the world counts them.
pub fn bot_sees(world: &World, bot: &str, item: &str, count: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let needle = format!("{count} {item}");
    loop {
        let from = world.say("Alice", &format!("{bot} !inventory"));
        let reply = world.expect_chat(from, bot, "Inventory:", Duration::from_secs(5));
        let listed = reply.split_once("Inventory:").map_or("", |(_, list)| list);
        if listed.split(',').any(|part| part.trim() == needle) {
            return;
        }
        assert!(Instant::now() < deadline, "{bot} never counted {needle}; it last said {reply:?}");
    }
}

/// The world's count of `item` in `player`'s inventory.
pub fn inventory_count(world: &World, player: &str, item: &str) -> u64 {
    world.cmd(json!({"cmd": "inventory", "name": player}))[item].as_u64().unwrap_or(0)
}

/// The world's count of `item` in the container at `[x, y, z]`, with all the container holds (for messages).
pub fn container_count(world: &World, [x, y, z]: [i64; 3], item: &str) -> (u64, Value) {
    let contents = world.cmd(json!({"cmd": "container", "x": x, "y": y, "z": z}));
    let count = contents
        .as_array()
        .map(|slots| slots.iter().filter(|s| s["item"] == item).filter_map(|s| s["count"].as_u64()).sum())
        .unwrap_or(0);
    (count, contents)
}

/// Says `!run NAME [ARGS]` as Alice and returns the bot's closing line (`… finished …` or `… failed …`).
pub fn run_script(world: &World, name: &str, timeout: Duration) -> String {
    run_script_on(world, "Wayfarer", name, timeout)
}

/// `!run NAME` as the bot `bot` answers it (every bot of the owner runs it): the line saying it finished or failed.
pub fn run_script_on(world: &World, bot: &str, name: &str, timeout: Duration) -> String {
    let from = world.say("Alice", &format!("!run {name}"));
    // `name` may carry arguments: `mineWoodLog 2`.
    let name = name.split_whitespace().next().unwrap_or(name);
    world.expect_chat(from, bot, &format!("Running {name}."), Duration::from_secs(10));
    let done = world.wait_event(from, timeout, |e| {
        e["event"] == "chat"
            && e["from"] == bot
            && e["text"]
                .as_str()
                .is_some_and(|t| t.starts_with(&format!("{name} finished")) || t.starts_with(&format!("{name} failed")))
    });
    match done {
        Some(event) => event["text"].as_str().unwrap().to_owned(),
        None => panic!("{name} did not finish within {timeout:?}; chat:\n{}", world.chat_since(from).join("\n")),
    }
}

/// An empty folder of the test's own, named after `tag` and this process (emptied if a crashed run left it).
pub fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wayfarer-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `wayfarer skills --skills LIBRARY ARGS…`, with no store or configuration file from the environment.
pub fn skills_command(library: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wayfarer"))
        .arg("skills")
        .arg("--skills")
        .arg(library)
        .args(args)
        .env_remove("WAYFARER_STORE")
        .env_remove("WAYFARER_CONFIG")
        .output()
        .expect("the wayfarer binary runs")
}

/// What a command printed, standard output then standard error.
pub fn printed(output: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// Parses the `At X Y Z` part of a `!status` reply.
pub fn status_position(reply: &str) -> [f64; 3] {
    let rest = reply.strip_prefix("At ").unwrap_or_else(|| panic!("not a status reply: {reply:?}"));
    let numbers: Vec<f64> = rest.split_whitespace().take(3).map(|n| n.parse().unwrap()).collect();
    [numbers[0], numbers[1], numbers[2]]
}

/// A scripted endpoint for a team: the leader's planning calls get `stages` in order (the last one again when they
/// run out), every other call a reply that is no plan.
pub fn scripted_leader(runtime: &tokio::runtime::Runtime, stages: &[&str]) -> fake_llm::FakeEndpoint {
    let endpoint = runtime.block_on(fake_llm::FakeEndpoint::start()).unwrap();
    let stages: Mutex<std::collections::VecDeque<String>> =
        Mutex::new(stages.iter().map(|s| (*s).to_owned()).collect());
    endpoint.respond_with(move |request: &Value| {
        if last_user_message(request).starts_with("You lead a team") {
            let mut stages = stages.lock().unwrap();
            if stages.len() > 1 { stages.pop_front().unwrap() } else { stages[0].clone() }
        } else {
            "I am not sure how to do that.".to_owned()
        }
    });
    endpoint
}

/// The last message of a chat-completions request a scripted LLM endpoint received (the newest user turn).
pub fn last_user_message(request: &Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].as_str().unwrap_or("").to_owned())
        .unwrap_or_default()
}

/// The first (system) message of such a request.
pub fn system_message(request: &Value) -> String {
    request["messages"][0]["content"].as_str().unwrap_or("").to_owned()
}
