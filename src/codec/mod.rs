//! Framing: bytes ⇄ event payloads.
//!
//! - Decoding: [`FrameDecoder`] (SSE, NDJSON, or detected), built on [`SseDecoder`] (the
//!   WHATWG event-stream rules, complete) and [`NdjsonDecoder`]. Input is pushed in chunks split
//!   anywhere; each event reaches a sink callback as a borrowed [`Frame`]. Memory is bounded by
//!   [`Limits`]; work is linear in the input.
//! - Encoding: [`encode_sse`], [`encode_sse_event`], [`encode_sse_comment`] and
//!   [`encode_ndjson`] append frames to a caller's buffer; [`SSE_CONTENT_TYPE`] and
//!   [`NDJSON_CONTENT_TYPE`] (or [`Format::content_type`]) name them in HTTP.

mod decoder;
mod detect;
mod encode;
mod format;
mod frame;
mod limits;
mod ndjson;
mod sse;
mod utf8;

pub use decoder::FrameDecoder;
pub use encode::{encode_ndjson, encode_sse, encode_sse_comment, encode_sse_event};
pub use format::{Format, NDJSON_CONTENT_TYPE, SSE_CONTENT_TYPE};
pub use frame::Frame;
pub use limits::{Limits, DEFAULT_MAX_EVENT_BYTES};
pub use ndjson::NdjsonDecoder;
pub use sse::SseDecoder;
