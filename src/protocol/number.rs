//! JSON numbers as the protocol reads them: the double a number stands for, parsed exactly, and
//! JSON equality that compares numbers by value.
//!
//! The `full` build parses numbers as it reads the JSON (serde_json's correctly rounded
//! `float_roundtrip` parser). The `lite` build keeps each number as its text
//! (`arbitrary_precision`): values reach JavaScript as its own `JSON.parse` reads them, and the
//! few places that need a double (validating a field, adding two numbers of a data delta) get
//! it here from the host's exact parser (JavaScript's `parseFloat` in wasm, Rust's `f64` parser
//! natively). Both builds give the same doubles; lite does it without ~8 KB gzip of float
//! tables (bench/README.md, "Size").

use serde_json::{Map, Number, Value};

/// The double `n` stands for, correctly rounded; `None` when it is out of range (e.g. `1e400`,
/// which only the lite build keeps, as text).
pub(crate) fn to_f64(n: &Number) -> Option<f64> {
    #[cfg(feature = "lite")]
    {
        parse_exact(n.as_str()).filter(|f| f.is_finite())
    }
    #[cfg(not(feature = "lite"))]
    {
        n.as_f64()
    }
}

/// The number a JSON literal stands for, in the form the `full` build reads it: an integer when
/// the literal has no fraction or exponent and fits 64 bits, otherwise the nearest double
/// (written back as its shortest text, so that equal doubles are equal text, as `full` prints
/// them). `-0` is the double `-0.0`, as in `full`. `None` when the double would be infinite
/// (`full` rejects such an event as invalid JSON) or `text` is not a literal.
#[cfg(feature = "lite")]
pub(crate) fn from_text(text: &str) -> Option<Number> {
    let integer = !text.contains(['.', 'e', 'E']) && text != "-0";
    if integer {
        if let Ok(i) = text.parse::<i64>() {
            return Some(Number::from(i));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Some(Number::from(u));
        }
    }
    parse_exact(text).and_then(Number::from_f64)
}

/// A JSON number literal as a [`Number`], read as the event reader reads numbers (in `lite`,
/// [`from_text`]); `None` when it is not one or overflows a double.
pub(crate) fn parse_number(text: &str) -> Option<Number> {
    #[cfg(feature = "lite")]
    {
        is_json_number(text).then(|| from_text(text)).flatten()
    }
    #[cfg(not(feature = "lite"))]
    {
        text.parse::<Number>().ok()
    }
}

/// A JSON number literal (`-?D+(.D+)?([eE][+-]?D+)?`) read as the nearest double; overflow gives
/// ±infinity, underflow ±0. `None` when `text` is not such a literal.
pub(crate) fn parse_exact(text: &str) -> Option<f64> {
    #[cfg(all(feature = "lite", target_arch = "wasm32"))]
    {
        // `parseFloat` reads a prefix; the JSON check keeps it to whole literals.
        is_json_number(text).then(|| js_sys::parse_float(text))
    }
    #[cfg(all(feature = "lite", not(target_arch = "wasm32")))]
    {
        is_json_number(text)
            .then(|| text.parse::<f64>().ok())
            .flatten()
    }
    #[cfg(not(feature = "lite"))]
    {
        // serde_json's parser is linked anyway and correctly rounded here (`float_roundtrip`);
        // core's would add its own 10 KB table. Read as a `Value`: `from_str::<f64>` would link
        // serde_json's wrong-type error path. A well-formed literal fails only by overflowing.
        match serde_json::from_str::<Value>(text) {
            Ok(v) => v.as_f64(),
            Err(_) if is_json_number(text) => Some(if text.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }),
            Err(_) => None,
        }
    }
}

/// Whether `text` is a whole JSON number literal.
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_at = i;
    let int_len = digits(&mut i);
    if int_len == 0 || (int_len > 1 && b.get(int_at) == Some(&b'0')) {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Whether two JSON values are equal, numbers compared as the `full` build compares them: two
/// integers by value, two floats by value, an integer never equal to a float (`1` ≠ `1.0`).
/// In the `full` build this is `==`. In `lite`, numbers read by agentwire already have one text
/// per value ([`from_text`]), but `0.0` and `-0.0` are equal doubles with two texts, and a
/// `Value` built elsewhere (serde_json's own reading) keeps its input's spelling.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    #[cfg(feature = "lite")]
    {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => numbers_eq(x, y),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
            }
            (Value::Object(x), Value::Object(y)) => map_eq(x, y),
            _ => a == b,
        }
    }
    #[cfg(not(feature = "lite"))]
    {
        a == b
    }
}

