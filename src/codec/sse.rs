//! The Server-Sent Events decoder: a byte-level state machine that follows the WHATWG rules.
//!
//! See the HTML standard, §9.2.6 "Interpreting an event stream":
//! <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>.

use memchr::{memchr, memchr2};

use super::frame::{Frame, Life};
use super::limits::Limits;
use super::utf8::{self, BomStripper};
use crate::{Error, ErrorCode, Result};

/// A streaming Server-Sent Events decoder: bytes in, [`Frame`]s out through a callback callback.
///
/// It follows the WHATWG event-stream rules completely: lines end with LF, CR or CRLF (a CRLF
/// split across chunks counts once); one leading UTF-8 BOM is dropped; `:` lines are comments
/// (counted by [`comments`](SseDecoder::comments), otherwise ignored); one space after the
/// colon is removed; a line without a colon is a field name with an empty value; `data` lines
/// are joined with `"\n"`; an empty `event` means `"message"`; an `id` containing NUL is
/// ignored and the last event id persists across events; `retry` must be ASCII digits; unknown
/// fields are ignored; a blank line dispatches the event unless its data buffer is empty.
/// See <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>.
///
/// # Example
///
/// ```
/// use agentwire::codec::SseDecoder;
///
/// let mut decoder = SseDecoder::new();
/// let mut seen = Vec::new();
/// let mut on_frame = |frame: agentwire::codec::Frame<'_>| {
///     seen.push((frame.event().to_owned(), frame.data().to_owned(), frame.offset()));
///     Ok(())
/// };
/// // The input is split mid-line, mid-CRLF and inside the two bytes of "é".
/// decoder.push(b"event: greet\r\ndata: caf\xC3", &mut on_frame)?;
/// decoder.push(b"\xA9\r", &mut on_frame)?;
/// decoder.push(b"\n\r\ndata: {\"n\":1}", &mut on_frame)?;
/// decoder.finish(&mut on_frame)?; // delivers the last event, which has no blank line after it
/// assert_eq!(seen, [
///     ("greet".to_owned(), "café".to_owned(), 0),
///     ("message".to_owned(), "{\"n\":1}".to_owned(), 29),
/// ]);
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Note
///
/// At [`finish`](SseDecoder::finish) a pending event is dispatched even without a closing
/// blank line. A browser `EventSource` discards it; agentwire delivers it on purpose, because
/// real servers end their streams that way and clients that drop it lose the final event.
///
/// Where the spec decodes with U+FFFD replacement, agentwire reports invalid UTF-8 in a value it
/// uses (`data`, `event`, `id`) as `INVALID_UTF8`; comments and ignored fields are not checked.
///
/// Errors: see [`push`](SseDecoder::push). Any error poisons the decoder: later calls return a
/// `FINISHED` error until [`reset`](SseDecoder::reset).
#[derive(Debug, Clone)]
pub struct SseDecoder {
    limits: Limits,
    life: Life,
    bom: BomStripper,
    /// Stream offset of the next byte to process.
    offset: u64,
    /// The bytes of an unterminated line carried over from earlier chunks.
    line: Vec<u8>,
    /// Stream offset where `line` starts (meaningful while `line` is not empty).
    line_start: u64,
    /// The previous byte was a CR that ended a line: a LF right after it belongs to it.
    after_cr: bool,
    /// Stream offset of the first line of the event being read, once it has one.
    event_start: Option<u64>,
    /// The data buffer: each `data` value followed by `"\n"`.
    data: String,
    /// The event type buffer.
    event_type: String,
    /// The last event id buffer (persists across events).
    last_event_id: String,
    /// The reconnection time set by the last valid `retry` field.
    retry: Option<u64>,
    /// Comment lines seen.
    comments: u64,
    /// Bytes examined, to prove linear time in tests.
    #[cfg(test)]
    work: u64,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder::new()
    }
}

