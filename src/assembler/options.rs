//! [`AssemblerOptions`].

use crate::Protocol;

use crate::codec::{Format, Limits};

/// How a [`StreamAssembler`](super::StreamAssembler) reads its input.
///
/// # Example
///
/// ```
/// use agentwire::assembler::AssemblerOptions;
/// use agentwire::Protocol;
/// use agentwire::codec::Limits;
///
/// let options = AssemblerOptions::new()
///     .with_protocol(Some(Protocol::AgentApi))
///     .with_strict(true)
///     .with_limits(Limits::default().with_max_event_bytes(1 << 20)?);
/// assert!(options.strict());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AssemblerOptions {
    protocol: Option<Protocol>,
    strict: bool,
    limits: Limits,
    format: Format,
    events: bool,
    general_path_only: bool,
}

impl AssemblerOptions {
    /// The defaults: protocol detected from the first event, tolerant, SSE or NDJSON detected,
    /// events up to 16 MiB.
    pub fn new() -> Self {
        Self::default()
    }

    /// The protocol of the stream; `None` detects it from the first event.
    #[must_use]
    pub fn with_protocol(mut self, protocol: Option<Protocol>) -> Self {
        self.protocol = protocol;
        self
    }

    /// Whether protocol violations are errors (`true`) or warnings (`false`, the default).
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Size limits for the framing layer.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The framing of the stream (SSE, NDJSON, or detected).
    #[must_use]
    pub fn with_format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// AG-UI: also report every event delivered to the reducer as an `Update::Event`.
    #[must_use]
    pub fn with_events(mut self, events: bool) -> Self {
        self.events = events;
        self
    }

    /// With `true`, every event is read by the general parser, bypassing the fast reader of
    /// content deltas: the same updates and snapshot, more slowly (tests compare the two).
    #[must_use]
    pub fn with_general_path_only(mut self, yes: bool) -> Self {
        self.general_path_only = yes;
        self
    }

    /// Whether the fast reader of content deltas is bypassed.
    pub fn general_path_only(&self) -> bool {
        self.general_path_only
    }

    /// Whether delivered AG-UI events are reported.
    pub fn events(&self) -> bool {
        self.events
    }

    /// The configured protocol (`None`: detect).
    pub fn protocol(&self) -> Option<Protocol> {
        self.protocol
    }

    /// Whether violations are errors.
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// The framing limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The configured framing.
    pub fn format(&self) -> Format {
        self.format
    }
}
