//! Incremental, best-effort parsing of a JSON text that arrives in pieces (tool-call
//! arguments), in O(new bytes) per piece.
//!
//! Peers re-parse the whole accumulated prefix on every delta, which is quadratic in the length
//! of the arguments (vercel/ai#17113). [`PartialJson`] keeps the parser state between pieces
//! instead: each byte is examined once, and the value built so far is kept as a tree.
//!
//! Best-effort rules for the value of an unfinished text, chosen to match what UIs expect:
//! - an unfinished string is included with the characters received so far (an unfinished
//!   escape sequence is left out until it completes);
//! - an unfinished number is included when its prefix is a number (`12.` reads as `12`, a lone
//!   `-` is left out; one past the range of a double, `1e400`, reads as `null` until it is
//!   complete, when it makes the text invalid);
//! - an unfinished `true`/`false`/`null` is completed from its first letter;
//! - an object key that is unfinished, or has no value yet, is left out.
//!
//! Consumers that mirror the value elsewhere (the JavaScript face keeps a live object per tool
//! call) can ask for the [`Op`]s that turn the value they last saw into the current one, so that
//! reading the value after every piece also costs O(new bytes).

use serde_json::{Map, Value};

use crate::protocol::parse_number;
use crate::MAX_DEPTH;

/// One step of the path from the root of a value to a node inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// A key of an object.
    Key(String),
    /// A position in an array.
    Index(usize),
}

/// A change to a mirrored value, as produced by [`PartialJson::take_ops`].
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Put `value` at `path` (an empty path replaces the root). For an array, `path` may name
    /// the position just past its end, which appends.
    Set {
        /// Where to put the value.
        path: Vec<PathSegment>,
        /// The value.
        value: Value,
    },
    /// Append `text` to the string at `path`.
    Append {
        /// Where the string is.
        path: Vec<PathSegment>,
        /// The characters to append.
        text: String,
    },
}

/// Where the parser is inside the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before a value: at the start, after `[`, `,` in an array, or `:`.
    Value,
    /// After `[`: a value or `]`.
    ValueOrArrayEnd,
    /// After `{`: a key or `}`.
    KeyOrObjectEnd,
    /// After `,` in an object: a key.
    Key,
    /// Inside a key string.
    InKey,
    /// After a key: `:`.
    Colon,
    /// Inside a string value.
    InString,
    /// Inside a number.
    InNumber,
    /// Inside `true`, `false` or `null`.
    InLiteral,
    /// After a value inside a container: `,` or the container's end.
    CommaOrEnd,
    /// The root value is complete; only whitespace may follow.
    Done,
    /// The text is not JSON, or nests deeper than [`MAX_DEPTH`]; nothing after the error is
    /// read.
    Invalid,
}

/// Where a number is in JSON's number grammar (`-?(0|[1-9]D*)(.D+)?([eE][+-]?D+)?`), so that
/// a character that cannot continue it (`3-`, `01`, `1.e`) makes the text invalid at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NumberPart {
    /// After the leading `-`.
    Minus,
    /// A leading `0` (no digit may follow).
    Zero,
    /// Integer digits.
    Int,
    /// After `.`.
    Dot,
    /// Fraction digits.
    Frac,
    /// After `e` or `E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// Exponent digits.
    ExpDigits,
}

impl NumberPart {
    /// The part after `byte`, when the number can continue with it.
    fn next(part: Option<NumberPart>, byte: u8) -> Option<NumberPart> {
        use NumberPart::*;
        Some(match (part, byte) {
            (None, b'-') => Minus,
            (None | Some(Minus), b'0') => Zero,
            (None | Some(Minus) | Some(Int), b'0'..=b'9') => Int,
            (Some(Zero | Int), b'.') => Dot,
            (Some(Dot | Frac), b'0'..=b'9') => Frac,
            (Some(Zero | Int | Frac), b'e' | b'E') => Exp,
            (Some(Exp), b'+' | b'-') => ExpSign,
            (Some(Exp | ExpSign | ExpDigits), b'0'..=b'9') => ExpDigits,
            _ => return None,
        })
    }
}

/// Escape-sequence progress inside a string or key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    None,
    /// After a backslash.
    Backslash,
    /// After `\u` and `digits` hex digits whose value so far is `code`.
    Unicode {
        code: u32,
        digits: u8,
    },
}

/// An open container on the parse stack.
#[derive(Debug)]
enum Open {
    Object,
    Array { len: usize },
}

