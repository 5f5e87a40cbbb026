//! Build goals: `build hut at 4 64 -5 facing south`, the goal `!build` writes in the goal book. It is planned with
//! no LLM call: the materials the blocks not yet standing need and the bot does not carry, each got as the game's
//! facts say (mined, crafted, smelted), then one step that builds, judged by a structure tracker anchored where the
//! blueprint goes. Persisted like any goal, a build cut off by a restart goes on from its next step, and the build
//! itself starts from what the world shows standing.

use azalea::BlockPos;

use super::{
    plan::TaskSpec,
    recipes::{self, NoSteps, Setting, Want},
    tracker::{Part, Tracker},
};
use crate::{
    blueprint::{Blueprint, Facing, Share},
    bot::BotHandle,
    primitives::build,
};

/// What a build goal names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildGoal {
    /// The blueprint's name in the folder, or its file.
    pub blueprint: String,
    pub origin: [i32; 3],
    pub facing: Facing,
    /// A team member's share of the blueprint, or the whole.
    pub share: Option<Share>,
}

impl BuildGoal {
    /// The goal's words: `build hut at 4 64 -5 facing south`, and `… part 2/3` for a share.
    pub fn text(&self) -> String {
        let [x, y, z] = self.origin;
        let share = self.share.map_or_else(String::new, |s| format!(" part {s}"));
        format!("build {} at {x} {y} {z} facing {}{share}", self.blueprint, self.facing)
    }

    /// Reads the words [`BuildGoal::text`] writes (and nothing looser: other build goals are the LLM's).
    pub fn parse(goal: &str) -> Option<BuildGoal> {
        let words: Vec<&str> = goal.split_whitespace().collect();
        let (words, share) = match words.as_slice() {
            [rest @ .., "part", share] => (rest, Some(share.parse().ok()?)),
            all => (all, None),
        };
        let ["build", blueprint, "at", x, y, z, "facing", facing] = words else { return None };
        Some(BuildGoal {
            blueprint: (*blueprint).to_owned(),
            origin: [x.parse().ok()?, y.parse().ok()?, z.parse().ok()?],
            facing: facing.parse().ok()?,
            share,
        })
    }
}

/// The steps for a build goal: get what is missing, then build.
pub fn plan(bot: &BotHandle, goal: &BuildGoal, setting: &Setting) -> Result<Vec<TaskSpec>, String> {
    let blueprint = build::blueprint(bot, &goal.blueprint, goal.facing)?;
    let blueprint = match goal.share {
        Some(share) => blueprint.share(share),
        None => blueprint,
    };
    let [x, y, z] = goal.origin;
    let origin = BlockPos::new(x, y, z);
    let mut steps = Vec::new();
    for (item, short) in build::missing(bot, &blueprint, origin) {
        let carried = setting.carried.get(&item).copied().unwrap_or(0).max(0) as u32;
        match recipes::plan(&Want::Have { item: item.clone(), count: carried + short }, setting) {
            Ok(more) => steps.extend(more),
            Err(NoSteps::Carried { .. }) => {}
            Err(why) => return Err(format!("I cannot get the {short} {item} {} needs: {why}", blueprint.name)),
        }
    }
    steps.push(step(goal, &blueprint));
    Ok(steps)
}

/// The step that builds: `buildStructure` with the goal's place and side, judged by the blueprint's blocks standing
/// where it goes.
fn step(goal: &BuildGoal, blueprint: &Blueprint) -> TaskSpec {
    let [x, y, z] = goal.origin;
    let blocks: Vec<Part> =
        blueprint.blocks().map(|p| Part { x: p.at[0], y: p.at[1], z: p.at[2], block: p.block.name.clone() }).collect();
    let tracker = Tracker::Structure { blocks, at: Some(goal.origin), share: 1.0, radius: super::tracker::NEAR };
    // A blueprint too big for a tracker is judged by the build's own score (the primitive fails short of 1.0).
    let tracker = tracker.validate(0).is_ok().then_some(tracker);
    let name = goal.blueprint.replace('\\', "\\\\").replace('"', "\\\"");
    let share = goal.share.map_or_else(String::new, |s| format!(", \"{s}\""));
    TaskSpec {
        task: format!("Build {} at {x} {y} {z} facing {}", blueprint.name, goal.facing),
        context: blueprint.summary(),
        tracker,
        code: Some(format!("buildStructure(\"{name}\", vec3({x}, {y}, {z}), \"{}\"{share})", goal.facing)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_goal_reads_back_from_its_words_only() {
        let goal = BuildGoal { blueprint: "hut".into(), origin: [4, 64, -5], facing: Facing::West, share: None };
        assert_eq!(goal.text(), "build hut at 4 64 -5 facing west");
        assert_eq!(BuildGoal::parse(&goal.text()), Some(goal.clone()));
        let shared = BuildGoal { share: Some(Share { index: 2, of: 3 }), ..goal };
        assert_eq!(shared.text(), "build hut at 4 64 -5 facing west part 2/3");
        assert_eq!(BuildGoal::parse(&shared.text()), Some(shared));
        assert_eq!(BuildGoal::parse("build hut at 4 64 -5 facing west part 3/2"), None);
        assert_eq!(BuildGoal::parse("build a hut at the lake"), None);
        assert_eq!(BuildGoal::parse("build hut at 4 64 -5 facing up"), None);
        let blueprint = crate::blueprint::text::parse("palette:\n c = cobblestone\nlayer\n c.c\n", "arch").unwrap();
        let goal = BuildGoal { blueprint: "arch".into(), origin: [1, 2, 3], facing: Facing::South, share: None };
        let step = step(&goal, &blueprint);
        assert_eq!(step.task, "Build arch at 1 2 3 facing south");
        assert_eq!(step.code.as_deref(), Some("buildStructure(\"arch\", vec3(1, 2, 3), \"south\")"));
        match step.tracker {
            Some(Tracker::Structure { blocks, at: Some([1, 2, 3]), .. }) => {
                assert_eq!(blocks.len(), 2, "air is not judged")
            }
            other => panic!("{other:?}"),
        }
    }
}
