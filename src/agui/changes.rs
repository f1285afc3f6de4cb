//! [`Changes`]: what applying events changed, coalesced, for a UI to re-render once per batch.

use std::collections::HashMap;

use serde_json::Value;

use crate::Warning;

/// What a batch of events changed in a [`Client`](super::Client), coalesced: text appends per
/// message and argument appends per tool call are joined; ids are listed once, first touched
/// first. Cleared by the consumer ([`Changes::clear`]).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Changes {
    /// The run's status, outcome or error changed.
    pub run: bool,
    /// Messages that appeared (`true`) or whose open/closed status changed (`false`).
    pub messages: Vec<(String, bool)>,
    /// Text appended to messages: (message id, appended text).
    pub texts: Vec<(String, String)>,
    /// Arguments appended to tool calls: (tool-call id, appended text).
    pub arguments: Vec<(String, String)>,
    /// Messages whose value changed other than by appends (replaced by a snapshot, metadata
    /// merged, activity content patched, an encrypted value attached, minted whole).
    pub replaced: Vec<String>,
    /// The list was reordered or messages were removed.
    pub order: bool,
    /// The state changed.
    pub state: bool,
    /// Message parts AG-UI has no event for, as agentwire's encoder carries them (`CUSTOM`
    /// `agent-api.content`): (message id, part index, the part), in order.
    pub parts: Vec<(String, usize, Value)>,
    /// The events delivered to the reducer, when recording was asked for.
    pub events: Vec<Value>,
    /// The verified events, typed, when delivery was asked for instead of applying them
    /// ([`Client::with_delivery`](super::Client::with_delivery)).
    pub delivered: Vec<super::Event>,
    /// Tolerated oddities, with the client's texts.
    pub warnings: Vec<Warning>,
    /// Where each id is in `messages`, `texts`, `arguments` and `replaced`: recording a change
    /// is O(1), however many a batch holds.
    at: Positions,
}

/// Positions of ids in the lists of a [`Changes`].
#[derive(Debug, Default, Clone, PartialEq)]
struct Positions {
    messages: HashMap<String, usize>,
    texts: HashMap<String, usize>,
    arguments: HashMap<String, usize>,
    replaced: HashMap<String, usize>,
}

fn append(
    list: &mut Vec<(String, String)>,
    at: &mut HashMap<String, usize>,
    id: &str,
    delta: &str,
) {
    if let Some((last, text)) = list.last_mut() {
        if last == id {
            text.push_str(delta);
            return;
        }
    }
    match at.get(id).and_then(|&i| list.get_mut(i)) {
        Some((_, text)) => text.push_str(delta),
        None => {
            at.insert(id.to_owned(), list.len());
            list.push((id.to_owned(), delta.to_owned()));
        }
    }
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        !self.run
            && !self.order
            && !self.state
            && self.messages.is_empty()
            && self.texts.is_empty()
            && self.arguments.is_empty()
            && self.replaced.is_empty()
            && self.parts.is_empty()
            && self.events.is_empty()
            && self.delivered.is_empty()
            && self.warnings.is_empty()
    }

    /// Forgets everything recorded.
    pub fn clear(&mut self) {
        *self = Changes::default();
    }

    pub(crate) fn message(&mut self, id: &str, created: bool) {
        match self
            .at
            .messages
            .get(id)
            .and_then(|&i| self.messages.get_mut(i))
        {
            Some((_, c)) => *c |= created,
            None => {
                self.at.messages.insert(id.to_owned(), self.messages.len());
                self.messages.push((id.to_owned(), created));
            }
        }
    }

    pub(crate) fn text(&mut self, id: &str, delta: &str) {
        append(&mut self.texts, &mut self.at.texts, id, delta);
    }

    pub(crate) fn arguments(&mut self, call_id: &str, delta: &str) {
        append(&mut self.arguments, &mut self.at.arguments, call_id, delta);
    }

    pub(crate) fn replaced(&mut self, id: &str) {
        if !self.at.replaced.contains_key(id) {
            self.at.replaced.insert(id.to_owned(), self.replaced.len());
            self.replaced.push(id.to_owned());
        }
    }

    /// Whether message `id` was replaced in this batch.
    pub fn was_replaced(&self, id: &str) -> bool {
        self.at.replaced.contains_key(id)
    }

    /// Whether message `id` appeared in this batch.
    pub fn created(&self, id: &str) -> bool {
        self.at
            .messages
            .get(id)
            .and_then(|&i| self.messages.get(i))
            .is_some_and(|(_, created)| *created)
    }
}
