//! The mutating half of [`ResponseBuilder`]: emitting events and moving states forward. Every
//! function here runs after the public method checked the call, so only the encoder can fail.

use crate::protocol::{ContentBody, JsonMap, RunStatus};
use crate::Result;

use super::response::ResponseBuilder;
use super::state::{
    Building, ContentHandle, MessageHandle, MessageState, Part, PartState, RunState, Terminal,
};
use crate::emit::BuilderEvent;

fn seq_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl ResponseBuilder {
    // ----- mutation (after the checks; only the encoder can fail) -------------------------

    /// Runs `f` with a fresh output buffer. An error here can only come from the encoder, after
    /// the state began to change: the builder is then poisoned.
    pub(super) fn commit<F>(&mut self, f: F) -> Result<Vec<u8>>
    where
        F: FnOnce(&mut Self, &mut Vec<u8>) -> Result<()>,
    {
        let mut out = Vec::new();
        self.commit_into(&mut out, f)?;
        Ok(out)
    }

    pub(super) fn commit_into<F>(&mut self, out: &mut Vec<u8>, f: F) -> Result<()>
    where
        F: FnOnce(&mut Self, &mut Vec<u8>) -> Result<()>,
    {
        let r = f(self, out);
        if r.is_err() {
            self.run = RunState::Poisoned;
        }
        r
    }

    pub(super) fn take_seq(&mut self) -> u64 {
        let n = self.next_seq;
        self.next_seq += 1;
        n
    }

    pub(super) fn building_mut(&mut self, i: usize) -> Option<&mut Building> {
        match &mut self.messages.get_mut(i)?.state {
            MessageState::Pending(b) | MessageState::Started(b) => Some(b),
            MessageState::Completed => None,
        }
    }

    pub(super) fn part_mut(&mut self, mi: usize, pi: usize) -> Option<&mut Part> {
        self.building_mut(mi)?.parts.get_mut(pi)
    }

    pub(super) fn emit_response(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let seq = self.take_seq();
        self.response.sequence_number = Some(seq_i64(seq));
        let r = self
            .encoder
            .encode(&BuilderEvent::Response(&self.response), out);
        self.response.sequence_number = None;
        r
    }

    pub(super) fn ensure_created(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if self.run == RunState::Initial {
            self.response.status = RunStatus::Created;
            self.emit_response(out)?;
            self.run = RunState::Created;
        }
        Ok(())
    }

    /// Emits `created` and `in_progress` if they are still due.
    pub(super) fn ensure_running(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.ensure_created(out)?;
        if self.run == RunState::Created {
            self.response.in_progress();
            self.emit_response(out)?;
            self.run = RunState::InProgress;
        }
        Ok(())
    }

    /// Emits the message's start event (and the run's, and a tool call's first snapshot) if it
    /// is still pending.
    pub(super) fn ensure_started(&mut self, mi: usize, out: &mut Vec<u8>) -> Result<()> {
        let Some(slot) = self.messages.get_mut(mi) else {
            return Ok(());
        };
        if !matches!(slot.state, MessageState::Pending(_)) {
            return Ok(());
        }
        self.ensure_running(out)?;
        let seq = self.take_seq();
        let Some(slot) = self.messages.get_mut(mi) else {
            return Ok(());
        };
        let state = std::mem::replace(&mut slot.state, MessageState::Completed);
        let MessageState::Pending(mut b) = state else {
            slot.state = state;
            return Ok(());
        };
        b.message.sequence_number = Some(seq_i64(seq));
        let r = self
            .encoder
            .encode(&BuilderEvent::MessageStarted(&b.message), out);
        b.message.sequence_number = None;
        let announce = b.announce_first_part;
        slot.state = MessageState::Started(b);
        r?;
        if announce {
            if let Some(p) = self.part_mut(mi, 0) {
                p.content.in_progress();
            }
            self.emit_part(mi, 0, false, out)?;
        }
        Ok(())
    }

    /// Emits part `pi` of message `mi` as a snapshot or as completed.
    pub(super) fn emit_part(
        &mut self,
        mi: usize,
        pi: usize,
        completed: bool,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let seq = self.take_seq();
        let Some(MessageState::Pending(b) | MessageState::Started(b)) =
            self.messages.get_mut(mi).map(|s| &mut s.state)
        else {
            return Ok(());
        };
        let Some(p) = b.parts.get_mut(pi) else {
            return Ok(());
        };
        p.content.sequence_number = Some(seq_i64(seq));
        let ev = if completed {
            BuilderEvent::ContentCompleted(&p.content)
        } else {
            BuilderEvent::ContentSnapshot(&p.content)
        };
        let r = self.encoder.encode(&ev, out);
        p.content.sequence_number = None;
        r
    }

    pub(super) fn close_part(&mut self, mi: usize, pi: usize, out: &mut Vec<u8>) -> Result<()> {
        let Some(p) = self.part_mut(mi, pi) else {
            return Ok(());
        };
        if p.state == PartState::Completed {
            return Ok(());
        }
        p.state = PartState::Completed;
        p.content.delta = Some(false);
        p.content.completed();
        self.emit_part(mi, pi, true, out)
    }

    /// Completes message `mi` if it is open: starts it if needed, completes its open parts,
    /// emits its completed event and moves it into `output`.
    pub(super) fn close_message(&mut self, mi: usize, out: &mut Vec<u8>) -> Result<()> {
        let parts = match self.messages.get(mi).map(|s| &s.state) {
            Some(MessageState::Pending(b) | MessageState::Started(b)) => b.parts.len(),
            Some(MessageState::Completed) | None => return Ok(()),
        };
        self.ensure_started(mi, out)?;
        for pi in 0..parts {
            self.close_part(mi, pi, out)?;
        }
        let seq = self.take_seq();
        let Some(slot) = self.messages.get_mut(mi) else {
            return Ok(());
        };
        let state = std::mem::replace(&mut slot.state, MessageState::Completed);
        let (MessageState::Pending(b) | MessageState::Started(b)) = state else {
            return Ok(());
        };
        let Building {
            mut message, parts, ..
        } = *b;
        if !parts.is_empty() {
            message.content = Some(parts.into_iter().map(|p| p.content).collect());
        }
        message.completed();
        message.sequence_number = Some(seq_i64(seq));
        let r = self
            .encoder
            .encode(&BuilderEvent::MessageCompleted(&message), out);
        message.sequence_number = None;
        self.response.add_new_message(message);
        r
    }

    /// The run's usage: the given one, else the last completed message's (the runner's rule).
    pub(super) fn set_usage(&mut self, usage: Option<JsonMap>) {
        match usage {
            Some(u) => self.response.usage = Some(u),
            None => {
                if let Some(last) = self.response.output.as_ref().and_then(|o| o.last()) {
                    self.response.usage = last.usage.clone();
                }
            }
        }
    }

    pub(super) fn finish(&mut self, terminal: Terminal, out: &mut Vec<u8>) -> Result<()> {
        self.run = RunState::Finished(terminal);
        self.emit_response(out)
    }

    /// Builder-internal: marks message `mi` to announce its part 0 when it starts.
    pub(super) fn announce_first_part(&mut self, message: MessageHandle) {
        if let Some(b) = self.building_mut(message.index as usize) {
            b.announce_first_part = true;
        }
    }

    /// Builder-internal: replaces the body of an open part without emitting.
    pub(super) fn preset(&mut self, content: ContentHandle, body: ContentBody) {
        if let Some(p) = self.part_mut(content.message.index as usize, content.index as usize) {
            p.content.body = body;
        }
    }

    /// Builder-internal: the message's parts other than `except` that are still open.
    pub(super) fn other_open_part(&self, content: ContentHandle) -> Option<u32> {
        let (_, b) = self.building(content.message).ok()?;
        b.parts
            .iter()
            .enumerate()
            .find(|(i, p)| *i != content.index as usize && p.state == PartState::Open)
            .map(|(i, _)| i as u32)
    }

    /// Builder-internal: completes part and message (already checked).
    pub(super) fn close_content_and_message(
        &mut self,
        content: ContentHandle,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let mi = content.message.index as usize;
        self.ensure_started(mi, out)?;
        self.close_part(mi, content.index as usize, out)?;
        self.close_message(mi, out)
    }
}
