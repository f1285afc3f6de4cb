//! Verification (`@ag-ui/client` 1.0 `verifyEvents`): the sequencing rules, with the client's
//! exact error texts. State is per run; a `RUN_STARTED` after `RUN_FINISHED` or `RUN_ERROR`
//! starts a new one.

use std::collections::{HashMap, HashSet};

use super::event::*;
use super::message::Message;
use crate::{Error, ErrorCode, Result};

/// An entity's owner: the subagent that opened it (`None`: the parent agent).
type Owner = Option<String>;

#[derive(Debug, Default)]
struct Owners {
    message: HashMap<String, Owner>,
    tool_call: HashMap<String, Owner>,
    activity: HashMap<String, Owner>,
    reasoning: HashMap<String, Owner>,
}

/// The verifier's state.
#[derive(Debug, Default)]
pub(crate) struct Verifier {
    pub(crate) active_messages: Vec<String>,
    pub(crate) active_tool_calls: Vec<String>,
    pub(crate) active_reasoning_spans: Vec<String>,
    pub(crate) active_reasoning_messages: Vec<String>,
    owners: Owners,
    /// Open steps: (owner, name), in opening order.
    steps: Vec<(Owner, String)>,
    active_subagents: Vec<String>,
    closed_subagents: HashSet<String>,
    run_finished: bool,
    run_error: bool,
    first_event: bool,
    run_started: bool,
    /// Messages, reasoning messages and tool calls that a new run closed (left open by the run
    /// before), until taken.
    closed_by_new_run: Vec<String>,
}

fn fatal(message: String) -> Error {
    Error::new(ErrorCode::ProtocolViolation, message)
}

fn tag_error(
    t: EventType,
    tag: Option<&str>,
    owner: Option<&Owner>,
    kind: &str,
    id: &str,
) -> Result<()> {
    let (Some(tag), Some(owner)) = (tag, owner) else {
        return Ok(());
    };
    if owner.as_deref() != Some(tag) {
        return Err(fatal(format!(
            "Cannot send '{}': subagentRunId '{tag}' does not match the {kind} '{id}' opener's subagent '{}'.",
            t.as_str(),
            owner.as_deref().unwrap_or("(the parent agent)")
        )));
    }
    Ok(())
}

fn remove(list: &mut Vec<String>, id: &str) {
    if let Some(pos) = list.iter().position(|x| x == id) {
        list.remove(pos);
    }
}

fn contains(list: &[String], id: &str) -> bool {
    // Most streams have one or two entities open at a time; the newest is the likeliest.
    list.iter().rev().any(|x| x == id)
}

impl Verifier {
    /// Whether a text or reasoning message with this id is open.
    pub(crate) fn is_open(&self, id: &str) -> bool {
        contains(&self.active_messages, id) || contains(&self.active_reasoning_messages, id)
    }

    /// Whether a tool call with this id is open.
    pub(crate) fn is_call_open(&self, id: &str) -> bool {
        contains(&self.active_tool_calls, id)
    }

    /// The ids of the messages, reasoning messages and tool calls that the last checked event
    /// closed by starting a new run; empty for any other event.
    pub(crate) fn take_closed_by_new_run(&mut self) -> Vec<String> {
        std::mem::take(&mut self.closed_by_new_run)
    }

    /// A new run: everything the previous one left open is closed.
    fn reset(&mut self) {
        let old = std::mem::take(self);
        self.first_event = old.first_event;
        self.run_started = true;
        self.closed_by_new_run = [
            old.active_messages,
            old.active_reasoning_messages,
            old.active_tool_calls,
        ]
        .concat();
    }

    fn seed(&mut self, messages: &[Message], authoritative: bool) {
        for m in messages {
            let owner: Owner = m.subagent_run_id().map(str::to_owned);
            let bucket = match m {
                Message::Reasoning(_) => &mut self.owners.reasoning,
                Message::Activity(_) => &mut self.owners.activity,
                _ => &mut self.owners.message,
            };
            if authoritative || !bucket.contains_key(m.id()) {
                bucket.insert(m.id().to_owned(), owner.clone());
            }
            for tc in m.tool_calls() {
                if authoritative || !self.owners.tool_call.contains_key(&tc.id) {
                    self.owners.tool_call.insert(tc.id.clone(), owner.clone());
                }
            }
        }
    }

