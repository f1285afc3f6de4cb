//! Option types of the builder, each built with `new()` and consuming `with_*`-style setters
//! (fields private, so that adding one is not a breaking change).

use std::fmt;
use std::sync::Arc;

use crate::codec::Format;
use crate::protocol::{Clock, JsonMap, MessageType, Role};
use crate::responses::ResponseEcho;
use crate::Protocol;

/// Options of a [`ResponseBuilder`](super::ResponseBuilder) (JS: the constructor's option bag).
///
/// Defaults: the Agent API, a fresh `response_<uuid4>` id, no session id, SSE framing, nulls
/// kept, and the system clock (on `wasm32` there is none: pass a [`Clock`] that reads `Date.now()`, otherwise
/// every timestamp is 0).
#[derive(Clone, Default)]
pub struct BuilderOptions {
    pub(crate) session_id: Option<String>,
    pub(crate) response_id: Option<String>,
    pub(crate) format: Option<Format>,
    pub(crate) omit_nulls: bool,
    pub(crate) clock: Option<Arc<dyn Clock + Send + Sync>>,
    pub(crate) protocol: Option<Protocol>,
    pub(crate) thread_id: Option<String>,
    pub(crate) run_id: Option<String>,
    pub(crate) request_id: Option<serde_json::Value>,
    pub(crate) model: Option<String>,
    pub(crate) echo: Option<ResponseEcho>,
    pub(crate) event_ids: bool,
}

impl BuilderOptions {
    /// The defaults.
    pub fn new() -> Self {
        BuilderOptions::default()
    }

    /// `sessionId`: the response's `session_id`.
    #[must_use]
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.session_id = Some(id.into());
        self
    }

    /// `responseId`: the response's `id` (default `response_<uuid4>`).
    #[must_use]
    pub fn response_id(mut self, id: impl Into<String>) -> Self {
        self.response_id = Some(id.into());
        self
    }

    /// `format`: [`Format::Sse`] (default) or [`Format::Ndjson`].
    #[must_use]
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// `omitNulls`: drop null fields, like `model_dump_json(exclude_none=True)`.
    #[must_use]
    pub fn omit_nulls(mut self, yes: bool) -> Self {
        self.omit_nulls = yes;
        self
    }

    /// The source of `created_at` / `completed_at` (epoch seconds).
    #[must_use]
    pub fn clock(mut self, clock: impl Clock + Send + Sync + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// `protocol`: the wire protocol [`ResponseBuilder::new`](super::ResponseBuilder::new)
    /// writes: [`Protocol::AgentApi`] (default), [`Protocol::AgUi`],
    /// [`Protocol::OpenAiResponses`], [`Protocol::A2a`] (A2A 1.0) or [`Protocol::A2a03`].
    #[must_use]
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = Some(protocol);
        self
    }

    /// `requestId`: the JSON-RPC `id` an A2A stream answers (a string, an integer or null;
    /// default null, as the translator's).
    #[must_use]
    pub fn request_id(mut self, id: serde_json::Value) -> Self {
        self.request_id = Some(id);
        self
    }

    /// `eventIds`: every SSE event carries `id: N`, `N` counting the stream's events from 0 (a
    /// cursor for resuming: see [`EventIds`](crate::emit::EventIds)). SSE only.
    #[must_use]
    pub fn event_ids(mut self, yes: bool) -> Self {
        self.event_ids = yes;
        self
    }

    /// `model`: the `model` an OpenAI Responses stream names (default `""`).
    #[must_use]
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// `request`: what every `response` object of an OpenAI Responses stream repeats of the
    /// `create` request it answers (default: the API's defaults, [`ResponseEcho::default`]).
    #[must_use]
    pub fn echo(mut self, echo: ResponseEcho) -> Self {
        self.echo = Some(echo);
        self
    }

    /// `threadId`: the AG-UI `threadId` (default: the session id, else a fresh id).
    #[must_use]
    pub fn thread_id(mut self, id: impl Into<String>) -> Self {
        self.thread_id = Some(id.into());
        self
    }

    /// `runId`: the AG-UI `runId` (default: the response id).
    #[must_use]
    pub fn run_id(mut self, id: impl Into<String>) -> Self {
        self.run_id = Some(id.into());
        self
    }
}

impl fmt::Debug for BuilderOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuilderOptions")
            .field("session_id", &self.session_id)
            .field("response_id", &self.response_id)
            .field("format", &self.format)
            .field("omit_nulls", &self.omit_nulls)
            .field("clock", &self.clock.as_ref().map(|_| "custom"))
            .field("protocol", &self.protocol)
            .field("thread_id", &self.thread_id)
            .field("run_id", &self.run_id)
            .finish()
    }
}

/// Options of a new message (JS: `rb.message({role, type})`).
///
/// Defaults: role `assistant`, type `message`, a fresh `msg_<uuid4>` id, no usage, no metadata.
#[derive(Debug, Clone)]
pub struct MessageOptions {
    pub(crate) role: Option<Role>,
    pub(crate) message_type: MessageType,
    pub(crate) id: Option<String>,
    pub(crate) usage: Option<JsonMap>,
    pub(crate) metadata: Option<JsonMap>,
}

impl Default for MessageOptions {
    fn default() -> Self {
        MessageOptions {
            role: Some(Role::Assistant),
            message_type: MessageType::Message,
            id: None,
            usage: None,
            metadata: None,
        }
    }
}

impl MessageOptions {
    /// An assistant `message`.
    pub fn new() -> Self {
        MessageOptions::default()
    }

    /// An assistant `reasoning` message (its text parts are the thinking).
    pub fn reasoning() -> Self {
        MessageOptions::new().message_type(MessageType::Reasoning)
    }

