//! The 31 AG-UI 1.0 events: [`Event`] (discriminated by `type`) and [`EventType`].
//!
//! Every event carries the base fields `timestamp?`, `rawEvent?` (never `null`) and `metadata?`;
//! all but the run-scoped ones (`RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR`,
//! `MESSAGES_SNAPSHOT`) carry the attribution `subagentRunId?`, which is required on the
//! `SUBAGENT_*` events. JSON is camelCase; optional fields are absent, never `null`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::content::Content;
use super::input::RunAgentInput;
use super::message::{Message, Metadata};
use super::outcome::{RunFinishedOutcome, SubagentFinishedOutcome, TokenUsage};
use crate::protocol::JsonMap;

macro_rules! event_structs {
    ($(
        $(#[$doc:meta])*
        $name:ident [$kind:ident] {
            $( $(#[$rdoc:meta])* $req:ident : $rty:ty, )*
        } optional {
            $( $(#[$odoc:meta])* $opt:ident : $oty:ty, )*
        }
    )*) => {$(
        event_structs!(@one $(#[$doc])* $name [$kind] { $( $(#[$rdoc])* $req : $rty, )* } { $( $(#[$odoc])* $opt : $oty, )* });
    )*};
    (@one $(#[$doc:meta])* $name:ident [attributable] { $( $(#[$rdoc:meta])* $req:ident : $rty:ty, )* } { $( $(#[$odoc:meta])* $opt:ident : $oty:ty, )* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $( $(#[$rdoc])* pub $req: $rty, )*
            $(
                $(#[$odoc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $opt: Option<$oty>,
            )*
            /// The subagent invocation that produced the event, when attributed.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub subagent_run_id: Option<String>,
            /// When the event was produced (an integer, ms since the epoch by convention).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub timestamp: Option<i64>,
            /// The provider-native event this one was translated from (never `null`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub raw_event: Option<Value>,
            /// Metadata, merged onto what the event builds.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub metadata: Option<Metadata>,
        }
    };
    (@one $(#[$doc:meta])* $name:ident [scoped] { $( $(#[$rdoc:meta])* $req:ident : $rty:ty, )* } { $( $(#[$odoc:meta])* $opt:ident : $oty:ty, )* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $( $(#[$rdoc])* pub $req: $rty, )*
            $(
                $(#[$odoc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $opt: Option<$oty>,
            )*
            /// When the event was produced (an integer, ms since the epoch by convention).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub timestamp: Option<i64>,
            /// The provider-native event this one was translated from (never `null`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub raw_event: Option<Value>,
            /// Metadata.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub metadata: Option<Metadata>,
        }
    };
}

/// The roles a streamed text message may take (`TEXT_MESSAGE_START`/`CHUNK`); absent means
/// `assistant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TextMessageRole {
    /// `"developer"`.
    Developer,
    /// `"system"`.
    System,
    /// `"assistant"` (the default).
    #[default]
    Assistant,
    /// `"user"`.
    User,
}

impl TextMessageRole {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            TextMessageRole::Developer => "developer",
            TextMessageRole::System => "system",
            TextMessageRole::Assistant => "assistant",
            TextMessageRole::User => "user",
        }
    }
}

/// The literal role of a reasoning message, `"reasoning"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ReasoningRole {
    /// `"reasoning"`.
    #[default]
    #[serde(rename = "reasoning")]
    Reasoning,
}

/// The literal role of a tool result, `"tool"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ToolRole {
    /// `"tool"`.
    #[default]
    #[serde(rename = "tool")]
    Tool,
}

/// What a `REASONING_ENCRYPTED_VALUE` belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncryptedValueSubtype {
    /// A tool call (`"tool-call"`).
    ToolCall,
    /// A text or reasoning message (`"message"`).
    Message,
}

event_structs! {
    /// `TEXT_MESSAGE_START`: opens a streamed text message.
    TextMessageStart [attributable] {
        /// The message id.
        message_id: String,
    } optional {
        /// The role (absent = `assistant`).
        role: TextMessageRole,
        /// An author name.
        name: String,
    }

    /// `TEXT_MESSAGE_CONTENT`: appends a fragment (may be `""`).
    TextMessageContent [attributable] {
        /// The message id.
        message_id: String,
        /// The fragment.
        delta: String,
    } optional {}

    /// `TEXT_MESSAGE_END`: closes a streamed text message.
    TextMessageEnd [attributable] {
        /// The message id.
        message_id: String,
    } optional {}

    /// `TEXT_MESSAGE_CHUNK`: shorthand for start/content/end (expanded by the client).
    TextMessageChunk [attributable] {} optional {
        /// The message id (required on the first chunk of a message).
        message_id: String,
        /// The role (absent = `assistant`).
        role: TextMessageRole,
        /// The fragment.
        delta: String,
        /// An author name.
        name: String,
    }

    /// `TOOL_CALL_START`: opens a tool call.
    ToolCallStart [attributable] {
        /// The call id.
        tool_call_id: String,
        /// The tool's name.
        tool_call_name: String,
    } optional {
        /// The assistant message that holds the call.
        parent_message_id: String,
    }

    /// `TOOL_CALL_ARGS`: appends a fragment of the arguments text.
    ToolCallArgs [attributable] {
        /// The call id.
        tool_call_id: String,
        /// The fragment.
        delta: String,
    } optional {}

    /// `TOOL_CALL_END`: the arguments are complete.
    ToolCallEnd [attributable] {
        /// The call id.
        tool_call_id: String,
    } optional {}

    /// `TOOL_CALL_CHUNK`: shorthand for start/args/end (expanded by the client).
    ToolCallChunk [attributable] {} optional {
        /// The call id (required on the first chunk of a call).
        tool_call_id: String,
        /// The tool name (required on the first chunk of a call).
        tool_call_name: String,
        /// The assistant message that holds the call.
        parent_message_id: String,
        /// The fragment.
        delta: String,
    }

    /// `TOOL_CALL_RESULT`: what a tool returned; mints a tool message.
    ToolCallResult [attributable] {
        /// The id of the tool message it mints.
        message_id: String,
        /// The call it answers.
        tool_call_id: String,
        /// A string, or content parts (1.0).
        content: Content,
    } optional {
        /// Always `"tool"` when present.
        role: ToolRole,
    }

    /// `STATE_SNAPSHOT`: replaces the state wholesale (any JSON, `null` included).
    StateSnapshot [attributable] {
        /// The new state.
        snapshot: Value,
    } optional {}

    /// `STATE_DELTA`: an RFC 6902 JSON Patch on the state.
    StateDelta [attributable] {
        /// The operations (objects `{op, path, value?, from?}`; extra members are kept).
        delta: Vec<Value>,
    } optional {}

    /// `MESSAGES_SNAPSHOT`: the producer's whole conversation, reconciled by id.
    MessagesSnapshot [scoped] {
        /// The messages.
        messages: Vec<Message>,
    } optional {}

    /// `ACTIVITY_SNAPSHOT`: creates or replaces an activity message.
    ActivitySnapshot [attributable] {
        /// The activity message id.
        message_id: String,
        /// The kind of activity.
        activity_type: String,
        /// The content (a JSON object).
        content: JsonMap,
    } optional {
        /// Whether to replace an existing message (absent = `true`).
        replace: bool,
    }

    /// `ACTIVITY_DELTA`: an RFC 6902 JSON Patch on an activity message's content.
    ActivityDelta [attributable] {
        /// The activity message id.
        message_id: String,
        /// The kind of activity.
        activity_type: String,
        /// The operations.
        patch: Vec<Value>,
    } optional {}

    /// `RAW`: a provider-native event passed through.
    Raw [attributable] {
        /// The provider event (any JSON, `null` included).
        event: Value,
    } optional {
        /// Where it came from.
        source: String,
    }

    /// `CUSTOM`: an application's own event.
    Custom [attributable] {
        /// The event name.
        name: String,
        /// The payload (any JSON, `null` included).
        value: Value,
    } optional {}

    /// `RUN_STARTED`: opens a run.
    RunStarted [scoped] {
        /// The thread.
        thread_id: String,
        /// The run.
        run_id: String,
    } optional {
        /// The protocol version the producer speaks.
        protocol_version: String,
        /// The run this one continues from.
        parent_run_id: String,
        /// An echo of the input (the client merges messages it has not seen).
        input: Box<RunAgentInput>,
    }

    /// `RUN_FINISHED`: closes a run that did not fail.
    RunFinished [scoped] {
        /// The thread.
        thread_id: String,
        /// The run.
        run_id: String,
    } optional {
        /// The run's result (any JSON but `null`).
        result: Value,
        /// Why it ended (absent = success).
        outcome: RunFinishedOutcome,
        /// Token usage per provider and model.
        usage: Vec<TokenUsage>,
    }

    /// `RUN_ERROR`: the run failed (delivered, not a client rejection).
    RunError [scoped] {
        /// What went wrong.
        message: String,
    } optional {
        /// An open error code (`"abort"` when the client aborted).
        code: String,
        /// Token usage per provider and model.
        usage: Vec<TokenUsage>,
    }

    /// `STEP_STARTED`: opens a named step.
    StepStarted [attributable] {
        /// The step name.
        step_name: String,
    } optional {}

    /// `STEP_FINISHED`: closes a named step.
    StepFinished [attributable] {
        /// The step name.
        step_name: String,
    } optional {}

    /// `REASONING_START`: opens a reasoning span (the id namespaces nothing).
    ReasoningStart [attributable] {
        /// The span id.
        message_id: String,
    } optional {}

    /// `REASONING_MESSAGE_START`: opens a streamed reasoning message.
    ReasoningMessageStart [attributable] {
        /// The message id.
        message_id: String,
        /// Always `"reasoning"`.
        role: ReasoningRole,
    } optional {}

    /// `REASONING_MESSAGE_CONTENT`: appends a fragment of reasoning.
    ReasoningMessageContent [attributable] {
        /// The message id.
        message_id: String,
        /// The fragment.
        delta: String,
    } optional {}

    /// `REASONING_MESSAGE_END`: closes a reasoning message.
    ReasoningMessageEnd [attributable] {
        /// The message id.
        message_id: String,
    } optional {}

    /// `REASONING_MESSAGE_CHUNK`: shorthand for a reasoning message (expanded by the client).
    ReasoningMessageChunk [attributable] {} optional {
        /// The message id (required on the first chunk).
        message_id: String,
        /// The fragment.
        delta: String,
    }

    /// `REASONING_END`: closes a reasoning span.
    ReasoningEnd [attributable] {
        /// The span id.
        message_id: String,
    } optional {}

    /// `REASONING_ENCRYPTED_VALUE`: an opaque encrypted reasoning artefact for a message or a
    /// tool call.
    ReasoningEncryptedValue [attributable] {
        /// Whether it belongs to a tool call or a message.
        subtype: EncryptedValueSubtype,
        /// The message or tool-call id.
        entity_id: String,
        /// The artefact.
        encrypted_value: String,
    } optional {
        /// What kind of artefact it is (protocol 1.1).
        encrypted_value_type: String,
    }

    /// `SUBAGENT_STARTED`: a subagent invocation began.
    SubagentStarted [scoped] {
        /// The invocation id.
        subagent_run_id: String,
        /// The subagent's name.
        name: String,
    } optional {
        /// What it does.
        description: String,
        /// The enclosing invocation.
        parent_subagent_run_id: String,
        /// The tool call that delegated to it.
        parent_tool_call_id: String,
        /// The message that delegated to it.
        parent_message_id: String,
    }

    /// `SUBAGENT_FINISHED`: a subagent's segment ended (completed or suspended).
    SubagentFinished [scoped] {
        /// The invocation id.
        subagent_run_id: String,
    } optional {
        /// Its result (any JSON but `null`).
        result: Value,
        /// Why it ended (absent = success).
        outcome: SubagentFinishedOutcome,
    }

    /// `SUBAGENT_ERROR`: a subagent invocation failed (the run may continue).
    SubagentError [scoped] {
        /// The invocation id.
        subagent_run_id: String,
        /// What went wrong.
        message: String,
    } optional {
        /// An open error code.
        code: String,
    }
}

macro_rules! event_enum {
    ($( $variant:ident = $name:literal, )*) => {
        /// The discriminator of every event: the 31 AG-UI 1.0 event types.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum EventType {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $variant,
            )*
        }

        impl EventType {
            /// Every event type, in protobuf enum order.
            pub const ALL: [EventType; 31] = [$(EventType::$variant,)*];

            /// The wire name, e.g. `"TEXT_MESSAGE_START"`.
            pub const fn as_str(self) -> &'static str {
                match self { $(EventType::$variant => $name,)* }
            }

            /// Parses a wire name; `None` for a type AG-UI 1.0 does not define.
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($name => Some(EventType::$variant),)* _ => None }
            }
        }

        /// Any AG-UI event, discriminated by `type`.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type")]
        pub enum Event {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $variant($variant),
            )*
        }

        impl Event {
            /// The event's type.
            pub fn event_type(&self) -> EventType {
                match self { $(Event::$variant(_) => EventType::$variant,)* }
            }

            /// The event's metadata, when any.
            pub fn metadata(&self) -> Option<&Metadata> {
                match self { $(Event::$variant(e) => e.metadata.as_ref(),)* }
            }

            /// The event's raw provider event, when any.
            pub fn raw_event(&self) -> Option<&Value> {
                match self { $(Event::$variant(e) => e.raw_event.as_ref(),)* }
            }

        }
    };
}

