//! What every Responses `response` object repeats of the `create` request it answers:
//! [`ResponseEcho`], the request's settings (`instructions`, `tools`, `tool_choice`,
//! `temperature`, …) as sent, and the API's documented default for each one it did not send.

use serde_json::{Map, Value};

use crate::codec::write::{raw, string, value};
use crate::protocol::JsonMap;
use crate::{Error, ErrorCode, Result};

/// The JSON type an echoed field must have (`null` always means "not sent").
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    Int,
    Number,
    Str,
    Object,
    /// `tool_choice`: a mode (`"auto"`, …) or an object naming a tool.
    StrOrObject,
    /// `tools`: a list of tool objects.
    Tools,
}

/// The echoed fields, in the order a `response` object carries them, with their defaults (JSON):
/// `instructions` and the token caps before `model` and `output`, the rest after them.
const BEFORE_OUTPUT: &[(&str, Kind, &str)] = &[
    ("background", Kind::Bool, "false"),
    ("instructions", Kind::Str, "null"),
    ("max_output_tokens", Kind::Int, "null"),
    ("max_tool_calls", Kind::Int, "null"),
];
const AFTER_OUTPUT: &[(&str, Kind, &str)] = &[
    ("parallel_tool_calls", Kind::Bool, "true"),
    ("previous_response_id", Kind::Str, "null"),
    ("prompt_cache_key", Kind::Str, "null"),
    (
        "reasoning",
        Kind::Object,
        "{\"effort\":null,\"summary\":null}",
    ),
    ("safety_identifier", Kind::Str, "null"),
    ("service_tier", Kind::Str, "\"default\""),
    ("store", Kind::Bool, "true"),
    ("temperature", Kind::Number, "1"),
    ("presence_penalty", Kind::Number, "0"),
    ("frequency_penalty", Kind::Number, "0"),
    ("text", Kind::Object, "{\"format\":{\"type\":\"text\"}}"),
    ("tool_choice", Kind::StrOrObject, "\"auto\""),
    ("tools", Kind::Tools, "[]"),
    ("top_logprobs", Kind::Int, "0"),
    ("top_p", Kind::Number, "1"),
    ("truncation", Kind::Str, "\"disabled\""),
];
/// After `usage`.
const LAST: &[(&str, Kind, &str)] = &[
    ("user", Kind::Str, "null"),
    ("metadata", Kind::Object, "{}"),
];

/// The settings of a `create` request that its `response` objects repeat.
///
/// Read from the request with [`ResponseEcho::from_request`]; the fields it did not send (or
/// sent as `null`) take the API's defaults: `tools: []`, `tool_choice: "auto"`,
/// `temperature: 1`, `top_p: 1`, `truncation: "disabled"`, `store: true`,
/// `parallel_tool_calls: true`, `text: {"format":{"type":"text"}}`,
/// `reasoning: {"effort":null,"summary":null}`, `service_tier: "default"`, `metadata: {}`,
/// `0` for the penalties and `top_logprobs`, `false` for `background`, `null` for the others.
/// A function tool is echoed with `description`, `parameters` and `strict` (`null` when not
/// sent); `text` and `reasoning` objects get the keys they lack from the defaults.
///
/// # Example
///
/// ```
/// use agentwire::responses::ResponseEcho;
///
/// let request = serde_json::json!({"input": "hi", "temperature": 0.2,
///     "tools": [{"type": "function", "name": "f"}]});
/// let echo = ResponseEcho::from_request(request.as_object().unwrap())?;
/// assert_eq!(echo.get("temperature"), Some(&serde_json::json!(0.2)));
/// assert_eq!(echo.get("tool_choice"), Some(&serde_json::json!("auto")));
/// assert_eq!(echo.get("tools").unwrap()[0]["strict"], serde_json::Value::Null);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseEcho {
    fields: JsonMap,
}

impl Default for ResponseEcho {
    /// Every field at its default: what a response to a request that set nothing repeats.
    fn default() -> Self {
        let mut fields = Map::new();
        for (name, _, default) in all() {
            fields.insert((*name).to_owned(), parse_default(default));
        }
        ResponseEcho { fields }
    }
}

