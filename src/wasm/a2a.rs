//! The A2A exports: agent cards (`a2aAgentCard`), reading a JSON-RPC request (`a2aCall`),
//! error answers (`a2aError`), and the task a stream folds into (`a2aTask`); for the JS
//! `AgentApp` (internal, no TypeScript): the answers written from a run's log (`a2aAnswer`,
//! `a2aSubscribeHead`) and a logged stream given another request's id (`a2aRebindId`).

use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{json_value, to_js, Text};
use super::options::{only_keys, opt_bool, opt_string, opt_strings, req_string, Bag};
use crate::a2a::{
    read_call, rebind_id, subscribe_head, task_answer_with_history, task_list_answer, A2aVersion,
    AgentDescription, Provider, RpcError, RpcErrorCode, Skill, TaskAnswer, TaskFold, TaskPage,
};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String, field: &str) -> Error {
    Error::new(ErrorCode::InvalidOption, message).with_field(field)
}

/// `"1.0"` (the default) or `"0.3"`.
fn version(value: Option<&Value>, what: &str) -> Result<A2aVersion> {
    match value {
        None | Some(Value::Null) => Ok(A2aVersion::V1_0),
        Some(Value::String(v)) if v == "1.0" => Ok(A2aVersion::V1_0),
        Some(Value::String(v)) if v == "0.3" => Ok(A2aVersion::V0_3),
        Some(_) => Err(invalid(
            format!("{what}: version must be \"1.0\" or \"0.3\""),
            "version",
        )),
    }
}

/// `historyLength`: absent, null or a non-negative integer (above 2^32 read as 2^32 - 1).
fn history_length(bag: &Bag, what: &str) -> Result<Option<u32>> {
    match bag.get("historyLength") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.as_u64().is_some() => Ok(Some(
            u32::try_from(n.as_u64().unwrap_or_default()).unwrap_or(u32::MAX),
        )),
        Some(_) => Err(invalid(
            format!("{what}: historyLength must be a non-negative integer"),
            "historyLength",
        )),
    }
}

fn skill(value: &Value) -> Result<Skill> {
    const WHAT: &str = "a2aAgentCard skill";
    let Value::Object(map) = value else {
        return Err(invalid(format!("{WHAT}s must be objects"), "skills"));
    };
    let bag = Bag::from_map(map.clone());
    only_keys(
        &bag,
        &[
            "id",
            "name",
            "description",
            "tags",
            "examples",
            "inputModes",
            "outputModes",
        ],
        WHAT,
    )?;
    Ok(Skill {
        id: req_string(&bag, "id", WHAT)?,
        name: req_string(&bag, "name", WHAT)?,
        description: opt_string(&bag, "description", WHAT)?.unwrap_or_default(),
        tags: opt_strings(&bag, "tags", WHAT)?.unwrap_or_default(),
        examples: opt_strings(&bag, "examples", WHAT)?.unwrap_or_default(),
        input_modes: opt_strings(&bag, "inputModes", WHAT)?.unwrap_or_default(),
        output_modes: opt_strings(&bag, "outputModes", WHAT)?.unwrap_or_default(),
    })
}

