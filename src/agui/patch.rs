//! RFC 6902 JSON Patch with the semantics `@ag-ui/client` gets from `fast-json-patch`
//! (`applyPatch(doc, ops, validate = true, mutate = false)`): atomic (a failing patch leaves the
//! document as it was), `replace`/`remove`/`test` on a missing path fail, operations on the
//! root replace (or, for `remove`, null) the whole document, and `__proto__` is refused.
//!
//! Unlike the client, which deep-copies the whole document for every patch, operations are
//! applied in place and undone from a log when a later one fails: a patch costs what its
//! operations touch, not the size of the document. Two limits keep hostile patches from
//! amplifying the input:
//! - no operation may nest the document deeper than [`MAX_DEPTH`] levels;
//! - `copy` (and a `move` that deepens a subtree, which must measure it) spend a [`Budget`] of
//!   copied nodes that grows with the operations read (each at least ~25 bytes of input), so
//!   the work done and the memory added stay proportional to the input. The work is spent even
//!   when the patch then fails and is undone, and a copy refused for want of budget spends
//!   what it measured: failing patches cannot repeat the same work for free.

use serde_json::Value;

use crate::MAX_DEPTH;

/// What `copy` operations may still create (and deepening `move`s measure), in nodes plus
/// one per 16 bytes of strings and keys.
///
/// Starts at [`Budget::FLOOR`]; every operation read adds [`Budget::PER_OP`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    remaining: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            remaining: Self::FLOOR,
        }
    }
}

impl Budget {
    /// What every stream may copy, whatever its size: 256 Ki nodes (or 4 MiB of strings).
    pub(crate) const FLOOR: u64 = 1 << 18;
    /// Nodes earned per operation read.
    pub(crate) const PER_OP: u64 = 2048;

    /// Credits `ops` operations read.
    fn earn(&mut self, ops: usize) {
        let ops = u64::try_from(ops).unwrap_or(u64::MAX);
        self.remaining = self
            .remaining
            .saturating_add(ops.saturating_mul(Self::PER_OP));
    }

    /// Spends `nodes`, or fails when there are not that many left, spending all that is left
    /// (what it took to count them).
    fn spend(&mut self, nodes: u64) -> Result<(), String> {
        match self.remaining.checked_sub(nodes) {
            Some(left) => {
                self.remaining = left;
                Ok(())
            }
            None => {
                self.remaining = 0;
                Err(format!(
                    "copying {nodes} nodes exceeds what this stream may still copy (the allowance grows by {} per operation read)",
                    Self::PER_OP
                ))
            }
        }
    }
}

/// One reference token of a JSON Pointer, decoded.
type Token = String;

/// Parses an RFC 6901 pointer: `""` is the root; anything else starts with `/`.
fn parse_pointer(text: &str) -> Result<Vec<Token>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = text.strip_prefix('/') else {
        return Err(format!(
            "invalid JSON pointer \"{text}\": it must start with '/'"
        ));
    };
    rest.split('/')
        .map(|token| {
            if !token.contains('~') {
                return Ok(token.to_owned());
            }
            let mut out = String::with_capacity(token.len());
            let mut chars = token.chars();
            while let Some(c) = chars.next() {
                match (c, c == '~') {
                    (_, false) => out.push(c),
                    (_, true) => match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => {
                            return Err(format!(
                                "invalid JSON pointer \"{text}\": '~' must be followed by 0 or 1"
                            ))
                        }
                    },
                }
            }
            Ok(out)
        })
        .collect()
}

/// An array index token: digits without a leading zero (`0` itself is fine).
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

/// The node at `tokens`.
fn resolve<'a>(doc: &'a Value, tokens: &[Token]) -> Option<&'a Value> {
    tokens.iter().try_fold(doc, |node, token| match node {
        Value::Object(map) => map.get(token.as_str()),
        Value::Array(items) => items.get(array_index(token)?),
        _ => None,
    })
}

/// The node at `tokens`, mutably.
fn resolve_mut<'a>(doc: &'a mut Value, tokens: &[Token]) -> Option<&'a mut Value> {
    tokens.iter().try_fold(doc, |node, token| match node {
        Value::Object(map) => map.get_mut(token.as_str()),
        Value::Array(items) => items.get_mut(array_index(token)?),
        _ => None,
    })
}

