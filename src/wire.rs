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
    /// A2A 1.0: `SendStreamingMessage` results (`StreamResponse`s, JSON-RPC over SSE).
    A2a,
    /// A2A 0.3: `message/stream` results (with `kind`, and `final` on the last status update).
    A2a03,
}

impl Protocol {
    /// The name the JS API uses: `"agent-api"`, `"ag-ui"`, `"openai-responses"`, `"a2a"` (A2A
    /// 1.0) or `"a2a-0.3"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Protocol::AgentApi => "agent-api",
            Protocol::AgUi => "ag-ui",
            Protocol::OpenAiResponses => "openai-responses",
            Protocol::A2a => "a2a",
            Protocol::A2a03 => "a2a-0.3",
        }
    }

    /// Parses a JS name (see [`Protocol::as_str`]).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "agent-api" => Some(Protocol::AgentApi),
            "ag-ui" => Some(Protocol::AgUi),
            "openai-responses" => Some(Protocol::OpenAiResponses),
            "a2a" => Some(Protocol::A2a),
            "a2a-0.3" => Some(Protocol::A2a03),
            _ => None,
        }
    }
}
