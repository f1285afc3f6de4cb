//! Folding Agent API events (`/process` streams of AgentScope Runtime) into a response.
//!
//! Semantics follow DESIGN.md, "Semantics decisions", and `reference/agentscope-protocol.md`
//! §2–§6:
//! - `delta: true` content appends text (and refusal), deep-merges data with the builder rule,
//!   concatenates `image_url` (as `Message.add_delta_content` does), and sets other fields;
//!   `delta: false`/`null` replaces the part, whatever its status.
//! - A completed part (in a content event or inside a completed message) is authoritative; when
//!   it disagrees with what deltas assembled, it wins with a `CONTENT_MISMATCH` warning.
//! - Content for an unknown message creates it (`UNANNOUNCED_MESSAGE`).
//! - Nested `sequence_number`, `status` and `delta` inside `content`/`output` are ignored.
//! - An event whose numeric `sequence_number` is not above the last one seen is a replay and is
//!   ignored (`DUPLICATE_EVENT`).
//! - A bare `{"error": "…"}` ends the run as failed with code `SERVER_ERROR`.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;

use super::bytewise::same;
use super::calls::CallMirror;
pub use super::calls::{ToolCall, ToolCallChange, ToolCallChanges};
use super::fast_read::FastReader;
use super::outcome::Outcome;
use super::update::Batch;
use crate::protocol::arguments_error;

mod calls;
mod delta;
use delta::refuse;
mod snapshot;
mod view;
use crate::protocol::{
    parse_event, AgentResponse, Content, ContentBody, ErrorInfo, Event, JsonMap, Message,
    MessageType, RunStatus,
};
use crate::sequence::{Seen, SeenNumbers};
use crate::{Error, ErrorCode, Result};
use crate::{Warning, WarningCode};
#[cfg(all(target_arch = "wasm32", feature = "client"))]
pub(crate) use snapshot::Deferred;
#[cfg(feature = "client")]
pub(crate) use snapshot::PartView;
pub(crate) use snapshot::SnapshotView;

/// The most content parts one message may have (an `index` above this is rejected): bounds
/// the memory a hostile `index` can claim.
pub const MAX_PARTS_PER_MESSAGE: usize = 4096;

/// Where the event being applied came from, and how to report problems with it.
pub(crate) struct EventCx<'b> {
    pub(crate) batch: &'b mut Batch,
    pub(crate) strict: bool,
    pub(crate) offset: u64,
    pub(crate) sequence_number: Option<i64>,
}

impl EventCx<'_> {
    /// Records a tolerated violation, or fails in strict mode.
    pub(crate) fn warn(&mut self, code: WarningCode, message: impl Into<String>) -> Result<()> {
        let warning = Warning {
            code,
            message: message.into(),
            offset: Some(self.offset),
            sequence_number: self.sequence_number,
        };
        // A replay is no fault of the stream, and unusable tool-call arguments are a fact about
        // the content (the call says so itself): neither is a protocol violation.
        if self.strict
            && !matches!(
                code,
                WarningCode::DuplicateEvent | WarningCode::InvalidArguments
            )
        {
            return Err(warning.into_error());
        }
        self.batch.warnings.push(warning);
        Ok(())
    }
}

/// A content part being assembled.
#[derive(Debug)]
pub(crate) struct PartSlot {
    /// The part; its body holds the assembled value.
    pub(crate) content: Content,
    /// Whether a completed value arrived for it.
    pub(crate) completed: bool,
    /// Whether its value was built from `delta: true` events (then a completed value that
    /// disagrees is a mismatch; after snapshots it is just the newer value).
    pub(crate) from_deltas: bool,
    /// The tool-call arguments mirror, once a consumer asked for parsed arguments.
    pub(crate) mirror: Option<Box<CallMirror>>,
    /// For a completed call: whether its arguments were checked, and what is wrong with them.
    pub(crate) arguments_checked: Option<Option<String>>,
    /// The call's position in the list a consumer sees, once listed.
    pub(crate) call_position: Option<usize>,
}

/// A message being assembled.
#[derive(Debug)]
pub(crate) struct MessageSlot {
    /// The message's header fields (`content` stays `None`; parts are in `parts`).
    pub(crate) message: Message,
    /// By index; an empty slot (an index skipped) costs one pointer, so a hostile `index`
    /// claims little memory.
    pub(crate) parts: Vec<Option<Box<PartSlot>>>,
}

