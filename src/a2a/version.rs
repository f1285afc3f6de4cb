//! The two A2A protocol versions, and the `A2A-Version` header that names one.

/// An A2A protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum A2aVersion {
    /// A2A 0.3 (`message/stream`): results with `kind`, `final` on status updates, lowercase
    /// states, `TextPart` / `DataPart` / `FilePart`.
    #[default]
    V0_3,
    /// A2A 1.0 (`SendStreamingMessage`): each result a `StreamResponse` (`task`, `statusUpdate`,
    /// `artifactUpdate`), `TASK_STATE_*` and `ROLE_*` enums, flattened parts, fields at their
    /// default value left out, and no `final`: the stream ends after the terminal state.
    V1_0,
}

impl A2aVersion {
    /// The version an `A2A-Version` header (or `?A2A-Version=` query value) asks for, as the
    /// specification reads it (§3.6): absent or empty means 0.3; only `Major.Minor` counts, and
    /// a patch number is ignored; any 1.x is served as 1.0 and any 0.x as 0.3 (as `a2a-sdk`
    /// compares the major number only). `None` for a version agentwire does not speak (2.0, or
    /// text that is not a version): the request gets `VersionNotSupported` (-32009).
    ///
    /// ```
    /// use agentwire::a2a::A2aVersion;
    ///
    /// assert_eq!(A2aVersion::from_header(None), Some(A2aVersion::V0_3));
    /// assert_eq!(A2aVersion::from_header(Some(" 1.0 ")), Some(A2aVersion::V1_0));
    /// assert_eq!(A2aVersion::from_header(Some("0.3.0")), Some(A2aVersion::V0_3));
    /// assert_eq!(A2aVersion::from_header(Some("2.0")), None);
    /// ```
    pub fn from_header(value: Option<&str>) -> Option<Self> {
        let value = value.map(str::trim).unwrap_or_default();
        if value.is_empty() {
            return Some(A2aVersion::V0_3);
        }
        let mut numbers = value.split('.');
        let major = numbers.next().filter(|m| is_number(m))?;
        if !numbers.all(is_number) {
            return None;
        }
        match major.trim_start_matches('0') {
            "" => Some(A2aVersion::V0_3),
            "1" => Some(A2aVersion::V1_0),
            _ => None,
        }
    }

    /// The version as the `A2A-Version` header and `protocolVersion` write it: `"0.3"` or
    /// `"1.0"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            A2aVersion::V0_3 => "0.3",
            A2aVersion::V1_0 => "1.0",
        }
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_read_as_the_specification_says() {
        use A2aVersion::{V0_3, V1_0};
        for (header, expected) in [
            (None, Some(V0_3)),
            (Some(""), Some(V0_3)),
            (Some("  "), Some(V0_3)),
            (Some("0.3"), Some(V0_3)),
            (Some("0.2"), Some(V0_3)),
            (Some("1"), Some(V1_0)),
            (Some("1.0"), Some(V1_0)),
            (Some("1.0.1"), Some(V1_0)),
            (Some("1.5"), Some(V1_0)),
            (Some("01.0"), Some(V1_0)),
            (Some("2.0"), None),
            (Some("1.x"), None),
            (Some("v1.0"), None),
            (Some("1..0"), None),
            (Some("99999999999.0"), None),
        ] {
            assert_eq!(A2aVersion::from_header(header), expected, "{header:?}");
        }
    }
}
