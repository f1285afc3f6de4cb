//! Unit tests of the builder: every state transition, every misuse (an error, nothing emitted,
//! the state unchanged, the next valid call still working), wire shapes, the encoder seam.

use serde_json::{json, Value};

use super::*;
use crate::codec::{Format, Frame, FrameDecoder};
use crate::protocol::{
    parse_event, ContentType, ErrorInfo, Event, FixedClock, JsonMap, Role, RunStatus,
};
use crate::{Error, ErrorCode, Result};

pub(super) const T0: i64 = 1_700_000_000;

pub(super) fn opts() -> BuilderOptions {
    BuilderOptions::new()
        .response_id("resp_1")
        .session_id("s1")
        .clock(FixedClock(T0))
}

pub(super) fn rb() -> ResponseBuilder {
    ResponseBuilder::new(opts()).unwrap()
}

pub(super) fn map(v: Value) -> JsonMap {
    v.as_object().cloned().unwrap()
}

pub(super) fn decode(bytes: &[u8], format: Format) -> Vec<Event> {
    let mut events = Vec::new();
    let mut d = FrameDecoder::new(format);
    d.push(bytes, |f: Frame<'_>| {
        events.push(parse_event(f.data()).unwrap());
        Ok(())
    })
    .unwrap();
    d.finish(|_| Ok(())).unwrap();
    events
}

pub(super) fn events(bytes: &[u8]) -> Vec<Event> {
    decode(bytes, Format::Sse)
}

/// `(object, status)` of each event, e.g. `"content:in_progress+"` for a delta.
pub(super) fn kinds(bytes: &[u8]) -> Vec<String> {
    events(bytes)
        .iter()
        .map(|e| match e {
            Event::Response(r) => format!("response:{}", r.status),
            Event::Message(m) => format!("message:{}", m.status),
            Event::Content(c) => format!(
                "content:{}{}",
                c.status.as_ref().map_or("null", |s| s.as_str()),
                if c.delta == Some(true) { "+" } else { "" }
            ),
            other => format!("{other:?}"),
        })
        .collect()
}

/// Asserts that `f` fails with `code`, emits nothing and leaves the builder as it was, then
/// returns the error.
pub(super) fn misuse<T: std::fmt::Debug>(
    rb: &mut ResponseBuilder,
    code: ErrorCode,
    f: impl FnOnce(&mut ResponseBuilder) -> Result<T>,
) -> Error {
    let before = format!("{rb:?}");
    let err = f(rb).unwrap_err();
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(format!("{rb:?}"), before, "state changed by a failing call");
    err
}

pub(super) fn state(
    rb: &mut ResponseBuilder,
    f: impl FnOnce(&mut ResponseBuilder) -> Result<Vec<u8>>,
) {
    misuse(rb, ErrorCode::BuilderState, f);
}

// ----- run lifecycle ----------------------------------------------------------------------

#[test]
fn lifecycle_in_order() {
    let mut rb = rb();
    let mut body = rb.created().unwrap();
    state(&mut rb, |rb| rb.created());
    body.extend(rb.in_progress().unwrap());
    state(&mut rb, |rb| rb.in_progress());
    state(&mut rb, |rb| rb.created());
    body.extend(rb.completed(CompleteOptions::new()).unwrap());
    assert_eq!(
        String::from_utf8(body).unwrap(),
        concat!(
            r#"data: {"sequence_number":0,"object":"response","status":"created","error":null,"id":"resp_1","created_at":1700000000,"completed_at":null,"output":[],"usage":null,"session_id":"s1"}"#,
            "\n\n",
            r#"data: {"sequence_number":1,"object":"response","status":"in_progress","error":null,"id":"resp_1","created_at":1700000000,"completed_at":null,"output":[],"usage":null,"session_id":"s1"}"#,
            "\n\n",
            r#"data: {"sequence_number":2,"object":"response","status":"completed","error":null,"id":"resp_1","created_at":1700000000,"completed_at":1700000000,"output":[],"usage":null,"session_id":"s1"}"#,
            "\n\n",
        )
    );
    assert!(rb.is_finished());
}

