//! Tool calls of the Agent API fold: the listing ([`AgentApiFold::tool_calls`]) and what
//! changed since a consumer last looked ([`AgentApiFold::tool_call_changes`]).
//!
//! Once a consumer looked, every batch notes the message parts it touched; the next look
//! examines only those (and the calls whose output they hold), so a look costs O(what changed),
//! and a look after nothing changed costs nothing. The list is rebuilt (a `reset`, O(messages))
//! only when a call appears other than at the end or stops being a call, which streams do not
//! do in practice.

use std::collections::HashMap;

use serde_json::Value;

use super::view::{str_field, str_field_ref};
use super::{
    arguments_error, is_call_type, is_output_type, raw_arguments, AgentApiFold, ToolCall,
    ToolCallChange, ToolCallChanges,
};
use crate::assembler::calls::{CallMirror, CallNow};
use crate::assembler::update::Batch;
use crate::assembler::PartialJson;
use crate::protocol::{ContentBody, JsonMap, RunStatus};

/// A part: (message slot, part index).
type Key = (usize, usize);

/// The list of calls a consumer sees, and what changed since it last looked. A listed part
/// holds its position ([`super::PartSlot::call_position`]).
#[derive(Debug, Default)]
pub(crate) struct CallTracker {
    /// Whether a consumer looked (then batches note what they touch).
    started: bool,
    /// Touched too much since the last look: the next look rebuilds instead.
    rescan: bool,
    /// The listed calls, in order (message, then part).
    list: Vec<Key>,
    /// Parts (or whole messages, `None`) touched since the last look.
    touched: Vec<(usize, Option<usize>)>,
    /// Call ids, each with its entry in `ids` (one map type with the fold's message index).
    id_index: HashMap<String, usize>,
    ids: Vec<CallId>,
    /// The number of the current look: a call is reported once per look.
    look: u64,
}

/// What is known of one call id: the first output part answering it, and the listed calls
/// that carry it.
#[derive(Debug, Default)]
struct CallId {
    output: Option<Key>,
    calls: Vec<Key>,
}

impl CallTracker {
    /// The entry of call id `id`, created when new.
    fn id(&mut self, id: &str) -> Option<&mut CallId> {
        let at = match self.id_index.get(id) {
            Some(&at) => at,
            None => {
                self.id_index.insert(id.to_owned(), self.ids.len());
                self.ids.push(CallId::default());
                self.ids.len() - 1
            }
        };
        self.ids.get_mut(at)
    }

    /// The entry of call id `id`, if known.
    fn known_id(&self, id: &str) -> Option<&CallId> {
        self.ids.get(*self.id_index.get(id)?)
    }
}

impl CallTracker {
    /// Notes what a batch touched, once a consumer looked. Past a bound proportional to the
    /// messages, the notes give way to one rebuild at the next look (memory stays bounded when
    /// nobody looks for a long time).
    pub(crate) fn note(&mut self, batch: &Batch, messages: usize) {
        if !self.started || self.rescan {
            return;
        }
        self.touched
            .extend(batch.messages.iter().map(|&(slot, _)| (slot, None)));
        self.touched.extend(
            batch
                .contents
                .iter()
                .map(|&(slot, part)| (slot, Some(part))),
        );
        self.touched
            .extend(batch.arguments.iter().map(|a| (a.message, Some(a.part))));
        if self.touched.len() > 4 * (messages + self.list.len()) + 1024 {
            self.rescan = true;
            self.touched = Vec::new();
        }
    }
}

/// The call id in a part's data.
fn call_id_of(data: Option<&JsonMap>) -> Option<&str> {
    data.and_then(|d| d.get("call_id")).and_then(Value::as_str)
}

impl AgentApiFold {
    /// Every tool call so far, with its raw arguments and the matching output (O(messages)).
    pub(crate) fn tool_calls(&self) -> Vec<ToolCall> {
        let mut outputs = CallTracker::default();
        self.index_outputs(&mut outputs);
        let mut calls = Vec::new();
        for m in &self.messages {
            if !is_call_type(&m.message.message_type) {
                continue;
            }
            for (index, part) in m.parts.iter().enumerate() {
                let Some(part) = part else { continue };
                let ContentBody::Data { data } = &part.content.body else {
                    continue;
                };
                let call_id = str_field(data.as_ref(), "call_id");
                let completed = part.completed || m.message.status == RunStatus::Completed;
                let arguments = raw_arguments(&part.content).unwrap_or_default();
                calls.push(ToolCall {
                    message_id: m.message.id.clone(),
                    index,
                    message_type: m.message.message_type.as_str().to_owned(),
                    output: call_id
                        .as_deref()
                        .and_then(|id| outputs.known_id(id)?.output)
                        .and_then(|key| self.output_value(key)),
                    call_id,
                    name: str_field(data.as_ref(), "name"),
                    arguments_error: completed
                        .then(|| match &part.arguments_checked {
                            Some(checked) => checked.clone(),
                            None => arguments_error(&arguments),
                        })
                        .flatten(),
                    arguments: arguments.into_owned(),
                    completed,
                });
            }
        }
        calls
    }

