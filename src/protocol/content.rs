//! Content parts (`Content` and its seven typed subclasses in the reference), with their
//! payloads in [`ContentBody`].
//!
//! Wire order (`reference/agentscope-protocol.md` §2.3): `sequence_number, object, status, error,
//! type, index, delta, msg_id`, then the type's own fields, then extra keys in input order.

use std::borrow::Cow;

use serde::ser::Serializer;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::entries::Key;
use super::enums::{ContentType, RunStatus};
use super::json::{to_pydantic_string, Fields, JsonMap, JsonOptions, Wire, WireSerialize};
use super::tools::ErrorInfo;
use super::validate::{Ctx, Mode, Path};
use crate::Result;

/// The type-specific payload of a content part.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ContentBody {
    /// `TextContent`.
    Text {
        /// The text.
        text: Option<String>,
    },
    /// `ImageContent`.
    Image {
        /// A URL or a `data:` URI.
        image_url: Option<String>,
    },
    /// `DataContent`.
    Data {
        /// A JSON object.
        data: Option<JsonMap>,
    },
    /// `AudioContent`.
    Audio {
        /// URL, data URI or base64.
        data: Option<String>,
        /// Audio format.
        format: Option<String>,
    },
    /// `FileContent`.
    File {
        /// File URL.
        file_url: Option<String>,
        /// File ID.
        file_id: Option<String>,
        /// File name.
        filename: Option<String>,
        /// Inline file data.
        file_data: Option<String>,
    },
    /// `RefusalContent`.
    Refusal {
        /// The refusal text.
        refusal: Option<String>,
    },
    /// `VideoContent`.
    Video {
        /// Video URL.
        video_url: Option<String>,
    },
    /// A content type outside the seven known ones, kept when reading events (its other fields
    /// are in [`Content::extra`]). Requests reject it, as the reference does.
    Unknown {
        /// The `type` string.
        content_type: String,
    },
}

impl ContentBody {
    /// An empty body of the given type.
    pub fn empty(content_type: ContentType) -> Self {
        match content_type {
            ContentType::Text => ContentBody::Text { text: None },
            ContentType::Image => ContentBody::Image { image_url: None },
            ContentType::Data => ContentBody::Data { data: None },
            ContentType::Audio => ContentBody::Audio {
                data: None,
                format: None,
            },
            ContentType::File => ContentBody::File {
                file_url: None,
                file_id: None,
                filename: None,
                file_data: None,
            },
            ContentType::Refusal => ContentBody::Refusal { refusal: None },
            ContentType::Video => ContentBody::Video { video_url: None },
        }
    }

    /// The `type` string.
    pub fn type_str(&self) -> &str {
        match self {
            ContentBody::Unknown { content_type } => content_type,
            ContentBody::Text { .. } => "text",
            ContentBody::Image { .. } => "image",
            ContentBody::Data { .. } => "data",
            ContentBody::Audio { .. } => "audio",
            ContentBody::File { .. } => "file",
            ContentBody::Refusal { .. } => "refusal",
            ContentBody::Video { .. } => "video",
        }
    }

    /// The known content type, or `None` for [`ContentBody::Unknown`].
    pub fn content_type(&self) -> Option<ContentType> {
        ContentType::from_wire(self.type_str())
    }
}

/// Names of the type-specific fields, in declaration order.
fn body_fields(ct: Option<ContentType>) -> &'static [&'static str] {
    match ct {
        Some(ContentType::Text) => &["text"],
        Some(ContentType::Image) => &["image_url"],
        Some(ContentType::Data) => &["data"],
        Some(ContentType::Audio) => &["data", "format"],
        Some(ContentType::File) => &["file_url", "file_id", "filename", "file_data"],
        Some(ContentType::Refusal) => &["refusal"],
        Some(ContentType::Video) => &["video_url"],
        None => &[],
    }
}

