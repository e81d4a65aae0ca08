//! The native half of the Node package `hashline`: the facade's [`hashline::Session`] as the
//! class `NativeSession`, wrapped by `index.js` (the TypeScript-facing `Session`).
//!
//! Every call answers a [`Reply`](result::Reply) (`ok`, `code`, `text`, `warnings`, `files`,
//! `anchors`, `undo`): a refusal of the engine (a stale anchor, a guard's finding) is a
//! result with `ok: false` and its code, as the facade answers `Err(Refusal)` and the MCP
//! server `isError`. Misuse of the API (an unknown dialect name, a root that cannot be
//! opened, a bad action) throws an error whose `code` is the stable `E_…` code; `index.js`
//! turns it into a `HashlineError`. `read` and `astEdit` run on the libuv thread pool and
//! answer a Promise; their `…Sync` twins run on the calling thread.

mod result;
mod session;

use napi_derive::napi;

/// An error thrown for misuse: its `code` is the `E_…` code (`docs/ERRORS.md`).
pub(crate) type Misuse = napi::Error<String>;

/// A misuse error with `code` and `message`.
pub(crate) fn misuse(code: hashline::ErrorCode, message: impl Into<String>) -> Misuse {
    napi::Error::new(code.as_str().to_string(), message.into())
}

/// `name` as a dialect (`None`: auto), or a misuse error naming the dialects.
pub(crate) fn dialect(name: Option<&str>) -> Result<hashline::Dialect, Misuse> {
    match name {
        None => Ok(hashline::Dialect::Auto),
        Some(name) => name
            .parse()
            .map_err(|e: String| misuse(hashline::ErrorCode::Usage, e)),
    }
}

/// The six tools as the MCP server lists them for `dialect`: a JSON array of objects with
/// `name`, `title`, `description` and `input_schema`.
#[napi]
pub fn tool_specs(dialect: Option<String>) -> Result<String, Misuse> {
    let dialect = self::dialect(dialect.as_deref())?;
    serde_json::to_string(&hashline::mcp::tool_specs(dialect))
        .map_err(|e| misuse(hashline::ErrorCode::Io, e.to_string()))
}

/// The engine's version (the crate's).
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
