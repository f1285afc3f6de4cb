//! The exports a client needs besides `StreamAssembler` (they are in the `client` module as in
//! the full one): a resuming client's A2A requests (`a2aStreamingSend`, `a2aTaskRequest`, for
//! `connect`), the conversation helpers' mappings between protocols (`agUiMessages`,
//! `responsesInput`, internal) and the request readers they build on (`agUiRequest`,
//! `responsesRequest`).

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{json_value, read_request, to_js};
use crate::a2a::{streaming_send, task_request};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String, field: &str) -> Error {
    Error::new(ErrorCode::InvalidOption, message).with_field(field)
}

/// What a resuming client needs of the request body it is about to send: for a JSON-RPC
/// streaming send (`SendStreamingMessage`, 0.3's `message/stream`), `{id, resume, cancel}` —
/// `id` the send's JSON-RPC id as JSON text, `resume` and `cancel` the methods of its version —
/// and `null` for any other body.
#[wasm_bindgen(js_name = a2aStreamingSend, skip_typescript)]
pub fn a2a_streaming_send(body: &str) -> JsValue {
    let Some(send) = streaming_send(body) else {
        return JsValue::NULL;
    };
    let out = js_sys::Object::new();
    let id = serde_json::to_string(&send.id).unwrap_or_else(|_| "null".into());
    let _ = js_sys::Reflect::set(&out, &"id".into(), &JsValue::from(id));
    let _ = js_sys::Reflect::set(&out, &"resume".into(), &JsValue::from(send.resume));
    let _ = js_sys::Reflect::set(&out, &"cancel".into(), &JsValue::from(send.cancel));
    out.into()
}

/// The JSON-RPC request text of `method` on task `taskId` with request id `id` (its JSON text,
/// as `a2aStreamingSend` gives it): what a resuming client sends to resume or cancel its task.
///
/// @throws {AgentwireError} `INVALID_OPTION` when `id` is not JSON text.
#[wasm_bindgen(js_name = a2aTaskRequest, skip_typescript)]
pub fn a2a_task_request(
    id: &str,
    method: &str,
    task_id: &str,
) -> std::result::Result<String, JsValue> {
    let id = json_value(id, "a2aTaskRequest id")?;
    Ok(task_request(&id, method, task_id))
}

/// Maps an OpenAI Responses `create` request body to an Agent API request: `input` (a string,
/// or message, reasoning and tool-call items) becomes the input messages, `instructions` a first
/// `system` message, `tools` Agent API tools, `max_output_tokens` → `max_tokens`, `user` →
/// `user_id`, `conversation` → `session_id`; `stream` as sent (default `false`); other fields are
/// kept as extra keys.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_REQUEST` naming the
/// field (`error.field`), e.g. a missing `input`.
#[wasm_bindgen(js_name = responsesRequest, unchecked_return_type = "AgentRequest")]
pub fn responses_request(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> std::result::Result<JsValue, JsValue> {
    read_request(json, "responsesRequest", crate::responses::agent_request)
}

/// Maps an AG-UI `RunAgentInput` (a request body) to the Agent API request the reference's AG-UI
/// adapter hands its runner: `threadId` → `session_id`, `runId` → `id`,
/// `forwardedProps.user_id` → `user_id`, messages (tool calls and results included), tools,
/// and `state` / `forwarded_props` / `parent_run_id` / `context` as extra keys.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_REQUEST` naming the
/// field (`error.field`) for a missing or malformed one, e.g. a missing `threadId`.
#[wasm_bindgen(js_name = agUiRequest, unchecked_return_type = "AgentRequest")]
pub fn ag_ui_request(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> std::result::Result<JsValue, JsValue> {
    read_request(json, "agUiRequest", crate::agui::agent_request)
}

/// The messages of a history, read from the JSON text `{"messages": […]}` the JS layer made of
/// the caller's array.
fn history(text: &str, what: &str) -> Result<Vec<Value>> {
    match json_value(text, what)? {
        Value::Object(mut map) => match map.remove("messages") {
            Some(Value::Array(messages)) => Ok(messages),
            _ => Err(invalid(
                format!("{what} expects an array of messages"),
                "messages",
            )),
        },
        _ => Err(invalid(
            format!("{what} expects an array of messages"),
            "messages",
        )),
    }
}

/// Agent API messages as AG-UI messages (`agui::messages_from_agent_api`), for
/// `toAgUiMessages` and `convertHistory`.
#[wasm_bindgen(js_name = agUiMessages, skip_typescript)]
pub fn ag_ui_messages(text: &str) -> std::result::Result<JsValue, JsValue> {
    let messages = history(text, "toAgUiMessages")?;
    Ok(to_js(&crate::agui::messages_from_agent_api(&messages)?)?)
}

/// Agent API messages as OpenAI Responses `input` items (`responses::input_items`), for
/// `toResponsesInput` and `convertHistory`.
#[wasm_bindgen(js_name = responsesInput, skip_typescript)]
pub fn responses_input(text: &str) -> std::result::Result<JsValue, JsValue> {
    let messages = history(text, "toResponsesInput")?;
    Ok(to_js(&crate::responses::input_items(&messages))?)
}
