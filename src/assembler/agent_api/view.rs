//! Reading the Agent API fold: the snapshot, the updates of a batch, and tool calls.

use serde_json::Value;

use super::{
    arguments_text, is_call_type, is_output_type, raw_arguments, AgentApiFold, ArgumentsMirror,
    ToolCall, ToolCallChange,
};
use crate::assembler::outcome::Outcome;
use crate::assembler::update::{Batch, Update, UpdateSink};
use crate::protocol::{ContentBody, RunStatus};

impl AgentApiFold {
    /// Ids of messages that never completed.
    pub(crate) fn open_messages(&self) -> Vec<String> {
        self.messages
            .iter()
            .filter(|m| m.message.status != RunStatus::Completed)
            .map(|m| m.message.id.clone())
            .collect()
    }

    /// Turns a batch of recorded changes into updates, reading current values, and hands them
    /// to `out`. Takes the batch's warnings; the caller clears the rest.
    pub(crate) fn render(&self, batch: &mut Batch, outcome: Outcome, out: &mut dyn UpdateSink) {
        if batch.response {
            let r = &self.response;
            out.other(Update::Response {
                status: r.status.as_str().to_owned(),
                id: r.id.clone(),
                outcome,
                error: r.error.as_ref().and_then(|e| serde_json::to_value(e).ok()),
                usage: r.usage.clone().map(Value::Object),
            });
        }
        for &(slot, created) in &batch.messages {
            if let Some(m) = self.messages.get(slot) {
                out.other(Update::Message {
                    id: m.message.id.clone(),
                    role: m.message.role.map(|r| r.as_str().to_owned()),
                    message_type: m.message.message_type.as_str().to_owned(),
                    status: m.message.status.as_str().to_owned(),
                    created,
                });
            }
        }
        for append in &batch.texts {
            if let Some(m) = self.messages.get(append.message) {
                out.text(&m.message.id, append.part, &append.delta, append.replace);
            }
        }
        for &(message, index) in &batch.contents {
            let Some(m) = self.messages.get(message) else {
                continue;
            };
            if let Some(Some(p)) = m.parts.get(index) {
                // Written from the slot: no copy of the part before its value is built.
                if let Ok(part) = serde_json::to_value(super::snapshot::PartView(p, None)) {
                    out.other(Update::Content {
                        message_id: m.message.id.clone(),
                        index,
                        part,
                    });
                }
            }
        }
        for append in &batch.arguments {
            let Some(m) = self.messages.get(append.message) else {
                continue;
            };
            let data = m
                .parts
                .get(append.part)
                .and_then(Option::as_ref)
                .and_then(|p| match &p.content.body {
                    ContentBody::Data { data } => data.as_ref(),
                    _ => None,
                });
            let field = |key: &str| str_field_ref(data, key);
            out.arguments(
                &m.message.id,
                append.part,
                field("call_id"),
                field("name"),
                &append.delta,
                append.replace,
            );
        }
        for warning in batch.warnings.drain(..) {
            out.other(Update::Warning(warning));
        }
    }

