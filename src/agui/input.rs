//! What a run starts from: [`RunAgentInput`] and its pieces ([`Tool`], [`Context`],
//! [`ResumeEntry`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::message::{Message, Metadata};
use super::schema;
use crate::Result;

/// A tool the agent may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Conventionally a JSON Schema of the arguments; any JSON but `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A named piece of ambient information given to the agent for the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    /// What the value is.
    pub description: String,
    /// The value.
    pub value: String,
}

/// How an interrupt was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResumeStatus {
    /// The interrupt was answered.
    Resolved,
    /// The interrupt was declined.
    Cancelled,
}

/// An answer to one interrupt, sent on the run that continues from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeEntry {
    /// The interrupt answered.
    pub interrupt_id: String,
    /// Resolved or cancelled.
    pub status: ResumeStatus,
    /// The answer; any JSON but `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A request to run an agent (the body of the HTTP POST), also echoed as `RUN_STARTED.input`.
///
/// # Example
///
/// ```
/// use agentwire::agui::RunAgentInput;
///
/// let input = RunAgentInput::from_json(r#"{"threadId":"t1","runId":"r1","messages":[]}"#)?;
/// assert!(input.tools.is_empty());
/// let err = RunAgentInput::from_json(r#"{"runId":"r1","messages":[]}"#).unwrap_err();
/// assert!(err.message().contains("threadId"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    /// The conversation thread.
    pub thread_id: String,
    /// This run.
    pub run_id: String,
    /// The protocol version the sender speaks (`"1.0"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// The run this one continues from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    /// The agent state the run starts from (`null` on the wire reads as absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools the agent may call (default empty).
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Ambient context (default empty).
    #[serde(default)]
    pub context: Vec<Context>,
    /// Anything the application forwards to the agent; any JSON but `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forwarded_props: Option<Value>,
    /// Answers to the interrupts the previous run left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Vec<ResumeEntry>>,
}

impl RunAgentInput {
    /// Reads and validates a request body. Legacy `binary` parts are upgraded and optional
    /// `null`s the 0.x SDKs sent are read as absent; unknown fields are removed (their paths
    /// are listed by [`RunAgentInput::from_value_with_warnings`]).
    ///
    /// # Errors
    ///
    /// `INVALID_JSON` for text that is not JSON; `INVALID_REQUEST` naming the field for a
    /// missing or malformed one (e.g. a missing `threadId`).
    pub fn from_json(text: &str) -> Result<Self> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            crate::Error::new(
                crate::ErrorCode::InvalidJson,
                format!("The request body is not valid JSON: {e}."),
            )
        })?;
        Ok(Self::from_value_with_warnings(value)?.0)
    }

    /// As [`RunAgentInput::from_json`], from a parsed value; also returns the JSON-pointer
    /// paths of the unknown material that was removed.
    ///
    /// # Errors
    ///
    /// `INVALID_REQUEST` naming the field for a missing or malformed one.
    pub fn from_value_with_warnings(mut value: Value) -> Result<(Self, Vec<String>)> {
        schema::normalize_legacy_input(&mut value);
        let stripped = schema::check(&mut value, &schema::RUN_AGENT_INPUT).map_err(|issues| {
            issues.into_error(crate::ErrorCode::InvalidRequest, "RunAgentInput")
        })?;
        let serde_json::Value::Object(map) = value else {
            return Err(crate::Error::new(
                crate::ErrorCode::InvalidRequest,
                "RunAgentInput must be a JSON object.",
            ));
        };
        Ok((super::read::input(map), stripped))
    }

    /// Compact JSON, optional fields absent rather than `null`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
