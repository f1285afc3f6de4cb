//! The `partial_json` target: `PartialJson`, the incremental parser of tool-call arguments,
//! fed a text in arbitrary pieces.
//!
//! Input: a flags byte (bit 0: read the ops after every piece, not only at the end; bit 1: read
//! the first piece, take its ops, `reset`, then read the whole text), a count byte and that
//! many `u16` cut offsets (moved to the next character boundary), then the text (invalid UTF-8
//! replaced).
//!
//! Properties:
//! - read in pieces or whole, the parser ends in the same state (value, complete, invalid, too
//!   deep, length);
//! - a mirror that applies `take_ops` equals `value()` whenever it reads them;
//! - on the whole text, against serde_json (lone surrogate escapes read as U+FFFD, as
//!   agentwire reads them everywhere): a valid text nesting at most `MAX_DEPTH` levels is
//!   complete with the same value; a valid deeper one is invalid and too deep; a text serde_json
//!   rejects for a syntax error is invalid, and one it finds unfinished is neither complete nor
//!   invalid;
//! - `arguments_error` (what a completed tool call reports) agrees: `None` exactly for blank
//!   and for complete texts.

use agentwire::assembler::{arguments_error, PartialJson};
use agentwire::depth::text_depth;
use agentwire::MAX_DEPTH;
use serde_json::Value;

use super::assembler_harness::apply_op;
use super::{json_eq, short, Gen};

/// The parser's observable state.
#[derive(Debug, PartialEq)]
struct State {
    value: Option<Value>,
    complete: bool,
    invalid: bool,
    too_deep: bool,
    len: usize,
}

fn state(p: &PartialJson) -> State {
    State {
        value: p.value(),
        complete: p.is_complete(),
        invalid: p.is_invalid(),
        too_deep: p.is_too_deep(),
        len: p.len(),
    }
}

/// `value()` as a mirror shows it: nothing parsed yet is `null`.
fn shown(value: Option<Value>) -> Value {
    value.unwrap_or(Value::Null)
}

