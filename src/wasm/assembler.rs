//! The `StreamAssembler` class (its wasm core; `pkg-template/assembler.js` adds the async
//! helpers and the tool-call mirror on top).

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{to_js, to_js_large};
use super::options::assembler_options;
use super::outbox::Outbox;
use crate::assembler::{Op, PathSegment, StreamAssembler, ToolCallChange};

/// The wasm core of `StreamAssembler`. Not exported from the package directly: the JS class of
/// the same name wraps it.
#[wasm_bindgen(js_name = StreamAssemblerCore)]
pub struct StreamAssemblerCore {
    inner: StreamAssembler,
    /// What the JS mirror was last told about each call, in list order (see `toolCallChanges`).
    seen: Vec<CallMeta>,
    /// The last batch of updates, for the JS class to read.
    outbox: Outbox,
    /// Where the JS class copies a chunk before `pushInput` (reused; grows to the largest
    /// chunk, released by `releaseOutbox`).
    input: Vec<u8>,
    /// The error of the last call that returned [`FAILED`], until `takeError`.
    error: Option<crate::Error>,
}

/// What `pushInput`, `pushText` and `finish` return when they fail (never a count: a batch
/// holds far fewer updates).
pub const FAILED: u32 = u32::MAX;

/// The identity and metadata of a tool call as last sent to the JS mirror.
struct CallMeta {
    message_id: String,
    index: usize,
    message_type: String,
    call_id: Option<String>,
    name: Option<String>,
    completed: bool,
}

#[wasm_bindgen(js_class = StreamAssemblerCore)]
impl StreamAssemblerCore {
    /// Creates an assembler from the JSON text of its options (made by the JS layer,
    /// `pkg-template/values.js`); see the `StreamAssemblerOptions` type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<String>) -> Result<StreamAssemblerCore, JsValue> {
        Ok(StreamAssemblerCore {
            inner: StreamAssembler::new(assembler_options(options.as_deref())?),
            seen: Vec::new(),
            outbox: Outbox::default(),
            input: Vec::new(),
            error: None,
        })
    }

    /// Makes the input buffer hold at least `len` bytes and returns its address; the JS class
    /// copies a chunk there and calls `pushInput`, which saves an allocation per chunk.
    #[wasm_bindgen(js_name = inputBuffer)]
    pub fn input_buffer(&mut self, len: usize) -> u32 {
        if self.input.len() < len {
            self.input.resize(len, 0);
        }
        u32::try_from(self.input.as_ptr() as usize).unwrap_or(0)
    }

    /// Reads the first `len` bytes of the input buffer as the next chunk; its coalesced
    /// updates are in the outbox. Returns their count, or [`FAILED`] with the error kept for
    /// `takeError` (a plain number return saves the JS array of a `Result` per chunk).
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize) -> u32 {
        let chunk = self.input.get(..len).unwrap_or_default();
        self.outbox.start();
        let result = self.inner.push_into(chunk, &mut self.outbox);
        self.sealed(result)
    }

    /// Reads a chunk of already decoded text; as `pushInput`.
    #[wasm_bindgen(js_name = pushText)]
    pub fn push_text(&mut self, chunk: &str) -> u32 {
        self.outbox.start();
        let result = self.inner.push_into(chunk.as_bytes(), &mut self.outbox);
        self.sealed(result)
    }

    /// Ends the input; the last updates are in the outbox. Returns as `pushInput`.
    pub fn finish(&mut self) -> u32 {
        self.outbox.start();
        let result = self.inner.finish_into(&mut self.outbox);
        self.sealed(result)
    }

    /// The error of the call that returned [`FAILED`], as a JS `Error` carrying the updates of
    /// the events before it in `updates`, so nothing is lost.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> JsValue {
        let Some(error) = self.error.take() else {
            return JsValue::NULL;
        };
        let pending = to_js(&self.inner.take_updates()).unwrap_or(JsValue::NULL);
        let js: JsValue = error.into();
        let _ = js_sys::Reflect::set(&js, &JsValue::from_str("updates"), &pending);
        js
    }

    /// Frees the outbox buffers once the last batch has been read.
    #[wasm_bindgen(js_name = releaseOutbox)]
    pub fn release_outbox(&mut self) {
        self.outbox.release();
        self.input = Vec::new();
    }

    /// Whether the JS class decodes UTF-16: texts with non-ASCII characters then reach the
    /// outbox as UTF-16 (see `src/wasm/outbox.rs`).
    #[wasm_bindgen(js_name = useUtf16)]
    pub fn use_utf16(&mut self, on: bool) {
        self.outbox.set_utf16(on);
    }

    /// The address in wasm memory of the outbox header (see `src/wasm/outbox.rs`).
    #[wasm_bindgen(getter)]
    pub fn outbox(&self) -> u32 {
        self.outbox.header_address()
    }

    /// The strings (ids, names) the last batch added to the table, in order.
    #[wasm_bindgen(js_name = takeStrings)]
    pub fn take_strings(&mut self) -> Vec<String> {
        self.outbox.take_strings()
    }

    /// The last batch's updates that are not text or argument appends, as plain objects.
    #[wasm_bindgen(js_name = takeOthers)]
    pub fn take_others(&mut self) -> Result<JsValue, JsValue> {
        Ok(self.outbox.take_others()?)
    }

    /// Updates produced before a failed call.
    #[wasm_bindgen(js_name = takeUpdates)]
    pub fn take_updates(&mut self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.take_updates())?)
    }

    /// The snapshot, as a plain object.
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        Ok(to_js_large(&self.inner.snapshot())?)
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

    /// Tool calls with what changed since the last call (raw appends and parsed-value ops),
    /// one entry per current call, in order. When the list of calls is the one of the previous
    /// call, entries are compact: `0` for a call that did not change, otherwise only the fields
    /// that changed (no `messageId`; the JS mirror keys it by position). Otherwise every entry
    /// is a full record with `messageId` and `index`. Sending only what changed keeps reading
    /// parsed arguments after every chunk cheap: each string crossing costs a decode.
    #[wasm_bindgen(js_name = toolCallChanges)]
    pub fn tool_call_changes(&mut self) -> Result<JsValue, JsValue> {
        let changes = self.inner.tool_call_changes();
        let same_list = changes.len() == self.seen.len()
            && changes
                .iter()
                .zip(&self.seen)
                .all(|(c, s)| c.message_id == s.message_id && c.index == s.index);
        let mut seen = Vec::with_capacity(changes.len());
        let mut out = Vec::with_capacity(changes.len());
        for (position, change) in changes.into_iter().enumerate() {
            let (entry, meta) = match self.seen.get(position).filter(|_| same_list) {
                None => {
                    let meta = CallMeta {
                        message_id: change.message_id.clone(),
                        index: change.index,
                        message_type: change.message_type.clone(),
                        call_id: change.call_id.clone(),
                        name: change.name.clone(),
                        completed: change.completed,
                    };
                    (Entry::Full(ChangeJs::from(change)), meta)
                }
                Some(before) => {
                    let (compact, meta) = CompactJs::new(change, before);
                    match compact {
                        None => (Entry::Unchanged(0), meta),
                        Some(compact) => (Entry::Compact(compact), meta),
                    }
                }
            };
            out.push(entry);
            seen.push(meta);
        }
        self.seen = seen;
        Ok(to_js(&out)?)
    }

    /// The count of updates in the outbox, or [`FAILED`] with the error kept for `takeError`.
    fn sealed(&mut self, result: crate::Result<()>) -> u32 {
        match result {
            Ok(()) => self.outbox.seal(),
            Err(error) => {
                self.error = Some(error);
                FAILED
            }
        }
    }
}

