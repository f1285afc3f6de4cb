//! [`StreamAssembler`]: bytes in, coalesced updates and a snapshot out.

use serde_json::{Map, Value};

use super::agent_api::{AgentApiFold, EventCx, SnapshotView, ToolCall, ToolCallChanges};
#[cfg(feature = "full")]
use super::agui::AgUiFold;
use super::detect::detect;
use super::options::AssemblerOptions;
use super::outcome::Outcome;
use super::update::{Batch, Update, UpdateSink};
use crate::codec::{Frame, FrameDecoder};
use crate::Protocol;
use crate::{Error, ErrorCode, Result};
use crate::{Warning, WarningCode};

/// The most warnings a snapshot keeps; later ones are counted in one `TOO_MANY_WARNINGS`
/// warning (a final `TRUNCATED` one is kept too).
pub const MAX_WARNINGS: usize = 1000;

/// Folds a protocol's event stream, pushed as raw bytes split anywhere, into a snapshot of the
/// run, and reports what each chunk changed as a batch of [`Update`]s.
///
/// # Example
///
/// ```
/// use agentwire::assembler::{AssemblerOptions, StreamAssembler, Update};
///
/// let mut asm = StreamAssembler::new(AssemblerOptions::new());
/// let stream = concat!(
///     "data: {\"sequence_number\":0,\"object\":\"response\",\"status\":\"created\",\"id\":\"r1\"}\n\n",
///     "data: {\"sequence_number\":1,\"object\":\"content\",\"type\":\"text\",\"index\":0,",
///     "\"delta\":true,\"msg_id\":\"m1\",\"text\":\"Hel\"}\n\n",
///     "data: {\"sequence_number\":2,\"object\":\"content\",\"type\":\"text\",\"index\":0,",
///     "\"delta\":true,\"msg_id\":\"m1\",\"text\":\"lo\"}\n\n",
/// );
/// // Split in the middle of an event: nothing is lost.
/// let (a, b) = stream.as_bytes().split_at(100);
/// let mut updates = asm.push(a)?;
/// updates.extend(asm.push(b)?);
/// updates.extend(asm.finish()?);
/// let text: String = updates
///     .iter()
///     .filter_map(|u| match u {
///         Update::Text { delta, .. } => Some(delta.as_str()),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(text, "Hello");
/// assert_eq!(asm.outcome().as_str(), "truncated"); // no terminal response event
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct StreamAssembler {
    decoder: FrameDecoder,
    inner: Inner,
}

/// Everything but the decoder, so the decoder's sink can borrow it.
#[derive(Debug)]
struct Inner {
    options: AssemblerOptions,
    protocol: Option<Protocol>,
    agent_api: AgentApiFold,
    /// Responses / A2A streams: decoded into Agent API events for `agent_api`.
    #[cfg(feature = "full")]
    adapter: super::adapter::AdapterFold,
    #[cfg(feature = "full")]
    ag_ui: AgUiFold,
    batch: Batch,
    /// Updates rendered but not yet returned (after an error, or for `take_updates`).
    pending: Vec<Update>,
    warnings: Vec<Warning>,
    warnings_dropped: u64,
    failure: Option<Error>,
    finished: bool,
    events: u64,
    /// Bytes pushed so far: the end of the input, where a truncation is reported.
    bytes: u64,
}

impl StreamAssembler {
    /// A new assembler.
    pub fn new(options: AssemblerOptions) -> Self {
        StreamAssembler {
            decoder: FrameDecoder::new(options.format()).with_limits(options.limits()),
            inner: Inner {
                protocol: options.protocol(),
                options,
                agent_api: AgentApiFold::with_fast_path(!options.general_path_only()),
                #[cfg(feature = "full")]
                adapter: super::adapter::AdapterFold::default(),
                #[cfg(feature = "full")]
                ag_ui: AgUiFold::new(options.events()),
                batch: Batch::default(),
                pending: Vec::new(),
                warnings: Vec::new(),
                warnings_dropped: 0,
                failure: None,
                finished: false,
                events: 0,
                bytes: 0,
            },
        }
    }

