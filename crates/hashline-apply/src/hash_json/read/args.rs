//! The `offset` / `limit` parameters of the hash-json `read` (seed 001 §3.1): each, when given,
//! must be an integer ≥ 1, whether it arrives as a JSON value (MCP) or as a command-line string.

use serde_json::Value;

/// A raw `offset` or `limit` parameter, exactly as it arrived.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReadArg<'a> {
    /// A JSON value from a tool call (`2`, `2.0`, `1.5`, `0`, `"2"`, `null`, …). `null` counts
    /// as absent; a non-number is rejected like a bad number.
    Json(&'a Value),
    /// A command-line string (`--offset 2`); parsed as a JSON number, so `1.5`, `0`, `-1`,
    /// `abc` and the empty string are rejected.
    Text(&'a str),
}

/// A parameter that is not a positive integer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Read request field \"{field}\" must be a positive integer.")]
pub struct BadReadArg {
    /// `offset` or `limit`.
    pub field: &'static str,
}

/// The positive integer a JSON number stands for (`2` and `2.0` alike), if it is one. Huge
/// integers saturate at `usize::MAX` (they are beyond any file).
fn positive_integer(value: &Value) -> Option<usize> {
    let Value::Number(number) = value else {
        return None;
    };
    if let Some(n) = number.as_u64() {
        return (n >= 1).then(|| usize::try_from(n).unwrap_or(usize::MAX));
    }
    if number.is_i64() {
        return None; // negative
    }
    let f = number.as_f64()?;
    // `as` saturates for finite floats beyond usize::MAX, which is the wanted meaning.
    (f.is_finite() && f.fract() == 0.0 && f >= 1.0).then_some(f as usize)
}

/// Validates one parameter: `Ok(None)` when absent, `Ok(Some(n))` for an integer ≥ 1.
pub fn parse_arg(
    field: &'static str,
    arg: Option<ReadArg<'_>>,
) -> Result<Option<usize>, BadReadArg> {
    let bad = BadReadArg { field };
    match arg {
        None | Some(ReadArg::Json(Value::Null)) => Ok(None),
        Some(ReadArg::Json(value)) => positive_integer(value).map(Some).ok_or(bad),
        Some(ReadArg::Text(text)) => {
            let value: Value = serde_json::from_str(text.trim()).map_err(|_| bad.clone())?;
            positive_integer(&value).map(Some).ok_or(bad)
        }
    }
}

/// Validates `offset` then `limit` (the first failure wins).
pub fn parse_window(
    offset: Option<ReadArg<'_>>,
    limit: Option<ReadArg<'_>>,
) -> Result<(Option<usize>, Option<usize>), BadReadArg> {
    Ok((parse_arg("offset", offset)?, parse_arg("limit", limit)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn json_arg(v: &Value) -> Result<Option<usize>, BadReadArg> {
        parse_arg("offset", Some(ReadArg::Json(v)))
    }

    #[test]
    fn json_numbers() {
        assert_eq!(json_arg(&json!(3)), Ok(Some(3)));
        assert_eq!(json_arg(&json!(2.0)), Ok(Some(2)));
        assert_eq!(json_arg(&json!(1e30)), Ok(Some(usize::MAX)));
        assert_eq!(json_arg(&Value::Null), Ok(None));
        for bad in [
            json!(0),
            json!(1.5),
            json!(-2),
            json!("2"),
            json!(true),
            json!(-0.0),
        ] {
            assert_eq!(json_arg(&bad), Err(BadReadArg { field: "offset" }), "{bad}");
        }
    }

    #[test]
    fn cli_strings() {
        assert_eq!(parse_arg("limit", Some(ReadArg::Text(" 7 "))), Ok(Some(7)));
        for bad in ["0", "1.5", "-1", "abc", "", "NaN", "inf"] {
            let err = parse_arg("limit", Some(ReadArg::Text(bad))).expect_err(bad);
            assert_eq!(
                err.to_string(),
                "Read request field \"limit\" must be a positive integer."
            );
        }
    }

    #[test]
    fn offset_is_checked_before_limit() {
        let zero = json!(0);
        let err = parse_window(Some(ReadArg::Json(&zero)), Some(ReadArg::Json(&zero)));
        assert_eq!(err, Err(BadReadArg { field: "offset" }));
    }
}
