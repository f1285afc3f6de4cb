//! Fast reading of one JSON object into its entries, in input order, without building an
//! ordered map: known keys stay borrowed from the input (no allocation), values are parsed as
//! [`serde_json::Value`]. This is the hot path of [`parse_event`](super::parse_event): the
//! content-delta events of a stream are read without a `serde_json::Map` per event.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::json::JsonMap;
use super::value::entry_value;

/// Visitor methods that reject every JSON value but an object, for a visitor used with
/// `deserialize_any`.
///
/// Why not `deserialize_map`: serde_json's typed entry points (`deserialize_map`, `_str`, `_f64`,
/// ...) and serde's default visitor methods report a wrong type through `invalid_type`, whose
/// message prints floats with core's `Display` for `f64`, ~15 KB of wasm (`flt2dec`) that
/// nothing else needs. `deserialize_any` with every method overridden never reaches it. The
/// error text does not matter: callers that report it re-read the input for a precise message.
macro_rules! reject_non_objects {
    () => {
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Err(E::custom("not an object"))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(serde::de::Error::custom("not an object"))
        }
    };
}
pub(crate) use reject_non_objects;

/// A key borrowed from the input when it has no escapes.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl AsRef<str> for Key<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<Key<'_>> for String {
    fn from(k: Key<'_>) -> String {
        k.0.into_owned()
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The entries of one JSON object, in input order, repeated keys included. Consumers let the
/// last value win and keep the first position (slots are overwritten; [`JsonMap::insert`] keeps
/// an existing key's position), as Python's `json.loads` does.
pub(crate) struct Entries<'de>(pub(crate) Vec<(Key<'de>, Value)>);

impl<'de> Entries<'de> {
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .iter()
            .rfind(|(k, _)| k.as_ref() == key)
            .map(|(_, v)| v)
    }

    pub(crate) fn into_map(self) -> JsonMap {
        let mut map = JsonMap::new();
        for (k, v) in self.0 {
            map.insert(k.into(), v);
        }
        map
    }
}

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(Key<'de>, Value)> = Vec::with_capacity(12);
                while let Some(key) = access.next_key::<Key<'de>>()? {
                    // A bare number (`1.5`) can reach here as serde_json's number stand-in map.
                    match entry_value(&mut access, key.as_ref(), out.is_empty())? {
                        Ok(value) => out.push((key, value)),
                        Err(_) => return Err(serde::de::Error::custom("not an object")),
                    }
                }
                Ok(Entries(out))
            }
            reject_non_objects!();
        }
        deserializer.deserialize_any(EntriesVisitor)
    }
}
