#![no_main]
//! `wayfarer.toml` as a user might write it.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::config::{Config, Overrides, ServerAddress};

fuzz_target!(|data: &[u8]| {
    let text = wayfarer_fuzz::text(data);
    let _ = Config::from_toml(&text, Overrides::default());
    let _ = ServerAddress::parse(&text);
});
