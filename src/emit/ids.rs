//! [`EventIds`]: an SSE stream whose every event carries a cursor (`id: N`), for resuming.

use super::{BuilderEvent, Encoder};
use crate::codec::write::uint;
use crate::Result;

/// Wraps an SSE [`Encoder`] so that every event it writes carries `id: N`, `N` counting the
/// events of the stream from 0 (for the Agent API and OpenAI Responses, the event's own
/// `sequence_number`). A reader that lost the connection sends the last id it saw as
/// `Last-Event-ID` to resume after it. Only for SSE: an NDJSON stream has no ids.
///
/// # Example
///
/// ```
/// use agentwire::builder::{AgentApiEncoder, BuilderEvent, Encoder, EventIds, TextDelta};
/// use agentwire::codec::Format;
/// use agentwire::protocol::ContentType;
///
/// let mut enc = EventIds::new(AgentApiEncoder::new(Format::Sse)?);
/// let mut out = Vec::new();
/// let delta = TextDelta { sequence_number: 0, msg_id: "m", index: 0, content_type: ContentType::Text, text: "Hi" };
/// enc.encode(&BuilderEvent::TextDelta(delta), &mut out)?;
/// assert!(out.starts_with(b"id: 0\ndata: {"));
/// assert_eq!(enc.next_id(), 1);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct EventIds<E> {
    inner: E,
    next: u64,
    scratch: Vec<u8>,
}

impl<E: Encoder> EventIds<E> {
    /// `inner`'s events, each with its id, from 0.
    pub fn new(inner: E) -> Self {
        EventIds {
            inner,
            next: 0,
            scratch: Vec::new(),
        }
    }

    /// The id the next event will carry (the number of events written so far).
    pub fn next_id(&self) -> u64 {
        self.next
    }
}

impl<E: Encoder> Encoder for EventIds<E> {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        self.scratch.clear();
        self.inner.encode(event, &mut self.scratch)?;
        // The inner encoder writes whole events, each ending with a blank line: an event
        // starts at the beginning and after every "\n\n".
        let mut rest = self.scratch.as_slice();
        while !rest.is_empty() {
            let end = memchr::memmem::find(rest, b"\n\n").map_or(rest.len(), |i| i + 2);
            let (event, after) = rest.split_at(end.min(rest.len()));
            out.extend_from_slice(b"id: ");
            uint(out, self.next);
            out.push(b'\n');
            out.extend_from_slice(event);
            self.next += 1;
            rest = after;
        }
        Ok(())
    }

    fn content_type(&self) -> &'static str {
        self.inner.content_type()
    }

    fn answer_with_message(&mut self) -> bool {
        self.inner.answer_with_message()
    }
}

impl<E: Encoder + ?Sized> Encoder for Box<E> {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        (**self).encode(event, out)
    }

    fn content_type(&self) -> &'static str {
        (**self).content_type()
    }

    fn answer_with_message(&mut self) -> bool {
        (**self).answer_with_message()
    }
}
