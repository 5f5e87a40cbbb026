//! Leading a team: `!team GOAL` to a leader plans the goal stage by stage with the LLM, hands each member one job a
//! stage in chat (`Crew_2 !task mine 3 oak_log`), follows the members' reports with the progress monitor, plans the
//! next stage from its verdicts, and ends with `Team goal done: …` or a reasoned give-up. The leader's own jobs run
//! here too. Everything goes through chat, so members may be bots of other processes, and owners see it all.

use std::{
    future::Future,
    pin::Pin,
    sync::Arc,
    time::{Duration, Instant},
};

use parking_lot::Mutex;
use tokio::sync::mpsc;

use super::{
    reply::Replier,
    state::{BotState, TeamLink},
    work::{NO_LLM, StopOnDrop, abandon_learning, agent_with},
};
use crate::{
    agent::{
        act::{Unusable, ask_usable, usage_since},
        goals::{self, Status},
        prompts,
        task::run_goal,
        team::{
            Decision, JobState, JudgeVerdict, Monitor, Verdict, carrying_line, holds, parse_decision, parse_judgement,
        },
    },
    bot::BotHandle,
    llm::{Message, Role},
};

/// Planning rounds before a goal is given up: each round is one stage of work.
const MAX_STAGES: usize = 12;
/// How long the leader waits for its members' inventories before the first planning.
const INVENTORY_WAIT: Duration = Duration::from_secs(5);
/// How many of the members' lines since the last planning go into the next planning prompt.
const CONVERSATION_LINES: usize = 40;

/// The members of a team this bot leads: itself first, then this process's other bots, then the configured workers
/// of other processes.
pub fn members(state: &BotState) -> Vec<String> {
    let mut members = vec![state.name.clone()];
    let shared = &state.shared;
    for name in shared.bot_names.iter().chain(&shared.config.team.workers) {
        if !members.iter().any(|m| m.eq_ignore_ascii_case(name)) {
            members.push(name.clone());
        }
    }
    members
}

/// Whether this bot leads (it was started as the leader, or told `!lead`).
pub fn leads(state: &BotState) -> bool {
    state.shared.leader().is_some_and(|leader| leader.eq_ignore_ascii_case(&state.name))
}

/// Starts leading `goal` as the bot's activity, as asked by the owner `reply` answers.
pub fn start(bot: BotHandle, state: &Arc<BotState>, reply: Replier, goal: String) {
    let prefix = &state.shared.config.prefix;
    if !leads(state) {
        reply.say(&format!(
            "I don't lead a team. Start me with --role leader, or say {} {prefix}lead first.",
            state.name
        ));
        return;
    }
    if state.llm.is_none() {
        reply.say(NO_LLM);
        return;
    }
    if members(state).len() < 2 {
        reply.say(
            "I have no one to lead: run more bots with --bots N, or name other processes' bots with --worker NAME.",
        );
        return;
    }
    abandon_learning(state, &format!("{} gave another command", reply.to()));
    let id = goals::with(&state.goals, |book| book.add_team(&goal, reply.to()));
    launch(bot, state, reply, goal, id, None);
}

/// Takes up the team goal a lost connection or a restart cut off, if this bot leads one: the members are asked
/// what they carry, and the leader plans on from the long-term plan and the last stage as its book has them.
pub fn resume(bot: BotHandle, state: &Arc<BotState>) -> bool {
    if !leads(state) || state.llm.is_none() || members(state).len() < 2 {
        return false;
    }
    let resumed = goals::with(&state.goals, |book| {
        let goal = book.active_team()?;
        let (id, text, asked_by) = (goal.id, goal.text.clone(), goal.asked_by.clone());
        let last = book.last_stage_text(id);
        book.stop_jobs("the team goal was taken up again");
        Some((id, text, asked_by, last))
    });
    let Some((id, goal, asked_by, last)) = resumed else { return false };
    tracing::info!("{}: going on with team goal #{id} ({goal}) for {asked_by}", state.name);
    let reply = state.shared.replier(bot.clone(), &asked_by);
    reply.say(&format!("Going on with the team goal: {goal}."));
    launch(bot, state, reply, goal, id, Some(last.unwrap_or_else(|| "nothing was handed out yet".to_owned())));
    true
}

