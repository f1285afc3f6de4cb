//! The `patch` target: AG-UI JSON Patch application through the assembler. A run starts,
//! then `STATE_SNAPSHOT`, `STATE_DELTA`, `ACTIVITY_SNAPSHOT` and `ACTIVITY_DELTA` events built
//! from the input (arbitrary operations, pointers and values, or raw JSON from the input) are
//! pushed one by one. After each:
//!
//! - the state and every activity content nest at most `MAX_DEPTH` levels;
//! - a patch reported as failed (`PATCH_FAILED`) left its document exactly as before (values
//!   and key order);
//! - a patch of well-formed operations did what a plain clone-and-apply JSON Patch with the
//!   same rules does ([`reference`]: fast-json-patch semantics, `MAX_DEPTH` per operation), or
//!   failed only for the copy allowance;
//! - the documents together weigh at most what was pushed plus the copy allowance (nodes, plus
//!   one per 16 bytes of strings and keys): no memory amplification.

use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler, Update, WarningCode};
use agentwire::MAX_DEPTH;
use serde_json::{json, Map, Value};

use super::{full_depth, short, Gen};

/// What any stream may copy, and what each operation read adds (`agui::patch::Budget`).
const BUDGET_FLOOR: u64 = 1 << 18;
const BUDGET_PER_OP: u64 = 2048;

/// Activity message ids (the last one is a text message: patching it is refused).
const ACTIVITY_IDS: &[&str] = &["act", "act2", "txt"];

/// Pointer tokens: existing keys most of the time, array positions, the append marker, escapes
/// and the banned `__proto__`.
const TOKENS: &[&str] = &[
    "a",
    "a",
    "b",
    "c",
    "0",
    "0",
    "1",
    "-",
    "",
    "k0",
    "~0",
    "~1",
    "x~1y",
    "01",
    "999",
    "__proto__",
];

