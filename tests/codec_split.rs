//! The chunk-split invariant of the codec: however a byte stream is cut into chunks, the
//! decoders deliver the same frames (and the same error, at the same offset), equal to a naive
//! whole-input reference implementation of the WHATWG rules.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use agentwire::codec::{Format, Frame, FrameDecoder, Limits};
use agentwire::ErrorCode;
use proptest::prelude::*;

/// An owned copy of a [`Frame`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ev {
    data: String,
    event: String,
    id: Option<String>,
    retry: Option<u64>,
    offset: u64,
}

impl From<Frame<'_>> for Ev {
    fn from(f: Frame<'_>) -> Self {
        Ev {
            data: f.data().to_owned(),
            event: f.event().to_owned(),
            id: f.id().map(str::to_owned),
            retry: f.retry(),
            offset: f.offset(),
        }
    }
}

/// Everything a run produces: the frames, then the error code and offset if it failed, and
/// the detected format.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outcome {
    frames: Vec<Ev>,
    error: Option<(ErrorCode, Option<u64>)>,
    format: Format,
}

fn run(format: Format, limits: Limits, chunks: &[&[u8]]) -> Outcome {
    let mut decoder = FrameDecoder::new(format).with_limits(limits);
    let mut frames = Vec::new();
    let mut sink = |f: Frame<'_>| {
        frames.push(Ev::from(f));
        Ok(())
    };
    let mut result = Ok(());
    for chunk in chunks {
        result = decoder.push(chunk, &mut sink);
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = decoder.finish(&mut sink);
    }
    Outcome {
        frames,
        error: result.err().map(|e| (e.code(), e.offset())),
        format: decoder.format(),
    }
}

/// Cuts `input` at the given sorted positions.
fn cut<'a>(input: &'a [u8], points: &[usize]) -> Vec<&'a [u8]> {
    let mut chunks = Vec::new();
    let mut from = 0;
    for &p in points {
        chunks.push(&input[from..p]);
        from = p;
    }
    chunks.push(&input[from..]);
    chunks
}

/// Checks every single split, every pair of splits (for inputs up to `pairs_up_to` bytes) and
/// 1-byte chunks against the one-shot run; returns the one-shot outcome.
fn assert_split_invariant(
    format: Format,
    limits: Limits,
    input: &[u8],
    pairs_up_to: usize,
) -> Outcome {
    let whole = run(format, limits, &[input]);
    let n = input.len();
    for i in 0..=n {
        assert_eq!(
            run(format, limits, &cut(input, &[i])),
            whole,
            "split at {i}"
        );
    }
    if n <= pairs_up_to {
        for i in 0..=n {
            for j in i..=n {
                assert_eq!(
                    run(format, limits, &cut(input, &[i, j])),
                    whole,
                    "splits at {i}, {j}"
                );
            }
        }
    }
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(run(format, limits, &bytes), whole, "1-byte chunks");
    whole
}

// ----- A naive reference: the WHATWG algorithm over the whole input at once. -----

/// Splits at LF, CR or CRLF; returns each line with its start offset, and whether the input
/// ended without a line terminator (the last line then is unterminated).
fn lines_any(bytes: &[u8], base: u64) -> Vec<(u64, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((base + start as u64, &bytes[start..i]));
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push((base + start as u64, &bytes[start..i]));
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push((base + start as u64, &bytes[start..]));
    }
    out
}

fn strip_bom(input: &[u8]) -> (&[u8], u64) {
    match input.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, 3),
        None => (input, 0),
    }
}

