//! The 1.0 schema as data, and the client's enforcement stage run against it ([`check`]):
//! unknown properties and unrecognised union members are stripped (their JSON-pointer paths
//! reported), then malformed known fields are rejected with zod-style issues naming the field.

/// What a position in the schema admits.
#[derive(Debug)]
pub(crate) enum S {
    /// A string.
    Str,
    /// A safe integer (|n| ≤ 2^53−1).
    Int,
    /// A non-negative safe integer.
    UInt,
    /// A boolean.
    Bool,
    /// Any JSON value, `null` included (a required one must be present).
    Any,
    /// Any JSON value but `null`.
    NonNull,
    /// A JSON object (not `null`, not an array): metadata, activity content.
    Object,
    /// An RFC 6901 JSON Pointer string.
    Pointer,
    /// One string literal.
    Lit(&'static str),
    /// One of a closed set of strings.
    Enum(&'static [&'static str]),
    /// An array.
    Array(&'static S),
    /// An array of at least one element.
    Array1(&'static S),
    /// An object with described fields.
    Obj(&'static Obj),
    /// A union of objects discriminated by a key.
    Union(&'static str, &'static [(&'static str, &'static Obj)]),
    /// `string | ContentPart[]`.
    StrOrParts,
    /// `RunAgentInput.state`: any JSON; `null` reads as absent.
    State,
}

/// A described field.
#[derive(Debug)]
pub(crate) struct F {
    pub(crate) name: &'static str,
    pub(crate) s: S,
    pub(crate) optional: bool,
}

/// Which base fields an event carries before its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    /// Not an event.
    None,
    /// `timestamp`, `rawEvent`, `metadata`.
    Scoped,
    /// Those and `subagentRunId?`.
    Attributable,
}

/// An object's described fields. `open` objects keep undescribed members (RFC 6902 ops).
#[derive(Debug)]
pub(crate) struct Obj {
    pub(crate) base: Base,
    pub(crate) fields: &'static [F],
    pub(crate) open: bool,
}

const fn req(name: &'static str, s: S) -> F {
    F {
        name,
        s,
        optional: false,
    }
}
const fn opt(name: &'static str, s: S) -> F {
    F {
        name,
        s,
        optional: true,
    }
}
const fn obj(fields: &'static [F]) -> Obj {
    Obj {
        base: Base::None,
        fields,
        open: false,
    }
}
const fn ev(fields: &'static [F]) -> Obj {
    Obj {
        base: Base::Attributable,
        fields,
        open: false,
    }
}
const fn scoped(fields: &'static [F]) -> Obj {
    Obj {
        base: Base::Scoped,
        fields,
        open: false,
    }
}

static SCOPED_BASE: [F; 3] = [
    opt("timestamp", S::Int),
    opt("rawEvent", S::NonNull),
    opt("metadata", S::Object),
];
static SUBAGENT_TAG: F = opt("subagentRunId", S::Str);

const TEXT_ROLES: &[&str] = &["developer", "system", "assistant", "user"];

// Content parts.
static DATA_SOURCE: Obj = obj(&[
    req("type", S::Lit("data")),
    req("value", S::Str),
    req("mimeType", S::Str),
]);
static URL_SOURCE: Obj = obj(&[
    req("type", S::Lit("url")),
    req("value", S::Str),
    opt("mimeType", S::Str),
]);
static FILE_SOURCE: Obj = obj(&[
    req("type", S::Lit("file")),
    req("value", S::Str),
    opt("provider", S::Str),
    opt("mimeType", S::Str),
]);
static SOURCES: [(&str, &Obj); 3] = [
    ("data", &DATA_SOURCE),
    ("url", &URL_SOURCE),
    ("file", &FILE_SOURCE),
];
static TEXT_PART: Obj = obj(&[
    req("type", S::Lit("text")),
    opt("id", S::Str),
    req("text", S::Str),
    opt("metadata", S::NonNull),
]);
macro_rules! media_part {
    ($name:ident, $t:literal) => {
        static $name: Obj = obj(&[
            req("type", S::Lit($t)),
            opt("id", S::Str),
            req("source", S::Union("type", &SOURCES)),
            opt("metadata", S::NonNull),
        ]);
    };
}
media_part!(IMAGE_PART, "image");
media_part!(AUDIO_PART, "audio");
media_part!(VIDEO_PART, "video");
media_part!(DOCUMENT_PART, "document");
static PARTS: [(&str, &Obj); 5] = [
    ("text", &TEXT_PART),
    ("image", &IMAGE_PART),
    ("audio", &AUDIO_PART),
    ("video", &VIDEO_PART),
    ("document", &DOCUMENT_PART),
];
pub(crate) static CONTENT_PART: S = S::Union("type", &PARTS);

// Messages.
static TOOL_CALL: Obj = obj(&[
    req("id", S::Str),
    req("type", S::Lit("function")),
    req(
        "function",
        S::Obj(&obj(&[req("name", S::Str), req("arguments", S::Str)])),
    ),
    opt("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
    opt("metadata", S::Object),
]);
macro_rules! text_message {
    ($name:ident, $role:literal) => {
        static $name: Obj = obj(&[
            opt("subagentRunId", S::Str),
            req("id", S::Str),
            req("role", S::Lit($role)),
            opt("name", S::Str),
            opt("encryptedValue", S::Str),
            opt("encryptedValueType", S::Str),
            opt("metadata", S::Object),
            req("content", S::Str),
        ]);
    };
}
text_message!(DEVELOPER_MESSAGE, "developer");
text_message!(SYSTEM_MESSAGE, "system");
static ASSISTANT_MESSAGE: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("role", S::Lit("assistant")),
    opt("name", S::Str),
    opt("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
    opt("metadata", S::Object),
    opt("content", S::Str),
    opt("toolCalls", S::Array(&S::Obj(&TOOL_CALL))),
]);
static USER_MESSAGE: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("role", S::Lit("user")),
    opt("name", S::Str),
    opt("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
    opt("metadata", S::Object),
    req("content", S::StrOrParts),
]);
static TOOL_MESSAGE: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("role", S::Lit("tool")),
    req("content", S::StrOrParts),
    req("toolCallId", S::Str),
    opt("error", S::Str),
    opt("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
    opt("metadata", S::Object),
]);
static ACTIVITY_MESSAGE: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("role", S::Lit("activity")),
    req("activityType", S::Str),
    req("content", S::Object),
    opt("metadata", S::Object),
]);
static REASONING_MESSAGE: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("role", S::Lit("reasoning")),
    req("content", S::Str),
    opt("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
    opt("metadata", S::Object),
]);
static MESSAGES: [(&str, &Obj); 7] = [
    ("developer", &DEVELOPER_MESSAGE),
    ("system", &SYSTEM_MESSAGE),
    ("assistant", &ASSISTANT_MESSAGE),
    ("user", &USER_MESSAGE),
    ("tool", &TOOL_MESSAGE),
    ("activity", &ACTIVITY_MESSAGE),
    ("reasoning", &REASONING_MESSAGE),
];
pub(crate) static MESSAGE: S = S::Union("role", &MESSAGES);