fn all() -> impl Iterator<Item = &'static (&'static str, Kind, &'static str)> {
    BEFORE_OUTPUT.iter().chain(AFTER_OUTPUT).chain(LAST)
}

fn parse_default(json: &str) -> Value {
    serde_json::from_str(json).unwrap_or(Value::Null)
}

fn invalid(name: &str, what: &str) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!("`{name}` must be {what} or null."),
    )
    .with_field(name)
}

impl ResponseEcho {
    /// The echo of `request` (a `create` request body, or only some of its fields; other keys,
    /// `input` and `stream` among them, are not echoed).
    ///
    /// # Errors
    ///
    /// `INVALID_REQUEST` naming the field when an echoed field has the wrong JSON type
    /// (`temperature` not a number, `tools` not a list of objects, …).
    pub fn from_request(request: &JsonMap) -> Result<Self> {
        let mut echo = ResponseEcho::default();
        for (name, kind, default) in all() {
            let Some(given) = request.get(*name).filter(|v| !v.is_null()) else {
                continue;
            };
            let v = match (kind, given) {
                (Kind::Bool, Value::Bool(_))
                | (Kind::Str, Value::String(_))
                | (Kind::Number, Value::Number(_))
                | (Kind::StrOrObject, Value::String(_) | Value::Object(_)) => given.clone(),
                (Kind::Int, Value::Number(n)) if n.is_i64() || n.is_u64() => given.clone(),
                (Kind::Object, Value::Object(map)) => {
                    let mut map = map.clone();
                    // `text` and `reasoning`: the keys a response always has, filled in.
                    if let Value::Object(defaults) = parse_default(default) {
                        for (k, d) in defaults {
                            if map.get(&k).is_none_or(Value::is_null) {
                                map.insert(k, d);
                            }
                        }
                    }
                    Value::Object(map)
                }
                (Kind::Tools, Value::Array(tools)) => {
                    let mut out = Vec::with_capacity(tools.len());
                    for (i, tool) in tools.iter().enumerate() {
                        let Value::Object(tool) = tool else {
                            return Err(invalid(&format!("tools.{i}"), "an object"));
                        };
                        out.push(Value::Object(echoed_tool(tool)));
                    }
                    Value::Array(out)
                }
                (kind, _) => {
                    return Err(invalid(
                        name,
                        match kind {
                            Kind::Bool => "a boolean",
                            Kind::Int => "an integer",
                            Kind::Number => "a number",
                            Kind::Str => "a string",
                            Kind::Object => "an object",
                            Kind::StrOrObject => "a string or an object",
                            Kind::Tools => "a list of tools",
                        },
                    ))
                }
            };
            echo.fields.insert((*name).to_owned(), v);
        }
        Ok(echo)
    }

    /// The echoed value of `field` (`None` for a field that is not echoed).
    pub fn get(&self, field: &str) -> Option<&Value> {
        self.fields.get(field)
    }

    /// The fields as a JSON object (every echoed field, defaults included).
    pub fn to_map(&self) -> JsonMap {
        self.fields.clone()
    }

    /// Writes `,"name":value` for each field of `group`.
    fn write(&self, out: &mut Vec<u8>, group: &[(&str, Kind, &str)]) {
        for (name, _, default) in group {
            raw(out, ",");
            string(out, name);
            raw(out, ":");
            match self.fields.get(*name) {
                Some(v) => value(out, v),
                None => raw(out, default),
            }
        }
    }

    /// The fields a `response` object has before `model`.
    pub(crate) fn write_before_output(&self, out: &mut Vec<u8>) {
        self.write(out, BEFORE_OUTPUT);
    }

    /// The fields a `response` object has after `output`, before `usage`.
    pub(crate) fn write_after_output(&self, out: &mut Vec<u8>) {
        self.write(out, AFTER_OUTPUT);
    }

    /// The fields a `response` object has after `usage`.
    pub(crate) fn write_last(&self, out: &mut Vec<u8>) {
        self.write(out, LAST);
    }
}

