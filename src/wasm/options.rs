//! Option bags in, rejecting unknown keys so that a typo (`maxEventByte`) is an error, not a
//! silent default. One reader per option bag of `StreamAssembler`, `Translator` and the builder
//! classes.
//!
//! A bag arrives as its JSON text (or `undefined` for none): the package's JS layer
//! (`pkg-template/values.js`) reads the JS object inside a `try` and checks it before anything
//! crosses into wasm, so no JS code runs while wasm reads it. A key whose value was `undefined`
//! is absent.

use serde_json::{Map, Value};

use crate::assembler::{AssemblerOptions, Protocol};
use crate::builder::{
    BuilderOptions, CompleteOptions, MessageOptions, ToolCallOptions, ToolKind, ToolOutputOptions,
};
use crate::codec::{Format, Limits};
#[cfg(feature = "client")]
use crate::depth::check_depth;
use crate::protocol::{Clock, ContentType, ErrorInfo, JsonMap, JsonValue, MessageType, Role};
use crate::responses::ResponseEcho;
use crate::{Error, ErrorCode, Result};

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidOption, message)
}

/// An option bag: the keys and values of a JS object, read from the JSON text the JS layer made
/// of it (none for `undefined` / `null`).
pub struct Bag(Option<Map<String, Value>>);

impl Bag {
    /// Reads the JSON text of an options object; `what` names the class or method in errors.
    ///
    /// # Errors
    /// `INVALID_OPTION` when the text is not the JSON of an object.
    pub fn parse(text: Option<&str>, what: &str) -> Result<Bag> {
        let Some(text) = text else {
            return Ok(Bag(None));
        };
        // agentwire's own reader: the same `Value` as serde_json's, with less code in lite.
        let JsonValue(value) = serde_json::from_str(text)
            .map_err(|e| invalid(format!("{what} options have no JSON form: {e}")))?;
        match value {
            Value::Null => Ok(Bag(None)),
            Value::Object(map) => {
                // What the builder keeps (usage, metadata, a tool output) must read back; the
                // lite build's options (StreamAssembler's) hold no such value.
                #[cfg(feature = "client")]
                for (key, value) in &map {
                    check_depth(value, ErrorCode::InvalidOption, &format!("{what}: {key}"))
                        .map_err(|e| e.with_field(key.clone()))?;
                }
                Ok(Bag(Some(map)))
            }
            _ => Err(invalid(format!("{what} options must be an object"))),
        }
    }

    /// A nested object read as a bag of its own (a skill of an agent description).
    #[cfg(feature = "full")]
    pub(crate) fn from_map(map: Map<String, Value>) -> Bag {
        Bag(Some(map))
    }

    /// Whether no options were given (`undefined` / `null`).
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_ref().and_then(|map| map.get(key))
    }

    /// The keys with their values, in the object's order.
    pub fn entries(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().flatten()
    }
}

/// Reads `maxEventBytes`: a whole number from 1 to `Number.MAX_SAFE_INTEGER` (2^53 - 1),
/// clamped to what this platform can address.
///
/// # Errors
/// `INVALID_OPTION` on `maxEventBytes` for anything else (0, a fraction, a negative number, a
/// number past 2^53 - 1, `NaN`, a non-number).
pub fn max_event_bytes(value: &Value) -> Result<Limits> {
    const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
    // The JS layer writes a whole number as digits, a fraction with a `.` or an exponent, and a
    // non-finite number as `null`: only a whole number in range reads as a `u64` here (without
    // a float parser, which the lite build leaves out).
    let limit = value
        .as_u64()
        .filter(|n| (1..=MAX_SAFE_INTEGER).contains(n))
        .ok_or_else(|| {
            invalid("maxEventBytes must be a positive integer".into()).with_field("maxEventBytes")
        })?;
    Limits::new().with_max_event_bytes(usize::try_from(limit).unwrap_or(usize::MAX))
}

