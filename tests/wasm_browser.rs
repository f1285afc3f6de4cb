//! wasm-bindgen tests of the JS face, run in headless Chromium by `cargo test --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod wasm_common;

use wasm_bindgen_test::wasm_bindgen_test;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn request_defaults_in_reference_order() {
    wasm_common::request_defaults_in_reference_order();
}

#[wasm_bindgen_test]
fn request_from_bytes_equals_request_from_string() {
    wasm_common::request_from_bytes_equals_request_from_string();
}

#[wasm_bindgen_test]
fn results_are_plain_objects() {
    wasm_common::results_are_plain_objects();
}

#[wasm_bindgen_test]
fn event_round_trips_byte_for_byte() {
    wasm_common::event_round_trips_byte_for_byte();
}

#[wasm_bindgen_test]
fn missing_input_names_the_field() {
    wasm_common::missing_input_names_the_field();
}

#[wasm_bindgen_test]
fn out_of_range_n_names_the_field() {
    wasm_common::out_of_range_n_names_the_field();
}

#[wasm_bindgen_test]
fn malformed_json_is_invalid_json() {
    wasm_common::malformed_json_is_invalid_json();
}

#[wasm_bindgen_test]
fn invalid_utf8_reports_the_offset() {
    wasm_common::invalid_utf8_reports_the_offset();
}

#[wasm_bindgen_test]
fn wrong_argument_type_is_invalid_option() {
    wasm_common::wrong_argument_type_is_invalid_option();
}

#[wasm_bindgen_test]
fn errors_do_not_poison_the_instance() {
    wasm_common::errors_do_not_poison_the_instance();
}

#[wasm_bindgen_test]
fn builder_cores_share_one_builder() {
    wasm_common::builder_cores_share_one_builder();
}

#[wasm_bindgen_test]
fn builder_release_finishes_children() {
    wasm_common::builder_release_finishes_children();
}