/// [`json_eq`] for two JSON objects (keys in any order).
pub(crate) fn map_eq(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| json_eq(v, w)))
}

/// Two numbers kept as text, compared as the `full` build compares parsed ones.
#[cfg(feature = "lite")]
fn numbers_eq(x: &Number, y: &Number) -> bool {
    // The `full` build reads a literal without fraction or exponent that fits 64 bits as an
    // integer, anything else as a float.
    let int = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (int(x), int(y)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => {
            // Both floats: compare doubles (`0.0 == -0.0`, as full's `Number` does); two
            // literals past the range of a double, by text.
            to_f64(x).is_some_and(|a| to_f64(y).is_some_and(|b| a == b)) || x.as_str() == y.as_str()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_number_literals() {
        for ok in ["0", "-0", "12", "-3.25", "1e5", "1E+5", "2.5e-3", "0.0"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.", " 1", "NaN",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn parses_correctly_rounded() {
        // Each of these is misread by an ulp by a parser that is not correctly rounded
        // (serde_json without `float_roundtrip` misreads ~10% of random doubles).
        for text in [
            "0.12345678901234568",
            "0.8444218515250481",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "5e-324",
            "9007199254740993",
            "123456789012345678901234567890",
        ] {
            let want: f64 = text.parse().unwrap_or(f64::NAN);
            assert_eq!(
                parse_exact(text).map(f64::to_bits),
                Some(want.to_bits()),
                "{text}"
            );
        }
        assert_eq!(parse_exact("1e400"), Some(f64::INFINITY));
        assert_eq!(parse_exact("-1e400"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_exact("1.5x"), None);
    }

    #[test]
    fn numbers_take_the_form_the_full_build_reads() {
        // What serde_json with `float_roundtrip` (the full build) reads each literal as.
        let full = |s: &str| -> Value {
            match s {
                "1E2" | "100.0" => serde_json::json!(100.0),
                "-0" => serde_json::json!(-0.0),
                "0.30000000000000004" => serde_json::json!(0.1 + 0.2),
                "12" => serde_json::json!(12),
                "-9223372036854775808" => serde_json::json!(i64::MIN),
                "18446744073709551615" => serde_json::json!(u64::MAX),
                "18446744073709551616" => serde_json::json!(18_446_744_073_709_551_616.0),
                _ => Value::Null,
            }
        };
        for text in [
            "1E2",
            "100.0",
            "-0",
            "0.30000000000000004",
            "12",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
        ] {
            let ours = serde_json::from_str::<super::super::value::JsonValue>(text)
                .map(|v| v.0)
                .unwrap_or_default();
            assert!(json_eq(&ours, &full(text)), "{text}: {ours}");
            assert_eq!(ours.is_f64(), full(text).is_f64(), "{text}");
        }
        assert!(serde_json::from_str::<super::super::value::JsonValue>("1e400").is_err());
    }

    #[test]
    fn partial_numbers_read_as_the_event_reader_reads_them() {
        for text in ["", "-", "12.", "1e", "01", "1e400", "-1e400"] {
            assert!(parse_number(text).is_none(), "{text}");
        }
        let n = |t: &str| parse_number(t).map(Value::Number).unwrap_or_default();
        assert!(json_eq(&n("0.5"), &serde_json::json!(0.5)));
        assert!(json_eq(&n("1E2"), &serde_json::json!(100.0)));
        assert!(json_eq(&n("-0"), &serde_json::json!(-0.0)));
        assert!(json_eq(&n("7"), &serde_json::json!(7)));
    }

    #[test]
    fn equality_of_numbers_matches_the_full_build() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
        assert!(json_eq(&v(r#"{"a":[1,2.5]}"#), &v(r#"{"a":[1,2.5]}"#)));
        assert!(json_eq(&v("1e16"), &v("1e+16")));
        assert!(json_eq(&v("2.50"), &v("2.5")));
        assert!(!json_eq(&v("1"), &v("1.0")));
        assert!(!json_eq(&v("1"), &v("2")));
        assert!(!json_eq(&v(r#"{"a":1}"#), &v(r#"{"b":1}"#)));
    }
}
