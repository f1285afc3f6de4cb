//! Reading a JSON value ([`serde_json::Value`]) with agentwire's own visitor.
//!
//! It builds the same `Value` as serde_json's `Deserialize` impl. In the `lite` build, where
//! serde_json hands numbers over as text (`arbitrary_precision`), it also gives each number the
//! form the `full` build gives it ([`from_text`](super::number::from_text)); and serde_json's own
//! visitor would link its wrong-type error path, which prints floats with core's `Display` for
//! `f64` (~7 KB gzip of wasm), where this one never reaches it.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value read by [`ValueVisitor`]; `.0` is the value.
pub(crate) struct JsonValue(pub(crate) Value);

impl<'de> Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(JsonValue)
    }
}

/// Reads the rest of a JSON array whose elements `access` yields.
pub(crate) fn value_from_seq<'de, A: SeqAccess<'de>>(access: A) -> Result<Value, A::Error> {
    ValueVisitor.visit_seq(access)
}

/// Reads the rest of a JSON object whose entries `access` yields.
pub(crate) fn value_from_map<'de, A: MapAccess<'de>>(access: A) -> Result<Value, A::Error> {
    ValueVisitor.visit_map(access)
}

/// The key under which serde_json's `arbitrary_precision` hands a number over as a one-entry
/// map holding its text.
#[cfg(feature = "lite")]
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(access.size_hint().unwrap_or(0).min(4096));
        while let Some(JsonValue(item)) = access.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let JsonValue(value) = access.next_value()?;
            // (The number's text is read as any value, not as a `String`: serde_json's typed
            // string path is the one that links its float-printing error path.)
            #[cfg(feature = "lite")]
            if map.is_empty() && key == NUMBER_TOKEN {
                if let Value::String(text) = &value {
                    return super::number::from_text(text)
                        .map(Value::Number)
                        .ok_or_else(|| de::Error::custom("number out of range"));
                }
            }
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        // Numbers compared by value (`json_eq`): the lite build gives them the full build's
        // forms, which serde_json with `arbitrary_precision` does not (`-0`, a float in the full
        // build, is checked in `number`'s tests).
        for json in [
            r#"{"a":[1,-2,2.5,"x",null,true,{"b":{}}],"c":1E2,"a":3}"#,
            r#"[18446744073709551615,-9223372036854775808,123456789012345678901234,0.1]"#,
            r#""\u00e9\ud83d\ude00""#,
            "1E+2",
        ] {
            let ours = serde_json::from_str::<JsonValue>(json).map(|v| v.0);
            let theirs = serde_json::from_str::<Value>(json);
            match (ours, theirs) {
                (Ok(a), Ok(b)) => assert!(super::super::json_eq(&a, &b), "{json}: {a} vs {b}"),
                (a, b) => panic!("{json}: ours {a:?}, serde_json {b:?}"),
            }
        }
        // A literal that overflows a double is invalid JSON in both builds.
        assert!(serde_json::from_str::<JsonValue>(r#"{"c":1e400}"#).is_err());
    }
}
