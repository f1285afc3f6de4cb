//! The reducer (`@ag-ui/client` 1.0 `defaultApplyEvents`): messages, state, and the run.
//!
//! Lookups by message id and by tool-call id go through indexes (rebuilt only when the list is
//! restructured), so a text delta costs O(delta); arguments are appended, never re-parsed.

use std::collections::{HashMap, HashSet};

use crate::protocol::arguments_error;
use serde_json::{Map, Value};

use super::changes::Changes;
use super::content::Content;
use super::event::*;
use super::message::*;
use super::outcome::{Interrupt, RunFinishedOutcome, TokenUsage};
use super::patch;
use crate::{Warning, WarningCode};

/// Where the current run stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunStatus {
    /// No `RUN_STARTED` yet.
    #[default]
    Idle,
    /// Between `RUN_STARTED` and its terminal event.
    Running,
    /// `RUN_FINISHED` arrived (absent outcome = success).
    Finished(Option<RunFinishedOutcome>),
    /// `RUN_ERROR` arrived.
    Errored {
        /// The error text.
        message: String,
        /// The open error code, when given.
        code: Option<String>,
    },
}

/// The run as the client knows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunInfo {
    /// The thread of the latest `RUN_STARTED`.
    pub thread_id: Option<String>,
    /// The latest run.
    pub run_id: Option<String>,
    /// Its status.
    pub status: RunStatus,
    /// `RUN_FINISHED.result`.
    pub result: Option<Value>,
    /// Token usage from the terminal event.
    pub usage: Option<Vec<TokenUsage>>,
    /// The interrupts the run is waiting on (`agent.pendingInterrupts`).
    pub pending_interrupts: Vec<Interrupt>,
    /// Tool calls left for the application to answer (on success).
    pub pending_tool_call_ids: Vec<String>,
}

/// Messages, state and run, with lookup indexes.
#[derive(Debug)]
pub(crate) struct Store {
    pub(crate) messages: Vec<Message>,
    index: HashMap<String, usize>,
    calls: HashMap<String, usize>,
    pub(crate) state: Value,
    pub(crate) run: RunInfo,
    run_tool_call_ids: Vec<String>,
    answered: HashSet<String>,
    /// What JSON Patch `copy` operations may still create.
    patch_budget: patch::Budget,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            messages: Vec::new(),
            index: HashMap::new(),
            calls: HashMap::new(),
            state: Value::Object(Map::new()),
            run: RunInfo::default(),
            run_tool_call_ids: Vec::new(),
            answered: HashSet::new(),
            patch_budget: patch::Budget::default(),
        }
    }
}

fn warn(changes: &mut Changes, code: WarningCode, message: String) {
    changes.warnings.push(Warning::new(code, message));
}

fn merge(target: &mut Option<Metadata>, metadata: Option<&Metadata>) -> bool {
    match metadata {
        Some(m) => {
            merge_metadata(target, m);
            true
        }
        None => false,
    }
}

fn new_text_message(
    id: &str,
    role: TextMessageRole,
    name: Option<String>,
    owner: Option<String>,
) -> Message {
    let common = MessageCommon {
        id: id.to_owned(),
        subagent_run_id: owner,
        ..MessageCommon::default()
    };
    match role {
        TextMessageRole::Developer => Message::Developer(TextMessage {
            common,
            name,
            content: String::new(),
        }),
        TextMessageRole::System => Message::System(TextMessage {
            common,
            name,
            content: String::new(),
        }),
        TextMessageRole::Assistant => Message::Assistant(AssistantMessage {
            common,
            name,
            content: Some(String::new()),
            tool_calls: None,
        }),
        TextMessageRole::User => Message::User(UserMessage {
            common,
            name,
            content: Content::Text(String::new()),
        }),
    }
}

