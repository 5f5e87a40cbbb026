use std::path::{Path, PathBuf};

use super::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/blueprints").join(name)
}

fn at(blueprint: &Blueprint, x: i32, y: i32, z: i32) -> Option<String> {
    blueprint.parts.iter().find(|p| p.at == [x, y, z]).map(|p| p.block.to_string())
}

const BOX: &str = "\
# a tiny box
description: a tiny cobblestone box with an oak door
palette:
  c = cobblestone
  d = oak_door[facing=south]
  s = oak_stairs[facing=north,half=top]
layer 0
  ccc
  c.c
  cdc
layer 1
  ccc
  c.c
  c c
layer 2
  sss
";

#[test]
fn the_text_format_reads_layers_bottom_up_rows_north_to_south() {
    let box_ = text::parse(BOX, "box").unwrap();
    assert_eq!(box_.name, "box");
    assert_eq!(box_.description, "a tiny cobblestone box with an oak door");
    assert_eq!(box_.size, [3, 3, 3]);
    assert_eq!(at(&box_, 0, 0, 0).as_deref(), Some("cobblestone"));
    assert_eq!(at(&box_, 1, 0, 1).as_deref(), Some("air"), "'.' is air, kept clear");
    assert_eq!(at(&box_, 1, 0, 2).as_deref(), Some("oak_door[facing=south,half=lower]"));
    assert_eq!(
        at(&box_, 1, 1, 2).as_deref(),
        Some("oak_door[facing=south,half=upper]"),
        "the door's upper half fills the space"
    );
    assert_eq!(at(&box_, 2, 2, 0).as_deref(), Some("oak_stairs[facing=north,half=top]"));
    assert_eq!(at(&box_, 1, 2, 1), None, "a short layer leaves the rest as the world has it");
    assert_eq!(
        box_.materials(),
        vec![("cobblestone".to_owned(), 14), ("oak_stairs".to_owned(), 3), ("oak_door".to_owned(), 1)],
        "the upper half of the door needs no item of its own"
    );
    // Written out and read back, it is the same blueprint.
    let again = text::parse(&text::write(&box_), "other").unwrap();
    assert_eq!(again, box_);
    // So is one with a row of nothing between its rows (torches on the corners of a pen): the blank row holds
    // its place.
    let corners = text::parse("palette:\n t = torch\nlayer\n  t t\n\n  t t\n", "c").unwrap();
    assert_eq!(corners.size, [3, 1, 3]);
    let written = text::write(&corners);
    assert_eq!(text::parse(&written, "c").unwrap(), corners, "{written}");
    // A blank line before a layer's first row is only spacing.
    assert_eq!(text::parse("palette:\n t = torch\nlayer\n\n  t\n", "c").unwrap().size, [1, 1, 1]);
}

#[test]
fn bad_text_says_which_line_and_what_is_wrong() {
    let err = |text: &str| text::parse(text, "x").unwrap_err().to_string();
    assert_eq!(err("palette:\n  c = cobblestonee\nlayer\n c\n"), "line 2: there is no block called cobblestonee");
    assert!(err("palette:\n c = oak_stairs[facing=up]\nlayer\n c\n").contains("oak_stairs has no property facing=up"));
    assert_eq!(err("palette:\n c = stone\nlayer\n cx\n"), "line 4: 'x' is not in the palette (keys: .c)");
    assert!(err("palette:\n c = stone\n").contains("no layers"));
    assert!(err("palette:\n c = stone\nlayer\n ...\n").contains("no blocks, only air"));
    assert!(err("palette:\n cc = stone\n").contains("one character"));
    assert!(err("hello\n").starts_with("line 1: \"hello\" is not part of a blueprint"));
    let wide = format!("palette:\n c = stone\nlayer\n {}\n", "c".repeat(60));
    assert!(err(&wide).contains("longer than 48"));
    assert!(err("palette:\n c = bedrock\n f = fire\nlayer\n cf\n").contains("fire cannot be placed"));
}

#[test]
fn turning_moves_positions_and_the_ways_blocks_face() {
    let box_ = text::parse(BOX, "box").unwrap();
    // Facing west: the front (south row) becomes the west column.
    let west = box_.facing(Facing::West);
    assert_eq!(west.size, [3, 3, 3]);
    assert_eq!(at(&west, 0, 0, 1).as_deref(), Some("oak_door[facing=west,half=lower]"));
    let north = box_.facing(Facing::North);
    assert_eq!(at(&north, 1, 0, 0).as_deref(), Some("oak_door[facing=north,half=lower]"));
    assert_eq!(at(&north, 0, 2, 2).as_deref(), Some("oak_stairs[facing=south,half=top]"));
    let east = box_.facing(Facing::East);
    assert_eq!(at(&east, 2, 0, 1).as_deref(), Some("oak_door[facing=east,half=lower]"));
    // A long thing turns with its axis.
    let beam = text::parse("palette:\n l = oak_log[axis=x]\nlayer\n ll\n", "beam").unwrap();
    let turned = beam.facing(Facing::East);
    assert_eq!(turned.size, [1, 1, 2]);
    assert_eq!(at(&turned, 0, 0, 1).as_deref(), Some("oak_log[axis=z]"));
    assert_eq!(box_.facing(Facing::South), box_);
    assert_eq!("w".parse::<Facing>(), Ok(Facing::West));
    assert!("up".parse::<Facing>().unwrap_err().contains("N, E, S or W"));
}