event_enum! {
    TextMessageStart = "TEXT_MESSAGE_START",
    TextMessageContent = "TEXT_MESSAGE_CONTENT",
    TextMessageEnd = "TEXT_MESSAGE_END",
    ToolCallStart = "TOOL_CALL_START",
    ToolCallArgs = "TOOL_CALL_ARGS",
    ToolCallEnd = "TOOL_CALL_END",
    StateSnapshot = "STATE_SNAPSHOT",
    StateDelta = "STATE_DELTA",
    MessagesSnapshot = "MESSAGES_SNAPSHOT",
    Raw = "RAW",
    Custom = "CUSTOM",
    RunStarted = "RUN_STARTED",
    RunFinished = "RUN_FINISHED",
    RunError = "RUN_ERROR",
    StepStarted = "STEP_STARTED",
    StepFinished = "STEP_FINISHED",
    SubagentStarted = "SUBAGENT_STARTED",
    SubagentFinished = "SUBAGENT_FINISHED",
    SubagentError = "SUBAGENT_ERROR",
    TextMessageChunk = "TEXT_MESSAGE_CHUNK",
    ToolCallChunk = "TOOL_CALL_CHUNK",
    ToolCallResult = "TOOL_CALL_RESULT",
    ActivitySnapshot = "ACTIVITY_SNAPSHOT",
    ActivityDelta = "ACTIVITY_DELTA",
    ReasoningStart = "REASONING_START",
    ReasoningMessageStart = "REASONING_MESSAGE_START",
    ReasoningMessageContent = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd = "REASONING_MESSAGE_END",
    ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK",
    ReasoningEnd = "REASONING_END",
    ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE",
}

