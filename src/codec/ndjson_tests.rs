//! Unit tests of the NDJSON decoder.

use super::*;

fn decode_with(decoder: &mut NdjsonDecoder, chunks: &[&[u8]]) -> Result<Vec<(String, u64)>> {
    let mut out = Vec::new();
    let mut on_frame = |f: Frame<'_>| {
        assert_eq!((f.event(), f.id(), f.retry()), ("message", None, None));
        out.push((f.data().to_owned(), f.offset()));
        Ok(())
    };
    for chunk in chunks {
        decoder.push(chunk, &mut on_frame)?;
    }
    decoder.finish(&mut on_frame)?;
    Ok(out)
}

/// Decodes `chunks`; checks the one-shot and 1-byte-chunk runs agree.
fn decode(chunks: &[&[u8]]) -> Vec<(String, u64)> {
    let got = decode_with(&mut NdjsonDecoder::new(), chunks).unwrap();
    let whole = chunks.concat();
    let one = decode_with(&mut NdjsonDecoder::new(), &[&whole]).unwrap();
    let bytes: Vec<&[u8]> = whole.chunks(1).collect();
    let split = decode_with(&mut NdjsonDecoder::new(), &bytes).unwrap();
    assert_eq!(got, one);
    assert_eq!(got, split);
    got
}

fn line(data: &str, offset: u64) -> (String, u64) {
    (data.to_owned(), offset)
}

#[test]
fn lf_and_crlf_lines() {
    assert_eq!(
        decode(&[b"{\"a\":1}\n[2]\r\n3\n"]),
        vec![line("{\"a\":1}", 0), line("[2]", 8), line("3", 13)]
    );
}

#[test]
fn crlf_split_across_chunks() {
    assert_eq!(
        decode(&[b"{}\r", b"\n{}\r", b"\n"]),
        vec![line("{}", 0), line("{}", 4)]
    );
}

#[test]
fn blank_lines_skipped() {
    assert_eq!(
        decode(&[b"\n\r\n  \t\n{}\n\n\n[]"]),
        vec![line("{}", 7), line("[]", 12)]
    );
}

#[test]
fn last_line_flushed_at_finish() {
    assert_eq!(
        decode(&[b"{}\n{\"x\":", b"1}"]),
        vec![line("{}", 0), line("{\"x\":1}", 3)]
    );
    assert_eq!(decode(&[b"{}\r"]), vec![line("{}", 0)]);
    assert_eq!(decode(&[b""]), vec![]);
}

#[test]
fn bom_stripped_even_split() {
    assert_eq!(decode(&[b"\xEF", b"\xBB\xBF{}\n"]), vec![line("{}", 3)]);
}

#[test]
fn multibyte_split_anywhere() {
    let text = "{\"t\":\"é中😀👩‍👩‍👧\"}\n".as_bytes();
    for cut in 0..=text.len() {
        let (a, b) = text.split_at(cut);
        assert_eq!(decode(&[a, b]), vec![line("{\"t\":\"é中😀👩‍👩‍👧\"}", 0)]);
    }
}

#[test]
fn invalid_utf8_reports_line_offset() {
    let mut d = NdjsonDecoder::new();
    let mut seen = Vec::new();
    let err = d
        .push(b"{}\n{\"a\":\"\xFF\"}\n{}\n", |f: Frame<'_>| {
            seen.push(f.data().to_owned());
            Ok(())
        })
        .unwrap_err();
    assert_eq!(seen, ["{}"]);
    assert_eq!(err.code(), ErrorCode::InvalidUtf8);
    assert_eq!(err.offset(), Some(3));
    assert_eq!(
        d.push(b"{}", |_| Ok(())).unwrap_err().code(),
        ErrorCode::Finished
    );
}

#[test]
fn line_too_long_raised_early() {
    let limits = Limits::new().with_max_event_bytes(4).unwrap();
    // Exactly 4 bytes pass, even with a CR that might start a CRLF arriving last.
    let mut d = NdjsonDecoder::new().with_limits(limits);
    assert_eq!(
        decode_with(&mut d, &[b"[12]\r", b"\n[34]\r"]).unwrap(),
        vec![line("[12]", 0), line("[34]", 6)]
    );
    let mut d = NdjsonDecoder::new().with_limits(limits);
    d.push(b"{}\n[12", |_| Ok(())).unwrap();
    let err = d.push(b"34", |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::EventTooLarge);
    assert_eq!(err.offset(), Some(3));
}

#[test]
fn one_huge_line_in_one_byte_chunks_is_linear() {
    let n = 20_000;
    let mut d = NdjsonDecoder::new();
    let input: Vec<u8> = std::iter::repeat_n(b'1', n).chain([b'\n']).collect();
    let mut got = 0;
    for b in input.chunks(1) {
        d.push(b, |f: Frame<'_>| {
            got = f.data().len();
            Ok(())
        })
        .unwrap();
    }
    assert_eq!(got, n);
    assert!(d.work() <= 4 * n as u64, "work {}", d.work());
}
