//! The resources (each bot's status, inventory, goals and recent memories; every skill with its code; every
//! blueprint), their change notifications, and the ready prompts.
//!
//! Addresses: `wayfarer://bot/NAME/status|inventory|goals|memory`, `wayfarer://skill/NAME`,
//! `wayfarer://blueprint/NAME`.

use std::{sync::Arc, time::Duration};

use parking_lot::Mutex;
use rmcp::{
    ErrorData, Peer, RoleServer,
    model::{
        GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage, ReadResourceResult, Resource,
        ResourceContents, ResourceTemplate, ResourceUpdatedNotificationParam, Role,
    },
};

use super::{Fleet, Watched};
use crate::{agent::goals, blueprint::Folder};

const SCHEME: &str = "wayfarer://";
/// What each bot shows, by the last part of its address.
const BOT_PARTS: [(&str, &str); 4] = [
    ("status", "position, health, food, activity, the current goal with its progress"),
    ("inventory", "the items it carries"),
    ("goals", "its goal book: every goal with its plans, steps, status and reason"),
    ("memory", "the latest entries of its memory stream"),
];
/// How often a session's subscriptions are looked at.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// How many memories the memory resource holds.
const MEMORIES: usize = 40;

/// What an address names.
enum Address {
    Bot { bot: String, part: String },
    Skill(String),
    Blueprint(String),
}

fn parse(uri: &str) -> Option<Address> {
    let rest = uri.strip_prefix(SCHEME)?;
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["bot", bot, part] if BOT_PARTS.iter().any(|(p, _)| p == part) => {
            Some(Address::Bot { bot: (*bot).to_owned(), part: (*part).to_owned() })
        }
        ["skill", name] if !name.is_empty() => Some(Address::Skill((*name).to_owned())),
        ["blueprint", name] if !name.is_empty() => Some(Address::Blueprint((*name).to_owned())),
        _ => None,
    }
}

fn not_found(uri: &str, why: impl Into<String>) -> ErrorData {
    ErrorData::resource_not_found(format!("no resource {uri}: {}", why.into()), None)
}

/// Refuses an address that names nothing here.
pub fn check_uri(fleet: &Fleet, uri: &str) -> Result<(), ErrorData> {
    match parse(uri) {
        Some(Address::Bot { bot, .. }) => fleet.bot(Some(&bot)).map(drop).map_err(|why| not_found(uri, why)),
        Some(Address::Skill(name)) => {
            fleet.shared.skills.get(&name).map(drop).ok_or_else(|| not_found(uri, "the library has no such skill"))
        }
        Some(Address::Blueprint(name)) => folder(fleet)
            .path_of(&name)
            .map(drop)
            .ok_or_else(|| not_found(uri, "the blueprint folder has no such blueprint")),
        None => Err(not_found(uri, format!("addresses are {SCHEME}bot/NAME/status and the like (resources/list)"))),
    }
}

fn folder(fleet: &Fleet) -> Folder {
    Folder::new(&fleet.shared.config.blueprints_dir)
}

/// Every resource there is now.
pub fn list(fleet: &Fleet) -> Vec<Resource> {
    let mut all = Vec::new();
    for bot in &fleet.bots {
        for (part, what) in BOT_PARTS {
            all.push(
                Resource::new(format!("{SCHEME}bot/{}/{part}", bot.name), format!("{} {part}", bot.name))
                    .with_description(format!("{}: {what}", bot.name))
                    .with_mime_type("application/json"),
            );
        }
    }
    for skill in fleet.shared.skills.list() {
        all.push(
            Resource::new(format!("{SCHEME}skill/{}", skill.name), skill.signature())
                .with_description(skill.meta.description.clone())
                .with_mime_type("text/x-rhai"),
        );
    }
    for name in folder(fleet).names() {
        all.push(
            Resource::new(format!("{SCHEME}blueprint/{name}"), name.clone())
                .with_description(format!("the blueprint {name}: what `build` with what: \"{name}\" builds"))
                .with_mime_type("text/plain"),
        );
    }
    all
}