/// An incremental, best-effort JSON parser. Feed it pieces with [`PartialJson::push`]; read the
/// value so far with [`PartialJson::value`].
///
/// # Example
///
/// ```
/// use agentwire::assembler::PartialJson;
/// use serde_json::json;
///
/// let mut args = PartialJson::new();
/// args.push(r#"{"city": "Hang"#);
/// assert_eq!(args.value(), Some(json!({"city": "Hang"})));
/// args.push(r#"zhou", "days": 3"#);
/// assert_eq!(args.value(), Some(json!({"city": "Hangzhou", "days": 3})));
/// args.push("}");
/// assert!(args.is_complete());
/// ```
#[derive(Debug)]
pub struct PartialJson {
    state: State,
    escape: Escape,
    /// A high surrogate from a `\uD8xx` escape, waiting for its low half.
    high_surrogate: Option<u32>,
    /// The value built from everything complete so far (strings are appended as they arrive).
    root: Option<Value>,
    /// Open containers, outermost first.
    stack: Vec<Open>,
    /// Path to the innermost open container, parallel to `stack`.
    path: Vec<PathSegment>,
    /// The key whose value comes next, in the innermost open object.
    pending_key: Option<String>,
    /// Characters of the key, number or literal being read.
    token: String,
    /// Where the number being read is in the number grammar.
    number: Option<NumberPart>,
    /// Changes since the last `take_ops`, once a consumer asked for them.
    ops: Option<Vec<Op>>,
    /// Bytes consumed so far.
    consumed: usize,
    /// Whether the text became invalid by nesting deeper than [`MAX_DEPTH`].
    too_deep: bool,
}

impl Default for PartialJson {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialJson {
    /// A parser that has seen nothing yet.
    pub fn new() -> Self {
        PartialJson {
            state: State::Value,
            escape: Escape::None,
            high_surrogate: None,
            root: None,
            stack: Vec::new(),
            path: Vec::new(),
            pending_key: None,
            token: String::new(),
            number: None,
            ops: None,
            consumed: 0,
            too_deep: false,
        }
    }

    /// Forget everything and start over, as for a new text. A consumer of [`Op`]s receives the
    /// new value from the root on its next [`PartialJson::take_ops`].
    pub fn reset(&mut self) {
        let tracking = self.ops.is_some();
        *self = PartialJson::new();
        if tracking {
            self.ops = Some(vec![Op::Set {
                path: Vec::new(),
                value: Value::Null,
            }]);
        }
    }

    /// Number of bytes read so far.
    pub fn len(&self) -> usize {
        self.consumed
    }

    /// Whether nothing has been read yet.
    pub fn is_empty(&self) -> bool {
        self.consumed == 0
    }

    /// Whether the text so far is a complete JSON value (trailing whitespace allowed).
    pub fn is_complete(&self) -> bool {
        match self.state {
            State::Done => true,
            // A number at the root has no terminator; it is complete when it parses.
            State::InNumber => self.stack.is_empty() && parse_number(&self.token).is_some(),
            _ => false,
        }
    }

    /// Whether the text so far can no longer become JSON (or nests deeper than
    /// [`MAX_DEPTH`]). The value keeps what was read before the error.
    pub fn is_invalid(&self) -> bool {
        self.state == State::Invalid
    }

    /// Whether the text became invalid by nesting deeper than [`MAX_DEPTH`] levels.
    pub fn is_too_deep(&self) -> bool {
        self.too_deep
    }

    /// Read the next piece of the text.
    pub fn push(&mut self, piece: &str) {
        self.consumed += piece.len();
        let bytes = piece.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.state != State::Invalid {
            match self.state {
                State::InString | State::InKey if self.escape == Escape::None => {
                    // Fast path: take the run of plain characters up to the next quote or
                    // backslash in one step. Both are ASCII, so the cut is on a char boundary.
                    let rest = piece.get(i..).unwrap_or("");
                    let run = rest
                        .bytes()
                        .position(|b| b == b'"' || b == b'\\' || b < 0x20)
                        .unwrap_or(rest.len());
                    if run > 0 {
                        if self.high_surrogate.take().is_some() {
                            self.push_char('\u{FFFD}');
                        }
                        self.push_run(rest.get(..run).unwrap_or(""));
                        i += run;
                        continue;
                    }
                    let byte = bytes.get(i).copied().unwrap_or(b'"');
                    i += 1;
                    self.string_byte(byte);
                }
                State::InString | State::InKey => {
                    let byte = bytes.get(i).copied().unwrap_or(b'"');
                    i += 1;
                    self.string_byte(byte);
                }
                _ => {
                    let byte = bytes.get(i).copied().unwrap_or(b' ');
                    i += 1;
                    self.byte(byte);
                }
            }
        }
    }

