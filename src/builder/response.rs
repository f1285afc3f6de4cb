//! [`ResponseBuilder`]: the one object owning a run's state; messages and parts are addressed
//! by handles.

use std::sync::Arc;

use crate::a2a::{A2aEncoder, A2aVersion};
use crate::agui::AgUiEncoder;
use crate::codec::Format;
use crate::depth::check_map_depth;
use crate::protocol::{
    AgentResponse, Clock, Content, ContentBody, ContentType, ErrorInfo, JsonMap, JsonOptions,
    Message, RunStatus,
};
use crate::responses::ResponsesEncoder;
use crate::{Error, ErrorCode, Protocol, Result};

use super::options::{BuilderOptions, CompleteOptions, MessageOptions};
use super::state::{
    next_builder_tag, Building, ContentHandle, MessageHandle, MessageSlot, MessageState, Part,
    PartState, RunState, Terminal,
};
use super::value::{apply_delta, body_for_set, check_delta, ContentValue};
use crate::emit::{AgentApiEncoder, BuilderEvent, DataDelta, Encoder, EventIds, TextDelta};

/// Builds one Agent API response stream. Every emitting call returns the encoded frame(s) of the
/// event(s) it caused, with `sequence_number` 0, 1, 2, … without gaps.
///
/// Messages and content parts are addressed by `Copy` handles ([`MessageHandle`],
/// [`ContentHandle`]), so a JS `MessageBuilder` / `ContentBuilder` is a handle plus a shared
/// reference to this builder.
///
/// # Example
///
/// ```
/// use agentwire::builder::{BuilderOptions, CompleteOptions, MessageOptions, ResponseBuilder};
/// use agentwire::protocol::{ContentType, FixedClock};
///
/// let mut rb = ResponseBuilder::new(
///     BuilderOptions::new().response_id("resp_1").session_id("s1").clock(FixedClock(1700000000)),
/// )?;
/// let mut body = Vec::new();
/// body.extend(rb.created()?);
/// body.extend(rb.in_progress()?);
/// let m = rb.message(MessageOptions::new().id("msg_1"))?;
/// let c = rb.content(m, ContentType::Text)?;
/// body.extend(rb.delta_text(c, "Hel")?); // also emits the message's start event first
/// body.extend(rb.delta_text(c, "lo")?);
/// body.extend(rb.complete_content(c)?);
/// body.extend(rb.complete_message(m)?);
/// body.extend(rb.completed(CompleteOptions::new())?);
///
/// let text = String::from_utf8(body).unwrap();
/// assert_eq!(text.matches("data: ").count(), 8);
/// assert!(text.starts_with(r#"data: {"sequence_number":0,"object":"response","status":"created""#));
/// assert!(text.contains(r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hel"}"#));
/// assert!(text.contains(r#""sequence_number":5,"object":"content","status":"completed","error":null,"type":"text","index":0,"delta":false,"msg_id":"msg_1","text":"Hello""#));
///
/// // Misuse is an error with code BUILDER_STATE, and nothing is emitted.
/// let err = rb.delta_text(c, "late").unwrap_err();
/// assert_eq!(err.code().as_str(), "BUILDER_STATE");
/// assert_eq!(rb.next_sequence_number(), 8);
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Note
///
/// Decisions where the reference leaves room (see the module docs of
/// [`builder`](crate::builder) for all of them): the first emitting call auto-emits what must
/// come before it (`created`, `in_progress`, the message's start event); `completed()` with a
/// message still open is an error unless [`CompleteOptions::close_open`]; the run's `usage`
/// defaults to the last completed message's.
pub struct ResponseBuilder {
    pub(super) tag: u32,
    pub(super) run: RunState,
    pub(super) next_seq: u64,
    pub(super) response: AgentResponse,
    pub(super) messages: Vec<MessageSlot>,
    /// The ids of `messages` (an explicit id is checked against them in O(1)).
    pub(super) ids: std::collections::HashSet<String>,
    pub(super) clock: Arc<dyn Clock + Send + Sync>,
    pub(super) encoder: Box<dyn Encoder + Send>,
}

impl std::fmt::Debug for ResponseBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseBuilder")
            .field("run", &self.run)
            .field("next_seq", &self.next_seq)
            .field("response", &self.response)
            .field("messages", &self.messages)
            .finish_non_exhaustive()
    }
}

