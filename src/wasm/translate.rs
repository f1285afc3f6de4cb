//! The `Translator` class (its wasm core; `pkg-template/translate.js` adds `translate()`, which
//! pipes a body through it as a `ReadableStream`), `a2aRequest`, `agUiRequest`, `responsesRequest`
//! and `responsesStart`.

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{read_request, to_js, Text};
use super::options::{max_event_bytes, Bag};
use crate::assembler::Protocol;
use crate::protocol::ErrorInfo;
use crate::translate::{TranslateOptions, Translator};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String, field: &str) -> Error {
    Error::new(ErrorCode::InvalidOption, message).with_field(field)
}

fn protocol(value: Option<&Value>, field: &str) -> Result<Protocol> {
    let name = value.and_then(Value::as_str).unwrap_or_default();
    Protocol::from_name(name).ok_or_else(|| {
        invalid(
            format!(
                "{field} must be \"agent-api\", \"openai-responses\", \"a2a\", \"a2a-0.3\" or \"ag-ui\", not \"{name}\""
            ),
            field,
        )
    })
}

/// Reads `{from, to, model?, requestId?, threadId?, runId?, maxEventBytes?}` from the JSON text
/// of the options object.
fn read_options(text: Option<&str>) -> Result<(Protocol, Protocol, TranslateOptions)> {
    let bag = Bag::parse(text, "translate").map_err(|e| {
        let field = e.field().unwrap_or("from").to_owned();
        e.with_field(field)
    })?;
    if bag.is_none() {
        return Err(invalid(
            "translate options must be an object".into(),
            "from",
        ));
    }
    let mut opts = TranslateOptions::new();
    for (key, v) in bag.entries() {
        match key.as_str() {
            "from" | "to" => {}
            "model" => {
                let m = v
                    .as_str()
                    .ok_or_else(|| invalid("model must be a string".into(), "model"))?;
                opts = opts.with_model(m);
            }
            "requestId" => {
                let id = match v {
                    Value::String(_) | Value::Null => v.clone(),
                    _ => match v.as_f64().filter(|n| n.fract() == 0.0 && n.abs() < 9e15) {
                        // Checked: a whole number within f64's exact integer range.
                        #[allow(clippy::cast_possible_truncation)]
                        Some(n) => Value::from(n as i64),
                        None => {
                            return Err(invalid(
                                "requestId must be a string, an integer or null".into(),
                                "requestId",
                            ))
                        }
                    },
                };
                opts = opts.with_rpc_id(id);
            }
            "threadId" | "runId" => {
                let id = v
                    .as_str()
                    .ok_or_else(|| invalid(format!("{key} must be a string"), key))?;
                opts = if key == "threadId" {
                    opts.with_thread_id(id)
                } else {
                    opts.with_run_id(id)
                };
            }
            "maxEventBytes" => opts = opts.with_limits(max_event_bytes(v)?),
            other => {
                return Err(invalid(
                    format!("unknown translate option \"{other}\""),
                    other,
                ));
            }
        }
    }
    Ok((
        protocol(bag.get("from"), "from")?,
        protocol(bag.get("to"), "to")?,
        opts,
    ))
}

/// The wasm core of `Translator`: one protocol's bytes in, another's out.
#[wasm_bindgen(js_name = TranslatorCore)]
pub struct TranslatorCore {
    inner: Translator,
}

#[wasm_bindgen(js_class = TranslatorCore)]
impl TranslatorCore {
    /// Creates a translator from the JSON text of its options; see the `TranslateOptions` type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<String>) -> std::result::Result<TranslatorCore, JsValue> {
        let (from, to, opts) = read_options(options.as_deref())?;
        Ok(TranslatorCore {
            inner: Translator::with_options(from, to, opts)?,
        })
    }

    /// Translates a chunk of bytes; returns the output bytes it completed.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> std::result::Result<Vec<u8>, JsValue> {
        Ok(self.inner.push(chunk)?)
    }

    /// Translates a chunk of text.
    #[wasm_bindgen(js_name = pushText)]
    pub fn push_text(&mut self, chunk: &str) -> std::result::Result<Vec<u8>, JsValue> {
        Ok(self.inner.push(chunk.as_bytes())?)
    }

    /// Ends the input; returns the last output bytes.
    pub fn finish(&mut self) -> std::result::Result<Vec<u8>, JsValue> {
        Ok(self.inner.finish()?)
    }

    /// Ends the output with the target protocol's failure event (`code`, `message`) after the
    /// input failed (the source stream broke, or a chunk could not be read); empty when the run
    /// already ended. Later calls return nothing more.
    pub fn fail(&mut self, code: &str, message: &str) -> std::result::Result<Vec<u8>, JsValue> {
        Ok(self.inner.fail(ErrorInfo::new(code, message))?)
    }

    /// Problems tolerated so far.
    #[wasm_bindgen(getter, unchecked_return_type = "object[]")]
    pub fn warnings(&self) -> std::result::Result<JsValue, JsValue> {
        Ok(to_js(self.inner.warnings())?)
    }
}