#[test]
fn a_structure_block_file_reads_with_its_states() {
    let gate = Blueprint::load(&fixture("gate.nbt")).unwrap();
    assert_eq!(gate.name, "gate");
    assert_eq!(gate.size, [3, 4, 1]);
    assert_eq!(at(&gate, 1, 0, 0).as_deref(), Some("air"));
    assert_eq!(at(&gate, 1, 2, 0).as_deref(), Some("oak_log[axis=x]"));
    assert_eq!(at(&gate, 1, 3, 0).as_deref(), Some("oak_stairs[facing=south,half=bottom]"));
    assert_eq!(gate.blocks().count(), 10);
}

#[test]
fn sponge_schematics_of_both_versions_read_alike() {
    let v3 = Blueprint::load(&fixture("post.schem")).unwrap();
    let v2 = Blueprint::load(&fixture("post_v2.schem")).unwrap();
    assert_eq!(v3.parts, v2.parts);
    assert_eq!(v3.size, [2, 3, 2]);
    assert_eq!(at(&v3, 0, 2, 0).as_deref(), Some("oak_log[axis=y]"));
    assert_eq!(at(&v3, 1, 1, 0).as_deref(), Some("spruce_stairs[facing=north,half=bottom]"));
    assert_eq!(at(&v3, 1, 0, 1).as_deref(), Some("air"));
    assert_eq!(v3.blocks().count(), 6);
}

#[test]
fn broken_files_say_what_is_wrong() {
    let cut = Blueprint::load(&fixture("cut_off.nbt")).unwrap_err().to_string();
    assert!(cut.contains("cut off"), "{cut}");
    let missing = Blueprint::load(&fixture("nowhere.nbt")).unwrap_err().to_string();
    assert!(missing.starts_with("cannot read") && missing.contains("nowhere.nbt"), "{missing}");
    let dir = crate::test_dir("blueprint-files");
    let other = dir.join("house.json");
    std::fs::write(&other, "{}").unwrap();
    assert!(Blueprint::load(&other).unwrap_err().to_string().contains("use .txt, .nbt or .schem"));
    let garbage = dir.join("junk.schem");
    std::fs::write(&garbage, [0x1f, 0x8b, 8, 0, 1, 2, 3]).unwrap();
    assert!(Blueprint::load(&garbage).unwrap_err().to_string().contains("cut off or not gzip"));
    let not_nbt = dir.join("text.nbt");
    std::fs::write(&not_nbt, "hello, this is not NBT").unwrap();
    assert!(Blueprint::load(&not_nbt).is_err());
}

#[test]
fn a_folder_finds_blueprints_by_name_or_path() {
    let dir = crate::test_dir("blueprint-folder");
    std::fs::write(dir.join("box.txt"), BOX).unwrap();
    std::fs::copy(fixture("gate.nbt"), dir.join("gate.nbt")).unwrap();
    std::fs::write(dir.join("notes.md"), "not a blueprint").unwrap();
    let folder = Folder::new(&*dir);
    assert_eq!(folder.names(), vec!["box", "gate"]);
    assert_eq!(folder.path_of("box"), Some(dir.join("box.txt")));
    assert_eq!(folder.path_of("gate.nbt"), Some(dir.join("gate.nbt")));
    assert_eq!(folder.path_of(&fixture("post.schem").display().to_string()), Some(fixture("post.schem")));
    assert_eq!(folder.path_of("castle"), None);
    assert_eq!(folder.all().len(), 2);
}

#[test]
fn the_starter_blueprints_all_read() {
    let folder = Folder::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints"));
    let names = folder.names();
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let blueprint = Blueprint::load(&folder.path_of(&name).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!blueprint.description.is_empty(), "{name} says what it is");
    }
}

#[test]
fn a_placed_block_matches_by_the_properties_placing_sets() {
    let stairs = Spec::parse("oak_stairs[facing=north,half=top]").unwrap();
    let world = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    assert!(stairs.placed_as("oak_stairs", &world(&[("facing", "north"), ("half", "top"), ("shape", "outer_left")])));
    assert!(!stairs.placed_as("oak_stairs", &world(&[("facing", "south"), ("half", "top")])));
    assert!(!stairs.placed_as("spruce_stairs", &world(&[("facing", "north"), ("half", "top")])));
    assert_eq!(Spec::parse("minecraft:stone").unwrap().name, "stone");
    assert_eq!(Spec::parse("oak_wall_sign[facing=east]").unwrap().item().as_deref(), Some("oak_sign"));
    assert_eq!(Spec::parse("stone_slab[type=double]").unwrap().item_count(), 2);
}

