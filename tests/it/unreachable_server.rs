//! An address with no server, or one that does not resolve, ends the run at once with one clear line and a
//! non-zero exit code.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn refused_connection_is_a_clear_error() {
    // Bind and drop a listener to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut bot = Bot::start(&format!("127.0.0.1:{port}"), &[]);
    let status = bot.wait_exit(Duration::from_secs(20)).expect("the bot kept running against a closed port");
    assert!(!status.success());
    let line = bot.expect_log("error:", Duration::from_secs(1));
    assert!(line.contains(&format!("cannot connect to 127.0.0.1:{port}")), "{line}");
    assert!(line.contains("refused"), "{line}");
}

#[test]
fn unresolvable_host_is_a_clear_error() {
    let mut bot = Bot::start("no-such-host.invalid:25565", &[]);
    let status = bot.wait_exit(Duration::from_secs(30)).expect("the bot kept running against an unknown host");
    assert!(!status.success());
    let line = bot.expect_log("error:", Duration::from_secs(1));
    assert!(line.contains("cannot resolve server address no-such-host.invalid:25565"), "{line}");
}

#[test]
fn invalid_flags_are_a_clear_error() {
    let mut bot = Bot::start("127.0.0.1:1", &["--username", "this name has spaces"]);
    let status = bot.wait_exit(Duration::from_secs(10)).expect("the bot ran with an invalid name");
    assert!(!status.success());
    bot.expect_log("error: invalid username \"this name has spaces\"", Duration::from_secs(1));
}