pub fn templates() -> Vec<ResourceTemplate> {
    let template = |uri: &str, name: &str, what: &str, mime: &str| {
        ResourceTemplate::new(uri, name).with_description(what).with_mime_type(mime)
    };
    vec![
        template(
            &format!("{SCHEME}bot/{{bot}}/{{part}}"),
            "bot",
            "a bot's status, inventory, goals or memory (part)",
            "application/json",
        ),
        template(&format!("{SCHEME}skill/{{name}}"), "skill", "a skill's Rhai code and description", "text/x-rhai"),
        template(
            &format!("{SCHEME}blueprint/{{name}}"),
            "blueprint",
            "a blueprint: size, materials and layers",
            "text/plain",
        ),
    ]
}

/// One resource's contents now.
pub async fn read(fleet: &Fleet, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    check_uri(fleet, uri)?;
    let json = |value: serde_json::Value| {
        ResourceContents::text(serde_json::to_string_pretty(&value).unwrap_or_default(), uri)
            .with_mime_type("application/json")
    };
    let contents = match parse(uri) {
        Some(Address::Bot { bot, part }) => {
            let bot = fleet.bot(Some(&bot)).map_err(|why| not_found(uri, why))?;
            let value = match part.as_str() {
                "goals" => {
                    let book = goals::with(&bot.goals, |book| book.goals().to_vec());
                    serde_json::to_value(book).unwrap_or_default()
                }
                "memory" => memories(&bot).await,
                part => {
                    let (state, inventory) = (bot.clone(), part == "inventory");
                    let view = fleet
                        .on_bots(move || crate::app::dashboard::view::bot(&state))
                        .await
                        .map_err(|why| ErrorData::internal_error(why, None))?;
                    if inventory {
                        serde_json::json!({ "bot": view.name, "online": view.online, "items": view.items })
                    } else {
                        let mut value = serde_json::to_value(&view).unwrap_or_default();
                        if let Some(fields) = value.as_object_mut() {
                            fields.remove("code");
                            fields.remove("path");
                        }
                        value
                    }
                }
            };
            json(value)
        }
        Some(Address::Skill(name)) => {
            let skill =
                fleet.shared.skills.get(&name).ok_or_else(|| not_found(uri, "the library has no such skill"))?;
            let text = format!("// {}: {}\n{}", skill.signature(), skill.meta.description, skill.code);
            ResourceContents::text(text, uri).with_mime_type("text/x-rhai")
        }
        Some(Address::Blueprint(name)) => {
            let path = folder(fleet).path_of(&name).ok_or_else(|| not_found(uri, "no such blueprint"))?;
            let blueprint = crate::blueprint::Blueprint::load(&path)
                .map_err(|err| ErrorData::internal_error(format!("{name} does not read: {err}"), None))?;
            let mut text = format!("{}\n{}\n", blueprint.summary(), blueprint.description);
            if path.extension().is_some_and(|e| e == "txt") {
                text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
            ResourceContents::text(text, uri).with_mime_type("text/plain")
        }
        None => return Err(not_found(uri, "unknown address")),
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

async fn memories(bot: &crate::app::state::BotState) -> serde_json::Value {
    let Some(memories) = bot.memory.clone() else {
        return serde_json::json!({ "enabled": false, "memories": [] });
    };
    let found = crate::agent::memory::blocking(&memories, move |stream| {
        let now = stream.now(None);
        let rows: Vec<serde_json::Value> = stream
            .recent(MEMORIES, now)
            .into_iter()
            .rev()
            .map(|m| {
                serde_json::json!({
                    "id": m.id,
                    "text": m.text,
                    "importance": m.importance,
                    "age": crate::memory::age_text(now.saturating_sub(m.at)),
                })
            })
            .collect();
        Ok(serde_json::json!({ "enabled": true, "count": stream.len(), "memories": rows }))
    })
    .await;
    found.unwrap_or_else(|err| serde_json::json!({ "enabled": true, "error": err.to_string() }))
}

/// What a subscribed resource is now, cheaply: a number that changes when it does.
fn mark(fleet: &Fleet, uri: &str) -> Option<String> {
    Some(match parse(uri)? {
        Address::Bot { bot, part } => {
            let bot = fleet.bot(Some(&bot)).ok()?;
            let goals = goals::with(&bot.goals, |book| book.changes());
            match part.as_str() {
                "goals" => goals.to_string(),
                "status" => format!("{goals} {}", bot.activity.describe()),
                // Busy (a recall, a reflection): looked at again next time.
                "memory" => bot.memory.as_ref().map_or(Some(0), |m| m.try_lock().map(|s| s.len()))?.to_string(),
                // What a bot carries changes within its goals; a goal's step or end is when it is worth reading.
                _ => format!("{goals}"),
            }
        }
        Address::Skill(name) => fleet.shared.skills.get(&name).map(|s| s.meta.version).unwrap_or(0).to_string(),
        Address::Blueprint(name) => {
            let path = folder(fleet).path_of(&name)?;
            format!("{:?}", std::fs::metadata(path).and_then(|m| m.modified()).ok())
        }
    })
}

/// Watches a session's subscriptions and the library: tells the client of each subscribed resource that changed
/// (a goal's step or end, a skill learned again), and that the list changed when a skill was added or removed.
pub async fn watch(fleet: Arc<Fleet>, watched: Arc<Mutex<Watched>>, peer: Peer<RoleServer>) {
    let mut marks: std::collections::BTreeMap<String, String> = Default::default();
    let mut skills = fleet.shared.skills.len();
    loop {
        let uris: Vec<String> = watched.lock().uris.iter().cloned().collect();
        marks.retain(|uri, _| uris.contains(uri));
        for uri in uris {
            let Some(now) = mark(&fleet, &uri) else { continue };
            let before = marks.insert(uri.clone(), now.clone());
            if before.is_some_and(|before| before != now) {
                let updated = ResourceUpdatedNotificationParam::new(uri.clone());
                if peer.notify_resource_updated(updated).await.is_err() {
                    return;
                }
            }
        }
        let count = fleet.shared.skills.len();
        if count != skills {
            skills = count;
            if peer.notify_resource_list_changed().await.is_err() {
                return;
            }
        }
        tokio::time::sleep(WATCH_EVERY).await;
    }
}

/// The ready prompts.
pub fn prompts() -> Vec<Prompt> {
    let bot = || PromptArgument::new("bot").with_description("which bot (left out: the first)").with_required(false);
    vec![
        Prompt::new(
            "plan_a_base",
            Some("Look around a bot, choose a spot, and build a small base there with Wayfarer's tools"),
            Some(vec![
                PromptArgument::new("style")
                    .with_description("what the base should be like (\"a cobblestone hut with a door\")")
                    .with_required(false),
                bot(),
            ]),
        ),
        Prompt::new(
            "iron_pickaxe",
            Some("Gather for and make an iron pickaxe from nothing, following the world's verdict at each stage"),
            Some(vec![bot()]),
        ),
    ]
}

pub fn prompt(request: &GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
    let arg =
        |name: &str| request.arguments.as_ref().and_then(|a| a.get(name)).and_then(|v| v.as_str()).map(str::to_owned);
    let bot = arg("bot").map_or_else(|| "the first bot".to_owned(), |b| format!("the bot {b}"));
    let text = match request.name.as_str() {
        "plan_a_base" => {
            let style =
                arg("style").unwrap_or_else(|| "a small cobblestone hut with a door and a flat roof".to_owned());
            format!(
                "Plan a base for {bot} in Minecraft with the Wayfarer tools. First call `status` and `look_around` \
                 (radius 24) to see where it stands and what is near (trees, water, stone). Choose a flat spot near \
                 wood and water and say why. Call `build` with what: \"{style}\" and preview: true to see its size \
                 and materials; if the bot lacks them, give it `task` goals to gather them first. Then call `build` \
                 at the chosen spot and report the world's score it ends with."
            )
        }
        "iron_pickaxe" => format!(
            "Get {bot} an iron pickaxe with the Wayfarer tools. Call `status` and `inventory` first. Then give \
             `task` goals one stage at a time — \"a wooden pickaxe\", \"a stone pickaxe\", \"3 iron ingots\", \
             \"an iron pickaxe\" — waiting for each verdict. If a stage fails, read its reason, call `look_around`, \
             and decide whether to retry, explore (a `task` like \"find iron ore\") or change the plan. End with \
             `inventory` to show the pickaxe."
        ),
        other => {
            return Err(ErrorData::invalid_params(
                format!("there is no prompt called {other:?}; the prompts are plan_a_base and iron_pickaxe"),
                None,
            ));
        }
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).with_description(
        match request.name.as_str() {
            "plan_a_base" => "Plan and build a base",
            _ => "Make an iron pickaxe",
        },
    ))
}
