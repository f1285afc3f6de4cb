//! Shared by `tests/assembler_random.rs` (proptest, in CI) and `fuzz/fuzz_targets/push.rs`
//! (cargo-fuzz, by hand): run a byte stream through a [`StreamAssembler`] with a given chunking,
//! fold every update the way a UI would, mirror the tool calls from `tool_call_changes`, and
//! check the properties that must hold whatever the input:
//!
//! - nothing panics (the caller only has to run it);
//! - the result (folded updates, snapshot, tool calls, mirrored parsed arguments) does not
//!   depend on where the input was cut;
//! - the mirror built from `tool_call_changes` equals a one-shot parse of the final arguments;
//! - the folded text of every text part equals the snapshot's text;
//! - a strict run fails exactly where the tolerant run reports its first violation (strict
//!   errors are a subset of tolerant warnings), and a strict run that succeeds has the same
//!   snapshot as the tolerant one.
//!
//! Violations are returned as `Err(description)`, so each caller decides how to fail.
#![allow(dead_code, clippy::indexing_slicing)]

use std::collections::BTreeMap;

/// A map that keeps insertion order (ids may be generated at random, so their sort order is
/// not stable between runs; the order they appear in is).
#[derive(Debug, Clone, PartialEq)]
pub struct Ordered<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Ordered<K, V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<K: PartialEq, V: Default> Ordered<K, V> {
    /// The value at `key`, inserted (default) at the end when missing.
    pub fn entry(&mut self, key: K) -> &mut V {
        let at = match self.0.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.0.push((key, V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// The value at `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The values, in insertion order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }
}

use agentwire::assembler::{
    AssemblerOptions, Op, PathSegment, StreamAssembler, ToolCall, Update, WarningCode,
};
use agentwire::codec::{Format, Limits};
use agentwire::ErrorCode;
use serde_json::{Map, Value};

/// The last response update: (status, id, outcome, error, usage).
pub type ResponseFold = (String, Option<String>, String, Option<Value>, Option<Value>);

/// What a UI holds after folding every update of a run in order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Fold {
    /// The last response update: (status, id, outcome, error, usage).
    pub response: Option<ResponseFold>,
    /// Per message id: (role, type, status); insertion order of first creation.
    pub messages: Ordered<String, (Option<String>, String, String)>,
    /// Message ids in the order their `created: true` update arrived.
    pub created: Vec<String>,
    /// Text per (message id, part index), from text updates (and the whole text of text and
    /// refusal parts in content updates).
    pub texts: Ordered<(String, usize), String>,
    /// Raw arguments per (message id, part index), from arguments updates.
    pub arguments: Ordered<(String, usize), String>,
    /// Parts some content update reported.
    pub contents: Ordered<(String, usize), ()>,
    /// Every warning, in order: (code, offset, sequence number).
    pub warnings: Vec<(&'static str, Option<u64>, Option<i64>)>,
}

impl Fold {
    /// Applies one batch of updates.
    pub fn apply(&mut self, updates: Vec<Update>) {
        for update in updates {
            match update {
                Update::Response {
                    status,
                    id,
                    outcome,
                    error,
                    usage,
                } => {
                    self.response = Some((status, id, outcome.as_str().to_owned(), error, usage));
                }
                Update::Message {
                    id,
                    role,
                    message_type,
                    status,
                    created,
                } => {
                    // Once per id: AG-UI lets a second message take an existing id (a tool
                    // result with its call's message id); read whole, both creations fall in
                    // one batch and are reported once.
                    if created && !self.created.contains(&id) {
                        self.created.push(id.clone());
                    }
                    *self.messages.entry(id) = (role, message_type, status);
                }
                Update::Text {
                    message_id,
                    index,
                    delta,
                    replace,
                } => {
                    let text = self.texts.entry((message_id, index));
                    if replace {
                        text.clear();
                    }
                    text.push_str(&delta);
                }
                Update::Content {
                    message_id,
                    index,
                    part,
                } => {
                    // The whole part, as it is at the end of the batch: for a text or refusal
                    // part, its text replaces what the text updates built.
                    let text = match part.get("type").and_then(Value::as_str) {
                        Some(t @ ("text" | "refusal")) => {
                            Some(part.get(t).and_then(Value::as_str).unwrap_or(""))
                        }
                        _ => None,
                    };
                    let key = (message_id.clone(), index);
                    match text {
                        Some(text) => *self.texts.entry(key) = text.to_owned(),
                        // The part is no longer text: what text updates built is gone.
                        None => self.texts.0.retain(|(k, _)| *k != key),
                    }
                    self.contents.entry((message_id, index));
                }
                Update::Arguments {
                    message_id,
                    index,
                    delta,
                    replace,
                    ..
                } => {
                    let args = self.arguments.entry((message_id, index));
                    if replace {
                        args.clear();
                    }
                    args.push_str(&delta);
                }
                Update::Warning(w) => {
                    self.warnings
                        .push((w.code.as_str(), w.offset, w.sequence_number));
                }
                // AG-UI: the message list after a reconciliation or an insertion: messages not
                // listed are gone (with their parts), the rest take this order.
                Update::Order { ids } => {
                    let listed = |id: &String| ids.contains(id);
                    let mut messages = Vec::new();
                    for id in &ids {
                        if let Some(entry) = self.messages.0.iter().find(|(k, _)| k == id) {
                            messages.push(entry.clone());
                        }
                    }
                    self.messages.0 = messages;
                    self.created.retain(listed);
                    self.texts.0.retain(|((id, _), _)| listed(id));
                    self.arguments.0.retain(|((id, _), _)| listed(id));
                    self.contents.0.retain(|((id, _), _)| listed(id));
                }
                // AG-UI: the whole message, appends of the batch included; its text and its
                // tool calls' arguments are what the message carries.
                Update::Replace { id, message } => {
                    // A snapshot may change the role.
                    if let Some(role) = message.get("role").and_then(Value::as_str) {
                        if let Some((_, (r, _, _))) =
                            self.messages.0.iter_mut().find(|(k, _)| *k == id)
                        {
                            *r = Some(role.to_owned());
                        }
                    }
                    let key = (id.clone(), 0);
                    match message.get("content") {
                        Some(Value::String(text)) => *self.texts.entry(key) = text.clone(),
                        _ => self.texts.0.retain(|(k, _)| *k != key),
                    }
                    let calls = message.get("toolCalls").and_then(Value::as_array);
                    for (index, call) in calls.into_iter().flatten().enumerate() {
                        let arguments = call
                            .pointer("/function/arguments")
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        *self.arguments.entry((id.clone(), index)) = arguments.to_owned();
                    }
                }
                _ => {}
            }
        }
    }
}

impl Fold {
    /// The fold as text, per-part maps sorted by (message position, part index): the order in
    /// which parts were first touched within a batch is not part of the contract, the order of
    /// messages is.
    pub fn canonical(&self) -> String {
        let position = |id: &String| self.messages.0.iter().position(|(k, _)| k == id);
        let sorted = |entries: Vec<(&(String, usize), String)>| {
            let mut entries: Vec<_> = entries
                .into_iter()
                .map(|((id, i), v)| ((position(id), id.clone(), *i), v))
                .collect();
            entries.sort_by_key(|a| (a.0 .0, a.0 .2));
            entries
        };
        let texts = sorted(self.texts.0.iter().map(|(k, v)| (k, v.clone())).collect());
        let arguments = sorted(
            self.arguments
                .0
                .iter()
                .map(|(k, v)| (k, v.clone()))
                .collect(),
        );
        let contents = sorted(
            self.contents
                .0
                .iter()
                .map(|(k, _)| (k, String::new()))
                .collect(),
        );
        normalize_ids(&format!(
            "{:?}\n{:?}\n{:?}\n{texts:?}\n{arguments:?}\n{contents:?}\n{:?}",
            self.response, self.messages, self.created, self.warnings
        ))
    }
}

/// Tool calls as a JS mirror would hold them, built only from `tool_call_changes`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Mirror {
    /// Per (message id, part index): (raw arguments, parsed value), in list order.
    pub calls: Ordered<(String, usize), (String, Option<Value>)>,
    /// The key at each position of the list.
    keys: Vec<(String, usize)>,
}

impl Mirror {
    /// Applies the changes of one `tool_call_changes` call, as the JS face does: changes by
    /// position; after a reset, every call is listed and the others are dropped.
    pub fn apply(&mut self, changes: agentwire::assembler::ToolCallChanges) -> Result<(), String> {
        if changes.reset {
            self.keys.clear();
        }
        self.keys.truncate(changes.len);
        for change in changes.changes {
            let key = (change.message_id.clone(), change.index);
            match change.position.cmp(&self.keys.len()) {
                std::cmp::Ordering::Less => {
                    if self.keys[change.position] != key {
                        return Err(format!(
                            "position {} moved from {:?} to {key:?} without a reset",
                            change.position, self.keys[change.position]
                        ));
                    }
                }
                std::cmp::Ordering::Equal => self.keys.push(key.clone()),
                std::cmp::Ordering::Greater => {
                    return Err(format!(
                        "position {} skips past the end ({})",
                        change.position,
                        self.keys.len()
                    ))
                }
            }
            let entry = self.calls.entry(key);
            if change.raw_replace {
                entry.0.clear();
            }
            entry.0.push_str(&change.raw_delta);
            for op in change.ops {
                apply_op(&mut entry.1, op)?;
            }
        }
        if self.keys.len() != changes.len {
            return Err(format!(
                "{} calls listed, {} expected",
                self.keys.len(),
                changes.len
            ));
        }
        let keys = &self.keys;
        self.calls.0.retain(|(k, _)| keys.contains(k));
        self.calls
            .0
            .sort_by_key(|(k, _)| keys.iter().position(|x| x == k));
        Ok(())
    }
}

/// Applies a mirror op to a value (`None`: nothing parsed yet).
pub fn apply_op(root: &mut Option<Value>, op: Op) -> Result<(), String> {
    let (path, change) = match op {
        Op::Set { path, value } => (path, Ok(value)),
        Op::Append { path, text } => (path, Err(text)),
    };
    let Some((last, parents)) = path.split_last() else {
        match change {
            Ok(value) => *root = Some(value),
            Err(text) => match root {
                Some(Value::String(s)) => s.push_str(&text),
                other => return Err(format!("append {text:?} to root {other:?}")),
            },
        }
        return Ok(());
    };
    let mut node = root.as_mut().ok_or("op below an empty root")?;
    for segment in parents {
        node = match (node, segment) {
            (Value::Object(map), PathSegment::Key(k)) => map.get_mut(k).ok_or("missing key")?,
            (Value::Array(list), PathSegment::Index(i)) => {
                list.get_mut(*i).ok_or("missing index")?
            }
            (node, segment) => return Err(format!("path {segment:?} into {node}")),
        };
    }
    match (node, last, change) {
        (Value::Object(map), PathSegment::Key(k), Ok(value)) => {
            map.insert(k.clone(), value);
        }
        (Value::Array(list), PathSegment::Index(i), Ok(value)) => {
            if *i < list.len() {
                if let Some(slot) = list.get_mut(*i) {
                    *slot = value;
                }
            } else if *i == list.len() {
                list.push(value);
            } else {
                return Err(format!("set index {i} past the end of {}", list.len()));
            }
        }
        (Value::Object(map), PathSegment::Key(k), Err(text)) => match map.get_mut(k) {
            Some(Value::String(s)) => s.push_str(&text),
            other => return Err(format!("append to key {k}: {other:?}")),
        },
        (Value::Array(list), PathSegment::Index(i), Err(text)) => match list.get_mut(*i) {
            Some(Value::String(s)) => s.push_str(&text),
            other => return Err(format!("append to index {i}: {other:?}")),
        },
        (node, segment, _) => return Err(format!("op at {segment:?} in {node}")),
    }
    Ok(())
}

/// Everything one run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The first error (code, offset), if a call failed.
    pub error: Option<(ErrorCode, Option<u64>)>,
    pub fold: Fold,
    pub snapshot: Value,
    pub outcome: &'static str,
    pub tool_calls: Vec<ToolCall>,
    /// `None` when tool calls were not polled.
    pub mirror: Option<Mirror>,
    /// Every update batch, in order (`Debug`), the error's batch included.
    pub batches: String,
}

/// The options a run uses.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub strict: bool,
    pub format: Format,
    /// `maxEventBytes`; `None` for the default.
    pub max_event_bytes: Option<usize>,
}