impl Event {
    /// The event's `subagentRunId`: the attribution, or on `SUBAGENT_*` the invocation id.
    pub fn subagent_run_id(&self) -> Option<&str> {
        match self {
            Event::RunStarted(_)
            | Event::RunFinished(_)
            | Event::RunError(_)
            | Event::MessagesSnapshot(_) => None,
            Event::SubagentStarted(e) => Some(&e.subagent_run_id),
            Event::SubagentFinished(e) => Some(&e.subagent_run_id),
            Event::SubagentError(e) => Some(&e.subagent_run_id),
            Event::TextMessageStart(e) => e.subagent_run_id.as_deref(),
            Event::TextMessageContent(e) => e.subagent_run_id.as_deref(),
            Event::TextMessageEnd(e) => e.subagent_run_id.as_deref(),
            Event::TextMessageChunk(e) => e.subagent_run_id.as_deref(),
            Event::ToolCallStart(e) => e.subagent_run_id.as_deref(),
            Event::ToolCallArgs(e) => e.subagent_run_id.as_deref(),
            Event::ToolCallEnd(e) => e.subagent_run_id.as_deref(),
            Event::ToolCallChunk(e) => e.subagent_run_id.as_deref(),
            Event::ToolCallResult(e) => e.subagent_run_id.as_deref(),
            Event::StateSnapshot(e) => e.subagent_run_id.as_deref(),
            Event::StateDelta(e) => e.subagent_run_id.as_deref(),
            Event::ActivitySnapshot(e) => e.subagent_run_id.as_deref(),
            Event::ActivityDelta(e) => e.subagent_run_id.as_deref(),
            Event::Raw(e) => e.subagent_run_id.as_deref(),
            Event::Custom(e) => e.subagent_run_id.as_deref(),
            Event::StepStarted(e) => e.subagent_run_id.as_deref(),
            Event::StepFinished(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningStart(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningMessageStart(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningMessageContent(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningMessageEnd(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningMessageChunk(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningEnd(e) => e.subagent_run_id.as_deref(),
            Event::ReasoningEncryptedValue(e) => e.subagent_run_id.as_deref(),
        }
    }

    /// Compact JSON (`serde_json`), optional fields absent rather than `null`, `type` first.
    ///
    /// # Example
    ///
    /// ```
    /// use agentwire::agui::{Event, TextMessageContent};
    ///
    /// let event = Event::TextMessageContent(TextMessageContent {
    ///     message_id: "m1".into(),
    ///     delta: "Hi".into(),
    ///     subagent_run_id: None,
    ///     timestamp: None,
    ///     raw_event: None,
    ///     metadata: None,
    /// });
    /// assert_eq!(event.to_json(), r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        // Serialising plain data to a string cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_default()
    }
}
