//! Chunk expansion (`@ag-ui/client` 1.0 `transformChunks`): `TEXT_MESSAGE_CHUNK`,
//! `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` become start/content/end triads.
//!
//! State is kept per lane (the chunk's `subagentRunId`; `None` is the parent agent), each lane
//! holding at most one pending stream. Explicit events of a lane close that lane's pending
//! stream first (a synthesized `*_END`); run-level events close every lane; a subagent's
//! terminal closes its own; `RAW`, `ACTIVITY_*`, `REASONING_ENCRYPTED_VALUE` and
//! `SUBAGENT_STARTED` close nothing. At end of input nothing is synthesized.

use super::event::*;
use crate::{Error, ErrorCode, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Tool,
    Reasoning,
}

#[derive(Debug, Clone)]
struct Pending {
    kind: Kind,
    /// Message id or tool-call id.
    id: String,
    /// Text: the established role; tool: the tool name.
    first: Option<String>,
    /// Text: the name; tool: the parent message id.
    second: Option<String>,
    owner: Option<String>,
}

/// The chunk expander's state.
#[derive(Debug, Default)]
pub(crate) struct Chunks {
    lanes: Vec<(Option<String>, Pending)>,
}

fn fatal(message: String) -> Error {
    Error::new(ErrorCode::ProtocolViolation, message)
}

fn agreement(
    kind: &str,
    id: &str,
    field: &str,
    incoming: Option<&str>,
    established: Option<&str>,
) -> Result<()> {
    match incoming {
        Some(v) if Some(v) != established => Err(fatal(format!(
            "Cannot continue {kind} '{id}': chunk {field} '{v}' does not match the open stream's {field} {}.",
            match established {
                Some(e) => format!("'{e}'"),
                None => "(absent)".to_owned(),
            }
        ))),
        _ => Ok(()),
    }
}

impl Chunks {
    fn lane(&self, owner: &Option<String>) -> Option<&Pending> {
        self.lanes.iter().find(|(o, _)| o == owner).map(|(_, p)| p)
    }

    fn close_lane(&mut self, owner: &Option<String>, out: &mut Vec<Event>) {
        let Some(pos) = self.lanes.iter().position(|(o, _)| o == owner) else {
            return;
        };
        let (_, p) = self.lanes.remove(pos);
        out.push(end_event(p));
    }

    fn close_all(&mut self, out: &mut Vec<Event>) {
        for (_, p) in self.lanes.drain(..) {
            out.push(end_event(p));
        }
    }

    fn open(&mut self, owner: Option<String>, pending: Pending) {
        self.lanes.retain(|(o, _)| *o != owner);
        self.lanes.push((owner, pending));
    }

