//! Emitting Agent API event streams: [`ResponseBuilder`], with messages and content parts
//! addressed by `Copy` handles, every call returning the encoded frame(s) of the events it
//! caused.
//!
//! The reference's three builders (`reference/agentscope-protocol.md` §3) are one object here:
//! the [`ResponseBuilder`] owns all state, and a message or a part is a [`MessageHandle`] /
//! [`ContentHandle`]. The JS face wraps it with three classes sharing one builder:
//!
//! | JS (`DESIGN.md`)                          | Rust                                                   |
//! |-------------------------------------------|--------------------------------------------------------|
//! | `new ResponseBuilder({sessionId, responseId, format, omitNulls})` | [`ResponseBuilder::new`]`(`[`BuilderOptions`]`)` |
//! | `rb.created()` / `rb.inProgress()`        | [`created`](ResponseBuilder::created) / [`in_progress`](ResponseBuilder::in_progress) |
//! | `rb.completed({usage, closeOpen})`        | [`completed`](ResponseBuilder::completed)`(`[`CompleteOptions`]`)` |
//! | `rb.failed({code, message})`              | [`failed`](ResponseBuilder::failed)`(ErrorInfo)`        |
//! | `rb.canceled()`                           | [`canceled`](ResponseBuilder::canceled)                 |
//! | `rb.message({role, type})` → `MessageBuilder` | [`message`](ResponseBuilder::message)`(`[`MessageOptions`]`)` → [`MessageHandle`] |
//! | `MessageBuilder.id`                       | [`message_id`](ResponseBuilder::message_id)`(h)`        |
//! | `MessageBuilder.start()`                  | [`start_message`](ResponseBuilder::start_message)`(h)`  |
//! | `MessageBuilder.content(type)` → `ContentBuilder` | [`content`](ResponseBuilder::content)`(h, ContentType)` → [`ContentHandle`] |
//! | `MessageBuilder.complete()`               | [`complete_message`](ResponseBuilder::complete_message)`(h)` |
//! | `ContentBuilder.index`                    | [`ContentHandle::index`]                                |
//! | `ContentBuilder.delta(v)`                 | [`delta`](ResponseBuilder::delta)`(c, `[`ContentValue`]`)` (string: [`delta_text`](ResponseBuilder::delta_text)) |
//! | `ContentBuilder.set(v)`                   | [`set`](ResponseBuilder::set)`(c, ContentValue)`        |
//! | `ContentBuilder.complete()`               | [`complete_content`](ResponseBuilder::complete_content)`(c)` |
//! | `ResponseBuilder.fromText(tokens)`        | [`TextStream`] (async sources) / [`ResponseBuilder::from_text`] |
//! | `ResponseBuilder.contentType(format)`     | [`Format::content_type`](crate::codec::Format::content_type) |
//! | `rb.toolCall({name, callId, type, arguments, serverLabel, id})` → `ToolCallBuilder {id, start(), arguments(piece), complete()}` | [`tool_call`](ResponseBuilder::tool_call), [`start_tool_call`](ResponseBuilder::start_tool_call), [`tool_arguments`](ResponseBuilder::tool_arguments), [`complete_tool_call`](ResponseBuilder::complete_tool_call) |
//! | `rb.toolOutput({callId, output, name, type, id})` | [`tool_output`](ResponseBuilder::tool_output)           |
//! | `MessageBuilder.setUsage(usage)`          | [`set_message_usage`](ResponseBuilder::set_message_usage) |
//! | `rb.id` / `rb.sequenceNumber` / `rb.finished` | `response().id` / [`next_sequence_number`](ResponseBuilder::next_sequence_number) / [`is_finished`](ResponseBuilder::is_finished) |
//! | `ResponseBuilder.stream(produce)`, `rb.ready()` | JS only (`pkg-template/builder.js`): a pull-based `ReadableStream` around one builder |
//!
//! Timestamps come from the [`Clock`](crate::protocol::Clock) in [`BuilderOptions::clock`]
//! (the wasm face passes one reading `Date.now()`).
//!
//! # Semantics (decisions where the reference leaves room)
//!
//! - **Auto-start.** Every emitting call first emits what must precede it and was not emitted
//!   yet: response `created`, response `in_progress`, the message's start event (status
//!   `in_progress`, `content: null`), in that order, in the same returned bytes. So
//!   `start()` is optional, and a stream always opens like the reference runner's
//!   (`created` = 0, `in_progress` = 1). `message()` and `content()` emit nothing (in JS they
//!   return builders, not bytes).
//! - **Deltas and `set`.** A delta event carries only the piece (`delta: true`); `set` emits the
//!   part's whole current value (`delta: false`, status `in_progress`) and replaces it; later
//!   deltas append to that value (the reference builder instead prefixes the set text to *all*
//!   deltas, whatever the order). See [`ContentValue`] for each type.
//! - **Completion.** A completed part carries its whole value (`delta: false`). A completed
//!   message carries its parts, each exactly as its completed event but with
//!   `sequence_number: null` (nested numbers are never stale); a message with no part has
//!   `content: null`, as in the reference builder. `output` holds the completed messages, in
//!   completion order.
//! - **Usage.** `completed({usage})` sets the run's usage; without it, and for `failed` and
//!   `canceled`, the run's usage is the last completed message's `usage` (the reference
//!   runner's rule, `runner.py`), `null` when there is none.
//! - **Open messages.** `completed()` while a message is open (created and not completed,
//!   started or not) is `BUILDER_STATE`, unless [`CompleteOptions::close_open`]: then every
//!   open part and message is completed first, in creation order. `complete_message` with an
//!   open part is `BUILDER_STATE`. `failed` and `canceled` leave open messages open, as the
//!   reference runner does.
//! - **Misuse** (anything after a terminal event, a second terminal event, a delta after its
//!   part completed, content for a completed message, a value of the wrong kind, a handle of
//!   another builder, …) returns `BUILDER_STATE` (`INVALID_OPTION` for bad field names in a
//!   `set` object), emits nothing and leaves the state unchanged; the next valid call works.
//!   Only an [`Encoder`] failure half-way through a call (the Agent API encoder has none)
//!   poisons the builder: later calls return `FINISHED`.
//! - **Ids.** `response_<uuid4>` and `msg_<uuid4>` like the reference, unless given.
//!
//! # The encoder seam
//!
//! Builder calls produce [`BuilderEvent`]s, turned into bytes by an [`Encoder`]. The only one
//! today is [`AgentApiEncoder`] (SSE or NDJSON); a later AG-UI or OpenAI-Responses encoder
//! plugs in through [`ResponseBuilder::with_encoder`]. Text and data deltas reach the encoder as
//! borrowed views ([`TextDelta`], [`DataDelta`]), written in one pass without a model or a
//! `serde_json::Value`.

mod emit;
mod options;
mod response;
mod state;
mod text;
mod tools;
mod value;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tools_tests;

pub use crate::emit::{AgentApiEncoder, BuilderEvent, DataDelta, Encoder, EventIds, TextDelta};
pub use options::{
    BuilderOptions, CompleteOptions, MessageOptions, ToolCallOptions, ToolKind, ToolOutputOptions,
};
pub use response::ResponseBuilder;
pub use state::{ContentHandle, MessageHandle, ToolCallHandle};

/// The former name of [`ToolCallHandle`] (kept so that code written against it compiles).
pub type ToolCall = ToolCallHandle;
pub use text::TextStream;
pub use value::ContentValue;