pub fn check(data: &[u8]) -> Result<(), String> {
    if !cfg!(feature = "full") {
        // The lite build reads the Agent API only: AG-UI is not there to fuzz.
        return Ok(());
    }
    let mut g = Gen::new(data);
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(Protocol::AgUi)));
    let mut run = Run {
        bytes: 0,
        ops: 0,
        log: Vec::new(),
        last: None,
    };
    run.push(
        &mut asm,
        &json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}).to_string(),
    )?;
    run.push(
        &mut asm,
        &json!({"type": "TEXT_MESSAGE_START", "messageId": "txt", "role": "assistant"}).to_string(),
    )?;
    let first = g.value(0);
    run.event(&mut asm, Kind::StateSnapshot, snapshot_event(first))?;
    let content = g.object();
    run.event(
        &mut asm,
        Kind::ActivitySnapshot,
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act", "activityType": "plan", "content": content}),
    )?;
    let mut events = 0;
    while !g.is_empty() && events < 64 {
        events += 1;
        match g.below(10) {
            0..=3 => {
                let ops = operations(&mut g);
                run.event(
                    &mut asm,
                    Kind::StateDelta,
                    json!({"type": "STATE_DELTA", "delta": ops}),
                )?;
            }
            4 | 5 => {
                let id = g.pick(ACTIVITY_IDS).unwrap_or("act");
                let ops = operations(&mut g);
                let kind = g.string();
                run.event(
                    &mut asm,
                    Kind::ActivityDelta(id),
                    json!({"type": "ACTIVITY_DELTA", "messageId": id, "activityType": kind, "patch": ops}),
                )?;
            }
            6 => {
                let id = g.pick(ACTIVITY_IDS).unwrap_or("act");
                let content = g.object();
                let mut event = json!({"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "plan", "content": content});
                if g.flag() {
                    event["replace"] = Value::Bool(g.flag());
                }
                run.event(&mut asm, Kind::ActivitySnapshot, event)?;
            }
            7 => {
                let value = g.value(0);
                run.event(&mut asm, Kind::StateSnapshot, snapshot_event(value))?;
            }
            _ => {
                // Raw JSON text from the input as the operations (or as the whole event).
                let text = g.text(4096);
                let raw = if g.flag() {
                    format!("{{\"type\":\"STATE_DELTA\",\"delta\":{text}}}")
                } else {
                    text
                };
                run.raw(&mut asm, &raw)?;
            }
        }
    }
    Ok(())
}

fn snapshot_event(value: Value) -> Value {
    json!({"type": "STATE_SNAPSHOT", "snapshot": value})
}

/// Arbitrary patch operations: mostly well-formed, sometimes with a missing or mistyped member.
fn operations(g: &mut Gen<'_>) -> Vec<Value> {
    const OPS: &[&str] = &[
        "add", "add", "remove", "replace", "move", "copy", "copy", "test", "bogus",
    ];
    let n = g.below(6) + 1;
    (0..n)
        .map(|_| {
            let op = g.pick(OPS).unwrap_or("add");
            let mut map = Map::new();
            map.insert("op".into(), Value::from(op));
            map.insert("path".into(), Value::from(pointer(g)));
            if matches!(op, "move" | "copy") || g.below(8) == 0 {
                map.insert("from".into(), Value::from(pointer(g)));
            }
            if matches!(op, "add" | "replace" | "test") || g.below(8) == 0 {
                map.insert("value".into(), g.value(0));
            }
            if g.below(16) == 0 {
                // A missing or mistyped member.
                match g.below(3) {
                    0 => {
                        map.remove("path");
                    }
                    1 => {
                        map.insert("path".into(), Value::from(1));
                    }
                    _ => {
                        map.insert("extra".into(), g.value(0));
                    }
                }
            }
            Value::Object(map)
        })
        .collect()
}

/// A JSON Pointer: tokens from the pool, rarely arbitrary text.
fn pointer(g: &mut Gen<'_>) -> String {
    if g.below(16) == 0 {
        return g.string();
    }
    let n = g.below(5);
    (0..n)
        .map(|_| format!("/{}", g.pick(TOKENS).unwrap_or("a")))
        .collect()
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    StateSnapshot,
    StateDelta,
    ActivitySnapshot,
    ActivityDelta(&'static str),
}

struct Run {
    /// Bytes pushed so far.
    bytes: u64,
    /// Patch operations pushed so far.
    ops: u64,
    /// The events so far, for messages.
    log: Vec<String>,
    /// The documents after the last checked event (nothing changes them in between).
    last: Option<Docs>,
}

/// The documents a patch may touch: the state and each activity message's content.
#[derive(Debug, Clone, PartialEq)]
struct Docs {
    state: Value,
    activities: Vec<(String, Value)>,
    /// Whether the client rejected the stream (nothing is applied after that).
    rejected: bool,
}

fn docs(asm: &StreamAssembler) -> Docs {
    let snapshot = asm.snapshot();
    let activities = snapshot
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("activity"))
        .map(|m| {
            (
                m.get("id").and_then(Value::as_str).unwrap_or("").to_owned(),
                m.get("content").cloned().unwrap_or(Value::Null),
            )
        })
        .collect();
    Docs {
        state: snapshot.get("state").cloned().unwrap_or(Value::Null),
        activities,
        rejected: snapshot.pointer("/error/source") == Some(&Value::from("client")),
    }
}

impl Run {
    /// Pushes one event as an SSE frame; returns the warnings it caused.
    fn push(
        &mut self,
        asm: &mut StreamAssembler,
        json: &str,
    ) -> Result<Vec<(WarningCode, String)>, String> {
        let frame = format!("data: {json}\n\n");
        self.bytes += frame.len() as u64;
        self.log.push(short(json));
        match asm.push(frame.as_bytes()) {
            Ok(updates) => Ok(updates
                .into_iter()
                .filter_map(|u| match u {
                    Update::Warning(w) => Some((w.code, w.message)),
                    _ => None,
                })
                .collect()),
            // A tolerant AG-UI assembler fails only on framing (an event too large).
            Err(e) => Err(format!("push failed: {e}\n{}", self.history())),
        }
    }

    fn history(&self) -> String {
        let start = self.log.len().saturating_sub(8);
        self.log[start..].join("\n")
    }

    /// Pushes a raw event; checks what holds for any event.
    fn raw(&mut self, asm: &mut StreamAssembler, json: &str) -> Result<(), String> {
        let before = self.last.take().unwrap_or_else(|| docs(asm));
        let parsed: Option<Value> =
            serde_json::from_str(&agentwire::protocol::repair_lone_surrogates(json)).ok();
        let ops = parsed
            .as_ref()
            .filter(|e| e.get("type") == Some(&Value::from("STATE_DELTA")))
            .and_then(|e| e.get("delta"))
            .and_then(Value::as_array)
            .cloned();
        let warnings = self.push(asm, json)?;
        match ops {
            Some(ops) => self.after(asm, Kind::StateDelta, &before, Some(&ops), &warnings),
            None => self.after(asm, Kind::StateSnapshot, &before, None, &warnings),
        }
    }

    /// Pushes a generated event and checks it.
    fn event(&mut self, asm: &mut StreamAssembler, kind: Kind, event: Value) -> Result<(), String> {
        let before = self.last.take().unwrap_or_else(|| docs(asm));
        let json = event.to_string();
        super::drop_flat(event);
        // The operations as the assembler reads them (numbers included).
        let sent: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        let ops = match kind {
            Kind::StateDelta => sent.get("delta"),
            Kind::ActivityDelta(_) => sent.get("patch"),
            _ => None,
        }
        .and_then(Value::as_array)
        .cloned();
        let warnings = self.push(asm, &json)?;
        super::drop_flat(sent);
        self.after(asm, kind, &before, ops.as_ref(), &warnings)
    }

    fn after(
        &mut self,
        asm: &StreamAssembler,
        kind: Kind,
        before: &Docs,
        ops: Option<&Vec<Value>>,
        warnings: &[(WarningCode, String)],
    ) -> Result<(), String> {
        let after = docs(asm);
        if let Some(ops) = ops {
            self.ops += ops.len() as u64;
        }
        let result = self.judge(kind, before, &after, ops, warnings);
        self.last = Some(after);
        result
    }

    fn judge(
        &self,
        kind: Kind,
        before: &Docs,
        after: &Docs,
        ops: Option<&Vec<Value>>,
        warnings: &[(WarningCode, String)],
    ) -> Result<(), String> {
        let fail = |what: String| Err(format!("{what}\nlast events:\n{}", self.history()));
        // Depth: the state and the activity contents stay within the one limit.
        for (what, doc) in std::iter::once(("state", &after.state))
            .chain(after.activities.iter().map(|(id, c)| (id.as_str(), c)))
        {
            let depth = full_depth(doc);
            if depth > MAX_DEPTH {
                return fail(format!(
                    "{what} nests {depth} levels (MAX_DEPTH {MAX_DEPTH})"
                ));
            }
        }
        // Memory: what was pushed plus what copies may add.
        let total: u64 = std::iter::once(&after.state)
            .chain(after.activities.iter().map(|(_, c)| c))
            .map(weight)
            .sum();
        let allowance = self.bytes + BUDGET_FLOOR + BUDGET_PER_OP * self.ops;
        if total > allowance {
            return fail(format!(
                "the documents weigh {total}, more than the {} bytes pushed and the copy allowance ({allowance})",
                self.bytes
            ));
        }
        if before.rejected || after.rejected {
            return Ok(());
        }
        let failed: Vec<&String> = warnings
            .iter()
            .filter(|(c, _)| *c == WarningCode::PatchFailed)
            .map(|(_, m)| m)
            .collect();
        let other_warnings = warnings.iter().any(|(c, _)| *c != WarningCode::PatchFailed);
        let (doc_before, doc_after) = match kind {
            Kind::StateDelta => (Some(&before.state), Some(&after.state)),
            Kind::ActivityDelta(id) => (
                before
                    .activities
                    .iter()
                    .find(|(i, _)| i == id)
                    .map(|(_, c)| c),
                after
                    .activities
                    .iter()
                    .find(|(i, _)| i == id)
                    .map(|(_, c)| c),
            ),
            _ => return Ok(()),
        };
        // Atomic: a failed patch leaves its document exactly as it was.
        if !failed.is_empty() {
            let same = match (doc_before, doc_after) {
                (Some(a), Some(b)) => identical(a, b),
                (a, b) => a.is_none() && b.is_none(),
            };
            if !same {
                return fail(format!(
                    "a failed patch ({}) changed its document\n  before {}\n  after  {}",
                    failed[0],
                    short(&doc_before.map(|v| v.to_string()).unwrap_or_default()),
                    short(&doc_after.map(|v| v.to_string()).unwrap_or_default()),
                ));
            }
        }
        // Against the reference, for well-formed operations read without other complaints.
        let (Some(ops), Some(doc_before)) = (ops, doc_before) else {
            return Ok(());
        };
        if other_warnings || !ops.iter().all(well_formed) {
            return Ok(());
        }
        // (A large document is not copied for the reference on every event: the executions
        // stay fast; depth, weight and atomicity are still checked above.)
        if weight(doc_before) > 50_000 {
            return Ok(());
        }
        let object_only = matches!(kind, Kind::ActivityDelta(_));
        let expected = reference(doc_before, ops, object_only);
        match (expected, failed.first()) {
            (Err(why), None) => fail(format!(
                "the patch applied, but the reference fails it ({why})\n  ops {}",
                short(&Value::from(ops.clone()).to_string())
            )),
            (Err(_), Some(_)) => Ok(()),
            (Ok(_), Some(m)) if m.contains("may still copy") => Ok(()),
            (Ok(doc), Some(m)) => fail(format!(
                "the patch failed ({m}), the reference applies it: {}\n  ops {}",
                short(&doc.to_string()),
                short(&Value::from(ops.clone()).to_string())
            )),
            (Ok(doc), None) => {
                if !doc_after.is_some_and(|got| identical(got, &doc)) {
                    return fail(format!(
                        "the patch gave {}\n  the reference gives {}\n  ops {}",
                        short(&doc_after.map(|v| v.to_string()).unwrap_or_default()),
                        short(&doc.to_string()),
                        short(&Value::from(ops.clone()).to_string())
                    ));
                }
                Ok(())
            }
        }
    }
}

/// Equal values with their keys in the same order (what `JSON.stringify` would show).
fn identical(a: &Value, b: &Value) -> bool {
    let mut pairs = vec![(a, b)];
    while let Some(pair) = pairs.pop() {
        match pair {
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pairs.extend(x.iter().zip(y))
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for ((k, v), (l, w)) in x.iter().zip(y) {
                    if k != l {
                        return false;
                    }
                    pairs.push((v, w));
                }
            }
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
                return false
            }
            (a, b) => {
                if a != b {
                    return false;
                }
            }
        }
    }
    true
}

