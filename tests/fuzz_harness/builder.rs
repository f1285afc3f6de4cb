//! The `builder` target: `ResponseBuilder` given arbitrary JSON values — data deltas, `set`
//! values, tool arguments and outputs, usage, metadata (nested thousands of levels, thousands of
//! keys wide, `__proto__` keys, long runs) — through a script of calls in any order
//! ([`super::script`]).
//!
//! Input: a flags byte (bit 0: NDJSON instead of SSE; bit 1: `omitNulls`), then the script. A
//! builder still running when the input ends is completed with `closeOpen`.
//!
//! Properties:
//! - no panic; a refused call returns `BUILDER_STATE` or `INVALID_OPTION`, emits nothing and
//!   does not move the sequence number;
//! - no call accepts a value nested deeper than `MAX_DEPTH` levels;
//! - a strict `StreamAssembler` reads everything emitted, cut where the calls cut it, without
//!   an error or a warning;
//! - it reads the same values: its snapshot is the builder's response (data, usage, metadata,
//!   tool calls and outputs, errors), numbers compared by value.

use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler, WarningCode};
use agentwire::codec::Format;
use serde_json::Value;

use super::{json_eq, short, Gen};

pub fn check(data: &[u8]) -> Result<(), String> {
    let mut g = Gen::new(data);
    let flags = g.byte();
    let format = if flags & 1 == 1 {
        Format::Ndjson
    } else {
        Format::Sse
    };
    let omit_nulls = flags & 2 == 2;
    let session = super::script::run(&mut g, Protocol::AgentApi, format, omit_nulls, true)?;
    let stream = String::from_utf8_lossy(&session.bytes).into_owned();
    let fail = |what: String| Err(format!("{what}\n  stream {}", short(&stream)));
    if let Some(v) = session.violations.first() {
        return fail(v.clone());
    }

    // `failed` and `canceled` leave open messages open (as the reference runner does); the
    // reader reports them (UNFINISHED_MESSAGE), which strict mode makes an error.
    let status = session.builder.response().status.as_str().to_owned();
    let open_allowed = matches!(status.as_str(), "failed" | "canceled");
    let mut asm = StreamAssembler::new(
        AssemblerOptions::new()
            .with_protocol(Some(Protocol::AgentApi))
            .with_strict(!open_allowed)
            .with_format(format),
    );
    let mut start = 0;
    for &end in &session.boundaries {
        let chunk = session.bytes.get(start..end).unwrap_or_default();
        if let Err(e) = asm.push(chunk) {
            return fail(format!(
                "the builder's output is refused at byte {start}: {e}\n  event {}",
                short(&String::from_utf8_lossy(chunk))
            ));
        }
        start = end;
    }
    if session.builder.is_finished() {
        if let Err(e) = asm.finish() {
            return fail(format!(
                "the builder's finished output does not finish: {e}"
            ));
        }
    }
    // Tool arguments are the caller's text: the builder streams them as given, and a
    // completed call whose arguments are not JSON is reported (INVALID_ARGUMENTS), as it must.
    if let Some(w) = asm.warnings().iter().find(|w| {
        w.code != WarningCode::InvalidArguments
            && !(open_allowed && w.code == WarningCode::UnfinishedMessage)
    }) {
        return fail(format!("reading the builder's output warns {w:?}"));
    }
    if !session.builder.is_finished() {
        return Ok(());
    }

    // The same values.
    let mut expected = serde_json::to_value(session.builder.response()).unwrap_or(Value::Null);
    let mut got = asm.snapshot();
    if let Value::Object(map) = &mut got {
        for key in ["outcome", "warnings", "incompleteMessages", "unknownEvents"] {
            map.remove(key);
        }
    }
    // The snapshot's response and messages are the events as numbered on the wire; the
    // builder's models are not. A message without parts may read back with `content: []`.
    for v in [&mut got, &mut expected] {
        unnumber(v);
        let messages = v.get_mut("output").and_then(Value::as_array_mut);
        for m in messages.into_iter().flatten() {
            unnumber(m);
            if m.get("content")
                .is_some_and(|c| c.as_array().is_some_and(Vec::is_empty))
            {
                m["content"] = Value::Null;
            }
            let parts = m.get_mut("content").and_then(Value::as_array_mut);
            parts.into_iter().flatten().for_each(unnumber);
        }
    }
    if omit_nulls {
        // `omitNulls` drops null members everywhere, as `exclude_none` does.
        drop_nulls(&mut expected);
        drop_nulls(&mut got);
    }
    if !json_eq(&got, &expected) {
        return fail(format!(
            "read back as {}\n  the builder holds {}",
            short(&got.to_string()),
            short(&expected.to_string())
        ));
    }
    super::drop_flat(got);
    super::drop_flat(expected);
    Ok(())
}

/// Removes `sequence_number` from an event object.
fn unnumber(value: &mut Value) {
    if let Value::Object(map) = value {
        map.shift_remove("sequence_number");
    }
}

/// Removes every object member whose value is `null`.
fn drop_nulls(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                map.retain(|_, v| !v.is_null());
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}