    /// Checks one (expanded) event against the rules and records its effect.
    ///
    /// # Errors
    ///
    /// `PROTOCOL_VIOLATION` with the client's message when the event breaks a rule.
    pub(crate) fn check(&mut self, event: &Event) -> Result<()> {
        let t = event.event_type();
        let name = t.as_str();
        if self.run_error && t != EventType::RunStarted {
            return Err(fatal(format!("Cannot send event type '{name}': The run has already errored with 'RUN_ERROR'. No further events can be sent.")));
        }
        if self.run_finished && t != EventType::RunError && t != EventType::RunStarted {
            return Err(fatal(format!("Cannot send event type '{name}': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.")));
        }
        if !self.first_event {
            self.first_event = true;
            if t != EventType::RunStarted && t != EventType::RunError {
                return Err(fatal("First event must be 'RUN_STARTED'".to_owned()));
            }
        } else if t == EventType::RunStarted {
            if self.run_started && !self.run_finished && !self.run_error {
                return Err(fatal("Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.".to_owned()));
            }
            if self.run_finished || self.run_error {
                self.reset();
            }
        }
        let tag = event.subagent_run_id();
        match event {
            Event::TextMessageStart(e) => {
                let id = &e.message_id;
                if contains(&self.active_messages, id) {
                    return Err(fatal(format!("Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '{id}' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.")));
                }
                let existing = self.owners.message.get(id);
                tag_error(t, tag, existing, "message", id)?;
                if existing.is_none() {
                    self.owners
                        .message
                        .insert(id.clone(), tag.map(str::to_owned));
                }
                self.active_messages.push(id.clone());
            }
            Event::TextMessageContent(TextMessageContent { message_id: id, .. })
            | Event::TextMessageEnd(TextMessageEnd { message_id: id, .. }) => {
                if !contains(&self.active_messages, id) {
                    return Err(fatal(if t == EventType::TextMessageContent {
                        format!("Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '{id}'. Start a text message with 'TEXT_MESSAGE_START' first.")
                    } else {
                        format!("Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '{id}'. A 'TEXT_MESSAGE_START' event must be sent first.")
                    }));
                }
                tag_error(t, tag, self.owners.message.get(id), "message", id)?;
                if t == EventType::TextMessageEnd {
                    remove(&mut self.active_messages, id);
                }
            }
            Event::ToolCallStart(e) => self.tool_call_start(e)?,
            Event::ToolCallArgs(ToolCallArgs {
                tool_call_id: id, ..
            })
            | Event::ToolCallEnd(ToolCallEnd {
                tool_call_id: id, ..
            }) => {
                if !contains(&self.active_tool_calls, id) {
                    return Err(fatal(if t == EventType::ToolCallArgs {
                        format!("Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '{id}'. Start a tool call with 'TOOL_CALL_START' first.")
                    } else {
                        format!("Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '{id}'. A 'TOOL_CALL_START' event must be sent first.")
                    }));
                }
                tag_error(t, tag, self.owners.tool_call.get(id), "tool call", id)?;
                if t == EventType::ToolCallEnd {
                    remove(&mut self.active_tool_calls, id);
                }
            }
            Event::StepStarted(e) => {
                let owner: Owner = tag.map(str::to_owned);
                if self
                    .steps
                    .iter()
                    .any(|(o, n)| *o == owner && *n == e.step_name)
                {
                    return Err(fatal(format!(
                        "Step \"{}\" is already active for 'STEP_STARTED'{}",
                        e.step_name,
                        tag.map(|s| format!(" in subagent '{s}'"))
                            .unwrap_or_default()
                    )));
                }
                self.steps.push((owner, e.step_name.clone()));
            }
            Event::StepFinished(e) => {
                let owner: Owner = tag.map(str::to_owned);
                match self
                    .steps
                    .iter()
                    .position(|(o, n)| *o == owner && *n == e.step_name)
                {
                    Some(pos) => {
                        self.steps.remove(pos);
                    }
                    None => {
                        let who = |o: &Owner| match o {
                            Some(s) => format!("subagent '{s}'"),
                            None => "the parent agent".to_owned(),
                        };
                        if let Some((other, _)) = self.steps.iter().find(|(_, n)| *n == e.step_name)
                        {
                            return Err(fatal(format!("Cannot send 'STEP_FINISHED' for step \"{}\" attributed to {}: that step is open under {}. A step must be finished by whoever started it.", e.step_name, who(&owner), who(other))));
                        }
                        return Err(fatal(format!(
                            "Cannot send 'STEP_FINISHED' for step \"{}\" that was not started",
                            e.step_name
                        )));
                    }
                }
            }
            Event::ActivitySnapshot(e) => {
                let is_new = !self.owners.activity.contains_key(&e.message_id);
                if is_new || e.replace != Some(false) {
                    self.owners
                        .activity
                        .insert(e.message_id.clone(), tag.map(str::to_owned));
                }
            }
            Event::ActivityDelta(e) => {
                tag_error(
                    t,
                    tag,
                    self.owners.activity.get(&e.message_id),
                    "activity",
                    &e.message_id,
                )?;
            }
            Event::ToolCallResult(e) => {
                self.owners
                    .message
                    .insert(e.message_id.clone(), tag.map(str::to_owned));
            }
            Event::ReasoningStart(ReasoningStart { message_id: id, .. })
            | Event::ReasoningMessageStart(ReasoningMessageStart { message_id: id, .. }) => {
                let span = t == EventType::ReasoningStart;
                let open = if span {
                    &self.active_reasoning_spans
                } else {
                    &self.active_reasoning_messages
                };
                if contains(open, id) {
                    return Err(fatal(if span {
                        format!("Cannot send 'REASONING_START' event: A reasoning span with ID '{id}' is already in progress. Complete it with 'REASONING_END' first.")
                    } else {
                        format!("Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '{id}' is already in progress. Complete it with 'REASONING_MESSAGE_END' first.")
                    }));
                }
                let existing = self.owners.reasoning.get(id);
                tag_error(t, tag, existing, "reasoning message", id)?;
                if existing.is_none() {
                    self.owners
                        .reasoning
                        .insert(id.clone(), tag.map(str::to_owned));
                }
                if span {
                    self.active_reasoning_spans.push(id.clone());
                } else {
                    self.active_reasoning_messages.push(id.clone());
                }
            }
            Event::ReasoningMessageContent(ReasoningMessageContent { message_id: id, .. })
            | Event::ReasoningMessageEnd(ReasoningMessageEnd { message_id: id, .. })
            | Event::ReasoningEnd(ReasoningEnd { message_id: id, .. }) => {
                let span = t == EventType::ReasoningEnd;
                let open = if span {
                    &self.active_reasoning_spans
                } else {
                    &self.active_reasoning_messages
                };
                if !contains(open, id) {
                    return Err(fatal(if span {
                        format!("Cannot send 'REASONING_END' event: No active reasoning span found with ID '{id}'. A 'REASONING_START' event must be sent first.")
                    } else {
                        format!("Cannot send '{name}' event: No active reasoning message found with ID '{id}'. Start a reasoning message with 'REASONING_MESSAGE_START' first.")
                    }));
                }
                tag_error(
                    t,
                    tag,
                    self.owners.reasoning.get(id),
                    "reasoning message",
                    id,
                )?;
                if span {
                    remove(&mut self.active_reasoning_spans, id);
                } else if t == EventType::ReasoningMessageEnd {
                    remove(&mut self.active_reasoning_messages, id);
                }
            }
            Event::ReasoningEncryptedValue(e) => {
                let id = &e.entity_id;
                let (owner, kind) = match e.subtype {
                    EncryptedValueSubtype::ToolCall => (self.owners.tool_call.get(id), "tool call"),
                    EncryptedValueSubtype::Message => (
                        self.owners
                            .message
                            .get(id)
                            .or_else(|| self.owners.reasoning.get(id)),
                        "message",
                    ),
                };
                tag_error(t, tag, owner, kind, id)?;
            }
            Event::SubagentStarted(e) => {
                let id = &e.subagent_run_id;
                if self.active_subagents.contains(id) {
                    return Err(fatal(format!("Cannot send 'SUBAGENT_STARTED': subagent '{id}' is already active. Finish it with 'SUBAGENT_FINISHED' first.")));
                }
                if self.closed_subagents.contains(id) {
                    return Err(fatal(format!("Cannot send 'SUBAGENT_STARTED': subagent '{id}' has already finished in this run. Subagent IDs are per-invocation and cannot be reused.")));
                }
                if let Some(parent) = &e.parent_subagent_run_id {
                    if !self.active_subagents.contains(parent)
                        && !self.closed_subagents.contains(parent)
                    {
                        return Err(fatal(format!("Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '{parent}' has not been started in this run.")));
                    }
                }
                self.active_subagents.push(id.clone());
            }
            Event::SubagentFinished(SubagentFinished {
                subagent_run_id: id,
                ..
            })
            | Event::SubagentError(SubagentError {
                subagent_run_id: id,
                ..
            }) => {
                if !self.active_subagents.contains(id) {
                    return Err(fatal(format!("Cannot send '{name}': no active subagent found with ID '{id}'. A 'SUBAGENT_STARTED' event must be sent first.")));
                }
                remove(&mut self.active_subagents, id);
                self.closed_subagents.insert(id.clone());
            }
            Event::MessagesSnapshot(e) => self.seed(&e.messages, true),
            Event::RunStarted(e) => {
                self.run_started = true;
                if let Some(input) = &e.input {
                    self.seed(&input.messages, false);
                }
            }
            Event::RunFinished(_) => self.run_finished_check()?,
            Event::RunError(_) => self.run_error = true,
            _ => {}
        }
        Ok(())
    }

