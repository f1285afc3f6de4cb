//! `SseDataReader`: the `data` of each whole event of an SSE stream, read by the core's decoder,
//! for the package's JS modules that pass a stream's events on one by one (the Responses
//! WebSocket mode sends each event of a turn as a message) without reading SSE themselves.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::codec::SseDecoder;

/// Reads an SSE stream in chunks split anywhere and hands back, per chunk, the `data` of each
/// event it completed (comments and events without data are not events; the WHATWG rules of
/// [`SseDecoder`] apply, with its default limits).
#[wasm_bindgen(js_name = SseDataReader, skip_typescript)]
pub struct SseDataReader {
    decoder: SseDecoder,
}

#[wasm_bindgen(js_class = SseDataReader)]
impl SseDataReader {
    /// A reader at the start of a stream.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> SseDataReader {
        SseDataReader {
            decoder: SseDecoder::new(),
        }
    }

    /// The `data` of each event `chunk` completes, in stream order.
    ///
    /// @throws {AgentwireError} `INVALID_UTF8`, `EVENT_TOO_LARGE` (the decoder's), then `FINISHED`
    /// for every later call.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<String>, JsValue> {
        let mut data = Vec::new();
        self.decoder.push(chunk, |frame| {
            data.push(frame.data().to_owned());
            Ok(())
        })?;
        Ok(data)
    }

    /// The `data` of an event the stream ended in without its blank line, if any.
    ///
    /// @throws {AgentwireError} as [`push`](SseDataReader::push).
    pub fn finish(&mut self) -> Result<Vec<String>, JsValue> {
        let mut data = Vec::new();
        self.decoder.finish(|frame| {
            data.push(frame.data().to_owned());
            Ok(())
        })?;
        Ok(data)
    }
}