    /// Records in `tracker` the first output part answering each call id (O(messages)).
    fn index_outputs(&self, tracker: &mut CallTracker) {
        for (slot, m) in self.messages.iter().enumerate() {
            if !is_output_type(&m.message.message_type) {
                continue;
            }
            for (index, part) in m.parts.iter().enumerate() {
                if let Some(ContentBody::Data { data }) = part.as_ref().map(|p| &p.content.body) {
                    if let Some(entry) = call_id_of(data.as_ref()).and_then(|id| tracker.id(id)) {
                        entry.output.get_or_insert((slot, index));
                    }
                }
            }
        }
    }

    /// The `output` of the output part at `key`.
    fn output_value(&self, (slot, index): Key) -> Option<Value> {
        let part = self.messages.get(slot)?.parts.get(index)?.as_ref()?;
        match &part.content.body {
            ContentBody::Data { data: Some(d) } => d.get("output").cloned(),
            _ => None,
        }
    }

    /// Whether the output part at `key` still answers `call_id`, and whether it is completed.
    fn output_state(&self, (slot, index): Key, call_id: &str) -> Option<bool> {
        let m = self.messages.get(slot)?;
        if !is_output_type(&m.message.message_type) {
            return None;
        }
        let part = m.parts.get(index)?.as_ref()?;
        match &part.content.body {
            ContentBody::Data { data } if call_id_of(data.as_ref()) == Some(call_id) => {
                Some(part.completed || m.message.status == RunStatus::Completed)
            }
            _ => None,
        }
    }

    /// Whether part `key` is a tool call now (a data part of a call message), and its position
    /// in the list when it is listed.
    fn call_state(&self, (slot, index): Key) -> (bool, Option<usize>) {
        let Some(m) = self.messages.get(slot) else {
            return (false, None);
        };
        match m.parts.get(index) {
            Some(Some(p)) => (
                is_call_type(&m.message.message_type)
                    && matches!(p.content.body, ContentBody::Data { .. }),
                p.call_position,
            ),
            _ => (false, None),
        }
    }

    fn set_position(&mut self, (slot, index): Key, position: Option<usize>) {
        if let Some(Some(part)) = self
            .messages
            .get_mut(slot)
            .and_then(|m| m.parts.get_mut(index))
        {
            part.call_position = position;
        }
    }

    /// What changed in the tool calls since the last look. The first look starts tracking:
    /// from then on, arguments are parsed incrementally as they arrive and each look costs
    /// O(what changed since).
    pub(crate) fn tool_call_changes(&mut self) -> ToolCallChanges {
        self.track_arguments = true;
        let mut tracker = std::mem::take(&mut self.calls);
        tracker.look += 1;
        let changes = if tracker.started && !tracker.rescan {
            self.incremental_changes(&mut tracker)
        } else {
            None
        };
        let changes = changes.unwrap_or_else(|| self.rebuild(&mut tracker));
        self.calls = tracker;
        changes
    }

