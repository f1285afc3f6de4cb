//! [`Protocol`]: the wire protocols agentwire speaks, by the names the JS API uses.

/// A wire protocol agentwire speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Protocol {
    /// The Agent API of AgentScope Runtime (`POST /process`).
    AgentApi,
    /// AG-UI 1.0.
    AgUi,
    /// The OpenAI Responses API streaming events.
    OpenAiResponses,
    /// A2A `message/stream` results (JSON-RPC over SSE).
    A2a,
}

impl Protocol {
    /// The name the JS API uses: `"agent-api"`, `"ag-ui"`, `"openai-responses"` or `"a2a"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Protocol::AgentApi => "agent-api",
            Protocol::AgUi => "ag-ui",
            Protocol::OpenAiResponses => "openai-responses",
            Protocol::A2a => "a2a",
        }
    }

    /// Parses a JS name (see [`Protocol::as_str`]).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "agent-api" => Some(Protocol::AgentApi),
            "ag-ui" => Some(Protocol::AgUi),
            "openai-responses" => Some(Protocol::OpenAiResponses),
            "a2a" => Some(Protocol::A2a),
            _ => None,
        }
    }
}
