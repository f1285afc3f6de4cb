//! Tool calls as every protocol's fold reports them: the listing ([`ToolCall`]), what changed
//! since a consumer last looked ([`ToolCallChanges`]), and [`CallMirror`], the one record of
//! what a consumer has seen of a call (its arguments parsed incrementally, its output, its
//! metadata) that turns a call's state now into a [`ToolCallChange`].

use serde_json::Value;

use crate::protocol::{Op, PartialJson};

/// One tool call as seen so far (see [`StreamAssembler::tool_calls`]).
///
/// [`StreamAssembler::tool_calls`]: super::StreamAssembler::tool_calls
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The id of the message carrying the call.
    pub message_id: String,
    /// The index of the part holding `{call_id, name, arguments}`.
    pub index: usize,
    /// The message type (`function_call`, `plugin_call` or `mcp_call`).
    pub message_type: String,
    /// The call id, when known.
    pub call_id: Option<String>,
    /// The tool name, when known.
    pub name: Option<String>,
    /// The arguments exactly as received (a JSON text, possibly unfinished).
    pub arguments: String,
    /// Whether the call's part (or message) is completed.
    pub completed: bool,
    /// Why the arguments of a completed call are not usable: they are not JSON, or nest deeper
    /// than [`MAX_DEPTH`](crate::MAX_DEPTH). `None` while the call streams, and for valid (or
    /// empty) arguments. Run a tool only when `completed` and this is `None`.
    pub arguments_error: Option<String>,
    /// The output of the matching `*_output` message (by `call_id`), when it arrived.
    pub output: Option<Value>,
}

/// What changed in the list of tool calls since the consumer last looked (see
/// [`StreamAssembler::tool_call_changes`]): enough to keep a mirror of every call, including
/// its parsed arguments, up to date in O(what changed) per look.
///
/// [`StreamAssembler::tool_call_changes`]: super::StreamAssembler::tool_call_changes
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolCallChanges {
    /// How many calls there are now.
    pub len: usize,
    /// Whether the list was rebuilt (the first look, or a call appeared other than at the end
    /// or disappeared): `changes` then lists every call, in order, and a mirror drops the calls
    /// it no longer lists.
    pub reset: bool,
    /// The calls that changed or are new, each with its position (new calls in list order).
    pub changes: Vec<ToolCallChange>,
}

impl ToolCallChanges {
    /// Whether nothing changed since the last look.
    pub fn is_empty(&self) -> bool {
        !self.reset && self.changes.is_empty()
    }
}

/// One tool call that changed, with what changed since the consumer last saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallChange {
    /// The call's position in the list of calls.
    pub position: usize,
    /// The id of the message carrying the call.
    pub message_id: String,
    /// The index of the part holding the call.
    pub index: usize,
    /// The message type (`function_call`, `plugin_call` or `mcp_call`).
    pub message_type: String,
    /// The call id, when known.
    pub call_id: Option<String>,
    /// The tool name, when known.
    pub name: Option<String>,
    /// Whether the call's part (or message) is completed.
    pub completed: bool,
    /// As [`ToolCall::arguments_error`].
    pub arguments_error: Option<String>,
    /// Characters appended to the raw arguments (with `raw_replace`, the whole string).
    pub raw_delta: String,
    /// Whether the raw arguments were replaced rather than appended to.
    pub raw_replace: bool,
    /// Ops that turn the previously seen parsed value into the current best-effort value.
    pub ops: Vec<Op>,
    /// The output of the matching `*_output` message, when it appeared or changed since.
    pub output: Option<Value>,
    /// Which of the fields above (besides the arguments and output) differ from what the
    /// consumer was told before: all of them for a call reported for the first time, and in a
    /// `reset`.
    pub changed: CallFields,
}

/// Which metadata fields of a [`ToolCallChange`] changed since the consumer last saw the call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallFields {
    /// `message_type` changed.
    pub message_type: bool,
    /// `call_id` changed.
    pub call_id: bool,
    /// `name` changed.
    pub name: bool,
    /// `completed` changed.
    pub completed: bool,
    /// `arguments_error` changed.
    pub arguments_error: bool,
}

impl CallFields {
    /// Every field: what a consumer that never saw the call needs.
    pub const ALL: CallFields = CallFields {
        message_type: true,
        call_id: true,
        name: true,
        completed: true,
        arguments_error: true,
    };

    /// Whether any field changed.
    pub fn any(self) -> bool {
        self.message_type || self.call_id || self.name || self.completed || self.arguments_error
    }
}

/// What a consumer has seen of one tool call; one per call, for every protocol.
#[derive(Debug, Default)]
pub(crate) struct CallMirror {
    /// The arguments parsed so far (fed as they arrive, or at a look).
    parser: PartialJson,
    /// Bytes of the raw arguments the consumer has seen.
    raw_seen: usize,
    /// Whether the raw arguments were replaced since the consumer last looked.
    raw_replaced: bool,
    /// The output the consumer has seen, as the fold identifies it (where it is, and whether it
    /// was complete), once reported.
    output_seen: Option<(usize, bool)>,
    /// The metadata last reported; `None` before the first report.
    told: Option<Told>,
    /// The call id under which the fold indexed this call (the Agent API fold finds the calls
    /// an output answers by it).
    pub(crate) indexed_call_id: Option<String>,
    /// The last look that reported the call (a call is reported once per look).
    pub(crate) look: u64,
}

/// The metadata of a call as last reported.
#[derive(Debug)]
struct Told {
    message_type: String,
    call_id: Option<String>,
    name: Option<String>,
    completed: bool,
    arguments_error: Option<String>,
}

