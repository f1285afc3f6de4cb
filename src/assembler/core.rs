//! [`StreamAssembler`]: bytes in, coalesced updates and a snapshot out.

use serde_json::{Map, Value};

use super::agent_api::{EventCx, ToolCall, ToolCallChanges};
use super::detect::detect;
use super::fold::{agent_api_fold, fold_for, Fold, ProtocolFold, Snapshot};
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
    /// The protocol's fold (an Agent API fold until the protocol is known).
    fold: Fold,
    /// A protocol this build does not read (without `full`), once the stream named it.
    unread: Option<Protocol>,
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
    /// The SSE id of the last event applied (empty while none had one).
    last_event_id: String,
    /// After a lost connection: events whose numeric id is at most this are the resumed
    /// stream's replay of what was applied, and are skipped.
    resume_floor: Option<u64>,
    /// Events skipped as already applied.
    replayed: u64,
}

impl StreamAssembler {
    /// A new assembler.
    pub fn new(options: AssemblerOptions) -> Self {
        // The configured protocol's fold, or an Agent API fold until the stream names one.
        let configured = options.protocol().map(|p| (p, fold_for(p, &options)));
        let (fold, unread) = match configured {
            Some((_, Some(fold))) => (fold, None),
            Some((p, None)) => (agent_api_fold(&options), Some(p)),
            None => (agent_api_fold(&options), None),
        };
        StreamAssembler {
            decoder: FrameDecoder::new(options.format()).with_limits(options.limits()),
            inner: Inner {
                protocol: options.protocol(),
                options,
                fold,
                unread,
                batch: Batch::default(),
                pending: Vec::new(),
                warnings: Vec::new(),
                warnings_dropped: 0,
                failure: None,
                finished: false,
                events: 0,
                bytes: 0,
                last_event_id: String::new(),
                resume_floor: None,
                replayed: 0,
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
        // The terminal `response` update was reported with the event that ended the run; the
        // end of input reports one only when it settles the outcome itself (`truncated`).
        let before = self.inner.outcome();
        self.inner.finished = true;
        if self.inner.outcome() != before {
            self.inner.batch.response = true;
        }
        self.inner.settle(result, sink)
    }

    /// The connection the stream came on broke, and the stream will continue on a new one (a
    /// resume with `Last-Event-ID` = [`StreamAssembler::last_event_id`]): the half-received
    /// event at the cut is dropped, and the new connection's events up to the last one applied
    /// (by numeric SSE id) are skipped as a replay, so nothing is lost or doubled at the seam.
    pub fn connection_lost(&mut self) {
        self.decoder.drop_partial();
        self.inner.resume_floor = self.inner.last_event_id.parse().ok();
    }

    /// The SSE id of the last event applied (`None` before one carried an id): the cursor to
    /// resume from. For agentwire's servers, the number of events applied minus one.
    pub fn last_event_id(&self) -> Option<&str> {
        Some(self.inner.last_event_id.as_str()).filter(|id| !id.is_empty())
    }

    /// The reconnection time (ms) the stream asked for with an SSE `retry:` field, if any.
    pub fn retry(&self) -> Option<u64> {
        self.decoder.retry()
    }

    /// How many events were skipped as a resumed stream's replay of events already applied.
    pub fn replayed(&self) -> u64 {
        self.inner.replayed
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
        self.inner
            .fold
            .snapshot(self.outcome(), &self.inner.warnings)
    }

    /// Every tool call so far (`function_call`, `plugin_call`, `mcp_call` messages), with raw
    /// arguments and the matching output.
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        self.inner.fold.tool_calls()
    }

    /// What changed in the tool calls since the last call: the calls that changed or are new,
    /// by position, with their arguments' raw appends and the ops on the best-effort parsed
    /// value. The first call lists every call and starts incremental parsing; after it, a call
    /// costs O(what changed since) (nothing when nothing changed), so reading parsed arguments
    /// after every chunk stays linear.
    pub fn tool_call_changes(&mut self) -> ToolCallChanges {
        self.inner.fold.tool_call_changes()
    }

    /// The best-effort parse of one tool call's arguments (O(size of the arguments)).
    pub fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        self.inner.fold.parsed_arguments(message_id, index)
    }
}

impl Inner {
    fn outcome(&self) -> Outcome {
        let outcome = self.fold.outcome();
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
        let quiet = self.batch.is_empty() && !self.fold.has_changes();
        if quiet {
            return;
        }
        let outcome = self.outcome();
        for warning in &self.batch.warnings {
            keep_warning(&mut self.warnings, &mut self.warnings_dropped, warning);
        }
        self.fold.render(&mut self.batch, outcome, sink);
        self.batch.clear();
    }

    /// End of input without errors: settle a missing terminal event.
    fn settle_end(&mut self) -> Result<()> {
        let mut cx = EventCx {
            batch: &mut self.batch,
            strict: self.options.strict(),
            offset: self.bytes,
            sequence_number: None,
        };
        self.fold.settle_end(&mut cx)
    }

    fn on_frame(&mut self, frame: Frame<'_>) -> Result<()> {
        let data = frame.data();
        if data.is_empty() || data == "[DONE]" {
            return Ok(());
        }
        if let Some(id) = frame.id() {
            if let Some(floor) = self.resume_floor {
                match id.parse::<u64>() {
                    Ok(n) if n <= floor => {
                        self.replayed += 1;
                        return Ok(());
                    }
                    _ => self.resume_floor = None,
                }
            }
            if id != self.last_event_id {
                id.clone_into(&mut self.last_event_id);
            }
        }
        self.events += 1;
        if self.protocol.is_none() {
            let Some(p) = detect(data, frame.event()) else {
                let mut cx = self.cx(frame.offset());
                return cx.warn(
                    WarningCode::InvalidEvent,
                    "An event that names no known protocol was skipped.",
                );
            };
            self.protocol = Some(p);
            if p != Protocol::AgentApi {
                match fold_for(p, &self.options) {
                    Some(fold) => self.fold = fold,
                    None => self.unread = Some(p),
                }
            }
        }
        if let Some(protocol) = self.unread {
            return Err(Error::new(
                ErrorCode::ProtocolViolation,
                format!(
                    "The stream is \"{}\", but this build reads the Agent API only (agentwire \
                     without its \"client\" feature; in JavaScript, import StreamAssembler from \
                     \"agentwire/client\" or \"agentwire\" rather than \"agentwire/lite\").",
                    protocol.as_str()
                ),
            )
            .with_offset(frame.offset()));
        }
        let mut cx = EventCx {
            batch: &mut self.batch,
            strict: self.options.strict(),
            offset: frame.offset(),
            sequence_number: None,
        };
        self.fold.apply(data, &mut cx)
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