    fn tool_call_start(&mut self, e: &ToolCallStart) -> Result<()> {
        let id = &e.tool_call_id;
        if contains(&self.active_tool_calls, id) {
            return Err(fatal(format!("Cannot send 'TOOL_CALL_START' event: A tool call with ID '{id}' is already in progress. Complete it with 'TOOL_CALL_END' first.")));
        }
        let tag = e.subagent_run_id.as_deref();
        let who = |o: &Owner| o.as_deref().unwrap_or("(the parent agent)").to_owned();
        let mut inherited: Option<Owner> = None;
        if let Some(parent) = &e.parent_message_id {
            if let Some(parent_owner) = self.owners.message.get(parent) {
                if let Some(tag) = tag {
                    if parent_owner.as_deref() != Some(tag) {
                        return Err(fatal(format!("Cannot send 'TOOL_CALL_START': subagentRunId '{tag}' does not match its parent message '{parent}' owner '{}'. A tool call belongs to the message that carries it.", who(parent_owner))));
                    }
                }
                inherited = Some(parent_owner.clone());
            }
        }
        let existing = self.owners.tool_call.get(id).cloned();
        if let Some(existing) = &existing {
            tag_error(
                EventType::ToolCallStart,
                tag,
                Some(existing),
                "tool call",
                id,
            )?;
            if let (None, Some(inherited)) = (tag, &inherited) {
                if inherited != existing {
                    return Err(fatal(format!("Cannot send 'TOOL_CALL_START': tool call '{id}' is owned by '{}' but its parent message '{}' is owned by '{}'. A tool call belongs to the message that carries it.", who(existing), e.parent_message_id.as_deref().unwrap_or(""), who(inherited))));
                }
            }
        }
        self.active_tool_calls.push(id.clone());
        if existing.is_none() {
            let owner = match tag {
                Some(t) => Some(t.to_owned()),
                None => inherited.unwrap_or(None),
            };
            self.owners.tool_call.insert(id.clone(), owner);
        }
        Ok(())
    }

