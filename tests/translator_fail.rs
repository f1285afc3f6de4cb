//! `Translator::fail`: when the input of a translation breaks off (the source stream failed, a
//! chunk could not be read), the output ends with the target protocol's failure event, so the
//! client downstream sees a failed run rather than a cut stream.
// The translator is in the full build only.
#![cfg(feature = "full")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use agentwire::assembler::{AssemblerOptions, Outcome, Protocol, StreamAssembler};
use agentwire::openai::Translator;
use agentwire::protocol::ErrorInfo;

/// The start of an Agent API run: created, a message, a text delta; no terminal event.
const START: &str = concat!(
    "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"id\":\"resp_1\",\"created_at\":1700000000,\"session_id\":\"s1\"}\n\n",
    "data: {\"sequence_number\":1,\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"m1\",\"type\":\"message\",\"role\":\"assistant\"}\n\n",
    "data: {\"sequence_number\":2,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"text\",\"index\":0,\"delta\":true,\"msg_id\":\"m1\",\"text\":\"Hi\"}\n\n",
);

const TARGETS: [Protocol; 5] = [
    Protocol::AgentApi,
    Protocol::OpenAiResponses,
    Protocol::A2a,
    Protocol::A2a03,
    Protocol::AgUi,
];

fn assemble(protocol: Protocol, bytes: &[u8]) -> StreamAssembler {
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
    asm.push(bytes).unwrap();
    asm.finish().unwrap();
    asm
}

#[test]
fn a_failed_input_ends_with_the_targets_failure_event() {
    for to in TARGETS {
        let mut t = Translator::new(Protocol::AgentApi, to).unwrap();
        let mut out = t.push(START.as_bytes()).unwrap();
        let tail = t
            .fail(ErrorInfo::new("SOURCE_ERROR", "connection reset"))
            .unwrap();
        assert!(!tail.is_empty(), "{to:?}");
        out.extend(tail);
        assert!(
            t.fail(ErrorInfo::new("X", "again")).unwrap().is_empty(),
            "{to:?}: once"
        );
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.contains("connection reset"), "{to:?}: {text}");
        let asm = assemble(to, &out);
        assert_eq!(asm.outcome(), Outcome::Failed, "{to:?}: {text}");
    }
}

#[test]
fn the_agent_api_failure_carries_the_run_id() {
    let mut t = Translator::new(Protocol::AgentApi, Protocol::AgentApi).unwrap();
    t.push(START.as_bytes()).unwrap();
    let tail = String::from_utf8(t.fail(ErrorInfo::new("E", "boom")).unwrap()).unwrap();
    assert!(tail.contains("\"sequence_number\":3"), "{tail}");
    assert!(tail.contains("\"id\":\"resp_1\""), "{tail}");
    assert!(tail.contains("\"status\":\"failed\""), "{tail}");
}

#[test]
fn nothing_after_the_run_ended() {
    let done = concat!(
        "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"id\":\"r\"}\n\n",
        "data: {\"sequence_number\":1,\"object\":\"response\",\"status\":\"completed\",\"id\":\"r\"}\n\n",
    );
    for to in TARGETS {
        let mut t = Translator::new(Protocol::AgentApi, to).unwrap();
        t.push(done.as_bytes()).unwrap();
        assert!(
            t.fail(ErrorInfo::new("E", "late")).unwrap().is_empty(),
            "{to:?}"
        );
    }
}

#[test]
fn a_run_that_never_started_still_fails_visibly() {
    for to in TARGETS {
        let mut t = Translator::new(Protocol::AgentApi, to).unwrap();
        let out = t.fail(ErrorInfo::new("SOURCE_ERROR", "refused")).unwrap();
        let asm = assemble(to, &out);
        assert_eq!(
            asm.outcome(),
            Outcome::Failed,
            "{to:?}: {}",
            String::from_utf8_lossy(&out)
        );
    }
}

#[test]
fn what_a_failing_push_translated_comes_with_fail() {
    // A chunk with whole events and then bytes that are not UTF-8: the push fails, but the
    // events before the error are translated and come first from `fail`, so the output is the
    // same whether the input arrived in one chunk or cut before the bad bytes.
    let mut input = START.as_bytes().to_vec();
    input.extend_from_slice(b"data: \xff\n\n");
    for to in TARGETS {
        let mut whole = Translator::new(Protocol::AgentApi, to).unwrap();
        assert!(whole.push(&input).is_err(), "{to:?}");
        let whole = whole
            .fail(ErrorInfo::new("INVALID_UTF8", "bad bytes"))
            .unwrap();
        let mut cut = Translator::new(Protocol::AgentApi, to).unwrap();
        let mut out = cut.push(START.as_bytes()).unwrap();
        assert!(cut.push(b"data: \xff\n\n").is_err(), "{to:?}");
        out.extend(
            cut.fail(ErrorInfo::new("INVALID_UTF8", "bad bytes"))
                .unwrap(),
        );
        assert_eq!(
            String::from_utf8_lossy(&whole),
            String::from_utf8_lossy(&out),
            "{to:?}"
        );
        assert!(String::from_utf8_lossy(&whole).contains("Hi"), "{to:?}");
        assert_eq!(assemble(to, &whole).outcome(), Outcome::Failed, "{to:?}");
    }
}
