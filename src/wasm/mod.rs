//! The JavaScript face (wasm32 only): classes and functions exported through wasm-bindgen.