/// The reference SSE decoder (valid UTF-8 input, no limits). Flushes the last event at end.
fn reference_sse(input: &[u8]) -> Vec<Ev> {
    let (body, base) = strip_bom(input);
    let mut out = Vec::new();
    let (mut data, mut event, mut id, mut retry) =
        (String::new(), String::new(), String::new(), None);
    let mut start: Option<u64> = None;
    let mut dispatch =
        |data: &mut String, event: &mut String, id: &String, retry, start: &mut Option<u64>| {
            let s = start.take();
            if !data.is_empty() {
                data.pop();
                out.push(Ev {
                    data: std::mem::take(data),
                    event: if event.is_empty() {
                        "message".into()
                    } else {
                        event.clone()
                    },
                    id: (!id.is_empty()).then(|| id.clone()),
                    retry,
                    offset: s.unwrap(),
                });
            }
            data.clear();
            event.clear();
        };
    for (at, line) in lines_any(body, base) {
        let line = std::str::from_utf8(line).unwrap();
        if line.is_empty() {
            dispatch(&mut data, &mut event, &id, retry, &mut start);
            continue;
        }
        start.get_or_insert(at);
        if line.starts_with(':') {
            continue;
        }
        let (name, value) = match line.split_once(':') {
            Some((n, v)) => (n, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match name {
            "data" => {
                data.push_str(value);
                data.push('\n');
            }
            "event" => event = value.to_owned(),
            "id" if !value.contains('\0') => id = value.to_owned(),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse() {
                    retry = Some(ms);
                }
            }
            _ => {}
        }
    }
    dispatch(&mut data, &mut event, &id, retry, &mut start);
    out
}

/// The reference NDJSON decoder (valid UTF-8 input, no limits).
fn reference_ndjson(input: &[u8]) -> Vec<Ev> {
    let (body, base) = strip_bom(input);
    let mut out = Vec::new();
    let mut start = 0;
    for piece in body.split(|&b| b == b'\n') {
        let line = piece.strip_suffix(b"\r").unwrap_or(piece);
        if !line.iter().all(|b| b" \t\r".contains(b)) {
            out.push(Ev {
                data: String::from_utf8(line.to_vec()).unwrap(),
                event: "message".into(),
                id: None,
                retry: None,
                offset: base + start as u64,
            });
        }
        start += piece.len() + 1;
    }
    out
}

// ----- Fixtures -----

/// What the reference server's `/process` endpoint sends: `data: <compact json>\n\n`.
const PROCESS: &str = concat!(
    "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"error\":null,\"id\":\"response_1\"}\n\n",
    "data: {\"sequence_number\":1,\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":null}\n\n",
    "data: {\"sequence_number\":2,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"text\",\"index\":0,\"delta\":true,\"msg_id\":\"msg_1\",\"text\":\"Il fait beau à 杭州 😀\"}\n\n",
    "data: {\"sequence_number\":3,\"object\":\"response\",\"status\":\"completed\",\"error\":null,\"id\":\"response_1\"}\n\n",
);

/// What the Responses adapter sends: `event: <type>\ndata: <json with spaces>\n\n`.
const RESPONSES: &str = concat!(
    "event: response.created\n",
    "data: {\"response\": {\"id\": \"response_af32\", \"created_at\": 1795331194.0, \"model\": \"\", \"object\": \"response\", \"output\": [], \"status\": \"queued\"}, \"sequence_number\": 0, \"type\": \"response.created\"}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"content_index\": 0, \"delta\": \"It is\", \"item_id\": \"msg_019e\", \"logprobs\": [], \"output_index\": 2, \"sequence_number\": 15, \"type\": \"response.output_text.delta\"}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"content_index\": 0, \"delta\": \" sunny ☀️.\", \"item_id\": \"msg_019e\", \"logprobs\": [], \"output_index\": 2, \"sequence_number\": 16, \"type\": \"response.output_text.delta\"}\n\n",
    "event: response.completed\n",
    "data: {\"response\": {\"id\": \"response_af32\", \"status\": \"completed\"}, \"sequence_number\": 20, \"type\": \"response.completed\"}\n\n",
);

/// An sse-starlette server: CRLF line endings and `: ping` heartbeats; last event unterminated.
const STARLETTE: &str = concat!(
    ": ping - 2025-01-01 00:00:00\r\n\r\n",
    "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\"}\r\n\r\n",
    ": ping\r\n\r\n",
    "id: 2\r\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"héllo\"}\r\n\r\n",
    "data: {\"type\":\"RUN_FINISHED\"}",
);

/// Every SSE rule at once, small enough for every pair of split points.
const TRICKY: &[u8] = b"\xEF\xBB\xBF: c\rdata:a\r\ndata\revent: \xC3\xA9\nid: 1\x002\nid: 7\nretry: 9x\nretry: 30\nfoo\ndata: \xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7\r\n\r\nevent: e\n\ndata: z\r";