/// Whether a message type carries a tool call's arguments.
fn is_call_type(t: &MessageType) -> bool {
    matches!(
        t,
        MessageType::FunctionCall | MessageType::PluginCall | MessageType::McpToolCall
    )
}

/// Whether a message type carries a tool call's output.
fn is_output_type(t: &MessageType) -> bool {
    matches!(
        t,
        MessageType::FunctionCallOutput
            | MessageType::PluginCallOutput
            | MessageType::McpToolCallOutput
    )
}

/// The run's outcome for a terminal status, `None` for a non-terminal one.
fn terminal_outcome(status: &RunStatus) -> Option<Outcome> {
    match status {
        RunStatus::Completed => Some(Outcome::Completed),
        RunStatus::Failed => Some(Outcome::Failed),
        RunStatus::Canceled => Some(Outcome::Canceled),
        RunStatus::Rejected => Some(Outcome::Rejected),
        RunStatus::Incomplete => Some(Outcome::Incomplete),
        _ => None,
    }
}

/// A call's arguments as the raw text consumers see (`ToolCall::arguments`): the string as
/// received; `""` when absent or null; the JSON text of any other value. `None` when the part
/// is not a data part (not a call).
fn raw_arguments(content: &Content) -> Option<Cow<'_, str>> {
    match &content.body {
        ContentBody::Data { data } => Some(arguments_text(data.as_ref())),
        _ => None,
    }
}

/// The raw text of a call's `arguments` in its data: the string as received; `""` when absent
/// or null; the compact JSON text of any other value.
fn arguments_text(data: Option<&JsonMap>) -> Cow<'_, str> {
    match data.and_then(|d| d.get("arguments")) {
        Some(Value::String(s)) => Cow::Borrowed(s.as_str()),
        None | Some(Value::Null) => Cow::Borrowed(""),
        // A `Value` always serialises (its keys are strings); `to_string` rather than
        // `Display` keeps `std::io`'s error texts out of the wasm.
        Some(other) => Cow::Owned(serde_json::to_string(other).unwrap_or_default()),
    }
}

/// The Agent API fold: everything known about the run so far.
#[derive(Debug)]
pub(crate) struct AgentApiFold {
    pub(crate) response: AgentResponse,
    pub(crate) response_seen: bool,
    pub(crate) messages: Vec<MessageSlot>,
    by_id: HashMap<String, usize>,
    /// The slot of the last message looked up: consecutive deltas hit it without hashing.
    last_slot: Option<usize>,
    /// The `sequence_number`s seen, to tell replays from new events.
    seen: SeenNumbers,
    pub(crate) outcome: Outcome,
    /// Events with an unknown `object`, kept verbatim.
    pub(crate) unknown_events: Vec<JsonMap>,
    /// Whether consumers asked for parsed tool-call arguments (then they are kept up to date).
    track_arguments: bool,
    /// The tool calls a consumer sees, and what changed since it looked.
    pub(crate) calls: calls::CallTracker,
    /// The order of messages in the final `output`, when it differs from arrival order.
    pub(crate) output_order: Option<Vec<usize>>,
    /// Reads content deltas without building a `Value`.
    fast_reader: FastReader,
    /// Whether the fast reader is used (off: every event through `parse_event`; the same
    /// results, for testing).
    fast_path: bool,
}

impl Default for AgentApiFold {
    fn default() -> Self {
        let mut response = AgentResponse::with_id(String::new(), 0);
        response.id = None;
        AgentApiFold {
            response,
            response_seen: false,
            messages: Vec::new(),
            by_id: HashMap::new(),
            last_slot: None,
            seen: SeenNumbers::default(),
            outcome: Outcome::Pending,
            unknown_events: Vec::new(),
            track_arguments: false,
            calls: calls::CallTracker::default(),
            fast_reader: FastReader::default(),
            output_order: None,
            fast_path: true,
        }
    }
}

/// The most unknown events kept.
const MAX_UNKNOWN_EVENTS: usize = 256;

impl AgentApiFold {
    /// A fold that reads content deltas with the fast reader (`true`) or parses every event.
    #[inline(never)]
    pub(crate) fn with_fast_path(fast_path: bool) -> Self {
        AgentApiFold {
            fast_path,
            ..AgentApiFold::default()
        }
    }

