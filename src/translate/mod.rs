//! [`Translator`]: one protocol's byte stream in, another's out, incrementally. Every pair goes
//! through the Agent API: a decoder turns the source's events into Agent API events, an
//! [`Encoder`] writes them in the target protocol.

use crate::agui::{AgUiDecoder, AgUiEncoder};
use crate::codec::{Format, Frame, FrameDecoder, Limits};
use crate::emit::{AgentApiEncoder, BuilderEvent, DataDelta, Encoder, TextDelta};
use crate::protocol::{
    parse_event, AgentResponse, ContentBody, ContentType, ErrorInfo, Event, RunStatus,
};
use crate::Result;

mod coverage;
use crate::{Protocol, Warning, WarningCode};
use coverage::Coverage;

use crate::a2a::{A2aDecoder, A2aEncoder, A2aVersion};
use crate::responses::{ResponsesDecoder, ResponsesEncoder};

/// The most warnings a translator keeps.
const MAX_WARNINGS: usize = 1000;

#[derive(Debug)]
enum Source {
    AgentApi,
    Responses(ResponsesDecoder),
    A2a(A2aDecoder),
    AgUi(Box<AgUiDecoder>),
}

#[derive(Debug)]
enum Target {
    AgentApi(AgentApiEncoder, u64),
    Responses(ResponsesEncoder),
    A2a(A2aEncoder),
    AgUi(AgUiEncoder),
}

/// Translates a stream between protocols: bytes of `from` pushed in chunks split anywhere,
/// bytes of `to` out, event by event.
///
/// Supported: every ordered pair of `agent-api`, `openai-responses`, `a2a`, `a2a-0.3` and
/// `ag-ui` (also a protocol to itself, which normalises it: Agent API `sequence_number`s
/// renumbered from 0, Responses output indices made dense). AG-UI is read through the
/// `@ag-ui/client` pipeline ([`AgUiDecoder`] has the mapping) and written by [`AgUiEncoder`]
/// (an input that ends before its terminal response ends with `RUN_ERROR` at
/// [`Translator::finish`]).
///
/// # Example
///
/// ```
/// use agentwire::Protocol;
/// use agentwire::translate::Translator;
///
/// let mut t = Translator::new(Protocol::AgentApi, Protocol::OpenAiResponses)?;
/// let input = concat!(
///     "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"id\":\"r1\"}\n\n",
///     "data: {\"object\":\"content\",\"type\":\"text\",\"index\":0,\"delta\":true,",
///     "\"msg_id\":\"m1\",\"text\":\"Hi\"}\n\n",
/// );
/// let mut out = t.push(&input.as_bytes()[..50])?;
/// out.extend(t.push(&input.as_bytes()[50..])?);
/// out.extend(t.finish()?);
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.contains("event: response.output_text.delta\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct Translator {
    decoder: FrameDecoder,
    source: Source,
    target: Target,
    events: Vec<Event>,
    warnings: Vec<Warning>,
    run: Run,
    /// What the target leaves out, reported once per kind.
    coverage: Coverage,
    /// What a failing `push` or `finish` translated before its error, for [`Translator::fail`].
    unsent: Vec<u8>,
}

/// What a [`Translator`] knows of the run it translates, for [`Translator::fail`].
#[derive(Debug, Default)]
struct Run {
    /// The last non-terminal response event (without its `output`): a failure carries its id.
    response: Option<AgentResponse>,
    /// Whether a terminal event was written (or [`Translator::fail`] was called).
    ended: bool,
}

impl Run {
    fn see(&mut self, event: &Event) {
        match event {
            Event::Response(r)
                if matches!(
                    r.status,
                    RunStatus::Completed
                        | RunStatus::Failed
                        | RunStatus::Rejected
                        | RunStatus::Canceled
                        | RunStatus::Incomplete
                ) =>
            {
                self.ended = true;
            }
            Event::Response(r) => {
                let mut copy = r.clone();
                copy.output = None;
                self.response = Some(copy);
            }
            Event::ServerError(_) => self.ended = true,
            _ => {}
        }
    }
}