/// What copying a value costs: one per node, plus one per 16 bytes of strings and keys.
fn weight(value: &Value) -> u64 {
    let text = |s: &str| (s.len() / 16) as u64;
    let mut total = 0u64;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (k, child) in map {
                    total += text(k);
                    stack.push(child);
                }
            }
            Value::String(s) => total += text(s),
            _ => {}
        }
    }
    total
}

/// An operation the AG-UI schema accepts: a known `op` with its members of the right types.
fn well_formed(op: &Value) -> bool {
    let name = op.get("op").and_then(Value::as_str).unwrap_or("");
    let string = |k: &str| op.get(k).is_some_and(Value::is_string);
    let known = matches!(
        name,
        "add" | "remove" | "replace" | "move" | "copy" | "test"
    );
    let from_ok = op.get("from").is_none_or(Value::is_string);
    known
        && string("path")
        && from_ok
        && (!matches!(name, "move" | "copy") || string("from"))
        && (!matches!(name, "add" | "replace" | "test") || op.get("value").is_some())
}

// ----- the reference: clone, apply each operation, keep the result only if all succeed --------

fn parse_pointer(text: &str) -> Result<Vec<String>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let rest = text
        .strip_prefix('/')
        .ok_or_else(|| format!("pointer {text:?} does not start with /"))?;
    rest.split('/')
        .map(|t| {
            let mut out = String::new();
            let mut chars = t.chars();
            while let Some(c) = chars.next() {
                if c != '~' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('0') => out.push('~'),
                    Some('1') => out.push('/'),
                    _ => return Err(format!("bad escape in {text:?}")),
                }
            }
            Ok(out)
        })
        .collect()
}