/// The A2A agent card of an agent, in A2A `version` `"1.0"` (the default) or `"0.3"`, or
/// `"both"` (the 1.0 card listing the endpoint for both versions, with the 0.3 fields added, as
/// `a2a-sdk` 1.x serves it to clients of either generation), from one
/// description: `name`, `description`, `version` (the agent's), `url` (the JSON-RPC endpoint),
/// and optionally `provider` (`{organization, url}`), `documentationUrl`, `iconUrl`,
/// `streaming` (default true), `pushNotifications` (default false), `defaultInputModes` and
/// `defaultOutputModes` (default `["text/plain"]`), `skills` (`{id, name, description, tags,
/// examples, inputModes, outputModes}`).
///
/// @throws {AgentwireError} `INVALID_OPTION` naming the field for a missing or mistyped one.
#[wasm_bindgen(js_name = a2aAgentCard)]
pub fn a2a_agent_card(
    description: &str,
    card_version: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    const WHAT: &str = "a2aAgentCard";
    let bag = Bag::parse(Some(description), WHAT)?;
    only_keys(
        &bag,
        &[
            "name",
            "description",
            "version",
            "url",
            "provider",
            "documentationUrl",
            "iconUrl",
            "streaming",
            "pushNotifications",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
        ],
        WHAT,
    )?;
    let mut agent = AgentDescription::new(
        req_string(&bag, "name", WHAT)?,
        req_string(&bag, "description", WHAT)?,
        req_string(&bag, "version", WHAT)?,
        req_string(&bag, "url", WHAT)?,
    );
    agent.provider = match bag.get("provider") {
        None | Some(Value::Null) => None,
        Some(Value::Object(p)) => {
            let p = Bag::from_map(p.clone());
            Some(Provider {
                organization: req_string(&p, "organization", "a2aAgentCard provider")?,
                url: req_string(&p, "url", "a2aAgentCard provider")?,
            })
        }
        Some(_) => {
            return Err(invalid(
                format!("{WHAT}: provider must be {{organization, url}}"),
                "provider",
            )
            .into())
        }
    };
    agent.documentation_url = opt_string(&bag, "documentationUrl", WHAT)?;
    agent.icon_url = opt_string(&bag, "iconUrl", WHAT)?;
    if let Some(b) = opt_bool(&bag, "streaming", WHAT)? {
        agent.streaming = b;
    }
    if let Some(b) = opt_bool(&bag, "pushNotifications", WHAT)? {
        agent.push_notifications = b;
    }
    if let Some(modes) = opt_strings(&bag, "defaultInputModes", WHAT)? {
        agent.default_input_modes = modes;
    }
    if let Some(modes) = opt_strings(&bag, "defaultOutputModes", WHAT)? {
        agent.default_output_modes = modes;
    }
    agent.skills = match bag.get("skills") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list.iter().map(skill).collect::<Result<_>>()?,
        Some(_) => return Err(invalid(format!("{WHAT}: skills must be a list"), "skills").into()),
    };
    if card_version.as_deref() == Some("both") {
        return Ok(to_js(&agent.card_for_both())?);
    }
    let version = version(card_version.map(Value::String).as_ref(), WHAT)?;
    Ok(to_js(&agent.card(version))?)
}

/// Reads a JSON-RPC request sent to an A2A endpoint, with its `A2A-Version` header (absent:
/// 0.3). Returns `{call}` — the method (its 1.0 name), the version it is served in, the id,
/// `params`, and for the send methods the message as an Agent API `request`, for the task
/// methods the `taskId`, `historyLength`, `returnImmediately` and `streaming` — or `{error}`:
/// the JSON-RPC error response to send (HTTP 200), with the code the specification names.
/// Never throws for a bad body: a bad body is an answer.
#[wasm_bindgen(js_name = a2aCall)]
pub fn a2a_call(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] body: &JsValue,
    a2a_version: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    let text = Text::from_js(body, "a2aCall")?;
    let read = match text.as_str() {
        Ok(body) => read_call(body, a2a_version.as_deref()),
        Err(e) => Err(Box::new(
            RpcError::new(RpcErrorCode::ParseError, e.message().to_string()).with_version(
                A2aVersion::from_header(a2a_version.as_deref()).unwrap_or(A2aVersion::V1_0),
            ),
        )),
    };
    let out = match read {
        Ok(call) => json!({"call": {
            "id": call.id,
            "method": call.method.name(A2aVersion::V1_0),
            "version": call.version.as_str(),
            "streaming": call.method.is_streaming(),
            "params": call.params,
            "request": call.request,
            "taskId": call.task_id,
            "historyLength": call.history_length,
            "returnImmediately": call.return_immediately,
        }}),
        Err(error) => json!({"error": error_value(&error)}),
    };
    Ok(to_js(&out)?)
}

fn error_value(error: &RpcError) -> Value {
    serde_json::from_str(&error.to_json()).unwrap_or(Value::Null)
}

/// A JSON-RPC error response of A2A: `code` is a reason (`"TASK_NOT_FOUND"`,
/// `"UNSUPPORTED_OPERATION"`, …) or the code number; options: `id` (of the request, default
/// null), `version` (`"1.0"`, the default, writes `data` as typed details; `"0.3"` as an
/// object), `field`.
///
/// @throws {AgentwireError} `INVALID_OPTION` for a code A2A does not define.
#[wasm_bindgen(js_name = a2aError)]
pub fn a2a_error(
    #[wasm_bindgen(unchecked_param_type = "string | number")] code: &JsValue,
    message: &str,
    options: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    const WHAT: &str = "a2aError";
    let code = code
        .as_string()
        .and_then(|r| RpcErrorCode::from_reason(&r))
        .or_else(|| {
            code.as_f64()
                .filter(|n| n.fract() == 0.0 && n.abs() < 1e9)
                .and_then(|n| RpcErrorCode::from_code(n as i64))
        })
        .ok_or_else(|| invalid(format!("{WHAT}: not an A2A error code"), "code"))?;
    let bag = Bag::parse(options.as_deref(), WHAT)?;
    only_keys(&bag, &["id", "version", "field"], WHAT)?;
    let mut error = RpcError::new(code, message).with_version(version(bag.get("version"), WHAT)?);
    match bag.get("id") {
        None | Some(Value::Null) => {}
        Some(id @ Value::String(_)) => error = error.with_id(id.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            error = error.with_id(Value::Number(n.clone()));
        }
        Some(_) => {
            return Err(invalid(
                format!("{WHAT}: id must be a string, an integer or null"),
                "id",
            )
            .into())
        }
    }
    if let Some(field) = opt_string(&bag, "field", WHAT)? {
        error = error.with_field(field);
    }
    Ok(to_js(&error_value(&error))?)
}

