//! Folding AG-UI streams: the `@ag-ui/client` 1.0 pipeline ([`agui::Client`]) behind the
//! assembler, turning its [`Changes`] into coalesced [`Update`]s and its messages and state
//! into the AG-UI snapshot `{threadId, runId, messages, state, outcome, error?, warnings}`.
//!
//! Tolerant mode follows the client's fatal/non-fatal split: a fatal error (a malformed known
//! field, a broken chunk stream, a sequencing violation) rejects the stream as the client does:
//! the outcome becomes `failed` with `error: {source: "client", code, message}` and later
//! events are ignored. Strict mode also raises it, and turns the client's warnings into errors.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::agent_api::{EventCx, ToolCall, ToolCallChanges};
use super::calls::{CallMirror, CallNow};
use super::fold::{with_outcome, ProtocolFold, Snapshot};
use super::outcome::Outcome;
use super::update::{Batch, Update, UpdateSink};
use crate::agui::{Changes, Client, Content, Message, RunFinishedOutcome, RunStatus};
use crate::protocol::{arguments_error, PartialJson};
use crate::Result;
use crate::{Warning, WarningCode};

/// What a consumer has seen of one tool call (once parsed arguments were asked for). AG-UI's
/// client holds only whole messages: the arguments seen are kept, to tell an extension from a
/// rewrite by a snapshot.
#[derive(Debug)]
struct Mirror {
    calls: CallMirror,
    /// The raw arguments the consumer has seen.
    seen: String,
    /// For a completed call: what is wrong with its arguments, once checked.
    checked: Option<Option<String>>,
}

impl Default for Mirror {
    /// A call the consumer has not seen: everything is reported, as a replacement.
    fn default() -> Self {
        Mirror {
            calls: CallMirror::new(""),
            seen: String::new(),
            checked: None,
        }
    }
}

/// The tool message answering each call id (the first one, in message order).
fn outputs(messages: &[Message]) -> HashMap<&str, &Message> {
    let mut outputs = HashMap::new();
    for m in messages {
        if let Message::Tool(t) = m {
            outputs.entry(t.tool_call_id.as_str()).or_insert(m);
        }
    }
    outputs
}

/// The AG-UI fold.
#[derive(Debug, Default)]
pub(crate) struct AgUiFold {
    client: Client,
    changes: Changes,
    record_events: bool,
    tracking: bool,
    /// Keyed by message id and call id, as the consumer's entries are: a call id that
    /// reappears in another message (its first one dropped by a snapshot) is a new entry.
    mirrors: HashMap<(String, String), Mirror>,
    /// Messages replaced since the last `tool_call_changes` (their calls may have new
    /// arguments that do not extend the old ones).
    dirty: HashSet<String>,
    /// Whether any message changed since the last `tool_call_changes`.
    calls_dirty: bool,
    /// The calls as last listed: (message id, index among its tool calls).
    listed: Vec<(String, usize)>,
}

fn message_type(m: &Message) -> &'static str {
    match m {
        Message::Tool(_) => "tool_result",
        Message::Activity(_) => "activity",
        Message::Reasoning(_) => "reasoning",
        _ => "message",
    }
}

fn content_value(content: &Content) -> Value {
    serde_json::to_value(content).unwrap_or(Value::Null)
}

impl AgUiFold {
    /// A fold that also reports each delivered event (`Update::Event`).
    pub(crate) fn new(record_events: bool) -> Self {
        AgUiFold {
            client: Client::new().with_event_recording(record_events),
            record_events,
            ..AgUiFold::default()
        }
    }

    /// Whether there are changes not yet rendered.
    pub(crate) fn has_changes(&self) -> bool {
        !self.changes.is_empty()
    }

