//! By-hand throughput of the builder's hot path (text deltas), native.
//!
//! Usage: `cargo run --release --example builder_throughput [EVENTS]`
//!
//! Prints events/s and MB/s for `delta_text` (a fresh `Vec` per call, as the JS face returns a
//! fresh `Uint8Array`) and for `delta_into` (one reused buffer), with 8-byte ASCII tokens and
//! 12-byte tokens needing escapes and UTF-8.

use std::time::Instant;

use agentwire::builder::{BuilderOptions, ContentValue, MessageOptions, ResponseBuilder};
use agentwire::protocol::{ContentType, FixedClock};

fn main() -> Result<(), agentwire::Error> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    for (label, token) in [("ascii ", "token_ab"), ("escape", "é\"😀\n x")] {
        for reuse in [false, true] {
            let mut rb = ResponseBuilder::new(BuilderOptions::new().clock(FixedClock(0)))?;
            let m = rb.message(MessageOptions::new())?;
            let c = rb.content(m, ContentType::Text)?;
            let mut buf = Vec::with_capacity(256);
            let mut bytes = 0usize;
            let start = Instant::now();
            for _ in 0..n {
                if reuse {
                    buf.clear();
                    rb.delta_into(c, ContentValue::Text(token), &mut buf)?;
                    bytes += buf.len();
                } else {
                    bytes += rb.delta_text(c, token)?.len();
                }
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{label} {}: {:>6.2} M events/s, {:>7.1} MB/s ({} events, {:.0} bytes/event)",
                if reuse { "delta_into" } else { "delta_text" },
                n as f64 / secs / 1e6,
                bytes as f64 / secs / 1e6,
                n,
                bytes as f64 / n as f64
            );
        }
    }
    Ok(())
}
