//! `¶PATH#TAG` header lines (hashline.md §b "Section header rules"): the strict form, the
//! recovery parse that strips V4A path noise, and path normalization.

use super::js_text::{ascii_trim_end, is_ascii_space, is_js_space, js_trim, js_trim_end};
use super::messages;

/// The section-header sigil.
pub(crate) const PILCROW: char = '¶';

/// A parsed header: normalized path and upper-cased tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderLine {
    pub(crate) path: String,
    pub(crate) tag: Option<String>,
}

/// Parse a line as a section header.
///
/// `Ok(None)`: the line does not start with `¶`. `Err(message)`: it does, but is neither a
/// strict nor a recoverable header (or its path is empty).
pub(crate) fn parse_header_line(
    line: &str,
    cwd: Option<&str>,
) -> Result<Option<HeaderLine>, String> {
    let trimmed = js_trim_end(line);
    if !trimmed.starts_with(PILCROW) {
        return Ok(None);
    }
    if let Some((raw_path, tag)) = strict(trimmed) {
        let path = normalize_path(raw_path, cwd);
        if path.is_empty() {
            return Err(messages::EMPTY_HEADER.to_string());
        }
        return Ok(Some(HeaderLine { path, tag }));
    }
    recovered(trimmed, cwd)
        .or_else(|| spaced(trimmed, cwd))
        .map(Some)
        .ok_or_else(|| messages::bad_header(trimmed))
}

/// A path with white space in it, as `read` prints it: `¶my file.txt#9A46` (the tag right
/// after the path, which neither starts nor ends with white space), or quoted:
/// `¶"my file.txt"#9A46`, `¶'my file.txt'`. The seed's strict form stops a path at a space, so
/// without this a file whose name has one could be read but never edited. `¶a.ts #1A2B` (a
/// space before the tag) stays refused.
fn spaced(trimmed: &str, cwd: Option<&str>) -> Option<HeaderLine> {
    let body = ascii_trim_end(trimmed.strip_prefix(PILCROW)?);
    let bytes = body.as_bytes();
    let n = bytes.len();
    let (raw, tag) =
        if n > 5 && bytes[n - 5] == b'#' && bytes[n - 4..].iter().all(u8::is_ascii_hexdigit) {
            // Bytes n-5.. are ASCII, so n-5 and n-4 are char boundaries.
            (&body[..n - 5], Some(body[n - 4..].to_ascii_uppercase()))
        } else {
            (body, None)
        };
    let quoted = ['"', '\''].iter().any(|&q| {
        raw.len() >= 2
            && raw.starts_with(q)
            && raw.ends_with(q)
            && !raw[1..raw.len() - 1].contains(q)
    });
    let bare = tag.is_some()
        && !raw.starts_with(is_js_space)
        && !raw.ends_with(is_js_space)
        && !raw.contains(['"', '\'']);
    if !(quoted || bare) || raw.contains(['\t', '\r', '\n']) {
        return None;
    }
    let path = normalize_path(raw, cwd);
    (!path.is_empty()).then_some(HeaderLine { path, tag })
}

/// The strict form: `¶` PATH (no `#`, space, tab) optional `#` + 4 hex, optional ASCII white
/// space. Returns the raw path and the upper-cased tag.
pub(crate) fn strict(line: &str) -> Option<(&str, Option<String>)> {
    let rest = ascii_trim_end(line.strip_prefix(PILCROW)?);
    let path_len = rest.find(['#', ' ', '\t']).unwrap_or(rest.len());
    if path_len == 0 {
        return None;
    }
    let (path, mut after) = rest.split_at(path_len);
    let mut tag = None;
    if let Some(hash) = after.strip_prefix('#') {
        let hex = hash.as_bytes().get(..4)?;
        if !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        // The four bytes are ASCII, so index 4 is a char boundary.
        tag = Some(hash.get(..4)?.to_ascii_uppercase());
        after = hash.get(4..)?;
    }
    after.chars().all(is_ascii_space).then_some((path, tag))
}

/// The recovery parse: noise-stripped text after `¶` must be one white-space-free token,
/// optionally ending in `#` + 4 hex (the path match is lazy, so anything else is all path).
fn recovered(trimmed: &str, cwd: Option<&str>) -> Option<HeaderLine> {
    let body = strip_v4a_noise(js_trim(trimmed.strip_prefix(PILCROW)?));
    if body.is_empty() || body.chars().any(is_js_space) {
        return None;
    }
    let bytes = body.as_bytes();
    let n = bytes.len();
    let (raw_path, tag) =
        if n > 5 && bytes[n - 5] == b'#' && bytes[n - 4..].iter().all(u8::is_ascii_hexdigit) {
            // Bytes n-5.. are ASCII, so n-5 and n-4 are char boundaries.
            (&body[..n - 5], Some(body[n - 4..].to_ascii_uppercase()))
        } else {
            (body, None)
        };
    let path = normalize_path(raw_path, cwd);
    (!path.is_empty()).then_some(HeaderLine { path, tag })
}

