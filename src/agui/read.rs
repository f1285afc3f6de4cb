//! Typed values from JSON already validated against the schema ([`super::schema`]): fields are
//! moved out of the map by hand. Much smaller in wasm than serde's derived `Deserialize` (which
//! stays available on every type for native callers), and no second validation.

use serde_json::{Map, Value};

use super::content::{Content, ContentPart, MediaPart, PartSource};
use super::event::*;
use super::input::{Context, ResumeEntry, ResumeStatus, RunAgentInput, Tool};
use super::message::*;
use super::outcome::{Interrupt, RunFinishedOutcome, SubagentFinishedOutcome, TokenUsage};

type M = Map<String, Value>;

#[inline(never)]
fn s(m: &mut M, k: &str) -> String {
    match m.remove(k) {
        Some(Value::String(s)) => s,
        _ => String::new(),
    }
}
#[inline(never)]
fn os(m: &mut M, k: &str) -> Option<String> {
    match m.remove(k) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}
#[inline(never)]
fn oi(m: &mut M, k: &str) -> Option<i64> {
    m.remove(k).and_then(|v| v.as_i64())
}
#[inline(never)]
fn ou(m: &mut M, k: &str) -> Option<u64> {
    m.remove(k).and_then(|v| v.as_u64())
}
#[inline(never)]
fn ob(m: &mut M, k: &str) -> Option<bool> {
    m.remove(k).and_then(|v| v.as_bool())
}
#[inline(never)]
fn v(m: &mut M, k: &str) -> Value {
    m.remove(k).unwrap_or(Value::Null)
}
#[inline(never)]
fn ov(m: &mut M, k: &str) -> Option<Value> {
    m.remove(k)
}
#[inline(never)]
fn om(m: &mut M, k: &str) -> Option<M> {
    match m.remove(k) {
        Some(Value::Object(o)) => Some(o),
        _ => None,
    }
}
fn mm(m: &mut M, k: &str) -> M {
    om(m, k).unwrap_or_default()
}
#[inline(never)]
fn arr(m: &mut M, k: &str) -> Option<Vec<Value>> {
    match m.remove(k) {
        Some(Value::Array(a)) => Some(a),
        _ => None,
    }
}
fn objs(m: &mut M, k: &str) -> Option<Vec<M>> {
    arr(m, k).map(|a| {
        a.into_iter()
            .filter_map(|x| match x {
                Value::Object(o) => Some(o),
                _ => None,
            })
            .collect()
    })
}
fn strs(m: &mut M, k: &str) -> Option<Vec<String>> {
    arr(m, k).map(|a| {
        a.into_iter()
            .filter_map(|x| match x {
                Value::String(s) => Some(s),
                _ => None,
            })
            .collect()
    })
}

fn source(mut m: M) -> PartSource {
    match s(&mut m, "type").as_str() {
        "data" => PartSource::Data {
            value: s(&mut m, "value"),
            mime_type: s(&mut m, "mimeType"),
        },
        "file" => PartSource::File {
            value: s(&mut m, "value"),
            provider: os(&mut m, "provider"),
            mime_type: os(&mut m, "mimeType"),
        },
        _ => PartSource::Url {
            value: s(&mut m, "value"),
            mime_type: os(&mut m, "mimeType"),
        },
    }
}

fn part(mut m: M) -> ContentPart {
    let kind = s(&mut m, "type");
    if kind == "text" {
        return ContentPart::Text {
            id: os(&mut m, "id"),
            text: s(&mut m, "text"),
            metadata: ov(&mut m, "metadata"),
        };
    }
    let media = MediaPart {
        id: os(&mut m, "id"),
        source: source(mm(&mut m, "source")),
        metadata: ov(&mut m, "metadata"),
    };
    match kind.as_str() {
        "image" => ContentPart::Image(media),
        "audio" => ContentPart::Audio(media),
        "video" => ContentPart::Video(media),
        _ => ContentPart::Document(media),
    }
}

