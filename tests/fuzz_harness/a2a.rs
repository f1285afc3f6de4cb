//! The `a2a` target: A2A JSON-RPC requests (`a2a::read_call`) and A2A streams folded into their
//! task (`a2a::TaskFold`), over arbitrary bytes and over mutations of valid requests and of
//! agentwire's own streams.
//!
//! Input: a byte picking the entry point and the `A2A-Version` header, then up to 16 `u16` cut
//! offsets, then the body or stream (bit 1 of the first byte: splice the bytes into a valid
//! request or an agentwire A2A stream instead of using them alone).
//!
//! Properties:
//! - no panic;
//! - `read_call`: an accepted call's method name reads back as the same method and version, its
//!   version is the one the header names, the send methods carry a request and the task methods
//!   a task id; a refused one writes a JSON-RPC error response that parses, with its code, the
//!   request's id when it had a valid one, and a `data` array in 1.0 / an object or nothing in
//!   0.3;
//! - `TaskFold`: the task, message and error do not depend on where the stream was cut (unless
//!   the framing failed), and the `SendMessage` answer is built from them.

use agentwire::a2a::{read_call, A2aMethod, A2aVersion, TaskFold};
use agentwire::assembler::Protocol;
use agentwire::openai::Translator;
use serde_json::Value;

use super::Gen;

const HEADERS: [Option<&str>; 6] = [
    None,
    Some("1.0"),
    Some("0.3"),
    Some("2.0"),
    Some(""),
    Some("1.x"),
];

const REQUESTS: [&str; 4] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"},{"url":"https://x/a.png","mediaType":"image/png"},{"data":{"k":[1,2]}}]},"configuration":{"historyLength":2,"returnImmediately":true}}}"#,
    r#"{"jsonrpc":"2.0","id":"x","method":"tasks/get","params":{"id":"t","historyLength":3}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m","role":"user","contextId":"c","parts":[{"kind":"file","file":{"bytes":"aGk=","mimeType":"text/plain","name":"a.txt"}}]}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"CancelTask","params":{"id":"t"}}"#,
];

/// An agentwire A2A stream of a small run with text, data and a failure status.
fn own_stream(version_1_0: bool) -> Vec<u8> {
    let run = concat!(
        "data: {\"object\":\"response\",\"status\":\"created\",\"id\":\"r\",\"session_id\":\"s\"}\n\n",
        "data: {\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\"}\n\n",
        "data: {\"object\":\"content\",\"type\":\"text\",\"status\":\"in_progress\",\"delta\":true,\"index\":0,\"msg_id\":\"m\",\"text\":\"He\"}\n\n",
        "data: {\"object\":\"content\",\"type\":\"text\",\"status\":\"in_progress\",\"delta\":true,\"index\":0,\"msg_id\":\"m\",\"text\":\"llo\"}\n\n",
        "data: {\"object\":\"content\",\"type\":\"data\",\"status\":\"completed\",\"index\":1,\"msg_id\":\"m\",\"data\":{\"a\":1}}\n\n",
        "data: {\"object\":\"message\",\"status\":\"completed\",\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\"}\n\n",
        "data: {\"object\":\"response\",\"status\":\"failed\",\"id\":\"r\",\"error\":{\"code\":\"E\",\"message\":\"boom\"}}\n\n",
    );
    let to = if version_1_0 {
        Protocol::A2a
    } else {
        Protocol::A2a03
    };
    let Ok(mut t) = Translator::new(Protocol::AgentApi, to) else {
        return Vec::new();
    };
    let mut out = t.push(run.as_bytes()).unwrap_or_default();
    out.extend(t.finish().unwrap_or_default());
    out
}

/// `bytes` spliced into `base` at `at` (modulo its length), replacing `cut` bytes.
fn splice(base: &[u8], at: usize, cut: usize, bytes: &[u8]) -> Vec<u8> {
    let at = at % (base.len() + 1);
    let mut out = base[..at].to_vec();
    out.extend_from_slice(bytes);
    out.extend_from_slice(base.get(at + cut..).unwrap_or_default());
    out
}

