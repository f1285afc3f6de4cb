//! Tool, function-call and MCP models (`reference/agentscope-protocol.md` §2.2), and the
//! protocol's own `Error` object ([`ErrorInfo`]).
//!
//! None of these is an event. They are `DataContent.data` payloads (turn one into a payload with
//! [`to_data`]) or `AgentRequest.tools` entries. Like the reference's plain pydantic models they
//! ignore unknown keys when read.

// Matches here are over `serde_json::Value`, a closed set of six JSON kinds.
#![allow(clippy::wildcard_enum_match_arm)]

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::json::{Fields, JsonMap, JsonOptions, Wire, WireSerialize};
use super::validate::{Ctx, Path};
use crate::{Error, ErrorCode, Result};

/// The protocol's `Error` object: `{"code": ..., "message": ...}`, carried by failed events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// Machine-readable error code, e.g. `AGENT_UNKNOWN_ERROR`.
    pub code: String,
    /// Human-readable message.
    pub message: String,
}

impl ErrorInfo {
    /// A new error object.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorInfo {
            code: code.into(),
            message: message.into(),
        }
    }

    pub(crate) fn from_value(v: Value, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        let map = ctx.model(v, path, "Error")?;
        let mut code = None;
        let mut message = None;
        for (k, v) in map {
            match k.as_str() {
                "code" => code = Some(v),
                "message" => message = Some(v),
                _ => {}
            }
        }
        let p = path.key("code");
        let code = ctx.string(code.ok_or_else(|| ctx.missing(&p))?, &p)?;
        let p = path.key("message");
        let message = ctx.string(message.ok_or_else(|| ctx.missing(&p))?, &p)?;
        Ok(ErrorInfo { code, message })
    }
}

impl WireSerialize for ErrorInfo {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(Some(2))?, opts);
        f.val("code", &self.code)?;
        f.val("message", &self.message)?;
        f.end()
    }
}

/// `FunctionParameters`: a JSON-schema object describing a function's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionParameters {
    /// The schema type; "must be `object`" (not enforced, as in the reference).
    #[serde(rename = "type")]
    pub schema_type: String,
    /// The properties of the parameters object.
    pub properties: JsonMap,
    /// Names of the required properties. The key is required; its value may be null.
    pub required: Option<Vec<String>>,
}

/// `FunctionTool.parameters`: `Union[FunctionParameters, Dict]`. pydantic's smart union keeps
/// the model when it validates (dropping unknown keys) and the raw dict otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Parameters {
    /// Validated as a `FunctionParameters` model.
    Schema(FunctionParameters),
    /// Any other JSON object, kept verbatim.
    Dict(JsonMap),
}

/// `FunctionTool`: a function offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionTool {
    /// Function name.
    pub name: String,
    /// What the function does.
    pub description: String,
    /// JSON schema of the parameters.
    pub parameters: Parameters,
}

/// `Tool`: `{"type": "function", "function": FunctionTool}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// The tool type; default `"function"`.
    #[serde(rename = "type")]
    pub tool_type: Option<String>,
    /// The function, if any.
    pub function: Option<FunctionTool>,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            tool_type: Some("function".to_owned()),
            function: None,
        }
    }
}

/// One entry of `AgentRequest.tools`: `Union[Tool, Dict]`. A JSON object that validates as a
/// [`Tool`] becomes one (unknown keys dropped, as pydantic does); any other object is kept as a
/// dict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ToolSpec {
    /// A validated tool model.
    Tool(Tool),
    /// Any other JSON object, kept verbatim.
    Dict(JsonMap),
}

impl FunctionParameters {
    fn from_map(map: &JsonMap) -> Option<Self> {
        let schema_type = map.get("type")?.as_str()?.to_owned();
        let properties = map.get("properties")?.as_object()?.clone();
        let required = match map.get("required")? {
            Value::Null => None,
            Value::Array(items) => Some(
                items
                    .iter()
                    .map(|i| i.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => return None,
        };
        Some(FunctionParameters {
            schema_type,
            properties,
            required,
        })
    }
}

impl FunctionTool {
    fn from_map(map: &JsonMap) -> Option<Self> {
        let name = map.get("name")?.as_str()?.to_owned();
        let description = map.get("description")?.as_str()?.to_owned();
        let parameters = match map.get("parameters")? {
            Value::Object(p) => match FunctionParameters::from_map(p) {
                Some(schema) => Parameters::Schema(schema),
                None => Parameters::Dict(p.clone()),
            },
            _ => return None,
        };
        Some(FunctionTool {
            name,
            description,
            parameters,
        })
    }
}

impl Tool {
    fn from_map(map: &JsonMap) -> Option<Self> {
        let tool_type = match map.get("type") {
            None => Some("function".to_owned()),
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return None,
        };
        let function = match map.get("function") {
            None | Some(Value::Null) => None,
            Some(Value::Object(f)) => Some(FunctionTool::from_map(f)?),
            Some(_) => return None,
        };
        Some(Tool {
            tool_type,
            function,
        })
    }
}

impl ToolSpec {
    pub(crate) fn from_value(v: Value, path: &Path<'_>, ctx: &Ctx) -> Result<Self> {
        match v {
            Value::Object(map) => Ok(match Tool::from_map(&map) {
                Some(tool) => ToolSpec::Tool(tool),
                None => ToolSpec::Dict(map),
            }),
            // pydantic reports both union members; the first is the model.
            _ => Err(ctx.err(
                &path.key("Tool"),
                "Input should be a valid dictionary or instance of Tool",
            )),
        }
    }
}

impl WireSerialize for FunctionParameters {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.val("type", &self.schema_type)?;
        f.val("properties", &self.properties)?;
        f.opt("required", self.required.as_ref())?;
        f.end()
    }
}

impl WireSerialize for FunctionTool {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.val("name", &self.name)?;
        f.val("description", &self.description)?;
        match &self.parameters {
            Parameters::Schema(p) => f.val("parameters", &Wire(p, opts))?,
            Parameters::Dict(d) => f.val("parameters", d)?,
        }
        f.end()
    }
}

