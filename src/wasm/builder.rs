//! The three builder classes: `ResponseBuilderCore`, `MessageBuilderCore`,
//! `ContentBuilderCore`, plus `ToolCallBuilderCore` for streamed tool calls. The JS classes of
//! `pkg-template/builder.js` wrap them (coded errors after `free()`, the `stream()` /
//! `fromText()` statics, delivery of the bytes to a stream).
//!
//! The four share one [`ResponseBuilder`] through an `Rc<RefCell<Option<…>>>`: a child is a
//! handle plus that shared reference, so it stays valid however the JS objects are collected.
//! [`ResponseBuilderCore::release`] drops the builder for all of them at once (later calls
//! throw `FINISHED`). Every emitting method returns the encoded frame(s) as a `Uint8Array`.
//!
//! Option bags and object values arrive as JSON text, made by the JS layer
//! (`pkg-template/values.js`) from the JS value; see [`super::convert`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::json_map;
use super::options::{
    builder_format, builder_options, complete_options, content_type, error_info, message_options,
    tool_call_options, tool_output_options,
};
use crate::builder::{ContentHandle, ContentValue, MessageHandle, ResponseBuilder, ToolCallHandle};
use crate::{Error, ErrorCode, Result};

/// The builder shared by a response and its children; `None` once released.
type Shared = Rc<RefCell<Option<ResponseBuilder>>>;

/// Runs `f` on the shared builder.
///
/// # Errors
/// `FINISHED` once the builder was released; otherwise what `f` returns.
fn with<T>(shared: &Shared, f: impl FnOnce(&mut ResponseBuilder) -> Result<T>) -> Result<T> {
    // No JS runs while the builder is borrowed (the clock and the id source call no user
    // code), so the borrow cannot overlap; it is checked anyway rather than risking a panic.
    let mut guard = shared.try_borrow_mut().map_err(|_| {
        Error::new(
            ErrorCode::BuilderState,
            "The ResponseBuilder is already in use (a re-entrant call).",
        )
    })?;
    let builder = guard.as_mut().ok_or_else(|| {
        Error::new(
            ErrorCode::Finished,
            "The ResponseBuilder has been freed; create a new one.",
        )
    })?;
    f(builder)
}

/// The wasm core of `ResponseBuilder`; the JS class of the same name wraps it.
#[wasm_bindgen(js_name = ResponseBuilderCore)]
pub struct ResponseBuilderCore {
    shared: Shared,
    /// The text part of a `fromText` stream, between `beginText` and `finishText`.
    text: Cell<Option<ContentHandle>>,
}