/// Path normalization of both forms: trim, drop one pair of matching surrounding quotes,
/// strip V4A noise (inside quotes, white space alone is kept), and make an absolute
/// path inside `cwd` cwd-relative.
pub(crate) fn normalize_path(raw: &str, cwd: Option<&str>) -> String {
    let trimmed = js_trim(raw);
    let inner = unquote(trimmed);
    let stripped = strip_v4a_noise(inner);
    // Inside quotes white space is part of the name (`read` quotes ` notes.txt` so): only
    // V4A noise is stripped there, not a leading space alone.
    let quoted = inner.len() != trimmed.len();
    let unquoted = if quoted && stripped == inner.trim_start_matches(is_js_space) {
        inner
    } else {
        stripped
    };
    // `read` writes a name that would look like another (an invisible character, not NFC, or
    // holding `\u{` itself) escaped in `"…"`: `¶"cafe\u{301}.txt"`. Read it back so.
    let decoded = (trimmed.starts_with('"') && quoted && unquoted.contains("\\u{"))
        .then(|| hashline_core::name::unescape(unquoted))
        .flatten();
    let unquoted = decoded.as_deref().unwrap_or(unquoted);
    match cwd {
        Some(cwd) => relative_to(unquoted, cwd).unwrap_or_else(|| unquoted.to_string()),
        None => unquoted.to_string(),
    }
}

fn unquote(s: &str) -> &str {
    for quote in ['"', '\''] {
        if s.len() >= 2 && s.starts_with(quote) && s.ends_with(quote) {
            return &s[1..s.len() - 1];
        }
    }
    s
}

/// `^\*{0,3}\s*(?:(?:update|add|delete|move)[^A-Za-z0-9]*(?:file|to)?[^A-Za-z0-9]*:)?\s*\*{0,3}\s*`
/// (case-insensitive), removed from the front of `s`.
pub(crate) fn strip_v4a_noise(s: &str) -> &str {
    let mut rest = skip_stars(s).trim_start_matches(is_js_space);
    if let Some(after) = keyword_block(rest) {
        rest = after;
    }
    skip_stars(rest.trim_start_matches(is_js_space)).trim_start_matches(is_js_space)
}

fn skip_stars(s: &str) -> &str {
    let stars = s.bytes().take(3).take_while(|&b| b == b'*').count();
    &s[stars..]
}

/// The keyword block `(update|add|delete|move)[^alnum]*(file|to)?[^alnum]*:` with the regex
/// engine's backtracking: the block ends at the last `:` of the non-alphanumeric run after
/// `file`/`to` if there is one, else at the last `:` of the run after the keyword.
fn keyword_block(s: &str) -> Option<&str> {
    let after_keyword = ["update", "add", "delete", "move"]
        .iter()
        .find_map(|keyword| strip_prefix_ignore_case(s, keyword))?;
    let (run, tail) = split_non_alnum(after_keyword);
    let after_noun =
        strip_prefix_ignore_case(tail, "file").or_else(|| strip_prefix_ignore_case(tail, "to"));
    if let Some(after_noun) = after_noun {
        let (run2, _) = split_non_alnum(after_noun);
        if let Some(colon) = run2.rfind(':') {
            return Some(&after_noun[colon + 1..]);
        }
    }
    run.rfind(':').map(|colon| &after_keyword[colon + 1..])
}

fn split_non_alnum(s: &str) -> (&str, &str) {
    s.split_at(
        s.find(|c: char| c.is_ascii_alphanumeric())
            .unwrap_or(s.len()),
    )
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.as_bytes().get(..prefix.len())?;
    // `prefix` is ASCII, so a case-insensitive match makes `prefix.len()` a char boundary.
    head.eq_ignore_ascii_case(prefix.as_bytes())
        .then(|| &s[prefix.len()..])
}

/// `path.relative(cwd, path)` when `path` is absolute and inside `cwd` (`cwd` itself → `.`);
/// `None` to keep the path as written. A relative `cwd` is not resolved (no process state is
/// consulted), so it never relativizes.
fn relative_to(path: &str, cwd: &str) -> Option<String> {
    if !path.starts_with('/') || !cwd.starts_with('/') {
        return None;
    }
    let base = resolve(cwd);
    let target = resolve(path);
    let rest = target.strip_prefix(base.as_slice())?;
    let relative = rest.join("/");
    if relative.starts_with("..") {
        return None;
    }
    Some(if relative.is_empty() {
        ".".to_string()
    } else {
        relative
    })
}