/// A small deterministic generator for the mutation test (xorshift).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Flips, inserts, removes and cuts bytes of `seed`, a few at a time.
fn mutated(noise: &mut Noise, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + noise.below(4) {
        match noise.below(4) {
            0 if !bytes.is_empty() => {
                let at = noise.below(bytes.len());
                bytes[at] = noise.next() as u8;
            }
            1 => {
                let at = noise.below(bytes.len() + 1);
                bytes.insert(at, noise.next() as u8);
            }
            2 if !bytes.is_empty() => {
                let at = noise.below(bytes.len());
                bytes.remove(at);
            }
            _ => bytes.truncate(noise.below(bytes.len() + 1)),
        }
    }
    bytes
}

#[test]
fn damaged_blueprints_are_refused_without_a_panic() {
    use std::io::Read;
    let unpack = |name: &str| {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&std::fs::read(fixture(name)).unwrap()[..]).read_to_end(&mut raw).unwrap();
        raw
    };
    let (gate, post, post_v2) = (unpack("gate.nbt"), unpack("post.schem"), unpack("post_v2.schem"));
    // Plain NBT reads too, so the damage reaches the NBT reader rather than stopping at gzip's checksum.
    assert!(nbt::structure(&gate, "gate").is_ok() && nbt::sponge(&post, "post").is_ok());
    let mut noise = Noise(0x5eed_b10e_9001_7c15);
    let mut refused = 0;
    for round in 0..6000 {
        let _ = nbt::structure(&mutated(&mut noise, &gate), "gate").map_err(|_| refused += 1);
        let _ = nbt::sponge(&mutated(&mut noise, if round % 2 == 0 { &post } else { &post_v2 }), "post")
            .map_err(|_| refused += 1);
        let text = mutated(&mut noise, BOX.as_bytes());
        let _ = text::parse(&String::from_utf8_lossy(&text), "box").map_err(|_| refused += 1);
    }
    assert!(refused > 6000, "most damage is refused: {refused}");
}

#[test]
fn wide_whitespace_before_rows_reads_without_a_panic() {
    // The first row's indentation (an ideographic space, 3 bytes) ends inside the next row's mixed indentation.
    let text = "palette:\n c = stone\nlayer\n\u{3000}c\n  \u{3000}c\n";
    assert!(text::parse(text, "wide").is_ok());
}

#[test]
fn shares_split_the_footprint_into_strips_of_about_as_many_blocks() {
    let folder = Folder::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints"));
    for name in folder.names() {
        let whole = Blueprint::load(&folder.path_of(&name).unwrap()).unwrap().facing(Facing::East);
        let blocks = whole.blocks().count();
        for of in 1..=3u8 {
            let shares: Vec<Blueprint> = (1..=of).map(|index| whole.share(Share { index, of })).collect();
            // Every position in exactly one share, at the same place as in the whole.
            let mut all: Vec<&Part> = shares.iter().flat_map(|s| &s.parts).collect();
            all.sort_by_key(|p| (p.at[1], p.at[2], p.at[0]));
            assert_eq!(all.len(), whole.parts.len(), "{name} in {of}");
            assert!(all.iter().zip(&whole.parts).all(|(a, b)| *a == b), "{name} in {of}");
            for share in &shares {
                assert_eq!(share.size, whole.size);
                // A door's halves stay together (a column is never split).
                let doors = share.blocks().filter(|p| p.block.name.ends_with("_door")).count();
                assert_eq!(doors % 2, 0, "{name}: {}", share.name);
            }
            // About a third each: no share is off its fair part by more than the tallest column.
            let tallest = whole.size[1] as usize;
            for share in &shares {
                let fair = blocks / usize::from(of);
                let own = share.blocks().count();
                assert!(own.abs_diff(fair) <= tallest, "{name}: {} has {own} of {blocks}", share.name);
            }
        }
    }
    let house = Blueprint::load(&folder.path_of("two_storey_house").unwrap()).unwrap();
    let second = house.share(Share { index: 2, of: 3 });
    assert_eq!(second.name, "two_storey_house part 2/3");
    assert!(second.parts.iter().all(|p| (1..=3).contains(&p.at[0])), "the middle strip of a square is in the middle");
}

#[test]
fn the_folder_ranks_blueprints_by_the_words_they_share() {
    let folder = Folder::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints"));
    let (ranked, words) = folder.ranked("a stone brick pillar with a lamp");
    assert_eq!(words, 4);
    assert_eq!(ranked[0].1.name, "lamp_post", "{:?}", ranked.iter().map(|(n, b)| (n, &b.name)).collect::<Vec<_>>());
    assert_eq!(folder.fitting("a lamp post of stone brick").map(|b| b.name).as_deref(), Some("lamp_post"));
    assert!(folder.fitting("a stone brick column with glowstone").is_none(), "no blueprint is named");
}
