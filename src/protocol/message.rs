//! `Message`: an event (`object: "message"`) and an item of `AgentRequest.input` /
//! `AgentResponse.output`, with the reference's helper methods.
//!
//! Wire order (`reference/agentscope-protocol.md` §2.3): `sequence_number, object, status, error,
//! id, type, role, content, code, message, usage, metadata`, then extra keys.

use serde::ser::Serializer;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::content::{Content, ContentBody};
use super::enums::{MessageType, Role, RunStatus};
use super::ids::new_id;
use super::json::{to_pydantic_string, Fields, JsonMap, JsonOptions, Wire, WireSeq, WireSerialize};
use super::merge::merge_delta_lossy;
use super::tools::ErrorInfo;
use super::validate::{take_fields, Ctx, Path};
use crate::{Error, ErrorCode, Result};

/// A message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Per-request event counter, set by the runner (stale or null when nested).
    pub sequence_number: Option<i64>,
    /// Always `"message"` in practice (a free string in the reference).
    pub object: String,
    /// Status; default `created`.
    pub status: RunStatus,
    /// Error, if failed.
    pub error: Option<ErrorInfo>,
    /// Unique ID, `msg_<uuid4>` by default.
    pub id: String,
    /// The message type (wire key `type`); default `message`.
    pub message_type: MessageType,
    /// The author's role.
    pub role: Option<Role>,
    /// The content parts.
    pub content: Option<Vec<Content>>,
    /// Error code of the message.
    pub code: Option<String>,
    /// Error message of the message.
    pub message: Option<String>,
    /// Token usage.
    pub usage: Option<JsonMap>,
    /// Free-form metadata.
    pub metadata: Option<JsonMap>,
    /// Unknown keys, kept in input order (1.1.6.post2 `extra="allow"`).
    pub extra: JsonMap,
}

impl Message {
    /// A message with the given ID and the reference's defaults (`status: created`,
    /// `type: message`, everything else null).
    pub fn with_id(id: impl Into<String>) -> Self {
        Message {
            sequence_number: None,
            object: "message".to_owned(),
            status: RunStatus::Created,
            error: None,
            id: id.into(),
            message_type: MessageType::Message,
            role: None,
            content: None,
            code: None,
            message: None,
            usage: None,
            metadata: None,
            extra: JsonMap::new(),
        }
    }

    /// A message with a fresh random `msg_<uuid4>` ID (fails only if the platform has no
    /// randomness source).
    pub fn new() -> Result<Self> {
        Ok(Message::with_id(new_id("msg_")?))
    }

    /// Builder-style: set the role.
    #[must_use]
    pub fn with_role(mut self, role: Role) -> Self {
        self.role = Some(role);
        self
    }

    /// Builder-style: set the type.
    #[must_use]
    pub fn with_type(mut self, message_type: MessageType) -> Self {
        self.message_type = message_type;
        self
    }

    /// Builder-style: set the content list.
    #[must_use]
    pub fn with_content(mut self, content: Vec<Content>) -> Self {
        self.content = Some(content);
        self
    }

    /// Serialises like the reference's `model_dump_json()`.
    pub fn to_json(&self) -> String {
        to_pydantic_string(&Wire(self, JsonOptions::new()))
    }

    /// Serialises with options (e.g. [`JsonOptions::omit_nulls`]).
    pub fn to_json_with(&self, opts: JsonOptions) -> String {
        to_pydantic_string(&Wire(self, opts))
    }

