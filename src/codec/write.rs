//! A one-pass JSON writer for the adapters' output: static fragments are copied, strings
//! escaped and numbers written in place, so that no `serde_json::Value` tree is built per event.
//! The bytes equal `serde_json`'s compact output of the same object (the same escaping, the
//! same number forms), which is what the encoders wrote before.

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Serializer};
use serde_json::Value;

use super::Format;
use crate::{Error, ErrorCode, Result};

/// Appends a static JSON fragment. Never inlined (as [`string`]).
#[inline(never)]
pub(crate) fn raw(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
}

/// Appends `s` as a JSON string. Never inlined: it is called from a hundred places.
#[inline(never)]
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    // Writing into a Vec cannot fail.
    let _ = s.serialize(&mut Serializer::with_formatter(&mut *out, CompactFormatter));
}

/// Appends any JSON value (a map, a number from the input, …) in compact form, through
/// `Value`'s `Display` (already in the binary; a serializer into the `Vec` would be one more
/// instantiation of the whole `Value` serializer).
pub(crate) fn value(out: &mut Vec<u8>, v: &Value) {
    raw(out, &v.to_string());
}

/// Appends an object in compact form (as [`value`]).
pub(crate) fn map(out: &mut Vec<u8>, m: &serde_json::Map<String, Value>) {
    value(out, &Value::Object(m.clone()));
}

/// Appends `n` in decimal.
pub(crate) fn int(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    uint(out, n.unsigned_abs());
}

/// Appends `n` in decimal.
pub(crate) fn uint(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while i > 0 {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            // `n % 10` is a digit.
            #[allow(clippy::cast_possible_truncation)]
            let d = (n % 10) as u8;
            *slot = b'0' + d;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(buf.get(i..).unwrap_or_default());
}

/// Appends `n`, or `null`.
pub(crate) fn opt_int(out: &mut Vec<u8>, n: Option<i64>) {
    match n {
        Some(n) => int(out, n),
        None => raw(out, "null"),
    }
}

/// Appends `s` as a JSON string, or `null`.
pub(crate) fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => raw(out, "null"),
    }
}

/// Appends `true` or `false`.
pub(crate) fn bool(out: &mut Vec<u8>, b: bool) {
    raw(out, if b { "true" } else { "false" });
}

/// `INVALID_OPTION` (field `format`) for [`Format::Auto`]: an encoder writes SSE or NDJSON.
pub(crate) fn check_output_format(format: Format) -> Result<()> {
    if format == Format::Auto {
        return Err(Error::new(
            ErrorCode::InvalidOption,
            "An encoder writes \"sse\" or \"ndjson\"; \"auto\" is only for reading.",
        )
        .with_field("format"));
    }
    Ok(())
}

/// Starts an event's frame: `data: ` in SSE, nothing in NDJSON.
pub(crate) fn frame_start(out: &mut Vec<u8>, format: Format) {
    if format != Format::Ndjson {
        raw(out, "data: ");
    }
}

/// Ends an event's frame: `close` (what closes the event's JSON), then one LF in NDJSON, two
/// in SSE.
pub(crate) fn frame_end(out: &mut Vec<u8>, format: Format, close: &str) {
    raw(out, close);
    raw(
        out,
        if format == Format::Ndjson {
            "\n"
        } else {
            "\n\n"
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_as_serde() {
        for n in [0i64, 7, -7, 10, 99, -100, 12345, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            int(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }
}
