//! Writes agentwire builder streams for a set of scenarios, for the reference check
//! (`scripts/reference/check_builder.sh`).
//!
//! Usage: `cargo run --example builder_scenarios -- OUT_DIR`
//!
//! Each scenario is a list of ops (JSON), run here through [`ResponseBuilder`]. For each one this
//! writes `OUT_DIR/<name>.json` (`{name, format, omit_nulls, parity, session_id, ops}`) and
//! `OUT_DIR/<name>.<sse|ndjson>` (the bytes the builder returned, concatenated). Scenarios with
//! `parity: true` use only what the reference's own builder can do; the checker replays their
//! ops on it and compares the event sequences.
//!
//! Ops (handles are indexes in creation order):
//! `created`, `in_progress`, `message {role?, type?}`, `start {m}`, `content {m, type}`,
//! `delta {c, value}`, `set {c, value}`, `complete_content {c}`, `complete_message {m}`,
//! `completed {usage?, close_open?}`, `failed {code, message}`, `canceled`,
//! `tool_call {kind, call_id, name, server_label?}`, `tool_arguments {t, piece}`,
//! `complete_tool_call {t}`, `tool_output {kind, call_id, name?, output}`,
//! `message_usage {m, usage}`, `from_text {tokens}`.

use std::error::Error as StdError;
use std::fs;
use std::path::Path;

use agentwire::builder::{
    BuilderOptions, CompleteOptions, ContentHandle, ContentValue, MessageHandle, MessageOptions,
    ResponseBuilder, ToolCall, ToolCallOptions, ToolKind, ToolOutputOptions,
};
use agentwire::codec::Format;
use agentwire::protocol::{ContentType, ErrorInfo, JsonMap, MessageType, Role};
use serde_json::{json, Value};

type Res<T> = Result<T, Box<dyn StdError>>;

fn s<'a>(op: &'a Value, key: &str) -> Res<&'a str> {
    op.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("op {op} needs a string {key:?}").into())
}

fn n(op: &Value, key: &str) -> Res<usize> {
    op.get(key)
        .and_then(Value::as_u64)
        .map(|v| v as usize)
        .ok_or_else(|| format!("op {op} needs a number {key:?}").into())
}

fn obj(v: Option<&Value>) -> Option<JsonMap> {
    v.and_then(Value::as_object).cloned()
}

fn kind(op: &Value) -> Res<ToolKind> {
    Ok(match s(op, "kind")? {
        "function" => ToolKind::Function,
        "plugin" => ToolKind::Plugin,
        "mcp" => ToolKind::Mcp,
        other => return Err(format!("unknown tool kind {other}").into()),
    })
}

fn value(v: &Value) -> Res<ContentValue<'_>> {
    match v {
        Value::String(t) => Ok(ContentValue::Text(t)),
        Value::Object(m) => Ok(ContentValue::Fields(m.clone())),
        other => Err(format!("not a content value: {other}").into()),
    }
}

fn get<T: Copy>(list: &[T], i: usize) -> Res<T> {
    list.get(i).copied().ok_or_else(|| "bad handle".into())
}

