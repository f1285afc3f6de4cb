//! Content deltas: the one semantics of a `delta: true` content event
//! ([`AgentApiFold::merge_delta`]), whichever reader read it: `parse_event`, or the fast reader
//! ([`plain_delta`], applied by [`AgentApiFold::apply_fast_delta`]), which only reads.

use std::borrow::Cow;

use serde_json::Value;

use super::{
    arguments_text, internal, is_call_type, raw_arguments, update_mirror, AgentApiFold, EventCx,
};
use crate::assembler::fast_read::FastEvent;
use crate::protocol::{merge_data_into, Content, ContentBody, JsonMap, RunStatus};
use crate::{Result, WarningCode};

impl AgentApiFold {
    /// The content fast path: an event the fast reader read as a plain delta (a text piece, or
    /// a piece of a tool call's arguments) appended to a part that exists, is open and is of
    /// the delta's type, through [`merge_delta`](Self::merge_delta) as the general path does.
    /// `Ok(None)` hands every other event to the general path (which parses it).
    pub(super) fn apply_fast_delta(
        &mut self,
        event: FastEvent<'_>,
        cx: &mut EventCx<'_>,
    ) -> Result<Option<()>> {
        let Some(delta) = plain_delta(&event) else {
            return Ok(None);
        };
        let (Some(msg_id), Some(index)) = (event.msg_id.as_deref(), event.index) else {
            return Ok(None);
        };
        if self.outcome.is_settled() {
            return Ok(None);
        }
        let Some(slot) = self.lookup(msg_id) else {
            return Ok(None);
        };
        let Ok(index) = usize::try_from(index) else {
            return Ok(None);
        };
        if !self.appends(slot, index, &delta) {
            return Ok(None);
        }
        if !self.accept_sequence(event.sequence_number.0, cx)? {
            return Ok(Some(()));
        }
        self.merge_delta(slot, index, delta, false, cx).map(Some)
    }

    /// Whether `delta` appends to part `index` of message `slot`: the message and the part
    /// are open and the part is of the delta's type (for arguments: a data part whose
    /// `arguments` is a string). Anything else is the general path's to judge.
    fn appends(&self, slot: usize, index: usize, delta: &DeltaIn<'_>) -> bool {
        let Some(m) = self.messages.get(slot) else {
            return false;
        };
        let Some(Some(part)) = m.parts.get(index) else {
            return false;
        };
        if m.message.status == RunStatus::Completed || part.completed {
            return false;
        }
        match (delta, &part.content.body) {
            (DeltaIn::Text(_), ContentBody::Text { .. }) => true,
            (DeltaIn::Arguments(_), ContentBody::Data { data: Some(d) }) => {
                d.get("arguments").is_some_and(Value::is_string)
            }
            _ => false,
        }
    }

