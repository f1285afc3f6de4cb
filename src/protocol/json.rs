//! JSON output exactly like the reference: pydantic's `model_dump_json()` (compact, nulls kept,
//! non-ASCII unescaped, declared field order, extras last) and, for the bare error object of the
//! HTTP layer, Python's `json.dumps()`.
//!
//! Float formatting is the one place where serde_json and pydantic differ: both print the
//! shortest round-trip digits, but pydantic writes a positive exponent with a sign (`1e+16`) and
//! switches to exponent form at the same thresholds as ryu (`0.00001`, `1e-6`, `1e+16`).
//! Python's `json.dumps` uses `repr(float)` instead (`1e-05`, `1e+16`).
//! See `reference/agentscope-protocol.md` §2.4.

use std::io;

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

/// A JSON object with its keys in insertion order, as Python dicts keep them.
pub type JsonMap = serde_json::Map<String, serde_json::Value>;

/// The string at `key` in `map`; `""` when it is absent or not a string.
pub(crate) fn str_field<'a>(map: &'a JsonMap, key: &str) -> &'a str {
    map.get(key)
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
}

/// A JSON value as a protocol carries it in a string field (a call's arguments, a tool's
/// output): a string as it is, absent or `null` as `""`, anything else as its compact JSON text.
pub(crate) fn value_text(value: Option<&serde_json::Value>) -> String {
    match value {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// Options for [`to_json`](crate::protocol::Event::to_json_with) output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JsonOptions {
    omit_nulls: bool,
}

impl JsonOptions {
    /// The reference's defaults: every field present, `null` where unset.
    pub const fn new() -> Self {
        JsonOptions { omit_nulls: false }
    }

    /// Drop fields (and extra keys) whose value is `null`, like pydantic's
    /// `model_dump_json(exclude_none=True)`. Nulls *inside* dict payloads (`data`, `usage`,
    /// `metadata`) are kept, as pydantic keeps them.
    #[must_use]
    pub const fn omit_nulls(mut self, yes: bool) -> Self {
        self.omit_nulls = yes;
        self
    }

    /// Whether nulls are omitted.
    pub const fn omits_nulls(&self) -> bool {
        self.omit_nulls
    }
}

/// A type that serialises as a pydantic model, honouring [`JsonOptions`].
pub(crate) trait WireSerialize {
    fn serialize_wire<S: Serializer>(
        &self,
        serializer: S,
        opts: JsonOptions,
    ) -> Result<S::Ok, S::Error>;
}

/// Adapter: a [`WireSerialize`] value with options, as a serde [`Serialize`].
pub(crate) struct Wire<'a, T: ?Sized>(pub &'a T, pub JsonOptions);

impl<T: WireSerialize + ?Sized> Serialize for Wire<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_wire(serializer, self.1)
    }
}

/// Adapter: a list of models.
pub(crate) struct WireSeq<'a, T>(pub &'a [T], pub JsonOptions);

impl<T: WireSerialize> Serialize for WireSeq<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&Wire(item, self.1))?;
        }
        seq.end()
    }
}

/// Writes the fields of one model into a serde map, in order, honouring `omit_nulls`.
pub(crate) struct Fields<M> {
    map: M,
    opts: JsonOptions,
}

impl<M: SerializeMap> Fields<M> {
    pub(crate) fn new(map: M, opts: JsonOptions) -> Self {
        Fields { map, opts }
    }

    /// A field that is never null.
    pub(crate) fn val<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), M::Error> {
        self.map.serialize_entry(key, v)
    }

    /// An optional plain field.
    pub(crate) fn opt<T: Serialize>(&mut self, key: &str, v: Option<&T>) -> Result<(), M::Error> {
        match v {
            Some(v) => self.map.serialize_entry(key, v),
            None if self.opts.omit_nulls => Ok(()),
            None => self.map.serialize_entry(key, &()),
        }
    }

    /// An optional nested model.
    pub(crate) fn model<T: WireSerialize>(
        &mut self,
        key: &str,
        v: Option<&T>,
    ) -> Result<(), M::Error> {
        match v {
            Some(v) => self.map.serialize_entry(key, &Wire(v, self.opts)),
            None => self.opt::<()>(key, None),
        }
    }

    /// An optional list of nested models.
    pub(crate) fn models<T: WireSerialize>(
        &mut self,
        key: &str,
        v: Option<&Vec<T>>,
    ) -> Result<(), M::Error> {
        match v {
            Some(v) => self.map.serialize_entry(key, &WireSeq(v, self.opts)),
            None => self.opt::<()>(key, None),
        }
    }

    /// Extra keys, after the declared fields, in input order.
    pub(crate) fn extra(&mut self, extra: &JsonMap) -> Result<(), M::Error> {
        for (k, v) in extra {
            if self.opts.omit_nulls && v.is_null() {
                continue;
            }
            self.map.serialize_entry(k, v)?;
        }
        Ok(())
    }

    pub(crate) fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

