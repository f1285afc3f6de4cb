//! The enforcement stage: a value checked against the schema, stripped of what it does not
//! know, its malformed fields reported as zod-style issues.

use serde_json::{Map, Value};

use super::{Base, Obj, CONTENT_PART, F, S, SCOPED_BASE, SUBAGENT_TAG};
use crate::{Error, ErrorCode};

/// The issues that made a value invalid, zod-style.
#[derive(Debug, Default)]
pub(crate) struct Issues(pub(crate) Vec<Value>);

impl Issues {
    /// The issues as the client's `ZodError` message: the issue list as pretty JSON.
    pub(crate) fn message(&self) -> String {
        serde_json::to_string_pretty(&self.0).unwrap_or_default()
    }

    /// An error with `code`, the zod-style message, and the first issue's path as `field`.
    pub(crate) fn into_error(self, code: ErrorCode, what: &str) -> Error {
        let field = self
            .0
            .first()
            .and_then(|i| i.get("path"))
            .and_then(Value::as_array)
            .map(|p| {
                p.iter()
                    .map(|s| match s {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(".")
            });
        let mut message = self.message();
        if code == ErrorCode::InvalidRequest {
            let name = field.clone().unwrap_or_default();
            message = format!("{what} is invalid at '{name}': {message}");
        }
        let error = Error::new(code, message);
        match field {
            Some(f) if !f.is_empty() => error.with_field(f),
            _ => error,
        }
    }
}

/// Strips `value` against `s` (reporting paths in `stripped`), then validates it.
///
/// # Errors
///
/// The zod-style issues when a described field is missing or malformed.
pub(crate) fn check(value: &mut Value, s: &S) -> Result<Vec<String>, Issues> {
    let mut stripped = Vec::new();
    let mut path = String::new();
    // A top-level drop cannot happen for the shapes used here (unions sit inside arrays).
    let _ = strip(value, s, &mut path, &mut stripped);
    let mut issues = Issues::default();
    let mut at = Vec::new();
    validate(value, s, &mut at, &mut issues);
    if issues.0.is_empty() {
        Ok(stripped)
    } else {
        Err(issues)
    }
}

/// As [`check`], for an event object of a known type.
pub(crate) fn check_event(value: &mut Value, o: &'static Obj) -> Result<Vec<String>, Issues> {
    let mut stripped = Vec::new();
    let mut path = String::new();
    if let Value::Object(map) = value {
        strip_obj(map, o, &mut path, &mut stripped, true);
    }
    let mut issues = Issues::default();
    let mut at = Vec::new();
    validate_obj(value, o, &mut at, &mut issues, true);
    if issues.0.is_empty() {
        Ok(stripped)
    } else {
        Err(issues)
    }
}

fn base_fields(base: Base) -> impl Iterator<Item = &'static F> {
    let scoped = if base == Base::None {
        &[][..]
    } else {
        &SCOPED_BASE[..]
    };
    let tag = if base == Base::Attributable {
        Some(&SUBAGENT_TAG)
    } else {
        None
    };
    scoped.iter().chain(tag)
}

fn find_field(o: &'static Obj, key: &str) -> Option<&'static F> {
    o.fields
        .iter()
        .chain(base_fields(o.base))
        .find(|f| f.name == key)
}

fn push_path(path: &mut String, key: &str) -> usize {
    let len = path.len();
    path.push('/');
    path.push_str(key);
    len
}

/// Returns `true` when the whole value is unrecognisable here (to be dropped by the caller).
fn strip(value: &mut Value, s: &S, path: &mut String, stripped: &mut Vec<String>) -> bool {
    match s {
        S::Obj(o) => {
            if let Value::Object(map) = value {
                return strip_obj(map, o, path, stripped, false);
            }
            false
        }
        S::Array(e) | S::Array1(e) => {
            if let Value::Array(items) = value {
                strip_array(items, e, path, stripped);
            }
            false
        }
        S::StrOrParts => {
            if let Value::Array(items) = value {
                strip_array(items, &CONTENT_PART, path, stripped);
            }
            false
        }
        S::Union(key, options) => {
            let Value::Object(map) = value else {
                return false;
            };
            let tag = map.get(*key).and_then(Value::as_str);
            match options.iter().find(|(t, _)| Some(*t) == tag) {
                Some((_, o)) => strip_obj(map, o, path, stripped, false),
                // No option has this tag (or it is not a string): unrecognisable.
                None => true,
            }
        }
        _ => {
            normalize_int(value, s);
            false
        }
    }
}

/// Integral floats (`1.0`) are integers to JS: store them as integers.
fn normalize_int(value: &mut Value, s: &S) {
    if matches!(s, S::Int | S::UInt) {
        if let Value::Number(n) = value {
            if !n.is_i64() && !n.is_u64() {
                if let Some(f) = n.as_f64() {
                    if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0 {
                        // In range by the check above.
                        #[allow(clippy::cast_possible_truncation)]
                        let i = f as i64;
                        *value = Value::from(i);
                    }
                }
            }
        }
    }
}

fn strip_array(items: &mut Vec<Value>, e: &S, path: &mut String, stripped: &mut Vec<String>) {
    let mut index = 0usize;
    items.retain_mut(|item| {
        let mark = stripped.len();
        let len = push_path(path, &index.to_string());
        let dropped = strip(item, e, path, stripped);
        if dropped {
            stripped.truncate(mark);
            stripped.push(path.clone());
        }
        path.truncate(len);
        index += 1;
        !dropped
    });
}

fn strip_obj(
    map: &mut Map<String, Value>,
    o: &'static Obj,
    path: &mut String,
    stripped: &mut Vec<String>,
    is_event: bool,
) -> bool {
    let mut drop_whole = false;
    map.retain(|key, child| {
        if drop_whole {
            return true;
        }
        if is_event && key == "type" {
            return true;
        }
        let Some(f) = find_field(o, key) else {
            if o.open {
                return true;
            }
            let len = push_path(path, key);
            stripped.push(path.clone());
            path.truncate(len);
            return false;
        };
        let mark = stripped.len();
        let len = push_path(path, key);
        let dropped = strip(child, &f.s, path, stripped);
        let keep = if dropped {
            stripped.truncate(mark);
            if f.optional {
                stripped.push(path.clone());
                false
            } else {
                drop_whole = true;
                true
            }
        } else {
            true
        };
        path.truncate(len);
        keep
    });
    drop_whole
}

#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Index(usize),
}

fn path_value(at: &[Seg]) -> Value {
    Value::Array(
        at.iter()
            .map(|s| match s {
                Seg::Key(k) => Value::from(*k),
                Seg::Index(i) => Value::from(*i),
            })
            .collect(),
    )
}

fn received(value: Option<&Value>) -> &'static str {
    match value {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

fn issue(fields: Vec<(&str, Value)>, at: &[Seg], message: String) -> Value {
    let mut map = Map::new();
    for (k, v) in fields {
        map.insert(k.to_owned(), v);
    }
    map.insert("path".into(), path_value(at));
    map.insert("message".into(), Value::String(message));
    Value::Object(map)
}

fn invalid_type(expected: &str, value: Option<&Value>, at: &[Seg]) -> Value {
    issue(
        vec![
            ("expected", Value::from(expected)),
            ("code", Value::from("invalid_type")),
        ],
        at,
        format!(
            "Invalid input: expected {expected}, received {}",
            received(value)
        ),
    )
}

fn custom(at: &[Seg]) -> Value {
    issue(
        vec![("code", Value::from("custom"))],
        at,
        "Invalid input".into(),
    )
}

const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

fn validate_int(value: Option<&Value>, min: f64, at: &[Seg], issues: &mut Issues) {
    let Some(Value::Number(n)) = value else {
        issues.0.push(int_issue(value, at));
        return;
    };
    let Some(f) = n.as_f64() else {
        issues.0.push(int_issue(value, at));
        return;
    };
    if f.fract() != 0.0 || !f.is_finite() {
        issues.0.push(int_issue(value, at));
    } else if f < min {
        issues.0.push(issue(
            vec![
                ("origin", Value::from("number")),
                ("code", Value::from("too_small")),
                ("minimum", Value::from(min as i64)),
                ("inclusive", Value::from(true)),
            ],
            at,
            format!("Too small: expected number to be >={}", min as i64),
        ));
    } else if f > MAX_SAFE {
        issues.0.push(issue(
            vec![
                ("origin", Value::from("number")),
                ("code", Value::from("too_big")),
                ("maximum", Value::from(MAX_SAFE as i64)),
                ("inclusive", Value::from(true)),
            ],
            at,
            format!("Too big: expected number to be <={}", MAX_SAFE as i64),
        ));
    }
}

fn int_issue(value: Option<&Value>, at: &[Seg]) -> Value {
    issue(
        vec![
            ("expected", Value::from("int")),
            ("format", Value::from("safeint")),
            ("code", Value::from("invalid_type")),
        ],
        at,
        format!("Invalid input: expected int, received {}", received(value)),
    )
}

fn is_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

/// Validates an optional-or-required position: `value` is `None` when the key is absent.
fn validate(value: &Value, s: &S, at: &mut Vec<Seg>, issues: &mut Issues) {
    validate_opt(Some(value), s, at, issues);
}

fn validate_opt(value: Option<&Value>, s: &S, at: &mut Vec<Seg>, issues: &mut Issues) {
    match s {
        S::Str => {
            if !matches!(value, Some(Value::String(_))) {
                issues.0.push(invalid_type("string", value, at));
            }
        }
        S::Bool => {
            if !matches!(value, Some(Value::Bool(_))) {
                issues.0.push(invalid_type("boolean", value, at));
            }
        }
        S::Int => validate_int(value, -MAX_SAFE, at, issues),
        S::UInt => validate_int(value, 0.0, at, issues),
        S::Any => {
            if value.is_none() {
                issues.0.push(custom(at));
            }
        }
        S::NonNull | S::State => {
            if matches!(value, None | Some(Value::Null)) && matches!(s, S::NonNull) {
                issues.0.push(custom(at));
            }
        }
        S::Object => {
            if !matches!(value, Some(Value::Object(_))) {
                issues.0.push(custom(at));
            }
        }
        S::Pointer => match value {
            Some(Value::String(p)) if is_pointer(p) => {}
            Some(Value::String(_)) => {
                let pattern = "/^(\\/([^/~]|~[01])*)*$/";
                issues.0.push(issue(
                    vec![
                        ("origin", Value::from("string")),
                        ("code", Value::from("invalid_format")),
                        ("format", Value::from("regex")),
                        ("pattern", Value::from(pattern)),
                    ],
                    at,
                    format!("Invalid string: must match pattern {pattern}"),
                ));
            }
            other => issues.0.push(invalid_type("string", other, at)),
        },
        S::Lit(lit) => {
            if value.and_then(Value::as_str) != Some(*lit) {
                issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_value")),
                        ("values", Value::from(vec![*lit])),
                    ],
                    at,
                    format!("Invalid input: expected \"{lit}\""),
                ));
            }
        }
        S::Enum(values) => {
            let ok = value
                .and_then(Value::as_str)
                .is_some_and(|v| values.contains(&v));
            if !ok {
                let list = values
                    .iter()
                    .map(|v| format!("\"{v}\""))
                    .collect::<Vec<_>>()
                    .join("|");
                issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_value")),
                        ("values", Value::from(values.to_vec())),
                    ],
                    at,
                    format!("Invalid option: expected one of {list}"),
                ));
            }
        }
        S::Array(e) | S::Array1(e) => {
            let Some(Value::Array(items)) = value else {
                issues.0.push(invalid_type("array", value, at));
                return;
            };
            for (i, item) in items.iter().enumerate() {
                at.push(Seg::Index(i));
                validate(item, e, at, issues);
                at.pop();
            }
            if matches!(s, S::Array1(_)) && items.is_empty() {
                issues.0.push(issue(
                    vec![
                        ("origin", Value::from("array")),
                        ("code", Value::from("too_small")),
                        ("minimum", Value::from(1)),
                        ("inclusive", Value::from(true)),
                    ],
                    at,
                    "Too small: expected array to have >=1 items".into(),
                ));
            }
        }
        S::Obj(o) => match value {
            Some(v @ Value::Object(_)) => validate_obj(v, o, at, issues, false),
            other => issues.0.push(invalid_type("object", other, at)),
        },
        S::Union(key, options) => {
            let Some(v @ Value::Object(map)) = value else {
                issues.0.push(invalid_type("object", value, at));
                return;
            };
            let tag = map.get(*key).and_then(Value::as_str);
            match options.iter().find(|(t, _)| Some(*t) == tag) {
                Some((_, o)) => validate_obj(v, o, at, issues, false),
                None => issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_union")),
                        ("errors", Value::Array(Vec::new())),
                        ("note", Value::from("No matching discriminator")),
                        ("discriminator", Value::from(*key)),
                    ],
                    at,
                    "Invalid input".into(),
                )),
            }
        }
        S::StrOrParts => match value {
            Some(Value::String(_)) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    at.push(Seg::Index(i));
                    validate(item, &CONTENT_PART, at, issues);
                    at.pop();
                }
            }
            other => {
                let errors = Value::Array(vec![
                    Value::Array(vec![invalid_type("string", other, &[])]),
                    Value::Array(vec![invalid_type("array", other, &[])]),
                ]);
                issues.0.push(issue(
                    vec![("code", Value::from("invalid_union")), ("errors", errors)],
                    at,
                    "Invalid input".into(),
                ));
            }
        },
    }
}

