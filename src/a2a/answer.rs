//! What an A2A server answers from a run's logged stream (the SSE events its
//! [`A2aEncoder`](super::A2aEncoder) wrote, each with its `id: N`), as whole JSON-RPC text: the
//! non-streamed answers ([`task_answer`]), the first frame of a `SubscribeToTask` stream
//! ([`subscribe_head`]), and the logged events with the JSON-RPC id of another request
//! ([`rebind_id`]).

use serde_json::Value;

use crate::codec::encode_sse;
use crate::codec::write::value;
use crate::Result;

use super::{rpc_result, A2aVersion, TaskFold};

/// Which result [`task_answer`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskAnswer {
    /// `GetTask` / `CancelTask` (`tasks/get`, `tasks/cancel`): the task itself.
    Task,
    /// A non-streamed `SendMessage` (`message/send`): 1.0 `{"task": …}` or `{"message": …}`,
    /// 0.3 the task or message itself.
    Send,
}

fn fold(log: &[u8]) -> Result<TaskFold> {
    let mut fold = TaskFold::new();
    fold.push(log)?;
    fold.finish()?;
    Ok(fold)
}

/// The JSON-RPC response (`{"jsonrpc":"2.0","id":…,"result":…}`) answering request `id` with
/// the task `log` folds into ([`TaskFold`]): for [`TaskAnswer::Task`] the task with at most
/// `history_length` of its latest history messages, for [`TaskAnswer::Send`] the `SendMessage`
/// result in `version`. The result is `null` when the log says nothing yet.
///
/// # Errors
///
/// As for [`TaskFold::push`]: `INVALID_UTF8` / `EVENT_TOO_LARGE` for a log that cannot be
/// read, `INVALID_JSON` for an event that is not JSON.
///
/// # Example
///
/// ```
/// use agentwire::a2a::{task_answer, A2aVersion, TaskAnswer};
/// use serde_json::json;
///
/// let log = b"id: 0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n";
/// let text = task_answer(log, &json!("req-9"), A2aVersion::V1_0, TaskAnswer::Send, None)?;
/// assert_eq!(text, r#"{"jsonrpc":"2.0","id":"req-9","result":{"task":{"id":"t","status":{"state":"TASK_STATE_COMPLETED"}}}}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn task_answer(
    log: &[u8],
    id: &Value,
    version: A2aVersion,
    kind: TaskAnswer,
    history_length: Option<u32>,
) -> Result<String> {
    task_answer_with_history(log, id, version, kind, history_length, &[])
}

/// As [`task_answer`], with the conversation before what the log holds: `earlier` (Agent API
/// messages, oldest first: a task's earlier turns and the message that started this one) goes
/// before the task's history ([`history_messages`](super::history_messages)), then
/// `history_length` keeps the latest.
///
/// # Errors
///
/// As [`task_answer`].
pub fn task_answer_with_history(
    log: &[u8],
    id: &Value,
    version: A2aVersion,
    kind: TaskAnswer,
    history_length: Option<u32>,
    earlier: &[Value],
) -> Result<String> {
    let mut fold = fold(log)?;
    if let Some((task_id, context)) = fold.task_ids() {
        let history = super::history_messages(earlier, version, &task_id, context.as_deref());
        fold.prepend_history(history);
    }
    let result = match kind {
        TaskAnswer::Task => fold.task_result(history_length),
        TaskAnswer::Send => fold.send_message_result(version, history_length),
    };
    Ok(rpc_result(id, &result.unwrap_or(Value::Null)))
}

/// One page of a `ListTasks` answer: which tasks, and what goes around them.
#[derive(Debug, Clone, Default)]
pub struct TaskPage {
    /// At most this many history messages per task (`None`: all).
    pub history_length: Option<u32>,
    /// Whether each task keeps its `artifacts` (the key is left out otherwise).
    pub include_artifacts: bool,
    /// The token of the next page (`""` on the last).
    pub next_page_token: String,
    /// The page size the request asked for (or the default).
    pub page_size: u32,
    /// How many tasks match in all pages.
    pub total_size: u64,
    /// Per task, in the order of the logs: the conversation before what its log holds (Agent API
    /// messages, oldest first), put before its history as [`task_answer_with_history`] does.
    pub histories: Vec<Vec<Value>>,
}

