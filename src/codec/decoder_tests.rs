//! Unit tests of [`FrameDecoder`]: detection, delegation, poisoning.

use super::*;

fn run(format: Format, limits: Limits, chunks: &[&[u8]]) -> (Format, Result<Vec<(String, u64)>>) {
    let mut d = FrameDecoder::new(format).with_limits(limits);
    let mut out = Vec::new();
    let mut result = Ok(());
    for chunk in chunks {
        result = d.push(chunk, |f: Frame<'_>| {
            out.push((f.data().to_owned(), f.offset()));
            Ok(())
        });
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = d.finish(|f: Frame<'_>| {
            out.push((f.data().to_owned(), f.offset()));
            Ok(())
        });
    }
    (d.format(), result.map(|()| out))
}

fn auto(chunks: &[&[u8]]) -> (Format, Vec<(String, u64)>) {
    let (format, result) = run(Format::Auto, Limits::new(), chunks);
    (format, result.unwrap())
}

#[test]
fn detects_sse_and_ndjson() {
    assert_eq!(
        auto(&[b"data: {}\n\n"]),
        (Format::Sse, vec![("{}".to_owned(), 0)])
    );
    assert_eq!(
        auto(&[b"{}\n[]"]),
        (
            Format::Ndjson,
            vec![("{}".to_owned(), 0), ("[]".to_owned(), 3)]
        )
    );
    assert_eq!(auto(&[b": hi\n\n"]), (Format::Sse, vec![]));
}

#[test]
fn detects_from_one_byte_chunks_after_bom_and_whitespace() {
    let input = b"\xEF\xBB\xBF\r\n\n  {\"a\":1}\r\n";
    let chunks: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(
        auto(&chunks),
        (Format::Ndjson, vec![("  {\"a\":1}".to_owned(), 6)])
    );
    let input = b"\xEF\xBB\xBF\n\nevent: e\ndata: 1\n\n";
    let chunks: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(auto(&chunks), (Format::Sse, vec![("1".to_owned(), 5)]));
}

#[test]
fn undecided_at_finish_yields_nothing() {
    assert_eq!(auto(&[b"\xEF\xBB", b"\xBF \n"]), (Format::Auto, vec![]));
    assert_eq!(auto(&[b"\xEF\xBB"]), (Format::Auto, vec![]));
    assert_eq!(auto(&[b"\xEF\xBB", b" \n"]), (Format::Sse, vec![]));
    assert_eq!(auto(&[]), (Format::Auto, vec![]));
}

#[test]
fn fixed_formats_do_not_detect() {
    let (format, result) = run(Format::Sse, Limits::new(), &[b"{}\n"]);
    assert_eq!((format, result.unwrap()), (Format::Sse, vec![]));
    let (format, result) = run(Format::Ndjson, Limits::new(), &[b"data: 1\n"]);
    assert_eq!(
        (format, result.unwrap()),
        (Format::Ndjson, vec![("data: 1".to_owned(), 0)])
    );
}

#[test]
fn whitespace_prefix_over_limit_is_too_large_whatever_the_split() {
    let limits = Limits::new().with_max_event_bytes(4).unwrap();
    for chunks in [
        &[&b"\n\n\n\n\n{}"[..]][..],
        &[b"\n\n\n", b"\n\n", b"{}"],
        &[b"\n\n\n\n\n"],
    ] {
        let (format, result) = run(Format::Auto, limits, chunks);
        let err = result.unwrap_err();
        assert_eq!(format, Format::Auto);
        assert_eq!(
            (err.code(), err.offset()),
            (ErrorCode::EventTooLarge, Some(0))
        );
    }
    // A partial BOM is not counted before it is known to be one: here it starts an SSE line.
    let limits1 = Limits::new().with_max_event_bytes(1).unwrap();
    for chunks in [&[&b"\xEF\xBBdd"[..]][..], &[b"\xEF\xBB", b"dd"]] {
        let (format, result) = run(Format::Auto, limits1, chunks);
        let err = result.unwrap_err();
        assert_eq!(
            (format, err.code(), err.offset()),
            (Format::Sse, ErrorCode::EventTooLarge, Some(0))
        );
    }
    // Exactly the limit is fine.
    let (format, result) = run(Format::Auto, limits, &[b"\n\n", b"\n\n{}"]);
    assert_eq!(
        (format, result.unwrap()),
        (Format::Ndjson, vec![("{}".to_owned(), 4)])
    );
}

#[test]
fn poisoned_after_error_and_reset_starts_over() {
    let mut d = FrameDecoder::new(Format::Auto);
    let err = d.push(b"data: \xFF\n\n", |_| Ok(())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidUtf8);
    assert_eq!(
        d.push(b"data: 1\n\n", |_| Ok(())).unwrap_err().code(),
        ErrorCode::Finished
    );
    assert_eq!(
        d.finish(|_| Ok(())).unwrap_err().code(),
        ErrorCode::Finished
    );
    d.reset();
    assert_eq!(d.format(), Format::Auto);
    let mut n = 0;
    d.push(b"{}\n", |_| {
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!((n, d.format()), (1, Format::Ndjson));
    d.finish(|_| Ok(())).unwrap();
    assert_eq!(
        d.push(b"{}\n", |_| Ok(())).unwrap_err().code(),
        ErrorCode::Finished
    );
}

#[test]
fn sse_state_is_exposed() {
    let mut d = FrameDecoder::new(Format::Auto);
    d.push(b": ping\n\nid: 7\nretry: 500\n\n", |_| Ok(()))
        .unwrap();
    assert_eq!(
        (d.last_event_id(), d.retry(), d.comments()),
        (Some("7"), Some(500), 1)
    );
}

#[test]
fn the_default_limit_grows_with_the_stream() {
    // 17 MiB of events, then one event of 17 MiB: over 16 MiB, but not over what came before.
    let piece = "x".repeat(1 << 20);
    let big = "y".repeat(17 << 20);
    for format in [Format::Sse, Format::Ndjson] {
        let frame = |data: &str| match format {
            Format::Ndjson => format!("{data}\n"),
            _ => format!("data: {data}\n\n"),
        };
        let before: String = (0..17).map(|_| frame(&piece)).collect();
        let last = frame(&big);
        let (_, result) = run(format, Limits::new(), &[before.as_bytes(), last.as_bytes()]);
        let frames = result.unwrap();
        assert_eq!(frames.len(), 18);
        assert_eq!(frames.last().map(|f| f.0.len()), Some(17 << 20));
        // The same event first: over the 16 MiB a stream starts with.
        let (_, result) = run(format, Limits::new(), &[last.as_bytes()]);
        assert_eq!(result.unwrap_err().code(), ErrorCode::EventTooLarge);
        // An explicit limit is kept exactly, however long the stream.
        let limits = Limits::new().with_max_event_bytes(16 << 20).unwrap();
        let (_, result) = run(format, limits, &[before.as_bytes(), last.as_bytes()]);
        let err = result.unwrap_err();
        assert_eq!(
            (err.code(), err.offset()),
            (ErrorCode::EventTooLarge, Some(before.len() as u64))
        );
    }
}
