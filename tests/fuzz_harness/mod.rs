//! The checks of the cargo-fuzz targets beyond `push` (`fuzz/fuzz_targets/*.rs`), shared with
//! `tests/fuzz_crashers.rs`, which replays every saved crash input through the same code in
//! `cargo test`. One module per target; each has `check(data) -> Result<(), String>`, where
//! `Err` describes a violated property (the fuzz target panics with it, the replay reports it):
//!
//! - [`partial_json`]: `PartialJson` fed in pieces vs whole, vs serde_json, and its ops mirror;
//! - [`patch`]: AG-UI `STATE_DELTA` / `ACTIVITY_DELTA` through the assembler, vs a plain
//!   clone-and-apply JSON Patch;
//! - [`render`]: `snapshot()`, `tool_calls()` and `tool_call_changes()` after every push, for
//!   every protocol;
//! - [`builder`]: the builder given arbitrary JSON values, read back by a `StreamAssembler`;
//! - [`translate`]: the `Translator` between every pair of protocols;
//! - [`a2a`]: A2A JSON-RPC requests read by `read_call`, and A2A streams folded by `TaskFold`.
//!
//! Inputs are read with [`Gen`] (over `arbitrary::Unstructured`): single bytes pick shapes and
//! little-endian `u16`s give lengths, so `fuzz/seed-corpus.py` can write seeds by hand (deep
//! nesting, wide objects, long runs, hostile keys) that the fuzzer then mutates.
#![allow(dead_code, clippy::indexing_slicing)]

#[path = "../assembler_harness/mod.rs"]
pub mod assembler_harness;

pub mod a2a;
pub mod builder;
pub mod partial_json;
pub mod patch;
pub mod render;
pub mod script;
pub mod translate;

use arbitrary::Unstructured;
use serde_json::{Map, Number, Value};

/// The targets, by name (also the prefix of their crash files: `<target>-<what>.bin`).
pub const TARGETS: &[&str] = &[
    "partial_json",
    "patch",
    "render",
    "builder",
    "translate",
    "a2a",
];

/// Runs the checks of `target` on `data`; `None` for an unknown target.
pub fn check(target: &str, data: &[u8]) -> Option<Result<(), String>> {
    Some(match target {
        "partial_json" => partial_json::check(data),
        "patch" => patch::check(data),
        "render" => render::check(data),
        "builder" => builder::check(data),
        "translate" => translate::check(data),
        "a2a" => a2a::check(data),
        _ => return None,
    })
}

