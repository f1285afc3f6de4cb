//! Chunk expansion (`@ag-ui/client` 1.0 `transformChunks`): `TEXT_MESSAGE_CHUNK`,
//! `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` become start/content/end triads.
//!
//! State is kept per lane (the chunk's `subagentRunId`; `None` is the parent agent), each lane
//! holding at most one pending stream. Explicit events of a lane close that lane's pending
//! stream first (a synthesized `*_END`); run-level events close every lane; a subagent's
//! terminal closes its own; `RAW`, `ACTIVITY_*`, `REASONING_ENCRYPTED_VALUE` and
//! `SUBAGENT_STARTED` close nothing. At end of input nothing is synthesized.

use serde_json::Value;

use super::event::*;
use super::message::Metadata;
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
                id_field(kind),
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

    /// The expansion every chunk kind shares: resolves the lane, continues its open stream
    /// (after `agree` checks the chunk against it) or closes the lane and opens a new stream
    /// (`open` validates the first chunk and builds its start event), then emits the content
    /// event when the chunk carries a delta or a raw event, or metadata that no start event
    /// took. `open` gets the new stream's id, `subagentRunId` and metadata. The callbacks are
    /// `dyn` so that the three kinds share one copy of this code.
    fn stream_chunk(
        &mut self,
        c: ChunkParts,
        agree: &dyn Fn(&Pending) -> Result<()>,
        open: &dyn Fn(String, Option<String>, Option<Metadata>) -> Result<Opened>,
        out: &mut Vec<Event>,
    ) -> Result<()> {
        let lane = self.resolve_lane(
            c.kind,
            c.id.as_deref(),
            c.subagent_run_id.as_deref(),
            c.chunk_type,
            c.entity,
        )?;
        let start = out.len();
        let continuing = match self.lane(&lane) {
            Some(p) if p.kind == c.kind && c.id.as_deref().is_none_or(|id| id == p.id) => {
                agree(p)?;
                Some(p.clone())
            }
            _ => None,
        };
        let fields = match continuing {
            Some(p) => p,
            None => {
                self.close_lane(&lane, out);
                let Some(id) = c.id.clone() else {
                    return Err(fatal(format!(
                        "First {} must have a {}",
                        c.chunk_type,
                        id_field(c.kind)
                    )));
                };
                let opened = open(id.clone(), c.subagent_run_id.clone(), c.metadata.clone())?;
                let p = Pending {
                    kind: c.kind,
                    id,
                    first: opened.first,
                    second: opened.second,
                    owner: c.subagent_run_id.clone(),
                };
                self.open(lane, p.clone());
                out.push(opened.start);
                p
            }
        };
        let owner = c.subagent_run_id.or(fields.owner);
        if c.delta.is_some()
            || c.raw_event.is_some()
            || (out.len() == start && c.metadata.is_some())
        {
            out.push(content_event(
                c.kind,
                fields.id,
                c.delta.unwrap_or_default(),
                owner,
                c.raw_event,
                c.metadata,
            ));
        }
        Ok(())
    }

    fn text(&mut self, c: TextMessageChunk, out: &mut Vec<Event>) -> Result<()> {
        let parts = ChunkParts {
            kind: Kind::Text,
            chunk_type: "TEXT_MESSAGE_CHUNK",
            entity: "text message",
            id: c.message_id,
            subagent_run_id: c.subagent_run_id,
            delta: c.delta,
            raw_event: c.raw_event,
            metadata: c.metadata,
        };
        let (role, name) = (c.role, c.name);
        self.stream_chunk(
            parts,
            &|p| {
                agreement(
                    "text message",
                    &p.id,
                    "role",
                    role.map(TextMessageRole::as_str),
                    p.first.as_deref(),
                )?;
                agreement(
                    "text message",
                    &p.id,
                    "name",
                    name.as_deref(),
                    p.second.as_deref(),
                )
            },
            &|id, subagent_run_id, metadata| {
                let role = role.unwrap_or_default();
                Ok(Opened {
                    first: Some(role.as_str().to_owned()),
                    second: name.clone(),
                    start: Event::TextMessageStart(TextMessageStart {
                        message_id: id,
                        role: Some(role),
                        name: name.clone(),
                        subagent_run_id,
                        timestamp: None,
                        raw_event: None,
                        metadata,
                    }),
                })
            },
            out,
        )
    }

    fn tool(&mut self, c: ToolCallChunk, out: &mut Vec<Event>) -> Result<()> {
        let parts = ChunkParts {
            kind: Kind::Tool,
            chunk_type: "TOOL_CALL_CHUNK",
            entity: "tool call",
            id: c.tool_call_id,
            subagent_run_id: c.subagent_run_id,
            delta: c.delta,
            raw_event: c.raw_event,
            metadata: c.metadata,
        };
        let (tool_call_name, parent_message_id) = (c.tool_call_name, c.parent_message_id);
        self.stream_chunk(
            parts,
            &|p| {
                agreement(
                    "tool call",
                    &p.id,
                    "toolCallName",
                    tool_call_name.as_deref(),
                    p.first.as_deref(),
                )?;
                agreement(
                    "tool call",
                    &p.id,
                    "parentMessageId",
                    parent_message_id.as_deref(),
                    p.second.as_deref(),
                )
            },
            &|id, subagent_run_id, metadata| {
                let Some(name) = tool_call_name.clone() else {
                    return Err(fatal(
                        "First TOOL_CALL_CHUNK must have a toolCallName".to_owned(),
                    ));
                };
                Ok(Opened {
                    first: Some(name.clone()),
                    second: parent_message_id.clone(),
                    start: Event::ToolCallStart(ToolCallStart {
                        tool_call_id: id,
                        tool_call_name: name,
                        parent_message_id: parent_message_id.clone(),
                        subagent_run_id,
                        timestamp: None,
                        raw_event: None,
                        metadata,
                    }),
                })
            },
            out,
        )
    }

    fn reasoning(&mut self, c: ReasoningMessageChunk, out: &mut Vec<Event>) -> Result<()> {
        let parts = ChunkParts {
            kind: Kind::Reasoning,
            chunk_type: "REASONING_MESSAGE_CHUNK",
            entity: "reasoning message",
            id: c.message_id,
            subagent_run_id: c.subagent_run_id,
            delta: c.delta,
            raw_event: c.raw_event,
            metadata: c.metadata,
        };
        self.stream_chunk(
            parts,
            &|_| Ok(()),
            &|id, subagent_run_id, metadata| {
                Ok(Opened {
                    first: None,
                    second: None,
                    start: Event::ReasoningMessageStart(ReasoningMessageStart {
                        message_id: id,
                        role: ReasoningRole::Reasoning,
                        subagent_run_id,
                        timestamp: None,
                        raw_event: None,
                        metadata,
                    }),
                })
            },
            out,
        )
    }
}