/// Multi-byte text: 2-, 3- and 4-byte characters and a ZWJ emoji sequence.
const MULTIBYTE: &str = "data: é ß 中文 ありがとう 😀 👩‍👩‍👧‍👦 🏳️‍🌈\n\ndata: Ω≈ç√\n\n";

/// NDJSON: LF and CRLF, blank lines, a BOM, no final newline.
const NDJSON: &[u8] = b"\xEF\xBB\xBF{\"object\":\"response\",\"status\":\"created\"}\r\n\n  \r\n{\"text\":\"\xE4\xB8\xAD\xF0\x9F\x98\x80\"}\n[1,2]";

#[test]
fn process_stream_every_split() {
    let out = assert_split_invariant(Format::Auto, Limits::new(), PROCESS.as_bytes(), 0);
    assert_eq!(out.format, Format::Sse);
    assert_eq!(out.frames, reference_sse(PROCESS.as_bytes()));
    assert_eq!(out.frames.len(), 4);
    assert!(out.frames[2]
        .data
        .ends_with("\"text\":\"Il fait beau à 杭州 😀\"}"));
}

#[test]
fn responses_stream_every_split() {
    let out = assert_split_invariant(Format::Auto, Limits::new(), RESPONSES.as_bytes(), 0);
    assert_eq!(out.frames, reference_sse(RESPONSES.as_bytes()));
    let types: Vec<&str> = out.frames.iter().map(|f| f.event.as_str()).collect();
    assert_eq!(
        types,
        [
            "response.created",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.completed"
        ]
    );
}

#[test]
fn starlette_crlf_stream_every_split() {
    let out = assert_split_invariant(Format::Auto, Limits::new(), STARLETTE.as_bytes(), 0);
    assert_eq!(out.frames, reference_sse(STARLETTE.as_bytes()));
    let ids: Vec<Option<&str>> = out.frames.iter().map(|f| f.id.as_deref()).collect();
    assert_eq!(ids, [None, Some("2"), Some("2")]);
    assert_eq!(out.frames[2].data, "{\"type\":\"RUN_FINISHED\"}");
}

#[test]
fn tricky_sse_every_pair_of_splits() {
    let out = assert_split_invariant(Format::Auto, Limits::new(), TRICKY, usize::MAX);
    assert_eq!(out.frames, reference_sse(TRICKY));
    let want = vec![
        Ev {
            data: "a\n\n\u{1F469}\u{200D}\u{1F467}".into(),
            event: "é".into(),
            id: Some("7".into()),
            retry: Some(30),
            offset: 3,
        },
        Ev {
            data: "z".into(),
            event: "message".into(),
            id: Some("7".into()),
            retry: Some(30),
            offset: 99,
        },
    ];
    assert_eq!(out.frames, want);
    assert_eq!(
        assert_split_invariant(Format::Sse, Limits::new(), TRICKY, 0),
        out
    );
}

#[test]
fn multibyte_every_pair_of_splits() {
    let out = assert_split_invariant(
        Format::Auto,
        Limits::new(),
        MULTIBYTE.as_bytes(),
        usize::MAX,
    );
    assert_eq!(out.frames, reference_sse(MULTIBYTE.as_bytes()));
    assert_eq!(out.frames[0].data, "é ß 中文 ありがとう 😀 👩‍👩‍👧‍👦 🏳️‍🌈");
}

#[test]
fn splits_inside_every_utf8_sequence() {
    let text = MULTIBYTE.as_bytes();
    let whole = run(Format::Auto, Limits::new(), &[text]);
    let mut interior = 0;
    for (at, ch) in MULTIBYTE.char_indices() {
        for k in 1..ch.len_utf8() {
            interior += 1;
            assert_eq!(
                run(Format::Auto, Limits::new(), &cut(text, &[at + k])),
                whole
            );
            // And a 4-byte character cut into all of its bytes at once.
            let points: Vec<usize> = (1..ch.len_utf8()).map(|j| at + j).collect();
            assert_eq!(run(Format::Auto, Limits::new(), &cut(text, &points)), whole);
        }
    }
    assert!(interior > 50);
}