#[test]
fn in_progress_first_emits_created() {
    let mut rb = rb();
    assert_eq!(
        kinds(&rb.in_progress().unwrap()),
        ["response:created", "response:in_progress"]
    );
}

#[test]
fn terminal_first_emits_the_lifecycle() {
    for t in 0..3 {
        let mut rb = rb();
        let out = match t {
            0 => rb.completed(CompleteOptions::new()),
            1 => rb.failed(ErrorInfo::new("E", "boom")),
            _ => rb.canceled(),
        }
        .unwrap();
        let k = kinds(&out);
        assert_eq!(k.len(), 3);
        assert_eq!(&k[..2], ["response:created", "response:in_progress"]);
    }
}

#[test]
fn everything_after_a_terminal_event_is_refused() {
    for t in 0..3 {
        let mut rb = rb();
        let m = rb.message(MessageOptions::new()).unwrap();
        let c = rb.content(m, ContentType::Text).unwrap();
        rb.delta_text(c, "x").unwrap();
        let out = match t {
            0 => rb
                .completed(CompleteOptions::new().close_open(true))
                .unwrap(),
            1 => rb.failed(ErrorInfo::new("E", "boom")).unwrap(),
            _ => rb.canceled().unwrap(),
        };
        assert!(!out.is_empty());
        let n = rb.next_sequence_number();
        state(&mut rb, |rb| rb.created());
        state(&mut rb, |rb| rb.in_progress());
        state(&mut rb, |rb| rb.completed(CompleteOptions::new()));
        state(&mut rb, |rb| {
            rb.completed(CompleteOptions::new().close_open(true))
        });
        state(&mut rb, |rb| rb.failed(ErrorInfo::new("E", "again")));
        state(&mut rb, |rb| rb.canceled());
        misuse(&mut rb, ErrorCode::BuilderState, |rb| {
            rb.message(MessageOptions::new())
        });
        state(&mut rb, |rb| rb.start_message(m));
        misuse(&mut rb, ErrorCode::BuilderState, |rb| {
            rb.content(m, ContentType::Text)
        });
        state(&mut rb, |rb| rb.delta_text(c, "y"));
        state(&mut rb, |rb| rb.set(c, "y".into()));
        state(&mut rb, |rb| rb.complete_content(c));
        state(&mut rb, |rb| rb.complete_message(m));
        misuse(&mut rb, ErrorCode::BuilderState, |rb| {
            rb.set_message_usage(m, JsonMap::new())
        });
        misuse(&mut rb, ErrorCode::BuilderState, |rb| {
            rb.function_call("c", "f")
        });
        state(&mut rb, |rb| {
            rb.tool_output(ToolOutputOptions::new(ToolKind::Function, "c", "o"))
        });
        assert_eq!(rb.next_sequence_number(), n);
    }
}

// ----- messages ---------------------------------------------------------------------------

#[test]
fn message_start_and_complete() {
    let mut rb = rb();
    let m = rb
        .message(MessageOptions::new().id("msg_1").role(Some(Role::User)))
        .unwrap();
    assert_eq!(rb.message_id(m).unwrap(), "msg_1");
    let out = rb.start_message(m).unwrap();
    assert_eq!(
        kinds(&out),
        [
            "response:created",
            "response:in_progress",
            "message:in_progress"
        ]
    );
    assert!(String::from_utf8(out).unwrap().ends_with(
        "data: {\"sequence_number\":2,\"object\":\"message\",\"status\":\"in_progress\",\"error\":null,\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"user\",\"content\":null,\"code\":null,\"message\":null,\"usage\":null,\"metadata\":null}\n\n"
    ));
    state(&mut rb, |rb| rb.start_message(m));
    let out = rb.complete_message(m).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "data: {\"sequence_number\":3,\"object\":\"message\",\"status\":\"completed\",\"error\":null,\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"user\",\"content\":null,\"code\":null,\"message\":null,\"usage\":null,\"metadata\":null}\n\n"
    );
    state(&mut rb, |rb| rb.complete_message(m));
    state(&mut rb, |rb| rb.start_message(m));
    misuse(&mut rb, ErrorCode::BuilderState, |rb| {
        rb.content(m, ContentType::Text)
    });
    misuse(&mut rb, ErrorCode::BuilderState, |rb| {
        rb.set_message_usage(m, JsonMap::new())
    });
    assert_eq!(rb.message_id(m).unwrap(), "msg_1");
    // The next valid call still works.
    assert_eq!(
        kinds(&rb.completed(CompleteOptions::new()).unwrap()),
        ["response:completed"]
    );
    assert_eq!(rb.response().output.as_ref().unwrap().len(), 1);
}

