//! A2A over JSON-RPC 2.0: reading a request body into an [`A2aCall`] (method routing for both
//! versions, the `A2A-Version` check, params validation), and writing answers and
//! [`RpcError`]s as each version's SDKs read them.
//!
//! The rules follow `docs/a2a-1.0-wire.md` (§1, §4, §5): 0.3 method names (`message/send`) and
//! 1.0 ones (`SendMessage`) never overlap; a request is served in the version its
//! `A2A-Version` header names (absent: 0.3), and a method of the other version is refused with
//! `VersionNotSupported` (-32009), as `a2a-sdk` 1.x does; batches are refused (-32600); errors
//! are answered with HTTP 200, their 1.0 `data` an array of typed details
//! (`google.rpc.ErrorInfo`, and `google.rpc.BadRequest` naming the field), their 0.3 `data` an
//! object.

use serde_json::{Map, Value};

use crate::codec::write::{raw, string, value};
use crate::protocol::AgentRequest;

use super::request::from_message;
use super::A2aVersion;

/// A JSON-RPC method of A2A (1.0 names; [`A2aMethod::name`] gives each version's spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum A2aMethod {
    /// `SendMessage` / `message/send`: a message, answered with a Task or a Message.
    SendMessage,
    /// `SendStreamingMessage` / `message/stream`: a message, answered with an SSE stream.
    SendStreamingMessage,
    /// `GetTask` / `tasks/get`.
    GetTask,
    /// `ListTasks` (1.0 only).
    ListTasks,
    /// `CancelTask` / `tasks/cancel`.
    CancelTask,
    /// `SubscribeToTask` / `tasks/resubscribe`: the task's stream from now on.
    SubscribeToTask,
    /// `CreateTaskPushNotificationConfig` / `tasks/pushNotificationConfig/set`.
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig` / `tasks/pushNotificationConfig/get`.
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs` / `tasks/pushNotificationConfig/list`.
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig` / `tasks/pushNotificationConfig/delete`.
    DeleteTaskPushNotificationConfig,
    /// `GetExtendedAgentCard` / `agent/getAuthenticatedExtendedCard`.
    GetExtendedAgentCard,
}

/// Every method with its 1.0 and 0.3 names.
const METHODS: [(A2aMethod, &str, Option<&str>); 11] = [
    (A2aMethod::SendMessage, "SendMessage", Some("message/send")),
    (
        A2aMethod::SendStreamingMessage,
        "SendStreamingMessage",
        Some("message/stream"),
    ),
    (A2aMethod::GetTask, "GetTask", Some("tasks/get")),
    (A2aMethod::ListTasks, "ListTasks", None),
    (A2aMethod::CancelTask, "CancelTask", Some("tasks/cancel")),
    (
        A2aMethod::SubscribeToTask,
        "SubscribeToTask",
        Some("tasks/resubscribe"),
    ),
    (
        A2aMethod::CreateTaskPushNotificationConfig,
        "CreateTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/set"),
    ),
    (
        A2aMethod::GetTaskPushNotificationConfig,
        "GetTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/get"),
    ),
    (
        A2aMethod::ListTaskPushNotificationConfigs,
        "ListTaskPushNotificationConfigs",
        Some("tasks/pushNotificationConfig/list"),
    ),
    (
        A2aMethod::DeleteTaskPushNotificationConfig,
        "DeleteTaskPushNotificationConfig",
        Some("tasks/pushNotificationConfig/delete"),
    ),
    (
        A2aMethod::GetExtendedAgentCard,
        "GetExtendedAgentCard",
        Some("agent/getAuthenticatedExtendedCard"),
    ),
];

impl A2aMethod {
    /// The method a JSON-RPC method name means, and the version that name belongs to.
    pub fn from_name(name: &str) -> Option<(Self, A2aVersion)> {
        METHODS.iter().find_map(|&(method, v1, v03)| {
            if name == v1 {
                Some((method, A2aVersion::V1_0))
            } else if Some(name) == v03 {
                Some((method, A2aVersion::V0_3))
            } else {
                None
            }
        })
    }

    /// The method's name in `version` (`None`: `ListTasks` has no 0.3 JSON-RPC name).
    pub fn name(self, version: A2aVersion) -> Option<&'static str> {
        let &(_, v1, v03) = METHODS.iter().find(|(m, _, _)| *m == self)?;
        match version {
            A2aVersion::V0_3 => v03,
            A2aVersion::V1_0 => Some(v1),
        }
    }

    /// Whether the method is answered with an SSE stream rather than one JSON body.
    pub fn is_streaming(self) -> bool {
        matches!(
            self,
            A2aMethod::SendStreamingMessage | A2aMethod::SubscribeToTask
        )
    }
}

/// A JSON-RPC error code of A2A: the standard JSON-RPC ones and the A2A ones (-32001 …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RpcErrorCode {
    /// -32700: the body is not JSON.
    ParseError,
    /// -32600: not a JSON-RPC 2.0 request object (a batch, no method, a bad id).
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: the params do not have the method's shape.
    InvalidParams,
    /// -32603: the server failed.
    InternalError,
    /// -32001: no task with that id (or not one the caller may see).
    TaskNotFound,
    /// -32002: the task is in a state that cannot be canceled.
    TaskNotCancelable,
    /// -32003: push notifications are not supported.
    PushNotificationNotSupported,
    /// -32004: the operation is not supported (e.g. subscribing to a finished task).
    UnsupportedOperation,
    /// -32005: none of the accepted output modes can be produced.
    ContentTypeNotSupported,
    /// -32006: the agent answered something A2A does not allow.
    InvalidAgentResponse,
    /// -32007: no extended agent card is configured.
    ExtendedAgentCardNotConfigured,
    /// -32008: the client must support an extension it did not declare.
    ExtensionSupportRequired,
    /// -32009: the `A2A-Version` asked for is not served (or the method is of the other
    /// version).
    VersionNotSupported,
}

impl RpcErrorCode {
    /// The JSON-RPC `code` number.
    pub const fn code(self) -> i32 {
        match self {
            RpcErrorCode::ParseError => -32700,
            RpcErrorCode::InvalidRequest => -32600,
            RpcErrorCode::MethodNotFound => -32601,
            RpcErrorCode::InvalidParams => -32602,
            RpcErrorCode::InternalError => -32603,
            RpcErrorCode::TaskNotFound => -32001,
            RpcErrorCode::TaskNotCancelable => -32002,
            RpcErrorCode::PushNotificationNotSupported => -32003,
            RpcErrorCode::UnsupportedOperation => -32004,
            RpcErrorCode::ContentTypeNotSupported => -32005,
            RpcErrorCode::InvalidAgentResponse => -32006,
            RpcErrorCode::ExtendedAgentCardNotConfigured => -32007,
            RpcErrorCode::ExtensionSupportRequired => -32008,
            RpcErrorCode::VersionNotSupported => -32009,
        }
    }

    /// The `google.rpc.ErrorInfo` `reason` 1.0 gives the code, e.g. `"TASK_NOT_FOUND"`.
    pub const fn reason(self) -> &'static str {
        match self {
            RpcErrorCode::ParseError => "PARSE_ERROR",
            RpcErrorCode::InvalidRequest => "INVALID_REQUEST",
            RpcErrorCode::MethodNotFound => "METHOD_NOT_FOUND",
            RpcErrorCode::InvalidParams => "INVALID_PARAMS",
            RpcErrorCode::InternalError => "INTERNAL_ERROR",
            RpcErrorCode::TaskNotFound => "TASK_NOT_FOUND",
            RpcErrorCode::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            RpcErrorCode::PushNotificationNotSupported => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            RpcErrorCode::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            RpcErrorCode::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            RpcErrorCode::InvalidAgentResponse => "INVALID_AGENT_RESPONSE",
            RpcErrorCode::ExtendedAgentCardNotConfigured => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            RpcErrorCode::ExtensionSupportRequired => "EXTENSION_SUPPORT_REQUIRED",
            RpcErrorCode::VersionNotSupported => "VERSION_NOT_SUPPORTED",
        }
    }

    /// The code a JSON-RPC `code` number names (`None` for numbers A2A does not define).
    pub fn from_code(code: i64) -> Option<Self> {
        ALL_CODES.into_iter().find(|c| i64::from(c.code()) == code)
    }

    /// The code a `reason` names, e.g. `"TASK_NOT_FOUND"` (the name JS code passes).
    pub fn from_reason(reason: &str) -> Option<Self> {
        ALL_CODES.into_iter().find(|c| c.reason() == reason)
    }
}

const ALL_CODES: [RpcErrorCode; 14] = [
    RpcErrorCode::ParseError,
    RpcErrorCode::InvalidRequest,
    RpcErrorCode::MethodNotFound,
    RpcErrorCode::InvalidParams,
    RpcErrorCode::InternalError,
    RpcErrorCode::TaskNotFound,
    RpcErrorCode::TaskNotCancelable,
    RpcErrorCode::PushNotificationNotSupported,
    RpcErrorCode::UnsupportedOperation,
    RpcErrorCode::ContentTypeNotSupported,
    RpcErrorCode::InvalidAgentResponse,
    RpcErrorCode::ExtendedAgentCardNotConfigured,
    RpcErrorCode::ExtensionSupportRequired,
    RpcErrorCode::VersionNotSupported,
];

/// A JSON-RPC error answer: the request id it answers (null when unknown), the version whose
/// shape it is written in, the code, a full-sentence message, and optionally the offending
/// field and more `ErrorInfo` metadata (string values, as `google.rpc.ErrorInfo` has them).
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The `id` of the request it answers.
    pub id: Value,
    /// The version whose error shape [`RpcError::to_json`] writes.
    pub version: A2aVersion,
    /// The error code.
    pub code: RpcErrorCode,
    /// What went wrong, in a sentence.
    pub message: String,
    /// The field at fault, as a path from the request (`params.message.parts`).
    pub field: Option<String>,
    /// More detail, e.g. `taskId`.
    pub metadata: Vec<(String, String)>,
}

impl RpcError {
    /// An error with `code` and `message`, answering id null, in the 1.0 shape.
    pub fn new(code: RpcErrorCode, message: impl Into<String>) -> Self {
        RpcError {
            id: Value::Null,
            version: A2aVersion::V1_0,
            code,
            message: message.into(),
            field: None,
            metadata: Vec::new(),
        }
    }

    /// The same error answering the request `id`.
    #[must_use]
    pub fn with_id(mut self, id: Value) -> Self {
        self.id = id;
        self
    }

    /// The same error written in `version`'s shape.
    #[must_use]
    pub fn with_version(mut self, version: A2aVersion) -> Self {
        self.version = version;
        self
    }

    /// The same error naming the field at fault.
    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The same error with one more metadata entry.
    #[must_use]
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.push((key.into(), value.into()));
        self
    }

    /// The JSON-RPC error response: `{"jsonrpc":"2.0","id":…,"error":{"code","message","data"}}`.
    /// In 1.0, `data` is an array of typed details: a `google.rpc.ErrorInfo` (reason, domain
    /// `a2a-protocol.org`, metadata with the field) and, when a field is named, a
    /// `google.rpc.BadRequest`; in 0.3 it is an object (`field` and the metadata), left out when
    /// empty.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(160 + self.message.len());
        raw(&mut out, "{\"jsonrpc\":\"2.0\",\"id\":");
        value(&mut out, &self.id);
        raw(&mut out, ",\"error\":{\"code\":");
        raw(&mut out, &self.code.code().to_string());
        raw(&mut out, ",\"message\":");
        string(&mut out, &self.message);
        let entries = self
            .field
            .iter()
            .map(|f| ("field", f.as_str()))
            .chain(self.metadata.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        match self.version {
            A2aVersion::V1_0 => {
                raw(
                    &mut out,
                    ",\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"",
                );
                raw(&mut out, self.code.reason());
                raw(
                    &mut out,
                    "\",\"domain\":\"a2a-protocol.org\",\"metadata\":{",
                );
                write_entries(&mut out, entries);
                raw(&mut out, "}}");
                if let Some(field) = &self.field {
                    raw(
                        &mut out,
                        ",{\"@type\":\"type.googleapis.com/google.rpc.BadRequest\",\"fieldViolations\":[{\"field\":",
                    );
                    string(&mut out, field);
                    raw(&mut out, ",\"description\":");
                    string(&mut out, &self.message);
                    raw(&mut out, "}]}");
                }
                raw(&mut out, "]");
            }
            _ => {
                if self.field.is_some() || !self.metadata.is_empty() {
                    raw(&mut out, ",\"data\":{");
                    write_entries(&mut out, entries);
                    raw(&mut out, "}");
                }
            }
        }
        raw(&mut out, "}}");
        String::from_utf8(out).unwrap_or_default()
    }
}

fn write_entries<'a>(out: &mut Vec<u8>, entries: impl Iterator<Item = (&'a str, &'a str)>) {
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            raw(out, ",");
        }
        string(out, k);
        raw(out, ":");
        string(out, v);
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.code.reason(),
            self.code.code(),
            self.message
        )
    }
}

impl std::error::Error for RpcError {}

/// A JSON-RPC success response: `{"jsonrpc":"2.0","id":…,"result":…}`.
pub fn rpc_result(id: &Value, result: &Value) -> String {
    let mut out = Vec::new();
    raw(&mut out, "{\"jsonrpc\":\"2.0\",\"id\":");
    value(&mut out, id);
    raw(&mut out, ",\"result\":");
    value(&mut out, result);
    raw(&mut out, "}");
    String::from_utf8(out).unwrap_or_default()
}

/// A valid A2A JSON-RPC request, read by [`read_call`].
#[derive(Debug, Clone, PartialEq)]
pub struct A2aCall {
    /// The request `id` (a string, an integer, or null), for the answer.
    pub id: Value,
    /// The method.
    pub method: A2aMethod,
    /// The version it is served in (the answer's shape).
    pub version: A2aVersion,
    /// `params` as sent (an empty object when absent; 1.0: proto field names, `task_id`, renamed
    /// to their lowerCamelCase, `taskId`).
    pub params: Map<String, Value>,
    /// For the two send methods: the message as an Agent API request (`stream` true for the
    /// streaming one).
    pub request: Option<AgentRequest>,
    /// For the task methods (get, cancel, subscribe, push configs): the task `id` (0.3 push
    /// configs: `taskId`).
    pub task_id: Option<String>,
    /// `historyLength` (get, and the send methods' `configuration`), when given.
    pub history_length: Option<u32>,
    /// For `SendMessage`: whether to answer at once rather than when the task ends or needs
    /// input (1.0 `configuration.returnImmediately`; 0.3 `configuration.blocking: false`).
    pub return_immediately: bool,
}

/// Reads a JSON-RPC request body sent to an A2A endpoint, with the request's `A2A-Version`
/// header (or `?A2A-Version=` query value; `None` when absent).
///
/// # Errors
///
/// The [`RpcError`] to answer with (boxed: it is large beside the call), in the shape of the version being spoken (the method's,
/// else the header's): `ParseError` for a body that is not JSON (or nested deeper than 128);
/// `InvalidRequest` for a batch, a body that is not an object, `jsonrpc` other than `"2.0"`, an
/// `id` that is not a string, integer or null, or no `method`; `MethodNotFound` for a name of
/// neither version; `VersionNotSupported` for a header naming another version (2.0) or a method
/// of the version the header does not name (a 1.0 method without `A2A-Version: 1.0`);
/// `InvalidParams`, naming the field, for `params` that are not an object, a send without a
/// message with a `parts` list, a task method without a string `id`, or a `historyLength` that
/// is not a non-negative integer.
///
/// # Example
///
/// ```
/// use agentwire::a2a::{read_call, A2aMethod, A2aVersion, RpcErrorCode};
///
/// let body = r#"{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"t1","historyLength":2}}"#;
/// let call = read_call(body, Some("1.0")).unwrap();
/// assert_eq!((call.method, call.version), (A2aMethod::GetTask, A2aVersion::V1_0));
/// assert_eq!((call.task_id.as_deref(), call.history_length), (Some("t1"), Some(2)));
///
/// let refused = read_call(body, None).unwrap_err(); // no header: 0.3
/// assert_eq!(refused.code, RpcErrorCode::VersionNotSupported);
/// assert!(refused.to_json().starts_with(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32009,"#));
/// ```
pub fn read_call(body: &str, version_header: Option<&str>) -> Result<A2aCall, Box<RpcError>> {
    read(body, version_header).map_err(Box::new)
}