    /// Reads the next chunk of the byte stream, split anywhere (even inside a UTF-8 character),
    /// and returns what it changed.
    ///
    /// # Errors
    ///
    /// Framing errors (`EVENT_TOO_LARGE`, `INVALID_UTF8`) and, in strict mode, protocol
    /// violations are fatal: the assembler stops, its outcome becomes `truncated` (unless a
    /// terminal event had settled it), and later calls fail with `FINISHED`. The updates of
    /// the events before the error are kept: [`StreamAssembler::take_updates`] returns them.
    /// The snapshot stays readable.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<Update>> {
        let mut updates = Vec::new();
        self.push_into(chunk, &mut updates)?;
        Ok(updates)
    }

    /// As [`StreamAssembler::push`], handing the updates to `sink` instead of returning them.
    pub(crate) fn push_into(&mut self, chunk: &[u8], sink: &mut dyn UpdateSink) -> Result<()> {
        self.inner.check_open()?;
        self.inner.bytes += chunk.len() as u64;
        let inner = &mut self.inner;
        let result = self.decoder.push(chunk, |frame| inner.on_frame(frame));
        self.inner.settle(result, sink)
    }

    /// Ends the input: flushes a last event that had no closing blank line, settles the
    /// outcome (`truncated` when no terminal event came), releases the buffers, and returns
    /// the last updates.
    ///
    /// # Errors
    ///
    /// As [`StreamAssembler::push`]; in strict mode, a stream without a terminal event is an
    /// error too (the outcome is still settled to `truncated`).
    pub fn finish(&mut self) -> Result<Vec<Update>> {
        let mut updates = Vec::new();
        self.finish_into(&mut updates)?;
        Ok(updates)
    }

    /// As [`StreamAssembler::finish`], handing the updates to `sink` instead of returning them.
    pub(crate) fn finish_into(&mut self, sink: &mut dyn UpdateSink) -> Result<()> {
        self.inner.check_open()?;
        let inner = &mut self.inner;
        let result = self.decoder.finish(|frame| inner.on_frame(frame));
        self.decoder.reset();
        let result = result.and_then(|()| self.inner.settle_end());
        self.inner.finished = true;
        self.inner.batch.response = true;
        self.inner.settle(result, sink)
    }

    /// Updates produced but not returned because the call that produced them failed.
    pub fn take_updates(&mut self) -> Vec<Update> {
        self.inner.render_pending();
        std::mem::take(&mut self.inner.pending)
    }

    /// How the stream ended so far.
    pub fn outcome(&self) -> Outcome {
        self.inner.outcome()
    }

    /// The protocol: configured, or detected from the first event (`None` until then).
    pub fn protocol(&self) -> Option<Protocol> {
        self.inner.protocol
    }

    /// Warnings so far: at most [`MAX_WARNINGS`], then one `TOO_MANY_WARNINGS` counting those
    /// dropped, and the final `TRUNCATED` one if the stream was cut.
    pub fn warnings(&self) -> &[Warning] {
        &self.inner.warnings
    }

    /// Number of events read.
    pub fn events(&self) -> u64 {
        self.inner.events
    }

    /// The run as a JSON value, built on demand. For the Agent API: an `AgentResponse` as the
    /// reference would serialise its final `response` event (every message received so far in
    /// `output`, parts `completed` where the stream completed them), plus `outcome` and
    /// `warnings`. Once the final response arrives, `output` is its list, in its order;
    /// messages it leaves out (never completed) move to `incompleteMessages`. Events with an
    /// unknown `object` are kept in `unknownEvents`.
    ///
    /// For `openai-responses`: the Responses `response` object as the official client
    /// accumulates it, plus `outcome` and `warnings`.
    ///
    /// For AG-UI: `{threadId, runId, messages, state, outcome, error?, warnings}` with
    /// `messages` and `state` as `@ag-ui/client` 1.0 holds them after the same events, plus
    /// `result`, `usage`, `interrupts` and `pendingToolCallIds` when the run reported them.
    /// `error` is `{source: "client", code, message}` when the client rejected the stream, or
    /// `{source: "run", message, code?}` after a `RUN_ERROR`.
    pub fn snapshot(&self) -> Value {
        match self.snapshot_view() {
            Snapshot::Value(value) => value,
            Snapshot::AgentApi(view) => {
                serde_json::to_value(&view).unwrap_or_else(|_| Value::Object(Map::new()))
            }
        }
    }

    /// The snapshot as something to serialise: for the Agent API (and A2A), a view of the fold
    /// written without copying it (the JS face builds the JS object from it directly).
    pub(crate) fn snapshot_view(&self) -> Snapshot<'_> {
        #[cfg(feature = "full")]
        if self.inner.protocol == Some(Protocol::AgUi) {
            let mut map = self.inner.ag_ui.snapshot();
            map.insert(
                "outcome".to_owned(),
                Value::String(self.outcome().as_str().to_owned()),
            );
            map.insert(
                "warnings".to_owned(),
                serde_json::to_value(&self.inner.warnings).unwrap_or(Value::Array(Vec::new())),
            );
            return Snapshot::Value(Value::Object(map));
        }
        if let Some(mut map) = self.inner.responses_snapshot() {
            map.insert(
                "outcome".to_owned(),
                Value::String(self.outcome().as_str().to_owned()),
            );
            map.insert(
                "warnings".to_owned(),
                serde_json::to_value(&self.inner.warnings).unwrap_or(Value::Array(Vec::new())),
            );
            return Snapshot::Value(Value::Object(map));
        }
        Snapshot::AgentApi(SnapshotView::new(
            &self.inner.agent_api,
            self.outcome(),
            &self.inner.warnings,
        ))
    }

    /// Every tool call so far (`function_call`, `plugin_call`, `mcp_call` messages), with raw
    /// arguments and the matching output.
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        #[cfg(feature = "full")]
        if self.inner.protocol == Some(Protocol::AgUi) {
            return self.inner.ag_ui.tool_calls();
        }
        self.inner.agent_api.tool_calls()
    }

    /// What changed in the tool calls since the last call: the calls that changed or are new,
    /// by position, with their arguments' raw appends and the ops on the best-effort parsed
    /// value. The first call lists every call and starts incremental parsing; after it, a call
    /// costs O(what changed since) (nothing when nothing changed), so reading parsed arguments
    /// after every chunk stays linear.
    pub fn tool_call_changes(&mut self) -> ToolCallChanges {
        #[cfg(feature = "full")]
        if self.inner.protocol == Some(Protocol::AgUi) {
            return self.inner.ag_ui.tool_call_changes();
        }
        self.inner.agent_api.tool_call_changes()
    }

    /// The best-effort parse of one tool call's arguments (O(size of the arguments)).
    pub fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        #[cfg(feature = "full")]
        if self.inner.protocol == Some(Protocol::AgUi) {
            return self.inner.ag_ui.parsed_arguments(message_id, index);
        }
        self.inner.agent_api.parsed_arguments(message_id, index)
    }
}

