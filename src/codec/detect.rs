//! Format detection: SSE or NDJSON, from the first significant byte of a stream.

use super::Format;

/// The UTF-8 byte order mark.
const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// Decides SSE vs NDJSON incrementally, looking at each byte once.
///
/// The rule: skip one leading BOM and any spaces, tabs, CRs and LFs; if the next byte is `{`
/// or `[` the stream is NDJSON, otherwise it is SSE (a field name such as `data:`, `event:`,
/// `id:`, `retry:`, or a `:` comment).
#[derive(Debug, Clone, Default)]
pub(crate) struct Detector {
    /// BOM bytes matched so far.
    bom_matched: usize,
    /// Whether the start of the stream is past the BOM (or known to have none).
    past_bom: bool,
    /// Bytes looked at so far without deciding.
    skipped: u64,
}

/// What a [`Detector`] knows after a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detection {
    /// Only a BOM and whitespace so far.
    Undecided,
    /// Decided: the format, and how many stream bytes came before the deciding byte.
    Decided(Format, u64),
}

impl Detector {
    /// Looks at the next `chunk` of the stream.
    pub(crate) fn scan(&mut self, chunk: &[u8]) -> Detection {
        for &byte in chunk {
            if !self.past_bom {
                if BOM.get(self.bom_matched) == Some(&byte) {
                    self.bom_matched += 1;
                    self.past_bom = self.bom_matched == BOM.len();
                    self.skipped += 1;
                    continue;
                }
                self.past_bom = true;
                if self.bom_matched > 0 {
                    // The held bytes were not a BOM: they are the first significant byte.
                    return Detection::Decided(Format::Sse, self.skipped - self.bom_matched as u64);
                }
            }
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' => self.skipped += 1,
                b'{' | b'[' => return Detection::Decided(Format::Ndjson, self.skipped),
                _ => return Detection::Decided(Format::Sse, self.skipped),
            }
        }
        Detection::Undecided
    }

    /// Bytes known to come before the deciding byte: those looked at so far, except the
    /// first bytes of a possible BOM, which may yet turn out to be the deciding byte.
    pub(crate) fn skipped(&self) -> u64 {
        if self.past_bom {
            self.skipped
        } else {
            self.skipped - self.bom_matched as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(chunks: &[&[u8]]) -> Detection {
        let mut d = Detector::default();
        for c in chunks {
            if let found @ Detection::Decided(..) = d.scan(c) {
                return found;
            }
        }
        Detection::Undecided
    }

    #[test]
    fn json_openers_mean_ndjson() {
        assert_eq!(
            detect(&[b"{\"a\":1}\n"]),
            Detection::Decided(Format::Ndjson, 0)
        );
        assert_eq!(
            detect(&[b"\xEF\xBB\xBF\r\n [1]"]),
            Detection::Decided(Format::Ndjson, 6)
        );
    }

    #[test]
    fn field_names_and_comments_mean_sse() {
        for input in [
            &b"data: x"[..],
            b"event:",
            b"id:",
            b"retry:",
            b": hi",
            b"foo",
        ] {
            assert_eq!(detect(&[input]), Detection::Decided(Format::Sse, 0));
        }
        assert_eq!(
            detect(&[b"\n\n", b"data"]),
            Detection::Decided(Format::Sse, 2)
        );
    }

    #[test]
    fn one_byte_chunks_wait_until_decidable() {
        assert_eq!(detect(&[b"\xEF", b"\xBB"]), Detection::Undecided);
        assert_eq!(
            detect(&[b"\xEF", b"\xBB", b"\xBF", b" "]),
            Detection::Undecided
        );
        assert_eq!(
            detect(&[b"\xEF", b"\xBB", b"\xBF", b" ", b"{"]),
            Detection::Decided(Format::Ndjson, 4)
        );
        assert_eq!(
            detect(&[b"\xEF", b"\xBB", b"x"]),
            Detection::Decided(Format::Sse, 0)
        );
    }

    #[test]
    fn a_partial_bom_is_not_yet_a_prefix() {
        let mut d = Detector::default();
        assert_eq!(d.scan(b"\xEF\xBB"), Detection::Undecided);
        assert_eq!(d.skipped(), 0);
        assert_eq!(d.scan(b"\xBF\n"), Detection::Undecided);
        assert_eq!(d.skipped(), 4);
    }
}
