//! A2A (`a2a-sdk` 0.3, protocol 0.3.0) streaming: Agent API events ⇄ `message/stream` JSON-RPC
//! results, and an A2A `Message` → [`AgentRequest`].
//!
//! The reference A2A adapter cannot stream (`reference/agentscope-protocol.md` §7.2, issue
//! #499: it answers with one `Message` from the final response); here every message and part
//! is kept, not just the last message's text. In [`A2aEncoder`]'s stream, each SSE event is
//! `data: {"jsonrpc":"2.0","id":…,"result":…}`:
//! - the run's first event is a `Task` (`id` = response id, `contextId` = session id, state
//!   `submitted`); `in_progress` is a `status-update` (`working`, `final: false`); the terminal
//!   response is a `status-update` with `final: true` (`completed`, `failed`, `canceled`,
//!   `rejected`; `incomplete` → `input-required`), its `metadata.status` the Agent API status,
//!   `metadata.usage` the usage, and for a failure a `status.message` with the error text
//!   (`metadata.code` the code);
//! - each message is one artifact (`artifactId` = message id, `name` and `metadata.message_type`
//!   = its type, `metadata.role`): text streams as `artifact-update`s with `append` (false for
//!   the first chunk, true after) and one `TextPart` per chunk (`metadata.index` = the part's
//!   index); data, image, audio, video and file parts are sent whole when completed (`DataPart`,
//!   `FilePart` with `uri` or `bytes`, `metadata.type` when not obvious); the message's
//!   completion is a last chunk (`lastChunk: true`).
//!
//! [`A2aDecoder`] reads such a stream back, and any A2A stream: `TextPart`s without
//! `metadata.index` appended to an artifact continue its last text part; a `Message` result is
//! a whole message (and, outside a task, the end of the run).

use std::collections::HashMap;

use serde_json::Value;

use crate::codec::write::{
    bool, check_output_format, frame_end, frame_start, int, map, opt_string, raw, string, value,
};

use crate::codec::{Format, SSE_CONTENT_TYPE};
use crate::emit::{BuilderEvent, Encoder};
use crate::protocol::json::str_field;
use crate::protocol::{
    merge_data_into, parse_request, AgentRequest, AgentResponse, Content, ContentBody, ErrorInfo,
    Event, JsonMap, Message, MessageType, Role, RunStatus,
};
use crate::{Error, ErrorCode, Result};
use crate::{Warning, WarningCode};

#[derive(Debug, Default)]
struct Artifact {
    message_type: String,
    role: String,
    /// Whether a chunk was sent (later chunks append).
    sent_any: bool,
    /// Per part index (a map, not lists searched per part: an artifact of many parts stays
    /// linear).
    parts: HashMap<i64, PartState>,
    done: bool,
}

/// What was sent of one part of an artifact.
#[derive(Debug, Default)]
struct PartState {
    /// Text sent so far.
    text: String,
    /// Data gathered from deltas, until the part completes.
    data: JsonMap,
    /// Whether the part completed (later values are ignored).
    done: bool,
    /// Whether the part appeared in some chunk.
    announced: bool,
}

/// Encodes Agent API events as A2A `message/stream` results (the mapping is documented at the
/// top of `src/openai/a2a.rs`).
///
/// # Example
///
/// ```
/// use agentwire::builder::{BuilderOptions, CompleteOptions, ResponseBuilder};
/// use agentwire::a2a::A2aEncoder;
/// use agentwire::protocol::ContentType;
///
/// let options = BuilderOptions::new().response_id("task_1").session_id("ctx_1");
/// let mut rb = ResponseBuilder::with_encoder(options, Box::new(A2aEncoder::new(1.into())))?;
/// let m = rb.message(Default::default())?;
/// let c = rb.content(m, ContentType::Text)?;
/// let mut out = rb.delta_text(c, "Hi")?;
/// out.extend(rb.complete_content(c)?);
/// out.extend(rb.complete_message(m)?);
/// out.extend(rb.completed(CompleteOptions::new())?);
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with(r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"task_1","contextId":"ctx_1""#));
/// assert!(text.contains(r#""final":true"#));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct A2aEncoder {
    format: Format,
    rpc_id: Value,
    task_id: Option<String>,
    context_id: Option<String>,
    started: bool,
    ended: bool,
    artifacts: HashMap<String, Artifact>,
}

