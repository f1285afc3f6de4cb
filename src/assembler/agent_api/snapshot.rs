//! The Agent API snapshot as a serialisable view of the fold: the response, its messages and
//! their parts are written straight from the fold's slots, with no copy of them and no
//! intermediate `Value` tree (a snapshot of 200k messages cloned them all, then built a tree of
//! the clones: ~1 GB of wasm memory).
//!
//! A host that reads JSON text can have long texts left out of it ([`SnapshotView::defer_texts`])
//! and set them from [`SnapshotView::deferred`] instead: a JS engine makes a string from text
//! faster than it parses the same string out of JSON.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use super::{AgentApiFold, MessageSlot, PartSlot};
use crate::assembler::outcome::Outcome;
use crate::protocol::json::{Fields, JsonOptions};
use crate::protocol::{ContentBody, RunStatus, StreamFields};
use crate::Warning;

static COMPLETED: RunStatus = RunStatus::Completed;
static IN_PROGRESS: RunStatus = RunStatus::InProgress;

/// The Agent API snapshot (see `StreamAssembler::snapshot`): the response with every message
/// received so far in `output`, then `outcome`, `warnings`, and `incompleteMessages` and
/// `unknownEvents` when there are any.
pub(crate) struct SnapshotView<'a> {
    fold: &'a AgentApiFold,
    outcome: Outcome,
    warnings: &'a [Warning],
    /// For each message slot, whether the final `output` lists it (when it arrived).
    listed: Option<Vec<bool>>,
    /// Texts longer than this many bytes are written as `""` (see [`SnapshotView::deferred`]).
    defer_above: Option<usize>,
}

/// A text the JSON form of a [`SnapshotView`] left out: the part at `part` (position in
/// `content`) of message `message` (position in `output`, or in `incompleteMessages` when
/// `incomplete`), whose `key` (`text` or `refusal`) is `text`.
#[cfg_attr(not(all(target_arch = "wasm32", feature = "client")), allow(dead_code))]
pub(crate) struct Deferred<'a> {
    pub(crate) incomplete: bool,
    pub(crate) message: usize,
    pub(crate) part: usize,
    pub(crate) key: &'static str,
    pub(crate) text: &'a str,
}

impl<'a> SnapshotView<'a> {
    pub(crate) fn new(fold: &'a AgentApiFold, outcome: Outcome, warnings: &'a [Warning]) -> Self {
        let listed = fold.output_order.as_ref().map(|order| {
            let mut listed = vec![false; fold.messages.len()];
            for &slot in order {
                if let Some(seen) = listed.get_mut(slot) {
                    *seen = true;
                }
            }
            listed
        });
        SnapshotView {
            fold,
            outcome,
            warnings,
            listed,
            defer_above: None,
        }
    }

    /// Writes texts longer than `bytes` as `""`; [`SnapshotView::deferred`] lists them.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "client")), allow(dead_code))]
    pub(crate) fn defer_texts(mut self, bytes: usize) -> Self {
        self.defer_above = Some(bytes);
        self
    }

    /// The texts left out of the serialised form, in order.
    #[cfg_attr(not(all(target_arch = "wasm32", feature = "client")), allow(dead_code))]
    pub(crate) fn deferred(&self) -> Vec<Deferred<'a>> {
        let Some(above) = self.defer_above else {
            return Vec::new();
        };
        let fold = self.fold;
        let mut out = Vec::new();
        let mut collect = |incomplete: bool, message: usize, slot: &'a MessageSlot| {
            for (part, p) in slot.parts.iter().flatten().enumerate() {
                if let Some((key, text)) = long_text(p, above) {
                    out.push(Deferred {
                        incomplete,
                        message,
                        part,
                        key,
                        text,
                    });
                }
            }
        };
        match &fold.output_order {
            Some(order) => {
                for (i, m) in order
                    .iter()
                    .filter_map(|&i| fold.messages.get(i))
                    .enumerate()
                {
                    collect(false, i, m);
                }
            }
            None => {
                for (i, m) in fold.messages.iter().enumerate() {
                    collect(false, i, m);
                }
            }
        }
        if let Some(listed) = &self.listed {
            let left_out = fold.messages.iter().zip(listed).filter(|(_, l)| !**l);
            for (i, (m, _)) in left_out.enumerate() {
                collect(true, i, m);
            }
        }
        out
    }
}

