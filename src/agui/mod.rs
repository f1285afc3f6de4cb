//! AG-UI 1.0: every type and event, and the client pipeline of `@ag-ui/client` 1.0 (legacy
//! compatibility → enforcement → chunk expansion → verification → apply), in Rust.
//!
//! Entry points:
//! - [`Event`] / [`EventType`]: the 31 events, camelCase on the wire, optional fields absent
//!   rather than `null`, with [`Event::to_json`]; [`parse_event`] / [`enforce_event`] read one
//!   as the client does (unknown fields stripped, unknown events reported, malformed known
//!   fields rejected with errors naming the field).
//! - [`Client`]: the client pipeline over raw events, holding `messages`, `state` and the run,
//!   reporting coalesced [`Changes`].
//! - [`AgUiEncoder`]: Agent API events (from the
//!   [`ResponseBuilder`](crate::builder::ResponseBuilder) or, through
//!   [`Translator`](crate::translate::Translator), any Agent API / Responses / A2A stream) → AG-UI
//!   events; [`agent_request`]: a `RunAgentInput` → the Agent API request the reference's AG-UI
//!   adapter makes of it; [`run_agent_input`]: an Agent API request as a `RunAgentInput`.
//! - [`Message`] (seven roles), [`ContentPart`], [`ToolCall`], [`Tool`], [`Context`],
//!   [`Interrupt`], [`ResumeEntry`], [`RunAgentInput`], [`TokenUsage`], outcomes.
//!
//! The JSON facts follow `@ag-ui/core` 1.0's schema (`reference/ag-ui.md` §1–§2); protocol
//! 1.1's optional `encryptedValueType` is accepted wherever `encryptedValue` is.

mod apply;
mod changes;
mod chunks;
mod client;
mod compat;
mod content;
mod decode;
mod encode;
mod enforce;
mod event;
mod history;
mod input;
mod message;
mod outcome;
mod patch;
mod read;
mod request;
mod request_out;
pub(crate) mod schema;
mod verify;

pub use apply::{RunInfo, RunStatus};
pub use changes::Changes;
pub use client::Client;
pub use content::{upgrade_binary_part, Content, ContentPart, MediaPart, PartSource};
pub use decode::AgUiDecoder;
pub use encode::{AgUiEncoder, CONTENT_EVENT_NAME};
pub use enforce::{enforce_event, parse_event, Enforced};
pub use event::*;
pub use history::messages_from_agent_api;
pub use input::{Context, ResumeEntry, ResumeStatus, RunAgentInput, Tool};
pub use message::{
    merge_metadata, ActivityMessage, AssistantMessage, FunctionCall, FunctionType, Message,
    MessageCommon, Metadata, ReasoningMessage, TextMessage, ToolCall, ToolMessage, UserMessage,
};
pub use outcome::{Interrupt, RunFinishedOutcome, SubagentFinishedOutcome, TokenUsage};
pub use request::{agent_request, agent_request_from_input};
pub use request_out::run_agent_input;

/// The protocol version agentwire targets and declares: AG-UI 1.0.
pub const PROTOCOL_VERSION: &str = "1.0";

/// The newest protocol version whose material the reader understands: 1.1, which only adds the
/// optional `encryptedValueType`. A producer declaring a newer version (or one that is not
/// `<major>.<minor>`) gets a `PROTOCOL_VERSION` warning.
pub const READS_PROTOCOL_VERSION: &str = "1.1";