/// The fuzz input, read front to back. Reads past the end give zeros (and empty byte runs), so
/// every input decodes to something.
pub struct Gen<'a> {
    u: Unstructured<'a>,
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen {
            u: Unstructured::new(data),
        }
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    /// One byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary::<u8>().unwrap_or(0)
    }

    /// A little-endian `u16` (zeros past the end).
    pub fn u16(&mut self) -> u16 {
        self.u.arbitrary::<u16>().unwrap_or(0)
    }

    /// A number in `0..n` from one byte (`n` at most 256).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    /// Whether one byte is odd.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// One of `items`, picked by one byte.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let i = self.below(items.len());
        items.get(i).copied()
    }

    /// `len` bytes, or what is left.
    pub fn bytes(&mut self, len: usize) -> &'a [u8] {
        let len = len.min(self.u.len());
        self.u.bytes(len).unwrap_or_default()
    }

    /// A byte string: a `u16` length (capped at `max`), then that many bytes.
    pub fn byte_string(&mut self, max: usize) -> &'a [u8] {
        let len = usize::from(self.u16()) % (max + 1);
        self.bytes(len)
    }

    /// Text: a byte string read as UTF-8, invalid sequences replaced.
    pub fn text(&mut self, max: usize) -> String {
        String::from_utf8_lossy(self.byte_string(max)).into_owned()
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        let len = self.u.len();
        self.bytes(len)
    }

    /// Up to `max` cut offsets into a text of `len` bytes: a count byte, then `u16`s.
    pub fn cuts(&mut self, max: usize, len: usize) -> Vec<usize> {
        let n = self.below(max + 1);
        (0..n)
            .map(|_| usize::from(self.u16()) % (len + 1))
            .collect()
    }

    /// A string: from a pool of hostile and ordinary ones, or from the input.
    pub fn string(&mut self) -> String {
        const POOL: &[&str] = &[
            "",
            "a",
            "b",
            "x",
            "__proto__",
            "constructor",
            "prototype",
            "toString",
            "é中",
            "👩‍💻",
            "\u{FFFD}",
            "\0",
            "\u{2028}",
            "arguments",
            "call_id",
            "name",
            "output",
            "0",
            "-",
            "~",
            "/",
            "~0~1",
            "\"\\",
            "{\"a\":",
            "null",
            "[DONE]",
            "\n\ndata: ",
        ];
        match self.below(8) {
            0..=4 => self.pick(POOL).unwrap_or("").to_owned(),
            5 => {
                // A long run of one byte.
                let b = self.byte();
                let n = usize::from(self.u16()) % 20_000;
                let c = if b.is_ascii() { char::from(b) } else { 'é' };
                std::iter::repeat_n(c, n).collect()
            }
            _ => self.text(64),
        }
    }

    /// A key: mostly from a small pool, so that keys collide.
    pub fn key(&mut self) -> String {
        const KEYS: &[&str] = &["a", "b", "c", "0", "1", "__proto__", "k", "-", "~1", ""];
        if self.below(4) == 0 {
            self.string()
        } else {
            self.pick(KEYS).unwrap_or("a").to_owned()
        }
    }

    /// A number, with the edge cases (integers past 2^53 and 2^64, -0, the smallest and largest
    /// doubles).
    pub fn number(&mut self) -> Value {
        match self.below(6) {
            0 => Value::from(i64::from(self.byte() as i8)),
            1 => Value::from(self.u16()),
            2 => {
                const EDGES: &[&str] = &[
                    "0",
                    "-0",
                    "-0.0",
                    "1.5",
                    "0.1",
                    "1e308",
                    "-1.7976931348623157e308",
                    "5e-324",
                    "9007199254740993",
                    "18446744073709551615",
                    "18446744073709551616",
                    "9223372036854775807",
                    "-9223372036854775808",
                    "123456789012345678901234567890",
                    "1E2",
                    "1e-7",
                ];
                let text = self.pick(EDGES).unwrap_or("0");
                serde_json::from_str(text).unwrap_or(Value::Null)
            }
            3 => {
                let bits = u64::from(self.u16()) << 48 | u64::from(self.u16());
                Number::from_f64(f64::from_bits(bits)).map_or(Value::Null, Value::Number)
            }
            4 => Value::from(i64::MAX - i64::from(self.byte())),
            _ => Value::from(f64::from(self.u16()) / 8.0),
        }
    }

    /// An arbitrary JSON value. Containers nest at most a few levels by choice, except the
    /// `deep` (up to 3,000 levels) and `wide` (up to 20,000 entries) shapes, and JSON text taken
    /// from the input as is.
    pub fn value(&mut self, depth: usize) -> Value {
        let choice = if depth > 5 {
            self.below(5)
        } else {
            self.below(12)
        };
        match choice {
            0 => Value::Null,
            1 => Value::Bool(self.flag()),
            2 => self.number(),
            3 | 4 => Value::String(self.string()),
            5..=7 => {
                let n = self.below(5);
                Value::Array((0..n).map(|_| self.value(depth + 1)).collect())
            }
            8 | 9 => {
                let n = self.below(5);
                let mut map = Map::new();
                for _ in 0..n {
                    let k = self.key();
                    let v = self.value(depth + 1);
                    map.insert(k, v);
                }
                Value::Object(map)
            }
            10 => self.shaped(),
            _ => {
                let text = self.text(512);
                serde_json::from_str(&text).unwrap_or(Value::String(text))
            }
        }
    }

    /// A hostile shape: nested thousands of levels, or thousands of entries wide (one time in
    /// eight; otherwise up to a few hundred, which keeps the executions fast).
    pub fn shaped(&mut self) -> Value {
        let kind = self.below(4);
        let n = usize::from(self.u16());
        let n = if self.below(8) == 7 { n } else { n % 300 };
        match kind {
            0 => deep_array(n % 3_000),
            1 => deep_object(n % 3_000),
            2 => Value::Object(
                (0..n % 20_000)
                    .map(|i| (format!("k{i}"), Value::from(i)))
                    .collect(),
            ),
            _ => Value::Array((0..n % 20_000).map(Value::from).collect()),
        }
    }

    /// An object (a map), for usage and metadata.
    pub fn object(&mut self) -> Map<String, Value> {
        match self.value(0) {
            Value::Object(map) => map,
            other => {
                let mut map = Map::new();
                map.insert(self.key(), other);
                map
            }
        }
    }
}

/// `[[[…1…]]]`, `levels` deep.
pub fn deep_array(levels: usize) -> Value {
    let mut v = Value::from(1);
    for _ in 0..levels {
        v = Value::Array(vec![v]);
    }
    v
}

/// `{"a":{"a":…1…}}`, `levels` deep.
pub fn deep_object(levels: usize) -> Value {
    let mut v = Value::from(1);
    for _ in 0..levels {
        let mut map = Map::new();
        map.insert("a".to_owned(), v);
        v = Value::Object(map);
    }
    v
}

/// The nesting depth of `value` (containers counted, as `agentwire::depth::value_depth`), in
/// full and without recursion.
pub fn full_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, level)) = stack.pop() {
        let children: Vec<&Value> = match v {
            Value::Array(items) => items.iter().collect(),
            Value::Object(map) => map.values().collect(),
            _ => continue,
        };
        deepest = deepest.max(level + 1);
        stack.extend(children.into_iter().map(|c| (c, level + 1)));
    }
    deepest
}

/// Drops `value` without recursion (a value nested thousands of levels deep would overflow
/// the stack of a recursive drop in a debug build).
pub fn drop_flat(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Whether every number in `value` is a finite double (the lite build keeps `1e400` as text;
/// agentwire refuses it in both builds, `src/protocol/mod.rs`).
pub fn finite_numbers(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.as_f64().is_none_or(|f| !f.is_finite()) => return false,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    true
}

/// JSON equality with numbers compared by value (the lite build keeps numbers as their text;
/// `1.0` and `1` are the same number to JavaScript).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                let same = x.as_f64() == y.as_f64()
                    && (x.as_i64() == y.as_i64() || x.as_u64() == y.as_u64() || x.is_f64())
                    || x.to_string() == y.to_string();
                if !same {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() || x.keys().zip(y.keys()).any(|(k, l)| k != l) {
                    return false;
                }
                stack.extend(x.values().zip(y.values()));
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

/// `text` shortened for messages.
pub fn short(text: &str) -> String {
    const MAX: usize = 600;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}
