//! What a step asks of the world, read from its verb, and the rules that hold a step to it: a tracker that measures
//! that effect ([`fitting`]), and no success without the world showing the change ([`unshown`]).
//!
//! `Place 3 dirt` asks for blocks placed, `Dig 2 stone` for blocks turned to air, `Go stand on the gold_block` for
//! where the bot stands, `Store 4 oak_planks in the chest` for a container's contents, `Give 2 bread to Alice` for a
//! handover. Steps that gather or make things (mine, craft, smelt, kill) are the item trackers' business and read as
//! none of these.

pub use super::reading::{Asked, Beside, Effect, Shape, Side};
use super::{
    diff::{MOVED, WorldDiff},
    tracker::{Point, Tracker},
};
use crate::primitives::area;

/// What `task` asks of the world, when its words read as a change of it with every word that carries meaning
/// accounted for (see `reading`). `is_id` says whether a word is a block or item id the game has.
pub fn asked(task: &str, is_id: impl Fn(&str) -> bool) -> Option<Asked> {
    super::reading::read(task, is_id).ok()
}

/// What `task` asks of the world as far as its words are understood, for checks that only ever fail a step (see
/// `reading::loosely`).
pub fn loosely(task: &str, is_id: impl Fn(&str) -> bool) -> Option<Asked> {
    super::reading::loosely(task, is_id)
}

/// Why the world does not stand as `asked` says beyond what was placed or stored (see [`unshown`]), when it does
/// not: blocks placed beside another block and not touching it (`no crafting_table was placed next to a stone
/// (placed at -2 64 0)`), the bot not walled in on its four sides, items put into another chest than the one named.
/// `block_at` reads the world as it is now; `feet` is the block the bot stands in now.
pub fn unplaced(
    asked: &Asked,
    diff: &WorldDiff,
    block_at: impl Fn(Point) -> Option<String>,
    feet: Point,
) -> Option<String> {
    let thing = asked.thing.as_deref();
    let at = |cells: &[Point]| -> String {
        let shown: Vec<String> = cells.iter().take(3).map(|p| format!("{} {} {}", p[0], p[1], p[2])).collect();
        if shown.is_empty() { String::new() } else { format!(" (at {})", shown.join(", ")) }
    };
    let touches = |p: &Point, beside: &Beside| {
        beside
            .side
            .offsets()
            .iter()
            .any(|o| beside.block.is_none() || block_at([p[0] + o[0], p[1] + o[1], p[2] + o[2]]) == beside.block)
    };
    if asked.effect == Effect::Place && asked.shape == Some(Shape::Around) {
        let open: Vec<Point> = Shape::Around
            .offsets()
            .iter()
            .map(|o| [feet[0] + o[0], feet[1] + o[1], feet[2] + o[2]])
            .filter(|p| block_at(*p).as_deref() != Some(thing.unwrap_or("")))
            .collect();
        return (!open.is_empty()).then(|| {
            format!(
                "{} of my four sides {} no {}{}",
                open.len(),
                if open.len() == 1 { "has" } else { "have" },
                thing.unwrap_or("block"),
                at(&open)
            )
        });
    }
    let beside = asked.beside.as_ref()?;
    match asked.effect {
        Effect::Place => {
            // Set where another block stood counts too (the stone under the gold block, where the grass was).
            let placed: Vec<Point> = diff.set(thing).into_iter().map(|(p, _)| p).collect();
            if placed.iter().any(|p| touches(p, beside)) {
                return None;
            }
            let placed_at =
                if placed.is_empty() { String::new() } else { at(&placed).replacen(" (at", " (placed at", 1) };
            Some(format!("no {} was placed {beside}{placed_at}", thing.unwrap_or("block")))
        }
        Effect::Store => {
            let into: Vec<Point> = diff
                .containers
                .iter()
                .filter(|(_, item, n)| *n > 0 && thing.is_none_or(|want| want == item))
                .map(|(p, _, _)| *p)
                .collect();
            let apart = |p: &Point| {
                beside.not.as_ref().is_none_or(|not| {
                    Side::NextTo
                        .offsets()
                        .iter()
                        .all(|o| block_at([p[0] + o[0], p[1] + o[1], p[2] + o[2]]).as_deref() != Some(not))
                })
            };
            if into.iter().any(|p| touches(p, beside) && apart(p)) {
                return None;
            }
            Some(format!(
                "no {} went into the chest {beside}{}",
                thing.unwrap_or("item"),
                at(&into).replacen(" (at", " (it went into a chest at", 1)
            ))
        }
        _ => None,
    }
}

