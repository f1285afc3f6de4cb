//! [`Format`]: the framing of a stream, and its HTTP content type.

/// The `Content-Type` of an SSE stream.
pub const SSE_CONTENT_TYPE: &str = "text/event-stream; charset=utf-8";

/// The `Content-Type` of an NDJSON stream.
pub const NDJSON_CONTENT_TYPE: &str = "application/x-ndjson";

/// How a byte stream is framed into events.
///
/// # Example
///
/// ```
/// use agentwire::codec::Format;
///
/// assert_eq!(Format::Sse.content_type(), Some("text/event-stream; charset=utf-8"));
/// assert_eq!(Format::Ndjson.as_str(), "ndjson");
/// assert_eq!(Format::Auto.content_type(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Format {
    /// Decide from the first bytes of the stream (see
    /// [`FrameDecoder`](super::FrameDecoder)). As a detection result: not decided yet.
    #[default]
    Auto,
    /// Server-Sent Events (`text/event-stream`).
    Sse,
    /// Newline-delimited JSON (`application/x-ndjson`).
    Ndjson,
}

impl Format {
    /// The name the JS API uses: `"auto"`, `"sse"` or `"ndjson"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Sse => "sse",
            Format::Ndjson => "ndjson",
        }
    }

    /// The HTTP `Content-Type` of a stream in this format; `None` for [`Format::Auto`].
    pub const fn content_type(self) -> Option<&'static str> {
        match self {
            Format::Auto => None,
            Format::Sse => Some(SSE_CONTENT_TYPE),
            Format::Ndjson => Some(NDJSON_CONTENT_TYPE),
        }
    }
}
