//! The protocol adapters through the public API: builder → Responses / A2A bytes → assembler and
//! translators back; round trips (property tests); tolerance of bad input; the reference
//! adapter's bugs (§7.1) each fixed.
// The AG-UI and OpenAI/A2A streams are read by the full build only.
#![cfg(feature = "full")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler, Update};
use agentwire::builder::{
    AgentApiEncoder, BuilderOptions, CompleteOptions, Encoder, MessageOptions, ResponseBuilder,
    ToolCallOptions, ToolKind, ToolOutputOptions,
};
use agentwire::codec::Format;
use agentwire::openai::{a2a_request, A2aEncoder, ResponsesEncoder, Translator};
use agentwire::protocol::{ContentBody, ContentType, ErrorInfo, FixedClock, Message};
use proptest::prelude::*;
use serde_json::{json, Value};

/// One message to build.
#[derive(Debug, Clone)]
enum Msg {
    /// A text message with its parts, each given as pieces (deltas).
    Text(Vec<Vec<String>>),
    Reasoning(Vec<String>),
    Call(ToolKind, Vec<String>),
    Output(ToolKind, String),
}

fn build(msgs: &[Msg], encoder: Box<dyn Encoder + Send>, end: &str) -> Vec<u8> {
    let options = BuilderOptions::new()
        .response_id("resp_1")
        .session_id("s1")
        .clock(FixedClock(1_700_000_000));
    let mut rb = ResponseBuilder::with_encoder(options, encoder).unwrap();
    let mut out = rb.created().unwrap();
    out.extend(rb.in_progress().unwrap());
    for (n, m) in msgs.iter().enumerate() {
        match m {
            Msg::Text(parts) => {
                let h = rb
                    .message(MessageOptions::new().id(format!("m{n}")))
                    .unwrap();
                for pieces in parts {
                    let c = rb.content(h, ContentType::Text).unwrap();
                    for p in pieces {
                        out.extend(rb.delta_text(c, p).unwrap());
                    }
                    out.extend(rb.complete_content(c).unwrap());
                }
                out.extend(rb.complete_message(h).unwrap());
            }
            Msg::Reasoning(pieces) => {
                let h = rb
                    .message(MessageOptions::reasoning().id(format!("m{n}")))
                    .unwrap();
                let c = rb.content(h, ContentType::Text).unwrap();
                for p in pieces {
                    out.extend(rb.delta_text(c, p).unwrap());
                }
                out.extend(rb.complete_content(c).unwrap());
                out.extend(rb.complete_message(h).unwrap());
            }
            Msg::Call(kind, pieces) => {
                let call = rb
                    .tool_call(
                        ToolCallOptions::new(*kind, format!("call_{n}"), "get_weather")
                            .message_id(format!("m{n}")),
                    )
                    .unwrap();
                for p in pieces {
                    out.extend(rb.tool_arguments(call, p).unwrap());
                }
                out.extend(rb.complete_tool_call(call).unwrap());
            }
            Msg::Output(kind, output) => {
                out.extend(
                    rb.tool_output(
                        ToolOutputOptions::new(
                            *kind,
                            format!("call_{}", n.saturating_sub(1)),
                            output.clone(),
                        )
                        .message_id(format!("m{n}")),
                    )
                    .unwrap(),
                );
            }
        }
    }
    let mut usage = agentwire::protocol::JsonMap::new();
    usage.insert("input_tokens".into(), json!(5));
    usage.insert("output_tokens".into(), json!(7));
    match end {
        "completed" => out.extend(rb.completed(CompleteOptions::new().usage(usage)).unwrap()),
        "failed" => out.extend(rb.failed(ErrorInfo::new("AGENT_ERROR", "boom")).unwrap()),
        "canceled" => out.extend(rb.canceled().unwrap()),
        _ => {}
    }
    out
}

fn agent_api() -> Box<dyn Encoder + Send> {
    Box::new(AgentApiEncoder::new(Format::Sse).unwrap())
}

