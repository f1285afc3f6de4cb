//! StreamAssembler: fold a protocol's event stream, pushed as raw bytes, into a snapshot of the
//! run, reporting what each chunk changed as a batch of coalesced [`Update`]s.
//!
//! Entry point: [`StreamAssembler`]. Tool-call arguments are parsed incrementally on demand
//! ([`PartialJson`]).

#[cfg(feature = "client")]
mod adapter;
mod agent_api;
#[cfg(feature = "client")]
mod agui;
pub(crate) mod bytewise;
mod calls;
mod core;
mod detect;
mod fast_read;
mod fold;
mod options;
mod outcome;
pub(crate) mod update;

pub use self::core::{StreamAssembler, MAX_WARNINGS};
#[cfg(all(target_arch = "wasm32", feature = "client"))]
pub(crate) use agent_api::Deferred;
pub use agent_api::MAX_PARTS_PER_MESSAGE;
pub use calls::{CallFields, ToolCall, ToolCallChange, ToolCallChanges};
#[cfg(target_arch = "wasm32")]
pub(crate) use fold::Snapshot;
pub use options::AssemblerOptions;
pub use outcome::Outcome;
// Paths kept from before these moved down to the crate root and `protocol`.
pub use crate::protocol::{arguments_error, Op, PartialJson, PathSegment};
pub use crate::{Protocol, Warning, WarningCode};
pub use update::Update;
