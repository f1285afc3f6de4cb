//! Agent API events → A2A 0.3 `message/stream` results ([`A2aEncoder`]).

use serde_json::Value;

use crate::codec::write::{
    bool, check_output_format, frame_end, frame_start, int, map, opt_string, raw, string, value,
};

use crate::codec::{Format, SSE_CONTENT_TYPE};
use crate::emit::track::{absorb, advance, parts_of, Advance, Body, Mode, PartTable, Step, Table};
use crate::emit::{BuilderEvent, Encoder};
use crate::protocol::{AgentResponse, ContentBody, JsonMap, Message, RunStatus};
use crate::Result;

#[derive(Debug)]
struct Artifact {
    message_type: String,
    role: String,
    /// Whether a chunk was sent (later chunks append).
    sent_any: bool,
    /// Per part index.
    parts: PartTable<PartState>,
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
/// top of `src/a2a/mod.rs`).
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
    artifacts: Table<Artifact>,
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
            artifacts: Table::default(),
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
            let done = self
                .artifacts
                .position(&m.id)
                .and_then(|a| self.artifacts.get(a));
            if !done.is_some_and(|a| a.done) {
                self.on_message(m, true, out)?;
            }
        }
        self.status(out, state, r, true);
        self.ended = true;
        Ok(())
    }

    /// The position of the artifact for `msg_id`, made when new.
    fn artifact(&mut self, msg_id: &str) -> usize {
        self.artifacts.at(msg_id, || Artifact {
            message_type: "message".into(),
            role: "assistant".into(),
            sent_any: false,
            parts: PartTable::default(),
            done: false,
        })
    }

    fn on_message(&mut self, m: &Message, completed: bool, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_task(out)?;
        let at = self.artifact(&m.id);
        let Some(a) = self.artifacts.get_mut(at) else {
            return Ok(());
        };
        m.message_type.as_str().clone_into(&mut a.message_type);
        if let Some(role) = m.role {
            role.as_str().clone_into(&mut a.role);
        }
        if !completed || a.done {
            return Ok(());
        }
        let mut parts = Parts::default();
        for (index, c) in parts_of(m) {
            a.part(index, Body::of(&c.body), Mode::Completed, &mut parts);
        }
        a.done = true;
        self.chunk(at, &m.id, &parts, true, out);
        Ok(())
    }

    fn chunk(&mut self, at: usize, msg_id: &str, parts: &Parts, last: bool, out: &mut Vec<u8>) {
        if parts.indices.is_empty() && !last {
            return;
        }
        let Some(a) = self.artifacts.get_mut(at) else {
            return;
        };
        for &i in &parts.indices {
            let (p, _) = a.parts.at(i);
            if let Some(part) = a.parts.get_mut(p) {
                part.announced = true;
            }
        }
        let append = a.sent_any;
        a.sent_any = true;
        let Some(a) = self.artifacts.get(at) else {
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
        body: Body<'_>,
        mode: Mode,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        self.ensure_task(out)?;
        let at = self.artifact(msg_id);
        let Some(a) = self.artifacts.get_mut(at) else {
            return Ok(());
        };
        if a.done {
            return Ok(());
        }
        let mut parts = Parts::default();
        a.part(index, body, mode, &mut parts);
        self.chunk(at, msg_id, &parts, false, out);
        Ok(())
    }
}

impl Artifact {
    /// Records a value of the part at `index` and collects the A2A parts to send for it: text
    /// as it extends what was sent (a replacement whole, marked `replace`), data and files once
    /// the part completes.
    fn part(&mut self, index: i64, body: Body<'_>, mode: Mode, parts: &mut Parts) {
        let (p, _) = self.parts.at(index);
        let Some(part) = self.parts.get_mut(p) else {
            return;
        };
        if part.done {
            return;
        }
        let completed = mode == Mode::Completed;
        part.done = completed;
        match body {
            Body::Text { text, refusal } => match advance(&mut part.text, text, mode) {
                Advance::Extended(start) => {
                    parts.text(part.text.get(start..).unwrap_or(""), index, refusal, false);
                }
                // A completed part never announced is sent, even empty.
                Advance::Unchanged if completed && !part.announced => {
                    parts.text("", index, refusal, false);
                }
                Advance::Unchanged => {}
                Advance::Replaced => {
                    parts.text(text, index, refusal, true);
                    text.clone_into(&mut part.text);
                }
            },
            Body::Data(data) if completed => {
                // Written from the event's value: no copy is kept once the part is done.
                part.data = JsonMap::new();
                let out = parts.open("data", index);
                raw(out, ",\"data\":");
                match data {
                    Some(d) => map(out, d),
                    None => raw(out, "{}"),
                }
                parts.close("", false);
            }
            Body::Data(data) => absorb(&mut part.data, data, mode),
            Body::Media(other) => {
                if completed {
                    file_part(other, index, parts);
                }
            }
        }
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
        match Step::of(event) {
            Some(Step::Response(r)) => self.on_response(r, out),
            Some(Step::Message { message, completed }) => self.on_message(message, completed, out),
            Some(Step::Content {
                msg_id,
                index,
                body,
                mode,
                ..
            }) => self.on_content(msg_id, index, body, mode, out),
            None => Ok(()),
        }
    }

    fn content_type(&self) -> &'static str {
        self.format.content_type().unwrap_or(SSE_CONTENT_TYPE)
    }
}
