//! Reading the Agent API fold: the snapshot, the updates of a batch, and tool calls.

use serde_json::Value;

use super::AgentApiFold;
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
    pub(crate) fn render(&mut self, batch: &mut Batch, outcome: Outcome, out: &mut dyn UpdateSink) {
        self.calls.note(batch, self.messages.len());
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
        for &(message, index) in &batch.contents {
            let Some(m) = self.messages.get(message) else {
                continue;
            };
            if let Some(Some(p)) = m.parts.get(index) {
                // Written from the slot: no copy of the part (and in the full build no `Value`
                // of it for the wasm outbox, which writes it as JSON text).
                let view = super::snapshot::PartView(p, None);
                #[cfg(feature = "client")]
                out.content(&m.message.id, index, &view);
                #[cfg(not(feature = "client"))]
                if let Ok(part) = serde_json::to_value(view) {
                    out.other(Update::Content {
                        message_id: m.message.id.clone(),
                        index,
                        part,
                    });
                }
            }
        }
        for warning in batch.warnings.drain(..) {
            out.other(Update::Warning(warning));
        }
    }
}

/// A string field of a data part.
pub(crate) fn str_field_ref<'a>(
    data: Option<&'a crate::protocol::JsonMap>,
    key: &str,
) -> Option<&'a str> {
    data.and_then(|d| d.get(key)).and_then(Value::as_str)
}

/// A string field of a data part, owned.
pub(super) fn str_field(data: Option<&crate::protocol::JsonMap>, key: &str) -> Option<String> {
    str_field_ref(data, key).map(str::to_owned)
}
