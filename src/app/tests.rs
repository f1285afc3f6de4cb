//! Tests of the server answers: HTTP error codes and the `RUN_LOST` event.

use super::*;

#[test]
fn every_code_has_its_status_and_is_found_by_its_name() {
    let expected = [
        ("NOT_FOUND", 404),
        ("METHOD_NOT_ALLOWED", 405),
        ("BODY_TOO_LARGE", 413),
        ("UNSUPPORTED_MEDIA_TYPE", 415),
        ("INVALID_JSON", 400),
        ("INVALID_REQUEST", 400),
        ("UNAUTHORIZED", 401),
        ("SESSION_BUSY", 409),
        ("RUN_GONE", 410),
        ("INTERNAL_ERROR", 500),
        ("TOO_MANY_RUNS", 429),
        ("STORE_UNAVAILABLE", 503),
        ("RUN_EXISTS", 409),
        ("RUN_LOST", 502),
    ];
    assert_eq!(HttpErrorCode::ALL.len(), expected.len());
    for (code, (name, status)) in HttpErrorCode::ALL.into_iter().zip(expected) {
        assert_eq!(code.as_str(), name);
        assert_eq!(code.status(), status, "{name}");
        assert_eq!(HttpErrorCode::from_name(name), Some(code));
    }
    assert_eq!(HttpErrorCode::from_name("run_lost"), None);
    assert_eq!(HttpErrorCode::from_name(""), None);
    assert_eq!(
        error_body(HttpErrorCode::TooManyRuns, "Too many runs.", None),
        r#"{"error":{"code":"TOO_MANY_RUNS","message":"Too many runs."}}"#
    );
}

#[cfg(feature = "full")]
mod lost {
    use serde_json::{json, Value};

    use super::*;
    use crate::assembler::{AssemblerOptions, StreamAssembler};
    use crate::builder::{BuilderOptions, MessageOptions, ResponseBuilder, TextStream};
    use crate::protocol::FixedClock;
    use crate::Protocol;

    const PROTOCOLS: [Protocol; 5] = [
        Protocol::AgentApi,
        Protocol::AgUi,
        Protocol::OpenAiResponses,
        Protocol::A2a,
        Protocol::A2a03,
    ];

    fn options(protocol: Protocol) -> BuilderOptions {
        BuilderOptions::new()
            .protocol(protocol)
            .response_id("resp_1")
            .session_id("s1")
            .request_id(json!(3))
            .clock(FixedClock(1_700_000_000))
    }

    /// A run's log as an `AgentApp` keeps it: "Hello" streamed, the message still open.
    fn log(protocol: Protocol) -> (Vec<u8>, u64) {
        let rb = ResponseBuilder::new(options(protocol).event_ids(true)).unwrap();
        let (mut ts, mut log) = TextStream::begin(rb, MessageOptions::new().id("msg_1")).unwrap();
        log.extend(ts.token("Hel").unwrap());
        log.extend(ts.token("lo").unwrap());
        let events = String::from_utf8(log.clone())
            .unwrap()
            .matches("\n\n")
            .count();
        (log, u64::try_from(events).unwrap())
    }

