//! Agent API → AG-UI 1.0 events: [`AgUiEncoder`], an [`Encoder`] for the
//! [`ResponseBuilder`](crate::builder::ResponseBuilder) (`protocol: "ag-ui"`) and the last stage
//! of [`Translator`](crate::translate::Translator) (`to: "ag-ui"`).
//!
//! The output is a run the `@ag-ui/client` 1.0 verifier accepts (`reference/ag-ui.md` §4): it
//! opens with `RUN_STARTED`, closes every message, reasoning span and tool call it opened before
//! `RUN_FINISHED` / `RUN_ERROR`, and sends nothing after that. JSON is camelCase with optional
//! fields absent (never `null`), framed as the encoder does: `data: <json>\n\n`.
//!
//! | Agent API                                        | AG-UI                                             |
//! |--------------------------------------------------|---------------------------------------------------|
//! | first event of the stream                        | `RUN_STARTED {threadId, runId, protocolVersion}`  |
//! | `message` / `error` message, text and refusal parts | `TEXT_MESSAGE_START {messageId: msg id, role}`, `TEXT_MESSAGE_CONTENT` per piece, `TEXT_MESSAGE_END` when the message completes |
//! | `reasoning` message                              | `REASONING_START`, `REASONING_MESSAGE_START {role: "reasoning"}`, `…_CONTENT`, `REASONING_MESSAGE_END`, `REASONING_END` (span id = message id) |
//! | `function_call` / `plugin_call` / `mcp_call`     | `TOOL_CALL_START {toolCallId: call_id, toolCallName, parentMessageId: msg id}`, `TOOL_CALL_ARGS` per arguments delta (snapshot arguments wait for the completed value), `TOOL_CALL_END` when the part completes |
//! | `*_call_output`                                  | `TOOL_CALL_RESULT {messageId: msg id, toolCallId, content, role: "tool"}` (a non-string `output` as JSON text) |
//! | image / audio / video / file / data part of a message | `CUSTOM {name: "agent-api.content", value: <the completed part, nulls omitted>}` |
//! | other message types (`heartbeat`, `component_call`, …) | nothing                                    |
//! | response `completed` (and `incomplete`)          | `RUN_FINISHED {threadId, runId, usage?}`          |
//! | response `canceled`                              | `RUN_FINISHED {…, outcome: {type: "cancelled"}}`  |
//! | response `failed` / `rejected`                   | `RUN_ERROR {message, code, usage?}`               |
//! | input ends before a terminal response ([`AgUiEncoder::finish`]) | `RUN_ERROR {code: "INCOMPLETE_STREAM"}` |
//!
//! `threadId` / `runId` default to the run's `session_id` / response `id` (what the reference
//! adapter's request names them), else `thread_<uuid4>` / `run_<uuid4>` made when the first
//! event is written. Text that arrives whole (a completed part, a message completed on first
//! sight, a final `output` message never streamed) is sent as the part of it not yet sent; a
//! value that contradicts what was sent cannot be retracted and is dropped. `usage` becomes one
//! `TokenUsage` (`input_tokens`/`prompt_tokens`, `output_tokens`/`completion_tokens`,
//! `total_tokens`, cached and reasoning token details).

use std::borrow::Cow;

use serde_json::Value;

use crate::codec::write::{check_output_format, frame_end, frame_start, int, raw, string};
use crate::codec::{Format, SSE_CONTENT_TYPE};
use crate::emit::track::{
    absorb, advance, count, parts_of, Advance, Body, ItemKind as Kind, Mode, PartTable, Step,
    Table, INPUT_DETAILS, INPUT_TOKENS, OUTPUT_DETAILS, OUTPUT_TOKENS,
};
use crate::emit::{BuilderEvent, Encoder};
use crate::protocol::json::str_field;
use crate::protocol::{
    new_id, AgentResponse, Content, JsonMap, JsonOptions, Message, Role, RunStatus,
};
use crate::Result;

/// The `CUSTOM` event name for message parts AG-UI has no event for.
pub const CONTENT_EVENT_NAME: &str = "agent-api.content";