impl SseDecoder {
    /// A decoder with default [`Limits`].
    pub fn new() -> Self {
        SseDecoder {
            limits: Limits::new(),
            life: Life::Open,
            bom: BomStripper::default(),
            offset: 0,
            line: Vec::new(),
            line_start: 0,
            after_cr: false,
            event_start: None,
            data: String::new(),
            event_type: String::new(),
            last_event_id: String::new(),
            retry: None,
            comments: 0,
            #[cfg(test)]
            work: 0,
        }
    }

    /// The same decoder with `limits`; call it before the first [`push`](SseDecoder::push).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Decodes `chunk`, calling `on_frame` once per dispatched event, in stream order. `chunk` may
    /// end anywhere: inside a line, between the CR and LF of a CRLF, inside a UTF-8 character.
    ///
    /// # Errors
    ///
    /// - `INVALID_UTF8` when a `data`, `event` or `id` value is not UTF-8; the offset is where
    ///   its line starts. Comments and ignored fields are not checked.
    /// - `EVENT_TOO_LARGE` as soon as the event being read spans more than
    ///   [`Limits::max_event_bytes_at`]; the offset is where the event starts.
    /// - Whatever `on_frame` returns; decoding stops there.
    /// - `FINISHED` after [`finish`](SseDecoder::finish) or after an earlier error.
    ///
    /// Events completed in `chunk` before the failing point have been delivered to `on_frame`.
    /// Any error poisons the decoder.
    pub fn push<F>(&mut self, chunk: &[u8], mut on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        self.life.check()?;
        let result = self.push_bytes(chunk, &mut on_frame);
        self.life.settle(result, false)
    }

    /// Ends the input: the last line is processed even without a line terminator, and the
    /// pending event is dispatched even without a blank line (see the type's `# Note`). Then the
    /// decoder releases its buffers; [`last_event_id`](SseDecoder::last_event_id) and
    /// [`retry`](SseDecoder::retry) stay readable.
    ///
    /// # Errors
    ///
    /// As for [`push`](SseDecoder::push).
    pub fn finish<F>(&mut self, mut on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        self.life.check()?;
        let result = self.finish_bytes(&mut on_frame);
        self.line = Vec::new();
        self.data = String::new();
        self.event_type = String::new();
        self.life.settle(result, true)
    }

    /// The connection broke and the stream continues on a new one (a resumed stream): drops
    /// the half-received line and event, keeps the last event id, the retry time and the
    /// offsets, and reads a BOM again at the start of the new bytes.
    pub fn drop_partial(&mut self) {
        self.line.clear();
        self.after_cr = false;
        self.event_start = None;
        self.data.clear();
        self.event_type.clear();
        self.bom = BomStripper::default();
    }

    /// Forgets the stream (including the last event id and retry) and accepts a new one, with
    /// the same limits. This also clears a poisoned decoder.
    pub fn reset(&mut self) {
        *self = SseDecoder::new().with_limits(self.limits);
    }

    /// The last event id buffer: what a reconnecting client sends as `Last-Event-ID`. Empty
    /// until an `id` field sets it.
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// The reconnection time in milliseconds set by the last valid `retry` field, if any.
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// How many comment lines (`:` lines, e.g. heartbeats) have been seen so far.
    pub fn comments(&self) -> u64 {
        self.comments
    }

    /// Bytes examined so far (test builds only), to check that the work is linear.
    #[cfg(test)]
    pub(crate) fn work(&self) -> u64 {
        self.work
    }

    #[inline]
    fn tally(&mut self, _bytes: usize) {
        #[cfg(test)]
        {
            self.work += _bytes as u64;
        }
    }

    fn push_bytes<F>(&mut self, chunk: &[u8], on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let stripped = self.bom.strip(chunk);
        self.offset += stripped.dropped;
        if !stripped.replay.is_empty() {
            self.feed(stripped.replay, on_frame)?;
        }
        self.feed(stripped.rest, on_frame)
    }

