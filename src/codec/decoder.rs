//! [`FrameDecoder`]: one decoder for SSE, NDJSON, or either by detection.

use super::detect::{Detection, Detector};
use super::frame::{Frame, Life};
use super::limits::Limits;
use super::ndjson::NdjsonDecoder;
use super::sse::SseDecoder;
use super::Format;
use crate::{Error, ErrorCode, Result};

/// The framing decoder of the stream assembler: bytes in, [`Frame`]s out through a callback
/// callback, for SSE ([`SseDecoder`]), NDJSON ([`NdjsonDecoder`]), or either, detected from
/// the first bytes ([`Format::Auto`]).
///
/// Detection skips one leading UTF-8 BOM and any spaces, tabs, CRs and LFs; if the next byte
/// is `{` or `[` the stream is NDJSON, otherwise SSE (`data:`, `event:`, `id:`, `retry:`, a
/// `:` comment…). Until that byte arrives the input is held back (however small the chunks);
/// then all of it is decoded in the detected format. [`format`](FrameDecoder::format) tells
/// which one, and stays [`Format::Auto`] while undecided.
///
/// # Example
///
/// ```
/// use agentwire::codec::{Format, Frame, FrameDecoder};
///
/// let mut decoder = FrameDecoder::new(Format::Auto);
/// let mut payloads = Vec::new();
/// let mut on_frame = |frame: Frame<'_>| {
///     payloads.push(frame.data().to_owned());
///     Ok(())
/// };
/// decoder.push(b"d", &mut on_frame)?; // one byte is enough to tell SSE from NDJSON
/// assert_eq!(decoder.format(), Format::Sse);
/// decoder.push(b"ata: {\"object\":\"response\"}\r\n\r\nda", &mut on_frame)?;
/// decoder.push(b"ta: {\"object\":\"message\"}\r\n\r\n", &mut on_frame)?;
/// decoder.finish(&mut on_frame)?;
/// assert_eq!(payloads, ["{\"object\":\"response\"}", "{\"object\":\"message\"}"]);
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Note
///
/// Error policy, the same for every decoder: an error returned by `push` or `finish` (bad
/// UTF-8, an event over [`Limits::max_event_bytes`], or the callback's own error) is fatal. Events
/// completed before the failing point, in the same chunk too, have already been delivered.
/// Afterwards the decoder is poisoned: every call returns a `FINISHED` error until
/// [`reset`](FrameDecoder::reset). `push` after a successful `finish` is also `FINISHED`.
///
/// With [`Format::Auto`], a stream that opens with more than `max_event_bytes` bytes of
/// whitespace fails with `EVENT_TOO_LARGE` at offset 0; one that ends before any significant
/// byte yields no frames and its format stays `Auto`.
#[derive(Debug, Clone)]
pub struct FrameDecoder {
    requested: Format,
    limits: Limits,
    inner: Inner,
}

#[derive(Debug, Clone)]
enum Inner {
    /// Format not known yet: the input so far (a BOM and whitespace only) is held back.
    Detecting {
        detector: Detector,
        held: Vec<u8>,
        life: Life,
    },
    /// Format known.
    Decided(Decided),
}

/// A decoder of a known format.
#[derive(Debug, Clone)]
enum Decided {
    Sse(SseDecoder),
    Ndjson(NdjsonDecoder),
}

impl FrameDecoder {
    /// A decoder for `format` ([`Format::Auto`] detects it), with default [`Limits`].
    pub fn new(format: Format) -> Self {
        FrameDecoder {
            requested: format,
            limits: Limits::new(),
            inner: Inner::start(format, Limits::new()),
        }
    }