    /// Applies a `delta: true` content event to part `index` of message `slot`: the one
    /// semantics of a delta, whichever reader read it.
    pub(super) fn merge_delta(
        &mut self,
        slot: usize,
        index: usize,
        delta: DeltaIn<'_>,
        completed: bool,
        cx: &mut EventCx<'_>,
    ) -> Result<()> {
        let is_call = self
            .messages
            .get(slot)
            .is_some_and(|m| is_call_type(&m.message.message_type));
        let track = self.track_arguments;
        let message = self.messages.get_mut(slot).ok_or_else(internal)?;
        let Some(Some(part)) = message.parts.get_mut(index) else {
            // The first event of a part: it is the part (the fast path never gets here).
            let DeltaIn::Content(content) = delta else {
                return Err(internal());
            };
            return self.put_part(slot, index, content, completed, true, cx);
        };
        if part.completed || part.content.body.type_str() != delta.type_str() {
            return refuse(cx, part.completed);
        }
        part.from_deltas = true;
        let mut text_delta: Option<Cow<'_, str>> = None;
        let mut args_delta: Option<(Cow<'_, str>, bool)> = None;
        let mut changed_other = false;
        let (body, extra, error) = match delta {
            DeltaIn::Content(content) => (content.body, content.extra, content.error),
            // The fast reader's views carry their piece aside (no copy), applied below as the
            // parsed event's would be: text appended; a string appended to the string
            // `arguments`, as the merge rule does.
            DeltaIn::Text(new) => {
                text_delta = Some(new);
                (ContentBody::Text { text: None }, JsonMap::new(), None)
            }
            DeltaIn::Arguments(piece) => {
                args_delta = Some((Cow::Borrowed(piece), false));
                (ContentBody::Data { data: None }, JsonMap::new(), None)
            }
        };
        match (&mut part.content.body, body) {
            (ContentBody::Text { text: stored }, ContentBody::Text { text: None })
                if text_delta.is_some() =>
            {
                if let Some(new) = &text_delta {
                    stored.get_or_insert_with(String::new).push_str(new);
                }
            }
            (ContentBody::Data { data: Some(stored) }, ContentBody::Data { data: None })
                if args_delta.is_some() =>
            {
                if let (Some(Value::String(arguments)), Some((piece, _))) =
                    (stored.get_mut("arguments"), &args_delta)
                {
                    arguments.push_str(piece);
                }
                if !is_call {
                    // Not a tool call: the data part changed, no arguments update.
                    args_delta = None;
                    changed_other = true;
                }
            }
            (ContentBody::Text { text: stored }, ContentBody::Text { text: Some(new) }) => {
                stored.get_or_insert_with(String::new).push_str(&new);
                text_delta = Some(Cow::Owned(new));
            }
            (
                ContentBody::Refusal { refusal: stored },
                ContentBody::Refusal { refusal: Some(new) },
            ) => {
                stored.get_or_insert_with(String::new).push_str(&new);
                text_delta = Some(Cow::Owned(new));
            }
            (
                ContentBody::Image { image_url: stored },
                ContentBody::Image {
                    image_url: Some(new),
                },
            ) => {
                stored.get_or_insert_with(String::new).push_str(&new);
                changed_other = true;
            }
            (ContentBody::Data { data: stored }, ContentBody::Data { data: Some(new) }) => {
                let stored = stored.get_or_insert_with(JsonMap::new);
                let old_is_string = stored.get("arguments").is_some_and(Value::is_string);
                // `None`: the delta leaves the arguments alone; `Some(None)`: it changes them
                // in a way that is not a string append.
                let piece = new.get("arguments").map(|v| v.as_str().map(str::to_owned));
                let only_arguments = new.len() == 1 && piece.is_some();
                merge_data_into(stored, new);
                changed_other = true;
                if is_call {
                    let new_is_string = stored.get("arguments").is_some_and(Value::is_string);
                    match piece {
                        None => {}
                        // The merge rule concatenates strings: the raw text grew by `piece`.
                        Some(Some(piece)) if old_is_string && new_is_string => {
                            args_delta = Some((Cow::Owned(piece), false));
                            // The arguments update says it all: no content update carrying
                            // the whole part (O(arguments) per delta, quadratic per call).
                            changed_other = !only_arguments;
                        }
                        Some(_) => {
                            args_delta =
                                Some((Cow::Owned(arguments_text(Some(stored)).into_owned()), true));
                        }
                    }
                }
            }
            (stored, new) => {
                // Audio, file, video, unknown: the fields the delta carries are set.
                overlay_body(stored, new);
                changed_other = true;
            }
        }
        if !extra.is_empty() || error.is_some() {
            changed_other = true;
        }
        for (key, value) in extra {
            part.content.extra.insert(key, value);
        }
        if let Some(error) = error {
            part.content.error = Some(error);
        }
        if let Some(delta) = text_delta {
            cx.batch.text(slot, index, &delta, false);
        }
        if let Some((delta, replace)) = args_delta {
            if track {
                let whole = raw_arguments(&part.content).unwrap_or_default();
                update_mirror(&mut part.mirror, &whole, &delta, replace);
            }
            cx.batch.arguments(slot, index, &delta, replace);
        }
        if changed_other {
            cx.batch.touch_content(slot, index);
        }
        if completed {
            self.complete_part(slot, index, cx)?;
        }
        Ok(())
    }
}

/// Reports a content event refused by a part: the part completed (its value is final), or it
/// is of another type. (The warning's offset and sequence number point at the event.)
#[cold]
#[inline(never)]
pub(super) fn refuse(cx: &mut EventCx<'_>, completed: bool) -> Result<()> {
    if completed {
        cx.warn(
            WarningCode::EventAfterEnd,
            "Content for a part that already completed was ignored.",
        )
    } else {
        cx.warn(
            WarningCode::InvalidEvent,
            "Content of another type than its part was ignored.",
        )
    }
}

/// Sets the fields a delta carries onto a stored body of the same type.
fn overlay_body(stored: &mut ContentBody, new: ContentBody) {
    match (stored, new) {
        (
            ContentBody::Audio { data, format },
            ContentBody::Audio {
                data: new_data,
                format: new_format,
            },
        ) => {
            if new_data.is_some() {
                *data = new_data;
            }
            if new_format.is_some() {
                *format = new_format;
            }
        }
        (
            ContentBody::File {
                file_url,
                file_id,
                filename,
                file_data,
            },
            ContentBody::File {
                file_url: u,
                file_id: i,
                filename: n,
                file_data: d,
            },
        ) => {
            for (slot, new) in [(file_url, u), (file_id, i), (filename, n), (file_data, d)] {
                if new.is_some() {
                    *slot = new;
                }
            }
        }
        (ContentBody::Video { video_url }, ContentBody::Video { video_url: new }) => {
            if new.is_some() {
                *video_url = new;
            }
        }
        (stored, new) => *stored = new,
    }
}

// Passed by value once per event and never stored: boxing the parsed content would cost an
// allocation per delta to save a move.
#[allow(clippy::large_enum_variant)]
pub(super) enum DeltaIn<'a> {
    /// A `delta: true` content event, parsed.
    Content(Content),
    /// `{"type": "text", "delta": true, "text": <piece>, …}`: a text piece.
    Text(Cow<'a, str>),
    /// `{"type": "data", "delta": true, "data": {"arguments": <piece>}, …}`: a piece of a tool
    /// call's arguments.
    Arguments(&'a str),
}

impl DeltaIn<'_> {
    /// The content type the delta is of.
    fn type_str(&self) -> &str {
        match self {
            DeltaIn::Content(content) => content.type_str(),
            DeltaIn::Text(_) => "text",
            DeltaIn::Arguments(_) => "data",
        }
    }
}

/// The plain delta an event read by the fast reader is, if any: a text piece or a piece of
/// arguments, `delta: true`, status absent or `in_progress`, with no other fields (reading
/// only: whether it applies is the fold's to judge).
fn plain_delta<'a>(event: &'a FastEvent<'_>) -> Option<DeltaIn<'a>> {
    if event.delta != Some(true) || !matches!(event.status.as_deref(), None | Some("in_progress")) {
        return None;
    }
    match event.content_type.as_deref()? {
        "text" if event.rest.is_empty() => event
            .text
            .as_deref()
            .map(|t| DeltaIn::Text(Cow::Borrowed(t))),
        "data" if event.text.is_none() => match event.rest.as_slice() {
            [(key, Value::Object(data))] if key == "data" && data.len() == 1 => {
                match data.get("arguments") {
                    Some(Value::String(piece)) => Some(DeltaIn::Arguments(piece)),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}