#[test]
fn complete_message_without_start_auto_starts() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::reasoning()).unwrap();
    assert_eq!(
        kinds(&rb.complete_message(m).unwrap()),
        [
            "response:created",
            "response:in_progress",
            "message:in_progress",
            "message:completed"
        ]
    );
}

#[test]
fn duplicate_message_id_is_refused() {
    let mut rb = rb();
    rb.message(MessageOptions::new().id("m")).unwrap();
    misuse(&mut rb, ErrorCode::BuilderState, |rb| {
        rb.message(MessageOptions::new().id("m"))
    });
    rb.message(MessageOptions::new().id("m2")).unwrap();
}

#[test]
fn handles_of_another_builder_are_refused() {
    let mut a = rb();
    let mut b = rb();
    let ma = a.message(MessageOptions::new()).unwrap();
    let ca = a.content(ma, ContentType::Text).unwrap();
    b.message(MessageOptions::new()).unwrap();
    let err = misuse(&mut b, ErrorCode::BuilderState, |b| {
        b.content(ma, ContentType::Text)
    });
    assert!(err.message().contains("another ResponseBuilder"), "{err}");
    state(&mut b, |b| b.delta_text(ca, "x"));
    state(&mut b, |b| b.start_message(ma));
    assert!(b.message_id(ma).is_err());
}

#[test]
fn complete_message_with_an_open_part_is_refused() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new()).unwrap();
    let c0 = rb.content(m, ContentType::Text).unwrap();
    let c1 = rb.content(m, ContentType::Data).unwrap();
    assert_eq!((c0.index(), c1.index()), (0, 1));
    assert_eq!(c1.message(), m);
    rb.delta_text(c0, "a").unwrap();
    rb.complete_content(c0).unwrap();
    let err = misuse(&mut rb, ErrorCode::BuilderState, |rb| {
        rb.complete_message(m)
    });
    assert!(err.message().contains("Content 1"), "{err}");
    rb.complete_content(c1).unwrap();
    rb.complete_message(m).unwrap();
}

#[test]
fn completed_with_an_open_message_is_refused_unless_close_open() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new().id("m")).unwrap();
    // Pending (nothing emitted yet) counts as open.
    let err = misuse(&mut rb, ErrorCode::BuilderState, |rb| {
        rb.completed(CompleteOptions::new())
    });
    assert!(err.message().contains("Message m is still open"), "{err}");
    let c = rb.content(m, ContentType::Text).unwrap();
    rb.delta_text(c, "Hi").unwrap();
    state(&mut rb, |rb| rb.completed(CompleteOptions::new()));
    let m2 = rb.message(MessageOptions::new()).unwrap();
    rb.content(m2, ContentType::Data).unwrap();
    let out = rb
        .completed(CompleteOptions::new().close_open(true))
        .unwrap();
    assert_eq!(
        kinds(&out),
        [
            "content:completed",
            "message:completed",
            "message:in_progress",
            "content:completed",
            "message:completed",
            "response:completed"
        ]
    );
    let output = rb.response().output.clone().unwrap();
    assert_eq!(output.len(), 2);
    assert_eq!(output[0].get_text_content(), Some("Hi"));
    assert_eq!(output[1].content.as_ref().unwrap()[0].as_data(), None);
}

