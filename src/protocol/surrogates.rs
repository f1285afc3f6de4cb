//! Lone UTF-16 surrogate escapes in JSON text.
//!
//! JSON allows `"\ud800"`, a surrogate escape without its other half; JavaScript's `JSON.parse`
//! and Python's `json` read it into a string holding a lone surrogate. Rust strings are UTF-8
//! and cannot hold one, so serde_json refuses the whole document. agentwire reads such a text
//! with each lone surrogate replaced by U+FFFD (the replacement character), as a lossy UTF-16
//! decoder does, instead of losing the event.

use std::borrow::Cow;

const REPLACEMENT: &[u8; 6] = b"\\ufffd";

/// The four hex digits at `digits` as a code unit, when they are four hex digits.
fn code_unit(digits: Option<&[u8]>) -> Option<u32> {
    let digits = digits?;
    if digits.len() != 4 {
        return None;
    }
    digits.iter().try_fold(0u32, |code, &b| {
        char::from(b).to_digit(16).map(|d| code * 16 + d)
    })
}

fn is_high(code: u32) -> bool {
    (0xD800..=0xDBFF).contains(&code)
}

fn is_low(code: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&code)
}

/// `parse(json)`; when that fails and `json` holds lone surrogate escapes, `parse` of the
/// repaired text ([`repair_lone_surrogates`]) instead. The common case (parsing succeeds) costs
/// nothing more.
///
/// # Errors
///
/// `parse`'s error (for the repaired text, when there was one to try).
pub fn parse_repairing<T, E>(json: &str, parse: impl Fn(&str) -> Result<T, E>) -> Result<T, E> {
    parse(json).or_else(|error| match repair_lone_surrogates(json) {
        Cow::Owned(repaired) => parse(&repaired),
        Cow::Borrowed(_) => Err(error),
    })
}

/// `json` with every lone surrogate escape (`\uD800`–`\uDFFF` not part of a high-low pair)
/// replaced by `\ufffd`; borrowed unchanged when there is none (the common case costs one
/// `memchr` pass over the backslashes).
pub fn repair_lone_surrogates(json: &str) -> Cow<'_, str> {
    let bytes = json.as_bytes();
    // The code unit of the `\uXXXX` escape whose `u` is at `at`.
    let unit = |at: usize| {
        (bytes.get(at) == Some(&b'u'))
            .then(|| code_unit(bytes.get(at + 1..at + 5)))
            .flatten()
    };
    let mut repaired: Option<Vec<u8>> = None;
    let mut i = 0;
    while let Some(found) = bytes.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let at = i + found;
        // Any escape but `\u`: skip the escaped character (`\\` included).
        i = at + 2;
        let Some(code) = unit(at + 1) else { continue };
        i = at + 6;
        let lone = if is_high(code) {
            let paired = bytes.get(at + 6) == Some(&b'\\') && unit(at + 7).is_some_and(is_low);
            if paired {
                i = at + 12;
            }
            !paired
        } else {
            is_low(code)
        };
        if lone {
            let out = repaired.get_or_insert_with(|| bytes.to_vec());
            if let Some(slot) = out.get_mut(at..at + 6) {
                slot.copy_from_slice(REPLACEMENT);
            }
        }
    }
    match repaired {
        None => Cow::Borrowed(json),
        // Six ASCII bytes replaced six ASCII bytes: still UTF-8.
        Some(out) => Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| json.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repaired(json: &str) -> String {
        repair_lone_surrogates(json).into_owned()
    }

    #[test]
    fn lone_halves_become_the_replacement_character() {
        assert_eq!(repaired(r#""a\ud800b""#), r#""a\ufffdb""#);
        assert_eq!(repaired(r#""a\uDC00b""#), r#""a\ufffdb""#);
        assert_eq!(
            repaired(r#""\ud800\ud800\udc00""#),
            r#""\ufffd\ud800\udc00""#
        );
        assert_eq!(repaired(r#""\udc00\ud800""#), r#""\ufffd\ufffd""#);
        assert_eq!(repaired(r#""\ud800""#), r#""\ufffd""#);
        assert_eq!(repaired(r#""\ud800\u0041""#), r#""\ufffd\u0041""#);
        let value: serde_json::Value =
            serde_json::from_str(&repaired(r#"{"t":"x\ud800y"}"#)).unwrap();
        assert_eq!(value["t"], "x\u{FFFD}y");
    }

    #[test]
    fn pairs_other_escapes_and_plain_text_are_left_alone() {
        for json in [
            r#""\ud83d\ude00""#,
            r#""\\ud800""#,
            r#""\\\ud83d\ude00""#,
            r#""\n\"\u00e9""#,
            r#""no escapes at all""#,
            r#""\u12""#,
            r#""\""#,
        ] {
            assert!(
                matches!(repair_lone_surrogates(json), Cow::Borrowed(_)),
                "{json}"
            );
        }
    }
}
