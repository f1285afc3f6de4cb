//! StreamAssembler: fold a protocol's event stream, pushed as raw bytes, into a snapshot of the
//! run, reporting what each chunk changed as a batch of coalesced [`Update`]s.
//!
//! Entry point: [`StreamAssembler`]. Tool-call arguments are parsed incrementally on demand
//! ([`PartialJson`]).

#[cfg(feature = "full")]
mod ag_ui;
mod agent_api;
/// The Agent API fold, for the protocol adapters that translate into it.
#[cfg(feature = "full")]
pub(crate) mod agent_api_fold {
    pub(crate) use super::agent_api::{AgentApiFold, EventCx};
}
mod core;
mod detect;
mod lean;
mod options;
mod outcome;
mod partial_json;
pub(crate) mod update;
mod warning;
pub(crate) mod words;

#[cfg(target_arch = "wasm32")]
pub(crate) use self::core::Snapshot;
pub use self::core::{StreamAssembler, MAX_WARNINGS};
#[cfg(all(target_arch = "wasm32", feature = "full"))]
pub(crate) use agent_api::Deferred;
pub use agent_api::{ToolCall, ToolCallChange, ToolCallChanges, MAX_PARTS_PER_MESSAGE};
pub use options::{AssemblerOptions, Protocol};
pub use outcome::Outcome;
pub use partial_json::{arguments_error, Op, PartialJson, PathSegment};
pub use update::Update;
pub use warning::{Warning, WarningCode};
