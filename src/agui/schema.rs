//! The 1.0 schema as data, and the client's enforcement stage run against it: unknown
//! properties and unrecognised union members are stripped (their JSON-pointer paths reported),
//! then malformed known fields are rejected with zod-style issues naming the field.

use serde_json::{Map, Value};

use crate::{Error, ErrorCode};

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

/// The issues that made a value invalid, zod-style.
#[derive(Debug, Default)]
pub(crate) struct Issues(pub(crate) Vec<Value>);

impl Issues {
    /// The issues as the client's `ZodError` message: the issue list as pretty JSON.
    pub(crate) fn message(&self) -> String {
        serde_json::to_string_pretty(&self.0).unwrap_or_default()
    }

    /// An error with `code`, the zod-style message, and the first issue's path as `field`.
    pub(crate) fn into_error(self, code: ErrorCode, what: &str) -> Error {
        let field = self
            .0
            .first()
            .and_then(|i| i.get("path"))
            .and_then(Value::as_array)
            .map(|p| {
                p.iter()
                    .map(|s| match s {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(".")
            });
        let mut message = self.message();
        if code == ErrorCode::InvalidRequest {
            let name = field.clone().unwrap_or_default();
            message = format!("{what} is invalid at '{name}': {message}");
        }
        let error = Error::new(code, message);
        match field {
            Some(f) if !f.is_empty() => error.with_field(f),
            _ => error,
        }
    }
}

/// Strips `value` against `s` (reporting paths in `stripped`), then validates it.
///
/// # Errors
///
/// The zod-style issues when a described field is missing or malformed.
pub(crate) fn check(value: &mut Value, s: &S) -> Result<Vec<String>, Issues> {
    let mut stripped = Vec::new();
    let mut path = String::new();
    // A top-level drop cannot happen for the shapes used here (unions sit inside arrays).
    let _ = strip(value, s, &mut path, &mut stripped);
    let mut issues = Issues::default();
    let mut at = Vec::new();
    validate(value, s, &mut at, &mut issues);
    if issues.0.is_empty() {
        Ok(stripped)
    } else {
        Err(issues)
    }
}

/// As [`check`], for an event object of a known type.
pub(crate) fn check_event(value: &mut Value, o: &'static Obj) -> Result<Vec<String>, Issues> {
    let mut stripped = Vec::new();
    let mut path = String::new();
    if let Value::Object(map) = value {
        strip_obj(map, o, &mut path, &mut stripped, true);
    }
    let mut issues = Issues::default();
    let mut at = Vec::new();
    validate_obj(value, o, &mut at, &mut issues, true);
    if issues.0.is_empty() {
        Ok(stripped)
    } else {
        Err(issues)
    }
}

fn base_fields(base: Base) -> impl Iterator<Item = &'static F> {
    let scoped = if base == Base::None {
        &[][..]
    } else {
        &SCOPED_BASE[..]
    };
    let tag = if base == Base::Attributable {
        Some(&SUBAGENT_TAG)
    } else {
        None
    };
    scoped.iter().chain(tag)
}

fn find_field(o: &'static Obj, key: &str) -> Option<&'static F> {
    o.fields
        .iter()
        .chain(base_fields(o.base))
        .find(|f| f.name == key)
}

fn push_path(path: &mut String, key: &str) -> usize {
    let len = path.len();
    path.push('/');
    path.push_str(key);
    len
}

/// Returns `true` when the whole value is unrecognisable here (to be dropped by the caller).
fn strip(value: &mut Value, s: &S, path: &mut String, stripped: &mut Vec<String>) -> bool {
    match s {
        S::Obj(o) => {
            if let Value::Object(map) = value {
                return strip_obj(map, o, path, stripped, false);
            }
            false
        }
        S::Array(e) | S::Array1(e) => {
            if let Value::Array(items) = value {
                strip_array(items, e, path, stripped);
            }
            false
        }
        S::StrOrParts => {
            if let Value::Array(items) = value {
                strip_array(items, &CONTENT_PART, path, stripped);
            }
            false
        }
        S::Union(key, options) => {
            let Value::Object(map) = value else {
                return false;
            };
            let tag = map.get(*key).and_then(Value::as_str);
            match options.iter().find(|(t, _)| Some(*t) == tag) {
                Some((_, o)) => strip_obj(map, o, path, stripped, false),
                // No option has this tag (or it is not a string): unrecognisable.
                None => true,
            }
        }
        _ => {
            normalize_int(value, s);
            false
        }
    }
}

/// Integral floats (`1.0`) are integers to JS: store them as integers.
fn normalize_int(value: &mut Value, s: &S) {
    if matches!(s, S::Int | S::UInt) {
        if let Value::Number(n) = value {
            if !n.is_i64() && !n.is_u64() {
                if let Some(f) = n.as_f64() {
                    if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_991.0 {
                        // In range by the check above.
                        #[allow(clippy::cast_possible_truncation)]
                        let i = f as i64;
                        *value = Value::from(i);
                    }
                }
            }
        }
    }
}

fn strip_array(items: &mut Vec<Value>, e: &S, path: &mut String, stripped: &mut Vec<String>) {
    let mut index = 0usize;
    items.retain_mut(|item| {
        let mark = stripped.len();
        let len = push_path(path, &index.to_string());
        let dropped = strip(item, e, path, stripped);
        if dropped {
            stripped.truncate(mark);
            stripped.push(path.clone());
        }
        path.truncate(len);
        index += 1;
        !dropped
    });
}

fn strip_obj(
    map: &mut Map<String, Value>,
    o: &'static Obj,
    path: &mut String,
    stripped: &mut Vec<String>,
    is_event: bool,
) -> bool {
    let mut drop_whole = false;
    map.retain(|key, child| {
        if drop_whole {
            return true;
        }
        if is_event && key == "type" {
            return true;
        }
        let Some(f) = find_field(o, key) else {
            if o.open {
                return true;
            }
            let len = push_path(path, key);
            stripped.push(path.clone());
            path.truncate(len);
            return false;
        };
        let mark = stripped.len();
        let len = push_path(path, key);
        let dropped = strip(child, &f.s, path, stripped);
        let keep = if dropped {
            stripped.truncate(mark);
            if f.optional {
                stripped.push(path.clone());
                false
            } else {
                drop_whole = true;
                true
            }
        } else {
            true
        };
        path.truncate(len);
        keep
    });
    drop_whole
}

#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Index(usize),
}

fn path_value(at: &[Seg]) -> Value {
    Value::Array(
        at.iter()
            .map(|s| match s {
                Seg::Key(k) => Value::from(*k),
                Seg::Index(i) => Value::from(*i),
            })
            .collect(),
    )
}

fn received(value: Option<&Value>) -> &'static str {
    match value {
        None => "undefined",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

fn issue(fields: Vec<(&str, Value)>, at: &[Seg], message: String) -> Value {
    let mut map = Map::new();
    for (k, v) in fields {
        map.insert(k.to_owned(), v);
    }
    map.insert("path".into(), path_value(at));
    map.insert("message".into(), Value::String(message));
    Value::Object(map)
}

fn invalid_type(expected: &str, value: Option<&Value>, at: &[Seg]) -> Value {
    issue(
        vec![
            ("expected", Value::from(expected)),
            ("code", Value::from("invalid_type")),
        ],
        at,
        format!(
            "Invalid input: expected {expected}, received {}",
            received(value)
        ),
    )
}

fn custom(at: &[Seg]) -> Value {
    issue(
        vec![("code", Value::from("custom"))],
        at,
        "Invalid input".into(),
    )
}

const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

fn validate_int(value: Option<&Value>, min: f64, at: &[Seg], issues: &mut Issues) {
    let Some(Value::Number(n)) = value else {
        issues.0.push(int_issue(value, at));
        return;
    };
    let Some(f) = n.as_f64() else {
        issues.0.push(int_issue(value, at));
        return;
    };
    if f.fract() != 0.0 || !f.is_finite() {
        issues.0.push(int_issue(value, at));
    } else if f < min {
        issues.0.push(issue(
            vec![
                ("origin", Value::from("number")),
                ("code", Value::from("too_small")),
                ("minimum", Value::from(min as i64)),
                ("inclusive", Value::from(true)),
            ],
            at,
            format!("Too small: expected number to be >={}", min as i64),
        ));
    } else if f > MAX_SAFE {
        issues.0.push(issue(
            vec![
                ("origin", Value::from("number")),
                ("code", Value::from("too_big")),
                ("maximum", Value::from(MAX_SAFE as i64)),
                ("inclusive", Value::from(true)),
            ],
            at,
            format!("Too big: expected number to be <={}", MAX_SAFE as i64),
        ));
    }
}

fn int_issue(value: Option<&Value>, at: &[Seg]) -> Value {
    issue(
        vec![
            ("expected", Value::from("int")),
            ("format", Value::from("safeint")),
            ("code", Value::from("invalid_type")),
        ],
        at,
        format!("Invalid input: expected int, received {}", received(value)),
    )
}

fn is_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return false;
        }
    }
    true
}

