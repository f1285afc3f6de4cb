//! Writes agentwire's OpenAI Responses and A2A streams for the reference check of the adapters
//! (`scripts/reference/check_adapters.sh`): every reference capture in
//! `tests/fixtures/reference/sse/` and a few builder runs (tool calls of each kind, reasoning,
//! refusal, failure, cancellation), each translated from the Agent API.
//!
//! Usage: `cargo run --example adapter_scenarios -- OUT_DIR` writes `OUT_DIR/<name>.a2a.sse`
//! (A2A 0.3), `OUT_DIR/<name>.a2a1.sse` (A2A 1.0), `OUT_DIR/<name>.responses.sse`, the
//! non-streamed `SendMessage` answer of each A2A run (`<name>.a2a.send.json`,
//! `<name>.a2a1.send.json`: the stream folded by `TaskFold`), agent cards, and
//! `rpc-errors.json` (malformed A2A JSON-RPC requests with agentwire's error answers).
//!
//! `cargo run --example adapter_scenarios -- fold DIR` reads every `DIR/*.sdk.sse` (streams
//! made by another A2A implementation) and writes `<name>.fold.json` (the `TaskFold` task) and
//! `<name>.assembled.json` (the `StreamAssembler` snapshot and outcome).

use std::error::Error as StdError;
use std::fs;
use std::path::Path;

use agentwire::a2a::{read_call, A2aVersion, AgentDescription, Provider, Skill, TaskFold};
use agentwire::assembler::{AssemblerOptions, Protocol, StreamAssembler};
use agentwire::builder::{
    BuilderOptions, CompleteOptions, MessageOptions, ResponseBuilder, ToolCallOptions, ToolKind,
    ToolOutputOptions,
};
use agentwire::openai::{TranslateOptions, Translator};
use agentwire::protocol::{ContentType, ErrorInfo};

type Res<T> = Result<T, Box<dyn StdError>>;

fn run(end: &str) -> Res<Vec<u8>> {
    let mut rb = ResponseBuilder::new(BuilderOptions::new().session_id("ctx_1"))?;
    let mut out = rb.created()?;
    let r = rb.message(MessageOptions::reasoning())?;
    let c = rb.content(r, ContentType::Text)?;
    out.extend(rb.delta_text(c, "Thinking")?);
    out.extend(rb.complete_content(c)?);
    out.extend(rb.complete_message(r)?);
    for (n, kind) in [ToolKind::Function, ToolKind::Plugin, ToolKind::Mcp]
        .into_iter()
        .enumerate()
    {
        let mut options = ToolCallOptions::new(kind, format!("call_{n}"), "get_weather");
        if kind == ToolKind::Mcp {
            options = options.server_label("weather");
        }
        let call = rb.tool_call(options)?;
        out.extend(rb.tool_arguments(call, "{\"city\": ")?);
        out.extend(rb.tool_arguments(call, "\"杭州\"}")?);
        out.extend(rb.complete_tool_call(call)?);
        out.extend(rb.tool_output(
            ToolOutputOptions::new(kind, format!("call_{n}"), "Sunny").name("get_weather"),
        )?);
    }
    let m = rb.message(MessageOptions::new())?;
    let t = rb.content(m, ContentType::Text)?;
    out.extend(rb.delta_text(t, "It is ")?);
    out.extend(rb.delta_text(t, "sunny ☀️.")?);
    out.extend(rb.complete_content(t)?);
    let f = rb.content(m, ContentType::Refusal)?;
    out.extend(rb.delta_text(f, "No.")?);
    out.extend(rb.complete_content(f)?);
    out.extend(rb.complete_message(m)?);
    match end {
        "failed" => out.extend(rb.failed(ErrorInfo::new("AGENT_ERROR", "boom"))?),
        "canceled" => out.extend(rb.canceled()?),
        _ => out.extend(rb.completed(CompleteOptions::new())?),
    }
    Ok(out)
}