    /// Applies one event payload.
    pub(crate) fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()> {
        // Fast path: a well-formed content event, read without building a `Value`. The fast
        // reader declines any other event as soon as it reads its `object`.
        if self.fast_path {
            if let Some(event) = self.fast_reader.read(payload) {
                if !event.irregular && event.object.as_deref() == Some("content") {
                    if let Some(done) = self.apply_fast_delta(event, cx)? {
                        return Ok(done);
                    }
                }
            }
        }
        let event = match parse_event(payload) {
            Ok(event) => event,
            Err(error) if cx.strict => return Err(error.with_offset(cx.offset)),
            Err(error) => {
                return cx.warn(
                    WarningCode::InvalidEvent,
                    format!("An event was skipped: {}", error.message()),
                )
            }
        };
        self.apply_event(event, cx)
    }

    /// Applies one parsed event (what a protocol adapter translated into the Agent API). Not
    /// inlined: the Agent API fold and the adapter fold share it.
    #[inline(never)]
    pub(crate) fn apply_event(&mut self, event: Event, cx: &mut EventCx<'_>) -> Result<()> {
        if !self.accept_sequence(event.sequence_number(), cx)? {
            return Ok(());
        }
        if self.outcome.is_settled() {
            return cx.warn(
                WarningCode::EventAfterEnd,
                "An event after the run ended was ignored.",
            );
        }
        match event {
            Event::Response(response) => self.on_response(response, cx),
            Event::Message(message) => self.on_message(message, cx),
            Event::Content(content) => self.on_content(content, cx),
            Event::ServerError(e) => self.on_server_error(e.error, cx),
            Event::Other(map) => self.on_unknown(map, cx),
        }
    }

    /// Checks the `sequence_number` of an event: `false` for a replay (to be ignored).
    fn accept_sequence(&mut self, seq: Option<i64>, cx: &mut EventCx<'_>) -> Result<bool> {
        cx.sequence_number = seq;
        let Some(seq) = seq else { return Ok(true) };
        match self.seen.accept(seq) {
            Seen::Replay => {
                cx.warn(
                    WarningCode::DuplicateEvent,
                    format!("Event {seq} was ignored: its sequence number was already seen."),
                )?;
                Ok(false)
            }
            Seen::Gap(last) => {
                cx.warn(
                    WarningCode::SequenceGap,
                    format!("Sequence numbers jumped from {last} to {seq}: events may be lost."),
                )?;
                Ok(true)
            }
            Seen::New | Seen::Late => Ok(true),
        }
    }

    /// The message slot a content event belongs to, created (with a warning) when unknown;
    /// `None` (with a warning) when the message already completed: its content is final.
    fn slot_for_content(&mut self, msg_id: &str, cx: &mut EventCx<'_>) -> Result<Option<usize>> {
        if let Some(slot) = self.lookup(msg_id) {
            if let Some(m) = self.messages.get(slot) {
                if m.message.status == RunStatus::Completed {
                    cx.warn(
                        WarningCode::EventAfterEnd,
                        format!("Content for message {msg_id} after it completed was ignored."),
                    )?;
                    return Ok(None);
                }
            }
            return Ok(Some(slot));
        }
        cx.warn(
            WarningCode::UnannouncedMessage,
            format!("Content arrived for message {msg_id}, which was never announced."),
        )?;
        let mut message = Message::with_id(msg_id);
        message.status = RunStatus::InProgress;
        Ok(Some(self.insert_message(message, cx)))
    }

    fn lookup(&mut self, id: &str) -> Option<usize> {
        if let Some(slot) = self.last_slot {
            if self
                .messages
                .get(slot)
                .is_some_and(|m| same(&m.message.id, id))
            {
                return Some(slot);
            }
        }
        let slot = self.by_id.get(id).copied();
        if slot.is_some() {
            self.last_slot = slot;
        }
        slot
    }

    fn insert_message(&mut self, message: Message, cx: &mut EventCx<'_>) -> usize {
        let slot = self.messages.len();
        self.by_id.insert(message.id.clone(), slot);
        self.messages.push(MessageSlot {
            message,
            parts: Vec::new(),
        });
        self.last_slot = Some(slot);
        cx.batch.touch_message(slot, true);
        slot
    }

