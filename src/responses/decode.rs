//! OpenAI Responses streaming events → Agent API events: [`ResponsesDecoder`], the first stage
//! of [`Translator`](super::Translator) and what the assembler folds for
//! `protocol: "openai-responses"`.
//!
//! | Responses                                        | Agent API                                   |
//! |--------------------------------------------------|---------------------------------------------|
//! | `response.created` / `response.queued`           | response `created`                          |
//! | `response.in_progress`                           | response `in_progress`                      |
//! | `response.completed` / `failed` / `incomplete`   | items of `response.output` not done yet complete, then the response `completed` / `failed` / `incomplete` (`canceled` for status `cancelled`), `output` = every item |
//! | `error`                                          | response `failed` (`code` or `server_error`) |
//! | `output_item.added` / `.done`                    | message `in_progress` / `completed` (`message`, `reasoning`, `function_call`, `function_call_output`, `mcp_call`; any other item type becomes a message of that type with the item as a data part) |
//! | `mcp_approval_request` items in the final `output` of an `incomplete` response | `interrupts`, what the pause waits on (`approvals.rs`) |
//! | `output_text.*`, `refusal.*`                     | `text` / `refusal` part deltas and completed values |
//! | `reasoning_text.*`, `reasoning_summary_text.*`   | `text` parts of the `reasoning` message, numbered in order of first sight (summary and content parts share the numbering) |
//! | `function_call_arguments.*`, `mcp_call_arguments.*` | data part 0: `{call_id, name, arguments}` snapshot, then `{arguments}` deltas, then the completed value |
//! | hosted-tool progress, annotations, audio, `keepalive` | nothing                                |
//! | any other type                                   | skipped with `UNKNOWN_EVENT`                |

use std::collections::HashMap;

use serde_json::Value;

use crate::protocol::json::str_field;
use crate::protocol::{
    AgentResponse, Content, ContentBody, ErrorInfo, Event, JsonMap, Message, MessageType, Role,
    RunStatus,
};
use crate::sequence::{Seen, SeenNumbers};
use crate::Result;
use crate::{Warning, WarningCode};

/// Part kinds sharing one Agent API part numbering inside an item.
const CONTENT: u8 = 0;
const SUMMARY: u8 = 1;

#[derive(Debug)]
struct Item {
    id: String,
    message_type: MessageType,
    /// Agent API part index = position; value = (kind, Responses index).
    parts: Vec<(u8, i64)>,
    call_id: String,
    name: String,
    done: bool,
}

/// Reads OpenAI Responses streaming events (one JSON payload at a time) and yields the Agent API
/// events they mean. Tolerant: an unknown event type, an event for an item never added, a
/// replayed `sequence_number` or an event after the terminal one is reported as a [`Warning`]
/// and the stream goes on.
///
/// # Example
///
/// ```
/// use agentwire::responses::ResponsesDecoder;
/// use agentwire::protocol::Event;
///
/// let mut dec = ResponsesDecoder::new();
/// let (mut events, mut warnings) = (Vec::new(), Vec::new());
/// for payload in [
///     r#"{"type":"response.created","sequence_number":0,"response":{"id":"r1","created_at":1,"output":[]}}"#,
///     r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"m1","type":"message","role":"assistant","status":"in_progress","content":[]}}"#,
///     r#"{"type":"response.output_text.delta","sequence_number":2,"item_id":"m1","output_index":0,"content_index":0,"delta":"Hi"}"#,
/// ] {
///     dec.decode(payload, &mut events, &mut warnings)?;
/// }
/// assert!(matches!(&events[2], Event::Content(c) if c.as_text() == Some("Hi")));
/// assert!(warnings.is_empty());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ResponsesDecoder {
    items: Vec<Item>,
    /// Items by id: what names an item (servers get `output_index` wrong; the reference sends a
    /// reasoning item's `output_item.done` with the next item's index).
    by_id: HashMap<String, usize>,
    /// The last item added at each `output_index`, for events that name no item id.
    by_index: HashMap<i64, usize>,
    /// The `sequence_number`s seen, to tell replays from new events.
    seen: SeenNumbers,
    ended: bool,
    response_id: Option<String>,
    created_at: i64,
    session_id: Option<String>,
}

fn warn(warnings: &mut Vec<Warning>, code: WarningCode, message: String) {
    warnings.push(Warning::new(code, message));
}