/// A run whose answer carries an image, a file by URL, a file by bytes, audio and data.
fn media() -> Vec<u8> {
    let parts = serde_json::json!([
        {"object": "content", "type": "text", "index": 0, "text": "Here:", "status": "completed"},
        {"object": "content", "type": "image", "index": 1, "image_url": "https://example.com/a.png", "status": "completed"},
        {"object": "content", "type": "file", "index": 2, "file_url": "https://example.com/r.pdf", "filename": "r.pdf", "status": "completed"},
        {"object": "content", "type": "file", "index": 3, "file_data": "aGVsbG8=", "filename": "h.txt", "status": "completed"},
        {"object": "content", "type": "audio", "index": 4, "data": "https://example.com/s.mp3", "format": "mp3", "status": "completed"},
        {"object": "content", "type": "data", "index": 5, "data": {"k": [1, 2]}, "status": "completed"},
    ]);
    let events = [
        serde_json::json!({"sequence_number": 0, "object": "response", "id": "resp_media", "status": "created", "session_id": "ctx_m"}),
        serde_json::json!({"sequence_number": 1, "object": "message", "id": "msg_media", "type": "message", "role": "assistant", "status": "completed", "content": parts}),
        serde_json::json!({"sequence_number": 2, "object": "response", "id": "resp_media", "status": "completed", "session_id": "ctx_m"}),
    ];
    events
        .iter()
        .map(|e| format!("data: {e}\n\n"))
        .collect::<String>()
        .into_bytes()
}

fn translate(input: &[u8], to: Protocol) -> Res<Vec<u8>> {
    let options = TranslateOptions::new().with_rpc_id(serde_json::json!("req-1"));
    let mut t = Translator::with_options(Protocol::AgentApi, to, options)?;
    let mut out = t.push(input)?;
    out.extend(t.finish()?);
    Ok(out)
}

fn main() -> Res<()> {
    let out_dir = std::env::args()
        .nth(1)
        .ok_or("usage: adapter_scenarios OUT_DIR | fold DIR")?;
    if out_dir == "fold" {
        let dir = std::env::args()
            .nth(2)
            .ok_or("usage: adapter_scenarios fold DIR")?;
        return fold_dir(Path::new(&dir));
    }
    let out_dir = Path::new(&out_dir);
    fs::create_dir_all(out_dir)?;
    let mut inputs = Vec::new();
    for entry in fs::read_dir("tests/fixtures/reference/sse")? {
        let path = entry?.path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("capture")
            .to_owned();
        inputs.push((name, fs::read(&path)?));
    }
    for end in ["completed", "failed", "canceled"] {
        inputs.push((format!("builder_{end}"), run(end)?));
    }
    inputs.push(("media".to_owned(), media()));
    for (name, input) in &inputs {
        for (version, suffix) in [(A2aVersion::V0_3, "a2a"), (A2aVersion::V1_0, "a2a1")] {
            let protocol = match version {
                A2aVersion::V1_0 => Protocol::A2a,
                _ => Protocol::A2a03,
            };
            let stream = translate(input, protocol)?;
            // The non-streamed answer: the same stream, folded.
            let mut fold = TaskFold::new();
            fold.push(&stream)?;
            fold.finish()?;
            let answer = fold
                .send_message_result(version, None)
                .ok_or("no A2A answer")?;
            fs::write(
                out_dir.join(format!("{name}.{suffix}.send.json")),
                serde_json::to_vec(&answer)?,
            )?;
            fs::write(out_dir.join(format!("{name}.{suffix}.sse")), stream)?;
        }
        fs::write(
            out_dir.join(format!("{name}.responses.sse")),
            translate(input, Protocol::OpenAiResponses)?,
        )?;
    }
    // Agent cards of both versions from one description.
    let mut agent = AgentDescription::new(
        "Weather",
        "Forecasts for any city",
        "1.2.0",
        "https://weather.example/a2a",
    );
    agent.provider = Some(Provider {
        organization: "Example".into(),
        url: "https://example.com".into(),
    });
    agent.documentation_url = Some("https://weather.example/docs".into());
    agent.skills.push(Skill {
        id: "forecast".into(),
        name: "Forecast".into(),
        description: "The weather of the next days".into(),
        tags: vec!["weather".into()],
        examples: vec!["Weather in Hangzhou?".into()],
        ..Skill::default()
    });
    let bare = AgentDescription::new("Bare", "No skills", "0.1.0", "http://127.0.0.1:1/a2a");
    for (name, card) in [
        ("card.a2a1.json", agent.card(A2aVersion::V1_0)),
        ("card.a2a.json", agent.card(A2aVersion::V0_3)),
        ("card-bare.a2a1.json", bare.card(A2aVersion::V1_0)),
        ("card-bare.a2a.json", bare.card(A2aVersion::V0_3)),
        ("card.both.json", agent.card_for_both()),
        ("card-bare.both.json", bare.card_for_both()),
    ] {
        fs::write(out_dir.join(name), serde_json::to_vec(&card)?)?;
    }
    fs::write(out_dir.join("rpc-errors.json"), rpc_errors()?)?;
    println!("wrote {} scenarios to {}", inputs.len(), out_dir.display());
    Ok(())
}