impl ContentBody {
    /// Whether two bodies hold the same value: as `==`, with the JSON of a data part compared by
    /// `number::map_eq` (numbers by value in both builds).
    pub(crate) fn same_as(&self, other: &ContentBody) -> bool {
        match (self, other) {
            (ContentBody::Data { data: Some(a) }, ContentBody::Data { data: Some(b) }) => {
                super::number::map_eq(a, b)
            }
            _ => self == other,
        }
    }
}

/// A content part: an event of its own (`object: "content"`) and an item of `Message.content`.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    /// Per-request event counter, set by the runner (stale or null when nested).
    pub sequence_number: Option<i64>,
    /// Always `"content"` in practice (a free string in the reference).
    pub object: String,
    /// Status (`in_progress` on deltas, `completed` on the final part; often null when nested).
    pub status: Option<RunStatus>,
    /// Error, if failed.
    pub error: Option<ErrorInfo>,
    /// Position in the parent message's `content` list.
    pub index: Option<i64>,
    /// Whether this event is a delta. Defaults to `false`.
    pub delta: Option<bool>,
    /// ID of the parent message.
    pub msg_id: Option<String>,
    /// The type and its fields.
    pub body: ContentBody,
    /// Unknown keys, kept in input order (1.1.6.post2 `extra="allow"`).
    pub extra: JsonMap,
}