/// [`read_call`], with the error unboxed (boxed once, at the public boundary).
#[allow(clippy::result_large_err)]
fn read(body: &str, version_header: Option<&str>) -> Result<A2aCall, RpcError> {
    let asked = A2aVersion::from_header(version_header);
    let shape = asked.unwrap_or(A2aVersion::V1_0);
    let fail = |code, message: String| RpcError::new(code, message).with_version(shape);
    let parsed: Value =
        crate::protocol::parse_repairing(body, |t| serde_json::from_str::<Value>(t)).map_err(
            |e| {
                fail(
                    RpcErrorCode::ParseError,
                    format!("The request body is not JSON: {e}."),
                )
            },
        )?;
    let Value::Object(mut envelope) = parsed else {
        let message = if parsed.is_array() {
            "Batch requests are not supported."
        } else {
            "The request is not a JSON-RPC request object."
        };
        return Err(fail(RpcErrorCode::InvalidRequest, message.to_string()));
    };
    let id = envelope.remove("id").unwrap_or(Value::Null);
    let id_ok = match &id {
        Value::Null | Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    if !id_ok {
        return Err(fail(
            RpcErrorCode::InvalidRequest,
            "The request `id` must be a string, an integer or null.".to_string(),
        )
        .with_field("id"));
    }
    let fail = |code, message: String| fail(code, message).with_id(id.clone());
    if envelope.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(fail(
            RpcErrorCode::InvalidRequest,
            "The request's `jsonrpc` must be \"2.0\".".to_string(),
        )
        .with_field("jsonrpc"));
    }
    let name = match envelope.get("method") {
        Some(Value::String(name)) if !name.is_empty() => name.as_str(),
        _ => {
            return Err(fail(
                RpcErrorCode::InvalidRequest,
                "The request has no `method`.".to_string(),
            )
            .with_field("method"))
        }
    };
    let Some((method, version)) = A2aMethod::from_name(name) else {
        return Err(fail(
            RpcErrorCode::MethodNotFound,
            format!("Method not found: {}.", clip(name)),
        )
        .with_metadata("method", clip(name)));
    };
    let fail = |code, message: String| fail(code, message).with_version(version);
    if asked != Some(version) {
        let named = version_header.map(str::trim).filter(|v| !v.is_empty());
        return Err(fail(
            RpcErrorCode::VersionNotSupported,
            format!(
                "A2A version '{}' is not supported by `{}`: it needs A2A-Version {}.",
                clip(named.unwrap_or("0.3")),
                name,
                version.as_str()
            ),
        )
        .with_metadata("version", clip(named.unwrap_or("0.3"))));
    }
    let params = match envelope.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => {
            return Err(fail(
                RpcErrorCode::InvalidParams,
                "The request's `params` must be an object.".to_string(),
            )
            .with_field("params"))
        }
    };
    let mut params = params;
    if version == A2aVersion::V1_0 {
        camel_keys(&mut params);
    }
    let invalid = |message: &str, field: &str| {
        fail(RpcErrorCode::InvalidParams, message.to_string()).with_field(field)
    };
    let mut call = A2aCall {
        id: id.clone(),
        method,
        version,
        params,
        request: None,
        task_id: None,
        history_length: None,
        return_immediately: false,
    };
    match method {
        A2aMethod::SendMessage | A2aMethod::SendStreamingMessage => {
            let message_ok = call
                .params
                .get("message")
                .and_then(Value::as_object)
                .is_some_and(|m| m.get("parts").is_some_and(Value::is_array));
            if !message_ok {
                return Err(invalid(
                    "The send request needs a `message` object with a `parts` list.",
                    "params.message",
                ));
            }
            let configuration = call.params.get("configuration");
            if configuration.is_some_and(|c| !c.is_null() && !c.is_object()) {
                return Err(invalid(
                    "`configuration` must be an object.",
                    "params.configuration",
                ));
            }
            let configuration = configuration.and_then(Value::as_object);
            call.history_length =
                history_length(configuration.and_then(|c| c.get("historyLength")), version)
                    .map_err(|()| {
                        invalid(
                            "`historyLength` must be a non-negative integer.",
                            "params.configuration.historyLength",
                        )
                    })?;
            call.return_immediately = match version {
                A2aVersion::V1_0 => configuration
                    .and_then(|c| c.get("returnImmediately"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                _ => configuration
                    .and_then(|c| c.get("blocking"))
                    .and_then(Value::as_bool)
                    .is_some_and(|blocking| !blocking),
            };
            let empty = Map::new();
            let message = call
                .params
                .get("message")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            let mut request = from_message(message).map_err(|e| {
                let field = match e.field() {
                    Some(f) if f.starts_with("params") => f.to_string(),
                    Some(f) => format!("params.message.{f}"),
                    None => "params.message".to_string(),
                };
                fail(RpcErrorCode::InvalidParams, e.message().to_string()).with_field(field)
            })?;
            request.stream = method == A2aMethod::SendStreamingMessage;
            call.request = Some(request);
        }
        A2aMethod::ListTasks | A2aMethod::GetExtendedAgentCard => {}
        _ => {
            // The task's id is `taskId` in the push-config requests (0.3: the `set` one
            // only), `id` elsewhere.
            let push = matches!(
                method,
                A2aMethod::CreateTaskPushNotificationConfig
                    | A2aMethod::GetTaskPushNotificationConfig
                    | A2aMethod::ListTaskPushNotificationConfigs
                    | A2aMethod::DeleteTaskPushNotificationConfig
            );
            let key = if push
                && (version == A2aVersion::V1_0
                    || method == A2aMethod::CreateTaskPushNotificationConfig)
            {
                "taskId"
            } else {
                "id"
            };
            match call.params.get(key) {
                Some(Value::String(s)) if !s.is_empty() => call.task_id = Some(s.clone()),
                _ => {
                    return Err(invalid(
                        &format!("The request needs the task's `{key}` (a non-empty string)."),
                        &format!("params.{key}"),
                    ))
                }
            }
            if method == A2aMethod::GetTask {
                call.history_length = history_length(call.params.get("historyLength"), version)
                    .map_err(|()| {
                        invalid(
                            "`historyLength` must be a non-negative integer.",
                            "params.historyLength",
                        )
                    })?;
            }
        }
    }
    Ok(call)
}

/// A `historyLength` value: absent or null → none; a non-negative integer (ProtoJSON also
/// writes int32 as a decimal string) → it, capped at `u32::MAX`. 0.3 reads 0 as "no limit"
/// (as `a2a-sdk` converts it).
fn history_length(v: Option<&Value>, version: A2aVersion) -> Result<Option<u32>, ()> {
    let n = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.as_u64().ok_or(())?,
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 20 => s.parse().map_err(|_| ())?,
        Some(_) => return Err(()),
    };
    if n == 0 && version == A2aVersion::V0_3 {
        return Ok(None);
    }
    Ok(Some(u32::try_from(n).unwrap_or(u32::MAX)))
}