/// Runs `ops`, returning the concatenated bytes.
fn run(options: BuilderOptions, ops: &[Value]) -> Res<Vec<u8>> {
    let mut rb = ResponseBuilder::new(options.clone())?;
    let mut out = Vec::new();
    let mut ms: Vec<MessageHandle> = Vec::new();
    let mut cs: Vec<ContentHandle> = Vec::new();
    let mut ts: Vec<ToolCall> = Vec::new();
    for op in ops {
        let bytes = match s(op, "op")? {
            "created" => rb.created()?,
            "in_progress" => rb.in_progress()?,
            "message" => {
                let mut mo = MessageOptions::new();
                if let Some(r) = op.get("role").and_then(Value::as_str) {
                    mo = mo.role(Role::from_wire(r));
                }
                if let Some(t) = op.get("type").and_then(Value::as_str) {
                    mo = mo.message_type(MessageType::from_wire(t));
                }
                ms.push(rb.message(mo)?);
                Vec::new()
            }
            "start" => rb.start_message(get(&ms, n(op, "m")?)?)?,
            "content" => {
                let ct = ContentType::from_wire(s(op, "type")?).ok_or("bad content type")?;
                cs.push(rb.content(get(&ms, n(op, "m")?)?, ct)?);
                Vec::new()
            }
            "delta" => rb.delta(get(&cs, n(op, "c")?)?, value(&op["value"])?)?,
            "set" => rb.set(get(&cs, n(op, "c")?)?, value(&op["value"])?)?,
            "complete_content" => rb.complete_content(get(&cs, n(op, "c")?)?)?,
            "complete_message" => rb.complete_message(get(&ms, n(op, "m")?)?)?,
            "message_usage" => {
                let usage = obj(op.get("usage")).ok_or("usage must be an object")?;
                rb.set_message_usage(get(&ms, n(op, "m")?)?, usage)?;
                Vec::new()
            }
            "completed" => {
                let mut co = CompleteOptions::new()
                    .close_open(op.get("close_open").and_then(Value::as_bool) == Some(true));
                if let Some(u) = obj(op.get("usage")) {
                    co = co.usage(u);
                }
                rb.completed(co)?
            }
            "failed" => rb.failed(ErrorInfo::new(s(op, "code")?, s(op, "message")?))?,
            "canceled" => rb.canceled()?,
            "tool_call" => {
                let mut o = ToolCallOptions::new(kind(op)?, s(op, "call_id")?, s(op, "name")?);
                if let Some(l) = op.get("server_label").and_then(Value::as_str) {
                    o = o.server_label(l);
                }
                ts.push(rb.tool_call(o)?);
                Vec::new()
            }
            "tool_arguments" => rb.tool_arguments(get(&ts, n(op, "t")?)?, s(op, "piece")?)?,
            "complete_tool_call" => rb.complete_tool_call(get(&ts, n(op, "t")?)?)?,
            "tool_output" => {
                let mut o = ToolOutputOptions::new(kind(op)?, s(op, "call_id")?, s(op, "output")?);
                if let Some(name) = op.get("name").and_then(Value::as_str) {
                    o = o.name(name);
                }
                rb.tool_output(o)?
            }
            "from_text" => {
                let tokens: Vec<String> = op["tokens"]
                    .as_array()
                    .ok_or("tokens must be a list")?
                    .iter()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect();
                ResponseBuilder::from_text(options.clone(), tokens)?
            }
            other => return Err(format!("unknown op {other}").into()),
        };
        out.extend(bytes);
    }
    Ok(out)
}

struct Scenario {
    name: &'static str,
    format: Format,
    omit_nulls: bool,
    parity: bool,
    ops: Value,
}

fn sc(name: &'static str, parity: bool, ops: Value) -> Scenario {
    Scenario {
        name,
        format: Format::Sse,
        omit_nulls: false,
        parity,
        ops,
    }
}

