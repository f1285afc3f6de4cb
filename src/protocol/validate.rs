//! Validation of parsed JSON values into the models, with pydantic's lax coercions and error
//! locations (`input.0.content.1.type`).
//!
//! Coercions mirror pydantic 2 in lax (Python) mode, which is how the reference validates a
//! request body: an `int` field takes `3`, `3.0`, `"3"`, `" 3 "`, `"3.0"` and `true`; a `float`
//! field takes integers, booleans and numeric strings (`"inf"`/`"nan"` too); a `bool` field takes
//! `0`/`1`, `0.0`/`1.0` and the strings `true/false/yes/no/on/off/t/f/y/n/1/0`; a `str` field takes
//! only strings.

// Matches here are over `serde_json::Value`, a closed set of six JSON kinds.
#![allow(clippy::wildcard_enum_match_arm)]

use std::fmt::{self, Write as _};

use serde_json::Value;

use super::json::JsonMap;
use super::number;
use crate::{Error, ErrorCode, Result};

/// One step of a location.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// A location in the input, as a linked list on the stack (no allocation until an error).
#[derive(Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Option<Seg<'a>>,
}

impl<'a> Path<'a> {
    pub(crate) const ROOT: Path<'static> = Path {
        parent: None,
        seg: None,
    };

    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Key(key)),
        }
    }

    pub(crate) fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Index(i)),
        }
    }

    fn is_root(&self) -> bool {
        self.seg.is_none()
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            if !parent.is_root() {
                write!(f, "{parent}.")?;
            }
        }
        match self.seg {
            Some(Seg::Key(k)) => f.write_str(k),
            Some(Seg::Index(i)) => write!(f, "{i}"),
            None => Ok(()),
        }
    }
}

/// Whether a value is read as a request (strict like the reference) or as an event (tolerant of
/// unknown content types).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    Request,
    Event,
}

/// Validation context: the error code to report and the mode.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) code: ErrorCode,
    pub(crate) mode: Mode,
}

impl Ctx {
    pub(crate) const REQUEST: Ctx = Ctx {
        code: ErrorCode::InvalidRequest,
        mode: Mode::Request,
    };
    pub(crate) const EVENT: Ctx = Ctx {
        code: ErrorCode::ProtocolViolation,
        mode: Mode::Event,
    };

    /// An error at `path` with pydantic's message `msg`: message `"<path>: <msg>"`, field
    /// `<path>`.
    pub(crate) fn err(&self, path: &Path<'_>, msg: impl fmt::Display) -> Error {
        if path.is_root() {
            return Error::new(self.code, msg.to_string());
        }
        let field = path.to_string();
        let mut message = String::with_capacity(field.len() + 40);
        let _ = write!(message, "{field}: {msg}");
        Error::new(self.code, message).with_field(field)
    }

    pub(crate) fn missing(&self, path: &Path<'_>) -> Error {
        self.err(path, "Field required")
    }

    pub(crate) fn string(&self, v: Value, path: &Path<'_>) -> Result<String> {
        match v {
            Value::String(s) => Ok(s),
            _ => Err(self.err(path, "Input should be a valid string")),
        }
    }

    pub(crate) fn opt_string(&self, v: Value, path: &Path<'_>) -> Result<Option<String>> {
        match v {
            Value::Null => Ok(None),
            other => self.string(other, path).map(Some),
        }
    }