impl Content {
    /// A new part of `body`'s type, with the reference's defaults (`object:"content"`,
    /// `delta:false`, everything else null).
    pub fn new(body: ContentBody) -> Self {
        Content {
            sequence_number: None,
            object: "content".to_owned(),
            status: None,
            error: None,
            index: None,
            delta: Some(false),
            msg_id: None,
            body,
            extra: JsonMap::new(),
        }
    }

    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Content::new(ContentBody::Text {
            text: Some(text.into()),
        })
    }

    /// A data part.
    pub fn data(data: JsonMap) -> Self {
        Content::new(ContentBody::Data { data: Some(data) })
    }

    /// An image part.
    pub fn image(image_url: impl Into<String>) -> Self {
        Content::new(ContentBody::Image {
            image_url: Some(image_url.into()),
        })
    }

    /// Builder-style: set `index`.
    #[must_use]
    pub fn with_index(mut self, index: i64) -> Self {
        self.index = Some(index);
        self
    }

    /// Builder-style: set `delta`.
    #[must_use]
    pub fn with_delta(mut self, delta: bool) -> Self {
        self.delta = Some(delta);
        self
    }

    /// Builder-style: set `msg_id`.
    #[must_use]
    pub fn with_msg_id(mut self, msg_id: impl Into<String>) -> Self {
        self.msg_id = Some(msg_id.into());
        self
    }

    /// Part `index` of message `msg_id` as a decoder of another protocol emits it: a delta
    /// (status `in_progress`) or the completed value.
    pub fn decoded(msg_id: &str, index: i64, body: ContentBody, delta: bool) -> Self {
        let mut c = Content::new(body)
            .with_index(index)
            .with_delta(delta)
            .with_msg_id(msg_id);
        c.status = Some(if delta {
            RunStatus::InProgress
        } else {
            RunStatus::Completed
        });
        c
    }

    /// The `type` string.
    pub fn type_str(&self) -> &str {
        self.body.type_str()
    }

    /// The text of a text part.
    pub fn as_text(&self) -> Option<&str> {
        match &self.body {
            ContentBody::Text { text } => text.as_deref(),
            ContentBody::Image { .. }
            | ContentBody::Data { .. }
            | ContentBody::Audio { .. }
            | ContentBody::File { .. }
            | ContentBody::Refusal { .. }
            | ContentBody::Video { .. }
            | ContentBody::Unknown { .. } => None,
        }
    }

    /// The payload of a data part.
    pub fn as_data(&self) -> Option<&JsonMap> {
        match &self.body {
            ContentBody::Data { data } => data.as_ref(),
            ContentBody::Text { .. }
            | ContentBody::Image { .. }
            | ContentBody::Audio { .. }
            | ContentBody::File { .. }
            | ContentBody::Refusal { .. }
            | ContentBody::Video { .. }
            | ContentBody::Unknown { .. } => None,
        }
    }

    /// Serialises like the reference's `model_dump_json()`.
    pub fn to_json(&self) -> String {
        to_pydantic_string(&Wire(self, JsonOptions::new()))
    }

    /// Serialises with options (e.g. [`JsonOptions::omit_nulls`]).
    pub fn to_json_with(&self, opts: JsonOptions) -> String {
        to_pydantic_string(&Wire(self, opts))
    }

    /// Reads a content part from a JSON object. In request mode the path of a field error
    /// includes the type tag, as pydantic's discriminated union reports it
    /// (`content.0.text.text`).
    pub(crate) fn from_map(map: JsonMap, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        let tag = Tag::of(map.get("type"));
        // One instantiation of `from_entries` (the event fast path's) serves both callers.
        let entries = map
            .into_iter()
            .map(|(k, v)| (Key(Cow::Owned(k)), v))
            .collect();
        Content::from_entries(tag, entries, path, ctx)
    }

    /// Reads a content part from its entries (in input order) once its `type` tag is known.
    pub(crate) fn from_entries(
        tag: Tag,
        entries: Vec<(Key<'_>, Value)>,
        path: &Path<'_>,
        ctx: &Ctx,
    ) -> Result<Self> {
        // The discriminator first: pydantic looks it up before validating anything.
        let (content_type, unknown_name) = match tag {
            Tag::Known(ct) => (Some(ct), None),
            Tag::Unknown(name) if ctx.mode == Mode::Event => (None, Some(name)),
            Tag::Unknown(name) | Tag::NotString(name) if ctx.mode == Mode::Request => {
                return Err(ctx.err(
                    path,
                    format_args!(
                        "Input tag '{name}' found using 'type' does not match any of the expected tags: {TAGS}"
                    ),
                ));
            }
            Tag::Missing if ctx.mode == Mode::Request => {
                return Err(ctx.err(path, "Unable to extract tag using discriminator 'type'"));
            }
            Tag::Missing => return Err(ctx.missing(&path.key("type"))),
            Tag::Unknown(_) | Tag::NotString(_) => {
                return Err(ctx.err(&path.key("type"), "Input should be a valid string"))
            }
        };
        let tagged;
        let path = match (ctx.mode, content_type) {
            (Mode::Request, Some(ct)) => {
                tagged = path.key(ct.as_str());
                &tagged
            }
            _ => path,
        };
        let names = body_fields(content_type);
        let mut body_slots: [Option<Value>; 4] = [None, None, None, None];
        let mut sequence_number = None;
        let mut object = None;
        let mut status = None;
        let mut error = None;
        let mut index = None;
        let mut delta = None;
        let mut msg_id = None;
        let mut extra = JsonMap::new();
        for (k, v) in entries {
            match k.as_ref() {
                "sequence_number" => sequence_number = Some(v),
                "object" => object = Some(v),
                "status" => status = Some(v),
                "error" => error = Some(v),
                "type" => {}
                "index" => index = Some(v),
                "delta" => delta = Some(v),
                "msg_id" => msg_id = Some(v),
                other => match names.iter().position(|n| *n == other) {
                    Some(i) => {
                        if let Some(slot) = body_slots.get_mut(i) {
                            *slot = Some(v);
                        }
                    }
                    None => {
                        extra.insert(k.into(), v);
                    }
                },
            }
        }
        let sequence_number = match sequence_number {
            Some(v) => ctx.opt_int(v, &path.key("sequence_number"))?,
            None => None,
        };
        let object = match object {
            Some(v) => ctx.string(v, &path.key("object"))?,
            None => "content".to_owned(),
        };
        let status = match status {
            Some(v) => ctx
                .opt_string(v, &path.key("status"))?
                .map(RunStatus::from_wire_owned),
            None => None,
        };
        let error = ctx.field_opt_with(error, path, "error", ErrorInfo::from_value)?;
        let index = match index {
            Some(v) => ctx.opt_int(v, &path.key("index"))?,
            None => None,
        };
        let delta = match delta {
            Some(v) => ctx.opt_bool(v, &path.key("delta"))?,
            None => Some(false),
        };
        let msg_id = match msg_id {
            Some(v) => ctx.opt_string(v, &path.key("msg_id"))?,
            None => None,
        };
        let [s0, s1, s2, s3] = body_slots;
        let opt_str = |slot: Option<Value>, i: usize| -> Result<Option<String>> {
            match slot {
                Some(v) => ctx.opt_string(v, &path.key(names.get(i).copied().unwrap_or(""))),
                None => Ok(None),
            }
        };
        let body = match content_type {
            Some(ContentType::Text) => ContentBody::Text {
                text: opt_str(s0, 0)?,
            },
            Some(ContentType::Image) => ContentBody::Image {
                image_url: opt_str(s0, 0)?,
            },
            Some(ContentType::Data) => ContentBody::Data {
                data: match s0 {
                    Some(v) => ctx.opt_dict(v, &path.key("data"))?,
                    None => None,
                },
            },
            Some(ContentType::Audio) => ContentBody::Audio {
                data: opt_str(s0, 0)?,
                format: opt_str(s1, 1)?,
            },
            Some(ContentType::File) => ContentBody::File {
                file_url: opt_str(s0, 0)?,
                file_id: opt_str(s1, 1)?,
                filename: opt_str(s2, 2)?,
                file_data: opt_str(s3, 3)?,
            },
            Some(ContentType::Refusal) => ContentBody::Refusal {
                refusal: opt_str(s0, 0)?,
            },
            Some(ContentType::Video) => ContentBody::Video {
                video_url: opt_str(s0, 0)?,
            },
            None => ContentBody::Unknown {
                content_type: unknown_name.unwrap_or_default(),
            },
        };
        Ok(Content {
            sequence_number,
            object,
            status,
            error,
            index,
            delta,
            msg_id,
            body,
            extra,
        })
    }

    pub(crate) fn from_value(v: Value, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        match v {
            Value::Object(map) => Content::from_map(map, path, ctx),
            _ if ctx.mode == Mode::Request => Err(ctx.err(
                path,
                "Input should be a valid dictionary or object to extract fields from",
            )),
            Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::String(_)
            | Value::Array(_) => Err(ctx.err(path, "Input should be a valid dictionary")),
        }
    }
}

