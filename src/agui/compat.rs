//! The always-on compatibility boundary of `@ag-ui/client` 1.0: retired 0.x shapes are
//! translated to their 1.0 equivalents before enforcement, each with a warning.
//!
//! - `THINKING_*` events become `REASONING_*` (fresh ids minted; `title` is dropped);
//! - legacy `null`s become absent: `rawEvent`, `RUN_FINISHED`/`SUBAGENT_FINISHED` `result`,
//!   `TOOL_CALL_START`/`TOOL_CALL_CHUNK` `parentMessageId`, `RUN_FINISHED.outcome`, optional
//!   request fields inside `RUN_STARTED.input`, media-part `metadata`;
//! - legacy `binary` content parts inside `MESSAGES_SNAPSHOT` and `RUN_STARTED.input` messages
//!   become media parts.

use serde_json::{Map, Value};

use super::schema::{normalize_legacy_input, normalize_legacy_message};
use crate::{Warning, WarningCode};

/// The translation state (the open `THINKING_*` span and message ids).
#[derive(Debug, Default)]
pub(crate) struct Compat {
    reasoning_id: Option<String>,
    message_id: Option<String>,
}

fn converting(what: &str, replacement: &str) -> Warning {
    Warning::new(
        WarningCode::DeprecatedShape,
        format!("[ag-ui][compat] Converting deprecated {what} to {replacement}. The old shape leaves the protocol after its shim window."),
    )
}

fn mint() -> String {
    crate::protocol::new_id("").unwrap_or_else(|_| "thinking".to_owned())
}

fn take_null(map: &mut Map<String, Value>, key: &str) -> bool {
    if map.get(key).is_some_and(Value::is_null) {
        map.remove(key);
        true
    } else {
        false
    }
}

impl Compat {
    /// Translates one raw event in place.
    pub(crate) fn transform(&mut self, value: &mut Value, warnings: &mut Vec<Warning>) {
        let Value::Object(map) = value else { return };
        let Some(t) = map.get("type").and_then(Value::as_str).map(str::to_owned) else {
            return;
        };
        if take_null(map, "rawEvent") {
            warnings.push(converting(
                &format!("{t}.rawEvent: null"),
                "an absent field",
            ));
        }
        if (t == "RUN_FINISHED" || t == "SUBAGENT_FINISHED") && take_null(map, "result") {
            warnings.push(converting(&format!("{t}.result: null"), "an absent field"));
        }
        match t.as_str() {
            "THINKING_START" => {
                let id = mint();
                self.reasoning_id = Some(id.clone());
                warnings.push(converting("THINKING_START", "REASONING_START"));
                if let Some(title) = map.remove("title") {
                    warnings.push(Warning::new(
                        WarningCode::DeprecatedShape,
                        format!("[ag-ui][compat] Dropping THINKING_START.title {title}: REASONING_START has no title field, so the span's label cannot be carried and nothing downstream can recover it."),
                    ));
                }
                map.insert("type".into(), Value::from("REASONING_START"));
                map.insert("messageId".into(), Value::from(id));
            }
            "THINKING_TEXT_MESSAGE_START" => {
                let id = mint();
                self.message_id = Some(id.clone());
                warnings.push(converting(
                    "THINKING_TEXT_MESSAGE_START",
                    "REASONING_MESSAGE_START",
                ));
                map.insert("type".into(), Value::from("REASONING_MESSAGE_START"));
                map.insert("messageId".into(), Value::from(id));
                map.insert("role".into(), Value::from("reasoning"));
            }
            "THINKING_TEXT_MESSAGE_CONTENT" => {
                warnings.push(converting(
                    "THINKING_TEXT_MESSAGE_CONTENT",
                    "REASONING_MESSAGE_CONTENT",
                ));
                let id = continuation(&self.message_id, "THINKING_TEXT_MESSAGE_CONTENT", warnings);
                map.insert("type".into(), Value::from("REASONING_MESSAGE_CONTENT"));
                map.insert("messageId".into(), Value::from(id));
            }
            "THINKING_TEXT_MESSAGE_END" => {
                let id = continuation(&self.message_id, "THINKING_TEXT_MESSAGE_END", warnings);
                self.message_id = None;
                warnings.push(converting(
                    "THINKING_TEXT_MESSAGE_END",
                    "REASONING_MESSAGE_END",
                ));
                map.insert("type".into(), Value::from("REASONING_MESSAGE_END"));
                map.insert("messageId".into(), Value::from(id));
            }
            "THINKING_END" => {
                let id = continuation(&self.reasoning_id, "THINKING_END", warnings);
                self.reasoning_id = None;
                warnings.push(converting("THINKING_END", "REASONING_END"));
                map.insert("type".into(), Value::from("REASONING_END"));
                map.insert("messageId".into(), Value::from(id));
            }
            "TOOL_CALL_START" | "TOOL_CALL_CHUNK" if take_null(map, "parentMessageId") => {
                warnings.push(converting(
                    &format!("{t}.parentMessageId: null"),
                    "an absent field",
                ));
            }
            "RUN_FINISHED" if take_null(map, "outcome") => {
                warnings.push(converting("RUN_FINISHED.outcome: null", "an absent field"));
            }
            "MESSAGES_SNAPSHOT" => {
                if let Some(Value::Array(messages)) = map.get_mut("messages") {
                    for message in messages.iter_mut() {
                        note(normalize_legacy_message(message), warnings);
                    }
                }
            }
            "RUN_STARTED" => {
                if let Some(input) = map.get_mut("input") {
                    if input.is_object() {
                        note(normalize_legacy_input(input), warnings);
                    }
                }
            }
            _ => {}
        }
    }
}

fn continuation(established: &Option<String>, from: &str, warnings: &mut Vec<Warning>) -> String {
    match established {
        Some(id) => id.clone(),
        None => {
            let id = mint();
            warnings.push(Warning::new(
                WarningCode::DeprecatedShape,
                format!("[ag-ui][compat] Minting a messageId ('{id}') for {from}: no THINKING opener preceded it, so there was no id to continue."),
            ));
            id
        }
    }
}

fn note(notes: Vec<String>, warnings: &mut Vec<Warning>) {
    for what in notes {
        let replacement = if what == "binary input content" {
            "the modern media content parts"
        } else {
            "an absent field"
        };
        warnings.push(converting(&what, replacement));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn thinking_becomes_reasoning() {
        let mut c = Compat::default();
        let mut w = Vec::new();
        let mut start = json!({"type":"THINKING_TEXT_MESSAGE_START"});
        c.transform(&mut start, &mut w);
        let mut content = json!({"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hm"});
        c.transform(&mut content, &mut w);
        assert_eq!(start["type"], "REASONING_MESSAGE_START");
        assert_eq!(start["role"], "reasoning");
        assert_eq!(content["messageId"], start["messageId"]);
        assert!(w
            .iter()
            .any(|w| w.message.contains("THINKING_TEXT_MESSAGE_START")));
    }

    #[test]
    fn legacy_nulls_become_absent() {
        let mut c = Compat::default();
        let mut w = Vec::new();
        let mut e = json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":null,"result":null,"rawEvent":null});
        c.transform(&mut e, &mut w);
        assert_eq!(e, json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}));
        assert_eq!(w.len(), 3);
    }
}