impl A2aEncoder {
    /// An SSE encoder answering the JSON-RPC request `rpc_id` (a string, a number or null).
    pub fn new(rpc_id: Value) -> Self {
        A2aEncoder {
            format: Format::Sse,
            rpc_id,
            task_id: None,
            context_id: None,
            started: false,
            ended: false,
            artifacts: HashMap::new(),
        }
    }

    /// The same encoder writing `format` (SSE or NDJSON).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` for [`Format::Auto`].
    pub fn with_format(mut self, format: Format) -> Result<Self> {
        check_output_format(format)?;
        self.format = format;
        Ok(self)
    }

    /// Starts a result: the framing, `{"jsonrpc":"2.0","id":…,"result":{"kind":"<kind>"`, and
    /// `,"taskId":…,"contextId":…` unless it is the task itself. The caller writes the other
    /// fields and calls [`A2aEncoder::end`].
    fn begin(&self, out: &mut Vec<u8>, kind: &str) {
        frame_start(out, self.format);
        raw(out, "{\"jsonrpc\":\"2.0\",\"id\":");
        value(out, &self.rpc_id);
        raw(out, ",\"result\":{\"kind\":\"");
        raw(out, kind);
        let task = self.task_id.as_deref().unwrap_or("");
        if kind == "task" {
            raw(out, "\",\"id\":");
        } else {
            raw(out, "\",\"taskId\":");
        }
        string(out, task);
        raw(out, ",\"contextId\":");
        string(out, self.context_id.as_deref().unwrap_or(task));
    }

    fn end(&self, out: &mut Vec<u8>) {
        frame_end(out, self.format, "}}");
    }

    fn ensure_task(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if self.started {
            return Ok(());
        }
        if self.task_id.is_none() {
            self.task_id = Some(crate::protocol::new_id("task_")?);
        }
        self.started = true;
        self.begin(out, "task");
        raw(out, ",\"status\":{\"state\":\"submitted\"}");
        self.end(out);
        Ok(())
    }

    fn status(&self, out: &mut Vec<u8>, state: &str, r: &AgentResponse, last: bool) {
        self.begin(out, "status-update");
        raw(out, ",\"status\":{\"state\":\"");
        raw(out, state);
        raw(out, "\"");
        if let Some(e) = &r.error {
            raw(out, ",\"message\":{\"kind\":\"message\",\"messageId\":");
            let mut id = self.task_id.clone().unwrap_or_default();
            id.push_str("-error");
            string(out, &id);
            raw(
                out,
                ",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":",
            );
            string(out, &e.message);
            raw(out, "}],\"metadata\":{\"code\":");
            string(out, &e.code);
            raw(out, "}}");
        }
        raw(out, "},\"final\":");
        bool(out, last);
        raw(out, ",\"metadata\":{\"status\":");
        string(out, r.status.as_str());
        if let Some(u) = &r.usage {
            raw(out, ",\"usage\":");
            map(out, u);
        }
        raw(out, "}");
        self.end(out);
    }

    fn on_response(&mut self, r: &AgentResponse, out: &mut Vec<u8>) -> Result<()> {
        if self.task_id.is_none() {
            self.task_id.clone_from(&r.id);
        }
        if self.context_id.is_none() {
            self.context_id.clone_from(&r.session_id);
        }
        self.ensure_task(out)?;
        let state = match &r.status {
            RunStatus::InProgress => {
                self.status(out, "working", r, false);
                return Ok(());
            }
            RunStatus::Completed => "completed",
            RunStatus::Failed => "failed",
            RunStatus::Canceled => "canceled",
            RunStatus::Rejected => "rejected",
            RunStatus::Incomplete => "input-required",
            _ => return Ok(()),
        };
        for m in r.output.iter().flatten() {
            if !self.artifacts.get(&m.id).is_some_and(|a| a.done) {
                self.on_message(m, true, out)?;
            }
        }
        self.status(out, state, r, true);
        self.ended = true;
        Ok(())
    }

    fn artifact(&mut self, msg_id: &str) -> &mut Artifact {
        self.artifacts
            .entry(msg_id.to_owned())
            .or_insert_with(|| Artifact {
                message_type: "message".into(),
                role: "assistant".into(),
                ..Artifact::default()
            })
    }

    fn on_message(&mut self, m: &Message, completed: bool, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_task(out)?;
        let a = self.artifact(&m.id);
        m.message_type.as_str().clone_into(&mut a.message_type);
        if let Some(role) = m.role {
            role.as_str().clone_into(&mut a.role);
        }
        if !completed || a.done {
            return Ok(());
        }
        let mut parts = Parts::default();
        for (position, c) in m.content.iter().flatten().enumerate() {
            let index = c
                .index
                .unwrap_or(i64::try_from(position).unwrap_or(i64::MAX));
            self.part(&m.id, index, &c.body, true, &mut parts);
        }
        let a = self.artifact(&m.id);
        a.done = true;
        self.chunk(&m.id, &parts, true, out);
        Ok(())
    }

