//! AG-UI output through the public API: the Translator (`agent-api → ag-ui`) on every reference
//! capture, split anywhere, assembled back with the AG-UI client pipeline
//! (`StreamAssembler`, protocol `ag-ui`, strict) into the Agent API run's messages; the builder
//! with the AG-UI encoder; `agent_request` (RunAgentInput → AgentRequest).
// The AG-UI and OpenAI/A2A streams are read by the full build only.
#![cfg(feature = "full")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fs;
use std::path::Path;

use agentwire::agui::{agent_request, AgUiEncoder};
use agentwire::assembler::{AssemblerOptions, Outcome, Protocol, StreamAssembler};
use agentwire::builder::{
    BuilderOptions, CompleteOptions, MessageOptions, ResponseBuilder, ToolCallOptions, ToolKind,
    ToolOutputOptions,
};
use agentwire::openai::{TranslateOptions, Translator};
use agentwire::protocol::{ContentType, ErrorInfo};
use serde_json::{json, Value};

fn captures() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference");
    let mut out = Vec::new();
    for entry in fs::read_dir(root.join("sse")).unwrap() {
        let path = entry.unwrap().path();
        out.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            fs::read(&path).unwrap(),
        ));
    }
    for entry in fs::read_dir(root.join("events")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".exclude_none.jsonl") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let sse: String = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| format!("data: {l}\n\n"))
            .collect();
        out.push((name, sse.into_bytes()));
    }
    out.sort();
    assert!(out.len() >= 20, "{} captures", out.len());
    out
}

fn translate_in(input: &[u8], cuts: &[usize]) -> Vec<u8> {
    // Fixed ids: a stream that does not open with a response would get fresh ones each time.
    let options = TranslateOptions::new()
        .with_thread_id("thr")
        .with_run_id("run");
    let mut t = Translator::with_options(Protocol::AgentApi, Protocol::AgUi, options).unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        out.extend(t.push(&input[at..cut]).unwrap());
        at = cut;
    }
    out.extend(t.push(&input[at..]).unwrap());
    out.extend(t.finish().unwrap());
    out
}

fn events(bytes: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(bytes).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"));
    text.split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| serde_json::from_str(f.strip_prefix("data: ").unwrap()).unwrap())
        .collect()
}

fn assemble(bytes: &[u8], protocol: Protocol, strict: bool) -> (Value, Outcome) {
    let mut asm = StreamAssembler::new(
        AssemblerOptions::new()
            .with_protocol(Some(protocol))
            .with_strict(strict),
    );
    for chunk in bytes.chunks(5) {
        asm.push(chunk).unwrap();
    }
    asm.finish().unwrap();
    (asm.snapshot(), asm.outcome())
}

/// The AG-UI messages an Agent API run's `output` becomes (the encoder's mapping).
fn ag_ui_messages_of(output: &Value) -> Value {
    let mut out = Vec::new();
    let s = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    };
    for m in output.as_array().into_iter().flatten() {
        let parts = m["content"].as_array().cloned().unwrap_or_default();
        let texts: Vec<&Value> = parts
            .iter()
            .filter(|p| p["type"] == "text" || p["type"] == "refusal")
            .collect();
        let joined: String = texts
            .iter()
            .map(|p| p["text"].as_str().or(p["refusal"].as_str()).unwrap_or(""))
            .collect();
        let data = parts
            .iter()
            .find(|p| p["type"] == "data")
            .map(|p| &p["data"]);
        match m["type"].as_str().unwrap_or("") {
            "message" | "error" if !texts.is_empty() => {
                let role = m["role"]
                    .as_str()
                    .filter(|r| matches!(*r, "user" | "system"))
                    .unwrap_or("assistant");
                out.push(json!({"id": m["id"], "role": role, "content": joined}));
            }
            "reasoning" if !texts.is_empty() => {
                out.push(json!({"id": m["id"], "role": "reasoning", "content": joined}));
            }
            "function_call" | "plugin_call" | "mcp_call" => {
                if let Some(d) = data {
                    out.push(json!({"id": m["id"], "role": "assistant", "toolCalls": [{
                        "id": d["call_id"], "type": "function",
                        "function": {"name": s(d.get("name")), "arguments": s(d.get("arguments"))}}]}));
                }
            }
            "function_call_output" | "plugin_call_output" | "mcp_call_output" => {
                if let Some(d) = data {
                    out.push(
                        json!({"id": m["id"], "role": "tool", "content": s(d.get("output")),
                        "toolCallId": d["call_id"]}),
                    );
                }
            }
            _ => {}
        }
    }
    Value::Array(out)
}

