//! The item/part state machine the protocol encoders share: a builder event read as a step on
//! an item (one per Agent API message) or on one of its parts, and what was sent of each.
//!
//! Every encoder of another wire protocol keeps, per message, an item of its own shape, and per
//! part, what it has sent; what differs between them is only what they write. This module owns
//! the common part: reading an event ([`Step::of`]), the kind of item a message becomes
//! ([`ItemKind`]), the tables of items by message id and of parts by index ([`Table`],
//! [`PartTable`]), how a text value advances what was sent ([`advance`]), how a data value
//! updates what is kept ([`absorb`]), and the token counts of a usage map ([`count`]).

use std::collections::HashMap;

use serde_json::Value;

use super::BuilderEvent;
use crate::protocol::{
    merge_data_into, AgentResponse, Content, ContentBody, ContentType, JsonMap, Message,
    MessageType, RunStatus,
};

/// How a content value arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A piece to append (text) or to deep-merge (data).
    Delta,
    /// The part's whole current value; it may still change.
    Snapshot,
    /// The part's final value.
    Completed,
}

/// A content value, borrowed from the event.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Body<'e> {
    /// A text or refusal part's text (`""` when absent).
    Text { text: &'e str, refusal: bool },
    /// A data part's object.
    Data(Option<&'e JsonMap>),
    /// Any other part (image, audio, video, file).
    Media(&'e ContentBody),
}

impl<'e> Body<'e> {
    /// The value of a content body.
    pub(crate) fn of(body: &'e ContentBody) -> Self {
        match body {
            ContentBody::Text { text } => Body::Text {
                text: text.as_deref().unwrap_or(""),
                refusal: false,
            },
            ContentBody::Refusal { refusal } => Body::Text {
                text: refusal.as_deref().unwrap_or(""),
                refusal: true,
            },
            ContentBody::Data { data } => Body::Data(data.as_ref()),
            other => Body::Media(other),
        }
    }
}

/// One builder event as the item/part machine reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step<'e> {
    /// A run-level event (`created`, `in_progress`, or terminal).
    Response(&'e AgentResponse),
    /// A message started or (`completed`) completed with all its parts.
    Message {
        message: &'e Message,
        completed: bool,
    },
    /// A value for part `index` of message `msg_id`; `whole` is the event's content model when
    /// the event carried one (snapshots and completions, not deltas).
    Content {
        msg_id: &'e str,
        index: i64,
        body: Body<'e>,
        mode: Mode,
        whole: Option<&'e Content>,
    },
}

impl<'e> Step<'e> {
    /// The step an event is; `None` for a content event without `msg_id` (no item to put it
    /// on).
    pub(crate) fn of(event: &BuilderEvent<'e>) -> Option<Self> {
        Some(match *event {
            BuilderEvent::Response(r) => Step::Response(r),
            BuilderEvent::MessageStarted(message) => Step::Message {
                message,
                completed: false,
            },
            BuilderEvent::MessageCompleted(message) => Step::Message {
                message,
                completed: true,
            },
            BuilderEvent::ContentSnapshot(c) | BuilderEvent::ContentCompleted(c) => {
                let completed = matches!(event, BuilderEvent::ContentCompleted(_))
                    || c.status == Some(RunStatus::Completed);
                Step::Content {
                    msg_id: c.msg_id.as_deref()?,
                    index: c.index.unwrap_or(0),
                    body: Body::of(&c.body),
                    mode: if completed {
                        Mode::Completed
                    } else {
                        Mode::Snapshot
                    },
                    whole: Some(c),
                }
            }
            BuilderEvent::TextDelta(d) => Step::Content {
                msg_id: d.msg_id,
                index: i64::from(d.index),
                body: Body::Text {
                    text: d.text,
                    refusal: d.content_type == ContentType::Refusal,
                },
                mode: Mode::Delta,
                whole: None,
            },
            BuilderEvent::DataDelta(d) => Step::Content {
                msg_id: d.msg_id,
                index: i64::from(d.index),
                body: Body::Data(Some(d.data)),
                mode: Mode::Delta,
                whole: None,
            },
        })
    }
}

/// The parts of a completed message with their indices (a part without `index` is at its
/// position).
pub(crate) fn parts_of(m: &Message) -> impl Iterator<Item = (i64, &Content)> {
    m.content
        .iter()
        .flatten()
        .enumerate()
        .map(|(position, part)| {
            let index = part
                .index
                .unwrap_or(i64::try_from(position).unwrap_or(i64::MAX));
            (index, part)
        })
}

/// What kind of item an Agent API message becomes in the other protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// An answer (text and refusal parts): `message` and `error` messages.
    Message,
    /// Reasoning text.
    Reasoning,
    /// A tool call: function, plugin and MCP calls.
    Call,
    /// A tool call's output.
    Output,
    /// Nothing the other protocols represent.
    Skip,
}

impl ItemKind {
    /// The kind of item a message of type `t` becomes.
    pub(crate) fn of(t: &MessageType) -> Self {
        match t {
            MessageType::Message | MessageType::Error => ItemKind::Message,
            MessageType::Reasoning => ItemKind::Reasoning,
            MessageType::FunctionCall | MessageType::PluginCall | MessageType::McpToolCall => {
                ItemKind::Call
            }
            MessageType::FunctionCallOutput
            | MessageType::PluginCallOutput
            | MessageType::McpToolCallOutput => ItemKind::Output,
            _ => ItemKind::Skip,
        }
    }

    /// The kind guessed from a part of a message never announced: a data part with `call_id` is
    /// a call, or its output when it has `output`; anything else is an answer.
    pub(crate) fn guess(body: Body<'_>) -> Self {
        match body {
            Body::Data(Some(d)) if d.contains_key("call_id") => {
                if d.contains_key("output") {
                    ItemKind::Output
                } else {
                    ItemKind::Call
                }
            }
            _ => ItemKind::Message,
        }
    }
}

/// Items by message id, in the order they were first seen.
#[derive(Debug)]
pub(crate) struct Table<T> {
    items: Vec<T>,
    by_id: HashMap<String, usize>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            items: Vec::new(),
            by_id: HashMap::new(),
        }
    }
}