/// Malformed A2A JSON-RPC requests (body, `A2A-Version` header) and agentwire's answers.
fn rpc_errors() -> Res<Vec<u8>> {
    let send1 =
        r#""params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#;
    let send03 = r#""params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}]}}"#;
    let cases: Vec<(String, Option<&str>)> = vec![
        ("{".into(), Some("1.0")),
        ("not json".into(), None),
        ("[]".into(), Some("1.0")),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}]"#.into(), Some("1.0")),
        ("7".into(), Some("1.0")),
        (r#"{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"t"}}"#.into(), Some("1.0")),
        (r#"{"id":1,"method":"GetTask","params":{"id":"t"}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":true,"method":"GetTask","params":{"id":"t"}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":1}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":1,"method":"NoSuchMethod","params":{}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":"x","method":"tasks/list","params":{}}"#.into(), None),
        (format!(r#"{{"jsonrpc":"2.0","id":2,"method":"SendMessage",{send1}}}"#), None),
        (format!(r#"{{"jsonrpc":"2.0","id":2,"method":"SendMessage",{send1}}}"#), Some("0.3")),
        (format!(r#"{{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage",{send1}}}"#), None),
        (format!(r#"{{"jsonrpc":"2.0","id":2,"method":"SendMessage",{send1}}}"#), Some("2.0")),
        (r#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"t"}}"#.into(), None),
        (r#"{"jsonrpc":"2.0","id":3,"method":"CancelTask","params":{"id":"t"}}"#.into(), Some("0.3")),
        (format!(r#"{{"jsonrpc":"2.0","id":4,"method":"message/send",{send03}}}"#), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"id":"t"}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":5,"method":"SendMessage","params":{}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":5,"method":"SendMessage","params":{"message":"hi"}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":5,"method":"SendMessage","params":[1]}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":5,"method":"GetTask","params":{"id":7}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":5,"method":"GetTask","params":{"id":"t","historyLength":"x"}}"#.into(), Some("1.0")),
        (r#"{"jsonrpc":"2.0","id":6,"method":"message/send","params":{}}"#.into(), None),
        (r#"{"jsonrpc":"2.0","id":6,"method":"message/send","params":{"message":5}}"#.into(), None),
    ];
    let mut out = Vec::new();
    for (body, header) in cases {
        let error = read_call(&body, header)
            .err()
            .ok_or("a malformed request was accepted")?;
        out.push(serde_json::json!({
            "body": body,
            "header": header,
            "answer": serde_json::from_str::<serde_json::Value>(&error.to_json())?,
        }));
    }
    Ok(serde_json::to_vec(&out)?)
}

/// Folds and assembles every `DIR/*.sdk.sse`.
fn fold_dir(dir: &Path) -> Res<()> {
    let mut n = 0;
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path
            .file_name()
            .and_then(|s| s.to_str())
            .and_then(|s| s.strip_suffix(".sdk.sse"))
        else {
            continue;
        };
        let bytes = fs::read(&path)?;
        let mut fold = TaskFold::new();
        fold.push(&bytes)?;
        fold.finish()?;
        let task = fold.task_result(None).ok_or("no task in the stream")?;
        fs::write(
            dir.join(format!("{name}.fold.json")),
            serde_json::to_vec(&task)?,
        )?;
        let mut assembler = StreamAssembler::new(AssemblerOptions::default());
        assembler.push(&bytes)?;
        assembler.finish()?;
        let assembled = serde_json::json!({
            "protocol": assembler.protocol().map(|p| p.as_str()),
            "outcome": format!("{:?}", assembler.outcome()),
            "snapshot": assembler.snapshot(),
        });
        fs::write(
            dir.join(format!("{name}.assembled.json")),
            serde_json::to_vec(&assembled)?,
        )?;
        n += 1;
    }
    println!("folded {n} streams in {}", dir.display());
    Ok(())
}
