//! Messages (`Message`, discriminated by `role`) and the tool calls an assistant message holds.

use serde::{Deserialize, Serialize};

use super::content::Content;
use crate::protocol::JsonMap;

/// Metadata: a JSON object, open by key (any value, `null` included, under a key), never `null`
/// itself. Merged per key, last write wins, without recursion ([`merge_metadata`]).
pub type Metadata = JsonMap;

/// Merges `incoming` into `existing` per key, last write wins, no recursion (the client's
/// `mergeMetadata`). Existing keys keep their position; new keys are appended.
pub fn merge_metadata(existing: &mut Option<Metadata>, incoming: &Metadata) {
    match existing {
        Some(map) => {
            for (key, value) in incoming {
                map.insert(key.clone(), value.clone());
            }
        }
        None => *existing = Some(incoming.clone()),
    }
}

/// The name and arguments of a tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// The tool's name.
    pub name: String,
    /// The arguments, conventionally JSON text (not validated).
    pub arguments: String,
}

/// A call an assistant message made: `{id, type:"function", function, encryptedValue?,
/// metadata?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The call id.
    pub id: String,
    /// Always `"function"`.
    #[serde(rename = "type")]
    pub call_type: FunctionType,
    /// The name and arguments.
    pub function: FunctionCall,
    /// An opaque encrypted reasoning artefact tied to the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// What kind of artefact `encrypted_value` is (protocol 1.1; stored, never read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The one tool-call type, `"function"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FunctionType {
    /// `"function"`.
    #[default]
    #[serde(rename = "function")]
    Function,
}

impl ToolCall {
    /// A new call with empty arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Self {
        ToolCall {
            id: id.into(),
            call_type: FunctionType::Function,
            function: FunctionCall {
                name: name.into(),
                arguments: String::new(),
            },
            encrypted_value: None,
            encrypted_value_type: None,
            metadata: None,
        }
    }
}

/// The fields every message role shares.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageCommon {
    /// The message id.
    pub id: String,
    /// The subagent invocation that produced the message, when attributed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// An opaque encrypted artefact tied to the message (not on activity messages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
    /// What kind of artefact `encrypted_value` is (protocol 1.1; stored, never read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value_type: Option<String>,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A developer or system message: `{id, role, content: string, name?, …}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextMessage {
    /// Shared fields.
    #[serde(flatten)]
    pub common: MessageCommon,
    /// An optional author name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The text.
    pub content: String,
}

/// An assistant message: content is optional (a turn may be only tool calls).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantMessage {
    /// Shared fields.
    #[serde(flatten)]
    pub common: MessageCommon,
    /// An optional author name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The text, when any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The calls this turn made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
}

/// A user message: content is a string or a list of parts.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserMessage {
    /// Shared fields.
    #[serde(flatten)]
    pub common: MessageCommon,
    /// An optional author name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The body.
    pub content: Content,
}

/// A tool message: what a tool returned (`content` may be parts since 1.0).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMessage {
    /// Shared fields.
    #[serde(flatten)]
    pub common: MessageCommon,
    /// The body.
    pub content: Content,
    /// The call this answers.
    pub tool_call_id: String,
    /// An error text, when the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// An activity message: structured progress a UI renders, client-side display state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityMessage {
    /// The message id.
    pub id: String,
    /// The subagent invocation that produced it, when attributed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<String>,
    /// The kind of activity (open string).
    pub activity_type: String,
    /// The activity's content, an open JSON object.
    pub content: JsonMap,
    /// Metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// A reasoning message: a span of the agent's reasoning, materialised.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasoningMessage {
    /// Shared fields.
    #[serde(flatten)]
    pub common: MessageCommon,
    /// The reasoning text.
    pub content: String,
}

/// Any message of a conversation, discriminated by `role` (seven roles in 1.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum Message {
    /// Instructions from the application developer.
    Developer(TextMessage),
    /// Instructions from the system.
    System(TextMessage),
    /// A message from the agent.
    Assistant(AssistantMessage),
    /// A message from the person using the application.
    User(UserMessage),
    /// What a tool returned.
    Tool(ToolMessage),
    /// Structured progress (client-side display state).
    Activity(ActivityMessage),
    /// The agent's reasoning.
    Reasoning(ReasoningMessage),
}

impl Message {
    /// The message id.
    pub fn id(&self) -> &str {
        match self {
            Message::Developer(m) | Message::System(m) => &m.common.id,
            Message::Assistant(m) => &m.common.id,
            Message::User(m) => &m.common.id,
            Message::Tool(m) => &m.common.id,
            Message::Activity(m) => &m.id,
            Message::Reasoning(m) => &m.common.id,
        }
    }

