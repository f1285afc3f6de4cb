use super::*;
use serde_json::json;

#[test]
fn the_depth_reason_names_the_limit() {
    assert!(TOO_DEEP.contains(&format!(" {MAX_DEPTH} ")));
}

#[test]
fn arguments_error_agrees_with_serde_json() {
    for text in [
        r#"{"a": 1}"#,
        r#"{"path": "notes/a.txt", "recursive": tr"#,
        r#"{"a": [1, 2, {"b": null}], "c": "\u00e9\n"}"#,
        "[1, 2,]",
        "{\"a\": \"line\nbreak\"}",
        "{\"a\": \"tab\there\"}",
        r#"{"a": 01}"#,
        r#"{"a": -}"#,
        r#"{"a": 1.}"#,
        r#"{"a": 1e5} "#,
        r#"{"a": 1} x"#,
        r#""just a string""#,
        "42",
        "-0.5e-3",
        "nul",
        "null",
        r#"{"a" 1}"#,
        r#"{"a": "\x"}"#,
        r#"{"a": "\ud83d\ude00"}"#,
        "{}",
        "[]",
        "{",
        "}",
    ] {
        let ours = arguments_error(text).is_none();
        let theirs = serde_json::from_str::<Value>(text).is_ok();
        assert_eq!(ours, theirs, "{text:?}: {:?}", arguments_error(text));
    }
    assert_eq!(arguments_error("  "), None, "blank arguments mean none");
    let deep = format!(
        "{}1{}",
        "[".repeat(MAX_DEPTH + 1),
        "]".repeat(MAX_DEPTH + 1)
    );
    assert!(arguments_error(&deep).unwrap().contains("deeper than"));
    let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert_eq!(arguments_error(&ok), None);
}

fn parse_in_pieces(text: &str, piece: usize) -> PartialJson {
    let mut p = PartialJson::new();
    let chars: Vec<char> = text.chars().collect();
    for chunk in chars.chunks(piece) {
        p.push(&chunk.iter().collect::<String>());
    }
    p
}

/// Apply ops the way a JavaScript mirror would.
fn apply(mirror: &mut Option<Value>, ops: Vec<Op>) {
    for op in ops {
        match op {
            Op::Set { path, value } => {
                let (last, parent) = match path.split_last() {
                    None => {
                        *mirror = Some(value);
                        continue;
                    }
                    Some((last, parent)) => (last.clone(), parent.to_vec()),
                };
                place(mirror, &parent, Some(last), value);
            }
            Op::Append { path, text } => {
                if let Some(Value::String(s)) = node_mut(mirror, &path, None) {
                    s.push_str(&text);
                } else {
                    panic!("append to a non-string at {path:?}");
                }
            }
        }
    }
}

const SAMPLES: &[&str] = &[
    r#"{"city": "Hangzhou", "days": 3, "units": "metric"}"#,
    r#"{"a":[1,2.5,-3e2,{"b":null,"c":[true,false]}],"s":"x\"y\\z\n\u00e9\ud83d\ude00"}"#,
    r#"[ {"k": ""}, [], {}, "", 0, -0.5 ]"#,
    r#"{"nested":{"deeper":{"deepest":["中文", "emoji 😀", "\u4e2d"]}}}"#,
    r#""just a string""#,
    "12345",
    "true",
];

#[test]
fn complete_texts_equal_serde_json_at_every_piece_size() {
    for sample in SAMPLES {
        let expected: Value = serde_json::from_str(sample).unwrap();
        for piece in 1..=sample.chars().count() {
            let p = parse_in_pieces(sample, piece);
            assert!(p.is_complete(), "{sample} in pieces of {piece}");
            // Numbers compared by value: the lite build keeps serde_json's as text.
            let value = p.value().unwrap_or_default();
            assert!(
                crate::protocol::json_eq(&value, &expected),
                "{sample} / {piece}: {value}"
            );
        }
    }
}

#[test]
fn every_prefix_gives_a_best_effort_value() {
    let text = r#"{"city": "Hang", "n": -12.5e1, "ok": true, "list": [1, "tw"#;
    let mut p = PartialJson::new();
    let mut values = Vec::new();
    for c in text.chars() {
        p.push(&c.to_string());
        values.push(p.value());
    }
    assert_eq!(values.first().cloned().flatten(), Some(json!({})));
    // Numbers compared by value: the lite build keeps them as text.
    let last = p.value().unwrap_or_default();
    let expected = json!({"city": "Hang", "n": -125.0, "ok": true, "list": [1, "tw"]});
    assert!(crate::protocol::json_eq(&last, &expected), "{last}");
    assert!(!p.is_complete());
    assert!(!p.is_invalid());
}