impl WireSerialize for Tool {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut f = Fields::new(s.serialize_map(None)?, opts);
        f.opt("type", self.tool_type.as_ref())?;
        f.model("function", self.function.as_ref())?;
        f.end()
    }
}

impl WireSerialize for ToolSpec {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        match self {
            ToolSpec::Tool(t) => t.serialize_wire(s, opts),
            ToolSpec::Dict(d) => {
                let mut m = s.serialize_map(Some(d.len()))?;
                for (k, v) in d {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

/// `FunctionCall`: the `data` of a `function_call` / `plugin_call` part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// The ID of the tool call.
    #[serde(default)]
    pub call_id: Option<String>,
    /// The name of the function.
    #[serde(default)]
    pub name: Option<String>,
    /// The arguments, as a JSON string.
    #[serde(default)]
    pub arguments: Option<String>,
}

/// `FunctionCallOutput`: the `data` of a `function_call_output` / `plugin_call_output` part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCallOutput {
    /// The ID of the tool call.
    pub call_id: String,
    /// The name of the tool.
    #[serde(default)]
    pub name: Option<String>,
    /// The result, as a string.
    pub output: String,
}

/// `McpCall`: the `data` of an `mcp_call` part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpCall {
    /// The ID of the tool call.
    #[serde(default)]
    pub call_id: Option<String>,
    /// The arguments, as a JSON string.
    #[serde(default)]
    pub arguments: Option<String>,
    /// The tool name.
    #[serde(default)]
    pub name: Option<String>,
    /// The label of the MCP server.
    #[serde(default)]
    pub server_label: Option<String>,
}

/// `McpCallOutput`: the `data` of an `mcp_call_output` part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpCallOutput {
    /// The ID of the tool call.
    pub call_id: String,
    /// The tool name.
    #[serde(default)]
    pub name: Option<String>,
    /// The output.
    pub output: String,
}

/// `McpListToolsTool`: one tool of an MCP server.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct McpListToolsTool {
    /// JSON schema of the input.
    pub input_schema: Value,
    /// Tool name.
    pub name: String,
    /// Extra annotations.
    #[serde(default)]
    pub annotations: Option<Value>,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
}

/// `McpListTools`: the tools of one MCP server.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct McpListTools {
    /// The list's ID.
    pub id: String,
    /// The label of the MCP server.
    pub server_label: String,
    /// The tools.
    pub tools: Vec<McpListToolsTool>,
    /// Error message if the server could not list its tools.
    #[serde(default)]
    pub error: Option<String>,
}

/// `McpApprovalRequest`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpApprovalRequest {
    /// The request's ID.
    pub id: String,
    /// The arguments, as a JSON string.
    pub arguments: String,
    /// The tool name.
    pub name: String,
    /// The label of the MCP server.
    pub server_label: String,
}

/// `McpApprovalResponse`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpApprovalResponse {
    /// The ID of the approval request answered.
    pub approval_request_id: String,
    /// Whether it was approved.
    pub approve: bool,
    /// The response's ID.
    #[serde(default)]
    pub id: Option<String>,
    /// Reason for the decision.
    #[serde(default)]
    pub reason: Option<String>,
}

/// `ToolCall` (used by the Responses adapter).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The arguments, as a JSON string.
    pub arguments: String,
    /// The ID of the call.
    pub call_id: String,
    /// The function name.
    pub name: String,
}

/// `ToolCallOutput`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallOutput {
    /// The ID of the call.
    pub call_id: String,
    /// The output, as a JSON string.
    pub output: String,
}

/// Turns a model into a `data` payload, like the reference's `model.model_dump()`.
pub fn to_data<T: Serialize>(model: &T) -> Result<JsonMap> {
    match serde_json::to_value(model) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::new(
            ErrorCode::InvalidOption,
            "a data payload must serialise to a JSON object",
        )),
        Err(e) => Err(Error::new(ErrorCode::InvalidOption, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::json::to_pydantic_string;

    #[test]
    fn function_call_dump_keeps_nulls() {
        let fc = FunctionCall {
            call_id: Some("c1".into()),
            name: Some("f".into()),
            arguments: None,
        };
        let data = to_data(&fc).unwrap();
        assert_eq!(
            to_pydantic_string(&data),
            r#"{"call_id":"c1","name":"f","arguments":null}"#
        );
    }

    #[test]
    fn tool_union_prefers_the_model() {
        let ctx = Ctx::REQUEST;
        let p = Path::ROOT;
        let v = serde_json::json!({"foo": 1});
        let t = ToolSpec::from_value(v, &p, &ctx).unwrap();
        assert_eq!(t, ToolSpec::Tool(Tool::default()));
        let v = serde_json::json!({"type": "function", "function": {"name": "f"}});
        assert!(matches!(
            ToolSpec::from_value(v, &p, &ctx).unwrap(),
            ToolSpec::Dict(_)
        ));
        let e = ToolSpec::from_value(serde_json::json!(5), &p.key("tools").index(0), &ctx);
        assert_eq!(e.unwrap_err().field(), Some("tools.0.Tool"));
    }
}