/// AG-UI's `TextMessageRole` for an Agent API role (`tool` has none: `assistant`).
fn text_role(role: Option<Role>) -> &'static str {
    match role {
        Some(Role::User) => "user",
        Some(Role::System) => "system",
        _ => "assistant",
    }
}

#[derive(Debug, Default)]
struct Part {
    /// A media part's `CUSTOM` event was sent.
    sent: bool,
    /// The text sent so far.
    text: String,
}

#[derive(Debug)]
struct Item {
    msg_id: String,
    kind: Kind,
    role: &'static str,
    /// The AG-UI message / tool call was started and not yet ended.
    open: bool,
    /// Ended (or answered): later events for the message are ignored.
    done: bool,
    parts: PartTable<Part>,
    /// A call's `{call_id, name, arguments}` or an output's `{call_id, output}`.
    data: JsonMap,
    /// The tool call id sent in `TOOL_CALL_START`.
    call_id: String,
    /// The arguments sent so far.
    sent: String,
}

/// Encodes Agent API events as AG-UI 1.0 events, keeping the per-stream state the translation
/// needs (the mapping is documented at the top of `src/agui/encode.rs`).
///
/// # Example
///
/// ```
/// use agentwire::agui::AgUiEncoder;
/// use agentwire::builder::{BuilderOptions, CompleteOptions, ResponseBuilder};
/// use agentwire::protocol::ContentType;
///
/// let enc = AgUiEncoder::sse().with_thread_id("t1").with_run_id("r1");
/// let mut rb = ResponseBuilder::with_encoder(BuilderOptions::new(), Box::new(enc))?;
/// let m = rb.message(Default::default())?;
/// let c = rb.content(m, ContentType::Text)?;
/// let mut out = rb.delta_text(c, "Hi")?;
/// out.extend(rb.complete_content(c)?);
/// out.extend(rb.complete_message(m)?);
/// out.extend(rb.completed(CompleteOptions::new())?);
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with(
///     "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\",\"protocolVersion\":\"1.0\"}\n\n"
/// ));
/// assert!(text.contains(",\"delta\":\"Hi\"}\n\n"));
/// assert!(text.ends_with("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct AgUiEncoder {
    format: Format,
    thread_id: Option<String>,
    run_id: Option<String>,
    started: bool,
    ended: bool,
    usage: Option<JsonMap>,
    items: Table<Item>,
}

impl AgUiEncoder {
    /// An encoder writing SSE (`data: <json>\n\n`), as AG-UI's HTTP binding sends.
    pub fn sse() -> Self {
        AgUiEncoder {
            format: Format::Sse,
            thread_id: None,
            run_id: None,
            started: false,
            ended: false,
            usage: None,
            items: Table::default(),
        }
    }

    /// An encoder writing `format` (SSE, or NDJSON: one event per line).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` for [`Format::Auto`].
    pub fn new(format: Format) -> Result<Self> {
        check_output_format(format)?;
        Ok(AgUiEncoder {
            format,
            ..AgUiEncoder::sse()
        })
    }

    /// The same encoder with a fixed `threadId` (default: the run's `session_id`, else
    /// `thread_<uuid4>`).
    #[must_use]
    pub fn with_thread_id(mut self, id: impl Into<String>) -> Self {
        self.thread_id = Some(id.into());
        self
    }

    /// The same encoder with a fixed `runId` (default: the response `id`, else `run_<uuid4>`).
    #[must_use]
    pub fn with_run_id(mut self, id: impl Into<String>) -> Self {
        self.run_id = Some(id.into());
        self
    }

