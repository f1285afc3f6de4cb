//! Fuzzes `agentwire::assembler::PartialJson`, the incremental parser of tool-call arguments:
//! a text in arbitrary pieces, against itself read whole, its ops mirror and serde_json.
//!
//! The input layout and the properties are `tests/fuzz_harness/partial_json.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/partial_json-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::partial_json::check(data) {
        panic!("{problem}");
    }
});