/// A tool as a response repeats it: a function tool with `description`, `parameters` and
/// `strict` (`null` when the request left them out); other tools as sent.
fn echoed_tool(tool: &JsonMap) -> JsonMap {
    let mut tool = tool.clone();
    if tool.get("type").and_then(Value::as_str) == Some("function") {
        for key in ["description", "parameters", "strict"] {
            tool.entry(key).or_insert(Value::Null);
        }
    }
    tool
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn echo(v: Value) -> Result<ResponseEcho> {
        ResponseEcho::from_request(v.as_object().unwrap())
    }

    #[test]
    fn a_request_that_sets_nothing_echoes_the_defaults_in_order() {
        let mut out = Vec::new();
        let e = echo(json!({"input": "hi", "stream": true, "model": "m"})).unwrap();
        assert_eq!(e, ResponseEcho::default());
        e.write_before_output(&mut out);
        e.write_after_output(&mut out);
        e.write_last(&mut out);
        let text = format!("{{{}}}", &String::from_utf8(out).unwrap()[1..]);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"background": false, "instructions": null, "max_output_tokens": null,
                "max_tool_calls": null, "parallel_tool_calls": true, "previous_response_id": null,
                "prompt_cache_key": null, "reasoning": {"effort": null, "summary": null},
                "safety_identifier": null, "service_tier": "default", "store": true,
                "temperature": 1, "presence_penalty": 0, "frequency_penalty": 0,
                "text": {"format": {"type": "text"}}, "tool_choice": "auto", "tools": [],
                "top_logprobs": 0, "top_p": 1, "truncation": "disabled", "user": null,
                "metadata": {}})
        );
        assert!(!text.contains("input") && !text.contains("stream") && !text.contains("\"m\""));
    }

    #[test]
    fn the_request_values_are_echoed_with_their_missing_keys_filled() {
        let e = echo(json!({"instructions": "Be brief.", "temperature": 0.5, "top_p": 0.9,
            "max_output_tokens": 50, "store": false, "tool_choice": {"type": "function", "name": "f"},
            "text": {"verbosity": "low"}, "reasoning": {"effort": "low"}, "metadata": {"k": "v"},
            "previous_response_id": "resp_0", "user": "u1", "truncation": null,
            "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}},
                      {"type": "web_search"}]}))
        .unwrap();
        assert_eq!(e.get("instructions"), Some(&json!("Be brief.")));
        assert_eq!(e.get("temperature"), Some(&json!(0.5)));
        assert_eq!(e.get("max_output_tokens"), Some(&json!(50)));
        assert_eq!(e.get("store"), Some(&json!(false)));
        assert_eq!(e.get("truncation"), Some(&json!("disabled")));
        assert_eq!(
            e.get("text"),
            Some(&json!({"verbosity": "low", "format": {"type": "text"}}))
        );
        assert_eq!(
            e.get("reasoning"),
            Some(&json!({"effort": "low", "summary": null}))
        );
        assert_eq!(
            e.get("tools"),
            Some(
                &json!([{"type": "function", "name": "f", "parameters": {"type": "object"},
                "description": null, "strict": null}, {"type": "web_search"}])
            )
        );
        assert_eq!(e.get("previous_response_id"), Some(&json!("resp_0")));
        assert_eq!(e.get("user"), Some(&json!("u1")));
    }

    #[test]
    fn a_field_of_the_wrong_type_is_refused_naming_it() {
        for (body, field) in [
            (json!({"temperature": "hot"}), "temperature"),
            (json!({"max_output_tokens": 1.5}), "max_output_tokens"),
            (json!({"store": "yes"}), "store"),
            (json!({"tools": {}}), "tools"),
            (json!({"tools": [5]}), "tools.0"),
            (json!({"tool_choice": 3}), "tool_choice"),
            (json!({"metadata": []}), "metadata"),
            (json!({"instructions": 5}), "instructions"),
        ] {
            let e = echo(body.clone()).unwrap_err();
            assert_eq!(
                (e.code(), e.field()),
                (ErrorCode::InvalidRequest, Some(field)),
                "{body}"
            );
        }
    }
}