    /// Records a part's value and collects the A2A parts to send for it.
    fn part(
        &mut self,
        msg_id: &str,
        index: i64,
        body: &ContentBody,
        completed: bool,
        parts: &mut Parts,
    ) {
        let part = self.artifact(msg_id).parts.entry(index).or_default();
        if part.done {
            return;
        }
        part.done = completed;
        let (text, refusal) = match body {
            ContentBody::Text { text } => (text.as_deref().unwrap_or(""), false),
            ContentBody::Refusal { refusal } => (refusal.as_deref().unwrap_or(""), true),
            ContentBody::Data { data } if completed => {
                // Written from the event's value: no copy is kept once the part is done.
                part.data = JsonMap::new();
                let out = parts.open("data", index);
                raw(out, ",\"data\":");
                match data {
                    Some(d) => map(out, d),
                    None => raw(out, "{}"),
                }
                parts.close("", false);
                return;
            }
            ContentBody::Data { data } => {
                part.data = data.clone().unwrap_or_default();
                return;
            }
            other => {
                if completed {
                    file_part(other, index, parts);
                }
                return;
            }
        };
        let announced = part.announced;
        let sent = &mut part.text;
        match text.strip_prefix(sent.as_str()) {
            Some("") if announced || !completed => {}
            Some(rest) => {
                parts.text(rest, index, refusal, false);
                sent.push_str(rest);
            }
            None => {
                parts.text(text, index, refusal, true);
                text.clone_into(sent);
            }
        }
    }

    fn chunk(&mut self, msg_id: &str, parts: &Parts, last: bool, out: &mut Vec<u8>) {
        if parts.indices.is_empty() && !last {
            return;
        }
        let a = self.artifact(msg_id);
        for &i in &parts.indices {
            a.parts.entry(i).or_default().announced = true;
        }
        let append = a.sent_any;
        a.sent_any = true;
        let Some(a) = self.artifacts.get(msg_id) else {
            return;
        };
        self.begin(out, "artifact-update");
        raw(out, ",\"artifact\":{\"artifactId\":");
        string(out, msg_id);
        raw(out, ",\"name\":");
        string(out, &a.message_type);
        raw(out, ",\"parts\":[");
        out.extend_from_slice(&parts.buf);
        raw(out, "],\"metadata\":{\"message_type\":");
        string(out, &a.message_type);
        raw(out, ",\"role\":");
        string(out, &a.role);
        raw(out, "}},\"append\":");
        bool(out, append);
        raw(out, ",\"lastChunk\":");
        bool(out, last);
        self.end(out);
    }

    fn on_content(
        &mut self,
        msg_id: &str,
        index: i64,
        body: &ContentBody,
        delta: bool,
        completed: bool,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        self.ensure_task(out)?;
        if self.artifact(msg_id).done {
            return Ok(());
        }
        let mut parts = Parts::default();
        match body {
            ContentBody::Text { text: piece } | ContentBody::Refusal { refusal: piece }
                if delta =>
            {
                let sent = &mut self.artifact(msg_id).parts.entry(index).or_default().text;
                let piece = piece.as_deref().unwrap_or("");
                sent.push_str(piece);
                if !piece.is_empty() {
                    let refusal = matches!(body, ContentBody::Refusal { .. });
                    parts.text(piece, index, refusal, false);
                }
            }
            ContentBody::Data { data: Some(d) } if delta => {
                let stored = &mut self.artifact(msg_id).parts.entry(index).or_default().data;
                merge_data_into(stored, d.clone());
                return Ok(());
            }
            _ => self.part(msg_id, index, body, completed, &mut parts),
        }
        self.chunk(msg_id, &parts, false, out);
        Ok(())
    }
}

/// The A2A parts of one chunk, written as they are collected, and their indices.
#[derive(Default)]
struct Parts {
    buf: Vec<u8>,
    indices: Vec<i64>,
}

impl Parts {
    /// Starts a part: `{"kind":"<kind>"`; the caller writes its fields, then [`Parts::close`].
    fn open(&mut self, kind: &str, index: i64) -> &mut Vec<u8> {
        if !self.indices.is_empty() {
            raw(&mut self.buf, ",");
        }
        self.indices.push(index);
        raw(&mut self.buf, "{\"kind\":\"");
        raw(&mut self.buf, kind);
        raw(&mut self.buf, "\"");
        &mut self.buf
    }

