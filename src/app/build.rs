//! `!build NAME|FILE|WORDS... [at X Y Z] [facing N|E|S|W]`: finds the blueprint, says what it takes, builds it as
//! the bot's activity and answers with the score the world shows.

use std::time::Instant;

use azalea::BlockPos;

use super::{reply::Replier, state::BotState, work::begin};
use crate::{
    blueprint::{Blueprint, Facing, Folder},
    bot::BotHandle,
    chat::Target,
    primitives::build,
};

/// How far from the bot a blueprint built without `at` begins (east of it).
const BESIDE: i32 = 2;

/// Starts building what `what` names or describes.
pub fn start(
    bot: BotHandle,
    state: &BotState,
    reply: Replier,
    what: String,
    at: Option<Target>,
    facing: Option<Facing>,
) {
    let folder = bot.blueprints();
    let facing = facing.unwrap_or_default();
    let blueprint = match find(&folder, &what) {
        Ok(path) => match Blueprint::load(&path) {
            Ok(blueprint) => blueprint.facing(facing),
            Err(e) => {
                reply.say(&format!("I cannot build {what}: {e}. Nothing was placed."));
                return;
            }
        },
        Err(problem) => {
            reply.say(&problem);
            return;
        }
    };
    let feet = BlockPos::from(bot.position());
    let origin = match at {
        Some(t) => BlockPos::new(t.x.resolve(feet.x), t.y.resolve(feet.y), t.z.resolve(feet.z)),
        None => BlockPos::new(feet.x + BESIDE, feet.y, feet.z - blueprint.size[2] / 2),
    };
    let short = build::missing(&bot, &blueprint, origin);
    if !short.is_empty() {
        reply.say(&format!(
            "To build {} at {} I need {} more. Nothing was placed.",
            blueprint.summary(),
            build::fmt_pos(origin),
            build::list(&short)
        ));
        return;
    }
    reply.say(&format!("Building {} at {} facing {facing}.", blueprint.summary(), build::fmt_pos(origin)));
    let label = format!("building {}", blueprint.name);
    let answer = reply.clone();
    let what = format!("build {}", blueprint.name);
    let name = blueprint.name.clone();
    begin(state, &reply, label.clone(), what, async move {
        let started = Instant::now();
        let said = |line: String| tracing::info!("{}: {line}", bot.name());
        // A reflex (eating, a monster) interrupts the build, which carries on from what stands afterwards.
        let report = bot.between_reflexes(&label, || build::build(&bot, &blueprint, origin, &said)).await;
        let secs = started.elapsed().as_secs_f64();
        if report.score.done() {
            answer.say(&format!("Built {name} at {} in {secs:.0} s: {}.", build::fmt_pos(origin), report.score));
        } else {
            let problems = report.problems.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
            answer.say(&format!("{name} stands at {} after {secs:.0} s: {problems}.", report.score));
        }
    });
}

/// The file `what` names (a blueprint in the folder, or a path), or the blueprint whose name and description share
/// the most words with it.
fn find(folder: &Folder, what: &str) -> Result<std::path::PathBuf, String> {
    if let Some(path) = folder.path_of(what) {
        return Ok(path);
    }
    let names = folder.names();
    let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
    let words = content_words(what);
    let best = folder
        .all()
        .into_iter()
        .map(|b| {
            let own = content_words(&format!("{} {}", b.name.replace('_', " "), b.description));
            (words.iter().filter(|w| own.contains(w)).count(), b.name)
        })
        .max_by_key(|(shared, _)| *shared);
    match best {
        Some((shared, name)) if shared >= 1 && words.len() > 1 => {
            folder.path_of(&name).ok_or_else(|| format!("The blueprint {name} went missing"))
        }
        _ => Err(format!(
            "There is no blueprint called {what} in {} (there are: {known}); name one, or give a .txt, .nbt or .schem \
             file.",
            folder.dir().display()
        )),
    }
}

/// The words that say what a thing is (not "a", "with", "the").
fn content_words(text: &str) -> Vec<String> {
    const FILLER: [&str; 14] =
        ["a", "an", "the", "with", "and", "of", "in", "on", "to", "me", "some", "small", "little", "build"];
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !FILLER.contains(&w.as_str()))
        .map(|w| w.strip_suffix('s').filter(|s| s.len() > 2).map_or(w.clone(), str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_finds_the_blueprint_sharing_most_words() {
        let folder = Folder::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints"));
        let named = |what: &str| find(&folder, what).map(|p| p.file_stem().unwrap().to_string_lossy().into_owned());
        assert_eq!(named("hut").as_deref(), Ok("hut"));
        assert_eq!(named("a small cobblestone hut with a door").as_deref(), Ok("hut"));
        assert_eq!(named("a watchtower with a ladder").as_deref(), Ok("watchtower"));
        assert_eq!(named("a wooden footbridge").as_deref(), Ok("bridge"));
        assert_eq!(named("a house with two floors").as_deref(), Ok("two_storey_house"));
        let unknown = named("castle").unwrap_err();
        assert!(unknown.contains("no blueprint called castle") && unknown.contains("hut"), "{unknown}");
    }
}
