//! Unit tests of the SSE decoder: one per WHATWG rule and per hard chunk-split case.

use super::*;

/// An owned copy of a [`Frame`], for comparisons.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ev {
    data: String,
    event: String,
    id: Option<String>,
    retry: Option<u64>,
    offset: u64,
}

fn ev(data: &str, offset: u64) -> Ev {
    Ev {
        data: data.to_owned(),
        event: "message".to_owned(),
        id: None,
        retry: None,
        offset,
    }
}

impl Ev {
    fn event(mut self, event: &str) -> Self {
        self.event = event.to_owned();
        self
    }
    fn id(mut self, id: &str) -> Self {
        self.id = Some(id.to_owned());
        self
    }
    fn retry(mut self, ms: u64) -> Self {
        self.retry = Some(ms);
        self
    }
}

fn decode_with(decoder: &mut SseDecoder, chunks: &[&[u8]]) -> Result<Vec<Ev>> {
    let mut out = Vec::new();
    let mut on_frame = |f: Frame<'_>| {
        out.push(Ev {
            data: f.data().to_owned(),
            event: f.event().to_owned(),
            id: f.id().map(str::to_owned),
            retry: f.retry(),
            offset: f.offset(),
        });
        Ok(())
    };
    for chunk in chunks {
        decoder.push(chunk, &mut on_frame)?;
    }
    decoder.finish(&mut on_frame)?;
    Ok(out)
}

/// Decodes `chunks`, and checks that the whole input in one chunk and in 1-byte chunks agrees.
fn decode(chunks: &[&[u8]]) -> Vec<Ev> {
    let got = decode_with(&mut SseDecoder::new(), chunks).unwrap();
    let whole = chunks.concat();
    let one = decode_with(&mut SseDecoder::new(), &[&whole]).unwrap();
    let bytes: Vec<&[u8]> = whole.chunks(1).collect();
    let split = decode_with(&mut SseDecoder::new(), &bytes).unwrap();
    assert_eq!(got, one, "chunked vs one-shot");
    assert_eq!(got, split, "chunked vs 1-byte chunks");
    got
}

fn decode_err(chunks: &[&[u8]], limits: Limits) -> (Vec<Ev>, Error) {
    let mut out = Vec::new();
    let mut decoder = SseDecoder::new().with_limits(limits);
    let mut on_frame = |f: Frame<'_>| {
        out.push(ev(f.data(), f.offset()));
        Ok(())
    };
    for chunk in chunks {
        if let Err(e) = decoder.push(chunk, &mut on_frame) {
            return (out, e);
        }
    }
    let e = decoder.finish(&mut on_frame).unwrap_err();
    (out, e)
}

#[test]
fn line_endings_lf_cr_crlf() {
    let want = vec![ev("a", 0), ev("b", 9), ev("c", 18)];
    assert_eq!(decode(&[b"data: a\n\ndata: b\r\rdata: c\r\n\r\n"]), want);
}

#[test]
fn cr_ending_a_chunk_is_one_line_end() {
    // eventsource-parser #17: the LF after a chunk-final CR must not make an extra blank line.
    let got = decode(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]);
    assert_eq!(got, vec![ev("a\nb", 0)]);
}

#[test]
fn crlf_split_across_chunks() {
    let got = decode(&[b"data: a\r", b"\n", b"\r", b"\ndata: b\r\n\r\n"]);
    assert_eq!(got, vec![ev("a", 0), ev("b", 11)]);
}

#[test]
fn lone_cr_then_other_byte_in_next_chunk() {
    let got = decode(&[b"data: a\r", b"data: b\r", b"\r"]);
    assert_eq!(got, vec![ev("a\nb", 0)]);
}

#[test]
fn bom_stripped_even_split() {
    let want = vec![ev("x", 3)];
    assert_eq!(decode(&[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]), want);
    assert_eq!(decode(&[b"\xEF\xBB\xBFdata: x\n\n"]), want);
    // Only one BOM is stripped: a second one is part of the field name, so the line is ignored.
    assert_eq!(decode(&[b"\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n"]), vec![]);
}

#[test]
fn comments_are_ignored_and_counted() {
    let mut d = SseDecoder::new();
    let got = decode_with(&mut d, &[b": ping\n\n:\ndata: a\n: mid\ndata: b\n\n"]).unwrap();
    assert_eq!(got, vec![ev("a\nb", 8)]);
    assert_eq!(d.comments(), 3);
}

#[test]
fn discarded_line_straddling_chunks() {
    let got = decode(&[b": a long com", b"ment\nfoo: ign", b"ored\ndata: x\n\n"]);
    assert_eq!(got, vec![ev("x", 0)]);
}

