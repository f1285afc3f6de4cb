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
        .with_offset(line_offset)
    })
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
}
