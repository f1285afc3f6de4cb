//! Bounded random-input tests of the A2A JSON-RPC reader and task fold (stable: proptest with
//! fixed case counts; the unbounded search is the `a2a` cargo-fuzz target). The properties are
//! in `fuzz_harness::a2a`: no panic, accepted calls that read back, error answers of the right
//! shape, folds independent of where the stream was cut.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod fuzz_harness;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Arbitrary inputs: bodies, streams, and splices into valid ones.
    #[test]
    fn a2a_inputs_hold_every_property(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Err(problem) = fuzz_harness::a2a::check(&data) {
            prop_assert!(false, "{}", problem);
        }
    }

    /// Text-like splices (JSON punctuation and keywords) into valid requests and streams.
    #[test]
    fn a2a_json_splices_hold_every_property(
        mode in any::<u8>(),
        cuts in proptest::collection::vec(any::<u16>(), 0..16),
        at in any::<u16>(),
        cut in 0u8..8,
        pieces in proptest::collection::vec(prop::sample::select(vec![
            "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "1e400", "\\ud800", "\"id\"",
            "\"params\"", "\"message\"", "\"parts\"", "\"task\"", "\"artifactUpdate\"", "\n\n",
            "data: ", "\"append\":true", "é", "\u{ffff}",
        ]), 0..6),
    ) {
        let mut data = vec![mode | 2, u8::try_from(cuts.len()).unwrap()];
        for c in &cuts {
            data.extend_from_slice(&c.to_le_bytes());
        }
        data.extend_from_slice(&at.to_le_bytes());
        data.push(cut);
        data.push(mode);
        data.extend_from_slice(pieces.concat().as_bytes());
        if let Err(problem) = fuzz_harness::a2a::check(&data) {
            prop_assert!(false, "{}", problem);
        }
    }
}