    fn data(event: &str) -> Value {
        let line = event
            .lines()
            .find_map(|l| l.strip_prefix("data: "))
            .unwrap();
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn one_event_numbered_after_the_log_in_every_protocol() {
        for protocol in PROTOCOLS {
            let (log, next) = log(protocol);
            let event = lost_run_event(options(protocol), next, &log).unwrap();
            let text = String::from_utf8(event.clone()).unwrap();
            let head = format!("id: {next}\n");
            assert!(text.starts_with(&head), "{protocol:?}: {text}");
            assert!(text.ends_with("\n\n"), "{protocol:?}");
            assert_eq!(text.matches("\n\n").count(), 1, "{protocol:?}: {text}");
            assert_eq!(text.matches("data: ").count(), 1, "{protocol:?}");
            let data = data(&text);
            if matches!(protocol, Protocol::AgentApi | Protocol::OpenAiResponses) {
                assert_eq!(data["sequence_number"], next, "{protocol:?}");
            }
            // The log and the event read as a run that failed with RUN_LOST.
            let mut asm =
                StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
            asm.push(&log).unwrap();
            asm.push(&event).unwrap();
            asm.finish().unwrap();
            assert_eq!(asm.outcome().as_str(), "failed", "{protocol:?}");
            let snapshot = asm.snapshot().to_string();
            assert!(
                snapshot.contains(RUN_LOST_MESSAGE),
                "{protocol:?}: {snapshot}"
            );
            if protocol != Protocol::OpenAiResponses {
                assert!(snapshot.contains("RUN_LOST"), "{protocol:?}: {snapshot}");
            }
        }
    }

    #[test]
    fn it_is_the_builder_s_own_failure_event() {
        for protocol in [Protocol::AgUi, Protocol::A2a, Protocol::A2a03] {
            let mut rb = ResponseBuilder::new(options(protocol)).unwrap();
            let written = rb
                .failed(crate::protocol::ErrorInfo::new(
                    "RUN_LOST",
                    RUN_LOST_MESSAGE,
                ))
                .unwrap();
            let written = String::from_utf8(written).unwrap();
            let last = written
                .trim_end_matches('\n')
                .rsplit("\n\n")
                .next()
                .unwrap();
            let event = lost_run_event(options(protocol), 41, b"").unwrap();
            assert_eq!(
                String::from_utf8(event).unwrap(),
                format!("id: 41\n{last}\n\n"),
                "{protocol:?}"
            );
        }
        // AG-UI's RUN_ERROR as the protocol defines it: its type, message and code.
        let event = lost_run_event(options(Protocol::AgUi), 5, b"").unwrap();
        let error = data(std::str::from_utf8(&event).unwrap());
        assert_eq!(error["type"], "RUN_ERROR");
        assert_eq!(error["message"], RUN_LOST_MESSAGE);
        assert_eq!(error["code"], "RUN_LOST");
        // The builder's options are the run's: the A2A JSON-RPC id, the ids of the run.
        let event = lost_run_event(options(Protocol::A2a), 0, b"").unwrap();
        let data = data(std::str::from_utf8(&event).unwrap());
        assert_eq!(data["id"], 3);
        assert_eq!(data["result"]["statusUpdate"]["taskId"], "resp_1");
        assert_eq!(
            data["result"]["statusUpdate"]["status"]["state"],
            "TASK_STATE_FAILED"
        );
    }

    #[test]
    fn a_responses_failure_carries_the_response_so_far() {
        let (log, next) = log(Protocol::OpenAiResponses);
        let event = lost_run_event(options(Protocol::OpenAiResponses), next, &log).unwrap();
        let text = String::from_utf8(event).unwrap();
        assert!(text.starts_with(&format!("id: {next}\nevent: response.failed\ndata: ")));
        let failed = data(&text);
        assert_eq!(failed["type"], "response.failed");
        let response = &failed["response"];
        assert_eq!(response["status"], "failed");
        assert_eq!(response["id"], "resp_1");
        assert_eq!(response["output"][0]["id"], "msg_1");
        assert_eq!(response["output"][0]["content"][0]["text"], "Hello");
        assert_eq!(response["usage"], Value::Null);
        // Keys keep the builder's order; output and usage are replaced in place.
        let keys: Vec<&String> = response.as_object().unwrap().keys().collect();
        let mut rb = ResponseBuilder::new(options(Protocol::OpenAiResponses)).unwrap();
        let own = rb
            .failed(crate::protocol::ErrorInfo::new(
                "RUN_LOST",
                RUN_LOST_MESSAGE,
            ))
            .unwrap();
        let own = String::from_utf8(own).unwrap();
        let own = data(own.trim_end_matches('\n').rsplit("\n\n").next().unwrap());
        let own_keys: Vec<&String> = own["response"].as_object().unwrap().keys().collect();
        assert_eq!(keys, own_keys);
        // Nothing logged yet: no output.
        let empty = lost_run_event(options(Protocol::OpenAiResponses), 0, b"").unwrap();
        let empty = data(std::str::from_utf8(&empty).unwrap());
        assert_eq!(empty["response"]["output"], json!([]));
        assert_eq!(empty["sequence_number"], 0);
    }

    #[test]
    fn a_log_that_cannot_be_read_and_bad_options_are_errors() {
        let err =
            lost_run_event(options(Protocol::OpenAiResponses), 1, b"data: \xff\n\n").unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::InvalidUtf8);
        // Other protocols do not read the log.
        assert!(lost_run_event(options(Protocol::AgentApi), 1, b"data: \xff\n\n").is_ok());
    }
}