pub(crate) fn content(value: Value) -> Content {
    match value {
        Value::Array(items) => Content::Parts(
            items
                .into_iter()
                .filter_map(|x| match x {
                    Value::Object(o) => Some(part(o)),
                    _ => None,
                })
                .collect(),
        ),
        Value::String(t) => Content::Text(t),
        _ => Content::Text(String::new()),
    }
}

fn common(m: &mut M) -> MessageCommon {
    MessageCommon {
        id: s(m, "id"),
        subagent_run_id: os(m, "subagentRunId"),
        encrypted_value: os(m, "encryptedValue"),
        encrypted_value_type: os(m, "encryptedValueType"),
        metadata: om(m, "metadata"),
    }
}

fn tool_call(mut m: M) -> ToolCall {
    let mut f = mm(&mut m, "function");
    ToolCall {
        id: s(&mut m, "id"),
        call_type: FunctionType::Function,
        function: FunctionCall {
            name: s(&mut f, "name"),
            arguments: s(&mut f, "arguments"),
        },
        encrypted_value: os(&mut m, "encryptedValue"),
        encrypted_value_type: os(&mut m, "encryptedValueType"),
        metadata: om(&mut m, "metadata"),
    }
}

/// A validated message.
pub(crate) fn message(value: Value) -> Message {
    let Value::Object(mut m) = value else {
        return Message::User(UserMessage::default());
    };
    let role = s(&mut m, "role");
    match role.as_str() {
        "developer" | "system" => {
            let t = TextMessage {
                common: common(&mut m),
                name: os(&mut m, "name"),
                content: s(&mut m, "content"),
            };
            if role == "system" {
                Message::System(t)
            } else {
                Message::Developer(t)
            }
        }
        "assistant" => Message::Assistant(AssistantMessage {
            common: common(&mut m),
            name: os(&mut m, "name"),
            content: os(&mut m, "content"),
            tool_calls: objs(&mut m, "toolCalls").map(|c| c.into_iter().map(tool_call).collect()),
        }),
        "tool" => Message::Tool(ToolMessage {
            common: common(&mut m),
            content: content(v(&mut m, "content")),
            tool_call_id: s(&mut m, "toolCallId"),
            error: os(&mut m, "error"),
        }),
        "activity" => Message::Activity(ActivityMessage {
            id: s(&mut m, "id"),
            subagent_run_id: os(&mut m, "subagentRunId"),
            activity_type: s(&mut m, "activityType"),
            content: mm(&mut m, "content"),
            metadata: om(&mut m, "metadata"),
        }),
        "reasoning" => Message::Reasoning(ReasoningMessage {
            common: common(&mut m),
            content: s(&mut m, "content"),
        }),
        _ => Message::User(UserMessage {
            common: common(&mut m),
            name: os(&mut m, "name"),
            content: content(v(&mut m, "content")),
        }),
    }
}

fn messages(m: &mut M, k: &str) -> Vec<Message> {
    arr(m, k)
        .unwrap_or_default()
        .into_iter()
        .map(message)
        .collect()
}

/// A validated `RunAgentInput`.
pub(crate) fn input(mut m: M) -> RunAgentInput {
    RunAgentInput {
        thread_id: s(&mut m, "threadId"),
        run_id: s(&mut m, "runId"),
        protocol_version: os(&mut m, "protocolVersion"),
        parent_run_id: os(&mut m, "parentRunId"),
        state: ov(&mut m, "state").filter(|x| !x.is_null()),
        messages: messages(&mut m, "messages"),
        tools: objs(&mut m, "tools")
            .unwrap_or_default()
            .into_iter()
            .map(|mut t| Tool {
                name: s(&mut t, "name"),
                description: s(&mut t, "description"),
                parameters: ov(&mut t, "parameters"),
                metadata: om(&mut t, "metadata"),
            })
            .collect(),
        context: objs(&mut m, "context")
            .unwrap_or_default()
            .into_iter()
            .map(|mut c| Context {
                description: s(&mut c, "description"),
                value: s(&mut c, "value"),
            })
            .collect(),
        forwarded_props: ov(&mut m, "forwardedProps"),
        resume: objs(&mut m, "resume").map(|r| {
            r.into_iter()
                .map(|mut e| ResumeEntry {
                    interrupt_id: s(&mut e, "interruptId"),
                    status: if s(&mut e, "status") == "cancelled" {
                        ResumeStatus::Cancelled
                    } else {
                        ResumeStatus::Resolved
                    },
                    payload: ov(&mut e, "payload"),
                    metadata: om(&mut e, "metadata"),
                })
                .collect()
        }),
    }
}

