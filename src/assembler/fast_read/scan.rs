//! A hand-written reader for the common shape of an event: one flat JSON object whose values
//! are strings, non-negative integers, booleans or `null`.
//!
//! It makes one pass over the text, finding the end of a string eight bytes at a time, and
//! borrows every string without escapes. Anything else (nested values, signs, fractions,
//! exponents, escaped keys, invalid JSON) makes it give up (`None`); the caller then reads the
//! event with serde_json, which handles every case and reports errors precisely. So this
//! reader never decides what a malformed event means: it only speeds up well-formed ones.

use std::borrow::Cow;

use super::{FastEvent, Field, SeqNo};
use crate::assembler::bytewise::starts_with;

/// Reads `json` as a [`FastEvent`], or `None` when it is not a flat object of scalars.
#[cfg(test)]
pub(super) fn scan(json: &str) -> Option<FastEvent<'_>> {
    reference_text_delta(json).or_else(|| flat_object(json).map(|(event, _)| event))
}

/// Reads `json` like [`scan`], first trying `template` (the prefix of the last text delta read
/// with `text` as its last key), and learns a new template from an event that has one.
pub(super) fn scan_with<'a>(json: &'a str, template: &mut Template) -> Option<FastEvent<'a>> {
    if let Some(event) = reference_text_delta(json).or_else(|| template.read(json)) {
        return Some(event);
    }
    let (event, text_at) = flat_object(json)?;
    if let Some(text_at) = text_at {
        template.learn(json, &event, text_at);
    }
    Some(event)
}

/// A byte range of a template's prefix.
type Span = (usize, usize);

/// The bytes of a text delta up to and including the opening quote of its `text` value, when
/// `text` is its last key, and what those bytes say. A stream's deltas for one part usually
/// differ only in their text, so the next delta that starts with the same bytes is read by
/// comparing them and reading its text alone. It gives the same event as [`flat_object`]: the
/// same bytes mean the same fields, and the rest (a string, `}`, the end) is checked.
#[derive(Debug, Default)]
pub(crate) struct Template {
    /// The prefix; empty when nothing was learned.
    prefix: String,
    object: Option<Span>,
    status: Option<Span>,
    content_type: Option<Span>,
    index: Option<i64>,
    delta: Option<bool>,
    msg_id: Option<Span>,
}

impl Template {
    /// Reads `json` if it starts with the prefix and ends with the text string and `}`.
    fn read<'a>(&self, json: &'a str) -> Option<FastEvent<'a>> {
        if self.prefix.is_empty() || !starts_with(json.as_bytes(), self.prefix.as_bytes()) {
            return None;
        }
        let mut reader = Reader {
            json,
            at: self.prefix.len(),
        };
        let text = reader.string()?;
        reader.skip_ws();
        reader.expect(b'}')?;
        reader.skip_ws();
        if reader.at != json.len() {
            return None;
        }
        let field = |span: Option<Span>| match span {
            Some((start, end)) => json.get(start..end).map(|s| Some(Cow::Borrowed(s))),
            None => Some(None),
        };
        Some(FastEvent {
            // Never learned from an event with one (see `learn`).
            sequence_number: SeqNo(None),
            object: field(self.object)?,
            status: field(self.status)?,
            content_type: field(self.content_type)?,
            index: self.index,
            delta: self.delta,
            msg_id: field(self.msg_id)?,
            text: Some(text),
            irregular: false,
            rest: Vec::new(),
        })
    }

    /// Learns the prefix of `json` before `text_at` (where its text value starts) from `event`,
    /// read from it; forgets the template when the event cannot be one (escaped strings, keys
    /// kept in `rest`, an irregular event) or when no later event could match it (a
    /// `sequence_number` in the prefix changes with every event).
    fn learn(&mut self, json: &str, event: &FastEvent<'_>, text_at: usize) {
        self.prefix.clear();
        let Some(prefix) = json.get(..text_at) else {
            return;
        };
        if event.irregular || !event.rest.is_empty() || event.sequence_number.0.is_some() {
            return;
        }
        // Where a borrowed string lies in the prefix; `Err` for one that does not (escaped).
        let span = |value: &Option<Cow<'_, str>>| match value {
            None => Ok(None),
            Some(Cow::Borrowed(s)) => {
                let start = (s.as_ptr() as usize).wrapping_sub(prefix.as_ptr() as usize);
                let end = start.wrapping_add(s.len());
                match prefix.get(start..end) {
                    Some(found) if found.as_ptr() == s.as_ptr() => Ok(Some((start, end))),
                    _ => Err(()),
                }
            }
            Some(Cow::Owned(_)) => Err(()),
        };
        let (Ok(object), Ok(status), Ok(content_type), Ok(msg_id)) = (
            span(&event.object),
            span(&event.status),
            span(&event.content_type),
            span(&event.msg_id),
        ) else {
            return;
        };
        *self = Template {
            prefix: std::mem::take(&mut self.prefix),
            object,
            status,
            content_type,
            index: event.index,
            delta: event.delta,
            msg_id,
        };
        self.prefix.push_str(prefix);
    }
}