    /// Runs one event payload through the client pipeline.
    pub(crate) fn apply(&mut self, data: &str, cx: &mut EventCx<'_>) -> Result<()> {
        let before = self.changes.warnings.len();
        let result = self.client.push_str(data, &mut self.changes);
        // The client's warnings go through the assembler (strict mode: the first is an error).
        let warnings: Vec<_> = self.changes.warnings.drain(before..).collect();
        if let Err(error) = result {
            cx.batch.response = true;
            if cx.strict {
                return Err(error);
            }
        }
        for w in warnings {
            cx.warn(w.code, w.message)?;
        }
        if self.changes.run {
            cx.batch.response = true;
        }
        Ok(())
    }

    /// The outcome so far (`Pending` while a run is open or none started).
    pub(crate) fn outcome(&self) -> Outcome {
        if self.client.rejection().is_some() {
            return Outcome::Failed;
        }
        match &self.client.run().status {
            RunStatus::Idle | RunStatus::Running => Outcome::Pending,
            RunStatus::Finished(None | Some(RunFinishedOutcome::Success { .. })) => {
                Outcome::Completed
            }
            RunStatus::Finished(Some(RunFinishedOutcome::Interrupt { .. })) => Outcome::Incomplete,
            RunStatus::Finished(Some(RunFinishedOutcome::Cancelled)) => Outcome::Canceled,
            RunStatus::Errored { .. } => Outcome::Failed,
        }
    }

    /// Messages and tool calls left open.
    pub(crate) fn open_items(&self) -> Vec<String> {
        let mut open = Vec::new();
        for m in self.client.messages() {
            if self.client.is_open(m.id()) {
                open.push(m.id().to_owned());
            }
            for tc in m.tool_calls() {
                if self.client.is_call_open(&tc.id) {
                    open.push(tc.id.clone());
                }
            }
        }
        open
    }

    /// End of input: a run left open is truncated (a warning; an error in strict mode).
    pub(crate) fn settle_end(&self, cx: &mut EventCx<'_>) -> Result<()> {
        if self.outcome().is_settled() {
            return Ok(());
        }
        let open = self.open_items();
        let message = if open.is_empty() {
            "The stream ended without a terminal event (RUN_FINISHED or RUN_ERROR).".to_owned()
        } else {
            format!(
                "The stream ended without a terminal event (RUN_FINISHED or RUN_ERROR); left open: {}.",
                open.join(", ")
            )
        };
        cx.warn(WarningCode::Truncated, message)
    }

    fn error_value(&self) -> Option<Value> {
        let mut map = Map::new();
        if let Some(error) = self.client.rejection() {
            map.insert("source".into(), Value::from("client"));
            map.insert("code".into(), Value::from(error.code().as_str()));
            map.insert("message".into(), Value::from(error.message()));
            return Some(Value::Object(map));
        }
        match &self.client.run().status {
            RunStatus::Errored { message, code } => {
                map.insert("source".into(), Value::from("run"));
                if let Some(code) = code {
                    map.insert("code".into(), Value::from(code.as_str()));
                }
                map.insert("message".into(), Value::from(message.as_str()));
                Some(Value::Object(map))
            }
            _ => None,
        }
    }

