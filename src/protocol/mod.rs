//! The Agent API model of AgentScope Runtime: events, messages, content parts, requests, tools,
//! the two data-merge rules, and JSON output byte-identical to the reference implementation
//! (`agentscope-runtime` 1.1.6.post2, pydantic `model_dump_json()`).
//!
//! Entry points: [`parse_event`], [`parse_request`], [`Event::to_json`]. Every model also
//! implements serde's `Serialize` (reference bytes through `serde_json::to_string`, except the
//! float caveat in [`json`]) and `Deserialize`.
//!
//! See `reference/agentscope-protocol.md` §2–§3. Every output is checked byte for byte against
//! a corpus produced by the real reference (`tests/reference_corpus.rs`,
//! `scripts/reference/check.sh`).
//!
//! # Fidelity notes
//!
//! Where agentwire cannot (or deliberately does not) reproduce the reference:
//! - **Integers beyond 64 bits** inside dict payloads (`data`, `usage`, extras) are read as
//!   floats (Python keeps them exact), and typed integer fields (`sequence_number`, `index`,
//!   `created_at`, `n`, `seed`, ...) reject them. The JSON literal `-0` is read as the float
//!   `-0.0` (pydantic prints `0`). The `lite` build reads numbers as text
//!   (`arbitrary_precision`) but gives them these same forms (`src/protocol/number.rs`), so
//!   both builds agree.
//! - **Out-of-range floats** such as `1e400` are a JSON error here; Python reads infinity (and
//!   pydantic would print `null`).
//! - **`serde_json::to_string(&event)`** uses serde_json's float printer, which writes `1e16`
//!   where pydantic writes `1e+16`; use [`Event::to_json`] (or the `to_json` of each model) for
//!   exact bytes. Everything else is identical through either path.
//! - **Generated defaults**: a message without `id` gets a fresh `msg_<uuid4>` and a response
//!   with a null `id` a fresh `response_<uuid4>`, as in the reference; a response without
//!   `created_at` gets `0` (the reference uses the current time).
//! - **Errors**: where the reference raises inside `Message::add_delta_content` (index out of
//!   range, null text), agentwire returns a `PROTOCOL_VIOLATION` error; a negative index, which
//!   Python counts from the end, is an error too. Validation reports the *first* error pydantic
//!   would report (same location and message), not the whole list.
//! - `BaseRequest`/`BaseResponse` have no separate types: [`AgentRequest`] and [`AgentResponse`]
//!   are what travels on the wire.

mod content;
mod entries;
mod enums;
mod event;
mod ids;
pub mod json;
mod merge;
mod message;
mod number;
mod partial_json;
mod request;
mod response;
mod surrogates;
mod tools;
mod validate;
mod value;

pub(crate) use content::StreamFields;
pub use content::{Content, ContentBody};
pub(crate) use entries::{reject_non_objects, Key};
pub use enums::{ContentType, MessageType, Role, RunStatus};
pub use event::{parse_event, parse_event_slice, Event, ServerError};
#[cfg(not(target_arch = "wasm32"))]
pub use ids::SystemClock;
pub use ids::{new_id, Clock, FixedClock};
pub use json::{JsonMap, JsonOptions};
pub use merge::{merge_data_incrementally, merge_data_into, merge_delta_lossy};
pub use message::Message;
#[cfg(test)]
pub(crate) use number::json_eq;
pub(crate) use number::parse_number;
pub use partial_json::{arguments_error, Op, PartialJson, PathSegment};
pub use request::{parse_request, AgentRequest, Stop};
pub use response::AgentResponse;
pub use surrogates::{parse_repairing, repair_lone_surrogates};
pub use tools::{
    to_data, ErrorInfo, FunctionCall, FunctionCallOutput, FunctionParameters, FunctionTool,
    McpApprovalRequest, McpApprovalResponse, McpCall, McpCallOutput, McpListTools,
    McpListToolsTool, Parameters, Tool, ToolCall, ToolCallOutput, ToolSpec,
};
pub(crate) use value::{value_from_map, value_from_seq, JsonValue};
