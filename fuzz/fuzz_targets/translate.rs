//! Fuzzes `openai::Translator` between every pair of protocols, over arbitrary bytes and over
//! agentwire's own output, split anywhere.
//!
//! The input layout and the properties are `tests/fuzz_harness/translate.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/translate-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::translate::check(data) {
        panic!("{problem}");
    }
});
