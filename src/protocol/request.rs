//! `AgentRequest` (the reference's `BaseRequest` + `AgentRequest`): the body of `POST /process`.
//!
//! Validation follows pydantic in lax (Python) mode, which is what the reference applies to the
//! parsed body (`AgentRequest(**body)`): fields are checked in declaration order and the first
//! error is reported with pydantic's location (`input.0.content.1.type`) and message.
//! Wire order: `input, stream, id, model, top_p, temperature, frequency_penalty,
//! presence_penalty, max_tokens, stop, n, seed, tools, session_id, user_id`, then extra keys.

use serde::ser::Serializer;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::json::{to_pydantic_string, Fields, JsonMap, JsonOptions, Wire, WireSeq, WireSerialize};
use super::message::Message;
use super::tools::ToolSpec;
use super::validate::{take_fields, Ctx, Path};
use crate::{Error, ErrorCode, Result};

/// `AgentRequest.stop`: `Optional[Union[str, List[str]]]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Stop {
    /// One stop sequence.
    One(String),
    /// Several stop sequences.
    Many(Vec<String>),
}

/// A request to an agent.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentRequest {
    /// Input messages (required; may be empty).
    pub input: Vec<Message>,
    /// Whether to stream (default `true`; `/process` ignores it and always streams).
    pub stream: bool,
    /// Request ID; becomes the response ID.
    pub id: Option<String>,
    /// Model ID.
    pub model: Option<String>,
    /// Nucleus sampling.
    pub top_p: Option<f64>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Frequency penalty.
    pub frequency_penalty: Option<f64>,
    /// Presence penalty.
    pub presence_penalty: Option<f64>,
    /// Maximum tokens to generate.
    pub max_tokens: Option<i64>,
    /// Stop sequences.
    pub stop: Option<Stop>,
    /// Number of choices, 1..=5 (default 1).
    pub n: Option<i64>,
    /// Sampling seed.
    pub seed: Option<i64>,
    /// Tools offered to the model.
    pub tools: Option<Vec<ToolSpec>>,
    /// Conversation ID.
    pub session_id: Option<String>,
    /// User ID.
    pub user_id: Option<String>,
    /// Unknown top-level keys, kept in input order (`extra="allow"`).
    pub extra: JsonMap,
}

impl Default for AgentRequest {
    fn default() -> Self {
        AgentRequest {
            input: Vec::new(),
            stream: true,
            id: None,
            model: None,
            top_p: None,
            temperature: None,
            frequency_penalty: None,
            presence_penalty: None,
            max_tokens: None,
            stop: None,
            n: Some(1),
            seed: None,
            tools: None,
            session_id: None,
            user_id: None,
            extra: JsonMap::new(),
        }
    }
}

const FIELDS: [&str; 15] = [
    "input",
    "stream",
    "id",
    "model",
    "top_p",
    "temperature",
    "frequency_penalty",
    "presence_penalty",
    "max_tokens",
    "stop",
    "n",
    "seed",
    "tools",
    "session_id",
    "user_id",
];

/// Parses and validates a request body like the reference does.
///
/// Errors: bad JSON → `INVALID_JSON`; anything pydantic would reject → `INVALID_REQUEST` with
/// [`Error::field`] set to pydantic's location (`input.0.content.1.type`) and a message
/// `"<location>: <pydantic message>"`, e.g. `input: Field required`.
///
/// A lone surrogate escape (`"\ud800"`) reads as U+FFFD ([`parse_repairing`]).
///
/// [`parse_repairing`]: super::parse_repairing
pub fn parse_request(json: &str) -> Result<AgentRequest> {
    let v = super::parse_repairing(json, |t| serde_json::from_str::<super::JsonValue>(t))
        .map(|v| v.0)
        .map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("request body is not valid JSON: {e}"),
            )
        })?;
    AgentRequest::from_value(v)
}