    /// The changes from the parts touched since the last look; `None` when the list must be
    /// rebuilt.
    fn incremental_changes(&mut self, tracker: &mut CallTracker) -> Option<ToolCallChanges> {
        let touched = std::mem::take(&mut tracker.touched);
        let mut changed: Vec<Key> = Vec::new();
        for (slot, part) in touched {
            let Some(m) = self.messages.get(slot) else {
                continue;
            };
            let parts = match part {
                Some(index) => index..index + 1,
                None => 0..m.parts.len(),
            };
            let output_message = is_output_type(&m.message.message_type);
            for index in parts {
                let key = (slot, index);
                if output_message {
                    // An output appeared or changed: the calls it answers changed.
                    let data = match self.messages.get(slot).and_then(|m| m.parts.get(index)) {
                        Some(Some(p)) => match &p.content.body {
                            ContentBody::Data { data } => data.as_ref(),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(entry) = call_id_of(data).and_then(|id| tracker.id(id)) {
                        if entry.output.is_none_or(|first| key < first) {
                            entry.output = Some(key);
                        }
                        changed.extend(entry.calls.iter().copied());
                    }
                }
                match self.call_state(key) {
                    (true, Some(_)) => changed.push(key),
                    (true, None) if tracker.list.last().is_none_or(|&last| last < key) => {
                        self.set_position(key, Some(tracker.list.len()));
                        tracker.list.push(key);
                        changed.push(key);
                    }
                    (false, None) => {}
                    // A call appeared in the middle of the list, or one stopped being a call.
                    _ => return None,
                }
            }
        }
        let mut changes = Vec::with_capacity(changed.len());
        for key in changed {
            if let (_, Some(position)) = self.call_state(key) {
                if let Some(change) = self.change(tracker, key, position, false) {
                    changes.push(change);
                }
            }
        }
        Some(ToolCallChanges {
            len: tracker.list.len(),
            reset: false,
            changes,
        })
    }

    /// Lists every call again (O(messages)): the first look, or after a change of the list's
    /// shape. Parts that are not calls (any more) drop their mirrors, so a later return starts
    /// from scratch.
    fn rebuild(&mut self, tracker: &mut CallTracker) -> ToolCallChanges {
        tracker.started = true;
        tracker.rescan = false;
        tracker.touched.clear();
        tracker.list.clear();
        tracker.id_index.clear();
        tracker.ids.clear();
        self.index_outputs(tracker);
        for (slot, m) in self.messages.iter_mut().enumerate() {
            let call_message = is_call_type(&m.message.message_type);
            for (index, part) in m.parts.iter_mut().enumerate() {
                let Some(part) = part else { continue };
                if call_message && matches!(part.content.body, ContentBody::Data { .. }) {
                    part.call_position = Some(tracker.list.len());
                    tracker.list.push((slot, index));
                    if let Some(mirror) = part.mirror.as_mut() {
                        // Re-registered under its call id by `change`.
                        mirror.indexed_call_id = None;
                    }
                } else {
                    part.call_position = None;
                    part.mirror = None;
                }
            }
        }
        let list = tracker.list.clone();
        let changes = list
            .into_iter()
            .enumerate()
            .filter_map(|(position, key)| self.change(tracker, key, position, true))
            .collect();
        ToolCallChanges {
            len: tracker.list.len(),
            reset: true,
            changes,
        }
    }

    /// The change of the call at `key` since its mirror last reported (everything, for a new
    /// mirror), updating the mirror; `None` when it was reported in this look already, or
    /// nothing changed (unless `listing_all`: a reset lists every call).
    fn change(
        &mut self,
        tracker: &mut CallTracker,
        key: Key,
        position: usize,
        listing_all: bool,
    ) -> Option<ToolCallChange> {
        let (slot, index) = key;
        // The output first (a shared borrow), then the mirror (a mutable one).
        let call_id = {
            let part = self.messages.get(slot)?.parts.get(index)?.as_ref()?;
            match &part.content.body {
                ContentBody::Data { data } => call_id_of(data.as_ref()).map(str::to_owned),
                _ => None,
            }
        };
        let output = call_id.as_deref().and_then(|id| {
            let at = tracker.known_id(id)?.output?;
            match self.output_state(at, id) {
                Some(done) => Some(((at.0, done), at)),
                None => {
                    // The part no longer answers this call: look again, once.
                    let mut fresh = CallTracker::default();
                    self.index_outputs(&mut fresh);
                    let found = fresh.known_id(id)?.output;
                    if let Some(entry) = tracker.id(id) {
                        entry.output = found;
                    }
                    let found = found?;
                    self.output_state(found, id)
                        .map(|done| ((found.0, done), found))
                }
            }
        });
        let output_value = output.and_then(|(_, at)| self.output_value(at));
        let look = tracker.look;
        let m = self.messages.get_mut(slot)?;
        let message_done = m.message.status == RunStatus::Completed;
        let part = m.parts.get_mut(index)?.as_mut()?;
        let ContentBody::Data { data } = &part.content.body else {
            return None;
        };
        let raw = raw_arguments(&part.content).unwrap_or_default();
        let raw = raw.as_ref();
        let completed = part.completed || message_done;
        let arguments_error = if completed {
            match &part.arguments_checked {
                Some(checked) => checked.clone(),
                None => arguments_error(raw),
            }
        } else {
            None
        };
        let mirror = part
            .mirror
            .get_or_insert_with(|| Box::new(CallMirror::new(raw)));
        if mirror.look == look {
            return None;
        }
        mirror.look = look;
        let output = match output {
            Some((seen, _)) if mirror.see_output(seen) => output_value,
            _ => None,
        };
        if mirror.indexed_call_id != call_id {
            if let Some(old) = mirror.indexed_call_id.take() {
                if let Some(entry) = tracker.id(&old) {
                    entry.calls.retain(|k| *k != key);
                }
            }
            if let Some(entry) = call_id.as_deref().and_then(|id| tracker.id(id)) {
                entry.calls.push(key);
            }
            mirror.indexed_call_id.clone_from(&call_id);
        }
        let now = CallNow {
            position,
            message_id: &m.message.id,
            index,
            message_type: m.message.message_type.as_str(),
            call_id: call_id.as_deref(),
            name: str_field_ref(data.as_ref(), "name"),
            completed,
            arguments_error,
            raw,
        };
        mirror.report(now, output, listing_all)
    }

    /// The best-effort parsed arguments of one tool call (O(size); native convenience).
    pub(crate) fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        let slot = *self.by_id.get(message_id)?;
        let part = self.messages.get(slot)?.parts.get(index)?.as_ref()?;
        if let Some(mirror) = &part.mirror {
            return mirror.parsed();
        }
        let mut parser = PartialJson::new();
        parser.push(&raw_arguments(&part.content)?);
        parser.value()
    }
}