    /// `role` (`None` writes `"role": null`).
    #[must_use]
    pub fn role(mut self, role: Option<Role>) -> Self {
        self.role = role;
        self
    }

    /// `type`: any [`MessageType`], including unknown strings.
    #[must_use]
    pub fn message_type(mut self, message_type: MessageType) -> Self {
        self.message_type = message_type;
        self
    }

    /// The message id (default `msg_<uuid4>`); it must be unique within the response.
    #[must_use]
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The message's `usage` (the run's `usage` defaults to the last completed message's).
    #[must_use]
    pub fn usage(mut self, usage: JsonMap) -> Self {
        self.usage = Some(usage);
        self
    }

    /// The message's `metadata`.
    #[must_use]
    pub fn metadata(mut self, metadata: JsonMap) -> Self {
        self.metadata = Some(metadata);
        self
    }
}

/// Options of [`ResponseBuilder::completed`](super::ResponseBuilder::completed) (JS:
/// `completed({usage, closeOpen})`).
#[derive(Debug, Clone, Default)]
pub struct CompleteOptions {
    pub(crate) usage: Option<JsonMap>,
    pub(crate) close_open: bool,
}

impl CompleteOptions {
    /// No usage, and an error if a message is still open.
    pub fn new() -> Self {
        CompleteOptions::default()
    }

    /// `usage` of the run. Without it, the run's usage is the last completed message's
    /// `usage`, as the reference runner sets it.
    #[must_use]
    pub fn usage(mut self, usage: JsonMap) -> Self {
        self.usage = Some(usage);
        self
    }

    /// `closeOpen`: complete every open content part and message first (in creation order),
    /// instead of failing with `BUILDER_STATE`.
    #[must_use]
    pub fn close_open(mut self, yes: bool) -> Self {
        self.close_open = yes;
        self
    }
}

/// The family of a tool call: which message types carry the call and its output
/// (`reference/agentscope-protocol.md` §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ToolKind {
    /// `function_call` / `function_call_output` (OpenAI style).
    #[default]
    Function,
    /// `plugin_call` / `plugin_call_output` (what the bundled framework adapters emit).
    Plugin,
    /// `mcp_call` / `mcp_call_output`.
    Mcp,
}

impl ToolKind {
    /// The message type of the call.
    pub fn call_type(self) -> MessageType {
        match self {
            ToolKind::Function => MessageType::FunctionCall,
            ToolKind::Plugin => MessageType::PluginCall,
            ToolKind::Mcp => MessageType::McpToolCall,
        }
    }

    /// The message type of the output.
    pub fn output_type(self) -> MessageType {
        match self {
            ToolKind::Function => MessageType::FunctionCallOutput,
            ToolKind::Plugin => MessageType::PluginCallOutput,
            ToolKind::Mcp => MessageType::McpToolCallOutput,
        }
    }
}

/// A tool call to stream (JS: `rb.toolCall({name, callId, type?, arguments?, serverLabel?,
/// id?})`, `type` being `"function"`, `"plugin"` or `"mcp"`).
#[derive(Debug, Clone)]
pub struct ToolCallOptions {
    pub(crate) kind: ToolKind,
    pub(crate) call_id: String,
    pub(crate) name: String,
    pub(crate) arguments: String,
    pub(crate) server_label: Option<String>,
    pub(crate) message: MessageOptions,
}

impl ToolCallOptions {
    /// A call of `kind` with its `call_id` and tool `name`; arguments start empty.
    pub fn new(kind: ToolKind, call_id: impl Into<String>, name: impl Into<String>) -> Self {
        ToolCallOptions {
            kind,
            call_id: call_id.into(),
            name: name.into(),
            arguments: String::new(),
            server_label: None,
            message: MessageOptions::new().message_type(kind.call_type()),
        }
    }

    /// The initial `arguments` string (default `""`); later pieces are appended.
    #[must_use]
    pub fn arguments(mut self, arguments: impl Into<String>) -> Self {
        self.arguments = arguments.into();
        self
    }

    /// `server_label` (MCP calls only; the data then follows the reference's `McpCall` field
    /// order `call_id, arguments, name, server_label`).
    #[must_use]
    pub fn server_label(mut self, label: impl Into<String>) -> Self {
        self.server_label = Some(label.into());
        self
    }

    /// The message id (default `msg_<uuid4>`).
    #[must_use]
    pub fn message_id(mut self, id: impl Into<String>) -> Self {
        self.message = self.message.id(id);
        self
    }
}

/// A tool's output, emitted in one call (JS: `rb.toolOutput({callId, output, name?, type?,
/// id?})`).
#[derive(Debug, Clone)]
pub struct ToolOutputOptions {
    pub(crate) call_id: String,
    pub(crate) name: Option<String>,
    pub(crate) output: String,
    pub(crate) message: MessageOptions,
}

impl ToolOutputOptions {
    /// The `output` (a string, usually JSON) of call `call_id`; role `tool`, type `*_output`.
    pub fn new(kind: ToolKind, call_id: impl Into<String>, output: impl Into<String>) -> Self {
        ToolOutputOptions {
            call_id: call_id.into(),
            name: None,
            output: output.into(),
            message: MessageOptions::new()
                .role(Some(Role::Tool))
                .message_type(kind.output_type()),
        }
    }

    /// The tool `name` (written as `null` when not given, as `FunctionCallOutput` allows).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The message id (default `msg_<uuid4>`).
    #[must_use]
    pub fn message_id(mut self, id: impl Into<String>) -> Self {
        self.message = self.message.id(id);
        self
    }
}
