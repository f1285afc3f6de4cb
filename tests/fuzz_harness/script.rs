//! A builder session driven by the fuzz input: a script of `ResponseBuilder` calls with
//! arbitrary values (data deltas, set values, tool arguments and outputs, usage, metadata),
//! valid or not, in any order. Used by the `builder`, `render` and `translate` targets to make
//! streams that agentwire itself emits.

use agentwire::agui::AgUiEncoder;
use agentwire::assembler::Protocol;
use agentwire::builder::{
    BuilderOptions, CompleteOptions, ContentHandle, ContentValue, Encoder, MessageHandle,
    MessageOptions, ResponseBuilder, ToolCall, ToolCallOptions, ToolKind, ToolOutputOptions,
};
use agentwire::codec::Format;
use agentwire::openai::{A2aEncoder, ResponsesEncoder};
use agentwire::protocol::{ContentType, ErrorInfo, FixedClock, MessageType, Role};
use agentwire::ErrorCode;
use serde_json::{Map, Value};

use super::Gen;

/// The most builder calls one script makes.
const MAX_STEPS: usize = 96;

/// Pieces of tool-call arguments: together they may form JSON, or not.
const ARG_PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "a",
    ":",
    ",",
    " ",
    "1",
    "-",
    ".",
    "e",
    "true",
    "nul",
    "\\",
    "\\u00",
    "e9",
    "\\ud800",
    "\\udc00",
    "\\n",
    "{\"k\": \"v",
    "\"}",
    "[1, 2",
    "]}",
    "{\"__proto__\": {\"x\": 1}}",
    "\u{7}",
    "\t",
];

/// What a script did.
pub struct Session {
    /// The builder, after the script.
    pub builder: ResponseBuilder,
    /// Every byte emitted, in order.
    pub bytes: Vec<u8>,
    /// The byte offset after each call that emitted something (cut points a stream reader
    /// would see).
    pub boundaries: Vec<usize>,
    /// The error codes of refused calls, in order.
    pub errors: Vec<ErrorCode>,
    /// Calls that broke the builder's contract (emitted after an error, moved the sequence
    /// number on an error, …).
    pub violations: Vec<String>,
    /// Whether two tool calls took the same call id.
    pub reused_call_ids: bool,
}

/// The protocol a builder writes.
pub fn encoder(protocol: Protocol, format: Format) -> Option<Box<dyn Encoder + Send>> {
    Some(match protocol {
        Protocol::AgentApi => return None,
        Protocol::AgUi => Box::new(AgUiEncoder::new(format).ok()?),
        Protocol::OpenAiResponses => Box::new(ResponsesEncoder::new(format).ok()?),
        Protocol::A2a03 => Box::new(A2aEncoder::new(Value::from(1)).with_format(format).ok()?),
        Protocol::A2a => Box::new(
            A2aEncoder::new(Value::from(1))
                .with_version(agentwire::a2a::A2aVersion::V1_0)
                .with_format(format)
                .ok()?,
        ),
        _ => return None,
    })
}

/// Runs a script read from `g` on a builder writing `protocol` in `format`. With `finish`, a
/// builder still running at the end of the input is completed with `closeOpen`.
pub fn run(
    g: &mut Gen<'_>,
    protocol: Protocol,
    format: Format,
    omit_nulls: bool,
    finish: bool,
) -> Result<Session, String> {
    let mut options = BuilderOptions::new()
        .format(format)
        .omit_nulls(omit_nulls)
        .clock(FixedClock(1_700_000_000));
    if g.flag() {
        options = options.response_id(g.string());
    }
    if g.flag() {
        options = options.session_id(g.string());
    }
    let builder = match encoder(protocol, format) {
        Some(enc) => ResponseBuilder::with_encoder(options, enc),
        None => ResponseBuilder::new(options),
    }
    .map_err(|e| format!("builder refused its options: {e}"))?;
    let mut s = Script {
        session: Session {
            builder,
            bytes: Vec::new(),
            boundaries: Vec::new(),
            errors: Vec::new(),
            violations: Vec::new(),
            reused_call_ids: false,
        },
        messages: Vec::new(),
        parts: Vec::new(),
        calls: Vec::new(),
        text_parts: Vec::new(),
        call_ids: Vec::new(),
        next_id: 0,
        pending_depth: 0,
    };
    let mut steps = 0;
    while !g.is_empty() && steps < MAX_STEPS {
        steps += 1;
        s.step(g);
    }
    if finish && !s.session.builder.is_finished() {
        let mut options = CompleteOptions::new().close_open(true);
        let mut depth = 0;
        if g.flag() {
            let usage = g.object();
            depth = map_depth(&usage);
            options = options.usage(usage);
        }
        let r = s.session.builder.completed(options);
        if r.is_ok() {
            s.accepted("completed (end)", depth);
        }
        s.record("completed (end)", r);
    }
    Ok(s.session)
}

