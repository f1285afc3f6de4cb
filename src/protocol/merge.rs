//! The two merge rules of the reference for `data` payloads.
//!
//! - [`merge_delta_lossy`]: `Message.add_delta_content` (§2.3). Only keys already present are
//!   touched, and only string + string (concatenated) and list + list (extended); everything else
//!   in the delta is silently dropped.
//! - [`merge_data_incrementally`] / [`merge_data_into`]: the builder's
//!   `_merge_data_incrementally` (§3.1). New keys are added, strings concatenated, numbers added
//!   (booleans excluded), lists concatenated, objects merged recursively, anything else replaced.
//!   agentwire uses this rule for `delta: true` data parts (DESIGN.md, "Data deltas").
//!
//! Numbers: Python adds arbitrary-precision ints. Here an integer sum that overflows 64 bits
//! falls back to a float (the reference would print the exact big int), and a float sum that
//! overflows to infinity becomes `null` (which is also what pydantic prints for `inf`).

// Matches here are over `serde_json::Value`, a closed set of six JSON kinds.
#![allow(clippy::wildcard_enum_match_arm)]

use serde_json::{Number, Value};

use super::json::JsonMap;
use super::number;

/// `Message.add_delta_content`'s data rule, in place.
pub fn merge_delta_lossy(stored: &mut JsonMap, delta: &JsonMap) {
    for (key, new) in delta {
        match (stored.get_mut(key), new) {
            (Some(Value::String(a)), Value::String(b)) => a.push_str(b),
            (Some(Value::Array(a)), Value::Array(b)) => a.extend(b.iter().cloned()),
            _ => {}
        }
    }
}

/// The builder's deep merge, returning a new map (like the reference, `base` is not changed).
pub fn merge_data_incrementally(base: &JsonMap, delta: &JsonMap) -> JsonMap {
    let mut out = base.clone();
    merge_data_into(&mut out, delta.clone());
    out
}

/// The builder's deep merge, in place: linear in the size of `delta`, so folding N deltas costs
/// O(total bytes).
pub fn merge_data_into(base: &mut JsonMap, delta: JsonMap) {
    for (key, new) in delta {
        match base.get_mut(&key) {
            None => {
                base.insert(key, new);
            }
            Some(old) => merge_value(old, new),
        }
    }
}

fn merge_value(old: &mut Value, new: Value) {
    match (old, new) {
        (Value::String(a), Value::String(b)) => a.push_str(&b),
        (slot @ Value::Number(_), Value::Number(b)) => {
            let sum = match &*slot {
                Value::Number(a) => add_numbers(a, &b),
                _ => None,
            };
            // An infinite float sum: pydantic prints `inf` as `null`.
            *slot = sum.map_or(Value::Null, Value::Number);
        }
        (Value::Array(a), Value::Array(b)) => a.extend(b),
        (Value::Object(a), Value::Object(b)) => merge_data_into(a, b),
        (slot, new) => *slot = new,
    }
}

fn add_numbers(a: &Number, b: &Number) -> Option<Number> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        if let Some(s) = x.checked_add(y) {
            return Some(Number::from(s));
        }
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        if let Some(s) = x.checked_add(y) {
            return Some(Number::from(s));
        }
    }
    let (x, y) = (number::to_f64(a)?, number::to_f64(b)?);
    Number::from_f64(x + y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> JsonMap {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn lossy_rule_verified_example() {
        let mut stored = map(json!({"a":"x","l":[1],"n":1,"d":{"k":"v"}}));
        merge_delta_lossy(
            &mut stored,
            &map(json!({"a":"y","l":[2],"n":2,"d":{"k":"w"},"new":"z"})),
        );
        assert_eq!(
            Value::Object(stored),
            json!({"a":"xy","l":[1,2],"n":1,"d":{"k":"v"}})
        );
    }

    #[test]
    fn builder_rule_verified_example() {
        let mut data = map(json!({"call_id":"c1","name":"f","arguments":""}));
        for d in [
            json!({"arguments":"{\"a\":"}),
            json!({"arguments":"1}","n":2,"meta":{"x":[1]}}),
            json!({"n":3,"meta":{"x":[2],"y":true}}),
        ] {
            data = merge_data_incrementally(&data, &map(d));
        }
        assert_eq!(
            serde_json::to_string(&data).unwrap(),
            r#"{"call_id":"c1","name":"f","arguments":"{\"a\":1}","n":5,"meta":{"x":[1,2],"y":true}}"#
        );
    }

    #[test]
    fn builder_rule_types() {
        let mut b = map(json!({"i":1,"f":1.5,"b":true,"m":1,"s":"a","x":[1]}));
        merge_data_into(
            &mut b,
            map(json!({"i":2,"f":1,"b":true,"m":"z","s":1,"x":{"k":1}})),
        );
        assert_eq!(
            Value::Object(b),
            json!({"i":3,"f":2.5,"b":true,"m":"z","s":1,"x":{"k":1}})
        );
        let mut big = map(json!({"n": i64::MAX}));
        merge_data_into(&mut big, map(json!({"n": 1})));
        assert_eq!(big["n"], json!(9223372036854775808u64));
        let mut inf = map(json!({"n": 1.7e308}));
        merge_data_into(&mut inf, map(json!({"n": 1.7e308})));
        assert_eq!(inf["n"], Value::Null);
    }
}
