//! [`Warning`]: a protocol violation the assembler tolerated (in strict mode, an error instead).

use serde::Serialize;

use crate::{Error, ErrorCode};

/// What kind of violation a [`Warning`] reports. The string form is stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningCode {
    /// Content arrived for a message that was never announced; the message was created.
    UnannouncedMessage,
    /// An event repeated a `sequence_number` already seen (a replay after reconnecting); it was
    /// ignored. Never an error, even in strict mode.
    DuplicateEvent,
    /// `sequence_number`s skipped values: events may have been lost.
    SequenceGap,
    /// A completed value disagreed with what the deltas had assembled; the completed value won.
    ContentMismatch,
    /// An event arrived after the stream's terminal event.
    EventAfterEnd,
    /// An event of a kind this protocol does not define; it was kept but not interpreted.
    UnknownEvent,
    /// An event could not be read (malformed JSON, a field of the wrong type); it was skipped.
    InvalidEvent,
    /// The stream ended without a terminal event; open messages were left open.
    Truncated,
    /// The final response left out a message that never completed.
    UnfinishedMessage,
    /// More warnings than the retention cap; later ones are counted, not kept.
    TooManyWarnings,
    /// A tool call completed with arguments that are not JSON (or nest too deep): it carries
    /// no parsed arguments and must not be run. Never an error, even in strict mode (the call
    /// reports it in its `argumentsError`).
    InvalidArguments,
    /// AG-UI: an event carried properties (or union members) the protocol does not describe;
    /// they were stripped.
    UnknownField,
    /// AG-UI: a retired 0.x shape (`THINKING_*`, a legacy `null`, a `binary` part) was
    /// translated to its 1.0 equivalent.
    DeprecatedShape,
    /// AG-UI: a JSON Patch (`STATE_DELTA`, `ACTIVITY_DELTA`) could not be applied; the document
    /// was left as it was.
    PatchFailed,
    /// AG-UI: the producer declared a newer or unreadable protocol version.
    ProtocolVersion,
    /// AG-UI: an event the verifier accepts named something the reducer could not use (an id
    /// collision, a missing target); it was skipped or adjusted as the client does.
    InconsistentEvent,
    /// Translation: the target protocol has no place for something the source sent (a message
    /// type, a part type, an AG-UI state or snapshot event); reported once per kind, not
    /// carried.
    NotCarried,
}

impl WarningCode {
    /// The stable code string, e.g. `"UNANNOUNCED_MESSAGE"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            WarningCode::UnannouncedMessage => "UNANNOUNCED_MESSAGE",
            WarningCode::DuplicateEvent => "DUPLICATE_EVENT",
            WarningCode::SequenceGap => "SEQUENCE_GAP",
            WarningCode::ContentMismatch => "CONTENT_MISMATCH",
            WarningCode::EventAfterEnd => "EVENT_AFTER_END",
            WarningCode::UnknownEvent => "UNKNOWN_EVENT",
            WarningCode::InvalidEvent => "INVALID_EVENT",
            WarningCode::Truncated => "TRUNCATED",
            WarningCode::UnfinishedMessage => "UNFINISHED_MESSAGE",
            WarningCode::TooManyWarnings => "TOO_MANY_WARNINGS",
            WarningCode::InvalidArguments => "INVALID_ARGUMENTS",
            WarningCode::UnknownField => "UNKNOWN_FIELD",
            WarningCode::DeprecatedShape => "DEPRECATED_SHAPE",
            WarningCode::PatchFailed => "PATCH_FAILED",
            WarningCode::ProtocolVersion => "PROTOCOL_VERSION",
            WarningCode::InconsistentEvent => "INCONSISTENT_EVENT",
            WarningCode::NotCarried => "NOT_CARRIED",
        }
    }
}

impl Serialize for WarningCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A tolerated violation: a stable code, a sentence, and where in the input it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    /// What happened.
    pub code: WarningCode,
    /// A full sentence for humans.
    pub message: String,
    /// Byte offset in the input where the offending event starts, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The offending event's `sequence_number`, when it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_number: Option<i64>,
}

impl Warning {
    /// A warning with no position.
    pub fn new(code: WarningCode, message: impl Into<String>) -> Self {
        Warning {
            code,
            message: message.into(),
            offset: None,
            sequence_number: None,
        }
    }

    /// The error strict mode raises instead of this warning.
    pub fn into_error(self) -> Error {
        let code = match self.code {
            WarningCode::InvalidEvent => ErrorCode::InvalidJson,
            _ => ErrorCode::ProtocolViolation,
        };
        let error = Error::new(code, format!("{} ({})", self.message, self.code.as_str()));
        match self.offset {
            Some(offset) => error.with_offset(offset),
            None => error,
        }
    }
}
