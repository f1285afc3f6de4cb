//! [`Update`]: what changed, coalesced per `push()`, for a UI that re-renders once per chunk.

use serde::Serialize;
use serde_json::Value;

#[cfg(feature = "client")]
pub(crate) use super::agent_api::PartView;
use super::outcome::Outcome;
use crate::Warning;

/// One change caused by a chunk of input. A `push()` returns them grouped in this order:
/// response changes, message changes, text appends, tool-call argument appends, other content
/// changes (each a part's whole value at the end of the chunk, so it replaces what the appends
/// before it built), warnings. Within a group, the order is first-touched first.
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
    /// A content part changed (an [`Update::Content`] of `part`, written from the stored part:
    /// a sink that serialises can do so without building a `Value` of it). Full build only:
    /// lite, sized first, builds the `Value`.
    #[cfg(feature = "client")]
    fn content(&mut self, message_id: &str, index: usize, part: &PartView<'_>) {
        if let Ok(part) = serde_json::to_value(part) {
            self.other(Update::Content {
                message_id: message_id.to_owned(),
                index,
                part,
            });
        }
    }
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
///
/// Each list is searched for its key before an entry is added: a short list by a scan (newest
/// first), a long one through a position index, so a chunk that touches many messages or parts
/// costs O(entries), not O(entries²).
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
    /// Positions in `messages`, `texts`, `contents` and `arguments`, once long.
    at_message: Positions,
    at_text: Positions,
    at_content: Positions,
    at_arguments: Positions,
}

/// Lists up to this long are scanned; longer ones are searched through their [`Positions`].
const SCAN: usize = 8;

/// The position of each key of a batch list, kept only while the list is longer than [`SCAN`]
/// (keys are unique in a list: an entry is added only when its key is not found).
///
/// An open-addressing table (linear probing, load at most one half) of list positions plus one
/// (`0`: a free slot), whose keys are read from the list itself. Not std's `HashMap`, which took
/// `agentwire/lite` over its size ceiling (bench/README.md, "Measurements behind code
/// decisions"). Keys are message slots (numbered in arrival order) and part indices (below
/// 4,096), not attacker-chosen hash inputs, and a Fibonacci hash spreads them.
#[derive(Debug, Default)]
struct Positions {
    table: Vec<u32>,
    /// Entries of the list indexed so far (its first `indexed`).
    indexed: usize,
}

impl Positions {
    /// The position of `key` in a list of `len` entries whose keys `key_at` gives.
    fn find(
        &mut self,
        len: usize,
        key: (usize, usize),
        key_at: &dyn Fn(usize) -> (usize, usize),
    ) -> Option<usize> {
        if len <= SCAN {
            return (0..len).rev().find(|&i| key_at(i) == key);
        }
        if len * 2 > self.table.len() {
            // Grow (doubling, so indexing stays O(1) per entry) and index everything again.
            self.table.clear();
            self.table.resize((len * 4).next_power_of_two(), 0);
            self.indexed = 0;
        }
        // Index the entries added since the last look, then probe for `key`.
        let mask = self.table.len() - 1;
        let shift = 64 - self.table.len().trailing_zeros();
        let start = |(message, part): (usize, usize)| -> usize {
            let k = (message as u64) << 32 | part as u64;
            (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
        };
        while self.indexed < len {
            let mut at = start(key_at(self.indexed));
            while let Some(slot) = self.table.get_mut(at) {
                if *slot == 0 {
                    *slot = u32::try_from(self.indexed + 1).unwrap_or(u32::MAX);
                    break;
                }
                at = (at + 1) & mask;
            }
            self.indexed += 1;
        }
        let mut at = start(key);
        loop {
            match self.table.get(at).map(|&p| p as usize) {
                Some(0) | None => return None,
                Some(p) if key_at(p - 1) == key => return Some(p - 1),
                Some(_) => at = (at + 1) & mask,
            }
        }
    }

    /// Forgets the keys. A table much larger than this batch needed is dropped rather than
    /// zeroed, so one long batch does not make every later one cost its size.
    fn clear(&mut self) {
        if self.indexed == 0 {
            return;
        }
        if self.table.len() > 8 * self.indexed {
            self.table = Vec::new();
        } else {
            self.table.fill(0);
        }
        self.indexed = 0;
    }
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
        self.at_message.clear();
        self.at_text.clear();
        self.at_content.clear();
        self.at_arguments.clear();
    }

    pub(crate) fn touch_message(&mut self, message: usize, created: bool) {
        let messages = &self.messages;
        let found = self.at_message.find(messages.len(), (message, 0), &|i| {
            (messages.get(i).map_or(usize::MAX, |m| m.0), 0)
        });
        match found.and_then(|i| self.messages.get_mut(i)) {
            Some((_, was_created)) => *was_created |= created,
            None => self.messages.push((message, created)),
        }
    }

    pub(crate) fn touch_content(&mut self, message: usize, part: usize) {
        let contents = &self.contents;
        let found = self.at_content.find(contents.len(), (message, part), &|i| {
            contents.get(i).copied().unwrap_or((usize::MAX, 0))
        });
        if found.is_none() {
            self.contents.push((message, part));
        }
    }

    /// Append text to a part (or replace it, with `replace`).
    pub(crate) fn text(&mut self, message: usize, part: usize, delta: &str, replace: bool) {
        append(
            &mut self.texts,
            &mut self.at_text,
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
            &mut self.at_arguments,
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
    positions: &mut Positions,
    spare: &mut Vec<String>,
    message: usize,
    part: usize,
    delta: &str,
    replace: bool,
) {
    // The newest entry first: by far the most likely target.
    let newest = list
        .last()
        .is_some_and(|a| a.message == message && a.part == part);
    let found = if newest {
        list.len().checked_sub(1)
    } else {
        let entries = &*list;
        positions.find(entries.len(), (message, part), &|i| {
            entries
                .get(i)
                .map_or((usize::MAX, 0), |a| (a.message, a.part))
        })
    };
    match found.and_then(|i| list.get_mut(i)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_batch_keeps_one_entry_per_key() {
        let mut batch = Batch::default();
        // Many messages, each touched twice, parts interleaved: every key once, in first-touch
        // order, with the appends of one key joined.
        for round in 0..2 {
            for m in 0..1000 {
                batch.touch_message(m, round == 0);
                batch.touch_content(m, m % 7);
                batch.text(m, 1, "ab", false);
                batch.arguments(m, 2, "x", round == 1 && m % 2 == 0);
            }
        }
        assert_eq!(batch.messages.len(), 1000);
        assert!(batch
            .messages
            .iter()
            .enumerate()
            .all(|(i, &(m, c))| m == i && c));
        assert_eq!(batch.contents.len(), 1000);
        assert_eq!(batch.texts.len(), 1000);
        assert!(batch.texts.iter().all(|a| a.delta == "abab" && !a.replace));
        assert_eq!(batch.arguments.len(), 1000);
        assert!(
            batch
                .arguments
                .iter()
                .all(|a| (a.delta == "x") == (a.message % 2 == 0)
                    && a.replace == (a.message % 2 == 0))
        );
        // Cleared, it starts over (its tables too).
        batch.clear();
        assert!(batch.is_empty());
        for m in (0..20).rev() {
            batch.touch_content(m, 3);
            batch.touch_content(m, 3);
        }
        assert_eq!(batch.contents.len(), 20);
        assert_eq!(batch.contents.first(), Some(&(19, 3)));
    }
}