    pub(crate) fn int(&self, v: Value, path: &Path<'_>) -> Result<i64> {
        match v {
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Ok(i)
                } else if let Some(f) = number::to_f64(&n) {
                    self.int_from_float(f, path)
                } else {
                    Err(self.err(path, "Input should be a valid integer"))
                }
            }
            Value::Bool(b) => Ok(i64::from(b)),
            Value::String(s) => {
                let t = s.trim();
                if let Ok(i) = t.parse::<i64>() {
                    return Ok(i);
                }
                match parse_decimal(t) {
                    Some(f) if f.is_finite() && f.fract() == 0.0 => self.int_from_float(f, path),
                    _ => Err(self.err(
                        path,
                        "Input should be a valid integer, unable to parse string as an integer",
                    )),
                }
            }
            _ => Err(self.err(path, "Input should be a valid integer")),
        }
    }

    fn int_from_float(&self, f: f64, path: &Path<'_>) -> Result<i64> {
        if !f.is_finite() {
            return Err(self.err(path, "Input should be a finite number"));
        }
        if f.fract() != 0.0 {
            return Err(self.err(
                path,
                "Input should be a valid integer, got a number with a fractional part",
            ));
        }
        // Exact for |f| < 2^63; beyond that the reference keeps a Python big int, we refuse.
        if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
            Ok(f as i64)
        } else {
            Err(self.err(
                path,
                "Input should be a valid integer (beyond the 64-bit range)",
            ))
        }
    }

    pub(crate) fn opt_int(&self, v: Value, path: &Path<'_>) -> Result<Option<i64>> {
        match v {
            Value::Null => Ok(None),
            other => self.int(other, path).map(Some),
        }
    }

    pub(crate) fn opt_float(&self, v: Value, path: &Path<'_>) -> Result<Option<f64>> {
        match v {
            Value::Null => Ok(None),
            Value::Number(n) => Ok(number::to_f64(&n)),
            Value::Bool(b) => Ok(Some(if b { 1.0 } else { 0.0 })),
            Value::String(s) => parse_float(s.trim()).map(Some).ok_or_else(|| {
                self.err(
                    path,
                    "Input should be a valid number, unable to parse string as a number",
                )
            }),
            _ => Err(self.err(path, "Input should be a valid number")),
        }
    }

    pub(crate) fn bool(&self, v: Value, path: &Path<'_>) -> Result<bool> {
        const PARSE: &str = "Input should be a valid boolean, unable to interpret input";
        match v {
            Value::Bool(b) => Ok(b),
            Value::Number(n) => match number::to_f64(&n) {
                Some(0.0) => Ok(false),
                Some(1.0) => Ok(true),
                _ => Err(self.err(path, PARSE)),
            },
            Value::String(s) => match s.to_ascii_lowercase().as_str() {
                "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
                "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
                _ => Err(self.err(path, PARSE)),
            },
            _ => Err(self.err(path, "Input should be a valid boolean")),
        }
    }

    pub(crate) fn opt_bool(&self, v: Value, path: &Path<'_>) -> Result<Option<bool>> {
        match v {
            Value::Null => Ok(None),
            other => self.bool(other, path).map(Some),
        }
    }

    pub(crate) fn dict(&self, v: Value, path: &Path<'_>) -> Result<JsonMap> {
        match v {
            Value::Object(m) => Ok(m),
            _ => Err(self.err(path, "Input should be a valid dictionary")),
        }
    }

    pub(crate) fn opt_dict(&self, v: Value, path: &Path<'_>) -> Result<Option<JsonMap>> {
        match v {
            Value::Null => Ok(None),
            other => self.dict(other, path).map(Some),
        }
    }

    pub(crate) fn list(&self, v: Value, path: &Path<'_>) -> Result<Vec<Value>> {
        match v {
            Value::Array(a) => Ok(a),
            _ => Err(self.err(path, "Input should be a valid list")),
        }
    }

    /// An optional string field: absent or `null` → `None`.
    pub(crate) fn field_opt_string(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
    ) -> Result<Option<String>> {
        match v {
            Some(v) => self.opt_string(v, &path.key(name)),
            None => Ok(None),
        }
    }

    /// A string field with a default when absent (`null` is an error).
    pub(crate) fn field_string_or(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
        default: &str,
    ) -> Result<String> {
        match v {
            Some(v) => self.string(v, &path.key(name)),
            None => Ok(default.to_owned()),
        }
    }

    /// An optional integer field: absent or `null` → `None`.
    pub(crate) fn field_opt_int(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
    ) -> Result<Option<i64>> {
        match v {
            Some(v) => self.opt_int(v, &path.key(name)),
            None => Ok(None),
        }
    }

    /// An optional float field: absent or `null` → `None`.
    pub(crate) fn field_opt_float(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
    ) -> Result<Option<f64>> {
        match v {
            Some(v) => self.opt_float(v, &path.key(name)),
            None => Ok(None),
        }
    }

    /// An optional dict field: absent or `null` → `None`.
    pub(crate) fn field_opt_dict(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
    ) -> Result<Option<JsonMap>> {
        match v {
            Some(v) => self.opt_dict(v, &path.key(name)),
            None => Ok(None),
        }
    }

    /// An optional field that `read` reads at `path.name`: absent or `null` → `None`.
    pub(crate) fn field_opt_with<T>(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
        read: impl FnOnce(Value, &Path<'_>, &Ctx) -> Result<T>,
    ) -> Result<Option<T>> {
        match v {
            Some(Value::Null) | None => Ok(None),
            Some(v) => read(v, &path.key(name), self).map(Some),
        }
    }

    /// An optional list field whose items `read` reads, each at its index: absent or `null` →
    /// `None`; anything else than a list is an error.
    pub(crate) fn field_opt_list<T>(
        &self,
        v: Option<Value>,
        path: &Path<'_>,
        name: &str,
        read: impl Fn(Value, &Path<'_>, &Ctx) -> Result<T>,
    ) -> Result<Option<Vec<T>>> {
        self.field_opt_with(v, path, name, |v, p, ctx| {
            let items = ctx.list(v, p)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                out.push(read(item, &p.index(i), ctx)?);
            }
            Ok(out)
        })
    }

    /// A nested model: must be a JSON object.
    pub(crate) fn model(&self, v: Value, path: &Path<'_>, name: &str) -> Result<JsonMap> {
        match v {
            Value::Object(m) => Ok(m),
            _ => Err(self.err(
                path,
                format_args!("Input should be a valid dictionary or instance of {name}"),
            )),
        }
    }
}

