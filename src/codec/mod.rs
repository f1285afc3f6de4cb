//! Framing: bytes ⇄ event payloads (SSE, NDJSON), detection and limits.