fn validate_obj(
    value: &Value,
    o: &'static Obj,
    at: &mut Vec<Seg>,
    issues: &mut Issues,
    is_event: bool,
) {
    let Value::Object(map) = value else {
        issues.0.push(invalid_type("object", Some(value), at));
        return;
    };
    let _ = is_event;
    for f in base_fields(o.base).chain(o.fields.iter()) {
        let child = map.get(f.name);
        if child.is_none() && f.optional {
            continue;
        }
        at.push(Seg::Key(f.name));
        validate_opt(child, &f.s, at, issues);
        at.pop();
    }
}

/// Reads optional `null`s the 0.x SDKs sent inside a request body as absent (`forwardedProps`,
/// tool `parameters`, resume `payload`, media-part `metadata`, `state`) and upgrades legacy
/// `binary` parts. Returns the legacy shapes it converted (for warnings).
pub(crate) fn normalize_legacy_input(value: &mut Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Value::Object(input) = value else {
        return notes;
    };
    if input.get("forwardedProps").is_some_and(Value::is_null) {
        input.remove("forwardedProps");
        notes.push("RunAgentInput.forwardedProps: null".to_owned());
    }
    if input.get("state").is_some_and(Value::is_null) {
        input.remove("state");
    }
    for (field, key, what) in [
        ("tools", "parameters", "Tool"),
        ("resume", "payload", "ResumeEntry"),
    ] {
        if let Some(Value::Array(items)) = input.get_mut(field) {
            for item in items.iter_mut() {
                if let Value::Object(map) = item {
                    if map.get(key).is_some_and(Value::is_null) {
                        map.remove(key);
                        notes.push(format!("{what}.{key}: null"));
                    }
                }
            }
        }
    }
    if let Some(Value::Array(messages)) = input.get_mut("messages") {
        for message in messages.iter_mut() {
            notes.extend(normalize_legacy_message(message));
        }
    }
    notes
}

