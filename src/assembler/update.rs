//! [`Update`]: what changed, coalesced per `push()`, for a UI that re-renders once per chunk.

use serde::Serialize;
use serde_json::Value;

use super::outcome::Outcome;
use super::warning::Warning;

/// One change caused by a chunk of input. A `push()` returns them grouped in this order:
/// response changes, message changes, text appends, other content changes, tool-call argument
/// appends, warnings. Within a group, the order is first-touched first.
///
/// Applying the updates of a batch in order to a UI model gives the state of
/// [`StreamAssembler::snapshot`](super::StreamAssembler::snapshot) at the end of that chunk.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Update {
    /// The run's status (or its error, or usage) changed. One per batch, with the latest values.
    #[serde(rename_all = "camelCase")]
    Response {
        /// The run status (`created`, `in_progress`, `completed`, `failed`, …).
        status: String,
        /// The response id, when known.
        id: Option<String>,
        /// The outcome after this batch.
        outcome: Outcome,
        /// The run's error (`{code, message}`), when it failed.
        error: Option<Value>,
        /// Token usage, when reported.
        usage: Option<Value>,
    },
    /// A message appeared, or its status changed. One per message per batch.
    #[serde(rename_all = "camelCase")]
    Message {
        /// The message id.
        id: String,
        /// `assistant`, `user`, `system`, `tool`, or `null` when not announced yet.
        role: Option<String>,
        /// The message type (`message`, `reasoning`, `function_call`, `plugin_call`, …).
        message_type: String,
        /// The message status after this batch.
        status: String,
        /// Whether the message first appeared in this batch.
        created: bool,
    },
    /// Text was appended to a text (or refusal) part. The deltas of one chunk for one part are
    /// joined into one string.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The message id.
        message_id: String,
        /// The part's index in the message.
        index: usize,
        /// The appended text; with `replace`, the part's whole text.
        delta: String,
        /// When `true`, discard the part's previous text before appending `delta` (a completed
        /// or snapshot value replaced the assembled one).
        replace: bool,
    },
    /// A non-text part was created or changed, or any part's status changed (e.g. completed).
    /// Carries the whole part in the protocol's wire shape, as it is at the end of the batch;
    /// for a text or refusal part, its text replaces what the batch's text updates built (the
    /// part may have been replaced, e.g. by a change of type). A delta that only appends to a tool
    /// call's `arguments` string is reported by an [`Update::Arguments`] alone (a content update
    /// per delta would carry the whole arguments each time, quadratic in their length).
    #[serde(rename_all = "camelCase")]
    Content {
        /// The message id.
        message_id: String,
        /// The part's index in the message.
        index: usize,
        /// The part (`{type, status, text | data | image_url | …}`).
        part: Value,
    },
    /// The raw arguments string of a tool call grew (or was replaced). The part's
    /// `data.arguments` in the snapshot is this string; apply the update there too.
    #[serde(rename_all = "camelCase")]
    Arguments {
        /// The id of the tool-call message.
        message_id: String,
        /// The index of the part holding `{call_id, name, arguments}`.
        index: usize,
        /// The call id, when known.
        call_id: Option<String>,
        /// The tool name, when known.
        name: Option<String>,
        /// The appended characters; with `replace`, the whole arguments string.
        delta: String,
        /// When `true`, discard the previous arguments before appending `delta`.
        replace: bool,
    },
    /// A tolerated violation.
    Warning(Warning),
    /// AG-UI: a message's value changed other than by appends — it was minted whole (a tool
    /// result, an activity, a snapshot message), replaced by a snapshot, had metadata merged,
    /// an activity patched, a tool call added or an encrypted value attached. Carries the whole
    /// message in AG-UI's wire shape; text and argument appends of the same batch for this
    /// message are already in it and are not reported separately.
    Replace {
        /// The message id.
        id: String,
        /// The whole message (`{id, role, content?, toolCalls?, …}`).
        message: Value,
    },
    /// AG-UI: the message list was reordered or had messages removed (a `MESSAGES_SNAPSHOT`
    /// reconciliation, a tool result inserted after its call): every id, in the new order.
    Order {
        /// The message ids in order.
        ids: Vec<String>,
    },
    /// AG-UI: the shared state changed (`STATE_SNAPSHOT`, `STATE_DELTA`); one per batch, with
    /// the whole current state.
    State {
        /// The state after this batch.
        state: Value,
    },
    /// AG-UI, with the `events` option: one event as delivered to the reducer (after chunk
    /// expansion and verification), in order — what `@ag-ui/client` hands to `onEvent`.
    Event {
        /// The event, in wire shape.
        event: Value,
    },
}

/// A pending text or arguments append, keyed by (message slot, part index).
#[derive(Debug)]
pub(crate) struct Append {
    pub(crate) message: usize,
    pub(crate) part: usize,
    pub(crate) delta: String,
    pub(crate) replace: bool,
}