/// 1.0's ProtoJSON takes a field by its lowerCamelCase name or by its proto name (`taskId` or
/// `task_id`): proto names are renamed to the lowerCamelCase ones, at every level but inside
/// the free-form values (`data`, `metadata`), and never over a key that is there already.
fn camel_keys(map: &mut Map<String, Value>) {
    let snake: Vec<String> = map.keys().filter(|k| k.contains('_')).cloned().collect();
    for key in snake {
        let Some(camel) = camel_of(&key) else {
            continue;
        };
        if !map.contains_key(&camel) {
            if let Some(v) = map.remove(&key) {
                map.insert(camel, v);
            }
        }
    }
    for (key, v) in map.iter_mut() {
        if key == "data" || key == "metadata" {
            continue;
        }
        match v {
            Value::Object(m) => camel_keys(m),
            Value::Array(items) => items
                .iter_mut()
                .filter_map(Value::as_object_mut)
                .for_each(camel_keys),
            _ => {}
        }
    }
}

/// `task_id` → `taskId`; `None` for a name that is not a proto field name (`_x`, `a__b`, `a_`).
fn camel_of(name: &str) -> Option<String> {
    let mut words = name.split('_');
    let mut out = words.next().filter(|w| !w.is_empty())?.to_string();
    for word in words {
        // Proto field names are ASCII (and Unicode's case tables would weigh on the wasm).
        let mut chars = word.chars();
        out.push(chars.next()?.to_ascii_uppercase());
        out.push_str(chars.as_str());
    }
    Some(out)
}