/// Folds a whole A2A stream (SSE or NDJSON of JSON-RPC responses, either version) into its task,
/// as `a2a-sdk` aggregates one: `{task, message, error, sendMessageResult}` — the task (its
/// history trimmed to the latest `historyLength` messages when given), the message the stream
/// answered with instead of a task, the JSON-RPC error it ended with, and the non-streamed
/// `SendMessage` result in A2A `version` (`"1.0"`: `{task}` or `{message}`; `"0.3"`: the object
/// itself). Each is `null` when absent.
///
/// @throws {AgentwireError} `INVALID_UTF8` / `EVENT_TOO_LARGE` for a stream that cannot be read,
/// `INVALID_JSON` for an event that is not JSON.
#[wasm_bindgen(js_name = a2aTask)]
pub fn a2a_task(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] stream: &JsValue,
    options: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    const WHAT: &str = "a2aTask";
    let bag = Bag::parse(options.as_deref(), WHAT)?;
    only_keys(&bag, &["version", "historyLength"], WHAT)?;
    let version = version(bag.get("version"), WHAT)?;
    let history_length = history_length(&bag, WHAT)?;
    let mut fold = TaskFold::new();
    match Text::from_js(stream, WHAT)? {
        Text::Str(s) => fold.push(s.as_bytes())?,
        Text::Bytes(b) => fold.push(&b)?,
    }
    fold.finish()?;
    let out = json!({
        "task": fold.task_result(history_length),
        "message": fold.message(),
        "error": fold.error(),
        "sendMessageResult": fold.send_message_result(version, history_length),
    });
    Ok(to_js(&out)?)
}

/// The JSON-RPC `id` of an answer: any JSON value (absent: null).
fn rpc_id(bag: &Bag) -> Value {
    bag.get("id").cloned().unwrap_or(Value::Null)
}

/// The whole JSON-RPC response text answering a request with run `log`'s task (`log`: the
/// run's logged A2A SSE events). Options (JSON text): `id` (the request's JSON-RPC id, any
/// JSON value; default null), `version` (`"1.0"`, the default, or `"0.3"`), `kind` (`"task"`
/// for `GetTask` / `CancelTask`: the task; `"send"` for a non-streamed `SendMessage`: the
/// `sendMessageResult`), `historyLength`, `history` (Agent API messages before what the log
/// holds: the task's history starts with them). The result is what `a2aTask(log, …)` gives as
/// `task` / `sendMessageResult` (`null` when there is none).
///
/// @throws {AgentwireError} `INVALID_OPTION` naming the option; `INVALID_UTF8` /
/// `EVENT_TOO_LARGE` / `INVALID_JSON` for a log that cannot be read.
#[wasm_bindgen(js_name = a2aAnswer, skip_typescript)]
pub fn a2a_answer(log: &[u8], options: &str) -> std::result::Result<String, JsValue> {
    const WHAT: &str = "a2aAnswer";
    let bag = Bag::parse(Some(options), WHAT)?;
    only_keys(
        &bag,
        &["id", "version", "kind", "historyLength", "history"],
        WHAT,
    )?;
    let version = version(bag.get("version"), WHAT)?;
    let kind = match bag.get("kind").and_then(Value::as_str) {
        Some("task") => TaskAnswer::Task,
        Some("send") => TaskAnswer::Send,
        _ => {
            return Err(
                invalid(format!("{WHAT}: kind must be \"task\" or \"send\""), "kind").into(),
            )
        }
    };
    let history_length = history_length(&bag, WHAT)?;
    let earlier = match bag.get("history") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(messages)) => messages.as_slice(),
        Some(_) => {
            return Err(invalid(
                format!("{WHAT}: history must be a list of messages"),
                "history",
            )
            .into())
        }
    };
    Ok(task_answer_with_history(
        log,
        &rpc_id(&bag),
        version,
        kind,
        history_length,
        earlier,
    )?)
}