/// POSIX `path.resolve` of an absolute path, as segments.
fn resolve(path: &str) -> Vec<&str> {
    let mut segments = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            other => segments.push(other),
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Ok(Some((path, tag)))` for a header, `Ok(None)` for a non-header, `Err(message)`.
    fn check(line: &str, expected: Result<Option<(&str, Option<&str>)>, &str>) {
        let got = parse_header_line(line, None);
        let got = match &got {
            Ok(Some(h)) => Ok(Some((h.path.as_str(), h.tag.as_deref()))),
            Ok(None) => Ok(None),
            Err(message) => Err(message.as_str()),
        };
        assert_eq!(got, expected, "header {line:?}");
    }

    #[test]
    fn recovered_headers_table() {
        check("¶a.ts#1A2B", Ok(Some(("a.ts", Some("1A2B")))));
        check("¶a.ts#1a2b   ", Ok(Some(("a.ts", Some("1A2B")))));
        check("¶ a.ts#1A2B", Ok(Some(("a.ts", Some("1A2B")))));
        check(
            "¶*** Update File: a.ts#1A2B",
            Ok(Some(("a.ts", Some("1A2B")))),
        );
        check("¶Update File:a.ts#1A2B", Ok(Some(("a.ts", Some("1A2B")))));
        check("¶\"a.ts\"#1A2B", Ok(Some(("a.ts", Some("1A2B")))));
        check("¶'a.ts'", Ok(Some(("a.ts", None))));
        check("¶a.ts", Ok(Some(("a.ts", None))));
        check("¶a.ts#ABC", Ok(Some(("a.ts#ABC", None))));
        check("¶a.ts#1A2B5", Ok(Some(("a.ts#1A2B5", None))));
        check("¶#1A2B", Ok(Some(("#1A2B", None))));
        check(
            "¶a.ts #1A2B",
            Err("Input header must be ¶PATH or ¶PATH#TAG with a 4-hex content-hash tag; got \"¶a.ts #1A2B\"."),
        );
        // Names with spaces, as `read` prints them, and quoted.
        check("¶my file.txt#9a46", Ok(Some(("my file.txt", Some("9A46")))));
        check(
            "¶dir one/é ü.txt#9A46 ",
            Ok(Some(("dir one/é ü.txt", Some("9A46")))),
        );
        check("¶no #te.txt#9A46", Ok(Some(("no #te.txt", Some("9A46")))));
        check(
            "¶\"my file.txt\"#9A46",
            Ok(Some(("my file.txt", Some("9A46")))),
        );
        check("¶'my file.txt'", Ok(Some(("my file.txt", None))));
        // Names that would look like another, escaped as `read` prints them.
        check(
            "¶\"cafe\\u{301}.txt\"#9A46",
            Ok(Some(("cafe\u{301}.txt", Some("9A46")))),
        );
        check(
            "¶\"a\\u{200b}b \\\\u{22}.txt\"",
            Ok(Some(("a\u{200b}b \\u{22}.txt", None))),
        );
        for refused in ["¶my file.txt", "¶a\tb.ts#1A2B", "¶\"a\" b\"#1A2B"] {
            assert!(parse_header_line(refused, None).is_err(), "{refused:?}");
        }
        check(
            "¶",
            Err(
                "Input header must be ¶PATH or ¶PATH#TAG with a 4-hex content-hash tag; got \"¶\".",
            ),
        );
        check(
            "¶\"\"",
            Err("Input header \"¶\" is empty; provide a file path."),
        );
        check("a.ts#1A2B", Ok(None));
        check(" ¶a.ts", Ok(None));
    }

    #[test]
    fn v4a_noise_variants() {
        for noisy in [
            "Update File:foo.ts",
            "Update:foo.ts",
            "UpdateFile:foo.ts",
            "Update/File:foo.ts",
            "Update-file:foo.ts",
            "Update(File):foo.ts",
            "Add File: foo.ts",
            "DELETE FILE:foo.ts",
            "Move to:foo.ts",
            "***foo.ts",
            "***Update File:foo.ts",
            "*** Update File: *** foo.ts",
        ] {
            assert_eq!(strip_v4a_noise(noisy), "foo.ts", "{noisy:?}");
        }
        assert_eq!(strip_v4a_noise("Update File foo.ts"), "Update File foo.ts");
        assert_eq!(strip_v4a_noise("updater:foo.ts"), "updater:foo.ts");
        assert_eq!(strip_v4a_noise("Update: a:b.ts"), "a:b.ts");
        assert_eq!(strip_v4a_noise("Update File:: x"), "x");
        assert_eq!(strip_v4a_noise("****a.ts"), "a.ts");
    }

    #[test]
    fn cwd_relativization() {
        assert_eq!(normalize_path("/w/p/src/a.ts", Some("/w/p")), "src/a.ts");
        assert_eq!(normalize_path("/w/p/./x/../a.ts", Some("/w/p/")), "a.ts");
        assert_eq!(normalize_path("/w/p", Some("/w/p")), ".");
        assert_eq!(
            normalize_path("/w/other/a.ts", Some("/w/p")),
            "/w/other/a.ts"
        );
        assert_eq!(normalize_path("/w/p/..x", Some("/w/p")), "/w/p/..x");
        assert_eq!(normalize_path("rel/a.ts", Some("/w/p")), "rel/a.ts");
        assert_eq!(normalize_path("/a/b", Some("/")), "a/b");
        assert_eq!(normalize_path("/w/p/a.ts", Some("w/p")), "/w/p/a.ts");
    }
}
