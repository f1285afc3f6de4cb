//! The Agent API model of AgentScope Runtime: events, messages, content parts, requests, tools,
//! the two data-merge rules, and JSON output byte-identical to the reference implementation
//! (`agentscope-runtime` 1.1.6.post2, pydantic `model_dump_json()`).
//!
//! Entry points: [`parse_event`], [`parse_request`], [`Event::to_json`]. Every model also
//! implements serde's `Serialize` (reference bytes through `serde_json::to_string`, except the
//! float caveat in [`json`]) and `Deserialize`.
//!
//! See `reference/agentscope-protocol.md` §2–§3.

mod content;
mod enums;
mod event;
mod ids;
pub mod json;
mod merge;
mod message;
mod request;
mod response;
mod tools;
mod validate;

pub use content::{Content, ContentBody};
pub use enums::{ContentType, MessageType, Role, RunStatus};
pub use event::{parse_event, parse_event_slice, Event, ServerError};
#[cfg(not(target_arch = "wasm32"))]
pub use ids::SystemClock;
pub use ids::{new_id, Clock, FixedClock};
pub use json::{JsonMap, JsonOptions};
pub use merge::{merge_data_incrementally, merge_data_into, merge_delta_lossy};
pub use message::Message;
pub use request::{parse_request, AgentRequest, Stop};
pub use response::AgentResponse;
pub use tools::{
    to_data, ErrorInfo, FunctionCall, FunctionCallOutput, FunctionParameters, FunctionTool,
    McpApprovalRequest, McpApprovalResponse, McpCall, McpCallOutput, McpListTools,
    McpListToolsTool, Parameters, Tool, ToolCall, ToolCallOutput, ToolSpec,
};