    /// The role name (`"assistant"`, `"tool"`, …).
    pub fn role(&self) -> &'static str {
        match self {
            Message::Developer(_) => "developer",
            Message::System(_) => "system",
            Message::Assistant(_) => "assistant",
            Message::User(_) => "user",
            Message::Tool(_) => "tool",
            Message::Activity(_) => "activity",
            Message::Reasoning(_) => "reasoning",
        }
    }

    /// The subagent attribution, when any.
    pub fn subagent_run_id(&self) -> Option<&str> {
        match self {
            Message::Activity(m) => m.subagent_run_id.as_deref(),
            other => other.common().map(|c| c.subagent_run_id.as_deref())?,
        }
    }

    /// The shared fields (every role but `activity`).
    pub fn common(&self) -> Option<&MessageCommon> {
        match self {
            Message::Developer(m) | Message::System(m) => Some(&m.common),
            Message::Assistant(m) => Some(&m.common),
            Message::User(m) => Some(&m.common),
            Message::Tool(m) => Some(&m.common),
            Message::Reasoning(m) => Some(&m.common),
            Message::Activity(_) => None,
        }
    }

    /// The shared fields, mutably (every role but `activity`).
    pub fn common_mut(&mut self) -> Option<&mut MessageCommon> {
        match self {
            Message::Developer(m) | Message::System(m) => Some(&mut m.common),
            Message::Assistant(m) => Some(&mut m.common),
            Message::User(m) => Some(&mut m.common),
            Message::Tool(m) => Some(&mut m.common),
            Message::Reasoning(m) => Some(&mut m.common),
            Message::Activity(_) => None,
        }
    }

    /// The metadata slot, mutably.
    pub fn metadata_mut(&mut self) -> &mut Option<Metadata> {
        match self {
            Message::Activity(m) => &mut m.metadata,
            Message::Developer(m) | Message::System(m) => &mut m.common.metadata,
            Message::Assistant(m) => &mut m.common.metadata,
            Message::User(m) => &mut m.common.metadata,
            Message::Tool(m) => &mut m.common.metadata,
            Message::Reasoning(m) => &mut m.common.metadata,
        }
    }

    /// The text content, when the content is a plain string (assistant content may be absent).
    pub fn text(&self) -> Option<&str> {
        match self {
            Message::Developer(m) | Message::System(m) => Some(&m.content),
            Message::Assistant(m) => m.content.as_deref(),
            Message::User(UserMessage {
                content: Content::Text(t),
                ..
            })
            | Message::Tool(ToolMessage {
                content: Content::Text(t),
                ..
            }) => Some(t),
            Message::Reasoning(m) => Some(&m.content),
            _ => None,
        }
    }

    /// The text content to append to, as the client's reducer sees it: a string content is
    /// appended to; a missing or non-string content starts from `""` (parts are replaced).
    /// `None` for activity messages.
    pub fn text_mut(&mut self) -> Option<&mut String> {
        match self {
            Message::Developer(m) | Message::System(m) => Some(&mut m.content),
            Message::Assistant(m) => Some(m.content.get_or_insert_with(String::new)),
            Message::User(UserMessage { content, .. })
            | Message::Tool(ToolMessage { content, .. }) => {
                if !matches!(content, Content::Text(_)) {
                    *content = Content::Text(String::new());
                }
                match content {
                    Content::Text(t) => Some(t),
                    Content::Parts(_) => None,
                }
            }
            Message::Reasoning(m) => Some(&mut m.content),
            Message::Activity(_) => None,
        }
    }

    /// The tool calls of an assistant message.
    pub fn tool_calls(&self) -> &[ToolCall] {
        match self {
            Message::Assistant(m) => m.tool_calls.as_deref().unwrap_or(&[]),
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn roles_round_trip_without_nulls() {
        for v in [
            json!({"role":"user","id":"u1","content":[{"type":"text","text":"hi"}]}),
            json!({"role":"assistant","id":"a1","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}),
            json!({"role":"tool","id":"t1","content":"ok","toolCallId":"c1"}),
            json!({"role":"activity","id":"x","activityType":"plan","content":{"steps":[]}}),
            json!({"role":"reasoning","id":"r","content":"hm","encryptedValue":"zz"}),
            json!({"role":"system","id":"s","content":"be nice","name":"ops"}),
            json!({"role":"developer","id":"d","content":"dev"}),
        ] {
            let m: Message = serde_json::from_value(v.clone()).unwrap();
            let back = serde_json::to_value(&m).unwrap();
            // Same members (order aside).
            assert_eq!(back, v);
        }
    }

    #[test]
    fn metadata_merges_per_key() {
        let mut existing = Some(json!({"a":1,"b":[1,2]}).as_object().unwrap().clone());
        merge_metadata(
            &mut existing,
            json!({"b":[3],"c":null}).as_object().unwrap(),
        );
        assert_eq!(
            Value::Object(existing.unwrap()),
            json!({"a":1,"b":[3],"c":null})
        );
    }
    use serde_json::Value;
}
