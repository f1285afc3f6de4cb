//! The builder's state machines (enums, `STYLE.md` §2) and the `Copy` handles that address
//! messages and content parts inside one [`ResponseBuilder`](super::ResponseBuilder).

use std::sync::atomic::{AtomicU32, Ordering};

use crate::protocol::{Content, Message};

/// Where the run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunState {
    /// Nothing emitted yet.
    Initial,
    /// `created` emitted.
    Created,
    /// `in_progress` emitted: messages may stream.
    InProgress,
    /// A terminal event was emitted; every later call is `BUILDER_STATE`.
    Finished(Terminal),
    /// The encoder failed half-way through a call; every later call is `FINISHED`.
    Poisoned,
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Terminal {
    Completed,
    Failed,
    Canceled,
    /// Paused for a person: status `incomplete`, with the run's interrupts.
    Interrupted,
}

impl Terminal {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Terminal::Completed => "completed",
            Terminal::Failed => "failed",
            Terminal::Canceled => "canceled",
            Terminal::Interrupted => "incomplete",
        }
    }
}

/// One message of the run.
#[derive(Debug)]
pub(crate) struct MessageSlot {
    pub(crate) id: String,
    pub(crate) state: MessageState,
}

/// Where a message is. Its content lives in the state that can still change it; a completed
/// message has moved into the response's `output`.
#[derive(Debug)]
pub(crate) enum MessageState {
    /// Created with `message()`; nothing emitted yet.
    Pending(Box<Building>),
    /// Its `in_progress` event was emitted.
    Started(Box<Building>),
    /// Its `completed` event was emitted; the message is `output[index]`.
    Completed,
}

/// A message being built.
#[derive(Debug)]
pub(crate) struct Building {
    /// The model: status `in_progress`, `content: null` (filled on completion).
    pub(crate) message: Message,
    /// Content parts, by index.
    pub(crate) parts: Vec<Part>,
    /// Emit a snapshot of part 0 right after the message's start event (tool calls announce
    /// `{call_id, name, arguments}` this way).
    pub(crate) announce_first_part: bool,
}

/// A content part.
#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) state: PartState,
    /// The model with the whole current value; on completion, exactly the nested item.
    pub(crate) content: Content,
}

/// Where a content part is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartState {
    /// Accepting `delta()` / `set()`.
    Open,
    /// Its `completed` event was emitted.
    Completed,
}

/// Identity of a builder, so that a handle from another builder is refused.
pub(crate) fn next_builder_tag() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A message of a [`ResponseBuilder`](super::ResponseBuilder) (JS: `MessageBuilder` holds one).
/// Cheap to copy; valid only with the builder that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageHandle {
    pub(crate) builder: u32,
    pub(crate) index: u32,
}

/// A content part of a message (JS: `ContentBuilder` holds one). Cheap to copy; valid only with
/// the builder that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentHandle {
    pub(crate) message: MessageHandle,
    pub(crate) index: u32,
}

impl ContentHandle {
    /// The part's position in its message's `content` (JS: `ContentBuilder.index`).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The message the part belongs to.
    pub fn message(&self) -> MessageHandle {
        self.message
    }
}

/// A streamed tool call: its message and its one data part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolCallHandle {
    pub(crate) message: MessageHandle,
    pub(crate) content: ContentHandle,
}

impl ToolCallHandle {
    /// The call's message.
    pub fn message(&self) -> MessageHandle {
        self.message
    }

    /// The call's data part (`{call_id, name, arguments}`).
    pub fn content(&self) -> ContentHandle {
        self.content
    }
}