/// A call's state now, as a fold reads it.
#[derive(Debug)]
pub(crate) struct CallNow<'a> {
    /// The call's position in the list.
    pub(crate) position: usize,
    /// The id of the message carrying the call.
    pub(crate) message_id: &'a str,
    /// The index of the part (or tool call) in its message.
    pub(crate) index: usize,
    /// The message type.
    pub(crate) message_type: &'a str,
    /// The call id, when known.
    pub(crate) call_id: Option<&'a str>,
    /// The tool name, when known.
    pub(crate) name: Option<&'a str>,
    /// Whether the call is complete.
    pub(crate) completed: bool,
    /// What is wrong with a complete call's arguments.
    pub(crate) arguments_error: Option<String>,
    /// The raw arguments now (what was fed to the mirror).
    pub(crate) raw: &'a str,
}

impl CallMirror {
    /// A mirror of a call the consumer has not seen, its arguments `raw` so far (reported
    /// whole, as a replacement).
    pub(crate) fn new(raw: &str) -> Self {
        let mut mirror = CallMirror::default();
        mirror.feed(raw, true);
        mirror
    }

    /// Feeds a change of the arguments: `text` appended, or with `replace` the whole new value.
    pub(crate) fn feed(&mut self, text: &str, replace: bool) {
        if replace {
            self.parser.reset();
            self.raw_replaced = true;
            self.raw_seen = 0;
        }
        self.parser.push(text);
    }

    /// The best-effort parsed arguments so far.
    pub(crate) fn parsed(&self) -> Option<Value> {
        self.parser.value()
    }

    /// Notes that the output identified by `at` is reported now; whether the consumer had not
    /// seen it.
    pub(crate) fn see_output(&mut self, at: (usize, bool)) -> bool {
        let new = self.output_seen != Some(at);
        self.output_seen = Some(at);
        new
    }

    /// The change that brings the consumer from what it saw to `now` (with `output` when it is
    /// new to it), and records it as seen. `None` when nothing changed, unless `listing_all`
    /// (a reset lists every call, with every field marked changed).
    pub(crate) fn report(
        &mut self,
        now: CallNow<'_>,
        output: Option<Value>,
        listing_all: bool,
    ) -> Option<ToolCallChange> {
        let ops = self.parser.take_ops();
        let raw_delta = now.raw.get(self.raw_seen..).unwrap_or("");
        let raw_replace = std::mem::take(&mut self.raw_replaced);
        self.raw_seen = now.raw.len();
        let changed = match &self.told {
            Some(t) if !listing_all => CallFields {
                message_type: t.message_type != now.message_type,
                call_id: t.call_id.as_deref() != now.call_id,
                name: t.name.as_deref() != now.name,
                completed: t.completed != now.completed,
                arguments_error: t.arguments_error != now.arguments_error,
            },
            _ => CallFields::ALL,
        };
        let unchanged = !changed.any()
            && raw_delta.is_empty()
            && !raw_replace
            && ops.is_empty()
            && output.is_none();
        if unchanged && !listing_all {
            return None;
        }
        let told = self.told.get_or_insert_with(|| Told {
            message_type: String::new(),
            call_id: None,
            name: None,
            completed: false,
            arguments_error: None,
        });
        if changed.message_type {
            now.message_type.clone_into(&mut told.message_type);
        }
        if changed.call_id {
            told.call_id = now.call_id.map(str::to_owned);
        }
        if changed.name {
            told.name = now.name.map(str::to_owned);
        }
        told.completed = now.completed;
        if changed.arguments_error {
            told.arguments_error.clone_from(&now.arguments_error);
        }
        Some(ToolCallChange {
            position: now.position,
            message_id: now.message_id.to_owned(),
            index: now.index,
            message_type: now.message_type.to_owned(),
            call_id: now.call_id.map(str::to_owned),
            name: now.name.map(str::to_owned),
            completed: now.completed,
            arguments_error: now.arguments_error,
            raw_delta: raw_delta.to_owned(),
            raw_replace,
            ops,
            output,
            changed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now<'a>(raw: &'a str, name: Option<&'a str>, completed: bool) -> CallNow<'a> {
        CallNow {
            position: 0,
            message_id: "m",
            index: 0,
            message_type: "function_call",
            call_id: Some("c"),
            name,
            completed,
            arguments_error: None,
            raw,
        }
    }

    #[test]
    fn a_call_is_reported_whole_then_by_what_changed() {
        let mut mirror = CallMirror::new("{\"a\":");
        let first = mirror
            .report(now("{\"a\":", None, false), None, false)
            .unwrap();
        assert!(first.raw_replace);
        assert_eq!(first.raw_delta, "{\"a\":");
        assert_eq!(first.changed, CallFields::ALL);
        // Nothing new: nothing to report, unless every call is listed.
        assert!(mirror
            .report(now("{\"a\":", None, false), None, false)
            .is_none());
        let listed = mirror
            .report(now("{\"a\":", None, false), None, true)
            .unwrap();
        assert_eq!(listed.changed, CallFields::ALL);
        mirror.feed("1}", false);
        let next = mirror
            .report(now("{\"a\":1}", Some("f"), true), None, false)
            .unwrap();
        assert_eq!(next.raw_delta, "1}");
        assert!(!next.raw_replace);
        assert_eq!(
            next.changed,
            CallFields {
                name: true,
                completed: true,
                ..CallFields::default()
            }
        );
        assert!(!next.ops.is_empty());
    }

    #[test]
    fn an_output_is_reported_once_per_state() {
        let mut mirror = CallMirror::new("");
        assert!(mirror.see_output((3, false)));
        assert!(!mirror.see_output((3, false)));
        assert!(mirror.see_output((3, true)));
    }
}