/// Splits a model's object into the values of its declared `fields` (slot `i` holds the value
/// of `fields[i]`) and its other keys, in input order.
pub(crate) fn take_fields<const N: usize>(
    map: JsonMap,
    fields: &[&str; N],
) -> ([Option<Value>; N], JsonMap) {
    let mut slots: [Option<Value>; N] = std::array::from_fn(|_| None);
    let extra = take_fields_into(map, fields, &mut slots);
    (slots, extra)
}

fn take_fields_into(map: JsonMap, fields: &[&str], slots: &mut [Option<Value>]) -> JsonMap {
    let mut extra = JsonMap::new();
    for (k, v) in map {
        match fields
            .iter()
            .position(|f| *f == k)
            .and_then(|i| slots.get_mut(i))
        {
            Some(slot) => *slot = Some(v),
            None => {
                extra.insert(k, v);
            }
        }
    }
    extra
}

/// A float from a string, as Rust's `f64::from_str` reads it (which matches Python's `float()`
/// except for `_` separators, which pydantic rejects too): an optional sign, then `inf`,
/// `infinity` or `nan` in any case, or a decimal literal ([`parse_decimal`]).
fn parse_float(t: &str) -> Option<f64> {
    let (negative, unsigned) = split_sign(t);
    let special = match unsigned.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => return parse_decimal(t),
    };
    Some(if negative { -special } else { special })
}

fn split_sign(t: &str) -> (bool, &str) {
    match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..).unwrap_or_default()),
        Some(b'+') => (false, t.get(1..).unwrap_or_default()),
        _ => (false, t),
    }
}

