//! AG-UI 1.0 events → Agent API events: [`AgUiDecoder`], the first stage of
//! [`Translator`](crate::translate::Translator) `from: "ag-ui"`. Events go through the
//! `@ag-ui/client` pipeline first ([`Client`]: compatibility, enforcement, chunk expansion,
//! verification), so chunk events arrive expanded and a stream the client rejects ends the run.
//!
//! | AG-UI | Agent API |
//! |---|---|
//! | `RUN_STARTED` | response `created` then `in_progress` (`id` = `runId`, `session_id` = `threadId`) |
//! | `TEXT_MESSAGE_START` / `_CONTENT` / `_END` | a `message` (role `user`, `system` for `system` and `developer`, else `assistant`): text part 0 deltas, then completed |
//! | `REASONING_MESSAGE_START` / `_CONTENT` / `_END` | a `reasoning` message, the same way |
//! | `TOOL_CALL_START` / `_ARGS` / `_END` | a `function_call` message (id: `parentMessageId` when no other message has it, else the call id): data part 0 `{call_id, name, arguments}`, `{arguments}` deltas, then completed |
//! | `TOOL_CALL_RESULT` | a completed `function_call_output` message: `{call_id, output}` (parts as JSON) |
//! | `CUSTOM` `agent-api.content` (agentwire's encoder) | the content part it carries |
//! | `RUN_FINISHED` | response `completed` (`incomplete` for an interrupt, its interrupts in `interrupts`; `canceled` for `cancelled`), usage summed, `output` the completed messages |
//! | `RUN_ERROR` / a stream the client rejects | response `failed` with `{code, message}` |
//! | state, messages and activity snapshots and deltas, steps, other `CUSTOM`, `RAW`, encrypted values, subagent events | not carried: a `NOT_CARRIED` warning naming each event type once |

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Changes, Client, Content as AgUiContent, Event, RunFinishedOutcome, TokenUsage};
use crate::protocol::{
    AgentResponse, Content, ContentBody, ErrorInfo, Event as ApiEvent, JsonMap, Message,
    MessageType, Role, RunStatus,
};
use crate::{Warning, WarningCode};

/// A message of the run as the Agent API sees it.
#[derive(Debug)]
struct Open {
    /// The Agent API message id.
    id: String,
    message_type: MessageType,
    role: Role,
    /// For a call: its id and name.
    call: Option<(String, String)>,
    /// Parts carried by `CUSTOM` events while it was open, for its completed value.
    parts: Vec<Content>,
    /// The text (or a call's arguments) so far.
    text: String,
}

/// Reads AG-UI events (one JSON payload at a time) and yields the Agent API events they mean.
/// Tolerant as `@ag-ui/client` is: what it warns about is a warning here; a stream it rejects
/// fails the run.
#[derive(Debug, Default)]
pub struct AgUiDecoder {
    client: Client,
    changes: Changes,
    started: bool,
    ended: bool,
    run_id: Option<String>,
    thread_id: Option<String>,
    /// Open messages and calls, by AG-UI message id or tool-call id.
    open: HashMap<String, Open>,
    /// Agent API message ids used so far, each with the next number to try when it is wanted
    /// again (so that a hostile stream restarting one id costs linear time, not quadratic).
    used: HashMap<String, u64>,
    /// The completed messages, for the final response's `output`.
    output: Vec<Message>,
    /// Event types already reported as not carried.
    reported: HashSet<&'static str>,
}