/// Reads `{ protocol?, strict?, maxEventBytes?, format?, events?, generalPathOnly? }` for
/// `StreamAssembler`, from
/// the JSON text of the options object.
///
/// # Errors
/// `INVALID_OPTION` naming the key, for an unknown key or a value of the wrong type.
pub fn assembler_options(text: Option<&str>) -> Result<AssemblerOptions> {
    let bag = Bag::parse(text, "StreamAssembler")?;
    let mut options = AssemblerOptions::new();
    for (key, v) in bag.entries() {
        options = match key.as_str() {
            "protocol" => match v.as_str() {
                Some("auto") => options.with_protocol(None),
                Some(name) => match Protocol::from_name(name) {
                    #[cfg(not(feature = "client"))]
                    Some(p) if p != Protocol::AgentApi => return Err(invalid(format!(
                        "protocol \"{name}\" is not in agentwire/lite, which reads the Agent API only; import StreamAssembler from \"agentwire/client\" or \"agentwire\""
                    )).with_field("protocol")),
                    Some(p) => options.with_protocol(Some(p)),
                    None => return Err(invalid(format!(
                        "protocol must be \"auto\", \"agent-api\", \"ag-ui\", \"openai-responses\", \"a2a\" or \"a2a-0.3\", not \"{name}\""
                    )).with_field("protocol")),
                },
                None => return Err(invalid("protocol must be a string".into()).with_field("protocol")),
            },
            "strict" => match v.as_bool() {
                Some(b) => options.with_strict(b),
                None => return Err(invalid("strict must be a boolean".into()).with_field("strict")),
            },
            "maxEventBytes" => options.with_limits(max_event_bytes(v)?),
            "events" => match v.as_bool() {
                Some(b) => options.with_events(b),
                None => return Err(invalid("events must be a boolean".into()).with_field("events")),
            },
            "generalPathOnly" => match v.as_bool() {
                Some(b) => options.with_general_path_only(b),
                None => return Err(invalid("generalPathOnly must be a boolean".into()).with_field("generalPathOnly")),
            },
            "format" => match v.as_str() {
                Some("auto") => options.with_format(Format::Auto),
                Some("sse") => options.with_format(Format::Sse),
                Some("ndjson") => options.with_format(Format::Ndjson),
                _ => return Err(invalid(
                    "format must be \"auto\", \"sse\" or \"ndjson\"".into(),
                ).with_field("format")),
            },
            other => {
                return Err(invalid(format!("unknown StreamAssembler option \"{other}\"")).with_field(other))
            }
        };
    }
    Ok(options)
}

// ----- ResponseBuilder -----------------------------------------------------------------------

/// Absent or `null` → `None`, a string → `Some`, anything else → `INVALID_OPTION` on `key`.
pub(crate) fn opt_string(bag: &Bag, key: &str, what: &str) -> Result<Option<String>> {
    match bag.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => {
            Err(invalid(format!("{what}: {key} must be a string")).with_field(key.to_owned()))
        }
    }
}

/// A required string option.
pub(crate) fn req_string(bag: &Bag, key: &str, what: &str) -> Result<String> {
    opt_string(bag, key, what)?
        .ok_or_else(|| invalid(format!("{what}: {key} is required")).with_field(key.to_owned()))
}

/// A boolean option (absent → `None`).
pub(crate) fn opt_bool(bag: &Bag, key: &str, what: &str) -> Result<Option<bool>> {
    match bag.get(key) {
        None => Ok(None),
        Some(v) => v.as_bool().map(Some).ok_or_else(|| {
            invalid(format!("{what}: {key} must be a boolean")).with_field(key.to_owned())
        }),
    }
}

/// A list-of-strings option (absent or `null` → `None`).
#[cfg(feature = "full")]
pub(crate) fn opt_strings(bag: &Bag, key: &str, what: &str) -> Result<Option<Vec<String>>> {
    let wrong =
        || invalid(format!("{what}: {key} must be a list of strings")).with_field(key.to_owned());
    match bag.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(wrong),
        Some(_) => Err(wrong()),
    }
}

