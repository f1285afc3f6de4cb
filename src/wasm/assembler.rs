//! The `StreamAssembler` class (its wasm core; `pkg-template/assembler.js` adds the async
//! helpers and the tool-call mirror on top).

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{to_js, to_js_large};
use super::options::assembler_options;
use super::outbox::Outbox;
#[cfg(feature = "client")]
use crate::assembler::Deferred;
use crate::assembler::{Op, PathSegment, Snapshot, StreamAssembler, ToolCallChange};

/// The wasm core of `StreamAssembler`. Not exported from the package directly: the JS class of
/// the same name wraps it.
#[wasm_bindgen(js_name = StreamAssemblerCore)]
pub struct StreamAssemblerCore {
    inner: StreamAssembler,
    /// How many calls (the first ones of the list) the JS mirror holds (see `toolCallChanges`).
    known: usize,
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

#[wasm_bindgen(js_class = StreamAssemblerCore)]
impl StreamAssemblerCore {
    /// Creates an assembler from the JSON text of its options (made by the JS layer,
    /// `pkg-template/values.js`); see the `StreamAssemblerOptions` type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<String>) -> Result<StreamAssemblerCore, JsValue> {
        Ok(StreamAssemblerCore {
            inner: StreamAssembler::new(assembler_options(options.as_deref())?),
            known: 0,
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

    /// The snapshot, as a plain object. The Agent API snapshot crosses as JSON text, its long
    /// texts as strings of their own (see `LONG_TEXT`).
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        match self.inner.snapshot_view() {
            Snapshot::Value(value) => Ok(to_js_large(&value)?),
            #[cfg(feature = "client")]
            Snapshot::AgentApi(view) => {
                let view = view.defer_texts(LONG_TEXT);
                let js = to_js(&view)?;
                for deferred in view.deferred() {
                    put_text(&js, &deferred)?;
                }
                Ok(js)
            }
            // Sized first: all in the JSON text, as the lite build always did.
            #[cfg(not(feature = "client"))]
            Snapshot::AgentApi(view) => Ok(to_js(&view)?),
        }
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

    /// The SSE id of the last event applied, or `null`.
    #[wasm_bindgen(getter, js_name = lastEventId)]
    pub fn last_event_id(&self) -> Option<String> {
        self.inner.last_event_id().map(str::to_owned)
    }

    /// The `retry:` time the stream asked for, in ms, or `null`.
    #[wasm_bindgen(getter)]
    pub fn retry(&self) -> Option<f64> {
        self.inner.retry().map(|ms| ms as f64)
    }

    /// Events skipped as a resumed stream's replay.
    #[wasm_bindgen(getter)]
    pub fn replayed(&self) -> f64 {
        self.inner.replayed() as f64
    }

    /// The connection broke; the stream continues on a new one.
    #[wasm_bindgen(js_name = connectionLost)]
    pub fn connection_lost(&mut self) {
        self.inner.connection_lost();
    }

    /// What changed in the tool calls since the last call: `null` when nothing did, otherwise
    /// `[len, reset, ...changes]`. `changes` holds the calls that changed, by `position`: a full
    /// record (`messageId`, `index`, …) for a new call or after a `reset` (then every call is
    /// listed), otherwise only the fields that changed (the JS mirror keys it by position).
    /// Sending only what changed keeps reading parsed arguments after every chunk cheap: each
    /// string crossing costs a decode.
    #[wasm_bindgen(js_name = toolCallChanges)]
    pub fn tool_call_changes(&mut self) -> Result<JsValue, JsValue> {
        let changes = self.inner.tool_call_changes();
        if changes.reset {
            self.known = 0;
        }
        self.known = self.known.min(changes.len);
        let mut out = Vec::with_capacity(changes.changes.len());
        for change in changes.changes {
            if change.position < self.known {
                out.extend(CompactJs::new(change).map(Entry::Compact));
            } else {
                // Positions arrive in order: a new call is the next one.
                if change.position == self.known {
                    self.known += 1;
                }
                out.push(Entry::Full(ChangeJs::from(change)));
            }
        }
        if out.is_empty() && !changes.reset {
            return Ok(JsValue::NULL);
        }
        Ok(to_js(&ChangesJs {
            len: changes.len,
            reset: changes.reset,
            changes: out,
        })?)
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

/// What `toolCallChanges` returns when something changed: one flat array, `[len, reset,
/// ...changes]` (JSON.parse of one array costs less than of an object wrapping one, and this
/// crosses once per look).
struct ChangesJs {
    len: usize,
    reset: bool,
    changes: Vec<Entry>,
}

impl Serialize for ChangesJs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.changes.len() + 2))?;
        seq.serialize_element(&self.len)?;
        seq.serialize_element(&self.reset)?;
        for change in &self.changes {
            seq.serialize_element(change)?;
        }
        seq.end()
    }
}

/// Texts longer than this (in UTF-8 bytes) leave the snapshot's JSON text and are set as strings
/// of their own: JS makes a string from UTF-8 faster than it parses it out of JSON, and a string
/// set apart costs a few boundary calls, about what parsing 1 KB costs (bench/README.md,
/// "Measurements behind code decisions").
#[cfg(feature = "client")]
const LONG_TEXT: usize = 1024;

/// Sets a text left out of the snapshot's JSON at its place in `snapshot`.
#[cfg(feature = "client")]
fn put_text(snapshot: &JsValue, d: &Deferred<'_>) -> Result<(), JsValue> {
    use js_sys::Reflect;
    let list = if d.incomplete {
        "incompleteMessages"
    } else {
        "output"
    };
    let list = Reflect::get(snapshot, &JsValue::from_str(list))?;
    let message = Reflect::get_u32(&list, u32::try_from(d.message).unwrap_or(u32::MAX))?;
    let content = Reflect::get(&message, &JsValue::from_str("content"))?;
    let part = Reflect::get_u32(&content, u32::try_from(d.part).unwrap_or(u32::MAX))?;
    Reflect::set(&part, &JsValue::from_str(d.key), &JsValue::from_str(d.text))?;
    Ok(())
}

/// One entry of `toolCallChanges`.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry {
    Full(ChangeJs),
    Compact(CompactJs),
}