#[test]
fn every_capture_translates_to_a_verified_run_with_the_same_messages_at_any_split() {
    let mut compared = 0;
    for (name, input) in captures() {
        let whole = translate_in(&input, &[]);
        // Split at every point (small captures) or a spread of points, and at pairs of points.
        let n = input.len();
        let step = (n / 97).max(1);
        for cut in (1..n).step_by(step) {
            assert_eq!(translate_in(&input, &[cut]), whole, "{name} cut at {cut}");
        }
        for cut in (1..n).step_by(step * 7) {
            let other = (cut + n / 3).min(n);
            assert_eq!(
                translate_in(&input, &[cut, other]),
                whole,
                "{name} cuts {cut}, {other}"
            );
        }
        let evs = events(&whole);
        if evs.is_empty() {
            continue;
        }
        assert_eq!(evs[0]["type"], "RUN_STARTED", "{name}");
        let last = evs.last().unwrap()["type"].as_str().unwrap();
        assert!(
            last == "RUN_FINISHED" || last == "RUN_ERROR",
            "{name}: {last}"
        );
        let (snap, outcome) = assemble(&whole, Protocol::AgUi, true);
        assert!(
            snap.get("error").is_none_or(|e| e["source"] == "run"),
            "{name}: the client pipeline rejected the run: {snap}"
        );
        let (api, api_outcome) = assemble(&input, Protocol::AgentApi, false);
        if api_outcome == Outcome::Completed {
            assert_eq!(outcome, Outcome::Completed, "{name}");
            assert_eq!(
                snap["messages"],
                ag_ui_messages_of(&api["output"]),
                "{name}: messages"
            );
            compared += 1;
        }
    }
    assert!(compared >= 8, "{compared} completed runs compared");
}

fn build(encoder: Option<AgUiEncoder>, end: &str) -> Vec<u8> {
    let options = BuilderOptions::new().session_id("t1").response_id("r1");
    let mut rb = match encoder {
        Some(enc) => ResponseBuilder::with_encoder(options, Box::new(enc)).unwrap(),
        None => ResponseBuilder::new(options).unwrap(),
    };
    let mut out = rb.created().unwrap();
    let r = rb
        .message(MessageOptions::reasoning().id("m_think"))
        .unwrap();
    let c = rb.content(r, ContentType::Text).unwrap();
    out.extend(rb.delta_text(c, "Let me ").unwrap());
    out.extend(rb.delta_text(c, "think.").unwrap());
    out.extend(rb.complete_content(c).unwrap());
    out.extend(rb.complete_message(r).unwrap());
    let call = rb
        .tool_call(
            ToolCallOptions::new(ToolKind::Function, "call_1", "get_weather").message_id("m_call"),
        )
        .unwrap();
    out.extend(rb.tool_arguments(call, "{\"city\": ").unwrap());
    out.extend(rb.tool_arguments(call, "\"杭州\"}").unwrap());
    out.extend(rb.complete_tool_call(call).unwrap());
    out.extend(
        rb.tool_output(
            ToolOutputOptions::new(ToolKind::Function, "call_1", "Sunny").message_id("m_out"),
        )
        .unwrap(),
    );
    let m = rb.message(MessageOptions::new().id("m_text")).unwrap();
    let t = rb.content(m, ContentType::Text).unwrap();
    out.extend(rb.delta_text(t, "It is ").unwrap());
    out.extend(rb.delta_text(t, "sunny ☀️.").unwrap());
    match end {
        "failed" => out.extend(rb.failed(ErrorInfo::new("AGENT_ERROR", "boom")).unwrap()),
        "canceled" => out.extend(rb.canceled().unwrap()),
        _ => out.extend(
            rb.completed(CompleteOptions::new().close_open(true))
                .unwrap(),
        ),
    }
    out
}

#[test]
fn the_builder_emits_what_the_translator_makes_of_its_agent_api_output() {
    for end in ["completed", "failed", "canceled"] {
        let direct = build(
            Some(AgUiEncoder::sse().with_thread_id("thr").with_run_id("run")),
            end,
        );
        let translated = translate_in(&build(None, end), &[]);
        assert_eq!(
            String::from_utf8(direct.clone()).unwrap(),
            String::from_utf8(translated).unwrap(),
            "{end}"
        );
        let (snap, outcome) = assemble(&direct, Protocol::AgUi, true);
        let expected_outcome = match end {
            "failed" => Outcome::Failed,
            "canceled" => Outcome::Canceled,
            _ => Outcome::Completed,
        };
        assert_eq!(outcome, expected_outcome, "{end}");
        assert_eq!(snap["threadId"], "thr");
        assert_eq!(snap["runId"], "run");
        assert_eq!(
            snap["messages"],
            json!([
                {"id": "m_think", "role": "reasoning", "content": "Let me think."},
                {"id": "m_call", "role": "assistant", "toolCalls": [{"id": "call_1", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"city\": \"杭州\"}"}}]},
                {"id": "m_out", "role": "tool", "content": "Sunny", "toolCallId": "call_1"},
                {"id": "m_text", "role": "assistant", "content": "It is sunny ☀️."},
            ]),
            "{end}"
        );
    }
}