    /// `Message.add_delta_content` (§2.3).
    ///
    /// - `new.index` null: a new part. A copy with `delta:null`, `index:i`, `msg_id` is appended;
    ///   `new` gets `index:i`, `msg_id`, `status:in_progress`. Returns `Ok(true)`.
    /// - `new.index` set and `delta:true`: merged into the stored part (text and image_url
    ///   concatenated; data merged with the lossy rule [`merge_delta_lossy`]; other types
    ///   unchanged); `new` gets `msg_id` and `in_progress`. Returns `Ok(true)`.
    /// - otherwise nothing happens: `Ok(false)` (the reference returns `None`).
    ///
    /// Where the reference raises (index out of range, a stored text/image that is null, a data
    /// delta onto null data, parts of different types) this returns a `PROTOCOL_VIOLATION`
    /// error and changes nothing. A negative index, which Python would count from the end, is
    /// an error too.
    pub fn add_delta_content(&mut self, new: &mut Content) -> Result<bool> {
        let parts = self.content.get_or_insert_with(Vec::new);
        let Some(index) = new.index else {
            let i = parts.len() as i64;
            let mut copy = new.clone();
            copy.delta = None;
            copy.index = Some(i);
            copy.msg_id = Some(self.id.clone());
            parts.push(copy);
            new.index = Some(i);
            new.msg_id = Some(self.id.clone());
            new.status = Some(RunStatus::InProgress);
            return Ok(true);
        };
        if new.delta != Some(true) {
            return Ok(false);
        }
        let stored = usize::try_from(index)
            .ok()
            .and_then(|i| parts.get_mut(i))
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::ProtocolViolation,
                    format!(
                        "content index {index} is out of range for message {}",
                        self.id
                    ),
                )
                .with_field("index")
            })?;
        let mismatch = || {
            Error::new(
                ErrorCode::ProtocolViolation,
                "delta cannot be applied: the stored part or the delta is null or of another type",
            )
        };
        match (&mut stored.body, &new.body) {
            (ContentBody::Text { text: Some(a) }, ContentBody::Text { text: Some(b) }) => {
                a.push_str(b);
            }
            (
                ContentBody::Image { image_url: Some(a) },
                ContentBody::Image { image_url: Some(b) },
            ) => a.push_str(b),
            (ContentBody::Data { data: Some(a) }, ContentBody::Data { data: Some(b) }) => {
                merge_delta_lossy(a, b);
            }
            (ContentBody::Text { .. }, _)
            | (ContentBody::Image { .. }, _)
            | (ContentBody::Data { .. }, _) => return Err(mismatch()),
            _ => {}
        }
        new.msg_id = Some(self.id.clone());
        new.status = Some(RunStatus::InProgress);
        Ok(true)
    }

    /// `Message.content_completed(i)`: a copy of part `i` with `delta:false`, `index:i`,
    /// `msg_id` and `status:completed`; the stored part is unchanged. `None` if there is no
    /// such part.
    pub fn content_completed(&self, index: usize) -> Option<Content> {
        let stored = self.content.as_ref()?.get(index)?;
        let mut copy = stored.clone();
        copy.delta = Some(false);
        copy.index = Some(index as i64);
        copy.msg_id = Some(self.id.clone());
        copy.status = Some(RunStatus::Completed);
        Some(copy)
    }

    /// `Message.add_content`: only for a part whose `index` is null. A copy is appended as is
    /// (index and msg_id stay null in the stored copy); `new` gets `index`, `msg_id` and
    /// `status:completed`. Returns `false` (and does nothing) if `index` is already set.
    pub fn add_content(&mut self, new: &mut Content) -> bool {
        let parts = self.content.get_or_insert_with(Vec::new);
        if new.index.is_some() {
            return false;
        }
        parts.push(new.clone());
        new.index = Some(parts.len() as i64 - 1);
        new.msg_id = Some(self.id.clone());
        new.status = Some(RunStatus::Completed);
        true
    }

    /// `Message.get_text_content`: the text of the first text part (`None` if there is none,
    /// or if its text is null).
    pub fn get_text_content(&self) -> Option<&str> {
        self.content
            .as_ref()?
            .iter()
            .find(|c| matches!(c.body, ContentBody::Text { .. }))
            .and_then(Content::as_text)
    }

    /// `Message.get_image_content`: the `image_url` of every image part (nulls included).
    pub fn get_image_content(&self) -> Vec<Option<&str>> {
        self.content
            .iter()
            .flatten()
            .filter_map(|c| match &c.body {
                ContentBody::Image { image_url } => Some(image_url.as_deref()),
                ContentBody::Text { .. }
                | ContentBody::Data { .. }
                | ContentBody::Audio { .. }
                | ContentBody::File { .. }
                | ContentBody::Refusal { .. }
                | ContentBody::Video { .. }
                | ContentBody::Unknown { .. } => None,
            })
            .collect()
    }

    /// `Message.get_audio_content`: the reference looks for parts of type `input_audio`,
    /// which no message content can have, so this is always empty.
    pub fn get_audio_content(&self) -> Vec<String> {
        Vec::new()
    }

    pub(crate) fn from_map(map: JsonMap, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        const FIELDS: [&str; 12] = [
            "sequence_number",
            "object",
            "status",
            "error",
            "id",
            "type",
            "role",
            "content",
            "code",
            "message",
            "usage",
            "metadata",
        ];
        let (slots, extra) = take_fields(map, &FIELDS);
        let [seq, object, status, error, id, mtype, role, content, code, message, usage, metadata] =
            slots;
        let sequence_number = ctx.field_opt_int(seq, path, "sequence_number")?;
        let object = ctx.field_string_or(object, path, "object", "message")?;
        let status = match status {
            Some(v) => RunStatus::from_wire_owned(ctx.string(v, &path.key("status"))?),
            None => RunStatus::Created,
        };
        let error = ctx.field_opt_with(error, path, "error", ErrorInfo::from_value)?;
        let id = match id {
            Some(v) => ctx.string(v, &path.key("id"))?,
            None => new_id("msg_")?,
        };
        let message_type = match mtype {
            Some(v) => MessageType::from_wire_owned(ctx.string(v, &path.key("type"))?),
            None => MessageType::Message,
        };
        let role = match role {
            Some(Value::Null) | None => None,
            Some(v) => {
                let p = path.key("role");
                let r = v.as_str().and_then(Role::from_wire);
                Some(r.ok_or_else(|| {
                    ctx.err(
                        &p,
                        "Input should be 'assistant', 'system', 'user' or 'tool'",
                    )
                })?)
            }
        };
        let content = ctx.field_opt_list(content, path, "content", Content::from_value)?;
        let code = ctx.field_opt_string(code, path, "code")?;
        let message = ctx.field_opt_string(message, path, "message")?;
        let usage = ctx.field_opt_dict(usage, path, "usage")?;
        let metadata = ctx.field_opt_dict(metadata, path, "metadata")?;
        Ok(Message {
            sequence_number,
            object,
            status,
            error,
            id,
            message_type,
            role,
            content,
            code,
            message,
            usage,
            metadata,
            extra,
        })
    }

    pub(crate) fn from_value(v: Value, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        let map = ctx.model(v, path, "Message")?;
        Message::from_map(map, path, ctx)
    }
}