/// The JSON-RPC answer of `ListTasks`: the tasks of the runs' logs, one after the other in
/// `logs` (`lengths` their byte lengths, in order). Options (JSON text): `id` (the request's
/// JSON-RPC id), `historyLength`, `includeArtifacts`, `nextPageToken`, `pageSize`, `totalSize`,
/// `histories` (per log, the conversation before it: see `a2aAnswer`'s `history`).
///
/// # Errors
///
/// `INVALID_OPTION` for bad options or lengths past the end of `logs`; as `a2aAnswer` for a log
/// that cannot be read.
#[wasm_bindgen(js_name = a2aListAnswer)]
pub fn a2a_list_answer(
    logs: &[u8],
    lengths: &[u32],
    options: &str,
) -> std::result::Result<String, JsValue> {
    const WHAT: &str = "a2aListAnswer";
    let bag = Bag::parse(Some(options), WHAT)?;
    only_keys(
        &bag,
        &[
            "id",
            "historyLength",
            "includeArtifacts",
            "nextPageToken",
            "pageSize",
            "totalSize",
            "histories",
        ],
        WHAT,
    )?;
    let count = |key: &str| bag.get(key).and_then(Value::as_u64).unwrap_or(0);
    let page = TaskPage {
        history_length: history_length(&bag, WHAT)?,
        include_artifacts: opt_bool(&bag, "includeArtifacts", WHAT)?.unwrap_or(false),
        next_page_token: opt_string(&bag, "nextPageToken", WHAT)?.unwrap_or_default(),
        page_size: u32::try_from(count("pageSize")).unwrap_or(u32::MAX),
        total_size: count("totalSize"),
        histories: match bag.get("histories") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|h| h.as_array().cloned().unwrap_or_default())
                .collect(),
            Some(_) => {
                return Err(invalid(
                    format!("{WHAT}: histories must be a list (per log) of message lists"),
                    "histories",
                )
                .into())
            }
        },
    };
    let mut slices = Vec::with_capacity(lengths.len());
    let mut at = 0usize;
    for &len in lengths {
        let end = at.saturating_add(len as usize);
        let Some(slice) = logs.get(at..end) else {
            return Err(invalid(
                format!("{WHAT}: the lengths pass the end of the logs"),
                "lengths",
            )
            .into());
        };
        slices.push(slice);
        at = end;
    }
    Ok(task_list_answer(slices, &rpc_id(&bag), &page)?)
}

/// The first SSE event of a `SubscribeToTask` stream, from the run's `log`: the task as it
/// stands, as the JSON-RPC result answering the subscriber's request (1.0: `{"task": …}`, a
/// `StreamResponse`; 0.3: the task). Options (JSON text): `id` (the subscriber's JSON-RPC id),
/// `version`. Returns `{frame, cursor}`: `frame` the event's bytes (`data: …` and a blank
/// line, no `id:`), `cursor` the id of the log's last event (`-1` when it has none), after
/// which the rest of the stream follows.
///
/// @throws {AgentwireError} as `a2aAnswer`.
#[wasm_bindgen(js_name = a2aSubscribeHead, skip_typescript)]
pub fn a2a_subscribe_head(log: &[u8], options: &str) -> std::result::Result<JsValue, JsValue> {
    const WHAT: &str = "a2aSubscribeHead";
    let bag = Bag::parse(Some(options), WHAT)?;
    only_keys(&bag, &["id", "version"], WHAT)?;
    let version = version(bag.get("version"), WHAT)?;
    let (frame, cursor) = subscribe_head(log, &rpc_id(&bag), version)?;
    let out = js_sys::Object::new();
    let set =
        |key: &str, value: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(key), value);
    set("frame", &js_sys::Uint8Array::from(frame.as_slice()).into())?;
    // A cursor is below 2^53 (an event count), exact as a JS number.
    #[allow(clippy::cast_precision_loss)]
    set("cursor", &JsValue::from_f64(cursor as f64))?;
    Ok(out.into())
}

/// `chunk` (whole SSE events of an A2A stream that agentwire wrote) with every event that
/// answers JSON-RPC id `from` answering `to` instead (`from`, `to`: the ids' JSON text, e.g.
/// `JSON.stringify(id)`). Exact: ids are compared as values written the encoder's way, never
/// used as patterns; other events and every other byte are kept. Linear in `chunk`.
///
/// @throws {AgentwireError} `INVALID_OPTION` when `from` or `to` is not JSON text.
#[wasm_bindgen(js_name = a2aRebindId, skip_typescript)]
pub fn a2a_rebind_id(chunk: &[u8], from: &str, to: &str) -> std::result::Result<Vec<u8>, JsValue> {
    let from = json_value(from, "a2aRebindId from")?;
    let to = json_value(to, "a2aRebindId to")?;
    Ok(rebind_id(chunk, &from, &to))
}