    fn finish_bytes<F>(&mut self, on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let held = self.bom.finish();
        if !held.is_empty() {
            self.feed(held, on_frame)?;
        }
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, self.line_start, on_frame)?;
        }
        self.after_cr = false;
        self.dispatch(on_frame)
    }

    /// Splits `bytes` into lines; complete lines are processed, the tail is kept in `line`.
    fn feed<F>(&mut self, bytes: &[u8], on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let base = self.offset;
        let mut rest = bytes;
        if self.after_cr {
            if let Some((&first, tail)) = rest.split_first() {
                self.after_cr = false;
                if first == b'\n' {
                    rest = tail;
                }
            }
        }
        while !rest.is_empty() {
            let start = base + (bytes.len() - rest.len()) as u64;
            let Some(at) = memchr2(b'\n', b'\r', rest) else {
                self.tally(rest.len());
                self.keep_partial(rest, start)?;
                break;
            };
            self.tally(at + 1);
            let (content, terminator) = rest.split_at_checked(at).unwrap_or((rest, &[]));
            let mut next = terminator.get(1..).unwrap_or_default();
            if terminator.first() == Some(&b'\r') {
                match next.split_first() {
                    Some((&b'\n', tail)) => next = tail,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            if self.line.is_empty() {
                if let Some(after) = self.single_line_event(content, next, start, on_frame)? {
                    rest = after;
                    continue;
                }
            }
            rest = self.complete_line(content, start, next, on_frame)?;
        }
        self.offset = base + bytes.len() as u64;
        Ok(())
    }

    /// The common event, `data: …` and a blank line, both complete in this chunk and starting
    /// a new event: dispatched straight from the chunk, without copying the line into the
    /// data buffer. `line` starts at stream offset `start`; `next` is what follows its
    /// terminator. Returns what follows the blank line, or `None` (nothing done) when the
    /// event is not of that form.
    fn single_line_event<'c, F>(
        &mut self,
        line: &[u8],
        next: &'c [u8],
        start: u64,
        on_frame: &mut F,
    ) -> Result<Option<&'c [u8]>>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        if self.event_start.is_some() || !self.data.is_empty() {
            return Ok(None);
        }
        let Some((b"data", value, value_at)) = split_field(line) else {
            return Ok(None);
        };
        let after = match next {
            [b'\n', after @ ..] => after,
            [b'\r', b'\n', after @ ..] => after,
            [b'\r'] => {
                self.after_cr = true;
                &[]
            }
            [b'\r', after @ ..] => after,
            _ => return Ok(None),
        };
        self.tally(line.len() + 1);
        self.check_size(start, start + line.len() as u64)?;
        let frame = Frame {
            data: utf8::check(value, start, value_at)?,
            event: "message",
            id: (!self.last_event_id.is_empty()).then_some(self.last_event_id.as_str()),
            retry: self.retry,
            offset: start,
        };
        on_frame(frame)?;
        Ok(Some(after))
    }

    /// Keeps the unterminated `tail` (starting at stream offset `start`) for the next chunk.
    fn keep_partial(&mut self, tail: &[u8], start: u64) -> Result<()> {
        if self.line.is_empty() {
            self.line_start = start;
        }
        let end = start + tail.len() as u64;
        self.check_size(self.event_start.unwrap_or(self.line_start), end)?;
        self.tally(tail.len());
        self.line.extend_from_slice(tail);
        Ok(())
    }

    /// Processes a line whose terminator has arrived; `content` is its part in this chunk,
    /// starting at stream offset `start`, after any bytes carried over in `line`; `next` is
    /// what follows its terminator. Returns where to go on: `next`, or past the blank line
    /// when a carried-over `data` line made a whole event with it (dispatched from the line,
    /// as [`SseDecoder::single_line_event`] does, without copying it into the data buffer).
    fn complete_line<'c, F>(
        &mut self,
        content: &[u8],
        start: u64,
        next: &'c [u8],
        on_frame: &mut F,
    ) -> Result<&'c [u8]>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        if self.line.is_empty() {
            return self.process_line(content, start, on_frame).map(|()| next);
        }
        let mut line = std::mem::take(&mut self.line);
        self.tally(content.len());
        line.extend_from_slice(content);
        let result = match self.single_line_event(&line, next, self.line_start, on_frame) {
            Ok(Some(after)) => Ok(after),
            Ok(None) => self
                .process_line(&line, self.line_start, on_frame)
                .map(|()| next),
            Err(error) => Err(error),
        };
        line.clear();
        self.line = line;
        result
    }

    /// Interprets one complete line (without its terminator) starting at stream offset `start`.
    fn process_line<F>(&mut self, line: &[u8], start: u64, on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        if line.is_empty() {
            return self.dispatch(on_frame);
        }
        let event_start = *self.event_start.get_or_insert(start);
        self.check_size(event_start, start + line.len() as u64)?;
        self.tally(line.len());
        let Some((name, value, value_at)) = split_field(line) else {
            self.comments += 1;
            return Ok(());
        };
        match name {
            b"data" => {
                let value = utf8::check(value, start, value_at)?;
                self.data.push_str(value);
                self.data.push('\n');
            }
            b"event" => {
                let value = utf8::check(value, start, value_at)?;
                self.event_type.clear();
                self.event_type.push_str(value);
            }
            b"id" if memchr(0, value).is_none() => {
                let value = utf8::check(value, start, value_at)?;
                self.last_event_id.clear();
                self.last_event_id.push_str(value);
            }
            b"retry" => {
                if let Some(ms) = parse_retry(value) {
                    self.retry = Some(ms);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Handles a blank line (or the end of input): dispatches the event if its data buffer is
    /// not empty, then starts a new event.
    fn dispatch<F>(&mut self, on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let event_start = self.event_start.take();
        if self.data.is_empty() {
            self.event_type.clear();
            return Ok(());
        }
        self.data.pop(); // the "\n" after the last data line
        let frame = Frame {
            data: &self.data,
            event: if self.event_type.is_empty() {
                "message"
            } else {
                &self.event_type
            },
            id: (!self.last_event_id.is_empty()).then_some(self.last_event_id.as_str()),
            retry: self.retry,
            offset: event_start.unwrap_or(self.offset),
        };
        let result = on_frame(frame);
        self.data.clear();
        self.event_type.clear();
        result
    }

    /// `EVENT_TOO_LARGE` if an event starting at `event_start` reaching `end` is over the limit.
    fn check_size(&self, event_start: u64, end: u64) -> Result<()> {
        let max = self.limits.max_event_bytes_at(event_start);
        if end.saturating_sub(event_start) > max {
            return Err(Error::new(
                ErrorCode::EventTooLarge,
                format!("The event starting at byte {event_start} is larger than maxEventBytes ({max} bytes)."),
            )
            .with_offset_named(event_start));
        }
        Ok(())
    }
}

/// A non-empty line as `(field name, value, offset of the value in the line)`: split at the
/// first colon, one space after it dropped; a line without a colon is a name with an empty
/// value. `None` for a comment (a line starting with a colon).
fn split_field(line: &[u8]) -> Option<(&[u8], &[u8], usize)> {
    match memchr(b':', line) {
        Some(0) => None,
        Some(colon) => {
            let (name, rest) = line.split_at_checked(colon).unwrap_or((line, &[]));
            let value = rest.get(1..).unwrap_or_default();
            Some(match value.split_first() {
                Some((&b' ', tail)) => (name, tail, colon + 2),
                _ => (name, value, colon + 1),
            })
        }
        None => Some((line, &[][..], line.len())),
    }
}

/// The value of a `retry` field: ASCII digits only, base ten; anything else (including an
/// empty value or a number too large for `u64`) is ignored.
fn parse_retry(value: &[u8]) -> Option<u64> {
    if value.is_empty() {
        return None;
    }
    value.iter().try_fold(0u64, |acc, &b| {
        if b.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        } else {
            None
        }
    })
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
