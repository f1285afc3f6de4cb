//! Checks shared by the Node and browser wasm-bindgen suites: each suite wraps every function
//! here in a `#[wasm_bindgen_test]`, so the same assertions run in both environments.

use agentwire::wasm::assembler::{StreamAssemblerCore, FAILED};
use agentwire::wasm::builder::ResponseBuilderCore;
use agentwire::wasm::{parse_event, parse_request};
use js_sys::{Array, Object, Reflect, Uint8Array, JSON};
use wasm_bindgen::{JsCast, JsValue};

/// Wraps every check above in a `#[wasm_bindgen_test]` of the same name, so each suite lists
/// them once (`every_check!();`) and they run in both environments.
#[macro_export]
macro_rules! every_check {
    () => {
        $crate::every_check!(request_defaults_in_reference_order, request_from_bytes_equals_request_from_string, results_are_plain_objects, event_round_trips_byte_for_byte, missing_input_names_the_field, out_of_range_n_names_the_field, malformed_json_is_invalid_json, invalid_utf8_reports_the_offset, errors_name_their_offset_once, wrong_argument_type_is_invalid_option, errors_do_not_poison_the_instance, builder_cores_share_one_builder, builder_release_finishes_children);
    };
    ($($name:ident),*) => {
        $(
            #[wasm_bindgen_test::wasm_bindgen_test]
            fn $name() {
                wasm_common::$name();
            }
        )*
    };
}

/// A content delta exactly as the reference's `model_dump_json()` writes it.
pub const CONTENT_EVENT: &str = r#"{"sequence_number":2,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi ✓"}"#;

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

fn keys(value: &JsValue) -> Vec<String> {
    Object::keys(value.unchecked_ref::<Object>())
        .iter()
        .map(|k| k.as_string().unwrap())
        .collect()
}

fn stringify(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().as_string().unwrap()
}

/// The thrown value, checked to be a real `Error` named `AgentwireError` with a string code.
fn thrown(result: Result<JsValue, JsValue>) -> JsValue {
    let error = result.expect_err("expected a thrown error");
    assert!(
        error.is_instance_of::<js_sys::Error>(),
        "not an Error: {error:?}"
    );
    assert_eq!(
        get(&error, "name").as_string().as_deref(),
        Some("AgentwireError")
    );
    error
}

fn code(error: &JsValue) -> String {
    get(error, "code").as_string().unwrap()
}