    /// The part index an event addresses: its `index`, or the next free one when null (a new
    /// part, as `Message.add_delta_content` does). `None` when out of bounds (skipped).
    fn part_index(
        &mut self,
        slot: usize,
        index: Option<i64>,
        cx: &mut EventCx<'_>,
    ) -> Result<Option<usize>> {
        let len = self.messages.get(slot).map_or(0, |m| m.parts.len());
        let index = match index {
            None => len,
            Some(i) => match usize::try_from(i) {
                Ok(i) if i < MAX_PARTS_PER_MESSAGE => i,
                _ => {
                    cx.warn(
                        WarningCode::InvalidEvent,
                        format!(
                            "A content event with index {i} was skipped (allowed: 0 to {}).",
                            MAX_PARTS_PER_MESSAGE - 1
                        ),
                    )?;
                    return Ok(None);
                }
            },
        };
        Ok(Some(index))
    }

    fn on_content(&mut self, mut content: Content, cx: &mut EventCx<'_>) -> Result<()> {
        let Some(msg_id) = content.msg_id.clone() else {
            return cx.warn(
                WarningCode::InvalidEvent,
                "A content event without `msg_id` was skipped.",
            );
        };
        let Some(slot) = self.slot_for_content(&msg_id, cx)? else {
            return Ok(());
        };
        let Some(index) = self.part_index(slot, content.index, cx)? else {
            return Ok(());
        };
        let completed = content.status == Some(RunStatus::Completed);
        if content.delta == Some(true) {
            content.index = Some(to_i64(index));
            self.merge_delta(slot, index, delta::DeltaIn::Content(content), completed, cx)
        } else {
            self.put_part(slot, index, content, completed, false, cx)
        }
    }

    /// Replaces part `index` of message `slot` with `content` (a snapshot, a completed value,
    /// or the first event of a part).
    fn put_part(
        &mut self,
        slot: usize,
        index: usize,
        mut content: Content,
        completed: bool,
        from_delta: bool,
        cx: &mut EventCx<'_>,
    ) -> Result<()> {
        let track = self.track_arguments;
        let message = self.messages.get_mut(slot).ok_or_else(internal)?;
        let is_call = is_call_type(&message.message.message_type);
        if message.parts.len() <= index {
            message.parts.resize_with(index + 1, || None);
        }
        content.sequence_number = None;
        content.index = Some(to_i64(index));
        content.delta = Some(false);
        content.msg_id = Some(message.message.id.clone());
        let part_slot = message.parts.get_mut(index).ok_or_else(internal)?;
        let mut mismatch = false;
        match part_slot {
            None => {
                match &content.body {
                    ContentBody::Text { text } | ContentBody::Refusal { refusal: text } => {
                        if let Some(text) = text.as_deref().filter(|t| !t.is_empty()) {
                            cx.batch.text(slot, index, text, false);
                        }
                    }
                    _ => cx.batch.touch_content(slot, index),
                }
                if is_call {
                    if let Some(args) = raw_arguments(&content).filter(|a| !a.is_empty()) {
                        cx.batch.arguments(slot, index, &args, false);
                    }
                }
                let mut part = PartSlot {
                    content,
                    completed: false,
                    from_deltas: from_delta,
                    mirror: None,
                    arguments_checked: None,
                    call_position: None,
                };
                if track && is_call {
                    if let Some(args) = raw_arguments(&part.content) {
                        update_mirror(&mut part.mirror, &args, &args, true);
                    }
                }
                *part_slot = Some(Box::new(part));
            }
            Some(part)
                if part.completed || part.content.body.type_str() != content.body.type_str() =>
            {
                let same = part.content.body.type_str() == content.body.type_str()
                    && part.content.body.same_as(&content.body);
                if same {
                    // The completed value again (a completed message repeats its parts).
                    return Ok(());
                }
                return refuse(cx, part.completed);
            }
            Some(part) => {
                let same_type = true;
                match (&part.content.body, &content.body) {
                    (ContentBody::Text { text: old }, ContentBody::Text { text: new })
                    | (
                        ContentBody::Refusal { refusal: old },
                        ContentBody::Refusal { refusal: new },
                    ) => {
                        let old = old.as_deref().unwrap_or("");
                        let new = new.as_deref().unwrap_or("");
                        if old != new {
                            mismatch = completed && part.from_deltas && !old.is_empty();
                            match new.strip_prefix(old) {
                                Some(rest) if !mismatch => cx.batch.text(slot, index, rest, false),
                                _ => cx.batch.text(slot, index, new, true),
                            }
                        }
                    }
                    _ => {
                        if !same_type || !part.content.body.same_as(&content.body) {
                            mismatch = completed && part.from_deltas && same_type;
                            cx.batch.touch_content(slot, index);
                        }
                    }
                }
                if is_call {
                    // A part that stops being a data part stops being a call: its arguments are
                    // not reported. One that becomes a data part starts over (a replace).
                    let old = raw_arguments(&part.content);
                    if let Some(new) = raw_arguments(&content) {
                        if old.as_deref() != Some(new.as_ref()) {
                            match old.as_deref().and_then(|old| new.strip_prefix(old)) {
                                Some(rest) => {
                                    if track {
                                        update_mirror(&mut part.mirror, &new, rest, false);
                                    }
                                    cx.batch.arguments(slot, index, rest, false);
                                }
                                None => {
                                    if track {
                                        update_mirror(&mut part.mirror, &new, &new, true);
                                    }
                                    cx.batch.arguments(slot, index, &new, true);
                                }
                            }
                        }
                    }
                }
                part.content.body = content.body;
                part.content.error = content.error.or(part.content.error.take());
                if same_type {
                    for (key, value) in content.extra {
                        part.content.extra.insert(key, value);
                    }
                } else {
                    // The new type wins: fields of the old one (an unknown type keeps its
                    // fields in `extra`, e.g. a `text`) must not outlive it and shadow the new
                    // body's.
                    part.content.extra = content.extra;
                }
                part.from_deltas = from_delta;
            }
        }
        if mismatch {
            let msg_id = self
                .messages
                .get(slot)
                .map(|m| m.message.id.clone())
                .unwrap_or_default();
            cx.warn(
                WarningCode::ContentMismatch,
                format!(
                    "The completed value of part {index} of message {msg_id} disagrees with its \
                     deltas; the completed value was kept."
                ),
            )?;
        }
        if completed {
            self.complete_part(slot, index, cx)?;
        }
        Ok(())
    }

