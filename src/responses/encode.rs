//! Agent API → OpenAI Responses streaming events: [`ResponsesEncoder`], an [`Encoder`] for the
//! [`ResponseBuilder`](crate::builder::ResponseBuilder) and the last stage of
//! [`Translator`](super::Translator).
//!
//! Mapping (`reference/agentscope-protocol.md` §7.1, with its bugs fixed; see the module docs of
//! [`openai`](super) for the list of deviations):
//!
//! | Agent API                                   | Responses                                            |
//! |---------------------------------------------|------------------------------------------------------|
//! | response `created` / `in_progress`          | `response.created` / `response.in_progress`          |
//! | response `completed`                        | `response.completed` (`output` = every item, in output order) |
//! | response `failed` / `rejected`              | `response.failed` (`error.code` mapped to OpenAI's set, else `server_error`) |
//! | response `canceled` / `incomplete`          | `response.incomplete` (status `cancelled` / `incomplete`) |
//! | `message` / `error` message                 | `message` item; `text` → `output_text`, `refusal` → `refusal` parts |
//! | `reasoning` message                         | `reasoning` item with `reasoning_text` content parts |
//! | `function_call` / `plugin_call` / `mcp_call` | `function_call` item, arguments streamed as `response.function_call_arguments.delta` |
//! | `*_call_output`                             | `function_call_output` item (added and done when the message completes) |
//! | anything else                               | nothing (no output index is used)                    |

use serde_json::Value;

use crate::codec::write::{check_output_format, frame_end, int, opt_int, raw, string, value};

use crate::codec::{Format, SSE_CONTENT_TYPE};
use crate::emit::track::{
    absorb, advance, count, parts_of, Advance, Body, ItemKind as Kind, Mode, PartTable, Step,
    Table, INPUT_TOKENS, OUTPUT_TOKENS,
};
use crate::emit::{BuilderEvent, Encoder};
use crate::protocol::json::str_field;
use crate::protocol::{AgentResponse, ErrorInfo, JsonMap, Message, RunStatus};
use crate::Result;

use super::ResponseEcho;

/// The error codes the Responses API defines (`ResponseError.code`); others become
/// `server_error`.
const OPENAI_ERROR_CODES: &[&str] = &[
    "server_error",
    "rate_limit_exceeded",
    "invalid_prompt",
    "vector_store_timeout",
    "invalid_image",
    "invalid_image_format",
    "invalid_base64_image",
    "invalid_image_url",
    "image_too_large",
    "image_too_small",
    "image_parse_error",
    "image_content_policy_violation",
    "invalid_image_mode",
    "image_file_too_large",
    "unsupported_image_media_type",
    "empty_image_file",
    "failed_to_download_image",
    "image_file_not_found",
];

#[derive(Debug, Default)]
struct Part {
    refusal: bool,
    text: String,
    done: bool,
}

#[derive(Debug)]
struct Item {
    msg_id: String,
    kind: Kind,
    role: String,
    /// The position in `output`, once `response.output_item.added` was sent.
    index: Option<usize>,
    done: bool,
    parts: PartTable<Part>,
    /// A call's `{call_id, name, arguments}` or an output's `{call_id, output}`.
    data: JsonMap,
    /// The arguments announced so far (added item + deltas).
    sent: String,
    args_done: bool,
}