/// Leads team goal `id` of the book as the bot's activity; `last_stage` says how the last stage went when the goal
/// is taken up again.
fn launch(bot: BotHandle, state: &Arc<BotState>, reply: Replier, goal: String, id: u32, last_stage: Option<String>) {
    let Some(llm) = state.llm.clone() else { return };
    let members = members(state);
    let (heard_tx, heard) = mpsc::unbounded_channel();
    let monitor = Arc::new(Mutex::new(Monitor::new(&members, state.shared.config.team.silent_after)));
    // The leader's own reports reach the monitor the way its members' do.
    let own_lines = heard_tx.clone();
    let me = state.name.clone();
    let mut agent = agent_with(bot.clone(), state, &reply, llm);
    let say = reply.clone();
    agent.say = Arc::new(move |line: &str| {
        say.say(line);
        let _ = own_lines.send((me.clone(), line.to_owned()));
    });
    *state.team() =
        Some(TeamLink { goal: goal.clone(), started: Instant::now(), monitor: monitor.clone(), heard: heard_tx });
    let team = Team {
        bot,
        state: state.clone(),
        reply: reply.clone(),
        members,
        monitor,
        over: false,
        id,
        jobs: Vec::new(),
        last_stage,
    };
    let (label, what) = (format!("leading the team: {goal}"), format!("team goal {goal}"));
    let crashed = state.goals.clone();
    let say_crash = reply.internal_error(what);
    state.activity.start(
        label,
        async move {
            let mut team = team;
            let stop = agent.stop.clone();
            let _stop_on_drop = StopOnDrop(stop);
            team.lead(&agent, &goal, heard).await;
        },
        move |message| {
            goals::with(&crashed, |book| {
                book.finish(id, Status::Failed, Some(format!("an internal error: {message}")))
            });
            say_crash(message);
        },
    );
}

/// `!team status`.
pub fn status(state: &BotState) -> String {
    match state.team().as_ref() {
        None => "I am not leading a team now.".to_owned(),
        Some(link) => {
            let monitor = link.monitor.lock();
            format!(
                "Team goal: {} ({:.1} min). {}",
                link.goal,
                link.started.elapsed().as_secs_f64() / 60.0,
                monitor.status_text(Instant::now())
            )
        }
    }
}

/// A team goal under way. Dropping it before the goal is over (`!stop`, `!team stop`, another command) tells the
/// members still at work to stop.
struct Team {
    bot: BotHandle,
    state: Arc<BotState>,
    reply: Replier,
    members: Vec<String>,
    monitor: Arc<Mutex<Monitor>>,
    over: bool,
    /// The team goal's id in the leader's book.
    id: u32,
    /// Where this stage's jobs are in the book: (member, task).
    jobs: Vec<(String, (usize, usize))>,
    /// How the last stage went, from the book, when the goal was taken up again (its reports were not heard).
    last_stage: Option<String>,
}

impl Drop for Team {
    fn drop(&mut self) {
        // Only this goal's link: a new `!team` may have put its own in place already.
        let mut link = self.state.team();
        if link.as_ref().is_some_and(|l| Arc::ptr_eq(&l.monitor, &self.monitor)) {
            link.take();
        }
        drop(link);
        if self.over {
            return;
        }
        let prefix = &self.state.shared.config.prefix;
        let monitor = self.monitor.lock();
        for member in &monitor.members {
            let busy = member.job.as_ref().is_some_and(|j| !j.state.is_over());
            if busy && !member.name.eq_ignore_ascii_case(&self.state.name) {
                self.bot.chat(&format!("{} {prefix}stop", member.name));
            }
        }
    }
}

