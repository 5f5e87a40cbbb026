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
    // A few of the sandbox's signatures (the real list needs the bot's bindings): calls to others are misses.
    let signatures: [(&str, Vec<String>); 3] = [
        ("mineBlock", vec!["string".into(), "i64".into()]),
        ("placeItem", vec!["string".into(), "Vec3".into()]),
        ("vec3", vec!["i64".into(), "i64".into(), "i64".into()]),
    ];
    let known = Known::new(signatures.iter().map(|(name, params)| (*name, params.as_slice())), None);
    let _ = program(&reply, &known);
    let _ = description(&reply);
    let _ = json_value::<serde_json::Value>(&reply, Json::Object);
    let _ = json_value::<Vec<serde_json::Value>>(&reply, Json::Array);
});