pub fn check(data: &[u8]) -> Result<(), String> {
    let mut g = Gen::new(data);
    let mode = g.byte();
    let header = HEADERS[usize::from(mode >> 2) % HEADERS.len()];
    let cuts_wanted = g.below(17);
    let cut_offsets: Vec<usize> = (0..cuts_wanted).map(|_| usize::from(g.u16())).collect();
    let splice_into_valid = mode & 2 != 0;
    let (at, cut) = (usize::from(g.u16()), usize::from(g.byte() % 8));
    if mode & 1 == 0 {
        let pick = g.below(REQUESTS.len());
        let rest = g.rest();
        let body = if splice_into_valid {
            splice(REQUESTS[pick].as_bytes(), at, cut, rest)
        } else {
            rest.to_vec()
        };
        check_call(&String::from_utf8_lossy(&body), header)
    } else {
        let version_1_0 = mode & 4 != 0;
        let rest = g.rest();
        let stream = if splice_into_valid {
            splice(&own_stream(version_1_0), at, cut, rest)
        } else {
            rest.to_vec()
        };
        let mut ends: Vec<usize> = cut_offsets
            .iter()
            .map(|&c| c % (stream.len() + 1))
            .collect();
        ends.sort_unstable();
        check_fold(&stream, &ends)
    }
}

fn check_call(body: &str, header: Option<&str>) -> Result<(), String> {
    match read_call(body, header) {
        Ok(call) => {
            let name = call
                .method
                .name(call.version)
                .ok_or("an accepted call has no name in its version")?;
            if A2aMethod::from_name(name) != Some((call.method, call.version)) {
                return Err(format!("{name} does not read back"));
            }
            if A2aVersion::from_header(header) != Some(call.version) {
                return Err(format!(
                    "served in {:?} for header {header:?}",
                    call.version
                ));
            }
            let sends = matches!(
                call.method,
                A2aMethod::SendMessage | A2aMethod::SendStreamingMessage
            );
            if sends != call.request.is_some() {
                return Err("a send without a request, or a request elsewhere".into());
            }
            let task_method = matches!(
                call.method,
                A2aMethod::GetTask | A2aMethod::CancelTask | A2aMethod::SubscribeToTask
            );
            if task_method && call.task_id.as_deref().is_none_or(str::is_empty) {
                return Err("a task method without a task id".into());
            }
            Ok(())
        }
        Err(error) => {
            let answer: Value = serde_json::from_str(&error.to_json())
                .map_err(|e| format!("the error answer is not JSON: {e}"))?;
            if answer["error"]["code"] != error.code.code() {
                return Err(format!("wrong code in {answer}"));
            }
            if !matches!(
                answer["id"],
                Value::Null | Value::String(_) | Value::Number(_)
            ) {
                return Err(format!("bad id in {answer}"));
            }
            let data = &answer["error"]["data"];
            let shaped = match error.version {
                A2aVersion::V1_0 => data.is_array(),
                _ => data.is_null() || data.is_object(),
            };
            if !shaped {
                return Err(format!(
                    "data of the wrong shape for {:?}: {answer}",
                    error.version
                ));
            }
            Ok(())
        }
    }
}

/// (task, message, error, the 1.0 `SendMessage` answer), or `None` after a framing error.
type Folded = Option<(Option<Value>, Option<Value>, Option<Value>, Option<Value>)>;

fn fold(stream: &[u8], ends: &[usize]) -> Folded {
    let mut fold = TaskFold::new();
    let mut start = 0;
    for &end in ends.iter().chain(std::iter::once(&stream.len())) {
        if let Err(e) = fold.push(stream.get(start..end).unwrap_or_default()) {
            if e.code() != agentwire::ErrorCode::InvalidJson {
                return None;
            }
        }
        start = end;
    }
    if let Err(e) = fold.finish() {
        if e.code() != agentwire::ErrorCode::InvalidJson {
            return None;
        }
    }
    Some((
        fold.task_result(None),
        fold.message().cloned(),
        fold.error().cloned(),
        fold.send_message_result(A2aVersion::V1_0, Some(1)),
    ))
}

fn check_fold(stream: &[u8], ends: &[usize]) -> Result<(), String> {
    let whole = fold(stream, &[]);
    let cut = fold(stream, ends);
    if let (Some(whole), Some(cut)) = (&whole, &cut) {
        if whole != cut {
            return Err(format!(
                "the fold depends on the cuts {ends:?}:\n whole {whole:?}\n cut   {cut:?}"
            ));
        }
        let (task, message, _, answer) = whole;
        match (task, message, answer) {
            (Some(_), _, Some(a)) if a.get("task").is_some() => {}
            (None, Some(_), Some(a)) if a.get("message").is_some() => {}
            (None, None, None) => {}
            other => return Err(format!("the answer does not follow the fold: {other:?}")),
        }
    }
    Ok(())
}
