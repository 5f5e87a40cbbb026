//! The stream on disk, in temporary folders: what survives a restart and a crash, replacement, the bound, ratings and
//! the reflection trigger; recall by meaning with the real model (from `WAYFARER_MODELS` or `make models`).

use super::*;
use crate::skills::tests::embedder;

fn temp_dir(tag: &str) -> crate::TestDir {
    crate::test_dir(&format!("memory-{tag}"))
}

fn open(dir: &Path) -> MemoryStream {
    MemoryStream::open(dir, Settings::default()).unwrap().0
}

fn seen(block: &str, pos: [i32; 3], count: u32) -> NewMemory {
    NewMemory::new(
        format!("{count} {block} at {} {} {}", pos[0], pos[1], pos[2]),
        Subject::Seen { block: block.into(), count },
    )
    .at(pos, Some("minecraft:forest".into()))
}

fn chest(pos: [i32; 3], items: &[(&str, u32)]) -> NewMemory {
    let items: BTreeMap<String, u32> = items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect();
    NewMemory::new(format!("the chest at {pos:?} holds {items:?}"), Subject::Chest { items }).at(pos, None)
}

#[test]
fn a_restart_keeps_every_memory_and_when_it_was_recalled() {
    let dir = temp_dir("restart");
    let mut stream = open(&dir);
    stream.set_spawn([0, 64, 0]).unwrap();
    let iron = stream.record(seen("iron_ore", [120, 12, -40], 3), 1_000).unwrap();
    let said = stream
        .record(NewMemory::new("Alex said: build a shelter", Subject::Heard { from: "Alex".into() }), 1_200)
        .unwrap();
    stream.rate(&[(said, 7)]).unwrap();
    stream.recall("iron", 5_000, 1).unwrap();
    let before: Vec<Memory> = stream.memories().cloned().collect();
    drop(stream);

    let stream = open(&dir);
    let after: Vec<Memory> = stream.memories().cloned().collect();
    assert_eq!(after, before);
    assert_eq!(stream.get(iron).unwrap().accessed, 5_000, "the recall was kept");
    assert_eq!((stream.get(said).unwrap().importance, stream.get(said).unwrap().provisional), (7, false));
    assert_eq!(stream.spawn(), [0, 64, 0]);
    assert!(stream.get(said).unwrap().expires.is_some(), "chat expires");
}

#[test]
fn a_torn_log_loses_at_most_the_last_entry() {
    let dir = temp_dir("torn");
    let mut stream = open(&dir);
    for i in 0..5 {
        stream.record(NewMemory::new(format!("fact {i}"), Subject::Told { by: "Alex".into() }), i * 10).unwrap();
    }
    drop(stream);
    let path = dir.join(LOG_FILE);
    let bytes = std::fs::read(&path).unwrap();
    // Cut the file in the middle of its last line, as a crash while writing would.
    let last_line = bytes[..bytes.len() - 1].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    std::fs::write(&path, &bytes[..last_line + (bytes.len() - last_line) / 2]).unwrap();

    let (mut stream, opened) = MemoryStream::open(&dir, Settings::default()).unwrap();
    assert_eq!(stream.len(), 4);
    assert!(opened.warnings[0].contains("cut off"), "{:?}", opened.warnings);
    let id = stream.record(NewMemory::new("fact 5", Subject::Told { by: "Alex".into() }), 60).unwrap();
    assert_eq!(id, 4, "the lost entry's id is given again: it was never seen");
    drop(stream);
    assert_eq!(open(&dir).len(), 5);
}

#[test]
fn newer_sightings_and_chest_contents_replace_older_ones() {
    let dir = temp_dir("replace");
    let mut stream = open(&dir);
    stream.record(chest([4, 64, 9], &[("coal", 12)]), 10).unwrap();
    stream.record(chest([30, 64, 9], &[("dirt", 3)]), 11).unwrap();
    stream.record(chest([4, 64, 9], &[("coal", 7), ("stick", 2)]), 20).unwrap();
    let chests = stream.chests();
    assert_eq!(chests.len(), 2);
    let here = chests.iter().find(|(pos, _, _)| *pos == [4, 64, 9]).unwrap();
    assert_eq!((here.1.get("coal"), here.2), (Some(&7), 20));

    let first = stream.record(seen("iron_ore", [120, 12, -40], 3), 30).unwrap();
    let gathered = stream.gathered();
    let again = stream.record(seen("iron_ore", [121, 13, -41], 2), 40).unwrap();
    assert!(stream.get(first).is_none() && stream.get(again).unwrap().restated);
    assert_eq!(stream.gathered(), gathered - 5, "a restated sighting is not news");
    stream.record(seen("coal_ore", [121, 13, -41], 5), 41).unwrap();
    stream.record(seen("iron_ore", [300, 12, -40], 1), 42).unwrap();
    let iron = stream.sightings("iron_ore");
    assert_eq!(iron.iter().map(|(p, n, _)| (*p, *n)).collect::<Vec<_>>(), [([121, 13, -41], 2), ([300, 12, -40], 1)]);
    assert_eq!(stream.forget_sightings("iron_ore", &[places::cell([120, 40, -40])]).unwrap(), 0, "another height");
    assert_eq!(stream.forget_sightings("iron_ore", &[places::cell([125, 10, -35])]).unwrap(), 1);
    assert_eq!(stream.sightings("coal_ore").len(), 1, "other blocks stay");
}

