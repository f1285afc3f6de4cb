//! The one error type of agentwire, with stable machine-readable codes.

use std::fmt;

/// What kind of failure an [`Error`] reports. The string form ([`ErrorCode::as_str`]) is stable
/// and is what JavaScript sees as `error.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Input was not valid JSON, or not the JSON shape the protocol requires.
    InvalidJson,
    /// Input bytes were not valid UTF-8.
    InvalidUtf8,
    /// One event (or one line) exceeded the configured `maxEventBytes` limit.
    EventTooLarge,
    /// A well-formed value broke a rule of the protocol (a missing required field, a value out
    /// of range, an event out of order in strict mode).
    ProtocolViolation,
    /// A request failed validation; the message names the offending field.
    InvalidRequest,
    /// A builder method was called in a state that does not allow it; nothing was emitted.
    BuilderState,
    /// An option passed to a constructor or method was not understood.
    InvalidOption,
    /// The object was used after it finished with a fatal error, or after it was freed.
    Finished,
    /// The WebAssembly instance behind a JS object trapped (a stack overflow, memory exhausted)
    /// and was discarded: the object can no longer be used; new objects get a fresh instance.
    /// Raised by the package's JS layer only, never by the Rust core.
    InstanceLost,
}

impl ErrorCode {
    /// The stable code string, e.g. `"EVENT_TOO_LARGE"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "INVALID_JSON",
            ErrorCode::InvalidUtf8 => "INVALID_UTF8",
            ErrorCode::EventTooLarge => "EVENT_TOO_LARGE",
            ErrorCode::ProtocolViolation => "PROTOCOL_VIOLATION",
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::BuilderState => "BUILDER_STATE",
            ErrorCode::InvalidOption => "INVALID_OPTION",
            ErrorCode::Finished => "FINISHED",
            ErrorCode::InstanceLost => "INSTANCE_LOST",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An agentwire error: a stable [`ErrorCode`], a full-sentence message, and where it helps the
/// byte offset in the input stream and the name of the offending field.
///
/// Boxed internally so that `Result<T, Error>` stays one pointer wide on hot paths.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<ErrorImpl>,
}

#[derive(Clone, PartialEq, Eq)]
struct ErrorImpl {
    code: ErrorCode,
    message: String,
    offset: Option<u64>,
    /// Whether the message already names the offset (then `Display` does not repeat it).
    offset_named: bool,
    field: Option<String>,
}

impl Error {
    /// A new error with `code` and a human-readable `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            inner: Box::new(ErrorImpl {
                code,
                message: message.into(),
                offset: None,
                offset_named: false,
                field: None,
            }),
        }
    }

    /// The same error, tagged with the zero-based byte offset in the input stream where the
    /// offending event or line starts.
    #[must_use]
    pub fn with_offset(mut self, offset: u64) -> Self {
        self.inner.offset = Some(offset);
        self.inner.offset_named = false;
        self
    }

    /// As [`Error::with_offset`], for a message that already names the offset ("The event
    /// starting at byte 42 …"): `Display` then does not repeat it.
    #[must_use]
    pub(crate) fn with_offset_named(mut self, offset: u64) -> Self {
        self.inner.offset = Some(offset);
        self.inner.offset_named = true;
        self
    }

    /// The same error, tagged with the path of the offending field (e.g. `input.0.content`).
    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.inner.field = Some(field.into());
        self
    }

    /// The stable code of this error.
    pub fn code(&self) -> ErrorCode {
        self.inner.code
    }

    /// The message, without code or position.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Zero-based byte offset in the input stream where the offending event or line starts,
    /// when known.
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// Dotted path of the offending field (e.g. `input.0.content.1.type`), when known.
    pub fn field(&self) -> Option<&str> {
        self.inner.field.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)?;
        match self.inner.offset {
            Some(offset) if !self.inner.offset_named => write!(f, " at byte {offset}"),
            _ => Ok(()),
        }?;
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.inner.code)
            .field("message", &self.inner.message)
            .field("offset", &self.inner.offset)
            .field("field", &self.inner.field)
            .finish()
    }
}

impl std::error::Error for Error {}

/// `Result` with agentwire's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_includes_offset() {
        let e = Error::new(ErrorCode::EventTooLarge, "event exceeds 16 bytes").with_offset(42);
        assert_eq!(e.to_string(), "event exceeds 16 bytes at byte 42");
        assert_eq!(e.code().as_str(), "EVENT_TOO_LARGE");
    }

    #[test]
    fn an_offset_the_message_names_is_not_repeated() {
        let e = Error::new(
            ErrorCode::EventTooLarge,
            "The event starting at byte 7 is large.",
        )
        .with_offset_named(7);
        assert_eq!(e.to_string(), "The event starting at byte 7 is large.");
        assert_eq!(e.offset(), Some(7));
    }

    #[test]
    fn result_is_pointer_sized() {
        assert_eq!(
            std::mem::size_of::<Result<()>>(),
            std::mem::size_of::<usize>()
        );
    }
}
