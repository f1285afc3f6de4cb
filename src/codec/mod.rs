//! Framing: bytes ⇄ event payloads (SSE, NDJSON), detection and limits.

mod frame;
mod limits;
mod sse;
mod utf8;

pub use frame::Frame;
pub use limits::{Limits, DEFAULT_MAX_EVENT_BYTES};
pub use sse::SseDecoder;
