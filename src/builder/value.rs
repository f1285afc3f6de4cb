//! What `delta(value)` and `set(value)` mean for each content type.
//!
//! | type      | `delta(string)` | `delta(object)`   | `set(string)` | `set(object)` fields                          |
//! |-----------|-----------------|-------------------|---------------|-----------------------------------------------|
//! | `text`    | appends `text`  | error             | `text`        | `text`                                        |
//! | `refusal` | appends         | error             | `refusal`     | `refusal`                                     |
//! | `data`    | error           | deep merge        | error         | the object *is* `data` (replaces it)          |
//! | `image`   | error           | error             | `image_url`   | `image_url`                                   |
//! | `audio`   | error           | error             | `data`        | `data`, `format`                              |
//! | `file`    | error           | error             | `file_url`    | `file_url`, `file_id`, `filename`, `file_data`|
//! | `video`   | error           | error             | `video_url`   | `video_url`                                   |
//!
//! A wrong kind of value for the part (a data delta on a text part, a delta on a media part) is
//! `BUILDER_STATE`; an unknown field name, a field that is neither a string nor null, or an
//! object nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels (what the builder emits, it
//! reads back) is `INVALID_OPTION`. `set` replaces the whole value: fields not named become null.

use serde_json::Value;

use crate::protocol::{merge_data_into, ContentBody, ContentType, JsonMap};
use crate::{Error, ErrorCode, Result};

/// The value passed to `delta()` or `set()`: a JS string or a JS object.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentValue<'a> {
    /// A string: the part's main field (see the module table).
    Text(&'a str),
    /// An object: the `data` payload of a data part, or the fields of another part by name.
    Fields(JsonMap),
}

impl<'a> From<&'a str> for ContentValue<'a> {
    fn from(s: &'a str) -> Self {
        ContentValue::Text(s)
    }
}

impl From<JsonMap> for ContentValue<'_> {
    fn from(m: JsonMap) -> Self {
        ContentValue::Fields(m)
    }
}

fn state(msg: impl Into<String>) -> Error {
    Error::new(ErrorCode::BuilderState, msg)
}

/// Checks that `value` is a valid delta for a part of type `ct`.
pub(crate) fn check_delta(ct: ContentType, value: &ContentValue<'_>) -> Result<()> {
    match (ct, value) {
        (ContentType::Text | ContentType::Refusal, ContentValue::Text(_))
        | (ContentType::Data, ContentValue::Fields(_)) => Ok(()),
        (ContentType::Text | ContentType::Refusal, ContentValue::Fields(_)) => Err(state(format!(
            "A {} part takes string deltas, not objects.",
            ct.as_str()
        ))),
        (ContentType::Data, ContentValue::Text(_)) => Err(state(
            "A data part takes object deltas (deep-merged), not strings.",
        )),
        (ContentType::Image | ContentType::Audio | ContentType::File | ContentType::Video, _) => {
            Err(state(format!(
                "A {} part cannot stream deltas; give its whole value with set().",
                ct.as_str()
            )))
        }
    }
}

/// Applies a checked delta to the accumulated body.
pub(crate) fn apply_delta(body: &mut ContentBody, value: ContentValue<'_>) {
    match (body, value) {
        (ContentBody::Text { text: slot }, ContentValue::Text(t))
        | (ContentBody::Refusal { refusal: slot }, ContentValue::Text(t)) => {
            slot.get_or_insert_with(String::new).push_str(t);
        }
        (ContentBody::Data { data }, ContentValue::Fields(d)) => {
            merge_data_into(data.get_or_insert_with(JsonMap::new), d);
        }
        // `check_delta` ruled the other pairs out.
        _ => {}
    }
}

/// The body a `set(value)` gives a part of type `ct`, or the error; nothing is changed.
pub(crate) fn body_for_set(ct: ContentType, value: ContentValue<'_>) -> Result<ContentBody> {
    let fields = match value {
        ContentValue::Text(s) => {
            let s = Some(s.to_owned());
            return match ct {
                ContentType::Text => Ok(ContentBody::Text { text: s }),
                ContentType::Refusal => Ok(ContentBody::Refusal { refusal: s }),
                ContentType::Image => Ok(ContentBody::Image { image_url: s }),
                ContentType::Video => Ok(ContentBody::Video { video_url: s }),
                ContentType::Audio => Ok(ContentBody::Audio {
                    data: s,
                    format: None,
                }),
                ContentType::File => Ok(ContentBody::File {
                    file_url: s,
                    file_id: None,
                    filename: None,
                    file_data: None,
                }),
                ContentType::Data => Err(state(
                    "A data part is set with an object (its data), not a string.",
                )),
            };
        }
        ContentValue::Fields(map) => map,
    };
    if ct == ContentType::Data {
        return Ok(ContentBody::Data { data: Some(fields) });
    }
    let names = field_names(ct);
    let mut slots: [Option<String>; 4] = [None, None, None, None];
    for (key, v) in fields {
        let Some(i) = names.iter().position(|n| *n == key) else {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                format!(
                    "A {} part has no field {key:?}; its fields are {}.",
                    ct.as_str(),
                    names.join(", ")
                ),
            )
            .with_field(key));
        };
        let s = match v {
            Value::String(s) => Some(s),
            Value::Null => None,
            Value::Bool(_) | Value::Number(_) | Value::Array(_) | Value::Object(_) => {
                return Err(Error::new(
                    ErrorCode::InvalidOption,
                    format!(
                        "The field {key:?} of a {} part must be a string or null.",
                        ct.as_str()
                    ),
                )
                .with_field(key));
            }
        };
        if let Some(slot) = slots.get_mut(i) {
            *slot = s;
        }
    }
    let [a, b, c, d] = slots;
    Ok(match ct {
        ContentType::Text => ContentBody::Text { text: a },
        ContentType::Refusal => ContentBody::Refusal { refusal: a },
        ContentType::Image => ContentBody::Image { image_url: a },
        ContentType::Video => ContentBody::Video { video_url: a },
        ContentType::Audio => ContentBody::Audio { data: a, format: b },
        ContentType::File => ContentBody::File {
            file_url: a,
            file_id: b,
            filename: c,
            file_data: d,
        },
        ContentType::Data => ContentBody::Data { data: None },
    })
}