/// The `type` discriminator of a content part, looked up before anything else.
pub(crate) enum Tag {
    /// One of the seven known types.
    Known(ContentType),
    /// A string outside the known set.
    Unknown(String),
    /// A non-string value (as Python's `str()` would print it).
    NotString(String),
    /// No `type` key.
    Missing,
}

impl Tag {
    pub(crate) fn of(v: Option<&Value>) -> Tag {
        match v {
            None => Tag::Missing,
            Some(Value::String(s)) => match ContentType::from_wire(s) {
                Some(ct) => Tag::Known(ct),
                None => Tag::Unknown(s.clone()),
            },
            Some(other) => Tag::NotString(py_str(other)),
        }
    }
}

const TAGS: &str = "'text', 'image', 'data', 'audio', 'file', 'refusal', 'video'";

/// Python `str()` of a JSON scalar, for pydantic's tag message.
fn py_str(v: &Value) -> String {
    match v {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::String(s) => s.clone(),
        other @ (Value::Number(_) | Value::Array(_) | Value::Object(_)) => other.to_string(),
    }
}

/// The stream fields of a part as written, when they differ from the part's own (a snapshot
/// shows an assembled part without its stale `sequence_number`, with `delta: false` and its
/// assembled status).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StreamFields<'a> {
    pub(crate) sequence_number: Option<i64>,
    pub(crate) status: Option<&'a RunStatus>,
    pub(crate) delta: Option<bool>,
    /// Write the text of a text or refusal part as `""` (its holder fills it in later).
    pub(crate) hide_text: bool,
}