    fn resolve_lane(
        &self,
        kind: Kind,
        id: Option<&str>,
        tag: Option<&str>,
        chunk_type: &str,
        entity: &str,
    ) -> Result<Option<String>> {
        if let Some(id) = id {
            if let Some((owner, _)) = self
                .lanes
                .iter()
                .find(|(_, p)| p.kind == kind && p.id == id)
            {
                if let Some(tag) = tag {
                    if Some(tag) != owner.as_deref() {
                        return Err(fatal(format!(
                            "Cannot continue {entity} '{id}': chunk subagentRunId '{tag}' does not match the open stream's subagent '{}'.",
                            owner.as_deref().unwrap_or("(the parent agent)")
                        )));
                    }
                }
                return Ok(owner.clone());
            }
            return Ok(tag.map(str::to_owned));
        }
        if let Some(tag) = tag {
            return Ok(Some(tag.to_owned()));
        }
        if self.lane(&None).is_some_and(|p| p.kind == kind) {
            return Ok(None);
        }
        let candidates: Vec<&Option<String>> = self
            .lanes
            .iter()
            .filter(|(_, p)| p.kind == kind)
            .map(|(o, _)| o)
            .collect();
        match candidates.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Ok(None),
            many => Err(fatal(format!(
                "Ambiguous {chunk_type}: it carries neither a {} nor a subagentRunId, but {} lanes have an open {entity}. Attribute the chunk to the subagent it belongs to.",
                if kind == Kind::Tool { "toolCallId" } else { "messageId" },
                many.len()
            ))),
        }
    }

    /// Expands one event into `out` (chunks become triads; other events may be preceded by
    /// the synthesized end of a pending stream).
    ///
    /// # Errors
    ///
    /// `PROTOCOL_VIOLATION` with the client's texts: a first chunk without its id (or a tool
    /// chunk without its name), a continuation that contradicts its opener, an ambiguous
    /// continuation.
    pub(crate) fn expand(&mut self, event: Event, out: &mut Vec<Event>) -> Result<()> {
        match event {
            Event::TextMessageChunk(c) => self.text(c, out),
            Event::ToolCallChunk(c) => self.tool(c, out),
            Event::ReasoningMessageChunk(c) => self.reasoning(c, out),
            Event::RunStarted(_)
            | Event::RunFinished(_)
            | Event::RunError(_)
            | Event::MessagesSnapshot(_) => {
                self.close_all(out);
                out.push(event);
                Ok(())
            }
            Event::Raw(_)
            | Event::ActivitySnapshot(_)
            | Event::ActivityDelta(_)
            | Event::ReasoningEncryptedValue(_)
            | Event::SubagentStarted(_) => {
                out.push(event);
                Ok(())
            }
            Event::SubagentFinished(_) | Event::SubagentError(_) => {
                let owner = event.subagent_run_id().map(str::to_owned);
                self.close_lane(&owner, out);
                out.push(event);
                Ok(())
            }
            other => {
                let owner = other.subagent_run_id().map(str::to_owned);
                self.close_lane(&owner, out);
                out.push(other);
                Ok(())
            }
        }
    }

    fn text(&mut self, c: TextMessageChunk, out: &mut Vec<Event>) -> Result<()> {
        let lane = self.resolve_lane(
            Kind::Text,
            c.message_id.as_deref(),
            c.subagent_run_id.as_deref(),
            "TEXT_MESSAGE_CHUNK",
            "text message",
        )?;
        let start = out.len();
        let continuing = match self.lane(&lane) {
            Some(p)
                if p.kind == Kind::Text && c.message_id.as_deref().is_none_or(|id| id == p.id) =>
            {
                agreement(
                    "text message",
                    &p.id,
                    "role",
                    c.role.map(TextMessageRole::as_str),
                    p.first.as_deref(),
                )?;
                agreement(
                    "text message",
                    &p.id,
                    "name",
                    c.name.as_deref(),
                    p.second.as_deref(),
                )?;
                Some(p.clone())
            }
            _ => None,
        };
        let fields = match continuing {
            Some(p) => p,
            None => {
                self.close_lane(&lane, out);
                let Some(id) = c.message_id.clone() else {
                    return Err(fatal(
                        "First TEXT_MESSAGE_CHUNK must have a messageId".to_owned(),
                    ));
                };
                let role = c.role.unwrap_or_default();
                let p = Pending {
                    kind: Kind::Text,
                    id: id.clone(),
                    first: Some(role.as_str().to_owned()),
                    second: c.name.clone(),
                    owner: c.subagent_run_id.clone(),
                };
                self.open(lane, p.clone());
                out.push(Event::TextMessageStart(TextMessageStart {
                    message_id: id,
                    role: Some(role),
                    name: c.name.clone(),
                    subagent_run_id: c.subagent_run_id.clone(),
                    timestamp: None,
                    raw_event: None,
                    metadata: c.metadata.clone(),
                }));
                p
            }
        };
        let owner = c.subagent_run_id.clone().or(fields.owner);
        if c.delta.is_some()
            || c.raw_event.is_some()
            || (out.len() == start && c.metadata.is_some())
        {
            out.push(Event::TextMessageContent(TextMessageContent {
                message_id: fields.id,
                delta: c.delta.unwrap_or_default(),
                subagent_run_id: owner,
                timestamp: None,
                raw_event: c.raw_event,
                metadata: c.metadata,
            }));
        }
        Ok(())
    }

    fn tool(&mut self, c: ToolCallChunk, out: &mut Vec<Event>) -> Result<()> {
        let lane = self.resolve_lane(
            Kind::Tool,
            c.tool_call_id.as_deref(),
            c.subagent_run_id.as_deref(),
            "TOOL_CALL_CHUNK",
            "tool call",
        )?;
        let start = out.len();
        let continuing = match self.lane(&lane) {
            Some(p)
                if p.kind == Kind::Tool
                    && c.tool_call_id.as_deref().is_none_or(|id| id == p.id) =>
            {
                agreement(
                    "tool call",
                    &p.id,
                    "toolCallName",
                    c.tool_call_name.as_deref(),
                    p.first.as_deref(),
                )?;
                agreement(
                    "tool call",
                    &p.id,
                    "parentMessageId",
                    c.parent_message_id.as_deref(),
                    p.second.as_deref(),
                )?;
                Some(p.clone())
            }
            _ => None,
        };
        let fields = match continuing {
            Some(p) => p,
            None => {
                self.close_lane(&lane, out);
                let Some(id) = c.tool_call_id.clone() else {
                    return Err(fatal(
                        "First TOOL_CALL_CHUNK must have a toolCallId".to_owned(),
                    ));
                };
                let Some(name) = c.tool_call_name.clone() else {
                    return Err(fatal(
                        "First TOOL_CALL_CHUNK must have a toolCallName".to_owned(),
                    ));
                };
                let p = Pending {
                    kind: Kind::Tool,
                    id: id.clone(),
                    first: Some(name.clone()),
                    second: c.parent_message_id.clone(),
                    owner: c.subagent_run_id.clone(),
                };
                self.open(lane, p.clone());
                out.push(Event::ToolCallStart(ToolCallStart {
                    tool_call_id: id,
                    tool_call_name: name,
                    parent_message_id: c.parent_message_id.clone(),
                    subagent_run_id: c.subagent_run_id.clone(),
                    timestamp: None,
                    raw_event: None,
                    metadata: c.metadata.clone(),
                }));
                p
            }
        };
        let owner = c.subagent_run_id.clone().or(fields.owner);
        if c.delta.is_some()
            || c.raw_event.is_some()
            || (out.len() == start && c.metadata.is_some())
        {
            out.push(Event::ToolCallArgs(ToolCallArgs {
                tool_call_id: fields.id,
                delta: c.delta.unwrap_or_default(),
                subagent_run_id: owner,
                timestamp: None,
                raw_event: c.raw_event,
                metadata: c.metadata,
            }));
        }
        Ok(())
    }

    fn reasoning(&mut self, c: ReasoningMessageChunk, out: &mut Vec<Event>) -> Result<()> {
        let lane = self.resolve_lane(
            Kind::Reasoning,
            c.message_id.as_deref(),
            c.subagent_run_id.as_deref(),
            "REASONING_MESSAGE_CHUNK",
            "reasoning message",
        )?;
        let start = out.len();
        let continuing = match self.lane(&lane) {
            Some(p)
                if p.kind == Kind::Reasoning
                    && c.message_id.as_deref().is_none_or(|id| id == p.id) =>
            {
                Some(p.clone())
            }
            _ => None,
        };
        let fields = match continuing {
            Some(p) => p,
            None => {
                self.close_lane(&lane, out);
                let Some(id) = c.message_id.clone() else {
                    return Err(fatal(
                        "First REASONING_MESSAGE_CHUNK must have a messageId".to_owned(),
                    ));
                };
                let p = Pending {
                    kind: Kind::Reasoning,
                    id: id.clone(),
                    first: None,
                    second: None,
                    owner: c.subagent_run_id.clone(),
                };
                self.open(lane, p.clone());
                out.push(Event::ReasoningMessageStart(ReasoningMessageStart {
                    message_id: id,
                    role: ReasoningRole::Reasoning,
                    subagent_run_id: c.subagent_run_id.clone(),
                    timestamp: None,
                    raw_event: None,
                    metadata: c.metadata.clone(),
                }));
                p
            }
        };
        let owner = c.subagent_run_id.clone().or(fields.owner);
        if c.delta.is_some()
            || c.raw_event.is_some()
            || (out.len() == start && c.metadata.is_some())
        {
            out.push(Event::ReasoningMessageContent(ReasoningMessageContent {
                message_id: fields.id,
                delta: c.delta.unwrap_or_default(),
                subagent_run_id: owner,
                timestamp: None,
                raw_event: c.raw_event,
                metadata: c.metadata,
            }));
        }
        Ok(())
    }
}

fn end_event(p: Pending) -> Event {
    match p.kind {
        Kind::Text => Event::TextMessageEnd(TextMessageEnd {
            message_id: p.id,
            subagent_run_id: p.owner,
            timestamp: None,
            raw_event: None,
            metadata: None,
        }),
        Kind::Tool => Event::ToolCallEnd(ToolCallEnd {
            tool_call_id: p.id,
            subagent_run_id: p.owner,
            timestamp: None,
            raw_event: None,
            metadata: None,
        }),
        Kind::Reasoning => Event::ReasoningMessageEnd(ReasoningMessageEnd {
            message_id: p.id,
            subagent_run_id: p.owner,
            timestamp: None,
            raw_event: None,
            metadata: None,
        }),
    }
}
