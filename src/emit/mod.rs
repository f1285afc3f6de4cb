//! The seam between a run's events and the bytes of a wire protocol: a producer (the
//! [`ResponseBuilder`](crate::builder::ResponseBuilder), or a [`Translator`]'s decoder) hands
//! each [`BuilderEvent`] (an Agent API event, deltas as borrowed views) to an [`Encoder`], which
//! writes it as framed bytes.
//!
//! [`AgentApiEncoder`] writes the Agent API itself (`model_dump_json()` bytes in SSE or NDJSON);
//! each other wire protocol's module has its own encoder (`AgUiEncoder`, `ResponsesEncoder`,
//! `A2aEncoder`), keeping whatever per-stream state it needs.
//!
//! [`Translator`]: crate::translate::Translator

mod ids;
pub(crate) mod track;

pub use ids::EventIds;

use serde::Serialize;
use serde_json::ser::Serializer;

use crate::codec::write::{string, uint};
use crate::codec::Format;
use crate::protocol::json::{PydanticFormatter, Wire};
use crate::protocol::{AgentResponse, Content, ContentType, Event, JsonMap, JsonOptions, Message};
use crate::{Error, ErrorCode, Result};

/// One event caused by a builder call, handed to an [`Encoder`].
///
/// Whole events borrow the builder's own models, with `sequence_number` already set. Deltas,
/// the hot path, are light views, so that an encoder can write them without building a model.
/// [`BuilderEvent::to_event`] materialises any of them as a [`protocol::Event`](Event).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum BuilderEvent<'a> {
    /// A run-level event: `created`, `in_progress`, or a terminal `completed` / `failed` /
    /// `canceled` (the model's `status` says which).
    Response(&'a AgentResponse),
    /// A message started: status `in_progress`, `content: null`.
    MessageStarted(&'a Message),
    /// A message completed: status `completed`, with all its content parts.
    MessageCompleted(&'a Message),
    /// A content part's whole current value (`set()`): status `in_progress`, `delta: false`.
    ContentSnapshot(&'a Content),
    /// A content part completed: status `completed`, `delta: false`, the whole value.
    ContentCompleted(&'a Content),
    /// A string appended to a text or refusal part: status `in_progress`, `delta: true`.
    TextDelta(TextDelta<'a>),
    /// A partial object deep-merged into a data part: status `in_progress`, `delta: true`.
    DataDelta(DataDelta<'a>),
}

/// A text (or refusal) delta: `{"object":"content","status":"in_progress","type":"text",
/// "index":…,"delta":true,"msg_id":…,"text":<piece>}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextDelta<'a> {
    /// The event's `sequence_number`.
    pub sequence_number: u64,
    /// The parent message's id.
    pub msg_id: &'a str,
    /// The part's position in the message.
    pub index: u32,
    /// [`ContentType::Text`] or [`ContentType::Refusal`]; the field carrying `text` is named
    /// after it (`text` or `refusal`).
    pub content_type: ContentType,
    /// The appended piece.
    pub text: &'a str,
}

/// A data delta: `{"object":"content","status":"in_progress","type":"data","index":…,
/// "delta":true,"msg_id":…,"data":<partial object>}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataDelta<'a> {
    /// The event's `sequence_number`.
    pub sequence_number: u64,
    /// The parent message's id.
    pub msg_id: &'a str,
    /// The part's position in the message.
    pub index: u32,
    /// The partial object, merged with the builder rule
    /// ([`merge_data_into`](crate::protocol::merge_data_into)).
    pub data: &'a JsonMap,
}

impl BuilderEvent<'_> {
    /// The event's `sequence_number` (`None` only if a whole model was handed over without
    /// one, which the builder never does).
    pub fn sequence_number(&self) -> Option<u64> {
        let n = match self {
            BuilderEvent::Response(r) => r.sequence_number,
            BuilderEvent::MessageStarted(m) | BuilderEvent::MessageCompleted(m) => {
                m.sequence_number
            }
            BuilderEvent::ContentSnapshot(c) | BuilderEvent::ContentCompleted(c) => {
                c.sequence_number
            }
            BuilderEvent::TextDelta(d) => return Some(d.sequence_number),
            BuilderEvent::DataDelta(d) => return Some(d.sequence_number),
        };
        n.and_then(|n| u64::try_from(n).ok())
    }

    /// The same event as an owned Agent API [`Event`] (clones the borrowed model).
    pub fn to_event(&self) -> Event {
        match self {
            BuilderEvent::Response(r) => Event::Response((*r).clone()),
            BuilderEvent::MessageStarted(m) | BuilderEvent::MessageCompleted(m) => {
                Event::Message((*m).clone())
            }
            BuilderEvent::ContentSnapshot(c) | BuilderEvent::ContentCompleted(c) => {
                Event::Content((*c).clone())
            }
            BuilderEvent::TextDelta(d) => {
                let body = match d.content_type {
                    ContentType::Refusal => crate::protocol::ContentBody::Refusal {
                        refusal: Some(d.text.to_owned()),
                    },
                    _ => crate::protocol::ContentBody::Text {
                        text: Some(d.text.to_owned()),
                    },
                };
                Event::Content(delta_content(body, d.sequence_number, d.msg_id, d.index))
            }
            BuilderEvent::DataDelta(d) => Event::Content(delta_content(
                crate::protocol::ContentBody::Data {
                    data: Some(d.data.clone()),
                },
                d.sequence_number,
                d.msg_id,
                d.index,
            )),
        }
    }
}

fn delta_content(
    body: crate::protocol::ContentBody,
    seq: u64,
    msg_id: &str,
    index: u32,
) -> Content {
    let mut c = Content::new(body)
        .with_index(i64::from(index))
        .with_delta(true)
        .with_msg_id(msg_id);
    c.sequence_number = i64::try_from(seq).ok();
    c.in_progress();
    c
}

/// Turns [`BuilderEvent`]s into framed bytes. One encoder serves one stream, in order, so it may
/// keep per-stream state (a translating encoder will).
pub trait Encoder {
    /// Appends the frame(s) for `event` to `out`. On error, nothing may have been appended.
    ///
    /// # Errors
    ///
    /// Whatever the encoder cannot express; [`AgentApiEncoder`] never fails.
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()>;

    /// The HTTP `Content-Type` of the encoded stream.
    fn content_type(&self) -> &'static str;

    /// Asks for the run's answer as one message rather than a task, where the protocol has
    /// such an answer (A2A) and nothing was written yet; whether it will be. By default: no.
    fn answer_with_message(&mut self) -> bool {
        false
    }
}

/// The Agent API encoder: each event is its `model_dump_json()` bytes (as the reference's
/// `/process` sends them), framed as SSE or NDJSON.
///
/// # Example
///
/// ```
/// use agentwire::builder::{AgentApiEncoder, BuilderEvent, Encoder, TextDelta};
/// use agentwire::codec::Format;
/// use agentwire::protocol::ContentType;
///
/// let mut enc = AgentApiEncoder::new(Format::Sse)?;
/// let mut out = Vec::new();
/// let delta = TextDelta { sequence_number: 3, msg_id: "msg_1", index: 0,
///                         content_type: ContentType::Text, text: "Hi" };
/// enc.encode(&BuilderEvent::TextDelta(delta), &mut out)?;
/// assert_eq!(out, br#"data: {"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi"}
///
/// "#);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct AgentApiEncoder {
    format: Format,
    json: JsonOptions,
}

impl AgentApiEncoder {
    /// An encoder writing `format` ([`Format::Sse`] or [`Format::Ndjson`]) with the reference's
    /// JSON (nulls kept).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` for [`Format::Auto`], which names no output framing.
    pub fn new(format: Format) -> Result<Self> {
        match format {
            Format::Sse | Format::Ndjson => Ok(AgentApiEncoder {
                format,
                json: JsonOptions::new(),
            }),
            Format::Auto => Err(Error::new(
                ErrorCode::InvalidOption,
                "A builder writes \"sse\" or \"ndjson\"; \"auto\" is only for reading.",
            )
            .with_field("format")),
        }
    }

    /// The same encoder with JSON options (e.g. [`JsonOptions::omit_nulls`]).
    #[must_use]
    pub fn with_json_options(mut self, json: JsonOptions) -> Self {
        self.json = json;
        self
    }

    /// The framing.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Frames a model's JSON, written straight into `out` (not into a string first: a final
    /// event holds a whole answer, and a copy of it doubled the builder's peak memory). Its
    /// compact JSON has no line break, so this is `frame` of the same text.
    fn frame_model<T: Serialize>(&self, out: &mut Vec<u8>, model: &T) -> Result<()> {
        let sse = !matches!(self.format, Format::Ndjson);
        if sse {
            out.extend_from_slice(b"data: ");
        }
        let mut serializer = Serializer::with_formatter(&mut *out, PydanticFormatter);
        // Our models only have string keys: writing them into a `Vec` cannot fail.
        let _ = model.serialize(&mut serializer);
        out.extend_from_slice(if sse { b"\n\n" } else { b"\n" });
        Ok(())
    }

    /// Writes a delta event directly: no model, no `Value`, one pass.
    fn write_delta(
        &self,
        out: &mut Vec<u8>,
        seq: u64,
        msg_id: &str,
        index: u32,
        content_type: ContentType,
        payload: Payload<'_>,
    ) {
        if self.format == Format::Sse {
            out.extend_from_slice(b"data: ");
        }
        out.extend_from_slice(b"{\"sequence_number\":");
        uint(out, seq);
        out.extend_from_slice(b",\"object\":\"content\",\"status\":\"in_progress\",");
        if !self.json.omits_nulls() {
            out.extend_from_slice(b"\"error\":null,");
        }
        out.extend_from_slice(b"\"type\":\"");
        out.extend_from_slice(content_type.as_str().as_bytes());
        out.extend_from_slice(b"\",\"index\":");
        uint(out, u64::from(index));
        out.extend_from_slice(b",\"delta\":true,\"msg_id\":");
        string(out, msg_id);
        out.extend_from_slice(b",\"");
        out.extend_from_slice(payload_key(content_type).as_bytes());
        out.extend_from_slice(b"\":");
        match payload {
            Payload::Text(t) => string(out, t),
            Payload::Data(d) => {
                let mut ser = Serializer::with_formatter(&mut *out, PydanticFormatter);
                // A map of strings to JSON values always serialises into a Vec.
                let _ = d.serialize(&mut ser);
            }
        }
        out.push(b'}');
        match self.format {
            Format::Sse => out.extend_from_slice(b"\n\n"),
            Format::Ndjson | Format::Auto => out.push(b'\n'),
        }
    }
}

enum Payload<'a> {
    Text(&'a str),
    Data(&'a JsonMap),
}

fn payload_key(content_type: ContentType) -> &'static str {
    match content_type {
        ContentType::Refusal => "refusal",
        ContentType::Data => "data",
        _ => "text",
    }
}

impl Encoder for AgentApiEncoder {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        match event {
            BuilderEvent::TextDelta(d) => {
                self.write_delta(
                    out,
                    d.sequence_number,
                    d.msg_id,
                    d.index,
                    d.content_type,
                    Payload::Text(d.text),
                );
                Ok(())
            }
            BuilderEvent::DataDelta(d) => {
                self.write_delta(
                    out,
                    d.sequence_number,
                    d.msg_id,
                    d.index,
                    ContentType::Data,
                    Payload::Data(d.data),
                );
                Ok(())
            }
            BuilderEvent::Response(r) => self.frame_model(out, &Wire(*r, self.json)),
            BuilderEvent::MessageStarted(m) | BuilderEvent::MessageCompleted(m) => {
                self.frame_model(out, &Wire(*m, self.json))
            }
            BuilderEvent::ContentSnapshot(c) | BuilderEvent::ContentCompleted(c) => {
                self.frame_model(out, &Wire(*c, self.json))
            }
        }
    }

    fn content_type(&self) -> &'static str {
        self.format
            .content_type()
            .unwrap_or(crate::codec::SSE_CONTENT_TYPE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codec's framing of a JSON text: what every event of the encoder must equal.
    fn reference_frame(format: Format, out: &mut Vec<u8>, json: &str) {
        match format {
            Format::Ndjson => crate::codec::encode_ndjson(out, json).unwrap(),
            Format::Sse | Format::Auto => crate::codec::encode_sse(out, json),
        }
    }

    #[test]
    fn models_are_framed_as_the_codec_frames_their_json() {
        let mut message = Message::with_id("m\n1");
        message.content = Some(vec![Content::text("line\nbreak\r\u{2028}é")]);
        let mut response = AgentResponse::with_id("r1".to_owned(), 7);
        response.output = Some(vec![message.clone()]);
        let content = Content::text("a\nb").with_msg_id("m1");
        for format in [Format::Sse, Format::Ndjson] {
            let mut enc = AgentApiEncoder::new(format).unwrap();
            for (event, json) in [
                (BuilderEvent::Response(&response), response.to_json()),
                (BuilderEvent::MessageCompleted(&message), message.to_json()),
                (BuilderEvent::ContentCompleted(&content), content.to_json()),
            ] {
                let mut ours = Vec::new();
                enc.encode(&event, &mut ours).unwrap();
                let mut theirs = Vec::new();
                reference_frame(format, &mut theirs, &json);
                assert_eq!(ours, theirs);
            }
        }
    }

    #[test]
    fn u64_digits() {
        for n in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            let mut out = Vec::new();
            uint(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }

    /// The encoder's bytes for `d` equal the codec's framing of the event's model JSON.
    fn same_as_model(enc: &mut AgentApiEncoder, d: &BuilderEvent<'_>, format: Format, omit: bool) {
        let mut fast = Vec::new();
        enc.encode(d, &mut fast).unwrap();
        let mut slow = Vec::new();
        let json = d
            .to_event()
            .to_json_with(JsonOptions::new().omit_nulls(omit));
        reference_frame(format, &mut slow, &json);
        assert_eq!(
            String::from_utf8(fast).unwrap(),
            String::from_utf8(slow).unwrap()
        );
    }

    #[test]
    fn fast_path_equals_model_path() {
        let texts = [
            "",
            "Hi",
            "é中😀",
            "q\"\\\n\t\u{1}\u{7f}\u{2028}",
            "</script>",
        ];
        for format in [Format::Sse, Format::Ndjson] {
            for omit in [false, true] {
                let mut enc = AgentApiEncoder::new(format)
                    .unwrap()
                    .with_json_options(JsonOptions::new().omit_nulls(omit));
                for ct in [ContentType::Text, ContentType::Refusal] {
                    for t in texts {
                        let d = BuilderEvent::TextDelta(TextDelta {
                            sequence_number: 1234,
                            msg_id: "msg_\"x",
                            index: 3,
                            content_type: ct,
                            text: t,
                        });
                        same_as_model(&mut enc, &d, format, omit);
                    }
                }
                let data: JsonMap = serde_json::from_str(
                    r#"{"arguments":"{\"a\": 1}","n":1.5e-7,"x":[1e16,null,true],"o":{"é":"😀"}}"#,
                )
                .unwrap();
                let d = BuilderEvent::DataDelta(DataDelta {
                    sequence_number: 0,
                    msg_id: "m",
                    index: 0,
                    data: &data,
                });
                same_as_model(&mut enc, &d, format, omit);
            }
        }
    }

    #[test]
    fn auto_is_not_an_output_format() {
        let e = AgentApiEncoder::new(Format::Auto).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidOption);
    }
}