/// Validates an optional-or-required position: `value` is `None` when the key is absent.
fn validate(value: &Value, s: &S, at: &mut Vec<Seg>, issues: &mut Issues) {
    validate_opt(Some(value), s, at, issues);
}

fn validate_opt(value: Option<&Value>, s: &S, at: &mut Vec<Seg>, issues: &mut Issues) {
    match s {
        S::Str => {
            if !matches!(value, Some(Value::String(_))) {
                issues.0.push(invalid_type("string", value, at));
            }
        }
        S::Bool => {
            if !matches!(value, Some(Value::Bool(_))) {
                issues.0.push(invalid_type("boolean", value, at));
            }
        }
        S::Int => validate_int(value, -MAX_SAFE, at, issues),
        S::UInt => validate_int(value, 0.0, at, issues),
        S::Any => {
            if value.is_none() {
                issues.0.push(custom(at));
            }
        }
        S::NonNull | S::State => {
            if matches!(value, None | Some(Value::Null)) && matches!(s, S::NonNull) {
                issues.0.push(custom(at));
            }
        }
        S::Object => {
            if !matches!(value, Some(Value::Object(_))) {
                issues.0.push(custom(at));
            }
        }
        S::Pointer => match value {
            Some(Value::String(p)) if is_pointer(p) => {}
            Some(Value::String(_)) => {
                let pattern = "/^(\\/([^/~]|~[01])*)*$/";
                issues.0.push(issue(
                    vec![
                        ("origin", Value::from("string")),
                        ("code", Value::from("invalid_format")),
                        ("format", Value::from("regex")),
                        ("pattern", Value::from(pattern)),
                    ],
                    at,
                    format!("Invalid string: must match pattern {pattern}"),
                ));
            }
            other => issues.0.push(invalid_type("string", other, at)),
        },
        S::Lit(lit) => {
            if value.and_then(Value::as_str) != Some(*lit) {
                issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_value")),
                        ("values", Value::from(vec![*lit])),
                    ],
                    at,
                    format!("Invalid input: expected \"{lit}\""),
                ));
            }
        }
        S::Enum(values) => {
            let ok = value
                .and_then(Value::as_str)
                .is_some_and(|v| values.contains(&v));
            if !ok {
                let list = values
                    .iter()
                    .map(|v| format!("\"{v}\""))
                    .collect::<Vec<_>>()
                    .join("|");
                issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_value")),
                        ("values", Value::from(values.to_vec())),
                    ],
                    at,
                    format!("Invalid option: expected one of {list}"),
                ));
            }
        }
        S::Array(e) | S::Array1(e) => {
            let Some(Value::Array(items)) = value else {
                issues.0.push(invalid_type("array", value, at));
                return;
            };
            for (i, item) in items.iter().enumerate() {
                at.push(Seg::Index(i));
                validate(item, e, at, issues);
                at.pop();
            }
            if matches!(s, S::Array1(_)) && items.is_empty() {
                issues.0.push(issue(
                    vec![
                        ("origin", Value::from("array")),
                        ("code", Value::from("too_small")),
                        ("minimum", Value::from(1)),
                        ("inclusive", Value::from(true)),
                    ],
                    at,
                    "Too small: expected array to have >=1 items".into(),
                ));
            }
        }
        S::Obj(o) => match value {
            Some(v @ Value::Object(_)) => validate_obj(v, o, at, issues, false),
            other => issues.0.push(invalid_type("object", other, at)),
        },
        S::Union(key, options) => {
            let Some(v @ Value::Object(map)) = value else {
                issues.0.push(invalid_type("object", value, at));
                return;
            };
            let tag = map.get(*key).and_then(Value::as_str);
            match options.iter().find(|(t, _)| Some(*t) == tag) {
                Some((_, o)) => validate_obj(v, o, at, issues, false),
                None => issues.0.push(issue(
                    vec![
                        ("code", Value::from("invalid_union")),
                        ("errors", Value::Array(Vec::new())),
                        ("note", Value::from("No matching discriminator")),
                        ("discriminator", Value::from(*key)),
                    ],
                    at,
                    "Invalid input".into(),
                )),
            }
        }
        S::StrOrParts => match value {
            Some(Value::String(_)) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    at.push(Seg::Index(i));
                    validate(item, &CONTENT_PART, at, issues);
                    at.pop();
                }
            }
            other => {
                let errors = Value::Array(vec![
                    Value::Array(vec![invalid_type("string", other, &[])]),
                    Value::Array(vec![invalid_type("array", other, &[])]),
                ]);
                issues.0.push(issue(
                    vec![("code", Value::from("invalid_union")), ("errors", errors)],
                    at,
                    "Invalid input".into(),
                ));
            }
        },
    }
}

