//! [`Outcome`]: how a stream ended.

/// How the stream ended, as far as the assembler knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Outcome {
    /// No terminal event yet, and input has not ended.
    #[default]
    Pending,
    /// The run completed.
    Completed,
    /// The run failed (including a bare `{"error": …}` event from the server).
    Failed,
    /// The run was canceled.
    Canceled,
    /// The run was rejected.
    Rejected,
    /// The run ended incomplete.
    Incomplete,
    /// Input ended without a terminal event (a dropped connection, an interrupted run), or
    /// stopped at a fatal input error.
    Truncated,
}

impl Outcome {
    /// The JS name: `"pending"`, `"completed"`, `"failed"`, `"canceled"`, `"rejected"`,
    /// `"incomplete"` or `"truncated"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Pending => "pending",
            Outcome::Completed => "completed",
            Outcome::Failed => "failed",
            Outcome::Canceled => "canceled",
            Outcome::Rejected => "rejected",
            Outcome::Incomplete => "incomplete",
            Outcome::Truncated => "truncated",
        }
    }

    /// Whether the outcome is settled (anything but `Pending`).
    pub const fn is_settled(self) -> bool {
        !matches!(self, Outcome::Pending)
    }
}

impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
