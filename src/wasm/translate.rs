//! The `Translator` class (its wasm core; `pkg-template/translate.js` adds `translate()`, which
//! pipes a body through it as a `ReadableStream`), `a2aRequest` and `agUiRequest`.

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert::{to_js, Text};
use crate::assembler::Protocol;
use crate::codec::Limits;
use crate::openai::{TranslateOptions, Translator};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String, field: &str) -> Error {
    Error::new(ErrorCode::InvalidOption, message).with_field(field)
}

fn protocol(value: &JsValue, field: &str) -> Result<Protocol> {
    let name = value.as_string().unwrap_or_default();
    Protocol::from_name(&name).ok_or_else(|| {
        invalid(
            format!(
                "{field} must be \"agent-api\", \"openai-responses\", \"a2a\" or \"ag-ui\", not \"{name}\""
            ),
            field,
        )
    })
}

/// Reads `{from, to, model?, requestId?, threadId?, runId?, maxEventBytes?}`.
fn read_options(value: &JsValue) -> Result<(Protocol, Protocol, TranslateOptions)> {
    let object = value
        .dyn_ref::<Object>()
        .ok_or_else(|| invalid("translate options must be an object".into(), "from"))?;
    let get = |k: &str| Reflect::get(value, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED);
    let mut opts = TranslateOptions::new();
    for key in Object::keys(object).iter().filter_map(|k| k.as_string()) {
        let v = get(&key);
        match key.as_str() {
            "from" | "to" => {}
            "model" => {
                let m = v
                    .as_string()
                    .ok_or_else(|| invalid("model must be a string".into(), "model"))?;
                opts = opts.with_model(m);
            }
            "requestId" => {
                let id = if let Some(s) = v.as_string() {
                    serde_json::Value::String(s)
                } else if let Some(n) = v.as_f64().filter(|n| n.fract() == 0.0 && n.abs() < 9e15) {
                    // Checked above: a whole number within f64's exact integer range.
                    #[allow(clippy::cast_possible_truncation)]
                    serde_json::Value::from(n as i64)
                } else if v.is_null() || v.is_undefined() {
                    serde_json::Value::Null
                } else {
                    return Err(invalid(
                        "requestId must be a string, an integer or null".into(),
                        "requestId",
                    ));
                };
                opts = opts.with_rpc_id(id);
            }
            "threadId" | "runId" => {
                let id = v
                    .as_string()
                    .ok_or_else(|| invalid(format!("{key} must be a string"), &key))?;
                opts = if key == "threadId" {
                    opts.with_thread_id(id)
                } else {
                    opts.with_run_id(id)
                };
            }
            "maxEventBytes" => {
                let n = v
                    .as_f64()
                    .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 4_294_967_295.0)
                    .ok_or_else(|| {
                        invalid(
                            "maxEventBytes must be a positive integer".into(),
                            "maxEventBytes",
                        )
                    })?;
                // Checked above: a whole number in 1..=u32::MAX.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let limits = Limits::new().with_max_event_bytes(n as usize)?;
                opts = opts.with_limits(limits);
            }
            other => {
                return Err(invalid(
                    format!("unknown translate option \"{other}\""),
                    other,
                ));
            }
        }
    }
    Ok((
        protocol(&get("from"), "from")?,
        protocol(&get("to"), "to")?,
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
    /// Creates a translator; see the `TranslateOptions` type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> std::result::Result<TranslatorCore, JsValue> {
        let (from, to, opts) = read_options(&options)?;
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

    /// Problems tolerated so far.
    #[wasm_bindgen(getter, unchecked_return_type = "object[]")]
    pub fn warnings(&self) -> std::result::Result<JsValue, JsValue> {
        Ok(to_js(self.inner.warnings())?)
    }
}

/// Maps an A2A `message/send` or `message/stream` request (the JSON-RPC request, its `params`,
/// or a bare `Message`) to an Agent API request: every part of the message becomes a content
/// part, `contextId` the `session_id`, `taskId` the `id`.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_REQUEST` when there is
/// no message with `parts`.
#[wasm_bindgen(js_name = a2aRequest, unchecked_return_type = "AgentRequest")]
pub fn a2a_request(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> std::result::Result<JsValue, JsValue> {
    let text = Text::from_js(json, "a2aRequest")?;
    let request = crate::openai::a2a_request(text.as_str()?)?;
    Ok(to_js(&request)?)
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
    let text = Text::from_js(json, "agUiRequest")?;
    let request = crate::agui::agent_request(text.as_str()?)?;
    Ok(to_js(&request)?)
}