pub fn check(data: &[u8]) -> Result<(), String> {
    let mut g = Gen::new(data);
    let flags = g.byte();
    let n = g.below(33);
    let raw_cuts: Vec<u16> = (0..n).map(|_| g.u16()).collect();
    let text = String::from_utf8_lossy(g.rest()).into_owned();
    let mut cuts: Vec<usize> = raw_cuts
        .iter()
        .map(|&c| {
            let mut c = usize::from(c) % (text.len() + 1);
            while !text.is_char_boundary(c) {
                c += 1;
            }
            c
        })
        .collect();
    cuts.sort_unstable();
    cuts.push(text.len());
    let fail = |what: String| {
        Err(format!(
            "{what}\n  text {:?}\n  cuts {cuts:?}",
            short(&text)
        ))
    };

    let mut whole = PartialJson::new();
    whole.push(&text);
    let expected = state(&whole);

    // Every prefix of a valid text is valid so far.
    let repaired = agentwire::protocol::repair_lone_surrogates(&text);
    let serde = read(&repaired);
    let valid_whole = text_depth(&text) <= MAX_DEPTH && serde.is_ok();

    // In pieces, with a mirror.
    let poll = flags & 1 == 1;
    let mut p = PartialJson::new();
    let mut mirror: Option<Value> = None;
    let mut start = 0;
    if flags & 2 == 2 {
        // A first try, abandoned: `reset` must make the mirror start over.
        let first = cuts.first().copied().unwrap_or(0);
        p.push(&text[..first]);
        for op in p.take_ops() {
            apply_op(&mut mirror, op)?;
        }
        p.reset();
    }
    for &end in &cuts {
        p.push(&text[start..end]);
        start = end;
        if valid_whole && p.is_invalid() {
            return fail(format!(
                "the text is valid JSON, but its first {end} bytes are reported invalid"
            ));
        }
        if poll {
            for op in p.take_ops() {
                apply_op(&mut mirror, op).or_else(|e| fail(format!("op failed: {e}")))?;
            }
            let value = shown(p.value());
            if mirror.clone().unwrap_or(Value::Null) != value {
                return fail(format!(
                    "after {end} bytes the mirror is {}, value() is {}",
                    short(&mirror.unwrap_or(Value::Null).to_string()),
                    short(&value.to_string())
                ));
            }
        }
    }
    for op in p.take_ops() {
        apply_op(&mut mirror, op).or_else(|e| fail(format!("op failed: {e}")))?;
    }
    let got = state(&p);
    if got != expected {
        return fail(format!(
            "read in pieces: {got:?}\n  read whole: {expected:?}"
        ));
    }
    if mirror.clone().unwrap_or(Value::Null) != shown(got.value.clone()) {
        return fail(format!(
            "the mirror is {}, value() is {}",
            short(&mirror.unwrap_or(Value::Null).to_string()),
            short(&shown(got.value).to_string())
        ));
    }

    // Against serde_json.
    let deep = text_depth(&text) > MAX_DEPTH;
    if got.too_deep && !deep {
        return fail("too deep, but the text nests at most MAX_DEPTH levels".into());
    }
    match &serde {
        Ok(v) if deep => {
            if !(got.invalid && got.too_deep) {
                return fail(format!(
                    "valid JSON {} levels deep, not reported too deep: {got:?}",
                    text_depth(&text)
                ));
            }
            let _ = v;
        }
        Ok(v) => {
            if !got.complete || got.invalid {
                return fail(format!(
                    "valid JSON, but complete {} invalid {}",
                    got.complete, got.invalid
                ));
            }
            if !got.value.as_ref().is_some_and(|g| json_eq(g, v)) {
                return fail(format!(
                    "valid JSON parsed as {}, serde_json reads {}",
                    short(&shown(got.value.clone()).to_string()),
                    short(&v.to_string())
                ));
            }
        }
        Err(e) if deep => {
            let _ = e;
        }
        // (serde_json also says EOF for some texts no ending can fix, like `"\u` followed by
        // fewer than four characters that are not hex digits: not a check of `invalid`.)
        Err(e) if e.is_eof() => {
            if got.complete {
                return fail(format!(
                    "serde_json finds the text unfinished ({e}), but it is complete"
                ));
            }
        }
        // A number past the double range (`1e400`) at the root: invalid once something
        // follows it; at the end of the text the parser cannot know, and calls it unfinished.
        Err(e) if e.is_out_of_range() && !got.complete => {}
        Err(e) => {
            if !got.invalid {
                return fail(format!(
                    "serde_json rejects the text ({e}), but it is not reported invalid (complete {})",
                    got.complete
                ));
            }
        }
    }

    // `arguments_error`: blank or complete ⇔ no error.
    let blank = text.trim_matches([' ', '\t', '\n', '\r']).is_empty();
    let usable = blank || got.complete;
    let error = arguments_error(&text);
    if usable == error.is_some() {
        return fail(format!(
            "arguments_error is {error:?}, but the parser says complete {} (blank {blank})",
            got.complete
        ));
    }
    if let Some(v) = got.value {
        super::drop_flat(v);
    }
    if let Some(v) = mirror {
        super::drop_flat(v);
    }
    if let Ok(v) = serde {
        super::drop_flat(v);
    }
    Ok(())
}

/// Why serde_json refuses a text.
#[derive(Debug)]
enum Refusal {
    Json(serde_json::Error),
    /// A number past the range of a double: serde_json refuses it in the full build and keeps
    /// its text in the lite one; agentwire refuses it in both (`src/protocol/mod.rs`).
    OutOfRange,
}

impl Refusal {
    fn is_eof(&self) -> bool {
        matches!(self, Refusal::Json(e) if e.is_eof())
    }

    fn is_out_of_range(&self) -> bool {
        match self {
            Refusal::Json(e) => e.to_string().starts_with("number out of range"),
            Refusal::OutOfRange => true,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Json(e) => write!(f, "{e}"),
            Refusal::OutOfRange => write!(f, "a number is out of range"),
        }
    }
}

/// serde_json's reading of `text`, with numbers past the range of a double refused.
fn read(text: &str) -> Result<Value, Refusal> {
    let value: Value = serde_json::from_str(text).map_err(Refusal::Json)?;
    if !super::finite_numbers(&value) {
        return Err(Refusal::OutOfRange);
    }
    Ok(value)
}
