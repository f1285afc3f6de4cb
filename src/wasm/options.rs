//! Option bags in: plain JS objects read into the core's option types, rejecting unknown keys
//! so that a typo (`maxEventByte`) is an error, not a silent default. One reader per option bag
//! of `StreamAssembler` and of the three builder classes.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::convert::{json_object, json_text};
use crate::assembler::{AssemblerOptions, Protocol};
use crate::builder::{
    BuilderOptions, CompleteOptions, MessageOptions, ToolCallOptions, ToolKind, ToolOutputOptions,
};
use crate::codec::{Format, Limits};
use crate::protocol::{Clock, ContentType, ErrorInfo, JsonMap, MessageType, Role};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidOption, message)
}

/// The own enumerable keys of an options object (`undefined`/`null` → none).
fn keys(value: &JsValue, what: &str) -> Result<Vec<String>> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let object = value
        .dyn_ref::<Object>()
        .filter(|_| value.is_object())
        .ok_or_else(|| invalid(format!("{what} options must be an object")))?;
    Ok(Object::keys(object)
        .iter()
        .filter_map(|k| k.as_string())
        .collect())
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `{ protocol?, strict?, maxEventBytes?, format?, events? }` for `StreamAssembler`.
///
/// # Errors
/// `INVALID_OPTION` naming the key, for an unknown key or a value of the wrong type.
pub fn assembler_options(value: &JsValue) -> Result<AssemblerOptions> {
    let mut options = AssemblerOptions::new();
    for key in keys(value, "StreamAssembler")? {
        let v = get(value, &key);
        if v.is_undefined() {
            continue;
        }
        options = match key.as_str() {
            "protocol" => match v.as_string().as_deref() {
                Some("auto") => options.with_protocol(None),
                Some(name) => match Protocol::from_name(name) {
                    #[cfg(not(feature = "full"))]
                    Some(p) if p != Protocol::AgentApi => return Err(invalid(format!(
                        "protocol \"{name}\" is not in agentwire/lite, which reads the Agent API only; import StreamAssembler from \"agentwire\""
                    )).with_field("protocol")),
                    Some(p) => options.with_protocol(Some(p)),
                    None => return Err(invalid(format!(
                        "protocol must be \"auto\", \"agent-api\", \"ag-ui\", \"openai-responses\" or \"a2a\", not \"{name}\""
                    )).with_field("protocol")),
                },
                None => return Err(invalid("protocol must be a string".into()).with_field("protocol")),
            },
            "strict" => match v.as_bool() {
                Some(b) => options.with_strict(b),
                None => return Err(invalid("strict must be a boolean".into()).with_field("strict")),
            },
            "maxEventBytes" => {
                let limit = v
                    .as_f64()
                    .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 4_294_967_295.0)
                    .ok_or_else(|| {
                        invalid("maxEventBytes must be a positive integer".into())
                            .with_field("maxEventBytes")
                    })?;
                // Checked above: a whole number in 1..=u32::MAX.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let limits = Limits::new().with_max_event_bytes(limit as usize)?;
                options.with_limits(limits)
            }
            "events" => match v.as_bool() {
                Some(b) => options.with_events(b),
                None => return Err(invalid("events must be a boolean".into()).with_field("events")),
            },
            "format" => match v.as_string().as_deref() {
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

/// The `protocol` values the builder accepts by name, and whether this version emits them.
const BUILDER_PROTOCOLS: &[(&str, bool)] = &[
    ("agent-api", true),
    ("ag-ui", true),
    ("openai-responses", true),
];

/// `undefined`/`null` → `None`, a string → `Some`, anything else → `INVALID_OPTION` on `key`.
fn opt_string(value: &JsValue, key: &str, what: &str) -> Result<Option<String>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or_else(|| {
        invalid(format!("{what}: {key} must be a string")).with_field(key.to_owned())
    })
}

/// A required string option.
fn req_string(options: &JsValue, key: &str, what: &str) -> Result<String> {
    opt_string(&get(options, key), key, what)?
        .ok_or_else(|| invalid(format!("{what}: {key} is required")).with_field(key.to_owned()))
}

/// A boolean option (`undefined` → `None`).
fn opt_bool(value: &JsValue, key: &str, what: &str) -> Result<Option<bool>> {
    if value.is_undefined() {
        return Ok(None);
    }
    value.as_bool().map(Some).ok_or_else(|| {
        invalid(format!("{what}: {key} must be a boolean")).with_field(key.to_owned())
    })
}

/// An object option (`undefined`/`null` → `None`), converted to a JSON map.
fn opt_object(value: &JsValue, key: &str, what: &str) -> Result<Option<JsonMap>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    json_object(value, &format!("{what}: {key}"))
        .map(Some)
        .map_err(|e| e.with_field(key.to_owned()))
}

/// Rejects keys of `value` outside `known`, naming the first one.
fn only_keys(value: &JsValue, known: &[&str], what: &str) -> Result<()> {
    for key in keys(value, what)? {
        if !known.contains(&key.as_str()) {
            return Err(invalid(format!(
                "unknown {what} option \"{key}\" (known: {})",
                known.join(", ")
            ))
            .with_field(key));
        }
    }
    Ok(())
}

/// Reads a `format` value: `"sse"` (also for `undefined`) or `"ndjson"`.
///
/// # Errors
/// `INVALID_OPTION` on `format` for anything else.
pub fn builder_format(value: &JsValue) -> Result<Format> {
    if value.is_undefined() {
        return Ok(Format::Sse);
    }
    match value.as_string().as_deref() {
        Some("sse") => Ok(Format::Sse),
        Some("ndjson") => Ok(Format::Ndjson),
        _ => Err(invalid("format must be \"sse\" or \"ndjson\"".into()).with_field("format")),
    }
}

/// Reads `{ sessionId?, responseId?, format?, protocol?, threadId?, runId?, omitNulls? }` for
/// `new ResponseBuilder(options)`, with the protocol to emit. `threadId` / `runId` belong to
/// AG-UI: they are checked (strings) here and read by [`builder_run_ids`].
///
/// # Errors
/// `INVALID_OPTION` naming the key, for an unknown key, a value of the wrong type, or an
/// unknown `protocol`.
pub fn builder_options(value: &JsValue) -> Result<(BuilderOptions, Protocol)> {
    const WHAT: &str = "ResponseBuilder";
    only_keys(
        value,
        &[
            "sessionId",
            "responseId",
            "format",
            "protocol",
            "threadId",
            "runId",
            "omitNulls",
        ],
        WHAT,
    )?;
    let mut options = BuilderOptions::new().clock(JsClock);
    let mut protocol = Protocol::AgentApi;
    if value.is_undefined() || value.is_null() {
        return Ok((options, protocol));
    }
    if let Some(id) = opt_string(&get(value, "sessionId"), "sessionId", WHAT)? {
        options = options.session_id(id);
    }
    if let Some(id) = opt_string(&get(value, "responseId"), "responseId", WHAT)? {
        options = options.response_id(id);
    }
    options = options.format(builder_format(&get(value, "format"))?);
    if let Some(name) = opt_string(&get(value, "protocol"), "protocol", WHAT)? {
        match BUILDER_PROTOCOLS.iter().find(|(n, _)| *n == name) {
            Some((_, true)) => protocol = Protocol::from_name(&name).unwrap_or(Protocol::AgentApi),
            Some((_, false)) => {
                return Err(invalid(format!(
                    "protocol \"{name}\" is not available in this version of ResponseBuilder; use \"agent-api\""
                ))
                .with_field("protocol"))
            }
            None => {
                return Err(invalid(format!(
                    "protocol must be \"agent-api\", \"ag-ui\" or \"openai-responses\", not \"{name}\""
                ))
                .with_field("protocol"))
            }
        }
    }
    opt_string(&get(value, "threadId"), "threadId", WHAT)?;
    opt_string(&get(value, "runId"), "runId", WHAT)?;
    if let Some(yes) = opt_bool(&get(value, "omitNulls"), "omitNulls", WHAT)? {
        options = options.omit_nulls(yes);
    }
    Ok((options, protocol))
}

/// Reads the AG-UI ids `{threadId?, runId?}` of `new ResponseBuilder(options)` (the other keys
/// are read by [`builder_options`]).
///
/// # Errors
/// `INVALID_OPTION` naming the key, for a value that is not a string.
pub fn builder_run_ids(value: &JsValue) -> Result<(Option<String>, Option<String>)> {
    const WHAT: &str = "ResponseBuilder";
    if value.is_undefined() || value.is_null() {
        return Ok((None, None));
    }
    Ok((
        opt_string(&get(value, "threadId"), "threadId", WHAT)?,
        opt_string(&get(value, "runId"), "runId", WHAT)?,
    ))
}

/// Fills the message fields shared by `message()`, `toolCall()` and `toolOutput()`:
/// `role`, `id`, `usage`, `metadata`.
fn message_fields(
    value: &JsValue,
    mut options: MessageOptions,
    what: &str,
) -> Result<MessageOptions> {
    let role = get(value, "role");
    if role.is_null() {
        options = options.role(None);
    } else if let Some(name) = opt_string(&role, "role", what)? {
        let role = Role::from_wire(&name).ok_or_else(|| {
            invalid(format!(
                "{what}: role must be \"assistant\", \"user\", \"system\" or \"tool\", not \"{name}\""
            ))
            .with_field("role")
        })?;
        options = options.role(Some(role));
    }
    if let Some(id) = opt_string(&get(value, "id"), "id", what)? {
        options = options.id(id);
    }
    if let Some(usage) = opt_object(&get(value, "usage"), "usage", what)? {
        options = options.usage(usage);
    }
    if let Some(metadata) = opt_object(&get(value, "metadata"), "metadata", what)? {
        options = options.metadata(metadata);
    }
    Ok(options)
}

/// Reads `{ role?, type?, id?, usage?, metadata? }` for `rb.message(options)`.
///
/// # Errors
/// `INVALID_OPTION` naming the key.
pub fn message_options(value: &JsValue) -> Result<MessageOptions> {
    const WHAT: &str = "message()";
    only_keys(value, &["role", "type", "id", "usage", "metadata"], WHAT)?;
    let mut options = MessageOptions::new();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    if let Some(t) = opt_string(&get(value, "type"), "type", WHAT)? {
        options = options.message_type(MessageType::from_wire_owned(t));
    }
    message_fields(value, options, WHAT)
}

/// Reads a content part type (`undefined` → `text`).
///
/// # Errors
/// `INVALID_OPTION` for anything but one of the seven type names.
pub fn content_type(value: &JsValue) -> Result<ContentType> {
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
pub fn complete_options(value: &JsValue) -> Result<CompleteOptions> {
    const WHAT: &str = "completed()";
    only_keys(value, &["usage", "closeOpen"], WHAT)?;
    let mut options = CompleteOptions::new();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    if let Some(usage) = opt_object(&get(value, "usage"), "usage", WHAT)? {
        options = options.usage(usage);
    }
    if let Some(yes) = opt_bool(&get(value, "closeOpen"), "closeOpen", WHAT)? {
        options = options.close_open(yes);
    }
    Ok(options)
}

/// Reads `{ code, message }` for `rb.failed(error)`. Only these two properties are read (own or
/// inherited), so an `Error` object with a `code` works too.
///
/// # Errors
/// `INVALID_OPTION` naming `code` or `message` when it is missing or not a string.
pub fn error_info(value: &JsValue) -> Result<ErrorInfo> {
    const WHAT: &str = "failed()";
    if !value.is_object() {
        return Err(invalid(format!(
            "{WHAT} expects an object {{code, message}}"
        )));
    }
    Ok(ErrorInfo::new(
        req_string(value, "code", WHAT)?,
        req_string(value, "message", WHAT)?,
    ))
}

/// Reads a tool `type`: `"function"` (default), `"plugin"` or `"mcp"`.
fn tool_kind(value: &JsValue, what: &str) -> Result<ToolKind> {
    match opt_string(value, "type", what)?.as_deref() {
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
pub fn tool_call_options(value: &JsValue) -> Result<ToolCallOptions> {
    const WHAT: &str = "toolCall()";
    only_keys(
        value,
        &["name", "callId", "type", "arguments", "serverLabel", "id"],
        WHAT,
    )?;
    let kind = tool_kind(&get(value, "type"), WHAT)?;
    let mut options = ToolCallOptions::new(
        kind,
        req_string(value, "callId", WHAT)?,
        req_string(value, "name", WHAT)?,
    );
    if let Some(arguments) = opt_string(&get(value, "arguments"), "arguments", WHAT)? {
        options = options.arguments(arguments);
    }
    if let Some(label) = opt_string(&get(value, "serverLabel"), "serverLabel", WHAT)? {
        if kind != ToolKind::Mcp {
            return Err(
                invalid(format!("{WHAT}: serverLabel is for type \"mcp\" only"))
                    .with_field("serverLabel"),
            );
        }
        options = options.server_label(label);
    }
    if let Some(id) = opt_string(&get(value, "id"), "id", WHAT)? {
        options = options.message_id(id);
    }
    Ok(options)
}

/// Reads `{ callId, output, name?, type?, id? }` for `rb.toolOutput(options)`. A string `output`
/// is sent as is; any other JSON value is encoded as compact JSON text.
///
/// # Errors
/// `INVALID_OPTION` naming the key (`callId` and `output` are required).
pub fn tool_output_options(value: &JsValue) -> Result<ToolOutputOptions> {
    const WHAT: &str = "toolOutput()";
    only_keys(value, &["callId", "output", "name", "type", "id"], WHAT)?;
    let kind = tool_kind(&get(value, "type"), WHAT)?;
    let call_id = req_string(value, "callId", WHAT)?;
    let output = get(value, "output");
    let output = if let Some(text) = output.as_string() {
        text
    } else if output.is_undefined() {
        return Err(invalid(format!("{WHAT}: output is required")).with_field("output"));
    } else {
        json_text(&output, &format!("{WHAT}: output")).map_err(|e| e.with_field("output"))?
    };
    let mut options = ToolOutputOptions::new(kind, call_id, output);
    if let Some(name) = opt_string(&get(value, "name"), "name", WHAT)? {
        options = options.name(name);
    }
    if let Some(id) = opt_string(&get(value, "id"), "id", WHAT)? {
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