impl Inner {
    /// For an OpenAI Responses stream, the Responses `response` object the official client
    /// would hold.
    #[cfg(feature = "full")]
    fn responses_snapshot(&self) -> Option<Map<String, Value>> {
        (self.protocol == Some(Protocol::OpenAiResponses))
            .then(|| self.adapter.responses_snapshot())
    }

    /// Without the `full` feature there are no Responses streams.
    #[cfg(not(feature = "full"))]
    fn responses_snapshot(&self) -> Option<Map<String, Value>> {
        None
    }

    fn outcome(&self) -> Outcome {
        let outcome = match self.protocol {
            #[cfg(feature = "full")]
            Some(Protocol::AgUi) => self.ag_ui.outcome(),
            _ => self.agent_api.outcome,
        };
        if !outcome.is_settled() && (self.finished || self.failure.is_some()) {
            return Outcome::Truncated;
        }
        outcome
    }

    fn check_open(&self) -> Result<()> {
        if let Some(failure) = &self.failure {
            return Err(Error::new(
                ErrorCode::Finished,
                format!(
                    "The assembler stopped at an earlier error ({}: {}).",
                    failure.code(),
                    failure.message()
                ),
            ));
        }
        if self.finished {
            return Err(Error::new(
                ErrorCode::Finished,
                "The assembler has finished; create a new one for another stream.",
            ));
        }
        Ok(())
    }

    /// Hands the recorded changes to `sink` as updates; after an error, records the failure
    /// and keeps them for [`StreamAssembler::take_updates`] instead.
    fn settle(&mut self, result: Result<()>, sink: &mut dyn UpdateSink) -> Result<()> {
        match result {
            Ok(()) => {
                self.render(sink);
                Ok(())
            }
            Err(error) => {
                self.failure = Some(error.clone());
                self.batch.response = true;
                self.render_pending();
                Err(error)
            }
        }
    }

    /// Renders the recorded changes into `pending` (updates not returned yet).
    fn render_pending(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        self.render(&mut pending);
        self.pending = pending;
    }

    /// Renders the recorded changes into `sink` and clears them.
    fn render(&mut self, sink: &mut dyn UpdateSink) {
        #[cfg(feature = "full")]
        let quiet = self.batch.is_empty() && !self.ag_ui.has_changes();
        #[cfg(not(feature = "full"))]
        let quiet = self.batch.is_empty();
        if quiet {
            return;
        }
        let outcome = self.outcome();
        for warning in &self.batch.warnings {
            keep_warning(&mut self.warnings, &mut self.warnings_dropped, warning);
        }
        #[cfg(feature = "full")]
        if self.protocol == Some(Protocol::AgUi) {
            self.ag_ui.render(&mut self.batch, outcome, sink);
            self.batch.clear();
            return;
        }
        self.agent_api.render(&mut self.batch, outcome, sink);
        self.batch.clear();
    }

