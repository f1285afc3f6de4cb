//! agentwire: the AgentScope Runtime Agent API protocol and AG-UI, implemented once in Rust,
//! usable natively and from JavaScript through WebAssembly.
//!
//! Entry points:
//! - [`protocol`]: the Agent API model (events, messages, content parts, requests), serialised
//!   byte for byte like the reference implementation.
//! - [`codec`]: framing, bytes ⇄ event payloads: a WHATWG-complete SSE decoder, NDJSON, format
//!   detection, limits, and the matching encoders.
//! - [`assembler`]: [`StreamAssembler`](assembler::StreamAssembler), folding a byte stream split
//!   anywhere into a snapshot of the run, with coalesced updates per chunk.
//! - [`agui`]: AG-UI 1.0 types and events, the `@ag-ui/client` pipeline (chunk expansion,
//!   verification, apply), the [`AgUiEncoder`](agui::AgUiEncoder) (Agent API → AG-UI events, for
//!   the builder and the translator) and [`agent_request`](agui::agent_request) (a
//!   `RunAgentInput` → an Agent API request).
//! - [`builder`]: [`ResponseBuilder`](builder::ResponseBuilder), emitting compliant Agent API
//!   event streams (SSE or NDJSON bytes) call by call.
//! - [`depth`]: the one nesting limit ([`MAX_DEPTH`]) every reader, parser and converter
//!   applies.
//! - [`openai`]: OpenAI Responses and A2A streaming adapters (encoders, decoders, and the
//!   byte-stream [`Translator`](openai::Translator), which also writes AG-UI).
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

#[cfg(all(feature = "full", feature = "lite"))]
compile_error!("the `full` and `lite` features exclude each other: build lite with `--no-default-features --features lite`");
#[cfg(not(any(feature = "full", feature = "lite")))]
compile_error!("enable `full` (the default) or `lite`: each decides how JSON numbers are read");

pub mod agui;
pub mod assembler;
pub mod builder;
pub mod codec;
pub mod depth;
mod error;
pub mod openai;
pub mod protocol;
mod sequence;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use depth::MAX_DEPTH;
pub use error::{Error, ErrorCode, Result};

#[cfg(target_arch = "wasm32")]
mod heap;

/// The wasm module's allocator: talc (smaller than std's dlmalloc at the same speed), growing the
/// memory in steps of at least a quarter of its size (`src/heap.rs`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: heap::Heap = heap::new();