/// At most 64 characters of a name echoed in an error.
fn clip(s: &str) -> String {
    s.chars().take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(body: &str, header: Option<&str>) -> RpcErrorCode {
        read_call(body, header).unwrap_err().code
    }

    #[test]
    fn every_method_name_of_each_version_is_routed_and_refused_in_the_other() {
        for &(method, v1, v03) in &METHODS {
            assert_eq!(A2aMethod::from_name(v1), Some((method, A2aVersion::V1_0)));
            assert_eq!(method.name(A2aVersion::V1_0), Some(v1));
            assert_eq!(method.name(A2aVersion::V0_3), v03);
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{v1}","params":{{"id":"t","taskId":"t","message":{{"parts":[]}}}}}}"#
            );
            assert!(read_call(&body, Some("1.0")).is_ok(), "{v1}");
            assert_eq!(code(&body, None), RpcErrorCode::VersionNotSupported, "{v1}");
            if let Some(v03) = v03 {
                assert_eq!(A2aMethod::from_name(v03), Some((method, A2aVersion::V0_3)));
                let body = body.replace(v1, v03);
                assert!(read_call(&body, None).is_ok(), "{v03}");
                assert!(read_call(&body, Some("0.3")).is_ok(), "{v03}");
                assert_eq!(code(&body, Some("1.0")), RpcErrorCode::VersionNotSupported);
            }
        }
    }

    #[test]
    fn malformed_requests_get_the_codes_json_rpc_names() {
        use RpcErrorCode::*;
        let v1 = Some("1.0");
        for (body, expected) in [
            ("", ParseError),
            ("{", ParseError),
            (&"[".repeat(200), ParseError),
            ("[]", InvalidRequest),
            (
                r#"[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]"#,
                InvalidRequest,
            ),
            ("7", InvalidRequest),
            (
                r#"{"id":1,"method":"GetTask","params":{"id":"t"}}"#,
                InvalidRequest,
            ),
            (
                r#"{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"t"}}"#,
                InvalidRequest,
            ),
            (
                r#"{"jsonrpc":"2.0","id":true,"method":"GetTask","params":{"id":"t"}}"#,
                InvalidRequest,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"GetTask","params":{"id":"t"}}"#,
                InvalidRequest,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{},"method":"GetTask","params":{"id":"t"}}"#,
                InvalidRequest,
            ),
            (r#"{"jsonrpc":"2.0","id":1}"#, InvalidRequest),
            (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, InvalidRequest),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tasks/list"}"#,
                MethodNotFound,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"getTask"}"#,
                MethodNotFound,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask"}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[]}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":5}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","historyLength":-1}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","historyLength":1.5}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"CancelTask","params":{"id":""}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":"hi"}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":{}}}}"#,
                InvalidParams,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[]},"configuration":[]}}"#,
                InvalidParams,
            ),
        ] {
            let error = read_call(body, v1).unwrap_err();
            assert_eq!(error.code, expected, "{body:.80}");
            let answer: Value = serde_json::from_str(&error.to_json()).unwrap();
            assert_eq!(answer["error"]["code"], json!(expected.code()));
            assert_eq!(
                answer["error"]["data"][0]["reason"],
                json!(expected.reason())
            );
        }
        assert_eq!(
            code(
                r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}"#,
                Some("2.0")
            ),
            RpcErrorCode::VersionNotSupported
        );
    }

    #[test]
    fn the_id_is_echoed_and_errors_take_each_version_s_shape() {
        let e = read_call(
            r#"{"jsonrpc":"2.0","id":"abc","method":"GetTask","params":{}}"#,
            Some("1.0"),
        )
        .unwrap_err();
        assert_eq!(
            serde_json::from_str::<Value>(&e.to_json()).unwrap(),
            json!({"jsonrpc":"2.0","id":"abc","error":{"code":-32602,
                "message":"The request needs the task's `id` (a non-empty string).",
                "data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS",
                         "domain":"a2a-protocol.org","metadata":{"field":"params.id"}},
                        {"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[
                         {"field":"params.id","description":"The request needs the task's `id` (a non-empty string)."}]}]}})
        );
        let e = read_call(
            r#"{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{}}"#,
            None,
        )
        .unwrap_err();
        assert_eq!(
            serde_json::from_str::<Value>(&e.to_json()).unwrap(),
            json!({"jsonrpc":"2.0","id":3,"error":{"code":-32602,
                "message":"The request needs the task's `id` (a non-empty string).",
                "data":{"field":"params.id"}}})
        );
        let e =
            RpcError::new(RpcErrorCode::TaskNotFound, "No task t9.").with_version(A2aVersion::V0_3);
        assert_eq!(
            e.to_json(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"No task t9."}}"#
        );
    }

    #[test]
    fn one_point_zero_params_are_read_by_proto_field_names_too() {
        let v1 = Some("1.0");
        let push = r#"{"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig","params":{"task_id":"t1","url":"https://x"}}"#;
        assert_eq!(read_call(push, v1).unwrap().task_id.as_deref(), Some("t1"));
        let send = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"message_id":"m1","context_id":"c1","task_id":"t1","role":"ROLE_USER","parts":[{"text":"Hi"},{"data":{"a_b":1},"metadata":{"c_d":2}}]},"configuration":{"history_length":3,"return_immediately":true}}}"#;
        let call = read_call(send, v1).unwrap();
        let camel = read_call(
            &send
                .replace("message_id", "messageId")
                .replace("context_id", "contextId")
                .replace("task_id", "taskId")
                .replace("history_length", "historyLength")
                .replace("return_immediately", "returnImmediately"),
            v1,
        )
        .unwrap();
        assert_eq!(call, camel);
        assert_eq!(
            (call.history_length, call.return_immediately),
            (Some(3), true)
        );
        let request = call.request.unwrap();
        assert_eq!(
            (request.id.as_deref(), request.session_id.as_deref()),
            (Some("t1"), Some("c1"))
        );
        assert_eq!(request.input[0].id, "m1");
        // The free-form values keep their keys; a lowerCamelCase key wins over its proto name.
        assert_eq!(
            call.params["message"]["parts"][1]["data"],
            json!({"a_b": 1})
        );
        assert_eq!(
            call.params["message"]["parts"][1]["metadata"],
            json!({"c_d": 2})
        );
        let both = r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t1","historyLength":1,"history_length":"x"}}"#;
        assert_eq!(read_call(both, v1).unwrap().history_length, Some(1));
        // 0.3 is read as it always was.
        let v03 = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/set","params":{"task_id":"t1"}}"#;
        assert_eq!(
            read_call(v03, None).unwrap_err().code,
            RpcErrorCode::InvalidParams
        );
    }

    #[test]
    fn send_params_of_both_versions_become_the_same_request() {
        let v1 = read_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":
            {"messageId":"m1","role":"ROLE_USER","contextId":"c1","parts":[{"text":"Hi"}]},
            "configuration":{"returnImmediately":true,"historyLength":"3"}}}"#,
            Some("1.0"),
        )
        .unwrap();
        let v03 = read_call(r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":
            {"kind":"message","messageId":"m1","role":"user","contextId":"c1","parts":[{"kind":"text","text":"Hi"}]},
            "configuration":{"blocking":false,"historyLength":3}}}"#, None).unwrap();
        assert_eq!(v1.request, v03.request);
        assert!(v1.return_immediately && v03.return_immediately);
        assert_eq!((v1.history_length, v03.history_length), (Some(3), Some(3)));
        let request = v1.request.unwrap();
        assert!(!request.stream);
        assert_eq!(request.session_id.as_deref(), Some("c1"));
        let streamed = read_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":
            {"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"Hi"}]},
            "configuration":{"historyLength":0}}}"#,
            Some("0.3.0"),
        )
        .unwrap();
        assert!(streamed.request.unwrap().stream);
        assert_eq!(streamed.history_length, None, "0.3 reads 0 as no limit");
    }
}