struct Script {
    session: Session,
    messages: Vec<MessageHandle>,
    parts: Vec<ContentHandle>,
    calls: Vec<ToolCall>,
    /// The text parts, among `parts`.
    text_parts: Vec<ContentHandle>,
    /// The call ids of the tool calls made.
    call_ids: Vec<&'static str>,
    next_id: usize,
    /// The depth of the usage or metadata given to the last `message_options`.
    pending_depth: usize,
}

/// The depth of an object value (the object is one level).
pub fn map_depth(map: &Map<String, Value>) -> usize {
    1 + map.values().map(super::full_depth).max().unwrap_or(0)
}

impl Script {
    /// A call that took a value `depth` levels deep succeeded: the builder must refuse values
    /// nested deeper than `MAX_DEPTH` (what it emits, it must read back).
    fn accepted(&mut self, what: &str, depth: usize) {
        if depth > agentwire::MAX_DEPTH {
            self.session.violations.push(format!(
                "{what} accepted a value nested {depth} levels (MAX_DEPTH {})",
                agentwire::MAX_DEPTH
            ));
        }
    }

    /// Records the outcome of a call that emits bytes.
    fn record(&mut self, what: &str, r: agentwire::Result<Vec<u8>>) {
        match r {
            Ok(bytes) => {
                if !bytes.is_empty() {
                    self.session.bytes.extend_from_slice(&bytes);
                    self.session.boundaries.push(self.session.bytes.len());
                }
            }
            Err(e) => self.refused(what, &e),
        }
    }

    fn refused(&mut self, what: &str, e: &agentwire::Error) {
        self.session.errors.push(e.code());
        if !matches!(
            e.code(),
            ErrorCode::BuilderState | ErrorCode::InvalidOption | ErrorCode::Finished
        ) {
            self.session
                .violations
                .push(format!("{what} failed with an unexpected code: {e}"));
        }
    }

    /// A message id: generated, numbered, or from a small pool (so that ids may collide).
    fn message_options(&mut self, g: &mut Gen<'_>, options: MessageOptions) -> MessageOptions {
        let mut options = match g.below(4) {
            0 => options,
            1 => options.id(g.pick(&["m", "m", "", "__proto__"]).unwrap_or("m")),
            _ => {
                self.next_id += 1;
                options.id(format!("m{}", self.next_id))
            }
        };
        self.pending_depth = 0;
        if g.below(4) == 0 {
            let usage = g.object();
            self.pending_depth = map_depth(&usage);
            options = options.usage(usage);
        }
        if g.below(4) == 0 {
            let metadata = g.object();
            self.pending_depth = self.pending_depth.max(map_depth(&metadata));
            options = options.metadata(metadata);
        }
        options
    }

    fn message_handle(&self, g: &mut Gen<'_>) -> Option<MessageHandle> {
        let i = g.below(self.messages.len().max(1));
        self.messages.get(i).copied()
    }

    fn part_handle(&self, g: &mut Gen<'_>) -> Option<ContentHandle> {
        let i = g.below(self.parts.len().max(1));
        self.parts.get(i).copied()
    }

    fn call_handle(&self, g: &mut Gen<'_>) -> Option<ToolCall> {
        let i = g.below(self.calls.len().max(1));
        self.calls.get(i).copied()
    }