    /// Ends a part with its metadata: `"index"`, `"type"` unless empty, `"replace"` if set.
    fn close(&mut self, ty: &str, replace: bool) {
        let index = self.indices.last().copied().unwrap_or(0);
        let out = &mut self.buf;
        raw(out, ",\"metadata\":{\"index\":");
        int(out, index);
        if !ty.is_empty() {
            raw(out, ",\"type\":\"");
            raw(out, ty);
            raw(out, "\"");
        }
        raw(out, if replace { ",\"replace\":true}}" } else { "}}" });
    }

    fn text(&mut self, text: &str, index: i64, refusal: bool, replace: bool) {
        let out = self.open("text", index);
        raw(out, ",\"text\":");
        string(out, text);
        self.close(if refusal { "refusal" } else { "" }, replace);
    }
}

fn file_part(body: &ContentBody, index: i64, parts: &mut Parts) {
    let (uri, kind, name, mime) = match body {
        ContentBody::Image { image_url: Some(u) } => (u, "image", None, None),
        ContentBody::Video { video_url: Some(u) } => (u, "video", None, None),
        ContentBody::Audio {
            data: Some(d),
            format,
        } => (d, "audio", None, format.as_deref()),
        ContentBody::File {
            file_url,
            file_data,
            filename,
            ..
        } => match (file_url, file_data) {
            (Some(u), _) => (u, "file", filename.as_deref(), None),
            (None, Some(d)) => {
                let out = parts.open("file", index);
                raw(out, ",\"file\":{\"bytes\":");
                string(out, d);
                raw(out, ",\"name\":");
                opt_string(out, filename.as_deref());
                raw(out, "}");
                parts.close("file", false);
                return;
            }
            (None, None) => return,
        },
        _ => return,
    };
    let out = parts.open("file", index);
    raw(out, ",\"file\":{\"uri\":");
    string(out, uri);
    raw(out, ",\"name\":");
    opt_string(out, name);
    raw(out, ",\"mimeType\":");
    match mime {
        Some(f) => {
            let mut m = String::from("audio/");
            m.push_str(f);
            string(out, &m);
        }
        None => raw(out, "null"),
    }
    raw(out, "}");
    parts.close(kind, false);
}

impl Encoder for A2aEncoder {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        if self.ended {
            return Ok(());
        }
        match event {
            BuilderEvent::Response(r) => self.on_response(r, out),
            BuilderEvent::MessageStarted(m) => self.on_message(m, false, out),
            BuilderEvent::MessageCompleted(m) => self.on_message(m, true, out),
            BuilderEvent::ContentSnapshot(c) | BuilderEvent::ContentCompleted(c) => {
                let Some(msg_id) = c.msg_id.as_deref() else {
                    return Ok(());
                };
                let completed = c.status == Some(RunStatus::Completed);
                self.on_content(msg_id, c.index.unwrap_or(0), &c.body, false, completed, out)
            }
            BuilderEvent::TextDelta(d) => {
                let body = if d.content_type == crate::protocol::ContentType::Refusal {
                    ContentBody::Refusal {
                        refusal: Some(d.text.to_owned()),
                    }
                } else {
                    ContentBody::Text {
                        text: Some(d.text.to_owned()),
                    }
                };
                self.on_content(d.msg_id, i64::from(d.index), &body, true, false, out)
            }
            BuilderEvent::DataDelta(d) => {
                let body = ContentBody::Data {
                    data: Some(d.data.clone()),
                };
                self.on_content(d.msg_id, i64::from(d.index), &body, true, false, out)
            }
        }
    }

    fn content_type(&self) -> &'static str {
        self.format.content_type().unwrap_or(SSE_CONTENT_TYPE)
    }
}

// ----- A2A → Agent API -------------------------------------------------------------------------

#[derive(Debug)]
struct Incoming {
    message: Message,
    parts: Vec<Content>,
    /// The position in `parts` of each part index (a search per part made an artifact of many
    /// parts quadratic).
    positions: HashMap<i64, usize>,
    done: bool,
}

