//! How a batch of [`Update`]s reaches JavaScript: text and argument appends as numbers and
//! text in wasm memory, every other update as a plain object.
//!
//! A chunk of a stream mostly produces text appends. Building each as a JS object from Rust
//! costs a boundary call per property and a decoded string per id; here the JS class reads a
//! few numbers from memory, decodes only the appended text, and takes message ids, call ids
//! and tool names from a table of strings it was sent once (see `pkg-template/assembler.js`).
//!
//! Layout, read by JS after each call: the [`Outbox::header`] words are
//! `[records pointer, records count, text pointer, new strings, other updates, UTF-16 text
//! pointer]`; each record is [`RECORD_WORDS`] words:
//! `[kind, flags, message id, part index, text start, text end, call id, name]`, where ids
//! and names are positions in the string table plus one (`0` is `null`). Flags: [`REPLACE`];
//! [`UTF16`] when the text is UTF-16 code units (offsets into the UTF-16 text, in units)
//! rather than UTF-8 bytes (offsets into the text bytes); [`ASCII`] when UTF-8 text is known to
//! be ASCII (readable as Latin-1). A record of kind [`KIND_OTHER`]
//! stands for the next object of [`Outbox::take_others`].
//!
//! Why two encodings: JS engines decode ASCII UTF-8 about as fast as they copy it, but UTF-8
//! with other characters several times slower than UTF-16 (bench/README.md, "Measurements
//! behind code decisions"; `bench/decode-strings.mjs`). So where the host has such a fast path (Node's `Buffer`, see
//! `pkg-template/assembler.js`), a text with non-ASCII characters is transcoded here, where it
//! was already validated.

use std::collections::HashMap;

use wasm_bindgen::JsValue;

use crate::assembler::bytewise::same;
#[cfg(feature = "client")]
use crate::assembler::update::PartView;
use crate::assembler::update::UpdateSink;
use crate::assembler::Update;
use crate::codec::push_utf16;

/// Words per record.
pub const RECORD_WORDS: usize = 8;
/// A record standing for the next object of the other updates.
pub const KIND_OTHER: u32 = 0;
/// A text append.
pub const KIND_TEXT: u32 = 1;
/// A tool call's arguments append.
pub const KIND_ARGUMENTS: u32 = 2;
/// Record flag: the text replaces the part's text instead of extending it.
pub const REPLACE: u32 = 1;
/// Record flag: the text is UTF-16 code units.
pub const UTF16: u32 = 2;
/// Record flag: the text is UTF-8 known to be ASCII (set when UTF-16 is on, which checks).
pub const ASCII: u32 = 4;

/// Words in [`Outbox::header`].
const HEADER_WORDS: usize = 6;

/// The last batch, laid out for the JS class, and the strings it already holds.
#[derive(Default)]
pub struct Outbox {
    header: Box<[u32; HEADER_WORDS]>,
    records: Vec<u32>,
    text: Vec<u8>,
    /// Texts with non-ASCII characters, as UTF-16 (when `utf16` is on).
    text16: Vec<u16>,
    /// Whether the host decodes UTF-16 (JS's `TextDecoder("utf-16le")`).
    utf16: bool,
    /// The updates of other kinds. The full build keeps them as the JSON text of an array's
    /// items (no brackets), written as they arrive, so a content part crosses as text without
    /// first becoming a `Value`; lite, sized first, keeps the updates.
    #[cfg(feature = "client")]
    others: String,
    #[cfg(not(feature = "client"))]
    others: Vec<Update>,
    /// How many updates `others` holds.
    #[cfg(feature = "client")]
    others_count: usize,
    /// Every string sent to JS, by position; JS keeps the same list.
    strings: Vec<String>,
    positions: HashMap<String, usize>,
    /// `strings[sent..]` are new since the last batch.
    sent: usize,
    /// The position of the string interned last (consecutive updates mostly share an id).
    last: usize,
}

impl Outbox {
    /// The address of the header words in wasm memory (stable for the outbox's life).
    pub fn header_address(&self) -> u32 {
        address(self.header.as_ptr())
    }

    /// Sends texts with non-ASCII characters as UTF-16 from now on (off: always UTF-8).
    pub fn set_utf16(&mut self, on: bool) {
        self.utf16 = on;
    }

    /// Empties the outbox for the next batch (the string table stays).
    pub fn start(&mut self) {
        self.records.clear();
        self.text.clear();
        self.text16.clear();
        self.others.clear();
        #[cfg(feature = "client")]
        {
            self.others_count = 0;
        }
    }

    /// Writes the header for the updates received since [`Outbox::start`] and returns how
    /// many records there are.
    pub fn seal(&mut self) -> u32 {
        let count = self.records.len() / RECORD_WORDS;
        *self.header = [
            address(self.records.as_ptr()),
            word(count),
            address(self.text.as_ptr()),
            word(self.strings.len() - self.sent),
            #[cfg(feature = "client")]
            word(self.others_count),
            #[cfg(not(feature = "client"))]
            word(self.others.len()),
            address(self.text16.as_ptr()),
        ];
        word(count)
    }

