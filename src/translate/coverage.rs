//! What a target protocol cannot express: the Agent API message types and part types its
//! encoder has no place for, named once per kind in the translator's warnings instead of being
//! dropped silently.

use std::collections::{HashMap, HashSet};

use crate::protocol::{Event, MessageType};
use crate::{Protocol, Warning, WarningCode};

/// The most message ids remembered (their types, for the parts that follow).
const MAX_TRACKED: usize = 100_000;

/// Tracks the run's message types and reports, once per kind, what the target leaves out.
#[derive(Debug)]
pub(crate) struct Coverage {
    target: Protocol,
    types: HashMap<String, MessageType>,
    reported: HashSet<String>,
}

/// Whether the Responses and AG-UI encoders write messages of this type.
fn carried_type(t: &MessageType) -> bool {
    matches!(
        t,
        MessageType::Message
            | MessageType::Error
            | MessageType::Reasoning
            | MessageType::FunctionCall
            | MessageType::PluginCall
            | MessageType::McpToolCall
            | MessageType::FunctionCallOutput
            | MessageType::PluginCallOutput
            | MessageType::McpToolCallOutput
    )
}

impl Coverage {
    /// Coverage for a translation into `target`.
    pub(crate) fn new(target: Protocol) -> Self {
        Coverage {
            target,
            types: HashMap::new(),
            reported: HashSet::new(),
        }
    }

    /// Sees one event before it is encoded; a warning when the target leaves it out and the
    /// kind was not reported yet.
    pub(crate) fn see(&mut self, event: &Event) -> Option<Warning> {
        if !matches!(self.target, Protocol::OpenAiResponses | Protocol::AgUi) {
            // The Agent API carries everything; A2A carries every message as an artifact.
            return None;
        }
        let (kind, what) = match event {
            Event::Message(m) => {
                if self.types.len() < MAX_TRACKED || self.types.contains_key(&m.id) {
                    self.types.insert(m.id.clone(), m.message_type.clone());
                }
                if carried_type(&m.message_type) {
                    return None;
                }
                let t = m.message_type.as_str().to_owned();
                (format!("message:{t}"), format!("`{t}` messages"))
            }
            Event::Content(c) if self.target == Protocol::OpenAiResponses => {
                let in_text_message = c
                    .msg_id
                    .as_deref()
                    .and_then(|id| self.types.get(id))
                    .is_none_or(|t| {
                        matches!(
                            t,
                            MessageType::Message | MessageType::Error | MessageType::Reasoning
                        )
                    });
                let t = c.type_str();
                if !in_text_message || matches!(t, "text" | "refusal") {
                    return None;
                }
                (format!("part:{t}"), format!("`{t}` parts of messages"))
            }
            _ => return None,
        };
        if !self.reported.insert(kind) {
            return None;
        }
        Some(Warning::new(
            WarningCode::NotCarried,
            format!(
                "{what} have no place in {} and are not carried.",
                self.target.as_str()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::translate::Translator;
    use crate::Protocol;

    const RUN: &str = concat!(
        "data: {\"object\":\"response\",\"status\":\"created\",\"id\":\"r1\"}\n\n",
        "data: {\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"h\",\"type\":\"heartbeat\"}\n\n",
        "data: {\"object\":\"message\",\"status\":\"in_progress\",\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\"}\n\n",
        "data: {\"object\":\"content\",\"status\":\"completed\",\"type\":\"text\",\"index\":0,\"msg_id\":\"m\",\"text\":\"Hi\"}\n\n",
        "data: {\"object\":\"content\",\"status\":\"completed\",\"type\":\"image\",\"index\":1,\"msg_id\":\"m\",\"image_url\":\"u\"}\n\n",
        "data: {\"object\":\"content\",\"status\":\"completed\",\"type\":\"image\",\"index\":2,\"msg_id\":\"m\",\"image_url\":\"v\"}\n\n",
        "data: {\"object\":\"response\",\"status\":\"completed\",\"id\":\"r1\"}\n\n",
    );

    fn warnings(to: Protocol) -> Vec<String> {
        let mut t = Translator::new(Protocol::AgentApi, to).unwrap();
        t.push(RUN.as_bytes()).unwrap();
        t.finish().unwrap();
        t.warnings()
            .iter()
            .map(|w| format!("{}: {}", w.code.as_str(), w.message))
            .collect()
    }

    #[test]
    fn what_a_target_has_no_place_for_is_named_once_per_kind() {
        assert_eq!(
            warnings(Protocol::OpenAiResponses),
            [
                "NOT_CARRIED: `heartbeat` messages have no place in openai-responses and are not carried.",
                "NOT_CARRIED: `image` parts of messages have no place in openai-responses and are not carried.",
            ]
        );
        assert_eq!(
            warnings(Protocol::AgUi),
            ["NOT_CARRIED: `heartbeat` messages have no place in ag-ui and are not carried."]
        );
        assert!(warnings(Protocol::A2a).is_empty());
        assert!(warnings(Protocol::AgentApi).is_empty());
    }
}
