//! OpenAI Responses API streaming, both ways, with the Agent API as the hub.
//!
//! - [`ResponsesEncoder`]: Agent API events (from the [`ResponseBuilder`] or any Agent API
//!   stream) → Responses streaming events (`event: response.…` SSE).
//! - [`ResponsesDecoder`]: Responses streaming events → Agent API events; with it the
//!   [`StreamAssembler`] assembles `protocol: "openai-responses"` streams into the final
//!   Responses `response` object.
//! - [`agent_request`]: a `create` body → an Agent API request; [`create_request`]: an Agent
//!   API request → a streamed `create` body.
//!
//! [`ResponseBuilder`]: crate::builder::ResponseBuilder
//! [`StreamAssembler`]: crate::assembler::StreamAssembler
//!
//! # Deviations from the reference adapters
//!
//! `reference/agentscope-protocol.md` §7.1 (`ResponseAPIDefaultAdapter`); each is a bug there,
//! fixed here:
//! - **Tool calls are kept** (issue #486): `plugin_call` and `mcp_call` messages become
//!   `function_call` items with streamed arguments, and `*_call_output` messages become
//!   `function_call_output` items (the reference ignores both, and crashes on outputs).
//! - **No truncation**: a message of an unrepresentable type (`heartbeat`, `component_call`, …)
//!   or an image/data/audio/file part is skipped without using an output index, and content for
//!   an unannounced message creates its item (the reference raises `KeyError` and silently ends
//!   the stream, and drops the text framework's deltas).
//! - **Reasoning deltas are not duplicated**: the completed value only closes the part
//!   (`reasoning_text.done`), with a delta only for text the deltas did not carry yet.
//! - **`output_index` is the item's position in `output`**, assigned when the item is added and
//!   reused by every later event, including `output_item.done` for reasoning and for messages
//!   completed on first sight (the reference is off by one there).
//! - **Every terminal status ends the stream**: `canceled` and `incomplete` become
//!   `response.incomplete` (status `cancelled` / `incomplete`), `rejected` becomes
//!   `response.failed` (the reference crashes on `RunStatus.Cancelled` and sends no terminal
//!   event).
//! - `response.created` has status `in_progress`, as OpenAI sends it (the reference: `queued`);
//!   `usage` is included, as a Responses usage object; `session_id` travels as `conversation.id`.
//! - Every `response` object has all the fields the Responses schema requires: the request's
//!   settings ([`ResponseEcho`]: `instructions`, `tools`, `tool_choice`, `temperature`, …, the
//!   API's defaults for those it did not send) are repeated in each lifecycle event.
//!
//! Lossy by design: Responses has no item type for `plugin_call` vs `function_call` (both are
//! `function_call`), no output form for image/data/audio/file parts in a message, and a closed
//! set of error codes (others become `server_error`); reasoning summary and reasoning content
//! parts both become `text` parts of a `reasoning` message.

pub(crate) mod approvals;
mod compact;
mod decode;
mod echo;
mod encode;
mod history;
mod input_list;
mod request;
mod request_out;
#[cfg(feature = "client")]
mod snapshot;
mod socket;

pub use compact::{compact_request, compaction_answer};
pub use decode::ResponsesDecoder;
pub use echo::ResponseEcho;
pub use encode::ResponsesEncoder;
pub use history::input_items;
pub use input_list::{input_item_list, InputListQuery};
pub use request::{agent_request, agent_request_with_echo};
pub use request_out::create_request;
#[cfg(feature = "client")]
pub(crate) use snapshot::ResponsesSnapshot;
pub use socket::socket_error;