/// The text delta exactly as the reference writes it (pydantic's compact output, keys in model
/// order), read by comparing its fixed parts instead of dispatching on each key.
fn reference_text_delta(json: &str) -> Option<FastEvent<'_>> {
    let mut reader = Reader { json, at: 0 };
    if !reader.literal(br#"{"sequence_number":"#) {
        return None;
    }
    let sequence_number = i64::try_from(reader.integer()?).ok()?;
    if !reader.literal(
        br#","object":"content","status":"in_progress","error":null,"type":"text","index":"#,
    ) {
        return None;
    }
    let index = i64::try_from(reader.integer()?).ok()?;
    if !reader.literal(br#","delta":true,"msg_id":""#) {
        return None;
    }
    let msg_id = reader.string()?;
    if !reader.literal(br#","text":""#) {
        return None;
    }
    let text = reader.string()?;
    if !reader.literal(b"}") || reader.at != json.len() {
        return None;
    }
    Some(FastEvent {
        sequence_number: SeqNo(Some(sequence_number)),
        object: Some(Cow::Borrowed("content")),
        status: Some(Cow::Borrowed("in_progress")),
        content_type: Some(Cow::Borrowed("text")),
        index: Some(index),
        delta: Some(true),
        msg_id: Some(msg_id),
        text: Some(text),
        irregular: false,
        rest: Vec::new(),
    })
}

