//! [`Client`]: the `@ag-ui/client` 1.0 pipeline over raw events — compatibility boundary →
//! enforcement → chunk expansion → verification → apply — holding messages, state and run.

use serde_json::Value;

use super::apply::{RunInfo, RunStatus, Store};
use super::changes::Changes;
use super::chunks::Chunks;
use super::compat::Compat;
use super::enforce::{enforce, Enforced};
use super::event::Event;
use super::message::Message;
use super::verify::Verifier;
use crate::{Error, ErrorCode, Result};
use crate::{Warning, WarningCode};

/// An AG-UI client run as `@ag-ui/client` 1.0 processes it, event by event, with the same
/// messages, state, accept/reject decision and error texts.
///
/// A fatal error (a malformed known field, a broken chunk stream, a sequencing violation)
/// rejects the stream: it is returned once, kept ([`Client::rejection`]), and every later event
/// is ignored, as the client's pipeline is torn down. What was applied before stays.
///
/// # Example
///
/// ```
/// use agentwire::agui::{Changes, Client};
/// use serde_json::json;
///
/// let mut client = Client::new();
/// let mut changes = Changes::default();
/// for event in [
///     json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Hel"}),
///     json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "lo"}),
///     json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}),
/// ] {
///     client.push(event, &mut changes)?;
/// }
/// assert_eq!(client.messages()[0].text(), Some("Hello"));
/// assert_eq!(changes.texts, vec![("m1".to_owned(), "Hello".to_owned())]);
/// let err = client.push(json!({"type": "TEXT_MESSAGE_START", "messageId": "m2"}), &mut changes);
/// assert!(err.unwrap_err().message().contains("The run has already finished"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Client {
    compat: Compat,
    chunks: Chunks,
    verifier: Verifier,
    store: Store,
    rejection: Option<Error>,
    record_events: bool,
    /// Whether delivered events are handed to [`Changes::delivered`].
    deliver: bool,
    expanded: Vec<Event>,
}

impl Client {
    /// A client with no messages and state `{}` (an `AbstractAgent`'s defaults).
    pub fn new() -> Self {
        Client::default()
    }

    /// A client whose agent already holds `messages` and `state` (legacy `binary` parts are
    /// not upgraded here: pass 1.0 messages).
    pub fn with_history(messages: Vec<Message>, state: Value) -> Self {
        Client {
            store: Store::with(messages, state),
            ..Client::default()
        }
    }

    /// Hand every event that would be delivered to the reducer (after expansion and
    /// verification), typed, to [`Changes::delivered`] instead of applying it: the pipeline of a
    /// decoder into another protocol, which keeps no messages or state.
    pub fn with_delivery(mut self, deliver: bool) -> Self {
        self.deliver = deliver;
        self
    }

    /// Also record every event delivered to the reducer (after expansion and verification) in
    /// [`Changes::events`], as JSON — what the client hands to `onEvent` subscribers.
    #[must_use]
    pub fn with_event_recording(mut self, record: bool) -> Self {
        self.record_events = record;
        self
    }

    /// The messages, as `agent.messages`.
    pub fn messages(&self) -> &[Message] {
        &self.store.messages
    }

    /// The message with `id`, found through the client's index (O(1)).
    pub fn message(&self, id: &str) -> Option<&Message> {
        self.store.message(id)
    }

    /// The message holding tool call `call_id`, and the call's index among its tool calls.
    pub fn call_owner(&self, call_id: &str) -> Option<(&Message, usize)> {
        self.store.call_owner(call_id)
    }

    /// The state, as `agent.state`.
    pub fn state(&self) -> &Value {
        &self.store.state
    }

    /// The run: ids, status, result, pending interrupts and tool calls.
    pub fn run(&self) -> &RunInfo {
        &self.store.run
    }

    /// The fatal error that rejected the stream, if one did.
    pub fn rejection(&self) -> Option<&Error> {
        self.rejection.as_ref()
    }

    /// Whether a text or reasoning message is open (between its start and end).
    pub fn is_open(&self, message_id: &str) -> bool {
        self.verifier.is_open(message_id)
    }

    /// Whether a tool call is open (between `TOOL_CALL_START` and `TOOL_CALL_END`).
    pub fn is_call_open(&self, tool_call_id: &str) -> bool {
        self.verifier.is_call_open(tool_call_id)
    }

    /// Whether the current run ended (`RUN_FINISHED` or `RUN_ERROR`) or the stream was
    /// rejected.
    pub fn is_settled(&self) -> bool {
        self.rejection.is_some()
            || matches!(
                self.store.run.status,
                RunStatus::Finished(_) | RunStatus::Errored { .. }
            )
    }

    /// Reads one event from JSON text (see [`Client::push`]).
    ///
    /// # Errors
    ///
    /// As [`Client::push`]; text that is not JSON rejects the stream with `INVALID_JSON`.
    pub fn push_str(&mut self, text: &str, changes: &mut Changes) -> Result<()> {
        if self.rejection.is_some() {
            return Ok(());
        }
        match crate::protocol::parse_repairing(text, |t| serde_json::from_str::<Value>(t)) {
            Ok(value) => self.push(value, changes),
            Err(e) => self.reject(
                Error::new(
                    ErrorCode::InvalidJson,
                    format!("The event is not valid JSON: {e}."),
                ),
                changes,
            ),
        }
    }