fn path_text(tokens: &[Token]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// How to undo one applied change. Undoing runs newest first and passes values along in a
/// "hand": the undo of an insertion takes the inserted value into it, and an entry whose value
/// is `None` puts back what the hand holds (the value a `move` carried away).
#[derive(Debug)]
enum Undo {
    /// Put back `old` at `path` (the whole document when `path` is empty), taking what is
    /// there into the hand.
    Restore {
        path: Vec<Token>,
        old: Option<Value>,
    },
    /// Re-insert key `key` with `value` at position `index` of the object at `parent`.
    ObjectInsert {
        parent: Vec<Token>,
        index: usize,
        key: String,
        value: Option<Value>,
    },
    /// Remove the key `key` that was added to the object at `parent`, into the hand.
    ObjectRemove { parent: Vec<Token>, key: String },
    /// Re-insert `value` at `index` of the array at `parent`.
    ArrayInsert {
        parent: Vec<Token>,
        index: usize,
        value: Option<Value>,
    },
    /// Remove position `index` of the array at `parent`, into the hand.
    ArrayRemove { parent: Vec<Token>, index: usize },
}

/// The nesting depth of `value`, counting the nodes visited against `budget` when given.
fn depth_within(value: &Value, budget: Option<&mut Budget>) -> Result<usize, String> {
    let mut visited: u64 = 0;
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((v, level)) = stack.pop() {
        visited += 1;
        let children: &mut dyn Iterator<Item = &Value> = match v {
            Value::Array(items) => &mut items.iter(),
            Value::Object(map) => &mut map.values(),
            _ => continue,
        };
        deepest = deepest.max(level + 1);
        if deepest > MAX_DEPTH {
            break;
        }
        stack.extend(children.map(|child| (child, level + 1)));
    }
    if let Some(budget) = budget {
        budget.spend(visited)?;
    }
    Ok(deepest)
}

/// What copying `value` costs, counted up to `limit + 1`: one per node, plus one per 16 bytes
/// of its strings and keys (so memory, not only nodes, stays proportional to the input).
fn weight_up_to(value: &Value, limit: u64) -> u64 {
    let text = |s: &str| u64::try_from(s.len() / 16).unwrap_or(u64::MAX);
    let mut weight: u64 = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        weight = weight.saturating_add(1);
        match v {
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => {
                for (key, child) in map {
                    weight = weight.saturating_add(text(key));
                    stack.push(child);
                }
            }
            Value::String(s) => weight = weight.saturating_add(text(s)),
            _ => {}
        }
        if weight > limit {
            break;
        }
    }
    weight
}

