//! What a script pays to reach the bot, without a server: a Rhai call goes through the sandboxed engine, over the
//! channel to the async side, and back with the answer — the path every primitive takes. Measured per call, beside
//! a plain Rhai function call and the set-up of one script run.

use std::{sync::Arc, time::Duration};

use criterion::{Criterion, criterion_group, criterion_main};
use rhai::Dynamic;
use wayfarer::script::{ChannelHost, Host, Job, Limits, RunBounds, StopFlag, Vec3, bindings, build_engine};

/// An async side that answers `position()` at once, on a tokio runtime like the bot's.
fn channel_host(runtime: &tokio::runtime::Runtime) -> Arc<dyn Host> {
    let (jobs, mut incoming) = tokio::sync::mpsc::unbounded_channel::<Job>();
    runtime.spawn(async move {
        while let Some(job) = incoming.recv().await {
            let _ = job.reply.send(Ok(Dynamic::from(Vec3::new(0.5, 64.0, 0.5))));
        }
    });
    Arc::new(ChannelHost::new(jobs))
}

fn engine_with(host: Arc<dyn Host>) -> rhai::Engine {
    let limits = Limits { max_operations: u64::MAX, deadline: Duration::from_secs(3600), ..Limits::default() };
    let bounds = RunBounds::new(StopFlag::default(), &limits);
    let mut engine = build_engine(&limits, bounds.clone());
    bindings::register(&mut engine, host, bounds);
    engine
}

fn dispatch(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let engine = engine_with(channel_host(&runtime));
    let primitive = engine.compile("position()").unwrap();
    let local = engine.compile("fn here() { 1 } here()").unwrap();

    let mut group = c.benchmark_group("script_dispatch");
    group.bench_function("primitive call, script -> async side -> script", |b| {
        b.iter(|| engine.eval_ast::<Dynamic>(&primitive).unwrap())
    });
    group.bench_function("plain Rhai function call (baseline)", |b| {
        b.iter(|| engine.eval_ast::<Dynamic>(&local).unwrap())
    });
    group.bench_function("build a sandboxed engine with every function", |b| {
        let host = channel_host(&runtime);
        b.iter(|| engine_with(host.clone()))
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