fn state_err(msg: impl Into<String>) -> Error {
    Error::new(ErrorCode::BuilderState, msg)
}

#[cfg(not(target_arch = "wasm32"))]
fn default_clock() -> Arc<dyn Clock + Send + Sync> {
    Arc::new(crate::protocol::SystemClock)
}

#[cfg(target_arch = "wasm32")]
fn default_clock() -> Arc<dyn Clock + Send + Sync> {
    Arc::new(crate::protocol::FixedClock(0))
}

impl ResponseBuilder {
    /// A builder writing `options.protocol` (default the Agent API) in `options.format`
    /// (default SSE).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` for [`Format::Auto`], or when no randomness is available for the
    /// response id.
    pub fn new(mut options: BuilderOptions) -> Result<Self> {
        let format = options.format.unwrap_or(Format::Sse);
        let encoder: Box<dyn Encoder + Send> = match options.protocol.unwrap_or(Protocol::AgentApi)
        {
            Protocol::AgentApi => Box::new(
                AgentApiEncoder::new(format)?
                    .with_json_options(JsonOptions::new().omit_nulls(options.omit_nulls)),
            ),
            Protocol::AgUi => {
                let mut encoder = AgUiEncoder::new(format)?;
                if let Some(id) = options.thread_id.take() {
                    encoder = encoder.with_thread_id(id);
                }
                if let Some(id) = options.run_id.take() {
                    encoder = encoder.with_run_id(id);
                }
                Box::new(encoder)
            }
            Protocol::OpenAiResponses => {
                let mut encoder = ResponsesEncoder::new(format)?;
                if let Some(echo) = options.echo.take() {
                    encoder = encoder.with_echo(echo);
                }
                match options.model.take() {
                    Some(model) => Box::new(encoder.with_model(model)),
                    None => Box::new(encoder),
                }
            }
            p @ (Protocol::A2a | Protocol::A2a03) => {
                let id = options.request_id.take().unwrap_or_default();
                let version = if p == Protocol::A2a {
                    A2aVersion::V1_0
                } else {
                    A2aVersion::V0_3
                };
                Box::new(
                    A2aEncoder::new(id)
                        .with_version(version)
                        .with_format(format)?,
                )
            }
        };
        let encoder: Box<dyn Encoder + Send> = if options.event_ids {
            if format != Format::Sse {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    "eventIds needs the SSE format (NDJSON has no event ids)",
                )
                .with_field("eventIds"));
            }
            Box::new(EventIds::new(encoder))
        } else {
            encoder
        };
        Self::with_encoder(options, encoder)
    }

    /// A builder writing through `encoder` (`options.format` and `omit_nulls` are then the
    /// encoder's business and ignored here).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` when no randomness is available for the response id.
    pub fn with_encoder(options: BuilderOptions, encoder: Box<dyn Encoder + Send>) -> Result<Self> {
        let clock = options.clock.unwrap_or_else(default_clock);
        let created_at = clock.now_secs();
        let mut response = match options.response_id {
            Some(id) => AgentResponse::with_id(id, created_at),
            None => AgentResponse::new(created_at)?,
        };
        response.session_id = options.session_id;
        // The reference builder starts with `output: []`, not null.
        response.output = Some(Vec::new());
        Ok(ResponseBuilder {
            tag: next_builder_tag(),
            run: RunState::Initial,
            next_seq: 0,
            response,
            messages: Vec::new(),
            ids: std::collections::HashSet::new(),
            clock,
            encoder,
        })
    }

    /// The HTTP `Content-Type` of the stream (JS: `ResponseBuilder.contentType(format)`).
    pub fn content_type(&self) -> &'static str {
        self.encoder.content_type()
    }

    /// The response as it stands: status, `output` (completed messages), usage, ids.
    pub fn response(&self) -> &AgentResponse {
        &self.response
    }

    /// The `sequence_number` the next event will get (= the number of events emitted).
    pub fn next_sequence_number(&self) -> u64 {
        self.next_seq
    }

    /// Whether a terminal event was emitted (or the builder is poisoned).
    pub fn is_finished(&self) -> bool {
        matches!(self.run, RunState::Finished(_) | RunState::Poisoned)
    }

    /// The id of a message (JS: `MessageBuilder.id`).
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` for a handle of another builder.
    pub fn message_id(&self, message: MessageHandle) -> Result<&str> {
        Ok(&self.slot(message)?.id)
    }

    // ----- run lifecycle ------------------------------------------------------------------

    /// Emits the response with status `created` (JS: `created()`).
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` unless this is the first event.
    pub fn created(&mut self) -> Result<Vec<u8>> {
        self.check_live()?;
        if self.run != RunState::Initial {
            return Err(state_err(
                "created() must be the first event of the response.",
            ));
        }
        self.commit(|this, out| this.ensure_created(out))
    }

    /// Answers the run with one message rather than a task where the protocol has such an
    /// answer (A2A: a `Message` result when the run completes; a run that fails, is canceled or
    /// pauses still answers with a task); in the other protocols it changes nothing (JS:
    /// `asMessage()`). Emits nothing.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` once the run's first event was emitted.
    pub fn answer_with_message(&mut self) -> Result<()> {
        self.check_live()?;
        if self.run != RunState::Initial {
            return Err(state_err(
                "asMessage() must come before the run's first event.",
            ));
        }
        self.encoder.answer_with_message();
        Ok(())
    }

    /// Emits the response with status `in_progress` (JS: `inProgress()`), after `created` if
    /// that was not emitted yet.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if `in_progress` was already emitted (or the run finished).
    pub fn in_progress(&mut self) -> Result<Vec<u8>> {
        self.check_live()?;
        if !matches!(self.run, RunState::Initial | RunState::Created) {
            return Err(state_err("in_progress() was already emitted."));
        }
        self.commit(|this, out| this.ensure_running(out))
    }

    /// Emits the terminal `completed` response (JS: `completed({usage, closeOpen})`), with
    /// `completed_at` from the clock and `output` holding the completed messages.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after a terminal event, or while a message is open (created with
    /// [`message`](Self::message) and not completed) unless [`CompleteOptions::close_open`];
    /// `INVALID_OPTION` for a `usage` nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn completed(&mut self, options: CompleteOptions) -> Result<Vec<u8>> {
        self.check_live()?;
        if let Some(usage) = &options.usage {
            check_map_depth(usage, ErrorCode::InvalidOption, "The usage")?;
        }
        if !options.close_open {
            if let Some(open) = self.first_open_message() {
                return Err(state_err(format!(
                    "Message {} is still open; complete it first, or pass closeOpen.",
                    open.id
                )));
            }
        }
        self.commit(|this, out| {
            if options.close_open {
                for i in 0..this.messages.len() {
                    this.close_message(i, out)?;
                }
            }
            this.ensure_running(out)?;
            this.set_usage(options.usage);
            let now = this.clock.now_secs();
            this.response.completed(now);
            this.finish(Terminal::Completed, out)
        })
    }

    /// Emits the terminal `failed` response with `error` (JS: `failed({code, message})`).
    /// Open messages stay open, as in the reference runner.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after a terminal event.
    pub fn failed(&mut self, error: ErrorInfo) -> Result<Vec<u8>> {
        self.check_live()?;
        self.commit(|this, out| {
            this.ensure_running(out)?;
            this.set_usage(None);
            this.response.failed(error);
            this.finish(Terminal::Failed, out)
        })
    }

    /// Emits the terminal `canceled` response (JS: `canceled()`). Open messages stay open.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after a terminal event.
    pub fn canceled(&mut self) -> Result<Vec<u8>> {
        self.check_live()?;
        self.commit(|this, out| {
            this.ensure_running(out)?;
            this.set_usage(None);
            this.response.canceled();
            this.finish(Terminal::Canceled, out)
        })
    }

    /// Ends the run paused for a person (JS: `interrupt(interrupts)`): completes every open
    /// message, then emits the terminal response with status `incomplete`, `output` the
    /// completed messages and `interrupts` the list given (each an object with at least `id`
    /// and `reason`, AG-UI's interrupt shape; an interrupt without an `id` gets
    /// a fresh `interrupt_<uuid4>`). Every protocol writes the pause its own way: AG-UI's
    /// interrupt outcome, A2A's input-required task, Responses' `incomplete` response.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after a terminal event; `INVALID_OPTION` for an interrupt nested deeper
    /// than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn interrupted(&mut self, interrupts: Vec<JsonMap>) -> Result<Vec<u8>> {
        self.check_live()?;
        for interrupt in &interrupts {
            check_map_depth(interrupt, ErrorCode::InvalidOption, "An interrupt")?;
        }
        self.commit(|this, out| {
            for i in 0..this.messages.len() {
                this.close_message(i, out)?;
            }
            this.ensure_running(out)?;
            this.set_usage(None);
            let now = this.clock.now_secs();
            this.response.completed(now);
            this.response.status = RunStatus::Incomplete;
            let mut list = Vec::with_capacity(interrupts.len());
            for mut interrupt in interrupts {
                if !interrupt
                    .get("id")
                    .is_some_and(serde_json::Value::is_string)
                {
                    let id = crate::protocol::new_id("interrupt_")?;
                    interrupt.insert("id".to_owned(), serde_json::Value::String(id));
                }
                list.push(serde_json::Value::Object(interrupt));
            }
            this.response
                .extra
                .insert("interrupts".to_owned(), serde_json::Value::Array(list));
            this.finish(Terminal::Interrupted, out)
        })
    }

    // ----- messages -----------------------------------------------------------------------

    /// Creates a message (JS: `message({role, type})`); emits nothing. Its start event comes
    /// with [`start_message`](Self::start_message) or with the first event of its content.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after a terminal event, or when `options` names an id already used in
    /// this response; `INVALID_OPTION` when no randomness is available for the id, or for a
    /// `usage` or `metadata` nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn message(&mut self, options: MessageOptions) -> Result<MessageHandle> {
        self.check_live()?;
        for (map, what) in [
            (&options.usage, "The usage"),
            (&options.metadata, "The metadata"),
        ] {
            if let Some(map) = map {
                check_map_depth(map, ErrorCode::InvalidOption, what)?;
            }
        }
        if let Some(id) = &options.id {
            if self.ids.contains(id) {
                return Err(state_err(format!(
                    "A message with id {id} already exists in this response."
                )));
            }
        }
        let index = u32::try_from(self.messages.len())
            .map_err(|_| state_err("Too many messages in one response."))?;
        let id = match options.id {
            Some(id) => id,
            None => crate::protocol::new_id("msg_")?,
        };
        let mut message = Message::with_id(id.clone()).with_type(options.message_type);
        message.role = options.role;
        message.usage = options.usage;
        message.metadata = options.metadata;
        message.in_progress();
        self.ids.insert(id.clone());
        self.messages.push(MessageSlot {
            id,
            state: MessageState::Pending(Box::new(Building {
                message,
                parts: Vec::new(),
                announce_first_part: false,
            })),
        });
        Ok(MessageHandle {
            builder: self.tag,
            index,
        })
    }

    /// Emits the message's start event: status `in_progress`, `content: null` (JS:
    /// `MessageBuilder.start()`), after `created` / `in_progress` if those are still due.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the message was already started (explicitly or by its content) or
    /// completed, or after a terminal event.
    pub fn start_message(&mut self, message: MessageHandle) -> Result<Vec<u8>> {
        self.check_live()?;
        let slot = self.slot(message)?;
        match &slot.state {
            MessageState::Pending(_) => {}
            MessageState::Started(_) => {
                return Err(state_err(format!(
                    "Message {} was already started.",
                    slot.id
                )))
            }
            MessageState::Completed => {
                return Err(state_err(format!("Message {} is completed.", slot.id)))
            }
        }
        let i = message.index as usize;
        self.commit(|this, out| this.ensure_started(i, out))
    }

    /// Emits the message's completed event, with all its content parts (JS:
    /// `MessageBuilder.complete()`), and adds the message to the response's `output`.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if a content part of the message is still open, if the message is
    /// already completed, or after a terminal event.
    pub fn complete_message(&mut self, message: MessageHandle) -> Result<Vec<u8>> {
        self.check_live()?;
        let (slot, building) = self.building(message)?;
        if let Some(part) = building.parts.iter().find(|p| p.state == PartState::Open) {
            return Err(state_err(format!(
                "Content {} of message {} is still open; complete it first.",
                part.content.index.unwrap_or_default(),
                slot.id
            )));
        }
        let i = message.index as usize;
        self.commit(|this, out| this.close_message(i, out))
    }

    /// Sets the message's `usage` (emits nothing); it shows in the completed event, and the
    /// run's usage defaults to the last completed message's.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the message is completed, or after a terminal event;
    /// `INVALID_OPTION` for a `usage` nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn set_message_usage(&mut self, message: MessageHandle, usage: JsonMap) -> Result<()> {
        self.check_live()?;
        check_map_depth(&usage, ErrorCode::InvalidOption, "The usage")?;
        self.building(message)?;
        if let Some(b) = self.building_mut(message.index as usize) {
            b.message.usage = Some(usage);
        }
        Ok(())
    }

    // ----- content ------------------------------------------------------------------------

    /// Adds a content part of `content_type` to the message (JS: `MessageBuilder.content(type)`);
    /// emits nothing. Parts are numbered 0, 1, … in creation order.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the message is completed, or after a terminal event.
    pub fn content(
        &mut self,
        message: MessageHandle,
        content_type: ContentType,
    ) -> Result<ContentHandle> {
        self.check_live()?;
        let (_, building) = self.building(message)?;
        let index = u32::try_from(building.parts.len())
            .map_err(|_| state_err("Too many content parts in one message."))?;
        let i = message.index as usize;
        if let Some(b) = self.building_mut(i) {
            let content = Content::new(ContentBody::empty(content_type))
                .with_index(i64::from(index))
                .with_msg_id(b.message.id.clone());
            b.parts.push(Part {
                state: PartState::Open,
                content,
            });
        }
        Ok(ContentHandle { message, index })
    }

    /// Emits a delta (JS: `ContentBuilder.delta(value)`): a string appended to a text or
    /// refusal part, or an object deep-merged into a data part (the builder rule,
    /// [`merge_data_into`](crate::protocol::merge_data_into)). The event has `delta: true`,
    /// status `in_progress`, and carries only the piece.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the part is completed, its message is completed, the value does not
    /// fit the part's type (see [`ContentValue`]), or after a terminal event; `INVALID_OPTION`
    /// for an object nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn delta(&mut self, content: ContentHandle, value: ContentValue<'_>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.delta_into(content, value, &mut out)?;
        Ok(out)
    }

    /// [`delta`](Self::delta) for a string: the hot path of text streaming.
    ///
    /// # Errors
    ///
    /// As [`delta`](Self::delta).
    pub fn delta_text(&mut self, content: ContentHandle, text: &str) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(160 + text.len());
        self.delta_into(content, ContentValue::Text(text), &mut out)?;
        Ok(out)
    }

    /// [`delta`](Self::delta), appending the frames to `out` (reuse one buffer across calls).
    /// On error `out` is unchanged.
    ///
    /// # Errors
    ///
    /// As [`delta`](Self::delta).
    pub fn delta_into(
        &mut self,
        content: ContentHandle,
        value: ContentValue<'_>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        self.check_live()?;
        let part = self.open_part(content)?;
        let ct = part
            .content
            .body
            .content_type()
            .unwrap_or(ContentType::Text);
        check_delta(ct, &value)?;
        if let ContentValue::Fields(data) = &value {
            check_map_depth(data, ErrorCode::InvalidOption, "The data delta")?;
        }
        let mi = content.message.index as usize;
        let pi = content.index as usize;
        let len = out.len();
        let r = self.commit_into(out, |this, out| {
            this.ensure_started(mi, out)?;
            let seq = this.take_seq();
            let Some(MessageState::Started(b)) = this.messages.get_mut(mi).map(|s| &mut s.state)
            else {
                return Ok(());
            };
            let Some(part) = b.parts.get_mut(pi) else {
                return Ok(());
            };
            let msg_id = b.message.id.as_str();
            let ev = match &value {
                ContentValue::Text(text) => BuilderEvent::TextDelta(TextDelta {
                    sequence_number: seq,
                    msg_id,
                    index: content.index,
                    content_type: ct,
                    text,
                }),
                ContentValue::Fields(data) => BuilderEvent::DataDelta(DataDelta {
                    sequence_number: seq,
                    msg_id,
                    index: content.index,
                    data,
                }),
            };
            this.encoder.encode(&ev, out)?;
            apply_delta(&mut part.content.body, value);
            Ok(())
        });
        if r.is_err() {
            out.truncate(len);
        }
        r
    }

    /// Replaces the part's whole value and emits it (JS: `ContentBuilder.set(value)`): status
    /// `in_progress`, `delta: false`. A string sets the type's main field, an object the fields
    /// by name (for a data part: the data itself); see [`ContentValue`].
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the part or its message is completed, a string is given for a data
    /// part, or after a terminal event; `INVALID_OPTION` for an unknown field name, a field
    /// that is not a string or null, or an object nested deeper than
    /// [`MAX_DEPTH`](crate::MAX_DEPTH).
    pub fn set(&mut self, content: ContentHandle, value: ContentValue<'_>) -> Result<Vec<u8>> {
        self.check_live()?;
        let part = self.open_part(content)?;
        let ct = part
            .content
            .body
            .content_type()
            .unwrap_or(ContentType::Text);
        if let ContentValue::Fields(data) = &value {
            check_map_depth(data, ErrorCode::InvalidOption, "The value")?;
        }
        let body = body_for_set(ct, value)?;
        let mi = content.message.index as usize;
        let pi = content.index as usize;
        self.commit(|this, out| {
            this.ensure_started(mi, out)?;
            if let Some(p) = this.part_mut(mi, pi) {
                p.content.body = body;
                p.content.in_progress();
            }
            this.emit_part(mi, pi, false, out)
        })
    }

    /// Emits the part's completed event with its whole value (JS: `ContentBuilder.complete()`):
    /// status `completed`, `delta: false`. A part never given a value completes with its
    /// fields null, as in the reference builder.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the part or its message is already completed, or after a terminal
    /// event.
    pub fn complete_content(&mut self, content: ContentHandle) -> Result<Vec<u8>> {
        self.check_live()?;
        self.open_part(content)?;
        let mi = content.message.index as usize;
        let pi = content.index as usize;
        self.commit(|this, out| {
            this.ensure_started(mi, out)?;
            this.close_part(mi, pi, out)
        })
    }

    // ----- checks (no mutation) -----------------------------------------------------------

    /// `Ok` while calls are accepted.
    pub(crate) fn check_live(&self) -> Result<()> {
        match self.run {
            RunState::Initial | RunState::Created | RunState::InProgress => Ok(()),
            RunState::Finished(t) => Err(state_err(format!(
                "The response is {}; nothing can follow a terminal event.",
                t.as_str()
            ))),
            RunState::Poisoned => Err(Error::new(
                ErrorCode::Finished,
                "The builder stopped at an earlier encoding error.",
            )),
        }
    }

    fn slot(&self, message: MessageHandle) -> Result<&MessageSlot> {
        if message.builder != self.tag {
            return Err(state_err(
                "This message belongs to another ResponseBuilder.",
            ));
        }
        self.messages
            .get(message.index as usize)
            .ok_or_else(|| state_err("Unknown message handle."))
    }

    /// The message, if it can still change.
    pub(crate) fn building(&self, message: MessageHandle) -> Result<(&MessageSlot, &Building)> {
        let slot = self.slot(message)?;
        match &slot.state {
            MessageState::Pending(b) | MessageState::Started(b) => Ok((slot, b)),
            MessageState::Completed => Err(state_err(format!(
                "Message {} is completed; it takes no more content.",
                slot.id
            ))),
        }
    }

    /// The part, if it is open and its message too.
    fn open_part(&self, content: ContentHandle) -> Result<&Part> {
        let (slot, building) = self.building(content.message)?;
        let part = building
            .parts
            .get(content.index as usize)
            .ok_or_else(|| state_err("Unknown content handle."))?;
        match part.state {
            PartState::Open => Ok(part),
            PartState::Completed => Err(state_err(format!(
                "Content {} of message {} is completed.",
                content.index, slot.id
            ))),
        }
    }

    fn first_open_message(&self) -> Option<&MessageSlot> {
        self.messages
            .iter()
            .find(|s| !matches!(s.state, MessageState::Completed))
    }
}