/// Reads A2A `message/stream` results (JSON-RPC envelopes, or bare results) and yields the
/// Agent API events they mean (mapping documented at the top of `src/openai/a2a.rs`).
#[derive(Debug, Default)]
pub struct A2aDecoder {
    started: bool,
    ended: bool,
    task_id: Option<String>,
    context_id: Option<String>,
    messages: Vec<Incoming>,
    /// The position in `messages` of each message id.
    by_id: HashMap<String, usize>,
}

impl A2aDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the final status was read.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Decodes one payload, appending Agent API events to `out` and problems to `warnings`.
    ///
    /// # Errors
    ///
    /// None today; problems are warnings.
    pub fn decode(
        &mut self,
        payload: &str,
        out: &mut Vec<Event>,
        warnings: &mut Vec<Warning>,
    ) -> Result<()> {
        let Ok(Value::Object(env)) =
            crate::protocol::parse_repairing(payload, |t| serde_json::from_str::<Value>(t))
        else {
            warnings.push(Warning::new(
                WarningCode::InvalidEvent,
                "An event that is not a JSON object was skipped.",
            ));
            return Ok(());
        };
        if self.ended {
            warnings.push(Warning::new(
                WarningCode::EventAfterEnd,
                "An event after the final status was ignored.",
            ));
            return Ok(());
        }
        if let Some(Value::Object(e)) = env.get("error") {
            let code = match e.get("code") {
                Some(Value::String(c)) => c.clone(),
                Some(c) => c.to_string(),
                None => "A2A_ERROR".into(),
            };
            let mut r = self.response(RunStatus::Failed);
            r.error = Some(ErrorInfo::new(code, str_field(e, "message")));
            out.push(Event::Response(r));
            self.ended = true;
            return Ok(());
        }
        let result = match env.get("result") {
            Some(Value::Object(r)) => r,
            _ => &env,
        };
        let kind = str_field(result, "kind");
        let task = match kind {
            "task" => str_field(result, "id"),
            _ => str_field(result, "taskId"),
        };
        if let Some(known) = self.task_id.as_deref() {
            if !task.is_empty() && task != known {
                warnings.push(Warning::new(
                    WarningCode::InvalidEvent,
                    format!(
                        "A {kind} result for task {task} was ignored: this stream is task {known}."
                    ),
                ));
                return Ok(());
            }
        } else if !task.is_empty() && kind != "task" {
            // A stream that starts with an update: its task is the run.
            self.task_id = Some(task.to_owned());
        }
        match kind {
            "task" => {
                self.task_id = Some(str_field(result, "id").to_owned());
                self.context_id = Some(str_field(result, "contextId").to_owned());
                self.ensure_started(out);
                if let Some(arts) = result.get("artifacts").and_then(Value::as_array) {
                    for a in arts.iter().filter_map(Value::as_object) {
                        self.artifact(a, false, true, out);
                    }
                }
            }
            "status-update" => {
                self.ensure_started(out);
                self.status_update(result, out);
            }
            "artifact-update" => {
                self.ensure_started(out);
                if let Some(a) = result.get("artifact").and_then(Value::as_object) {
                    let append = result.get("append").and_then(Value::as_bool) == Some(true);
                    let last = result.get("lastChunk").and_then(Value::as_bool) == Some(true);
                    self.artifact(a, append, last, out);
                }
            }
            "message" => {
                let standalone = !self.started;
                self.ensure_started(out);
                self.whole_message(result, out);
                if standalone {
                    self.finish_run(RunStatus::Completed, None, None, out);
                }
            }
            other => warnings.push(Warning::new(
                WarningCode::UnknownEvent,
                format!("A result of unknown kind \"{other}\" was skipped."),
            )),
        }
        Ok(())
    }

    fn response(&self, status: RunStatus) -> AgentResponse {
        let mut r = AgentResponse::with_id(self.task_id.clone().unwrap_or_default(), 0);
        r.id.clone_from(&self.task_id);
        r.status = status;
        r.session_id.clone_from(&self.context_id);
        r
    }

    fn ensure_started(&mut self, out: &mut Vec<Event>) {
        if !self.started {
            self.started = true;
            out.push(Event::Response(self.response(RunStatus::Created)));
        }
    }

    fn status_update(&mut self, ev: &JsonMap, out: &mut Vec<Event>) {
        let empty = JsonMap::new();
        let meta = ev
            .get("metadata")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let status = ev
            .get("status")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let state = str_field(status, "state");
        let run = match str_field(meta, "status") {
            "" => match state {
                "submitted" => RunStatus::Created,
                "working" => RunStatus::InProgress,
                "completed" => RunStatus::Completed,
                "canceled" => RunStatus::Canceled,
                "failed" => RunStatus::Failed,
                "rejected" => RunStatus::Rejected,
                "input-required" | "auth-required" => RunStatus::Incomplete,
                _ => RunStatus::Unknown,
            },
            s => RunStatus::from_wire(s),
        };
        let last = ev.get("final").and_then(Value::as_bool) == Some(true);
        let message = status.get("message").and_then(Value::as_object);
        let usage = meta.get("usage").and_then(Value::as_object).cloned();
        if !last {
            if let Some(m) = message {
                self.whole_message(m, out);
            }
            if run == RunStatus::InProgress {
                out.push(Event::Response(self.response(run)));
            }
            return;
        }
        let error = match (&run, message) {
            (RunStatus::Failed | RunStatus::Rejected, Some(m)) => {
                let code = m
                    .get("metadata")
                    .and_then(Value::as_object)
                    .map_or("A2A_ERROR", |md| match str_field(md, "code") {
                        "" => "A2A_ERROR",
                        c => c,
                    });
                Some(ErrorInfo::new(code, text_of(m)))
            }
            (RunStatus::Failed, None) => Some(ErrorInfo::new("A2A_ERROR", "The task failed.")),
            (_, Some(m)) => {
                self.whole_message(m, out);
                None
            }
            _ => None,
        };
        self.finish_run(run, error, usage, out);
    }

    fn finish_run(
        &mut self,
        status: RunStatus,
        error: Option<ErrorInfo>,
        usage: Option<JsonMap>,
        out: &mut Vec<Event>,
    ) {
        let mut output = Vec::new();
        for m in &mut self.messages {
            if !m.done && status == RunStatus::Completed {
                m.done = true;
                out.push(Event::Message(completed_message(m)));
            }
            if m.done {
                output.push(completed_message(m));
            }
        }
        let mut r = self.response(status);
        r.error = error;
        r.usage = usage;
        r.output = (r.status == RunStatus::Completed).then_some(output);
        out.push(Event::Response(r));
        self.ended = true;
    }

    fn slot(&mut self, id: &str, message_type: &str, role: &str, out: &mut Vec<Event>) -> usize {
        if let Some(&i) = self.by_id.get(id) {
            return i;
        }
        let mut m = Message::with_id(id);
        m.message_type = MessageType::from_wire(if message_type.is_empty() {
            "message"
        } else {
            message_type
        });
        m.role = Role::from_wire(role).or(Some(Role::Assistant));
        m.status = RunStatus::InProgress;
        out.push(Event::Message(m.clone()));
        self.by_id.insert(id.to_owned(), self.messages.len());
        self.messages.push(Incoming {
            message: m,
            parts: Vec::new(),
            positions: HashMap::new(),
            done: false,
        });
        self.messages.len() - 1
    }

    fn artifact(&mut self, a: &JsonMap, append: bool, last: bool, out: &mut Vec<Event>) {
        let empty = JsonMap::new();
        let meta = a
            .get("metadata")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let id = str_field(a, "artifactId").to_owned();
        let message_type = match str_field(meta, "message_type") {
            "" => match str_field(a, "name") {
                n if MessageType::KNOWN.iter().any(|k| k.as_str() == n) => n,
                _ => "message",
            },
            t => t,
        };
        let role = match str_field(meta, "role") {
            "" => "assistant",
            r => r,
        };
        let i = self.slot(&id, message_type, role, out);
        let mut first = !append;
        for p in a
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
        {
            self.a2a_part(i, p, first, out);
            first = false;
        }
        if last {
            if let Some(m) = self.messages.get_mut(i) {
                if !m.done {
                    m.done = true;
                    out.push(Event::Message(completed_message(m)));
                }
            }
        }
    }

    /// One A2A part into message `i`: text appends (or replaces), anything else is whole.
    fn a2a_part(&mut self, i: usize, p: &JsonMap, first: bool, out: &mut Vec<Event>) {
        let Some(m) = self.messages.get_mut(i) else {
            return;
        };
        let empty = JsonMap::new();
        let meta = p
            .get("metadata")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let explicit = meta.get("index").and_then(Value::as_i64);
        let kind = str_field(p, "kind");
        let last_index = m.parts.last().and_then(|c| c.index);
        let last_is_text = m
            .parts
            .last()
            .is_some_and(|c| matches!(c.body, ContentBody::Text { .. }));
        let index = match explicit {
            Some(ix) => ix,
            None if kind == "text" && last_is_text && !first => last_index.unwrap_or(0),
            None => i64::try_from(m.parts.len()).unwrap_or(i64::MAX),
        };
        let body = match kind {
            "text" if str_field(meta, "type") == "refusal" => ContentBody::Refusal {
                refusal: Some(str_field(p, "text").to_owned()),
            },
            "text" => ContentBody::Text {
                text: Some(str_field(p, "text").to_owned()),
            },
            "data" => ContentBody::Data {
                data: p.get("data").and_then(Value::as_object).cloned(),
            },
            "file" => file_body(
                p.get("file").and_then(Value::as_object).unwrap_or(&empty),
                str_field(meta, "type"),
            ),
            _ => return,
        };
        let replace = meta.get("replace").and_then(Value::as_bool) == Some(true);
        let msg_id = m.message.id.clone();
        let existing = m
            .positions
            .get(&index)
            .copied()
            .and_then(|position| m.parts.get_mut(position));
        let is_text = matches!(body, ContentBody::Text { .. } | ContentBody::Refusal { .. });
        let mut c = Content::new(body).with_index(index).with_msg_id(msg_id);
        match existing {
            Some(old) if is_text && !replace => {
                if let (Some(stored), Some(piece)) = (text_mut(&mut old.body), c.as_text_any()) {
                    stored.push_str(&piece);
                }
                c.delta = Some(true);
                c.in_progress();
            }
            Some(old) => {
                old.body = c.body.clone();
                c.delta = Some(false);
                c.in_progress();
            }
            None => {
                c.delta = Some(is_text);
                c.in_progress();
                let mut stored = c.clone();
                stored.delta = None;
                m.positions.insert(index, m.parts.len());
                m.parts.push(stored);
            }
        }
        out.push(Event::Content(c));
    }

    fn whole_message(&mut self, msg: &JsonMap, out: &mut Vec<Event>) {
        let id = match str_field(msg, "messageId") {
            "" => format!("msg_{}", self.messages.len()),
            id => id.to_owned(),
        };
        let role = if str_field(msg, "role") == "user" {
            "user"
        } else {
            "assistant"
        };
        let i = self.slot(&id, "message", role, out);
        let mut first = true;
        for p in msg
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
        {
            self.a2a_part(i, p, first, out);
            first = false;
        }
        if let Some(m) = self.messages.get_mut(i) {
            m.done = true;
            out.push(Event::Message(completed_message(m)));
        }
    }
}