    /// Marks a part completed (once).
    fn complete_part(&mut self, slot: usize, index: usize, cx: &mut EventCx<'_>) -> Result<()> {
        if let Some(Some(part)) = self
            .messages
            .get_mut(slot)
            .and_then(|m| m.parts.get_mut(index))
        {
            if !part.completed {
                part.completed = true;
                cx.batch.touch_content(slot, index);
            }
        }
        self.check_arguments(slot, index, cx)
    }

    /// Once a call completes (its part or its message), checks its arguments once: a call whose
    /// arguments are not JSON is reported (`INVALID_ARGUMENTS`), and never offers its repaired
    /// preview as arguments.
    #[inline(never)]
    fn check_arguments(&mut self, slot: usize, index: usize, cx: &mut EventCx<'_>) -> Result<()> {
        let Some(message) = self.messages.get_mut(slot) else {
            return Ok(());
        };
        if !is_call_type(&message.message.message_type) {
            return Ok(());
        }
        let Some(Some(part)) = message.parts.get_mut(index) else {
            return Ok(());
        };
        if part.arguments_checked.is_some() {
            return Ok(());
        }
        let Some(raw) = raw_arguments(&part.content) else {
            return Ok(());
        };
        let error = arguments_error(&raw);
        let invalid = error.is_some();
        part.arguments_checked = Some(error);
        if invalid {
            // The call's `argumentsError` says why.
            cx.warn(
                WarningCode::InvalidArguments,
                "A tool call completed with unusable arguments; it must not be run.",
            )?;
        }
        Ok(())
    }