    fn run_finished_check(&mut self) -> Result<()> {
        if !self.steps.is_empty() {
            // Grouped by owner in first-seen order, as the client's nested maps iterate.
            let mut owners: Vec<&Owner> = Vec::new();
            for (o, _) in &self.steps {
                if !owners.contains(&o) {
                    owners.push(o);
                }
            }
            let parts: Vec<String> = owners
                .iter()
                .flat_map(|owner| {
                    self.steps
                        .iter()
                        .filter(move |(o, _)| o == *owner)
                        .map(|(o, n)| match o {
                            Some(s) => format!("{n} (subagent '{s}')"),
                            None => n.clone(),
                        })
                })
                .collect();
            return Err(fatal(format!(
                "Cannot send 'RUN_FINISHED' while steps are still active: {}",
                parts.join(", ")
            )));
        }
        for (list, what) in [
            (&self.active_messages, "text messages"),
            (&self.active_reasoning_messages, "reasoning messages"),
            (&self.active_reasoning_spans, "reasoning spans"),
            (&self.active_tool_calls, "tool calls"),
            (&self.active_subagents, "subagents"),
        ] {
            if !list.is_empty() {
                return Err(fatal(format!(
                    "Cannot send 'RUN_FINISHED' while {what} are still active: {}",
                    list.join(", ")
                )));
            }
        }
        self.run_finished = true;
        Ok(())
    }
}