/// Pushes `bytes` in pieces of `chunk` bytes.
fn translate(from: Protocol, to: Protocol, bytes: &[u8], chunk: usize) -> Vec<u8> {
    let mut t = Translator::new(from, to).unwrap();
    let mut out = Vec::new();
    for piece in bytes.chunks(chunk.max(1)) {
        out.extend(t.push(piece).unwrap());
    }
    out.extend(t.finish().unwrap());
    // What the target has no place for (Responses: media parts) is named; nothing else warns.
    let unexpected: Vec<_> = t
        .warnings()
        .iter()
        .filter(|w| w.code.as_str() != "NOT_CARRIED")
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:?}");
    out
}

fn assemble(protocol: Protocol, bytes: &[u8], chunk: usize) -> (StreamAssembler, Vec<Update>) {
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
    let mut updates = Vec::new();
    for piece in bytes.chunks(chunk.max(1)) {
        updates.extend(asm.push(piece).unwrap());
    }
    updates.extend(asm.finish().unwrap());
    (asm, updates)
}

/// The messages of an Agent API snapshot, reduced to what every protocol carries: id, type
/// (`plugin_call`/`mcp_call` → `function_call`, outputs alike), role, and each part's text
/// or tool data.
fn essence(snapshot: &Value) -> Vec<Value> {
    snapshot["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let t = match m["type"].as_str().unwrap() {
                "plugin_call" | "mcp_call" => "function_call",
                "plugin_call_output" | "mcp_call_output" => "function_call_output",
                t => t,
            };
            let parts: Vec<Value> = m["content"]
                .as_array()
                .map(|c| {
                    c.iter()
                        .map(|p| match p["type"].as_str().unwrap() {
                            "text" => json!({"text": p["text"]}),
                            _ => json!({
                                "call_id": p["data"]["call_id"],
                                "arguments": p["data"].get("arguments"),
                                "output": p["data"].get("output"),
                            }),
                        })
                        .collect()
                })
                .unwrap_or_default();
            // An unannounced message has no role; every protocol here makes it the assistant's.
            let role = if m["role"].is_null() {
                json!("assistant")
            } else {
                m["role"].clone()
            };
            json!({"id": m["id"], "type": t, "role": role, "parts": parts})
        })
        .collect()
}

fn sample() -> Vec<Msg> {
    vec![
        Msg::Reasoning(vec!["Let me ".into(), "think.".into()]),
        Msg::Text(vec![vec!["Héllo ".into(), "中文 👩‍💻".into()]]),
        Msg::Call(
            ToolKind::Plugin,
            vec!["{\"city\": ".into(), "\"Hangzhou\"}".into()],
        ),
        Msg::Output(ToolKind::Plugin, "Sunny".into()),
        Msg::Text(vec![vec!["It is sunny.".into()], vec!["Bye".into()]]),
    ]
}

#[test]
fn builder_emits_responses_that_assemble_to_the_built_run() {
    let bytes = build(&sample(), Box::new(ResponsesEncoder::sse()), "completed");
    let text = String::from_utf8(bytes.clone()).unwrap();
    // Every frame names its type on an `event:` line, sequence numbers run 0.. without gaps.
    for (seq, frame) in text.split("\n\n").filter(|f| !f.is_empty()).enumerate() {
        let (event, data) = frame.split_once('\n').unwrap();
        let data: Value = serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap();
        assert_eq!(event.strip_prefix("event: ").unwrap(), data["type"]);
        assert_eq!(data["sequence_number"], seq);
    }
    for chunk in [1, 7, 64, bytes.len()] {
        let (asm, updates) = assemble(Protocol::OpenAiResponses, &bytes, chunk);
        assert_eq!(asm.outcome().as_str(), "completed");
        let snap = asm.snapshot();
        assert_eq!(snap["status"], "completed");
        assert_eq!(snap["id"], "resp_1");
        assert_eq!(snap["usage"]["total_tokens"], 12);
        let out = snap["output"].as_array().unwrap();
        assert_eq!(out.len(), 5);
        assert_eq!(out[0]["type"], "reasoning");
        assert_eq!(out[0]["content"][0]["text"], "Let me think.");
        assert_eq!(out[1]["content"][0]["text"], "Héllo 中文 👩‍💻");
        assert_eq!(out[2]["type"], "function_call");
        assert_eq!(out[2]["arguments"], "{\"city\": \"Hangzhou\"}");
        assert_eq!(out[2]["call_id"], "call_2");
        assert_eq!(out[3]["type"], "function_call_output");
        assert_eq!(out[3]["output"], "Sunny");
        assert_eq!(out[4]["content"][1]["text"], "Bye");
        assert_eq!(snap["warnings"], json!([]));
        // Updates: text appends per item/part, argument appends for the call.
        let mut texts = std::collections::BTreeMap::<(String, usize), String>::new();
        let mut args = String::new();
        for u in &updates {
            match u {
                Update::Text {
                    message_id,
                    index,
                    delta,
                    replace,
                    ..
                } => {
                    let e = texts.entry((message_id.clone(), *index)).or_default();
                    if *replace {
                        e.clear();
                    }
                    e.push_str(delta);
                }
                Update::Arguments { delta, replace, .. } => {
                    if *replace {
                        args.clear();
                    }
                    args.push_str(delta);
                }
                _ => {}
            }
        }
        assert_eq!(texts[&("m1".to_owned(), 0)], "Héllo 中文 👩‍💻");
        assert_eq!(texts[&("m0".to_owned(), 0)], "Let me think.");
        assert_eq!(args, "{\"city\": \"Hangzhou\"}");
        let calls = asm.tool_calls();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].call_id.as_deref(), Some("call_2"));
        assert_eq!(calls[0].arguments, "{\"city\": \"Hangzhou\"}");
        assert_eq!(calls[0].output, Some(json!("Sunny")));
    }
}