#[test]
fn ndjson_every_pair_of_splits() {
    let out = assert_split_invariant(Format::Auto, Limits::new(), NDJSON, usize::MAX);
    assert_eq!(out.format, Format::Ndjson);
    assert_eq!(out.frames, reference_ndjson(NDJSON));
    let data: Vec<&str> = out.frames.iter().map(|f| f.data.as_str()).collect();
    assert_eq!(
        data,
        [
            "{\"object\":\"response\",\"status\":\"created\"}",
            "{\"text\":\"中😀\"}",
            "[1,2]"
        ]
    );
    assert_eq!(
        assert_split_invariant(Format::Ndjson, Limits::new(), NDJSON, 0),
        out
    );
}

#[test]
fn invalid_utf8_same_error_for_every_split() {
    let input = b"data: ok\n\ndata: one\ndata: \xE4\xB8(\n\ndata: never\n\n";
    let out = assert_split_invariant(Format::Auto, Limits::new(), input, usize::MAX);
    assert_eq!(out.frames.len(), 1);
    assert_eq!(out.error, Some((ErrorCode::InvalidUtf8, Some(20))));
    let input = b"{}\n{\"a\":\"\xF0\x9F\x98\"}\n{}\n";
    let out = assert_split_invariant(Format::Auto, Limits::new(), input, usize::MAX);
    assert_eq!(out.frames.len(), 1);
    assert_eq!(out.error, Some((ErrorCode::InvalidUtf8, Some(3))));
}

#[test]
fn event_too_large_same_error_for_every_split() {
    let limits = Limits::new().with_max_event_bytes(16).unwrap();
    // The second event spans 17 bytes: "data: 12345678\r\n" + "d" — over by one.
    let input = b"data: ok\r\n\r\ndata: 12345678\r\ndata: x\r\n\r\n";
    let out = assert_split_invariant(Format::Auto, limits, input, usize::MAX);
    assert_eq!(out.frames.len(), 1);
    assert_eq!(out.error, Some((ErrorCode::EventTooLarge, Some(12))));
    // Exactly 16 bytes of event passes, whatever the split (the CR of the CRLF is not content).
    let input = b"data: 0123456789\r\n\r\n";
    let out = assert_split_invariant(Format::Auto, limits, input, usize::MAX);
    assert_eq!((out.frames.len(), out.error), (1, None));
    let input = b"{\"a\":\"12345678901\"}\r\n";
    let out = assert_split_invariant(Format::Ndjson, limits, input, usize::MAX);
    assert_eq!(out.error, Some((ErrorCode::EventTooLarge, Some(0))));
    let input = b"{\"a\":\"12345678\"}\r\n";
    let out = assert_split_invariant(Format::Ndjson, limits, input, usize::MAX);
    assert_eq!((out.frames.len(), out.error), (1, None));
}

// ----- Property tests -----

/// Text pieces for values: ASCII, JSON punctuation, multi-byte characters, ZWJ emoji, colons,
/// spaces, NUL.
fn value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a",
            "Z",
            "0",
            "42",
            " ",
            "  ",
            ":",
            "{\"k\":",
            "\"v\"}",
            "é",
            "中",
            "😀",
            "👩‍👩‍👧",
            "\u{0}",
            "\t",
        ]),
        0..5,
    )
    .prop_map(|parts| parts.concat())
}

/// One SSE line (without terminator).
fn sse_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => value().prop_map(|v| format!("data: {v}")),
        1 => value().prop_map(|v| format!("data:{v}")),
        1 => Just("data".to_owned()),
        1 => value().prop_map(|v| format!("event: {v}")),
        1 => value().prop_map(|v| format!("id: {v}")),
        1 => prop::sample::select(vec!["retry: 100", "retry: 1x", "retry:", "retry: 25"]).prop_map(str::to_owned),
        1 => value().prop_map(|v| format!(":{v}")),
        1 => value().prop_map(|v| format!("x-unknown: {v}")),
        3 => Just(String::new()),
    ]
}

fn eol() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["\n", "\r", "\r\n"])
}

/// A whole SSE stream, optionally with a BOM, optionally without a final line terminator.
fn sse_stream() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<bool>(),
        prop::collection::vec((sse_line(), eol()), 0..24),
        any::<bool>(),
    )
        .prop_map(|(bom, lines, trailing)| {
            let mut out = if bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            let count = lines.len();
            for (i, (line, eol)) in lines.into_iter().enumerate() {
                out.extend_from_slice(line.as_bytes());
                if trailing || i + 1 < count {
                    out.extend_from_slice(eol.as_bytes());
                }
            }
            out
        })
}

