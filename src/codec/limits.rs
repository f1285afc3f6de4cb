//! Resource limits of the decoders: a validated newtype with builder-style setters.

use crate::{Error, ErrorCode, Result};

/// The default for [`Limits::max_event_bytes`]: 16 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// Resource limits of a decoder. Built with [`Limits::new`] (or `Default`) and adjusted with
/// the checking `with_*` methods, so a `Limits` value is always valid.
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
}

impl Limits {
    /// Limits with every default ([`DEFAULT_MAX_EVENT_BYTES`]).
    pub const fn new() -> Self {
        Limits {
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
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
        })
    }

    /// The largest number of input bytes one event may span.
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