impl Config {
    pub fn options(self) -> AssemblerOptions {
        let mut options = AssemblerOptions::new()
            .with_strict(self.strict)
            .with_format(self.format);
        if let Some(limit) = self.max_event_bytes {
            if let Ok(limits) = Limits::new().with_max_event_bytes(limit.max(1)) {
                options = options.with_limits(limits);
            }
        }
        options
    }
}

/// Runs `input` cut before each offset in `cuts` (sorted or not; clamped), polling
/// `tool_call_changes` after every push when `poll` is set.
pub fn run(input: &[u8], config: Config, cuts: &[usize], poll: bool) -> Result<Run, String> {
    run_reading(input, config, cuts, poll, false)
}

/// As [`run`]; `general_path_only` bypasses the fast reader of content deltas.
pub fn run_reading(
    input: &[u8],
    config: Config,
    cuts: &[usize],
    poll: bool,
    general_path_only: bool,
) -> Result<Run, String> {
    let mut asm = StreamAssembler::new(config.options().with_general_path_only(general_path_only));
    let mut batches = String::new();
    let mut log = |updates: &Vec<Update>| batches.push_str(&format!("{updates:?}\n"));
    let mut fold = Fold::default();
    let mut mirror = poll.then(Mirror::default);
    let mut error = None;
    let mut start = 0;
    let mut ends: Vec<usize> = cuts.iter().map(|&c| c.min(input.len())).collect();
    ends.sort_unstable();
    ends.push(input.len());
    for end in ends {
        let chunk = input.get(start..end).unwrap_or_default();
        start = end;
        match asm.push(chunk) {
            Ok(updates) => {
                log(&updates);
                fold.apply(updates);
            }
            Err(e) => {
                let updates = asm.take_updates();
                log(&updates);
                fold.apply(updates);
                error = Some((e.code(), e.offset()));
                break;
            }
        }
        if let Some(mirror) = mirror.as_mut() {
            mirror.apply(asm.tool_call_changes())?;
        }
    }
    if error.is_none() {
        match asm.finish() {
            Ok(updates) => {
                log(&updates);
                fold.apply(updates);
            }
            Err(e) => {
                let updates = asm.take_updates();
                log(&updates);
                fold.apply(updates);
                error = Some((e.code(), e.offset()));
            }
        }
    }
    // Calls after the end fail with FINISHED and change nothing.
    if asm
        .push(b"data: {}\n\n")
        .map_or_else(|e| e.code(), |_| ErrorCode::InvalidOption)
        != ErrorCode::Finished
    {
        return Err("push after the end did not fail with FINISHED".to_owned());
    }
    if let Some(mirror) = mirror.as_mut() {
        mirror.apply(asm.tool_call_changes())?;
    }
    Ok(Run {
        error,
        fold,
        snapshot: asm.snapshot(),
        outcome: asm.outcome().as_str(),
        tool_calls: asm.tool_calls(),
        mirror,
        batches,
    })
}