    /// End of input without errors: settle a missing terminal event.
    fn settle_end(&mut self) -> Result<()> {
        #[cfg(feature = "full")]
        if self.protocol == Some(Protocol::AgUi) {
            let mut cx = EventCx {
                batch: &mut self.batch,
                strict: self.options.strict(),
                offset: self.bytes,
                sequence_number: None,
            };
            return self.ag_ui.settle_end(&mut cx);
        }
        if self.agent_api.outcome.is_settled() {
            return Ok(());
        }
        let open = self.agent_api.open_messages();
        let message = if open.is_empty() {
            "The stream ended without a terminal response event.".to_owned()
        } else {
            format!(
                "The stream ended without a terminal response event; messages left open: {}.",
                open.join(", ")
            )
        };
        let mut cx = self.cx(self.bytes);
        cx.warn(WarningCode::Truncated, message)
    }

    fn on_frame(&mut self, frame: Frame<'_>) -> Result<()> {
        let data = frame.data();
        if data.is_empty() || data == "[DONE]" {
            return Ok(());
        }
        self.events += 1;
        let protocol = match self.protocol {
            Some(p) => p,
            None => match detect(data, frame.event()) {
                Some(p) => {
                    self.protocol = Some(p);
                    p
                }
                None => {
                    let mut cx = self.cx(frame.offset());
                    return cx.warn(
                        WarningCode::InvalidEvent,
                        "An event that names no known protocol was skipped.",
                    );
                }
            },
        };
        let mut cx = EventCx {
            batch: &mut self.batch,
            strict: self.options.strict(),
            offset: frame.offset(),
            sequence_number: None,
        };
        match protocol {
            Protocol::AgentApi => self.agent_api.apply(data, &mut cx),
            #[cfg(not(feature = "full"))]
            other => Err(Error::new(
                ErrorCode::ProtocolViolation,
                format!(
                    "The stream is \"{}\", but this build reads the Agent API only (agentwire \
                     without its \"full\" feature; in JavaScript, import StreamAssembler from \
                     \"agentwire\" rather than \"agentwire/lite\").",
                    other.as_str()
                ),
            )
            .with_offset(frame.offset())),
            #[cfg(feature = "full")]
            Protocol::OpenAiResponses | Protocol::A2a => {
                self.adapter
                    .apply(protocol, data, &mut self.agent_api, &mut cx)
            }
            #[cfg(feature = "full")]
            Protocol::AgUi => self
                .ag_ui
                .apply(data, &mut cx)
                .map_err(|e| match e.offset() {
                    Some(_) => e,
                    None => e.with_offset(frame.offset()),
                }),
        }
    }

    fn cx(&mut self, offset: u64) -> EventCx<'_> {
        EventCx {
            batch: &mut self.batch,
            strict: self.options.strict(),
            offset,
            sequence_number: None,
        }
    }
}

/// A snapshot to serialise: a built value, or a view of the Agent API fold.
pub(crate) enum Snapshot<'a> {
    Value(Value),
    AgentApi(SnapshotView<'a>),
}

impl serde::Serialize for Snapshot<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Snapshot::Value(value) => value.serialize(s),
            Snapshot::AgentApi(view) => view.serialize(s),
        }
    }
}

impl Default for StreamAssembler {
    fn default() -> Self {
        StreamAssembler::new(AssemblerOptions::new())
    }
}

/// Keeps `warning` for the snapshot in `kept`: the first [`MAX_WARNINGS`], then one
/// `TOO_MANY_WARNINGS` counting the ones dropped (`dropped`); a `TRUNCATED` warning (at most
/// one, at the end) is always kept.
fn keep_warning(kept: &mut Vec<Warning>, dropped: &mut u64, warning: &Warning) {
    if kept.len() < MAX_WARNINGS || warning.code == WarningCode::Truncated {
        kept.push(warning.clone());
        return;
    }
    *dropped += 1;
    let message = format!("{dropped} more warnings were dropped after the first {MAX_WARNINGS}.");
    match kept
        .get_mut(MAX_WARNINGS)
        .filter(|w| w.code == WarningCode::TooManyWarnings)
    {
        Some(counter) => counter.message = message,
        None => kept.push(Warning {
            code: WarningCode::TooManyWarnings,
            message,
            offset: warning.offset,
            sequence_number: None,
        }),
    }
}