impl AgUiDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        AgUiDecoder {
            client: Client::new().with_delivery(true),
            ..AgUiDecoder::default()
        }
    }

    /// Whether the run ended (`RUN_FINISHED`, `RUN_ERROR`, or a rejected stream).
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Decodes one payload, appending Agent API events to `out` and problems to `warnings`.
    pub fn decode(&mut self, payload: &str, out: &mut Vec<ApiEvent>, warnings: &mut Vec<Warning>) {
        if self.ended {
            return;
        }
        let rejected = self.client.push_str(payload, &mut self.changes).err();
        warnings.append(&mut self.changes.warnings);
        for event in std::mem::take(&mut self.changes.delivered) {
            self.event(event, out, warnings);
        }
        self.changes.clear();
        if let Some(error) = rejected {
            self.start(out);
            let mut r = self.response();
            r.failed(ErrorInfo::new(error.code().as_str(), error.message()));
            out.push(ApiEvent::Response(r));
            self.ended = true;
        }
    }

    fn response(&self) -> AgentResponse {
        let mut r = AgentResponse::with_id(self.run_id.clone().unwrap_or_default(), 0);
        r.id.clone_from(&self.run_id);
        r.session_id.clone_from(&self.thread_id);
        r
    }

    /// `created` and `in_progress`, once.
    fn start(&mut self, out: &mut Vec<ApiEvent>) {
        if self.started {
            return;
        }
        self.started = true;
        let mut r = self.response();
        r.created();
        out.push(ApiEvent::Response(r.clone()));
        r.in_progress();
        out.push(ApiEvent::Response(r));
    }

    fn not_carried(&mut self, what: &'static str, warnings: &mut Vec<Warning>) {
        if self.reported.insert(what) {
            warnings.push(Warning::new(
                WarningCode::NotCarried,
                format!("{what} events have no Agent API equivalent and are not carried."),
            ));
        }
    }

    /// A fresh Agent API message id: `wanted` unless a message has it, else `fallback`, else
    /// `fallback` numbered (`…-2`, `…-3`): AG-UI lets a tool call name a parent message that a
    /// text message later takes, where the Agent API has two messages.
    fn message_id(&mut self, wanted: Option<&str>, fallback: &str) -> String {
        let free = |used: &HashMap<String, u64>, id: &str| !id.is_empty() && !used.contains_key(id);
        let id = match wanted.filter(|w| free(&self.used, w)) {
            Some(w) => w.to_owned(),
            None if free(&self.used, fallback) => fallback.to_owned(),
            None => {
                let mut n = self.used.get(fallback).copied().unwrap_or(2).max(2);
                let id = loop {
                    let id = format!("{fallback}-{n}");
                    n += 1;
                    if free(&self.used, &id) {
                        break id;
                    }
                };
                self.used.insert(fallback.to_owned(), n);
                id
            }
        };
        self.used.entry(id.clone()).or_insert(2);
        id
    }

    fn begin(&mut self, key: &str, open: Open, out: &mut Vec<ApiEvent>) {
        self.start(out);
        let mut m = Message::with_id(open.id.clone());
        m.message_type = open.message_type.clone();
        m.role = Some(open.role);
        m.in_progress();
        out.push(ApiEvent::Message(m));
        if let Some((call_id, name)) = &open.call {
            let data = call_data(call_id, name, "");
            let mut c =
                Content::decoded(&open.id, 0, ContentBody::Data { data: Some(data) }, false);
            c.in_progress();
            out.push(ApiEvent::Content(c));
        }
        self.open.insert(key.to_owned(), open);
    }

    /// Completes the message opened under `key` with its last part (`body`, whole).
    fn end(&mut self, key: &str, body: ContentBody, out: &mut Vec<ApiEvent>) {
        let Some(open) = self.open.remove(key) else {
            return;
        };
        let c = Content::decoded(&open.id, 0, body, false);
        out.push(ApiEvent::Content(c.clone()));
        let mut m = Message::with_id(open.id);
        m.message_type = open.message_type;
        m.role = Some(open.role);
        let mut parts = vec![c];
        parts.extend(open.parts);
        m.content = Some(parts);
        m.completed();
        out.push(ApiEvent::Message(m.clone()));
        self.output.push(m);
    }

    /// The text (or arguments) of what is open under `key`.
    fn whole_text(&self, key: &str) -> String {
        self.open
            .get(key)
            .map(|o| o.text.clone())
            .unwrap_or_default()
    }

    #[allow(clippy::too_many_lines)]
    fn event(&mut self, event: Event, out: &mut Vec<ApiEvent>, warnings: &mut Vec<Warning>) {
        match event {
            Event::RunStarted(e) => {
                if self.started {
                    return self.not_carried("A second RUN_STARTED", warnings);
                }
                self.run_id = Some(e.run_id);
                self.thread_id = Some(e.thread_id);
                self.start(out);
            }
            Event::TextMessageStart(e) => {
                let role = match e.role.map(super::TextMessageRole::as_str) {
                    Some("user") => Role::User,
                    Some("system" | "developer") => Role::System,
                    _ => Role::Assistant,
                };
                let id = self.message_id(Some(&e.message_id), &e.message_id);
                let open = Open {
                    id,
                    message_type: MessageType::Message,
                    role,
                    call: None,
                    parts: Vec::new(),
                    text: String::new(),
                };
                self.begin(&e.message_id, open, out);
            }
            Event::ReasoningMessageStart(e) => {
                let id = self.message_id(Some(&e.message_id), &e.message_id);
                let open = Open {
                    id,
                    message_type: MessageType::Reasoning,
                    role: Role::Assistant,
                    call: None,
                    parts: Vec::new(),
                    text: String::new(),
                };
                self.begin(&e.message_id, open, out);
            }
            Event::TextMessageContent(e) => self.text_delta(&e.message_id, e.delta, out),
            Event::ReasoningMessageContent(e) => self.text_delta(&e.message_id, e.delta, out),
            Event::TextMessageEnd(e) => {
                let text = self.whole_text(&e.message_id);
                let body = ContentBody::Text { text: Some(text) };
                self.end(&e.message_id, body, out);
            }
            Event::ReasoningMessageEnd(e) => {
                let text = self.whole_text(&e.message_id);
                let body = ContentBody::Text { text: Some(text) };
                self.end(&e.message_id, body, out);
            }
            Event::ToolCallStart(e) => {
                let fallback = e.tool_call_id.clone();
                let id = self.message_id(e.parent_message_id.as_deref(), &fallback);
                let open = Open {
                    id,
                    message_type: MessageType::FunctionCall,
                    role: Role::Assistant,
                    call: Some((e.tool_call_id.clone(), e.tool_call_name)),
                    parts: Vec::new(),
                    text: String::new(),
                };
                self.begin(&e.tool_call_id, open, out);
            }
            Event::ToolCallArgs(e) => {
                if let Some(open) = self.open.get_mut(&e.tool_call_id) {
                    open.text.push_str(&e.delta);
                    let mut data = JsonMap::new();
                    data.insert("arguments".into(), Value::String(e.delta));
                    let body = ContentBody::Data { data: Some(data) };
                    out.push(ApiEvent::Content(Content::decoded(&open.id, 0, body, true)));
                }
            }
            Event::ToolCallEnd(e) => {
                let Some((call_id, name)) =
                    self.open.get(&e.tool_call_id).and_then(|o| o.call.clone())
                else {
                    return;
                };
                let arguments = self.whole_text(&e.tool_call_id);
                let data = call_data(&call_id, &name, &arguments);
                self.end(&e.tool_call_id, ContentBody::Data { data: Some(data) }, out);
            }
            Event::ToolCallResult(e) => {
                let id =
                    self.message_id(Some(&e.message_id), &format!("{}_output", e.tool_call_id));
                let output = match e.content {
                    AgUiContent::Text(t) => Value::String(t),
                    AgUiContent::Parts(parts) => {
                        Value::String(serde_json::to_string(&parts).unwrap_or_default())
                    }
                };
                let open = Open {
                    id,
                    message_type: MessageType::FunctionCallOutput,
                    role: Role::Tool,
                    call: None,
                    parts: Vec::new(),
                    text: String::new(),
                };
                let key = format!("\u{0}result:{}", e.message_id);
                self.begin(&key, open, out);
                let mut data = JsonMap::new();
                data.insert("call_id".into(), Value::String(e.tool_call_id));
                data.insert("output".into(), output);
                self.end(&key, ContentBody::Data { data: Some(data) }, out);
            }
            Event::Custom(e) if e.name == super::CONTENT_EVENT_NAME => {
                self.carried_part(e.value, out, warnings);
            }
            Event::RunFinished(e) => {
                let mut r = self.response();
                r.status = match &e.outcome {
                    Some(RunFinishedOutcome::Interrupt { interrupts }) => {
                        // What the pause waits on, kept as the Agent API response's
                        // `interrupts` (AG-UI's shape), for every protocol to write its way.
                        if let Ok(list) = serde_json::to_value(interrupts) {
                            r.extra.insert("interrupts".into(), list);
                        }
                        RunStatus::Incomplete
                    }
                    Some(RunFinishedOutcome::Cancelled) => RunStatus::Canceled,
                    _ => RunStatus::Completed,
                };
                r.usage = e.usage.as_deref().and_then(usage);
                if let Some(result) = e.result.filter(|v| !v.is_null()) {
                    r.extra.insert("result".into(), result);
                }
                r.output = Some(std::mem::take(&mut self.output));
                self.start(out);
                out.push(ApiEvent::Response(r));
                self.ended = true;
            }
            Event::RunError(e) => {
                let mut r = self.response();
                let code = e.code.unwrap_or_else(|| "AGENT_ERROR".to_owned());
                r.failed(ErrorInfo::new(code, e.message));
                r.usage = e.usage.as_deref().and_then(usage);
                self.start(out);
                out.push(ApiEvent::Response(r));
                self.ended = true;
            }
            Event::ReasoningStart(_) | Event::ReasoningEnd(_) => {}
            // Expanded by the client before delivery.
            Event::TextMessageChunk(_)
            | Event::ToolCallChunk(_)
            | Event::ReasoningMessageChunk(_) => {}
            other => self.not_carried(other.event_type().as_str(), warnings),
        }
    }

    fn text_delta(&mut self, key: &str, delta: String, out: &mut Vec<ApiEvent>) {
        if let Some(open) = self.open.get_mut(key) {
            open.text.push_str(&delta);
            let body = ContentBody::Text { text: Some(delta) };
            out.push(ApiEvent::Content(Content::decoded(&open.id, 0, body, true)));
        }
    }

    /// A part agentwire's AG-UI encoder carried in a `CUSTOM` event: the Agent API content it
    /// holds, for a message of this run (announced first when it had no text).
    fn carried_part(&mut self, value: Value, out: &mut Vec<ApiEvent>, warnings: &mut Vec<Warning>) {
        // Read as the Agent API event it is (the reader every Agent API stream goes through).
        let content = match crate::protocol::parse_event(&value.to_string()) {
            Ok(ApiEvent::Content(c)) if c.msg_id.as_deref().is_some_and(|id| !id.is_empty()) => c,
            _ => {
                warnings.push(Warning::new(
                    WarningCode::InvalidEvent,
                    format!(
                        "A CUSTOM {} event without a content part was skipped.",
                        super::CONTENT_EVENT_NAME
                    ),
                ));
                return;
            }
        };
        let msg_id = content.msg_id.clone().unwrap_or_default();
        if !self.used.contains_key(&msg_id) {
            let open = Open {
                id: self.message_id(Some(&msg_id), &msg_id),
                message_type: MessageType::Message,
                role: Role::Assistant,
                call: None,
                parts: Vec::new(),
                text: String::new(),
            };
            let key = format!("\u{0}media:{msg_id}");
            self.begin(&key, open, out);
            out.push(ApiEvent::Content(content.clone()));
            let mut m = Message::with_id(msg_id);
            m.role = Some(Role::Assistant);
            m.content = Some(vec![content]);
            m.completed();
            self.open.remove(&key);
            out.push(ApiEvent::Message(m.clone()));
            self.output.push(m);
            return;
        }
        // Kept for the message's completed value (its text message is keyed by its id).
        if let Some(open) = self.open.get_mut(&msg_id) {
            open.parts.push(content.clone());
        }
        out.push(ApiEvent::Content(content));
    }
}