#[test]
fn one_leading_space_removed() {
    let got = decode(&[b"data:a\n\ndata: b\n\ndata:  c\n\ndata:\tt\n\n"]);
    assert_eq!(
        got,
        vec![ev("a", 0), ev("b", 8), ev(" c", 17), ev("\tt", 27)]
    );
}

#[test]
fn line_without_colon_is_a_field_with_empty_value() {
    let got = decode(&[b"data\n\ndata\ndata\n\n"]);
    assert_eq!(got, vec![ev("", 0), ev("\n", 6)]);
}

#[test]
fn multi_line_data_joined_with_lf() {
    let got = decode(&[b"data: {\"a\":\ndata: 1}\n\n"]);
    assert_eq!(got, vec![ev("{\"a\":\n1}", 0)]);
}

#[test]
fn event_type_and_default() {
    let got = decode(&[b"event: add\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\n"]);
    assert_eq!(got, vec![ev("1", 0).event("add"), ev("2", 20), ev("3", 36)]);
}

#[test]
fn event_type_reset_after_undispatched_event() {
    let got = decode(&[b"event: x\n\ndata: 1\n\n"]);
    assert_eq!(got, vec![ev("1", 10)]);
}

#[test]
fn empty_data_buffer_not_dispatched() {
    let got = decode(&[b"event: x\nid: 7\n\n\n\ndata: y\n\n"]);
    // The id of the undispatched event still persists.
    assert_eq!(got, vec![ev("y", 18).id("7")]);
}

#[test]
fn id_persists_and_resets() {
    let got = decode(&[b"id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"]);
    assert_eq!(
        got,
        vec![ev("a", 0).id("1"), ev("b", 15).id("1"), ev("c", 24)]
    );
}

