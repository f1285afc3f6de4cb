//! [`TaskFold`]: one A2A task, folded from its stream the way `a2a-sdk`'s `TaskManager`
//! folds it, for the non-streamed answers (`SendMessage` → a Task or a Message, `GetTask`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::codec::{Format, Frame, FrameDecoder, Limits};
use crate::{Error, ErrorCode, Result};

use super::A2aVersion;

/// One A2A task as its stream builds it: the results of a `SendStreamingMessage` /
/// `message/stream` stream (either version; each detected by its shape) are folded as
/// `a2a-sdk`'s `TaskManager.save_task_event` folds them — a `task` replaces the task; a status
/// update moves the previous status message into `history`, merges its `metadata` into the
/// task's (key by key) and sets the status; an artifact update adds the artifact, replaces the
/// one with the same `artifactId`, or with `append` extends its parts and merges its metadata
/// (an `append` to an unknown artifact adds it). A `message` outside a task is the answer
/// itself. Once the answer is settled (a terminal state, a message outside a task, a JSON-RPC
/// error) the rest of the stream is ignored. Artifacts are found by id in O(1), so the fold is
/// linear in the stream.
///
/// # Example
///
/// ```
/// use agentwire::a2a::{A2aVersion, TaskFold};
///
/// let mut fold = TaskFold::new();
/// fold.push(br#"data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_SUBMITTED"}}}}
///
/// data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"text":"Hel"}]}}}}
///
/// data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"artifact":{"artifactId":"a","parts":[{"text":"lo"}]}}}}
///
/// data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}
///
/// "#)?;
/// fold.finish()?;
/// let answer = fold.send_message_result(A2aVersion::V1_0, None).unwrap();
/// assert_eq!(answer["task"]["status"]["state"], "TASK_STATE_COMPLETED");
/// assert_eq!(answer["task"]["artifacts"][0]["parts"].as_array().unwrap().len(), 2);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct TaskFold {
    task: Option<Map<String, Value>>,
    message: Option<Value>,
    /// The position in the task's `artifacts` of each artifact id.
    artifacts: HashMap<String, usize>,
    error: Option<Value>,
    frames: FrameDecoder,
}

impl Default for TaskFold {
    fn default() -> Self {
        Self::new()
    }
}

impl TaskFold {
    /// An empty fold, reading SSE or NDJSON (detected) with the default limits.
    pub fn new() -> Self {
        TaskFold {
            task: None,
            message: None,
            artifacts: HashMap::new(),
            error: None,
            frames: FrameDecoder::new(Format::Auto),
        }
    }