/// The JSON-RPC response answering `ListTasks` request `id`: `{"tasks": […], "nextPageToken",
/// "pageSize", "totalSize"}`, each task the one its run's log folds into ([`TaskFold`]), in the
/// order of `logs`; a log that holds no task yet is left out.
///
/// # Errors
///
/// As for [`task_answer`].
pub fn task_list_answer<'a>(
    logs: impl IntoIterator<Item = &'a [u8]>,
    id: &Value,
    page: &TaskPage,
) -> Result<String> {
    let mut tasks = Vec::new();
    for (i, log) in logs.into_iter().enumerate() {
        let mut fold = fold(log)?;
        if let (Some(earlier), Some((task_id, context))) = (page.histories.get(i), fold.task_ids())
        {
            let history =
                super::history_messages(earlier, A2aVersion::V1_0, &task_id, context.as_deref());
            fold.prepend_history(history);
        }
        let Some(mut task) = fold.task_result(page.history_length) else {
            continue;
        };
        if !page.include_artifacts {
            if let Some(map) = task.as_object_mut() {
                map.remove("artifacts");
            }
        }
        tasks.push(task);
    }
    let mut result = serde_json::Map::new();
    result.insert("tasks".to_owned(), Value::Array(tasks));
    result.insert(
        "nextPageToken".to_owned(),
        Value::String(page.next_page_token.clone()),
    );
    result.insert("pageSize".to_owned(), Value::from(page.page_size));
    result.insert("totalSize".to_owned(), Value::from(page.total_size));
    Ok(rpc_result(id, &Value::Object(result)))
}

/// The first SSE event of a `SubscribeToTask` stream (`data: {"jsonrpc":"2.0","id":…,"result":…}`,
/// no `id:` line): the task `log` folds into as it stands, answering request `id` — in 1.0 a
/// `StreamResponse` (`{"task": …}`), in 0.3 the task itself (`null` while the log holds no
/// task) — and the cursor the rest of the stream follows: the id of the log's last event, `-1`
/// when it has none (or no numeric one).
///
/// # Errors
///
/// As for [`task_answer`].
pub fn subscribe_head(log: &[u8], id: &Value, version: A2aVersion) -> Result<(Vec<u8>, i64)> {
    let fold = fold(log)?;
    let task = fold.task_result(None).unwrap_or(Value::Null);
    let result = match version {
        A2aVersion::V1_0 => {
            let mut wrapper = serde_json::Map::new();
            wrapper.insert("task".to_owned(), task);
            Value::Object(wrapper)
        }
        _ => task,
    };
    let cursor = fold
        .last_event_id()
        .and_then(|id| id.parse::<i64>().ok())
        .filter(|n| *n >= 0)
        .unwrap_or(-1);
    let mut frame = Vec::new();
    encode_sse(&mut frame, &rpc_result(id, &result));
    Ok((frame, cursor))
}

/// The head of every JSON-RPC response an [`A2aEncoder`](super::A2aEncoder) writes, up to
/// the id.
const HEAD: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":";

/// `chunk` (whole SSE events of an A2A stream written by agentwire's encoder) with the
/// JSON-RPC id `from` of each event replaced by `to`: an event whose data is a response to
/// `from` (its first `data:` line starting `{"jsonrpc":"2.0","id":<from>,`) gets `to`; nothing
/// else changes (other events, other lines, other bytes of the line). Ids are compared as the
/// encoder writes them (`from` written the same way), never read as patterns; one pass over
/// `chunk`.
///
/// # Example
///
/// ```
/// use agentwire::a2a::rebind_id;
/// use serde_json::json;
///
/// let chunk = b"id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}\n\n";
/// assert_eq!(rebind_id(chunk, &json!("a"), &json!(7)),
///            b"id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n");
/// ```
pub fn rebind_id(chunk: &[u8], from: &Value, to: &Value) -> Vec<u8> {
    let mut from_text = Vec::new();
    value(&mut from_text, from);
    let mut to_text = Vec::new();
    value(&mut to_text, to);
    if from_text == to_text {
        return chunk.to_vec();
    }
    let mut out = Vec::with_capacity(chunk.len() + to_text.len().saturating_sub(from_text.len()));
    // Whether the event the next line belongs to had its first data line already.
    let mut data_seen = false;
    let mut rest = chunk;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let (line, after) = rest.split_at(end);
        rest = after;
        if line == b"\n" {
            data_seen = false;
            out.extend_from_slice(line);
            continue;
        }
        if !line.starts_with(b"data:") || data_seen {
            out.extend_from_slice(line);
            continue;
        }
        data_seen = true;
        let after_id = line
            .strip_prefix(HEAD)
            .and_then(|l| l.strip_prefix(from_text.as_slice()))
            .filter(|l| l.first() == Some(&b','));
        match after_id {
            Some(tail) => {
                out.extend_from_slice(HEAD);
                out.extend_from_slice(&to_text);
                out.extend_from_slice(tail);
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
