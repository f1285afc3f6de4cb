//! Fuzzes `StreamAssembler::push` with arbitrary bytes cut into arbitrary chunks, in tolerant
//! and strict modes, then `finish`, `snapshot`, `tool_calls` and `tool_call_changes`.
//!
//! The input layout (options, cut points, stream) is `decode_fuzz_input` in
//! `tests/assembler_harness`; the properties are that module's `check`, shared with
//! `tests/assembler_random.rs`: no panic, the same result whatever the chunking for runs
//! without a framing error, the tool-call mirror equal to a one-shot parse, strict errors where
//! the tolerant run first warns. Crashes become files in `tests/fuzz-crashers/`, replayed by
//! `tests/fuzz_crashers.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/assembler_harness/mod.rs"]
#[allow(clippy::all, missing_docs)]
mod harness;

fuzz_target!(|data: &[u8]| {
    let Some((config, cuts, stream)) = harness::decode_fuzz_input(data) else {
        return;
    };
    if let Err(problem) = harness::check(stream, config, &cuts) {
        panic!(
            "{problem}\ncuts {cuts:?}\ninput {:?}",
            String::from_utf8_lossy(stream)
        );
    }
});
