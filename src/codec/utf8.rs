//! UTF-8 checks on complete lines, and byte-order-mark stripping that survives chunk splits.
//!
//! Bytes are never decoded per chunk: the decoders collect a complete line (or field value)
//! first and check it here, so a character split across chunks is checked whole.

use crate::{Error, ErrorCode, Result};

/// The UTF-8 byte order mark.
const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// `bytes` as `&str`, or `INVALID_UTF8` tagged with `line_offset`, the stream offset of the
/// line that holds `bytes`; `value_offset` is how far into that line `bytes` starts.
pub(crate) fn check(bytes: &[u8], line_offset: u64, value_offset: usize) -> Result<&str> {
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let bad = line_offset + (value_offset + e.valid_up_to()) as u64;
        Error::new(
            ErrorCode::InvalidUtf8,
            format!("The line starting at byte {line_offset} holds invalid UTF-8 (at byte {bad})."),
        )
        .with_offset_named(line_offset)
    })
}

/// Appends `text` as UTF-16 code units: eight bytes at a time up to the next non-ASCII byte,
/// then that character decoded from its (valid) UTF-8. Not `str::encode_utf16`, which goes one
/// character at a time and was measurably slower on mixed text (bench/README.md, "Measurements
/// behind code decisions"). (Used by the wasm outbox; tested natively.)
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn push_utf16(out: &mut Vec<u16>, text: &str) {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    let start = out.len();
    // UTF-16 never takes more units than UTF-8 takes bytes.
    out.resize(start + bytes.len(), 0);
    let Some(units) = out.get_mut(start..) else {
        return;
    };
    let continuation = |at: usize| u32::from(bytes.get(at).copied().unwrap_or(0) & 0x3F);
    let (mut at, mut written) = (0, 0);
    loop {
        // `written <= at`, so the eight units fit whenever the eight bytes exist. All eight
        // are widened; those past the first non-ASCII byte are overwritten after it.
        if let (Some(eight), Some(dst)) =
            (bytes.get(at..at + 8), units.get_mut(written..written + 8))
        {
            let high = u64::from_le_bytes(eight.try_into().unwrap_or([0x80; 8])) & HIGH_BITS;
            for (unit, &byte) in dst.iter_mut().zip(eight) {
                *unit = u16::from(byte);
            }
            let ascii = (high.trailing_zeros() / 8) as usize;
            at += ascii;
            written += ascii;
            if high == 0 {
                continue;
            }
        }
        let Some(&lead) = bytes.get(at) else {
            break;
        };
        let (code, width) = match lead {
            0x00..=0x7F => (u32::from(lead), 1),
            0x80..=0xDF => ((u32::from(lead & 0x1F) << 6) | continuation(at + 1), 2),
            0xE0..=0xEF => (
                (u32::from(lead & 0x0F) << 12) | (continuation(at + 1) << 6) | continuation(at + 2),
                3,
            ),
            _ => (
                (u32::from(lead & 0x07) << 18)
                    | (continuation(at + 1) << 12)
                    | (continuation(at + 2) << 6)
                    | continuation(at + 3),
                4,
            ),
        };
        at += width;
        if code < 0x1_0000 {
            if let Some(unit) = units.get_mut(written) {
                *unit = code as u16;
            }
            written += 1;
        } else {
            let high = 0xD800 | ((code - 0x1_0000) >> 10);
            let low = 0xDC00 | (code & 0x3FF);
            if let Some([h, l]) = units.get_mut(written..written + 2) {
                *h = high as u16;
                *l = low as u16;
            }
            written += 2;
        }
    }
    out.truncate(start + written);
}

/// Strips one UTF-8 BOM at the very start of a stream, even when it arrives split over chunks.
#[derive(Debug, Clone, Default)]
pub(crate) struct BomStripper {
    /// How many BOM bytes have matched so far (held back, not yet passed on).
    matched: usize,
    /// Whether the start of the stream has been decided (BOM stripped or absent).
    done: bool,
}

/// What [`BomStripper::strip`] made of a chunk.
pub(crate) struct Stripped<'c> {
    /// Bytes held back from earlier chunks that turned out not to be a BOM; process them first.
    pub(crate) replay: &'static [u8],
    /// The rest of the chunk to process.
    pub(crate) rest: &'c [u8],
    /// How many BOM bytes were dropped (0 or 3), for offset accounting.
    pub(crate) dropped: u64,
}

