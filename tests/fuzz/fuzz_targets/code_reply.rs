#![no_main]
//! An action reply: its code blocks, the program in them (habits mended, compiled by the one compiler, calls checked),
//! its description line and any JSON in it.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::agent::{
    check::Known,
    extract::{Json, code_blocks, description, json_value, program},
    habits::mend,
};

fuzz_target!(|data: &[u8]| {
    let reply = wayfarer_fuzz::text(data);
    let _ = code_blocks(&reply);
    let _ = mend(&reply);
    let _ = program(&reply, &Known::new(None));
    let _ = description(&reply);
    let _ = json_value::<serde_json::Value>(&reply, Json::Object);
    let _ = json_value::<Vec<serde_json::Value>>(&reply, Json::Array);
});