impl Content {
    /// Serialises like [`WireSerialize::serialize_wire`], with `stream` in place of the part's
    /// own `sequence_number`, `status` and `delta` (no copy of the part is made).
    pub(crate) fn serialize_as<S: Serializer>(
        &self,
        s: S,
        opts: JsonOptions,
        stream: StreamFields<'_>,
    ) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.opt("sequence_number", stream.sequence_number.as_ref())?;
        f.val("object", &self.object)?;
        f.opt("status", stream.status)?;
        f.model("error", self.error.as_ref())?;
        f.val("type", self.body.type_str())?;
        f.opt("index", self.index.as_ref())?;
        f.opt("delta", stream.delta.as_ref())?;
        f.opt("msg_id", self.msg_id.as_ref())?;
        match &self.body {
            ContentBody::Text { text: Some(_) } | ContentBody::Refusal { refusal: Some(_) }
                if stream.hide_text =>
            {
                f.val(self.body.type_str(), "")?;
            }
            ContentBody::Text { text } => f.opt("text", text.as_ref())?,
            ContentBody::Image { image_url } => f.opt("image_url", image_url.as_ref())?,
            ContentBody::Data { data } => f.opt("data", data.as_ref())?,
            ContentBody::Audio { data, format } => {
                f.opt("data", data.as_ref())?;
                f.opt("format", format.as_ref())?;
            }
            ContentBody::File {
                file_url,
                file_id,
                filename,
                file_data,
            } => {
                f.opt("file_url", file_url.as_ref())?;
                f.opt("file_id", file_id.as_ref())?;
                f.opt("filename", filename.as_ref())?;
                f.opt("file_data", file_data.as_ref())?;
            }
            ContentBody::Refusal { refusal } => f.opt("refusal", refusal.as_ref())?,
            ContentBody::Video { video_url } => f.opt("video_url", video_url.as_ref())?,
            ContentBody::Unknown { .. } => {}
        }
        f.extra(&self.extra)?;
        f.end()
    }
}

impl WireSerialize for Content {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let stream = StreamFields {
            sequence_number: self.sequence_number,
            status: self.status.as_ref(),
            delta: self.delta,
            hide_text: false,
        };
        self.serialize_as(s, opts, stream)
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_wire(serializer, JsonOptions::new())
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let super::JsonValue(v) = super::JsonValue::deserialize(deserializer)?;
        Content::from_value(v, &Path::ROOT, &Ctx::EVENT).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_delta_wire_order() {
        let c = Content::text("Hi")
            .with_index(0)
            .with_delta(true)
            .with_msg_id("msg_1");
        assert_eq!(
            c.to_json(),
            r#"{"sequence_number":null,"object":"content","status":null,"error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi"}"#
        );
        assert_eq!(
            c.to_json_with(JsonOptions::new().omit_nulls(true)),
            r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi"}"#
        );
    }

    #[test]
    fn extras_and_unknown_types_survive() {
        let src = r#"{"zzz":1,"type":"text","text":"x","aaa":{"b":null},"image_url":"u"}"#;
        let c: Content = serde_json::from_str(src).unwrap();
        assert_eq!(
            c.to_json(),
            r#"{"sequence_number":null,"object":"content","status":null,"error":null,"type":"text","index":null,"delta":false,"msg_id":null,"text":"x","zzz":1,"aaa":{"b":null},"image_url":"u"}"#
        );
        let src = r#"{"type":"input_audio","input_audio":{"data":"x"}}"#;
        let c: Content = serde_json::from_str(src).unwrap();
        assert_eq!(c.type_str(), "input_audio");
        assert!(c
            .to_json()
            .ends_with(r#""msg_id":null,"input_audio":{"data":"x"}}"#));
    }
}
