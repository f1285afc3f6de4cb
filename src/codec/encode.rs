//! Encoders: SSE and NDJSON frames appended to a caller-provided buffer.
//!
//! Each function appends to `out` and allocates nothing beyond the growth of `out`; a failing
//! call appends nothing.

use memchr::{memchr, memchr2};

use crate::{Error, ErrorCode, Result};

/// Appends one SSE event carrying `data`: `data: <data>\n\n`.
///
/// A `data` holding line breaks (LF, CR or CRLF) is written as one `data:` line per line, so
/// that [`SseDecoder`](super::SseDecoder) gives `data` back, with every line break as `"\n"`
/// (SSE cannot carry a CR).
///
/// # Example
///
/// ```
/// use agentwire::codec::encode_sse;
///
/// let mut out = Vec::new();
/// encode_sse(&mut out, r#"{"object":"response"}"#);
/// encode_sse(&mut out, "two\nlines");
/// assert_eq!(out, b"data: {\"object\":\"response\"}\n\ndata: two\ndata: lines\n\n");
/// ```
pub fn encode_sse(out: &mut Vec<u8>, data: &str) {
    write_data(out, data.as_bytes());
    out.push(b'\n');
}

/// Appends one SSE event with an optional `event:` type line and `id:` line before its data,
/// as the Responses adapter sends them (`event: <type>\ndata: <json>\n\n`).
///
/// # Errors
///
/// `PROTOCOL_VIOLATION` (and nothing written) when `event` or `id` holds a CR or LF, which
/// would break the framing, or `id` holds a NUL, which makes receivers ignore it.
///
/// # Example
///
/// ```
/// use agentwire::codec::encode_sse_event;
///
/// let mut out = Vec::new();
/// encode_sse_event(&mut out, Some("response.created"), Some("0"), r#"{"a": 1}"#)?;
/// assert_eq!(out, b"event: response.created\nid: 0\ndata: {\"a\": 1}\n\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_sse_event(
    out: &mut Vec<u8>,
    event: Option<&str>,
    id: Option<&str>,
    data: &str,
) -> Result<()> {
    if let Some(event) = event {
        if memchr2(b'\n', b'\r', event.as_bytes()).is_some() {
            return Err(Error::new(
                ErrorCode::ProtocolViolation,
                "An SSE event type cannot contain a line break.",
            )
            .with_field("event"));
        }
    }
    if let Some(id) = id {
        let bytes = id.as_bytes();
        if memchr2(b'\n', b'\r', bytes).is_some() || memchr(0, bytes).is_some() {
            return Err(Error::new(
                ErrorCode::ProtocolViolation,
                "An SSE event id cannot contain a line break or NUL.",
            )
            .with_field("id"));
        }
    }
    if let Some(event) = event {
        out.extend_from_slice(b"event: ");
        out.extend_from_slice(event.as_bytes());
        out.push(b'\n');
    }
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    encode_sse(out, data);
    Ok(())
}

/// Appends an SSE comment (e.g. a heartbeat), one `:` line per line of `text`, followed by a
/// blank line: `: <text>\n\n`. Decoders ignore it; [`SseDecoder::comments`] counts it.
///
/// [`SseDecoder::comments`]: super::SseDecoder::comments
///
/// # Example
///
/// ```
/// use agentwire::codec::encode_sse_comment;
///
/// let mut out = Vec::new();
/// encode_sse_comment(&mut out, "ping");
/// assert_eq!(out, b": ping\n\n");
/// ```
pub fn encode_sse_comment(out: &mut Vec<u8>, text: &str) {
    for line in Lines::of(text.as_bytes()) {
        out.extend_from_slice(b": ");
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// Appends one NDJSON line: `<data>\n`.
///
/// # Errors
///
/// `PROTOCOL_VIOLATION` (and nothing written) when `data` holds a CR or LF: an NDJSON payload
/// must be one line (compact JSON never holds one).
///
/// # Example
///
/// ```
/// use agentwire::codec::encode_ndjson;
///
/// let mut out = Vec::new();
/// encode_ndjson(&mut out, r#"{"object":"response"}"#)?;
/// assert_eq!(out, b"{\"object\":\"response\"}\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_ndjson(out: &mut Vec<u8>, data: &str) -> Result<()> {
    if memchr2(b'\n', b'\r', data.as_bytes()).is_some() {
        return Err(Error::new(
            ErrorCode::ProtocolViolation,
            "An NDJSON payload cannot contain a line break.",
        ));
    }
    out.extend_from_slice(data.as_bytes());
    out.push(b'\n');
    Ok(())
}

/// Writes `data: <line>\n` for each line of `data`.
fn write_data(out: &mut Vec<u8>, data: &[u8]) {
    if memchr2(b'\n', b'\r', data).is_none() {
        out.reserve(data.len() + 8);
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(data);
        out.push(b'\n');
        return;
    }
    for line in Lines::of(data) {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line);
        out.push(b'\n');
    }
}

