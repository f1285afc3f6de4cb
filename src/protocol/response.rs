//! `AgentResponse` (the reference's `BaseResponse` plus `session_id`): the run-level event,
//! `object: "response"`.
//!
//! Wire order (`reference/agentscope-protocol.md` §2.3): `sequence_number, object, status, error,
//! id, created_at, completed_at, output, usage, session_id`, then extra keys.

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::enums::RunStatus;
use super::ids::new_id;
use super::json::{to_pydantic_string, Fields, JsonMap, JsonOptions, Wire, WireSeq, WireSerialize};
use super::message::Message;
use super::tools::ErrorInfo;
use super::validate::{take_fields, Ctx, Path};
use crate::Result;

/// The response event. The reference's `BaseResponse` has the same fields minus `session_id`;
/// every response on the wire is an `AgentResponse`, so agentwire has only this type.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentResponse {
    /// Per-request event counter.
    pub sequence_number: Option<i64>,
    /// Always `"response"` in practice.
    pub object: String,
    /// Run status; default `created`.
    pub status: RunStatus,
    /// Error of a failed run.
    pub error: Option<ErrorInfo>,
    /// Response ID (`response_<uuid4>` by default; the request's `id` when given). The
    /// reference never leaves it null.
    pub id: Option<String>,
    /// Start time, epoch seconds.
    pub created_at: i64,
    /// End time, epoch seconds (set by [`AgentResponse::completed`]).
    pub completed_at: Option<i64>,
    /// Completed messages.
    pub output: Option<Vec<Message>>,
    /// Token usage.
    pub usage: Option<JsonMap>,
    /// Conversation ID.
    pub session_id: Option<String>,
    /// Unknown keys, kept in input order (1.1.6.post2 `extra="allow"`).
    pub extra: JsonMap,
}

impl AgentResponse {
    /// A response with the given id and start time, status `created`, everything else null.
    pub fn with_id(id: impl Into<String>, created_at: i64) -> Self {
        AgentResponse {
            sequence_number: None,
            object: "response".to_owned(),
            status: RunStatus::Created,
            error: None,
            id: Some(id.into()),
            created_at,
            completed_at: None,
            output: None,
            usage: None,
            session_id: None,
            extra: JsonMap::new(),
        }
    }

    /// A response with a fresh `response_<uuid4>` id.
    pub fn new(created_at: i64) -> Result<Self> {
        Ok(AgentResponse::with_id(new_id("response_")?, created_at))
    }

    /// The interrupts a paused run (status `incomplete`) waits on: the objects of the
    /// response's `interrupts` (an agentwire extension, AG-UI's interrupt shape) that have a
    /// non-empty string `id` and a string `reason`; others are skipped.
    pub fn interrupts(&self) -> impl Iterator<Item = &JsonMap> {
        self.extra
            .get("interrupts")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_object)
            .filter(|i| {
                i.get("id")
                    .and_then(serde_json::Value::as_str)
                    .is_some_and(|id| !id.is_empty())
                    && i.get("reason").is_some_and(serde_json::Value::is_string)
            })
    }

    /// `BaseResponse.add_new_message`: appends to `output` (creating it if null).
    pub fn add_new_message(&mut self, message: Message) {
        self.output.get_or_insert_with(Vec::new).push(message);
    }

    /// `BaseResponse.completed()`: sets `completed_at = now_secs`, `output = []` if null, and
    /// `status = completed`.
    pub fn completed(&mut self, now_secs: i64) -> &mut Self {
        self.completed_at = Some(now_secs);
        self.output.get_or_insert_with(Vec::new);
        self.status = RunStatus::Completed;
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

    /// Reads a response. A missing or null `id` gets a fresh random id, as in the reference; a
    /// missing `created_at` (the reference uses the current time) becomes 0.
    pub(crate) fn from_map(map: JsonMap, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        const FIELDS: [&str; 10] = [
            "sequence_number",
            "object",
            "status",
            "error",
            "id",
            "created_at",
            "completed_at",
            "output",
            "usage",
            "session_id",
        ];
        let (slots, extra) = take_fields(map, &FIELDS);
        let [seq, object, status, error, id, created_at, completed_at, output, usage, session_id] =
            slots;
        let sequence_number = ctx.field_opt_int(seq, path, "sequence_number")?;
        let object = ctx.field_string_or(object, path, "object", "response")?;
        let status = match status {
            Some(v) => RunStatus::from_wire_owned(ctx.string(v, &path.key("status"))?),
            None => RunStatus::Created,
        };
        let error = ctx.field_opt_with(error, path, "error", ErrorInfo::from_value)?;
        let id = match id {
            Some(Value::Null) | None => new_id("response_")?,
            Some(v) => ctx.string(v, &path.key("id"))?,
        };
        let created_at = match created_at {
            Some(v) => ctx.int(v, &path.key("created_at"))?,
            None => 0,
        };
        let completed_at = ctx.field_opt_int(completed_at, path, "completed_at")?;
        let output = ctx.field_opt_list(output, path, "output", Message::from_value)?;
        let usage = ctx.field_opt_dict(usage, path, "usage")?;
        let session_id = ctx.field_opt_string(session_id, path, "session_id")?;
        Ok(AgentResponse {
            sequence_number,
            object,
            status,
            error,
            id: Some(id),
            created_at,
            completed_at,
            output,
            usage,
            session_id,
            extra,
        })
    }
}

impl AgentResponse {
    /// Writes the response's fields into `f` (which the caller ends, possibly after fields of
    /// its own), with `output` (any serialisable list, e.g. a view of assembled messages) in
    /// place of the response's own.
    pub(crate) fn write_fields<M: SerializeMap, O: Serialize>(
        &self,
        f: &mut Fields<M>,
        output: Option<&O>,
    ) -> Result<(), M::Error> {
        f.opt("sequence_number", self.sequence_number.as_ref())?;
        f.val("object", &self.object)?;
        f.val("status", &self.status)?;
        f.model("error", self.error.as_ref())?;
        f.opt("id", self.id.as_ref())?;
        f.val("created_at", &self.created_at)?;
        f.opt("completed_at", self.completed_at.as_ref())?;
        f.opt("output", output)?;
        f.opt("usage", self.usage.as_ref())?;
        f.opt("session_id", self.session_id.as_ref())?;
        f.extra(&self.extra)
    }
}

impl WireSerialize for AgentResponse {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        let output = self.output.as_deref().map(|o| WireSeq(o, opts));
        self.write_fields(&mut f, output.as_ref())?;
        f.end()
    }
}

impl Serialize for AgentResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_wire(serializer, JsonOptions::new())
    }
}

impl<'de> Deserialize<'de> for AgentResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let super::JsonValue(v) = super::JsonValue::deserialize(deserializer)?;
        let map = Ctx::EVENT
            .model(v, &Path::ROOT, "AgentResponse")
            .map_err(serde::de::Error::custom)?;
        AgentResponse::from_map(map, &Path::ROOT, &Ctx::EVENT).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completed_sets_time_and_output() {
        let mut r = AgentResponse::with_id("req-1", 1795331115);
        r.session_id = Some("s1".into());
        r.completed(1795331116);
        assert_eq!(
            r.to_json(),
            r#"{"sequence_number":null,"object":"response","status":"completed","error":null,"id":"req-1","created_at":1795331115,"completed_at":1795331116,"output":[],"usage":null,"session_id":"s1"}"#
        );
    }
}