fn usage(m: &mut M) -> Option<Vec<TokenUsage>> {
    objs(m, "usage").map(|u| {
        u.into_iter()
            .map(|mut t| TokenUsage {
                provider: os(&mut t, "provider"),
                model: os(&mut t, "model"),
                input_tokens: ou(&mut t, "inputTokens"),
                output_tokens: ou(&mut t, "outputTokens"),
                total_tokens: ou(&mut t, "totalTokens"),
                reasoning_tokens: ou(&mut t, "reasoningTokens"),
                cached_input_tokens: ou(&mut t, "cachedInputTokens"),
                cache_write_input_tokens: ou(&mut t, "cacheWriteInputTokens"),
            })
            .collect()
    })
}

fn interrupt(mut m: M) -> Interrupt {
    Interrupt {
        subagent_run_id: os(&mut m, "subagentRunId"),
        id: s(&mut m, "id"),
        reason: s(&mut m, "reason"),
        message: os(&mut m, "message"),
        tool_call_id: os(&mut m, "toolCallId"),
        response_schema: om(&mut m, "responseSchema"),
        expires_at: os(&mut m, "expiresAt"),
        metadata: om(&mut m, "metadata"),
    }
}

fn run_outcome(mut m: M) -> RunFinishedOutcome {
    match s(&mut m, "type").as_str() {
        "interrupt" => RunFinishedOutcome::Interrupt {
            interrupts: objs(&mut m, "interrupts")
                .unwrap_or_default()
                .into_iter()
                .map(interrupt)
                .collect(),
        },
        "cancelled" => RunFinishedOutcome::Cancelled,
        _ => RunFinishedOutcome::Success {
            pending_tool_call_ids: strs(&mut m, "pendingToolCallIds"),
        },
    }
}

fn sub_outcome(mut m: M) -> SubagentFinishedOutcome {
    match s(&mut m, "type").as_str() {
        "suspended" => SubagentFinishedOutcome::Suspended {
            interrupt_ids: strs(&mut m, "interruptIds"),
        },
        _ => SubagentFinishedOutcome::Success,
    }
}

fn role(m: &mut M) -> Option<TextMessageRole> {
    os(m, "role").map(|r| match r.as_str() {
        "developer" => TextMessageRole::Developer,
        "system" => TextMessageRole::System,
        "user" => TextMessageRole::User,
        _ => TextMessageRole::Assistant,
    })
}

macro_rules! build {
    ($ty:ident, $m:ident, attributable { $($field:ident : $val:expr),* $(,)? }) => {
        $ty {
            $($field: $val,)*
            subagent_run_id: os(&mut $m, "subagentRunId"),
            timestamp: oi(&mut $m, "timestamp"),
            raw_event: ov(&mut $m, "rawEvent"),
            metadata: om(&mut $m, "metadata"),
        }
    };
    ($ty:ident, $m:ident, scoped { $($field:ident : $val:expr),* $(,)? }) => {
        $ty {
            $($field: $val,)*
            timestamp: oi(&mut $m, "timestamp"),
            raw_event: ov(&mut $m, "rawEvent"),
            metadata: om(&mut $m, "metadata"),
        }
    };
}

