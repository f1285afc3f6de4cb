//! `fromText`: the reference's `ResponseBuilder.generate_streaming_response(text_tokens, role)`
//! event sequence (`reference/agentscope-protocol.md` §3.3), step by step for async sources.
//!
//! The sequence: response `created`, response `in_progress`, message `in_progress`
//! (`content: null`), one text delta per token (index 0), the text part `completed` (whole
//! text; `null` when there were no tokens), the message `completed`, the response `completed`
//! (`output` holding the message). Differences from the reference: `sequence_number` is set
//! (the reference builder leaves it null), and a given `response_id` is kept (the reference's
//! `reset()` discards it).

use crate::protocol::ContentType;
use crate::{Error, ErrorCode, Result};

use super::options::{BuilderOptions, CompleteOptions, MessageOptions};
use super::response::ResponseBuilder;
use super::state::ContentHandle;

/// A `fromText` stream in progress: [`begin`](TextStream::begin), one
/// [`token`](TextStream::token) per token, then [`finish`](TextStream::finish) (or
/// [`builder_mut`](TextStream::builder_mut)`.failed(…)` when the token source fails).
///
/// # Example
///
/// ```
/// use agentwire::builder::{BuilderOptions, MessageOptions, ResponseBuilder, TextStream};
///
/// let rb = ResponseBuilder::new(BuilderOptions::new())?;
/// let (mut ts, mut body) = TextStream::begin(rb, MessageOptions::new())?;
/// for token in ["Hel", "lo"] {
///     body.extend(ts.token(token)?);
/// }
/// body.extend(ts.finish()?);
/// assert_eq!(String::from_utf8(body).unwrap().matches("data: ").count(), 8);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct TextStream {
    builder: ResponseBuilder,
    content: ContentHandle,
}

impl TextStream {
    /// Emits `created`, `in_progress` and the message's start event; `message` sets the role
    /// (the reference's `role` argument) and the id.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if `builder` already emitted events.
    pub fn begin(mut builder: ResponseBuilder, message: MessageOptions) -> Result<(Self, Vec<u8>)> {
        let (content, out) = builder.begin_text(message)?;
        Ok((TextStream { builder, content }, out))
    }

    /// Emits one token as a text delta.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` after [`finish`](Self::finish).
    pub fn token(&mut self, token: &str) -> Result<Vec<u8>> {
        self.builder.delta_text(self.content, token)
    }

    /// Emits the part's and the message's completed events and the response's.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if called twice.
    pub fn finish(&mut self) -> Result<Vec<u8>> {
        self.builder.finish_text(self.content)
    }

    /// The builder (e.g. to read the final response).
    pub fn builder(&self) -> &ResponseBuilder {
        &self.builder
    }

    /// The builder, to end the stream otherwise (`failed`, `canceled`).
    pub fn builder_mut(&mut self) -> &mut ResponseBuilder {
        &mut self.builder
    }
}

impl ResponseBuilder {
    /// The opening of a `fromText` stream: `created`, `in_progress` and the start of a message
    /// (`message` sets its role and id), whose text part is returned; one
    /// [`delta_text`](Self::delta_text) per token follows, then
    /// [`finish_text`](Self::finish_text). [`TextStream`] drives the same steps.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the builder already emitted events.
    pub fn begin_text(&mut self, message: MessageOptions) -> Result<(ContentHandle, Vec<u8>)> {
        if self.next_sequence_number() != 0 {
            return Err(Error::new(
                ErrorCode::BuilderState,
                "fromText needs a ResponseBuilder that has not emitted anything yet.",
            ));
        }
        // The message first: options it refuses leave the builder untouched. Starting it emits
        // `created` and `in_progress` before its own start event.
        let m = self.message(message)?;
        let out = self.start_message(m)?;
        let content = self.content(m, ContentType::Text)?;
        Ok((content, out))
    }

    /// The end of a `fromText` stream: the text part's, the message's and the response's
    /// completed events.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the stream already ended.
    pub fn finish_text(&mut self, content: ContentHandle) -> Result<Vec<u8>> {
        self.check_live()?;
        let mut out = self.complete_content(content)?;
        out.extend(self.complete_message(content.message())?);
        out.extend(self.completed(CompleteOptions::new())?);
        Ok(out)
    }

    /// The whole `fromText` stream for `tokens` at once (see [`TextStream`]).
    ///
    /// # Errors
    ///
    /// As [`ResponseBuilder::new`].
    ///
    /// # Example
    ///
    /// ```
    /// use agentwire::builder::{BuilderOptions, ResponseBuilder};
    ///
    /// let body = ResponseBuilder::from_text(BuilderOptions::new(), ["Hel", "lo"])?;
    /// assert!(String::from_utf8(body).unwrap().contains(r#""status":"completed","error":null,"type":"text","index":0,"delta":false"#));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_text<I, S>(options: BuilderOptions, tokens: I) -> Result<Vec<u8>>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let (mut ts, mut out) =
            TextStream::begin(ResponseBuilder::new(options)?, MessageOptions::new())?;
        for t in tokens {
            out.extend(ts.token(t.as_ref())?);
        }
        out.extend(ts.finish()?);
        Ok(out)
    }
}
