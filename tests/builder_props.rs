//! Property test of the builder through the public API: any random sequence of builder calls
//! either fails (with `BUILDER_STATE`, or `INVALID_OPTION` for bad values), emitting nothing,
//! exactly when a simple model of the state machine says it must, or yields bytes that
//! (a) decode with `FrameDecoder` (split anywhere) into events `parse_event` accepts,
//! (b) carry sequence numbers 0..n without gaps,
//! (c) fold to a final response whose `output` equals the messages built.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;

use agentwire::builder::{
    BuilderOptions, CompleteOptions, ContentHandle, ContentValue, MessageHandle, MessageOptions,
    ResponseBuilder, ToolCall, ToolCallOptions, ToolKind, ToolOutputOptions,
};
use agentwire::codec::{Format, Frame, FrameDecoder};
use agentwire::protocol::{
    merge_data_into, parse_event, ContentBody, ContentType, ErrorInfo, Event, FixedClock, JsonMap,
    Message, MessageType, RunStatus,
};
use agentwire::ErrorCode;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Op {
    Created,
    InProgress,
    Message(bool),
    Start(usize),
    Content(usize, ContentType),
    DeltaText(usize, String),
    DeltaData(usize, JsonMap),
    SetText(usize, String),
    SetData(usize, JsonMap),
    CompleteContent(usize),
    CompleteMessage(usize),
    Usage(usize),
    Completed(bool, bool),
    Failed,
    Canceled,
    ToolCall(ToolKind),
    ToolArgs(usize, String),
    CompleteTool(usize),
    ToolOutput(ToolKind),
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just('a'),
            Just('"'),
            Just('\\'),
            Just('\n'),
            Just('\u{1}'),
            Just('é'),
            Just('😀'),
            Just('\u{2028}'),
            any::<char>()
        ],
        0..5,
    )
    .prop_map(String::from_iter)
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::String),
        (-5i64..5).prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        prop::collection::vec(0i64..3, 0..3).prop_map(|v| json!(v)),
        (0i64..3).prop_map(|n| json!({"x": n})),
        Just(Value::Null),
    ]
}

