//! Fuzzes A2A JSON-RPC requests (`a2a::read_call`) and A2A streams folded by `a2a::TaskFold`, over
//! arbitrary bytes and mutations of valid requests and streams.
//!
//! The input layout and the properties are `tests/fuzz_harness/a2a.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/a2a-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::a2a::check(data) {
        panic!("{problem}");
    }
});
