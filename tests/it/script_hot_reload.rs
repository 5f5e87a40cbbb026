//! Editing a script file takes effect without a restart; a broken edit is reported in chat with its line, and the
//! previous version keeps working; a new file appears in `!scripts`.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn edited_scripts_reload_and_broken_edits_are_reported() {
    let scripts = ScriptDir::new("reload", &[("hello.rhai", "chat(\"version one\")")]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    let path = scripts.0.join("hello.rhai");

    let from = world.say("Alice", "!run hello");
    world.expect_chat(from, "Wayfarer", "version one", Duration::from_secs(10));

    let from = world.cursor();
    std::fs::write(&path, "chat(\"version two\")").unwrap();
    world.expect_chat(from, "Wayfarer", "Scripts: script hello loaded", Duration::from_secs(10));
    let from = world.say("Alice", "!run hello");
    world.expect_chat(from, "Wayfarer", "version two", Duration::from_secs(10));

    let from = world.cursor();
    std::fs::write(&path, "let x = 1;\nchat(\"version three\"").unwrap();
    let report = world.expect_chat(from, "Wayfarer", "Scripts: hello.rhai line", Duration::from_secs(10));
    assert!(report.contains("the previous version stays in use"), "{report}");
    let from = world.say("Alice", "!run hello");
    world.expect_chat(from, "Wayfarer", "version two", Duration::from_secs(10));

    let from = world.cursor();
    std::fs::write(scripts.0.join("fresh.rhai"), "chat(\"fresh\")").unwrap();
    world.expect_chat(from, "Wayfarer", "Scripts: script fresh loaded", Duration::from_secs(10));
    let from = world.say("Alice", "!scripts");
    world.expect_chat(from, "Wayfarer", "Scripts: fresh, hello.", Duration::from_secs(10));
}