fn scenarios() -> Vec<Scenario> {
    let mut list = vec![
        sc(
            "text_basic",
            true,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"message"}, {"op":"start","m":0},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"Hi"},
                {"op":"delta","c":0,"value":", \"quoted\" \\ back\nslash\t é中😀 \u{1} \u{7f} \u{2028} </script>"},
                {"op":"delta","c":0,"value":""},
                {"op":"complete_content","c":0},
                {"op":"complete_message","m":0},
                {"op":"completed"}
            ]),
        ),
        sc(
            "reference_types",
            true,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"message"}, {"op":"start","m":0},
                {"op":"content","m":0,"type":"text"},
                {"op":"set","c":0,"value":"Set first. "},
                {"op":"delta","c":0,"value":"Then"},
                {"op":"delta","c":0,"value":" deltas."},
                {"op":"complete_content","c":0},
                {"op":"content","m":0,"type":"data"},
                {"op":"set","c":1,"value":{"call_id":"c1","name":"f","arguments":""}},
                {"op":"delta","c":1,"value":{"arguments":"{\"a\":"}},
                {"op":"delta","c":1,"value":{"arguments":"1}","n":2,"meta":{"x":[1]}}},
                {"op":"delta","c":1,"value":{"n":3.5,"meta":{"x":[2],"y":true},"f":1e-7}},
                {"op":"complete_content","c":1},
                {"op":"content","m":0,"type":"image"},
                {"op":"set","c":2,"value":"https://example.com/a.png"},
                {"op":"complete_content","c":2},
                {"op":"content","m":0,"type":"refusal"},
                {"op":"set","c":3,"value":"I cannot do that."},
                {"op":"complete_content","c":3},
                {"op":"content","m":0,"type":"text"},
                {"op":"complete_content","c":4},
                {"op":"complete_message","m":0},
                {"op":"message","role":"user"}, {"op":"start","m":1},
                {"op":"complete_message","m":1},
                {"op":"completed"}
            ]),
        ),
        sc(
            "all_types",
            false,
            json!([
                {"op":"message","type":"message"},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"auto-started"},
                {"op":"content","m":0,"type":"data"},
                {"op":"delta","c":1,"value":{"k":"v"}},
                {"op":"content","m":0,"type":"image"},
                {"op":"set","c":2,"value":{"image_url":"data:image/png;base64,iVBORw0KGgo="}},
                {"op":"content","m":0,"type":"audio"},
                {"op":"set","c":3,"value":{"data":"UklGRg==","format":"wav"}},
                {"op":"content","m":0,"type":"file"},
                {"op":"set","c":4,"value":"https://example.com/f.pdf"},
                {"op":"set","c":4,"value":{"file_url":null,"file_id":"file_1","filename":"f.pdf","file_data":"JVBERi0="}},
                {"op":"content","m":0,"type":"refusal"},
                {"op":"delta","c":5,"value":"No"},
                {"op":"delta","c":5,"value":"pe."},
                {"op":"content","m":0,"type":"video"},
                {"op":"set","c":6,"value":"https://example.com/v.mp4"},
                {"op":"complete_content","c":6},
                {"op":"complete_content","c":5},
                {"op":"complete_content","c":4},
                {"op":"complete_content","c":3},
                {"op":"complete_content","c":2},
                {"op":"complete_content","c":1},
                {"op":"complete_content","c":0},
                {"op":"message_usage","m":0,"usage":{"input_tokens":3,"output_tokens":5}},
                {"op":"complete_message","m":0},
                {"op":"completed"}
            ]),
        ),
        sc(
            "tool_calls",
            true,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"tool_call","kind":"function","call_id":"call_1","name":"get_weather"},
                {"op":"tool_arguments","t":0,"piece":"{\"city\": "},
                {"op":"tool_arguments","t":0,"piece":"\"Hangzhou\"}"},
                {"op":"complete_tool_call","t":0},
                {"op":"tool_output","kind":"function","call_id":"call_1","name":"get_weather","output":"[{\"type\": \"text\", \"text\": \"Sunny, 25C\"}]"},
                {"op":"tool_call","kind":"plugin","call_id":"call_2","name":"search"},
                {"op":"complete_tool_call","t":1},
                {"op":"tool_output","kind":"plugin","call_id":"call_2","output":"{}"},
                {"op":"tool_call","kind":"mcp","call_id":"call_3","name":"read_file","server_label":"fs"},
                {"op":"tool_arguments","t":2,"piece":"{\"path\": \"notes/x.txt\"}"},
                {"op":"complete_tool_call","t":2},
                {"op":"tool_output","kind":"mcp","call_id":"call_3","name":"read_file","output":"contents"},
                {"op":"completed"}
            ]),
        ),
        sc(
            "reasoning",
            true,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"message","type":"reasoning"}, {"op":"start","m":0},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"The user wants"},
                {"op":"delta","c":0,"value":" a greeting."},
                {"op":"complete_content","c":0},
                {"op":"complete_message","m":0},
                {"op":"message"}, {"op":"start","m":1},
                {"op":"content","m":1,"type":"text"},
                {"op":"delta","c":1,"value":"Hello!"},
                {"op":"complete_content","c":1},
                {"op":"complete_message","m":1},
                {"op":"completed"}
            ]),
        ),
        sc(
            "interleaved",
            false,
            json!([
                {"op":"message","type":"reasoning"},
                {"op":"message"},
                {"op":"content","m":0,"type":"text"},
                {"op":"content","m":1,"type":"text"},
                {"op":"delta","c":0,"value":"thinking"},
                {"op":"delta","c":1,"value":"answer"},
                {"op":"delta","c":0,"value":" more"},
                {"op":"complete_content","c":1},
                {"op":"complete_message","m":1},
                {"op":"complete_content","c":0},
                {"op":"complete_message","m":0},
                {"op":"completed","usage":{"total_tokens":42}}
            ]),
        ),
        sc(
            "failed",
            false,
            json!([
                {"op":"message"},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"Hi"},
                {"op":"failed","code":"AGENT_ERROR","message":"the model timed out"}
            ]),
        ),
        sc(
            "failed_after_output",
            true,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"message"}, {"op":"start","m":0},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"partial"},
                {"op":"complete_content","c":0},
                {"op":"complete_message","m":0},
                {"op":"failed","code":"TOOL_EXECUTION_FAILED","message":"Tool ‘x’ failed"}
            ]),
        ),
        sc(
            "canceled",
            false,
            json!([
                {"op":"created"}, {"op":"in_progress"},
                {"op":"message"},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"Hi"},
                {"op":"canceled"}
            ]),
        ),
        sc(
            "close_open",
            false,
            json!([
                {"op":"message"},
                {"op":"content","m":0,"type":"text"},
                {"op":"delta","c":0,"value":"unfinished"},
                {"op":"content","m":0,"type":"data"},
                {"op":"message","type":"reasoning"},
                {"op":"tool_call","kind":"function","call_id":"c9","name":"f"},
                {"op":"tool_arguments","t":0,"piece":"{}"},
                {"op":"completed","close_open":true}
            ]),
        ),
        sc(
            "from_text",
            true,
            json!([{"op":"from_text","tokens":["Hel","lo",", ","wörld ","😀","\n"]}]),
        ),
        sc(
            "from_text_empty",
            true,
            json!([{"op":"from_text","tokens":[]}]),
        ),
        sc(
            "from_text_empty_tokens",
            true,
            json!([{"op":"from_text","tokens":["",""]}]),
        ),
    ];
    let mut nd = sc(
        "tool_calls_ndjson",
        true,
        list.iter()
            .find(|s| s.name == "tool_calls")
            .map(|s| s.ops.clone())
            .unwrap_or(Value::Null),
    );
    nd.format = Format::Ndjson;
    list.push(nd);
    let mut omit = sc(
        "all_types_omit_nulls",
        false,
        list.iter()
            .find(|s| s.name == "all_types")
            .map(|s| s.ops.clone())
            .unwrap_or(Value::Null),
    );
    omit.omit_nulls = true;
    list.push(omit);
    list
}

