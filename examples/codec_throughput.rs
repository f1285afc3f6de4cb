//! A by-hand throughput check of the codec decoders (not a test, not a benchmark suite).
//!
//! Run with `cargo run --release --example codec_throughput`. The input mirrors the JS
//! measurements in the project's reference notes: 100,000 SSE events of 50–200 bytes shaped
//! like Agent API text deltas, about 10% multi-byte characters, re-chunked into 4–16 KiB or
//! 64–512 B pieces.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::Instant;

use agentwire::codec::{encode_ndjson, encode_sse, Format, Frame, FrameDecoder};

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn payloads(rng: &mut Rng, count: usize) -> Vec<String> {
    let multi = ["é", "中", "😀", "ß", "ありがとう"];
    (0..count)
        .map(|i| {
            let mut text = String::new();
            let len = 10 + rng.below(120);
            while (text.len() as u64) < len {
                if rng.below(10) == 0 {
                    text.push_str(multi[rng.below(multi.len() as u64) as usize]);
                } else {
                    text.push(char::from(b'a' + rng.below(26) as u8));
                }
            }
            format!(
                "{{\"object\":\"content\",\"type\":\"text\",\"index\":0,\"delta\":true,\"msg_id\":\"m{}\",\"text\":\"{text}\"}}",
                i % 7
            )
        })
        .collect()
}

fn chunks<'a>(rng: &mut Rng, input: &'a [u8], min: u64, max: u64) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = ((min + rng.below(max - min)) as usize).min(rest.len());
        let (a, b) = rest.split_at(n);
        out.push(a);
        rest = b;
    }
    out
}

fn measure(label: &str, format: Format, input: &[u8], pieces: &[&[u8]]) {
    let rounds = 10;
    let mut best = f64::MAX;
    let mut events = 0u64;
    for _ in 0..rounds {
        let mut decoder = FrameDecoder::new(format);
        let mut n = 0u64;
        let mut bytes = 0usize;
        let start = Instant::now();
        let mut sink = |f: Frame<'_>| {
            n += 1;
            bytes += f.data().len();
            Ok(())
        };
        for piece in pieces {
            decoder
                .push(piece, &mut sink)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        decoder.finish(&mut sink).unwrap_or_else(|e| panic!("{e}"));
        best = best.min(start.elapsed().as_secs_f64());
        events = n;
        std::hint::black_box(bytes);
    }
    let mb = input.len() as f64 / 1e6;
    println!(
        "{label:<28} {:>8.0} MB/s  {:>6.2} M events/s  ({} events, {:.1} MB)",
        mb / best,
        events as f64 / best / 1e6,
        events,
        mb
    );
}

fn main() {
    let mut rng = Rng(0xc0ffee);
    let events = payloads(&mut rng, 100_000);
    let mut sse = Vec::new();
    let mut ndjson = Vec::new();
    for e in &events {
        encode_sse(&mut sse, e);
        encode_ndjson(&mut ndjson, e).unwrap_or_else(|e| panic!("{e}"));
    }
    let sse_crlf: Vec<u8> = String::from_utf8_lossy(&sse)
        .replace('\n', "\r\n")
        .into_bytes();

    for (name, min, max) in [("4-16 KiB", 4096, 16384), ("64-512 B", 64, 512)] {
        let p = chunks(&mut rng, &sse, min, max);
        measure(&format!("SSE LF, {name}"), Format::Auto, &sse, &p);
        let p = chunks(&mut rng, &sse_crlf, min, max);
        measure(&format!("SSE CRLF, {name}"), Format::Auto, &sse_crlf, &p);
        let p = chunks(&mut rng, &ndjson, min, max);
        measure(&format!("NDJSON, {name}"), Format::Auto, &ndjson, &p);
    }
    let big: Vec<u8> = {
        let mut v = b"data: ".to_vec();
        v.extend(std::iter::repeat_n(b'x', 8 << 20));
        v.extend_from_slice(b"\n\n");
        v
    };
    let p = chunks(&mut rng, &big, 1, 64);
    measure("one 8 MiB event, 1-64 B", Format::Sse, &big, &p);
}