/// A change to the call at the same position as before: only what changed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CompactJs {
    position: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    call_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments_error: Option<Option<String>>,
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
    /// The fields of `c` that changed since the JS mirror last saw the call (`None` for
    /// nothing), moved out of it.
    fn new(c: ToolCallChange) -> Option<Self> {
        let changed = c.changed;
        let unchanged = !changed.any()
            && c.raw_delta.is_empty()
            && !c.raw_replace
            && c.ops.is_empty()
            && c.output.is_none();
        if unchanged {
            return None;
        }
        let message_type = changed.message_type.then_some(c.message_type);
        let call_id = changed.call_id.then_some(c.call_id);
        let name = changed.name.then_some(c.name);
        let completed = changed.completed.then_some(c.completed);
        let arguments_error = changed.arguments_error.then_some(c.arguments_error);
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
            position: c.position,
            message_type,
            call_id,
            name,
            completed,
            arguments_error,
            raw_delta: c.raw_delta,
            raw_replace: c.raw_replace,
            ops: ops_js(ops),
            append_at,
            output: c.output,
        };
        Some(compact)
    }
}

/// The JS shape of a [`ToolCallChange`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeJs {
    position: usize,
    message_id: String,
    index: usize,
    message_type: String,
    call_id: Option<String>,
    name: Option<String>,
    completed: bool,
    arguments_error: Option<String>,
    raw_delta: String,
    raw_replace: bool,
    ops: Vec<OpJs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Value>,
}

#[derive(Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
enum OpJs {
    Set {
        path: Vec<Value>,
        value: Value,
    },
    Append {
        path: Vec<Value>,
        text: String,
    },
    /// Consecutive sets of keys of the object at `path`, in order.
    #[cfg(feature = "client")]
    Assign {
        path: Vec<Value>,
        values: serde_json::Map<String, Value>,
    },
    /// Consecutive sets of positions `from`, `from + 1`, … of the array at `path`.
    #[cfg(feature = "client")]
    SetFrom {
        path: Vec<Value>,
        from: usize,
        values: Vec<Value>,
    },
}

/// The JS form of `ops`, one op each (the lite build, sized first).
#[cfg(not(feature = "client"))]
fn ops_js(ops: Vec<Op>) -> Vec<OpJs> {
    ops.into_iter().map(OpJs::from).collect()
}

/// The JS form of `ops`, with each run of sets into one container as one op: a large object or
/// array arriving in a chunk crosses as about its own JSON text, not as one op per member.
#[cfg(feature = "client")]
fn ops_js(ops: Vec<Op>) -> Vec<OpJs> {
    let mut out: Vec<OpJs> = Vec::with_capacity(ops.len());
    for op in ops {
        let Op::Set { mut path, value } = op else {
            out.push(OpJs::from(op));
            continue;
        };
        let Some(last) = path.pop() else {
            out.push(OpJs::Set {
                path: Vec::new(),
                value,
            });
            continue;
        };
        let parent = path_js(path);
        match (out.last_mut(), last) {
            (Some(OpJs::Assign { path, values }), PathSegment::Key(key)) if *path == parent => {
                // A key set twice keeps its first position and its last value, as in JS.
                values.insert(key, value);
            }
            (Some(OpJs::SetFrom { path, from, values }), PathSegment::Index(i))
                if *path == parent && i == *from + values.len() =>
            {
                values.push(value);
            }
            (_, PathSegment::Key(key)) => {
                let mut values = serde_json::Map::new();
                values.insert(key, value);
                out.push(OpJs::Assign {
                    path: parent,
                    values,
                });
            }
            (_, PathSegment::Index(from)) => out.push(OpJs::SetFrom {
                path: parent,
                from,
                values: vec![value],
            }),
        }
    }
    out
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
            position: c.position,
            message_id: c.message_id,
            index: c.index,
            message_type: c.message_type,
            call_id: c.call_id,
            name: c.name,
            completed: c.completed,
            arguments_error: c.arguments_error,
            raw_delta: c.raw_delta,
            raw_replace: c.raw_replace,
            ops: ops_js(c.ops),
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