    /// Every tool call so far, with its raw arguments and the matching output.
    pub(crate) fn tool_calls(&self) -> Vec<ToolCall> {
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
                let field = |key: &str| str_field(data.as_ref(), key);
                let call_id = field("call_id");
                let arguments = arguments_text(data.as_ref()).into_owned();
                calls.push(ToolCall {
                    message_id: m.message.id.clone(),
                    index,
                    message_type: m.message.message_type.as_str().to_owned(),
                    output: call_id.as_deref().and_then(|id| self.output_for(id)),
                    call_id,
                    name: field("name"),
                    arguments,
                    completed: part.completed || m.message.status == RunStatus::Completed,
                });
            }
        }
        calls
    }

    /// The `output` of the `*_output` message answering `call_id`.
    fn output_for(&self, call_id: &str) -> Option<Value> {
        self.output_slot(call_id).and_then(|(slot, index, _)| {
            let part = self.messages.get(slot)?.parts.get(index)?.as_ref()?;
            match &part.content.body {
                ContentBody::Data { data: Some(d) } => d.get("output").cloned(),
                _ => None,
            }
        })
    }

    /// Where the output answering `call_id` is: (message slot, part index, completed).
    fn output_slot(&self, call_id: &str) -> Option<(usize, usize, bool)> {
        self.messages
            .iter()
            .enumerate()
            .filter(|(_, m)| is_output_type(&m.message.message_type))
            .find_map(|(slot, m)| {
                m.parts.iter().enumerate().find_map(|(index, p)| match p {
                    Some(p) => match &p.content.body {
                        ContentBody::Data { data: Some(d) }
                            if d.get("call_id").and_then(Value::as_str) == Some(call_id) =>
                        {
                            let done = p.completed || m.message.status == RunStatus::Completed;
                            Some((slot, index, done))
                        }
                        _ => None,
                    },
                    None => None,
                })
            })
    }

    /// Every tool call, with what changed since the last call. The first call starts
    /// tracking: from then on, arguments are parsed incrementally as they arrive.
    ///
    /// The calls are the parts [`AgentApiFold::tool_calls`] lists (data parts of call
    /// messages), in the same order. A part that became a call after tracking started (its
    /// message turned into a call type, or the part into a data part) gets its mirror here, from
    /// its current arguments, so what a consumer sees does not depend on when it asked.
    pub(crate) fn tool_call_changes(&mut self) -> Vec<ToolCallChange> {
        self.track_arguments = true;
        // Outputs first (a shared borrow), then the mirrors (a mutable one).
        let mut outputs = Vec::new();
        for m in &self.messages {
            if !is_call_type(&m.message.message_type) {
                continue;
            }
            for part in m.parts.iter().flatten() {
                let ContentBody::Data { data } = &part.content.body else {
                    continue;
                };
                let call_id = data
                    .as_ref()
                    .and_then(|d| d.get("call_id"))
                    .and_then(Value::as_str);
                outputs.push(call_id.and_then(|id| self.output_slot(id)).map(
                    |(slot, index, done)| {
                        (
                            (slot, done),
                            index,
                            call_id.and_then(|id| self.output_for(id)),
                        )
                    },
                ));
            }
        }
        let mut outputs = outputs.into_iter();
        let mut changes = Vec::new();
        for m in &mut self.messages {
            if !is_call_type(&m.message.message_type) {
                // Not (or no longer) a call: the consumer drops what it mirrored, so a later
                // return starts from scratch.
                for part in m.parts.iter_mut().flatten() {
                    part.mirror = None;
                }
                continue;
            }
            let message_done = m.message.status == RunStatus::Completed;
            for (index, part) in m.parts.iter_mut().enumerate() {
                let Some(part) = part else { continue };
                let ContentBody::Data { data } = &part.content.body else {
                    part.mirror = None;
                    continue;
                };
                let output = outputs.next().flatten();
                let (call_id, name) = (
                    str_field(data.as_ref(), "call_id"),
                    str_field(data.as_ref(), "name"),
                );
                // The raw text as `ToolCall::arguments` documents it (and as the `arguments`
                // updates carry it): a non-string value is its JSON text.
                let raw = raw_arguments(&part.content).unwrap_or_default();
                let raw = raw.as_ref();
                let mirror = part.mirror.get_or_insert_with(|| {
                    let mut mirror = Box::<ArgumentsMirror>::default();
                    mirror.parser.push(raw);
                    mirror.raw_replaced = true;
                    mirror
                });
                let ops = mirror.parser.take_ops();
                let raw_delta = raw.get(mirror.raw_seen..).unwrap_or("").to_owned();
                let raw_replace = std::mem::take(&mut mirror.raw_replaced);
                mirror.raw_seen = raw.len();
                let output = match output {
                    Some((seen, _, value)) if mirror.output_seen != Some(seen) => {
                        mirror.output_seen = Some(seen);
                        value
                    }
                    _ => None,
                };
                changes.push(ToolCallChange {
                    message_id: m.message.id.clone(),
                    index,
                    message_type: m.message.message_type.as_str().to_owned(),
                    call_id,
                    name,
                    completed: part.completed || message_done,
                    raw_delta,
                    raw_replace,
                    ops,
                    output,
                });
            }
        }
        changes
    }

    /// The best-effort parsed arguments of every tool call (O(size); native convenience).
    pub(crate) fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        let slot = self.messages.iter().find(|m| m.message.id == message_id)?;
        let part = slot.parts.get(index)?.as_ref()?;
        if let Some(mirror) = &part.mirror {
            return mirror.parser.value();
        }
        let mut parser = crate::assembler::PartialJson::new();
        parser.push(&raw_arguments(&part.content)?);
        parser.value()
    }
}

/// A string field of a data part.
fn str_field_ref<'a>(data: Option<&'a crate::protocol::JsonMap>, key: &str) -> Option<&'a str> {
    data.and_then(|d| d.get(key)).and_then(Value::as_str)
}

/// A string field of a data part, owned.
fn str_field(data: Option<&crate::protocol::JsonMap>, key: &str) -> Option<String> {
    str_field_ref(data, key).map(str::to_owned)
}