    /// The value so far, completed by the best-effort rules of this module; `None` while no
    /// value has started (or only an unfinished number like `-` has).
    pub fn value(&self) -> Option<Value> {
        let mut root = self.root.clone();
        if let Some(partial) = self.partial_scalar() {
            place(&mut root, &self.path, self.slot_segment(), partial);
        }
        root
    }

    /// The changes that turn the value returned by the previous call (or nothing, on the first
    /// call) into the current best-effort value. The first call returns one `Set` of the whole
    /// value; later calls cost O(bytes pushed since).
    pub fn take_ops(&mut self) -> Vec<Op> {
        let mut ops = match self.ops.take() {
            Some(ops) => ops,
            None => vec![Op::Set {
                path: Vec::new(),
                value: self.root.clone().unwrap_or(Value::Null),
            }],
        };
        if let Some(partial) = self.partial_scalar() {
            let mut path = self.path.clone();
            match self.slot_segment() {
                Some(segment) => path.push(segment),
                None if self.stack.is_empty() => {}
                None => return self.finish_ops(ops),
            }
            ops.push(Op::Set {
                path,
                value: partial,
            });
        }
        self.finish_ops(ops)
    }

    fn finish_ops(&mut self, ops: Vec<Op>) -> Vec<Op> {
        self.ops = Some(Vec::new());
        ops
    }

    /// The segment under which the next value of the innermost container goes.
    fn slot_segment(&self) -> Option<PathSegment> {
        match self.stack.last() {
            None => None,
            Some(Open::Array { len }) => Some(PathSegment::Index(*len)),
            Some(Open::Object) => self.pending_key.clone().map(PathSegment::Key),
        }
    }

    /// The best-effort value of an unfinished number or literal.
    fn partial_scalar(&self) -> Option<Value> {
        match self.state {
            State::InNumber => number_prefix(&self.token),
            State::InLiteral => match self.token.as_bytes().first() {
                Some(b't') => Some(Value::Bool(true)),
                Some(b'f') => Some(Value::Bool(false)),
                Some(b'n') => Some(Value::Null),
                _ => None,
            },
            _ => None,
        }
    }

    fn invalid(&mut self) {
        // An unfinished number or literal may have been shown to a mirror (`take_ops`) as a
        // best-effort value; it is not part of the value any more, so the mirror gets its
        // container again (once: nothing changes after the error).
        if matches!(self.state, State::InNumber | State::InLiteral) && self.ops.is_some() {
            let value = node_mut(&mut self.root, &self.path, None)
                .map(|v| v.clone())
                .unwrap_or(Value::Null);
            if let Some(ops) = self.ops.as_mut() {
                ops.push(Op::Set {
                    path: self.path.clone(),
                    value,
                });
            }
        }
        self.state = State::Invalid;
        self.token.clear();
    }

    /// One byte outside strings and keys.
    fn byte(&mut self, byte: u8) {
        match self.state {
            State::InNumber => {
                if matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    self.number = NumberPart::next(self.number, byte);
                    if self.number.is_none() {
                        return self.invalid();
                    }
                    self.token.push(char::from(byte));
                    return;
                }
                let token = std::mem::take(&mut self.token);
                match parse_number(&token) {
                    Some(number) => self.set_value(Value::Number(number)),
                    None => return self.invalid(),
                }
                self.after_value();
                self.byte(byte);
            }
            State::InLiteral => {
                if byte.is_ascii_alphabetic() {
                    self.token.push(char::from(byte));
                    let literal = match self.token.as_str() {
                        "true" => Some(Value::Bool(true)),
                        "false" => Some(Value::Bool(false)),
                        "null" => Some(Value::Null),
                        t if "true".starts_with(t)
                            || "false".starts_with(t)
                            || "null".starts_with(t) =>
                        {
                            None
                        }
                        _ => return self.invalid(),
                    };
                    if let Some(value) = literal {
                        self.token.clear();
                        self.set_value(value);
                        self.after_value();
                    }
                } else {
                    self.invalid();
                }
            }
            // JSON's whitespace (not form feed or vertical tab).
            _ if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') => {}
            State::Value | State::ValueOrArrayEnd => match byte {
                b']' if self.state == State::ValueOrArrayEnd => self.close(),
                b'{' | b'[' if self.stack.len() >= MAX_DEPTH => {
                    self.too_deep = true;
                    self.invalid();
                }
                b'{' => {
                    self.set_value(Value::Object(Map::new()));
                    self.open(Open::Object);
                    self.state = State::KeyOrObjectEnd;
                }
                b'[' => {
                    self.set_value(Value::Array(Vec::new()));
                    self.open(Open::Array { len: 0 });
                    self.state = State::ValueOrArrayEnd;
                }
                b'"' => {
                    self.set_value(Value::String(String::new()));
                    self.state = State::InString;
                }
                b'-' | b'0'..=b'9' => {
                    self.token.push(char::from(byte));
                    self.number = NumberPart::next(None, byte);
                    self.state = State::InNumber;
                }
                b't' | b'f' | b'n' => {
                    self.token.push(char::from(byte));
                    self.state = State::InLiteral;
                }
                _ => self.invalid(),
            },
            State::KeyOrObjectEnd | State::Key => match byte {
                b'"' => {
                    self.token.clear();
                    self.state = State::InKey;
                }
                b'}' if self.state == State::KeyOrObjectEnd => self.close(),
                _ => self.invalid(),
            },
            State::Colon => match byte {
                b':' => self.state = State::Value,
                _ => self.invalid(),
            },
            State::CommaOrEnd => match (byte, self.stack.last()) {
                (b',', Some(Open::Object)) => self.state = State::Key,
                (b',', Some(Open::Array { .. })) => self.state = State::Value,
                (b'}', Some(Open::Object)) | (b']', Some(Open::Array { .. })) => self.close(),
                _ => self.invalid(),
            },
            State::Done | State::Invalid | State::InString | State::InKey => self.invalid(),
        }
    }