    /// Whether the terminal event (`RUN_FINISHED` / `RUN_ERROR`) was written.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Ends a stream whose input stopped before its terminal response: closes what is open and
    /// writes `RUN_ERROR {code: "INCOMPLETE_STREAM"}`. Nothing when nothing was written yet or
    /// the run already ended.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if !self.started || self.ended {
            return;
        }
        self.close_all(out);
        self.begin(out, "RUN_ERROR");
        raw(
            out,
            ",\"message\":\"The stream ended before the run did.\",\"code\":\"INCOMPLETE_STREAM\"",
        );
        self.end(out);
        self.ended = true;
    }

    // ----- framing ---------------------------------------------------------------------------

    /// Starts an event: the framing and `{"type":"<ty>"`; the caller writes the other fields
    /// (each with its leading comma) and calls [`AgUiEncoder::end`].
    fn begin(&self, out: &mut Vec<u8>, ty: &str) {
        Framing(self.format).begin(out, ty);
    }

    fn end(&self, out: &mut Vec<u8>) {
        Framing(self.format).end(out);
    }

    /// A whole event `{"type":<ty>,"<key>":<id>}`.
    fn id_event(&self, out: &mut Vec<u8>, ty: &str, key: &str, id: &str) {
        self.begin(out, ty);
        field(out, key, id);
        self.end(out);
    }

    // ----- the run ---------------------------------------------------------------------------

    fn ensure_started(&mut self, r: Option<&AgentResponse>, out: &mut Vec<u8>) -> Result<()> {
        if self.started {
            return Ok(());
        }
        if self.thread_id.is_none() {
            self.thread_id = match r.and_then(|r| r.session_id.clone()) {
                Some(id) => Some(id),
                None => Some(new_id("thread_")?),
            };
        }
        if self.run_id.is_none() {
            self.run_id = match r.and_then(|r| r.id.clone()) {
                Some(id) => Some(id),
                None => Some(new_id("run_")?),
            };
        }
        self.started = true;
        self.begin(out, "RUN_STARTED");
        self.run_ids(out);
        raw(out, ",\"protocolVersion\":\"");
        raw(out, super::PROTOCOL_VERSION);
        raw(out, "\"");
        self.end(out);
        Ok(())
    }

    fn run_ids(&self, out: &mut Vec<u8>) {
        field(out, "threadId", self.thread_id.as_deref().unwrap_or(""));
        field(out, "runId", self.run_id.as_deref().unwrap_or(""));
    }

    fn on_response(&mut self, r: &AgentResponse, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_started(Some(r), out)?;
        if r.usage.is_some() {
            // Not `clone_from`: that instantiates `IndexMap::clone_from` for this one use.
            #[allow(clippy::assigning_clones)]
            {
                self.usage = r.usage.clone();
            }
        }
        let terminal = matches!(
            r.status,
            RunStatus::Completed
                | RunStatus::Failed
                | RunStatus::Rejected
                | RunStatus::Canceled
                | RunStatus::Incomplete
        );
        if !terminal {
            return Ok(());
        }
        // Messages only the final `output` carries (or completes) are sent first.
        for m in r.output.iter().flatten() {
            let done = self
                .items
                .position(&m.id)
                .and_then(|i| self.items.get(i))
                .is_some_and(|i| i.done);
            if !done {
                self.on_message(m, true, out)?;
            }
        }
        self.close_all(out);
        match r.status {
            RunStatus::Failed | RunStatus::Rejected => {
                let (message, code) = match &r.error {
                    Some(e) => (e.message.as_str(), e.code.as_str()),
                    None => ("agent run failed", "unknown_error"),
                };
                self.begin(out, "RUN_ERROR");
                field(out, "message", message);
                field(out, "code", code);
            }
            _ => {
                self.begin(out, "RUN_FINISHED");
                self.run_ids(out);
                if r.status == RunStatus::Canceled {
                    raw(out, ",\"outcome\":{\"type\":\"cancelled\"}");
                } else if r.status == RunStatus::Incomplete {
                    interrupt_outcome(r, out);
                }
            }
        }
        if let Some(u) = &self.usage {
            usage_json(out, u);
        }
        self.end(out);
        self.ended = true;
        Ok(())
    }

    // ----- messages --------------------------------------------------------------------------

    fn item_for(&mut self, msg_id: &str, kind: Kind) -> usize {
        self.items.at(msg_id, || Item {
            msg_id: msg_id.to_owned(),
            kind,
            role: "assistant",
            open: false,
            done: false,
            parts: PartTable::default(),
            data: JsonMap::new(),
            call_id: String::new(),
            sent: String::new(),
        })
    }

    fn on_message(&mut self, m: &Message, completed: bool, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_started(None, out)?;
        let i = self.item_for(&m.id, Kind::of(&m.message_type));
        if let Some(item) = self.items.get_mut(i) {
            if item.kind == Kind::Message && !item.open && m.role.is_some() {
                item.role = text_role(m.role);
            }
        }
        if !completed {
            return Ok(());
        }
        for (index, part) in parts_of(m) {
            self.on_content(
                i,
                index,
                Body::of(&part.body),
                Mode::Completed,
                Some(part),
                out,
            );
        }
        self.close(i, out);
        Ok(())
    }

    fn on_content(
        &mut self,
        i: usize,
        index: i64,
        body: Body<'_>,
        mode: Mode,
        whole: Option<&Content>,
        out: &mut Vec<u8>,
    ) {
        let kind = self.items.get(i).map_or(Kind::Skip, |it| it.kind);
        match (kind, body) {
            (Kind::Message | Kind::Reasoning, Body::Text { text, .. }) => {
                self.on_text(i, index, text, mode, out);
            }
            (Kind::Call | Kind::Output, Body::Data(data)) => {
                self.on_data(i, data, mode, out);
            }
            (Kind::Message | Kind::Reasoning, _) if mode == Mode::Completed => {
                if let Some(c) = whole {
                    self.on_media(i, index, c, out);
                }
            }
            _ => {}
        }
    }

    /// Opens the AG-UI text or reasoning message of item `i` (once).
    fn open_text(&mut self, i: usize, out: &mut Vec<u8>) {
        let Some(item) = self.items.get(i) else {
            return;
        };
        if item.open || item.done {
            return;
        }
        if item.kind == Kind::Reasoning {
            self.id_event(out, "REASONING_START", "messageId", &item.msg_id);
            self.begin(out, "REASONING_MESSAGE_START");
            field(out, "messageId", &item.msg_id);
            raw(out, ",\"role\":\"reasoning\"");
        } else {
            self.begin(out, "TEXT_MESSAGE_START");
            field(out, "messageId", &item.msg_id);
            field(out, "role", item.role);
        }
        self.end(out);
        if let Some(item) = self.items.get_mut(i) {
            item.open = true;
        }
    }

    fn on_text(&mut self, i: usize, index: i64, text: &str, mode: Mode, out: &mut Vec<u8>) {
        if self.items.get(i).is_none_or(|it| it.done) {
            return;
        }
        self.open_text(i, out);
        let format = self.format;
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        let (p, _) = item.parts.at(index);
        let Some(part) = item.parts.get_mut(p) else {
            return;
        };
        // A replaced value cannot be retracted: only an extension is sent.
        let Advance::Extended(start) = advance(&mut part.text, text, mode) else {
            return;
        };
        let piece = part.text.get(start..).unwrap_or("");
        let ty = if item.kind == Kind::Reasoning {
            "REASONING_MESSAGE_CONTENT"
        } else {
            "TEXT_MESSAGE_CONTENT"
        };
        let enc = Framing(format);
        enc.begin(out, ty);
        field(out, "messageId", &item.msg_id);
        field(out, "delta", piece);
        enc.end(out);
    }

    /// A media or data part of a text message, once completed: a `CUSTOM` event.
    fn on_media(&mut self, i: usize, index: i64, c: &Content, out: &mut Vec<u8>) {
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        if item.done {
            return;
        }
        let (p, _) = item.parts.at(index);
        match item.parts.get_mut(p) {
            Some(part) if !part.sent => part.sent = true,
            _ => return,
        }
        let mut c = c.clone();
        if c.msg_id.is_none() {
            c.msg_id = Some(item.msg_id.clone());
        }
        if c.index.is_none() {
            c.index = Some(index);
        }
        self.begin(out, "CUSTOM");
        field(out, "name", CONTENT_EVENT_NAME);
        raw(out, ",\"value\":");
        raw(out, &c.to_json_with(JsonOptions::new().omit_nulls(true)));
        self.end(out);
    }

    fn on_data(&mut self, i: usize, data: Option<&JsonMap>, mode: Mode, out: &mut Vec<u8>) {
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        if item.done {
            return;
        }
        absorb(&mut item.data, data, mode);
        let kind = item.kind;
        if kind == Kind::Call {
            self.start_call(i, mode == Mode::Completed, out);
            // A snapshot's arguments may still be replaced (agentscope sends `"{}"` before the
            // real ones): only deltas and the completed value are sent.
            if mode != Mode::Snapshot {
                self.send_arguments(i, out);
            }
        }
        if mode == Mode::Completed {
            self.close(i, out);
        }
    }

    /// Sends `TOOL_CALL_START` once the call's id and name are known (or when `force`d).
    fn start_call(&mut self, i: usize, force: bool, out: &mut Vec<u8>) {
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        if item.open || item.done {
            return;
        }
        let call_id = str_field(&item.data, "call_id");
        let name = item.data.get("name").and_then(Value::as_str);
        if !force && (call_id.is_empty() || name.is_none()) {
            return;
        }
        item.call_id = if call_id.is_empty() {
            item.msg_id.clone()
        } else {
            call_id.to_owned()
        };
        item.open = true;
        let enc = Framing(self.format);
        enc.begin(out, "TOOL_CALL_START");
        field(out, "toolCallId", &item.call_id);
        field(out, "toolCallName", name.unwrap_or(""));
        field(out, "parentMessageId", &item.msg_id);
        enc.end(out);
    }

    /// Sends the part of the call's arguments not sent yet as `TOOL_CALL_ARGS`.
    fn send_arguments(&mut self, i: usize, out: &mut Vec<u8>) {
        let format = self.format;
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        if !item.open {
            return;
        }
        let args: Cow<'_, str> = match item.data.get("arguments") {
            Some(Value::String(s)) => Cow::Borrowed(s.as_str()),
            None | Some(Value::Null) => Cow::Borrowed(""),
            Some(other) => Cow::Owned(other.to_string()),
        };
        let Some(rest) = args.strip_prefix(item.sent.as_str()) else {
            // Replaced arguments cannot be retracted.
            return;
        };
        if rest.is_empty() {
            return;
        }
        let enc = Framing(format);
        enc.begin(out, "TOOL_CALL_ARGS");
        field(out, "toolCallId", &item.call_id);
        field(out, "delta", rest);
        enc.end(out);
        item.sent.push_str(rest);
    }

    /// Ends item `i`: the END events of what it opened, or a tool output's result.
    fn close(&mut self, i: usize, out: &mut Vec<u8>) {
        let Some(item) = self.items.get(i) else {
            return;
        };
        if item.done {
            return;
        }
        match item.kind {
            Kind::Message if item.open => {
                self.id_event(out, "TEXT_MESSAGE_END", "messageId", &item.msg_id);
            }
            Kind::Reasoning if item.open => {
                self.id_event(out, "REASONING_MESSAGE_END", "messageId", &item.msg_id);
                self.id_event(out, "REASONING_END", "messageId", &item.msg_id);
            }
            Kind::Call if item.open || !item.data.is_empty() => {
                self.start_call(i, true, out);
                self.send_arguments(i, out);
                if let Some(item) = self.items.get(i) {
                    self.id_event(out, "TOOL_CALL_END", "toolCallId", &item.call_id);
                }
            }
            Kind::Output if !item.data.is_empty() => {
                self.begin(out, "TOOL_CALL_RESULT");
                field(out, "messageId", &item.msg_id);
                field(out, "toolCallId", str_field(&item.data, "call_id"));
                match item.data.get("output") {
                    Some(Value::String(s)) => field(out, "content", s),
                    None | Some(Value::Null) => field(out, "content", ""),
                    Some(other) => field(out, "content", &other.to_string()),
                }
                raw(out, ",\"role\":\"tool\"");
                self.end(out);
            }
            _ => {}
        }
        if let Some(item) = self.items.get_mut(i) {
            item.open = false;
            item.done = true;
        }
    }

    fn close_all(&mut self, out: &mut Vec<u8>) {
        for i in 0..self.items.len() {
            self.close(i, out);
        }
    }
}