impl<T> Table<T> {
    /// The position of the item for `msg_id`, made by `make` when new.
    pub(crate) fn at(&mut self, msg_id: &str, make: impl FnOnce() -> T) -> usize {
        if let Some(&i) = self.by_id.get(msg_id) {
            return i;
        }
        self.items.push(make());
        let i = self.items.len() - 1;
        self.by_id.insert(msg_id.to_owned(), i);
        i
    }

    /// The position of the item for `msg_id`, if there is one.
    pub(crate) fn position(&self, msg_id: &str) -> Option<usize> {
        self.by_id.get(msg_id).copied()
    }

    /// The items, in the order they were first seen.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The item at position `i`.
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i)
    }

    /// The item at position `i`, to change.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.items.get_mut(i)
    }

    /// The number of items.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }
}

/// An item's parts by Agent API index, in the order they were first seen (a search per part
/// would make a message of many parts quadratic).
#[derive(Debug)]
pub(crate) struct PartTable<P> {
    parts: Vec<P>,
    positions: HashMap<i64, usize>,
}

impl<P> Default for PartTable<P> {
    fn default() -> Self {
        PartTable {
            parts: Vec::new(),
            positions: HashMap::new(),
        }
    }
}

impl<P: Default> PartTable<P> {
    /// The position of the part at `index`, and whether it was added now.
    pub(crate) fn at(&mut self, index: i64) -> (usize, bool) {
        let next = self.parts.len();
        let position = *self.positions.entry(index).or_insert(next);
        let added = position == next;
        if added {
            self.parts.push(P::default());
        }
        (position, added)
    }
}

impl<P> PartTable<P> {
    /// The parts, in the order they were first seen.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, P> {
        self.parts.iter()
    }

    /// The part at position `p`.
    pub(crate) fn get(&self, p: usize) -> Option<&P> {
        self.parts.get(p)
    }

    /// The part at position `p`, to change.
    pub(crate) fn get_mut(&mut self, p: usize) -> Option<&mut P> {
        self.parts.get_mut(p)
    }

    /// The number of parts.
    pub(crate) fn len(&self) -> usize {
        self.parts.len()
    }
}

/// What a text value did to the text sent so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Advance {
    /// It extended it: the new text starts at this byte offset of what was sent.
    Extended(usize),
    /// Nothing new.
    Unchanged,
    /// It does not extend what was sent (a snapshot replaced the value); `sent` is left as it
    /// was, for the encoder to decide (a replacement cannot be retracted in most protocols).
    Replaced,
}