    /// One byte inside a string or key that is a quote, a backslash, a control character (not
    /// allowed unescaped), or part of an escape.
    fn string_byte(&mut self, byte: u8) {
        match self.escape {
            Escape::None => match byte {
                b'"' => {
                    if self.high_surrogate.take().is_some() {
                        self.push_char('\u{FFFD}');
                    }
                    if self.state == State::InKey {
                        self.pending_key = Some(std::mem::take(&mut self.token));
                        self.state = State::Colon;
                    } else {
                        self.after_value();
                    }
                }
                b'\\' => self.escape = Escape::Backslash,
                // JSON strings hold no raw control characters.
                0..=0x1f => self.invalid(),
                _ => {
                    if self.high_surrogate.take().is_some() {
                        self.push_char('\u{FFFD}');
                    }
                    // Only ASCII reaches here (the fast path copies everything else).
                    self.push_char(char::from(byte));
                }
            },
            Escape::Backslash => {
                let simple = match byte {
                    b'"' => Some('"'),
                    b'\\' => Some('\\'),
                    b'/' => Some('/'),
                    b'b' => Some('\u{8}'),
                    b'f' => Some('\u{c}'),
                    b'n' => Some('\n'),
                    b'r' => Some('\r'),
                    b't' => Some('\t'),
                    b'u' => None,
                    _ => return self.invalid(),
                };
                match simple {
                    Some(c) => {
                        self.escape = Escape::None;
                        if self.high_surrogate.take().is_some() {
                            self.push_char('\u{FFFD}');
                        }
                        self.push_char(c);
                    }
                    None => self.escape = Escape::Unicode { code: 0, digits: 0 },
                }
            }
            Escape::Unicode { code, digits } => {
                let Some(digit) = char::from(byte).to_digit(16) else {
                    return self.invalid();
                };
                let code = code * 16 + digit;
                if digits < 3 {
                    self.escape = Escape::Unicode {
                        code,
                        digits: digits + 1,
                    };
                    return;
                }
                self.escape = Escape::None;
                match (self.high_surrogate.take(), code) {
                    (None, 0xD800..=0xDBFF) => self.high_surrogate = Some(code),
                    (Some(high), 0xDC00..=0xDFFF) => {
                        let scalar = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00);
                        self.push_char(char::from_u32(scalar).unwrap_or('\u{FFFD}'));
                    }
                    (Some(_), 0xD800..=0xDBFF) => {
                        self.push_char('\u{FFFD}');
                        self.high_surrogate = Some(code);
                    }
                    (Some(_), _) => {
                        self.push_char('\u{FFFD}');
                        self.push_char(char::from_u32(code).unwrap_or('\u{FFFD}'));
                    }
                    (None, _) => self.push_char(char::from_u32(code).unwrap_or('\u{FFFD}')),
                }
            }
        }
    }

    /// Appends plain characters to the key or string value being read.
    fn push_run(&mut self, run: &str) {
        if self.state == State::InKey {
            self.token.push_str(run);
        } else {
            self.append_str(run);
        }
    }

    fn push_char(&mut self, c: char) {
        if self.state == State::InKey {
            self.token.push(c);
        } else {
            let mut buf = [0u8; 4];
            self.append_str(c.encode_utf8(&mut buf));
        }
    }

    /// Append to the string value being read, which is the last value set.
    fn append_str(&mut self, text: &str) {
        let segment = self.slot_segment();
        if let Some(Value::String(s)) = node_mut(&mut self.root, &self.path, segment.as_ref()) {
            s.push_str(text);
        }
        if let Some(ops) = self.ops.as_mut() {
            let mut path = self.path.clone();
            path.extend(segment);
            match ops.last_mut() {
                Some(Op::Append {
                    path: last,
                    text: t,
                }) if *last == path => t.push_str(text),
                _ => ops.push(Op::Append {
                    path,
                    text: text.to_owned(),
                }),
            }
        }
    }

    /// Put a new value in the current slot (the root, the pending key, or the array's end).
    fn set_value(&mut self, value: Value) {
        let segment = self.slot_segment();
        if let Some(ops) = self.ops.as_mut() {
            let mut path = self.path.clone();
            path.extend(segment.clone());
            ops.push(Op::Set {
                path,
                value: value.clone(),
            });
        }
        place(&mut self.root, &self.path, segment, value);
    }

    /// Descend into the container just set.
    fn open(&mut self, open: Open) {
        if let Some(segment) = self.slot_segment() {
            self.path.push(segment);
        }
        self.pending_key = None;
        self.stack.push(open);
    }

    /// The innermost container ends.
    fn close(&mut self) {
        self.stack.pop();
        if !self.stack.is_empty() {
            let segment = self.path.pop();
            if let Some(PathSegment::Key(key)) = segment {
                self.pending_key = Some(key);
            }
        }
        self.after_value();
    }

    /// A value in the current slot is complete.
    fn after_value(&mut self) {
        match self.stack.last_mut() {
            None => self.state = State::Done,
            Some(Open::Array { len }) => {
                *len += 1;
                self.state = State::CommaOrEnd;
            }
            Some(Open::Object) => {
                self.pending_key = None;
                self.state = State::CommaOrEnd;
            }
        }
    }
}

