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
                } else if let Some(f) = n.as_f64() {
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
                match t.parse::<f64>() {
                    Ok(f) if f.is_finite() && f.fract() == 0.0 && looks_numeric(t) => {
                        self.int_from_float(f, path)
                    }
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
            Value::Number(n) => Ok(n.as_f64()),
            Value::Bool(b) => Ok(Some(if b { 1.0 } else { 0.0 })),
            Value::String(s) => {
                let t = s.trim();
                let lower = t.to_ascii_lowercase();
                let parsed = match lower.trim_start_matches(['+', '-']) {
                    "inf" | "infinity" | "nan" => t.parse::<f64>().ok(),
                    _ if looks_numeric(t) => t.parse::<f64>().ok(),
                    _ => None,
                };
                parsed.map(Some).ok_or_else(|| {
                    self.err(
                        path,
                        "Input should be a valid number, unable to parse string as a number",
                    )
                })
            }
            _ => Err(self.err(path, "Input should be a valid number")),
        }
    }

    pub(crate) fn bool(&self, v: Value, path: &Path<'_>) -> Result<bool> {
        const PARSE: &str = "Input should be a valid boolean, unable to interpret input";
        match v {
            Value::Bool(b) => Ok(b),
            Value::Number(n) => match n.as_f64() {
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

/// Python's `float()` accepts only decimal literals (plus inf/nan, handled apart); Rust's parser
/// accepts the same set except that it would not accept `1_000`, which pydantic also rejects.
fn looks_numeric(t: &str) -> bool {
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'))
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
}
