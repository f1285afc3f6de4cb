//! How runs and subagents end: outcomes, interrupts, token usage.

use serde::{Deserialize, Serialize};

use super::message::Metadata;
use crate::protocol::JsonMap;

/// Something a run needs from outside before it can continue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupt {
    /// The subagent that raised it, when attributed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The interrupt id (answered by a [`ResumeEntry`](super::ResumeEntry)).
    pub id: String,
    /// Why (open string, e.g. `"approval"`).
    pub reason: String,
    /// A message for the person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The tool call it concerns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A JSON Schema the answer must satisfy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<JsonMap>,
    /// When it expires (ISO 8601 by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// Why a run ended (`RUN_FINISHED.outcome`; absent means success).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum RunFinishedOutcome {
    /// The run completed, possibly leaving tool calls for the application to answer.
    #[serde(rename_all = "camelCase")]
    Success {
        /// Tool calls the application must answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pending_tool_call_ids: Option<Vec<String>>,
    },
    /// The run is paused awaiting outside input (at least one interrupt).
    Interrupt {
        /// What it waits for.
        interrupts: Vec<Interrupt>,
    },
    /// The run was stopped before it completed, without failing (new in 1.0).
    Cancelled,
}

/// Why a subagent's segment ended (`SUBAGENT_FINISHED.outcome`; absent means success).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SubagentFinishedOutcome {
    /// The subagent completed.
    Success,
    /// The subagent is paused awaiting outside input.
    #[serde(rename_all = "camelCase")]
    Suspended {
        /// The interrupts it waits on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        interrupt_ids: Option<Vec<String>>,
    },
}

/// Token counts for one provider and model. Input and output are totals; reasoning, cached and
/// cache-write counts are parts of them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    /// The provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Input tokens (total).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens (total).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Input plus output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// Reasoning tokens (part of output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// Input tokens served from cache (part of input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    /// Input tokens written to cache (part of input; new in 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
}