    /// The strings added since the last call, in table order.
    pub fn take_strings(&mut self) -> Vec<String> {
        let fresh = self.strings.get(self.sent..).unwrap_or_default().to_vec();
        self.sent = self.strings.len();
        fresh
    }

    /// The updates of other kinds of the last batch, as plain objects, in order.
    ///
    /// # Errors
    /// As [`to_js`].
    #[cfg(not(feature = "client"))]
    pub fn take_others(&mut self) -> crate::Result<JsValue> {
        let js = super::convert::to_js(&self.others);
        self.others.clear();
        js
    }

    /// As above, for the full build's JSON text.
    ///
    /// # Errors
    /// `INVALID_JSON` if the text does not parse (it is serde_json's output: it does).
    #[cfg(feature = "client")]
    pub fn take_others(&mut self) -> crate::Result<JsValue> {
        let mut text = String::with_capacity(self.others.len() + 2);
        text.push('[');
        text.push_str(&self.others);
        text.push(']');
        self.others.clear();
        self.others_count = 0;
        js_sys::JSON::parse(&text).map_err(|_| {
            crate::Error::new(crate::ErrorCode::InvalidJson, "an update has no JSON form")
        })
    }

    #[cfg(feature = "client")]
    /// Appends one update's JSON text to `others` (`to_string`, not a writer: keeps `std::io`'s
    /// error paths out of the wasm).
    fn push_other(&mut self, update: &impl serde::Serialize) {
        if let Ok(text) = serde_json::to_string(update) {
            if self.others_count > 0 {
                self.others.push(',');
            }
            self.others.push_str(&text);
            self.others_count += 1;
        }
    }

    /// Releases the buffers (the string table stays: JS holds the same one).
    pub fn release(&mut self) {
        self.records = Vec::new();
        self.text = Vec::new();
        self.text16 = Vec::new();
        self.others = Default::default();
    }

    #[allow(clippy::too_many_arguments)]
    fn append(
        &mut self,
        kind: u32,
        replace: bool,
        id: u32,
        index: usize,
        delta: &str,
        call_id: u32,
        name: u32,
    ) {
        let mut flags = if replace { REPLACE } else { 0 };
        let (start, end) = if self.utf16 && !delta.is_ascii() {
            flags |= UTF16;
            let start = self.text16.len();
            push_utf16(&mut self.text16, delta);
            (word(start), word(self.text16.len()))
        } else {
            if self.utf16 {
                flags |= ASCII;
            }
            let start = self.text.len();
            self.text.extend_from_slice(delta.as_bytes());
            (word(start), word(self.text.len()))
        };
        self.records
            .extend_from_slice(&[kind, flags, id, word(index), start, end, call_id, name]);
    }

    /// The position of `s` in the string table, plus one; added when new.
    fn intern(&mut self, s: &str) -> u32 {
        if self
            .strings
            .get(self.last)
            .is_some_and(|last| same(last, s))
        {
            return word(self.last + 1);
        }
        // `usize` positions: the same map type as the fold's ids, so one copy of its code.
        let position = match self.positions.get(s) {
            Some(&position) => position,
            None => {
                self.strings.push(s.to_owned());
                let position = self.strings.len();
                self.positions.insert(s.to_owned(), position);
                position
            }
        };
        self.last = position - 1;
        word(position)
    }
}

impl UpdateSink for Outbox {
    fn text(&mut self, message_id: &str, index: usize, delta: &str, replace: bool) {
        let id = self.intern(message_id);
        self.append(KIND_TEXT, replace, id, index, delta, 0, 0);
    }

    fn arguments(
        &mut self,
        message_id: &str,
        index: usize,
        call_id: Option<&str>,
        name: Option<&str>,
        delta: &str,
        replace: bool,
    ) {
        let id = self.intern(message_id);
        let call_id = call_id.map_or(0, |s| self.intern(s));
        let name = name.map_or(0, |s| self.intern(s));
        self.append(KIND_ARGUMENTS, replace, id, index, delta, call_id, name);
    }

    fn other(&mut self, update: Update) {
        self.records.extend_from_slice(&[KIND_OTHER; RECORD_WORDS]);
        #[cfg(feature = "client")]
        self.push_other(&update);
        #[cfg(not(feature = "client"))]
        self.others.push(update);
    }

    // The full build writes a content part straight to JSON text (a large data part then costs
    // no `Value` tree of its own); lite, sized first, keeps the default.
    #[cfg(feature = "client")]
    fn content(&mut self, message_id: &str, index: usize, part: &PartView<'_>) {
        self.records.extend_from_slice(&[KIND_OTHER; RECORD_WORDS]);
        self.push_other(&ContentUpdate {
            kind: "content",
            message_id,
            index,
            part,
        });
    }
}

/// An [`Update::Content`] as JSON, written from the stored part.
#[cfg(feature = "client")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ContentUpdate<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    message_id: &'a str,
    index: usize,
    part: &'a PartView<'a>,
}

/// A wasm32 address or length as a word (lossless: wasm32 addresses are 32 bits).
fn word(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn address<T>(pointer: *const T) -> u32 {
    word(pointer as usize)
}