/// Any flat object of scalars, keys in any order, that names no `object` other than `content`.
/// With the event, where its text value starts (after the opening quote) when `text` is the
/// last key and its value a string.
fn flat_object(json: &str) -> Option<(FastEvent<'_>, Option<usize>)> {
    let mut reader = Reader { json, at: 0 };
    let mut event = FastEvent::default();
    let mut seen = 0u16;
    let mut text_at = None;
    reader.skip_ws();
    reader.expect(b'{')?;
    reader.skip_ws();
    if reader.peek() == Some(b'}') {
        reader.at += 1;
    } else {
        loop {
            reader.skip_ws();
            let key = reader.key()?;
            reader.skip_ws();
            reader.expect(b':')?;
            reader.skip_ws();
            let value_at = reader.at;
            let value = reader.scalar()?;
            text_at = (key == "text" && matches!(value, Field::Str(_))).then_some(value_at + 1);
            if !event.take(key, value, &mut seen) {
                return None;
            }
            reader.skip_ws();
            match reader.next()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
    }
    reader.skip_ws();
    (reader.at == json.len()).then_some((event, text_at))
}

struct Reader<'a> {
    json: &'a str,
    at: usize,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bytes of `word` equal to zero, as their high bit (exact for the lowest one).
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// Bytes of `word` that end or interrupt a JSON string's plain run: `"`, `\` or a control
/// character, as their high bit (exact for the lowest one).
fn stop_bytes(word: u64) -> u64 {
    let quote = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    quote | backslash | control
}

impl<'a> Reader<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.json.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Whether `literal` follows; if so, it is consumed.
    fn literal(&mut self, literal: &[u8]) -> bool {
        let found = self
            .bytes()
            .get(self.at..)
            .is_some_and(|rest| starts_with(rest, literal));
        if found {
            self.at += literal.len();
        }
        found
    }

    /// A key: a string without escapes.
    fn key(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let end = self.plain_run(start);
        self.at = end;
        self.expect(b'"')?;
        self.json.get(start..end)
    }

    /// A string, a non-negative integer, a boolean or `null`; `None` for anything else.
    fn scalar(&mut self) -> Option<Field<'a>> {
        match self.peek()? {
            b'"' => {
                self.at += 1;
                self.string().map(Field::Str)
            }
            b'0'..=b'9' => self
                .integer()
                .map(|n| i64::try_from(n).map_or(Field::Big(n), Field::Int)),
            b't' if self.literal(b"true") => Some(Field::Bool(true)),
            b'f' if self.literal(b"false") => Some(Field::Bool(false)),
            b'n' if self.literal(b"null") => Some(Field::Null),
            _ => None,
        }
    }

    /// `0` or a digit run without a leading zero, fitting `u64`, not followed by a fraction or
    /// exponent.
    fn integer(&mut self) -> Option<u64> {
        let start = self.at;
        let rest = self.bytes().get(start..).unwrap_or_default();
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let run = rest.get(..digits).unwrap_or_default();
        // Up to 19 digits cannot overflow (10^19 - 1 < 2^64): plain arithmetic, which in wasm
        // avoids the 128-bit multiply behind `checked_mul`.
        let value = if digits <= 19 {
            run.iter()
                .fold(0u64, |value, &digit| value * 10 + u64::from(digit - b'0'))
        } else {
            run.iter().try_fold(0u64, |value, &digit| {
                value.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
            })?
        };
        self.at = start + digits;
        let leading_zero = digits > 1 && run.first() == Some(&b'0');
        if leading_zero || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(value)
    }

    /// The end of the run of plain string bytes starting at `from`: the offset of the first
    /// `"`, `\`, control character, or the end of the text.
    fn plain_run(&self, from: usize) -> usize {
        let rest = self.bytes().get(from..).unwrap_or_default();
        let mut words = rest.chunks_exact(8);
        let mut offset = from;
        for word in words.by_ref() {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let stops = stop_bytes(word);
            if stops != 0 {
                return offset + (stops.trailing_zeros() / 8) as usize;
            }
            offset += 8;
        }
        for &byte in words.remainder() {
            if byte == b'"' || byte == b'\\' || byte < 0x20 {
                return offset;
            }
            offset += 1;
        }
        offset
    }

    /// The rest of a string whose opening quote was read; borrowed when it has no escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.at;
        let end = self.plain_run(start);
        self.at = end;
        match self.next()? {
            b'"' => return self.json.get(start..end).map(Cow::Borrowed),
            b'\\' => {}
            _ => return None, // a control character
        }
        let mut owned = String::with_capacity(end - start + 16);
        owned.push_str(self.json.get(start..end)?);
        loop {
            // At this point a backslash was just read.
            match self.next()? {
                b'"' => owned.push('"'),
                b'\\' => owned.push('\\'),
                b'/' => owned.push('/'),
                b'b' => owned.push('\u{8}'),
                b'f' => owned.push('\u{c}'),
                b'n' => owned.push('\n'),
                b'r' => owned.push('\r'),
                b't' => owned.push('\t'),
                b'u' => owned.push(self.unicode_escape()?),
                _ => return None,
            }
            let start = self.at;
            let end = self.plain_run(start);
            owned.push_str(self.json.get(start..end)?);
            self.at = end;
            match self.next()? {
                b'"' => return Some(Cow::Owned(owned)),
                b'\\' => {}
                _ => return None,
            }
        }
    }

    /// The character of a `\u` escape whose `\u` was read; a surrogate pair is two escapes.
    /// A lone surrogate gives `None` (serde_json reports it).
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        if !(0xD800..0xDC00).contains(&first) {
            return char::from_u32(first);
        }
        if !self.literal(b"\\u") {
            return None;
        }
        let second = self.hex4()?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.json.get(self.at..self.at + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(digits, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    #[test]
    fn stop_bytes_finds_the_first_stop() {
        for (i, stop) in [b'"', b'\\', 0x00, 0x1f].into_iter().enumerate() {
            for at in 0..8 {
                let mut bytes = [b'a', 0xC3, 0xA9, b'z', 0x7f, 0x80, 0xff, b' '];
                bytes[at] = stop;
                let word = u64::from_le_bytes(bytes);
                assert_eq!(
                    (stop_bytes(word).trailing_zeros() / 8) as usize,
                    at,
                    "stop {i} at {at}"
                );
            }
        }
        assert_eq!(stop_bytes(u64::from_le_bytes(*b"plain \xC3\xA9")), 0);
    }

    /// serde_json's reading of the same text, through the serde `Deserialize` impl.
    fn by_serde(json: &str) -> Option<FastEvent<'_>> {
        serde_json::from_str(json).ok()
    }

    fn same(json: &str) {
        if let Some(fast) = scan(json) {
            let slow = by_serde(json);
            assert_eq!(
                format!("{:?}", Some(fast)),
                format!("{slow:?}"),
                "scan and serde differ on {json:?}"
            );
        }
    }

    #[test]
    fn reads_the_reference_shape_like_serde() {
        let json = r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"H\u00e9\"\\\/\b\f\n\r\t\ud83d\ude00 x"}"#;
        let fast = scan(json).unwrap();
        let exact = r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"a\"b"}"#;
        assert!(reference_text_delta(exact).is_some());
        assert_eq!(
            format!("{:?}", reference_text_delta(exact)),
            format!("{:?}", flat_object(exact).map(|(event, _)| event))
        );
        same(exact);
        for near in [
            &exact[..exact.len() - 1],
            r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"a"} "#,
            r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"a","x":1}"#,
            r#"{"sequence_number":-3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"a"}"#,
        ] {
            assert!(reference_text_delta(near).is_none(), "{near}");
            same(near);
        }
        assert_eq!(
            fast.text.as_deref(),
            Some("H\u{e9}\"\\/\u{8}\u{c}\n\r\t\u{1f600} x")
        );
        assert!(matches!(fast.msg_id, Some(Cow::Borrowed("msg_1"))));
        same(json);
        for odd in [
            "{}",
            " { \"a\" : 1 , \"b\":\"x\" } ",
            r#"{"index":"0","sequence_number":" 7 ","delta":1,"text":2}"#,
            r#"{"text":"a","text":"b","x":1,"x":2}"#,
            r#"{"sequence_number":18446744073709551615,"index":9223372036854775808}"#,
        ] {
            assert!(scan(odd).is_some(), "{odd}");
            same(odd);
        }
        for rejected in [
            "",
            "{",
            "[1]",
            "{\"a\":1,}",
            "{\"a\":1}x",
            "{\"a\":-1}",
            "{\"a\":1.5}",
            "{\"a\":1e3}",
            "{\"a\":01}",
            "{\"a\":{}}",
            "{\"a\":[]}",
            "{\"a\\u0062\":1}",
            "{\"a\":\"\\ud800\"}",
            "{\"a\":\"\\udc00\"}",
            "{\"a\":\"\\x\"}",
            "{\"a\":\"\u{1}\"}",
            "{\"a\":18446744073709551616}",
            "{\"a\":tru}",
            "{\"a\" 1}",
        ] {
            assert!(scan(rejected).is_none(), "{rejected}");
        }
    }

    #[test]
    fn a_learned_template_reads_the_next_delta_of_the_same_shape() {
        let first = r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m3","text":"Hel"}"#;
        let second = r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m3","text":"lo \"x\""} "#;
        let other =
            r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m4","text":"!"}"#;
        let mut template = Template::default();
        assert!(template.read(first).is_none());
        let event = scan_with(first, &mut template).unwrap();
        assert_eq!(event.text.as_deref(), Some("Hel"));
        let read = template.read(second).unwrap();
        assert_eq!(
            format!("{:?}", Some(read)),
            format!("{:?}", by_serde(second))
        );
        assert!(matches!(
            template.read(second).unwrap().msg_id,
            Some(Cow::Borrowed("m3"))
        ));
        // Another message: not the template's; read in full, then learned.
        assert!(template.read(other).is_none());
        assert_eq!(
            scan_with(other, &mut template).unwrap().msg_id.as_deref(),
            Some("m4")
        );
        assert!(template.read(other).is_some());
        // Same prefix, but more keys after the text, or something after the object: not read.
        for near in [
            r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m4","text":"a","x":1}"#,
            r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m4","text":"a"}x"#,
            r#"{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m4","text":"a"#,
        ] {
            assert!(template.read(near).is_none(), "{near}");
        }
        // Nothing is learned from an event with an escaped id or keys kept aside.
        for unlearned in [
            r#"{"msg_id":"m\u0035","text":"a"}"#,
            r#"{"x":1,"text":"a"}"#,
            r#"{"text":"a","msg_id":"m5"}"#,
            r#"{"msg_id":"m5","sequence_number":7,"text":"a"}"#,
        ] {
            let mut template = Template::default();
            scan_with(unlearned, &mut template).unwrap();
            assert!(template.read(unlearned).is_none(), "{unlearned}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// A run of deltas read with a template (learned and re-learned along the way) gives,
        /// event by event, what serde_json gives.
        #[test]
        fn templates_agree_with_serde(
            prefixes in proptest::collection::vec(
                proptest::collection::vec(
                    (
                        proptest::sample::select(vec![
                            "sequence_number", "object", "status", "type", "index", "delta",
                            "msg_id", "text", "error", "x",
                        ]),
                        proptest::prop_oneof![
                            proptest::string::string_regex(r#"[a-z\u{e9}"\\]{0,6}"#).unwrap()
                                .prop_map(|s| serde_json::to_string(&s).unwrap()),
                            proptest::prelude::Just(r#""m\u0031""#.to_owned()),
                            proptest::prelude::any::<u8>().prop_map(|n| n.to_string()),
                            proptest::prelude::Just("true".to_owned()),
                            proptest::prelude::Just("null".to_owned()),
                        ],
                        proptest::sample::select(vec!["", " "]),
                    ),
                    0..6,
                ),
                1..3,
            ),
            deltas in proptest::collection::vec(
                (
                    proptest::prelude::any::<proptest::sample::Index>(),
                    proptest::prop_oneof![
                        proptest::string::string_regex(r#"[a-z\u{4e2d}\u{1f600}"\\\n]{0,10}"#).unwrap()
                            .prop_map(|s| serde_json::to_string(&s).unwrap()),
                        proptest::prelude::Just(r#""\ud800""#.to_owned()),
                        proptest::prelude::Just("7".to_owned()),
                        proptest::prelude::Just("null".to_owned()),
                    ],
                    proptest::sample::select(vec!["}", " } ", "}x", ",\"x\":1}", "", ",}"]),
                ),
                1..12,
            ),
        ) {
            let prefixes: Vec<String> = prefixes
                .iter()
                .map(|entries| {
                    entries
                        .iter()
                        .map(|(k, v, ws)| format!("{ws}\"{k}\"{ws}:{ws}{v},"))
                        .collect()
                })
                .collect();
            let mut template = Template::default();
            for (which, text, end) in &deltas {
                let prefix = &prefixes[which.index(prefixes.len())];
                let json = format!("{{{prefix}\"text\":{text}{end}");
                if let Some(fast) = scan_with(&json, &mut template) {
                    proptest::prop_assert_eq!(
                        format!("{:?}", Some(fast)),
                        format!("{:?}", by_serde(&json)),
                        "{}", json
                    );
                }
            }
        }

        /// On its own shape (one flat object of distinct unescaped keys whose values are
        /// strings, non-negative integers, booleans or `null`, with any JSON whitespace) the
        /// scanner answers, and as serde_json does: the properties around it would pass as well
        /// if it always gave up.
        #[test]
        fn answers_on_its_own_shape(
            entries in proptest::sample::subsequence(
                vec!["sequence_number", "object", "status", "type", "index", "delta", "msg_id",
                     "text", "error", "id", "x"],
                0..=11,
            ).prop_flat_map(|keys| {
                let n = keys.len();
                (
                    proptest::strategy::Just(keys),
                    proptest::collection::vec(
                        (
                            proptest::prop_oneof![
                                proptest::string::string_regex(r#"[a-z\u{e9}\u{4e2d}\u{1f600}"\\/\n]{0,12}"#).unwrap()
                                    .prop_map(|s| serde_json::to_string(&s).unwrap()),
                                proptest::prelude::any::<u32>().prop_map(|n| n.to_string()),
                                proptest::prelude::any::<bool>().prop_map(|b| b.to_string()),
                                proptest::prelude::Just("null".to_owned()),
                            ],
                            proptest::sample::select(vec!["", " ", "\n\t", "\r "]),
                        ),
                        n,
                    ),
                )
            }),
        ) {
            let (keys, values) = entries;
            let body: Vec<String> = keys
                .iter()
                .zip(&values)
                .map(|(k, (v, ws))| {
                    // Only content events are the fast reader's (and FastEvent's) business.
                    let v = if *k == "object" { "\"content\"" } else { v.as_str() };
                    format!("{ws}\"{k}\"{ws}:{ws}{v}{ws}")
                })
                .collect();
            let json = format!("{{{}}}", body.join(","));
            let slow = by_serde(&json);
            proptest::prop_assert!(slow.is_some(), "serde_json refused {}", json);
            let fast = scan(&json);
            proptest::prop_assert!(fast.is_some(), "the scanner gave up on {}", json);
            proptest::prop_assert_eq!(format!("{:?}", fast), format!("{:?}", slow), "{}", json);
        }

        /// Wherever the scanner answers, it answers as serde_json does.
        #[test]
        fn agrees_with_serde(
            entries in proptest::collection::vec(
                (
                    proptest::sample::select(vec![
                        "sequence_number", "object", "status", "type", "index", "delta",
                        "msg_id", "text", "error", "data", "x",
                    ]),
                    proptest::prop_oneof![
                        proptest::string::string_regex(r#"[a-z\u{e9}\u{4e2d}\u{1f600}"\\/\n\u{1}]{0,12}"#).unwrap()
                            .prop_map(|s| serde_json::to_string(&s).unwrap()),
                        proptest::string::string_regex(r#""([a-z]|\\[nt"\\/u]|\\u[0-9a-fA-F]{4}){0,6}""#).unwrap(),
                        proptest::prelude::any::<u64>().prop_map(|n| n.to_string()),
                        proptest::prelude::any::<i64>().prop_map(|n| n.to_string()),
                        proptest::prelude::Just("1.5".to_owned()),
                        proptest::prelude::Just("true".to_owned()),
                        proptest::prelude::Just("false".to_owned()),
                        proptest::prelude::Just("null".to_owned()),
                        proptest::prelude::Just("{\"a\":1}".to_owned()),
                        proptest::prelude::Just("\" 12 \"".to_owned()),
                        proptest::prelude::Just("\"content\"".to_owned()),
                    ],
                    proptest::sample::select(vec!["", " ", "\n\t", "\r "]),
                ),
                0..12,
            ),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            let body: Vec<String> = entries
                .iter()
                .map(|(k, v, ws)| format!("{ws}\"{k}\"{ws}:{ws}{v}{ws}"))
                .collect();
            let json = format!("{{{}}}", body.join(","));
            same(&json);
            // Any prefix (a cut event) as well.
            let at = cut.index(json.len() + 1);
            if let Some(prefix) = json.get(..at) {
                same(prefix);
            }
        }
    }
}
