//! `!build NAME|FILE|WORDS... [at X Y Z] [facing N|E|S|W] [part K/N] [preview]`: finds the blueprint, says what it
//! takes, builds it as the bot's activity and answers with the score the world shows; with `preview`, says it layer
//! by layer and shows it on the dashboard's map instead, placing nothing.
//!
//! A bot that leads a team splits the blueprint among the members online: each gets a strip of the footprint with
//! about as many blocks as the others (`Crew_2 !build house at 4 64 -4 facing south part 2/3`), gets the materials
//! its own strip takes and builds it as its own goal, judged by a structure tracker over its strip; the leader builds
//! the first strip and says when the world shows the whole blueprint standing.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use azalea::BlockPos;

use super::{
    reply::Replier,
    state::{BotState, Preview},
    team,
    work::start_task,
};
use crate::{
    agent::{building::BuildGoal, design},
    blueprint::{Blueprint, Facing, Folder, MAX_SHARES, Share, text},
    bot::BotHandle,
    chat::Target,
    primitives::build,
};

/// How far from the bot a blueprint built without `at` begins (east of it).
const BESIDE: i32 = 2;
/// A team build the world shows no new block of for this long is reported as it stands, and no longer watched.
const TEAM_STALL: Duration = Duration::from_secs(300);
/// Fewest blocks a member's strip of a team build has: smaller blueprints are built by fewer members.
const LEAST_SHARE: usize = 8;

/// Starts building what `what` names or describes, as a goal in the bot's goal book: materials it lacks are got
/// first, and a restart goes on with it. Words no blueprint in the folder fits are designed by the LLM (when one is
/// configured), checked, saved in the folder under the design's name, and built. `order.share` is a team member's
/// strip, as its leader hands them out; `order.preview` says what would be built and places nothing.
pub fn start(bot: BotHandle, state: &Arc<BotState>, reply: Replier, what: String, order: Order) {
    // The configured folder, from the configuration itself: a design is never kept anywhere else.
    let folder = Folder::new(&state.shared.config.blueprints_dir);
    let (name, blueprint) = match find(&folder, &what) {
        Ok(path) => match Blueprint::load(&path) {
            Ok(blueprint) => (goal_name(&folder, &path), blueprint),
            Err(e) => {
                reply.say(&format!("I cannot build {what}: {e}. Nothing was placed."));
                return;
            }
        },
        Err(problem) => match &state.llm {
            Some(llm) if what.split_whitespace().count() > 1 && !looks_like_a_file(&what) => {
                reply.say(&format!("No blueprint of mine fits \"{what}\"; I am drawing one."));
                let (llm, state) = (llm.clone(), state.clone());
                tokio::task::spawn_local(async move {
                    match design::design(&llm, &what).await {
                        Ok(design::Designed { blueprint, parts, .. }) => match save(&folder, &blueprint) {
                            Ok(name) => {
                                reply.say(&format!(
                                    "Drew {}: {}. Parts: {parts}.",
                                    blueprint.summary(),
                                    blueprint.description
                                ));
                                if order.preview {
                                    note_preview(&bot, &state, &name, &blueprint, order);
                                    show(&reply, &name, &blueprint);
                                } else {
                                    go(bot, &state, reply, name, blueprint, order);
                                }
                            }
                            Err(e) => reply.say(&format!("I drew {what} but cannot keep it: {e}. Nothing was placed.")),
                        },
                        Err(why) => reply.say(&format!("I could not draw {what}: {why}. Nothing was placed.")),
                    }
                });
                return;
            }
            _ => {
                reply.say(&problem);
                return;
            }
        },
    };
    if name.contains(char::is_whitespace) {
        reply.say(&format!("I cannot build from {name}: move it to a path without spaces. Nothing was placed."));
        return;
    }
    if order.preview {
        reply.say(&format!("{}: {}.", blueprint.summary(), blueprint.description));
        note_preview(&bot, state, &name, &blueprint, order);
        show(&reply, &name, &blueprint);
        return;
    }
    go(bot, state, reply, name, blueprint, order);
}

/// Where a build stands: `at`, or beside the bot (east of it, centred on it north to south), turned as ordered.
fn site(bot: &BotHandle, blueprint: &Blueprint, order: Order) -> (Blueprint, BlockPos) {
    let whole = blueprint.facing(order.facing);
    let feet = BlockPos::from(bot.position());
    let origin = match order.at {
        Some(t) => BlockPos::new(t.x.resolve(feet.x), t.y.resolve(feet.y), t.z.resolve(feet.z)),
        None => BlockPos::new(feet.x + BESIDE, feet.y, feet.z - whole.size[2] / 2),
    };
    (whole, origin)
}

