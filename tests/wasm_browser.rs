//! wasm-bindgen tests of the JS face, run in headless Chromium by `cargo test --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[macro_use]
mod wasm_common;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

every_check!();