pub fn request_defaults_in_reference_order() {
    let request = parse_request(&JsValue::from_str(
        r#"{"input":[],"custom":{"b":1,"a":null}}"#,
    ))
    .unwrap();
    assert_eq!(
        keys(&request),
        [
            "input",
            "stream",
            "id",
            "model",
            "top_p",
            "temperature",
            "frequency_penalty",
            "presence_penalty",
            "max_tokens",
            "stop",
            "n",
            "seed",
            "tools",
            "session_id",
            "user_id",
            "custom"
        ]
    );
    assert_eq!(get(&request, "stream"), JsValue::TRUE);
    assert_eq!(get(&request, "n").as_f64(), Some(1.0));
    assert!(
        get(&request, "model").is_null(),
        "nulls are kept, not dropped"
    );
    // Unknown keys are kept, nested maps stay in insertion order with their nulls.
    assert_eq!(stringify(&get(&request, "custom")), r#"{"b":1,"a":null}"#);
}

pub fn request_from_bytes_equals_request_from_string() {
    // With an explicit message id: without one, each parse generates a fresh `msg_<uuid4>`.
    let text = r#"{"input":[{"id":"m1","role":"user","content":[{"type":"text","text":"héllo"}]}],"session_id":"s1"}"#;
    let from_str = parse_request(&JsValue::from_str(text)).unwrap();
    let from_bytes = parse_request(&Uint8Array::from(text.as_bytes()).into()).unwrap();
    assert_eq!(stringify(&from_str), stringify(&from_bytes));
    assert_eq!(
        get(&from_str, "session_id").as_string().as_deref(),
        Some("s1")
    );
    let input: Array = get(&from_str, "input").dyn_into().unwrap();
    assert_eq!(input.length(), 1);
    assert_eq!(
        get(&input.get(0), "role").as_string().as_deref(),
        Some("user")
    );
}

pub fn results_are_plain_objects() {
    let event = parse_event(&JsValue::from_str(CONTENT_EVENT)).unwrap();
    let proto = Object::get_prototype_of(&event);
    assert_eq!(
        JsValue::from(proto),
        JsValue::from(Object::get_prototype_of(&Object::new()))
    );
    let input = get(
        &parse_request(&JsValue::from_str(r#"{"input":[]}"#)).unwrap(),
        "input",
    );
    assert!(Array::is_array(&input));
}

pub fn event_round_trips_byte_for_byte() {
    let event = parse_event(&JsValue::from_str(CONTENT_EVENT)).unwrap();
    assert_eq!(stringify(&event), CONTENT_EVENT);
    let from_bytes = parse_event(&Uint8Array::from(CONTENT_EVENT.as_bytes()).into()).unwrap();
    assert_eq!(stringify(&from_bytes), CONTENT_EVENT);
}

pub fn missing_input_names_the_field() {
    let error = thrown(parse_request(&JsValue::from_str(r#"{"stream":true}"#)));
    assert_eq!(code(&error), "INVALID_REQUEST");
    assert_eq!(get(&error, "field").as_string().as_deref(), Some("input"));
    assert!(get(&error, "offset").is_undefined());
}

pub fn out_of_range_n_names_the_field() {
    let error = thrown(parse_request(&JsValue::from_str(r#"{"input":[],"n":6}"#)));
    assert_eq!(code(&error), "INVALID_REQUEST");
    assert_eq!(get(&error, "field").as_string().as_deref(), Some("n"));
}

pub fn malformed_json_is_invalid_json() {
    for text in ["", "{", r#"{"input":[]"#, "nul"] {
        let error = thrown(parse_request(&JsValue::from_str(text)));
        assert_eq!(code(&error), "INVALID_JSON", "for {text:?}");
        let error = thrown(parse_event(&JsValue::from_str(text)));
        assert_eq!(code(&error), "INVALID_JSON", "for {text:?}");
    }
}

pub fn invalid_utf8_reports_the_offset() {
    let bytes = Uint8Array::from(&b"{\"input\":[\xff]}"[..]);
    let error = thrown(parse_request(&bytes.into()));
    assert_eq!(code(&error), "INVALID_UTF8");
    assert_eq!(get(&error, "offset").as_f64(), Some(10.0));
}

/// The message says the byte offset once: appended when the text does not name it already.
pub fn errors_name_their_offset_once() {
    let bytes = Uint8Array::from(&b"{\"input\":[\xff]}"[..]);
    let error = thrown(parse_request(&bytes.into()));
    let message = get(&error, "message").as_string().unwrap();
    assert_eq!(message, "input is not valid UTF-8 at byte 10");
    let mut asm = StreamAssemblerCore::new(Some(r#"{"maxEventBytes":64}"#.to_owned())).unwrap();
    let event = format!("data: {}\n\n", "x".repeat(200));
    assert_eq!(asm.push_text(&event), FAILED);
    let error = asm.take_error();
    assert_eq!(code(&error), "EVENT_TOO_LARGE");
    assert_eq!(get(&error, "offset").as_f64(), Some(0.0));
    let message = get(&error, "message").as_string().unwrap();
    assert_eq!(message.matches("byte 0").count(), 1, "{message}");
}

pub fn wrong_argument_type_is_invalid_option() {
    for value in [
        JsValue::from_f64(42.0),
        JsValue::NULL,
        JsValue::UNDEFINED,
        Object::new().into(),
    ] {
        let error = thrown(parse_event(&value));
        assert_eq!(code(&error), "INVALID_OPTION");
    }
}

pub fn errors_do_not_poison_the_instance() {
    for _ in 0..100 {
        let _ = parse_request(&JsValue::from_str("{"));
        let _ = parse_event(&JsValue::from_f64(1.0));
    }
    let event = parse_event(&JsValue::from_str(CONTENT_EVENT)).unwrap();
    assert_eq!(get(&event, "text").as_string().as_deref(), Some("Hi ✓"));
}

/// The builder cores: children share the builder (one sequence), values convert (option bags and
/// object values arrive as the JSON text the package's JS layer makes), misuse is a coded error
/// that emits nothing.
pub fn builder_cores_share_one_builder() {
    let options = r#"{"responseId":"r1","sessionId":"s1"}"#.to_owned();
    let rb = ResponseBuilderCore::new(Some(options)).unwrap();
    let m = rb.message(None).unwrap();
    let text = m.content(JsValue::from_str("text")).unwrap();
    let data = m.content(JsValue::from_str("data")).unwrap();
    assert_eq!((text.index(), data.index()), (0, 1));
    let first = String::from_utf8(text.delta_text("Hi").unwrap()).unwrap();
    assert_eq!(
        first.matches("data: ").count(),
        4,
        "created, in_progress, start, delta"
    );
    let d = String::from_utf8(data.delta_json(r#"{"k":[1],"s":"a"}"#).unwrap()).unwrap();
    assert!(
        d.starts_with(r#"data: {"sequence_number":4,"object":"content""#),
        "{d}"
    );
    assert!(
        d.contains(r#""delta":true,"msg_id":"#)
            && d.ends_with(
                r#""data":{"k":[1],"s":"a"}}

"#
            ),
        "{d}"
    );
    for bad in ["1", "[1]", "{", &nested(101)] {
        let e = thrown(data.delta_json(bad).map(|_| JsValue::NULL));
        assert_eq!(code(&e), "INVALID_OPTION", "{bad}");
    }
    let e = thrown(rb.completed(None).map(|_| JsValue::NULL));
    assert_eq!(code(&e), "BUILDER_STATE");
    assert_eq!(
        rb.sequence_number().unwrap(),
        5.0,
        "nothing emitted by the failed calls"
    );
    text.complete().unwrap();
    data.complete().unwrap();
    m.complete().unwrap();
    let done = String::from_utf8(rb.completed(None).unwrap()).unwrap();
    assert!(done.contains(r#""status":"completed""#) && done.contains(r#""session_id":"s1""#));
    assert!(rb.finished());
}

/// `release()` ends the builder for every child: `FINISHED`, never a null-pointer error.
pub fn builder_release_finishes_children() {
    let rb = ResponseBuilderCore::new(None).unwrap();
    let m = rb.message(None).unwrap();
    let c = m.content(JsValue::UNDEFINED).unwrap();
    rb.release();
    rb.release();
    assert_eq!(
        code(&thrown(c.delta_text("x").map(|_| JsValue::NULL))),
        "FINISHED"
    );
    assert_eq!(code(&thrown(m.start().map(|_| JsValue::NULL))), "FINISHED");
    assert_eq!(
        code(&thrown(rb.created().map(|_| JsValue::NULL))),
        "FINISHED"
    );
    assert!(rb.finished());
    let protocol = r#"{"protocol":"grpc"}"#.to_owned();
    let e = thrown(ResponseBuilderCore::new(Some(protocol)).map(|_| JsValue::NULL));
    assert_eq!(code(&e), "INVALID_OPTION");
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("protocol"));
    // AG-UI output: a bad run id names the field; a good builder emits RUN_STARTED first.
    let bad = r#"{"protocol":"ag-ui","runId":7}"#.to_owned();
    let e = thrown(ResponseBuilderCore::new(Some(bad)).map(|_| JsValue::NULL));
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("runId"));
    let options = r#"{"protocol":"ag-ui","threadId":"t","runId":"r"}"#.to_owned();
    let rb = ResponseBuilderCore::new(Some(options)).unwrap();
    let bytes = rb.created().unwrap();
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"protocolVersion\":\"1.0\"}\n\n"
    );
}

/// `{"a":{"a":…1}}`, `levels` objects deep.
fn nested(levels: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(levels), "}".repeat(levels))
}