fn main() -> Res<()> {
    let out_dir = std::env::args()
        .nth(1)
        .ok_or("usage: builder_scenarios OUT_DIR")?;
    let out_dir = Path::new(&out_dir);
    fs::create_dir_all(out_dir)?;
    let list = scenarios();
    for scenario in &list {
        let session_id = format!("session-{}", scenario.name);
        let options = BuilderOptions::new()
            .session_id(session_id.clone())
            .format(scenario.format)
            .omit_nulls(scenario.omit_nulls);
        let ops = scenario.ops.as_array().ok_or("ops must be a list")?;
        let bytes = run(options, ops).map_err(|e| format!("{}: {e}", scenario.name))?;
        let ext = scenario.format.as_str();
        fs::write(out_dir.join(format!("{}.{ext}", scenario.name)), bytes)?;
        let manifest = json!({
            "name": scenario.name,
            "format": ext,
            "omit_nulls": scenario.omit_nulls,
            "parity": scenario.parity,
            "session_id": session_id,
            "ops": scenario.ops,
        });
        fs::write(
            out_dir.join(format!("{}.json", scenario.name)),
            serde_json::to_string_pretty(&manifest)?,
        )?;
    }
    println!("wrote {} scenarios to {}", list.len(), out_dir.display());
    Ok(())
}
