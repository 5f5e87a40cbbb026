//! The integration scenarios, one module per file, in one test binary (the library and azalea are linked once for
//! all of them). Each scenario starts the test world (`tests/server`) and the real bot; `tests/support` drives both.
//! Run one file's scenarios with `cargo test --test it world_judges`, one scenario by its name.

#[path = "../support/mod.rs"]
mod support;

mod bot_spawns;
mod bridge_water_gap;
mod build_blueprint;
mod chat_status_reply;
mod come_to_speaker;
mod craft_item;
mod dashboard;
mod diamond_and_food;
mod explore_until;
mod follow_and_stop;
mod goal_resumes_after_restart;
mod goals_read_whole;
mod goto_moves_bot;
mod inventory_full;
mod item_sources;
mod kill_mob;
mod learn_loop;
mod learn_resumes_after_reconnect;
mod llm_economy;
mod malformed_command_usage;
mod mcp;
mod memory_chest;
mod mine_logs;
mod natural_iron_pickaxe;
mod non_owner_ignored;
mod owner_languages;
mod pillar_out_of_pit;
mod place_item;
mod reconnect_after_restart;
mod reflexes;
mod script_hot_reload;
mod script_sandbox;
mod skills_import;
mod skills_in_chat;
mod smelt_item;
mod staircase_down_and_back;
mod starter_skills_beyond_iron;
mod starter_skills_build;
mod starter_skills_iron_pickaxe;
mod stations;
mod stop_long_mine;
mod store;
mod store_fleet;
mod swarm_three_bots;
mod task_from_chat;
mod task_from_facts;
mod team_failover;
mod team_goal;
mod unreachable_server;
mod use_chest;
mod whisper_replies;
mod wooden_pickaxe_chain;
mod world_judges;
