//! Resource limits of the decoders: a validated newtype with builder-style setters.

use crate::{Error, ErrorCode, Result};

/// The default for [`Limits::max_event_bytes`]: 16 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// Resource limits of a decoder. Built with [`Limits::new`] (or `Default`) and adjusted with
/// the checking `with_*` methods, so a `Limits` value is always valid.
///
/// The default event limit grows with the stream: an event may be as large as
/// [`DEFAULT_MAX_EVENT_BYTES`] or as everything the stream carried before it, whichever is more.
/// A stream's final events repeat what it already carried (a completed part holds every delta's
/// text, the final response every message), so agentwire reads the streams it writes however
/// long they are, and the buffered event never exceeds the input read so far. A limit set with
/// [`Limits::with_max_event_bytes`] is kept exactly.
///
/// # Example
///
/// ```
/// use agentwire::codec::{Format, FrameDecoder, Limits};
/// use agentwire::ErrorCode;
///
/// let limits = Limits::new().with_max_event_bytes(8)?;
/// let mut decoder = FrameDecoder::new(Format::Sse).with_limits(limits);
/// // 10 bytes of one event, split over two chunks: over the limit of 8.
/// decoder.push(b"data:", |_| Ok(()))?;
/// let err = decoder.push(b" 1234", |_| Ok(())).unwrap_err();
/// assert_eq!(err.code(), ErrorCode::EventTooLarge);
/// assert_eq!(err.offset(), Some(0));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    max_event_bytes: usize,
    /// Whether the event limit grows with the stream (the default, not set explicitly).
    grows: bool,
}

impl Limits {
    /// Limits with every default: events up to [`DEFAULT_MAX_EVENT_BYTES`] or the size of the
    /// stream before them, whichever is more.
    pub const fn new() -> Self {
        Limits {
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            grows: true,
        }
    }

    /// The same limits with `max_event_bytes` set to `bytes`.
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` when `bytes` is 0.
    pub fn with_max_event_bytes(self, bytes: usize) -> Result<Self> {
        if bytes == 0 {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                "maxEventBytes must be at least 1.",
            ));
        }
        Ok(Limits {
            max_event_bytes: bytes,
            grows: false,
        })
    }

    /// Whether the event limit grows with the stream (it was not set explicitly).
    pub const fn grows(&self) -> bool {
        self.grows
    }

    /// The largest number of input bytes an event starting at byte `start` of the stream may
    /// span: [`Limits::max_event_bytes`], or with the default limit `start` when that is more
    /// (see the type's docs).
    pub fn max_event_bytes_at(&self, start: u64) -> u64 {
        let max = self.max_event_bytes as u64;
        if self.grows {
            max.max(start)
        } else {
            max
        }
    }

    /// The largest number of input bytes one event may span (for the default limit, at the
    /// start of a stream: see [`Limits::max_event_bytes_at`]).
    ///
    /// For SSE this counts every byte from the start of the event's first line (comments and
    /// ignored fields included) to the end of its last line's content, line terminators between
    /// its lines included, the blank line that dispatches it excluded. For NDJSON it counts the
    /// bytes of one line without its line terminator. A decoder reports `EVENT_TOO_LARGE` as soon
    /// as it has seen more bytes than this, so it never buffers more.
    pub const fn max_event_bytes(&self) -> usize {
        self.max_event_bytes
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_16_mib() {
        assert_eq!(Limits::default().max_event_bytes(), 16 * 1024 * 1024);
    }

    #[test]
    fn the_default_grows_with_the_stream_an_explicit_limit_does_not() {
        let default = Limits::new();
        assert!(default.grows());
        assert_eq!(default.max_event_bytes_at(0), 16 * 1024 * 1024);
        assert_eq!(default.max_event_bytes_at(40 << 20), 40 << 20);
        let set = Limits::new()
            .with_max_event_bytes(16 * 1024 * 1024)
            .unwrap();
        assert!(!set.grows());
        assert_eq!(set.max_event_bytes_at(40 << 20), 16 * 1024 * 1024);
    }

    #[test]
    fn zero_is_rejected() {
        let err = Limits::new().with_max_event_bytes(0).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidOption);
        assert_eq!(
            Limits::new()
                .with_max_event_bytes(1)
                .unwrap()
                .max_event_bytes(),
            1
        );
    }
}
