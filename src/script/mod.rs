//! Rhai scripting: the sandboxed engine, script runs on their own threads, and hot-reloaded script files.
//!
//! Scripts never run on tokio workers. A registered primitive blocks its script thread on a reply from the async
//! side; `!stop` and the deadline end both the script (through `on_progress`) and the primitive in flight.

pub mod bindings;
mod engine;
pub mod host;
pub mod library;
pub mod runner;
pub mod vec3;

pub use engine::{CANCELLED, CompileError, DEADLINE, Limits, RunBounds, StopFlag, build_engine, compile};
pub use host::{Answer, Call, ChannelHost, Host, Job};
pub use vec3::Vec3;
