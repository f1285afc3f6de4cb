//! Fuzzes `ResponseBuilder` with arbitrary JSON values in arbitrary call sequences; what it
//! emits must be read back by a strict `StreamAssembler` with the same values.
//!
//! The input layout and the properties are `tests/fuzz_harness/builder.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/builder-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::builder::check(data) {
        panic!("{problem}");
    }
});
