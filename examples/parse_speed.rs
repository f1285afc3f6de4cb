//! Rough speed check of `parse_event` / `to_json` on a typical content delta.
//! Run: `cargo run --release --example parse_speed`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

fn main() {
    let line = r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_9f25a1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b","text":"Hello wor"}"#;
    let n = 1_000_000;
    let t = Instant::now();
    let mut total = 0usize;
    for _ in 0..n {
        let e = agentwire::protocol::parse_event(line).unwrap();
        total += e.sequence_number().unwrap_or(0) as usize;
    }
    let dt = t.elapsed();
    println!(
        "parse_event: {:.0} events/s ({:.0} ns/event) [{total}]",
        n as f64 / dt.as_secs_f64(),
        dt.as_nanos() as f64 / n as f64
    );
    let e = agentwire::protocol::parse_event(line).unwrap();
    let t = Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += e.to_json().len();
    }
    let dt = t.elapsed();
    println!(
        "to_json: {:.0} events/s ({:.0} ns/event) [{bytes}]",
        n as f64 / dt.as_secs_f64(),
        dt.as_nanos() as f64 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        total += v.as_object().map_or(0, |m| m.len());
    }
    let dt = t.elapsed();
    println!(
        "baseline serde_json::Value: {:.0} ns/event [{total}]",
        dt.as_nanos() as f64 / n as f64
    );
}
