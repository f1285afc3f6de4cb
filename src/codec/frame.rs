//! [`Frame`]: one decoded event, borrowed from the decoder, and the poisoning state shared by
//! the decoders.

use crate::{Error, ErrorCode, Result};

/// One decoded event, handed to the callback of [`push`](super::FrameDecoder::push) and
/// [`finish`](super::FrameDecoder::finish). It borrows the decoder's buffers (or the input
/// chunk), so it costs no allocation; copy out what you need before the callback returns.
///
/// For NDJSON, [`data`](Frame::data) is the line, [`event`](Frame::event) is `"message"`, and
/// [`id`](Frame::id) and [`retry`](Frame::retry) are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    pub(crate) data: &'a str,
    pub(crate) event: &'a str,
    pub(crate) id: Option<&'a str>,
    pub(crate) retry: Option<u64>,
    pub(crate) offset: u64,
}

impl<'a> Frame<'a> {
    /// The payload: the SSE `data` lines joined with `"\n"`, or the NDJSON line without its
    /// line terminator.
    pub fn data(&self) -> &'a str {
        self.data
    }

    /// The SSE event type: the last `event` field of the event, or `"message"` when there was
    /// none or it was empty. Always `"message"` for NDJSON.
    pub fn event(&self) -> &'a str {
        self.event
    }

    /// The last event id of the stream at this event (the SSE `id` field persists across
    /// events, as `lastEventId` does), or `None` while it is empty.
    pub fn id(&self) -> Option<&'a str> {
        self.id
    }

    /// The reconnection time in milliseconds most recently set by an SSE `retry` field, at or
    /// before this event, or `None` if no valid `retry` field was seen yet.
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Zero-based byte offset in the input stream (counting a BOM) where this event starts: the
    /// start of its first line (for SSE, comments and ignored fields included).
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

/// Where a decoder is in its life. Any error returned by `push` or `finish` moves it to
/// `Failed`; a successful `finish` moves it to `Finished`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Life {
    /// Accepting input.
    #[default]
    Open,
    /// `finish()` returned `Ok`.
    Finished,
    /// `push()` or `finish()` returned an error; the decoder is poisoned.
    Failed,
}

impl Life {
    /// `Ok` when input is still accepted, otherwise the `FINISHED` error for a call in this state.
    pub(crate) fn check(self) -> Result<()> {
        match self {
            Life::Open => Ok(()),
            Life::Finished => Err(Error::new(
                ErrorCode::Finished,
                "The decoder has finished; call reset() to decode another stream.",
            )),
            Life::Failed => Err(Error::new(
                ErrorCode::Finished,
                "The decoder stopped at an earlier error; call reset() to decode another stream.",
            )),
        }
    }

    /// Records the outcome of a `push` (`finishing == false`) or `finish` call.
    pub(crate) fn settle<T>(&mut self, result: Result<T>, finishing: bool) -> Result<T> {
        *self = match (&result, finishing) {
            (Err(_), _) => Life::Failed,
            (Ok(_), true) => Life::Finished,
            (Ok(_), false) => Life::Open,
        };
        result
    }
}
