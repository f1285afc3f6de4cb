//! Framing: bytes ⇄ event payloads.
//!
//! - Decoding: [`FrameDecoder`] (SSE, NDJSON, or detected), built on [`SseDecoder`] (the
//!   WHATWG event-stream rules, complete) and [`NdjsonDecoder`]. Input is pushed in chunks split
//!   anywhere; each event reaches the callback as a borrowed [`Frame`]. Memory is bounded by
//!   [`Limits`]; work is linear in the input.
//! - Encoding: [`encode_sse`], [`encode_sse_event`], [`encode_sse_comment`] and
//!   [`encode_ndjson`] append frames to a caller's buffer; [`SSE_CONTENT_TYPE`] and
//!   [`NDJSON_CONTENT_TYPE`] (or [`Format::content_type`]) name them in HTTP.
//!
//! # Errors
//!
//! A decoder's `push` and `finish` return `INVALID_UTF8` (a payload, or an SSE `event`/`id`
//! value, is not UTF-8; offset: where its line starts), `EVENT_TOO_LARGE` (an event spans more
//! than [`Limits::max_event_bytes_at`]; raised as soon as that is known, offset: where the event
//! starts), or the callback's own error. Every such error is fatal: events completed before the
//! failing point, in the same chunk too, have been delivered; afterwards every call returns a
//! `FINISHED` error until `reset()`. The frames delivered and the error (code and offset) are
//! the same however the input is split into chunks.
//!
//! # Deviations from the browser `EventSource`
//!
//! Both are deliberate (see `reference/peers.md` §5.5):
//! - the last event is dispatched at `finish()` even without a closing blank line;
//! - invalid UTF-8 is an `INVALID_UTF8` error, not replaced with U+FFFD.

mod decoder;
mod detect;
mod encode;
mod format;
mod frame;
mod limits;
mod ndjson;
mod sse;
mod utf8;
pub(crate) mod write;

pub use decoder::FrameDecoder;
pub use encode::{encode_ndjson, encode_sse, encode_sse_comment, encode_sse_event};
pub use format::{Format, NDJSON_CONTENT_TYPE, SSE_CONTENT_TYPE};
pub use frame::Frame;
pub use limits::{Limits, DEFAULT_MAX_EVENT_BYTES};
pub use ndjson::NdjsonDecoder;
pub use sse::SseDecoder;
#[cfg(target_arch = "wasm32")]
pub(crate) use utf8::push_utf16;
