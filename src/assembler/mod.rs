//! StreamAssembler: fold a protocol's event stream into a snapshot, with coalesced updates.

mod partial_json;

pub use partial_json::{Op, PartialJson, PathSegment};
