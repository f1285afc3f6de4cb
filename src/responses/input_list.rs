//! `GET /responses/{id}/input_items`: the input items of a stored response, listed as the
//! Responses API lists them (`{"object": "list", "data", "first_id", "last_id", "has_more"}`),
//! newest first by default, paged by item id.

use serde_json::{Map, Value};

use crate::codec::write::{bool, map, raw, value};
use crate::{Error, ErrorCode, Result};

use super::history::one;

/// What a list request asks for: the query parameters as sent (absent: `None`).
#[derive(Debug, Default, Clone, Copy)]
pub struct InputListQuery<'a> {
    /// How many items at most, 1 to 100 (default 20).
    pub limit: Option<&'a str>,
    /// `"asc"` or `"desc"` (the default: newest first).
    pub order: Option<&'a str>,
    /// List the items after this item id (in the list's order).
    pub after: Option<&'a str>,
    /// List the items before this item id (in the list's order).
    pub before: Option<&'a str>,
}

fn invalid(message: &str, field: &str) -> Error {
    Error::new(ErrorCode::InvalidRequest, message.to_owned()).with_field(field)
}

/// The input items of `messages` (Agent API messages, the response's input in order) as the
/// list `query` asks for, as JSON text. An item without an id of its own gets the id of the
/// message it comes from, else `<response_id>_input_<n>`, so ids are stable across calls.
///
/// # Errors
///
/// `INVALID_REQUEST` naming the field for a `limit` that is not an integer from 1 to 100, an
/// `order` other than `asc` / `desc`, or an `after` / `before` that names no item.
///
/// # Example
///
/// ```
/// use agentwire::responses::{input_item_list, InputListQuery};
/// use serde_json::json;
///
/// let input = [json!({"id": "m1", "type": "message", "role": "user",
///                     "content": [{"type": "text", "text": "Hi"}]})];
/// let list = input_item_list(&input, "resp_1", &InputListQuery::default())?;
/// assert!(list.starts_with(r#"{"object":"list","data":[{"#));
/// assert!(list.ends_with(r#""first_id":"m1","last_id":"m1","has_more":false}"#));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn input_item_list(
    messages: &[Value],
    response_id: &str,
    query: &InputListQuery<'_>,
) -> Result<String> {
    let limit = match query.limit {
        None => 20,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=100).contains(&n) => n,
            _ => return Err(invalid("limit must be an integer from 1 to 100.", "limit")),
        },
    };
    let newest_first = match query.order {
        None | Some("desc") => true,
        Some("asc") => false,
        Some(_) => return Err(invalid("order must be \"asc\" or \"desc\".", "order")),
    };
    let mut items: Vec<Map<String, Value>> = Vec::new();
    for (n, message) in messages.iter().enumerate() {
        let Some(source) = message.as_object() else {
            continue;
        };
        let Some(Value::Object(mut item)) = one(source) else {
            continue;
        };
        if !item.get("id").is_some_and(Value::is_string) {
            let id = source
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("{response_id}_input_{n}"), str::to_owned);
            item.insert("id".into(), Value::String(id));
        }
        items.push(item);
    }
    if newest_first {
        items.reverse();
    }
    let position = |id: &str, field: &str| {
        items
            .iter()
            .position(|i| i.get("id").and_then(Value::as_str) == Some(id))
            .ok_or_else(|| {
                invalid(
                    &format!("{field} names no input item of this response."),
                    field,
                )
            })
    };
    let start = match query.after {
        Some(id) => position(id, "after")? + 1,
        None => 0,
    };
    let end = match query.before {
        Some(id) => position(id, "before")?,
        None => items.len(),
    };
    let page = items.get(start..end.max(start)).unwrap_or_default();
    let (page, has_more) = if page.len() > limit {
        (page.get(..limit).unwrap_or(page), true)
    } else {
        (page, false)
    };
    let mut out = Vec::new();
    raw(&mut out, "{\"object\":\"list\",\"data\":[");
    for (k, item) in page.iter().enumerate() {
        if k > 0 {
            raw(&mut out, ",");
        }
        map(&mut out, item);
    }
    raw(&mut out, "],\"first_id\":");
    let id_of = |item: Option<&Map<String, Value>>| {
        item.and_then(|i| i.get("id"))
            .cloned()
            .unwrap_or(Value::Null)
    };
    value(&mut out, &id_of(page.first()));
    raw(&mut out, ",\"last_id\":");
    value(&mut out, &id_of(page.last()));
    raw(&mut out, ",\"has_more\":");
    bool(&mut out, has_more);
    raw(&mut out, "}");
    // Written from UTF-8 text and JSON values: valid UTF-8.
    Ok(String::from_utf8(out).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| json!({"id": format!("m{i}"), "type": "message", "role": "user", "content": [{"type": "text", "text": format!("t{i}")}]}))
            .collect()
    }

    fn ids(list: &str) -> Vec<String> {
        let v: Value = serde_json::from_str(list).unwrap();
        v["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn newest_first_by_default_paged_by_after_and_before() {
        let input = input(5);
        let q = |limit, order, after, before| InputListQuery {
            limit,
            order,
            after,
            before,
        };
        let all = input_item_list(&input, "r", &q(None, None, None, None)).unwrap();
        assert_eq!(ids(&all), ["m4", "m3", "m2", "m1", "m0"]);
        let page = input_item_list(&input, "r", &q(Some("2"), None, None, None)).unwrap();
        assert_eq!(ids(&page), ["m4", "m3"]);
        assert!(
            page.ends_with(r#""first_id":"m4","last_id":"m3","has_more":true}"#),
            "{page}"
        );
        let next = input_item_list(&input, "r", &q(Some("2"), None, Some("m3"), None)).unwrap();
        assert_eq!(ids(&next), ["m2", "m1"]);
        let asc =
            input_item_list(&input, "r", &q(None, Some("asc"), Some("m1"), Some("m4"))).unwrap();
        assert_eq!(ids(&asc), ["m2", "m3"]);
        let empty = input_item_list(&[], "r", &q(None, None, None, None)).unwrap();
        assert_eq!(
            empty,
            r#"{"object":"list","data":[],"first_id":null,"last_id":null,"has_more":false}"#
        );
    }

    #[test]
    fn a_bad_query_is_refused_naming_its_field_and_ids_are_stable() {
        let input = input(2);
        for (query, field) in [
            (
                InputListQuery {
                    limit: Some("0"),
                    ..Default::default()
                },
                "limit",
            ),
            (
                InputListQuery {
                    limit: Some("101"),
                    ..Default::default()
                },
                "limit",
            ),
            (
                InputListQuery {
                    limit: Some("x"),
                    ..Default::default()
                },
                "limit",
            ),
            (
                InputListQuery {
                    order: Some("up"),
                    ..Default::default()
                },
                "order",
            ),
            (
                InputListQuery {
                    after: Some("nope"),
                    ..Default::default()
                },
                "after",
            ),
            (
                InputListQuery {
                    before: Some("nope"),
                    ..Default::default()
                },
                "before",
            ),
        ] {
            let e = input_item_list(&input, "r", &query).unwrap_err();
            assert_eq!(
                (e.code(), e.field()),
                (ErrorCode::InvalidRequest, Some(field))
            );
        }
        let anonymous = [
            json!({"type": "message", "role": "user", "content": [{"type": "text", "text": "x"}]}),
        ];
        let list = input_item_list(&anonymous, "resp_9", &InputListQuery::default()).unwrap();
        assert_eq!(ids(&list), ["resp_9_input_0"]);
    }
}
