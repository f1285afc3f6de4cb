//! The NDJSON (newline-delimited JSON) decoder: one payload per line.

use memchr::memchr;

use super::frame::{Frame, Life};
use super::limits::Limits;
use super::utf8::{self, BomStripper};
use crate::{Error, ErrorCode, Result};

/// A streaming NDJSON decoder: bytes in, one [`Frame`] per non-blank line out through a callback
/// callback.
///
/// Lines end with LF or CRLF (one CR before the LF, or at the end of input, is dropped). Lines
/// holding only spaces, tabs or CRs are skipped. One leading UTF-8 BOM is dropped. The last
/// line is delivered by [`finish`](NdjsonDecoder::finish) even without a line terminator.
/// Payloads are checked to be UTF-8, not parsed as JSON: that is the caller's job.
///
/// # Example
///
/// ```
/// use agentwire::codec::{Frame, NdjsonDecoder};
///
/// let mut decoder = NdjsonDecoder::new();
/// let mut lines = Vec::new();
/// let mut on_frame = |frame: Frame<'_>| {
///     lines.push((frame.data().to_owned(), frame.offset()));
///     Ok(())
/// };
/// decoder.push(b"{\"a\":1}\r", &mut on_frame)?;
/// decoder.push(b"\n\n{\"b\":\"\xE2\x82", &mut on_frame)?; // split inside "€"
/// decoder.push(b"\xAC\"}", &mut on_frame)?;
/// decoder.finish(&mut on_frame)?; // the last line has no "\n"
/// assert_eq!(lines, [("{\"a\":1}".to_owned(), 0), ("{\"b\":\"€\"}".to_owned(), 10)]);
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Note
///
/// Errors: see [`push`](NdjsonDecoder::push). Any error poisons the decoder: later calls
/// return a `FINISHED` error until [`reset`](NdjsonDecoder::reset).
#[derive(Debug, Clone)]
pub struct NdjsonDecoder {
    limits: Limits,
    life: Life,
    bom: BomStripper,
    /// Stream offset of the next byte to process.
    offset: u64,
    /// The bytes of an unterminated line carried over from earlier chunks.
    line: Vec<u8>,
    /// Stream offset where `line` starts (meaningful while `line` is not empty).
    line_start: u64,
    /// Bytes examined, to prove linear time in tests.
    #[cfg(test)]
    work: u64,
}

impl Default for NdjsonDecoder {
    fn default() -> Self {
        NdjsonDecoder::new()
    }
}

impl NdjsonDecoder {
    /// A decoder with default [`Limits`].
    pub fn new() -> Self {
        NdjsonDecoder {
            limits: Limits::new(),
            life: Life::Open,
            bom: BomStripper::default(),
            offset: 0,
            line: Vec::new(),
            line_start: 0,
            #[cfg(test)]
            work: 0,
        }
    }

    /// The same decoder with `limits`; call it before the first [`push`](NdjsonDecoder::push).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Decodes `chunk`, calling `on_frame` once per complete non-blank line, in stream order.
    /// `chunk` may end anywhere, including inside a UTF-8 character or a CRLF.
    ///
    /// # Errors
    ///
    /// - `INVALID_UTF8` when a line is not UTF-8; the offset is where the line starts.
    /// - `EVENT_TOO_LARGE` as soon as a line (without its terminator) is longer than
    ///   [`Limits::max_event_bytes_at`]; the offset is where the line starts.
    /// - Whatever `on_frame` returns; decoding stops there.
    /// - `FINISHED` after [`finish`](NdjsonDecoder::finish) or after an earlier error.
    ///
    /// Lines completed in `chunk` before the failing point have been delivered to `on_frame`.
    /// Any error poisons the decoder.
    pub fn push<F>(&mut self, chunk: &[u8], mut on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        self.life.check()?;
        let result = self.push_bytes(chunk, &mut on_frame);
        self.life.settle(result, false)
    }

    /// Ends the input: delivers the last line even without a line terminator, then releases
    /// the buffers.
    ///
    /// # Errors
    ///
    /// As for [`push`](NdjsonDecoder::push).
    pub fn finish<F>(&mut self, mut on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        self.life.check()?;
        let result = self.finish_bytes(&mut on_frame);
        self.line = Vec::new();
        self.life.settle(result, true)
    }

    /// The connection broke and the stream continues on a new one: drops the half-received
    /// line, keeps the offsets, and reads a BOM again at the start of the new bytes.
    pub fn drop_partial(&mut self) {
        self.line.clear();
        self.bom = BomStripper::default();
    }

    /// Forgets the stream and accepts a new one, with the same limits (also clears a poisoned
    /// decoder).
    pub fn reset(&mut self) {
        *self = NdjsonDecoder::new().with_limits(self.limits);
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
        if self.line.is_empty() {
            return Ok(());
        }
        let line = std::mem::take(&mut self.line);
        self.emit(&line, self.line_start, on_frame)
    }

    /// Splits `bytes` into lines; complete lines are delivered, the tail is kept in `line`.
    fn feed<F>(&mut self, bytes: &[u8], on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let base = self.offset;
        let mut rest = bytes;
        while !rest.is_empty() {
            let start = base + (bytes.len() - rest.len()) as u64;
            let Some(at) = memchr(b'\n', rest) else {
                self.tally(rest.len());
                self.keep_partial(rest, start)?;
                break;
            };
            self.tally(at + 1);
            let (content, terminator) = rest.split_at_checked(at).unwrap_or((rest, &[]));
            if self.line.is_empty() {
                self.emit(content, start, on_frame)?;
            } else {
                let mut line = std::mem::take(&mut self.line);
                self.tally(content.len());
                line.extend_from_slice(content);
                let result = self.emit(&line, self.line_start, on_frame);
                line.clear();
                self.line = line;
                result?;
            }
            rest = terminator.get(1..).unwrap_or_default();
        }
        self.offset = base + bytes.len() as u64;
        Ok(())
    }

    /// Keeps the unterminated `tail` (starting at stream offset `start`) for the next chunk.
    fn keep_partial(&mut self, tail: &[u8], start: u64) -> Result<()> {
        if self.line.is_empty() {
            self.line_start = start;
        }
        // A CR at the very end may be the first half of a CRLF: it is not counted yet.
        let counted = if tail.last() == Some(&b'\r') {
            tail.len() - 1
        } else {
            tail.len()
        };
        self.check_size(self.line_start, self.line.len() + counted)?;
        self.tally(tail.len());
        self.line.extend_from_slice(tail);
        Ok(())
    }

    /// Delivers one complete line (without its LF) starting at stream offset `start`.
    fn emit<F>(&mut self, line: &[u8], start: u64, on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        self.check_size(start, line.len())?;
        self.tally(line.len());
        if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            return Ok(());
        }
        let data = utf8::check(line, start, 0)?;
        on_frame(Frame {
            data,
            event: "message",
            id: None,
            retry: None,
            offset: start,
        })
    }

    /// `EVENT_TOO_LARGE` if a line of `len` bytes starting at `start` is over the limit.
    fn check_size(&self, start: u64, len: usize) -> Result<()> {
        let max = self.limits.max_event_bytes_at(start);
        if len as u64 > max {
            return Err(Error::new(
                ErrorCode::EventTooLarge,
                format!(
                    "The line starting at byte {start} is longer than maxEventBytes ({max} bytes)."
                ),
            )
            .with_offset_named(start));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "ndjson_tests.rs"]
mod tests;