#[wasm_bindgen(js_class = ResponseBuilderCore)]
impl ResponseBuilderCore {
    /// Creates a builder from the JSON text of its options; see the `ResponseBuilderOptions`
    /// type.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<String>) -> Result<ResponseBuilderCore, JsValue> {
        let builder = ResponseBuilder::new(builder_options(options.as_deref())?)?;
        Ok(ResponseBuilderCore {
            shared: Rc::new(RefCell::new(Some(builder))),
            text: Cell::new(None),
        })
    }

    /// The HTTP `Content-Type` of a stream in `format` (`"sse"`, the default, or `"ndjson"`).
    #[wasm_bindgen(js_name = contentType)]
    pub fn content_type(format: Option<String>) -> Result<String, JsValue> {
        let format = format.map(serde_json::Value::String);
        Ok(builder_format(format.as_ref())?
            .content_type()
            .unwrap_or_default()
            .to_owned())
    }

    /// The response id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> Result<String, JsValue> {
        Ok(with(&self.shared, |rb| {
            Ok(rb.response().id.clone().unwrap_or_default())
        })?)
    }

    /// The number of events emitted so far (the next event's `sequence_number`).
    #[wasm_bindgen(getter, js_name = sequenceNumber)]
    pub fn sequence_number(&self) -> Result<f64, JsValue> {
        // Counts events of one stream: far below 2^53.
        #[allow(clippy::cast_precision_loss)]
        Ok(with(&self.shared, |rb| {
            Ok(rb.next_sequence_number() as f64)
        })?)
    }

    /// Whether a terminal event was emitted (or the builder was released).
    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> bool {
        with(&self.shared, |rb| Ok(rb.is_finished())).unwrap_or(true)
    }

    /// Emits the response with status `created`.
    pub fn created(&self) -> Result<Vec<u8>, JsValue> {
        Ok(with(&self.shared, ResponseBuilder::created)?)
    }

    /// Answers the run with one message rather than a task where the protocol has one (A2A).
    #[wasm_bindgen(js_name = asMessage)]
    pub fn as_message(&self) -> Result<(), JsValue> {
        Ok(with(&self.shared, ResponseBuilder::answer_with_message)?)
    }

    /// Emits the response with status `in_progress`.
    #[wasm_bindgen(js_name = inProgress)]
    pub fn in_progress(&self) -> Result<Vec<u8>, JsValue> {
        Ok(with(&self.shared, ResponseBuilder::in_progress)?)
    }

    /// Emits the terminal `completed` response; `options` is the JSON text of
    /// `CompletedOptions`.
    pub fn completed(&self, options: Option<String>) -> Result<Vec<u8>, JsValue> {
        let options = complete_options(options.as_deref())?;
        Ok(with(&self.shared, |rb| rb.completed(options))?)
    }

    /// Emits the terminal `failed` response; `error` is the JSON text of `{code, message}`.
    pub fn failed(&self, error: &str) -> Result<Vec<u8>, JsValue> {
        let error = error_info(error)?;
        Ok(with(&self.shared, |rb| rb.failed(error))?)
    }

    /// Emits the terminal `canceled` response.
    pub fn canceled(&self) -> Result<Vec<u8>, JsValue> {
        Ok(with(&self.shared, ResponseBuilder::canceled)?)
    }

    /// Emits the terminal `incomplete` response of a run paused for a person; `interrupts`
    /// is the JSON text of one interrupt or a list (none: one `input_required` interrupt).
    pub fn interrupt(&self, interrupts: Option<String>) -> Result<Vec<u8>, JsValue> {
        let list = super::interrupts::interrupts(interrupts.as_deref())?;
        Ok(with(&self.shared, |rb| rb.interrupted(list))?)
    }

    /// Creates a message (emits nothing); `options` is the JSON text of `MessageOptions`.
    pub fn message(&self, options: Option<String>) -> Result<MessageBuilderCore, JsValue> {
        let options = message_options(options.as_deref())?;
        let handle = with(&self.shared, |rb| rb.message(options))?;
        Ok(MessageBuilderCore {
            shared: Rc::clone(&self.shared),
            handle,
        })
    }

    /// Creates a streamed tool call (emits nothing); `options` is the JSON text of
    /// `ToolCallOptions`.
    #[wasm_bindgen(js_name = toolCall)]
    pub fn tool_call(&self, options: Option<String>) -> Result<ToolCallBuilderCore, JsValue> {
        let options = tool_call_options(options.as_deref())?;
        let call = with(&self.shared, |rb| rb.tool_call(options))?;
        Ok(ToolCallBuilderCore {
            shared: Rc::clone(&self.shared),
            call,
        })
    }

    /// Emits a whole tool output message at once; `options` is the JSON text of
    /// `ToolOutputOptions`.
    #[wasm_bindgen(js_name = toolOutput)]
    pub fn tool_output(&self, options: Option<String>) -> Result<Vec<u8>, JsValue> {
        let options = tool_output_options(options.as_deref())?;
        Ok(with(&self.shared, |rb| rb.tool_output(options))?)
    }

    /// The opening of a `fromText` stream (`ResponseBuilder::begin_text`); `options` is the
    /// JSON text of `MessageOptions` (the role).
    #[wasm_bindgen(js_name = beginText)]
    pub fn begin_text(&self, options: Option<String>) -> Result<Vec<u8>, JsValue> {
        let options = message_options(options.as_deref())?;
        let (content, out) = with(&self.shared, |rb| rb.begin_text(options))?;
        self.text.set(Some(content));
        Ok(out)
    }

    /// One token of a `fromText` stream, as a text delta.
    #[wasm_bindgen(js_name = textToken)]
    pub fn text_token(&self, token: &str) -> Result<Vec<u8>, JsValue> {
        let content = self.text_part()?;
        Ok(with(&self.shared, |rb| rb.delta_text(content, token))?)
    }

    /// The end of a `fromText` stream (`ResponseBuilder::finish_text`).
    #[wasm_bindgen(js_name = finishText)]
    pub fn finish_text(&self) -> Result<Vec<u8>, JsValue> {
        let content = self.text_part()?;
        Ok(with(&self.shared, |rb| rb.finish_text(content))?)
    }

    /// The text part of the `fromText` stream begun, or `BUILDER_STATE`.
    fn text_part(&self) -> crate::Result<ContentHandle> {
        self.text.get().ok_or_else(|| {
            Error::new(
                ErrorCode::BuilderState,
                "No fromText stream was begun on this ResponseBuilder.",
            )
        })
    }

    /// Drops the builder's state for this object and every child; later calls on any of them
    /// throw `FINISHED`. Idempotent.
    pub fn release(&self) {
        if let Ok(mut guard) = self.shared.try_borrow_mut() {
            *guard = None;
        }
    }
}

/// The wasm core of `MessageBuilder`.
#[wasm_bindgen(js_name = MessageBuilderCore)]
pub struct MessageBuilderCore {
    shared: Shared,
    handle: MessageHandle,
}

