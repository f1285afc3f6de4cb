//! A2A 0.3 `message/stream` results → Agent API events ([`A2aDecoder`]).

use std::collections::HashMap;

use serde_json::Value;

use crate::protocol::json::str_field;
use crate::protocol::{
    AgentResponse, Content, ContentBody, ErrorInfo, Event, JsonMap, Message, MessageType, Role,
    RunStatus,
};
use crate::Result;
use crate::{Warning, WarningCode};

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
/// Agent API events they mean (mapping documented at the top of `src/a2a/mod.rs`).
#[derive(Debug, Default)]
pub struct A2aDecoder {
    started: bool,
    ended: bool,
    /// The usage of an input- or auth-required status not marked `final`, while it is the
    /// last event read: the run is interrupted if the stream ends there.
    interrupted: Option<Option<JsonMap>>,
    /// What the pause of an input- or auth-required status waits on (the response's
    /// `interrupts`): its message's `metadata.interrupts`, or one interrupt made of it.
    interrupts: Option<Value>,
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

    /// Ends the stream: a run whose last event was an input- or auth-required status without
    /// `final: true` (as `a2a-sdk` writes it in 0.3 before closing the stream) ends
    /// `incomplete`, as the same status does in 1.0; otherwise nothing.
    pub fn finish(&mut self, out: &mut Vec<Event>) {
        if let Some(usage) = self.interrupted.take().filter(|_| !self.ended) {
            self.finish_run(RunStatus::Incomplete, None, usage, out);
        }
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
        self.interrupted = None;
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
        // A2A 1.0: a `StreamResponse`, read as its 0.3 form.
        let converted = super::compat::v0_3_result(result);
        let result = converted.as_ref().unwrap_or(result);
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
                // The artifacts of a task still going (a resubscription's first event) stay
                // open: the updates that follow append to them.
                let state = result
                    .get("status")
                    .and_then(Value::as_object)
                    .map_or("", |s| str_field(s, "state"));
                let settled = matches!(state, "completed" | "canceled" | "failed" | "rejected");
                if let Some(arts) = result.get("artifacts").and_then(Value::as_array) {
                    for a in arts.iter().filter_map(Value::as_object) {
                        self.artifact(a, false, settled, out);
                    }
                }
                // A task already settled (a whole run in one event, a task fold's answer) ends
                // the run as its final status would; one waiting for input interrupts it if
                // the stream ends there.
                if settled || matches!(state, "input-required" | "auth-required") {
                    self.status_update(&task_status(result, settled), out);
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
        if run == RunStatus::Incomplete {
            self.interrupts = Some(interrupts_of(state, message));
        }
        let usage = meta.get("usage").and_then(Value::as_object).cloned();
        if !last {
            if let Some(m) = message {
                self.whole_message(m, out);
            }
            if run == RunStatus::Incomplete {
                self.interrupted = Some(usage);
            } else if run == RunStatus::InProgress {
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
        if r.status == RunStatus::Incomplete {
            if let Some(list) = self.interrupts.take() {
                r.extra.insert("interrupts".to_owned(), list);
            }
        }
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
        // 1.0 writes `messageType`, 0.3 `message_type`; either is read.
        let message_type = match (
            str_field(meta, "messageType"),
            str_field(meta, "message_type"),
        ) {
            ("", "") => match str_field(a, "name") {
                n if MessageType::KNOWN.iter().any(|k| k.as_str() == n) => n,
                _ => "message",
            },
            ("", t) | (t, _) => t,
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

/// The status update a whole task stands for: its `status` and `metadata` (which, for a task
/// folded from a stream, hold the last update's: the Agent API status and usage), `final` when
/// the task has ended.
fn task_status(task: &JsonMap, last: bool) -> JsonMap {
    let mut update = JsonMap::new();
    for key in ["status", "metadata"] {
        if let Some(v) = task.get(key) {
            update.insert(key.to_owned(), v.clone());
        }
    }
    update.insert("final".to_owned(), Value::Bool(last));
    update
}

/// The interrupts of a paused task: those its status message carries (`metadata.interrupts`,
/// as agentwire writes them), or one made of the message (`id` its `messageId`, `message` its
/// text), `reason` `input_required` (`auth_required` for an auth-required state).
fn interrupts_of(state: &str, message: Option<&JsonMap>) -> Value {
    // agentwire's: those with a non-empty string id and a string reason.
    let carried: Vec<Value> = message
        .and_then(|m| m.get("metadata"))
        .and_then(|md| md.get("interrupts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|i| {
            i.get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| !id.is_empty())
                && i.get("reason").is_some_and(Value::is_string)
        })
        .cloned()
        .collect();
    if !carried.is_empty() {
        return Value::Array(carried);
    }
    let mut interrupt = JsonMap::new();
    let id = message.map_or("", |m| str_field(m, "messageId"));
    interrupt.insert(
        "id".to_owned(),
        Value::String(if id.is_empty() {
            "input".to_owned()
        } else {
            id.to_owned()
        }),
    );
    let reason = if state.contains("auth") {
        "auth_required"
    } else {
        "input_required"
    };
    interrupt.insert("reason".to_owned(), Value::String(reason.to_owned()));
    if let Some(m) = message {
        let text = text_of(m);
        if !text.is_empty() {
            interrupt.insert("message".to_owned(), Value::String(text));
        }
    }
    Value::Array(vec![Value::Object(interrupt)])
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
pub(super) fn file_body(f: &JsonMap, hint: &str) -> ContentBody {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn statuses(payloads: &[&str], finish: bool) -> Vec<RunStatus> {
        let mut d = A2aDecoder::new();
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        for p in payloads {
            d.decode(p, &mut out, &mut warnings).unwrap();
        }
        if finish {
            d.finish(&mut out);
        }
        out.into_iter()
            .filter_map(|e| match e {
                Event::Response(r) => Some(r.status),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_0_3_stream_ending_at_a_non_final_input_required_status_is_incomplete() {
        let task = r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}"#;
        let input = r#"{"kind":"status-update","taskId":"t","contextId":"c","final":false,"status":{"state":"input-required"}}"#;
        let working = r#"{"kind":"status-update","taskId":"t","contextId":"c","final":false,"status":{"state":"working"}}"#;
        assert_eq!(
            statuses(&[task, input], true),
            [RunStatus::Created, RunStatus::Incomplete]
        );
        // Not at the end of the stream: the run goes on.
        assert_eq!(
            statuses(&[task, input, working], true),
            [RunStatus::Created, RunStatus::InProgress]
        );
        assert_eq!(statuses(&[task, input], false), [RunStatus::Created]);
    }
}