/// One entry of `toolCallChanges`.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry {
    Full(ChangeJs),
    Compact(CompactJs),
    /// `0`: the call at this position did not change.
    Unchanged(u8),
}

/// A change to the call at the same position as before: only what changed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CompactJs {
    #[serde(skip_serializing_if = "Option::is_none")]
    message_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    call_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completed: Option<bool>,
    #[serde(skip_serializing_if = "String::is_empty")]
    raw_delta: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    raw_replace: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ops: Vec<OpJs>,
    /// The common case of one op that appends exactly `rawDelta` to the string at this path
    /// (a string value growing): sent instead of `ops`, so the text crosses once.
    #[serde(skip_serializing_if = "Option::is_none")]
    append_at: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Value>,
}

impl CompactJs {
    /// What changed since `before` (`None` for nothing), and the call's metadata now. Strings
    /// are moved, and cloned only when they changed.
    fn new(c: ToolCallChange, before: &CallMeta) -> (Option<Self>, CallMeta) {
        let message_type = (c.message_type != before.message_type).then(|| c.message_type.clone());
        let call_id = (c.call_id != before.call_id).then(|| c.call_id.clone());
        let name = (c.name != before.name).then(|| c.name.clone());
        let completed = (c.completed != before.completed).then_some(c.completed);
        let meta = CallMeta {
            message_id: c.message_id,
            index: c.index,
            message_type: c.message_type,
            call_id: c.call_id,
            name: c.name,
            completed: c.completed,
        };
        let unchanged = message_type.is_none()
            && call_id.is_none()
            && name.is_none()
            && completed.is_none()
            && c.raw_delta.is_empty()
            && !c.raw_replace
            && c.ops.is_empty()
            && c.output.is_none();
        if unchanged {
            return (None, meta);
        }
        let mut ops = c.ops;
        let append_at = match ops.as_mut_slice() {
            [Op::Append { path, text }] if !c.raw_replace && *text == c.raw_delta => {
                Some(path_js(std::mem::take(path)))
            }
            _ => None,
        };
        if append_at.is_some() {
            ops.clear();
        }
        let compact = CompactJs {
            message_type,
            call_id,
            name,
            completed,
            raw_delta: c.raw_delta,
            raw_replace: c.raw_replace,
            ops: ops.into_iter().map(OpJs::from).collect(),
            append_at,
            output: c.output,
        };
        (Some(compact), meta)
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
            ops: c.ops.into_iter().map(OpJs::from).collect(),
            output: c.output,
        }
    }
}

impl From<Op> for OpJs {
    fn from(op: Op) -> Self {
        match op {
            Op::Set { path, value } => OpJs::Set {
                path: path_js(path),
                value,
            },
            Op::Append { path, text } => OpJs::Append {
                path: path_js(path),
                text,
            },
        }
    }
}
