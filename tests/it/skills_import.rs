//! `wayfarer skills import`: a library from elsewhere comes in from a folder or one JSON file; skills that do not
//! compile or say nothing of themselves are listed with the reason and the rest still come in; a taken name keeps
//! both; the imported skills are found by search (with the real embedding model, as `make test` provides it).

use std::path::{Path, PathBuf};

use crate::support::{fresh_dir, printed as text, skills_command as skills};

fn temp_dir(tag: &str) -> PathBuf {
    fresh_dir(&format!("import-{tag}"))
}

fn write(dir: &Path, file: &str, content: &str) {
    std::fs::write(dir.join(file), content).unwrap();
}

#[test]
fn imports_a_folder_and_a_json_file_and_reports_what_it_skipped() {
    let library = temp_dir("library");
    write(&library, "craftBed.rhai", "fn craftBed() { craftItem(\"white_bed\", 1) }\n");
    write(
        &library,
        "craftBed.json",
        r#"{"description": "Crafts a white bed from wool and planks.", "task": "", "created": "", "version": 1}"#,
    );

    // A folder as another agent's run leaves it: descriptions in JSON or as doc comments, one skill in JavaScript,
    // one with nothing said about it, and a name already in the library.
    let folder = temp_dir("folder");
    write(&folder, "craftBed.rhai", "fn craftBed() { craftItem(\"red_bed\", 1) }\n");
    write(&folder, "craftBed.json", r#"{"description": "Makes a bed to sleep through the night."}"#);
    write(
        &folder,
        "plantWheatSeeds.rhai",
        "/// Plants wheat seeds on farmland near the bot.\nfn plantWheatSeeds(count) { placeItem(\"wheat_seeds\", position()) }\n",
    );
    write(&folder, "smeltSand.rhai", "async function smeltSand(bot) { await bot.smelt('sand') }\n");
    write(&folder, "smeltSand.json", r#"{"description": "Smelts sand into glass."}"#);
    write(&folder, "mystery.rhai", "fn mystery() { 1 }\n");
    let out = skills(&library, &["import", folder.to_str().unwrap()]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Imported 2 of 4 skills; 2 skipped"), "{said}");
    assert!(said.contains("craftBedV2()  (craftBed was taken)"), "{said}");
    assert!(said.contains("skipped smeltSand: skill smeltSand does not compile"), "{said}");
    assert!(said.contains("skipped mystery: it has no description"), "{said}");
    assert!(library.join("plantWheatSeeds.json").exists() && library.join("craftBedV2.rhai").exists());
    assert!(
        std::fs::read_to_string(library.join("craftBed.rhai")).unwrap().contains("white_bed"),
        "the old skill was overwritten"
    );
    let meta = std::fs::read_to_string(library.join("plantWheatSeeds.json")).unwrap();
    assert!(meta.contains("Plants wheat seeds on farmland near the bot."), "{meta}");

    // One JSON file of {name: {description, code}}, with --replace.
    let json = temp_dir("json").join("skills.json");
    std::fs::write(
        &json,
        r#"{
            "craftBed": {"description": "Crafts a bed (any colour) to skip the night.", "code": "fn craftBed() { craftItem(\"blue_bed\", 1) }"},
            "cookBeef": {"description": "Cooks raw beef in a furnace for better food.", "code": "fn cookBeef(count) { smeltItem(\"beef\", \"coal\", count) }"},
            "noCode": {"description": "Says nothing."}
        }"#,
    )
    .unwrap();
    let out = skills(&library, &["import", "--replace", json.to_str().unwrap()]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Imported 2 of 3 skills; 1 skipped"), "{said}");
    assert!(said.contains("craftBed()  (replaced; now version 2)"), "{said}");
    assert!(said.contains("skipped noCode: it has no \"code\""), "{said}");
    assert!(std::fs::read_to_string(library.join("craftBed.rhai")).unwrap().contains("blue_bed"));

    // Every imported skill is searchable.
    let out = skills(&library, &["search", "-k", "1", "cook", "some", "meat"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("cookBeef(count)"), "{said}");
}

#[test]
fn a_source_with_nothing_to_import_is_an_error_that_says_why() {
    let library = temp_dir("empty-library");
    let dir = temp_dir("bad");
    std::fs::write(dir.join("broken.json"), "{ not json").unwrap();
    let out = skills(&library, &["import", dir.join("broken.json").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("is not JSON"), "{}", text(&out));

    let out = skills(&library, &["import", library.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("is the library itself"), "{}", text(&out));

    let out = skills(&library, &["import", dir.join("missing.json").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("cannot read"), "{}", text(&out));

    std::fs::write(
        dir.join("js.json"),
        r#"{"mineLog": {"description": "Mines a log.", "code": "await bot.dig(log)"}}"#,
    )
    .unwrap();
    let out = skills(&library, &["import", dir.join("js.json").to_str().unwrap()]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(said.contains("skipped mineLog") && said.contains("no skill from"), "{said}");
    assert_eq!(
        std::fs::read_dir(&library)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "rhai"))
            .count(),
        0
    );
}
