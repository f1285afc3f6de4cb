//! The `translate` target: `openai::Translator` between every pair of protocols (Agent API,
//! Responses, A2A, AG-UI), over arbitrary bytes or over agentwire's own output, split anywhere.
//!
//! Input: a byte picking the pair (bits 0–1 the source, bits 2–3 the target), a byte picking
//! the input (bit 0: a builder script writing the source protocol, see [`super::script`];
//! otherwise raw bytes; bit 1: NDJSON for an Agent API source), up to 16 `u16` cut offsets,
//! then the input.
//!
//! Properties:
//! - no panic, for every ordered pair (AG-UI read through the client pipeline);
//! - the output does not depend on where the input was cut (generated ids aside), nor does an
//!   error (after an error, the output ends with what `fail` returns, as in the JS face);
//! - a `StreamAssembler` of the target protocol reads the output, whatever it is, without a
//!   panic;
//! - for agentwire's own output: the translation succeeds without warnings (but `NOT_CARRIED`,
//!   what the target has no place for), the target's
//!   assembler reads it without an `INVALID_EVENT` warning (and without an error), and the text
//!   of the messages (text and refusal parts; order aside) is what the source's assembler reads.

use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler, WarningCode};
use agentwire::codec::Format;
use agentwire::openai::Translator;
use agentwire::protocol::ErrorInfo;
use agentwire::ErrorCode;

use super::assembler_harness::normalize_ids;
use super::{short, Gen};

const PROTOCOLS: [Protocol; 5] = [
    Protocol::AgentApi,
    Protocol::OpenAiResponses,
    Protocol::A2a,
    Protocol::A2a03,
    Protocol::AgUi,
];

/// What a translation produced: the output, the first error's code, the warning codes.
struct Translated {
    out: Vec<u8>,
    error: Option<ErrorCode>,
    warnings: Vec<String>,
}

fn translate(
    from: Protocol,
    to: Protocol,
    input: &[u8],
    ends: &[usize],
) -> Result<Translated, String> {
    let mut t = Translator::new(from, to).map_err(|e| format!("no translator: {e}"))?;
    let mut out = Vec::new();
    let mut error = None;
    let mut start = 0;
    for &end in ends {
        match t.push(input.get(start..end).unwrap_or_default()) {
            Ok(bytes) => out.extend(bytes),
            Err(e) => {
                error = Some(e.code());
                break;
            }
        }
        start = end;
    }
    if error.is_none() {
        match t.finish() {
            Ok(bytes) => out.extend(bytes),
            Err(e) => error = Some(e.code()),
        }
    }
    if error.is_some() {
        // As the JS face does: the output ends with the target's failure event, after what was
        // translated before the error.
        match t.fail(ErrorInfo::new("INPUT_ERROR", "the input failed")) {
            Ok(bytes) => out.extend(bytes),
            Err(e) => return Err(format!("fail() failed: {e}")),
        }
    }
    let warnings = t
        .warnings()
        .iter()
        .map(|w| format!("{}: {}", w.code.as_str(), w.message))
        .collect();
    Ok(Translated {
        out,
        error,
        warnings,
    })
}