/// An object option (absent or `null` → `None`).
pub(crate) fn opt_object(bag: &Bag, key: &str, what: &str) -> Result<Option<JsonMap>> {
    match bag.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map.clone())),
        Some(_) => Err(
            invalid(format!("{what}: {key} expects a string or a plain object"))
                .with_field(key.to_owned()),
        ),
    }
}

/// Rejects keys outside `known`, naming the first one.
pub(crate) fn only_keys(bag: &Bag, known: &[&str], what: &str) -> Result<()> {
    for (key, _) in bag.entries() {
        if !known.contains(&key.as_str()) {
            return Err(invalid(format!(
                "unknown {what} option \"{key}\" (known: {})",
                known.join(", ")
            ))
            .with_field(key.clone()));
        }
    }
    Ok(())
}

/// Reads a `format` value: `"sse"` (also for `undefined`) or `"ndjson"`.
///
/// # Errors
/// `INVALID_OPTION` on `format` for anything else.
pub fn builder_format(value: Option<&Value>) -> Result<Format> {
    match value {
        None => Ok(Format::Sse),
        Some(Value::String(s)) if s == "sse" => Ok(Format::Sse),
        Some(Value::String(s)) if s == "ndjson" => Ok(Format::Ndjson),
        Some(_) => Err(invalid("format must be \"sse\" or \"ndjson\"".into()).with_field("format")),
    }
}