/// The framing alone, usable while an item is borrowed.
#[derive(Clone, Copy)]
struct Framing(Format);

impl Framing {
    fn begin(self, out: &mut Vec<u8>, ty: &str) {
        frame_start(out, self.0);
        raw(out, "{\"type\":\"");
        raw(out, ty);
        raw(out, "\"");
    }

    fn end(self, out: &mut Vec<u8>) {
        frame_end(out, self.0, "}");
    }
}

impl Encoder for AgUiEncoder {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        if self.ended {
            return Ok(());
        }
        let step = Step::of(event);
        if let Some(Step::Response(r)) = step {
            return self.on_response(r, out);
        }
        self.ensure_started(None, out)?;
        match step {
            Some(Step::Message { message, completed }) => {
                self.on_message(message, completed, out)?;
            }
            Some(Step::Content {
                msg_id,
                index,
                body,
                mode,
                whole,
            }) => {
                // A message never announced: its kind guessed from the part.
                let i = self.item_for(msg_id, Kind::guess(body));
                self.on_content(i, index, body, mode, whole, out);
            }
            _ => {}
        }
        Ok(())
    }

    fn content_type(&self) -> &'static str {
        self.format.content_type().unwrap_or(SSE_CONTENT_TYPE)
    }
}

/// The keys of an AG-UI interrupt (a closed object), and whether each holds a string (else an
/// object).
const INTERRUPT_KEYS: [(&str, bool); 7] = [
    ("id", true),
    ("reason", true),
    ("message", true),
    ("toolCallId", true),
    ("responseSchema", false),
    ("expiresAt", true),
    ("metadata", false),
];