impl Message {
    /// Serialises like [`WireSerialize::serialize_wire`], with `content` (any serialisable
    /// list, e.g. a view of assembled parts) in place of the message's own.
    pub(crate) fn serialize_with<S: Serializer, C: Serialize>(
        &self,
        s: S,
        opts: JsonOptions,
        content: Option<&C>,
    ) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.opt("sequence_number", self.sequence_number.as_ref())?;
        f.val("object", &self.object)?;
        f.val("status", &self.status)?;
        f.model("error", self.error.as_ref())?;
        f.val("id", &self.id)?;
        f.val("type", &self.message_type)?;
        f.opt("role", self.role.as_ref())?;
        f.opt("content", content)?;
        f.opt("code", self.code.as_ref())?;
        f.opt("message", self.message.as_ref())?;
        f.opt("usage", self.usage.as_ref())?;
        f.opt("metadata", self.metadata.as_ref())?;
        f.extra(&self.extra)?;
        f.end()
    }
}

impl WireSerialize for Message {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let content = self.content.as_deref().map(|c| WireSeq(c, opts));
        self.serialize_with(s, opts, content.as_ref())
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_wire(serializer, JsonOptions::new())
    }
}

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let super::JsonValue(v) = super::JsonValue::deserialize(deserializer)?;
        Message::from_value(v, &Path::ROOT, &Ctx::EVENT).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn data(v: Value) -> JsonMap {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn add_delta_content_lossy_data_rule() {
        // §2.3 verified example.
        let mut m = Message::with_id("msg_1");
        let mut first = Content::data(data(json!({"a":"x","l":[1],"n":1,"d":{"k":"v"}})));
        first.index = None;
        assert!(m.add_delta_content(&mut first).unwrap());
        assert_eq!(first.index, Some(0));
        assert_eq!(first.status, Some(RunStatus::InProgress));
        let mut delta = Content::data(data(json!({"a":"y","l":[2],"n":2,"d":{"k":"w"},"new":"z"})))
            .with_index(0)
            .with_delta(true);
        assert!(m.add_delta_content(&mut delta).unwrap());
        let stored = m.content.as_ref().unwrap()[0].as_data().unwrap();
        assert_eq!(
            Value::Object(stored.clone()),
            json!({"a":"xy","l":[1,2],"n":1,"d":{"k":"v"}})
        );
        // Stored copy: delta null, index and msg_id set.
        let s = &m.content.as_ref().unwrap()[0];
        assert_eq!(
            (s.delta, s.index, s.msg_id.as_deref()),
            (None, Some(0), Some("msg_1"))
        );
        // Not a delta: nothing happens.
        let mut other = Content::text("x").with_index(0);
        assert!(!m.add_delta_content(&mut other).unwrap());
        // Out of range: error.
        let mut far = Content::text("x").with_index(7).with_delta(true);
        assert!(m.add_delta_content(&mut far).is_err());
    }

    #[test]
    fn content_completed_and_add_content() {
        let mut m = Message::with_id("m");
        let mut t = Content::text("Hi");
        t.index = None;
        assert!(m.add_content(&mut t));
        assert_eq!(t.index, Some(0));
        assert_eq!(t.status, Some(RunStatus::Completed));
        assert_eq!(m.content.as_ref().unwrap()[0].index, None);
        let c = m.content_completed(0).unwrap();
        assert_eq!(c.status, Some(RunStatus::Completed));
        assert_eq!(c.delta, Some(false));
        assert!(m.content_completed(1).is_none());
        assert_eq!(m.get_text_content(), Some("Hi"));
        assert!(m.get_image_content().is_empty());
        assert!(m.get_audio_content().is_empty());
    }

    #[test]
    fn wire_order() {
        let m = Message::with_id("m").with_role(Role::Assistant);
        assert_eq!(
            m.to_json(),
            r#"{"sequence_number":null,"object":"message","status":"created","error":null,"id":"m","type":"message","role":"assistant","content":null,"code":null,"message":null,"usage":null,"metadata":null}"#
        );
    }
}