/// The JSON-RPC request a client sends on an existing task: `method` (e.g. `"SubscribeToTask"`,
/// `"tasks/cancel"`) with `params: {"id": task_id}` and request id `id`.
///
/// ```
/// use agentwire::a2a::task_request;
/// use serde_json::json;
///
/// assert_eq!(task_request(&json!(7), "CancelTask", "task-1"),
///            r#"{"jsonrpc":"2.0","id":7,"method":"CancelTask","params":{"id":"task-1"}}"#);
/// ```
pub fn task_request(id: &Value, method: &str, task_id: &str) -> String {
    let mut out = Vec::with_capacity(64 + method.len() + task_id.len());
    raw(&mut out, "{\"jsonrpc\":\"2.0\",\"id\":");
    value(&mut out, id);
    raw(&mut out, ",\"method\":");
    string(&mut out, method);
    raw(&mut out, ",\"params\":{\"id\":");
    string(&mut out, task_id);
    raw(&mut out, "}}");
    String::from_utf8(out).unwrap_or_default()
}

/// A streaming send as a resuming client sees its own request: the request id, and the methods
/// of its version that resume (`SubscribeToTask` / `tasks/resubscribe`) and cancel
/// (`CancelTask` / `tasks/cancel`) the task it creates.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamingSend {
    /// The send's JSON-RPC id (the resume and cancel requests reuse it).
    pub id: Value,
    /// The method that resumes the task's stream.
    pub resume: &'static str,
    /// The method that cancels the task.
    pub cancel: &'static str,
}