trait TextAny {
    fn as_text_any(&self) -> Option<String>;
}

impl TextAny for Content {
    fn as_text_any(&self) -> Option<String> {
        match &self.body {
            ContentBody::Text { text } | ContentBody::Refusal { refusal: text } => text.clone(),
            _ => None,
        }
    }
}

fn text_mut(body: &mut ContentBody) -> Option<&mut String> {
    match body {
        ContentBody::Text { text } | ContentBody::Refusal { refusal: text } => {
            Some(text.get_or_insert_with(String::new))
        }
        _ => None,
    }
}

fn text_of(m: &JsonMap) -> String {
    m.get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect()
}

fn completed_message(m: &Incoming) -> Message {
    let mut msg = m.message.clone();
    msg.status = RunStatus::Completed;
    let mut parts = m.parts.clone();
    for p in &mut parts {
        p.delta = Some(false);
        p.completed();
    }
    msg.content = (!parts.is_empty()).then_some(parts);
    msg
}

/// A `FilePart.file` as a content body: `metadata.type` (`image`, `audio`, `video`, `file`)
/// when given, else an image for an `image/*` MIME type, else a file.
fn file_body(f: &JsonMap, hint: &str) -> ContentBody {
    let mime = str_field(f, "mimeType");
    let uri = f.get("uri").and_then(Value::as_str).map(str::to_owned);
    let bytes = f.get("bytes").and_then(Value::as_str).map(str::to_owned);
    let name = f.get("name").and_then(Value::as_str).map(str::to_owned);
    let kind = match hint {
        "" if mime.starts_with("image/") => "image",
        "" => "file",
        h => h,
    };
    let url = uri
        .clone()
        .or_else(|| bytes.as_ref().map(|b| format!("data:{mime};base64,{b}")));
    match kind {
        "image" => ContentBody::Image { image_url: url },
        "video" => ContentBody::Video { video_url: url },
        "audio" => ContentBody::Audio {
            data: uri.or(bytes),
            format: mime.strip_prefix("audio/").map(str::to_owned),
        },
        _ => ContentBody::File {
            file_url: uri,
            file_id: None,
            filename: name,
            file_data: bytes,
        },
    }
}

