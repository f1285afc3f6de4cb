//! A2A 1.0 results read as their 0.3 form, so that one decoder reads both versions: a
//! `StreamResponse` (`{"task"|"message"|"statusUpdate"|"artifactUpdate": …}`) becomes the 0.3
//! result with `kind`, `TASK_STATE_*` / `ROLE_*` enums (names or numbers) become 0.3's
//! spellings, flattened parts become `TextPart` / `DataPart` / `FilePart`, and a status update in
//! a terminal or interrupted state is `final` (1.0 ends the stream there instead). The mapping
//! is the one `a2a-sdk`'s `compat.v0_3.conversions.to_compat_*` applies (`docs/a2a-1.0-wire.md`).

use serde_json::{Map, Value};

use crate::protocol::JsonMap;

/// The 0.3 form of a 1.0 `StreamResponse` (or `SendMessageResponse`) result; `None` when
/// `result` is not one (a 0.3 result, with `kind`, or something else).
pub(crate) fn v0_3_result(result: &JsonMap) -> Option<JsonMap> {
    if result.contains_key("kind") || result.len() != 1 {
        return None;
    }
    let (key, value) = result.iter().next()?;
    let inner = value.as_object()?;
    Some(match key.as_str() {
        "task" => task(inner),
        "message" => message(inner),
        "statusUpdate" | "status_update" => status_update(inner),
        "artifactUpdate" | "artifact_update" => artifact_update(inner),
        _ => return None,
    })
}

/// Copies the fields of `from` named in `keys` (1.0 name, 0.3 name) into `to`, when present.
fn copy(to: &mut JsonMap, from: &JsonMap, keys: &[(&str, &str)]) {
    for (new, old) in keys {
        if let Some(v) = from.get(*new) {
            to.insert((*old).to_owned(), v.clone());
        }
    }
}

fn kinded(kind: &str) -> JsonMap {
    let mut m = Map::new();
    m.insert("kind".into(), Value::String(kind.into()));
    m
}

fn list(from: &JsonMap, key: &str, each: fn(&JsonMap) -> JsonMap) -> Option<Value> {
    let items = from.get(key)?.as_array()?;
    Some(Value::Array(
        items
            .iter()
            .filter_map(Value::as_object)
            .map(|i| Value::Object(each(i)))
            .collect(),
    ))
}

fn task(t: &JsonMap) -> JsonMap {
    let mut out = kinded("task");
    copy(
        &mut out,
        t,
        &[
            ("id", "id"),
            ("contextId", "contextId"),
            ("metadata", "metadata"),
        ],
    );
    out.insert("status".into(), Value::Object(status(t.get("status"))));
    if let Some(a) = list(t, "artifacts", artifact) {
        out.insert("artifacts".into(), a);
    }
    if let Some(h) = list(t, "history", message) {
        out.insert("history".into(), h);
    }
    out
}

/// The 0.3 form of a 1.0 `Message` (role `ROLE_USER` → `user`, flattened parts → kinded).
pub(crate) fn v0_3_message(m: &JsonMap) -> JsonMap {
    message(m)
}

fn message(m: &JsonMap) -> JsonMap {
    let mut out = kinded("message");
    copy(
        &mut out,
        m,
        &[
            ("messageId", "messageId"),
            ("contextId", "contextId"),
            ("taskId", "taskId"),
            ("metadata", "metadata"),
            ("extensions", "extensions"),
            ("referenceTaskIds", "referenceTaskIds"),
        ],
    );
    let role = match m.get("role") {
        Some(Value::String(r)) if r == "ROLE_USER" || r == "user" => "user",
        Some(Value::Number(n)) if n.as_u64() == Some(1) => "user",
        _ => "agent",
    };
    out.insert("role".into(), Value::String(role.into()));
    out.insert(
        "parts".into(),
        list(m, "parts", part).unwrap_or(Value::Array(Vec::new())),
    );
    out
}

/// A 1.0 task state (its name, or its number) in 0.3's spelling.
fn state(v: Option<&Value>) -> &'static str {
    let number = match v {
        Some(Value::String(s)) => match s.as_str() {
            "TASK_STATE_SUBMITTED" => 1,
            "TASK_STATE_WORKING" => 2,
            "TASK_STATE_COMPLETED" => 3,
            "TASK_STATE_FAILED" => 4,
            "TASK_STATE_CANCELED" => 5,
            "TASK_STATE_INPUT_REQUIRED" => 6,
            "TASK_STATE_REJECTED" => 7,
            "TASK_STATE_AUTH_REQUIRED" => 8,
            _ => 0,
        },
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0),
        _ => 0,
    };
    match number {
        1 => "submitted",
        2 => "working",
        3 => "completed",
        4 => "failed",
        5 => "canceled",
        6 => "input-required",
        7 => "rejected",
        8 => "auth-required",
        _ => "unknown",
    }
}

fn status(s: Option<&Value>) -> JsonMap {
    let mut out = Map::new();
    let s = s.and_then(Value::as_object);
    out.insert(
        "state".into(),
        Value::String(state(s.and_then(|s| s.get("state"))).into()),
    );
    if let Some(s) = s {
        if let Some(m) = s.get("message").and_then(Value::as_object) {
            out.insert("message".into(), Value::Object(message(m)));
        }
        copy(&mut out, s, &[("timestamp", "timestamp")]);
    }
    out
}