impl AgentRequest {
    /// Validates an already parsed JSON value (see [`parse_request`]).
    pub fn from_value(v: Value) -> Result<Self> {
        let ctx = Ctx::REQUEST;
        let root = Path::ROOT;
        let map = ctx.model(v, &root, "AgentRequest")?;
        let (slots, extra) = take_fields(map, &FIELDS);
        let [input, stream, id, model, top_p, temperature, frequency_penalty, presence_penalty, max_tokens, stop, n, seed, tools, session_id, user_id] =
            slots;
        let p = root.key("input");
        let input = ctx.list(input.ok_or_else(|| ctx.missing(&p))?, &p)?;
        let mut messages = Vec::with_capacity(input.len());
        for (i, item) in input.into_iter().enumerate() {
            messages.push(Message::from_value(item, &p.index(i), &ctx)?);
        }
        let stream = match stream {
            Some(v) => ctx.bool(v, &root.key("stream"))?,
            None => true,
        };
        let id = ctx.field_opt_string(id, &root, "id")?;
        let model = ctx.field_opt_string(model, &root, "model")?;
        let top_p = ctx.field_opt_float(top_p, &root, "top_p")?;
        let temperature = ctx.field_opt_float(temperature, &root, "temperature")?;
        let frequency_penalty =
            ctx.field_opt_float(frequency_penalty, &root, "frequency_penalty")?;
        let presence_penalty = ctx.field_opt_float(presence_penalty, &root, "presence_penalty")?;
        let max_tokens = ctx.field_opt_int(max_tokens, &root, "max_tokens")?;
        let stop = match stop {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(Stop::One(s)),
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let Value::String(s) = item else {
                        // pydantic reports the `str` member of the union first.
                        return Err(ctx.err(
                            &root.key("stop").key("str"),
                            "Input should be a valid string",
                        ));
                    };
                    out.push(s);
                }
                Some(Stop::Many(out))
            }
            Some(_) => {
                return Err(ctx.err(
                    &root.key("stop").key("str"),
                    "Input should be a valid string",
                ))
            }
        };
        let n = match n {
            None => Some(1),
            Some(v) => {
                let p = root.key("n");
                match ctx.opt_int(v, &p)? {
                    Some(n) if n < 1 => {
                        return Err(ctx.err(&p, "Input should be greater than or equal to 1"))
                    }
                    Some(n) if n > 5 => {
                        return Err(ctx.err(&p, "Input should be less than or equal to 5"))
                    }
                    other => other,
                }
            }
        };
        let seed = ctx.field_opt_int(seed, &root, "seed")?;
        let tools = ctx.field_opt_list(tools, &root, "tools", ToolSpec::from_value)?;
        let session_id = ctx.field_opt_string(session_id, &root, "session_id")?;
        let user_id = ctx.field_opt_string(user_id, &root, "user_id")?;
        Ok(AgentRequest {
            input: messages,
            stream,
            id,
            model,
            top_p,
            temperature,
            frequency_penalty,
            presence_penalty,
            max_tokens,
            stop,
            n,
            seed,
            tools,
            session_id,
            user_id,
            extra,
        })
    }

    /// Serialises like the reference's `model_dump_json()`.
    pub fn to_json(&self) -> String {
        to_pydantic_string(&Wire(self, JsonOptions::new()))
    }

    /// Serialises with options; `omit_nulls` matches `model_dump_json(exclude_none=True)`, which
    /// is what the reference's client sends.
    pub fn to_json_with(&self, opts: JsonOptions) -> String {
        to_pydantic_string(&Wire(self, opts))
    }
}

impl WireSerialize for AgentRequest {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.val("input", &WireSeq(&self.input, opts))?;
        f.val("stream", &self.stream)?;
        f.opt("id", self.id.as_ref())?;
        f.opt("model", self.model.as_ref())?;
        f.opt("top_p", self.top_p.as_ref())?;
        f.opt("temperature", self.temperature.as_ref())?;
        f.opt("frequency_penalty", self.frequency_penalty.as_ref())?;
        f.opt("presence_penalty", self.presence_penalty.as_ref())?;
        f.opt("max_tokens", self.max_tokens.as_ref())?;
        f.opt("stop", self.stop.as_ref())?;
        f.opt("n", self.n.as_ref())?;
        f.opt("seed", self.seed.as_ref())?;
        f.models("tools", self.tools.as_ref())?;
        f.opt("session_id", self.session_id.as_ref())?;
        f.opt("user_id", self.user_id.as_ref())?;
        f.extra(&self.extra)?;
        f.end()
    }
}

impl Serialize for AgentRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_wire(serializer, JsonOptions::new())
    }
}

impl<'de> Deserialize<'de> for AgentRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let super::JsonValue(v) = super::JsonValue::deserialize(deserializer)?;
        AgentRequest::from_value(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(json: &str) -> (String, String) {
        let e = parse_request(json).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidRequest, "{e:?}");
        (e.field().unwrap_or("").to_owned(), e.message().to_owned())
    }

    #[test]
    fn validation_errors_name_the_field() {
        assert_eq!(err("{}"), ("input".into(), "input: Field required".into()));
        assert_eq!(err(r#"{"input":"x"}"#).0, "input");
        assert_eq!(err(r#"{"input":[{"content":"hi"}]}"#).0, "input.0.content");
        assert_eq!(
            err(r#"{"input":[{"content":[{"type":"text","text":"a"},{"text":"b"}]}]}"#).0,
            "input.0.content.1"
        );
        assert_eq!(
            err(r#"{"input":[{"content":[{"type":"text","text":5}]}]}"#).0,
            "input.0.content.0.text.text"
        );
        assert_eq!(err(r#"{"input":[{"role":"bot"}]}"#).0, "input.0.role");
        assert_eq!(err(r#"{"input":[],"n":0}"#).0, "n");
        assert_eq!(err(r#"{"input":[],"n":6}"#).0, "n");
        assert_eq!(
            parse_request("{").unwrap_err().code(),
            ErrorCode::InvalidJson
        );
    }

    #[test]
    fn defaults_and_extras() {
        let r = parse_request(r#"{"zz":2,"input":[],"stop":["a"]}"#).unwrap();
        assert_eq!(
            r.to_json(),
            r#"{"input":[],"stream":true,"id":null,"model":null,"top_p":null,"temperature":null,"frequency_penalty":null,"presence_penalty":null,"max_tokens":null,"stop":["a"],"n":1,"seed":null,"tools":null,"session_id":null,"user_id":null,"zz":2}"#
        );
        assert_eq!(
            r.to_json_with(JsonOptions::new().omit_nulls(true)),
            r#"{"input":[],"stream":true,"stop":["a"],"n":1,"zz":2}"#
        );
    }
}