fn validate_obj(
    value: &Value,
    o: &'static Obj,
    at: &mut Vec<Seg>,
    issues: &mut Issues,
    is_event: bool,
) {
    let Value::Object(map) = value else {
        issues.0.push(invalid_type("object", Some(value), at));
        return;
    };
    let _ = is_event;
    for f in base_fields(o.base).chain(o.fields.iter()) {
        let child = map.get(f.name);
        if child.is_none() && f.optional {
            continue;
        }
        at.push(Seg::Key(f.name));
        validate_opt(child, &f.s, at, issues);
        at.pop();
    }
}

/// Reads optional `null`s the 0.x SDKs sent inside a request body as absent (`forwardedProps`,
/// tool `parameters`, resume `payload`, media-part `metadata`, `state`) and upgrades legacy
/// `binary` parts. Returns the legacy shapes it converted (for warnings).
pub(crate) fn normalize_legacy_input(value: &mut Value) -> Vec<String> {
    let mut notes = Vec::new();
    let Value::Object(input) = value else {
        return notes;
    };
    if input.get("forwardedProps").is_some_and(Value::is_null) {
        input.remove("forwardedProps");
        notes.push("RunAgentInput.forwardedProps: null".to_owned());
    }
    if input.get("state").is_some_and(Value::is_null) {
        input.remove("state");
    }
    for (field, key, what) in [
        ("tools", "parameters", "Tool"),
        ("resume", "payload", "ResumeEntry"),
    ] {
        if let Some(Value::Array(items)) = input.get_mut(field) {
            for item in items.iter_mut() {
                if let Value::Object(map) = item {
                    if map.get(key).is_some_and(Value::is_null) {
                        map.remove(key);
                        notes.push(format!("{what}.{key}: null"));
                    }
                }
            }
        }
    }
    if let Some(Value::Array(messages)) = input.get_mut("messages") {
        for message in messages.iter_mut() {
            notes.extend(normalize_legacy_message(message));
        }
    }
    notes
}