/// The text of every text part of the snapshot, by (message id, index).
fn snapshot_texts(snapshot: &Value) -> BTreeMap<(String, usize), String> {
    let mut texts = BTreeMap::new();
    let lists = ["output", "incompleteMessages"];
    for list in lists {
        for message in snapshot
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let id = message.get("id").and_then(Value::as_str).unwrap_or("");
            for part in message
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if part.get("type").and_then(Value::as_str) != Some("text") {
                    continue;
                }
                let index = part.get("index").and_then(Value::as_u64).unwrap_or(0);
                let text = part.get("text").and_then(Value::as_str).unwrap_or("");
                texts.insert((id.to_owned(), index as usize), text.to_owned());
            }
        }
    }
    texts
}

/// Checks every property for one input and one chunking (`cuts`). Returns the tolerant run.
pub fn check(input: &[u8], config: Config, cuts: &[usize]) -> Result<Run, String> {
    let tolerant = Config {
        strict: false,
        ..config
    };
    let whole = run(input, tolerant, &[], true)?;
    let split = run(input, tolerant, cuts, true)?;
    // The fast reader only reads: bypassing it gives the same batches, snapshot, tool calls,
    // mirror and error, in tolerant and strict mode.
    for strict in [false, true] {
        let config = Config { strict, ..config };
        let fast = run_reading(input, config, cuts, true, false)?;
        let general = run_reading(input, config, cuts, true, true)?;
        if normalize_ids(&fast.batches) != normalize_ids(&general.batches) {
            return Err(format!(
                "fast path on and off give different batches (strict {strict})\n  on:  {}\n  off: {}",
                fast.batches, general.batches
            ));
        }
        compare(&fast, &general, "fast path on vs off")?;
    }
    let unpolled = run(input, tolerant, cuts, false)?;
    // Framing errors (and only they) stop a tolerant run; they must not depend on the cuts.
    if whole.error != split.error {
        return Err(format!(
            "error depends on chunking: whole {:?}, cut at {cuts:?} {:?}",
            whole.error, split.error
        ));
    }
    if whole.error.is_none() {
        compare(&whole, &split, "whole vs cut")?;
        let mut a = split.clone();
        a.mirror = None;
        compare(&a, &unpolled, "polled vs unpolled")?;
        // Every folded text part agrees with the snapshot (parts that are not text any more may
        // keep a stale folded text; the snapshot lists text parts only).
        for (key, text) in snapshot_texts(&whole.snapshot) {
            let folded = whole.fold.texts.get(&key).map_or("", String::as_str);
            if folded != text {
                return Err(format!(
                    "folded text of {key:?} is {folded:?}, snapshot has {text:?}"
                ));
            }
        }
        // The arguments folded from updates are every call's raw arguments.
        for call in &whole.tool_calls {
            let key = (call.message_id.clone(), call.index);
            let folded = whole.fold.arguments.get(&key).map_or("", String::as_str);
            if folded != call.arguments {
                return Err(format!(
                    "folded arguments of {key:?} are {folded:?}, the call has {:?}",
                    call.arguments
                ));
            }
        }
        check_mirror(&whole)?;
        check_mirror(&split)?;
    }
    // Strict: fails where the tolerant run first complains, or succeeds with the same state.
    let strict = run(
        input,
        Config {
            strict: true,
            ..config
        },
        cuts,
        false,
    )?;
    // Replays and unusable tool-call arguments are warnings in strict mode too, not violations.
    let first_violation = whole.fold.warnings.iter().find(|w| {
        w.0 != WarningCode::DuplicateEvent.as_str() && w.0 != WarningCode::InvalidArguments.as_str()
    });
    match (strict.error, first_violation, whole.error) {
        (None, None, None) => {
            let mut a = strict.snapshot.clone();
            let mut b = whole.snapshot.clone();
            for s in [&mut a, &mut b] {
                if let Value::Object(map) = s {
                    map.remove("warnings");
                }
            }
            if normalize_ids(&a.to_string()) != normalize_ids(&b.to_string()) {
                return Err("a strict run that succeeded differs from the tolerant run".to_owned());
            }
        }
        (Some((code, offset)), Some(&(warning, w_offset, _)), _)
            if matches!(code, ErrorCode::InvalidJson | ErrorCode::ProtocolViolation) =>
        {
            // A skipped event (INVALID_EVENT) fails a strict run with the parser's own code:
            // INVALID_JSON for bad JSON, PROTOCOL_VIOLATION for a well-formed event of the
            // wrong shape. Every other violation is a PROTOCOL_VIOLATION.
            let code_ok = warning == WarningCode::InvalidEvent.as_str()
                || code == ErrorCode::ProtocolViolation;
            if !code_ok || offset != w_offset {
                return Err(format!(
                    "strict error {code:?} at {offset:?}, first tolerant warning {warning} at {w_offset:?}"
                ));
            }
        }
        (Some(strict_error), None, Some(tolerant_error)) if strict_error == tolerant_error => {}
        // AG-UI: a stream `@ag-ui/client` rejects fails the tolerant run as the client does
        // (the snapshot's `error` has `source: "client"`, no warning; a framing error may
        // still stop it later); strict throws its code.
        (Some((code, _)), None, _)
            if whole.snapshot.pointer("/error/source") == Some(&Value::from("client"))
                && whole.snapshot.pointer("/error/code")
                    == Some(&Value::from(code.to_string())) => {}
        (Some(strict_error), Some(&(_, w_offset, _)), Some(tolerant_error))
            if strict_error == tolerant_error
                && w_offset.zip(strict_error.1).is_some_and(|(w, e)| w >= e) => {}
        (s, w, t) => {
            return Err(format!(
                "strict {s:?} does not match the tolerant run (first violation {w:?}, error {t:?})"
            ))
        }
    }
    Ok(whole)
}