fn index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

fn get<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut node = doc;
    for t in path {
        node = match node {
            Value::Object(m) => m.get(t)?,
            Value::Array(a) => a.get(index(t)?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn get_mut<'a>(doc: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut node = doc;
    for t in path {
        node = match node {
            Value::Object(m) => m.get_mut(t)?,
            Value::Array(a) => a.get_mut(index(t)?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn add(doc: &mut Value, path: &[String], value: Value) -> Result<(), String> {
    let Some((last, parent)) = path.split_last() else {
        *doc = value;
        return Ok(());
    };
    match get_mut(doc, parent) {
        Some(Value::Object(m)) => {
            m.insert(last.clone(), value);
            Ok(())
        }
        Some(Value::Array(a)) => {
            let i = if last == "-" {
                a.len()
            } else {
                index(last)
                    .filter(|&i| i <= a.len())
                    .ok_or("index out of bounds")?
            };
            a.insert(i, value);
            Ok(())
        }
        _ => Err("parent missing".into()),
    }
}

fn remove(doc: &mut Value, path: &[String]) -> Result<Value, String> {
    let Some((last, parent)) = path.split_last() else {
        return Ok(std::mem::replace(doc, Value::Null));
    };
    match get_mut(doc, parent) {
        Some(Value::Object(m)) => m.shift_remove(last).ok_or_else(|| "missing key".into()),
        Some(Value::Array(a)) => {
            let i = index(last)
                .filter(|&i| i < a.len())
                .ok_or("index out of bounds")?;
            Ok(a.remove(i))
        }
        _ => Err("parent missing".into()),
    }
}

fn fits(value: &Value, at: &[String]) -> Result<(), String> {
    if at.len() + full_depth(value) > MAX_DEPTH {
        Err("too deep".into())
    } else {
        Ok(())
    }
}

/// fast-json-patch's `applyPatch(doc, ops, validate = true)` on a copy, with agentwire's rules:
/// `__proto__` in any pointer refuses the patch, and no operation may nest the document deeper
/// than `MAX_DEPTH`. `object_only`: the result must be an object (activity content).
pub fn reference(doc: &Value, ops: &[Value], object_only: bool) -> Result<Value, String> {
    for op in ops {
        for key in ["path", "from"] {
            if op
                .get(key)
                .and_then(Value::as_str)
                .is_some_and(|p| p.split('/').any(|t| t == "__proto__"))
            {
                return Err("__proto__".into());
            }
        }
    }
    let mut doc = doc.clone();
    for op in ops {
        let pointer = |k: &str| parse_pointer(op.get(k).and_then(Value::as_str).unwrap_or(""));
        let path = pointer("path")?;
        let value = op.get("value").cloned().unwrap_or(Value::Null);
        match op.get("op").and_then(Value::as_str).unwrap_or("") {
            "add" => {
                fits(&value, &path)?;
                add(&mut doc, &path, value)?;
            }
            "remove" => {
                remove(&mut doc, &path)?;
            }
            "replace" => {
                fits(&value, &path)?;
                *get_mut(&mut doc, &path).ok_or("missing")? = value;
            }
            "move" => {
                let from = pointer("from")?;
                if path.len() > from.len() && path.starts_with(&from) {
                    return Err("move into itself".into());
                }
                if path.len() > from.len() {
                    fits(get(&doc, &from).ok_or("from missing")?, &path)?;
                }
                let moved = remove(&mut doc, &from)?;
                add(&mut doc, &path, moved)?;
            }
            "copy" => {
                let from = pointer("from")?;
                let source = get(&doc, &from).ok_or("from missing")?.clone();
                if !path.is_empty() {
                    fits(&source, &path)?;
                }
                add(&mut doc, &path, source)?;
            }
            "test" => {
                if !js_equal(get(&doc, &path).ok_or("missing")?, &value) {
                    return Err("test failed".into());
                }
            }
            other => return Err(format!("unknown op {other}")),
        }
    }
    if object_only && !doc.is_object() {
        return Err("not an object".into());
    }
    Ok(doc)
}

/// fast-json-patch's `_areEquals`: numbers by value (`1` and `1.0` are one JavaScript number),
/// objects by their members whatever the order.
fn js_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| js_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| js_equal(v, w)))
        }
        (a, b) => a == b,
    }
}