    /// Runs one raw event through the pipeline, recording what changed in `changes`.
    /// After a rejection, events are ignored (`Ok`).
    ///
    /// # Errors
    ///
    /// The rejection, once: `INVALID_JSON` for a frame that is not an event object,
    /// `PROTOCOL_VIOLATION` with the client's message for a malformed known field, a broken
    /// chunk stream or a sequencing violation.
    pub fn push(&mut self, mut raw: Value, changes: &mut Changes) -> Result<()> {
        if self.rejection.is_some() {
            return Ok(());
        }
        self.compat.transform(&mut raw, &mut changes.warnings);
        let (event, stripped, copy) = match enforce(raw, self.record_events) {
            Ok((Enforced::Event(event, stripped), copy)) => (event, stripped, copy),
            Ok((Enforced::Unknown(t), _)) => {
                changes.warnings.push(Warning::new(
                    WarningCode::UnknownEvent,
                    format!("[ag-ui][enforce] Dropping unrecognised event '{t}': no middleware translated it and the protocol does not describe it."),
                ));
                return Ok(());
            }
            Err(e) => return self.reject(e, changes),
        };
        if !stripped.is_empty() {
            let t = event.event_type().as_str();
            for path in stripped {
                changes.warnings.push(Warning::new(
                    WarningCode::UnknownField,
                    format!("[ag-ui][enforce] Removed unrecognised material at '{path}' on {t}. Nothing handled it."),
                ));
            }
        }
        // A non-chunk event comes out of expansion last, after any ends it synthesized; a chunk
        // comes out only as synthesized events.
        let is_chunk = matches!(
            event,
            Event::TextMessageChunk(_) | Event::ToolCallChunk(_) | Event::ReasoningMessageChunk(_)
        );
        let mut copy = if is_chunk { None } else { copy };
        let mut expanded = std::mem::take(&mut self.expanded);
        expanded.clear();
        if let Err(e) = self.chunks.expand(event, &mut expanded) {
            self.expanded = expanded;
            return self.reject(e, changes);
        }
        let mut result = Ok(());
        let last = expanded.len().saturating_sub(1);
        for (i, event) in expanded.drain(..).enumerate() {
            if let Err(e) = self.verifier.check(&event) {
                result = Err(e);
                break;
            }
            // A run started after a finished or errored one closes what the old run left open:
            // the messages concerned change status although no event names them.
            for id in self.verifier.take_closed_by_new_run() {
                self.record_closed(&id, changes);
            }
            if self.record_events {
                // The event as received (after stripping), or one chunk expansion synthesized.
                let value = match copy.take() {
                    Some(v) if i == last => v,
                    other => {
                        copy = other;
                        synthesized(&event)
                    }
                };
                changes.events.push(value);
            }
            if self.deliver {
                changes.delivered.push(event);
            } else {
                self.store.apply(event, changes);
            }
        }
        expanded.clear();
        self.expanded = expanded;
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.reject(e, changes),
        }
    }

    /// Records a status change for the message that `id` (a message or a tool call) belongs to.
    fn record_closed(&self, id: &str, changes: &mut Changes) {
        let owner = self
            .store
            .messages
            .iter()
            .rev()
            .find(|m| m.id() == id || m.tool_calls().iter().any(|tc| tc.id == id));
        if let Some(m) = owner {
            changes.message(m.id(), false);
        }
    }

    fn reject(&mut self, error: Error, changes: &mut Changes) -> Result<()> {
        self.rejection = Some(error.clone());
        changes.run = true;
        Err(error)
    }
}

/// The JSON of an event chunk expansion synthesized (a start, content or end), written by hand
/// so that recording delivered events does not pull serde's serializer for all 31 events into
/// the wasm build.
fn synthesized(event: &Event) -> Value {
    let mut m = serde_json::Map::new();
    let mut put = |k: &str, v: Option<&str>| {
        if let Some(v) = v {
            m.insert(k.to_owned(), Value::from(v));
        }
    };
    put("type", Some(event.event_type().as_str()));
    let (metadata, raw) = (event.metadata().cloned(), event.raw_event().cloned());
    match event {
        Event::TextMessageStart(e) => {
            put("messageId", Some(&e.message_id));
            put("role", e.role.map(|r| r.as_str()));
            put("name", e.name.as_deref());
        }
        Event::TextMessageContent(e) => {
            put("messageId", Some(&e.message_id));
            put("delta", Some(&e.delta));
        }
        Event::TextMessageEnd(e) => put("messageId", Some(&e.message_id)),
        Event::ToolCallStart(e) => {
            put("toolCallId", Some(&e.tool_call_id));
            put("toolCallName", Some(&e.tool_call_name));
            put("parentMessageId", e.parent_message_id.as_deref());
        }
        Event::ToolCallArgs(e) => {
            put("toolCallId", Some(&e.tool_call_id));
            put("delta", Some(&e.delta));
        }
        Event::ToolCallEnd(e) => put("toolCallId", Some(&e.tool_call_id)),
        Event::ReasoningMessageStart(e) => {
            put("messageId", Some(&e.message_id));
            put("role", Some("reasoning"));
        }
        Event::ReasoningMessageContent(e) => {
            put("messageId", Some(&e.message_id));
            put("delta", Some(&e.delta));
        }
        Event::ReasoningMessageEnd(e) => put("messageId", Some(&e.message_id)),
        _ => {}
    }
    put("subagentRunId", event.subagent_run_id());
    if let Some(metadata) = metadata {
        m.insert("metadata".to_owned(), Value::Object(metadata));
    }
    if let Some(raw) = raw {
        m.insert("rawEvent".to_owned(), raw);
    }
    Value::Object(m)
}