/// Maps an A2A request — 1.0 `SendMessage` / `SendStreamingMessage` or 0.3 `message/send` /
/// `message/stream` (the JSON-RPC request, its `params`, or a bare `Message`) — to an Agent API
/// request: every part of the message becomes a content part, `contextId` the `session_id`,
/// `taskId` the `id`.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_REQUEST` when there is
/// no message with `parts`.
#[wasm_bindgen(js_name = a2aRequest, unchecked_return_type = "AgentRequest")]
pub fn a2a_request(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> std::result::Result<JsValue, JsValue> {
    read_request(json, "a2aRequest", crate::a2a::a2a_request)
}

/// A `POST /responses` body read once for a server (AgentApp's Responses route):
/// `{request, echo}`, the Agent API request (as `responsesRequest` maps it) and what each
/// `response` object of the answer repeats of the body (`instructions`, `tools`, `tool_choice`,
/// `temperature`, …, the API's defaults for those not sent), for the builder's `request` option.
///
/// @throws {AgentwireError} those of `responsesRequest`, and `INVALID_REQUEST` naming an echoed
/// field of the wrong type (e.g. `tool_choice: 3`).
#[wasm_bindgen(js_name = responsesStart, unchecked_return_type = "{ request: AgentRequest, echo: Record<string, unknown> }")]
pub fn responses_start(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> std::result::Result<JsValue, JsValue> {
    let text = Text::from_js(json, "responsesStart")?;
    /// Serialized as one JSON text, by the serializer `responsesRequest` uses already.
    #[derive(serde::Serialize)]
    struct Start<'a> {
        request: &'a crate::protocol::AgentRequest,
        echo: &'a crate::protocol::JsonMap,
    }
    let (request, echo) = crate::responses::agent_request_with_echo(text.as_str()?)?;
    let echo = echo.to_map();
    Ok(to_js(&Start {
        request: &request,
        echo: &echo,
    })?)
}

/// Reads `requestFor`'s `{model?, requestId?, taskId?}` from the JSON text of its options.
fn request_options(text: Option<&str>) -> Result<(Option<String>, Value, Option<String>)> {
    let bag = Bag::parse(text, "requestFor")?;
    let (mut model, mut rpc_id, mut task_id) = (None, Value::from(1), None);
    for (key, v) in bag.entries() {
        match key.as_str() {
            "model" | "taskId" => {
                let s = v
                    .as_str()
                    .ok_or_else(|| invalid(format!("{key} must be a string"), key))?;
                if key == "model" {
                    model = Some(s.to_owned());
                } else {
                    task_id = Some(s.to_owned());
                }
            }
            "requestId" => {
                rpc_id = match v {
                    Value::String(_) => v.clone(),
                    Value::Number(n) if n.is_i64() || n.is_u64() => v.clone(),
                    _ => {
                        return Err(invalid(
                            "requestId must be a string or an integer".into(),
                            "requestId",
                        ))
                    }
                };
            }
            other => {
                return Err(invalid(
                    format!("unknown requestFor option \"{other}\""),
                    other,
                ))
            }
        }
    }
    Ok((model, rpc_id, task_id))
}

/// An Agent API request written as the request `protocol` starts a run with: `{body, headers}`,
/// the body its JSON text, ready to POST (`agent-api`: the request itself, streamed; `ag-ui`: a
/// `RunAgentInput`; `openai-responses`: a streamed `create` body; `a2a` / `a2a-0.3`: the
/// JSON-RPC streaming send of its last user message) and the headers it needs besides
/// `content-type: application/json` (`accept: text/event-stream`; A2A 1.0: `A2A-Version: 1.0`).
/// Options: `model` (the Agent API and Responses model), `requestId` (the A2A JSON-RPC id,
/// default 1), `taskId` (A2A: the task the message continues).
///
/// @throws {AgentwireError} `INVALID_OPTION` naming the option (an unknown protocol is
/// `protocol`), `INVALID_JSON` / `INVALID_REQUEST` for a request that is not a valid Agent API
/// request, and for A2A a request without a user message (`input`).
#[wasm_bindgen(
    js_name = requestFor,
    unchecked_return_type = "{ body: string; headers: Record<string, string> }"
)]
pub fn request_for(
    #[wasm_bindgen(
        unchecked_param_type = "\"agent-api\" | \"ag-ui\" | \"openai-responses\" | \"a2a\" | \"a2a-0.3\""
    )]
    protocol_name: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "AgentRequest | string")] request: &JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{ model?: string; requestId?: string | number; taskId?: string }"
    )]
    options: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    let name = protocol_name.as_string().map(Value::String);
    let target = protocol(name.as_ref(), "protocol")?;
    let (model, rpc_id, task_id) = request_options(options.as_deref())?;
    let text = Text::from_js(request, "requestFor")?;
    let request = crate::protocol::parse_request(text.as_str()?)?;
    let mut headers = serde_json::Map::new();
    headers.insert("accept".into(), Value::from("text/event-stream"));
    let body = match target {
        Protocol::AgentApi => {
            let mut request = request;
            request.stream = true;
            if model.is_some() {
                request.model = model;
            }
            serde_json::to_value(&request)
                .map_err(|e| Error::new(ErrorCode::InvalidRequest, format!("no JSON form: {e}")))?
        }
        Protocol::AgUi => crate::agui::run_agent_input(&request)?,
        Protocol::OpenAiResponses => crate::responses::create_request(&request, model.as_deref())?,
        Protocol::A2a | Protocol::A2a03 => {
            let version = if target == Protocol::A2a {
                headers.insert("A2A-Version".into(), Value::from("1.0"));
                crate::a2a::A2aVersion::V1_0
            } else {
                crate::a2a::A2aVersion::V0_3
            };
            crate::a2a::streaming_request(&request, version, &rpc_id, task_id.as_deref())?
        }
    };
    Ok(to_js(
        &serde_json::json!({"body": body.to_string(), "headers": headers}),
    )?)
}