/// A validated event of type `t`.
pub(crate) fn event(t: EventType, mut m: M) -> Event {
    use EventType as T;
    match t {
        T::TextMessageStart => Event::TextMessageStart(build!(
            TextMessageStart,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                role: role(&mut m),
                name: os(&mut m, "name")
            }
        )),
        T::TextMessageContent => Event::TextMessageContent(build!(
            TextMessageContent,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                delta: s(&mut m, "delta")
            }
        )),
        T::TextMessageEnd => Event::TextMessageEnd(build!(
            TextMessageEnd,
            m,
            attributable {
                message_id: s(&mut m, "messageId")
            }
        )),
        T::TextMessageChunk => Event::TextMessageChunk(build!(
            TextMessageChunk,
            m,
            attributable {
                message_id: os(&mut m, "messageId"),
                role: role(&mut m),
                delta: os(&mut m, "delta"),
                name: os(&mut m, "name")
            }
        )),
        T::ToolCallStart => Event::ToolCallStart(build!(
            ToolCallStart,
            m,
            attributable {
                tool_call_id: s(&mut m, "toolCallId"),
                tool_call_name: s(&mut m, "toolCallName"),
                parent_message_id: os(&mut m, "parentMessageId")
            }
        )),
        T::ToolCallArgs => Event::ToolCallArgs(build!(
            ToolCallArgs,
            m,
            attributable {
                tool_call_id: s(&mut m, "toolCallId"),
                delta: s(&mut m, "delta")
            }
        )),
        T::ToolCallEnd => Event::ToolCallEnd(build!(
            ToolCallEnd,
            m,
            attributable {
                tool_call_id: s(&mut m, "toolCallId")
            }
        )),
        T::ToolCallChunk => Event::ToolCallChunk(build!(
            ToolCallChunk,
            m,
            attributable {
                tool_call_id: os(&mut m, "toolCallId"),
                tool_call_name: os(&mut m, "toolCallName"),
                parent_message_id: os(&mut m, "parentMessageId"),
                delta: os(&mut m, "delta")
            }
        )),
        T::ToolCallResult => Event::ToolCallResult(build!(
            ToolCallResult,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                tool_call_id: s(&mut m, "toolCallId"),
                content: content(v(&mut m, "content")),
                role: m.remove("role").map(|_| ToolRole::Tool)
            }
        )),
        T::StateSnapshot => Event::StateSnapshot(build!(
            StateSnapshot,
            m,
            attributable {
                snapshot: v(&mut m, "snapshot")
            }
        )),
        T::StateDelta => Event::StateDelta(build!(
            StateDelta,
            m,
            attributable {
                delta: arr(&mut m, "delta").unwrap_or_default()
            }
        )),
        T::MessagesSnapshot => Event::MessagesSnapshot(build!(
            MessagesSnapshot,
            m,
            scoped {
                messages: messages(&mut m, "messages")
            }
        )),
        T::ActivitySnapshot => Event::ActivitySnapshot(build!(
            ActivitySnapshot,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                activity_type: s(&mut m, "activityType"),
                content: mm(&mut m, "content"),
                replace: ob(&mut m, "replace")
            }
        )),
        T::ActivityDelta => Event::ActivityDelta(build!(
            ActivityDelta,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                activity_type: s(&mut m, "activityType"),
                patch: arr(&mut m, "patch").unwrap_or_default()
            }
        )),
        T::Raw => Event::Raw(build!(
            Raw,
            m,
            attributable {
                event: v(&mut m, "event"),
                source: os(&mut m, "source")
            }
        )),
        T::Custom => Event::Custom(build!(
            Custom,
            m,
            attributable {
                name: s(&mut m, "name"),
                value: v(&mut m, "value")
            }
        )),
        T::RunStarted => Event::RunStarted(build!(
            RunStarted,
            m,
            scoped {
                thread_id: s(&mut m, "threadId"),
                run_id: s(&mut m, "runId"),
                protocol_version: os(&mut m, "protocolVersion"),
                parent_run_id: os(&mut m, "parentRunId"),
                input: om(&mut m, "input").map(|i| Box::new(input(i)))
            }
        )),
        T::RunFinished => Event::RunFinished(build!(
            RunFinished,
            m,
            scoped {
                thread_id: s(&mut m, "threadId"),
                run_id: s(&mut m, "runId"),
                result: ov(&mut m, "result"),
                outcome: om(&mut m, "outcome").map(run_outcome),
                usage: usage(&mut m)
            }
        )),
        T::RunError => Event::RunError(build!(
            RunError,
            m,
            scoped {
                message: s(&mut m, "message"),
                code: os(&mut m, "code"),
                usage: usage(&mut m)
            }
        )),
        T::StepStarted => Event::StepStarted(build!(
            StepStarted,
            m,
            attributable {
                step_name: s(&mut m, "stepName")
            }
        )),
        T::StepFinished => Event::StepFinished(build!(
            StepFinished,
            m,
            attributable {
                step_name: s(&mut m, "stepName")
            }
        )),
        T::ReasoningStart => Event::ReasoningStart(build!(
            ReasoningStart,
            m,
            attributable {
                message_id: s(&mut m, "messageId")
            }
        )),
        T::ReasoningMessageStart => Event::ReasoningMessageStart(build!(
            ReasoningMessageStart,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                role: ReasoningRole::Reasoning
            }
        )),
        T::ReasoningMessageContent => Event::ReasoningMessageContent(build!(
            ReasoningMessageContent,
            m,
            attributable {
                message_id: s(&mut m, "messageId"),
                delta: s(&mut m, "delta")
            }
        )),
        T::ReasoningMessageEnd => Event::ReasoningMessageEnd(build!(
            ReasoningMessageEnd,
            m,
            attributable {
                message_id: s(&mut m, "messageId")
            }
        )),
        T::ReasoningMessageChunk => Event::ReasoningMessageChunk(build!(
            ReasoningMessageChunk,
            m,
            attributable {
                message_id: os(&mut m, "messageId"),
                delta: os(&mut m, "delta")
            }
        )),
        T::ReasoningEnd => Event::ReasoningEnd(build!(
            ReasoningEnd,
            m,
            attributable {
                message_id: s(&mut m, "messageId")
            }
        )),
        T::ReasoningEncryptedValue => Event::ReasoningEncryptedValue(build!(
            ReasoningEncryptedValue,
            m,
            attributable {
                subtype: if s(&mut m, "subtype") == "tool-call" {
                    EncryptedValueSubtype::ToolCall
                } else {
                    EncryptedValueSubtype::Message
                },
                entity_id: s(&mut m, "entityId"),
                encrypted_value: s(&mut m, "encryptedValue"),
                encrypted_value_type: os(&mut m, "encryptedValueType")
            }
        )),
        T::SubagentStarted => Event::SubagentStarted(build!(
            SubagentStarted,
            m,
            scoped {
                subagent_run_id: s(&mut m, "subagentRunId"),
                name: s(&mut m, "name"),
                description: os(&mut m, "description"),
                parent_subagent_run_id: os(&mut m, "parentSubagentRunId"),
                parent_tool_call_id: os(&mut m, "parentToolCallId"),
                parent_message_id: os(&mut m, "parentMessageId")
            }
        )),
        T::SubagentFinished => Event::SubagentFinished(build!(
            SubagentFinished,
            m,
            scoped {
                subagent_run_id: s(&mut m, "subagentRunId"),
                result: ov(&mut m, "result"),
                outcome: om(&mut m, "outcome").map(sub_outcome)
            }
        )),
        T::SubagentError => Event::SubagentError(build!(
            SubagentError,
            m,
            scoped {
                subagent_run_id: s(&mut m, "subagentRunId"),
                message: s(&mut m, "message"),
                code: os(&mut m, "code")
            }
        )),
    }
}
