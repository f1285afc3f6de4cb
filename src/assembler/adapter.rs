//! The assembler's side of the adapters: Responses and A2A events decoded into Agent API events
//! for the Agent API fold (which gives updates, tool calls and the outcome), plus the
//! Responses-native snapshot.

use serde_json::Value;

use super::agent_api::{AgentApiFold, EventCx};
use crate::a2a::A2aDecoder;
use crate::protocol::JsonMap;
use crate::responses::{ResponsesDecoder, ResponsesSnapshot};
use crate::Result;
use crate::{Protocol, WarningCode};

/// Per-stream state of the Responses and A2A decoders inside a `StreamAssembler`.
#[derive(Debug, Default)]
pub(crate) struct AdapterFold {
    responses: ResponsesDecoder,
    snapshot: ResponsesSnapshot,
    a2a: A2aDecoder,
    events: Vec<crate::protocol::Event>,
    warnings: Vec<crate::Warning>,
}

impl AdapterFold {
    /// Applies one event payload of `protocol` to `fold`.
    pub(crate) fn apply(
        &mut self,
        protocol: Protocol,
        payload: &str,
        fold: &mut AgentApiFold,
        cx: &mut EventCx<'_>,
    ) -> Result<()> {
        if protocol == Protocol::A2a {
            self.a2a
                .decode(payload, &mut self.events, &mut self.warnings)?;
        } else {
            match serde_json::from_str::<Value>(payload) {
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
            fold.apply_event(event, cx)?;
        }
        Ok(())
    }

    /// The Responses `response` object so far.
    pub(crate) fn responses_snapshot(&self) -> JsonMap {
        self.snapshot.to_map()
    }
}