#[test]
fn id_with_nul_is_ignored() {
    let mut d = SseDecoder::new();
    let got = decode_with(&mut d, &[b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n"]).unwrap();
    assert_eq!(got, vec![ev("a", 0).id("1"), ev("b", 15).id("1")]);
    assert_eq!(d.last_event_id(), "1");
}

#[test]
fn retry_digits_only() {
    let mut d = SseDecoder::new();
    let got = decode_with(
        &mut d,
        &[b"retry: 1500\ndata: a\n\nretry: 12a\ndata: b\n\nretry:\nretry: -1\nretry: 1.5\nretry:  9\ndata: c\n\nretry: 99999999999999999999999\nretry: 30\n"],
    )
    .unwrap();
    assert_eq!(
        got,
        vec![
            ev("a", 0).retry(1500),
            ev("b", 21).retry(1500),
            ev("c", 41).retry(1500)
        ]
    );
    assert_eq!(d.retry(), Some(30));
}

#[test]
fn unknown_fields_ignored() {
    let got = decode(&[b"foo: bar\nDATA: no\ndata : no\ndata: yes\n\n"]);
    assert_eq!(got, vec![ev("yes", 0)]);
}

#[test]
fn last_event_flushed_at_finish() {
    assert_eq!(
        decode(&[b"data: a\n\ndata: b"]),
        vec![ev("a", 0), ev("b", 9)]
    );
    assert_eq!(decode(&[b"data: a\n"]), vec![ev("a", 0)]);
    assert_eq!(decode(&[b"data: a\r"]), vec![ev("a", 0)]);
    assert_eq!(decode(&[b"event: only\n"]), vec![]);
    assert_eq!(decode(&[b""]), vec![]);
}

#[test]
fn multibyte_split_inside_characters() {
    let text = "data: é中😀👩‍👩‍👧\n\n".as_bytes();
    for cut in 0..=text.len() {
        let (a, b) = text.split_at(cut);
        assert_eq!(decode(&[a, b]), vec![ev("é中😀👩‍👩‍👧", 0)], "cut at {cut}");
    }
}

#[test]
fn invalid_utf8_in_data_reports_line_offset() {
    let (got, err) = decode_err(
        &[b"data: ok\n\ndata: a\n", b"data: \xC3(\n\n"],
        Limits::new(),
    );
    assert_eq!(got, vec![ev("ok", 0)]);
    assert_eq!(err.code(), ErrorCode::InvalidUtf8);
    assert_eq!(err.offset(), Some(18));
}

#[test]
fn truncated_utf8_at_end_of_input() {
    let (got, err) = decode_err(&[b"data: \xE4\xB8"], Limits::new());
    assert_eq!(got, vec![]);
    assert_eq!(err.code(), ErrorCode::InvalidUtf8);
    assert_eq!(err.offset(), Some(0));
}

#[test]
fn invalid_utf8_in_comment_is_not_checked() {
    assert_eq!(
        decode(&[b": \xFF\xFE\nfoo: \xFF\ndata: a\n\n"]),
        vec![ev("a", 0)]
    );
}

#[test]
fn event_too_large_raised_early_with_event_offset() {
    let limits = Limits::new().with_max_event_bytes(10).unwrap();
    // Exactly 10 bytes is fine.
    let mut d = SseDecoder::new().with_limits(limits);
    assert_eq!(
        decode_with(&mut d, &[b"data: 1234\n\ndata: x\n"]).unwrap(),
        vec![ev("1234", 0), ev("x", 12)]
    );
    // 11 bytes is not, and the error comes before the line ends.
    let (got, err) = decode_err(&[b"data: a\n\ndata: 123", b"45"], limits);
    assert_eq!(got, vec![ev("a", 0)]);
    assert_eq!(err.code(), ErrorCode::EventTooLarge);
    assert_eq!(err.offset(), Some(9));
    // Several lines add up, comments included.
    let (_, err) = decode_err(&[b": hi\ndata: 1\n"], limits);
    assert_eq!(err.code(), ErrorCode::EventTooLarge);
    assert_eq!(err.offset(), Some(0));
}

#[test]
fn poisoned_after_error_until_reset() {
    let limits = Limits::new().with_max_event_bytes(4).unwrap();
    let mut d = SseDecoder::new().with_limits(limits);
    let err = d.push(b"data: toolong", |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::EventTooLarge);
    let err = d.push(b"\n\n", |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Finished);
    let err = d.finish(|_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Finished);
    d.reset();
    assert_eq!(decode_with(&mut d, &[b"data"]).unwrap(), vec![ev("", 0)]);
    let err = d.push(b"data: y\n\n", |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Finished);
}

#[test]
fn a_callback_error_stops_and_poisons() {
    let mut d = SseDecoder::new();
    let mut seen = Vec::new();
    let err = d
        .push(b"data: 1\n\ndata: 2\n\ndata: 3\n\n", |f: Frame<'_>| {
            seen.push(f.data().to_owned());
            if f.data() == "2" {
                Err(Error::new(ErrorCode::ProtocolViolation, "stop"))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ProtocolViolation);
    assert_eq!(seen, ["1", "2"]);
    assert_eq!(
        d.finish(|_| Ok(())).unwrap_err().code(),
        ErrorCode::Finished
    );
}

/// One event of `n` data bytes, fed one byte at a time.
fn work_for_one_byte_chunks(n: usize) -> u64 {
    let mut input = b"data: ".to_vec();
    input.extend(std::iter::repeat_n(b'x', n));
    input.extend_from_slice(b"\n\n");
    let mut d = SseDecoder::new();
    let mut len = 0;
    for b in input.chunks(1) {
        d.push(b, |f: Frame<'_>| {
            len = f.data().len();
            Ok(())
        })
        .unwrap();
    }
    assert_eq!(len, n);
    d.work()
}

#[test]
fn one_huge_event_in_one_byte_chunks_is_linear() {
    let small = work_for_one_byte_chunks(4_000);
    let large = work_for_one_byte_chunks(16_000);
    // Each byte is examined a small constant number of times; quadratic work would be ~2000x.
    assert!(large <= 5 * 16_000, "work {large} for 16000 bytes");
    assert!(large <= 5 * small, "work {small} -> {large} for 4x input");
}

#[test]
fn many_lines_in_one_event_is_linear() {
    let mut input = Vec::new();
    for _ in 0..5_000 {
        input.extend_from_slice(b"data: abc\r\n");
    }
    let mut d = SseDecoder::new();
    for c in input.chunks(7) {
        d.push(c, |_| Ok(())).unwrap();
    }
    d.finish(|f: Frame<'_>| {
        assert_eq!(f.data().len(), 5_000 * 4 - 1);
        Ok(())
    })
    .unwrap();
    assert!(d.work() <= 4 * input.len() as u64, "work {}", d.work());
}

#[test]
fn single_line_events_in_one_chunk_match_the_general_path() {
    // Read whole (the single-line shortcut) and byte by byte (the general path): `decode`
    // checks both agree, and the results are the spec's.
    let got = decode(&[b"data:\n\ndata:x\r\rdata: y\r\n\r\nid: 4\ndata: z\n\ndata: w\n\r"]);
    assert_eq!(
        got,
        vec![
            ev("", 0),
            ev("x", 7),
            ev("y", 15),
            ev("z", 26).id("4"),
            ev("w", 41).id("4")
        ]
    );
    // A CR ending the chunk after the blank line: the next chunk's LF belongs to it.
    let got = decode(&[b"data: a\n\r", b"\ndata: b\n\n"]);
    assert_eq!(got, vec![ev("a", 0), ev("b", 10)]);
    // Not single-line events: a second data line, an event type first, a comment first.
    let got = decode(&[b"data: a\ndata: b\n\nevent: e\ndata: c\n\n: hi\ndata: d\n\n"]);
    assert_eq!(
        got,
        vec![ev("a\nb", 0), ev("c", 17).event("e"), ev("d", 35)]
    );
}