/// Encodes Agent API events as OpenAI Responses streaming events (`event: <type>` SSE frames, or
/// NDJSON lines), keeping the per-stream state the translation needs.
///
/// Any Agent API sequence is accepted, not only a builder's: messages announced or not, parts
/// completed on first sight, snapshots (`delta: false`) instead of deltas. The output always
/// starts with `response.created`, numbers `sequence_number` 0, 1, 2, … without gaps, gives
/// `output_index` in the order items are added, and ends with the terminal event the input's
/// terminal response maps to; nothing is sent after it.
///
/// # Example
///
/// ```
/// use agentwire::builder::{BuilderOptions, CompleteOptions, ResponseBuilder};
/// use agentwire::responses::ResponsesEncoder;
/// use agentwire::protocol::{ContentType, FixedClock};
///
/// let options = BuilderOptions::new()
///     .response_id("resp_1")
///     .clock(FixedClock(1_700_000_000));
/// let mut rb = ResponseBuilder::with_encoder(options, Box::new(ResponsesEncoder::sse()))?;
/// let m = rb.message(Default::default())?;
/// let c = rb.content(m, ContentType::Text)?;
/// let mut out = rb.delta_text(c, "Hi")?;
/// out.extend(rb.complete_content(c)?);
/// out.extend(rb.complete_message(m)?);
/// out.extend(rb.completed(CompleteOptions::new())?);
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("event: response.created\ndata: {\"type\":\"response.created\""));
/// assert!(text.contains("event: response.output_text.delta\n"));
/// assert!(text.ends_with("\n\n") && text.contains("event: response.completed\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct ResponsesEncoder {
    format: Format,
    model: String,
    seq: u64,
    id: Option<String>,
    created_at: i64,
    completed_at: Option<i64>,
    session_id: Option<String>,
    usage: Option<JsonMap>,
    created: bool,
    running: bool,
    ended: bool,
    items: Table<Item>,
    added: usize,
    /// The approval items of a pause (`approvals.rs`), after every other item.
    approvals: Vec<Vec<u8>>,
    echo: ResponseEcho,
}

impl ResponsesEncoder {
    /// An encoder writing SSE with `event:` lines, as the Responses API streams.
    pub fn sse() -> Self {
        ResponsesEncoder {
            format: Format::Sse,
            model: String::new(),
            seq: 0,
            id: None,
            created_at: 0,
            completed_at: None,
            session_id: None,
            usage: None,
            created: false,
            running: false,
            ended: false,
            items: Table::default(),
            added: 0,
            approvals: Vec::new(),
            echo: ResponseEcho::default(),
        }
    }

