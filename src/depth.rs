//! The one nesting limit of agentwire.
//!
//! Recursion over input-shaped data is bounded everywhere by the same number: a value
//! (a data payload, tool-call arguments or output, AG-UI state, metadata, usage, a JS value given
//! to the builder) may nest at most [`MAX_DEPTH`] levels. Whole documents (events, requests) are
//! read with serde_json's limit of 128 levels, which leaves room for the envelope around a value
//! at the deepest allowed level: whatever agentwire emits, it reads back.
//!
//! Depth counts containers: `1` and `"a"` are 0 levels deep, `{}` and `[1]` are 1, `{"a":[1]}`
//! is 2.

use serde_json::{Map, Value};

use crate::{Error, ErrorCode, Result};

/// The deepest nesting of a value agentwire accepts, builds or renders: 100 levels.
pub const MAX_DEPTH: usize = 100;

/// The nesting depth of `value` (see the module docs), computed without recursion. Stops
/// counting at `MAX_DEPTH + 1`.
pub fn value_depth(value: &Value) -> usize {
    depth_below(std::iter::once(value), 0)
}

/// The nesting depth of an object given as a map (its own level included).
pub fn map_depth(map: &Map<String, Value>) -> usize {
    depth_below(map.values(), 1).max(1)
}

/// The deepest level reached by `roots`, each `level` deep.
fn depth_below<'a>(roots: impl Iterator<Item = &'a Value>, level: usize) -> usize {
    let mut deepest = level;
    let mut stack: Vec<(&Value, usize)> = roots.map(|v| (v, level)).collect();
    while let Some((v, level)) = stack.pop() {
        let children: &mut dyn Iterator<Item = &Value> = match v {
            Value::Array(items) => &mut items.iter(),
            Value::Object(map) => &mut map.values(),
            _ => continue,
        };
        let level = level + 1;
        deepest = deepest.max(level);
        if deepest > MAX_DEPTH {
            return deepest;
        }
        stack.extend(children.map(|child| (child, level)));
    }
    deepest
}

/// The nesting depth of JSON text (see the module docs), valid or not: the most brackets open
/// at once outside strings. One pass, no allocation.
pub fn text_depth(json: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for b in json.bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Whether `value` nests deeper than [`MAX_DEPTH`].
pub fn too_deep(value: &Value) -> bool {
    value_depth(value) > MAX_DEPTH
}

/// `Ok` when `value` nests at most [`MAX_DEPTH`] levels; otherwise an error with `code`, naming
/// `what` (e.g. "the data delta").
///
/// # Errors
///
/// `code`, when the value is too deep.
pub fn check_depth(value: &Value, code: ErrorCode, what: &str) -> Result<()> {
    if too_deep(value) {
        return Err(Error::new(
            code,
            format!("{what} is nested deeper than {MAX_DEPTH} levels."),
        ));
    }
    Ok(())
}

/// As [`check_depth`], for an object given as a map.
///
/// # Errors
///
/// `code`, when the object is too deep.
pub fn check_map_depth(map: &Map<String, Value>, code: ErrorCode, what: &str) -> Result<()> {
    if map_depth(map) > MAX_DEPTH {
        return Err(Error::new(
            code,
            format!("{what} is nested deeper than {MAX_DEPTH} levels."),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> Value {
        let mut v = json!(1);
        for _ in 0..levels {
            v = json!({ "a": [v] });
        }
        v
    }

    #[test]
    fn depth_counts_containers() {
        assert_eq!(value_depth(&json!(1)), 0);
        assert_eq!(value_depth(&json!("a")), 0);
        assert_eq!(value_depth(&json!({})), 1);
        assert_eq!(value_depth(&json!([1])), 1);
        assert_eq!(value_depth(&json!({"a": [1]})), 2);
        assert_eq!(value_depth(&json!([1, [2, [3]], {"x": 1}])), 3);
        assert_eq!(value_depth(&nested(10)), 20);
        let map = json!({"a": [1], "b": 2});
        assert_eq!(map_depth(map.as_object().unwrap()), 2);
        assert_eq!(map_depth(&Map::new()), 1);
    }

    #[test]
    fn text_depth_counts_brackets_outside_strings() {
        assert_eq!(text_depth("1"), 0);
        assert_eq!(text_depth(r#"{"a":[1,{"b":"[[[{"}]]}"#), 3);
        assert_eq!(text_depth(r#"["\"[[", [1]]"#), 2);
        assert_eq!(text_depth("[[[[["), 5);
        assert_eq!(text_depth(&serde_json::to_string(&nested(7)).unwrap()), 14);
    }

    #[test]
    fn the_limit_is_inclusive() {
        let mut v = json!(1);
        for _ in 0..MAX_DEPTH {
            v = json!([v]);
        }
        assert!(!too_deep(&v));
        assert!(check_depth(&v, ErrorCode::InvalidOption, "x").is_ok());
        let v = json!([v]);
        assert!(too_deep(&v));
        let e = check_depth(&v, ErrorCode::InvalidOption, "The value").unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidOption);
        assert_eq!(e.message(), "The value is nested deeper than 100 levels.");
    }
}