/// How many of `shape`'s blocks stand among `placed` at its best spot and quarter turn: blocks of `block` (of any
/// kind with `None`), all placed in the span the diff covers.
pub fn standing(shape: Shape, block: Option<&str>, placed: &[(Point, String)]) -> usize {
    let kind_fits = |b: &String| block.is_none_or(|want| want == b);
    let cells: std::collections::HashSet<Point> =
        placed.iter().filter(|(_, b)| kind_fits(b)).map(|(p, _)| *p).collect();
    let offsets = shape.offsets();
    let mut best = 0;
    for p in &cells {
        for first in &offsets {
            for turns in 0..4u8 {
                let [dx, dy, dz] = area::turn(*first, turns);
                let anchor = [p[0] - dx, p[1] - dy, p[2] - dz];
                let matched = offsets
                    .iter()
                    .filter(|o| {
                        let [x, y, z] = area::turn(**o, turns);
                        cells.contains(&[anchor[0] + x, anchor[1] + y, anchor[2] + z])
                    })
                    .count();
                best = best.max(matched);
            }
        }
    }
    best
}

/// Whether `tracker` measures `effect` (a composite when one of its parts does; an `any` when all do).
pub fn measures(tracker: &Tracker, effect: Effect) -> bool {
    match tracker {
        Tracker::All { of } => of.iter().any(|t| measures(t, effect)),
        Tracker::Any { of } => of.iter().all(|t| measures(t, effect)),
        Tracker::Placed { .. } | Tracker::Structure { .. } | Tracker::Block { exists: true, .. } => {
            effect == Effect::Place
        }
        Tracker::Dug { .. } | Tracker::Block { exists: false, .. } => effect == Effect::Dig,
        Tracker::Location { .. } | Tracker::StandingOn { .. } => effect == Effect::Go,
        Tracker::Container { .. } => effect == Effect::Store,
        Tracker::Given { .. } => effect == Effect::Give,
        Tracker::Inventory { .. } | Tracker::Craft { .. } | Tracker::Kill { .. } => false,
    }
}

/// Whether `tracker` measures what `asked` asks: its effect, and its shape when one is named (only a structure
/// tracker sees a shape; counting placed blocks does not).
pub fn measures_asked(tracker: &Tracker, asked: &Asked) -> bool {
    fn has_structure(tracker: &Tracker) -> bool {
        match tracker {
            Tracker::Structure { .. } => true,
            Tracker::All { of } => of.iter().any(has_structure),
            Tracker::Any { of } => of.iter().all(has_structure),
            _ => false,
        }
    }
    measures(tracker, asked.effect) && (asked.shape.is_none() || has_structure(tracker))
}

/// A tracker that measures what `asked` asks, when its words say enough: `Place 3 dirt` → 3 dirt placed near where
/// the step begins.
pub fn fitting(asked: &Asked) -> Option<Tracker> {
    let count = asked.count.unwrap_or(1);
    let thing = asked.thing.clone();
    if let Some([x, y, z]) = asked.at {
        // A position written out: that block, that spot.
        return match asked.effect {
            Effect::Place => Some(Tracker::Block { x, y, z, block: thing?, exists: true }),
            Effect::Dig => Some(Tracker::Dug {
                positions: vec![[x, y, z]],
                count: None,
                block: None,
                at: None,
                radius: super::tracker::NEAR,
            }),
            Effect::Go => {
                Some(Tracker::Location { x: f64::from(x) + 0.5, y: f64::from(y), z: f64::from(z) + 0.5, radius: 2.0 })
            }
            Effect::Store => Some(Tracker::Container { item: thing?, count, at: Some([x, y, z]), radius: 2 }),
            Effect::Give => None,
        };
    }
    match asked.effect {
        Effect::Place => match asked.shape {
            Some(Shape::Hole(_) | Shape::Pit { .. }) => None,
            Some(shape) => Some(Tracker::Structure {
                blocks: shape.parts(&thing?),
                at: None,
                share: 1.0,
                radius: super::tracker::NEAR,
            }),
            None => Some(Tracker::Placed { block: thing?, count, at: None, radius: super::tracker::NEAR }),
        },
        Effect::Dig => Some(Tracker::Dug {
            positions: Vec::new(),
            count: Some(count),
            // A hole is dug through whatever the ground is.
            block: thing.filter(|_| asked.shape.is_none()),
            at: None,
            // A trench begins beside the bot and runs its length away from it: all of it is counted.
            radius: match asked.shape {
                Some(Shape::Pit { long, wide, .. }) => {
                    super::tracker::NEAR.max(long.max(wide) + 1).min(super::tracker::MAX_RADIUS)
                }
                _ => super::tracker::NEAR,
            },
        }),
        Effect::Go => Some(Tracker::StandingOn { block: thing?, at: None }),
        Effect::Store => Some(Tracker::Container { item: thing?, count, at: None, radius: super::tracker::NEAR }),
        Effect::Give => Some(Tracker::Given { player: asked.player.clone()?, item: thing?, count }),
    }
}