#[test]
fn reference_bugs_are_fixed() {
    let bytes = build(&sample(), Box::new(ResponsesEncoder::sse()), "completed");
    let events: Vec<Value> = String::from_utf8(bytes)
        .unwrap()
        .split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| serde_json::from_str(f.split_once("\ndata: ").unwrap().1).unwrap())
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    // plugin_call is a function call with streamed arguments (#486), its output follows, and
    // the stream is not truncated by the output message.
    assert!(types.contains(&"response.function_call_arguments.delta"));
    assert_eq!(*types.last().unwrap(), "response.completed");
    // Reasoning deltas are not duplicated by the completed value.
    let reasoning: String = events
        .iter()
        .filter(|e| e["type"] == "response.reasoning_text.delta")
        .map(|e| e["delta"].as_str().unwrap())
        .collect();
    assert_eq!(reasoning, "Let me think.");
    // output_index: added and done at the same index, indices dense in order of addition.
    let mut added = Vec::new();
    for e in &events {
        if e["type"] == "response.output_item.added" {
            assert_eq!(e["output_index"], added.len());
            added.push(e["item"]["id"].clone());
        }
        if e["type"] == "response.output_item.done" {
            let i = e["output_index"].as_u64().unwrap() as usize;
            assert_eq!(added[i], e["item"]["id"]);
        }
    }
    // canceled ends the stream (the reference crashes and sends nothing).
    let canceled = build(
        &sample()[..1],
        Box::new(ResponsesEncoder::sse()),
        "canceled",
    );
    let text = String::from_utf8(canceled).unwrap();
    assert!(text.contains("event: response.incomplete\n"));
    assert!(text.contains("\"status\":\"cancelled\""));
    let (asm, _) = assemble(Protocol::OpenAiResponses, text.as_bytes(), 5);
    assert_eq!(asm.outcome().as_str(), "canceled");
    // failed keeps the message, maps the code to OpenAI's set.
    let failed =
        String::from_utf8(build(&[], Box::new(ResponsesEncoder::sse()), "failed")).unwrap();
    assert!(failed.contains("\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}"));
}

