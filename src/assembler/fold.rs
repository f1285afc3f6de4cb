//! [`ProtocolFold`]: the one interface between the assembler's core and each protocol's fold
//! (the Agent API fold; the adapter fold for Responses and A2A, which decodes into an Agent API
//! fold; the AG-UI fold over `agui::Client`). The core holds one, made by [`fold_for`] once the
//! protocol is known, and never branches on the protocol itself.

#[cfg(feature = "client")]
use serde_json::Map;
use serde_json::Value;

use super::agent_api::{AgentApiFold, EventCx, SnapshotView, ToolCall, ToolCallChanges};
use super::options::AssemblerOptions;
use super::outcome::Outcome;
use super::update::{Batch, UpdateSink};
use crate::{Protocol, Result, Warning, WarningCode};

/// What the assembler's core asks of a protocol's fold. (Not `Debug`: a vtable entry keeps its
/// code in the wasm module even when nothing prints it.)
pub(crate) trait ProtocolFold {
    /// Applies one event payload; changes are recorded in `cx.batch`.
    fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()>;

    /// How the run stands (before the core's own `truncated` for a cut input).
    fn outcome(&self) -> Outcome;

    /// End of input without errors: a missing terminal event is reported (`TRUNCATED`).
    fn settle_end(&mut self, cx: &mut EventCx<'_>) -> Result<()>;

    /// Whether the fold has changes to render beyond what `batch` recorded.
    fn has_changes(&self) -> bool {
        false
    }

    /// Renders what `batch` recorded (and the fold's own changes) into `sink`.
    fn render(&mut self, batch: &mut Batch, outcome: Outcome, sink: &mut dyn UpdateSink);

    /// The snapshot, with `outcome` and the `warnings` kept.
    fn snapshot<'a>(&'a self, outcome: Outcome, warnings: &'a [Warning]) -> Snapshot<'a>;

    /// Every tool call so far.
    fn tool_calls(&self) -> Vec<ToolCall>;

    /// What changed in the tool calls since the last look.
    fn tool_call_changes(&mut self) -> ToolCallChanges;

    /// The best-effort parse of one tool call's arguments.
    fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value>;
}

/// The folds, one per kind of stream: the core holds one and calls it through
/// [`ProtocolFold`] (dispatched statically, so that only the methods called are linked).
// One per assembler, never moved after it is made: boxing the larger folds would only add an
// indirection.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Fold {
    /// The Agent API.
    AgentApi(AgentApiFold),
    /// OpenAI Responses and A2A, decoded into an Agent API fold.
    #[cfg(feature = "client")]
    Adapter(super::adapter::AdapterFold),
    /// AG-UI.
    #[cfg(feature = "client")]
    AgUi(super::agui::AgUiFold),
}

impl std::fmt::Debug for Fold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // By name only: the folds' own `Debug` is not linked into the wasm module.
        f.write_str(match self {
            Fold::AgentApi(_) => "Fold::AgentApi",
            #[cfg(feature = "client")]
            Fold::Adapter(_) => "Fold::Adapter",
            #[cfg(feature = "client")]
            Fold::AgUi(_) => "Fold::AgUi",
        })
    }
}

/// `$body` with `$f` bound to the fold inside `$fold`, whichever it is.
macro_rules! each {
    ($fold:expr, $f:ident => $body:expr) => {
        match $fold {
            Fold::AgentApi($f) => $body,
            #[cfg(feature = "client")]
            Fold::Adapter($f) => $body,
            #[cfg(feature = "client")]
            Fold::AgUi($f) => $body,
        }
    };
}

impl ProtocolFold for Fold {
    #[inline(never)]
    fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()> {
        each!(self, f => ProtocolFold::apply(f, payload, cx))
    }

    #[inline(never)]
    fn outcome(&self) -> Outcome {
        each!(self, f => ProtocolFold::outcome(f))
    }

    #[inline(never)]
    fn settle_end(&mut self, cx: &mut EventCx<'_>) -> Result<()> {
        each!(self, f => ProtocolFold::settle_end(f, cx))
    }

    #[inline(never)]
    fn has_changes(&self) -> bool {
        each!(self, f => ProtocolFold::has_changes(f))
    }

    #[inline(never)]
    fn render(&mut self, batch: &mut Batch, outcome: Outcome, sink: &mut dyn UpdateSink) {
        each!(self, f => ProtocolFold::render(f, batch, outcome, sink))
    }