/// serde_json formatter producing pydantic's `model_dump_json()` bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct PydanticFormatter;

impl Formatter for PydanticFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        write_float(writer, value, FloatStyle::Pydantic)
    }

    #[cfg(feature = "lite")]
    fn write_number_str<W: ?Sized + io::Write>(&mut self, w: &mut W, text: &str) -> io::Result<()> {
        write_number_text(w, text, FloatStyle::Pydantic)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        write_float(writer, f64::from(value), FloatStyle::Pydantic)
    }
}

/// A number of the `lite` build (kept as text, in the form `number::from_text` gives it) written
/// as the `full` build writes the parsed number: integers as they are, floats in `style`.
#[cfg(feature = "lite")]
fn write_number_text<W: ?Sized + io::Write>(
    writer: &mut W,
    text: &str,
    style: FloatStyle,
) -> io::Result<()> {
    match super::number::parse_exact(text) {
        Some(f) if text.contains(['.', 'e', 'E']) => write_float(writer, f, style),
        _ => writer.write_all(text.as_bytes()),
    }
}

/// serde_json formatter producing Python `json.dumps()` bytes with its defaults
/// (`ensure_ascii=True`, separators `", "` and `": "`, `repr()` floats).
#[derive(Debug, Clone, Copy, Default)]
pub struct PythonJsonFormatter;

impl Formatter for PythonJsonFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // ensure_ascii: everything outside ' '..='~' is escaped (DEL included).
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if c.is_ascii() && c != '\u{7f}' {
                continue;
            }
            writer.write_all(fragment.as_bytes().get(start..i).unwrap_or_default())?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{:04x}", unit)?;
            }
            start = i + c.len_utf8();
        }
        writer.write_all(fragment.as_bytes().get(start..).unwrap_or_default())
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        write_float(writer, value, FloatStyle::PythonRepr)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        write_float(writer, f64::from(value), FloatStyle::PythonRepr)
    }

    #[cfg(feature = "lite")]
    fn write_number_str<W: ?Sized + io::Write>(&mut self, w: &mut W, text: &str) -> io::Result<()> {
        write_number_text(w, text, FloatStyle::PythonRepr)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FloatStyle {
    /// pydantic-core: fixed for -5 < decpt <= 16, else `1e+16` / `1e-6`.
    Pydantic,
    /// Python `repr`: fixed for -4 < decpt <= 16, else `1e+16` / `1e-05`.
    PythonRepr,
}

/// Formats a finite float the way pydantic (or Python's `repr`) does.
pub fn format_pydantic_float(value: f64) -> String {
    let mut out = Vec::with_capacity(24);
    // Writing into a Vec cannot fail.
    let _ = write_float(&mut out, value, FloatStyle::Pydantic);
    String::from_utf8(out).unwrap_or_default()
}

fn write_float<W: ?Sized + io::Write>(w: &mut W, value: f64, style: FloatStyle) -> io::Result<()> {
    if !value.is_finite() {
        // pydantic writes NaN and infinities as null (the default `ser_json_inf_nan`).
        return w.write_all(b"null");
    }
    // Shortest round-trip digits from serde_json's own float printer, then re-laid-out.
    let mut buf = [0u8; 40];
    let len = {
        let mut cursor: &mut [u8] = &mut buf;
        let before = cursor.len();
        CompactFormatter.write_f64(&mut cursor, value)?;
        before - cursor.len()
    };
    let printed = buf.get(..len).unwrap_or_default();
    let (negative, digits, decpt) = decompose(printed);
    if negative {
        w.write_all(b"-")?;
    }
    let (lo, hi) = match style {
        FloatStyle::Pydantic => (-5, 16),
        FloatStyle::PythonRepr => (-4, 16),
    };
    let n = digits.len() as i32;
    if decpt > lo && decpt <= hi {
        if decpt <= 0 {
            w.write_all(b"0.")?;
            for _ in 0..(-decpt) {
                w.write_all(b"0")?;
            }
            w.write_all(&digits)?;
        } else if decpt >= n {
            w.write_all(&digits)?;
            for _ in 0..(decpt - n) {
                w.write_all(b"0")?;
            }
            w.write_all(b".0")?;
        } else {
            let (int_part, frac) = digits.split_at(decpt as usize);
            w.write_all(int_part)?;
            w.write_all(b".")?;
            w.write_all(frac)?;
        }
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        w.write_all(first)?;
        if !rest.is_empty() {
            w.write_all(b".")?;
            w.write_all(rest)?;
        }
        let exp = decpt - 1;
        match style {
            FloatStyle::Pydantic => {
                if exp >= 0 {
                    write!(w, "e+{exp}")?;
                } else {
                    write!(w, "e{exp}")?;
                }
            }
            FloatStyle::PythonRepr => {
                let sign = if exp >= 0 { '+' } else { '-' };
                write!(w, "e{sign}{:02}", exp.unsigned_abs())?;
            }
        }
    }
    Ok(())
}

/// Splits a printed float (`-1.25e-7`, `0.001`, `1234.5`, `1e16`) into sign, significant digits
/// (no leading/trailing zeros, at least one digit) and the decimal-point position `decpt`
/// (value = 0.DIGITS × 10^decpt).
fn decompose(printed: &[u8]) -> (bool, Vec<u8>, i32) {
    let (negative, body) = match printed.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, printed),
    };
    let (mantissa, exp) = match body.iter().position(|&b| b == b'e' || b == b'E') {
        Some(p) => {
            let (m, e) = body.split_at(p);
            let e = std::str::from_utf8(e.get(1..).unwrap_or_default())
                .ok()
                .and_then(|s| s.trim_start_matches('+').parse::<i32>().ok())
                .unwrap_or(0);
            (m, e)
        }
        None => (body, 0),
    };
    let mut digits = Vec::with_capacity(mantissa.len());
    let mut int_len: i32 = 0;
    let mut seen_point = false;
    for &b in mantissa {
        if b == b'.' {
            seen_point = true;
        } else if b.is_ascii_digit() {
            digits.push(b);
            if !seen_point {
                int_len += 1;
            }
        }
    }
    let leading = digits.iter().take_while(|&&b| b == b'0').count();
    digits.drain(..leading);
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        // Zero: `0.0` / `-0.0`.
        return (negative, vec![b'0'], 1);
    }
    let decpt = int_len - leading as i32 + exp;
    (negative, digits, decpt)
}

