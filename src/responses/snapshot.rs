//! The Responses-native snapshot: the `response` object accumulated from streaming events the
//! way the official `openai` client's `ResponseStream` accumulates it (lifecycle events replace
//! the object; item and part events edit `output` in place), so that the assembler's snapshot
//! equals the client's `finalResponse()`, without its convenience fields (`output_text`,
//! `output_parsed`, `parsed_arguments`, `parsed`). Where the client throws (an event for an
//! item or part that does not exist), this skips the edit; the decoder reports the warning.
//!
//! One deviation: an event finds its item by id (`item_id`, or the `item.id` of
//! `output_item.done`), and by `output_index` only when it names none. Servers get the index
//! wrong (agentscope-runtime sends a reasoning item's `output_item.done` with the next item's
//! index), where the client would edit the wrong item or throw.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::protocol::JsonMap;

/// The accumulated `response` object (`None` before the first lifecycle event).
#[derive(Debug, Default)]
pub(crate) struct ResponsesSnapshot {
    pub(crate) response: Option<JsonMap>,
    /// The position in `output` of each item id.
    positions: HashMap<String, usize>,
}

/// The `id` of an output item.
fn item_id(item: &Value) -> Option<&str> {
    item.get("id").and_then(Value::as_str)
}

fn idx(ev: &JsonMap, key: &str) -> Option<usize> {
    ev.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

impl ResponsesSnapshot {
    /// Applies one event.
    pub(crate) fn apply(&mut self, ev: &JsonMap) {
        let ty = ev.get("type").and_then(Value::as_str).unwrap_or("");
        match ty {
            "response.created"
            | "response.queued"
            | "response.in_progress"
            | "response.completed"
            | "response.failed"
            | "response.incomplete" => {
                if let Some(Value::Object(r)) = ev.get("response") {
                    self.positions.clear();
                    if let Some(Value::Array(output)) = r.get("output") {
                        for (i, item) in output.iter().enumerate() {
                            if let Some(id) = item_id(item) {
                                self.positions.entry(id.to_owned()).or_insert(i);
                            }
                        }
                    }
                    self.response = Some(r.clone());
                }
                return;
            }
            "error" => return,
            _ => {}
        }
        let Some(output) = self
            .response
            .as_mut()
            .and_then(|r| r.get_mut("output"))
            .and_then(Value::as_array_mut)
        else {
            return;
        };
        if ty == "response.output_item.added" {
            if let Some(item) = ev.get("item") {
                if let Some(id) = item_id(item) {
                    self.positions.entry(id.to_owned()).or_insert(output.len());
                }
                output.push(item.clone());
            }
            return;
        }
        let named = match ty {
            "response.output_item.done" => ev.get("item").and_then(item_id),
            _ => ev.get("item_id").and_then(Value::as_str),
        };
        let position = match named {
            Some(id) if !id.is_empty() => self.positions.get(id).copied(),
            _ => idx(ev, "output_index"),
        };
        let Some(item) = position
            .and_then(|i| output.get_mut(i))
            .and_then(Value::as_object_mut)
        else {
            return;
        };
        let item_type = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let text = |key: &str| ev.get(key).and_then(Value::as_str).unwrap_or("");
        match ty {
            "response.output_item.done" => {
                if let Some(Value::Object(new)) = ev.get("item") {
                    *item = new.clone();
                }
            }
            "response.content_part.added" | "response.content_part.done" => {
                let Some(part) = ev.get("part") else { return };
                let reasoning_part =
                    part.get("type").and_then(Value::as_str) == Some("reasoning_text");
                let list = match (item_type.as_str(), reasoning_part) {
                    ("message", false) => item.get_mut("content"),
                    ("reasoning", true) => Some(
                        item.entry("content")
                            .or_insert_with(|| Value::Array(Vec::new())),
                    ),
                    _ => None,
                };
                let Some(Value::Array(list)) = list else {
                    return;
                };
                if ty.ends_with("added") {
                    list.push(part.clone());
                } else if let Some(slot) = idx(ev, "content_index").and_then(|i| list.get_mut(i)) {
                    *slot = part.clone();
                }
            }
            "response.reasoning_summary_part.added" | "response.reasoning_summary_part.done" => {
                let Some(part) = ev.get("part") else { return };
                let Some(Value::Array(list)) = item.get_mut("summary") else {
                    return;
                };
                if ty.ends_with("added") {
                    list.push(part.clone());
                } else if let Some(slot) = idx(ev, "summary_index").and_then(|i| list.get_mut(i)) {
                    *slot = part.clone();
                }
            }
            "response.output_text.delta"
            | "response.output_text.done"
            | "response.refusal.delta"
            | "response.refusal.done"
            | "response.reasoning_text.delta"
            | "response.reasoning_text.done"
            | "response.reasoning_summary_text.delta"
            | "response.reasoning_summary_text.done" => {
                let (want_item, list_key, index_key, part_type, field) = match ty {
                    t if t.starts_with("response.output_text") => {
                        ("message", "content", "content_index", "output_text", "text")
                    }
                    t if t.starts_with("response.refusal") => {
                        ("message", "content", "content_index", "refusal", "refusal")
                    }
                    t if t.starts_with("response.reasoning_text") => (
                        "reasoning",
                        "content",
                        "content_index",
                        "reasoning_text",
                        "text",
                    ),
                    _ => (
                        "reasoning",
                        "summary",
                        "summary_index",
                        "summary_text",
                        "text",
                    ),
                };
                if item_type != want_item {
                    return;
                }
                let Some(part) = item
                    .get_mut(list_key)
                    .and_then(Value::as_array_mut)
                    .and_then(|l| idx(ev, index_key).and_then(|i| l.get_mut(i)))
                    .and_then(Value::as_object_mut)
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some(part_type))
                else {
                    return;
                };
                if ty.ends_with("delta") {
                    append(part, field, text("delta"));
                } else {
                    let done_key = if field == "refusal" {
                        "refusal"
                    } else {
                        "text"
                    };
                    part.insert(field.into(), Value::String(text(done_key).to_owned()));
                }
            }
            "response.function_call_arguments.delta"
            | "response.function_call_arguments.done"
            | "response.mcp_call_arguments.delta"
            | "response.mcp_call_arguments.done" => {
                let want = if ty.contains("mcp") {
                    "mcp_call"
                } else {
                    "function_call"
                };
                if item_type != want {
                    return;
                }
                if ty.ends_with("delta") {
                    append(item, "arguments", text("delta"));
                } else {
                    item.insert(
                        "arguments".into(),
                        Value::String(text("arguments").to_owned()),
                    );
                }
            }
            "response.output_text.annotation.added" => {
                let (Some(ann), Some(ai)) = (ev.get("annotation"), idx(ev, "annotation_index"))
                else {
                    return;
                };
                if let Some(Value::Array(list)) = item
                    .get_mut("content")
                    .and_then(Value::as_array_mut)
                    .and_then(|l| idx(ev, "content_index").and_then(|i| l.get_mut(i)))
                    .and_then(|p| p.get_mut("annotations"))
                {
                    if ai < list.len() {
                        if let Some(slot) = list.get_mut(ai) {
                            *slot = ann.clone();
                        }
                    } else if ai == list.len() {
                        list.push(ann.clone());
                    }
                }
            }
            _ => {}
        }
    }

    /// The snapshot object (an empty object before any lifecycle event).
    pub(crate) fn to_map(&self) -> Map<String, Value> {
        self.response.clone().unwrap_or_default()
    }
}

fn append(map: &mut JsonMap, key: &str, piece: &str) {
    match map.get_mut(key) {
        Some(Value::String(s)) => s.push_str(piece),
        _ => {
            map.insert(key.into(), Value::String(piece.to_owned()));
        }
    }
}