/// Reads a request body a client is about to send: `Some` when it is a JSON-RPC streaming send
/// (`SendStreamingMessage`, or 0.3's `message/stream`), `None` for anything else (not JSON,
/// nested deeper than the limit, another method).
pub fn streaming_send(body: &str) -> Option<StreamingSend> {
    // serde_json refuses nesting deeper than its recursion limit: no unbounded recursion here.
    let Ok(Value::Object(call)) = serde_json::from_str::<Value>(body) else {
        return None;
    };
    if call.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return None;
    }
    let name = call.get("method").and_then(Value::as_str)?;
    let (A2aMethod::SendStreamingMessage, version) = A2aMethod::from_name(name)? else {
        return None;
    };
    Some(StreamingSend {
        id: call.get("id").cloned().unwrap_or(Value::Null),
        resume: A2aMethod::SubscribeToTask.name(version)?,
        cancel: A2aMethod::CancelTask.name(version)?,
    })
}

#[cfg(test)]
mod client_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_task_request_writes_ids_as_data() {
        assert_eq!(
            task_request(&json!("$'a\"b"), "tasks/resubscribe", "t\"1"),
            r#"{"jsonrpc":"2.0","id":"$'a\"b","method":"tasks/resubscribe","params":{"id":"t\"1"}}"#
        );
        assert_eq!(
            task_request(&Value::Null, "SubscribeToTask", "x"),
            r#"{"jsonrpc":"2.0","id":null,"method":"SubscribeToTask","params":{"id":"x"}}"#
        );
    }

    #[test]
    fn streaming_sends_of_both_versions_are_recognised_and_nothing_else() {
        let v1 = streaming_send(
            r#"{"jsonrpc":"2.0","id":3,"method":"SendStreamingMessage","params":{}}"#,
        )
        .unwrap();
        assert_eq!(
            (v1.id, v1.resume, v1.cancel),
            (json!(3), "SubscribeToTask", "CancelTask")
        );
        let v03 = streaming_send(r#"{"jsonrpc":"2.0","method":"message/stream"}"#).unwrap();
        assert_eq!(
            (v03.id, v03.resume, v03.cancel),
            (Value::Null, "tasks/resubscribe", "tasks/cancel")
        );
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"SendStreamingMessage"}"#,
            r#"[{"jsonrpc":"2.0","method":"message/stream"}]"#,
            "not json",
            "",
        ] {
            assert_eq!(streaming_send(body), None, "{body}");
        }
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(streaming_send(&deep), None);
    }
}
