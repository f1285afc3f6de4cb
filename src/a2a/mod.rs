//! A2A (`a2a-sdk` 0.3, protocol 0.3.0) streaming: Agent API events ⇄ `message/stream` JSON-RPC
//! results, an A2A `Message` → [`AgentRequest`](crate::protocol::AgentRequest), and back
//! ([`streaming_request`]: a request's last user message as a streaming send).
//!
//! The reference A2A adapter cannot stream (`reference/agentscope-protocol.md` §7.2, issue
//! #499: it answers with one `Message` from the final response); here every message and part
//! is kept, not just the last message's text. In [`A2aEncoder`]'s stream, each SSE event is
//! `data: {"jsonrpc":"2.0","id":…,"result":…}`:
//! - the run's first event is a `Task` (`id` = response id, `contextId` = session id, state
//!   `submitted`); `in_progress` is a `status-update` (`working`, `final: false`); the terminal
//!   response is a `status-update` with `final: true` (`completed`, `failed`, `canceled`,
//!   `rejected`; `incomplete` → `input-required`), its `metadata.status` the Agent API status,
//!   `metadata.usage` the usage, and for a failure a `status.message` with the error text
//!   (`metadata.code` the code);
//! - each message is one artifact (`artifactId` = message id, `name` and `metadata.message_type`
//!   (1.0: `metadata.messageType`) = its type, `metadata.role`): text streams as
//!   `artifact-update`s with `append` (false for the first chunk, true after) and one `TextPart`
//!   per chunk (`metadata.index` = the part's index); data, image, audio, video and file parts
//!   are sent whole when completed (`DataPart`, `FilePart` with `uri` or `bytes`, `metadata.type`
//!   when not obvious; 1.0 always names the `mediaType`: the given one, a `data:` URI's, the file
//!   name's, else `application/octet-stream`); the message's completion is a last chunk
//!   (`lastChunk: true`).
//!
//! [`A2aDecoder`] reads such a stream back, and any A2A stream: `TextPart`s without
//! `metadata.index` appended to an artifact continue its last text part; a `Message` result is
//! a whole message (and, outside a task, the end of the run).

mod answer;
mod card;
mod compat;
mod decode;
// Assembles A2A streams: the lite build's assembler reads the Agent API only.
#[cfg(all(test, feature = "full"))]
mod decode_tests;
mod encode;
mod request;
mod request_out;
mod rpc;
mod task;
mod version;

pub use answer::{
    rebind_id, subscribe_head, task_answer, task_answer_with_history, task_list_answer, TaskAnswer,
    TaskPage,
};
pub use card::{AgentDescription, Provider, Skill};
pub use decode::A2aDecoder;
pub use encode::A2aEncoder;
pub use request::a2a_request;
pub use request_out::{history_messages, streaming_request};
pub use rpc::{
    read_call, rpc_result, streaming_send, task_request, A2aCall, A2aMethod, RpcError,
    RpcErrorCode, StreamingSend,
};
pub use task::TaskFold;
pub use version::A2aVersion;