/// `[ag-ui]` protocol-version notes for a producer's declaration (none for `1.0`, older or
/// absent).
fn version_warning(declared: &str) -> Option<String> {
    if declared == super::READS_PROTOCOL_VERSION {
        return None;
    }
    let parse = |s: &str| -> Option<(u64, u64)> {
        let (a, b) = s.split_once('.')?;
        if a.is_empty() || b.is_empty() || !a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    match parse(declared) {
        None => Some(format!("[ag-ui] The producer declared protocol version '{declared}', which this client cannot interpret.")),
        Some(v) if v > (1, 1) => Some(format!("[ag-ui] The producer speaks protocol {declared}; this client speaks {}. Unrecognised material will be stripped with warnings.", super::READS_PROTOCOL_VERSION)),
        Some(_) => None,
    }
}

/// `authoritativeActivityTypes` of a snapshot: `None` = undeclared, `Some(None)` = owns all,
/// `Some(Some(types))` = owns those.
fn authoritative_activity_types(metadata: Option<&Metadata>) -> Option<Option<Vec<String>>> {
    let value = metadata?.get("@ag-ui/client")?;
    let truthy = match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    };
    let Some(obj) = value.as_object().filter(|_| truthy) else {
        return Some(Some(Vec::new()));
    };
    let types = obj.get("authoritativeActivityTypes")?;
    match types {
        Value::Null => Some(None),
        Value::Array(items) if items.iter().all(Value::is_string) => Some(Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        )),
        _ => Some(Some(Vec::new())),
    }
}

impl Store {
    /// A store starting from `messages` and `state`.
    pub(crate) fn with(messages: Vec<Message>, state: Value) -> Self {
        let mut store = Store {
            messages,
            state,
            ..Store::default()
        };
        store.rebuild();
        store
    }