/// `,"outcome":{"type":"interrupt",…}` for a paused run with interrupts; nothing without.
fn interrupt_outcome(r: &AgentResponse, out: &mut Vec<u8>) {
    let mut first = true;
    for interrupt in r.interrupts() {
        raw(
            out,
            if first {
                ",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{"
            } else {
                ",{"
            },
        );
        first = false;
        let mut key_first = true;
        // Only the keys AG-UI has, each of its type: a client's schema check refuses others.
        for (key, v) in interrupt.iter().filter(|(k, v)| {
            INTERRUPT_KEYS
                .iter()
                .any(|(name, text)| name == k && if *text { v.is_string() } else { v.is_object() })
        }) {
            if !key_first {
                raw(out, ",");
            }
            key_first = false;
            string(out, key);
            raw(out, ":");
            crate::codec::write::value(out, v);
        }
        raw(out, "}");
    }
    if !first {
        raw(out, "]}");
    }
}

/// `,"key":"value"`.
fn field(out: &mut Vec<u8>, key: &str, v: &str) {
    raw(out, ",\"");
    raw(out, key);
    raw(out, "\":");
    string(out, v);
}

/// The largest integer a `TokenUsage` count may hold (2^53 - 1).
const MAX_COUNT: u64 = (1 << 53) - 1;