#[test]
fn forgetting_by_words_and_the_bound() {
    let dir = temp_dir("bound");
    let settings = Settings { max_memories: 100, ..Settings::default() };
    let mut stream = MemoryStream::open(&dir, settings).unwrap().0;
    let insight = stream.record_insight("Alex wants iron", vec![], 0).unwrap();
    let important = stream.record(NewMemory::new("I died in lava at 3 11 8", Subject::Died), 1).unwrap();
    for i in 0..150 {
        stream
            .record(NewMemory::new(format!("walked past tree {i}"), Subject::Met { player: format!("P{i}") }), 2 + i)
            .unwrap();
    }
    assert!(stream.len() <= 100, "{}", stream.len());
    assert!(stream.get(insight).is_some() && stream.get(important).is_some(), "insights and important memories stay");
    assert!(stream.get(2).is_none(), "old dull observations went first");

    let gone = stream.forget_matching("TREE 149").unwrap();
    assert_eq!(gone.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["walked past tree 149"]);
    assert!(stream.forget_matching("   ").unwrap().is_empty());
    let len = stream.len();
    drop(stream);
    assert_eq!(MemoryStream::open(&dir, settings).unwrap().0.len(), len);
}

#[test]
fn ratings_and_the_reflection_trigger() {
    let dir = temp_dir("trigger");
    let settings = Settings { reflect_after: 19, ..Settings::default() };
    let mut stream = MemoryStream::open(&dir, settings).unwrap().0;
    let heard = |text: &str| NewMemory::new(text, Subject::Heard { from: "Alex".into() });
    let a = stream.record(heard("Alex: hello"), 10).unwrap();
    let b = stream.record(heard("Alex: my house burned down"), 11).unwrap();
    assert_eq!(stream.unrated(10).iter().map(|(id, _)| *id).collect::<Vec<_>>(), [a, b]);
    assert_eq!(stream.gathered(), 2 * u32::from(importance::PROVISIONAL));
    stream.rate(&[(a, 1), (b, 9), (999, 4)]).unwrap();
    assert!(stream.unrated(10).is_empty());
    assert_eq!(stream.gathered(), 10);
    assert!(!stream.reflection_due());
    stream.record(NewMemory::new("I died", Subject::Died), 12).unwrap();
    assert!(stream.reflection_due());
    let insight = stream.record_insight("Alex has had a hard day", vec![b, a], 13).unwrap();
    assert_eq!(stream.get(insight).unwrap().importance, 9, "as important as its weightiest evidence");
    stream.reflected(13).unwrap();
    assert_eq!(stream.gathered(), 0);
    stream.record(NewMemory::new("I was hurt by a zombie", Subject::Hurt { by: "zombie".into() }), 14).unwrap();
    assert_eq!(stream.gathered(), 6);
    drop(stream);
    let stream = MemoryStream::open(&dir, settings).unwrap().0;
    assert_eq!(stream.gathered(), 6, "the last reflection is remembered");
    assert_eq!(stream.get(insight).unwrap().evidence, [b, a]);
}

#[test]
fn recall_by_meaning_and_an_index_that_rebuilds_itself() {
    let dir = temp_dir("meaning");
    let mut stream = open(&dir);
    stream.attach(embedder()).unwrap();
    let coal = stream.record(chest([4, 64, 9], &[("coal", 12)]), 100).unwrap();
    let texts = [
        "Alex asked me to build a shelter before night",
        "a zombie hit me near the river",
        "I crafted a wooden pickaxe",
        "Steve said the weather is nice",
    ];
    for (i, text) in texts.iter().enumerate() {
        stream.record(NewMemory::new(*text, Subject::Heard { from: "Alex".into() }), 200 + i as u64).unwrap();
    }
    let found = stream.recall("where can I get fuel for the furnace", 300, 2).unwrap();
    assert_eq!(found[0].memory.id, coal, "{found:?}");
    let found = stream.recall("who attacked me", 300, 1).unwrap();
    assert!(found[0].memory.text.contains("zombie"), "{found:?}");
    drop(stream);

    // Fewer changes than a save needs: the index on disk lacks them and the next start embeds them again.
    let mut stream = open(&dir);
    let report = stream.attach(embedder()).unwrap();
    assert!(report.contains("5 embedded now"), "{report}");
    assert!(stream.recall("crafting tools", 400, 1).unwrap()[0].memory.text.contains("pickaxe"));
    stream.forget_matching("weather").unwrap();
    drop(stream);

    // A damaged index is rebuilt from the log.
    std::fs::write(dir.join("memories.usearch"), b"not an index").unwrap();
    let mut stream = open(&dir);
    let report = stream.attach(embedder()).unwrap();
    assert!(report.contains("4 embedded now") && report.contains("rebuilt"), "{report}");
    assert!(stream.recall("the weather", 500, 5).unwrap().iter().all(|r| !r.memory.text.contains("weather")));
}

#[test]
fn without_the_model_recall_matches_words() {
    let dir = temp_dir("words");
    let mut stream = open(&dir);
    stream.record(chest([4, 64, 9], &[("coal", 12)]), 100).unwrap();
    stream.record(NewMemory::new("a zombie hit me", Subject::Hurt { by: "zombie".into() }), 101).unwrap();
    let found = stream.recall("the coal chest", 200, 1).unwrap();
    assert!(found[0].memory.text.contains("coal"), "{found:?}");
}

#[test]
fn ages_read_in_game_time() {
    assert_eq!(age_text(40), "just now");
    assert_eq!(age_text(20 * 40), "40 s ago");
    assert_eq!(age_text(20 * 60 * 5), "5 min ago");
    assert_eq!(age_text(20 * 3600 * 3), "3 h ago");
    assert_eq!(age_text(20 * 86_400 * 2), "2 days ago");
}