    fn status(&self, outcome: Outcome) -> &'static str {
        match outcome {
            Outcome::Pending => match self.client.run().status {
                RunStatus::Idle => "created",
                _ => "in_progress",
            },
            Outcome::Completed => "completed",
            Outcome::Failed => "failed",
            Outcome::Canceled => "canceled",
            Outcome::Incomplete => "interrupted",
            Outcome::Rejected => "rejected",
            Outcome::Truncated => "truncated",
        }
    }

    /// Renders the recorded changes (and the batch's warnings, which it takes) as updates.
    pub(crate) fn render(&mut self, batch: &mut Batch, outcome: Outcome, out: &mut dyn UpdateSink) {
        let changes = std::mem::take(&mut self.changes);
        if self.tracking {
            self.dirty.extend(changes.replaced.iter().cloned());
            self.calls_dirty |= !changes.messages.is_empty()
                || !changes.replaced.is_empty()
                || !changes.arguments.is_empty()
                || changes.order;
        }
        let messages = self.client.messages();
        let client = &self.client;
        if batch.response || changes.run {
            out.other(Update::Response {
                status: self.status(outcome).to_owned(),
                id: self.client.run().run_id.clone(),
                outcome,
                error: self.error_value(),
                usage: self
                    .client
                    .run()
                    .usage
                    .as_ref()
                    .and_then(|u| serde_json::to_value(u).ok()),
            });
        }
        for (id, created) in &changes.messages {
            if let Some(m) = client.message(id) {
                let open = self.client.is_open(id)
                    || m.tool_calls()
                        .iter()
                        .any(|tc| self.client.is_call_open(&tc.id));
                out.other(Update::Message {
                    id: id.clone(),
                    role: Some(m.role().to_owned()),
                    message_type: message_type(m).to_owned(),
                    status: if open { "in_progress" } else { "completed" }.to_owned(),
                    created: *created,
                });
            }
        }
        if changes.order {
            out.other(Update::Order {
                ids: messages.iter().map(|m| m.id().to_owned()).collect(),
            });
        }
        for id in &changes.replaced {
            if let Some(m) = client.message(id) {
                out.other(Update::Replace {
                    id: id.clone(),
                    message: serde_json::to_value(m).unwrap_or(Value::Null),
                });
            }
        }
        // A message given whole also gives its text and its calls' arguments whole (`replace`),
        // so that a renderer that reads only `text` and `arguments` updates, as it does for
        // every other protocol, misses nothing of a message that arrived in one chunk with its
        // start. (A consumer of `replace` updates sets the same values again.)
        for id in &changes.replaced {
            let Some(m) = client.message(id) else {
                continue;
            };
            let created = changes.created(id);
            if let Some(text) = m.text().filter(|_| !matches!(m, Message::Tool(_))) {
                if !(created && text.is_empty()) {
                    out.text(id, 0, text, true);
                }
            }
            for (index, call) in m.tool_calls().iter().enumerate() {
                let arguments = call.function.arguments.as_str();
                out.arguments(
                    id,
                    index,
                    Some(&call.id),
                    Some(&call.function.name),
                    arguments,
                    true,
                );
            }
        }
        let replaced = |id: &str| changes.was_replaced(id);
        // A message dropped in this batch (a `MESSAGES_SNAPSHOT` reconciliation, which changes
        // the order) takes its pending appends with it.
        let gone = |id: &str| changes.order && client.message(id).is_none();
        for (id, delta) in &changes.texts {
            if !replaced(id) && !gone(id) {
                out.text(id, 0, delta, false);
            }
        }
        for (call_id, delta) in &changes.arguments {
            if let Some((m, index)) = client.call_owner(call_id) {
                if replaced(m.id()) {
                    continue;
                }
                let name = m
                    .tool_calls()
                    .get(index)
                    .map(|tc| tc.function.name.as_str());
                out.arguments(m.id(), index, Some(call_id), name, delta, false);
            }
        }
        for (message_id, index, part) in changes.parts {
            out.other(Update::Content {
                message_id,
                index,
                part,
            });
        }
        if changes.state {
            out.other(Update::State {
                state: self.client.state().clone(),
            });
        }
        if self.record_events {
            for event in changes.events {
                out.other(Update::Event { event });
            }
        }
        for warning in batch.warnings.drain(..) {
            out.other(Update::Warning(warning));
        }
    }

    /// The AG-UI snapshot (without `outcome` and `warnings`, which the assembler adds).
    pub(crate) fn snapshot(&self) -> Map<String, Value> {
        let run = self.client.run();
        let mut map = Map::new();
        let opt = |s: &Option<String>| s.clone().map(Value::String).unwrap_or(Value::Null);
        map.insert("threadId".into(), opt(&run.thread_id));
        map.insert("runId".into(), opt(&run.run_id));
        map.insert(
            "messages".into(),
            serde_json::to_value(self.client.messages()).unwrap_or(Value::Array(Vec::new())),
        );
        map.insert("state".into(), self.client.state().clone());
        if let Some(error) = self.error_value() {
            map.insert("error".into(), error);
        }
        if let Some(result) = &run.result {
            map.insert("result".into(), result.clone());
        }
        if let Some(usage) = &run.usage {
            map.insert(
                "usage".into(),
                serde_json::to_value(usage).unwrap_or(Value::Null),
            );
        }
        if !run.pending_interrupts.is_empty() {
            map.insert(
                "interrupts".into(),
                serde_json::to_value(&run.pending_interrupts).unwrap_or(Value::Null),
            );
        }
        if !run.pending_tool_call_ids.is_empty() {
            map.insert(
                "pendingToolCallIds".into(),
                serde_json::to_value(&run.pending_tool_call_ids).unwrap_or(Value::Null),
            );
        }
        map
    }

    /// Every tool call of every assistant message.
    pub(crate) fn tool_calls(&self) -> Vec<ToolCall> {
        let outputs = outputs(self.client.messages());
        let mut calls = Vec::new();
        for m in self.client.messages() {
            for (index, tc) in m.tool_calls().iter().enumerate() {
                let completed = !self.client.is_call_open(&tc.id);
                calls.push(ToolCall {
                    message_id: m.id().to_owned(),
                    index,
                    message_type: "function".to_owned(),
                    call_id: Some(tc.id.clone()),
                    name: Some(tc.function.name.clone()),
                    arguments: tc.function.arguments.clone(),
                    completed,
                    arguments_error: completed
                        .then(|| arguments_error(&tc.function.arguments))
                        .flatten(),
                    output: outputs.get(tc.id.as_str()).and_then(|m| match m {
                        Message::Tool(t) => Some(content_value(&t.content)),
                        _ => None,
                    }),
                });
            }
        }
        calls
    }

    /// What changed in the tool calls since the last look (nothing, in O(1), when no message
    /// changed; otherwise one pass over the calls, reporting only those that changed). When the
    /// list changed other than by calls appended at its end, every call is listed whole.
    pub(crate) fn tool_call_changes(&mut self) -> ToolCallChanges {
        let first = !self.tracking;
        self.tracking = true;
        if !first && !self.calls_dirty {
            return ToolCallChanges {
                len: self.listed.len(),
                reset: false,
                changes: Vec::new(),
            };
        }
        self.calls_dirty = false;
        let dirty = std::mem::take(&mut self.dirty);
        let messages = self.client.messages();
        let listed: Vec<(String, usize)> = messages
            .iter()
            .flat_map(|m| (0..m.tool_calls().len()).map(move |i| (m.id().to_owned(), i)))
            .collect();
        let appended = listed.len() >= self.listed.len()
            && self.listed.iter().zip(&listed).all(|(a, b)| a == b);
        let reset = first || !appended;
        self.listed = listed;
        let outputs = outputs(messages);
        let mut changes = Vec::new();
        let calls = messages.iter().flat_map(|m| {
            m.tool_calls()
                .iter()
                .enumerate()
                .map(move |(i, tc)| (m, i, tc))
        });
        for (position, (m, index, tc)) in calls.enumerate() {
            let args = tc.function.arguments.as_str();
            let key = (m.id().to_owned(), tc.id.clone());
            let mirror = self.mirrors.entry(key).or_default();
            let rewritten = dirty.contains(m.id()) && !args.starts_with(mirror.seen.as_str());
            if reset || rewritten {
                *mirror = Mirror::default();
            }
            let delta = args.get(mirror.seen.len()..).unwrap_or("");
            if !delta.is_empty() {
                mirror.calls.feed(delta, false);
                mirror.seen.push_str(delta);
                mirror.checked = None;
            }
            let completed = !self.client.is_call_open(&tc.id);
            let output = match outputs.get(tc.id.as_str()) {
                Some(Message::Tool(t)) if mirror.calls.see_output((0, true)) => {
                    Some(content_value(&t.content))
                }
                _ => None,
            };
            let arguments_error = if completed {
                mirror
                    .checked
                    .get_or_insert_with(|| arguments_error(args))
                    .clone()
            } else {
                None
            };
            let now = CallNow {
                position,
                message_id: m.id(),
                index,
                message_type: "function",
                call_id: Some(&tc.id),
                name: Some(&tc.function.name),
                completed,
                arguments_error,
                raw: args,
            };
            changes.extend(mirror.calls.report(now, output, reset));
        }
        ToolCallChanges {
            len: self.listed.len(),
            reset,
            changes,
        }
    }

    /// The best-effort parsed arguments of a tool call.
    pub(crate) fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        let m = self
            .client
            .messages()
            .iter()
            .find(|m| m.id() == message_id)?;
        let tc = m.tool_calls().get(index)?;
        let mut parser = PartialJson::new();
        parser.push(&tc.function.arguments);
        parser.value()
    }
}