#[test]
fn best_effort_rules() {
    let cases: &[(&str, Option<Value>)] = &[
        ("", None),
        ("-", None),
        ("-1", Some(json!(-1))),
        ("1.", Some(json!(1))),
        ("1.5e", Some(json!(1.5))),
        ("t", Some(json!(true))),
        ("nu", Some(json!(null))),
        ("{\"ke", Some(json!({}))),
        ("{\"key\"", Some(json!({}))),
        ("{\"key\":", Some(json!({}))),
        ("{\"key\": \"", Some(json!({"key": ""}))),
        ("{\"key\": \"a\\", Some(json!({"key": "a"}))),
        ("{\"key\": \"a\\u00", Some(json!({"key": "a"}))),
        ("{\"key\": \"a\\u00e9", Some(json!({"key": "aé"}))),
        ("{\"k\": [1, 2", Some(json!({"k": [1, 2]}))),
        (
            "{\"k\": [1, {\"x\": f",
            Some(json!({"k": [1, {"x": false}]})),
        ),
    ];
    for (text, expected) in cases {
        let mut p = PartialJson::new();
        p.push(text);
        assert_eq!(&p.value(), expected, "{text:?}");
    }
}

#[test]
fn invalid_text_keeps_what_came_before() {
    let mut p = PartialJson::new();
    p.push(r#"{"a": 1, "b": tx"#);
    assert!(p.is_invalid());
    assert_eq!(p.value(), Some(json!({"a": 1})));
    p.push("more");
    assert!(p.is_invalid());
    let mut trailing = PartialJson::new();
    trailing.push("{} x");
    assert!(trailing.is_invalid());
    let mut ws = PartialJson::new();
    ws.push(" {} \n");
    assert!(ws.is_complete());
}

#[test]
fn texts_json_refuses_are_invalid() {
    // Numbers that no character can complete, whitespace JSON does not have, and control
    // characters inside strings and keys: serde_json and `JSON.parse` refuse them all.
    for text in [
        "3-",
        "01",
        "-01",
        "1..",
        "1.e5",
        "1e5.",
        "1e+-2",
        "--1",
        "0x1",
        "[1, 2-",
        "{\"a\": 00",
        "\u{c}1",
        "1\u{b}",
        "[\u{c}]",
        "\"a\u{0}\"",
        "\"a\nb\"",
        "{\"k\u{1f}\": 1}",
        "[\"\t\"]",
    ] {
        let mut p = PartialJson::new();
        p.push(text);
        assert!(p.is_invalid(), "{text:?}");
        assert!(!p.is_complete(), "{text:?}");
        assert!(arguments_error(text).is_some(), "{text:?}");
    }
    // Unfinished, not invalid.
    for text in ["-", "1.", "1e", "1E+", "-0.", "[0", "\"a\\"] {
        let mut p = PartialJson::new();
        p.push(text);
        assert!(!p.is_invalid() && !p.is_complete(), "{text:?}");
    }
    for text in [
        "-0",
        "0",
        "0.5e-3",
        "10E+2",
        " \t\r\n[1]\n",
        "\"\\u0007 \\t\"",
    ] {
        let mut p = PartialJson::new();
        p.push(text);
        assert!(p.is_complete(), "{text:?}");
    }
}

#[test]
fn arguments_past_the_double_range_are_unusable() {
    // As the event reader and the preview parser read them (`src/protocol/mod.rs`).
    for text in ["1e400", "[1e400]", r#"{"a": -1e309}"#] {
        assert!(arguments_error(text).is_some(), "{text}");
    }
    for text in ["1e308", "[1e-400]", r#"{"a": "1e400"}"#] {
        assert_eq!(arguments_error(text), None, "{text}");
    }
}

#[test]
fn only_json_whitespace_is_blank_arguments() {
    assert_eq!(arguments_error(""), None);
    assert_eq!(arguments_error(" \t\r\n"), None);
    // Not JSON whitespace: `JSON.parse` refuses these, so they are not "no arguments".
    for text in ["\u{b}", "\u{c}", "\u{a0}", "\u{2028}", " \u{3000} "] {
        assert!(arguments_error(text).is_some(), "{text:?}");
    }
}

#[test]
fn lone_surrogates_become_replacement_characters() {
    let mut p = PartialJson::new();
    p.push(r#"["\ud800x", "\udc00", "\ud800\ud83d\ude00"]"#);
    assert_eq!(
        p.value(),
        Some(json!(["\u{FFFD}x", "\u{FFFD}", "\u{FFFD}😀"]))
    );
}

#[test]
fn ops_mirror_the_value_after_every_piece() {
    for sample in SAMPLES.iter().chain(&[r#"{"a": tru"#, r#"[1, 2"#]) {
        let mut p = PartialJson::new();
        let mut mirror = None;
        for c in sample.chars() {
            p.push(&c.to_string());
            let ops = p.take_ops();
            apply(&mut mirror, ops);
            let expected = p.value().unwrap_or(Value::Null);
            assert_eq!(mirror.clone().unwrap_or(Value::Null), expected, "{sample}");
        }
    }
}

#[test]
fn ops_drop_an_unfinished_scalar_when_the_text_turns_invalid() {
    for (start, rest) in [
        ("f", "\u{0}"),
        (r#"{"a": 1, "b": t"#, "x"),
        (r#"[1.5e"#, "]"),
        (r#"{"a": [nu"#, " "),
        (r#"{"a": {"b": -"#, "}"),
    ] {
        let mut p = PartialJson::new();
        let mut mirror = None;
        p.push(start);
        apply(&mut mirror, p.take_ops());
        p.push(rest);
        assert!(p.is_invalid(), "{start}{rest}");
        apply(&mut mirror, p.take_ops());
        assert_eq!(
            mirror.unwrap_or(Value::Null),
            p.value().unwrap_or(Value::Null),
            "{start}{rest}"
        );
    }
}

#[test]
fn an_unfinished_number_past_the_double_range_keeps_its_place() {
    // `1e40` is a number, `1e400` is not (a double overflows): it shows as `null` until it
    // ends, then the text is invalid. A long mantissa comes back with its exponent.
    let long = format!("[1{}", "0".repeat(400));
    let cases: [&[(&str, Value)]; 2] = [
        &[
            ("[1e40", json!([1e40])),
            ("0", json!([null])),
            ("]", json!([])),
        ],
        &[
            (&long, json!([null])),
            ("e-400", json!([1.0])),
            ("]", json!([1.0])),
        ],
    ];
    for steps in cases {
        let mut p = PartialJson::new();
        let mut mirror = None;
        for (piece, expected) in steps {
            p.push(piece);
            apply(&mut mirror, p.take_ops());
            let value = p.value().unwrap_or(Value::Null);
            assert_eq!(mirror.clone().unwrap_or(Value::Null), value, "{piece}");
            if cfg!(feature = "client") {
                assert!(
                    crate::protocol::json_eq(&value, expected),
                    "{piece}: {value}"
                );
            }
        }
    }
}

#[test]
fn ops_start_with_the_whole_value_and_coalesce_appends() {
    let mut p = PartialJson::new();
    p.push(r#"{"text": "ab"#);
    assert_eq!(
        p.take_ops(),
        vec![Op::Set {
            path: vec![],
            value: json!({"text": "ab"})
        }]
    );
    p.push("c");
    p.push("d");
    assert_eq!(
        p.take_ops(),
        vec![Op::Append {
            path: vec![PathSegment::Key("text".into())],
            text: "cd".into()
        }]
    );
    assert!(p.take_ops().is_empty());
}

#[test]
fn reset_starts_over_for_mirrors() {
    let mut p = PartialJson::new();
    p.push(r#"{"a": 1}"#);
    let mut mirror = None;
    apply(&mut mirror, p.take_ops());
    p.reset();
    p.push(r#"{"b": 2"#);
    apply(&mut mirror, p.take_ops());
    assert_eq!(mirror, Some(json!({"b": 2})));
}

#[test]
fn work_is_linear_in_the_input() {
    // A long string value arriving one character at a time: each push appends to the tree
    // in place, so the tree's string grows by exactly the bytes pushed.
    let mut p = PartialJson::new();
    p.push(r#"{"text": ""#);
    for _ in 0..20_000 {
        p.push("x");
        let _ = p.take_ops();
    }
    assert_eq!(p.len(), 10 + 20_000);
    match p.value() {
        Some(Value::Object(map)) => {
            assert_eq!(
                map.get("text").and_then(Value::as_str).map(str::len),
                Some(20_000)
            )
        }
        other => panic!("unexpected {other:?}"),
    }
}