#[test]
fn failed_and_canceled_leave_open_messages_open() {
    for cancel in [false, true] {
        let mut rb = rb();
        let done = rb.message(MessageOptions::new()).unwrap();
        rb.complete_message(done).unwrap();
        let open = rb.message(MessageOptions::new()).unwrap();
        let c = rb.content(open, ContentType::Text).unwrap();
        rb.delta_text(c, "x").unwrap();
        let out = if cancel {
            rb.canceled().unwrap()
        } else {
            rb.failed(ErrorInfo::new("AGENT_ERROR", "boom")).unwrap()
        };
        let ev = events(&out);
        assert_eq!(ev.len(), 1);
        let Event::Response(r) = &ev[0] else {
            panic!("not a response")
        };
        assert_eq!(r.output.as_ref().unwrap().len(), 1);
        assert_eq!(r.completed_at, None);
        if cancel {
            assert_eq!(r.status, RunStatus::Canceled);
            assert_eq!(r.error, None);
        } else {
            assert_eq!(r.status, RunStatus::Failed);
            assert_eq!(r.error, Some(ErrorInfo::new("AGENT_ERROR", "boom")));
        }
    }
}

#[test]
fn usage_defaults_to_the_last_completed_message() {
    let usage = map(json!({"input_tokens": 3, "output_tokens": 5}));
    let mut rb = rb();
    let m1 = rb
        .message(MessageOptions::new().usage(map(json!({"x": 1}))))
        .unwrap();
    let m2 = rb.message(MessageOptions::new()).unwrap();
    rb.set_message_usage(m2, usage.clone()).unwrap();
    rb.complete_message(m1).unwrap();
    rb.complete_message(m2).unwrap();
    rb.completed(CompleteOptions::new()).unwrap();
    assert_eq!(rb.response().usage, Some(usage.clone()));
    // Explicit usage wins.
    let mut rb2 = self::rb();
    let m = rb2.message(MessageOptions::new().usage(usage)).unwrap();
    rb2.complete_message(m).unwrap();
    rb2.completed(CompleteOptions::new().usage(map(json!({"total": 9}))))
        .unwrap();
    assert_eq!(rb2.response().usage, Some(map(json!({"total": 9}))));
    // Failed: the runner's rule too; no completed message: null.
    let mut rb3 = self::rb();
    rb3.failed(ErrorInfo::new("E", "m")).unwrap();
    assert_eq!(rb3.response().usage, None);
}

// ----- content ----------------------------------------------------------------------------

#[test]
fn first_content_event_auto_starts_everything() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new().id("msg_1")).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    let out = rb.delta_text(c, "Hi").unwrap();
    assert_eq!(
        kinds(&out),
        [
            "response:created",
            "response:in_progress",
            "message:in_progress",
            "content:in_progress+"
        ]
    );
    state(&mut rb, |rb| rb.start_message(m));
    state(&mut rb, |rb| rb.created());
    state(&mut rb, |rb| rb.in_progress());
    assert_eq!(
        kinds(&rb.delta_text(c, "!").unwrap()),
        ["content:in_progress+"]
    );
}

