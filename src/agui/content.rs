//! Content parts: what a user message or a tool result carries besides plain text.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a media part's bytes come from (`PartSource`, discriminated by `type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum PartSource {
    /// Bytes carried inline, base64-encoded: `{"type":"data","value","mimeType"}`.
    #[serde(rename_all = "camelCase")]
    Data {
        /// The base64 payload.
        value: String,
        /// The media type (required for inline data).
        mime_type: String,
    },
    /// Bytes referenced by URL: `{"type":"url","value","mimeType"?}`.
    #[serde(rename_all = "camelCase")]
    Url {
        /// The URL.
        value: String,
        /// The media type, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A provider's file handle (new in 1.0): `{"type":"file","value","provider"?,"mimeType"?}`.
    #[serde(rename_all = "camelCase")]
    File {
        /// The handle the provider issued.
        value: String,
        /// Which provider minted the handle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        /// The media type, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
}

/// A media part's fields (image, audio, video and document parts share them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaPart {
    /// An optional part id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where the bytes are.
    pub source: PartSource,
    /// Any JSON value but `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

/// One part of a message body (`ContentPart`, formerly `InputContent`; discriminated by `type`).
///
/// The legacy 0.x `binary` part is not a variant: it is upgraded on input to the media part its
/// `mimeType` names (see [`upgrade_binary_part`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ContentPart {
    /// `{"type":"text","text","id"?,"metadata"?}`.
    Text {
        /// An optional part id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The text.
        text: String,
        /// Any JSON value but `null`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        metadata: Option<Value>,
    },
    /// An image.
    Image(MediaPart),
    /// An audio clip.
    Audio(MediaPart),
    /// A video.
    Video(MediaPart),
    /// A document (PDF, text file, …).
    Document(MediaPart),
}

/// A body that is either a plain string or a list of parts (user and tool messages, tool
/// results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Parts.
    Parts(Vec<ContentPart>),
}

impl Default for Content {
    fn default() -> Self {
        Content::Text(String::new())
    }
}

/// Upgrades a legacy 0.x `binary` part (`{type:"binary", mimeType, id?, url?, data?,
/// filename?}`) to a 1.0 media part, as `@ag-ui/client` does: the `mimeType` prefix `image/`,
/// `audio/` or `video/` picks the part type (anything else is a `document`); `data` becomes a
/// data source, else `url` a URL source; `filename` moves to `metadata.filename`.
///
/// Returns `None` when the value is not a binary part, or when it carries neither `data` nor
/// `url` (then it cannot be expressed in 1.0 and stays as it is).
pub fn upgrade_binary_part(part: &Value) -> Option<Value> {
    let obj = part.as_object()?;
    if obj.get("type").and_then(Value::as_str) != Some("binary") {
        return None;
    }
    let mime = obj.get("mimeType").and_then(Value::as_str)?;
    let kind = if mime.starts_with("image/") {
        "image"
    } else if mime.starts_with("audio/") {
        "audio"
    } else if mime.starts_with("video/") {
        "video"
    } else {
        "document"
    };
    let truthy = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let (source_type, value) = match (truthy("data"), truthy("url")) {
        (Some(data), _) => ("data", data),
        (None, Some(url)) => ("url", url),
        (None, None) => return None,
    };
    let mut out = serde_json::Map::new();
    out.insert("type".into(), Value::from(kind));
    let mut source = serde_json::Map::new();
    source.insert("type".into(), Value::from(source_type));
    source.insert("value".into(), Value::from(value));
    source.insert("mimeType".into(), Value::from(mime));
    out.insert("source".into(), Value::Object(source));
    if let Some(filename) = truthy("filename") {
        let mut meta = serde_json::Map::new();
        meta.insert("filename".into(), Value::from(filename));
        out.insert("metadata".into(), Value::Object(meta));
    }
    Some(Value::Object(out))
}

/// Upgrades every legacy `binary` part in a `content` array in place, dropping an upgraded
/// part whose modern equivalent is already in the list (a mirror the producer sent alongside
/// it), as the client does. Returns whether anything changed.
pub fn upgrade_binary_parts(content: &mut Vec<Value>) -> bool {
    if !content
        .iter()
        .any(|p| p.get("type").and_then(Value::as_str) == Some("binary"))
    {
        return false;
    }
    let original = content.clone();
    let mut out = Vec::with_capacity(content.len());
    for part in content.drain(..) {
        match upgrade_binary_part(&part) {
            Some(upgraded) => {
                let filename = part.get("filename").and_then(Value::as_str);
                if !original
                    .iter()
                    .any(|other| matches_modern(other, &upgraded, filename))
                {
                    out.push(upgraded);
                }
            }
            None => out.push(part),
        }
    }
    *content = out;
    true
}

fn matches_modern(part: &Value, converted: &Value, filename: Option<&str>) -> bool {
    if part.get("type") != converted.get("type") {
        return false;
    }
    let (Some(a), Some(b)) = (part.get("source"), converted.get("source")) else {
        return false;
    };
    if !a.is_object()
        || a.get("type") != b.get("type")
        || a.get("value") != b.get("value")
        || a.get("mimeType") != b.get("mimeType")
    {
        return false;
    }
    match filename.filter(|f| !f.is_empty()) {
        None => true,
        Some(f) => {
            part.get("metadata")
                .and_then(|m| m.get("filename"))
                .and_then(Value::as_str)
                == Some(f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn binary_upgrades_by_mime_prefix() {
        let up = upgrade_binary_part(
            &json!({"type":"binary","mimeType":"image/png","data":"AAA","filename":"a.png"}),
        );
        assert_eq!(
            up,
            Some(
                json!({"type":"image","source":{"type":"data","value":"AAA","mimeType":"image/png"},"metadata":{"filename":"a.png"}})
            )
        );
        let up = upgrade_binary_part(
            &json!({"type":"binary","mimeType":"application/pdf","url":"https://x/y.pdf"}),
        );
        assert_eq!(
            up,
            Some(
                json!({"type":"document","source":{"type":"url","value":"https://x/y.pdf","mimeType":"application/pdf"}})
            )
        );
        assert_eq!(
            upgrade_binary_part(&json!({"type":"binary","mimeType":"image/png","id":"f1"})),
            None
        );
    }

    #[test]
    fn parts_round_trip() {
        let v = json!([{"type":"text","text":"hi"},{"type":"image","source":{"type":"file","value":"file-1","provider":"openai"}}]);
        let parts: Vec<ContentPart> = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(&parts).unwrap(), v);
    }
}