#[test]
fn translator_options_name_the_run() {
    let input = &captures()
        .into_iter()
        .find(|(n, _)| n == "process_text.sse")
        .unwrap()
        .1;
    let options = TranslateOptions::new()
        .with_thread_id("thr")
        .with_run_id("run");
    let mut t = Translator::with_options(Protocol::AgentApi, Protocol::AgUi, options).unwrap();
    let mut out = t.push(input).unwrap();
    out.extend(t.finish().unwrap());
    let evs = events(&out);
    assert_eq!(
        evs[0],
        json!({"type": "RUN_STARTED", "threadId": "thr", "runId": "run", "protocolVersion": "1.0"})
    );
    assert_eq!(
        evs.last().unwrap(),
        &json!({"type": "RUN_FINISHED", "threadId": "thr", "runId": "run"})
    );
    // AG-UI is a source too.
    assert!(Translator::new(Protocol::AgUi, Protocol::AgentApi).is_ok());
}

#[test]
fn run_agent_input_maps_as_the_reference_adapter_does() {
    let body = json!({
        "threadId": "thr-1", "runId": "run-1", "parentRunId": "run-0",
        "state": {"n": 1}, "forwardedProps": {"userId": "camel"},
        "context": [{"description": "tz", "value": "UTC"}],
        "tools": [{"name": "f", "description": "d"}],
        "messages": [
            {"id": "d", "role": "developer", "content": "Use metric."},
            {"id": "u", "role": "user", "content": [
                {"type": "text", "text": "see"},
                {"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/png"}},
                {"type": "audio", "source": {"type": "url", "value": "https://x/a.wav", "mimeType": "audio/wav"}},
                {"type": "document", "source": {"type": "url", "value": "https://x/f.pdf"}, "metadata": {"filename": "f.pdf"}}]},
            {"id": "a", "role": "assistant", "content": "Checking.", "toolCalls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}]},
            {"id": "t", "role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "ok"}]},
            {"id": "e", "role": "tool", "toolCallId": "c2", "content": "", "error": "boom"},
            {"id": "r", "role": "reasoning", "content": "hmm"},
            {"id": "x", "role": "activity", "activityType": "plan", "content": {}},
            {"id": "empty", "role": "assistant"},
        ],
    });
    let request = agent_request(&body.to_string()).unwrap();
    let v: Value = serde_json::from_str(&request.to_json()).unwrap();
    assert_eq!(
        (&v["id"], &v["session_id"], &v["user_id"], &v["stream"]),
        (
            &json!("run-1"),
            &json!("thr-1"),
            &json!("camel"),
            &json!(true)
        )
    );
    assert_eq!(v["parent_run_id"], "run-0");
    assert_eq!(v["state"], json!({"n": 1}));
    assert_eq!(v["context"], json!([{"description": "tz", "value": "UTC"}]));
    assert_eq!(
        v["tools"][0]["function"]["parameters"],
        json!({"type": "object", "properties": {}, "required": []})
    );
    let kinds: Vec<(String, String, String)> = v["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["id"].as_str().unwrap().to_owned(),
                m["type"].as_str().unwrap().to_owned(),
                m["role"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expect = [
        ("d", "message", "system"),
        ("u", "message", "user"),
        ("a", "message", "assistant"),
        ("a", "function_call", "assistant"),
        ("t", "function_call_output", "tool"),
        ("e", "function_call_output", "tool"),
        ("r", "reasoning", "assistant"),
    ];
    assert_eq!(
        kinds,
        expect
            .iter()
            .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
            .collect::<Vec<_>>()
    );
    let user = &v["input"][1]["content"];
    assert_eq!(user[1]["image_url"], "data:image/png;base64,AAAA");
    assert_eq!(
        (&user[2]["data"], &user[2]["format"]),
        (&json!("https://x/a.wav"), &json!("wav"))
    );
    assert_eq!(
        (&user[3]["type"], &user[3]["file_url"], &user[3]["filename"]),
        (&json!("file"), &json!("https://x/f.pdf"), &json!("f.pdf"))
    );
    assert_eq!(
        v["input"][3]["content"][0]["data"],
        json!({"call_id": "c1", "name": "f", "arguments": "{}"})
    );
    assert_eq!(
        v["input"][4]["content"][0]["data"]["output"],
        "[{\"type\":\"text\",\"text\":\"ok\"}]"
    );
    assert_eq!(v["input"][5]["content"][0]["data"]["output"], "error: boom");

    for (body, code, field) in [
        (r#"{"runId":"r"}"#, "INVALID_REQUEST", Some("threadId")),
        (r#"{"threadId":"t"}"#, "INVALID_REQUEST", Some("runId")),
        (
            r#"{"threadId":1,"runId":"r"}"#,
            "INVALID_REQUEST",
            Some("threadId"),
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user"}]}"#,
            "INVALID_REQUEST",
            Some("messages.0.content"),
        ),
        ("[1]", "INVALID_REQUEST", None),
        ("{", "INVALID_JSON", None),
    ] {
        let e = agent_request(body).unwrap_err();
        assert_eq!(e.code().as_str(), code, "{body}: {e}");
        assert_eq!(e.field(), field, "{body}: {e}");
    }
}