#[test]
fn text_part_lifecycle_and_wire() {
    let mut rb = rb();
    rb.in_progress().unwrap();
    let m = rb.message(MessageOptions::new().id("msg_1")).unwrap();
    rb.start_message(m).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    let d = rb.delta_text(c, "Hel").unwrap();
    assert_eq!(
        String::from_utf8(d).unwrap(),
        "data: {\"sequence_number\":3,\"object\":\"content\",\"status\":\"in_progress\",\"error\":null,\"type\":\"text\",\"index\":0,\"delta\":true,\"msg_id\":\"msg_1\",\"text\":\"Hel\"}\n\n"
    );
    rb.delta(c, ContentValue::Text("lo")).unwrap();
    let done = rb.complete_content(c).unwrap();
    assert_eq!(
        String::from_utf8(done).unwrap(),
        "data: {\"sequence_number\":5,\"object\":\"content\",\"status\":\"completed\",\"error\":null,\"type\":\"text\",\"index\":0,\"delta\":false,\"msg_id\":\"msg_1\",\"text\":\"Hello\"}\n\n"
    );
    state(&mut rb, |rb| rb.delta_text(c, "late"));
    state(&mut rb, |rb| rb.set(c, "late".into()));
    state(&mut rb, |rb| rb.complete_content(c));
    let msg = rb.complete_message(m).unwrap();
    assert!(String::from_utf8(msg).unwrap().contains(
        "\"content\":[{\"sequence_number\":null,\"object\":\"content\",\"status\":\"completed\",\"error\":null,\"type\":\"text\",\"index\":0,\"delta\":false,\"msg_id\":\"msg_1\",\"text\":\"Hello\"}]"
    ));
    // Content after the message completed.
    state(&mut rb, |rb| rb.delta_text(c, "x"));
    let fin = rb.completed(CompleteOptions::new()).unwrap();
    let ev = events(&fin);
    let Event::Response(r) = &ev[0] else { panic!() };
    assert_eq!(r.sequence_number, Some(7));
    assert_eq!(r.output.as_ref().unwrap()[0].sequence_number, None);
    assert_eq!(
        r.output.as_ref().unwrap()[0].get_text_content(),
        Some("Hello")
    );
}

#[test]
fn set_replaces_and_later_deltas_append() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new()).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    rb.delta_text(c, "dropped").unwrap();
    let out = rb.set(c, "A".into()).unwrap();
    let ev = events(&out);
    let Event::Content(snap) = ev.last().unwrap() else {
        panic!()
    };
    assert_eq!(
        (snap.delta, snap.status.clone(), snap.as_text()),
        (Some(false), Some(RunStatus::InProgress), Some("A"))
    );
    rb.delta_text(c, "B").unwrap();
    let ev = events(&rb.complete_content(c).unwrap());
    let Event::Content(done) = &ev[0] else {
        panic!()
    };
    assert_eq!(done.as_text(), Some("AB"));
}

#[test]
fn wrong_values_are_refused_without_effect() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new()).unwrap();
    let text = rb.content(m, ContentType::Text).unwrap();
    let data = rb.content(m, ContentType::Data).unwrap();
    let image = rb.content(m, ContentType::Image).unwrap();
    let file = rb.content(m, ContentType::File).unwrap();
    // Nothing was emitted yet: even the auto-start must not happen on a refused call.
    state(&mut rb, |rb| {
        rb.delta(text, ContentValue::Fields(map(json!({"text": "x"}))))
    });
    state(&mut rb, |rb| rb.delta(data, ContentValue::Text("x")));
    state(&mut rb, |rb| rb.set(data, ContentValue::Text("x")));
    state(&mut rb, |rb| rb.delta(image, ContentValue::Text("x")));
    state(&mut rb, |rb| {
        rb.delta(file, ContentValue::Fields(JsonMap::new()))
    });
    let e = misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.set(image, ContentValue::Fields(map(json!({"url": "x"}))))
    });
    assert_eq!(e.field(), Some("url"));
    misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.set(file, ContentValue::Fields(map(json!({"filename": 3}))))
    });
    assert_eq!(rb.next_sequence_number(), 0);
    // The next valid calls work.
    rb.set(image, "https://x/y.png".into()).unwrap();
    rb.set(
        file,
        ContentValue::Fields(map(json!({"filename": "a.txt", "file_id": "f1"}))),
    )
    .unwrap();
    let ev = events(&rb.complete_content(file).unwrap());
    assert_eq!(
        ev[0].to_json(),
        format!(
            "{{\"sequence_number\":5,\"object\":\"content\",\"status\":\"completed\",\"error\":null,\"type\":\"file\",\"index\":3,\"delta\":false,\"msg_id\":\"{}\",\"file_url\":null,\"file_id\":\"f1\",\"filename\":\"a.txt\",\"file_data\":null}}",
            rb.message_id(m).unwrap()
        )
    );
}