fn ndjson_stream() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        4 => value().prop_map(|v| format!("{{\"v\":\"{v}\"}}")),
        1 => value().prop_map(|v| format!("[\"{v}\"]")),
        1 => prop::sample::select(vec!["", " ", "\t \r"]).prop_map(str::to_owned),
    ];
    let eol = prop::sample::select(vec!["\n", "\r\n"]);
    (
        any::<bool>(),
        prop::collection::vec((line, eol), 0..16),
        any::<bool>(),
    )
        .prop_map(|(bom, lines, trailing)| {
            let mut out = if bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            let count = lines.len();
            for (i, (line, eol)) in lines.into_iter().enumerate() {
                out.extend_from_slice(line.as_bytes());
                if trailing || i + 1 < count {
                    out.extend_from_slice(eol.as_bytes());
                }
            }
            out
        })
}

/// Random cut points for an input of length `len`, from fractions.
fn points(len: usize, fractions: &[f64]) -> Vec<usize> {
    let mut p: Vec<usize> = fractions
        .iter()
        .map(|f| ((len as f64) * f) as usize)
        .collect();
    p.sort_unstable();
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn sse_any_chunking_matches_reference(
        input in sse_stream(),
        fractions in prop::collection::vec(0.0f64..1.0, 0..12),
        size in 1usize..9,
    ) {
        let want = reference_sse(&input);
        let whole = run(Format::Sse, Limits::new(), &[&input]);
        prop_assert_eq!(&whole.frames, &want);
        prop_assert_eq!(whole.error, None);
        let chunks = cut(&input, &points(input.len(), &fractions));
        prop_assert_eq!(&run(Format::Sse, Limits::new(), &chunks), &whole);
        let sized: Vec<&[u8]> = input.chunks(size).collect();
        prop_assert_eq!(&run(Format::Sse, Limits::new(), &sized), &whole);
        // Auto detection agrees whenever it picks SSE.
        let auto = run(Format::Auto, Limits::new(), &chunks);
        if auto.format == Format::Sse {
            prop_assert_eq!(&auto.frames, &want);
        }
    }

    #[test]
    fn ndjson_any_chunking_matches_reference(
        input in ndjson_stream(),
        fractions in prop::collection::vec(0.0f64..1.0, 0..12),
    ) {
        let want = reference_ndjson(&input);
        let chunks = cut(&input, &points(input.len(), &fractions));
        let got = run(Format::Auto, Limits::new(), &chunks);
        prop_assert_eq!(&got.frames, &want);
        prop_assert_eq!(got.error, None);
        if !want.is_empty() {
            prop_assert_eq!(got.format, Format::Ndjson);
        }
        let one = run(Format::Ndjson, Limits::new(), &[&input]);
        prop_assert_eq!(&one.frames, &want);
    }

    #[test]
    fn limits_and_errors_are_split_invariant(
        input in sse_stream(),
        max in 1usize..40,
        fractions in prop::collection::vec(0.0f64..1.0, 0..8),
    ) {
        let limits = Limits::new().with_max_event_bytes(max).unwrap();
        let whole = run(Format::Sse, limits, &[&input]);
        let chunks = cut(&input, &points(input.len(), &fractions));
        prop_assert_eq!(&run(Format::Sse, limits, &chunks), &whole);
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        prop_assert_eq!(&run(Format::Sse, limits, &bytes), &whole);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_are_split_invariant(
        input in prop::collection::vec(prop::sample::select(vec![
            b'd', b'a', b't', b':', b' ', b'\r', b'\n', b'{', 0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0xFF, 0x00,
        ]), 0..64),
        fractions in prop::collection::vec(0.0f64..1.0, 0..8),
        max in 1usize..32,
    ) {
        let limits = Limits::new().with_max_event_bytes(max).unwrap();
        for format in [Format::Auto, Format::Sse, Format::Ndjson] {
            let whole = run(format, limits, &[&input]);
            let chunks = cut(&input, &points(input.len(), &fractions));
            prop_assert_eq!(&run(format, limits, &chunks), &whole);
        }
    }
}