/// `,"usage":[{…}]`: an Agent API usage map as one AG-UI `TokenUsage` (only the counts it names,
/// non-negative integers up to 2^53 - 1); nothing when it names none.
fn usage_json(out: &mut Vec<u8>, usage: &JsonMap) {
    let read = |v: &Value| v.as_u64().filter(|n| *n <= MAX_COUNT);
    let counts = [
        ("inputTokens", count(usage, INPUT_TOKENS, None, read)),
        ("outputTokens", count(usage, OUTPUT_TOKENS, None, read)),
        ("totalTokens", count(usage, &["total_tokens"], None, read)),
        (
            "reasoningTokens",
            count(usage, OUTPUT_DETAILS, Some("reasoning_tokens"), read),
        ),
        (
            "cachedInputTokens",
            count(usage, INPUT_DETAILS, Some("cached_tokens"), read),
        ),
    ];
    let mut first = true;
    for (key, n) in counts {
        let Some(n) = n else { continue };
        raw(out, if first { ",\"usage\":[{\"" } else { ",\"" });
        first = false;
        raw(out, key);
        raw(out, "\":");
        // At most 2^53 - 1: fits.
        int(out, i64::try_from(n).unwrap_or(0));
    }
    if !first {
        raw(out, "}]");
    }
}

#[cfg(test)]
mod tests;