#[test]
fn values_deeper_than_max_depth_are_refused_without_effect() {
    let nested = |levels: usize| {
        let mut v = json!(1);
        for _ in 0..levels {
            v = json!({ "a": v });
        }
        map(v)
    };
    // An object of MAX_DEPTH levels is fine, one more is not: usage and metadata given to
    // `message`, `set_message_usage` and `completed`, data deltas and set values.
    let deep = nested(crate::MAX_DEPTH + 1);
    let mut rb = rb();
    for options in [
        MessageOptions::new().usage(deep.clone()),
        MessageOptions::new().metadata(deep.clone()),
    ] {
        misuse(&mut rb, ErrorCode::InvalidOption, |rb| rb.message(options));
    }
    let m = rb
        .message(MessageOptions::new().metadata(nested(crate::MAX_DEPTH)))
        .unwrap();
    let data = rb.content(m, ContentType::Data).unwrap();
    misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.delta(data, ContentValue::Fields(deep.clone()))
    });
    misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.set(data, ContentValue::Fields(deep.clone()))
    });
    misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.set_message_usage(m, deep.clone())
    });
    misuse(&mut rb, ErrorCode::InvalidOption, |rb| {
        rb.completed(CompleteOptions::new().usage(deep.clone()).close_open(true))
    });
    assert_eq!(rb.next_sequence_number(), 0);
    let mut body = rb
        .delta(data, ContentValue::Fields(nested(crate::MAX_DEPTH)))
        .unwrap();
    body.extend(
        rb.completed(
            CompleteOptions::new()
                .usage(nested(crate::MAX_DEPTH))
                .close_open(true),
        )
        .unwrap(),
    );
    // What was accepted reads back.
    assert_eq!(events(&body).len(), 7);
}

#[test]
fn data_deltas_deep_merge_into_the_completed_value() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new()).unwrap();
    let c = rb.content(m, ContentType::Data).unwrap();
    rb.set(
        c,
        map(json!({"call_id":"c1","name":"f","arguments":""})).into(),
    )
    .unwrap();
    for d in [
        json!({"arguments":"{\"a\":"}),
        json!({"arguments":"1}","n":2,"meta":{"x":[1]}}),
        json!({"n":3,"meta":{"x":[2],"y":true}}),
    ] {
        let out = rb.delta(c, ContentValue::Fields(map(d.clone()))).unwrap();
        let ev = events(&out);
        let Event::Content(e) = &ev[0] else { panic!() };
        assert_eq!(e.delta, Some(true));
        assert_eq!(Value::Object(e.as_data().unwrap().clone()), d);
    }
    let ev = events(&rb.complete_content(c).unwrap());
    let Event::Content(done) = &ev[0] else {
        panic!()
    };
    assert_eq!(
        serde_json::to_string(done.as_data().unwrap()).unwrap(),
        r#"{"call_id":"c1","name":"f","arguments":"{\"a\":1}","n":5,"meta":{"x":[1,2],"y":true}}"#
    );
}