/// Serialises with [`PydanticFormatter`].
pub(crate) fn to_pydantic_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PydanticFormatter);
    if value.serialize(&mut ser).is_err() {
        // Our models only produce string keys; serialisation into a Vec cannot fail.
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Serialises with [`PythonJsonFormatter`] (Python `json.dumps` defaults).
pub(crate) fn to_python_json_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(64);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonJsonFormatter);
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Serialises any value (for example a `data` payload) exactly as pydantic would.
pub fn to_pydantic_json<T: Serialize + ?Sized>(value: &T) -> String {
    to_pydantic_string(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(v: f64) -> String {
        format_pydantic_float(v)
    }

    fn repr(v: f64) -> String {
        let mut out = Vec::new();
        write_float(&mut out, v, FloatStyle::PythonRepr).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn pydantic_float_format() {
        // Pairs captured from pydantic 2.14 `model_dump_json()`.
        let cases: &[(f64, &str)] = &[
            (1e-4, "0.0001"),
            (1e-5, "0.00001"),
            (1e-6, "1e-6"),
            (1.5e-7, "1.5e-7"),
            (1.23456e-5, "0.0000123456"),
            (5e-324, "5e-324"),
            (0.5, "0.5"),
            (1.0, "1.0"),
            (10.0, "10.0"),
            (1e15, "1000000000000000.0"),
            (9999999999999998.0, "9999999999999998.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e22, "1e+22"),
            (123456789.123, "123456789.123"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (-1e-5, "-0.00001"),
            (-1e16, "-1e+16"),
            (12345678901234567890.0, "1.2345678901234567e+19"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
        ];
        for (v, want) in cases {
            assert_eq!(py(*v), *want, "{v:e}");
        }
    }

    #[test]
    fn python_repr_float_format() {
        assert_eq!(repr(1e-5), "1e-05");
        assert_eq!(repr(1e-4), "0.0001");
        assert_eq!(repr(1e16), "1e+16");
        assert_eq!(repr(1.5e300), "1.5e+300");
        assert_eq!(repr(2.5), "2.5");
        assert_eq!(repr(1e100), "1e+100");
    }

    #[test]
    fn python_json_dumps_style() {
        let v = serde_json::json!({"error": "é😀\u{7f}\n", "n": [1, 2.5]});
        assert_eq!(
            to_python_json_string(&v),
            r#"{"error": "\u00e9\ud83d\ude00\u007f\n", "n": [1, 2.5]}"#
        );
    }
}