/// The fields of a chunk that every kind handles alike, with its kind's names for messages.
struct ChunkParts {
    kind: Kind,
    /// The chunk's `type`, as error messages name it.
    chunk_type: &'static str,
    /// What the stream is, as error messages name it.
    entity: &'static str,
    /// Message id or tool-call id.
    id: Option<String>,
    subagent_run_id: Option<String>,
    delta: Option<String>,
    raw_event: Option<Value>,
    metadata: Option<Metadata>,
}

/// What opening a stream adds: the fields later chunks must agree with, and the start event.
struct Opened {
    first: Option<String>,
    second: Option<String>,
    start: Event,
}

/// The id field a chunk of `kind` carries, as error messages name it.
fn id_field(kind: Kind) -> &'static str {
    match kind {
        Kind::Tool => "toolCallId",
        Kind::Text | Kind::Reasoning => "messageId",
    }
}

fn content_event(
    kind: Kind,
    id: String,
    delta: String,
    subagent_run_id: Option<String>,
    raw_event: Option<Value>,
    metadata: Option<Metadata>,
) -> Event {
    match kind {
        Kind::Text => Event::TextMessageContent(TextMessageContent {
            message_id: id,
            delta,
            subagent_run_id,
            timestamp: None,
            raw_event,
            metadata,
        }),
        Kind::Tool => Event::ToolCallArgs(ToolCallArgs {
            tool_call_id: id,
            delta,
            subagent_run_id,
            timestamp: None,
            raw_event,
            metadata,
        }),
        Kind::Reasoning => Event::ReasoningMessageContent(ReasoningMessageContent {
            message_id: id,
            delta,
            subagent_run_id,
            timestamp: None,
            raw_event,
            metadata,
        }),
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