#[test]
fn every_content_type_completes_with_its_fields() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new().id("m")).unwrap();
    let cases: Vec<(ContentType, ContentValue<'static>, &str)> = vec![
        (ContentType::Text, "t".into(), r#""text":"t""#),
        (ContentType::Refusal, "no".into(), r#""refusal":"no""#),
        (ContentType::Image, "i.png".into(), r#""image_url":"i.png""#),
        (ContentType::Video, "v.mp4".into(), r#""video_url":"v.mp4""#),
        (
            ContentType::Audio,
            ContentValue::Fields(map(json!({"data":"AAA","format":"wav"}))),
            r#""data":"AAA","format":"wav""#,
        ),
        (
            ContentType::File,
            "f.pdf".into(),
            r#""file_url":"f.pdf","file_id":null,"filename":null,"file_data":null"#,
        ),
        (
            ContentType::Data,
            ContentValue::Fields(map(json!({"k":[1]}))),
            r#""data":{"k":[1]}"#,
        ),
    ];
    for (i, (ct, v, tail)) in cases.into_iter().enumerate() {
        let c = rb.content(m, ct).unwrap();
        rb.set(c, v).unwrap();
        let out = String::from_utf8(rb.complete_content(c).unwrap()).unwrap();
        let want = format!(
            "\"status\":\"completed\",\"error\":null,\"type\":\"{ct}\",\"index\":{i},\"delta\":false,\"msg_id\":\"m\",{tail}}}\n\n"
        );
        assert!(out.ends_with(&want), "{out} !~ {want}");
    }
    // A part never given a value completes with null fields, as in the reference builder.
    let c = rb.content(m, ContentType::Text).unwrap();
    assert!(String::from_utf8(rb.complete_content(c).unwrap())
        .unwrap()
        .ends_with("\"text\":null}\n\n"));
}

#[test]
fn values_deeper_than_the_limit_are_refused_and_nothing_is_emitted() {
    use crate::depth::MAX_DEPTH;
    use crate::protocol::JsonMap;
    fn deep(levels: usize) -> JsonMap {
        let mut v = serde_json::json!(1);
        for _ in 1..levels {
            v = serde_json::json!({ "a": v });
        }
        let mut map = JsonMap::new();
        map.insert("a".into(), v);
        map
    }
    let mut rb = ResponseBuilder::new(BuilderOptions::new()).unwrap();
    rb.created().unwrap();
    let m = rb.message(MessageOptions::new()).unwrap();
    let part = rb.content(m, ContentType::Data).unwrap();
    let seq = rb.next_sequence_number();
    for levels in [MAX_DEPTH + 1, 500] {
        let e = rb
            .delta(part, ContentValue::Fields(deep(levels)))
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidOption);
        assert!(
            e.message().contains("deeper than 100 levels"),
            "{}",
            e.message()
        );
        assert_eq!(
            rb.set(part, ContentValue::Fields(deep(levels)))
                .unwrap_err()
                .code(),
            ErrorCode::InvalidOption
        );
        assert_eq!(
            rb.set_message_usage(m, deep(levels)).unwrap_err().code(),
            ErrorCode::InvalidOption
        );
        assert!(rb
            .message(MessageOptions::new().metadata(deep(levels)))
            .is_err());
    }
    assert_eq!(rb.next_sequence_number(), seq, "nothing was emitted");
    rb.delta(part, ContentValue::Fields(deep(MAX_DEPTH)))
        .unwrap();
}

#[test]
fn from_text_refused_options_emit_nothing_and_the_stream_can_still_begin() {
    use crate::depth::MAX_DEPTH;
    let mut usage = serde_json::json!(1);
    for _ in 0..MAX_DEPTH + 5 {
        usage = serde_json::json!({ "a": usage });
    }
    let Value::Object(usage) = usage else {
        panic!("an object")
    };
    let mut rb = ResponseBuilder::new(BuilderOptions::new()).unwrap();
    let error = rb
        .begin_text(MessageOptions::new().usage(usage))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidOption);
    assert_eq!(rb.next_sequence_number(), 0, "nothing was emitted");
    let (part, mut body) = rb.begin_text(MessageOptions::new()).unwrap();
    body.extend(rb.delta_text(part, "Hi").unwrap());
    body.extend(rb.finish_text(part).unwrap());
    let statuses: Vec<String> = String::from_utf8(body)
        .unwrap()
        .split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| {
            let v: Value = serde_json::from_str(f.trim_start_matches("data: ")).unwrap();
            format!(
                "{}:{}",
                v["object"].as_str().unwrap(),
                v["status"].as_str().unwrap()
            )
        })
        .collect();
    // The reference's generate_streaming_response sequence.
    assert_eq!(
        statuses,
        [
            "response:created",
            "response:in_progress",
            "message:in_progress",
            "content:in_progress",
            "content:completed",
            "message:completed",
            "response:completed"
        ]
    );
    // A second begin on the same builder is refused.
    assert_eq!(
        rb.begin_text(MessageOptions::new()).unwrap_err().code(),
        ErrorCode::BuilderState
    );
}
