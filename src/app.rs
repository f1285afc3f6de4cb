//! What an agent server answers besides streams: the HTTP error bodies of an `AgentApp`
//! (`{"error": {"code", "message", "field"?}}` with their status), for the JS `AgentApp` and
//! for native Rust servers alike. Request mapping lives with each protocol
//! ([`parse_request`](crate::protocol::parse_request), [`agent_request`](crate::responses::agent_request),
//! [`agui::agent_request`](crate::agui::agent_request), [`a2a::read_call`](crate::a2a::read_call)),
//! the agent card in [`a2a::AgentDescription`](crate::a2a::AgentDescription); the A2A answers
//! written from a run's log in [`a2a::task_answer`](crate::a2a::task_answer) and its
//! neighbours. [`lost_run_event`] is the terminal event of a run whose instance went away.

use crate::codec::write::{raw, string};
use crate::ErrorCode;

#[cfg(feature = "full")]
mod lost;
#[cfg(test)]
mod tests;

#[cfg(feature = "full")]
pub use lost::{lost_run_event, RUN_LOST_MESSAGE};

/// The SSE comment a server writes into a stream that has been quiet for a while: every SSE
/// reader ignores it, and it keeps proxies from closing an idle connection and lets a runtime
/// that only learns of a departed client from a failed write (workerd) learn it.
///
/// ```
/// assert_eq!(agentwire::app::KEEPALIVE_COMMENT, b": keepalive\n\n");
/// ```
pub const KEEPALIVE_COMMENT: &[u8] = b": keepalive\n\n";

/// Why an HTTP request to an agent server was refused; each has a status and a stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HttpErrorCode {
    /// 404: no such route (or a protocol switched off, or a run the caller may not see).
    NotFound,
    /// 405: the route does not take this method (the answer's `Allow` lists those it takes).
    MethodNotAllowed,
    /// 413: the body is over the size limit.
    BodyTooLarge,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 400: the body is not JSON text.
    InvalidJson,
    /// 400: the request fails validation (the error names the field).
    InvalidRequest,
    /// 401: `authorize` refused the request.
    Unauthorized,
    /// 409: the session already has a run going (one run per session).
    SessionBusy,
    /// 410: the run, or the part of it the cursor asks for, is no longer kept.
    RunGone,
    /// 500: the server failed.
    InternalError,
    /// 429: the server runs as many runs as it takes; try again later.
    TooManyRuns,
    /// 503: the run store cannot be reached (or refused the write); try again later.
    StoreUnavailable,
    /// 409: a run with the requested id exists already (ids are not reused).
    RunExists,
    /// 502: the instance running the run went away before it ended, and the request waited
    /// for its end (a non-streamed answer). A gateway's failure, not the client's nor this
    /// server's: the run failed upstream of the server answering. A stream gets the run's
    /// `RUN_LOST` failure event instead ([`lost_run_event`]).
    RunLost,
}

impl HttpErrorCode {
    /// The HTTP status.
    pub const fn status(self) -> u16 {
        match self {
            HttpErrorCode::NotFound => 404,
            HttpErrorCode::MethodNotAllowed => 405,
            HttpErrorCode::BodyTooLarge => 413,
            HttpErrorCode::UnsupportedMediaType => 415,
            HttpErrorCode::InvalidJson | HttpErrorCode::InvalidRequest => 400,
            HttpErrorCode::Unauthorized => 401,
            HttpErrorCode::SessionBusy => 409,
            HttpErrorCode::RunGone => 410,
            HttpErrorCode::InternalError => 500,
            HttpErrorCode::TooManyRuns => 429,
            HttpErrorCode::StoreUnavailable => 503,
            HttpErrorCode::RunExists => 409,
            HttpErrorCode::RunLost => 502,
        }
    }

    /// The stable code, e.g. `"BODY_TOO_LARGE"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            HttpErrorCode::NotFound => "NOT_FOUND",
            HttpErrorCode::MethodNotAllowed => "METHOD_NOT_ALLOWED",
            HttpErrorCode::BodyTooLarge => "BODY_TOO_LARGE",
            HttpErrorCode::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            HttpErrorCode::InvalidJson => "INVALID_JSON",
            HttpErrorCode::InvalidRequest => "INVALID_REQUEST",
            HttpErrorCode::Unauthorized => "UNAUTHORIZED",
            HttpErrorCode::SessionBusy => "SESSION_BUSY",
            HttpErrorCode::RunGone => "RUN_GONE",
            HttpErrorCode::InternalError => "INTERNAL_ERROR",
            HttpErrorCode::TooManyRuns => "TOO_MANY_RUNS",
            HttpErrorCode::StoreUnavailable => "STORE_UNAVAILABLE",
            HttpErrorCode::RunExists => "RUN_EXISTS",
            HttpErrorCode::RunLost => "RUN_LOST",
        }
    }

    /// Every code.
    pub const ALL: [HttpErrorCode; 14] = [
        HttpErrorCode::NotFound,
        HttpErrorCode::MethodNotAllowed,
        HttpErrorCode::BodyTooLarge,
        HttpErrorCode::UnsupportedMediaType,
        HttpErrorCode::InvalidJson,
        HttpErrorCode::InvalidRequest,
        HttpErrorCode::Unauthorized,
        HttpErrorCode::SessionBusy,
        HttpErrorCode::RunGone,
        HttpErrorCode::InternalError,
        HttpErrorCode::TooManyRuns,
        HttpErrorCode::StoreUnavailable,
        HttpErrorCode::RunExists,
        HttpErrorCode::RunLost,
    ];

    /// The code a stable string names (`None` for others).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// The answer to a request that a mapping refused with `code` (`INVALID_JSON` and
    /// `INVALID_UTF8` → 400 `INVALID_JSON`; anything else → 400 `INVALID_REQUEST`).
    pub fn for_request_error(code: ErrorCode) -> Self {
        match code {
            ErrorCode::InvalidJson | ErrorCode::InvalidUtf8 => HttpErrorCode::InvalidJson,
            _ => HttpErrorCode::InvalidRequest,
        }
    }
}

/// The JSON body of an error answer: `{"error":{"code":…,"message":…,"field":…}}` (`field` left
/// out when `None`).
///
/// ```
/// use agentwire::app::{error_body, HttpErrorCode};
///
/// let code = HttpErrorCode::InvalidRequest;
/// assert_eq!(code.status(), 400);
/// assert_eq!(error_body(code, "input is required.", Some("input")),
///            r#"{"error":{"code":"INVALID_REQUEST","message":"input is required.","field":"input"}}"#);
/// ```
pub fn error_body(code: HttpErrorCode, message: &str, field: Option<&str>) -> String {
    let mut out = Vec::with_capacity(48 + message.len());
    raw(&mut out, "{\"error\":{\"code\":\"");
    raw(&mut out, code.as_str());
    raw(&mut out, "\",\"message\":");
    string(&mut out, message);
    if let Some(field) = field {
        raw(&mut out, ",\"field\":");
        string(&mut out, field);
    }
    raw(&mut out, "}}");
    String::from_utf8(out).unwrap_or_default()
}