#[wasm_bindgen(js_class = MessageBuilderCore)]
impl MessageBuilderCore {
    /// The message id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> Result<String, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| {
            rb.message_id(handle).map(str::to_owned)
        })?)
    }

    /// Emits the message's start event (optional: content starts it too).
    pub fn start(&self) -> Result<Vec<u8>, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.start_message(handle))?)
    }

    /// Adds a content part of `type` (default `"text"`); emits nothing.
    pub fn content(&self, content_type_name: JsValue) -> Result<ContentBuilderCore, JsValue> {
        let ct = content_type(&content_type_name)?;
        let handle = self.handle;
        let content = with(&self.shared, |rb| rb.content(handle, ct))?;
        Ok(ContentBuilderCore {
            shared: Rc::clone(&self.shared),
            handle: content,
            out: RefCell::new(Vec::new()),
        })
    }

    /// Sets the message's `usage` (emits nothing); `usage` is the JSON text of an object.
    #[wasm_bindgen(js_name = setUsage)]
    pub fn set_usage(&self, usage: &str) -> Result<(), JsValue> {
        let usage = json_map(usage, "setUsage()")?;
        let handle = self.handle;
        Ok(with(&self.shared, |rb| {
            rb.set_message_usage(handle, usage)
        })?)
    }

    /// Emits the message's completed event with all its parts.
    pub fn complete(&self) -> Result<Vec<u8>, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.complete_message(handle))?)
    }
}

/// The wasm core of `ContentBuilder`.
#[wasm_bindgen(js_name = ContentBuilderCore)]
pub struct ContentBuilderCore {
    shared: Shared,
    handle: ContentHandle,
    /// The frame of the last `deltaTextOut`, kept for the JS layer to copy (see there).
    out: RefCell<Vec<u8>>,
}

#[wasm_bindgen(js_class = ContentBuilderCore)]
impl ContentBuilderCore {
    /// The part's position in its message's `content`.
    #[wasm_bindgen(getter)]
    pub fn index(&self) -> u32 {
        self.handle.index()
    }

    /// Emits a text delta (the hot path: a string, no conversion of a JS value).
    #[wasm_bindgen(js_name = deltaText)]
    pub fn delta_text(&self, text: &str) -> Result<Vec<u8>, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.delta_text(handle, text))?)
    }

    /// `deltaText` for a JS layer that copies the frame out of wasm memory itself, into a
    /// buffer of its own (no array made per frame): the frame stays at `outPtr()` until the
    /// next `deltaTextOut` of this part; returns its length.
    #[wasm_bindgen(js_name = deltaTextOut)]
    pub fn delta_text_out(&self, text: &str) -> Result<u32, JsValue> {
        let handle = self.handle;
        let frame = with(&self.shared, |rb| rb.delta_text(handle, text))?;
        // wasm32: a length in memory fits a u32.
        let len = u32::try_from(frame.len()).unwrap_or(u32::MAX);
        *self.out.borrow_mut() = frame;
        Ok(len)
    }

    /// Where the frame of the last `deltaTextOut` is in wasm memory.
    #[wasm_bindgen(js_name = outPtr)]
    pub fn out_ptr(&self) -> u32 {
        u32::try_from(self.out.borrow().as_ptr() as usize).unwrap_or(0)
    }

    /// Emits a delta of an object (data, deep-merged), given as JSON text.
    #[wasm_bindgen(js_name = deltaJson)]
    pub fn delta_json(&self, json: &str) -> Result<Vec<u8>, JsValue> {
        let value = ContentValue::Fields(json_map(json, "delta()")?);
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.delta(handle, value))?)
    }

    /// Emits the part's whole value (`delta: false`) as a string.
    #[wasm_bindgen(js_name = setText)]
    pub fn set_text(&self, text: &str) -> Result<Vec<u8>, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| {
            rb.set(handle, ContentValue::Text(text))
        })?)
    }

    /// Emits the part's whole value (`delta: false`) as an object of fields, given as JSON text.
    #[wasm_bindgen(js_name = setJson)]
    pub fn set_json(&self, json: &str) -> Result<Vec<u8>, JsValue> {
        let value = ContentValue::Fields(json_map(json, "set()")?);
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.set(handle, value))?)
    }

    /// Emits the part's completed event with its whole value.
    pub fn complete(&self) -> Result<Vec<u8>, JsValue> {
        let handle = self.handle;
        Ok(with(&self.shared, |rb| rb.complete_content(handle))?)
    }
}

/// The wasm core of `ToolCallBuilder`: a tool-call message with its one data part.
#[wasm_bindgen(js_name = ToolCallBuilderCore)]
pub struct ToolCallBuilderCore {
    shared: Shared,
    call: ToolCallHandle,
}

#[wasm_bindgen(js_class = ToolCallBuilderCore)]
impl ToolCallBuilderCore {
    /// The call's message id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> Result<String, JsValue> {
        let handle = self.call.message();
        Ok(with(&self.shared, |rb| {
            rb.message_id(handle).map(str::to_owned)
        })?)
    }

    /// Emits the call's start event and the first snapshot of its data part.
    pub fn start(&self) -> Result<Vec<u8>, JsValue> {
        let call = self.call;
        Ok(with(&self.shared, |rb| rb.start_tool_call(call))?)
    }

    /// Emits a piece of the arguments (a data delta `{"arguments": piece}`).
    pub fn arguments(&self, piece: &str) -> Result<Vec<u8>, JsValue> {
        let call = self.call;
        Ok(with(&self.shared, |rb| rb.tool_arguments(call, piece))?)
    }

    /// Completes the call's data part and its message.
    pub fn complete(&self) -> Result<Vec<u8>, JsValue> {
        let call = self.call;
        Ok(with(&self.shared, |rb| rb.complete_tool_call(call))?)
    }
}
