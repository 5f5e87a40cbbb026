//! Runaway scripts — an endless loop, endless recursion, a string growing toward a gigabyte, a call to a function
//! that does not exist — each end within a second with a clear error, and the bot stays connected and obeying.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn runaway_scripts_are_stopped_and_the_bot_carries_on() {
    let scripts = ScriptDir::new(
        "sandbox",
        &[
            ("spin.rhai", "let n = 0;\nloop { n += 1; }"),
            ("recurse.rhai", "fn down(n) { down(n + 1) }\ndown(0)"),
            ("huge.rhai", "let s = \"x\";\nloop { s += s; }"),
            ("ghost.rhai", "chat(\"about to fly\");\nflyToTheMoon(3)"),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    let cases = [
        ("spin", "failed at line 2", "endless loop"),
        ("recurse", "failed at line 2", "endless recursion"),
        ("huge", "failed at line 2", "grew past its limit"),
        ("ghost", "failed at line 2", "flyToTheMoon"),
    ];
    for (name, line, message) in cases {
        let done = run_script(&world, name, Duration::from_secs(10));
        assert!(done.contains(line) && done.contains(message), "{name}: {done}");
        let secs: f64 = done.split(" after ").nth(1).unwrap().split(" s").next().unwrap().parse().unwrap();
        // The limits end these in tenths of a second on their own (the deadline is ten minutes away); three
        // scenarios sharing two cores have stretched that to 1.2 s.
        assert!(secs < 2.0, "{name} ran {secs} s before it was stopped");
        let from = world.say("Alice", "!status");
        world.expect_chat(from, "Wayfarer", "| idle", Duration::from_secs(5));
    }
}
