//! RFC 6902 JSON Patch with the semantics `@ag-ui/client` gets from `fast-json-patch`
//! (`applyPatch(doc, ops, validate = true, mutate = false)`): atomic (a failing patch leaves the
//! document as it was), `replace`/`remove`/`test` on a missing path fail, operations on the
//! root replace (or, for `remove`, null) the whole document, and `__proto__` is refused.

use json_patch::jsonptr::PointerBuf;
use json_patch::{
    AddOperation, CopyOperation, MoveOperation, PatchOperation, RemoveOperation, ReplaceOperation,
    TestOperation,
};
use serde_json::Value;

/// Builds an operation from a value already checked against the operation schema (by hand:
/// serde's derived reader for `PatchOperation` costs ~20 KB of wasm).
fn operation(op: &Value) -> Result<PatchOperation, String> {
    let pointer = |key: &str| -> Result<PointerBuf, String> {
        PointerBuf::parse(op.get(key).and_then(Value::as_str).unwrap_or_default())
            .map_err(|e| e.to_string())
    };
    let value = || op.get("value").cloned().unwrap_or(Value::Null);
    Ok(
        match op.get("op").and_then(Value::as_str).unwrap_or_default() {
            "add" => PatchOperation::Add(AddOperation {
                path: pointer("path")?,
                value: value(),
            }),
            "remove" => PatchOperation::Remove(RemoveOperation {
                path: pointer("path")?,
            }),
            "replace" => PatchOperation::Replace(ReplaceOperation {
                path: pointer("path")?,
                value: value(),
            }),
            "move" => PatchOperation::Move(MoveOperation {
                from: pointer("from")?,
                path: pointer("path")?,
            }),
            "copy" => PatchOperation::Copy(CopyOperation {
                from: pointer("from")?,
                path: pointer("path")?,
            }),
            "test" => PatchOperation::Test(TestOperation {
                path: pointer("path")?,
                value: value(),
            }),
            other => return Err(format!("unknown operation '{other}'")),
        },
    )
}

/// Applies `ops` (already checked against the operation schema) to `doc` in place. On error
/// `doc` is unchanged and the error text is returned.
pub(crate) fn apply(doc: &mut Value, ops: &[Value]) -> Result<(), String> {
    if ops.is_empty() {
        return Ok(());
    }
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
    let parsed = ops.iter().map(operation).collect::<Result<Vec<_>, _>>()?;
    let root_special = parsed.iter().any(|op| {
        op.path().as_str().is_empty()
            && matches!(
                op,
                PatchOperation::Remove(_) | PatchOperation::Move(_) | PatchOperation::Copy(_)
            )
    });
    // Work on a copy, as `fast-json-patch` does with `mutate = false`: `json_patch::patch`'s undo
    // log does not cover the failing operation itself (a `move` whose `add` half fails has
    // already removed its source), so its own atomicity is not enough.
    let mut work = doc.clone();
    if !root_special {
        json_patch::patch_unsafe(&mut work, &parsed).map_err(|e| e.to_string())?;
        *doc = work;
        return Ok(());
    }
    // Rare: operations on the root that RFC 6902 appliers disagree on.
    for op in &parsed {
        match op {
            PatchOperation::Remove(r) if r.path.as_str().is_empty() => work = Value::Null,
            PatchOperation::Move(m) if m.path.as_str().is_empty() => {
                work = m.from.resolve(&work).map_err(|e| e.to_string())?.clone();
            }
            PatchOperation::Copy(c) if c.path.as_str().is_empty() => {
                work = c.from.resolve(&work).map_err(|e| e.to_string())?.clone();
            }
            other => {
                json_patch::patch(&mut work, std::slice::from_ref(other))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    *doc = work;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn applies_and_is_atomic() {
        let mut doc = json!({"a": 1});
        apply(
            &mut doc,
            &[
                json!({"op":"add","path":"/b","value":[1]}),
                json!({"op":"add","path":"/b/-","value":2}),
            ],
        )
        .unwrap();
        assert_eq!(doc, json!({"a":1,"b":[1,2]}));
        let before = doc.clone();
        let err = apply(
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
    fn root_operations() {
        let mut doc = json!({"a": 1});
        apply(&mut doc, &[json!({"op":"replace","path":"","value":[1]})]).unwrap();
        assert_eq!(doc, json!([1]));
        apply(&mut doc, &[json!({"op":"remove","path":""})]).unwrap();
        assert_eq!(doc, Value::Null);
        assert!(apply(
            &mut json!({}),
            &[json!({"op":"add","path":"/__proto__/x","value":1})]
        )
        .is_err());
    }
}