/// Advances `sent` by a text value arriving in `mode`: a delta is appended; a snapshot or the
/// completed value is appended by the part that extends `sent`.
pub(crate) fn advance(sent: &mut String, text: &str, mode: Mode) -> Advance {
    let start = sent.len();
    let rest = match mode {
        Mode::Delta => text,
        Mode::Snapshot | Mode::Completed => match text.strip_prefix(sent.as_str()) {
            Some(rest) => rest,
            None => return Advance::Replaced,
        },
    };
    if rest.is_empty() {
        return Advance::Unchanged;
    }
    sent.push_str(rest);
    Advance::Extended(start)
}

/// Updates the data kept for a part by a value arriving in `mode`: a delta is deep-merged (the
/// builder rule), a whole value replaces it.
pub(crate) fn absorb(kept: &mut JsonMap, data: Option<&JsonMap>, mode: Mode) {
    let data = data.cloned().unwrap_or_default();
    match mode {
        Mode::Delta => merge_data_into(kept, data),
        Mode::Snapshot | Mode::Completed => *kept = data,
    }
}

/// The Agent API usage names of the input token count (Responses and chat spellings).
pub(crate) const INPUT_TOKENS: &[&str] = &["input_tokens", "prompt_tokens"];
/// The Agent API usage names of the output token count.
pub(crate) const OUTPUT_TOKENS: &[&str] = &["output_tokens", "completion_tokens"];
/// The usage names of the details object holding `reasoning_tokens`.
pub(crate) const OUTPUT_DETAILS: &[&str] = &["output_tokens_details", "completion_tokens_details"];
/// The usage names of the details object holding `cached_tokens`.
pub(crate) const INPUT_DETAILS: &[&str] = &["input_tokens_details", "prompt_tokens_details"];

/// The first of `names` whose value in `usage` (or, with `inner`, whose `inner` field) `read`
/// accepts as a count.
pub(crate) fn count<T>(
    usage: &JsonMap,
    names: &[&str],
    inner: Option<&str>,
    read: impl Fn(&Value) -> Option<T>,
) -> Option<T> {
    names.iter().find_map(|name| {
        let v = usage.get(*name)?;
        match inner {
            Some(inner) => read(v.get(inner)?),
            None => read(v),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_advances_by_what_extends_it() {
        let mut sent = String::new();
        assert_eq!(advance(&mut sent, "Hel", Mode::Delta), Advance::Extended(0));
        assert_eq!(advance(&mut sent, "", Mode::Delta), Advance::Unchanged);
        assert_eq!(
            advance(&mut sent, "Hello", Mode::Snapshot),
            Advance::Extended(3)
        );
        assert_eq!(
            advance(&mut sent, "Hello", Mode::Completed),
            Advance::Unchanged
        );
        assert_eq!(advance(&mut sent, "Bye", Mode::Snapshot), Advance::Replaced);
        assert_eq!(sent, "Hello");
    }

    #[test]
    fn parts_keep_their_first_position() {
        let mut parts = PartTable::<String>::default();
        assert_eq!(parts.at(7), (0, true));
        assert_eq!(parts.at(2), (1, true));
        assert_eq!(parts.at(7), (0, false));
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn kinds_are_guessed_from_call_data() {
        let call: JsonMap = serde_json::from_str(r#"{"call_id":"c"}"#).unwrap();
        let output: JsonMap = serde_json::from_str(r#"{"call_id":"c","output":1}"#).unwrap();
        assert_eq!(ItemKind::guess(Body::Data(Some(&call))), ItemKind::Call);
        assert_eq!(ItemKind::guess(Body::Data(Some(&output))), ItemKind::Output);
        assert_eq!(ItemKind::guess(Body::Data(None)), ItemKind::Message);
    }

    #[test]
    fn counts_take_the_first_accepted_name() {
        let usage: JsonMap = serde_json::from_str(
            r#"{"prompt_tokens":5,"output_tokens_details":{"reasoning_tokens":2}}"#,
        )
        .unwrap();
        assert_eq!(count(&usage, INPUT_TOKENS, None, Value::as_u64), Some(5));
        assert_eq!(
            count(
                &usage,
                OUTPUT_DETAILS,
                Some("reasoning_tokens"),
                Value::as_u64
            ),
            Some(2)
        );
        assert_eq!(count(&usage, OUTPUT_TOKENS, None, Value::as_u64), None);
    }
}
