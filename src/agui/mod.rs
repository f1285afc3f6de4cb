//! AG-UI 1.0: every type and event, and the client pipeline of `@ag-ui/client` 1.0 (legacy
//! compatibility → enforcement → chunk expansion → verification → apply), in Rust.
//!
//! Entry points:
//! - [`Event`] / [`EventType`]: the 31 events, camelCase on the wire, optional fields absent
//!   rather than `null`, with [`Event::to_json`]; [`parse_event`] / [`enforce_event`] read one
//!   as the client does (unknown fields stripped, unknown events reported, malformed known
//!   fields rejected with errors naming the field).
//! - [`Message`] (seven roles), [`ContentPart`], [`ToolCall`], [`Tool`], [`Context`],
//!   [`Interrupt`], [`ResumeEntry`], [`RunAgentInput`], [`TokenUsage`], outcomes.
//!
//! The JSON facts follow `@ag-ui/core` 1.0's schema (`reference/ag-ui.md` §1–§2); protocol
//! 1.1's optional `encryptedValueType` is accepted wherever `encryptedValue` is.

mod content;
mod enforce;
mod event;
mod input;
mod message;
mod outcome;
pub(crate) mod schema;

pub use content::{upgrade_binary_part, Content, ContentPart, MediaPart, PartSource};
pub use enforce::{enforce_event, parse_event, Enforced};
pub use event::*;
pub use input::{Context, ResumeEntry, ResumeStatus, RunAgentInput, Tool};
pub use message::{
    merge_metadata, ActivityMessage, AssistantMessage, FunctionCall, FunctionType, Message,
    MessageCommon, Metadata, ReasoningMessage, TextMessage, ToolCall, ToolMessage, UserMessage,
};
pub use outcome::{Interrupt, RunFinishedOutcome, SubagentFinishedOutcome, TokenUsage};

/// The protocol version this implementation speaks.
pub const PROTOCOL_VERSION: &str = "1.0";