/// Why the world does not show what `asked` asks, when it does not: `no dirt was placed; 3 were asked`. A step whose
/// verb changes the world fails on this, whatever a critic says.
pub fn unshown(asked: &Asked, diff: &WorldDiff) -> Option<String> {
    let thing = asked.thing.as_deref();
    let want = asked.count.unwrap_or(1);
    let named = |fallback: &str| thing.unwrap_or(fallback).to_owned();
    let short = |got: u64, what: String, verb: &str| -> Option<String> {
        match got {
            0 => Some(format!("no {what} was {verb}; {want} {} asked", if want == 1 { "was" } else { "were" })),
            n if n < u64::from(want) => {
                Some(format!("only {n} {what} {} {verb}; {want} were asked", if n == 1 { "was" } else { "were" }))
            }
            _ => None,
        }
    };
    match asked.effect {
        // A block set where another stood (a side of the bot that held dirt) is placed as much as one set on air.
        Effect::Place => short(diff.set(thing).len() as u64, named("block"), "placed").or_else(|| {
            let shape = asked.shape?;
            let stands = standing(shape, thing, &diff.set(thing));
            let size = shape.size() as usize;
            (stands < size).then(|| {
                format!("the {} placed do not stand as {shape}: at most {stands} of {size} do", named("block"))
            })
        }),
        Effect::Dig => match asked.shape {
            Some(Shape::Hole(deep)) => {
                let dug = hole_depth(&diff.broken);
                (dug < deep).then(|| format!("no hole {deep} deep was dug (asked {deep} deep, dug {dug})"))
            }
            Some(shape @ Shape::Pit { long, wide, deep }) => {
                let cells: std::collections::HashSet<Point> = diff.broken.iter().map(|(p, _)| *p).collect();
                (!dug_as(&cells, shape)).then(|| {
                    format!(
                        "no hole {long} by {wide} and {deep} deep was dug ({} blocks dug, {} asked)",
                        cells.len(),
                        shape.size()
                    )
                })
            }
            _ => short(diff.broken_count(thing) as u64, named("block"), "dug"),
        },
        // A container broken on the way is not the one filled (a plan that stood on the chest's spot, then placed a
        // chest of its own).
        Effect::Store => match diff.container_lost() {
            Some(([x, y, z], kind)) => Some(format!("the {kind} at {x} {y} {z} was broken, not filled")),
            None => short(diff.stored(thing).max(0) as u64, named("item"), "put into a container"),
        },
        Effect::Give => {
            let given = diff.given_count(asked.player.as_deref(), thing);
            let to = asked.player.as_deref().map(|p| format!(" to {p}")).unwrap_or_default();
            short(u64::from(given), named("item"), &format!("handed over{to}"))
        }
        Effect::Go => (diff.moved() < MOVED).then(|| "I did not move from where I stood".to_owned()),
    }
}

/// Whether `cells` hold every cell of `shape` from one corner, either way round (its long side along x or z).
pub fn dug_as(cells: &std::collections::HashSet<Point>, shape: Shape) -> bool {
    let offsets = shape.offsets();
    let turned: Vec<Point> = offsets.iter().map(|[x, y, z]| [*z, *y, *x]).collect();
    cells.iter().any(|[cx, cy, cz]| {
        [&offsets, &turned].into_iter().any(|way| way.iter().all(|[x, y, z]| cells.contains(&[cx + x, cy + y, cz + z])))
    })
}

/// How deep the deepest hole in `broken` goes: cells dug one under another in one column.
pub fn hole_depth(broken: &[(Point, String)]) -> u32 {
    let cells: std::collections::HashSet<Point> = broken.iter().map(|(p, _)| *p).collect();
    cells
        .iter()
        .filter(|[x, y, z]| !cells.contains(&[*x, y + 1, *z]))
        .map(|[x, y, z]| (0..).take_while(|d| cells.contains(&[*x, y - d, *z])).count() as u32)
        .max()
        .unwrap_or(0)
}

