//! Bounded random-input tests of the assembler (stable: proptest with fixed case counts; the
//! unbounded search is the cargo-fuzz target in `fuzz/`). Inputs are arbitrary bytes, and
//! Agent-API-shaped event streams, valid and corrupted (random keys, wrong types, odd indices
//! and ids, replays, truncated events), framed as SSE (LF, CRLF or CR) or NDJSON, cut at random
//! points. The properties are in `assembler_harness`: no panic, a result independent of the
//! chunking, strict errors where the tolerant run first warns.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod assembler_harness;

use agentwire::codec::Format;
use assembler_harness::{check, object, Config};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Value};

/// Message ids: a small pool, so events collide on purpose.
const IDS: &[&str] = &["m1", "m2", "m3", "msg_é中", ""];
const MESSAGE_TYPES: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "plugin_call",
    "mcp_call",
    "mcp_call_output",
    "bogus",
];
const STATUSES: &[&str] = &[
    "created",
    "in_progress",
    "completed",
    "failed",
    "canceled",
    "rejected",
    "incomplete",
    "weird",
];
const CONTENT_TYPES: &[&str] = &[
    "text", "data", "refusal", "image", "audio", "file", "video", "x",
];
/// Pieces of tool-call arguments: together they can form JSON, or not.
const ARG_PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "a",
    "é",
    "中",
    ":",
    ",",
    " ",
    "1",
    "-",
    ".",
    "e",
    "t",
    "true",
    "nul",
    "\\",
    "\\u00",
    "e9",
    "\\n",
    "{\"k\": \"v",
    "\"}",
    "[1, 2",
    "]}",
];
const TEXT_PIECES: &[&str] = &[
    "Hel",
    "lo",
    " 中文",
    "👩‍💻",
    "\n",
    "\"q\"",
    "",
    "\\",
    "\u{7f}",
];

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        select(TEXT_PIECES).prop_map(Value::from),
        Just(json!({"a": [1, "x"]})),
        Just(json!([])),
        Just(json!(1.5e300)),
    ]
}

fn index() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (0u64..3).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!(-1)),
        1 => Just(json!(4095)),
        1 => Just(json!(4096)),
        1 => Just(json!("0")),
        1 => Just(json!(1.5)),
    ]
}

fn delta() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => Just(json!(true)),
        2 => Just(json!(false)),
        1 => Just(Value::Null),
        1 => Just(json!("yes")),
    ]
}

/// One event, as a JSON object (sequence numbers are added later).
fn event() -> impl Strategy<Value = Value> {
    let response =
        (select(STATUSES), proptest::option::of(Just(json!([])))).prop_map(|(status, output)| {
            json!({"object": "response", "status": status, "error": null, "id": "r1",
                   "created_at": 1, "output": output})
        });
    let message = (
        select(IDS),
        select(MESSAGE_TYPES),
        select(STATUSES),
        proptest::option::of(Just(json!("assistant"))),
        prop_oneof![
            Just(Value::Null),
            Just(json!([])),
            Just(json!([{"type": "text", "text": "Hello"}]))
        ],
    )
        .prop_map(|(id, t, status, role, content)| {
            json!({"object": "message", "id": id, "type": t, "status": status, "role": role,
                   "content": content})
        });
    let content = (
        select(IDS),
        select(CONTENT_TYPES),
        index(),
        delta(),
        select(STATUSES),
        prop_oneof![
            select(TEXT_PIECES).prop_map(Value::from),
            select(ARG_PIECES).prop_map(|a| json!({"arguments": a})),
            Just(json!({"call_id": "c1", "name": "f", "arguments": ""})),
            Just(json!({"call_id": "c1", "output": "ok"})),
            json_value(),
        ],
    )
        .prop_map(|(id, t, index, delta, status, value)| {
            let key = match t {
                "text" => "text",
                "refusal" => "refusal",
                "image" => "image_url",
                "data" => "data",
                "audio" => "data",
                "file" => "file_url",
                "video" => "video_url",
                _ => "value",
            };
            object(vec![
                ("object".into(), json!("content")),
                ("status".into(), json!(status)),
                ("error".into(), Value::Null),
                ("type".into(), json!(t)),
                ("index".into(), index),
                ("delta".into(), delta),
                ("msg_id".into(), json!(id)),
                (key.into(), value),
            ])
        });
    prop_oneof![
        2 => response,
        3 => message,
        8 => content,
        1 => Just(json!({"error": "boom"})),
        1 => Just(json!({"object": "mystery", "x": 1})),
        1 => Just(json!([1, 2])),
    ]
}