/// The per-message half of [`normalize_legacy_input`]: media-part `metadata: null` and legacy
/// `binary` parts.
pub(crate) fn normalize_legacy_message(message: &mut Value) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(Value::Array(parts)) = message.get_mut("content") {
        for part in parts.iter_mut() {
            let Value::Object(map) = part else { continue };
            let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
            if matches!(kind, "image" | "audio" | "video" | "document")
                && map.get("metadata").is_some_and(Value::is_null)
            {
                let kind = kind.to_owned();
                map.remove("metadata");
                notes.push(format!("{kind} input content.metadata: null"));
            }
        }
        if super::content::upgrade_binary_parts(parts) {
            notes.push("binary input content".to_owned());
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_unknown_and_reports_paths() {
        let mut v =
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","futureProp":1});
        let stripped = check_event(&mut v, &TEXT_MESSAGE_CONTENT).unwrap();
        assert_eq!(stripped, vec!["/futureProp"]);
        assert_eq!(
            v,
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"})
        );
    }

    #[test]
    fn malformed_field_is_a_zod_issue() {
        let mut v = json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":5});
        let issues = check_event(&mut v, &TEXT_MESSAGE_CONTENT).unwrap_err();
        assert_eq!(
            issues.message(),
            "[\n  {\n    \"expected\": \"string\",\n    \"code\": \"invalid_type\",\n    \"path\": [\n      \"delta\"\n    ],\n    \"message\": \"Invalid input: expected string, received number\"\n  }\n]"
        );
    }

    #[test]
    fn unknown_union_member_is_dropped_or_stripped() {
        let mut v = json!({"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"a"},{"type":"hologram"}]}]});
        let stripped = check_event(&mut v, &MESSAGES_SNAPSHOT).unwrap();
        assert_eq!(stripped, vec!["/messages/0/content/1"]);
        let mut v =
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"future"}});
        assert_eq!(
            check_event(&mut v, &RUN_FINISHED).unwrap(),
            vec!["/outcome"]
        );
        let mut v = json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":[]});
        let e = check_event(&mut v, &RUN_FINISHED).unwrap_err();
        assert!(e.message().contains("expected object, received array"));
    }

    #[test]
    fn patch_ops_are_open() {
        let mut v = json!({"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a","value":1}]});
        assert!(check_event(&mut v, &STATE_DELTA).unwrap().is_empty());
        let mut v = json!({"type":"STATE_DELTA","delta":[{"op":"frobnicate","path":"/a"}]});
        assert_eq!(check_event(&mut v, &STATE_DELTA).unwrap(), vec!["/delta/0"]);
    }

    #[test]
    fn run_agent_input_names_missing_thread_id() {
        let mut v = json!({"runId":"r","messages":[]});
        let e = check(&mut v, &RUN_AGENT_INPUT).unwrap_err();
        assert!(e.message().contains("threadId"));
    }
}
