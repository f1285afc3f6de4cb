//! agentwire: the AgentScope Runtime Agent API protocol, AG-UI, OpenAI Responses and A2A,
//! implemented once in Rust, usable natively and from JavaScript through WebAssembly.
//!
//! Modules, from the bottom up (each uses only those before it; `ARCHITECTURE.md`):
//! - the crate root: [`Error`], [`Protocol`], [`Warning`], [`MAX_DEPTH`];
//! - [`protocol`]: the Agent API model (events, messages, content parts, requests, tool-call
//!   arguments read in pieces), serialised byte for byte like the reference implementation;
//! - [`codec`]: framing, bytes ⇄ event payloads: a WHATWG-complete SSE decoder, NDJSON, format
//!   detection, limits, and the matching encoders;
//! - [`emit`]: the seam between a run's events and the bytes of a wire protocol
//!   ([`Encoder`](emit::Encoder)), with the Agent API's own encoder;
//! - one module per other wire protocol: [`agui`] (AG-UI 1.0: types, events, the
//!   `@ag-ui/client` pipeline, the encoder, requests), [`responses`] (OpenAI Responses) and
//!   [`a2a`] (A2A 0.3);
//! - [`assembler`]: [`StreamAssembler`](assembler::StreamAssembler), folding a byte stream of
//!   any of them, split anywhere, into a snapshot of the run, with coalesced updates per chunk;
//! - [`builder`]: [`ResponseBuilder`](builder::ResponseBuilder), emitting a run call by call;
//! - [`translate`]: [`Translator`](translate::Translator), bytes of one protocol in, bytes of
//!   another out;
//! - `wasm` (wasm32 only): the JavaScript face.
#![deny(rustdoc::broken_intra_doc_links)]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

mod error;
mod sequence;
mod warning;
mod wire;

pub mod depth;
pub mod protocol;

pub mod codec;

pub mod emit;

pub mod a2a;
pub mod agui;
pub mod responses;

pub mod assembler;
pub mod builder;

pub mod app;
pub mod translate;

/// The paths of the Responses and A2A adapters and the translator before each had a module of
/// its own; kept so that code written against them still compiles.
pub mod openai {
    pub use crate::a2a::{a2a_request, A2aDecoder, A2aEncoder};
    pub use crate::responses::{ResponsesDecoder, ResponsesEncoder};
    pub use crate::translate::{TranslateOptions, Translator};
}

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use depth::MAX_DEPTH;
pub use error::{Error, ErrorCode, Result};
pub use warning::{Warning, WarningCode};
pub use wire::Protocol;

#[cfg(target_arch = "wasm32")]
mod heap;

/// The wasm module's allocator: talc (smaller than std's dlmalloc at the same speed), growing the
/// memory in steps of at least a quarter of its size (`src/heap.rs`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: heap::Heap = heap::new();