fn call_data(call_id: &str, name: &str, arguments: &str) -> JsonMap {
    let mut data = Map::new();
    data.insert("call_id".into(), Value::from(call_id));
    data.insert("name".into(), Value::from(name));
    data.insert("arguments".into(), Value::from(arguments));
    data
}

/// AG-UI's usage list as one Agent API usage object (counts summed).
fn usage(list: &[TokenUsage]) -> Option<JsonMap> {
    let mut sums: [(&str, Option<u64>); 3] = [
        ("input_tokens", None),
        ("output_tokens", None),
        ("total_tokens", None),
    ];
    for u in list {
        for (slot, n) in sums
            .iter_mut()
            .zip([u.input_tokens, u.output_tokens, u.total_tokens])
        {
            if let Some(n) = n {
                slot.1 = Some(slot.1.unwrap_or(0).saturating_add(n));
            }
        }
    }
    let map: JsonMap = sums
        .iter()
        .filter_map(|(k, v)| v.map(|n| ((*k).to_owned(), Value::from(n))))
        .collect();
    (!map.is_empty()).then_some(map)
}

#[cfg(test)]
mod tests {
    use crate::assembler::{AssemblerOptions, StreamAssembler};
    use crate::translate::Translator;
    use crate::Protocol;
    use serde_json::json;

