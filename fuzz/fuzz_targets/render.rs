//! Fuzzes what a UI reads after every push (`snapshot()`, `tool_calls()`,
//! `tool_call_changes()`), over raw, built and mutated streams of every protocol.
//!
//! The input layout and the properties are `tests/fuzz_harness/render.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/render-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::render::check(data) {
        panic!("{problem}");
    }
});