impl ProtocolFold for AgUiFold {
    fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()> {
        let offset = cx.offset;
        AgUiFold::apply(self, payload, cx).map_err(|e| match e.offset() {
            Some(_) => e,
            None => e.with_offset(offset),
        })
    }

    fn outcome(&self) -> Outcome {
        AgUiFold::outcome(self)
    }

    fn settle_end(&mut self, cx: &mut EventCx<'_>) -> Result<()> {
        AgUiFold::settle_end(self, cx)
    }

    fn has_changes(&self) -> bool {
        AgUiFold::has_changes(self)
    }

    fn render(&mut self, batch: &mut Batch, outcome: Outcome, sink: &mut dyn UpdateSink) {
        AgUiFold::render(self, batch, outcome, sink);
    }

    fn snapshot<'a>(&'a self, outcome: Outcome, warnings: &'a [Warning]) -> Snapshot<'a> {
        with_outcome(AgUiFold::snapshot(self), outcome, warnings)
    }

    fn tool_calls(&self) -> Vec<ToolCall> {
        AgUiFold::tool_calls(self)
    }

    fn tool_call_changes(&mut self) -> ToolCallChanges {
        AgUiFold::tool_call_changes(self)
    }

    fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        AgUiFold::parsed_arguments(self, message_id, index)
    }
}