/// `text` with every uuid (generated ids: `msg_<uuid4>` for messages that arrive without an
/// id, `response_<uuid4>` for a response without one) replaced by `#k`, numbered in order of
/// appearance.
pub fn normalize_ids(text: &str) -> String {
    fn is_uuid(b: &[u8]) -> bool {
        b.len() == 36
            && b.iter().enumerate().all(|(i, c)| match i {
                8 | 13 | 18 | 23 => *c == b'-',
                _ => c.is_ascii_hexdigit(),
            })
    }
    let bytes = text.as_bytes();
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let window = bytes.get(i..i + 36).unwrap_or_default();
        if is_uuid(window) {
            let k = match seen.iter().position(|s| *s == window) {
                Some(k) => k,
                None => {
                    seen.push(window);
                    seen.len() - 1
                }
            };
            out.extend_from_slice(format!("#{k}").as_bytes());
            i += 36;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The run as text with generated ids normalized: equal for equal runs.
fn canonical(run: &Run) -> String {
    normalize_ids(&format!(
        "{}\n{}\n{}\n{:?}\n{:?}\n{:?}",
        run.snapshot,
        run.fold.canonical(),
        run.outcome,
        run.tool_calls,
        run.mirror,
        run.error
    ))
}

fn compare(a: &Run, b: &Run, what: &str) -> Result<(), String> {
    if canonical(a) == canonical(b) {
        return Ok(());
    }
    if normalize_ids(&a.snapshot.to_string()) != normalize_ids(&b.snapshot.to_string()) {
        return Err(format!(
            "{what}: snapshots differ\n  {}\n  {}",
            a.snapshot, b.snapshot
        ));
    }
    if a.fold.canonical() != b.fold.canonical() {
        return Err(format!(
            "{what}: folded updates differ\n  {:?}\n  {:?}",
            a.fold, b.fold
        ));
    }
    Err(format!(
        "{what}: outcome, tool calls or mirrors differ\n  {}\n  {}",
        canonical(a),
        canonical(b)
    ))
}

/// The mirror holds the raw arguments of every call, and its parsed value equals a one-shot
/// parse of them.
fn check_mirror(run: &Run) -> Result<(), String> {
    let Some(mirror) = &run.mirror else {
        return Ok(());
    };
    for call in &run.tool_calls {
        let key = (call.message_id.clone(), call.index);
        let Some((raw, parsed)) = mirror.calls.get(&key) else {
            return Err(format!("tool call {key:?} is missing from the mirror"));
        };
        if *raw != call.arguments {
            return Err(format!(
                "mirror raw {raw:?} != arguments {:?}",
                call.arguments
            ));
        }
        let mut one_shot = agentwire::assembler::PartialJson::new();
        one_shot.push(raw);
        // A mirror starts from `null` (the JS face shows "nothing parsed yet" as `null` too).
        let expected = one_shot.value().filter(|v| !v.is_null());
        if parsed.as_ref().filter(|v| !v.is_null()) != expected.as_ref() {
            return Err(format!(
                "mirror parsed {parsed:?} != one-shot parse {expected:?} of {raw:?}"
            ));
        }
        if let Ok(full) = serde_json::from_str::<Value>(raw) {
            if parsed.as_ref() != Some(&full) {
                return Err(format!("complete arguments {raw:?} parsed as {parsed:?}"));
            }
        }
    }
    Ok(())
}

/// Reads a fuzz input (`fuzz/fuzz_targets/push.rs`, replayed by `tests/fuzz_crashers.rs`):
/// byte 0 picks the options (bits 0–1: framing auto, SSE (1) or NDJSON (3); bits 2–3:
/// `maxEventBytes` default, 16 (1) or 200 (2)); byte 1 is the number of cut points (mod 16),
/// followed by that many little-endian u16 offsets (mod the stream length + 1); the rest is the
/// stream. `None` for inputs shorter than two bytes.
pub fn decode_fuzz_input(data: &[u8]) -> Option<(Config, Vec<usize>, &[u8])> {
    let (&flags, rest) = data.split_first()?;
    let (&ncuts, rest) = rest.split_first()?;
    let header = (usize::from(ncuts % 16) * 2).min(rest.len());
    let (cut_bytes, stream) = rest.split_at(header);
    let cuts = cut_bytes
        .chunks(2)
        .map(|c| {
            let lo = usize::from(c.first().copied().unwrap_or(0));
            let hi = usize::from(c.get(1).copied().unwrap_or(0));
            (lo | hi << 8) % (stream.len() + 1)
        })
        .collect();
    let format = match flags & 3 {
        1 => Format::Sse,
        3 => Format::Ndjson,
        _ => Format::Auto,
    };
    let max_event_bytes = match (flags >> 2) & 3 {
        1 => Some(16),
        2 => Some(200),
        _ => None,
    };
    let config = Config {
        strict: false,
        format,
        max_event_bytes,
    };
    Some((config, cuts, stream))
}

/// A JSON object with the given keys, for generators.
pub fn object(entries: Vec<(String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect::<Map<String, Value>>())
}