impl BomStripper {
    /// Filters `chunk`. Until the first three bytes of the stream are known, bytes that could
    /// be a BOM are held back and `rest` is empty.
    pub(crate) fn strip<'c>(&mut self, chunk: &'c [u8]) -> Stripped<'c> {
        if self.done {
            return Stripped {
                replay: &[],
                rest: chunk,
                dropped: 0,
            };
        }
        let mut rest = chunk;
        while let Some((&byte, tail)) = rest.split_first() {
            if BOM.get(self.matched) == Some(&byte) {
                self.matched += 1;
                rest = tail;
                if self.matched == BOM.len() {
                    self.done = true;
                    return Stripped {
                        replay: &[],
                        rest,
                        dropped: BOM.len() as u64,
                    };
                }
            } else {
                self.done = true;
                return Stripped {
                    replay: BOM.get(..self.matched).unwrap_or_default(),
                    rest,
                    dropped: 0,
                };
            }
        }
        Stripped {
            replay: &[],
            rest,
            dropped: 0,
        }
    }

    /// At end of input: the held-back bytes, if the stream ended inside a would-be BOM.
    pub(crate) fn finish(&mut self) -> &'static [u8] {
        if self.done {
            return &[];
        }
        self.done = true;
        BOM.get(..self.matched).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]]) -> Vec<u8> {
        let mut s = BomStripper::default();
        let mut out = Vec::new();
        for c in chunks {
            let st = s.strip(c);
            out.extend_from_slice(st.replay);
            out.extend_from_slice(st.rest);
        }
        out.extend_from_slice(s.finish());
        out
    }

    #[test]
    fn strips_whole_and_split_bom() {
        assert_eq!(run(&[b"\xEF\xBB\xBFab"]), b"ab");
        assert_eq!(run(&[b"\xEF", b"\xBB", b"\xBF", b"ab"]), b"ab");
        assert_eq!(run(&[b"\xEF\xBB", b"\xBFab"]), b"ab");
    }

    #[test]
    fn strips_only_one_bom_and_only_at_start() {
        assert_eq!(run(&[b"\xEF\xBB\xBF\xEF\xBB\xBF"]), b"\xEF\xBB\xBF");
        assert_eq!(run(&[b"a\xEF\xBB\xBF"]), b"a\xEF\xBB\xBF");
    }

    #[test]
    fn replays_a_false_start() {
        assert_eq!(run(&[b"\xEF\xBB", b"\x80x"]), b"\xEF\xBB\x80x");
        assert_eq!(run(&[b"\xEF"]), b"\xEF");
        assert_eq!(run(&[b"", b"\xEF", b""]), b"\xEF");
    }

    #[test]
    fn invalid_utf8_reports_line_offset() {
        let err = check(b"a\xFFb", 10, 6).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidUtf8);
        assert_eq!(err.offset(), Some(10));
        assert!(err.message().contains("at byte 17"));
    }

    fn utf16(text: &str, before: &[u16]) -> Vec<u16> {
        let mut out = before.to_vec();
        push_utf16(&mut out, text);
        out
    }

    #[test]
    fn utf16_of_every_width_and_at_every_alignment() {
        for text in [
            "",
            "plain ASCII longer than eight bytes",
            "é",
            "aé",
            "ж中😀",
            "12345678é12345678",
            "1234567😀",
            "👩‍💻 ok, 中文 ✓ €",
            "\u{0}\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            for pad in 0..9 {
                let text = format!("{}{text}", "x".repeat(pad));
                let expected: Vec<u16> = [7u16].into_iter().chain(text.encode_utf16()).collect();
                assert_eq!(utf16(&text, &[7]), expected, "{text:?}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn utf16_matches_std(text in "\\PC*", prefix in proptest::collection::vec(0u16..100, 0..3)) {
            let expected: Vec<u16> = prefix.iter().copied().chain(text.encode_utf16()).collect();
            proptest::prop_assert_eq!(utf16(&text, &prefix), expected);
        }
    }
}