// JSON Patch (RFC 6902): open objects.
const fn op(fields: &'static [F]) -> Obj {
    Obj {
        base: Base::None,
        fields,
        open: true,
    }
}
static OP_ADD: Obj = op(&[
    req("op", S::Lit("add")),
    req("path", S::Pointer),
    req("value", S::Any),
]);
static OP_REMOVE: Obj = op(&[req("op", S::Lit("remove")), req("path", S::Pointer)]);
static OP_REPLACE: Obj = op(&[
    req("op", S::Lit("replace")),
    req("path", S::Pointer),
    req("value", S::Any),
]);
static OP_MOVE: Obj = op(&[
    req("op", S::Lit("move")),
    req("from", S::Pointer),
    req("path", S::Pointer),
]);
static OP_COPY: Obj = op(&[
    req("op", S::Lit("copy")),
    req("from", S::Pointer),
    req("path", S::Pointer),
]);
static OP_TEST: Obj = op(&[
    req("op", S::Lit("test")),
    req("path", S::Pointer),
    req("value", S::Any),
]);
static OPS: [(&str, &Obj); 6] = [
    ("add", &OP_ADD),
    ("remove", &OP_REMOVE),
    ("replace", &OP_REPLACE),
    ("move", &OP_MOVE),
    ("copy", &OP_COPY),
    ("test", &OP_TEST),
];
static PATCH: S = S::Array(&S::Union("op", &OPS));