/// A decimal literal, `[+-]? (D+ | D+ '.' D* | D* '.' D+) ([eE] [+-]? D+)?`, correctly rounded
/// like `f64::from_str` (overflow gives ±infinity, underflow ±0).
///
/// The literal is rewritten as a JSON number (`[-]DIGITSeEXP`) and read by
/// [`number::parse_exact`], which keeps core's own float parser and its 10 KB power-of-five
/// table out of the wasm.
fn parse_decimal(t: &str) -> Option<f64> {
    let (negative, rest) = split_sign(t);
    let bytes = rest.as_bytes();
    let digits_at = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |b| b.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let int_len = digits_at(0);
    let mut end = int_len;
    let mut frac = "";
    if bytes.get(end) == Some(&b'.') {
        let frac_len = digits_at(end + 1);
        frac = rest.get(end + 1..end + 1 + frac_len)?;
        end += 1 + frac_len;
    }
    if int_len + frac.len() == 0 {
        return None;
    }
    // Exponents this large give infinity or zero whatever the digits (inputs are far shorter
    // than a billion digits), so they are clamped instead of overflowing.
    const CLAMP: i64 = 1_000_000_000;
    let mut exp: i64 = 0;
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let (exp_negative, exp_digits) = split_sign(rest.get(end + 1..)?);
        if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        for b in exp_digits.bytes() {
            exp = (exp * 10 + i64::from(b - b'0')).min(CLAMP);
        }
        if exp_negative {
            exp = -exp;
        }
    } else if end != bytes.len() {
        return None;
    }
    let int = rest.get(..int_len)?;
    let mut json = String::with_capacity(t.len() + 24);
    if negative {
        json.push('-');
    }
    // JSON allows no leading zeros: drop them from the digits (integer part, then fraction).
    let int = int.trim_start_matches('0');
    let frac_digits = if int.is_empty() {
        frac.trim_start_matches('0')
    } else {
        frac
    };
    if frac_digits.is_empty() && int.is_empty() {
        // Zero keeps its sign: `-0.0`.
        return Some(if negative { -0.0 } else { 0.0 });
    }
    json.push_str(int);
    json.push_str(frac_digits);
    json.push('e');
    json.push_str(&(exp - frac.len() as i64).to_string());
    number::parse_exact(&json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn path_display() {
        let root = Path::ROOT;
        let a = root.key("input");
        let b = a.index(0);
        let c = b.key("content");
        assert_eq!(c.to_string(), "input.0.content");
        let e = Ctx::REQUEST.missing(&c);
        assert_eq!(e.message(), "input.0.content: Field required");
        assert_eq!(e.field(), Some("input.0.content"));
        assert_eq!(e.code(), ErrorCode::InvalidRequest);
    }

    #[test]
    fn lax_coercions() {
        let p = Path::ROOT;
        let c = Ctx::REQUEST;
        assert_eq!(c.int(json!("3"), &p).unwrap(), 3);
        assert_eq!(c.int(json!(" 3 "), &p).unwrap(), 3);
        assert_eq!(c.int(json!(3.0), &p).unwrap(), 3);
        assert_eq!(c.int(json!("3.0"), &p).unwrap(), 3);
        assert_eq!(c.int(json!(true), &p).unwrap(), 1);
        assert!(c.int(json!(3.5), &p).is_err());
        assert!(c.int(json!("x"), &p).is_err());
        assert_eq!(c.opt_float(json!("0.5"), &p).unwrap(), Some(0.5));
        assert_eq!(c.opt_float(json!(1), &p).unwrap(), Some(1.0));
        assert!(c.opt_float(json!("nan"), &p).unwrap().unwrap().is_nan());
        assert!(c.bool(json!("Yes"), &p).unwrap());
        assert!(!c.bool(json!(0.0), &p).unwrap());
        assert!(c.bool(json!(2), &p).is_err());
        assert!(c.string(json!(5), &p).is_err());
    }

    /// `parse_float` reads exactly what `f64::from_str` reads, to the bit.
    #[test]
    fn parse_float_matches_core() {
        let same = |t: &str| {
            let want = t.parse::<f64>().ok();
            let got = parse_float(t);
            assert_eq!(
                want.map(|f| if f.is_nan() { u64::MAX } else { f.to_bits() }),
                got.map(|f| if f.is_nan() { u64::MAX } else { f.to_bits() }),
                "{t:?}"
            );
        };
        for t in [
            "0",
            "-0",
            "+0",
            "0.0",
            "-0.0",
            "00",
            "007",
            "0.000",
            ".5",
            "5.",
            ".",
            "-.",
            "+.5",
            "1e5",
            "1E5",
            "1e+5",
            "1e-5",
            "1e",
            "1e+",
            "e5",
            ".e5",
            "1.e5",
            ".5e-3",
            "1e400",
            "-1e400",
            "1e-400",
            "-1e-400",
            "0e999999999999999999",
            "1e999999999999999999",
            "1e-999999999999999999",
            "2.2250738585072011e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "9007199254740993",
            "0.1",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "1-2",
            "1e5.5",
            "--1",
            "+-1",
            "inf",
            "-inf",
            "+inf",
            "INF",
            "Infinity",
            "-infinity",
            "nan",
            "-NaN",
            "+nan",
            "infinit",
            "nana",
            "--inf",
            "",
            "+",
            "-",
            " 1",
            "1 ",
            "1_000",
            "0x10",
            "000000000000000000000000000001e-30",
            "0.000000000000000000000000000001e30",
        ] {
            same(t);
        }
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const ALPHABET: &[u8] = b"0123456789000999.eE+-";
        for _ in 0..50_000 {
            let len = (next() % 30) as usize;
            let t: String = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize] as char)
                .collect();
            same(&t);
            let x = f64::from_bits(next());
            if x.is_finite() {
                same(&format!("{x:e}"));
                same(&format!("{x}"));
                same(&format!("{x:.3e}"));
            }
        }
    }
}