/// The lines of a byte string split at LF, CR or CRLF; an empty input is one empty line, and a
/// trailing line break gives a last empty line (so that joining with LF gives the input back).
struct Lines<'a>(Option<&'a [u8]>);

impl<'a> Lines<'a> {
    fn of(bytes: &'a [u8]) -> Self {
        Lines(Some(bytes))
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.0?;
        let Some(at) = memchr2(b'\n', b'\r', rest) else {
            self.0 = None;
            return Some(rest);
        };
        let (line, tail) = rest.split_at_checked(at).unwrap_or((rest, &[]));
        let skip = if tail.starts_with(b"\r\n") { 2 } else { 1 };
        self.0 = Some(tail.get(skip..).unwrap_or_default());
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Frame, SseDecoder};
    use super::*;

    fn sse_round_trip(data: &str) -> Vec<String> {
        let mut out = Vec::new();
        encode_sse(&mut out, data);
        let mut got = Vec::new();
        let mut d = SseDecoder::new();
        d.push(&out, |f: Frame<'_>| {
            got.push(f.data().to_owned());
            Ok(())
        })
        .unwrap();
        got
    }

    #[test]
    fn sse_payloads_round_trip() {
        for data in [
            "",
            "x",
            " leading space",
            "a\nb",
            "a\n",
            "\n",
            "\n\n",
            "é中😀",
            ": not a comment",
        ] {
            assert_eq!(sse_round_trip(data), [data], "{data:?}");
        }
        assert_eq!(sse_round_trip("a\r\nb\rc"), ["a\nb\nc"]);
    }

    #[test]
    fn sse_event_and_id_lines() {
        let mut out = Vec::new();
        encode_sse_event(&mut out, None, None, "x").unwrap();
        encode_sse_event(&mut out, Some("t"), None, "y").unwrap();
        assert_eq!(out, b"data: x\n\nevent: t\ndata: y\n\n");
    }

    #[test]
    fn sse_rejects_breaking_event_or_id_and_writes_nothing() {
        let mut out = b"keep".to_vec();
        for (event, id) in [
            (Some("a\nb"), None),
            (None, Some("1\r")),
            (None, Some("1\0")),
        ] {
            let err = encode_sse_event(&mut out, event, id, "x").unwrap_err();
            assert_eq!(err.code(), ErrorCode::ProtocolViolation);
        }
        assert_eq!(out, b"keep");
    }

    #[test]
    fn comments_split_lines() {
        let mut out = Vec::new();
        encode_sse_comment(&mut out, "a\nb");
        encode_sse_comment(&mut out, "");
        assert_eq!(out, b": a\n: b\n\n: \n\n");
    }

    #[test]
    fn ndjson_rejects_line_breaks() {
        let mut out = Vec::new();
        encode_ndjson(&mut out, "{}").unwrap();
        let err = encode_ndjson(&mut out, "{\n}").unwrap_err();
        assert_eq!(err.code(), ErrorCode::ProtocolViolation);
        assert_eq!(out, b"{}\n");
    }
}