// Input.
static TOOL: Obj = obj(&[
    req("name", S::Str),
    req("description", S::Str),
    opt("parameters", S::NonNull),
    opt("metadata", S::Object),
]);
static CONTEXT: Obj = obj(&[req("description", S::Str), req("value", S::Str)]);
static RESUME_ENTRY: Obj = obj(&[
    req("interruptId", S::Str),
    req("status", S::Enum(&["resolved", "cancelled"])),
    opt("payload", S::NonNull),
    opt("metadata", S::Object),
]);
static RUN_AGENT_INPUT_OBJ: Obj = obj(&[
    req("threadId", S::Str),
    req("runId", S::Str),
    opt("protocolVersion", S::Str),
    opt("parentRunId", S::Str),
    opt("state", S::State),
    req("messages", S::Array(&MESSAGE)),
    opt("tools", S::Array(&S::Obj(&TOOL))),
    opt("context", S::Array(&S::Obj(&CONTEXT))),
    opt("forwardedProps", S::NonNull),
    opt("resume", S::Array(&S::Obj(&RESUME_ENTRY))),
]);
/// `RunAgentInput`.
pub(crate) static RUN_AGENT_INPUT: S = S::Obj(&RUN_AGENT_INPUT_OBJ);

// Outcomes.
static INTERRUPT: Obj = obj(&[
    opt("subagentRunId", S::Str),
    req("id", S::Str),
    req("reason", S::Str),
    opt("message", S::Str),
    opt("toolCallId", S::Str),
    opt("responseSchema", S::Object),
    opt("expiresAt", S::Str),
    opt("metadata", S::Object),
]);
static OUTCOME_SUCCESS: Obj = obj(&[
    req("type", S::Lit("success")),
    opt("pendingToolCallIds", S::Array(&S::Str)),
]);
static OUTCOME_INTERRUPT: Obj = obj(&[
    req("type", S::Lit("interrupt")),
    req("interrupts", S::Array1(&S::Obj(&INTERRUPT))),
]);
static OUTCOME_CANCELLED: Obj = obj(&[req("type", S::Lit("cancelled"))]);
static RUN_OUTCOMES: [(&str, &Obj); 3] = [
    ("success", &OUTCOME_SUCCESS),
    ("interrupt", &OUTCOME_INTERRUPT),
    ("cancelled", &OUTCOME_CANCELLED),
];
static SUB_SUCCESS: Obj = obj(&[req("type", S::Lit("success"))]);
static SUB_SUSPENDED: Obj = obj(&[
    req("type", S::Lit("suspended")),
    opt("interruptIds", S::Array(&S::Str)),
]);
static SUB_OUTCOMES: [(&str, &Obj); 2] = [("success", &SUB_SUCCESS), ("suspended", &SUB_SUSPENDED)];
static TOKEN_USAGE: Obj = obj(&[
    opt("provider", S::Str),
    opt("model", S::Str),
    opt("inputTokens", S::UInt),
    opt("outputTokens", S::UInt),
    opt("totalTokens", S::UInt),
    opt("reasoningTokens", S::UInt),
    opt("cachedInputTokens", S::UInt),
    opt("cacheWriteInputTokens", S::UInt),
]);
static USAGE: S = S::Array(&S::Obj(&TOKEN_USAGE));

