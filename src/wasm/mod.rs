//! The JavaScript face (wasm32 only): the functions and classes exported through wasm-bindgen.
//!
//! A thin layer: it converts JS values to Rust and back and holds no protocol logic.
//! - [`parse`]: `parseRequest`, `parseEvent`.
//! - [`assembler`]: the `StreamAssembler` core class.
//! - [`translate`]: the `Translator` core class and `a2aRequest`.
//! - [`builder`]: the core classes of `ResponseBuilder`, `MessageBuilder`, `ContentBuilder` and
//!   `ToolCallBuilder`.
//! - [`options`]: option bags in.
//! - [`error`]: the one conversion of [`crate::Error`] into a thrown JS `Error` with a `code`.
//! - `outbox`: how a batch of assembler updates reaches JS (numbers and bytes in memory).
//! - [`convert`]: values in (JSON text, text arguments) and plain JSON-compatible objects out.
//!
//! No function here reads a JS object: the package's JS layer (`pkg-template/values.js`) reads
//! option bags and builder values inside a `try` and passes their JSON text, so a JS exception
//! never unwinds through wasm frames. And should a call still trap, the JS layer
//! (`pkg-template/instance.js`) discards the instance and makes a fresh one for new objects.
//! - [`sse`]: `SseDataReader`, the data of a stream's events for JS that passes them on.
//! - [`types`]: the hand-written TypeScript declarations of the values that cross.
//!
//! The module is public only so that the wasm-bindgen tests (`tests/wasm_*.rs`) can call the
//! exported functions directly; JavaScript sees the camelCase names.

#[cfg(feature = "full")]
pub mod a2a;
#[cfg(feature = "full")]
pub mod app;
pub mod assembler;
#[cfg(feature = "full")]
pub mod builder;
#[cfg(feature = "client")]
pub mod client;
pub mod convert;
pub mod error;
#[cfg(feature = "full")]
pub mod interrupts;
pub mod options;
mod outbox;
pub mod parse;
#[cfg(feature = "full")]
pub mod sse;
#[cfg(feature = "full")]
pub mod translate;
mod types;

#[cfg(feature = "client")]
pub use parse::parse_event;
#[cfg(feature = "full")]
pub use parse::parse_request;
pub use parse::{wasm_memory, wasm_memory_bytes};
