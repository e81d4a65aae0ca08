//! A JSON tree that keeps object keys in the order the request wrote them.
//!
//! The dialect's messages list unknown keys in request order (`oldText, newText`), the way a
//! JavaScript object enumerates them; `serde_json::Value` without its `preserve_order` feature
//! sorts keys, and turning that feature on would change every other crate's maps. A duplicate key
//! keeps its first position and its last value, as `JSON.parse` does.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A parsed JSON value with ordered object keys.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// Any number.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in request order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parse JSON text.
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The object's entries, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(entries) => Some(entries),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a positive integer (JavaScript `Number.isInteger(v) && v >= 1`), saturating
    /// at `u64::MAX`.
    pub fn as_positive_integer(&self) -> Option<u64> {
        let Json::Number(n) = self else { return None };
        if let Some(u) = n.as_u64() {
            return (u >= 1).then_some(u);
        }
        let f = n.as_f64()?;
        if f.is_finite() && f.fract() == 0.0 && f >= 1.0 {
            // Saturating float-to-int conversion: an integral value beyond u64 stays "huge".
            Some(f as u64)
        } else {
            None
        }
    }
}

/// Look up `key` in an object's entries.
pub fn get<'a>(entries: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The JSON spelling of a string (`JSON.stringify` of a string: quotes, escapes, non-ASCII raw).
pub fn quote(s: &str) -> String {
    // Serializing a &str cannot fail; the fallback keeps this total anyway.
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value: Json = map.next_value()?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => entries.push((key, value)),
            }
        }
        Ok(Json::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_last_duplicate() {
        let j = Json::parse(r#"{"op":"x","oldText":1,"newText":2,"op":"y"}"#).expect("valid json");
        let keys: Vec<&str> = j
            .as_object()
            .expect("object")
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["op", "oldText", "newText"]);
        assert_eq!(
            get(j.as_object().expect("object"), "op"),
            Some(&Json::String("y".into()))
        );
    }

    #[test]
    fn positive_integers_like_javascript() {
        for (text, want) in [
            ("1", Some(1)),
            ("1.0", Some(1)),
            ("0", None),
            ("-3", None),
            ("1.5", None),
            ("\"2\"", None),
        ] {
            assert_eq!(
                Json::parse(text).expect("valid json").as_positive_integer(),
                want,
                "{text}"
            );
        }
    }

    #[test]
    fn quote_matches_json_stringify() {
        assert_eq!(quote("a\"b\\c\nd\té"), r#""a\"b\\c\nd\té""#);
        assert_eq!(quote("\u{1}"), r#""\u0001""#);
    }
}
