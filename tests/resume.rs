//! Resuming a stream after a lost connection (`StreamAssembler::connection_lost`): streams of
//! every protocol, written with event ids (`EventIds`), cut at random byte offsets (inside
//! events too); each new connection replays from the last applied id, or from earlier (a server
//! that resends), and the final snapshot equals the uninterrupted run's: nothing lost, nothing
//! doubled (a doubled delta would double its text).
#![cfg(feature = "full")]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use agentwire::a2a::{A2aEncoder, A2aVersion};
use agentwire::agui::AgUiEncoder;
use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler};
use agentwire::builder::{
    AgentApiEncoder, BuilderOptions, CompleteOptions, Encoder, EventIds, MessageOptions,
    ResponseBuilder, ToolCallOptions, ToolKind,
};
use agentwire::codec::Format;
use agentwire::protocol::{ContentType, FixedClock};
use agentwire::responses::ResponsesEncoder;
use proptest::prelude::*;
use serde_json::Value;

fn run(encoder: Box<dyn Encoder + Send>) -> Vec<u8> {
    let options = BuilderOptions::new()
        .response_id("resp_1")
        .session_id("s1")
        .clock(FixedClock(1_700_000_000));
    let mut rb = ResponseBuilder::with_encoder(options, Box::new(EventIds::new(encoder))).unwrap();
    let mut out = rb.created().unwrap();
    out.extend(rb.in_progress().unwrap());
    let call = rb
        .tool_call(
            ToolCallOptions::new(ToolKind::Function, "call_1", "get_weather").message_id("m0"),
        )
        .unwrap();
    for piece in ["{\"ci", "ty\": \"杭", "州\"}"] {
        out.extend(rb.tool_arguments(call, piece).unwrap());
    }
    out.extend(rb.complete_tool_call(call).unwrap());
    let m = rb.message(MessageOptions::new().id("m1")).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    for word in "Sunny with a light breeze, 23 degrees — é✓ done.".split_inclusive(' ') {
        out.extend(rb.delta_text(c, word).unwrap());
    }
    out.extend(rb.complete_content(c).unwrap());
    out.extend(rb.complete_message(m).unwrap());
    out.extend(rb.completed(CompleteOptions::new()).unwrap());
    out
}

/// The stream's events: (id, bytes of the whole event).
fn events(stream: &[u8]) -> Vec<(u64, &[u8])> {
    let mut out = Vec::new();
    let mut rest = stream;
    while !rest.is_empty() {
        let end = rest
            .windows(2)
            .position(|w| w == b"\n\n")
            .map_or(rest.len(), |i| i + 2);
        let (event, after) = rest.split_at(end);
        let id = std::str::from_utf8(event)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .strip_prefix("id: ")
            .unwrap()
            .parse()
            .unwrap();
        out.push((id, event));
        rest = after;
    }
    out
}

fn snapshot(protocol: Protocol, stream: &[u8]) -> Value {
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
    asm.push(stream).unwrap();
    asm.finish().unwrap();
    asm.snapshot()
}

fn protocols() -> Vec<(Protocol, Vec<u8>)> {
    vec![
        (
            Protocol::AgentApi,
            run(Box::new(AgentApiEncoder::new(Format::Sse).unwrap())),
        ),
        (
            Protocol::OpenAiResponses,
            run(Box::new(ResponsesEncoder::new(Format::Sse).unwrap())),
        ),
        (
            Protocol::A2a,
            run(Box::new(
                A2aEncoder::new(Value::Null).with_version(A2aVersion::V1_0),
            )),
        ),
        (Protocol::A2a03, run(Box::new(A2aEncoder::new(Value::Null)))),
        (
            Protocol::AgUi,
            run(Box::new(
                AgUiEncoder::new(Format::Sse)
                    .unwrap()
                    .with_thread_id("t")
                    .with_run_id("r"),
            )),
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_stream_cut_anywhere_and_resumed_assembles_as_the_uninterrupted_one(
        which in 0usize..5,
        cuts in proptest::collection::vec((0.0f64..1.0, 0u64..4), 1..6),
    ) {
        let (protocol, stream) = protocols().swap_remove(which);
        let all = events(&stream);
        let expected = snapshot(protocol, &stream);
        let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
        // The first connection: the stream from the start.
        let mut connection: Vec<u8> = stream.clone();
        let mut resent = 0u64;
        for (at, back) in cuts {
            let cut = ((connection.len() as f64) * at) as usize;
            asm.push(&connection[..cut]).unwrap();
            asm.connection_lost();
            // The server resumes after the cursor the reader sends, or (`back` > 0) from
            // earlier: those events are resent and must be skipped.
            let cursor: Option<u64> = asm.last_event_id().map(|id| id.parse().unwrap());
            let from = cursor.map_or(0, |c| (c + 1).saturating_sub(back));
            resent += cursor.map_or(0, |c| (c + 1).saturating_sub(from));
            connection = all.iter().filter(|(id, _)| *id >= from).flat_map(|(_, e)| e.iter().copied()).collect();
        }
        asm.push(&connection).unwrap();
        asm.finish().unwrap();
        // Resent events that arrived were skipped (some never arrived: a connection cut early).
        prop_assert!(asm.replayed() <= resent);
        let last = (all.len() - 1).to_string();
        prop_assert_eq!(asm.last_event_id(), Some(last.as_str()));
        prop_assert_eq!(asm.snapshot(), expected);
    }
}
