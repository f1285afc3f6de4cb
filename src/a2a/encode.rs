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

use super::A2aVersion;

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
    version: A2aVersion,
    format: Format,
    rpc_id: Value,
    task_id: Option<String>,
    context_id: Option<String>,
    started: bool,
    ended: bool,
    /// The run is answered by one message when it completes ([`Encoder::answer_with_message`]).
    as_message: bool,
    artifacts: Table<Artifact>,
}

impl A2aEncoder {
    /// An SSE encoder answering the JSON-RPC request `rpc_id` (a string, a number or null).
    pub fn new(rpc_id: Value) -> Self {
        A2aEncoder {
            version: A2aVersion::V0_3,
            format: Format::Sse,
            rpc_id,
            task_id: None,
            context_id: None,
            started: false,
            ended: false,
            as_message: false,
            artifacts: Table::default(),
        }
    }

    /// The same encoder writing A2A `version` (0.3 by default).
    #[must_use]
    pub fn with_version(mut self, version: A2aVersion) -> Self {
        self.version = version;
        self
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

    /// Starts a result: the framing, `{"jsonrpc":"2.0","id":…,"result":`, the result's head
    /// (0.3: `{"kind":"<kind>"`; 1.0: `{"<member>":{` of the `StreamResponse`), and its task id
    /// (`id` for the task itself, else `taskId`) and `contextId`. `kind` is the 0.3 kind. The
    /// caller writes the other fields and calls [`A2aEncoder::end`].
    fn begin(&self, out: &mut Vec<u8>, kind: &str) {
        frame_start(out, self.format);
        raw(out, "{\"jsonrpc\":\"2.0\",\"id\":");
        value(out, &self.rpc_id);
        match self.version {
            A2aVersion::V0_3 => {
                raw(out, ",\"result\":{\"kind\":\"");
                raw(out, kind);
                raw(out, "\",");
            }
            A2aVersion::V1_0 => {
                raw(out, ",\"result\":{\"");
                raw(
                    out,
                    match kind {
                        "task" => "task",
                        "status-update" => "statusUpdate",
                        _ => "artifactUpdate",
                    },
                );
                raw(out, "\":{");
            }
        }
        let task = self.task_id.as_deref().unwrap_or("");
        raw(
            out,
            if kind == "task" {
                "\"id\":"
            } else {
                "\"taskId\":"
            },
        );
        string(out, task);
        raw(out, ",\"contextId\":");
        string(out, self.context_id.as_deref().unwrap_or(task));
    }

    fn end(&self, out: &mut Vec<u8>) {
        let close = match self.version {
            A2aVersion::V0_3 => "}}",
            A2aVersion::V1_0 => "}}}",
        };
        frame_end(out, self.format, close);
    }

    /// A task state as this version spells it (given in 0.3's spelling).
    fn state(&self, state: &'static str) -> &'static str {
        if self.version == A2aVersion::V0_3 {
            return state;
        }
        match state {
            "submitted" => "TASK_STATE_SUBMITTED",
            "working" => "TASK_STATE_WORKING",
            "completed" => "TASK_STATE_COMPLETED",
            "failed" => "TASK_STATE_FAILED",
            "canceled" => "TASK_STATE_CANCELED",
            "rejected" => "TASK_STATE_REJECTED",
            "input-required" => "TASK_STATE_INPUT_REQUIRED",
            "auth-required" => "TASK_STATE_AUTH_REQUIRED",
            _ => "TASK_STATE_UNSPECIFIED",
        }
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
        raw(out, ",\"status\":{\"state\":\"");
        raw(out, self.state("submitted"));
        raw(out, "\"}");
        self.end(out);
        Ok(())
    }

    fn status(&self, out: &mut Vec<u8>, state: &'static str, r: &AgentResponse, last: bool) {
        let v1 = self.version == A2aVersion::V1_0;
        self.begin(out, "status-update");
        raw(out, ",\"status\":{\"state\":\"");
        raw(out, self.state(state));
        raw(out, "\"");
        if let Some(e) = &r.error {
            let mut id = self.task_id.clone().unwrap_or_default();
            id.push_str("-error");
            self.agent_message(out, &id, false, &e.message);
            raw(out, ",\"metadata\":{\"code\":");
            string(out, &e.code);
            raw(out, "}}");
        } else if r.status == RunStatus::Incomplete {
            self.input_request(out, r);
        }
        raw(out, "}");
        // 1.0 has no `final`: the stream's end ends the task's updates.
        if !v1 {
            raw(out, ",\"final\":");
            bool(out, last);
        }
        raw(out, ",\"metadata\":{\"status\":");
        string(out, r.status.as_str());
        if let Some(u) = &r.usage {
            raw(out, ",\"usage\":");
            map(out, u);
        }
        raw(out, "}");
        self.end(out);
    }

    /// `,"message":{…` up to its one text part: an agent message `id` with `text`, in the
    /// task (`taskId`, `contextId`) when `in_task`; the caller adds `,"metadata":{…}}`.
    fn agent_message(&self, out: &mut Vec<u8>, id: &str, in_task: bool, text: &str) {
        let v1 = self.version == A2aVersion::V1_0;
        raw(
            out,
            if v1 {
                ",\"message\":{\"messageId\":"
            } else {
                ",\"message\":{\"kind\":\"message\",\"messageId\":"
            },
        );
        string(out, id);
        if let (true, Some(task), Some(context)) = (in_task, &self.task_id, &self.context_id) {
            raw(out, ",\"taskId\":");
            string(out, task);
            raw(out, ",\"contextId\":");
            string(out, context);
        }
        raw(
            out,
            if v1 {
                ",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":"
            } else {
                ",\"role\":\"agent\",\"parts\":[{\"kind\":\"text\",\"text\":"
            },
        );
        string(out, text);
        raw(out, "}]");
    }

    /// The status message of a paused run with interrupts: an agent message whose text is the
    /// interrupts' `message`s (one per line) and whose `metadata.interrupts` keeps them whole,
    /// id'd by the first interrupt (unique per pause, where the task id is not).
    fn input_request(&self, out: &mut Vec<u8>, r: &AgentResponse) {
        let interrupts: Vec<&JsonMap> = r.interrupts().collect();
        let Some(first) = interrupts.first() else {
            return;
        };
        let id = first.get("id").and_then(Value::as_str).unwrap_or_default();
        let text = interrupts
            .iter()
            .filter_map(|i| i.get("message").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        self.agent_message(out, id, true, &text);
        raw(out, ",\"metadata\":{\"interrupts\":[");
        for (n, i) in interrupts.iter().enumerate() {
            if n > 0 {
                raw(out, ",");
            }
            map(out, i);
        }
        raw(out, "]}}");
    }

    fn on_response(&mut self, r: &AgentResponse, out: &mut Vec<u8>) -> Result<()> {
        if self.task_id.is_none() {
            self.task_id.clone_from(&r.id);
        }
        if self.context_id.is_none() {
            self.context_id.clone_from(&r.session_id);
        }
        if self.as_message && !self.started {
            match r.status {
                RunStatus::Completed => {
                    self.message_answer(r, out);
                    self.ended = true;
                    return Ok(());
                }
                // A run that fails, is canceled or pauses answers with a task after all.
                RunStatus::Failed
                | RunStatus::Canceled
                | RunStatus::Rejected
                | RunStatus::Incomplete => {}
                _ => return Ok(()),
            }
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

    /// The answer of a completed run asked for as one message: every part of its output's
    /// messages, in order, in one agent message (`messageId` its first message's id, in the
    /// request's context).
    fn message_answer(&self, r: &AgentResponse, out: &mut Vec<u8>) {
        let v1 = self.version == A2aVersion::V1_0;
        frame_start(out, self.format);
        raw(out, "{\"jsonrpc\":\"2.0\",\"id\":");
        value(out, &self.rpc_id);
        raw(
            out,
            if v1 {
                ",\"result\":{\"message\":{\"messageId\":"
            } else {
                ",\"result\":{\"kind\":\"message\",\"messageId\":"
            },
        );
        let output = r.output.iter().flatten();
        let first = output.clone().next().map(|m| m.id.as_str());
        string(out, first.or(r.id.as_deref()).unwrap_or_default());
        if let Some(context) = &self.context_id {
            raw(out, ",\"contextId\":");
            string(out, context);
        }
        raw(
            out,
            if v1 {
                ",\"role\":\"ROLE_AGENT\",\"parts\":["
            } else {
                ",\"role\":\"agent\",\"parts\":["
            },
        );
        let mut parts = Parts::new(self.version);
        for m in output {
            let mut a = Artifact {
                message_type: String::new(),
                role: String::new(),
                sent_any: false,
                parts: PartTable::default(),
                done: false,
            };
            for (index, c) in parts_of(m) {
                a.part(index, Body::of(&c.body), Mode::Completed, &mut parts);
            }
        }
        out.extend_from_slice(&parts.buf);
        raw(out, "]");
        frame_end(out, self.format, if v1 { "}}}" } else { "}}" });
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
        // Answered by one message: written whole from the run's end.
        if self.as_message && !self.started {
            return Ok(());
        }
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
        let mut parts = Parts::new(self.version);
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
        // 1.0 leaves out an empty list, as its serializers do.
        if self.version == A2aVersion::V0_3 || !parts.buf.is_empty() {
            raw(out, ",\"parts\":[");
            out.extend_from_slice(&parts.buf);
            raw(out, "]");
        }
        // 1.0's JSON is lowerCamelCase; 0.3 keeps the key it always had.
        raw(
            out,
            if self.version == A2aVersion::V0_3 {
                ",\"metadata\":{\"message_type\":"
            } else {
                ",\"metadata\":{\"messageType\":"
            },
        );
        string(out, &a.message_type);
        raw(out, ",\"role\":");
        string(out, &a.role);
        raw(out, "}}");
        // 1.0 leaves out fields at their default value (`false`).
        if self.version == A2aVersion::V0_3 || append {
            raw(out, ",\"append\":");
            bool(out, append);
        }
        if self.version == A2aVersion::V0_3 || last {
            raw(out, ",\"lastChunk\":");
            bool(out, last);
        }
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
        if self.as_message && !self.started {
            return Ok(());
        }
        self.ensure_task(out)?;
        let at = self.artifact(msg_id);
        let Some(a) = self.artifacts.get_mut(at) else {
            return Ok(());
        };
        if a.done {
            return Ok(());
        }
        let mut parts = Parts::new(self.version);
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
                parts.data(data, index);
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
    v1: bool,
    buf: Vec<u8>,
    indices: Vec<i64>,
}

impl Parts {
    /// Parts of the encoding of `version`.
    fn new(version: A2aVersion) -> Self {
        Parts {
            v1: version == A2aVersion::V1_0,
            ..Parts::default()
        }
    }

    /// Starts a part: `{"kind":"<kind>",` (0.3) or `{` (1.0: the content field says the kind);
    /// the caller writes its fields, then [`Parts::close`].
    fn open(&mut self, kind: &str, index: i64) -> &mut Vec<u8> {
        if !self.indices.is_empty() {
            raw(&mut self.buf, ",");
        }
        self.indices.push(index);
        if self.v1 {
            raw(&mut self.buf, "{");
        } else {
            raw(&mut self.buf, "{\"kind\":\"");
            raw(&mut self.buf, kind);
            raw(&mut self.buf, "\",");
        }
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
        raw(out, "\"text\":");
        string(out, text);
        self.close(if refusal { "refusal" } else { "" }, replace);
    }

    fn data(&mut self, data: Option<&JsonMap>, index: i64) {
        let out = self.open("data", index);
        raw(out, "\"data\":");
        match data {
            Some(d) => map(out, d),
            None => raw(out, "{}"),
        }
        self.close("", false);
    }

    /// A file part: 0.3 `{"kind":"file","file":{"uri"|"bytes":…,"name":…,"mimeType":…}}`, 1.0
    /// `{"url"|"raw":…,"filename"?,"mediaType"}` (an absent name left out; the media type the
    /// given one, a `data:` URI's, the name's or the URL's extension's, else
    /// `application/octet-stream`; bytes given as a `data:` URI written as their base64).
    fn file(
        &mut self,
        content: (&str, &str),
        name: Option<&str>,
        mime: Option<&str>,
        ty: &str,
        index: i64,
    ) {
        let (key, value) = content;
        let v1 = self.v1;
        let out = self.open("file", index);
        if v1 {
            // Inline bytes given as a `data:` URI travel as their base64, with its media type.
            let inline = if key == "bytes" {
                data_uri(value)
            } else {
                None
            };
            let url = key == "uri";
            let value = inline.map_or(value, |(_, data)| data);
            let media = [
                mime,
                inline.map(|(media, _)| media),
                data_uri(value).filter(|_| url).map(|(media, _)| media),
                name.and_then(media_type_of),
                media_type_of(value).filter(|_| url),
            ]
            .into_iter()
            .flatten()
            .find(|m| !m.is_empty())
            .unwrap_or("application/octet-stream");
            raw(out, "\"");
            raw(out, if key == "uri" { "url" } else { "raw" });
            raw(out, "\":");
            string(out, value);
            if let Some(name) = name {
                raw(out, ",\"filename\":");
                string(out, name);
            }
            raw(out, ",\"mediaType\":");
            string(out, media);
        } else {
            raw(out, "\"file\":{\"");
            raw(out, key);
            raw(out, "\":");
            string(out, value);
            raw(out, ",\"name\":");
            opt_string(out, name);
            if key == "uri" {
                raw(out, ",\"mimeType\":");
                match mime {
                    Some(m) => string(out, m),
                    None => raw(out, "null"),
                }
            }
            raw(out, "}");
        }
        self.close(ty, false);
    }
}

/// A base64 `data:` URI's media type and data (`None` for anything else).
fn data_uri(value: &str) -> Option<(&str, &str)> {
    let (head, data) = value.strip_prefix("data:")?.split_once(',')?;
    Some((head.strip_suffix(";base64")?, data))
}

/// The media type a file name's (or a URL's) extension names, for the common ones.
fn media_type_of(name: &str) -> Option<&'static str> {
    let path = name.split(['?', '#']).next().unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or_default();
    let (_, ext) = file.rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "txt" | "text" | "log" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "xml" => "application/xml",
        "yaml" | "yml" => "application/yaml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        _ => return None,
    })
}

fn file_part(body: &ContentBody, index: i64, parts: &mut Parts) {
    match body {
        ContentBody::Image { image_url: Some(u) } => {
            parts.file(("uri", u), None, None, "image", index)
        }
        ContentBody::Video { video_url: Some(u) } => {
            parts.file(("uri", u), None, None, "video", index)
        }
        ContentBody::Audio {
            data: Some(d),
            format,
        } => {
            let mime = format.as_deref().map(|f| format!("audio/{f}"));
            parts.file(("uri", d), None, mime.as_deref(), "audio", index);
        }
        ContentBody::File {
            file_url: Some(u),
            filename,
            ..
        } => {
            parts.file(("uri", u), filename.as_deref(), None, "file", index);
        }
        ContentBody::File {
            file_url: None,
            file_data: Some(d),
            filename,
            ..
        } => {
            parts.file(("bytes", d), filename.as_deref(), None, "file", index);
        }
        _ => {}
    }
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

    fn answer_with_message(&mut self) -> bool {
        if self.started || self.ended {
            return false;
        }
        self.as_message = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{BuilderOptions, CompleteOptions, ResponseBuilder};
    use crate::protocol::ContentType;

    fn run(version: A2aVersion) -> Vec<serde_json::Value> {
        let options = BuilderOptions::new()
            .response_id("task_1")
            .session_id("ctx_1");
        let enc = A2aEncoder::new(1.into()).with_version(version);
        let mut rb = ResponseBuilder::with_encoder(options, Box::new(enc)).unwrap();
        let m = rb.message(Default::default()).unwrap();
        let c = rb.content(m, ContentType::Text).unwrap();
        let mut out = rb.delta_text(c, "Hi").unwrap();
        out.extend(rb.complete_content(c).unwrap());
        out.extend(rb.complete_message(m).unwrap());
        out.extend(rb.completed(CompleteOptions::new()).unwrap());
        String::from_utf8(out)
            .unwrap()
            .split("\n\n")
            .filter_map(|f| f.strip_prefix("data: "))
            .map(|j| serde_json::from_str(j).unwrap())
            .collect()
    }

    /// The events of a run asked to answer with a message (before its first event), which
    /// says "Hi" and then ends `completed` (or `failed`).
    fn message_run(version: A2aVersion, fail: bool) -> Vec<serde_json::Value> {
        let options = BuilderOptions::new()
            .response_id("task_1")
            .session_id("ctx_1");
        let enc = A2aEncoder::new(7.into()).with_version(version);
        let mut rb = ResponseBuilder::with_encoder(options, Box::new(enc)).unwrap();
        rb.answer_with_message().unwrap();
        let m = rb.message(Default::default()).unwrap();
        let c = rb.content(m, ContentType::Text).unwrap();
        let mut out = rb.delta_text(c, "Hi").unwrap();
        out.extend(rb.complete_content(c).unwrap());
        out.extend(rb.complete_message(m).unwrap());
        if fail {
            out.extend(
                rb.failed(crate::protocol::ErrorInfo::new("MODEL_DOWN", "down"))
                    .unwrap(),
            );
        } else {
            out.extend(rb.completed(CompleteOptions::new()).unwrap());
        }
        assert!(
            rb.answer_with_message().is_err(),
            "too late once the run started"
        );
        String::from_utf8(out)
            .unwrap()
            .split("\n\n")
            .filter_map(|f| f.strip_prefix("data: "))
            .map(|j| serde_json::from_str(j).unwrap())
            .collect()
    }

    #[test]
    fn a_run_answered_with_a_message_is_one_message_event_in_either_version() {
        let events = message_run(A2aVersion::V1_0, false);
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0]["id"], 7);
        let m = &events[0]["result"]["message"];
        assert_eq!(m["role"], "ROLE_AGENT");
        assert_eq!(m["contextId"], "ctx_1");
        assert_eq!(m["parts"][0]["text"], "Hi");
        assert!(m["messageId"].as_str().is_some_and(|id| !id.is_empty()));
        let events = message_run(A2aVersion::V0_3, false);
        assert_eq!(events.len(), 1, "{events:?}");
        let m = &events[0]["result"];
        assert_eq!(
            (m["kind"].as_str(), m["role"].as_str()),
            (Some("message"), Some("agent"))
        );
        assert_eq!(m["parts"][0]["kind"], "text");
        assert_eq!(m["parts"][0]["text"], "Hi");
    }

    #[test]
    fn a_failed_run_asked_to_answer_with_a_message_answers_with_a_task() {
        let events = message_run(A2aVersion::V1_0, true);
        assert_eq!(
            events[0]["result"]["task"]["status"]["state"],
            "TASK_STATE_SUBMITTED"
        );
        let text = events
            .iter()
            .find_map(|e| e["result"]["artifactUpdate"]["artifact"]["parts"][0]["text"].as_str());
        assert_eq!(text, Some("Hi"));
        assert_eq!(
            events.last().unwrap()["result"]["statusUpdate"]["status"]["state"],
            "TASK_STATE_FAILED"
        );
    }

    #[test]
    fn a2a_1_0_results_are_stream_responses_without_kind_or_final() {
        let events = run(A2aVersion::V1_0);
        let results: Vec<_> = events.iter().map(|e| &e["result"]).collect();
        assert_eq!(
            results[0]["task"]["status"]["state"],
            "TASK_STATE_SUBMITTED"
        );
        assert_eq!(results[0]["task"]["contextId"], "ctx_1");
        let text = results
            .iter()
            .find_map(|r| r["artifactUpdate"]["artifact"]["parts"][0]["text"].as_str());
        assert_eq!(text, Some("Hi"));
        let last = results.last().unwrap();
        assert_eq!(
            last["statusUpdate"]["status"]["state"],
            "TASK_STATE_COMPLETED"
        );
        for r in &results {
            let json = r.to_string();
            assert!(
                !json.contains("\"kind\"") && !json.contains("\"final\""),
                "{json}"
            );
            // Fields at their default value are left out.
            assert!(!json.contains("\"append\":false") && !json.contains("\"lastChunk\":false"));
        }
    }

    /// The artifact updates of a run of one message with a file part set to each of `files`.
    fn file_artifacts(version: A2aVersion, files: &[serde_json::Value]) -> Vec<serde_json::Value> {
        let options = BuilderOptions::new().response_id("task_1");
        let enc = A2aEncoder::new(1.into()).with_version(version);
        let mut rb = ResponseBuilder::with_encoder(options, Box::new(enc)).unwrap();
        let m = rb.message(Default::default()).unwrap();
        let mut out = Vec::new();
        for f in files {
            let c = rb.content(m, ContentType::File).unwrap();
            let fields = f.as_object().unwrap().clone();
            out.extend(rb.set(c, fields.into()).unwrap());
            out.extend(rb.complete_content(c).unwrap());
        }
        out.extend(rb.complete_message(m).unwrap());
        String::from_utf8(out)
            .unwrap()
            .split("\n\n")
            .filter_map(|f| f.strip_prefix("data: "))
            .map(|j| serde_json::from_str::<serde_json::Value>(j).unwrap())
            .filter_map(|e| {
                let r = &e["result"];
                let a = if version == A2aVersion::V1_0 {
                    &r["artifactUpdate"]
                } else {
                    r
                };
                a.get("artifact").cloned()
            })
            .collect()
    }

    #[test]
    fn a2a_1_0_file_parts_name_their_media_type_and_metadata_is_lower_camel_case() {
        use serde_json::json;
        let files = [
            json!({"file_data": "data:text/plain;base64,dGNr", "filename": "a.bin"}),
            json!({"file_url": "https://example.com/output.txt", "filename": "output.txt"}),
            json!({"file_data": "dGNr", "filename": "report.PDF"}),
            json!({"file_url": "https://example.com/x/photo.png?size=2"}),
            json!({"file_data": "dGNr", "filename": "blob"}),
        ];
        let artifacts = file_artifacts(A2aVersion::V1_0, &files);
        let parts: Vec<_> = artifacts
            .iter()
            .flat_map(|a| a["parts"].as_array().cloned().unwrap_or_default())
            .collect();
        let media: Vec<_> = parts
            .iter()
            .map(|p| p["mediaType"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            media,
            [
                "text/plain",
                "text/plain",
                "application/pdf",
                "image/png",
                "application/octet-stream"
            ]
        );
        assert_eq!(
            parts[0]["raw"], "dGNr",
            "a data: URI's bytes are its base64"
        );
        assert_eq!(parts[1]["url"], "https://example.com/output.txt");
        for a in &artifacts {
            assert_eq!(a["metadata"]["messageType"], "message");
            assert!(a["metadata"].get("message_type").is_none(), "{a}");
        }
        // 0.3 as it was.
        let artifacts = file_artifacts(A2aVersion::V0_3, &files);
        assert_eq!(artifacts[0]["metadata"]["message_type"], "message");
        let part = &artifacts[0]["parts"][0]["file"];
        assert_eq!(part["bytes"], "data:text/plain;base64,dGNr");
        assert!(part.get("mimeType").is_none());
    }

    #[test]
    fn a2a_0_3_keeps_its_shape() {
        let events = run(A2aVersion::V0_3);
        assert_eq!(events[0]["result"]["kind"], "task");
        assert_eq!(events[0]["result"]["status"]["state"], "submitted");
        let last = &events.last().unwrap()["result"];
        assert_eq!(last["kind"], "status-update");
        assert_eq!(last["final"], true);
    }
}