fn status_update(u: &JsonMap) -> JsonMap {
    let mut out = kinded("status-update");
    copy(
        &mut out,
        u,
        &[
            ("taskId", "taskId"),
            ("contextId", "contextId"),
            ("metadata", "metadata"),
        ],
    );
    let status = status(u.get("status"));
    // 1.0 ends the stream after a terminal or interrupted state; 0.3 said so with `final`.
    let last = matches!(
        status.get("state").and_then(Value::as_str),
        Some("completed" | "failed" | "canceled" | "rejected" | "input-required" | "auth-required")
    );
    out.insert("status".into(), Value::Object(status));
    out.insert("final".into(), Value::Bool(last));
    out
}

fn artifact_update(u: &JsonMap) -> JsonMap {
    let mut out = kinded("artifact-update");
    copy(
        &mut out,
        u,
        &[
            ("taskId", "taskId"),
            ("contextId", "contextId"),
            ("metadata", "metadata"),
        ],
    );
    if let Some(a) = u.get("artifact").and_then(Value::as_object) {
        out.insert("artifact".into(), Value::Object(artifact(a)));
    }
    for key in ["append", "lastChunk"] {
        let set = u.get(key).and_then(Value::as_bool).unwrap_or(false);
        out.insert(key.into(), Value::Bool(set));
    }
    out
}

fn artifact(a: &JsonMap) -> JsonMap {
    let mut out = Map::new();
    copy(
        &mut out,
        a,
        &[
            ("artifactId", "artifactId"),
            ("name", "name"),
            ("description", "description"),
            ("metadata", "metadata"),
            ("extensions", "extensions"),
        ],
    );
    out.insert(
        "parts".into(),
        list(a, "parts", part).unwrap_or(Value::Array(Vec::new())),
    );
    out
}

fn part(p: &JsonMap) -> JsonMap {
    let meta = p.get("metadata").cloned();
    let mut out = if let Some(text) = p.get("text") {
        let mut out = kinded("text");
        out.insert("text".into(), text.clone());
        out
    } else if let Some(data) = p.get("data") {
        let mut out = kinded("data");
        // 0.3 data is an object; another value is wrapped as the SDK wraps it.
        let data = match data {
            Value::Object(_) => data.clone(),
            other => {
                let mut wrapped = Map::new();
                wrapped.insert("value".into(), other.clone());
                Value::Object(wrapped)
            }
        };
        out.insert("data".into(), data);
        out
    } else {
        let mut file = Map::new();
        if let Some(url) = p.get("url") {
            file.insert("uri".into(), url.clone());
        } else if let Some(raw) = p.get("raw") {
            file.insert("bytes".into(), raw.clone());
        }
        copy(
            &mut file,
            p,
            &[("filename", "name"), ("mediaType", "mimeType")],
        );
        let mut out = kinded("file");
        out.insert("file".into(), Value::Object(file));
        out
    };
    if let Some(meta) = meta {
        out.insert("metadata".into(), meta);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(json: &str) -> Value {
        let map: JsonMap = serde_json::from_str(json).unwrap();
        Value::Object(v0_3_result(&map).unwrap())
    }

    #[test]
    fn stream_responses_read_as_0_3_results() {
        let task = conv(
            r#"{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"}}}"#,
        );
        assert_eq!(task["kind"], "task");
        assert_eq!(task["status"]["state"], "submitted");
        let done = conv(r#"{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":3}}}"#);
        assert_eq!(done["kind"], "status-update");
        assert_eq!(done["status"]["state"], "completed");
        assert_eq!(done["final"], true);
        let working =
            conv(r#"{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}"#);
        assert_eq!(working["final"], false);
        let art = conv(
            r#"{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"Hi","metadata":{"index":0}},{"url":"u","filename":"f","mediaType":"m"},{"raw":"aA==","filename":"b"},{"data":[1]}]},"lastChunk":true}}"#,
        );
        assert_eq!(art["append"], false);
        assert_eq!(art["lastChunk"], true);
        let parts = &art["artifact"]["parts"];
        assert_eq!(
            parts[0],
            serde_json::json!({"kind":"text","text":"Hi","metadata":{"index":0}})
        );
        assert_eq!(
            parts[1],
            serde_json::json!({"kind":"file","file":{"uri":"u","name":"f","mimeType":"m"}})
        );
        assert_eq!(
            parts[2],
            serde_json::json!({"kind":"file","file":{"bytes":"aA==","name":"b"}})
        );
        assert_eq!(
            parts[3],
            serde_json::json!({"kind":"data","data":{"value":[1]}})
        );
        let msg =
            conv(r#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}"#);
        assert_eq!(msg["role"], "user");
    }

    #[test]
    fn results_of_0_3_and_others_are_not_converted() {
        let map: JsonMap = serde_json::from_str(r#"{"kind":"task","id":"t"}"#).unwrap();
        assert!(v0_3_result(&map).is_none());
        let map: JsonMap = serde_json::from_str(r#"{"other":{}}"#).unwrap();
        assert!(v0_3_result(&map).is_none());
    }
}