/// Where rendered updates go: a `Vec<Update>` for the Rust API, or a buffer laid out for
/// another host (the wasm outbox), which then need not allocate an `Update` per append.
pub(crate) trait UpdateSink {
    /// A part's text grew by `delta` (or was replaced by it, with `replace`).
    fn text(&mut self, message_id: &str, index: usize, delta: &str, replace: bool);
    /// A tool call's raw arguments grew by `delta` (or were replaced by it, with `replace`).
    #[allow(clippy::too_many_arguments)]
    fn arguments(
        &mut self,
        message_id: &str,
        index: usize,
        call_id: Option<&str>,
        name: Option<&str>,
        delta: &str,
        replace: bool,
    );
    /// Any other update.
    fn other(&mut self, update: Update);
}

impl UpdateSink for Vec<Update> {
    fn text(&mut self, message_id: &str, index: usize, delta: &str, replace: bool) {
        self.push(Update::Text {
            message_id: message_id.to_owned(),
            index,
            delta: delta.to_owned(),
            replace,
        });
    }

    fn arguments(
        &mut self,
        message_id: &str,
        index: usize,
        call_id: Option<&str>,
        name: Option<&str>,
        delta: &str,
        replace: bool,
    ) {
        self.push(Update::Arguments {
            message_id: message_id.to_owned(),
            index,
            call_id: call_id.map(str::to_owned),
            name: name.map(str::to_owned),
            delta: delta.to_owned(),
            replace,
        });
    }

    fn other(&mut self, update: Update) {
        self.push(update);
    }
}

/// How many emptied append buffers a batch keeps for the next one, and the largest it keeps:
/// a stream's chunks mostly touch the same few parts, so the next batch's appends reuse them
/// instead of allocating; at most `SPARE_BUFFERS × SPARE_BYTES` (512 KiB) stays held.
const SPARE_BUFFERS: usize = 8;
const SPARE_BYTES: usize = 64 * 1024;

/// The changes of one `push()`, recorded by slot so that the hot path (a text delta) is a
/// comparison and a `push_str`. Cleared (not dropped) after each push, so its buffers serve the
/// next one.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    pub(crate) response: bool,
    /// Message slots touched, with whether each was created in this batch.
    pub(crate) messages: Vec<(usize, bool)>,
    pub(crate) texts: Vec<Append>,
    /// Parts whose wire value or status changed.
    pub(crate) contents: Vec<(usize, usize)>,
    pub(crate) arguments: Vec<Append>,
    pub(crate) warnings: Vec<Warning>,
    /// Emptied append buffers, for the next appends.
    spare: Vec<String>,
}

impl Batch {
    /// Whether nothing changed.
    pub(crate) fn is_empty(&self) -> bool {
        !self.response
            && self.messages.is_empty()
            && self.texts.is_empty()
            && self.contents.is_empty()
            && self.arguments.is_empty()
            && self.warnings.is_empty()
    }

    /// Forgets the recorded changes, keeping the buffers (within the spare limits).
    pub(crate) fn clear(&mut self) {
        self.response = false;
        self.messages.clear();
        self.contents.clear();
        self.warnings.clear();
        for Append { mut delta, .. } in self.texts.drain(..).chain(self.arguments.drain(..)) {
            if self.spare.len() < SPARE_BUFFERS && delta.capacity() <= SPARE_BYTES {
                delta.clear();
                self.spare.push(delta);
            }
        }
    }

    pub(crate) fn touch_message(&mut self, message: usize, created: bool) {
        match self.messages.iter_mut().find(|(m, _)| *m == message) {
            Some((_, was_created)) => *was_created |= created,
            None => self.messages.push((message, created)),
        }
    }

    pub(crate) fn touch_content(&mut self, message: usize, part: usize) {
        if !self.contents.contains(&(message, part)) {
            self.contents.push((message, part));
        }
    }

    /// Append text to a part (or replace it, with `replace`).
    pub(crate) fn text(&mut self, message: usize, part: usize, delta: &str, replace: bool) {
        append(
            &mut self.texts,
            &mut self.spare,
            message,
            part,
            delta,
            replace,
        );
    }

    /// Append to a tool call's arguments (or replace them, with `replace`).
    pub(crate) fn arguments(&mut self, message: usize, part: usize, delta: &str, replace: bool) {
        append(
            &mut self.arguments,
            &mut self.spare,
            message,
            part,
            delta,
            replace,
        );
    }
}

fn append(
    list: &mut Vec<Append>,
    spare: &mut Vec<String>,
    message: usize,
    part: usize,
    delta: &str,
    replace: bool,
) {
    // Newest first: by far the most likely target.
    let found = list
        .iter_mut()
        .rev()
        .find(|a| a.message == message && a.part == part);
    match found {
        Some(entry) => {
            if replace {
                entry.delta.clear();
                entry.replace = true;
            }
            entry.delta.push_str(delta);
        }
        None => {
            let mut buffer = spare.pop().unwrap_or_default();
            buffer.push_str(delta);
            list.push(Append {
                message,
                part,
                delta: buffer,
                replace,
            });
        }
    }
}