    /// The same decoder with `limits`; call it before the first [`push`](FrameDecoder::push).
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Self {
        FrameDecoder {
            requested: self.requested,
            limits,
            inner: Inner::start(self.requested, limits),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The format being decoded: the one requested, or the detected one, or [`Format::Auto`]
    /// while detection has not decided yet.
    pub fn format(&self) -> Format {
        match &self.inner {
            Inner::Detecting { .. } => Format::Auto,
            Inner::Decided(Decided::Sse(_)) => Format::Sse,
            Inner::Decided(Decided::Ndjson(_)) => Format::Ndjson,
        }
    }

    /// Decodes `chunk`, calling `on_frame` once per event, in stream order. `chunk` may end
    /// anywhere, even inside a UTF-8 character or between the CR and LF of a CRLF.
    ///
    /// # Errors
    ///
    /// - `INVALID_UTF8`: a payload (or SSE `event`/`id` value) is not UTF-8; the offset is
    ///   where its line starts.
    /// - `EVENT_TOO_LARGE`: an event spans more than [`Limits::max_event_bytes_at`]; raised as soon
    ///   as that is known, with the offset where the event starts.
    /// - The callback's error, returned as is.
    /// - `FINISHED`: the decoder has finished or failed before.
    ///
    /// See the type's `# Note` for what an error leaves behind.
    pub fn push<F>(&mut self, chunk: &[u8], mut on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        let max = self.limits.max_event_bytes() as u64;
        let (format, held) = match &mut self.inner {
            Inner::Decided(d) => return d.push(chunk, &mut on_frame),
            Inner::Detecting {
                detector,
                held,
                life,
            } => {
                life.check()?;
                match detector.scan(chunk) {
                    Detection::Decided(_, prefix) if prefix > max => {
                        return life.settle(Err(prefix_too_large(max)), false);
                    }
                    Detection::Decided(format, _) => (format, std::mem::take(held)),
                    Detection::Undecided if detector.skipped() > max => {
                        return life.settle(Err(prefix_too_large(max)), false);
                    }
                    Detection::Undecided => {
                        held.extend_from_slice(chunk);
                        return Ok(());
                    }
                }
            }
        };
        let mut decided = Decided::start(format, self.limits);
        let mut result = decided.push(&held, &mut on_frame);
        if result.is_ok() {
            result = decided.push(chunk, &mut on_frame);
        }
        self.inner = Inner::Decided(decided);
        result
    }

    /// Ends the input: flushes the last line and the last event (for SSE even without a
    /// closing blank line), then releases the buffers.
    ///
    /// # Errors
    ///
    /// As for [`push`](FrameDecoder::push).
    pub fn finish<F>(&mut self, on_frame: F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        match &mut self.inner {
            Inner::Decided(Decided::Sse(d)) => d.finish(on_frame),
            Inner::Decided(Decided::Ndjson(d)) => d.finish(on_frame),
            Inner::Detecting { held, life, .. } => {
                life.check()?;
                *held = Vec::new();
                life.settle(Ok(()), true)
            }
        }
    }

    /// The connection broke and the stream continues on a new one (a resumed stream): drops
    /// the half-received event, keeping the format, the last event id and the offsets.
    pub fn drop_partial(&mut self) {
        match &mut self.inner {
            Inner::Decided(Decided::Sse(d)) => d.drop_partial(),
            Inner::Decided(Decided::Ndjson(d)) => d.drop_partial(),
            Inner::Detecting { held, .. } => held.clear(),
        }
    }

    /// Forgets the stream and accepts a new one, with the same requested format and limits
    /// (detection starts over). This also clears a poisoned decoder.
    pub fn reset(&mut self) {
        self.inner = Inner::start(self.requested, self.limits);
    }

    /// The SSE last event id (what a reconnecting client sends as `Last-Event-ID`), or `None`
    /// while it is empty or the stream is not SSE.
    pub fn last_event_id(&self) -> Option<&str> {
        match &self.inner {
            Inner::Decided(Decided::Sse(d)) => Some(d.last_event_id()).filter(|id| !id.is_empty()),
            Inner::Decided(Decided::Ndjson(_)) | Inner::Detecting { .. } => None,
        }
    }

    /// The SSE reconnection time in milliseconds set by the last valid `retry` field, if any.
    pub fn retry(&self) -> Option<u64> {
        match &self.inner {
            Inner::Decided(Decided::Sse(d)) => d.retry(),
            Inner::Decided(Decided::Ndjson(_)) | Inner::Detecting { .. } => None,
        }
    }

    /// How many SSE comment lines (e.g. `: ping` heartbeats) have been seen so far.
    pub fn comments(&self) -> u64 {
        match &self.inner {
            Inner::Decided(Decided::Sse(d)) => d.comments(),
            Inner::Decided(Decided::Ndjson(_)) | Inner::Detecting { .. } => 0,
        }
    }
}

impl Inner {
    fn start(format: Format, limits: Limits) -> Self {
        match format {
            Format::Sse | Format::Ndjson => Inner::Decided(Decided::start(format, limits)),
            Format::Auto => Inner::Detecting {
                detector: Detector::default(),
                held: Vec::new(),
                life: Life::Open,
            },
        }
    }
}

impl Decided {
    /// A decoder for `format`; [`Format::Auto`] cannot happen here and falls back to SSE.
    fn start(format: Format, limits: Limits) -> Self {
        match format {
            Format::Ndjson => Decided::Ndjson(NdjsonDecoder::new().with_limits(limits)),
            Format::Sse | Format::Auto => Decided::Sse(SseDecoder::new().with_limits(limits)),
        }
    }

    fn push<F>(&mut self, chunk: &[u8], on_frame: &mut F) -> Result<()>
    where
        F: FnMut(Frame<'_>) -> Result<()>,
    {
        match self {
            Decided::Sse(d) => d.push(chunk, on_frame),
            Decided::Ndjson(d) => d.push(chunk, on_frame),
        }
    }
}

fn prefix_too_large(max: u64) -> Error {
    Error::new(
        ErrorCode::EventTooLarge,
        format!("The stream opens with more than maxEventBytes ({max} bytes) of whitespace; its format cannot be detected."),
    )
    .with_offset(0)
}

#[cfg(test)]
#[path = "decoder_tests.rs"]
mod tests;