/// fast-json-patch's `_areEquals`, what the client's `test` compares with: numbers by value as
/// JavaScript numbers (`1` and `1.0`, or two integers past 2^53 that round to one double, are
/// equal), arrays item by item, objects by their members in any order.
fn js_equal(a: &Value, b: &Value) -> bool {
    let mut pairs = vec![(a, b)];
    while let Some(pair) = pairs.pop() {
        match pair {
            (Value::Number(x), Value::Number(y)) => {
                if x.as_f64() != y.as_f64() {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                pairs.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (key, value) in x {
                    match y.get(key) {
                        Some(other) => pairs.push((value, other)),
                        None => return false,
                    }
                }
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

fn too_deep(path: &[Token]) -> String {
    format!(
        "the operation at {} would nest the document deeper than {MAX_DEPTH} levels",
        path_text(path)
    )
}

/// Applies a patch in place, keeping the log to undo it.
struct Applier<'d> {
    doc: &'d mut Value,
    log: Vec<Undo>,
}

impl Applier<'_> {
    /// Adds `value` at `path` (RFC 6902 `add`): replaces the root, sets an object member,
    /// or inserts into an array (`-` appends). On error the value is handed back.
    fn add(&mut self, path: &[Token], value: Value) -> Result<(), (String, Value)> {
        let Some((last, parent)) = path.split_last() else {
            let old = std::mem::replace(self.doc, value);
            self.log.push(Undo::Restore {
                path: Vec::new(),
                old: Some(old),
            });
            return Ok(());
        };
        let missing = format!("path {} does not exist", path_text(path));
        match resolve_mut(self.doc, parent) {
            Some(Value::Object(map)) => {
                match map.get_mut(last.as_str()) {
                    Some(slot) => {
                        let old = std::mem::replace(slot, value);
                        self.log.push(Undo::Restore {
                            path: path.to_vec(),
                            old: Some(old),
                        });
                    }
                    None => {
                        map.insert(last.clone(), value);
                        self.log.push(Undo::ObjectRemove {
                            parent: parent.to_vec(),
                            key: last.clone(),
                        });
                    }
                }
                Ok(())
            }
            Some(Value::Array(items)) => {
                let index = if last == "-" {
                    Some(items.len())
                } else {
                    array_index(last).filter(|&i| i <= items.len())
                };
                let Some(index) = index else {
                    return Err((format!("index {} is out of bounds", path_text(path)), value));
                };
                items.insert(index, value);
                self.log.push(Undo::ArrayRemove {
                    parent: parent.to_vec(),
                    index,
                });
                Ok(())
            }
            _ => Err((missing, value)),
        }
    }

    /// Removes the value at `path` and returns it (RFC 6902 `remove`); the root becomes null.
    /// Its undo entry waits for the value: [`Applier::keep_removed`] for a plain `remove`, the
    /// hand for a `move`.
    fn remove(&mut self, path: &[Token]) -> Result<Value, String> {
        let Some((last, parent)) = path.split_last() else {
            let old = std::mem::replace(self.doc, Value::Null);
            self.log.push(Undo::Restore {
                path: Vec::new(),
                old: None,
            });
            return Ok(old);
        };
        let missing = || format!("path {} does not exist", path_text(path));
        match resolve_mut(self.doc, parent).ok_or_else(missing)? {
            Value::Object(map) => {
                // The others keep their order, as a JavaScript `delete` does.
                let index = map.keys().position(|k| k == last).ok_or_else(missing)?;
                let value = map.shift_remove(last.as_str()).ok_or_else(missing)?;
                self.log.push(Undo::ObjectInsert {
                    parent: parent.to_vec(),
                    index,
                    key: last.clone(),
                    value: None,
                });
                Ok(value)
            }
            Value::Array(items) => {
                let index = array_index(last)
                    .filter(|&i| i < items.len())
                    .ok_or_else(missing)?;
                let value = items.remove(index);
                self.log.push(Undo::ArrayInsert {
                    parent: parent.to_vec(),
                    index,
                    value: None,
                });
                Ok(value)
            }
            _ => Err(missing()),
        }
    }

    /// Gives the value removed by the last `remove` to its undo entry (for a plain `remove`;
    /// a `move` hands it to `add` instead and logs the add).
    fn keep_removed(&mut self, value: Value) {
        if let Some(
            Undo::ObjectInsert { value: slot, .. }
            | Undo::ArrayInsert { value: slot, .. }
            | Undo::Restore { old: slot, .. },
        ) = self.log.last_mut()
        {
            *slot = Some(value);
        }
    }

    /// Replaces the value at `path`, which must exist.
    fn replace(&mut self, path: &[Token], value: Value) -> Result<(), String> {
        let slot = resolve_mut(self.doc, path)
            .ok_or_else(|| format!("path {} does not exist", path_text(path)))?;
        let old = std::mem::replace(slot, value);
        self.log.push(Undo::Restore {
            path: path.to_vec(),
            old: Some(old),
        });
        Ok(())
    }

    fn apply(&mut self, op: &Value, budget: &mut Budget) -> Result<(), String> {
        let name = op.get("op").and_then(Value::as_str).unwrap_or_default();
        let pointer =
            |key: &str| parse_pointer(op.get(key).and_then(Value::as_str).unwrap_or_default());
        let path = pointer("path")?;
        let value = || op.get("value").cloned().unwrap_or(Value::Null);
        let fits = |depth: usize, at: &[Token]| {
            if at.len() + depth > MAX_DEPTH {
                Err(too_deep(at))
            } else {
                Ok(())
            }
        };
        match name {
            "add" => {
                let value = value();
                fits(depth_within(&value, None)?, &path)?;
                self.add(&path, value).map_err(|(error, _)| error)
            }
            "remove" => {
                let value = self.remove(&path)?;
                self.keep_removed(value);
                Ok(())
            }
            "replace" => {
                let value = value();
                fits(depth_within(&value, None)?, &path)?;
                self.replace(&path, value)
            }
            "move" => {
                let from = pointer("from")?;
                if path.len() > from.len() && path.starts_with(&from) {
                    return Err(format!(
                        "cannot move {} into itself ({})",
                        path_text(&from),
                        path_text(&path)
                    ));
                }
                if path.len() > from.len() {
                    let source = resolve(self.doc, &from)
                        .ok_or_else(|| format!("from path {} does not exist", path_text(&from)))?;
                    fits(depth_within(source, Some(budget))?, &path)?;
                }
                let moved = self
                    .remove(&from)
                    .map_err(|_| format!("from path {} does not exist", path_text(&from)))?;
                self.add(&path, moved).map_err(|(error, moved)| {
                    // The value goes back where it came from when the patch is undone.
                    self.keep_removed(moved);
                    error
                })
            }
            "copy" => {
                let from = pointer("from")?;
                let source = resolve(self.doc, &from)
                    .ok_or_else(|| format!("from path {} does not exist", path_text(&from)))?;
                let weight = weight_up_to(source, budget.remaining);
                budget.spend(weight)?;
                if !path.is_empty() {
                    fits(depth_within(source, None)?, &path)?;
                }
                let copy = source.clone();
                self.add(&path, copy).map_err(|(error, _)| error)
            }
            "test" => {
                let expected = op.get("value").unwrap_or(&Value::Null);
                match resolve(self.doc, &path) {
                    Some(actual) if js_equal(actual, expected) => Ok(()),
                    Some(_) => Err(format!("test failed at {}", path_text(&path))),
                    None => Err(format!("path {} does not exist", path_text(&path))),
                }
            }
            other => Err(format!("unknown operation '{other}'")),
        }
    }

    /// Undoes everything logged, newest first.
    fn rollback(&mut self) {
        let mut hand: Option<Value> = None;
        while let Some(undo) = self.log.pop() {
            match undo {
                Undo::Restore { path, old } => {
                    if let Some(slot) = resolve_mut(self.doc, &path) {
                        let back = old.or_else(|| hand.take()).unwrap_or(Value::Null);
                        hand = Some(std::mem::replace(slot, back));
                    }
                }
                Undo::ObjectInsert {
                    parent,
                    index,
                    key,
                    value,
                } => {
                    if let Some(Value::Object(map)) = resolve_mut(self.doc, &parent) {
                        let back = value.or_else(|| hand.take()).unwrap_or(Value::Null);
                        map.shift_insert(index.min(map.len()), key, back);
                    }
                }
                Undo::ObjectRemove { parent, key } => {
                    if let Some(Value::Object(map)) = resolve_mut(self.doc, &parent) {
                        hand = map.shift_remove(key.as_str());
                    }
                }
                Undo::ArrayInsert {
                    parent,
                    index,
                    value,
                } => {
                    if let Some(Value::Array(items)) = resolve_mut(self.doc, &parent) {
                        let back = value.or_else(|| hand.take()).unwrap_or(Value::Null);
                        items.insert(index.min(items.len()), back);
                    }
                }
                Undo::ArrayRemove { parent, index } => {
                    if let Some(Value::Array(items)) = resolve_mut(self.doc, &parent) {
                        if index < items.len() {
                            hand = Some(items.remove(index));
                        }
                    }
                }
            }
        }
    }
}

/// Applies `ops` (already checked against the operation schema) to `doc` in place, spending
/// `budget` on copies. On error `doc` is unchanged and the error text is returned.
pub(crate) fn apply(doc: &mut Value, ops: &[Value], budget: &mut Budget) -> Result<(), String> {
    apply_checked(doc, ops, budget, |_| Ok(()))
}

/// As [`apply`], and then `check` the result: when it fails, the patch is undone and its error
/// returned.
pub(crate) fn apply_checked(
    doc: &mut Value,
    ops: &[Value],
    budget: &mut Budget,
    check: impl FnOnce(&Value) -> Result<(), String>,
) -> Result<(), String> {
    for op in ops {
        for key in ["path", "from"] {
            if op
                .get(key)
                .and_then(Value::as_str)
                .is_some_and(|p| p.split('/').any(|t| t == "__proto__"))
            {
                return Err("JSON-Patch: modifying `__proto__` prop is banned for security reasons, if this was on purpose, please set `banPrototypeModifications` flag false and pass it to this function. More info in fast-json-patch README".to_owned());
            }
        }
    }
    budget.earn(ops.len());
    let mut applier = Applier {
        doc,
        log: Vec::new(),
    };
    // On failure the patch is undone, but what it copied stays spent: the work was done.
    for op in ops {
        if let Err(error) = applier.apply(op, budget) {
            applier.rollback();
            return Err(error);
        }
    }
    if let Err(error) = check(applier.doc) {
        applier.rollback();
        return Err(error);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(doc: &mut Value, ops: &[Value]) -> Result<(), String> {
        apply(doc, ops, &mut Budget::default())
    }

    #[test]
    fn applies_and_is_atomic() {
        let mut doc = json!({"a": 1});
        run(
            &mut doc,
            &[
                json!({"op":"add","path":"/b","value":[1]}),
                json!({"op":"add","path":"/b/-","value":2}),
            ],
        )
        .unwrap();
        assert_eq!(doc, json!({"a":1,"b":[1,2]}));
        let before = doc.clone();
        let err = run(
            &mut doc,
            &[
                json!({"op":"remove","path":"/a"}),
                json!({"op":"replace","path":"/zz","value":1}),
            ],
        );
        assert!(err.is_err());
        assert_eq!(doc, before);
    }

    #[test]
    fn a_failing_patch_restores_values_and_key_order_exactly() {
        let original = json!({"a": 1, "b": {"x": [1, 2, 3]}, "c": 3, "d": [4]});
        for ops in [
            vec![
                json!({"op":"remove","path":"/a"}),
                json!({"op":"remove","path":"/b/x/1"}),
                json!({"op":"add","path":"/e","value":5}),
                json!({"op":"replace","path":"/c","value":"z"}),
                json!({"op":"move","from":"/d","path":"/b/d"}),
                json!({"op":"copy","from":"/b","path":"/f"}),
                json!({"op":"add","path":"/b/x/0","value":0}),
                json!({"op":"test","path":"/c","value":"no"}),
            ],
            vec![json!({"op":"move","from":"/a","path":"/nope/x"})],
            vec![
                json!({"op":"remove","path":""}),
                json!({"op":"add","path":"/x","value":1}),
            ],
            vec![
                json!({"op":"add","path":"","value":[1]}),
                json!({"op":"remove","path":"/5"}),
            ],
        ] {
            let mut doc = original.clone();
            assert!(run(&mut doc, &ops).is_err(), "{ops:?}");
            assert_eq!(
                serde_json::to_string(&doc).unwrap(),
                serde_json::to_string(&original).unwrap(),
                "{ops:?}"
            );
        }
    }

    #[test]
    fn remove_keeps_the_order_of_the_other_keys() {
        let mut doc = json!({"a": 1, "b": 2, "c": 3});
        run(&mut doc, &[json!({"op":"remove","path":"/a"})]).unwrap();
        assert_eq!(serde_json::to_string(&doc).unwrap(), r#"{"b":2,"c":3}"#);
    }

    #[test]
    fn root_operations() {
        let mut doc = json!({"a": 1});
        run(&mut doc, &[json!({"op":"replace","path":"","value":[1]})]).unwrap();
        assert_eq!(doc, json!([1]));
        run(&mut doc, &[json!({"op":"remove","path":""})]).unwrap();
        assert_eq!(doc, Value::Null);
        let mut doc = json!({"a": {"b": 1}});
        run(&mut doc, &[json!({"op":"move","from":"/a","path":""})]).unwrap();
        assert_eq!(doc, json!({"b": 1}));
        let mut doc = json!({"a": {"b": 1}});
        run(&mut doc, &[json!({"op":"copy","from":"/a","path":""})]).unwrap();
        assert_eq!(doc, json!({"b": 1}));
        assert!(run(
            &mut json!({}),
            &[json!({"op":"add","path":"/__proto__/x","value":1})]
        )
        .is_err());
    }

    #[test]
    fn pointers_escape_and_indexes_are_strict() {
        let mut doc = json!({"a/b": {"~c": 1}, "l": [0, 1]});
        run(
            &mut doc,
            &[json!({"op":"replace","path":"/a~1b/~0c","value":2})],
        )
        .unwrap();
        assert_eq!(doc["a/b"]["~c"], 2);
        for bad in ["/l/01", "/l/-", "/l/2", "/l/x", "a", "/a~2"] {
            assert!(
                run(&mut doc, &[json!({"op":"replace","path":bad,"value":0})]).is_err(),
                "{bad}"
            );
        }
        run(&mut doc, &[json!({"op":"add","path":"/l/2","value":2})]).unwrap();
        run(&mut doc, &[json!({"op":"add","path":"/l/-","value":3})]).unwrap();
        assert_eq!(doc["l"], json!([0, 1, 2, 3]));
    }

    #[test]
    fn copies_cannot_nest_past_the_depth_limit() {
        let mut doc = json!({"a": 1});
        let mut refused = 0;
        for _ in 0..3000 {
            if run(&mut doc, &[json!({"op":"copy","from":"","path":"/a"})]).is_err() {
                refused += 1;
            }
        }
        assert!(crate::depth::value_depth(&doc) <= MAX_DEPTH);
        assert_eq!(refused, 3000 - (MAX_DEPTH - 1));
        let mut doc = json!({"a": 1});
        let mut deep = json!(1);
        for _ in 0..MAX_DEPTH {
            deep = json!([deep]);
        }
        assert!(run(&mut doc, &[json!({"op":"add","path":"/b","value":deep})]).is_err());
        assert!(run(&mut doc, &[json!({"op":"replace","path":"","value":deep})]).is_ok());
    }

    #[test]
    fn copies_that_would_amplify_are_refused_whole() {
        let mut doc = json!({"a": "x"});
        let ops: Vec<Value> = (0..40)
            .map(|i| json!({"op":"copy","from":"","path":format!("/k{i}")}))
            .collect();
        let mut budget = Budget::default();
        assert!(apply(&mut doc, &ops, &mut budget).is_err());
        assert_eq!(doc, json!({"a": "x"}));
        // The copying it did (and the counting of the copy it refused) is spent.
        assert_eq!(budget, Budget { remaining: 0 });
        // A few copies are fine.
        apply(&mut doc, &ops[..5], &mut budget).unwrap();
        assert_eq!(doc.as_object().unwrap().len(), 6);
    }

    #[test]
    fn test_compares_numbers_as_javascript_does() {
        let mut doc = json!({"n": 3, "big": 9007199254740993u64, "o": {"a": [1, -0.0], "b": 2}});
        for (path, value) in [
            ("/n", json!(3.0)),
            ("/big", json!(9007199254740992u64)),
            ("/o", json!({"b": 2.0, "a": [1.0, 0]})),
        ] {
            run(&mut doc, &[json!({"op":"test","path":path,"value":value})])
                .unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        for (path, value) in [
            ("/n", json!("3")),
            ("/o", json!({"a": [1, 0]})),
            ("/n", json!(3.5)),
        ] {
            assert!(run(&mut doc, &[json!({"op":"test","path":path,"value":value})]).is_err());
        }
    }

    #[test]
    fn failing_patches_spend_what_they_copied() {
        // Copying the document and then failing a test: undone each time, but each time the
        // copy was made. Refunded, the same work could be repeated without end for ~100
        // bytes of input each (seconds for 100 KB); spent, it runs out.
        let mut doc = json!({"a": vec![0; 5000]});
        let mut budget = Budget { remaining: 20_000 };
        let failing = [
            json!({"op":"copy","from":"","path":"/x"}),
            json!({"op":"test","path":"/x","value":0}),
        ];
        for _ in 0..40 {
            assert!(apply(&mut doc, &failing, &mut budget).is_err());
        }
        let copy = [json!({"op":"copy","from":"","path":"/x"})];
        let err = apply(&mut doc, &copy, &mut budget).unwrap_err();
        assert!(err.contains("may still copy"), "{err}");
        assert_eq!(budget, Budget { remaining: 0 });
        assert_eq!(doc, json!({"a": vec![0; 5000]}));
    }

    #[test]
    fn moves_deeper_are_checked() {
        let mut deep = json!(1);
        for _ in 0..MAX_DEPTH - 1 {
            deep = json!([deep]);
        }
        let mut doc = json!({"a": deep, "b": {}});
        assert!(run(&mut doc, &[json!({"op":"move","from":"/a","path":"/b/c"})]).is_err());
        assert!(run(&mut doc, &[json!({"op":"move","from":"/a","path":"/c"})]).is_ok());
        assert!(run(
            &mut doc,
            &[json!({"op":"move","from":"/c","path":"/c/0/x"})]
        )
        .is_err());
    }

    #[test]
    fn check_failures_undo_the_patch() {
        let mut doc = json!({"a": 1});
        let err = apply_checked(
            &mut doc,
            &[json!({"op":"replace","path":"","value":[1]})],
            &mut Budget::default(),
            |d| {
                if d.is_object() {
                    Ok(())
                } else {
                    Err("not an object".into())
                }
            },
        );
        assert_eq!(err, Err("not an object".into()));
        assert_eq!(doc, json!({"a": 1}));
    }
}