    /// An encoder writing `format` (SSE with `event:` lines, or NDJSON).
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` for [`Format::Auto`].
    pub fn new(format: Format) -> Result<Self> {
        check_output_format(format)?;
        Ok(ResponsesEncoder {
            format,
            ..ResponsesEncoder::sse()
        })
    }

    /// The same encoder with the `model` named in every `response` object (default `""`).
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = model.into();
        self
    }

    /// The same encoder with what every `response` object repeats of the request it answers
    /// (`instructions`, `tools`, `temperature`, …; default: [`ResponseEcho::default`], the API's
    /// defaults).
    #[must_use]
    pub fn with_echo(mut self, echo: ResponseEcho) -> Self {
        self.echo = echo;
        self
    }

    /// Whether the terminal event was written.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    // ----- framing ---------------------------------------------------------------------------

    /// Starts an event: the framing, `{"type":…,"sequence_number":…`. The caller writes the
    /// other fields (each with its leading comma) and calls [`ResponsesEncoder::end`].
    fn begin(&mut self, out: &mut Vec<u8>, ty: &str) {
        if self.format != Format::Ndjson {
            raw(out, "event: ");
            raw(out, ty);
            raw(out, "\ndata: ");
        }
        raw(out, "{\"type\":\"");
        raw(out, ty);
        raw(out, "\",\"sequence_number\":");
        int(out, i64::try_from(self.seq).unwrap_or(i64::MAX));
        self.seq += 1;
    }

    fn end(&self, out: &mut Vec<u8>) {
        frame_end(out, self.format, "}");
    }

    /// Starts an event about item `i`'s text: `,"item_id":…,"output_index":…` follow the head.
    fn begin_item(&mut self, out: &mut Vec<u8>, ty: &str, i: usize) {
        self.begin(out, ty);
        let Some(item) = self.items.get(i) else {
            return;
        };
        raw(out, ",\"item_id\":");
        string(out, &item.msg_id);
        raw(out, ",\"output_index\":");
        opt_int(out, item.index.map(usize_i64));
    }

    /// A whole `response.*` lifecycle event.
    fn emit_response(
        &mut self,
        out: &mut Vec<u8>,
        ty: &str,
        status: &str,
        error: Option<&ErrorInfo>,
        output: bool,
    ) {
        self.begin(out, ty);
        raw(out, ",\"response\":{\"id\":");
        string(out, self.id.as_deref().unwrap_or(""));
        raw(out, ",\"object\":\"response\",\"created_at\":");
        int(out, self.created_at);
        raw(out, ",\"status\":\"");
        raw(out, status);
        raw(out, "\",\"completed_at\":");
        opt_int(out, self.completed_at);
        raw(out, ",\"error\":");
        match error {
            Some(e) => {
                let code = if OPENAI_ERROR_CODES.contains(&e.code.as_str()) {
                    e.code.as_str()
                } else {
                    "server_error"
                };
                raw(out, "{\"code\":");
                string(out, code);
                raw(out, ",\"message\":");
                string(out, &e.message);
                raw(out, "}");
            }
            None => raw(out, "null"),
        }
        raw(
            out,
            if status == "incomplete" {
                ",\"incomplete_details\":{\"reason\":null}"
            } else {
                ",\"incomplete_details\":null"
            },
        );
        self.echo.write_before_output(out);
        raw(out, ",\"model\":");
        string(out, &self.model);
        raw(out, ",\"output\":[");
        if output {
            // Output indices are 0, 1, 2, … in the order items were added.
            let mut slots: Vec<Option<&Item>> = vec![None; self.added];
            for item in self.items.iter() {
                if let Some(slot) = item.index.and_then(|ix| slots.get_mut(ix)) {
                    *slot = Some(item);
                }
            }
            let mut n = 0;
            for item in slots.into_iter().flatten() {
                if n > 0 {
                    raw(out, ",");
                }
                n += 1;
                item_json(out, item, true);
            }
            for item in &self.approvals {
                if n > 0 {
                    raw(out, ",");
                }
                n += 1;
                out.extend_from_slice(item);
            }
        }
        raw(out, "]");
        self.echo.write_after_output(out);
        raw(out, ",\"usage\":");
        match &self.usage {
            Some(u) => usage_json(out, u),
            None => raw(out, "null"),
        }
        self.echo.write_last(out);
        raw(out, ",\"conversation\":");
        match &self.session_id {
            Some(id) => {
                raw(out, "{\"id\":");
                string(out, id);
                raw(out, "}");
            }
            None => raw(out, "null"),
        }
        raw(out, "}");
        self.end(out);
    }

    fn ensure_created(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if self.created {
            return Ok(());
        }
        if self.id.is_none() {
            self.id = Some(crate::protocol::new_id("resp_")?);
        }
        self.created = true;
        self.emit_response(out, "response.created", "in_progress", None, false);
        Ok(())
    }

    fn take_head(&mut self, r: &AgentResponse) {
        if self.id.is_none() {
            self.id.clone_from(&r.id);
        }
        if !self.created || self.created_at == 0 {
            self.created_at = r.created_at;
        }
        self.completed_at = r.completed_at.or(self.completed_at);
        if r.session_id.is_some() {
            self.session_id.clone_from(&r.session_id);
        }
        if r.usage.is_some() {
            // Not `clone_from`: that instantiates `IndexMap::clone_from` for this one use.
            #[allow(clippy::assigning_clones)]
            {
                self.usage = r.usage.clone();
            }
        }
    }

    // ----- the run ---------------------------------------------------------------------------

    fn on_response(&mut self, r: &AgentResponse, out: &mut Vec<u8>) -> Result<()> {
        self.take_head(r);
        match &r.status {
            RunStatus::Created => self.ensure_created(out),
            RunStatus::InProgress => {
                self.ensure_created(out)?;
                if !self.running {
                    self.running = true;
                    self.emit_response(out, "response.in_progress", "in_progress", None, false);
                }
                Ok(())
            }
            RunStatus::Completed
            | RunStatus::Failed
            | RunStatus::Rejected
            | RunStatus::Canceled
            | RunStatus::Incomplete => {
                self.ensure_created(out)?;
                // Messages only the final `output` carries (never streamed) become items first.
                for m in r.output.iter().flatten() {
                    let known = self
                        .items
                        .position(&m.id)
                        .and_then(|i| self.items.get(i))
                        .is_some_and(|i| i.done);
                    if !known {
                        self.on_message(m, true, out)?;
                    }
                }
                if r.status == RunStatus::Incomplete {
                    self.approvals_out(r, out);
                }
                let (ty, status, error) = match &r.status {
                    RunStatus::Completed => ("response.completed", "completed", None),
                    RunStatus::Failed => ("response.failed", "failed", r.error.clone()),
                    RunStatus::Rejected => (
                        "response.failed",
                        "failed",
                        r.error.clone().or_else(|| {
                            Some(ErrorInfo::new("server_error", "The run was rejected."))
                        }),
                    ),
                    RunStatus::Canceled => ("response.incomplete", "cancelled", None),
                    _ => ("response.incomplete", "incomplete", None),
                };
                let error = match (status, error) {
                    ("failed", None) => Some(ErrorInfo::new("server_error", "The run failed.")),
                    (_, e) => e,
                };
                self.emit_response(out, ty, status, error.as_ref(), true);
                self.ended = true;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A pause's interrupts as approval items, added and done, after every other item.
    fn approvals_out(&mut self, r: &AgentResponse, out: &mut Vec<u8>) {
        for item in super::approvals::approval_items(r) {
            let index = self.added + self.approvals.len();
            for ty in ["response.output_item.added", "response.output_item.done"] {
                self.begin(out, ty);
                raw(out, ",\"output_index\":");
                int(out, usize_i64(index));
                raw(out, ",\"item\":");
                out.extend_from_slice(&item);
                self.end(out);
            }
            self.approvals.push(item);
        }
    }

    // ----- items -----------------------------------------------------------------------------

    fn item_for(&mut self, msg_id: &str, kind: Kind, role: Option<&str>) -> usize {
        self.items.at(msg_id, || Item {
            msg_id: msg_id.to_owned(),
            kind,
            role: role.unwrap_or("assistant").to_owned(),
            index: None,
            done: false,
            parts: PartTable::default(),
            data: JsonMap::new(),
            sent: String::new(),
            args_done: false,
        })
    }

    /// Sends `response.output_item.added` once; calls wait for their `call_id` unless `force`.
    fn ensure_added(&mut self, i: usize, force: bool, out: &mut Vec<u8>) -> Result<()> {
        let Some(item) = self.items.get(i) else {
            return Ok(());
        };
        if item.index.is_some() || item.kind == Kind::Skip {
            return Ok(());
        }
        let ready = match item.kind {
            Kind::Call => force || item.data.contains_key("call_id"),
            Kind::Output => force,
            _ => true,
        };
        if !ready {
            return Ok(());
        }
        let index = self.added;
        self.added += 1;
        let Some(item) = self.items.get_mut(i) else {
            return Ok(());
        };
        item.index = Some(index);
        item.sent = str_field(&item.data, "arguments").to_owned();
        self.item_event(out, "response.output_item.added", i, false);
        Ok(())
    }

    /// `response.output_item.added` / `.done`: the item as it is now.
    fn item_event(&mut self, out: &mut Vec<u8>, ty: &str, i: usize, full: bool) {
        self.begin(out, ty);
        if let Some(item) = self.items.get(i) {
            raw(out, ",\"output_index\":");
            opt_int(out, item.index.map(usize_i64));
            raw(out, ",\"item\":");
            item_json(out, item, full);
        }
        self.end(out);
    }

    fn on_message(&mut self, m: &Message, completed: bool, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_created(out)?;
        let kind = Kind::of(&m.message_type);
        let i = self.item_for(&m.id, kind, m.role.map(|r| r.as_str()));
        if let Some(item) = self.items.get_mut(i) {
            if let Some(role) = m.role {
                role.as_str().clone_into(&mut item.role);
            }
        }
        if !matches!(kind, Kind::Call | Kind::Output) {
            self.ensure_added(i, false, out)?;
        }
        if !completed {
            return Ok(());
        }
        for (index, part) in parts_of(m) {
            self.on_content(i, index, Body::of(&part.body), Mode::Completed, out)?;
        }
        self.complete_item(i, out)
    }

    fn complete_item(&mut self, i: usize, out: &mut Vec<u8>) -> Result<()> {
        let Some(item) = self.items.get(i) else {
            return Ok(());
        };
        if item.done || item.kind == Kind::Skip {
            return Ok(());
        }
        self.ensure_added(i, true, out)?;
        if self.items.get(i).is_some_and(|it| it.kind == Kind::Call) {
            self.arguments_done(i, out);
        }
        let parts = self.items.get(i).map_or(0, |it| it.parts.len());
        for p in 0..parts {
            self.part_done(i, p, out);
        }
        let Some(item) = self.items.get_mut(i) else {
            return Ok(());
        };
        item.done = true;
        self.item_event(out, "response.output_item.done", i, true);
        Ok(())
    }

    fn on_content(
        &mut self,
        i: usize,
        agent_index: i64,
        body: Body<'_>,
        mode: Mode,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let kind = self.items.get(i).map_or(Kind::Skip, |it| it.kind);
        match (kind, body) {
            (Kind::Message | Kind::Reasoning, Body::Text { text, refusal }) => self.on_text(
                i,
                agent_index,
                refusal && kind == Kind::Message,
                text,
                mode,
                out,
            ),
            (Kind::Call | Kind::Output, Body::Data(data)) => self.on_data(i, data, mode, out),
            // Images, audio, files, data in a message have no Responses output form.
            _ => Ok(()),
        }
    }

    fn on_text(
        &mut self,
        i: usize,
        agent_index: i64,
        refusal: bool,
        text: &str,
        mode: Mode,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        self.ensure_added(i, false, out)?;
        let Some(item) = self.items.get_mut(i) else {
            return Ok(());
        };
        if item.done {
            return Ok(());
        }
        let kind = item.kind;
        let (p, added) = item.parts.at(agent_index);
        let Some(part) = item.parts.get_mut(p) else {
            return Ok(());
        };
        if added {
            part.refusal = refusal;
            self.part_event(out, "response.content_part.added", i, p, kind, refusal, "");
        }
        let Some(part) = self.items.get_mut(i).and_then(|it| it.parts.get_mut(p)) else {
            return Ok(());
        };
        if part.done {
            return Ok(());
        }
        let start = match advance(&mut part.text, text, mode) {
            Advance::Extended(start) => Some(start),
            Advance::Unchanged => None,
            // A replaced value cannot be retracted: the done event carries the truth.
            Advance::Replaced => {
                text.clone_into(&mut part.text);
                None
            }
        };
        let refusal = part.refusal;
        if let Some(start) = start {
            let ty = match (kind, refusal) {
                (Kind::Message, true) => "response.refusal.delta",
                (Kind::Message, false) => "response.output_text.delta",
                _ => "response.reasoning_text.delta",
            };
            self.begin_item(out, ty, i);
            content_index(out, p);
            raw(out, ",\"delta\":");
            string(out, self.part_text(i, p).get(start..).unwrap_or(""));
            if kind == Kind::Message && !refusal {
                raw(out, ",\"logprobs\":[]");
            }
            self.end(out);
        }
        if mode == Mode::Completed {
            self.part_done(i, p, out);
        }
        Ok(())
    }

    fn part_text(&self, i: usize, p: usize) -> &str {
        self.items
            .get(i)
            .and_then(|it| it.parts.get(p))
            .map_or("", |p| p.text.as_str())
    }

    /// `response.content_part.added` / `.done` for part `p` of item `i`.
    #[allow(clippy::too_many_arguments)]
    fn part_event(
        &mut self,
        out: &mut Vec<u8>,
        ty: &str,
        i: usize,
        p: usize,
        kind: Kind,
        refusal: bool,
        text: &str,
    ) {
        self.begin_item(out, ty, i);
        content_index(out, p);
        raw(out, ",\"part\":");
        part_json(out, kind, refusal, text);
        self.end(out);
    }

    fn part_done(&mut self, i: usize, p: usize, out: &mut Vec<u8>) {
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        let kind = item.kind;
        let Some(part) = item.parts.get_mut(p) else {
            return;
        };
        if part.done {
            return;
        }
        part.done = true;
        let refusal = part.refusal;
        let text = std::mem::take(&mut part.text);
        let (ty, field) = match (kind, refusal) {
            (Kind::Message, true) => ("response.refusal.done", ",\"refusal\":"),
            (Kind::Message, false) => ("response.output_text.done", ",\"text\":"),
            _ => ("response.reasoning_text.done", ",\"text\":"),
        };
        self.begin_item(out, ty, i);
        content_index(out, p);
        raw(out, field);
        string(out, &text);
        if kind == Kind::Message && !refusal {
            raw(out, ",\"logprobs\":[]");
        }
        self.end(out);
        self.part_event(
            out,
            "response.content_part.done",
            i,
            p,
            kind,
            refusal,
            &text,
        );
        if let Some(part) = self.items.get_mut(i).and_then(|it| it.parts.get_mut(p)) {
            part.text = text;
        }
    }

    fn on_data(
        &mut self,
        i: usize,
        data: Option<&JsonMap>,
        mode: Mode,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let Some(item) = self.items.get_mut(i) else {
            return Ok(());
        };
        if item.done {
            return Ok(());
        }
        absorb(&mut item.data, data, mode);
        if item.kind != Kind::Call {
            return Ok(());
        }
        self.ensure_added(i, false, out)?;
        let Some(item) = self.items.get_mut(i) else {
            return Ok(());
        };
        if item.index.is_none() {
            return Ok(());
        }
        // A snapshot's arguments may still be replaced (agentscope sends `"{}"` before the real
        // ones): only deltas and the completed value are streamed.
        let start = item.sent.len();
        let streamed = mode != Mode::Snapshot;
        if let Some(rest) = str_field(&item.data, "arguments")
            .strip_prefix(item.sent.as_str())
            .filter(|_| streamed)
        {
            if !rest.is_empty() {
                item.sent.push_str(rest);
                self.begin_item(out, "response.function_call_arguments.delta", i);
                raw(out, ",\"delta\":");
                let sent = self.items.get(i).map_or("", |it| it.sent.as_str());
                string(out, sent.get(start..).unwrap_or(""));
                self.end(out);
            }
        }
        if mode == Mode::Completed {
            self.arguments_done(i, out);
        }
        Ok(())
    }

    fn arguments_done(&mut self, i: usize, out: &mut Vec<u8>) {
        let Some(item) = self.items.get_mut(i) else {
            return;
        };
        if item.args_done || item.index.is_none() {
            return;
        }
        item.args_done = true;
        self.begin_item(out, "response.function_call_arguments.done", i);
        raw(out, ",\"arguments\":");
        let args = self
            .items
            .get(i)
            .map_or("", |it| str_field(&it.data, "arguments"));
        string(out, args);
        self.end(out);
    }

    fn on_step(&mut self, step: Step<'_>, out: &mut Vec<u8>) -> Result<()> {
        match step {
            Step::Response(r) => self.on_response(r, out),
            Step::Message { message, completed } => self.on_message(message, completed, out),
            Step::Content {
                msg_id,
                index,
                body,
                mode,
                ..
            } => {
                self.ensure_created(out)?;
                // A message never announced: its kind guessed from the part.
                let i = self.item_for(msg_id, Kind::guess(body), None);
                self.on_content(i, index, body, mode, out)
            }
        }
    }
}

impl Encoder for ResponsesEncoder {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        if self.ended {
            return Ok(());
        }
        match Step::of(event) {
            Some(step) => self.on_step(step, out),
            // A part of no message: the run still starts.
            None => self.ensure_created(out),
        }
    }

    fn content_type(&self) -> &'static str {
        self.format.content_type().unwrap_or(SSE_CONTENT_TYPE)
    }
}

fn usize_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn content_index(out: &mut Vec<u8>, p: usize) {
    raw(out, ",\"content_index\":");
    int(out, usize_i64(p));
}

fn part_json(out: &mut Vec<u8>, kind: Kind, refusal: bool, text: &str) {
    raw(
        out,
        match (kind, refusal) {
            (Kind::Message, true) => "{\"type\":\"refusal\",\"refusal\":",
            (Kind::Message, false) => {
                "{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":"
            }
            _ => "{\"type\":\"reasoning_text\",\"text\":",
        },
    );
    string(out, text);
    raw(out, "}");
}

/// An item as `output_item.added` (`full: false`: no parts yet, status `in_progress`) or
/// `output_item.done` / the final `output` (`full: true`) shows it.
fn item_json(out: &mut Vec<u8>, item: &Item, full: bool) {
    let status = if item.done {
        "\"completed\""
    } else if full {
        "\"incomplete\""
    } else {
        "\"in_progress\""
    };
    let parts = |out: &mut Vec<u8>| {
        raw(out, "[");
        if full {
            for (n, p) in item.parts.iter().enumerate() {
                if n > 0 {
                    raw(out, ",");
                }
                part_json(out, item.kind, p.refusal, &p.text);
            }
        }
        raw(out, "]");
    };
    raw(out, "{\"id\":");
    string(out, &item.msg_id);
    match item.kind {
        Kind::Reasoning => {
            raw(out, ",\"type\":\"reasoning\",\"summary\":[],\"content\":");
            parts(out);
            raw(out, ",\"status\":");
            raw(out, status);
        }
        Kind::Call => {
            raw(out, ",\"type\":\"function_call\",\"status\":");
            raw(out, status);
            raw(out, ",\"arguments\":");
            string(
                out,
                if full {
                    str_field(&item.data, "arguments")
                } else {
                    item.sent.as_str()
                },
            );
            raw(out, ",\"call_id\":");
            string(out, str_field(&item.data, "call_id"));
            raw(out, ",\"name\":");
            string(out, str_field(&item.data, "name"));
        }
        Kind::Output => {
            raw(out, ",\"type\":\"function_call_output\",\"call_id\":");
            string(out, str_field(&item.data, "call_id"));
            raw(out, ",\"output\":");
            match item.data.get("output") {
                Some(Value::String(s)) => string(out, s),
                Some(Value::Null) | None => raw(out, "\"\""),
                Some(other) => string(out, &other.to_string()),
            }
            raw(out, ",\"status\":");
            raw(out, status);
        }
        Kind::Message | Kind::Skip => {
            raw(out, ",\"type\":\"message\",\"status\":");
            raw(out, status);
            raw(out, ",\"content\":");
            parts(out);
            raw(out, ",\"role\":");
            string(out, &item.role);
        }
    }
    raw(out, "}");
}

/// Agent API usage → the Responses `usage` object: `input_tokens`/`output_tokens` (or the chat
/// names `prompt_tokens`/`completion_tokens`), `total_tokens` (their sum when absent), and the
/// two details objects, zero-filled; other keys are kept, in their order (the three counts
/// replace their values in place; missing keys follow).
fn usage_json(out: &mut Vec<u8>, usage: &JsonMap) {
    let input = count(usage, INPUT_TOKENS, None, Value::as_i64).unwrap_or(0);
    let output = count(usage, OUTPUT_TOKENS, None, Value::as_i64).unwrap_or(0);
    let total = count(usage, &["total_tokens"], None, Value::as_i64)
        .unwrap_or(input.saturating_add(output));
    let counts = [
        ("input_tokens", Some(input), "{\"cached_tokens\":0}"),
        ("input_tokens_details", None, "{\"cached_tokens\":0}"),
        ("output_tokens", Some(output), ""),
        ("output_tokens_details", None, "{\"reasoning_tokens\":0}"),
        ("total_tokens", Some(total), ""),
    ];
    raw(out, "{");
    let mut first = true;
    let mut field = |out: &mut Vec<u8>, k: &str| {
        raw(out, if first { "" } else { "," });
        first = false;
        string(out, k);
        raw(out, ":");
    };
    for (k, v) in usage {
        field(out, k);
        match counts.iter().find(|c| c.0 == k).and_then(|c| c.1) {
            Some(n) => int(out, n),
            None => value(out, v),
        }
    }
    for (k, n, default) in counts {
        if !usage.contains_key(k) {
            field(out, k);
            match n {
                Some(n) => int(out, n),
                None => raw(out, default),
            }
        }
    }
    raw(out, "}");
}
