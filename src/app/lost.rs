//! [`lost_run_event`]: the terminal event of a run whose instance went away.

use serde_json::Value;

use crate::builder::{BuilderOptions, ResponseBuilder};
use crate::codec::write::{uint, value};
use crate::codec::{Format, FrameDecoder};
use crate::protocol::ErrorInfo;
use crate::responses::ResponsesSnapshot;
use crate::{Protocol, Result};

/// The message of the `RUN_LOST` failure.
pub const RUN_LOST_MESSAGE: &str = "The instance running this run went away before it ended.";

/// The terminal failure event of a run whose instance went away before it ended, to append to
/// its log `log` (the SSE events logged so far): what a [`ResponseBuilder`] of `options` writes
/// for `failed({code: "RUN_LOST", message: RUN_LOST_MESSAGE})` — its last event, the failure
/// itself — as one SSE event with `id: next` (the cursor after the log's last event) and,
/// where the event has one (the Agent API, OpenAI Responses), `sequence_number: next`. An
/// OpenAI Responses `response.failed` event's `response` carries the `output` and `usage` of
/// the response so far (`log` folded as the official client folds it; `[]` and `null` when it
/// has none). `options`' format and `eventIds` are not used: the event is SSE with its id.
///
/// # Errors
///
/// `INVALID_OPTION` as [`ResponseBuilder::new`] reports it; for OpenAI Responses, the framing
/// errors of a `log` that cannot be read (`INVALID_UTF8`, `EVENT_TOO_LARGE`).
///
/// # Example
///
/// ```
/// use agentwire::app::lost_run_event;
/// use agentwire::builder::BuilderOptions;
/// use agentwire::Protocol;
///
/// let event = lost_run_event(BuilderOptions::new().protocol(Protocol::AgUi), 7, b"")?;
/// let text = String::from_utf8(event).unwrap();
/// assert!(text.starts_with("id: 7\ndata: {\"type\":\"RUN_ERROR\""));
/// assert!(text.contains("\"code\":\"RUN_LOST\"") && text.ends_with("}\n\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn lost_run_event(options: BuilderOptions, next: u64, log: &[u8]) -> Result<Vec<u8>> {
    let protocol = options.protocol.unwrap_or(Protocol::AgentApi);
    let mut builder = ResponseBuilder::new(options.format(Format::Sse).event_ids(false))?;
    let written = builder.failed(ErrorInfo::new("RUN_LOST", RUN_LOST_MESSAGE))?;
    let so_far = match protocol {
        Protocol::OpenAiResponses => Some(response_so_far(log)?),
        _ => None,
    };
    let mut out = Vec::with_capacity(written.len() + 16);
    out.extend_from_slice(b"id: ");
    uint(&mut out, next);
    out.push(b'\n');
    for line in last_event(&written).split(|b| *b == b'\n') {
        if line.is_empty() {
            continue;
        }
        match line.strip_prefix(b"data: ") {
            Some(data) => {
                out.extend_from_slice(b"data: ");
                match patched(data, next, so_far.as_ref()) {
                    Some(data) => value(&mut out, &data),
                    None => out.extend_from_slice(data),
                }
            }
            None => out.extend_from_slice(line),
        }
        out.push(b'\n');
    }
    out.push(b'\n');
    Ok(out)
}

/// The last event of `written` (whole SSE events, each ending with a blank line), without its
/// blank line.
fn last_event(written: &[u8]) -> &[u8] {
    let body = written.strip_suffix(b"\n\n").unwrap_or(written);
    match memchr::memmem::rfind(body, b"\n\n") {
        Some(i) => body.get(i + 2..).unwrap_or_default(),
        None => body,
    }
}

/// The event's data with its `sequence_number` set to `next` and, for `response.failed`, the
/// output and usage of `so_far`; `None` when nothing changes (or the data is not JSON).
fn patched(data: &[u8], next: u64, so_far: Option<&Value>) -> Option<Value> {
    let Ok(Value::Object(mut event)) = serde_json::from_slice::<Value>(data) else {
        return None;
    };
    let mut changed = false;
    if let Some(n) = event.get_mut("sequence_number").filter(|n| n.is_number()) {
        *n = Value::from(next);
        changed = true;
    }
    if let (Some(so_far), Some("response.failed")) =
        (so_far, event.get("type").and_then(Value::as_str))
    {
        let field = |key: &str, absent: Value| match so_far.get(key) {
            None | Some(Value::Null) => absent,
            Some(v) => v.clone(),
        };
        let output = field("output", Value::Array(Vec::new()));
        let usage = field("usage", Value::Null);
        let response = event
            .entry("response")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if !response.is_object() {
            *response = Value::Object(serde_json::Map::new());
        }
        if let Value::Object(response) = response {
            response.insert("output".to_owned(), output);
            response.insert("usage".to_owned(), usage);
        }
        changed = true;
    }
    changed.then_some(Value::Object(event))
}

/// The OpenAI Responses `response` object `log` makes, as the official client accumulates it
/// (an empty object when it has none).
fn response_so_far(log: &[u8]) -> Result<Value> {
    let mut snapshot = ResponsesSnapshot::default();
    let mut frames = FrameDecoder::new(Format::Sse);
    let mut apply = |frame: crate::codec::Frame<'_>| {
        let parsed =
            crate::protocol::parse_repairing(frame.data(), |t| serde_json::from_str::<Value>(t));
        if let Ok(Value::Object(event)) = parsed {
            snapshot.apply(&event);
        }
        Ok(())
    };
    frames.push(log, &mut apply)?;
    frames.finish(&mut apply)?;
    Ok(Value::Object(snapshot.to_map()))
}
