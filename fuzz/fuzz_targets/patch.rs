//! Fuzzes AG-UI JSON Patch application through the assembler: `STATE_SNAPSHOT`, `STATE_DELTA`,
//! `ACTIVITY_SNAPSHOT` and `ACTIVITY_DELTA` events built from the input, against a plain
//! clone-and-apply JSON Patch; depth, atomicity and memory checked after every event.
//!
//! The input layout and the properties are `tests/fuzz_harness/patch.rs`, shared with
//! `tests/fuzz_crashers.rs`, which replays the saved crash inputs (`tests/fuzz-crashers/patch-*.bin`)
//! in `cargo test`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_harness/mod.rs"]
#[allow(clippy::all)]
mod harness;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = harness::patch::check(data) {
        panic!("{problem}");
    }
});