#[cfg(test)]
mod tests {
    use crate::assembler::{AssemblerOptions, Protocol, StreamAssembler, Update};
    use serde_json::json;

    fn sse(events: &[serde_json::Value]) -> String {
        events.iter().map(|e| format!("data: {e}\n\n")).collect()
    }

    #[test]
    fn assembles_text_tool_calls_and_state_with_coalesced_updates() {
        let stream = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t1","runId":"r1"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hel"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"lo"}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"m1"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\":"}),
            json!({"type":"STATE_SNAPSHOT","snapshot":{"n":1}}),
            json!({"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2}]}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let (a, b) = stream.as_bytes().split_at(stream.find("Hel").unwrap() + 1);
        let first = asm.push(a).unwrap();
        assert_eq!(asm.protocol(), Some(Protocol::AgUi));
        assert!(
            matches!(first.first(), Some(Update::Response { status, .. }) if status == "in_progress"),
            "{first:?}"
        );
        let second = asm.push(b).unwrap();
        // The tool call joined m1 in the second batch: one Replace carries the whole message
        // (its text included), and the text and the call's arguments come whole too (`replace`),
        // never as appends to what the Replace already holds.
        assert!(second.iter().any(
            |u| matches!(u, Update::Replace { message, .. } if message["content"] == "Hello")
        ));
        let texts: Vec<_> = second
            .iter()
            .filter_map(|u| match u {
                Update::Text { delta, replace, .. } => Some((delta.as_str(), *replace)),
                _ => None,
            })
            .collect();
        assert_eq!(texts, [("Hello", true)]);
        let arguments: Vec<_> = second
            .iter()
            .filter_map(|u| match u {
                Update::Arguments { delta, replace, .. } => Some((delta.as_str(), *replace)),
                _ => None,
            })
            .collect();
        assert_eq!(arguments, [("{\"a\":", true)]);
        assert!(second
            .iter()
            .any(|u| matches!(u, Update::State { state } if state == &json!({"n":2}))));
        assert_eq!(asm.tool_calls()[0].arguments, "{\"a\":");
        assert_eq!(asm.parsed_arguments("m1", 0), Some(json!({})));
        let fin = asm.finish().unwrap();
        assert!(fin
            .iter()
            .any(|u| matches!(u, Update::Warning(w) if w.message.contains("c1"))));
        let snap = asm.snapshot();
        assert_eq!(snap["outcome"], "truncated");
        assert_eq!(snap["threadId"], "t1");
        assert_eq!(
            snap["messages"],
            json!([{"id":"m1","role":"assistant","content":"Hello","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}])
        );
        assert_eq!(snap["state"], json!({"n":2}));
    }

    /// Text, arguments and media parts reach a renderer that reads `message`, `text`,
    /// `arguments` and `content` updates (as for every other protocol), whatever the chunking.
    #[test]
    fn a_message_started_and_written_in_one_chunk_is_reported_as_text() {
        let stream = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t1","runId":"r1"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"You asked"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}),
            json!({"type":"CUSTOM","name":"agent-api.content","value":{"object":"content","type":"data","index":1,"msg_id":"m1","data":{"a":1}}}),
            json!({"type":"CUSTOM","name":"other","value":{"msg_id":"m1","index":2,"type":"data"}}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let updates = asm.push(stream.as_bytes()).unwrap();
        let created = updates
            .iter()
            .any(|u| matches!(u, Update::Message { id, created: true, .. } if id == "m1"));
        assert!(created, "{updates:?}");
        assert!(updates.iter().any(|u| matches!(u,
            Update::Text { message_id, delta, .. } if message_id == "m1" && delta == "You asked")));
        assert!(updates.iter().any(|u| matches!(u,
            Update::Arguments { message_id, delta, name: Some(n), .. }
                if message_id == "m1" && delta == "{}" && n == "f")));
        let contents: Vec<_> = updates
            .iter()
            .filter_map(|u| match u {
                Update::Content {
                    message_id,
                    index,
                    part,
                } => Some((message_id.as_str(), *index, part["data"].clone())),
                _ => None,
            })
            .collect();
        assert_eq!(contents, [("m1", 1, json!({"a":1}))]);
        // A later append is an append.
        let more = sse(&[json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"!"})]);
        let updates = asm.push(more.as_bytes()).unwrap();
        assert!(updates.iter().any(|u| matches!(u,
            Update::Text { delta, replace: false, .. } if delta == "!")));
    }

    #[test]
    fn state_and_activity_snapshots_nest_at_most_max_depth() {
        let nested = |levels: usize| {
            let mut v = json!(1);
            for _ in 0..levels {
                v = json!({ "a": v });
            }
            v
        };
        let limit = crate::MAX_DEPTH;
        let stream = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t1","runId":"r1"}),
            json!({"type":"STATE_SNAPSHOT","snapshot":nested(limit)}),
            json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"plan","content":nested(limit)}),
            json!({"type":"STATE_SNAPSHOT","snapshot":nested(limit + 1)}),
            json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"plan","content":nested(limit + 1)}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        asm.push(stream.as_bytes()).unwrap();
        let snapshot = asm.snapshot();
        // The deeper snapshots are skipped with a warning; the state and content stay.
        assert_eq!(snapshot["state"], nested(limit));
        assert_eq!(snapshot["messages"][0]["content"], nested(limit));
        let codes: Vec<_> = asm.warnings().iter().map(|w| w.code.as_str()).collect();
        assert_eq!(codes, ["INVALID_EVENT", "INVALID_EVENT"]);
        let mut strict = StreamAssembler::new(AssemblerOptions::new().with_strict(true));
        assert!(strict.push(stream.as_bytes()).is_err());
    }

    #[test]
    fn fatal_errors_fail_the_run_like_the_client() {
        let stream = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t1","runId":"r1"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m2"}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let updates = asm.push(stream.as_bytes()).unwrap();
        assert!(updates.iter().any(
            |u| matches!(u, Update::Response { outcome, .. } if outcome.as_str() == "failed")
        ));
        let snap = asm.snapshot();
        assert_eq!(snap["error"]["source"], "client");
        assert!(snap["error"]["message"]
            .as_str()
            .unwrap()
            .contains("No active text message found with ID 'nope'"));
        assert_eq!(snap["messages"], json!([]));
        let mut strict = StreamAssembler::new(AssemblerOptions::new().with_strict(true));
        let err = strict.push(stream.as_bytes()).unwrap_err();
        assert_eq!(err.code().as_str(), "PROTOCOL_VIOLATION");
        assert_eq!(strict.outcome().as_str(), "failed");
    }

    #[test]
    fn run_error_and_outcomes() {
        let stream = sse(&[json!({"type":"RUN_ERROR","message":"boom","code":"E1"})]);
        let mut asm =
            StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(Protocol::AgUi)));
        asm.push(stream.as_bytes()).unwrap();
        asm.finish().unwrap();
        let snap = asm.snapshot();
        assert_eq!(snap["outcome"], "failed");
        assert_eq!(
            snap["error"],
            json!({"source":"run","code":"E1","message":"boom"})
        );
        let stream = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval"}]}}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        asm.push(stream.as_bytes()).unwrap();
        asm.finish().unwrap();
        let snap = asm.snapshot();
        assert_eq!(snap["outcome"], "incomplete");
        assert_eq!(snap["interrupts"][0]["id"], "i1");
    }

    /// A run started after an errored one closes the message the old run left open; the batch
    /// that starts it reports the change, so a reader cut anywhere ends with the same status.
    #[test]
    fn a_new_run_reports_the_messages_the_old_one_left_open() {
        let head = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r1"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m2"}),
        ]);
        let tail = sse(&[
            json!({"type":"RUN_ERROR","message":"boom"}),
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r2"}),
        ]);
        let status = |updates: &[Update], id: &str| {
            updates.iter().rev().find_map(|u| match u {
                Update::Message { id: m, status, .. } if m == id => Some(status.clone()),
                _ => None,
            })
        };
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let first = asm.push(head.as_bytes()).unwrap();
        assert_eq!(status(&first, "m1").as_deref(), Some("in_progress"));
        assert_eq!(status(&first, "m2").as_deref(), Some("in_progress"));
        let second = asm.push(tail.as_bytes()).unwrap();
        assert_eq!(status(&second, "m1").as_deref(), Some("completed"));
        assert_eq!(status(&second, "m2").as_deref(), Some("completed"));

        let mut whole = StreamAssembler::new(AssemblerOptions::new());
        let all = whole.push(format!("{head}{tail}").as_bytes()).unwrap();
        assert_eq!(status(&all, "m1").as_deref(), Some("completed"));
        assert_eq!(status(&all, "m2").as_deref(), Some("completed"));
    }

    /// A call id that reappears in another message (the first one removed by a snapshot) is a
    /// new call for the mirror: its arguments are sent whole, not as the part the old one saw.
    #[test]
    fn a_call_id_reused_in_another_message_is_mirrored_whole() {
        let head = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r1"}),
            json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1","delta":"{\"q\":"}),
        ]);
        let tail = sse(&[
            json!({"type":"MESSAGES_SNAPSHOT","messages":[]}),
            json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"f","parentMessageId":"m2","delta":"{\"q\":"}),
        ]);
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        asm.push(head.as_bytes()).unwrap();
        let first = asm.tool_call_changes();
        assert_eq!(first.len, 1);
        assert_eq!(first.changes[0].message_id, "m1");
        asm.push(tail.as_bytes()).unwrap();
        let second = asm.tool_call_changes();
        assert_eq!(second.len, 1);
        assert_eq!(second.changes[0].message_id, "m2");
        assert!(second.changes[0].raw_replace);
        assert_eq!(second.changes[0].raw_delta, "{\"q\":");
        assert!(
            !second.changes[0].ops.is_empty(),
            "the parsed value is rebuilt"
        );
    }
}