#[test]
fn agent_api_captures_translate_without_loss() {
    // The reference's own /process captures (agentscope adapter: plugin_call snapshots with
    // delta:false, messages completed with stale nested fields).
    for name in ["process_agentscope", "process_text", "process_text_error"] {
        let path = format!("tests/fixtures/reference/sse/{name}.sse");
        let input = std::fs::read(path).unwrap();
        let (direct, _) = assemble(Protocol::AgentApi, &input, input.len());
        let responses = translate(Protocol::AgentApi, Protocol::OpenAiResponses, &input, 13);
        let back = translate(
            Protocol::OpenAiResponses,
            Protocol::AgentApi,
            &responses,
            29,
        );
        let (asm, _) = assemble(Protocol::AgentApi, &back, 17);
        assert_eq!(asm.outcome(), direct.outcome(), "{name}");
        assert_eq!(
            essence(&asm.snapshot()),
            essence(&direct.snapshot()),
            "{name}"
        );
        let a2a = translate(Protocol::AgentApi, Protocol::A2a, &input, 11);
        let back = translate(Protocol::A2a, Protocol::AgentApi, &a2a, 31);
        let (asm, _) = assemble(Protocol::AgentApi, &back, 19);
        assert_eq!(asm.outcome(), direct.outcome(), "{name} (a2a)");
        assert_eq!(
            essence(&asm.snapshot()),
            essence(&direct.snapshot()),
            "{name} (a2a)"
        );
        // The assembler reads both directly too.
        let (asm, _) = assemble(Protocol::A2a, &a2a, 3);
        assert_eq!(
            essence(&asm.snapshot()),
            essence(&direct.snapshot()),
            "{name} (a2a asm)"
        );
    }
}

#[test]
fn unknown_events_warn_and_missing_terminal_is_truncated() {
    let stream = concat!(
        "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,",
        "\"response\":{\"id\":\"r\",\"object\":\"response\",\"created_at\":1,\"status\":\"in_progress\",\"output\":[]}}\n\n",
        "event: response.future\ndata: {\"type\":\"response.future_thing\",\"sequence_number\":1}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"item_id\":\"m\",",
        "\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n",
        "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"item_id\":\"m\",",
        "\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n",
    );
    let (asm, updates) = assemble(Protocol::OpenAiResponses, stream.as_bytes(), 9);
    assert_eq!(asm.outcome().as_str(), "truncated");
    let codes: Vec<&str> = asm.warnings().iter().map(|w| w.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "UNKNOWN_EVENT",
            "UNANNOUNCED_MESSAGE",
            "DUPLICATE_EVENT",
            "TRUNCATED"
        ]
    );
    let text: String = updates
        .iter()
        .filter_map(|u| match u {
            Update::Text { delta, .. } => Some(delta.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "Hi");
    // Detected from the first event too; strict mode turns the unknown event into an error.
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_strict(true));
    let err = asm.push(stream.as_bytes()).unwrap_err();
    assert_eq!(asm.protocol(), Some(Protocol::OpenAiResponses));
    assert_eq!(err.code().as_str(), "PROTOCOL_VIOLATION");
}

#[test]
fn every_ordered_pair_is_supported() {
    let all = [
        Protocol::AgentApi,
        Protocol::OpenAiResponses,
        Protocol::A2a,
        Protocol::A2a03,
        Protocol::AgUi,
    ];
    for from in all {
        for to in all {
            assert!(Translator::new(from, to).is_ok(), "{from:?} → {to:?}");
        }
    }
}

#[test]
fn a2a_stream_and_request() {
    let bytes = build(
        &sample(),
        Box::new(A2aEncoder::new(json!("req-1"))),
        "completed",
    );
    let text = String::from_utf8(bytes.clone()).unwrap();
    let results: Vec<Value> = text
        .split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| serde_json::from_str(f.strip_prefix("data: ").unwrap()).unwrap())
        .collect();
    assert_eq!(results[0]["result"]["kind"], "task");
    assert_eq!(results[0]["id"], "req-1");
    let last = &results.last().unwrap()["result"];
    assert_eq!(last["kind"], "status-update");
    assert_eq!(last["final"], true);
    assert_eq!(last["status"]["state"], "completed");
    let (asm, _) = assemble(Protocol::A2a, &bytes, 7);
    assert_eq!(asm.outcome().as_str(), "completed");
    let direct = build(&sample(), agent_api(), "completed");
    let (d, _) = assemble(Protocol::AgentApi, &direct, direct.len());
    assert_eq!(essence(&asm.snapshot()), essence(&d.snapshot()));
    let r = a2a_request(
        r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":{"kind":"message",
        "messageId":"m1","role":"user","contextId":"c1","taskId":"t1","parts":[{"kind":"text","text":"Hi"},
        {"kind":"data","data":{"a":1}},{"kind":"file","file":{"uri":"https://x/y.png","mimeType":"image/png"}},
        {"kind":"file","file":{"uri":"https://x/doc.pdf","name":"doc.pdf"}}]}}}"#,
    )
    .unwrap();
    assert_eq!(r.id.as_deref(), Some("t1"));
    let m: &Message = &r.input[0];
    assert_eq!(m.id, "m1");
    let bodies: Vec<&ContentBody> = m
        .content
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| &c.body)
        .collect();
    assert!(
        matches!(bodies[2], ContentBody::Image { image_url: Some(u) } if u == "https://x/y.png")
    );
    assert!(matches!(bodies[3], ContentBody::File { filename: Some(n), .. } if n == "doc.pdf"));
    assert_eq!(
        a2a_request("{}").unwrap_err().code().as_str(),
        "INVALID_REQUEST"
    );
}