/// How an event is damaged (or not).
#[derive(Debug, Clone)]
enum Damage {
    None,
    /// Cut the JSON text at this fraction of its length.
    Truncate(f64),
    /// Replace one key's value with this value.
    Retype(usize, Value),
    /// Add a random key.
    ExtraKey(String, Value),
    /// Drop one key.
    DropKey(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        12 => Just(Damage::None),
        1 => (0.0f64..1.0).prop_map(Damage::Truncate),
        1 => (0usize..8, json_value()).prop_map(|(i, v)| Damage::Retype(i, v)),
        1 => ("[a-z_]{1,8}", json_value()).prop_map(|(k, v)| Damage::ExtraKey(k, v)),
        1 => (0usize..8).prop_map(Damage::DropKey),
    ]
}

/// The `sequence_number` given to an event.
#[derive(Debug, Clone)]
enum Seq {
    Next,
    Repeat,
    Skip,
    Missing,
    AsString,
}

fn seq() -> impl Strategy<Value = Seq> {
    prop_oneof![
        16 => Just(Seq::Next),
        1 => Just(Seq::Repeat),
        1 => Just(Seq::Skip),
        1 => Just(Seq::Missing),
        1 => Just(Seq::AsString),
    ]
}

/// The framing of a stream.
#[derive(Debug, Clone, Copy)]
enum Framing {
    SseLf,
    SseCrlf,
    SseCr,
    Ndjson,
}

