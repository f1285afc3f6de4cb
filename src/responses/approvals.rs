//! A paused run's interrupts in OpenAI Responses, which has no interrupt: each is an
//! `mcp_approval_request` output item (`server_label` `"agentwire"`, `name` the reason,
//! `arguments` the interrupt's JSON text) that a client answers with an `mcp_approval_response`
//! naming its id (a tool call's interrupt, with a `toolCallId`, also by the call's
//! `function_call_output`). Read back, agentwire's items give the interrupts whole, and another
//! server's approval requests one interrupt each (reason `confirmation`).

use serde_json::{Map, Value};

use crate::codec::write::{map, raw, string};
use crate::protocol::json::str_field;
use crate::protocol::{AgentResponse, JsonMap, JsonValue};

/// The `server_label` of agentwire's approval items.
pub const SERVER_LABEL: &str = "agentwire";

/// The approval items of `r`'s interrupts, each as its JSON text.
pub fn approval_items(r: &AgentResponse) -> Vec<Vec<u8>> {
    r.interrupts()
        .map(|i| {
            let mut out = Vec::new();
            raw(&mut out, "{\"id\":");
            string(&mut out, str_field(i, "id"));
            raw(
                &mut out,
                ",\"type\":\"mcp_approval_request\",\"arguments\":",
            );
            let mut text = Vec::new();
            map(&mut text, i);
            string(&mut out, std::str::from_utf8(&text).unwrap_or_default());
            raw(&mut out, ",\"name\":");
            string(&mut out, str_field(i, "reason"));
            raw(&mut out, ",\"server_label\":");
            string(&mut out, SERVER_LABEL);
            raw(&mut out, "}");
            out
        })
        .collect()
}

/// The interrupt an `mcp_approval_request` output item asks, or `None` for another item.
pub fn interrupt_of(item: &JsonMap) -> Option<Value> {
    if str_field(item, "type") != "mcp_approval_request" {
        return None;
    }
    let id = str_field(item, "id");
    if str_field(item, "server_label") == SERVER_LABEL {
        if let Ok(JsonValue(Value::Object(mut interrupt))) =
            serde_json::from_str::<JsonValue>(str_field(item, "arguments"))
        {
            if interrupt.get("reason").is_some_and(Value::is_string) {
                interrupt.insert("id".to_owned(), Value::String(id.to_owned()));
                return Some(Value::Object(interrupt));
            }
        }
    }
    let mut interrupt = Map::new();
    interrupt.insert("id".to_owned(), Value::String(id.to_owned()));
    interrupt.insert(
        "reason".to_owned(),
        Value::String("confirmation".to_owned()),
    );
    interrupt.insert(
        "message".to_owned(),
        Value::String(format!(
            "{}: {}({})",
            str_field(item, "server_label"),
            str_field(item, "name"),
            str_field(item, "arguments")
        )),
    );
    Some(Value::Object(interrupt))
}