/// Why `text`, the whole arguments of a completed tool call, cannot be used as its arguments:
/// it is not one JSON value, or it nests deeper than [`MAX_DEPTH`] levels. `None` for valid
/// JSON and for empty (or blank: JSON whitespace only) arguments, which mean none.
pub fn arguments_error(text: &str) -> Option<String> {
    if text
        .bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        return None;
    }
    let mut parser = PartialJson::new();
    parser.push(text);
    let why = if parser.is_too_deep() {
        TOO_DEEP
    } else if parser.is_invalid() || !parser.is_complete() {
        "The arguments are not valid JSON."
    } else {
        return None;
    };
    Some(why.to_owned())
}

/// The reason given for arguments nested deeper than [`MAX_DEPTH`] (a literal: one string, no
/// formatting code in the module; a test checks it names the limit).
const TOO_DEEP: &str = "The arguments nest deeper than 100 levels.";

/// The longest prefix of `token` (a prefix of a JSON number) that is a JSON number, as a
/// number; `null` when it is past the range of a double (as `JSON.stringify` writes an infinite
/// number: a later digit or exponent may bring it back, so it keeps its place in the mirror).
fn number_prefix(token: &str) -> Option<Value> {
    let trimmed = token.trim_end_matches(['-', '+', '.', 'e', 'E']);
    if trimmed.is_empty() {
        return None;
    }
    Some(parse_number(trimmed).map_or(Value::Null, Value::Number))
}

/// The node at `path` + `segment` inside `root`.
fn node_mut<'a>(
    root: &'a mut Option<Value>,
    path: &[PathSegment],
    segment: Option<&PathSegment>,
) -> Option<&'a mut Value> {
    let mut node = root.as_mut()?;
    for step in path.iter().chain(segment) {
        node = match (node, step) {
            (Value::Object(map), PathSegment::Key(key)) => map.get_mut(key)?,
            (Value::Array(items), PathSegment::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Put `value` into the container at `path` under `segment`, or at the root.
fn place(
    root: &mut Option<Value>,
    path: &[PathSegment],
    segment: Option<PathSegment>,
    value: Value,
) {
    let Some(segment) = segment else {
        if path.is_empty() {
            *root = Some(value);
        }
        return;
    };
    match (node_mut(root, path, None), segment) {
        (Some(Value::Object(map)), PathSegment::Key(key)) => {
            map.insert(key, value);
        }
        (Some(Value::Array(items)), PathSegment::Index(i)) => {
            if i < items.len() {
                if let Some(slot) = items.get_mut(i) {
                    *slot = value;
                }
            } else {
                items.push(value);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