/// The key and text of a text or refusal part longer than `above` bytes.
fn long_text(part: &PartSlot, above: usize) -> Option<(&'static str, &str)> {
    match &part.content.body {
        ContentBody::Text { text: Some(t) } if t.len() > above => Some(("text", t)),
        ContentBody::Refusal { refusal: Some(t) } if t.len() > above => Some(("refusal", t)),
        _ => None,
    }
}

impl Serialize for SnapshotView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fold = self.fold;
        let mut f = Fields::new(s.serialize_map(None)?, JsonOptions::new());
        let above = self.defer_above;
        fold.response
            .write_fields(&mut f, Some(&Output { fold, above }))?;
        // Keys the response may also hold among its extra keys are written again: the later
        // value wins in its first position, as a map insert would place it.
        f.val("outcome", self.outcome.as_str())?;
        f.val("warnings", self.warnings)?;
        if let Some(listed) = &self.listed {
            if listed.iter().any(|l| !l) {
                f.val(
                    "incompleteMessages",
                    &Incomplete {
                        fold,
                        listed,
                        above,
                    },
                )?;
            }
        }
        if !fold.unknown_events.is_empty() {
            f.val("unknownEvents", &fold.unknown_events)?;
        }
        f.end()
    }
}

/// The messages of `output`: in arrival order, or in the final `output`'s order once it
/// arrived.
struct Output<'a> {
    fold: &'a AgentApiFold,
    above: Option<usize>,
}

impl Serialize for Output<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fold = self.fold;
        match &fold.output_order {
            Some(order) => messages(
                s,
                order.iter().filter_map(|&i| fold.messages.get(i)),
                self.above,
            ),
            None => messages(s, fold.messages.iter(), self.above),
        }
    }
}

/// Messages received but left out of the final `output` (they never completed).
struct Incomplete<'a> {
    fold: &'a AgentApiFold,
    listed: &'a [bool],
    above: Option<usize>,
}

impl Serialize for Incomplete<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let left_out = self
            .fold
            .messages
            .iter()
            .zip(self.listed)
            .filter_map(|(m, listed)| (!listed).then_some(m));
        messages(s, left_out, self.above)
    }
}

fn messages<'a, S: Serializer>(
    s: S,
    slots: impl Iterator<Item = &'a MessageSlot>,
    above: Option<usize>,
) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(None)?;
    for slot in slots {
        seq.serialize_element(&MessageView(slot, above))?;
    }
    seq.end()
}

/// A message with its assembled content, as `MessageSlot::to_message` makes it.
struct MessageView<'a>(&'a MessageSlot, Option<usize>);

impl Serialize for MessageView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let slot = self.0;
        let has_parts = slot.parts.iter().any(Option::is_some);
        let content = (has_parts || slot.message.status == RunStatus::Completed)
            .then_some(Parts(slot, self.1));
        slot.message
            .serialize_with(s, JsonOptions::new(), content.as_ref())
    }
}

/// A message's assembled parts, in index order.
struct Parts<'a>(&'a MessageSlot, Option<usize>);

impl Serialize for Parts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for part in self.0.parts.iter().flatten() {
            seq.serialize_element(&PartView(part, self.1))?;
        }
        seq.end()
    }
}

/// A part as the snapshot and the content updates show it: no stale `sequence_number`,
/// `delta: false`, and `completed` where the stream completed it, `in_progress` otherwise.
pub(crate) struct PartView<'a>(pub(crate) &'a PartSlot, pub(crate) Option<usize>);

impl Serialize for PartView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let stream = StreamFields {
            sequence_number: None,
            status: Some(if self.0.completed {
                &COMPLETED
            } else {
                &IN_PROGRESS
            }),
            delta: Some(false),
            hide_text: self
                .1
                .is_some_and(|above| long_text(self.0, above).is_some()),
        };
        self.0.content.serialize_as(s, JsonOptions::new(), stream)
    }
}