type OwnJob<'a> = Pin<Box<dyn Future<Output = bool> + 'a>>;

impl Team {
    fn monitor(&self) -> parking_lot::MutexGuard<'_, Monitor> {
        self.monitor.lock()
    }

    fn me(&self) -> &str {
        &self.state.name
    }

    async fn lead(
        &mut self,
        agent: &crate::agent::act::Agent,
        goal: &str,
        mut heard: mpsc::UnboundedReceiver<(String, String)>,
    ) {
        let started = Instant::now();
        agent.llm.begin_task(&format!("team: {goal}"));
        let before = agent.llm.total_usage();
        let prefix = self.state.shared.config.prefix.clone();
        let workers: Vec<String> =
            self.members.iter().filter(|m| !m.eq_ignore_ascii_case(self.me())).cloned().collect();
        self.reply.say(&format!("Leading {} on: {goal}. Asking what everyone carries.", workers.join(", ")));
        for worker in &workers {
            self.bot.chat(&format!("{worker} {prefix}inventory"));
        }
        let mut conversation: Vec<String> = Vec::new();
        let deadline = tokio::time::Instant::now() + INVENTORY_WAIT;
        while self.monitor().members.iter().skip(1).any(|m| m.last_said.is_none()) {
            match tokio::time::timeout_at(deadline, heard.recv()).await {
                Ok(Some((who, line))) => self.take(&who, &line, started, &mut conversation),
                Ok(None) | Err(_) => break,
            }
        }
        let notes =
            goals::with(&self.state.goals, |book| book.get(self.id).map(|g| g.notes.clone())).unwrap_or_default();
        let mut plan = if notes.is_empty() { "none yet".to_owned() } else { notes };
        for stage in 1..=MAX_STAGES {
            self.note_own_inventory();
            if let Some(holder) = self.goal_reached(goal) {
                return self.finish(goal, started, before, agent, &format!("{holder} has it"));
            }
            let decision = match self.plan(agent, goal, &plan, &conversation).await {
                Ok(decision) => decision,
                Err(why) => {
                    self.end(Status::Failed, &why);
                    self.reply.say(&format!("Team goal failed: {goal}, because I could not plan it: {why}"));
                    return;
                }
            };
            conversation.clear();
            let assignments = match decision {
                Decision::Done { reasoning } => return self.finish(goal, started, before, agent, &reasoning),
                Decision::GiveUp { why } => {
                    self.end(Status::Failed, &why);
                    self.reply.say(&format!("Team goal given up: {goal}, because {why}"));
                    return;
                }
                Decision::Stage { plan: long_term, assignments } => {
                    if !long_term.is_empty() {
                        plan = long_term;
                    }
                    assignments
                }
            };
            tracing::info!("{}: team stage {stage}: {assignments:?}", self.me());
            let jobs: Vec<String> = assignments.iter().map(|a| format!("{}: {}", a.member, a.job)).collect();
            let places = goals::with(&self.state.goals, |book| book.add_stage(self.id, &jobs, &plan));
            self.jobs = assignments.iter().map(|a| a.member.clone()).zip(places).collect();
            let mut own: Option<OwnJob<'_>> = None;
            let now = Instant::now();
            for a in &assignments {
                self.monitor().assign(&a.member, &a.job, now);
                if a.member.eq_ignore_ascii_case(self.me()) {
                    let job = a.job.clone();
                    let goals = self.state.goals.clone();
                    let me = self.me().to_owned();
                    let id = goals::with(&goals, |book| book.add_job(&job, &me));
                    own = Some(Box::pin(async move { run_goal(agent, &job, &goals, id).await }));
                } else {
                    self.bot.chat(&format!("{} {prefix}task {}", a.member, a.job));
                }
            }
            self.await_stage(agent, &mut heard, &mut own, started, &mut conversation).await;
        }
        let why = format!("{MAX_STAGES} stages did not reach it");
        self.end(Status::Failed, &why);
        self.reply.say(&format!("Team goal given up: {goal}, because {why}"));
    }

    /// Follows the stage until every job in it is over: members' lines, the leader's own job, and the clock.
    async fn await_stage(
        &mut self,
        agent: &crate::agent::act::Agent,
        heard: &mut mpsc::UnboundedReceiver<(String, String)>,
        own: &mut Option<OwnJob<'_>>,
        started: Instant,
        conversation: &mut Vec<String>,
    ) {
        let mut ticker = tokio::time::interval(Duration::from_secs(1));
        // The leader's own job is over when its run is (its last lines may read like a step's).
        while !self.monitor().all_over() || own.is_some() {
            let mut own_done = None;
            let own_job = async {
                match own.as_mut() {
                    Some(job) => job.await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                line = heard.recv() => match line {
                    Some((who, line)) => self.take(&who, &line, started, conversation),
                    None => return,
                },
                ok = own_job => own_done = Some(ok),
                _ = ticker.tick() => {
                    let bot = self.bot.clone();
                    let me = self.me().to_owned();
                    let online = move |name: &str| name.eq_ignore_ascii_case(&me) || bot.is_online(name);
                    let settled = self.monitor().tick(Instant::now(), &online);
                    for verdict in &settled {
                        self.record(verdict);
                        if verdict.gone {
                            self.hand_on(verdict, &online).await;
                        }
                    }
                    // A long job is quiet: its member's answer to `!status` shows it is still at it.
                    let prefix = &self.state.shared.config.prefix;
                    for member in self.monitor().take_quiet(Instant::now()) {
                        if !member.eq_ignore_ascii_case(self.me()) {
                            self.bot.chat(&format!("{member} {prefix}status"));
                        }
                    }
                    // A member that talks but not in the team's phrases (a player joining in): the LLM judges.
                    let due = self.monitor().take_due_judgements(Instant::now());
                    for (member, job, talk) in due {
                        match self.judge(agent, &member, &job, &talk).await {
                            Ok(judgement) => {
                                tracing::info!("{}: judged {member}'s {job:?}: {judgement:?}", self.state.name);
                                let verdict = self.monitor().judged(&member, &judgement);
                                verdict.iter().for_each(|v| self.record(v));
                            }
                            Err(why) => tracing::warn!("{}: could not judge {member}'s {job:?}: {why}", self.state.name),
                        }
                    }
                }
            }
            if let Some(ok) = own_done {
                *own = None;
                // The job's last report is already in the channel; then what the leader carries, to check it by.
                while let Ok((who, line)) = heard.try_recv() {
                    self.take(&who, &line, started, conversation);
                }
                let me = self.me().to_owned();
                let line = carrying_line(&self.bot.items(), &[]);
                self.take(&me, &line, started, conversation);
                let monitor = self.monitor();
                let state = monitor.members.first().and_then(|m| m.job.as_ref()).map(|j| j.state.clone());
                drop(monitor);
                match state {
                    Some(state) if state.is_over() => {}
                    Some(JobState::Said { success: false, reason }) if !ok => {
                        let verdict = self.monitor().finished(&me, false, &reason);
                        verdict.iter().for_each(|v| self.record(v));
                    }
                    _ => {
                        let verdict = self.monitor().finished(&me, ok, "my own run of it ended without reaching it");
                        verdict.iter().for_each(|v| self.record(v));
                    }
                }
            }
        }
    }

    /// A member is gone with its job unfinished (`verdict`): with a fleet store, the job goes to a member with
    /// nothing to do, which takes the gone member's goal up from the store where it was left (the store makes it
    /// the new member's in one step, so it has one owner at a time). With no store, or no member free, the verdict
    /// stands and the next planning sees it.
    async fn hand_on(&mut self, verdict: &Verdict, online: &dyn Fn(&str) -> bool) {
        let Some(url) = self.state.shared.config.store.clone() else { return };
        let JobState::Failed(why) = &verdict.state else { return };
        let (gone, job) = (verdict.member.as_str(), verdict.job.as_str());
        if gone.eq_ignore_ascii_case(self.me()) {
            return; // the leader's own job runs here: it is not gone
        }
        let Some(to) = self.monitor().successor(gone, self.me(), online) else {
            tracing::info!("{}: {gone} is gone ({why}) and no member is free to take \"{job}\"", self.me());
            return;
        };
        let from_book = match super::goal_sync::hand_over(&url, gone, job, &to).await {
            Ok(found) => found,
            Err(err) => {
                tracing::warn!("{}: cannot hand {gone}'s goal to {to} in the store: {err}", self.me());
                false
            }
        };
        let how = if from_book {
            "it goes on from where the goal book has it"
        } else {
            "the goal book has no goal of it, so it starts afresh"
        };
        self.reply.say(&format!("{gone} is gone ({why}); handing \"{job}\" to {to}: {how}."));
        tracing::info!("{}: handed {gone}'s job {job:?} to {to} (from the goal book: {from_book})", self.me());
        if let Some(entry) = self.jobs.iter_mut().find(|(member, _)| member.eq_ignore_ascii_case(gone)) {
            let place = goals::with(&self.state.goals, |book| book.hand_on(self.id, entry.1, &format!("{to}: {job}")));
            if let Some(place) = place {
                *entry = (to.clone(), place);
            }
        }
        let mut monitor = self.monitor();
        if let Some(job) = monitor.members.iter_mut().find(|m| m.name == gone).and_then(|m| m.job.as_mut()) {
            job.state = JobState::Failed(format!("{why}; handed to {to}"));
        }
        monitor.assign(&to, job, Instant::now());
        drop(monitor);
        let prefix = &self.state.shared.config.prefix;
        self.bot.chat(&format!("{to} {prefix}task {job}"));
    }

    /// One line a member said: into the conversation (for the next planning) and the monitor.
    fn take(&mut self, who: &str, line: &str, started: Instant, conversation: &mut Vec<String>) {
        conversation.push(format!("[{} s] {who}: {line}", started.elapsed().as_secs()));
        if conversation.len() > CONVERSATION_LINES {
            conversation.remove(0);
        }
        let verdict = self.monitor().heard(who, line, Instant::now());
        verdict.iter().for_each(|v| self.record(v));
    }

    /// A job's verdict, into the log and the book.
    fn record(&self, verdict: &Verdict) {
        tracing::info!("{}: {} on {:?}: {:?}", self.state.name, verdict.member, verdict.job, verdict.state);
        let Some((_, place)) = self.jobs.iter().rev().find(|(member, _)| member.eq_ignore_ascii_case(&verdict.member))
        else {
            return;
        };
        let (status, reason) = match &verdict.state {
            JobState::Succeeded => (Status::Completed, None),
            JobState::Failed(why) => (Status::Failed, Some(why.clone())),
            _ => return,
        };
        goals::with(&self.state.goals, |book| book.set_task(self.id, *place, status, reason));
    }

    /// The goal is over: into the book, and the members are not told to stop.
    fn end(&mut self, status: Status, why: &str) {
        self.over = true;
        goals::with(&self.state.goals, |book| book.finish(self.id, status, Some(why.to_owned())));
    }

    /// The leader's own inventory, as the planner sees the members'.
    fn note_own_inventory(&mut self) {
        let me = self.me().to_owned();
        let line = carrying_line(&self.bot.items(), &[]);
        let verdict = self.monitor().heard(&me, &line, Instant::now());
        verdict.iter().for_each(|v| self.record(v));
    }

    /// Who holds what the goal asks for, when the goal names an item and a count and a member carries them.
    fn goal_reached(&self, goal: &str) -> Option<String> {
        let monitor = self.monitor();
        let holder = monitor.members.iter().find(|m| holds(goal, &m.items) == Some(true))?;
        Some(holder.name.clone())
    }

    /// Asks the LLM how `member`'s job went, from what it said since it got it.
    async fn judge(
        &self,
        agent: &crate::agent::act::Agent,
        member: &str,
        job: &str,
        talk: &[String],
    ) -> Result<JudgeVerdict, String> {
        let inventory = {
            let monitor = self.monitor();
            let items = monitor
                .members
                .iter()
                .find(|m| m.name.eq_ignore_ascii_case(member))
                .map(|m| m.items.iter().map(|(name, n)| format!("{n} {name}")).collect::<Vec<_>>().join(", "));
            items.filter(|i| !i.is_empty()).unwrap_or_else(|| "nothing said".to_owned())
        };
        let prompt = prompts::render(
            "monitor",
            &[("member", member), ("job", job), ("inventory", &inventory), ("talk", &talk.join("\n"))],
        )
        .map_err(|e| e.to_string())?;
        let correction = |why: &str| format!("That answer cannot be used: {why}. Answer with the JSON object only.");
        let about = format!("how {member}'s job went");
        ask_usable(agent, Role::Leader, &about, vec![Message::user(prompt)], parse_judgement, correction).await.map_err(
            |err| match err {
                Unusable::Llm(failure) => failure,
                Unusable::Answer(why) => why,
            },
        )
    }

    /// Asks the LLM for the next stage.
    async fn plan(
        &self,
        agent: &crate::agent::act::Agent,
        goal: &str,
        plan: &str,
        conversation: &[String],
    ) -> Result<Decision, String> {
        let (members, mut verdicts) = {
            let monitor = self.monitor();
            (monitor.members_text(self.me()), monitor.verdicts_text())
        };
        // Taken up again after a restart: how the last stage went is in the book, not in the new monitor.
        if let Some(last) = &self.last_stage
            && self.jobs.is_empty()
        {
            verdicts = last.clone();
        }
        let conversation = if conversation.is_empty() { "(nothing)".to_owned() } else { conversation.join("\n") };
        let memories = agent.memories_about(goal, 5).await;
        let prompt = prompts::render(
            "leader",
            &[
                ("goal", goal),
                ("members", &members),
                ("plan", plan),
                ("verdicts", &verdicts),
                ("conversation", &conversation),
                ("memories", &memories),
            ],
        )
        .map_err(|e| e.to_string())?;
        let names = self.members.clone();
        let correction = |why: &str| format!("That answer cannot be used: {why}. Answer with the JSON object only.");
        ask_usable(
            agent,
            Role::Leader,
            "the team's next stage",
            vec![Message::user(prompt)],
            |reply| parse_decision(reply, &names),
            correction,
        )
        .await
        .map_err(|err| match err {
            Unusable::Llm(failure) => failure,
            Unusable::Answer(why) => why,
        })
    }

    /// `Team goal done: make a stone pickaxe in 2.1 min (Crew_1 has it). Crew_2: mine 3 oak_log, …; 4 LLM calls.`
    fn finish(
        &mut self,
        goal: &str,
        started: Instant,
        before: crate::llm::Usage,
        agent: &crate::agent::act::Agent,
        why: &str,
    ) {
        self.end(Status::Completed, why);
        let used = usage_since(before, agent.llm.total_usage());
        let who_did: Vec<String> = self
            .monitor()
            .members
            .iter()
            .filter(|m| !m.done.is_empty())
            .map(|m| format!("{}: {}", m.name, m.done.join(", ")))
            .collect();
        let who_did = if who_did.is_empty() { "nobody had to do anything".to_owned() } else { who_did.join("; ") };
        self.reply.say(&format!(
            "Team goal done: {goal} in {:.1} min ({why}). {who_did}. {} LLM call{} by me.",
            started.elapsed().as_secs_f64() / 60.0,
            used.calls,
            if used.calls == 1 { "" } else { "s" }
        ));
    }
}
