//! Writes agentwire's AG-UI output for the AG-UI reference check
//! (`scripts/reference/check_agui.sh`):
//! - every `<name>.agent-api.sse` in OUT_DIR (written by `scripts/reference/agui_reference.py`)
//!   translated to `<name>.ag-ui.sse` (`corpus_*` replays use the ids the script's request
//!   named: thread `thr-replay`, run `run-replay`; live runs use the defaults, the stream's
//!   `session_id` and response `id`);
//! - builder runs with the AG-UI encoder (reasoning, text, a data part, tool calls of each kind
//!   with streamed arguments, outputs, refusal; completed / failed / canceled) as
//!   `builder_<end>.ag-ui.sse`;
//! - `agui_requests.ours.jsonl`: for each line of `agui_requests.jsonl`, `{"name", "request"}`
//!   with agentwire's `agent_request` of the same body.
//!
//! Usage: `cargo run --example agui_scenarios -- OUT_DIR`

use std::error::Error as StdError;
use std::fs;
use std::path::Path;

use agentwire::agui::{agent_request, AgUiEncoder};
use agentwire::assembler::Protocol;
use agentwire::builder::{
    BuilderOptions, CompleteOptions, MessageOptions, ResponseBuilder, ToolCallOptions, ToolKind,
    ToolOutputOptions,
};
use agentwire::openai::{TranslateOptions, Translator};
use agentwire::protocol::{ContentType, ErrorInfo};

type Res<T> = Result<T, Box<dyn StdError>>;

fn run(end: &str) -> Res<Vec<u8>> {
    let enc = AgUiEncoder::sse()
        .with_thread_id("thr-b")
        .with_run_id("run-b");
    let options = BuilderOptions::new().session_id("ctx_1");
    let mut rb = ResponseBuilder::with_encoder(options, Box::new(enc))?;
    let mut out = rb.created()?;
    out.extend(rb.in_progress()?);
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
    out.extend(rb.delta_text(f, " No.")?);
    out.extend(rb.complete_content(f)?);
    out.extend(rb.complete_message(m)?);
    let open = rb.message(MessageOptions::new())?;
    let o = rb.content(open, ContentType::Text)?;
    out.extend(rb.delta_text(o, "left open")?);
    match end {
        "failed" => out.extend(rb.failed(ErrorInfo::new("AGENT_ERROR", "boom"))?),
        "canceled" => out.extend(rb.canceled()?),
        _ => out.extend(rb.completed(CompleteOptions::new().close_open(true))?),
    }
    Ok(out)
}

fn translate(input: &[u8], replay: bool) -> Res<Vec<u8>> {
    let mut options = TranslateOptions::new();
    if replay {
        options = options
            .with_thread_id("thr-replay")
            .with_run_id("run-replay");
    }
    let mut t = Translator::with_options(Protocol::AgentApi, Protocol::AgUi, options)?;
    let mut out = t.push(input)?;
    out.extend(t.finish()?);
    Ok(out)
}

fn main() -> Res<()> {
    let out_dir = std::env::args()
        .nth(1)
        .ok_or("usage: agui_scenarios OUT_DIR")?;
    let out_dir = Path::new(&out_dir);
    let mut n = 0;
    for entry in fs::read_dir(out_dir)? {
        let path = entry?.path();
        let Some(name) = path
            .file_name()
            .and_then(|s| s.to_str())
            .and_then(|s| s.strip_suffix(".agent-api.sse"))
        else {
            continue;
        };
        let out = translate(&fs::read(&path)?, name.starts_with("corpus_"))?;
        fs::write(out_dir.join(format!("{name}.ag-ui.sse")), out)?;
        n += 1;
    }
    for end in ["completed", "failed", "canceled"] {
        fs::write(out_dir.join(format!("builder_{end}.ag-ui.sse")), run(end)?)?;
        n += 1;
    }
    let mut requests = String::new();
    if let Ok(text) = fs::read_to_string(out_dir.join("agui_requests.jsonl")) {
        for line in text.lines().filter(|l| !l.is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line)?;
            let name = case.get("name").cloned().unwrap_or_default();
            let body = case
                .get("body")
                .map(ToString::to_string)
                .unwrap_or_default();
            let request: serde_json::Value =
                serde_json::from_str(&agent_request(&body)?.to_json())?;
            let mut rec = serde_json::Map::new();
            rec.insert("name".into(), name);
            rec.insert("request".into(), request);
            requests.push_str(&serde_json::Value::Object(rec).to_string());
            requests.push('\n');
        }
    }
    fs::write(out_dir.join("agui_requests.ours.jsonl"), requests)?;
    println!("wrote {n} AG-UI streams to {}", out_dir.display());
    Ok(())
}