    fn sse(events: &[serde_json::Value]) -> String {
        events.iter().map(|e| format!("data: {e}\n\n")).collect()
    }

    fn to_agent_api(input: &str) -> (serde_json::Value, Vec<String>, String) {
        let mut t = Translator::new(Protocol::AgUi, Protocol::AgentApi).unwrap();
        let mut out = Vec::new();
        for chunk in input.as_bytes().chunks(7) {
            out.extend(t.push(chunk).unwrap());
        }
        out.extend(t.finish().unwrap());
        let warnings = t.warnings().iter().map(|w| w.message.clone()).collect();
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        asm.push(&out).unwrap();
        asm.finish().unwrap();
        let text = String::from_utf8(out).unwrap();
        (asm.snapshot(), warnings, text)
    }

    #[test]
    fn a_run_with_chunks_a_call_its_result_and_text_becomes_agent_api_events() {
        let input = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t1","runId":"r1"}),
            json!({"type":"STATE_SNAPSHOT","snapshot":{"n":1}}),
            json!({"type":"STATE_DELTA","delta":[]}),
            json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m0","delta":"{\"city\":"}),
            json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c1","delta":"\"Oslo\"}"}),
            // The next event closes the chunked call (the client synthesizes its end).
            json!({"type":"TOOL_CALL_RESULT","messageId":"res1","toolCallId":"c1","content":"Rain"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Rain in "}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Oslo"}),
            json!({"type":"CUSTOM","name":"agent-api.content","value":{"object":"content","type":"image","index":1,"msg_id":"m1","image_url":"https://x/y.png","status":"completed","delta":false}}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"m1"}),
            json!({"type":"RUN_FINISHED","threadId":"t1","runId":"r1","usage":[{"inputTokens":3,"outputTokens":4},{"outputTokens":1}]}),
        ]);
        let (snapshot, warnings, text) = to_agent_api(&input);
        assert_eq!(snapshot["outcome"], "completed", "{text}");
        assert_eq!(snapshot["id"], "r1");
        assert_eq!(snapshot["session_id"], "t1");
        let output = snapshot["output"].as_array().unwrap();
        let types: Vec<_> = output.iter().map(|m| m["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["function_call", "function_call_output", "message"]);
        assert_eq!(output[0]["id"], "m0");
        assert_eq!(
            output[0]["content"][0]["data"],
            json!({"call_id":"c1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"})
        );
        assert_eq!(
            output[1]["content"][0]["data"],
            json!({"call_id":"c1","output":"Rain"})
        );
        assert_eq!(output[2]["content"][0]["text"], "Rain in Oslo");
        assert_eq!(output[2]["content"][1]["image_url"], "https://x/y.png");
        assert_eq!(
            snapshot["usage"],
            json!({"input_tokens":3,"output_tokens":5})
        );
        // What the Agent API has no place for is named, once per event type.
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("STATE_SNAPSHOT"), "{warnings:?}");
        assert!(warnings[1].starts_with("STATE_DELTA"), "{warnings:?}");
    }

    #[test]
    fn a_call_naming_a_parent_that_a_text_message_later_takes_stays_apart_from_it() {
        let input = sse(&[
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c0","toolCallName":"f","parentMessageId":"m1"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"m1"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c0","delta":"{}"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"c0"}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"m1"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}),
        ]);
        let (snapshot, _, text) = to_agent_api(&input);
        let output = snapshot["output"].as_array().unwrap();
        let ids: Vec<_> = output.iter().map(|m| m["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["m1", "m1-2"], "{text}");
        assert_eq!(output[0]["content"][0]["data"]["arguments"], "{}");
        assert_eq!(output[1]["content"][0]["text"], "Hi");
    }

    /// A hostile stream restarting one message id many times: every Agent API message keeps an
    /// id of its own, found in linear time (each restart does not rescan the numbers taken).
    #[test]
    fn an_id_restarted_many_times_gets_numbered_ids_in_linear_time() {
        let mut events = vec![json!({"type":"RUN_STARTED","threadId":"t","runId":"r"})];
        let restarts = 5_000;
        for _ in 0..restarts {
            events.push(json!({"type":"TEXT_MESSAGE_START","messageId":"m"}));
            events.push(json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}));
            events.push(json!({"type":"TEXT_MESSAGE_END","messageId":"m"}));
        }
        events.push(json!({"type":"RUN_FINISHED","threadId":"t","runId":"r"}));
        let mut d = super::AgUiDecoder::new();
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        for e in &events {
            d.decode(&e.to_string(), &mut out, &mut warnings);
        }
        let ids: std::collections::HashSet<_> = out
            .iter()
            .filter_map(|e| match e {
                crate::protocol::Event::Message(m) => Some(m.id.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(ids.len(), restarts);
        assert!(ids.contains("m") && ids.contains("m-2") && ids.contains(&format!("m-{restarts}")));
        // The numbers taken are remembered: the next one is found at once.
        assert_eq!(d.used.get("m"), Some(&(restarts as u64 + 1)));
    }

    #[test]
    fn errors_interrupts_cancels_and_rejected_streams_keep_their_outcome() {
        let start = json!({"type":"RUN_STARTED","threadId":"t","runId":"r"});
        let cases = [
            (
                json!({"type":"RUN_ERROR","message":"boom","code":"E1"}),
                "failed",
            ),
            (
                json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approve"}]}}),
                "incomplete",
            ),
            (
                json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"}}),
                "canceled",
            ),
            // Content for a message never started: the client rejects the stream.
            (
                json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}),
                "failed",
            ),
        ];
        for (last, outcome) in cases {
            let (snapshot, _, text) = to_agent_api(&sse(&[start.clone(), last.clone()]));
            assert_eq!(snapshot["outcome"], outcome, "{last} → {text}");
            if outcome == "incomplete" {
                assert_eq!(
                    snapshot["interrupts"],
                    json!([{"id":"i1","reason":"approve"}]),
                    "{snapshot}"
                );
            }
            if outcome == "failed" {
                assert!(
                    snapshot["error"]["message"]
                        .as_str()
                        .is_some_and(|m| !m.is_empty()),
                    "{snapshot}"
                );
            }
        }
        // Nothing is carried after the end.
        let (snapshot, _, _) = to_agent_api(&sse(&[
            start,
            json!({"type":"RUN_ERROR","message":"boom"}),
            json!({"type":"TEXT_MESSAGE_START","messageId":"late"}),
        ]));
        assert_eq!(snapshot["outcome"], "failed");
        assert_eq!(snapshot["output"], json!([]));
    }
}
