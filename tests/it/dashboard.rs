//! The live dashboard in a real browser (headless Chromium) while a real bot lives in a natural world: the page
//! shows the bot, its position follows a `!goto` typed into the page, a `!task` typed there shows its plan with
//! progress bars, skill search answers everyday words; the token guards an address beyond loopback.
//!
//! Screenshots go to `WAYFARER_SCREENSHOTS` (default: `dashboard-screenshots` in the temp folder).

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::{browser::*, *};

#[test]
fn the_page_shows_the_bot_and_its_commands_are_obeyed() {
    let skills = ScriptDir::starter_skills("dashboard", &[]);
    let (world, bot, (sx, sz)) =
        natural_world_with_bot(1009, &["--mobs", "off"], &["--dashboard", "0.0.0.0:0", "--skills", skills.path()]);
    let shots = std::env::var_os("WAYFARER_SCREENSHOTS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("dashboard-screenshots"));

    // Beyond loopback a token is made and printed; the page's address carries it.
    let line = bot.expect_log("dashboard: http://", Duration::from_secs(5));
    let url =
        line.split("dashboard: ").nth(1).unwrap().split_whitespace().next().unwrap().replace("0.0.0.0", "127.0.0.1");
    let token = url.split("?token=").nth(1).expect("a token in the printed address").to_owned();
    assert_eq!(token.len(), 32, "{line}");
    let address = url.trim_start_matches("http://").split('/').next().unwrap().to_owned();

    // Without the token: 401, and nothing happens.
    let from = world.cursor();
    let goto = r#"{"bot": "Wayfarer", "line": "!goto ~5 ~ ~5"}"#;
    let json = [("Content-Type", "application/json")];
    assert_eq!(http(&address, "GET", "/", &[], "").0, 401);
    assert_eq!(http(&address, "GET", "/api/state?token=wrong-token", &[], "").0, 401);
    let (status, body) = http(&address, "POST", "/api/command", &json, goto);
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("needs its token"), "{body}");
    // With it, malformed requests get a clear 4xx and the bot carries on.
    let with = |path: &str| format!("{path}?token={token}");
    let auth = format!("Bearer {token}");
    let (status, body) = http(
        &address,
        "POST",
        "/api/command",
        &[("Content-Type", "application/json"), ("Authorization", &auth)],
        "{\"bot\":",
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) =
        http(&address, "POST", &with("/api/command"), &json, r#"{"bot": "Nobody", "line": "!status"}"#);
    assert_eq!((status, body.contains("no bot called") && body.contains("Nobody")), (404, true), "{body}");
    let (status, body) =
        http(&address, "POST", &with("/api/command"), &json, r#"{"bot": "Wayfarer", "line": "walk over there"}"#);
    assert_eq!((status, body.contains("commands start with !")), (400, true), "{body}");
    let (status, body) =
        http(&address, "POST", &with("/api/command"), &json, r#"{"bot": "Wayfarer", "line": "!goto north"}"#);
    assert_eq!(status, 400, "{body}");
    let (status, body) = http(&address, "GET", &with("/api/map"), &[], "");
    assert_eq!(status, 400, "a map without ?bot=: {body}");
    assert_eq!(http(&address, "GET", &with("/api/nothing-here"), &[], "").0, 404);
    std::thread::sleep(Duration::from_secs(2));
    let said: Vec<String> = world.chat_since(from);
    assert!(said.iter().all(|l| !l.contains("Going to")), "a refused request moved the bot: {said:?}");

    let mut browser = Browser::start();
    assert_eq!(browser.open(&url)["status"], 200);
    // The bot, where the world has it.
    let shown = browser.wait_for(
        "the bot's position",
        "document.querySelector('#pos').textContent",
        Duration::from_secs(15),
        |v| v.as_str().is_some_and(|t| t.split(' ').count() == 3),
    );
    let at: Vec<f64> = shown.as_str().unwrap().split(' ').map(|v| v.parse().unwrap()).collect();
    let me = world.player("Wayfarer");
    assert!(me.distance_to([at[0], at[1], at[2]]) < 1.5, "the page shows {at:?}, the world has {:?}", me.pos);
    assert!(
        browser
            .eval("[...document.querySelectorAll('#bots button')].map(b => b.textContent)")
            .to_string()
            .contains("Wayfarer")
    );
    browser.wait_for("the map", "document.querySelector('#map-note').textContent", Duration::from_secs(10), |v| {
        v.as_str().is_some_and(|t| t.starts_with("y "))
    });
    assert!(browser.text("#health").unwrap().ends_with("/ 20"));

    // A command typed in the page is obeyed: the position the page shows follows the bot there.
    let (tx, tz) = (sx + 6, sz - 4);
    let ty = world.ground_y(tx, tz);
    browser.fill("#command", &format!("!goto {tx} {ty} {tz}"));
    browser.press("#command", "Enter");
    browser.wait_for(
        "the command accepted",
        "document.querySelector('#command-result').textContent",
        Duration::from_secs(5),
        |v| v == "sent to Wayfarer",
    );
    world.expect_chat(from, "Wayfarer", "Arrived at", Duration::from_secs(60));
    let target = [tx as f64 + 0.5, ty as f64, tz as f64 + 0.5];
    let near = |v: &Value| {
        let p: Vec<f64> = v.as_str().unwrap_or_default().split(' ').filter_map(|x| x.parse().ok()).collect();
        p.len() == 3 && ((p[0] - target[0]).powi(2) + (p[2] - target[2]).powi(2)).sqrt() < 1.5
    };
    browser.wait_for(
        "the position after !goto",
        "document.querySelector('#pos').textContent",
        Duration::from_secs(5),
        near,
    );
    assert!(world.player("Wayfarer").distance_to(target) < 1.5);
    // The page's chat has the command and the answers (it is sent once a second, so it may trail the world).
    browser.wait_for("the chat", "document.querySelector('#chat').textContent", Duration::from_secs(5), |v| {
        v.as_str().is_some_and(|chat| chat.contains("Alice (page): Wayfarer: !goto") && chat.contains("Arrived at"))
    });
    browser.screenshot(&shots.join("dashboard-goto.png"));

    // A goal typed in the page shows its plan, with a bar per tracked step that fills as the bot works.
    browser.fill("#command", "!task craft a wooden pickaxe");
    browser.press("#command", "Enter");
    let bars = "[...document.querySelectorAll('[data-testid=task-bar]')].map(b => Number(b.dataset.percent))";
    browser.wait_for("progress bars", bars, Duration::from_secs(20), |v| v.as_array().is_some_and(|a| a.len() >= 4));
    // Part-way: some bar is partly or wholly filled while the goal is still active.
    browser.wait_for(
        "a bar filling",
        &format!("document.querySelector('#goal').textContent.includes('active') ? {bars} : []"),
        Duration::from_secs(180),
        |v| v.as_array().is_some_and(|a| a.iter().any(|p| p.as_u64().is_some_and(|p| p > 0))),
    );
    browser.screenshot(&shots.join("dashboard-task.png"));
    let goal = browser.wait_for(
        "the goal completed",
        "document.querySelector('#goal').textContent",
        Duration::from_secs(300),
        |v| v.as_str().is_some_and(|t| t.contains("completed") || t.contains("failed")),
    );
    assert!(goal.as_str().unwrap().contains("craft a wooden pickaxe — completed"), "{goal}");
    let filled = browser.eval(bars);
    assert!(filled.as_array().unwrap().iter().all(|p| p == 100), "every bar full at the end: {filled}");
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    let code = browser.text("#code").unwrap();
    assert!(code.contains("fn "), "the code of the last step is shown: {code}");

    // Skill search, with the same retrieval as !skills: everyday words find the skill.
    browser.fill("#skill-search", "craft a workbench");
    browser.press("#skill-search", "Enter");
    let results = "document.querySelector('#skill-results').dataset.query === 'craft a workbench' ? \
                   [...document.querySelectorAll('#skill-results [data-skill]')].map(s => s.dataset.skill) : null";
    let found = browser.wait_for("skill results", results, Duration::from_secs(60), |v| v.is_array());
    assert_eq!(found[0], "craftCraftingTable", "{found}");
    browser.click("#skill-results [data-skill]");
    browser.wait_for(
        "the skill's code",
        "document.querySelector('#skill-detail pre')?.textContent ?? ''",
        Duration::from_secs(5),
        |v| v.as_str().is_some_and(|c| c.contains("fn craftCraftingTable")),
    );

    // The memory stream has the goal the page asked for, as said in chat.
    browser.click("#tabs [data-tab=memory]");
    browser.wait_for(
        "the memory of the goal",
        "document.querySelector('#memory').textContent",
        Duration::from_secs(10),
        |v| v.as_str().is_some_and(|t| t.contains("Alice asked me to craft a wooden pickaxe")),
    );
    browser.click("#tabs [data-tab=skills]");
    browser.screenshot(&shots.join("dashboard.png"));
    let errors = browser.errors();
    assert!(errors.is_empty(), "the page logged errors: {errors:?}");
    eprintln!("screenshots in {}", shots.display());
}
