//! The `StreamAssembler` class (its wasm core; `pkg-template/assembler.js` adds the async
//! helpers and the tool-call mirror on top).

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::to_js;
use super::options::assembler_options;
use crate::assembler::{Op, PathSegment, StreamAssembler, ToolCallChange};

/// The wasm core of `StreamAssembler`. Not exported from the package directly: the JS class of
/// the same name wraps it.
#[wasm_bindgen(js_name = StreamAssemblerCore)]
pub struct StreamAssemblerCore {
    inner: StreamAssembler,
}

#[wasm_bindgen(js_class = StreamAssemblerCore)]
impl StreamAssemblerCore {
    /// Creates an assembler; see the `StreamAssemblerOptions` type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<StreamAssemblerCore, JsValue> {
        Ok(StreamAssemblerCore {
            inner: StreamAssembler::new(assembler_options(&options)?),
        })
    }

    /// Reads a chunk of bytes and returns its coalesced updates.
    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        let result = self.inner.push(chunk);
        self.updates(result)
    }

    /// Reads a chunk of already decoded text and returns its coalesced updates.
    #[wasm_bindgen(js_name = pushText)]
    pub fn push_text(&mut self, chunk: &str) -> Result<JsValue, JsValue> {
        let result = self.inner.push(chunk.as_bytes());
        self.updates(result)
    }

    /// Ends the input and returns the last updates.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let result = self.inner.finish();
        self.updates(result)
    }

    /// Updates produced before a failed call.
    #[wasm_bindgen(js_name = takeUpdates)]
    pub fn take_updates(&mut self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.take_updates())?)
    }

    /// The snapshot, as a plain object.
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.snapshot())?)
    }

    /// The outcome name.
    #[wasm_bindgen(getter)]
    pub fn outcome(&self) -> String {
        self.inner.outcome().as_str().to_owned()
    }

    /// The protocol name, or `null` until detected.
    #[wasm_bindgen(getter)]
    pub fn protocol(&self) -> Option<String> {
        self.inner.protocol().map(|p| p.as_str().to_owned())
    }

    /// Tool calls with what changed since the last call (raw appends and parsed-value ops).
    #[wasm_bindgen(js_name = toolCallChanges)]
    pub fn tool_call_changes(&mut self) -> Result<JsValue, JsValue> {
        let changes: Vec<ChangeJs> = self
            .inner
            .tool_call_changes()
            .into_iter()
            .map(ChangeJs::from)
            .collect();
        Ok(to_js(&changes)?)
    }

    fn updates(
        &mut self,
        result: crate::Result<Vec<crate::assembler::Update>>,
    ) -> Result<JsValue, JsValue> {
        match result {
            Ok(updates) => Ok(to_js(&updates)?),
            Err(error) => {
                // Attach the updates of the events before the error, so nothing is lost.
                let pending = to_js(&self.inner.take_updates()).unwrap_or(JsValue::NULL);
                let js: JsValue = error.into();
                let _ = js_sys::Reflect::set(&js, &JsValue::from_str("updates"), &pending);
                Err(js)
            }
        }
    }
}

/// The JS shape of a [`ToolCallChange`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeJs {
    message_id: String,
    index: usize,
    message_type: String,
    call_id: Option<String>,
    name: Option<String>,
    completed: bool,
    raw_delta: String,
    raw_replace: bool,
    ops: Vec<OpJs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Value>,
}

#[derive(Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
enum OpJs {
    Set { path: Vec<Value>, value: Value },
    Append { path: Vec<Value>, text: String },
}

fn path_js(path: Vec<PathSegment>) -> Vec<Value> {
    path.into_iter()
        .map(|segment| match segment {
            PathSegment::Key(key) => Value::String(key),
            PathSegment::Index(i) => Value::from(i),
        })
        .collect()
}

impl From<ToolCallChange> for ChangeJs {
    fn from(c: ToolCallChange) -> Self {
        ChangeJs {
            message_id: c.message_id,
            index: c.index,
            message_type: c.message_type,
            call_id: c.call_id,
            name: c.name,
            completed: c.completed,
            raw_delta: c.raw_delta,
            raw_replace: c.raw_replace,
            ops: c
                .ops
                .into_iter()
                .map(|op| match op {
                    Op::Set { path, value } => OpJs::Set {
                        path: path_js(path),
                        value,
                    },
                    Op::Append { path, text } => OpJs::Append {
                        path: path_js(path),
                        text,
                    },
                })
                .collect(),
            output: c.output,
        }
    }
}