/// Reads `{ sessionId?, responseId?, format?, protocol?, threadId?, runId?, requestId?, model?,
/// request?, eventIds?, omitNulls? }` for
/// `new ResponseBuilder(options)`, from the JSON text of the options object.
///
/// # Errors
/// `INVALID_OPTION` naming the key, for an unknown key, a value of the wrong type, or an
/// unknown `protocol`.
pub fn builder_options(text: Option<&str>) -> Result<BuilderOptions> {
    const WHAT: &str = "ResponseBuilder";
    let bag = Bag::parse(text, WHAT)?;
    only_keys(
        &bag,
        &[
            "sessionId",
            "responseId",
            "format",
            "protocol",
            "threadId",
            "runId",
            "requestId",
            "model",
            "request",
            "eventIds",
            "omitNulls",
        ],
        WHAT,
    )?;
    let mut options = BuilderOptions::new().clock(JsClock);
    if let Some(id) = opt_string(&bag, "sessionId", WHAT)? {
        options = options.session_id(id);
    }
    if let Some(id) = opt_string(&bag, "responseId", WHAT)? {
        options = options.response_id(id);
    }
    options = options.format(builder_format(bag.get("format"))?);
    if let Some(name) = opt_string(&bag, "protocol", WHAT)? {
        match Protocol::from_name(&name) {
            Some(p) => options = options.protocol(p),
            None => {
                return Err(invalid(format!(
                "protocol must be \"agent-api\", \"ag-ui\", \"openai-responses\", \"a2a\" or \"a2a-0.3\", not \"{name}\""
            ))
                .with_field("protocol"))
            }
        }
    }
    match bag.get("requestId") {
        None => {}
        Some(v @ (Value::String(_) | Value::Null)) => options = options.request_id(v.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => {
            options = options.request_id(Value::Number(n.clone()));
        }
        Some(_) => {
            return Err(invalid(
                "ResponseBuilder: requestId must be a string, an integer or null".into(),
            )
            .with_field("requestId"))
        }
    }
    if let Some(id) = opt_string(&bag, "threadId", WHAT)? {
        options = options.thread_id(id);
    }
    if let Some(model) = opt_string(&bag, "model", WHAT)? {
        options = options.model(model);
    }
    if let Some(request) = opt_object(&bag, "request", WHAT)? {
        let echo = ResponseEcho::from_request(&request).map_err(|e| {
            invalid(format!("{WHAT}: request: {}", e.message()))
                .with_field(format!("request.{}", e.field().unwrap_or_default()))
        })?;
        options = options.echo(echo);
    }
    if let Some(yes) = opt_bool(&bag, "eventIds", WHAT)? {
        options = options.event_ids(yes);
    }
    if let Some(id) = opt_string(&bag, "runId", WHAT)? {
        options = options.run_id(id);
    }
    if let Some(yes) = opt_bool(&bag, "omitNulls", WHAT)? {
        options = options.omit_nulls(yes);
    }
    Ok(options)
}

/// Fills the message fields shared by `message()`, `toolCall()` and `toolOutput()`:
/// `role`, `id`, `usage`, `metadata`.
fn message_fields(bag: &Bag, mut options: MessageOptions, what: &str) -> Result<MessageOptions> {
    if let Some(Value::Null) = bag.get("role") {
        options = options.role(None);
    } else if let Some(name) = opt_string(bag, "role", what)? {
        let role = Role::from_wire(&name).ok_or_else(|| {
            invalid(format!(
                "{what}: role must be \"assistant\", \"user\", \"system\" or \"tool\", not \"{name}\""
            ))
            .with_field("role")
        })?;
        options = options.role(Some(role));
    }
    if let Some(id) = opt_string(bag, "id", what)? {
        options = options.id(id);
    }
    if let Some(usage) = opt_object(bag, "usage", what)? {
        options = options.usage(usage);
    }
    if let Some(metadata) = opt_object(bag, "metadata", what)? {
        options = options.metadata(metadata);
    }
    Ok(options)
}

/// Reads `{ role?, type?, id?, usage?, metadata? }` for `rb.message(options)`.
///
/// # Errors
/// `INVALID_OPTION` naming the key.
pub fn message_options(text: Option<&str>) -> Result<MessageOptions> {
    const WHAT: &str = "message()";
    let bag = Bag::parse(text, WHAT)?;
    only_keys(&bag, &["role", "type", "id", "usage", "metadata"], WHAT)?;
    let mut options = MessageOptions::new();
    if bag.is_none() {
        return Ok(options);
    }
    if let Some(t) = opt_string(&bag, "type", WHAT)? {
        options = options.message_type(MessageType::from_wire_owned(t));
    }
    message_fields(&bag, options, WHAT)
}

/// Reads a content part type (`undefined` → `text`). Only the value's type is looked at: no JS
/// code runs.
///
/// # Errors
/// `INVALID_OPTION` for anything but one of the seven type names.
pub fn content_type(value: &wasm_bindgen::JsValue) -> Result<ContentType> {
    if value.is_undefined() {
        return Ok(ContentType::Text);
    }
    value
        .as_string()
        .as_deref()
        .and_then(ContentType::from_wire)
        .ok_or_else(|| {
            invalid(
                "content() takes \"text\", \"data\", \"image\", \"audio\", \"file\", \"refusal\" or \"video\""
                    .into(),
            )
            .with_field("type")
        })
}

/// Reads `{ usage?, closeOpen? }` for `rb.completed(options)`.
///
/// # Errors
/// `INVALID_OPTION` naming the key.
pub fn complete_options(text: Option<&str>) -> Result<CompleteOptions> {
    const WHAT: &str = "completed()";
    let bag = Bag::parse(text, WHAT)?;
    only_keys(&bag, &["usage", "closeOpen"], WHAT)?;
    let mut options = CompleteOptions::new();
    if let Some(usage) = opt_object(&bag, "usage", WHAT)? {
        options = options.usage(usage);
    }
    if let Some(yes) = opt_bool(&bag, "closeOpen", WHAT)? {
        options = options.close_open(yes);
    }
    Ok(options)
}

/// Reads `{ code, message }` for `rb.failed(error)` (the JS layer reads these two properties,
/// own or inherited, so an `Error` object with a `code` works too).
///
/// # Errors
/// `INVALID_OPTION` naming `code` or `message` when it is missing or not a string.
pub fn error_info(text: &str) -> Result<ErrorInfo> {
    const WHAT: &str = "failed()";
    let bag = Bag::parse(Some(text), WHAT)?;
    if bag.is_none() {
        return Err(invalid(format!(
            "{WHAT} expects an object {{code, message}}"
        )));
    }
    Ok(ErrorInfo::new(
        req_string(&bag, "code", WHAT)?,
        req_string(&bag, "message", WHAT)?,
    ))
}

/// Reads a tool `type`: `"function"` (default), `"plugin"` or `"mcp"`.
fn tool_kind(bag: &Bag, what: &str) -> Result<ToolKind> {
    match opt_string(bag, "type", what)?.as_deref() {
        None | Some("function") => Ok(ToolKind::Function),
        Some("plugin") => Ok(ToolKind::Plugin),
        Some("mcp") => Ok(ToolKind::Mcp),
        Some(other) => Err(invalid(format!(
            "{what}: type must be \"function\", \"plugin\" or \"mcp\", not \"{other}\""
        ))
        .with_field("type")),
    }
}

/// Reads `{ name, callId, type?, arguments?, serverLabel?, id? }` for `rb.toolCall(options)`.
///
/// # Errors
/// `INVALID_OPTION` naming the key (`name` and `callId` are required).
pub fn tool_call_options(text: Option<&str>) -> Result<ToolCallOptions> {
    const WHAT: &str = "toolCall()";
    let bag = Bag::parse(text, WHAT)?;
    only_keys(
        &bag,
        &["name", "callId", "type", "arguments", "serverLabel", "id"],
        WHAT,
    )?;
    let kind = tool_kind(&bag, WHAT)?;
    let mut options = ToolCallOptions::new(
        kind,
        req_string(&bag, "callId", WHAT)?,
        req_string(&bag, "name", WHAT)?,
    );
    if let Some(arguments) = opt_string(&bag, "arguments", WHAT)? {
        options = options.arguments(arguments);
    }
    if let Some(label) = opt_string(&bag, "serverLabel", WHAT)? {
        if kind != ToolKind::Mcp {
            return Err(
                invalid(format!("{WHAT}: serverLabel is for type \"mcp\" only"))
                    .with_field("serverLabel"),
            );
        }
        options = options.server_label(label);
    }
    if let Some(id) = opt_string(&bag, "id", WHAT)? {
        options = options.message_id(id);
    }
    Ok(options)
}

/// Reads `{ callId, output, name?, type?, id? }` for `rb.toolOutput(options)`. A string `output`
/// is sent as is; any other JSON value is encoded as compact JSON text.
///
/// # Errors
/// `INVALID_OPTION` naming the key (`callId` and `output` are required).
pub fn tool_output_options(text: Option<&str>) -> Result<ToolOutputOptions> {
    const WHAT: &str = "toolOutput()";
    let bag = Bag::parse(text, WHAT)?;
    only_keys(&bag, &["callId", "output", "name", "type", "id"], WHAT)?;
    let kind = tool_kind(&bag, WHAT)?;
    let call_id = req_string(&bag, "callId", WHAT)?;
    let output = match bag.get("output") {
        Some(Value::String(text)) => text.clone(),
        Some(value) => serde_json::to_string(value).map_err(|e| {
            invalid(format!("{WHAT}: output: the value has no JSON form: {e}")).with_field("output")
        })?,
        None => return Err(invalid(format!("{WHAT}: output is required")).with_field("output")),
    };
    let mut options = ToolOutputOptions::new(kind, call_id, output);
    if let Some(name) = opt_string(&bag, "name", WHAT)? {
        options = options.name(name);
    }
    if let Some(id) = opt_string(&bag, "id", WHAT)? {
        options = options.message_id(id);
    }
    Ok(options)
}

/// The builder's clock on wasm32: `Date.now()`, in whole seconds.
#[derive(Debug, Clone, Copy)]
pub struct JsClock;

impl Clock for JsClock {
    fn now_secs(&self) -> i64 {
        // Milliseconds since the epoch, far inside i64 after the division.
        #[allow(clippy::cast_possible_truncation)]
        let secs = (js_sys::Date::now() / 1000.0).floor() as i64;
        secs
    }
}
