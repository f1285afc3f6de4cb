//! Unit tests of the builder, part 2: tool calls, `fromText`, output formats, the encoder seam.

use super::tests::{decode, events, kinds, opts, rb, state};
use super::*;
use crate::codec::Format;
use crate::protocol::{ContentType, ErrorInfo, Event, JsonMap, MessageType, Role, RunStatus};
use crate::{Error, ErrorCode, Result};

// ----- tool calls, reasoning, fromText ----------------------------------------------------

#[test]
fn tool_call_streams_arguments() {
    let mut rb = rb();
    let call = rb
        .tool_call(ToolCallOptions::new(ToolKind::Plugin, "call_1", "get_weather").message_id("m"))
        .unwrap();
    let out = rb.tool_arguments(call, "{\"city\": ").unwrap();
    assert_eq!(
        kinds(&out),
        [
            "response:created",
            "response:in_progress",
            "message:in_progress",
            "content:in_progress",
            "content:in_progress+"
        ]
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""type":"plugin_call","role":"assistant","content":null"#));
    assert!(text.contains(r#""delta":false,"msg_id":"m","data":{"call_id":"call_1","name":"get_weather","arguments":""}}"#));
    assert!(text.ends_with(
        &(r#""delta":true,"msg_id":"m","data":{"arguments":"{\"city\": "}}"#.to_owned() + "\n\n")
    ));
    rb.tool_arguments(call, "\"Hangzhou\"}").unwrap();
    let out = rb.complete_tool_call(call).unwrap();
    assert_eq!(kinds(&out), ["content:completed", "message:completed"]);
    assert!(String::from_utf8(out).unwrap().contains(
        r#""data":{"call_id":"call_1","name":"get_weather","arguments":"{\"city\": \"Hangzhou\"}"}"#
    ));
    state(&mut rb, |rb| rb.tool_arguments(call, "x"));
    state(&mut rb, |rb| rb.complete_tool_call(call));
    let out = rb
        .tool_output(
            ToolOutputOptions::new(ToolKind::Plugin, "call_1", "sunny").name("get_weather"),
        )
        .unwrap();
    assert_eq!(
        kinds(&out),
        [
            "message:in_progress",
            "content:completed",
            "message:completed"
        ]
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""type":"plugin_call_output","role":"tool""#));
    assert!(text.contains(r#""data":{"call_id":"call_1","name":"get_weather","output":"sunny"}"#));
    let output = rb.response().output.clone().unwrap();
    assert_eq!(output.len(), 2);
    assert_eq!(output[1].message_type, MessageType::PluginCallOutput);
}

#[test]
fn tool_call_variants() {
    let mut rb = rb();
    let call = rb
        .tool_call(
            ToolCallOptions::new(ToolKind::Mcp, "c", "read")
                .server_label("fs")
                .arguments("{}"),
        )
        .unwrap();
    assert_eq!(call.content().message(), call.message());
    let out = rb.start_tool_call(call).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains(r#""type":"mcp_call","#));
    state(&mut rb, |rb| rb.start_tool_call(call));
    let extra = rb.content(call.message(), ContentType::Text).unwrap();
    state(&mut rb, |rb| rb.complete_tool_call(call));
    rb.complete_content(extra).unwrap();
    let out = rb.complete_tool_call(call).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains(r#""data":{"call_id":"c","arguments":"{}","name":"read","server_label":"fs"}"#));
    let f = rb.function_call("c2", "f").unwrap();
    let out = rb.complete_tool_call(f).unwrap();
    assert_eq!(
        kinds(&out),
        [
            "message:in_progress",
            "content:in_progress",
            "content:completed",
            "message:completed"
        ]
    );
    let out = rb
        .tool_output(ToolOutputOptions::new(ToolKind::Function, "c2", "42"))
        .unwrap();
    assert!(String::from_utf8(out).unwrap().contains(
        r#""type":"function_call_output","role":"tool","content":[{"sequence_number":null,"object":"content","status":"completed","error":null,"type":"data","index":0,"delta":false,"msg_id":"#
    ));
    assert_eq!(ToolKind::Mcp.output_type(), MessageType::McpToolCallOutput);
}

#[test]
fn from_text_sequence() {
    let body = ResponseBuilder::from_text(opts(), ["Hel", "lo"]).unwrap();
    assert_eq!(
        kinds(&body),
        [
            "response:created",
            "response:in_progress",
            "message:in_progress",
            "content:in_progress+",
            "content:in_progress+",
            "content:completed",
            "message:completed",
            "response:completed"
        ]
    );
    let ev = events(&body);
    for (i, e) in ev.iter().enumerate() {
        assert_eq!(e.sequence_number(), Some(i as i64));
    }
    let Event::Response(r) = ev.last().unwrap() else {
        panic!()
    };
    assert_eq!(
        r.output.as_ref().unwrap()[0].get_text_content(),
        Some("Hello")
    );
    // No tokens: the text stays null, as in the reference.
    let body = ResponseBuilder::from_text(opts(), Vec::<String>::new()).unwrap();
    assert!(String::from_utf8(body)
        .unwrap()
        .contains(r#""delta":false,"msg_id":"#));
}

#[test]
fn text_stream_steps() {
    let (mut ts, head) =
        TextStream::begin(rb(), MessageOptions::new().role(Some(Role::System))).unwrap();
    assert_eq!(kinds(&head).len(), 3);
    ts.token("a").unwrap();
    ts.finish().unwrap();
    assert!(ts.finish().is_err());
    assert!(ts.token("b").is_err());
    assert_eq!(ts.builder().response().status, RunStatus::Completed);
    // Failing a stream half-way.
    let (mut ts, _) = TextStream::begin(rb(), MessageOptions::new()).unwrap();
    ts.token("a").unwrap();
    let out = ts
        .builder_mut()
        .failed(ErrorInfo::new("AGENT_ERROR", "x"))
        .unwrap();
    assert_eq!(kinds(&out), ["response:failed"]);
    // A builder that already emitted cannot begin a text stream.
    let mut used = rb();
    used.created().unwrap();
    assert_eq!(
        TextStream::begin(used, MessageOptions::new())
            .unwrap_err()
            .code(),
        ErrorCode::BuilderState
    );
}

// ----- formats and the encoder seam -------------------------------------------------------

#[test]
fn ndjson_and_omit_nulls() {
    let mut rb = ResponseBuilder::new(opts().format(Format::Ndjson).omit_nulls(true)).unwrap();
    assert_eq!(rb.content_type(), "application/x-ndjson");
    let m = rb.message(MessageOptions::new().id("m")).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    let out = String::from_utf8(rb.delta_text(c, "x").unwrap()).unwrap();
    assert_eq!(out.lines().count(), 4);
    assert!(!out.contains("null"), "{out}");
    assert!(out.ends_with(
        "{\"sequence_number\":3,\"object\":\"content\",\"status\":\"in_progress\",\"type\":\"text\",\"index\":0,\"delta\":true,\"msg_id\":\"m\",\"text\":\"x\"}\n"
    ));
    assert_eq!(decode(out.as_bytes(), Format::Ndjson).len(), 4);
    assert_eq!(
        ResponseBuilder::new(opts().format(Format::Auto))
            .unwrap_err()
            .code(),
        ErrorCode::InvalidOption
    );
    assert_eq!(
        self::rb().content_type(),
        "text/event-stream; charset=utf-8"
    );
}

#[test]
fn delta_into_appends_and_leaves_out_alone_on_error() {
    let mut rb = rb();
    let m = rb.message(MessageOptions::new()).unwrap();
    let c = rb.content(m, ContentType::Text).unwrap();
    let mut buf = b"prefix".to_vec();
    rb.delta_into(c, "a".into(), &mut buf).unwrap();
    let len = buf.len();
    assert!(rb
        .delta_into(c, ContentValue::Fields(JsonMap::new()), &mut buf)
        .is_err());
    assert_eq!(buf.len(), len);
}

/// Records the events it is handed; fails on the `fail_at`-th.
struct Recorder {
    seen: std::sync::Arc<std::sync::Mutex<Vec<Event>>>,
    fail_at: usize,
}

impl Encoder for Recorder {
    fn encode(&mut self, event: &BuilderEvent<'_>, out: &mut Vec<u8>) -> Result<()> {
        let mut seen = self.seen.lock().unwrap();
        if seen.len() == self.fail_at {
            return Err(Error::new(ErrorCode::ProtocolViolation, "cannot encode"));
        }
        assert_eq!(event.sequence_number(), Some(seen.len() as u64));
        seen.push(event.to_event());
        out.push(b'.');
        Ok(())
    }

    fn content_type(&self) -> &'static str {
        "text/x-test"
    }
}

#[test]
fn encoder_seam_gets_agent_api_events() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let enc = Recorder {
        seen: seen.clone(),
        fail_at: usize::MAX,
    };
    let mut rb = ResponseBuilder::with_encoder(opts(), Box::new(enc)).unwrap();
    assert_eq!(rb.content_type(), "text/x-test");
    let m = rb.message(MessageOptions::new()).unwrap();
    let c = rb.content(m, ContentType::Refusal).unwrap();
    assert_eq!(rb.delta_text(c, "no").unwrap(), b"....");
    let call = rb.function_call("c", "f").unwrap();
    rb.tool_arguments(call, "{}").unwrap();
    // The same calls through the Agent API encoder give the same events.
    let mut agent = self::rb();
    let m2 = agent
        .message(MessageOptions::new().id(agent_id(&seen, 2)))
        .unwrap();
    let c2 = agent.content(m2, ContentType::Refusal).unwrap();
    let mut bytes = agent.delta_text(c2, "no").unwrap();
    let call2 = agent
        .tool_call(
            ToolCallOptions::new(ToolKind::Function, "c", "f").message_id(agent_id(&seen, 4)),
        )
        .unwrap();
    bytes.extend(agent.tool_arguments(call2, "{}").unwrap());
    assert_eq!(*seen.lock().unwrap(), events(&bytes));
}

fn agent_id(seen: &std::sync::Mutex<Vec<Event>>, i: usize) -> String {
    match &seen.lock().unwrap()[i] {
        Event::Message(m) => m.id.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_encoder_failure_poisons_the_builder() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let enc = Recorder { seen, fail_at: 1 };
    let mut rb = ResponseBuilder::with_encoder(opts(), Box::new(enc)).unwrap();
    assert_eq!(
        rb.in_progress().unwrap_err().code(),
        ErrorCode::ProtocolViolation
    );
    assert!(rb.is_finished());
    assert_eq!(rb.canceled().unwrap_err().code(), ErrorCode::Finished);
}

#[test]
fn builder_and_handles_are_send_and_small() {
    fn send<T: Send>() {}
    send::<ResponseBuilder>();
    assert!(std::mem::size_of::<ContentHandle>() <= 12);
}