    fn on_message(&mut self, mut message: Message, cx: &mut EventCx<'_>) -> Result<()> {
        let parts = message.content.take();
        let seq = cx.sequence_number;
        let slot = match self.lookup(&message.id) {
            Some(slot) => {
                let stored = self.messages.get_mut(slot).ok_or_else(internal)?;
                let old = &mut stored.message;
                if old.status == RunStatus::Completed {
                    return cx.warn(
                        WarningCode::EventAfterEnd,
                        format!(
                            "A message event for message {} after it completed was ignored.",
                            message.id
                        ),
                    );
                }
                let stored = self.messages.get_mut(slot).ok_or_else(internal)?;
                let old = &mut stored.message;
                if old.status != message.status
                    || old.role != message.role
                    || old.message_type != message.message_type
                {
                    cx.batch.touch_message(slot, false);
                }
                let becomes_call =
                    !is_call_type(&old.message_type) && is_call_type(&message.message_type);
                old.message_type = message.message_type;
                old.status = message.status;
                old.role = message.role.or(old.role.take());
                old.error = message.error.or(old.error.take());
                old.code = message.code.or(old.code.take());
                old.message = message.message.or(old.message.take());
                old.usage = message.usage.or(old.usage.take());
                old.metadata = message.metadata.or(old.metadata.take());
                old.sequence_number = seq;
                for (key, value) in message.extra {
                    old.extra.insert(key, value);
                }
                if becomes_call {
                    // Its data parts are calls from now on: report the arguments they hold.
                    for (index, part) in stored.parts.iter().enumerate() {
                        let Some(part) = part else { continue };
                        if let Some(args) = raw_arguments(&part.content).filter(|a| !a.is_empty()) {
                            cx.batch.arguments(slot, index, &args, true);
                        }
                    }
                }
                slot
            }
            None => {
                message.sequence_number = seq;
                self.insert_message(message, cx)
            }
        };
        let completed = self
            .messages
            .get(slot)
            .is_some_and(|m| m.message.status == RunStatus::Completed);
        if let Some(parts) = parts {
            for (position, part) in parts.into_iter().enumerate() {
                let index = part
                    .index
                    .and_then(|i| usize::try_from(i).ok())
                    .filter(|&i| i < MAX_PARTS_PER_MESSAGE)
                    .unwrap_or(position);
                if index >= MAX_PARTS_PER_MESSAGE {
                    return cx.warn(
                        WarningCode::InvalidEvent,
                        "A message's content parts past the first 4,096 were dropped.",
                    );
                }
                self.put_part(slot, index, part, completed, false, cx)?;
            }
        }
        if completed {
            let parts = self.messages.get(slot).map_or(0, |m| m.parts.len());
            for index in 0..parts {
                self.check_arguments(slot, index, cx)?;
            }
        }
        Ok(())
    }

    /// A response event (before the run ended: `apply_event` ignores everything after).
    fn on_response(&mut self, mut response: AgentResponse, cx: &mut EventCx<'_>) -> Result<()> {
        if let (Some(known), Some(new)) = (self.response.id.as_deref(), response.id.as_deref()) {
            if known != new {
                return cx.warn(
                    WarningCode::InvalidEvent,
                    "A response event with another response id was ignored.",
                );
            }
        }
        let output = response.output.take();
        let outcome = terminal_outcome(&response.status);
        let r = &mut self.response;
        r.sequence_number = cx.sequence_number;
        r.status = response.status;
        r.error = response.error.or(r.error.take());
        if response.id.is_some() {
            r.id = response.id;
        }
        r.created_at = response.created_at;
        r.completed_at = response.completed_at.or(r.completed_at.take());
        r.usage = response.usage.or(r.usage.take());
        r.session_id = response.session_id.or(r.session_id.take());
        for (key, value) in response.extra {
            r.extra.insert(key, value);
        }
        self.response_seen = true;
        cx.batch.response = true;
        if let Some(output) = output.filter(|_| outcome.is_some()) {
            let mut order = Vec::with_capacity(output.len());
            for mut message in output {
                // Nested fields are stale: the message is completed because it is in `output`.
                message.sequence_number = None;
                let mut slot = self.lookup(&message.id);
                let known_completed = slot
                    .and_then(|slot| self.messages.get(slot))
                    .is_some_and(|m| m.message.status == RunStatus::Completed);
                if !known_completed {
                    message.status = RunStatus::Completed;
                    let id = message.id.clone();
                    let saved = cx.sequence_number.take();
                    self.on_message(message, cx)?;
                    cx.sequence_number = saved;
                    slot = self.lookup(&id);
                }
                order.extend(slot);
            }
            let canceled = outcome == Some(Outcome::Canceled);
            self.adopt_output(order, canceled, cx)?;
        } else if outcome == Some(Outcome::Canceled) {
            // No final list: every message stays where it is; the unfinished ones are marked.
            for slot in 0..self.messages.len() {
                self.mark_incomplete(slot, cx);
            }
        }
        if let Some(outcome) = outcome {
            self.outcome = outcome;
        }
        Ok(())
    }

