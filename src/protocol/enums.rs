//! The string "enums" of the Agent API (`MessageType`, `ContentType`, `RunStatus`, `Role`).
//!
//! In the reference these are classes of string constants; on the wire they are plain strings.
//! `MessageType` and `RunStatus` are open sets (the reference types the fields as `str`), so an
//! unknown string is kept in an `Other` variant and round-trips. `ContentType` and `Role` are
//! closed sets, as in the reference's `Literal` types.
//!
//! See `reference/agentscope-protocol.md` §2.1.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! string_enum_open {
    (
        $(#[$meta:meta])*
        $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $value:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value outside the known set, kept verbatim so that it round-trips.
            Other(String),
        }

        impl $name {
            /// Every known value, in the reference's declaration order.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The wire string.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )+
                    $name::Other(s) => s.as_str(),
                }
            }

            /// Parses a wire string; unknown strings become `Other`.
            pub fn from_wire(s: &str) -> Self {
                match s {
                    $( $value => $name::$variant, )+
                    other => $name::Other(other.to_owned()),
                }
            }

            /// Like [`Self::from_wire`], reusing the allocation of an owned string.
            pub fn from_wire_owned(s: String) -> Self {
                match s.as_str() {
                    $( $value => $name::$variant, )+
                    _ => $name::Other(s),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::from_wire(s)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map(Self::from_wire_owned)
            }
        }
    };
}

macro_rules! string_enum_closed {
    (
        $(#[$meta:meta])*
        $name:ident, $expect:literal { $( $(#[$vmeta:meta])* $variant:ident => $value:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the reference's declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire string.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $value, )+
                }
            }

            /// Parses a wire string; `None` for a string outside the set.
            pub fn from_wire(s: &str) -> Option<Self> {
                match s {
                    $( $value => Some($name::$variant), )+
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                Self::from_wire(&s).ok_or_else(|| {
                    serde::de::Error::custom(format!("Input should be {}", $expect))
                })
            }
        }
    };
}

string_enum_open! {
    /// `Message.type`: what a message carries. Open set: the reference types the field as `str`.
    MessageType {
        /// `message`: ordinary text/media message.
        Message => "message",
        /// `function_call`: an OpenAI-style function call.
        FunctionCall => "function_call",
        /// `function_call_output`: the result of a function call.
        FunctionCallOutput => "function_call_output",
        /// `plugin_call`: a tool call, as every bundled framework adapter emits it.
        PluginCall => "plugin_call",
        /// `plugin_call_output`: a tool result.
        PluginCallOutput => "plugin_call_output",
        /// `component_call`.
        ComponentCall => "component_call",
        /// `component_call_output`.
        ComponentCallOutput => "component_call_output",
        /// `mcp_list_tools`.
        McpListTools => "mcp_list_tools",
        /// `mcp_approval_request`.
        McpApprovalRequest => "mcp_approval_request",
        /// `mcp_call` (the reference's constant is `MCP_TOOL_CALL`).
        McpToolCall => "mcp_call",
        /// `mcp_approval_response`.
        McpApprovalResponse => "mcp_approval_response",
        /// `mcp_call_output` (the reference's constant is `MCP_TOOL_CALL_OUTPUT`).
        McpToolCallOutput => "mcp_call_output",
        /// `reasoning`: thinking text.
        Reasoning => "reasoning",
        /// `heartbeat` (declared, never emitted by the reference).
        Heartbeat => "heartbeat",
        /// `error`.
        Error => "error",
        /// `a2ui_response`.
        A2uiResponse => "a2ui_response",
        /// `a2ui_action`.
        A2uiAction => "a2ui_action",
    }
}

string_enum_open! {
    /// The `status` of an event. Open set: the reference types the field as `str`.
    RunStatus {
        /// `created`.
        Created => "created",
        /// `in_progress`.
        InProgress => "in_progress",
        /// `completed`.
        Completed => "completed",
        /// `canceled` (one "l").
        Canceled => "canceled",
        /// `failed`.
        Failed => "failed",
        /// `rejected`.
        Rejected => "rejected",
        /// `unknown`.
        Unknown => "unknown",
        /// `queued`.
        Queued => "queued",
        /// `incomplete`.
        Incomplete => "incomplete",
    }
}

string_enum_closed! {
    /// The `type` of a content part. Closed set of seven (a discriminated union in the
    /// reference).
    ContentType, "'text', 'image', 'data', 'audio', 'file', 'refusal' or 'video'" {
        /// `text`.
        Text => "text",
        /// `data`: a JSON object payload.
        Data => "data",
        /// `image`.
        Image => "image",
        /// `audio`.
        Audio => "audio",
        /// `file`.
        File => "file",
        /// `refusal`.
        Refusal => "refusal",
        /// `video`.
        Video => "video",
    }
}

string_enum_closed! {
    /// `Message.role`. Closed set: any other string is a validation error, as in the reference.
    Role, "'assistant', 'system', 'user' or 'tool'" {
        /// `assistant`.
        Assistant => "assistant",
        /// `user`.
        User => "user",
        /// `system`.
        System => "system",
        /// `tool`.
        Tool => "tool",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_reference() {
        assert_eq!(MessageType::KNOWN.len(), 17);
        assert_eq!(ContentType::ALL.len(), 7);
        assert_eq!(RunStatus::KNOWN.len(), 9);
        assert_eq!(Role::ALL.len(), 4);
    }

    #[test]
    fn unknown_message_type_round_trips() {
        let t = MessageType::from_wire("custom_thing");
        assert_eq!(t, MessageType::Other("custom_thing".into()));
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"custom_thing\"");
        assert_eq!(MessageType::from_wire("mcp_call"), MessageType::McpToolCall);
        for t in MessageType::KNOWN {
            assert_eq!(&MessageType::from_wire(t.as_str()), t);
        }
    }

    #[test]
    fn role_is_closed() {
        assert_eq!(Role::from_wire("tool"), Some(Role::Tool));
        assert_eq!(Role::from_wire("bot"), None);
        assert!(serde_json::from_str::<Role>("\"bot\"").is_err());
    }
}