    #[inline(never)]
    fn snapshot<'a>(&'a self, outcome: Outcome, warnings: &'a [Warning]) -> Snapshot<'a> {
        each!(self, f => ProtocolFold::snapshot(f, outcome, warnings))
    }

    #[inline(never)]
    fn tool_calls(&self) -> Vec<ToolCall> {
        each!(self, f => ProtocolFold::tool_calls(f))
    }

    #[inline(never)]
    fn tool_call_changes(&mut self) -> ToolCallChanges {
        each!(self, f => ProtocolFold::tool_call_changes(f))
    }

    #[inline(never)]
    fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        each!(self, f => ProtocolFold::parsed_arguments(f, message_id, index))
    }
}

/// An Agent API fold, reading content deltas with the fast reader unless the options say not.
pub(crate) fn agent_api_fold(options: &AssemblerOptions) -> Fold {
    Fold::AgentApi(AgentApiFold::with_fast_path(!options.general_path_only()))
}

/// The fold for `protocol`; `None` when this build does not read it (without `full`: every
/// protocol but the Agent API).
#[inline(never)]
pub(crate) fn fold_for(protocol: Protocol, options: &AssemblerOptions) -> Option<Fold> {
    match protocol {
        Protocol::AgentApi => Some(agent_api_fold(options)),
        #[cfg(feature = "client")]
        Protocol::OpenAiResponses | Protocol::A2a | Protocol::A2a03 => Some(Fold::Adapter(
            // Adapters hand it parsed events (`apply_event`): the fast reader is never used.
            super::adapter::AdapterFold::new(protocol, AgentApiFold::default()),
        )),
        #[cfg(feature = "client")]
        Protocol::AgUi => Some(Fold::AgUi(super::agui::AgUiFold::new(options.events()))),
        #[cfg(not(feature = "client"))]
        _ => None,
    }
}

/// A snapshot to serialise: a built value, or a view of an Agent API fold.
pub(crate) enum Snapshot<'a> {
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
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

/// A protocol's own snapshot object with `outcome` and `warnings` added.
#[cfg(feature = "client")]
pub(crate) fn with_outcome(
    mut map: Map<String, Value>,
    outcome: Outcome,
    warnings: &[Warning],
) -> Snapshot<'static> {
    map.insert(
        "outcome".to_owned(),
        Value::String(outcome.as_str().to_owned()),
    );
    map.insert(
        "warnings".to_owned(),
        serde_json::to_value(warnings).unwrap_or(Value::Array(Vec::new())),
    );
    Snapshot::Value(Value::Object(map))
}

impl ProtocolFold for AgentApiFold {
    #[inline(never)]
    fn apply(&mut self, payload: &str, cx: &mut EventCx<'_>) -> Result<()> {
        AgentApiFold::apply(self, payload, cx)
    }

    #[inline(never)]
    fn outcome(&self) -> Outcome {
        self.outcome
    }

    #[inline(never)]
    fn settle_end(&mut self, cx: &mut EventCx<'_>) -> Result<()> {
        if self.outcome.is_settled() {
            return Ok(());
        }
        let open = self.open_messages();
        let message = if open.is_empty() {
            "The stream ended without a terminal response event.".to_owned()
        } else {
            format!(
                "The stream ended without a terminal response event; messages left open: {}.",
                open.join(", ")
            )
        };
        cx.warn(WarningCode::Truncated, message)
    }

    #[inline(never)]
    fn render(&mut self, batch: &mut Batch, outcome: Outcome, sink: &mut dyn UpdateSink) {
        AgentApiFold::render(self, batch, outcome, sink);
    }

    #[inline(never)]
    fn snapshot<'a>(&'a self, outcome: Outcome, warnings: &'a [Warning]) -> Snapshot<'a> {
        Snapshot::AgentApi(SnapshotView::new(self, outcome, warnings))
    }

    #[inline(never)]
    fn tool_calls(&self) -> Vec<ToolCall> {
        AgentApiFold::tool_calls(self)
    }

    #[inline(never)]
    fn tool_call_changes(&mut self) -> ToolCallChanges {
        AgentApiFold::tool_call_changes(self)
    }

    #[inline(never)]
    fn parsed_arguments(&self, message_id: &str, index: usize) -> Option<Value> {
        AgentApiFold::parsed_arguments(self, message_id, index)
    }
}