// Events, in `EventType` order.
static TEXT_MESSAGE_START: Obj = ev(&[
    req("messageId", S::Str),
    opt("role", S::Enum(TEXT_ROLES)),
    opt("name", S::Str),
]);
static TEXT_MESSAGE_CONTENT: Obj = ev(&[req("messageId", S::Str), req("delta", S::Str)]);
static TEXT_MESSAGE_END: Obj = ev(&[req("messageId", S::Str)]);
static TOOL_CALL_START: Obj = ev(&[
    req("toolCallId", S::Str),
    req("toolCallName", S::Str),
    opt("parentMessageId", S::Str),
]);
static TOOL_CALL_ARGS: Obj = ev(&[req("toolCallId", S::Str), req("delta", S::Str)]);
static TOOL_CALL_END: Obj = ev(&[req("toolCallId", S::Str)]);
static STATE_SNAPSHOT: Obj = ev(&[req("snapshot", S::Any)]);
static STATE_DELTA: Obj = ev(&[req("delta", S::Array(&S::Union("op", &OPS)))]);
static MESSAGES_SNAPSHOT: Obj = scoped(&[req("messages", S::Array(&MESSAGE))]);
static RAW: Obj = ev(&[req("event", S::Any), opt("source", S::Str)]);
static CUSTOM: Obj = ev(&[req("name", S::Str), req("value", S::Any)]);
static RUN_STARTED: Obj = scoped(&[
    req("threadId", S::Str),
    req("runId", S::Str),
    opt("protocolVersion", S::Str),
    opt("parentRunId", S::Str),
    opt("input", S::Obj(&RUN_AGENT_INPUT_OBJ)),
]);
static RUN_FINISHED: Obj = scoped(&[
    req("threadId", S::Str),
    req("runId", S::Str),
    opt("result", S::NonNull),
    opt("outcome", S::Union("type", &RUN_OUTCOMES)),
    opt("usage", S::Array(&S::Obj(&TOKEN_USAGE))),
]);
static RUN_ERROR: Obj = scoped(&[
    req("message", S::Str),
    opt("code", S::Str),
    opt("usage", S::Array(&S::Obj(&TOKEN_USAGE))),
]);
static STEP_STARTED: Obj = ev(&[req("stepName", S::Str)]);
static STEP_FINISHED: Obj = ev(&[req("stepName", S::Str)]);
static SUBAGENT_STARTED: Obj = scoped(&[
    req("subagentRunId", S::Str),
    req("name", S::Str),
    opt("description", S::Str),
    opt("parentSubagentRunId", S::Str),
    opt("parentToolCallId", S::Str),
    opt("parentMessageId", S::Str),
]);
static SUBAGENT_FINISHED: Obj = scoped(&[
    req("subagentRunId", S::Str),
    opt("result", S::NonNull),
    opt("outcome", S::Union("type", &SUB_OUTCOMES)),
]);
static SUBAGENT_ERROR: Obj = scoped(&[
    req("subagentRunId", S::Str),
    req("message", S::Str),
    opt("code", S::Str),
]);
static TEXT_MESSAGE_CHUNK: Obj = ev(&[
    opt("messageId", S::Str),
    opt("role", S::Enum(TEXT_ROLES)),
    opt("delta", S::Str),
    opt("name", S::Str),
]);
static TOOL_CALL_CHUNK: Obj = ev(&[
    opt("toolCallId", S::Str),
    opt("toolCallName", S::Str),
    opt("parentMessageId", S::Str),
    opt("delta", S::Str),
]);
static TOOL_CALL_RESULT: Obj = ev(&[
    req("messageId", S::Str),
    req("toolCallId", S::Str),
    req("content", S::StrOrParts),
    opt("role", S::Lit("tool")),
]);
static ACTIVITY_SNAPSHOT: Obj = ev(&[
    req("messageId", S::Str),
    req("activityType", S::Str),
    req("content", S::Object),
    opt("replace", S::Bool),
]);
static ACTIVITY_DELTA: Obj = ev(&[
    req("messageId", S::Str),
    req("activityType", S::Str),
    req("patch", S::Array(&S::Union("op", &OPS))),
]);
static REASONING_START: Obj = ev(&[req("messageId", S::Str)]);
static REASONING_MESSAGE_START: Obj =
    ev(&[req("messageId", S::Str), req("role", S::Lit("reasoning"))]);