pub fn check(data: &[u8]) -> Result<(), String> {
    if !cfg!(feature = "full") {
        // The lite build reads the Agent API only: the other protocols is not there to fuzz.
        return Ok(());
    }
    let mut g = Gen::new(data);
    let pair = g.byte();
    let from = PROTOCOLS[usize::from(pair % 5)];
    let to = PROTOCOLS[usize::from((pair / 5) % 5)];
    let mode = g.byte();
    let own = mode & 1 == 1;
    let cuts: Vec<u16> = {
        let n = g.below(17);
        (0..n).map(|_| g.u16()).collect()
    };
    // Known, reported, not fixed here: two tool calls open at once with one call id (the Agent
    // API allows it, the builder makes it) become two TOOL_CALL_STARTs of one id, which
    // `@ag-ui/client` rejects. Such runs are not checked for the text or a rejection.
    let mut reused_call_ids = false;
    let input = if own {
        let format = if from == Protocol::AgentApi && mode & 2 == 2 {
            Format::Ndjson
        } else {
            Format::Sse
        };
        let finish = g.flag();
        let session = super::script::run(&mut g, from, format, false, finish)?;
        reused_call_ids = session.reused_call_ids;
        session.bytes
    } else {
        g.rest().to_vec()
    };
    let mut ends: Vec<usize> = cuts
        .iter()
        .map(|&c| usize::from(c) % (input.len() + 1))
        .collect();
    ends.sort_unstable();
    ends.push(input.len());
    let fail = |what: String| {
        Err(format!(
            "{} -> {}: {what}\n  input {:?}\n  cut at {ends:?}",
            from.as_str(),
            to.as_str(),
            short(&String::from_utf8_lossy(&input))
        ))
    };

    let whole = translate(from, to, &input, &[input.len()])?;
    let split = translate(from, to, &input, &ends)?;
    if whole.error != split.error {
        return fail(format!(
            "the error depends on the cuts: whole {:?}, cut {:?}",
            whole.error, split.error
        ));
    }
    let (a, b) = (
        normalize_ids(&String::from_utf8_lossy(&whole.out)),
        normalize_ids(&String::from_utf8_lossy(&split.out)),
    );
    if a != b {
        return fail(format!(
            "the output depends on the cuts\n  whole {}\n  cut   {}",
            short(&a),
            short(&b)
        ));
    }
    if own {
        if let Some(e) = whole.error {
            return fail(format!("translating agentwire's own output failed: {e:?}"));
        }
        // What the target has no place for is named (NOT_CARRIED); nothing else is expected.
        if let Some(w) = whole
            .warnings
            .iter()
            .find(|w| !w.starts_with("NOT_CARRIED"))
        {
            return fail(format!("translating agentwire's own output warns {w}"));
        }
    }

    // The target's reader, cut at the same offsets (scaled to the output).
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(to)));
    let out = &whole.out;
    let mut out_ends: Vec<usize> = ends
        .iter()
        .map(|&e| e * out.len() / input.len().max(1))
        .map(|e| e.min(out.len()))
        .collect();
    out_ends.sort_unstable();
    out_ends.push(out.len());
    let mut start = 0;
    let mut error = None;
    for &end in &out_ends {
        if let Err(e) = asm.push(out.get(start..end).unwrap_or_default()) {
            error = Some(e);
            break;
        }
        start = end;
    }
    if error.is_none() {
        if let Err(e) = asm.finish() {
            error = Some(e);
        }
    }
    let target_snapshot = asm.snapshot();
    let _ = asm.tool_calls();
    if own && error.is_none() && !reused_call_ids {
        if let Some(e) = target_snapshot
            .get("error")
            .filter(|e| e["source"] == "client")
        {
            return fail(format!(
                "the target's client rejects the translation: {e}\n  output {}",
                short(&String::from_utf8_lossy(out))
            ));
        }
        // The text survives translation: every message's text parts, in order.
        let mut source = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(from)));
        let _ = source.push(&input);
        let _ = source.finish();
        // (Compared as sorted characters: message order and the interleaving of a message's
        // parts may differ, AG-UI having one text per message and Agent API snapshots listing
        // messages in completion order; lost, doubled or invented text shows.)
        let sorted = |text: String| {
            let mut chars: Vec<char> = text.chars().collect();
            chars.sort_unstable();
            chars.into_iter().collect::<String>()
        };
        let (a, b) = (texts(&source.snapshot()), texts(&target_snapshot));
        if sorted(a.clone()) != sorted(b.clone()) {
            return fail(format!(
                "the text changed in translation\n  source {:?}\n  target {:?}\n  output {}",
                short(&a),
                short(&b),
                short(&String::from_utf8_lossy(out))
            ));
        }
    }
    if own {
        let output = String::from_utf8_lossy(out);
        if let Some(e) = error {
            return fail(format!(
                "the target's assembler fails on the translation: {e}\n  output {}",
                short(&output)
            ));
        }
        if let Some(w) = asm
            .warnings()
            .iter()
            .find(|w| w.code == WarningCode::InvalidEvent)
        {
            return fail(format!(
                "the target's assembler warns {}: {}\n  output {}",
                w.code.as_str(),
                w.message,
                short(&output)
            ));
        }
    }
    Ok(())
}

/// The text of every message (text and refusal parts), in order, whatever the protocol's
/// snapshot shape.
fn texts(snapshot: &serde_json::Value) -> String {
    use serde_json::Value;
    let mut out = String::new();
    let lists = ["output", "incompleteMessages", "messages"];
    for list in lists {
        for m in snapshot
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let kind = m.get("type").and_then(Value::as_str).unwrap_or("message");
            let role = m.get("role").and_then(Value::as_str).unwrap_or("");
            if kind != "message" || matches!(role, "tool" | "reasoning" | "activity") {
                continue;
            }
            match m.get("content") {
                Some(Value::String(t)) => out.push_str(t),
                Some(Value::Array(parts)) => {
                    for p in parts {
                        let field = match p.get("type").and_then(Value::as_str) {
                            Some("text" | "output_text") => "text",
                            // AG-UI has no refusal: its text joins the message's content.
                            Some("refusal") => "refusal",
                            _ => continue,
                        };
                        out.push_str(p.get(field).and_then(Value::as_str).unwrap_or(""));
                    }
                }
                _ => {}
            }
        }
    }
    out
}