    /// The same fold with other framing limits (`maxEventBytes`).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.frames = self.frames.with_limits(limits);
        self
    }

    /// Reads a chunk of the stream (SSE or NDJSON of JSON-RPC responses, or of bare results),
    /// split anywhere.
    ///
    /// # Errors
    ///
    /// The framing errors (`INVALID_UTF8`, `EVENT_TOO_LARGE`; fatal, as for every decoder), and
    /// `INVALID_JSON` for an event that is not JSON (that event is skipped; the fold goes on).
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.read(|frames, on_frame| frames.push(chunk, on_frame))
    }

    /// Ends the stream (an event without its closing blank line is read).
    ///
    /// # Errors
    ///
    /// As for [`push`](TaskFold::push).
    pub fn finish(&mut self) -> Result<()> {
        self.read(|frames, on_frame| frames.finish(on_frame))
    }

    /// Runs `decode` (a push or a finish of the frame decoder) with each frame folded; the
    /// first event that was not JSON is the error, once the rest is read.
    fn read(
        &mut self,
        decode: impl FnOnce(&mut FrameDecoder, &mut dyn FnMut(Frame<'_>) -> Result<()>) -> Result<()>,
    ) -> Result<()> {
        let mut bad = None;
        let Self {
            frames,
            task,
            message,
            artifacts,
            error,
        } = self;
        let mut state = State {
            task,
            message,
            artifacts,
            error,
        };
        decode(frames, &mut |frame| {
            state.payload(frame.data(), frame.offset(), &mut bad);
            Ok(())
        })?;
        bad.map_or(Ok(()), Err)
    }

    /// Folds one result (a 1.0 `StreamResponse`, or a 0.3 result with its `kind`).
    pub fn push_result(&mut self, result: Value) {
        State {
            task: &mut self.task,
            message: &mut self.message,
            artifacts: &mut self.artifacts,
            error: &mut self.error,
        }
        .result(result);
    }

    /// The task as it stands (`None` before any task event, or when the answer is a message).
    pub fn task(&self) -> Option<&Map<String, Value>> {
        self.task.as_ref()
    }

    /// The message the stream answered with instead of a task.
    pub fn message(&self) -> Option<&Value> {
        self.message.as_ref().filter(|_| self.task.is_none())
    }

    /// The SSE id of the last event read (the `id` field persists from event to event), or
    /// `None` while there was none (and for NDJSON).
    pub fn last_event_id(&self) -> Option<&str> {
        self.frames.last_event_id()
    }

    /// The JSON-RPC `error` object the stream ended with, if any.
    pub fn error(&self) -> Option<&Value> {
        self.error.as_ref()
    }

    /// The task with at most `history_length` of its latest history messages (`Some(0)`: none;
    /// `None`: all) — the `GetTask` / `tasks/get` and `CancelTask` result.
    pub fn task_result(&self, history_length: Option<u32>) -> Option<Value> {
        let mut task = self.task.clone()?;
        if let Some(n) = history_length {
            let keep = usize::try_from(n).unwrap_or(usize::MAX);
            match task.get_mut("history") {
                Some(Value::Array(history)) if keep == 0 => {
                    history.clear();
                    task.remove("history");
                }
                Some(Value::Array(history)) if history.len() > keep => {
                    history.drain(..history.len() - keep);
                }
                _ => {}
            }
        }
        Some(Value::Object(task))
    }

    /// Puts `messages` (A2A messages) before the task's history: the conversation before what
    /// the log holds. Nothing happens before the log made a task.
    pub fn prepend_history(&mut self, messages: Vec<Value>) {
        if messages.is_empty() {
            return;
        }
        if let Some(task) = self.task.as_mut() {
            history(task).splice(0..0, messages);
        }
    }

    /// The task's `id` and `contextId`, once the log made a task.
    pub fn task_ids(&self) -> Option<(String, Option<String>)> {
        let task = self.task.as_ref()?;
        let id = task.get("id")?.as_str()?.to_owned();
        let context = task
            .get("contextId")
            .and_then(Value::as_str)
            .map(str::to_owned);
        Some((id, context))
    }

    /// The `SendMessage` / `message/send` result: in 1.0 `{"task": …}` or `{"message": …}`; in
    /// 0.3 the task or message itself (with its `kind`). `None` before the stream said anything.
    pub fn send_message_result(
        &self,
        version: A2aVersion,
        history_length: Option<u32>,
    ) -> Option<Value> {
        let (key, answer) = match self.task_result(history_length) {
            Some(task) => ("task", task),
            None => ("message", self.message.clone()?),
        };
        Some(match version {
            A2aVersion::V1_0 => {
                let mut wrapper = Map::new();
                wrapper.insert(key.to_string(), answer);
                Value::Object(wrapper)
            }
            _ => answer,
        })
    }
}

/// The fold's state, borrowed apart from its frame decoder.
struct State<'a> {
    task: &'a mut Option<Map<String, Value>>,
    message: &'a mut Option<Value>,
    artifacts: &'a mut HashMap<String, usize>,
    error: &'a mut Option<Value>,
}