fn render(events: Vec<(Value, Seq, Damage)>, framing: Framing, done_marker: bool) -> Vec<u8> {
    let mut n: i64 = 0;
    let mut out = String::new();
    if matches!(framing, Framing::SseLf) {
        out.push_str(": keep-alive\n\n");
    }
    for (mut event, seq, damage) in events {
        if let Value::Object(map) = &mut event {
            let number = match seq {
                Seq::Next => Some(json!(n)),
                Seq::Repeat => Some(json!((n - 1).max(0))),
                Seq::Skip => Some(json!(n + 2)),
                Seq::Missing => None,
                Seq::AsString => Some(json!(n.to_string())),
            };
            n += if matches!(seq, Seq::Skip) { 3 } else { 1 };
            let mut with_seq = serde_json::Map::new();
            if let Some(number) = number {
                with_seq.insert("sequence_number".into(), number);
            }
            with_seq.extend(std::mem::take(map));
            *map = with_seq;
            match &damage {
                Damage::Retype(i, v) => {
                    if let Some(key) = map.keys().nth(*i % map.len().max(1)).cloned() {
                        map.insert(key, v.clone());
                    }
                }
                Damage::ExtraKey(k, v) => {
                    map.insert(k.clone(), v.clone());
                }
                Damage::DropKey(i) => {
                    if let Some(key) = map.keys().nth(*i % map.len().max(1)).cloned() {
                        map.shift_remove(&key);
                    }
                }
                Damage::None | Damage::Truncate(_) => {}
            }
        }
        let mut text = event.to_string();
        if let Damage::Truncate(f) = damage {
            let mut cut = (text.len() as f64 * f) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        match framing {
            Framing::SseLf => out.push_str(&format!("data: {text}\n\n")),
            Framing::SseCrlf => out.push_str(&format!("event: agent\r\ndata: {text}\r\n\r\n")),
            Framing::SseCr => out.push_str(&format!("data:{text}\r\r")),
            Framing::Ndjson => out.push_str(&format!("{text}\n")),
        }
    }
    if done_marker && !matches!(framing, Framing::Ndjson) {
        out.push_str("data: [DONE]\n\n");
    }
    out.into_bytes()
}

fn framing() -> impl Strategy<Value = Framing> {
    prop_oneof![
        3 => Just(Framing::SseLf),
        1 => Just(Framing::SseCrlf),
        1 => Just(Framing::SseCr),
        1 => Just(Framing::Ndjson),
    ]
}

fn format() -> impl Strategy<Value = Format> {
    prop_oneof![
        4 => Just(Format::Auto),
        1 => Just(Format::Sse),
        1 => Just(Format::Ndjson),
    ]
}

/// A stream of events and a chunking of it.
fn event_stream() -> impl Strategy<Value = (Vec<u8>, Vec<usize>, Config)> {
    (
        proptest::collection::vec((event(), seq(), damage()), 0..24),
        framing(),
        any::<bool>(),
        format(),
        prop_oneof![8 => Just(None), 1 => (1usize..300).prop_map(Some)],
    )
        .prop_flat_map(|(events, framing, done, format, max)| {
            let bytes = render(events, framing, done);
            let len = bytes.len();
            (
                Just(bytes),
                proptest::collection::vec(0..=len, 0..12),
                Just(Config {
                    strict: false,
                    format,
                    max_event_bytes: max,
                }),
            )
        })
}

/// Arbitrary bytes, biased towards SSE-looking text, and a chunking.
fn byte_stream() -> impl Strategy<Value = (Vec<u8>, Vec<usize>, Config)> {
    let piece = prop_oneof![
        any::<u8>().prop_map(|b| vec![b]),
        select(
            &[
                "data: ",
                "data:",
                "\n",
                "\r",
                "\r\n",
                "{",
                "}",
                "\"",
                ":",
                ",",
                "[DONE]",
                "event: x",
                "id: 1",
                "retry: 5",
                ": c",
                "\u{feff}",
                "é",
                "中",
                "\"object\":\"content\"",
                "\"msg_id\":\"m1\"",
                "\"text\":\"x\"",
                "\"delta\":true",
                "\"type\":\"text\"",
                "\"index\":0",
                "\"sequence_number\":1",
                "\"object\":\"response\"",
                "\"status\":\"completed\"",
                "\"object\":\"message\"",
                "\"id\":\"m1\"",
            ][..]
        )
        .prop_map(|s: &str| s.as_bytes().to_vec()),
        Just(vec![0xe4, 0xb8]), // a cut multi-byte character
        Just(vec![0xff]),
    ];
    (
        proptest::collection::vec(piece, 0..48),
        format(),
        prop_oneof![6 => Just(None), 1 => (1usize..64).prop_map(Some)],
    )
        .prop_flat_map(|(pieces, format, max)| {
            let bytes: Vec<u8> = pieces.concat();
            let len = bytes.len();
            (
                Just(bytes),
                proptest::collection::vec(0..=len, 0..12),
                Just(Config {
                    strict: false,
                    format,
                    max_event_bytes: max,
                }),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn arbitrary_bytes((bytes, cuts, config) in byte_stream()) {
        if let Err(problem) = check(&bytes, config, &cuts) {
            prop_assert!(false, "{problem}\ninput: {:?}", String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn agent_api_event_streams((bytes, cuts, config) in event_stream()) {
        if let Err(problem) = check(&bytes, config, &cuts) {
            prop_assert!(false, "{problem}\ninput: {}", String::from_utf8_lossy(&bytes));
        }
    }
}

/// Every cut point of one valid stream with a tool call, one by one: the exhaustive version of
/// the property on an input small enough for it.
#[test]
fn every_single_cut_of_a_tool_call_stream() {
    let stream = concat!(
        "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"id\":\"r\"}\n\n",
        "data: {\"sequence_number\":1,\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"m\",\"type\":\"function_call\",\"role\":\"assistant\"}\n\n",
        "data: {\"sequence_number\":2,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"data\",\"index\":0,\"delta\":false,\"msg_id\":\"m\",\"data\":{\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"\"}}\n\n",
        "data: {\"sequence_number\":3,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"data\",\"index\":0,\"delta\":true,\"msg_id\":\"m\",\"data\":{\"arguments\":\"{\\\"q\\\": \\\"中\"}}\n\n",
        "data: {\"sequence_number\":4,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"data\",\"index\":0,\"delta\":true,\"msg_id\":\"m\",\"data\":{\"arguments\":\"文\\\", \\\"n\\\": [1, 2\"}}\n\n",
        "data: {\"sequence_number\":5,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"data\",\"index\":0,\"delta\":true,\"msg_id\":\"m\",\"data\":{\"arguments\":\"]}\"}}\n\n",
        "data: {\"sequence_number\":6,\"object\":\"message\",\"status\":\"completed\",\"id\":\"m\",\"type\":\"function_call\",\"role\":\"assistant\"}\n\n",
        "data: {\"sequence_number\":7,\"object\":\"response\",\"status\":\"completed\",\"id\":\"r\"}\n\n",
    )
    .as_bytes();
    let config = Config {
        strict: false,
        format: Format::Auto,
        max_event_bytes: None,
    };
    for cut in 0..=stream.len() {
        if let Err(problem) = check(stream, config, &[cut]) {
            panic!("cut at {cut}: {problem}");
        }
    }
    let run = check(stream, config, &[]).unwrap();
    assert_eq!(run.outcome, "completed");
    let mirror = run.mirror.unwrap();
    let (raw, parsed) = mirror.calls.values().next().unwrap();
    assert_eq!(raw, "{\"q\": \"中文\", \"n\": [1, 2]}");
    assert_eq!(parsed, &Some(json!({"q": "中文", "n": [1, 2]})));
}