/// The settable fields of each non-data type, in the reference's declaration order.
fn field_names(ct: ContentType) -> &'static [&'static str] {
    match ct {
        ContentType::Text => &["text"],
        ContentType::Refusal => &["refusal"],
        ContentType::Image => &["image_url"],
        ContentType::Video => &["video_url"],
        ContentType::Audio => &["data", "format"],
        ContentType::File => &["file_url", "file_id", "filename", "file_data"],
        ContentType::Data => &["data"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> JsonMap {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn set_maps_strings_to_the_main_field() {
        let cases = [
            (
                ContentType::Text,
                ContentBody::Text {
                    text: Some("x".into()),
                },
            ),
            (
                ContentType::Refusal,
                ContentBody::Refusal {
                    refusal: Some("x".into()),
                },
            ),
            (
                ContentType::Image,
                ContentBody::Image {
                    image_url: Some("x".into()),
                },
            ),
            (
                ContentType::Video,
                ContentBody::Video {
                    video_url: Some("x".into()),
                },
            ),
            (
                ContentType::Audio,
                ContentBody::Audio {
                    data: Some("x".into()),
                    format: None,
                },
            ),
            (
                ContentType::File,
                ContentBody::File {
                    file_url: Some("x".into()),
                    file_id: None,
                    filename: None,
                    file_data: None,
                },
            ),
        ];
        for (ct, want) in cases {
            assert_eq!(body_for_set(ct, ContentValue::Text("x")).unwrap(), want);
        }
        let e = body_for_set(ContentType::Data, ContentValue::Text("x")).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BuilderState);
    }

    #[test]
    fn set_maps_objects_by_field_name() {
        let b = body_for_set(
            ContentType::File,
            ContentValue::Fields(map(
                json!({"filename":"a.txt","file_id":"f1","file_data":null}),
            )),
        )
        .unwrap();
        assert_eq!(
            b,
            ContentBody::File {
                file_url: None,
                file_id: Some("f1".into()),
                filename: Some("a.txt".into()),
                file_data: None
            }
        );
        let b = body_for_set(
            ContentType::Audio,
            ContentValue::Fields(map(json!({"format":"wav","data":"AAA"}))),
        )
        .unwrap();
        assert_eq!(
            b,
            ContentBody::Audio {
                data: Some("AAA".into()),
                format: Some("wav".into())
            }
        );
        let e = body_for_set(
            ContentType::Image,
            ContentValue::Fields(map(json!({"url":"x"}))),
        )
        .unwrap_err();
        assert_eq!(
            (e.code(), e.field()),
            (ErrorCode::InvalidOption, Some("url"))
        );
        let e = body_for_set(
            ContentType::Text,
            ContentValue::Fields(map(json!({"text":1}))),
        )
        .unwrap_err();
        assert_eq!(
            (e.code(), e.field()),
            (ErrorCode::InvalidOption, Some("text"))
        );
        let d = map(json!({"k":[1,{"z":null}]}));
        assert_eq!(
            body_for_set(ContentType::Data, ContentValue::Fields(d.clone())).unwrap(),
            ContentBody::Data { data: Some(d) }
        );
    }

    #[test]
    fn delta_kinds() {
        let obj = ContentValue::Fields(JsonMap::new());
        for ct in ContentType::ALL.iter().copied() {
            let text_ok = matches!(ct, ContentType::Text | ContentType::Refusal);
            assert_eq!(
                check_delta(ct, &ContentValue::Text("x")).is_ok(),
                text_ok,
                "{ct}"
            );
            assert_eq!(
                check_delta(ct, &obj).is_ok(),
                ct == ContentType::Data,
                "{ct}"
            );
            for v in [ContentValue::Text("x"), obj.clone()] {
                if let Err(e) = check_delta(ct, &v) {
                    assert_eq!(e.code(), ErrorCode::BuilderState);
                }
            }
        }
        let mut b = ContentBody::Refusal { refusal: None };
        apply_delta(&mut b, ContentValue::Text("no"));
        apply_delta(&mut b, ContentValue::Text("pe"));
        assert_eq!(
            b,
            ContentBody::Refusal {
                refusal: Some("nope".into())
            }
        );
        let mut d = ContentBody::Data { data: None };
        apply_delta(&mut d, ContentValue::Fields(map(json!({"a":"x","n":1}))));
        apply_delta(&mut d, ContentValue::Fields(map(json!({"a":"y","n":2}))));
        assert_eq!(
            d,
            ContentBody::Data {
                data: Some(map(json!({"a":"xy","n":3})))
            }
        );
    }
}