/// Keeps a previewed build's footprint where it would stand, for the dashboard's map.
fn note_preview(bot: &BotHandle, state: &Arc<BotState>, name: &str, blueprint: &Blueprint, order: Order) {
    let (whole, origin) = site(bot, blueprint, order);
    let [w, _, d] = whole.size;
    let mut cells = vec![' '; (w * d) as usize];
    for part in whole.blocks() {
        cells[(part.at[2] * w + part.at[0]) as usize] = '#';
    }
    *state.preview.lock() = Some(Preview {
        name: name.to_owned(),
        x0: origin.x,
        z0: origin.z,
        width: w,
        depth: d,
        cells: cells.into_iter().collect(),
    });
}

/// Says a blueprint layer by layer (its palette, then each layer's rows north to south, west to east), as the
/// preview of a build; nothing is placed.
fn show(reply: &Replier, name: &str, blueprint: &Blueprint) {
    for line in preview(blueprint) {
        reply.say(&line);
    }
    reply.say(&format!("Nothing was placed: !build {name} builds it."));
}

/// A blueprint's preview lines: the key, then one line a layer (bottom first) with its rows north to south
/// between `/`, each west to east (`.` air, a space the ground left as it is).
fn preview(blueprint: &Blueprint) -> Vec<String> {
    let keys = text::keys(blueprint);
    let key: Vec<String> = keys.iter().map(|(spec, key)| format!("{key} = {spec}")).collect();
    let mut lines = vec![format!("Key: {}; . is air.", key.join(", "))];
    for (y, rows) in text::layers(blueprint, &keys).into_iter().enumerate() {
        let width = blueprint.size[0] as usize;
        let rows: Vec<String> = rows.into_iter().map(|row| format!("{row:<width$}")).collect();
        lines.push(format!("layer {y}: {}", rows.join(" / ")));
    }
    lines
}

/// Where and how a `!build` builds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Order {
    pub at: Option<Target>,
    pub facing: Facing,
    pub share: Option<Share>,
    /// Asked by this bot's leader (not an owner): acknowledged, and ended with what the bot carries.
    pub from_leader: bool,
    /// Only say what would be built (its size, parts, materials and layers); place nothing.
    pub preview: bool,
}

/// Whether `what` names a file rather than describing a thing.
fn looks_like_a_file(what: &str) -> bool {
    what.contains(['/', '\\']) || crate::blueprint::EXTENSIONS.iter().any(|e| what.ends_with(&format!(".{e}")))
}

/// Saves a designed blueprint in the folder under its own name (numbered when the name is taken); the name it got.
fn save(folder: &Folder, blueprint: &Blueprint) -> std::io::Result<String> {
    std::fs::create_dir_all(folder.dir())?;
    let name = (1..)
        .map(|n| if n == 1 { blueprint.name.clone() } else { format!("{}_{n}", blueprint.name) })
        .find(|n| folder.path_of(n).is_none())
        .expect("some number is free");
    let mut named = blueprint.clone();
    named.name = name.clone();
    crate::files::write_atomically(&folder.dir().join(format!("{name}.txt")), text::write(&named).as_bytes())?;
    Ok(name)
}

/// Says what the build takes and starts it as a goal (a leader's team build: the first strip, and the others'
/// orders).
fn go(bot: BotHandle, state: &Arc<BotState>, reply: Replier, name: String, blueprint: Blueprint, order: Order) {
    let Order { facing, mut share, from_leader, .. } = order;
    let (whole, origin) = site(&bot, &blueprint, order);
    let team = if share.is_none() { crew(&bot, state, &whole) } else { Vec::new() };
    if team.len() > 1 {
        let of = team.len() as u8;
        share = Some(Share { index: 1, of });
        let prefix = &state.shared.config.prefix;
        let [x, y, z] = [origin.x, origin.y, origin.z];
        reply.say(&format!(
            "Building {} at {x} {y} {z} facing {facing} with {}: a strip each, about {} blocks.",
            whole.summary(),
            team[1..].join(", "),
            whole.blocks().count() / team.len()
        ));
        for (index, member) in team.iter().enumerate().skip(1) {
            bot.chat(&format!("{member} {prefix}build {name} at {x} {y} {z} facing {facing} part {}/{of}", index + 1));
        }
        tokio::task::spawn_local(watch(bot.clone(), state.clone(), reply.clone(), whole.clone(), origin, team));
    }
    let blueprint = share.map_or_else(|| whole.clone(), |share| whole.share(share));
    let short = build::missing(&bot, &blueprint, origin);
    let first = if short.is_empty() { String::new() } else { format!("; first I get {}", build::list(&short)) };
    reply.say(&format!(
        "Building {} at {} facing {facing}{first}.",
        blueprint.summary(),
        crate::bot::fmt_block(origin)
    ));
    let goal = BuildGoal { blueprint: name, origin: [origin.x, origin.y, origin.z], facing, share };
    start_task(bot, state, reply, goal.text(), from_leader);
}