    /// Adopts the final `output` as authoritative: its messages, in its order (the reference
    /// appends a message to `output` when it completes, which can differ from the order in
    /// which they started). Messages left out of it (never completed) are reported, except in
    /// a canceled run (`canceled`): a stop is an outcome, not a fault, so what was said before
    /// it stays in `output`, after the listed messages, in arrival order, marked `incomplete`.
    fn adopt_output(
        &mut self,
        order: Vec<usize>,
        canceled: bool,
        cx: &mut EventCx<'_>,
    ) -> Result<()> {
        // A marker per slot, not a search of `order`: a long output stays linear.
        let mut listed = vec![false; self.messages.len()];
        let mut order_kept = Vec::with_capacity(order.len());
        for slot in order {
            if let Some(seen @ false) = listed.get_mut(slot) {
                *seen = true;
                order_kept.push(slot);
            }
        }
        let mut order = order_kept;
        let left_out: Vec<usize> = (0..self.messages.len())
            .filter(|&slot| !listed.get(slot).copied().unwrap_or(false))
            .collect();
        if canceled {
            for &slot in &left_out {
                self.mark_incomplete(slot, cx);
            }
            order.extend(left_out);
            self.output_order = Some(order);
            return Ok(());
        }
        self.output_order = Some(order);
        if left_out.is_empty() {
            return Ok(());
        }
        let ids: Vec<&str> = left_out
            .iter()
            .filter_map(|&slot| self.messages.get(slot).map(|m| m.message.id.as_str()))
            .collect();
        let message = format!(
            "The final response leaves out messages that never completed ({}); they are \
             kept in `incompleteMessages`.",
            ids.join(", ")
        );
        cx.warn(WarningCode::UnfinishedMessage, message)
    }

    /// A message the run was stopped in: it and its parts not completed become `incomplete`
    /// (reported as a status change).
    fn mark_incomplete(&mut self, slot: usize, cx: &mut EventCx<'_>) {
        let Some(m) = self.messages.get_mut(slot) else {
            return;
        };
        if m.message.status != RunStatus::Completed {
            m.message.status = RunStatus::Incomplete;
            cx.batch.touch_message(slot, false);
        }
        for (index, part) in m.parts.iter_mut().enumerate() {
            if let Some(part) = part.as_deref_mut() {
                if !part.completed && part.content.status != Some(RunStatus::Completed) {
                    part.content.status = Some(RunStatus::Incomplete);
                    cx.batch.touch_content(slot, index);
                }
            }
        }
    }

    /// A bare `{"error": …}` (before the run ended).
    fn on_server_error(&mut self, error: String, cx: &mut EventCx<'_>) -> Result<()> {
        self.response.status = RunStatus::Failed;
        self.response.error = Some(ErrorInfo::new("SERVER_ERROR", error));
        self.outcome = Outcome::Failed;
        cx.batch.response = true;
        Ok(())
    }

    fn on_unknown(&mut self, map: JsonMap, cx: &mut EventCx<'_>) -> Result<()> {
        let object = map
            .get("object")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned();
        cx.warn(
            WarningCode::UnknownEvent,
            format!("An event with unknown object \"{object}\" was kept but not interpreted."),
        )?;
        if self.unknown_events.len() < MAX_UNKNOWN_EVENTS {
            self.unknown_events.push(map);
        }
        Ok(())
    }
}

/// Feeds a change of a call's arguments (`delta`, or with `replace` the whole new value) to its
/// mirror. A part without a mirror yet (it became a call after tracking started) gets one built
/// from `whole`, the arguments after the change, so its parse never misses a prefix.
fn update_mirror(mirror: &mut Option<Box<CallMirror>>, whole: &str, delta: &str, replace: bool) {
    match mirror {
        Some(mirror) => mirror.feed(delta, replace),
        None => *mirror = Some(Box::new(CallMirror::new(whole))),
    }
}

/// A part index as the `index` field holds it.
fn to_i64(index: usize) -> i64 {
    i64::try_from(index).unwrap_or(i64::MAX)
}

fn internal() -> Error {
    Error::new(
        ErrorCode::ProtocolViolation,
        "internal assembler state is inconsistent",
    )
}