    fn step(&mut self, g: &mut Gen<'_>) {
        let before = self.session.builder.next_sequence_number();
        let emitted = self.session.bytes.len();
        let errors = self.session.errors.len();
        let what = self.call(g);
        // A refused call emits nothing and changes nothing (`DESIGN.md`, builder contract).
        if self.session.errors.len() > errors
            && self.session.errors.last() != Some(&ErrorCode::Finished)
        {
            let after = self.session.builder.next_sequence_number();
            if after != before || self.session.bytes.len() != emitted {
                self.session.violations.push(format!(
                    "{what} was refused but moved the sequence number from {before} to {after}"
                ));
            }
        }
    }

    /// Makes one call; returns its name.
    fn call(&mut self, g: &mut Gen<'_>) -> &'static str {
        match g.below(20) {
            0 | 1 => {
                let base = match g.below(6) {
                    0 => MessageOptions::reasoning(),
                    1 => MessageOptions::new().role(None),
                    2 => MessageOptions::new().role(Some(Role::User)),
                    3 => MessageOptions::new().message_type(MessageType::from(
                        g.pick(&["function_call", "plugin_call_output", "heartbeat", "x"])
                            .unwrap_or("x"),
                    )),
                    _ => MessageOptions::new(),
                };
                let options = self.message_options(g, base);
                let depth = self.pending_depth;
                match self.session.builder.message(options) {
                    Ok(h) => {
                        self.messages.push(h);
                        self.accepted("message (usage, metadata)", depth);
                    }
                    Err(e) => self.refused("message", &e),
                }
                "message"
            }
            2 | 3 => {
                let Some(m) = self.message_handle(g) else {
                    return "content";
                };
                let ct = g.pick(ContentType::ALL).unwrap_or(ContentType::Text);
                match self.session.builder.content(m, ct) {
                    Ok(h) => {
                        self.parts.push(h);
                        if ct == ContentType::Text {
                            self.text_parts.push(h);
                        }
                    }
                    Err(e) => self.refused("content", &e),
                }
                "content"
            }
            4 | 5 => {
                let Some(c) = self.part_handle(g) else {
                    return "delta";
                };
                let r = if g.flag() {
                    let text = g.string();
                    self.session.builder.delta_text(c, &text)
                } else {
                    let value = g.object();
                    let depth = map_depth(&value);
                    let r = self.session.builder.delta(c, ContentValue::Fields(value));
                    if r.is_ok() {
                        self.accepted("delta", depth);
                    }
                    r
                };
                self.record("delta", r);
                "delta"
            }
            6 => {
                let Some(c) = self.part_handle(g) else {
                    return "set";
                };
                let r = if g.flag() {
                    let text = g.string();
                    self.session.builder.set(c, ContentValue::Text(&text))
                } else {
                    let value = g.object();
                    let depth = map_depth(&value);
                    let r = self.session.builder.set(c, ContentValue::Fields(value));
                    if r.is_ok() {
                        self.accepted("set", depth);
                    }
                    r
                };
                self.record("set", r);
                "set"
            }
            7 => {
                let Some(c) = self.part_handle(g) else {
                    return "complete content";
                };
                let r = self.session.builder.complete_content(c);
                self.record("complete content", r);
                "complete content"
            }
            8 => {
                let Some(m) = self.message_handle(g) else {
                    return "complete message";
                };
                let r = self.session.builder.complete_message(m);
                self.record("complete message", r);
                "complete message"
            }
            9 => {
                let Some(m) = self.message_handle(g) else {
                    return "start message";
                };
                let r = self.session.builder.start_message(m);
                self.record("start message", r);
                "start message"
            }
            10 | 11 => {
                let kind = g
                    .pick(&[ToolKind::Function, ToolKind::Plugin, ToolKind::Mcp])
                    .unwrap_or_default();
                let call_id = g.pick(&["c1", "c2", "", "__proto__"]).unwrap_or("c1");
                let name = g.string();
                let mut options = ToolCallOptions::new(kind, call_id, name);
                if g.flag() {
                    options = options.arguments(self.argument_text(g));
                }
                if kind == ToolKind::Mcp && g.flag() {
                    options = options.server_label(g.string());
                }
                if g.flag() {
                    self.next_id += 1;
                    options = options.message_id(format!("m{}", self.next_id));
                }
                match self.session.builder.tool_call(options) {
                    Ok(call) => {
                        if self.call_ids.contains(&call_id) {
                            self.session.reused_call_ids = true;
                        }
                        self.call_ids.push(call_id);
                        self.calls.push(call);
                        self.parts.push(call.content());
                        self.messages.push(call.message());
                    }
                    Err(e) => self.refused("tool call", &e),
                }
                "tool call"
            }
            12 | 13 => {
                let Some(call) = self.call_handle(g) else {
                    return "tool arguments";
                };
                let piece = self.argument_text(g);
                let r = self.session.builder.tool_arguments(call, &piece);
                self.record("tool arguments", r);
                "tool arguments"
            }
            14 => {
                let Some(call) = self.call_handle(g) else {
                    return "complete tool call";
                };
                let r = self.session.builder.complete_tool_call(call);
                self.record("complete tool call", r);
                "complete tool call"
            }
            15 => {
                let kind = g
                    .pick(&[ToolKind::Function, ToolKind::Plugin, ToolKind::Mcp])
                    .unwrap_or_default();
                let call_id = g.pick(&["c1", "c2", ""]).unwrap_or("c1");
                // Outputs are strings; JS callers pass JSON text of any value.
                let output = if g.flag() {
                    let v = g.value(0);
                    let text = serde_json::to_string(&v).unwrap_or_default();
                    super::drop_flat(v);
                    text
                } else {
                    g.string()
                };
                let mut options = ToolOutputOptions::new(kind, call_id, output);
                if g.flag() {
                    options = options.name(g.string());
                }
                let r = self.session.builder.tool_output(options);
                self.record("tool output", r);
                "tool output"
            }
            16 => {
                let Some(m) = self.message_handle(g) else {
                    return "set usage";
                };
                let usage = g.object();
                let depth = map_depth(&usage);
                match self.session.builder.set_message_usage(m, usage) {
                    Ok(()) => self.accepted("set usage", depth),
                    Err(e) => self.refused("set usage", &e),
                }
                "set usage"
            }
            17 => {
                let r = if g.flag() {
                    self.session.builder.created()
                } else {
                    self.session.builder.in_progress()
                };
                self.record("created/in progress", r);
                "created/in progress"
            }
            18 => {
                // Rarely: a terminal event in the middle.
                if g.below(4) != 0 {
                    return "nothing";
                }
                let r = match g.below(3) {
                    0 => {
                        let mut options = CompleteOptions::new().close_open(g.flag());
                        let mut depth = 0;
                        if g.flag() {
                            let usage = g.object();
                            depth = map_depth(&usage);
                            options = options.usage(usage);
                        }
                        let r = self.session.builder.completed(options);
                        if r.is_ok() {
                            self.accepted("completed (usage)", depth);
                        }
                        r
                    }
                    1 => {
                        let code = g.string();
                        let message = g.string();
                        self.session.builder.failed(ErrorInfo::new(code, message))
                    }
                    _ => self.session.builder.canceled(),
                };
                self.record("terminal", r);
                "terminal"
            }
            _ => {
                // A text delta on the last text part: the common case of streaming text.
                let Some(&c) = self.text_parts.last().or(self.parts.last()) else {
                    return "text";
                };
                let text = g.string();
                let r = self.session.builder.delta_text(c, &text);
                self.record("text", r);
                "text"
            }
        }
    }

    /// A piece of tool-call arguments.
    fn argument_text(&mut self, g: &mut Gen<'_>) -> String {
        match g.below(4) {
            0 => g.string(),
            1 => {
                let v = g.value(0);
                let text = serde_json::to_string(&v).unwrap_or_default();
                super::drop_flat(v);
                text
            }
            _ => {
                let n = g.below(4) + 1;
                (0..n)
                    .map(|_| g.pick(ARG_PIECES).unwrap_or("{"))
                    .collect::<Vec<_>>()
                    .concat()
            }
        }
    }
}

/// An object value as a map (for callers that have a `Value`).
pub fn as_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => {
            let mut map = Map::new();
            map.insert("value".to_owned(), other);
            map
        }
    }
}