fn msg_strategy() -> impl Strategy<Value = Msg> {
    let piece = prop::collection::vec(
        prop_oneof![
            Just('a'),
            Just('"'),
            Just('\\'),
            Just('\n'),
            Just('é'),
            Just('😀'),
            Just(' ')
        ],
        0..6,
    )
    .prop_map(|c| c.into_iter().collect::<String>());
    let pieces = prop::collection::vec(piece.clone(), 1..4);
    let kind = prop_oneof![
        Just(ToolKind::Function),
        Just(ToolKind::Plugin),
        Just(ToolKind::Mcp)
    ];
    prop_oneof![
        prop::collection::vec(pieces.clone(), 1..3).prop_map(Msg::Text),
        pieces.clone().prop_map(Msg::Reasoning),
        (kind.clone(), pieces).prop_map(|(k, p)| Msg::Call(k, p)),
        (kind, piece).prop_map(|(k, o)| Msg::Output(k, o)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Agent API → Responses → Agent API, and → A2A → Agent API, preserve the messages, however
    /// the bytes are split.
    #[test]
    fn round_trips_preserve_messages(
        msgs in prop::collection::vec(msg_strategy(), 0..5),
        chunk in 1usize..200,
    ) {
        let direct = build(&msgs, agent_api(), "completed");
        let (d, _) = assemble(Protocol::AgentApi, &direct, direct.len());
        let expected = essence(&d.snapshot());
        let via = translate(Protocol::AgentApi, Protocol::OpenAiResponses, &direct, chunk);
        let back = translate(Protocol::OpenAiResponses, Protocol::AgentApi, &via, chunk + 3);
        let (asm, _) = assemble(Protocol::AgentApi, &back, chunk);
        prop_assert_eq!(asm.outcome().as_str(), "completed");
        prop_assert_eq!(essence(&asm.snapshot()), expected.clone());
        let via = translate(Protocol::AgentApi, Protocol::A2a03, &direct, chunk);
        let back = translate(Protocol::A2a03, Protocol::AgentApi, &via, chunk + 5);
        let (asm, _) = assemble(Protocol::AgentApi, &back, chunk);
        prop_assert_eq!(asm.outcome().as_str(), "completed");
        prop_assert_eq!(essence(&asm.snapshot()), expected.clone());
        // A2A 1.0, from the Agent API and from A2A 0.3, and back: the same messages.
        let via1 = translate(Protocol::AgentApi, Protocol::A2a, &direct, chunk);
        prop_assert!(!String::from_utf8_lossy(&via1).contains("\"kind\""));
        let (asm, _) = assemble(Protocol::A2a, &via1, chunk + 1);
        prop_assert_eq!(asm.outcome().as_str(), "completed");
        prop_assert_eq!(essence(&asm.snapshot()), expected.clone());
        let from03 = translate(Protocol::A2a03, Protocol::A2a, &via, chunk);
        let back03 = translate(Protocol::A2a, Protocol::A2a03, &from03, chunk + 2);
        prop_assert!(String::from_utf8_lossy(&back03).contains("\"kind\":\"task\""));
        let (asm, _) = assemble(Protocol::A2a, &back03, chunk);
        prop_assert_eq!(asm.outcome().as_str(), "completed");
        prop_assert_eq!(essence(&asm.snapshot()), expected);
        // The builder's Responses output equals the translated one, byte for byte.
        let built = build(&msgs, Box::new(ResponsesEncoder::sse()), "completed");
        let translated = translate(Protocol::AgentApi, Protocol::OpenAiResponses, &direct, chunk);
        prop_assert_eq!(String::from_utf8(built).unwrap(), String::from_utf8(translated).unwrap());
    }
}

/// The builder writes A2A natively (`protocol: "a2a"` / `"a2a-0.3"`): the same bytes as the
/// translation of the Agent API run made by the same calls.
#[test]
fn builder_writes_a2a_of_both_versions_as_the_translator_does() {
    use agentwire::a2a::{A2aVersion, TaskFold};
    for end in ["completed", "failed", "canceled"] {
        let source = build(&sample(), agent_api(), end);
        for (protocol, version) in [
            (Protocol::A2a, A2aVersion::V1_0),
            (Protocol::A2a03, A2aVersion::V0_3),
        ] {
            let native = build(
                &sample(),
                Box::new(A2aEncoder::new(Value::Null).with_version(version)),
                end,
            );
            assert_eq!(
                String::from_utf8(native).unwrap(),
                String::from_utf8(translate(Protocol::AgentApi, protocol, &source, 7)).unwrap(),
                "{end} {protocol:?}"
            );
        }
        // Through `ResponseBuilder::new` with the protocol option and a request id.
        let options = BuilderOptions::new()
            .protocol(Protocol::A2a)
            .request_id(json!(42))
            .response_id("t1");
        let mut rb = ResponseBuilder::new(options).unwrap();
        let mut out = rb.created().unwrap();
        out.extend(rb.completed(CompleteOptions::new()).unwrap());
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(
            text.starts_with(r#"data: {"jsonrpc":"2.0","id":42,"result":{"task":{"id":"t1""#),
            "{text}"
        );
        let mut fold = TaskFold::new();
        fold.push(&out).unwrap();
        fold.finish().unwrap();
        assert_eq!(
            fold.task().unwrap()["status"]["state"],
            "TASK_STATE_COMPLETED"
        );
    }
}

/// `EventIds`: every event of every protocol carries its index as `id:`, and the stream is
/// otherwise the same bytes (the Agent API's and Responses' ids are their sequence numbers).
#[test]
fn event_ids_number_every_event_of_every_protocol() {
    use agentwire::agui::AgUiEncoder;
    use agentwire::builder::EventIds;
    use agentwire::codec::SseDecoder;
    type MakeEncoder = fn() -> Box<dyn Encoder + Send>;
    let encoders: Vec<(&str, MakeEncoder)> = vec![
        ("agent-api", || agent_api()),
        ("responses", || {
            Box::new(ResponsesEncoder::new(Format::Sse).unwrap())
        }),
        ("a2a", || {
            Box::new(A2aEncoder::new(Value::Null).with_version(agentwire::a2a::A2aVersion::V1_0))
        }),
        ("ag-ui", || {
            Box::new(
                AgUiEncoder::new(Format::Sse)
                    .unwrap()
                    .with_thread_id("t")
                    .with_run_id("r"),
            )
        }),
    ];
    for (name, make) in encoders {
        for end in ["completed", "failed"] {
            let plain = build(&sample(), make(), end);
            let stamped = build(&sample(), Box::new(EventIds::new(make())), end);
            let mut frames = Vec::new();
            let mut d = SseDecoder::new();
            d.push(&stamped, |f| {
                frames.push((f.id().map(str::to_owned), f.data().to_owned()));
                Ok(())
            })
            .unwrap();
            d.finish(|_| Ok(())).unwrap();
            let mut plain_frames = Vec::new();
            let mut d = SseDecoder::new();
            d.push(&plain, |f| {
                plain_frames.push(f.data().to_owned());
                Ok(())
            })
            .unwrap();
            assert_eq!(frames.len(), plain_frames.len(), "{name}");
            for (i, ((id, data), plain)) in frames.iter().zip(&plain_frames).enumerate() {
                assert_eq!(id.as_deref(), Some(i.to_string().as_str()), "{name} {end}");
                assert_eq!(data, plain, "{name} {end}");
                let v: Value = serde_json::from_str(data).unwrap();
                if let Some(n) = v.get("sequence_number") {
                    assert_eq!(n, &json!(i), "{name}: the id is the sequence number");
                }
            }
        }
    }
}
