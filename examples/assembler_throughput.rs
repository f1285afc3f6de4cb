//! Native speed of `StreamAssembler` on an SSE file, cut into seeded chunks of `min..=max` bytes:
//! the core without the wasm boundary (compare with `npm run bench`).
//! Run: `cargo run --release --example assembler_throughput -- FILE [MIN MAX]`
//! (`node -e` with `bench/fixtures.mjs`'s `textDeltaStream(100000)` writes the bench's input).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::time::Instant;

use agentwire::assembler::{AssemblerOptions, StreamAssembler, Update};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(args.get(1).expect("an SSE file")).unwrap();
    let min: usize = args.get(2).map_or(4096, |a| a.parse().unwrap());
    let max: usize = args.get(3).map_or(16384, |a| a.parse().unwrap());
    // xorshift: seeded, no dependency.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = min + (state as usize) % (max - min + 1);
        let end = (at + len).min(bytes.len());
        chunks.push(&bytes[at..end]);
        at = end;
    }
    let mut best = f64::MAX;
    for _ in 0..15 {
        let t = Instant::now();
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let mut text = 0usize;
        for chunk in &chunks {
            for update in asm.push(chunk).unwrap() {
                if let Update::Text { delta, .. } = update {
                    text += delta.len();
                }
            }
        }
        asm.finish().unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        best = best.min(ms);
        assert!(text > 0);
    }
    println!(
        "{} bytes in {} chunks ({min}..={max}): best {best:.1} ms, {:.0} MB/s",
        bytes.len(),
        chunks.len(),
        bytes.len() as f64 / best / 1e3
    );
}