/// The per-message half of [`normalize_legacy_input`]: media-part `metadata: null` and legacy
/// `binary` parts.
pub(crate) fn normalize_legacy_message(message: &mut Value) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(Value::Array(parts)) = message.get_mut("content") {
        for part in parts.iter_mut() {
            let Value::Object(map) = part else { continue };
            let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
            if matches!(kind, "image" | "audio" | "video" | "document")
                && map.get("metadata").is_some_and(Value::is_null)
            {
                let kind = kind.to_owned();
                map.remove("metadata");
                notes.push(format!("{kind} input content.metadata: null"));
            }
        }
        if crate::agui::content::upgrade_binary_parts(parts) {
            notes.push("binary input content".to_owned());
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_unknown_and_reports_paths() {
        let mut v =
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","futureProp":1});
        let stripped = check_event(&mut v, &TEXT_MESSAGE_CONTENT).unwrap();
        assert_eq!(stripped, vec!["/futureProp"]);
        assert_eq!(
            v,
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"})
        );
    }

    #[test]
    fn malformed_field_is_a_zod_issue() {
        let mut v = json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":5});
        let issues = check_event(&mut v, &TEXT_MESSAGE_CONTENT).unwrap_err();
        assert_eq!(
            issues.message(),
            "[\n  {\n    \"expected\": \"string\",\n    \"code\": \"invalid_type\",\n    \"path\": [\n      \"delta\"\n    ],\n    \"message\": \"Invalid input: expected string, received number\"\n  }\n]"
        );
    }

    #[test]
    fn unknown_union_member_is_dropped_or_stripped() {
        let mut v = json!({"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"a"},{"type":"hologram"}]}]});
        let stripped = check_event(&mut v, &MESSAGES_SNAPSHOT).unwrap();
        assert_eq!(stripped, vec!["/messages/0/content/1"]);
        let mut v =
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"future"}});
        assert_eq!(
            check_event(&mut v, &RUN_FINISHED).unwrap(),
            vec!["/outcome"]
        );
        let mut v = json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":[]});
        let e = check_event(&mut v, &RUN_FINISHED).unwrap_err();
        assert!(e.message().contains("expected object, received array"));
    }

    #[test]
    fn patch_ops_are_open() {
        let mut v = json!({"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a","value":1}]});
        assert!(check_event(&mut v, &STATE_DELTA).unwrap().is_empty());
        let mut v = json!({"type":"STATE_DELTA","delta":[{"op":"frobnicate","path":"/a"}]});
        assert_eq!(check_event(&mut v, &STATE_DELTA).unwrap(), vec!["/delta/0"]);
    }

    #[test]
    fn run_agent_input_names_missing_thread_id() {
        let mut v = json!({"runId":"r","messages":[]});
        let e = check(&mut v, &RUN_AGENT_INPUT).unwrap_err();
        assert!(e.message().contains("threadId"));
    }
}