fn data() -> impl Strategy<Value = JsonMap> {
    prop::collection::vec(
        (
            prop_oneof![Just("a"), Just("b"), Just("arguments")],
            json_value(),
        ),
        0..3,
    )
    .prop_map(|kv| kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn content_type() -> impl Strategy<Value = ContentType> {
    prop::sample::select(ContentType::ALL.to_vec())
}

fn tool_kind() -> impl Strategy<Value = ToolKind> {
    prop_oneof![
        Just(ToolKind::Function),
        Just(ToolKind::Plugin),
        Just(ToolKind::Mcp)
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let h = 0usize..8;
    prop_oneof![
        1 => Just(Op::Created),
        1 => Just(Op::InProgress),
        3 => any::<bool>().prop_map(Op::Message),
        2 => h.clone().prop_map(Op::Start),
        4 => (h.clone(), content_type()).prop_map(|(m, t)| Op::Content(m, t)),
        8 => (h.clone(), text()).prop_map(|(c, s)| Op::DeltaText(c, s)),
        4 => (h.clone(), data()).prop_map(|(c, d)| Op::DeltaData(c, d)),
        2 => (h.clone(), text()).prop_map(|(c, s)| Op::SetText(c, s)),
        2 => (h.clone(), data()).prop_map(|(c, d)| Op::SetData(c, d)),
        4 => h.clone().prop_map(Op::CompleteContent),
        3 => h.clone().prop_map(Op::CompleteMessage),
        1 => h.clone().prop_map(Op::Usage),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(c, u)| Op::Completed(c, u)),
        1 => Just(Op::Failed),
        1 => Just(Op::Canceled),
        2 => tool_kind().prop_map(Op::ToolCall),
        3 => (h.clone(), text()).prop_map(|(t, s)| Op::ToolArgs(t, s)),
        2 => h.clone().prop_map(Op::CompleteTool),
        1 => tool_kind().prop_map(Op::ToolOutput),
    ]
}

// ----- the model ----------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct MPart {
    ct: ContentType,
    body: ContentBody,
    done: bool,
}

#[derive(Debug, Clone)]
struct MMsg {
    id: String,
    started: bool,
    done: bool,
    parts: Vec<MPart>,
    usage: Option<JsonMap>,
}

#[derive(Debug, Default)]
struct Model {
    emitted: bool,
    running: bool,
    finished: bool,
    msgs: Vec<MMsg>,
    /// (message index, part index) per content handle.
    contents: Vec<(usize, usize)>,
    /// message index per tool call.
    tools: Vec<usize>,
    /// Message indexes in completion order.
    output: Vec<usize>,
    usage: Option<JsonMap>,
    status: Option<RunStatus>,
}

impl Model {
    fn part_open(&self, c: usize) -> Option<(usize, usize)> {
        let &(m, p) = self.contents.get(c)?;
        let msg = &self.msgs[m];
        (!self.finished && !msg.done && !msg.parts[p].done).then_some((m, p))
    }

    fn emit(&mut self) {
        self.emitted = true;
        self.running = true;
    }

    fn complete_msg(&mut self, m: usize) {
        for p in &mut self.msgs[m].parts {
            p.done = true;
        }
        self.msgs[m].done = true;
        self.msgs[m].started = true;
        self.output.push(m);
    }

    fn terminal(&mut self, status: RunStatus, usage: Option<JsonMap>) {
        self.emit();
        self.finished = true;
        self.status = Some(status);
        self.usage = usage.or_else(|| self.output.last().and_then(|&m| self.msgs[m].usage.clone()));
    }
}

fn empty(ct: ContentType) -> ContentBody {
    ContentBody::empty(ct)
}

fn main_field(ct: ContentType, s: &str) -> ContentBody {
    let s = Some(s.to_owned());
    match ct {
        ContentType::Text => ContentBody::Text { text: s },
        ContentType::Refusal => ContentBody::Refusal { refusal: s },
        ContentType::Image => ContentBody::Image { image_url: s },
        ContentType::Video => ContentBody::Video { video_url: s },
        ContentType::Audio => ContentBody::Audio {
            data: s,
            format: None,
        },
        ContentType::File => ContentBody::File {
            file_url: s,
            file_id: None,
            filename: None,
            file_data: None,
        },
        _ => unreachable!(),
    }
}

fn append(body: &mut ContentBody, s: &str) {
    match body {
        ContentBody::Text { text: v } | ContentBody::Refusal { refusal: v } => {
            v.get_or_insert_with(String::new).push_str(s)
        }
        _ => unreachable!(),
    }
}

fn merge(body: &mut ContentBody, d: &JsonMap) {
    match body {
        ContentBody::Data { data } => {
            merge_data_into(data.get_or_insert_with(JsonMap::new), d.clone())
        }
        _ => unreachable!(),
    }
}

fn tool_data(kind: ToolKind, call_id: &str, name: &str) -> JsonMap {
    let v = if kind == ToolKind::Mcp {
        json!({"call_id": call_id, "arguments": "", "name": name, "server_label": null})
    } else {
        json!({"call_id": call_id, "name": name, "arguments": ""})
    };
    v.as_object().cloned().unwrap()
}

// ----- the run --------------------------------------------------------------------------------

struct Run {
    rb: ResponseBuilder,
    model: Model,
    /// `None` for tool outputs, which have no handle.
    ms: Vec<Option<MessageHandle>>,
    cs: Vec<ContentHandle>,
    ts: Vec<ToolCall>,
    bytes: Vec<u8>,
}

impl Run {
    /// Applies `op` to the builder and the model; checks they agree on success or failure.
    fn apply(&mut self, op: &Op) {
        let before = format!("{:?}", self.rb);
        let seq = self.rb.next_sequence_number();
        let (expect_ok, result): (bool, Result<Vec<u8>, agentwire::Error>) = self.step(op);
        match result {
            Ok(bytes) => {
                assert!(expect_ok, "{op:?} succeeded; the model says it must fail");
                self.bytes.extend(bytes);
            }
            Err(e) => {
                assert!(
                    !expect_ok,
                    "{op:?} failed ({e}); the model says it must succeed"
                );
                assert!(
                    matches!(e.code(), ErrorCode::BuilderState | ErrorCode::InvalidOption),
                    "{e:?}"
                );
                assert_eq!(self.rb.next_sequence_number(), seq);
                assert_eq!(format!("{:?}", self.rb), before, "{op:?} changed the state");
            }
        }
    }

    fn step(&mut self, op: &Op) -> (bool, Result<Vec<u8>, agentwire::Error>) {
        let m = &mut self.model;
        let live = !m.finished;
        match op {
            Op::Created => {
                let ok = !m.emitted;
                let r = self.rb.created();
                if ok {
                    m.emitted = true;
                }
                (ok, r)
            }
            Op::InProgress => {
                let ok = live && !m.running;
                let r = self.rb.in_progress();
                if ok {
                    m.emit();
                }
                (ok, r)
            }
            Op::Message(reasoning) => {
                let opts = if *reasoning {
                    MessageOptions::reasoning()
                } else {
                    MessageOptions::new()
                };
                match self.rb.message(opts) {
                    Ok(h) => {
                        self.ms.push(Some(h));
                        m.msgs.push(MMsg {
                            id: self.rb.message_id(h).unwrap().to_owned(),
                            started: false,
                            done: false,
                            parts: Vec::new(),
                            usage: None,
                        });
                        (live, Ok(Vec::new()))
                    }
                    Err(e) => (live, Err(e)),
                }
            }
            Op::Start(i) => {
                let Some(&Some(h)) = self.ms.get(*i) else {
                    return (true, Ok(Vec::new()));
                };
                let ok = live && !m.msgs[*i].started && !m.msgs[*i].done;
                let r = self.rb.start_message(h);
                if ok {
                    m.emit();
                    m.msgs[*i].started = true;
                }
                (ok, r)
            }
            Op::Content(i, ct) => {
                let Some(&Some(h)) = self.ms.get(*i) else {
                    return (true, Ok(Vec::new()));
                };
                let ok = live && !m.msgs[*i].done;
                match self.rb.content(h, *ct) {
                    Ok(c) => {
                        self.cs.push(c);
                        m.contents.push((*i, m.msgs[*i].parts.len()));
                        m.msgs[*i].parts.push(MPart {
                            ct: *ct,
                            body: empty(*ct),
                            done: false,
                        });
                        (ok, Ok(Vec::new()))
                    }
                    Err(e) => (ok, Err(e)),
                }
            }
            Op::DeltaText(c, _)
            | Op::SetText(c, _)
            | Op::DeltaData(c, _)
            | Op::SetData(c, _)
            | Op::CompleteContent(c) => {
                let Some(&h) = self.cs.get(*c) else {
                    return (true, Ok(Vec::new()));
                };
                let open = m.part_open(*c);
                let ct = m.contents.get(*c).map(|&(mi, pi)| m.msgs[mi].parts[pi].ct);
                let ok = open.is_some()
                    && match (op, ct) {
                        (Op::DeltaText(..), Some(ct)) => {
                            matches!(ct, ContentType::Text | ContentType::Refusal)
                        }
                        (Op::SetText(..), Some(ct)) => ct != ContentType::Data,
                        (Op::DeltaData(..), Some(ct)) => ct == ContentType::Data,
                        // An object sets a non-data part's fields by name: `{}` nulls them all,
                        // and the generated keys are never field names.
                        (Op::SetData(_, d), Some(ct)) => ct == ContentType::Data || d.is_empty(),
                        (Op::CompleteContent(_), Some(_)) => true,
                        _ => false,
                    };
                let r = match op {
                    Op::DeltaText(_, s) => self.rb.delta_text(h, s),
                    Op::SetText(_, s) => self.rb.set(h, ContentValue::Text(s)),
                    Op::DeltaData(_, d) => self.rb.delta(h, ContentValue::Fields(d.clone())),
                    Op::SetData(_, d) => self.rb.set(h, ContentValue::Fields(d.clone())),
                    _ => self.rb.complete_content(h),
                };
                if let (true, Some((mi, pi))) = (ok, open) {
                    m.emit();
                    m.msgs[mi].started = true;
                    let part = &mut m.msgs[mi].parts[pi];
                    match op {
                        Op::DeltaText(_, s) => append(&mut part.body, s),
                        Op::SetText(_, s) => part.body = main_field(part.ct, s),
                        Op::DeltaData(_, d) => merge(&mut part.body, d),
                        Op::SetData(_, d) if part.ct == ContentType::Data => {
                            part.body = ContentBody::Data {
                                data: Some(d.clone()),
                            }
                        }
                        Op::SetData(..) => part.body = empty(part.ct),
                        _ => part.done = true,
                    }
                }
                (ok, r)
            }
            Op::CompleteMessage(i) => {
                let Some(&Some(h)) = self.ms.get(*i) else {
                    return (true, Ok(Vec::new()));
                };
                let msg = &m.msgs[*i];
                let ok = live && !msg.done && msg.parts.iter().all(|p| p.done);
                let r = self.rb.complete_message(h);
                if ok {
                    m.emit();
                    m.complete_msg(*i);
                }
                (ok, r)
            }
            Op::Usage(i) => {
                let Some(&Some(h)) = self.ms.get(*i) else {
                    return (true, Ok(Vec::new()));
                };
                let ok = live && !m.msgs[*i].done;
                let usage = json!({"output_tokens": i}).as_object().cloned().unwrap();
                let r = self.rb.set_message_usage(h, usage.clone());
                if ok {
                    m.msgs[*i].usage = Some(usage);
                }
                (ok, r.map(|()| Vec::new()))
            }
            Op::Completed(close, with_usage) => {
                let open = m.msgs.iter().any(|x| !x.done);
                let ok = live && (*close || !open);
                let usage = with_usage.then(|| json!({"total": 1}).as_object().cloned().unwrap());
                let mut o = CompleteOptions::new().close_open(*close);
                if let Some(u) = usage.clone() {
                    o = o.usage(u);
                }
                let r = self.rb.completed(o);
                if ok {
                    for i in 0..m.msgs.len() {
                        if !m.msgs[i].done {
                            m.complete_msg(i);
                        }
                    }
                    m.terminal(RunStatus::Completed, usage);
                }
                (ok, r)
            }
            Op::Failed | Op::Canceled => {
                let r = if matches!(op, Op::Failed) {
                    self.rb.failed(ErrorInfo::new("AGENT_ERROR", "boom"))
                } else {
                    self.rb.canceled()
                };
                if live {
                    let status = if matches!(op, Op::Failed) {
                        RunStatus::Failed
                    } else {
                        RunStatus::Canceled
                    };
                    m.terminal(status, None);
                }
                (live, r)
            }
            Op::ToolCall(kind) => {
                let call_id = format!("call_{}", self.ts.len());
                match self
                    .rb
                    .tool_call(ToolCallOptions::new(*kind, call_id.clone(), "f"))
                {
                    Ok(t) => {
                        let h = t.message();
                        self.ms.push(Some(h));
                        self.cs.push(t.content());
                        self.ts.push(t);
                        m.contents.push((m.msgs.len(), 0));
                        m.tools.push(m.msgs.len());
                        m.msgs.push(MMsg {
                            id: self.rb.message_id(h).unwrap().to_owned(),
                            started: false,
                            done: false,
                            parts: vec![MPart {
                                ct: ContentType::Data,
                                body: ContentBody::Data {
                                    data: Some(tool_data(*kind, &call_id, "f")),
                                },
                                done: false,
                            }],
                            usage: None,
                        });
                        (live, Ok(Vec::new()))
                    }
                    Err(e) => (live, Err(e)),
                }
            }
            Op::ToolArgs(t, s) => {
                let Some(&call) = self.ts.get(*t) else {
                    return (true, Ok(Vec::new()));
                };
                let mi = m.tools[*t];
                let ok = live && !m.msgs[mi].done && !m.msgs[mi].parts[0].done;
                let r = self.rb.tool_arguments(call, s);
                if ok {
                    m.emit();
                    m.msgs[mi].started = true;
                    let d = json!({"arguments": s}).as_object().cloned().unwrap();
                    merge(&mut m.msgs[mi].parts[0].body, &d);
                }
                (ok, r)
            }
            Op::CompleteTool(t) => {
                let Some(&call) = self.ts.get(*t) else {
                    return (true, Ok(Vec::new()));
                };
                let mi = m.tools[*t];
                let msg = &m.msgs[mi];
                let ok = live && !msg.done && msg.parts.iter().skip(1).all(|p| p.done);
                let r = self.rb.complete_tool_call(call);
                if ok {
                    m.emit();
                    m.complete_msg(mi);
                }
                (ok, r)
            }
            Op::ToolOutput(kind) => {
                let r = self
                    .rb
                    .tool_output(ToolOutputOptions::new(*kind, "call_x", "out").name("f"));
                if live {
                    m.emit();
                    let id = match self.rb.response().output.as_ref().and_then(|o| o.last()) {
                        Some(msg) => msg.id.clone(),
                        None => String::new(),
                    };
                    let data = json!({"call_id": "call_x", "name": "f", "output": "out"});
                    m.msgs.push(MMsg {
                        id,
                        started: true,
                        done: false,
                        parts: vec![MPart {
                            ct: ContentType::Data,
                            body: ContentBody::Data {
                                data: data.as_object().cloned(),
                            },
                            done: true,
                        }],
                        usage: None,
                    });
                    let i = m.msgs.len() - 1;
                    m.complete_msg(i);
                    self.ms.push(None);
                }
                (live, r)
            }
        }
    }
}

/// Decodes `bytes` split at `split`, checking (a) and (b), and folds the events, checking (c)
/// against the model.
fn check_stream(bytes: &[u8], format: Format, split: usize, model: &Model) {
    let mut events = Vec::new();
    let mut d = FrameDecoder::new(format);
    let at = split.min(bytes.len());
    for chunk in [&bytes[..at], &bytes[at..]] {
        d.push(chunk, |f: Frame<'_>| {
            events.push(parse_event(f.data()).expect("parse_event rejects our event"));
            Ok(())
        })
        .unwrap();
    }
    d.finish(|_| Ok(())).unwrap();

    // (b)
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.sequence_number(), Some(i as i64), "{e:?}");
    }
    if events.is_empty() {
        assert!(!model.emitted);
        return;
    }

    // (c) fold
    let mut parts: BTreeMap<String, BTreeMap<i64, ContentBody>> = BTreeMap::new();
    let mut completed: Vec<Message> = Vec::new();
    let mut final_response = None;
    for e in &events {
        match e {
            Event::Response(r) => {
                if matches!(
                    r.status,
                    RunStatus::Completed | RunStatus::Failed | RunStatus::Canceled
                ) {
                    assert!(final_response.is_none(), "two terminal events");
                    final_response = Some(r.clone());
                }
            }
            Event::Message(msg) if msg.status == RunStatus::InProgress => {
                assert!(parts.insert(msg.id.clone(), BTreeMap::new()).is_none());
            }
            Event::Message(msg) => {
                let folded = parts.get(&msg.id).expect("completed message never started");
                let nested: BTreeMap<i64, ContentBody> = msg
                    .content
                    .iter()
                    .flatten()
                    .map(|c| (c.index.unwrap(), c.body.clone()))
                    .collect();
                assert_eq!(&nested, folded);
                let mut m = msg.clone();
                m.sequence_number = None;
                completed.push(m);
            }
            Event::Content(c) => {
                assert!(final_response.is_none());
                let msg = parts
                    .get_mut(c.msg_id.as_ref().unwrap())
                    .expect("content of an unannounced message");
                let idx = c.index.unwrap();
                if c.delta == Some(true) {
                    let stored = msg
                        .entry(idx)
                        .or_insert_with(|| ContentBody::empty(c.body.content_type().unwrap()));
                    match (stored, &c.body) {
                        (ContentBody::Text { text: a }, ContentBody::Text { text: b })
                        | (
                            ContentBody::Refusal { refusal: a },
                            ContentBody::Refusal { refusal: b },
                        ) => a
                            .get_or_insert_with(String::new)
                            .push_str(b.as_deref().unwrap()),
                        (ContentBody::Data { data: a }, ContentBody::Data { data: b }) => {
                            merge_data_into(a.get_or_insert_with(JsonMap::new), b.clone().unwrap())
                        }
                        other => panic!("delta on {other:?}"),
                    }
                } else {
                    if c.status == Some(RunStatus::Completed) {
                        if let Some(stored) = msg.get(&idx) {
                            assert_eq!(stored, &c.body, "completed value != folded deltas");
                        }
                    }
                    msg.insert(idx, c.body.clone());
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    let Some(fin) = final_response else {
        assert!(!model.finished);
        return;
    };
    assert_eq!(Some(fin.status.clone()), model.status);
    assert_eq!(fin.usage, model.usage);
    let output = fin.output.clone().unwrap();
    assert_eq!(output, completed, "output != the completed message events");
    let built: Vec<(String, Vec<ContentBody>)> = model
        .output
        .iter()
        .map(|&i| {
            let m = &model.msgs[i];
            (
                m.id.clone(),
                m.parts.iter().map(|p| p.body.clone()).collect(),
            )
        })
        .collect();
    let got: Vec<(String, Vec<ContentBody>)> = output
        .iter()
        .map(|m| {
            (
                m.id.clone(),
                m.content.iter().flatten().map(|c| c.body.clone()).collect(),
            )
        })
        .collect();
    assert_eq!(got, built, "output != the messages built");
    for m in &output {
        assert_eq!(m.status, RunStatus::Completed);
        assert_ne!(m.message_type, MessageType::Other(String::new()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_call_sequence_is_refused_or_well_formed(
        ops in prop::collection::vec(op(), 0..60),
        ndjson in any::<bool>(),
        finish in any::<bool>(),
        split in 0usize..4000,
    ) {
        let format = if ndjson { Format::Ndjson } else { Format::Sse };
        let rb = ResponseBuilder::new(
            BuilderOptions::new().format(format).clock(FixedClock(1_700_000_000)),
        ).unwrap();
        let mut run = Run { rb, model: Model::default(), ms: Vec::new(), cs: Vec::new(),
                            ts: Vec::new(), bytes: Vec::new() };
        for op in &ops {
            run.apply(op);
        }
        if finish {
            run.apply(&Op::Completed(true, false));
        }
        check_stream(&run.bytes, format, split, &run.model);
    }
}