/// Maps an A2A `message/send` or `message/stream` request (the JSON-RPC request, its `params`,
/// or a bare `Message`) to an [`AgentRequest`]: the message becomes the one input message (`id`
/// = `messageId`, role `user` or `assistant` for `agent`; text → `text`, data → `data`, a file
/// with an `image/*` MIME type → `image`, any other file → `file`), `contextId` becomes
/// `session_id` and `taskId` the request `id`. Unlike the reference (§7.2), which keeps only the
/// text of the user message, every part is kept.
///
/// # Example
///
/// ```
/// use agentwire::a2a::a2a_request;
///
/// let request = a2a_request(r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":
///     {"message":{"kind":"message","messageId":"m1","role":"user","contextId":"c1",
///                 "parts":[{"kind":"text","text":"Hi"}]}}}"#)?;
/// assert_eq!(request.session_id.as_deref(), Some("c1"));
/// assert_eq!(request.input[0].get_text_content(), Some("Hi"));
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// `INVALID_JSON` for text that is not a JSON object; `INVALID_REQUEST` when no message with a
/// `parts` list is found, or the result fails Agent API request validation.
pub fn a2a_request(json: &str) -> Result<AgentRequest> {
    let v: Value =
        crate::protocol::parse_repairing(json, |t| serde_json::from_str(t)).map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("The A2A request is not JSON: {e}."),
            )
        })?;
    let params = v.get("params").unwrap_or(&v);
    let msg = params
        .get("message")
        .unwrap_or(params)
        .as_object()
        .filter(|m| m.get("parts").is_some_and(Value::is_array))
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidRequest,
                "The A2A request holds no message with a `parts` list.",
            )
            .with_field("params.message")
        })?;
    let empty = JsonMap::new();
    let mut out = Vec::new();
    raw(&mut out, "{\"input\":[{\"type\":\"message\",\"role\":");
    raw(
        &mut out,
        if str_field(msg, "role") == "agent" {
            "\"assistant\""
        } else {
            "\"user\""
        },
    );
    raw(&mut out, ",\"content\":[");
    let mut first = true;
    for p in msg
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        let kind = str_field(p, "kind");
        if !matches!(kind, "text" | "data" | "file") {
            continue;
        }
        raw(&mut out, if first { "{" } else { ",{" });
        first = false;
        match kind {
            "text" => {
                raw(&mut out, "\"type\":\"text\",\"text\":");
                string(&mut out, str_field(p, "text"));
            }
            "data" => {
                raw(&mut out, "\"type\":\"data\",\"data\":");
                match p.get("data") {
                    Some(d) => value(&mut out, d),
                    None => raw(&mut out, "{}"),
                }
            }
            _ => {
                // As the Agent API content serialises, without nulls and stream fields.
                let f = p.get("file").and_then(Value::as_object).unwrap_or(&empty);
                match file_body(f, "") {
                    ContentBody::Image { image_url } => {
                        raw(&mut out, "\"type\":\"image\"");
                        opt_field(&mut out, "image_url", image_url.as_deref());
                    }
                    ContentBody::File {
                        file_url,
                        filename,
                        file_data,
                        ..
                    } => {
                        raw(&mut out, "\"type\":\"file\"");
                        opt_field(&mut out, "file_url", file_url.as_deref());
                        opt_field(&mut out, "filename", filename.as_deref());
                        opt_field(&mut out, "file_data", file_data.as_deref());
                    }
                    // `file_body` without a type hint gives an image or a file.
                    _ => {}
                }
            }
        }
        raw(&mut out, "}");
    }
    raw(&mut out, "]");
    let id = str_field(msg, "messageId");
    if !id.is_empty() {
        raw(&mut out, ",\"id\":");
        string(&mut out, id);
    }
    raw(&mut out, "}],\"stream\":true");
    for (from, to) in [("contextId", ",\"session_id\":"), ("taskId", ",\"id\":")] {
        if let Some(s) = msg.get(from).and_then(Value::as_str) {
            raw(&mut out, to);
            string(&mut out, s);
        }
    }
    raw(&mut out, "}");
    parse_request(std::str::from_utf8(&out).unwrap_or_default())
}

/// `,"key":"value"` when there is a value.
fn opt_field(out: &mut Vec<u8>, key: &str, v: Option<&str>) {
    if let Some(v) = v {
        raw(out, ",\"");
        raw(out, key);
        raw(out, "\":");
        string(out, v);
    }
}