    fn rebuild(&mut self) {
        self.index.clear();
        self.calls.clear();
        for (i, m) in self.messages.iter().enumerate() {
            self.index.entry(m.id().to_owned()).or_insert(i);
            for tc in m.tool_calls() {
                self.calls.entry(tc.id.clone()).or_insert(i);
            }
        }
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The message with `id` (the first one, as the client's lookups find it).
    pub(crate) fn message(&self, id: &str) -> Option<&Message> {
        self.messages.get(self.find(id)?)
    }

    /// The message holding tool call `call_id`, and the call's index among its tool calls.
    pub(crate) fn call_owner(&self, call_id: &str) -> Option<(&Message, usize)> {
        let m = self.messages.get(*self.calls.get(call_id)?)?;
        let index = m.tool_calls().iter().position(|tc| tc.id == call_id)?;
        Some((m, index))
    }

    fn push(&mut self, message: Message) -> usize {
        let i = self.messages.len();
        self.index.entry(message.id().to_owned()).or_insert(i);
        for tc in message.tool_calls() {
            self.calls.entry(tc.id.clone()).or_insert(i);
        }
        self.messages.push(message);
        i
    }

    fn insert(&mut self, at: usize, message: Message) {
        if at >= self.messages.len() {
            self.push(message);
        } else {
            self.messages.insert(at, message);
            self.rebuild();
        }
    }

    fn tool_call_mut(&mut self, call_id: &str) -> Option<(&str, &mut ToolCall)> {
        let i = *self.calls.get(call_id)?;
        match self.messages.get_mut(i)? {
            Message::Assistant(m) => {
                let id = m.common.id.as_str();
                let call = m
                    .tool_calls
                    .as_mut()?
                    .iter_mut()
                    .find(|tc| tc.id == call_id)?;
                Some((id, call))
            }
            _ => None,
        }
    }

    /// Applies one verified event.
    pub(crate) fn apply(&mut self, event: Event, changes: &mut Changes) {
        match event {
            Event::TextMessageStart(e) => {
                let role = e.role.unwrap_or_default();
                let msg = new_text_message(&e.message_id, role, e.name, e.subagent_run_id);
                self.open_message(
                    &e.message_id,
                    msg,
                    e.metadata.as_ref(),
                    "TEXT_MESSAGE_START",
                    "text",
                    changes,
                );
            }
            Event::TextMessageContent(e) => {
                self.append_text(
                    &e.message_id,
                    &e.delta,
                    e.metadata.as_ref(),
                    "TEXT_MESSAGE_CONTENT",
                    "text",
                    changes,
                );
            }
            Event::TextMessageEnd(e) => {
                self.close_message(
                    &e.message_id,
                    e.metadata.as_ref(),
                    "TEXT_MESSAGE_END",
                    "text",
                    changes,
                );
            }
            Event::ReasoningMessageStart(e) => {
                let msg = Message::Reasoning(ReasoningMessage {
                    common: MessageCommon {
                        id: e.message_id.clone(),
                        subagent_run_id: e.subagent_run_id,
                        ..MessageCommon::default()
                    },
                    content: String::new(),
                });
                self.open_message(
                    &e.message_id,
                    msg,
                    e.metadata.as_ref(),
                    "REASONING_MESSAGE_START",
                    "reasoning",
                    changes,
                );
            }
            Event::ReasoningMessageContent(e) => {
                self.append_text(
                    &e.message_id,
                    &e.delta,
                    e.metadata.as_ref(),
                    "REASONING_MESSAGE_CONTENT",
                    "reasoning",
                    changes,
                );
            }
            Event::ReasoningMessageEnd(e) => {
                self.close_message(
                    &e.message_id,
                    e.metadata.as_ref(),
                    "REASONING_MESSAGE_END",
                    "reasoning",
                    changes,
                );
            }
            Event::ToolCallStart(e) => self.tool_call_start(e, changes),
            Event::ToolCallArgs(e) => match self.tool_call_mut(&e.tool_call_id) {
                Some((msg_id, call)) => {
                    call.function.arguments.push_str(&e.delta);
                    let msg_id = msg_id.to_owned();
                    if merge(&mut call.metadata, e.metadata.as_ref()) {
                        changes.replaced(&msg_id);
                    }
                    changes.arguments(&e.tool_call_id, &e.delta);
                }
                None => warn(
                    changes,
                    WarningCode::InconsistentEvent,
                    format!(
                        "TOOL_CALL_ARGS: No message found containing tool call with ID '{}'",
                        e.tool_call_id
                    ),
                ),
            },
            Event::ToolCallEnd(e) => match self.tool_call_mut(&e.tool_call_id) {
                Some((msg_id, call)) => {
                    let msg_id = msg_id.to_owned();
                    let invalid = arguments_error(&call.function.arguments);
                    if merge(&mut call.metadata, e.metadata.as_ref()) {
                        changes.replaced(&msg_id);
                    }
                    changes.message(&msg_id, false);
                    if let Some(error) = invalid {
                        warn(
                            changes,
                            WarningCode::InvalidArguments,
                            format!(
                                "Tool call '{}' ended with unusable arguments: {error}",
                                e.tool_call_id
                            ),
                        );
                    }
                }
                None => warn(
                    changes,
                    WarningCode::InconsistentEvent,
                    format!(
                        "TOOL_CALL_END: No message found containing tool call with ID '{}'",
                        e.tool_call_id
                    ),
                ),
            },
            Event::ToolCallResult(e) => self.tool_call_result(e, changes),
            Event::StateSnapshot(e) => {
                // The state is a value: it nests at most MAX_DEPTH levels, as patches keep it.
                if crate::depth::too_deep(&e.snapshot) {
                    warn(
                        changes,
                        WarningCode::InvalidEvent,
                        format!(
                            "STATE_SNAPSHOT: the state nests deeper than {} levels; the event was skipped",
                            crate::MAX_DEPTH
                        ),
                    );
                    return;
                }
                self.state = e.snapshot;
                changes.state = true;
            }
            Event::StateDelta(e) => {
                match patch::apply(&mut self.state, &e.delta, &mut self.patch_budget) {
                    Ok(()) => changes.state = true,
                    Err(error) => {
                        // The client logs the whole state and patch; a warning kept per failure must
                        // not grow with the state, so it names the error only.
                        warn(
                            changes,
                            WarningCode::PatchFailed,
                            format!(
                                "Failed to apply state patch ({} operations): {error}",
                                e.delta.len()
                            ),
                        );
                    }
                }
            }
            Event::MessagesSnapshot(e) => self.messages_snapshot(e, changes),
            Event::ActivitySnapshot(e) => self.activity_snapshot(e, changes),
            Event::ActivityDelta(e) => self.activity_delta(e, changes),
            Event::ReasoningEncryptedValue(e) => match e.subtype {
                EncryptedValueSubtype::ToolCall => {
                    if let Some((msg_id, call)) = self.tool_call_mut(&e.entity_id) {
                        call.encrypted_value = Some(e.encrypted_value);
                        call.encrypted_value_type = e.encrypted_value_type;
                        let msg_id = msg_id.to_owned();
                        changes.replaced(&msg_id);
                    }
                }
                EncryptedValueSubtype::Message => {
                    if let Some(i) = self.find(&e.entity_id) {
                        if let Some(common) = self.messages.get_mut(i).and_then(Message::common_mut)
                        {
                            common.encrypted_value = Some(e.encrypted_value);
                            common.encrypted_value_type = e.encrypted_value_type;
                            changes.replaced(&e.entity_id);
                        }
                    }
                }
            },
            Event::RunStarted(e) => {
                self.run_tool_call_ids.clear();
                self.answered.clear();
                if let Some(w) = e.protocol_version.as_deref().and_then(version_warning) {
                    warn(changes, WarningCode::ProtocolVersion, w);
                }
                self.run = RunInfo {
                    thread_id: Some(e.thread_id),
                    run_id: Some(e.run_id),
                    status: RunStatus::Running,
                    ..RunInfo::default()
                };
                changes.run = true;
                if let Some(input) = e.input {
                    for message in input.messages {
                        if self.find(message.id()).is_none() {
                            let id = message.id().to_owned();
                            self.push(message);
                            changes.message(&id, true);
                            changes.replaced(&id);
                        }
                    }
                }
            }
            Event::RunFinished(e) => {
                let pending = match &e.outcome {
                    Some(RunFinishedOutcome::Success {
                        pending_tool_call_ids: Some(named),
                    }) if !named.is_empty() => named.clone(),
                    Some(RunFinishedOutcome::Interrupt { .. } | RunFinishedOutcome::Cancelled) => {
                        Vec::new()
                    }
                    _ => self
                        .run_tool_call_ids
                        .iter()
                        .filter(|id| !self.answered.contains(*id))
                        .cloned()
                        .collect(),
                };
                self.run.pending_interrupts = match &e.outcome {
                    Some(RunFinishedOutcome::Interrupt { interrupts }) => interrupts.clone(),
                    _ => Vec::new(),
                };
                self.run.pending_tool_call_ids = pending;
                self.run.thread_id = Some(e.thread_id);
                self.run.run_id = Some(e.run_id);
                self.run.result = e.result;
                self.run.usage = e.usage;
                self.run.status = RunStatus::Finished(e.outcome);
                changes.run = true;
            }
            Event::RunError(e) => {
                self.run.status = RunStatus::Errored {
                    message: e.message,
                    code: e.code,
                };
                if e.usage.is_some() {
                    self.run.usage = e.usage;
                }
                changes.run = true;
            }
            // A message part AG-UI has no event for, as agentwire's encoder carries it.
            Event::Custom(e) if e.name == super::CONTENT_EVENT_NAME => {
                if let Some(part) = carried_part(e.value) {
                    changes.parts.push(part);
                }
            }
            // Subscriber notifications only.
            Event::Raw(_)
            | Event::Custom(_)
            | Event::StepStarted(_)
            | Event::StepFinished(_)
            | Event::ReasoningStart(_)
            | Event::ReasoningEnd(_)
            | Event::SubagentStarted(_)
            | Event::SubagentFinished(_)
            | Event::SubagentError(_) => {}
            // Expanded before they reach the reducer.
            Event::TextMessageChunk(_)
            | Event::ToolCallChunk(_)
            | Event::ReasoningMessageChunk(_) => {}
        }
    }

    fn open_message(
        &mut self,
        id: &str,
        fresh: Message,
        metadata: Option<&Metadata>,
        t: &str,
        kind: &str,
        changes: &mut Changes,
    ) {
        match self.find(id) {
            Some(i) => {
                let Some(m) = self.messages.get_mut(i) else {
                    return;
                };
                if matches!(m, Message::Activity(_)) {
                    warn(changes, WarningCode::InconsistentEvent, format!("{t}: Message '{id}' is an activity message — message ids must be unique across activity and {kind} messages"));
                    return;
                }
                if merge(m.metadata_mut(), metadata) {
                    changes.replaced(id);
                }
                changes.message(id, false);
            }
            None => {
                let mut fresh = fresh;
                merge(fresh.metadata_mut(), metadata);
                self.push(fresh);
                changes.message(id, true);
                changes.replaced(id);
            }
        }
    }

    fn append_text(
        &mut self,
        id: &str,
        delta: &str,
        metadata: Option<&Metadata>,
        t: &str,
        kind: &str,
        changes: &mut Changes,
    ) {
        let Some(m) = self.find(id).and_then(|i| self.messages.get_mut(i)) else {
            warn(
                changes,
                WarningCode::InconsistentEvent,
                format!("{t}: No message found with ID '{id}'"),
            );
            return;
        };
        if matches!(m, Message::Activity(_)) {
            warn(changes, WarningCode::InconsistentEvent, format!("{t}: Message '{id}' is an activity message — message ids must be unique across activity and {kind} messages"));
            return;
        }
        let parts = matches!(
            m,
            Message::User(UserMessage {
                content: Content::Parts(_),
                ..
            }) | Message::Tool(ToolMessage {
                content: Content::Parts(_),
                ..
            })
        );
        if let Some(text) = m.text_mut() {
            text.push_str(delta);
        }
        if merge(m.metadata_mut(), metadata) || parts {
            changes.replaced(id);
        }
        changes.text(id, delta);
    }

    fn close_message(
        &mut self,
        id: &str,
        metadata: Option<&Metadata>,
        t: &str,
        kind: &str,
        changes: &mut Changes,
    ) {
        let Some(m) = self.find(id).and_then(|i| self.messages.get_mut(i)) else {
            warn(
                changes,
                WarningCode::InconsistentEvent,
                format!("{t}: No message found with ID '{id}'"),
            );
            return;
        };
        if matches!(m, Message::Activity(_)) {
            warn(changes, WarningCode::InconsistentEvent, format!("{t}: Message '{id}' is an activity message — message ids must be unique across activity and {kind} messages"));
            return;
        }
        if merge(m.metadata_mut(), metadata) {
            changes.replaced(id);
        }
        changes.message(id, false);
    }

    fn tool_call_start(&mut self, e: ToolCallStart, changes: &mut Changes) {
        if !self.run_tool_call_ids.contains(&e.tool_call_id) {
            self.run_tool_call_ids.push(e.tool_call_id.clone());
        }
        if let Some((msg_id, call)) = self.tool_call_mut(&e.tool_call_id) {
            let msg_id = msg_id.to_owned();
            let renamed = call.function.name != e.tool_call_name;
            let mut note = None;
            if renamed {
                note = Some(format!("TOOL_CALL_START: tool call '{}' already exists with name '{}' — updating it to '{}'", e.tool_call_id, call.function.name, e.tool_call_name));
                call.function.name = e.tool_call_name;
            }
            if merge(&mut call.metadata, e.metadata.as_ref()) || renamed {
                changes.replaced(&msg_id);
            }
            // The call is open again, and so is its message.
            changes.message(&msg_id, false);
            if let Some(note) = note {
                warn(changes, WarningCode::InconsistentEvent, note);
            }
            return;
        }
        let parent = e.parent_message_id.as_deref().filter(|p| !p.is_empty());
        let target = match parent {
            Some(p) => match self.find(p) {
                Some(i) if matches!(self.messages.get(i), Some(Message::Assistant(_))) => Some(i),
                Some(i) => {
                    let role = self.messages.get(i).map(Message::role).unwrap_or("");
                    warn(changes, WarningCode::InconsistentEvent, format!("TOOL_CALL_START: parentMessageId '{p}' matches a '{role}' message, not assistant — falling back to toolCallId"));
                    None
                }
                None => None,
            },
            None => None,
        };
        let i = match target {
            Some(i) => i,
            None => {
                let id = match parent {
                    Some(p) if self.find(p).is_none() => p.to_owned(),
                    _ => e.tool_call_id.clone(),
                };
                let created_fresh = self.find(&id).is_none();
                let owner = if created_fresh {
                    e.subagent_run_id.clone()
                } else {
                    None
                };
                let i = self.push(Message::Assistant(AssistantMessage {
                    common: MessageCommon {
                        id: id.clone(),
                        subagent_run_id: owner,
                        ..MessageCommon::default()
                    },
                    name: None,
                    content: None,
                    tool_calls: Some(Vec::new()),
                }));
                changes.message(&id, true);
                i
            }
        };
        let mut call = ToolCall::new(e.tool_call_id.clone(), e.tool_call_name);
        merge(&mut call.metadata, e.metadata.as_ref());
        if let Some(Message::Assistant(m)) = self.messages.get_mut(i) {
            m.tool_calls.get_or_insert_with(Vec::new).push(call);
            let id = m.common.id.clone();
            self.calls.entry(e.tool_call_id).or_insert(i);
            changes.replaced(&id);
            // An open call makes its message open again (its status update says so).
            changes.message(&id, false);
        }
    }

    fn tool_call_result(&mut self, e: ToolCallResult, changes: &mut Changes) {
        self.answered.insert(e.tool_call_id.clone());
        let mut message = ToolMessage {
            common: MessageCommon {
                id: e.message_id.clone(),
                subagent_run_id: e.subagent_run_id,
                ..MessageCommon::default()
            },
            content: e.content,
            tool_call_id: e.tool_call_id.clone(),
            error: None,
        };
        merge(&mut message.common.metadata, e.metadata.as_ref());
        let owner = self.calls.get(&e.tool_call_id).copied();
        match owner {
            None => {
                self.push(Message::Tool(message));
            }
            Some(o) => {
                let mut at = o + 1;
                while matches!(self.messages.get(at), Some(Message::Tool(_))) {
                    at += 1;
                }
                if at < self.messages.len() {
                    changes.order = true;
                }
                self.insert(at, Message::Tool(message));
            }
        }
        changes.message(&e.message_id, true);
        changes.replaced(&e.message_id);
    }

    fn messages_snapshot(&mut self, e: MessagesSnapshot, changes: &mut Changes) {
        let deep = e.messages.iter().find_map(|m| match m {
            Message::Activity(a) if content_too_deep(&a.content) => Some(a.id.as_str()),
            _ => None,
        });
        if let Some(id) = deep {
            warn(
                changes,
                WarningCode::InvalidEvent,
                format!(
                    "MESSAGES_SNAPSHOT: the content of activity '{id}' nests deeper than {} levels; the event was skipped",
                    crate::MAX_DEPTH
                ),
            );
            return;
        }
        let incoming = e.messages;
        let owned = authoritative_activity_types(e.metadata.as_ref());
        let has_activity = incoming.iter().any(|m| matches!(m, Message::Activity(_)));
        let has_reasoning = incoming.iter().any(|m| matches!(m, Message::Reasoning(_)));
        // Last occurrence wins, as a JS Map built from the list does.
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (i, m) in incoming.iter().enumerate() {
            by_id.insert(m.id(), i);
        }
        let preserved = |m: &Message| match m {
            Message::Activity(a) => match &owned {
                Some(Some(types)) => !types.contains(&a.activity_type),
                Some(None) => false,
                None => !has_activity,
            },
            Message::Reasoning(_) => !has_reasoning,
            _ => false,
        };
        let old = std::mem::take(&mut self.messages);
        let old_ids: Vec<String> = old.iter().map(|m| m.id().to_owned()).collect();
        let mut kept = Vec::with_capacity(old.len().max(incoming.len()));
        for m in old {
            match by_id.get(m.id()).and_then(|&i| incoming.get(i)) {
                // Unchanged messages are not reported (an identical snapshot changes nothing).
                Some(replacement) if *replacement == m => kept.push(m),
                Some(replacement) => {
                    changes.replaced(replacement.id());
                    kept.push(replacement.clone());
                }
                None if preserved(&m) => kept.push(m),
                None => {}
            }
        }
        let existing: HashSet<String> = kept.iter().map(|m| m.id().to_owned()).collect();
        for m in &incoming {
            if !existing.contains(m.id()) {
                changes.message(m.id(), true);
                changes.replaced(m.id());
                kept.push(m.clone());
            }
        }
        // The order changed when a message was removed or moved (new ones go last).
        let same_order = old_ids.len() <= kept.len()
            && old_ids.iter().zip(&kept).all(|(old, new)| old == new.id());
        self.messages = kept;
        self.rebuild();
        if !same_order {
            changes.order = true;
        }
    }

    fn activity_snapshot(&mut self, e: ActivitySnapshot, changes: &mut Changes) {
        if content_too_deep(&e.content) {
            warn(
                changes,
                WarningCode::InvalidEvent,
                format!(
                    "ACTIVITY_SNAPSHOT: the content of '{}' nests deeper than {} levels; the event was skipped",
                    e.message_id,
                    crate::MAX_DEPTH
                ),
            );
            return;
        }
        let replace = e.replace.unwrap_or(true);
        let fresh = ActivityMessage {
            id: e.message_id.clone(),
            subagent_run_id: e.subagent_run_id.clone(),
            activity_type: e.activity_type.clone(),
            content: e.content.clone(),
            metadata: None,
        };
        let id = e.message_id.as_str();
        match self.find(id) {
            None => {
                let mut fresh = fresh;
                merge(&mut fresh.metadata, e.metadata.as_ref());
                self.push(Message::Activity(fresh));
                changes.message(id, true);
                changes.replaced(id);
            }
            Some(i) => {
                let Some(slot) = self.messages.get_mut(i) else {
                    return;
                };
                match slot {
                    Message::Activity(existing) => {
                        if replace {
                            existing.activity_type = e.activity_type;
                            existing.content = e.content;
                            existing.subagent_run_id = e.subagent_run_id;
                        }
                        merge(&mut existing.metadata, e.metadata.as_ref());
                        changes.replaced(id);
                    }
                    other if replace => {
                        let mut fresh = fresh;
                        merge(&mut fresh.metadata, e.metadata.as_ref());
                        *other = Message::Activity(fresh);
                        self.rebuild();
                        changes.replaced(id);
                    }
                    _ => {}
                }
            }
        }
    }

    fn activity_delta(&mut self, e: ActivityDelta, changes: &mut Changes) {
        let id = e.message_id.as_str();
        let Some(slot) = self.find(id).and_then(|i| self.messages.get_mut(i)) else {
            return;
        };
        let Message::Activity(existing) = slot else {
            warn(
                changes,
                WarningCode::InconsistentEvent,
                format!("ACTIVITY_DELTA: Message '{id}' is not an activity message"),
            );
            return;
        };
        if merge(&mut existing.metadata, e.metadata.as_ref()) {
            changes.replaced(id);
        }
        let mut doc = Value::Object(std::mem::take(&mut existing.content));
        let result = patch::apply_checked(&mut doc, &e.patch, &mut self.patch_budget, |d| {
            if d.is_object() {
                Ok(())
            } else {
                Err("the patched content is not an object".to_owned())
            }
        });
        if let Value::Object(content) = doc {
            existing.content = content;
        }
        match result {
            Ok(()) => {
                existing.activity_type = e.activity_type;
                changes.replaced(id);
            }
            Err(error) => warn(
                changes,
                WarningCode::PatchFailed,
                format!("Failed to apply activity patch for '{id}': {error}"),
            ),
        }
    }
}

/// Whether an activity's content (an object: one level) nests deeper than `MAX_DEPTH` levels.
fn content_too_deep(content: &crate::protocol::JsonMap) -> bool {
    content
        .values()
        .any(|v| crate::depth::value_depth(v) >= crate::MAX_DEPTH)
}

/// The part of a `CUSTOM` `agent-api.content` event (`{msg_id, index, type, …}`): its message
/// id, its index and the part itself; `None` for a value without them.
fn carried_part(value: Value) -> Option<(String, usize, Value)> {
    let message_id = value.get("msg_id")?.as_str()?.to_owned();
    let index = usize::try_from(value.get("index")?.as_u64()?).ok()?;
    value.get("type")?.as_str()?;
    Some((message_id, index, value))
}