/// Whether `diff` shows a change that fits a step asking `asked` (any change at all for a step that asks none of
/// the world's effects: items made, gathered, moved).
pub fn fits(asked: Option<&Asked>, diff: &WorldDiff) -> bool {
    match asked {
        Some(asked) => unshown(asked, diff).is_none(),
        None => !diff.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_id(word: &str) -> bool {
        ["dirt", "cobblestone", "oak_planks", "chest", "gold_block", "bread", "stone", "torch"].contains(&word)
    }

    /// Read loosely: these tests are of what the world must show for a reading; what a whole reading is, is
    /// `reading`'s tests'.
    fn read(task: &str) -> Option<Asked> {
        loosely(task, is_id)
    }

    #[test]
    fn verbs_say_what_the_world_should_show() {
        let place = read("Place 3 dirt").unwrap();
        assert_eq!((place.effect, place.count, place.thing.as_deref()), (Effect::Place, Some(3), Some("dirt")));
        assert_eq!(read("Lay four cobblestone in a line").unwrap().count, Some(4));
        assert_eq!(read("Put the chest down").unwrap().effect, Effect::Place);
        let store = read("Put 4 oak planks into the chest").unwrap();
        assert_eq!((store.effect, store.thing.as_deref()), (Effect::Store, Some("oak_planks")));
        assert_eq!(read("Store planks in a chest").unwrap().effect, Effect::Store);
        assert_eq!(read("Place a chest and put planks on it").unwrap().thing.as_deref(), Some("chest"));
        assert_eq!(read("Dig 2 stone").unwrap().effect, Effect::Dig);
        let go = read("Go stand on the gold_block").unwrap();
        assert_eq!((go.effect, go.thing.as_deref()), (Effect::Go, Some("gold_block")));
        let give = read("Give 2 bread to Alice.").unwrap();
        assert_eq!((give.effect, give.player.as_deref(), give.count), (Effect::Give, Some("Alice"), Some(2)));
        assert_eq!(read("Light the area with torches").unwrap().thing.as_deref(), Some("torch"));
        let there = read("Go stand on -7 64 -7").unwrap();
        assert_eq!((there.at, there.count), (Some([-7, 64, -7]), None));
        let wall = read("build a wall of cobblestone 3 blocks long and 2 blocks high").unwrap();
        assert_eq!((wall.effect, wall.count, wall.thing.as_deref()), (Effect::Place, Some(6), Some("cobblestone")));
        assert_eq!(read("build a 2 by 2 floor of dirt").unwrap().count, Some(4));
        assert_eq!(read("dig a hole 2 blocks deep").unwrap().count, Some(2));
        assert_eq!(read("build a pillar of 3 dirt blocks next to you").unwrap().count, Some(3));
        let compound = read("place a chest and store 6 cobblestone in it").unwrap();
        assert_eq!(
            (compound.count, compound.thing.as_deref()),
            (Some(1), Some("chest")),
            "the count goes with its thing"
        );
        let placed = read("Place 2 dirt at (1, 64, 2)").unwrap();
        assert_eq!((placed.at, placed.count), (Some([1, 64, 2]), Some(2)));
        for gather in
            ["Mine 3 dirt", "Craft 4 stick", "make 4 sticks", "Kill 1 pig", "Smelt 2 raw_iron", "Say hello", ""]
        {
            assert_eq!(read(gather), None, "{gather}");
        }
    }

    #[test]
    fn trackers_fit_their_verbs() {
        let place = read("Place 3 dirt").unwrap();
        let inventory = Tracker::Inventory { item: "dirt".into(), count: 3, exactly: false };
        assert!(!measures(&inventory, Effect::Place), "carrying dirt is not placing it");
        let fitted = fitting(&place).unwrap();
        assert_eq!(fitted, Tracker::Placed { block: "dirt".into(), count: 3, at: None, radius: 8 });
        assert!(measures(&fitted, Effect::Place));
        assert!(measures(&Tracker::All { of: vec![inventory.clone(), fitted] }, Effect::Place));
        assert_eq!(fitting(&read("Build a small hut").unwrap()), None, "nothing named to count");
        assert!(matches!(fitting(&read("Give 2 bread to Alice").unwrap()), Some(Tracker::Given { count: 2, .. })));
        assert!(matches!(fitting(&read("Go stand on the gold_block").unwrap()), Some(Tracker::StandingOn { .. })));
        assert_eq!(
            fitting(&read("Go stand on -7 64 -7").unwrap()),
            Some(Tracker::Location { x: -6.5, y: 64.0, z: -6.5, radius: 2.0 })
        );
        assert_eq!(
            fitting(&read("Place dirt at 1 64 2").unwrap()),
            Some(Tracker::Block { x: 1, y: 64, z: 2, block: "dirt".into(), exists: true })
        );
    }

    #[test]
    fn shapes_are_read_from_words() {
        let shape = |task: &str| read(task).and_then(|a| a.shape);
        assert_eq!(shape("lay 4 cobblestone in a line on the ground"), Some(Shape::Line(4)));
        assert_eq!(shape("Place a row of four torches"), Some(Shape::Line(4)));
        assert_eq!(shape("build a pillar of 3 dirt blocks next to you"), Some(Shape::Column(3)));
        assert_eq!(shape("build a dirt tower 5 blocks high"), Some(Shape::Column(5)));
        assert_eq!(
            shape("build a wall of cobblestone 3 blocks long and 2 blocks high"),
            Some(Shape::Wall { long: 3, high: 2 })
        );
        assert_eq!(shape("make a 2 by 2 floor of oak planks"), Some(Shape::Floor { long: 2, wide: 2 }));
        assert_eq!(shape("build a 3x2 platform of stone"), Some(Shape::Floor { long: 3, wide: 2 }));
        for none in [
            "Place 3 dirt",
            "build a pillar of dirt",
            "build a wall",
            "Place 1 torch in a line",
            "Dig a line of 3 dirt",
        ] {
            assert_eq!(shape(none), None, "{none}");
        }
        assert_eq!(shape("build a wall 100 long and 100 high of dirt"), None, "too big to read as a shape");
        let wall = read("build a wall of cobblestone 3 blocks long and 2 blocks high").unwrap();
        assert_eq!(wall.count, Some(6));
        let line = read("Place 4 cobblestone in a line").unwrap();
        let Some(Tracker::Structure { blocks, at: None, .. }) = fitting(&line) else {
            panic!("a line gets a structure tracker")
        };
        assert_eq!(blocks.len(), 4);
        assert!(!measures_asked(
            &Tracker::Placed { block: "cobblestone".into(), count: 4, at: None, radius: 8 },
            &line
        ));
        assert!(measures_asked(&fitting(&line).unwrap(), &line));
    }

    #[test]
    fn a_block_beside_another_is_read_and_checked() {
        let beside = |task: &str| read(task).and_then(|a| a.beside);
        assert_eq!(
            beside("place a dirt block on top of the gold block"),
            Some(Beside { side: Side::OnTop, block: Some("gold_block".into()), not: None })
        );
        assert_eq!(
            beside("put a torch next to the stone block"),
            Some(Beside { side: Side::NextTo, block: Some("stone".into()), not: None })
        );
        assert_eq!(
            beside("place a torch on the ground next to the gold block"),
            Some(Beside { side: Side::NextTo, block: Some("gold_block".into()), not: None })
        );
        for none in ["place a torch on the ground next to you", "Place 3 dirt", "Go stand on the gold_block"] {
            assert_eq!(beside(none), None, "{none}");
        }
        let asked = read("place a torch next to the stone block").unwrap();
        let diff = WorldDiff { placed: vec![([-2, 64, 0], "torch".into())], ..WorldDiff::default() };
        let world = |stone: Point| move |p: Point| Some(if p == stone { "stone" } else { "air" }.to_owned());
        assert_eq!(
            unplaced(&asked, &diff, world([4, 64, -1]), [0, 64, 0]).as_deref(),
            Some("no torch was placed next to a stone (placed at -2 64 0)")
        );
        assert_eq!(unplaced(&asked, &diff, world([-2, 64, 1]), [0, 64, 0]), None);
        assert!(unplaced(&asked, &diff, world([-2, 63, 0]), [0, 64, 0]).is_some(), "under it is not next to it");
        let on_top = read("place a torch on top of the stone").unwrap();
        assert_eq!(unplaced(&on_top, &diff, world([-2, 63, 0]), [0, 64, 0]), None);
    }

    /// Items put into a chest the bot placed for itself, after breaking the one that stood (a plan that stood on
    /// the chest's spot), do not fill the chest asked for.
    #[test]
    fn a_store_that_broke_a_container_is_not_done() {
        let asked = read("put 8 cobblestone in the chest").unwrap();
        let mut diff = WorldDiff {
            placed: vec![([1, 64, -2], "chest".into())],
            containers: vec![([1, 64, -2], "cobblestone".into(), 8)],
            ..WorldDiff::default()
        };
        assert_eq!(unshown(&asked, &diff), None, "a chest placed where none was broken holds them");
        diff.changed = vec![([3, 64, -2], "chest".into(), "cobblestone".into())];
        assert_eq!(unshown(&asked, &diff).as_deref(), Some("the chest at 3 64 -2 was broken, not filled"));
        let stood = WorldDiff { containers: vec![([3, 64, -2], "cobblestone".into(), 8)], ..WorldDiff::default() };
        assert_eq!(unshown(&asked, &stood), None);
    }

    #[test]
    fn a_shape_must_stand_in_the_world() {
        let placed = |cells: &[Point]| WorldDiff {
            placed: cells.iter().map(|p| (*p, "cobblestone".to_owned())).collect(),
            ..WorldDiff::default()
        };
        let line = read("Place 4 cobblestone in a line").unwrap();
        // Four placed, three in a line and one beside: counted, but not the shape.
        let bent = placed(&[[0, 64, 0], [1, 64, 0], [2, 64, 0], [2, 64, 1]]);
        assert_eq!(
            unshown(&line, &bent).as_deref(),
            Some("the cobblestone placed do not stand as a line of 4: at most 3 of 4 do")
        );
        // Along z is a line too (a quarter turn), and extra blocks do no harm.
        assert_eq!(unshown(&line, &placed(&[[5, 64, 0], [5, 64, 1], [5, 64, 2], [5, 64, 3], [0, 64, 0]])), None);
        // A column is not a line.
        assert!(unshown(&line, &placed(&[[0, 64, 0], [0, 65, 0], [0, 66, 0], [0, 67, 0]])).is_some());
        let pillar = read("build a pillar of 3 cobblestone").unwrap();
        assert_eq!(unshown(&pillar, &placed(&[[0, 64, 0], [0, 65, 0], [0, 66, 0]])), None);
        assert_eq!(
            standing(
                Shape::Wall { long: 3, high: 2 },
                None,
                &placed(&[[0, 64, 0], [0, 64, 1], [0, 64, 2], [0, 65, 1]]).placed
            ),
            4
        );
    }

    #[test]
    fn a_hole_with_sides_must_be_dug_whole() {
        let dug = |cells: &[Point]| WorldDiff {
            broken: cells.iter().map(|p| (*p, "grass_block".to_owned())).collect(),
            ..WorldDiff::default()
        };
        let pit = read("dig a 2 by 3 hole 1 deep").unwrap();
        assert_eq!(pit.count, Some(6));
        // Six blocks dug, but not as the hole asked: a column of them and a line.
        let column = dug(&[[0, 63, 0], [0, 62, 0], [0, 61, 0], [1, 63, 0], [2, 63, 0], [3, 63, 0]]);
        assert_eq!(
            unshown(&pit, &column).as_deref(),
            Some("no hole 2 by 3 and 1 deep was dug (6 blocks dug, 6 asked)")
        );
        // The whole of it, either way round.
        let whole: Vec<Point> = (0..3).flat_map(|x| (0..2).map(move |z| [x, 63, z])).collect();
        assert_eq!(unshown(&pit, &dug(&whole)), None);
    }

    #[test]
    fn the_world_must_show_the_change() {
        let place = read("Place 3 dirt").unwrap();
        let nothing = WorldDiff::default();
        assert_eq!(unshown(&place, &nothing).as_deref(), Some("no dirt was placed; 3 were asked"));
        let one = WorldDiff::new(vec![([0, 64, 0], "air".into(), "dirt".into())], [0.0; 3], [0.0; 3]);
        assert_eq!(unshown(&place, &one).as_deref(), Some("only 1 dirt was placed; 3 were asked"));
        let three =
            WorldDiff::new((0..3).map(|y| ([0, 64 + y, 0], "air".into(), "dirt".into())).collect(), [0.0; 3], [0.0; 3]);
        assert_eq!(unshown(&place, &three), None);
        assert_eq!(
            unshown(&read("Go to the tree").unwrap(), &nothing).as_deref(),
            Some("I did not move from where I stood")
        );
        assert!(unshown(&read("Give 2 bread to Alice").unwrap(), &nothing).unwrap().contains("handed over to Alice"));
        assert!(!fits(None, &nothing), "a step that changed nothing does not fit");
        assert!(fits(None, &WorldDiff { items: vec![("stick".into(), 4)], ..WorldDiff::default() }));
    }
}