impl State<'_> {
    /// Whether the answer is settled: a JSON-RPC error, a message outside a task, or a task in
    /// a terminal state. Nothing read after that changes it.
    fn ended(&self) -> bool {
        self.error.is_some()
            || (self.task.is_none() && self.message.is_some())
            || self.task.as_ref().is_some_and(|t| {
                matches!(
                    t.get("status")
                        .and_then(|s| s.get("state"))
                        .and_then(Value::as_str),
                    Some(
                        "TASK_STATE_COMPLETED"
                            | "TASK_STATE_FAILED"
                            | "TASK_STATE_CANCELED"
                            | "TASK_STATE_REJECTED"
                            | "completed"
                            | "failed"
                            | "canceled"
                            | "rejected"
                    )
                )
            })
    }

    fn payload(&mut self, data: &str, offset: u64, bad: &mut Option<Error>) {
        if data.is_empty() || data == "[DONE]" || self.ended() {
            return;
        }
        let parsed = crate::protocol::parse_repairing(data, |t| serde_json::from_str::<Value>(t));
        let Ok(Value::Object(mut envelope)) = parsed else {
            bad.get_or_insert_with(|| {
                Error::new(
                    ErrorCode::InvalidJson,
                    "An A2A stream event is not a JSON object.",
                )
                .with_offset(offset)
            });
            return;
        };
        if envelope.get("jsonrpc").is_some() {
            if let Some(error) = envelope.remove("error") {
                *self.error = Some(error);
            } else if let Some(result) = envelope.remove("result") {
                self.result(result);
            }
        } else {
            self.result(Value::Object(envelope));
        }
    }

    fn result(&mut self, result: Value) {
        let Value::Object(mut result) = result else {
            return;
        };
        if self.ended() {
            return;
        }
        // 0.3: the result is the object, named by `kind`; 1.0: a one-key `StreamResponse`.
        let (kind, body) = match result.get("kind").and_then(Value::as_str) {
            Some("task") => ("task", result),
            Some("message") => ("message", result),
            Some("status-update") => ("statusUpdate", result),
            Some("artifact-update") => ("artifactUpdate", result),
            Some(_) => return,
            None => match ["task", "message", "statusUpdate", "artifactUpdate"]
                .into_iter()
                .find_map(|k| result.remove(k).map(|v| (k, v)))
            {
                Some((kind, Value::Object(body))) => (kind, body),
                _ => return,
            },
        };
        match kind {
            "task" => self.replace_task(body),
            "message" => match self.task.as_mut() {
                // A message within a task's stream is part of its history.
                Some(task) => history(task).push(Value::Object(body)),
                None => *self.message = Some(Value::Object(body)),
            },
            "statusUpdate" => self.status(body),
            _ => self.artifact(body),
        }
    }

    fn replace_task(&mut self, task: Map<String, Value>) {
        self.artifacts.clear();
        if let Some(Value::Array(list)) = task.get("artifacts") {
            for (i, a) in list.iter().enumerate() {
                if let Some(id) = a.get("artifactId").and_then(Value::as_str) {
                    self.artifacts.insert(id.to_string(), i);
                }
            }
        }
        *self.task = Some(task);
    }

    /// The task events `body` belongs to, made from its ids when no `task` came first (as the
    /// SDK's `ensure_task` does).
    fn task_for<'t>(
        task: &'t mut Option<Map<String, Value>>,
        body: &Map<String, Value>,
    ) -> &'t mut Map<String, Value> {
        task.get_or_insert_with(|| {
            let mut task = Map::new();
            for (from, to) in [("taskId", "id"), ("contextId", "contextId")] {
                if let Some(v) = body.get(from) {
                    task.insert(to.to_string(), v.clone());
                }
            }
            if body.get("kind").is_some() {
                task.insert("kind".to_string(), Value::from("task"));
            }
            task.insert("status".to_string(), Value::Object(Map::new()));
            task
        })
    }

    fn status(&mut self, mut body: Map<String, Value>) {
        let task = Self::task_for(self.task, &body);
        let previous = task
            .get_mut("status")
            .and_then(Value::as_object_mut)
            .and_then(|s| s.remove("message"));
        if let Some(previous) = previous {
            history(task).push(previous);
        }
        if let Some(Value::Object(metadata)) = body.remove("metadata") {
            if !metadata.is_empty() {
                merge(task, "metadata", metadata);
            }
        }
        if let Some(status) = body.remove("status") {
            task.insert("status".to_string(), status);
        }
    }

    fn artifact(&mut self, mut body: Map<String, Value>) {
        let append = body.get("append").and_then(Value::as_bool) == Some(true);
        let Some(Value::Object(artifact)) = body.remove("artifact") else {
            return;
        };
        let id = artifact
            .get("artifactId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let found = self.artifacts.get(&id).copied();
        let task = Self::task_for(self.task, &body);
        let list = match task
            .entry("artifacts")
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(list) => list,
            other => {
                *other = Value::Array(Vec::new());
                match other {
                    Value::Array(list) => list,
                    _ => return,
                }
            }
        };
        match (found.and_then(|i| list.get_mut(i)), append) {
            (Some(Value::Object(existing)), true) => {
                let mut artifact = artifact;
                if let Some(Value::Array(parts)) = artifact.remove("parts") {
                    match existing.get_mut("parts") {
                        Some(Value::Array(have)) => have.extend(parts),
                        _ => {
                            existing.insert("parts".to_string(), Value::Array(parts));
                        }
                    }
                }
                if let Some(Value::Object(metadata)) = artifact.remove("metadata") {
                    if !metadata.is_empty() {
                        merge(existing, "metadata", metadata);
                    }
                }
            }
            (Some(existing), false) => *existing = Value::Object(artifact),
            _ => {
                self.artifacts.insert(id, list.len());
                list.push(Value::Object(artifact));
            }
        }
    }
}

/// The task's `history` list (made when absent).
fn history(task: &mut Map<String, Value>) -> &mut Vec<Value> {
    let slot = task
        .entry("history")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    match slot {
        Value::Array(list) => list,
        _ => unreachable!("made an array above"),
    }
}

/// Merges `entries` into the object at `key` of `into`, key by key (replacing a non-object).
fn merge(into: &mut Map<String, Value>, key: &str, entries: Map<String, Value>) {
    let slot = into.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    if let Value::Object(map) = slot {
        map.extend(entries);
    }
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