static REASONING_MESSAGE_CONTENT: Obj = ev(&[req("messageId", S::Str), req("delta", S::Str)]);
static REASONING_MESSAGE_END: Obj = ev(&[req("messageId", S::Str)]);
static REASONING_MESSAGE_CHUNK: Obj = ev(&[opt("messageId", S::Str), opt("delta", S::Str)]);
static REASONING_END: Obj = ev(&[req("messageId", S::Str)]);
static REASONING_ENCRYPTED_VALUE: Obj = ev(&[
    req("subtype", S::Enum(&["tool-call", "message"])),
    req("entityId", S::Str),
    req("encryptedValue", S::Str),
    opt("encryptedValueType", S::Str),
]);

/// The schema of an event type.
pub(crate) fn event_schema(t: super::EventType) -> &'static Obj {
    use super::EventType as T;
    match t {
        T::TextMessageStart => &TEXT_MESSAGE_START,
        T::TextMessageContent => &TEXT_MESSAGE_CONTENT,
        T::TextMessageEnd => &TEXT_MESSAGE_END,
        T::ToolCallStart => &TOOL_CALL_START,
        T::ToolCallArgs => &TOOL_CALL_ARGS,
        T::ToolCallEnd => &TOOL_CALL_END,
        T::StateSnapshot => &STATE_SNAPSHOT,
        T::StateDelta => &STATE_DELTA,
        T::MessagesSnapshot => &MESSAGES_SNAPSHOT,
        T::Raw => &RAW,
        T::Custom => &CUSTOM,
        T::RunStarted => &RUN_STARTED,
        T::RunFinished => &RUN_FINISHED,
        T::RunError => &RUN_ERROR,
        T::StepStarted => &STEP_STARTED,
        T::StepFinished => &STEP_FINISHED,
        T::SubagentStarted => &SUBAGENT_STARTED,
        T::SubagentFinished => &SUBAGENT_FINISHED,
        T::SubagentError => &SUBAGENT_ERROR,
        T::TextMessageChunk => &TEXT_MESSAGE_CHUNK,
        T::ToolCallChunk => &TOOL_CALL_CHUNK,
        T::ToolCallResult => &TOOL_CALL_RESULT,
        T::ActivitySnapshot => &ACTIVITY_SNAPSHOT,
        T::ActivityDelta => &ACTIVITY_DELTA,
        T::ReasoningStart => &REASONING_START,
        T::ReasoningMessageStart => &REASONING_MESSAGE_START,
        T::ReasoningMessageContent => &REASONING_MESSAGE_CONTENT,
        T::ReasoningMessageEnd => &REASONING_MESSAGE_END,
        T::ReasoningMessageChunk => &REASONING_MESSAGE_CHUNK,
        T::ReasoningEnd => &REASONING_END,
        T::ReasoningEncryptedValue => &REASONING_ENCRYPTED_VALUE,
    }
}

// Keep the unused statics referenced (USAGE and PATCH document shapes reused above).
#[allow(dead_code)]
static _SHAPES: [&S; 2] = [&USAGE, &PATCH];

mod check;

pub(crate) use check::{check, check_event, normalize_legacy_input, normalize_legacy_message};