impl Translator {
    /// A translator from `from` to `to`, with default limits.
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` when the target's encoder cannot be made (every pair is supported).
    pub fn new(from: Protocol, to: Protocol) -> Result<Self> {
        Self::with_options(from, to, TranslateOptions::default())
    }

    /// A translator with options.
    ///
    /// # Errors
    ///
    /// `INVALID_OPTION` when the target's encoder cannot be made (every pair is supported).
    pub fn with_options(from: Protocol, to: Protocol, options: TranslateOptions) -> Result<Self> {
        let source = match from {
            Protocol::AgentApi => Source::AgentApi,
            Protocol::OpenAiResponses => Source::Responses(ResponsesDecoder::new()),
            // One decoder reads both A2A versions.
            Protocol::A2a | Protocol::A2a03 => Source::A2a(A2aDecoder::new()),
            Protocol::AgUi => Source::AgUi(Box::new(AgUiDecoder::new())),
        };
        let target = match to {
            Protocol::AgentApi => Target::AgentApi(AgentApiEncoder::new(Format::Sse)?, 0),
            Protocol::OpenAiResponses => {
                Target::Responses(ResponsesEncoder::sse().with_model(options.model))
            }
            Protocol::A2a => {
                Target::A2a(A2aEncoder::new(options.rpc_id).with_version(A2aVersion::V1_0))
            }
            Protocol::A2a03 => Target::A2a(A2aEncoder::new(options.rpc_id)),
            Protocol::AgUi => {
                let mut enc = AgUiEncoder::sse();
                if let Some(id) = options.thread_id {
                    enc = enc.with_thread_id(id);
                }
                if let Some(id) = options.run_id {
                    enc = enc.with_run_id(id);
                }
                Target::AgUi(enc)
            }
        };
        Ok(Translator {
            decoder: FrameDecoder::new(Format::Auto).with_limits(options.limits),
            source,
            target,
            events: Vec::new(),
            warnings: Vec::new(),
            run: Run::default(),
            coverage: Coverage::new(to),
            unsent: Vec::new(),
        })
    }

    /// Reads a chunk and returns the translated bytes it completed.
    ///
    /// # Errors
    ///
    /// Framing errors (`EVENT_TOO_LARGE`, `INVALID_UTF8`), fatal as for the assembler. What the
    /// chunk translated before the error is not lost: [`Translator::fail`] returns it first, so
    /// the output does not depend on where the input was cut.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let (decoder, mut cx) = self.parts();
        let result = decoder.push(chunk, |frame| on_frame(&mut cx, &frame, &mut out));
        self.keep_on_error(result, out)
    }

    /// The frame decoder, and the parts a frame goes through.
    fn parts(&mut self) -> (&mut FrameDecoder, Cx<'_>) {
        let cx = Cx {
            source: &mut self.source,
            target: &mut self.target,
            events: &mut self.events,
            warnings: &mut self.warnings,
            run: &mut self.run,
            coverage: &mut self.coverage,
        };
        (&mut self.decoder, cx)
    }

    /// `out`, or on error the error, keeping `out` for [`Translator::fail`].
    fn keep_on_error(&mut self, result: Result<()>, out: Vec<u8>) -> Result<Vec<u8>> {
        match result {
            Ok(()) => Ok(out),
            Err(error) => {
                self.unsent.extend(out);
                Err(error)
            }
        }
    }

    /// Ends the input (a last event without its closing blank line is read) and returns the
    /// last bytes.
    ///
    /// # Errors
    ///
    /// As [`Translator::push`] (what was translated before the error comes with `fail`).
    pub fn finish(&mut self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let (decoder, mut cx) = self.parts();
        let result = decoder.finish(|frame| on_frame(&mut cx, &frame, &mut out));
        let result = result.and_then(|()| {
            if let Source::A2a(d) = cx.source {
                d.finish(cx.events);
                cx.encode_events(0, &mut out)?;
            }
            if let Target::AgUi(enc) = cx.target {
                enc.finish(&mut out);
            }
            Ok(())
        });
        self.keep_on_error(result, out)
    }

    /// Ends the output with the target protocol's failure event after the input failed (the
    /// source stream broke off, or a chunk could not be read): a `failed` response carrying
    /// `error` and the run's id, written as AG-UI `RUN_ERROR`, Responses `response.failed`, an
    /// A2A `failed` status or an Agent API `failed` response, after what a failing `push` or
    /// `finish` translated before its error. Returns only that when the run already ended (its
    /// terminal event was translated, or `fail` was called before).
    ///
    /// # Errors
    ///
    /// As [`Translator::push`] (an id could not be generated for a run that never started).
    pub fn fail(&mut self, error: ErrorInfo) -> Result<Vec<u8>> {
        let mut out = std::mem::take(&mut self.unsent);
        if self.run.ended {
            return Ok(out);
        }
        self.run.ended = true;
        let mut response = match self.run.response.take() {
            Some(response) => response,
            None => {
                let mut response = AgentResponse::with_id(String::new(), 0);
                response.id = None;
                response
            }
        };
        response.failed(error);
        let saved = out.len();
        if let Err(e) = encode_event(&mut self.target, Event::Response(response), &mut out) {
            // The bytes translated before stay for the next call; no half-written event.
            out.truncate(saved);
            self.unsent = out;
            return Err(e);
        }
        Ok(out)
    }

    /// Problems tolerated so far (unknown events, invalid payloads, …; at most 1000).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The HTTP `Content-Type` of the output.
    pub fn content_type(&self) -> &'static str {
        crate::codec::SSE_CONTENT_TYPE
    }
}

/// Options of a [`Translator`].
#[derive(Debug, Clone, Default)]
pub struct TranslateOptions {
    model: String,
    rpc_id: serde_json::Value,
    limits: Limits,
    thread_id: Option<String>,
    run_id: Option<String>,
}

impl TranslateOptions {
    /// The defaults: model `""`, JSON-RPC id `null`, default limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `model` named in Responses output.
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = model.into();
        self
    }

    /// The JSON-RPC request id A2A output answers.
    #[must_use]
    pub fn with_rpc_id(mut self, id: serde_json::Value) -> Self {
        self.rpc_id = id;
        self
    }

    /// AG-UI output's `threadId` (default: the run's `session_id`, else `thread_<uuid4>`).
    #[must_use]
    pub fn with_thread_id(mut self, id: impl Into<String>) -> Self {
        self.thread_id = Some(id.into());
        self
    }

    /// AG-UI output's `runId` (default: the response `id`, else `run_<uuid4>`).
    #[must_use]
    pub fn with_run_id(mut self, id: impl Into<String>) -> Self {
        self.run_id = Some(id.into());
        self
    }

    /// Framing limits of the input.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// The translator's parts a frame goes through.
struct Cx<'a> {
    source: &'a mut Source,
    target: &'a mut Target,
    events: &'a mut Vec<Event>,
    warnings: &'a mut Vec<Warning>,
    run: &'a mut Run,
    coverage: &'a mut Coverage,
}

impl Cx<'_> {
    fn warn(&mut self, w: Warning, offset: u64) {
        keep(self.warnings, w, offset);
    }

    /// Encodes the decoded events (what the target leaves out reported at `offset`).
    fn encode_events(&mut self, offset: u64, out: &mut Vec<u8>) -> Result<()> {
        for event in self.events.drain(..) {
            self.run.see(&event);
            if let Some(w) = self.coverage.see(&event) {
                keep(self.warnings, w, offset);
            }
            encode_event(self.target, event, out)?;
        }
        Ok(())
    }
}

/// Keeps `w` (at `offset`) among the first [`MAX_WARNINGS`].
fn keep(warnings: &mut Vec<Warning>, mut w: Warning, offset: u64) {
    w.offset = Some(offset);
    if warnings.len() < MAX_WARNINGS {
        warnings.push(w);
    }
}

fn on_frame(cx: &mut Cx<'_>, frame: &Frame<'_>, out: &mut Vec<u8>) -> Result<()> {
    let data = frame.data();
    if data.is_empty() || data == "[DONE]" {
        return Ok(());
    }
    let mut new_warnings = Vec::new();
    match &mut *cx.source {
        Source::AgentApi => match parse_event(data) {
            Ok(e) => cx.events.push(e),
            Err(e) => new_warnings.push(Warning::new(
                WarningCode::InvalidEvent,
                format!("An event was skipped: {}", e.message()),
            )),
        },
        Source::Responses(d) => d.decode(data, cx.events, &mut new_warnings)?,
        Source::A2a(d) => d.decode(data, cx.events, &mut new_warnings)?,
        Source::AgUi(d) => d.decode(data, cx.events, &mut new_warnings),
    }
    for w in new_warnings {
        cx.warn(w, frame.offset());
    }
    cx.encode_events(frame.offset(), out)
}

/// Writes one Agent API event through the target's encoder.
fn encode_event(target: &mut Target, mut event: Event, out: &mut Vec<u8>) -> Result<()> {
    if let Event::ServerError(e) = event {
        let mut r = AgentResponse::with_id(String::new(), 0);
        r.id = None;
        r.failed(ErrorInfo::new("SERVER_ERROR", e.error));
        event = Event::Response(r);
    }
    let (enc, seq): (&mut dyn Encoder, u64) = match target {
        Target::AgentApi(enc, seq) => {
            let n = i64::try_from(*seq).unwrap_or(i64::MAX);
            match &mut event {
                Event::Response(r) => r.sequence_number = Some(n),
                Event::Message(m) => m.sequence_number = Some(n),
                Event::Content(c) => c.sequence_number = Some(n),
                _ => return Ok(()),
            }
            *seq += 1;
            (enc, *seq - 1)
        }
        Target::Responses(enc) => (enc, 0),
        Target::A2a(enc) => (enc, 0),
        Target::AgUi(enc) => (enc, 0),
    };
    with_builder_event(&event, seq, |b| enc.encode(b, out))
}

/// Views an Agent API event as the builder event it is (deltas as light views).
fn with_builder_event(
    event: &Event,
    seq: u64,
    f: impl FnOnce(&BuilderEvent<'_>) -> Result<()>,
) -> Result<()> {
    match event {
        Event::Response(r) => f(&BuilderEvent::Response(r)),
        Event::Message(m) if m.status == RunStatus::Completed => {
            f(&BuilderEvent::MessageCompleted(m))
        }
        Event::Message(m) => f(&BuilderEvent::MessageStarted(m)),
        Event::Content(c) => {
            let index = c.index.and_then(|i| u32::try_from(i).ok()).unwrap_or(0);
            let msg_id = c.msg_id.as_deref().unwrap_or("");
            match (
                &c.body,
                c.delta == Some(true) && c.status != Some(RunStatus::Completed),
            ) {
                (ContentBody::Text { text }, true) => f(&BuilderEvent::TextDelta(TextDelta {
                    sequence_number: seq,
                    msg_id,
                    index,
                    content_type: ContentType::Text,
                    text: text.as_deref().unwrap_or(""),
                })),
                (ContentBody::Refusal { refusal }, true) => {
                    f(&BuilderEvent::TextDelta(TextDelta {
                        sequence_number: seq,
                        msg_id,
                        index,
                        content_type: ContentType::Refusal,
                        text: refusal.as_deref().unwrap_or(""),
                    }))
                }
                (ContentBody::Data { data: Some(data) }, true) => {
                    f(&BuilderEvent::DataDelta(DataDelta {
                        sequence_number: seq,
                        msg_id,
                        index,
                        data,
                    }))
                }
                _ if c.status == Some(RunStatus::Completed) => {
                    f(&BuilderEvent::ContentCompleted(c))
                }
                _ => f(&BuilderEvent::ContentSnapshot(c)),
            }
        }
        _ => Ok(()),
    }
}