fn int(map: &JsonMap, key: &str) -> Option<i64> {
    map.get(key).and_then(Value::as_i64)
}

/// Event types that carry nothing the Agent API represents.
fn ignored(ty: &str) -> bool {
    ty == "keepalive"
        || ty.contains("_call.")
        || ty.starts_with("response.audio")
        || ty.starts_with("response.mcp_list_tools")
        || ty.starts_with("response.custom_tool_call_input")
        || ty.starts_with("response.code_interpreter_call_code")
        || matches!(
            ty,
            "response.content_part.done"
                | "response.reasoning_summary_part.done"
                | "response.output_text.annotation.added"
        )
}

impl ResponsesDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the terminal event was read.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Decodes one event payload, appending its Agent API events to `out` and any tolerated
    /// problem to `warnings`.
    ///
    /// # Errors
    ///
    /// None today (a payload that is not a JSON object is a `INVALID_EVENT` warning); the
    /// `Result` leaves room for strict checks.
    pub fn decode(
        &mut self,
        payload: &str,
        out: &mut Vec<Event>,
        warnings: &mut Vec<Warning>,
    ) -> Result<()> {
        match crate::protocol::parse_repairing(payload, |t| serde_json::from_str::<Value>(t)) {
            Ok(Value::Object(map)) => self.decode_map(&map, out, warnings),
            _ => {
                warn(
                    warnings,
                    WarningCode::InvalidEvent,
                    "An event that is not a JSON object was skipped.".into(),
                );
                Ok(())
            }
        }
    }

    /// As [`ResponsesDecoder::decode`], for an already parsed event.
    ///
    /// # Errors
    ///
    /// As [`ResponsesDecoder::decode`].
    pub fn decode_map(
        &mut self,
        ev: &JsonMap,
        out: &mut Vec<Event>,
        warnings: &mut Vec<Warning>,
    ) -> Result<()> {
        let ty = str_field(ev, "type");
        if let Some(seq) = int(ev, "sequence_number") {
            if self.seen.accept(seq) == Seen::Replay {
                warn(
                    warnings,
                    WarningCode::DuplicateEvent,
                    format!(
                        "Event {seq} ({ty}) was ignored: its sequence number was already seen."
                    ),
                );
                return Ok(());
            }
        }
        if self.ended {
            warn(
                warnings,
                WarningCode::EventAfterEnd,
                format!("A {ty} event after the terminal event was ignored."),
            );
            return Ok(());
        }
        let empty = JsonMap::new();
        let response = ev
            .get("response")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        match ty {
            "response.created" | "response.queued" => {
                self.head(response);
                out.push(Event::Response(self.response(RunStatus::Created)));
            }
            "response.in_progress" => {
                self.head(response);
                out.push(Event::Response(self.response(RunStatus::InProgress)));
            }
            "response.completed" | "response.failed" | "response.incomplete" => {
                self.head(response);
                let status = match (ty, str_field(response, "status")) {
                    ("response.completed", _) => RunStatus::Completed,
                    ("response.failed", _) => RunStatus::Failed,
                    (_, "cancelled") => RunStatus::Canceled,
                    _ => RunStatus::Incomplete,
                };
                self.terminal(response, status, out);
            }
            "error" => {
                let code = match str_field(ev, "code") {
                    "" => "server_error",
                    c => c,
                };
                let mut r = self.response(RunStatus::Failed);
                r.error = Some(ErrorInfo::new(code, str_field(ev, "message")));
                out.push(Event::Response(r));
                self.ended = true;
            }
            "response.output_item.added" | "response.output_item.done" => {
                let Some(item) = ev.get("item").and_then(Value::as_object) else {
                    warn(
                        warnings,
                        WarningCode::InvalidEvent,
                        format!("A {ty} event without an item was skipped."),
                    );
                    return Ok(());
                };
                let oi = int(ev, "output_index").unwrap_or(self.items.len() as i64);
                if ty.ends_with("added") {
                    self.item_added(oi, item, out);
                } else {
                    let i = self.slot(oi, item);
                    self.item_done(i, item, out);
                }
            }
            "response.content_part.added" => {
                let i = self.find(ev, CONTENT, out, warnings);
                self.part(i, CONTENT, int(ev, "content_index").unwrap_or(0));
            }
            "response.reasoning_summary_part.added" => {
                let i = self.find(ev, SUMMARY, out, warnings);
                self.part(i, SUMMARY, int(ev, "summary_index").unwrap_or(0));
            }
            "response.output_text.delta"
            | "response.refusal.delta"
            | "response.reasoning_text.delta"
            | "response.reasoning_summary_text.delta"
            | "response.output_text.done"
            | "response.refusal.done"
            | "response.reasoning_text.done"
            | "response.reasoning_summary_text.done" => {
                let (kind, key) = if ty.contains("summary") {
                    (SUMMARY, "summary_index")
                } else {
                    (CONTENT, "content_index")
                };
                let i = self.find(ev, kind, out, warnings);
                let index = self.part(i, kind, int(ev, key).unwrap_or(0));
                let delta = ty.ends_with("delta");
                let value = if delta {
                    str_field(ev, "delta")
                } else if ty == "response.refusal.done" {
                    str_field(ev, "refusal")
                } else {
                    str_field(ev, "text")
                };
                let body = if ty.starts_with("response.refusal") {
                    ContentBody::Refusal {
                        refusal: Some(value.to_owned()),
                    }
                } else {
                    ContentBody::Text {
                        text: Some(value.to_owned()),
                    }
                };
                if let Some(item) = self.items.get(i) {
                    out.push(Event::Content(Content::decoded(
                        &item.id, index, body, delta,
                    )));
                }
            }
            "response.function_call_arguments.delta"
            | "response.mcp_call_arguments.delta"
            | "response.function_call_arguments.done"
            | "response.mcp_call_arguments.done" => {
                let i = self.find(ev, CONTENT, out, warnings);
                let Some(item) = self.items.get(i) else {
                    return Ok(());
                };
                let delta = ty.ends_with("delta");
                let data = if delta {
                    str_map(&[("arguments", str_field(ev, "delta"))])
                } else {
                    str_map(&[
                        ("call_id", &item.call_id),
                        ("name", &item.name),
                        ("arguments", str_field(ev, "arguments")),
                    ])
                };
                let body = ContentBody::Data { data: Some(data) };
                out.push(Event::Content(Content::decoded(&item.id, 0, body, delta)));
            }
            t if ignored(t) => {}
            other => warn(
                warnings,
                WarningCode::UnknownEvent,
                format!("An event of unknown type \"{other}\" was skipped."),
            ),
        }
        Ok(())
    }

    fn head(&mut self, r: &JsonMap) {
        if let Some(id) = r.get("id").and_then(Value::as_str) {
            self.response_id = Some(id.to_owned());
        }
        if let Some(t) = r.get("created_at").and_then(Value::as_f64) {
            // Seconds since the epoch: a float in the Responses API, an integer in the Agent API.
            #[allow(clippy::cast_possible_truncation)]
            let t = t as i64;
            self.created_at = t;
        }
        match r.get("conversation") {
            Some(Value::String(id)) => self.session_id = Some(id.clone()),
            Some(Value::Object(c)) => {
                if let Some(id) = c.get("id").and_then(Value::as_str) {
                    self.session_id = Some(id.to_owned());
                }
            }
            _ => {}
        }
    }

    fn response(&self, status: RunStatus) -> AgentResponse {
        let mut r = AgentResponse::with_id(self.response_id.clone().unwrap_or_default(), 0);
        r.id.clone_from(&self.response_id);
        r.created_at = self.created_at;
        r.status = status;
        r.session_id.clone_from(&self.session_id);
        r
    }

    fn terminal(&mut self, resp: &JsonMap, status: RunStatus, out: &mut Vec<Event>) {
        let mut output = Vec::new();
        if let Some(items) = resp.get("output").and_then(Value::as_array) {
            for (position, item) in items.iter().enumerate() {
                let Some(item) = item.as_object() else {
                    continue;
                };
                // Items still open when the run ended stay open (the Agent API's final `output`
                // holds completed messages only).
                if matches!(str_field(item, "status"), "in_progress" | "incomplete") {
                    continue;
                }
                let oi = i64::try_from(position).unwrap_or(i64::MAX);
                let i = self.slot(oi, item);
                if self.items.get(i).is_some_and(|it| !it.done) {
                    self.item_done(i, item, out);
                }
                if let Some(m) = self.message(i, item, true) {
                    output.push(m);
                }
            }
        }
        // A pause (an incomplete response): what its approval requests ask (agentwire's
        // interrupts, or another server's requests). A completed response stays completed.
        let interrupts: Vec<Value> = resp
            .get("output")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .filter_map(super::approvals::interrupt_of)
            .collect();
        let mut r = self.response(status.clone());
        if !interrupts.is_empty() && status == RunStatus::Incomplete {
            r.extra
                .insert("interrupts".into(), Value::Array(interrupts));
        }
        if let Some(e) = resp.get("error").and_then(Value::as_object) {
            r.error = Some(ErrorInfo::new(
                match str_field(e, "code") {
                    "" => "server_error",
                    c => c,
                },
                str_field(e, "message"),
            ));
        } else if status == RunStatus::Failed {
            r.error = Some(ErrorInfo::new("server_error", "The response failed."));
        }
        r.usage = resp.get("usage").and_then(Value::as_object).cloned();
        r.completed_at = resp.get("completed_at").and_then(Value::as_f64).map(|t| {
            #[allow(clippy::cast_possible_truncation)]
            let t = t as i64;
            t
        });
        if let Some(d) = resp.get("incomplete_details").filter(|v| !v.is_null()) {
            r.extra.insert("incomplete_details".into(), d.clone());
        }
        // As the reference runner: a completed run lists its output, a failed one has none.
        r.output = (status == RunStatus::Completed).then_some(output);
        out.push(Event::Response(r));
        self.ended = true;
    }

    /// The slot of `item` (by its id; by `output_index` when it has none), created when
    /// unknown.
    fn slot(&mut self, oi: i64, item: &JsonMap) -> usize {
        let named = match str_field(item, "id") {
            "" => str_field(item, "call_id"),
            id => id,
        };
        let known = match named {
            "" => self.by_index.get(&oi),
            id => self.by_id.get(id),
        };
        if let Some(&i) = known {
            return i;
        }
        let ty = str_field(item, "type");
        let message_type = match ty {
            "" => MessageType::Message,
            other => MessageType::from_wire(other),
        };
        let id = match named {
            "" => format!("item_{oi}"),
            id => id.to_owned(),
        };
        let i = self.items.len();
        self.by_id.insert(id.clone(), i);
        self.by_index.insert(oi, i);
        self.items.push(Item {
            id,
            message_type,
            parts: Vec::new(),
            call_id: match str_field(item, "call_id") {
                "" => str_field(item, "id").to_owned(),
                c => c.to_owned(),
            },
            name: str_field(item, "name").to_owned(),
            done: false,
        });
        i
    }

    fn item_added(&mut self, oi: i64, item: &JsonMap, out: &mut Vec<Event>) {
        let i = self.slot(oi, item);
        let Some(it) = self.items.get(i) else {
            return;
        };
        let mut m = Message::with_id(it.id.clone());
        m.message_type = it.message_type.clone();
        m.role = role_of(item, &it.message_type);
        m.status = RunStatus::InProgress;
        let is_call = matches!(
            it.message_type,
            MessageType::FunctionCall | MessageType::McpToolCall
        );
        let data = is_call.then(|| call_data(item, &it.call_id));
        let id = it.id.clone();
        out.push(Event::Message(m));
        if let Some(data) = data {
            let mut c = Content::decoded(&id, 0, ContentBody::Data { data: Some(data) }, false);
            c.in_progress();
            out.push(Event::Content(c));
        }
    }

    fn item_done(&mut self, i: usize, item: &JsonMap, out: &mut Vec<Event>) {
        if let Some(m) = self.message(i, item, true) {
            out.push(Event::Message(m));
        }
        if let Some(it) = self.items.get_mut(i) {
            it.done = true;
        }
    }

    /// The Agent API message an item is (completed: with its parts).
    fn message(&mut self, i: usize, item: &JsonMap, completed: bool) -> Option<Message> {
        let it = self.items.get(i)?;
        let (id, message_type, call_id) =
            (it.id.clone(), it.message_type.clone(), it.call_id.clone());
        let mut m = Message::with_id(id.clone());
        m.role = role_of(item, &message_type);
        m.message_type = message_type.clone();
        let mut parts: Vec<Content> = Vec::new();
        match &message_type {
            MessageType::Message | MessageType::Reasoning => {
                let lists: &[(u8, &str)] = if message_type == MessageType::Message {
                    &[(CONTENT, "content")]
                } else {
                    &[(SUMMARY, "summary"), (CONTENT, "content")]
                };
                for (kind, key) in lists {
                    let Some(list) = item.get(*key).and_then(Value::as_array) else {
                        continue;
                    };
                    for (n, p) in list.iter().enumerate() {
                        let Some(p) = p.as_object() else { continue };
                        let body = match str_field(p, "type") {
                            "refusal" => ContentBody::Refusal {
                                refusal: Some(str_field(p, "refusal").to_owned()),
                            },
                            _ => ContentBody::Text {
                                text: Some(str_field(p, "text").to_owned()),
                            },
                        };
                        let index = self.part(i, *kind, i64::try_from(n).unwrap_or(i64::MAX));
                        // In index order (indices are unique): no sort to instantiate.
                        let at = parts.partition_point(|c| c.index < Some(index));
                        parts.insert(at, Content::decoded(&id, index, body, false));
                    }
                }
            }
            MessageType::FunctionCall | MessageType::McpToolCall => {
                let data = call_data(item, &call_id);
                parts.push(Content::decoded(
                    &id,
                    0,
                    ContentBody::Data { data: Some(data) },
                    false,
                ));
            }
            MessageType::FunctionCallOutput => {
                let output = match item.get("output") {
                    Some(Value::String(o)) => o.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                let data = str_map(&[("call_id", &call_id), ("output", &output)]);
                parts.push(Content::decoded(
                    &id,
                    0,
                    ContentBody::Data { data: Some(data) },
                    false,
                ));
            }
            _ => {
                let body = ContentBody::Data {
                    data: Some(item.clone()),
                };
                parts.push(Content::decoded(&id, 0, body, false));
            }
        }
        if completed {
            m.status = RunStatus::Completed;
            for p in &mut parts {
                p.completed();
            }
        }
        m.content = Some(parts);
        Some(m)
    }

    /// The item an event names (`item_id`, else `output_index`), created with an
    /// `UNANNOUNCED_MESSAGE` warning when never added.
    fn find(
        &mut self,
        ev: &JsonMap,
        kind: u8,
        out: &mut Vec<Event>,
        warnings: &mut Vec<Warning>,
    ) -> usize {
        let item_id = str_field(ev, "item_id");
        let oi = int(ev, "output_index");
        let found = match (item_id, oi) {
            ("", Some(oi)) => self.by_index.get(&oi),
            ("", None) => None,
            (id, _) => self.by_id.get(id),
        };
        if let Some(&i) = found {
            return i;
        }
        let ty = str_field(ev, "type");
        let item_type = if ty.contains("arguments") {
            "function_call"
        } else if ty.contains("reasoning") || kind == SUMMARY {
            "reasoning"
        } else {
            "message"
        };
        warn(
            warnings,
            WarningCode::UnannouncedMessage,
            format!(
                "A {ty} event names item \"{item_id}\", which was never added; it was created."
            ),
        );
        let item = str_map(&[("id", item_id), ("type", item_type)]);
        let oi = oi.unwrap_or(self.items.len() as i64);
        self.item_added(oi, &item, out);
        self.items.len() - 1
    }

    /// The Agent API part index of a (kind, index) part of item `i`, allocated on first sight.
    fn part(&mut self, i: usize, kind: u8, index: i64) -> i64 {
        let Some(it) = self.items.get_mut(i) else {
            return 0;
        };
        let p = match it.parts.iter().position(|&p| p == (kind, index)) {
            Some(p) => p,
            None => {
                it.parts.push((kind, index));
                it.parts.len() - 1
            }
        };
        i64::try_from(p).unwrap_or(i64::MAX)
    }
}

fn role_of(item: &JsonMap, t: &MessageType) -> Option<Role> {
    match item
        .get("role")
        .and_then(Value::as_str)
        .and_then(Role::from_wire)
    {
        Some(r) => Some(r),
        None if matches!(t, MessageType::FunctionCallOutput) => Some(Role::Tool),
        None => Some(Role::Assistant),
    }
}

fn call_data(item: &JsonMap, call_id: &str) -> JsonMap {
    let mut data = str_map(&[
        ("call_id", call_id),
        ("name", str_field(item, "name")),
        ("arguments", str_field(item, "arguments")),
    ]);
    if let Some(label) = item.get("server_label") {
        data.insert("server_label".into(), label.clone());
    }
    data
}

/// An object of string values, in the given order.
fn str_map(pairs: &[(&str, &str)]) -> JsonMap {
    pairs
        .iter()
        .map(|&(k, v)| (k.to_owned(), Value::String(v.to_owned())))
        .collect()
}
