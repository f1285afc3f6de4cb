//! The assembler's side of the adapters: Responses and A2A events decoded into Agent API events
//! for the Agent API fold (which gives updates, tool calls and the outcome), plus the
//! Responses-native snapshot.

use serde_json::Value;

use super::agent_api::{AgentApiFold, EventCx, ToolCall, ToolCallChanges};
use super::fold::{with_outcome, ProtocolFold, Snapshot};
use super::outcome::Outcome;
use super::update::{Batch, UpdateSink};
use crate::a2a::A2aDecoder;
use crate::responses::{ResponsesDecoder, ResponsesSnapshot};
use crate::Result;
use crate::{Protocol, Warning, WarningCode};

/// The fold of a Responses or A2A stream: its decoder turns each event into Agent API events
/// for an Agent API fold (which gives updates, tool calls and the outcome); a Responses stream
/// also keeps the Responses-native snapshot.
#[derive(Debug)]
pub(crate) struct AdapterFold {
    protocol: Protocol,
    responses: ResponsesDecoder,
    snapshot: ResponsesSnapshot,
    a2a: A2aDecoder,
    events: Vec<crate::protocol::Event>,
    warnings: Vec<crate::Warning>,
    fold: AgentApiFold,
}

impl AdapterFold {
    /// The fold of a `protocol` stream (Responses or A2A) over `fold`.
    pub(crate) fn new(protocol: Protocol, fold: AgentApiFold) -> Self {
        AdapterFold {
            protocol,
            responses: ResponsesDecoder::default(),
            snapshot: ResponsesSnapshot::default(),
            a2a: A2aDecoder::default(),
            events: Vec::new(),
            warnings: Vec::new(),
            fold,
        }
    }
}

impl ProtocolFold for AdapterFold {
    fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()> {
        if matches!(self.protocol, Protocol::A2a | Protocol::A2a03) {
            self.a2a
                .decode(payload, &mut self.events, &mut self.warnings)?;
        } else {
            // A lone surrogate escape reads as U+FFFD, as in every other reader.
            match crate::protocol::parse_repairing(payload, |t| serde_json::from_str::<Value>(t)) {
                Ok(Value::Object(map)) => {
                    self.snapshot.apply(&map);
                    self.responses
                        .decode_map(&map, &mut self.events, &mut self.warnings)?;
                }
                Ok(_) | Err(_) => {
                    return cx.warn(
                        WarningCode::InvalidEvent,
                        "An event that is not a JSON object was skipped.",
                    )
                }
            }
        }
        for w in self.warnings.drain(..) {
            cx.warn(w.code, w.message)?;
        }
        for event in self.events.drain(..) {
            self.fold.apply_event(event, cx)?;
        }
        Ok(())
    }

    fn outcome(&self) -> Outcome {
        self.fold.outcome
    }

    fn settle_end(&mut self, cx: &mut EventCx<'_>) -> Result<()> {
        self.a2a.finish(&mut self.events);
        for event in self.events.drain(..) {
            self.fold.apply_event(event, cx)?;
        }
        ProtocolFold::settle_end(&mut self.fold, cx)
    }

    fn render(&mut self, batch: &mut Batch, outcome: Outcome, sink: &mut dyn UpdateSink) {
        self.fold.render(batch, outcome, sink);
    }

    /// For Responses: the Responses `response` object the official client would hold; for
    /// A2A: the Agent API snapshot.
    fn snapshot<'a>(&'a self, outcome: Outcome, warnings: &'a [Warning]) -> Snapshot<'a> {
        if self.protocol == Protocol::OpenAiResponses {
            let mut map = self.snapshot.to_map();
            // A pause: what it waits on, as every protocol's snapshot reports it.
            if outcome == Outcome::Incomplete {
                let interrupts: Vec<Value> = map
                    .get("output")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_object)
                    .filter_map(crate::responses::approvals::interrupt_of)
                    .collect();
                if !interrupts.is_empty() {
                    map.insert("interrupts".into(), Value::Array(interrupts));
                }
            }
            return with_outcome(map, outcome, warnings);
        }
        ProtocolFold::snapshot(&self.fold, outcome, warnings)
    }

    fn tool_calls(&self) -> Vec<ToolCall> {
        self.fold.tool_calls()
    }

    fn tool_call_changes(&mut self) -> ToolCallChanges {
        self.fold.tool_call_changes()
    }

    fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        self.fold.parsed_arguments(message_id, index)
    }
}