/// Who builds `whole` when this bot is told to: itself first, then (when it leads a team) the members online, as
/// many as the blueprint has strips of [`LEAST_SHARE`] blocks for.
fn crew(bot: &BotHandle, state: &BotState, whole: &Blueprint) -> Vec<String> {
    if !team::leads(state) {
        return Vec::new();
    }
    let me = state.name.clone();
    let most = (whole.blocks().count() / LEAST_SHARE).clamp(1, usize::from(MAX_SHARES));
    let mut crew: Vec<String> =
        team::members(state).into_iter().filter(|m| m.eq_ignore_ascii_case(&me) || bot.is_online(m)).collect();
    crew.truncate(most);
    crew
}

/// Follows a team build in the world until the whole blueprint stands (then says so with its score and time), until
/// no new block has come for [`TEAM_STALL`], or until an owner says `!stop`.
async fn watch(
    bot: BotHandle,
    state: Arc<BotState>,
    reply: Replier,
    whole: Blueprint,
    origin: BlockPos,
    team: Vec<String>,
) {
    let started = Instant::now();
    let stops = state.stops.load(std::sync::atomic::Ordering::SeqCst);
    let (mut last, mut changed) = (build::score(&bot, &whole, origin), Instant::now());
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        if state.stops.load(std::sync::atomic::Ordering::SeqCst) != stops {
            return;
        }
        let now = build::score(&bot, &whole, origin);
        if now.done() {
            reply.say(&format!(
                "Built {} with {} at {} in {:.0} s: {now}.",
                whole.name,
                team.join(", "),
                crate::bot::fmt_block(origin),
                started.elapsed().as_secs_f64()
            ));
            return;
        }
        if now != last {
            (last, changed) = (now, Instant::now());
        } else if changed.elapsed() >= TEAM_STALL {
            reply.say(&format!(
                "The team's {} at {} stands at {now}: no block was added for {} min.",
                whole.name,
                crate::bot::fmt_block(origin),
                TEAM_STALL.as_secs() / 60
            ));
            return;
        }
    }
}

/// How a build goal names its blueprint: by name when it is in the folder, else by its file.
fn goal_name(folder: &Folder, path: &std::path::Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if folder.path_of(&stem).as_deref() == Some(path) { stem } else { path.display().to_string() }
}

/// The file `what` names (a blueprint in the folder, or a path), or the blueprint whose name and description share
/// the most words with it.
fn find(folder: &Folder, what: &str) -> Result<std::path::PathBuf, String> {
    if let Some(path) = folder.path_of(what) {
        return Ok(path);
    }
    let names = folder.names();
    let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
    match folder.fitting(what) {
        // Reused only when its sizes and blocks are those the words give: otherwise a new one is drawn.
        Some(best) => match design::fits(&best, what) {
            Ok(()) => folder.path_of(&best.name).ok_or_else(|| format!("The blueprint {} went missing", best.name)),
            Err(differs) => Err(format!(
                "The nearest blueprint, {}, is not what \"{what}\" says ({differs}); with an LLM configured I draw \
                 one that is.",
                best.name
            )),
        },
        None => Err(format!(
            "There is no blueprint called {what} in {} (there are: {known}); name one, or give a .txt, .nbt or .schem \
             file.",
            folder.dir().display()
        )),
    }
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
        // A kept blueprint whose size or blocks are not the words' is not reused for them.
        let other = named("a small cobblestone hut seven by five with an oak door").unwrap_err();
        assert!(
            other.contains("nearest blueprint, hut") && other.contains("it is 5 by 5, the words say 7 by 5"),
            "{other}"
        );
        let spruce = named("a small spruce hut with an oak door, glass windows and a plank roof").unwrap_err();
        assert!(spruce.contains("no spruce_planks"), "{spruce}");
        let unknown = named("castle").unwrap_err();
        assert!(unknown.contains("no blueprint called castle") && unknown.contains("hut"), "{unknown}");
        assert!(named("a tiny dirt tower").is_err(), "one word of three is no fit");
        assert!(
            named("a small cobblestone hut with an oak door, glass windows and a plank roof").is_ok_and(|n| n == "hut")
        );
        let folder = Folder::new(std::env::temp_dir().join("wayfarer-no-hut-folder"));
        let _ = std::fs::remove_dir_all(folder.dir());
        std::fs::create_dir_all(folder.dir()).unwrap();
        let house = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints/two_storey_house.txt");
        std::fs::copy(house, folder.dir().join("two_storey_house.txt")).unwrap();
        let hut = find(&folder, "a small cobblestone hut with an oak door, glass windows and a plank roof");
        assert!(hut.is_err(), "half its words are the house's, but it is no house: {hut:?}");
        let _ = std::fs::remove_dir_all(folder.dir());
    }
}
