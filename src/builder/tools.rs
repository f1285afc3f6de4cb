//! Tool-call helpers: the common cases in one call each (`reference/agentscope-protocol.md`
//! §6.1, §6.5).
//!
//! A call is a message of type `function_call` / `plugin_call` / `mcp_call` (role `assistant`)
//! with one data part `{call_id, name, arguments}`: its start event is followed by a snapshot
//! of that part (`delta: false`, `arguments: ""`), then `arguments` streams as data deltas
//! `{"arguments": "<piece>"}` (string append under the builder's merge rule), then the part and
//! the message complete with the whole arguments string. An output is a message of type
//! `*_output`, role `tool`, with one data part `{call_id, name, output}`, emitted at once.

use serde_json::Value;

use crate::protocol::{ContentBody, ContentType, JsonMap};
use crate::Result;

use super::options::{ToolCallOptions, ToolKind, ToolOutputOptions};
use super::response::ResponseBuilder;
use super::state::ToolCallHandle;
use super::value::ContentValue;

impl ResponseBuilder {
    /// Creates a tool-call message with its data part `{call_id, name, arguments}` (MCP:
    /// `{call_id, arguments, name, server_label}`, the reference's `McpCall` order); emits
    /// nothing. The message's start event and the part's first snapshot come with
    /// [`start_tool_call`](Self::start_tool_call) or with the first other event of the call.
    ///
    /// # Errors
    ///
    /// As [`message`](Self::message).
    pub fn tool_call(&mut self, options: ToolCallOptions) -> Result<ToolCallHandle> {
        self.check_live()?;
        let mut data = JsonMap::new();
        data.insert("call_id".into(), Value::String(options.call_id));
        if options.kind == ToolKind::Mcp {
            data.insert("arguments".into(), Value::String(options.arguments));
            data.insert("name".into(), Value::String(options.name));
            data.insert(
                "server_label".into(),
                options.server_label.map_or(Value::Null, Value::String),
            );
        } else {
            data.insert("name".into(), Value::String(options.name));
            data.insert("arguments".into(), Value::String(options.arguments));
        }
        let message = self.message(options.message)?;
        let content = self.content(message, ContentType::Data)?;
        self.preset(content, ContentBody::Data { data: Some(data) });
        self.announce_first_part(message);
        Ok(ToolCallHandle { message, content })
    }

    /// Emits the call's start event and the first snapshot of its data part.
    ///
    /// # Errors
    ///
    /// As [`start_message`](Self::start_message).
    pub fn start_tool_call(&mut self, call: ToolCallHandle) -> Result<Vec<u8>> {
        self.start_message(call.message)
    }

    /// Emits a piece of the call's `arguments` as the data delta `{"arguments": piece}`
    /// (starting the call first if needed).
    ///
    /// # Errors
    ///
    /// As [`delta`](Self::delta).
    pub fn tool_arguments(&mut self, call: ToolCallHandle, piece: &str) -> Result<Vec<u8>> {
        let mut delta = JsonMap::new();
        delta.insert("arguments".into(), Value::String(piece.to_owned()));
        self.delta(call.content, ContentValue::Fields(delta))
    }

    /// Completes the call's data part (if still open) and its message, starting the call first
    /// if needed.
    ///
    /// # Errors
    ///
    /// `BUILDER_STATE` if the message is completed, another part of it is still open, or after
    /// a terminal event.
    pub fn complete_tool_call(&mut self, call: ToolCallHandle) -> Result<Vec<u8>> {
        self.check_live()?;
        let (slot, _) = self.building(call.message)?;
        if let Some(i) = self.other_open_part(call.content) {
            return Err(crate::Error::new(
                crate::ErrorCode::BuilderState,
                format!(
                    "Content {i} of message {} is still open; complete it first.",
                    slot.id
                ),
            ));
        }
        self.commit(|this, out| this.close_content_and_message(call.content, out))
    }

    /// Emits a whole tool output at once: the message's start event (role `tool`, type
    /// `*_output`), its data part `{call_id, name, output}` completed, and the message
    /// completed.
    ///
    /// # Errors
    ///
    /// As [`message`](Self::message).
    pub fn tool_output(&mut self, options: ToolOutputOptions) -> Result<Vec<u8>> {
        self.check_live()?;
        let mut data = JsonMap::new();
        data.insert("call_id".into(), Value::String(options.call_id));
        data.insert(
            "name".into(),
            options.name.map_or(Value::Null, Value::String),
        );
        data.insert("output".into(), Value::String(options.output));
        let message = self.message(options.message)?;
        let content = self.content(message, ContentType::Data)?;
        self.preset(content, ContentBody::Data { data: Some(data) });
        self.commit(|this, out| this.close_content_and_message(content, out))
    }

    /// Convenience for the common case of [`ToolKind::Function`].
    ///
    /// # Errors
    ///
    /// As [`tool_call`](Self::tool_call).
    pub fn function_call(
        &mut self,
        call_id: impl Into<String>,
        name: impl Into<String>,
    ) -> Result<ToolCallHandle> {
        self.tool_call(ToolCallOptions::new(ToolKind::Function, call_id, name))
    }
}
