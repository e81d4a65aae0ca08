//! Which dialect a request speaks, and which anchors a read shows.

use std::str::FromStr;

/// The edit dialects `hashline edit` understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// Detect from the input (see [`Dialect::detect`]).
    #[default]
    Auto,
    /// The hashline patch language (seed `000`).
    Hashline,
    /// Hash-anchored JSON edits (seed `001`).
    HashJson,
    /// `LINE#ID` JSON edits (seed `004`).
    LineidJson,
    /// The text-editor tool's JSON request (`command`, `path`, `old_str`, …).
    StrReplace,
    /// OpenAI's V4A `apply_patch` text (`*** Begin Patch` / `*** Update File:` …).
    ApplyPatch,
}

impl Dialect {
    /// Detect the dialect of `input`: `*** Begin Patch` (possibly inside a `<<EOF` heredoc
    /// wrapper) followed by a V4A file header (`*** Add File:`, `*** Update File:`,
    /// `*** Delete File:`) or `*** End Patch` is `apply-patch`; other text whose first
    /// non-blank line starts with `¶` or `*** Begin Patch` is the hashline language; a JSON
    /// object with `filePath` is `lineid-json`; a JSON object with `command` and `path` is
    /// `str-replace`; a JSON object with `path` and `edits` is `hash-json`. Anything else is
    /// treated as the hashline language, whose parser explains what it expected.
    pub fn detect(input: &str) -> Dialect {
        let trimmed = input.trim_start_matches('\u{feff}').trim_start();
        if is_v4a(trimmed) {
            return Dialect::ApplyPatch;
        }
        if trimmed.starts_with('{') {
            if let Ok(serde_json::Value::Object(map)) =
                serde_json::from_str::<serde_json::Value>(trimmed)
            {
                if map.contains_key("filePath") {
                    return Dialect::LineidJson;
                }
                if map.contains_key("command") && map.contains_key("path") {
                    return Dialect::StrReplace;
                }
                if map.contains_key("path") || map.contains_key("edits") {
                    return Dialect::HashJson;
                }
            }
        }
        Dialect::Hashline
    }

    /// The anchors a `read` shows for an agent that edits in this dialect: the JSON dialects'
    /// own; the tagged view for the others (the text-matching dialects name no anchors).
    pub fn read_anchors(self) -> Anchors {
        match self {
            Dialect::Auto | Dialect::Hashline | Dialect::StrReplace | Dialect::ApplyPatch => {
                Anchors::Tag
            }
            Dialect::HashJson => Anchors::Hash,
            Dialect::LineidJson => Anchors::Lineid,
        }
    }

    /// Resolve [`Dialect::Auto`] against `input`.
    pub fn resolve(self, input: &str) -> Dialect {
        match self {
            Dialect::Auto => Dialect::detect(input),
            other => other,
        }
    }
}

/// `*** Begin Patch` (after an optional heredoc opener) followed by a V4A header.
fn is_v4a(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = lines.next();
    if matches!(first, Some("<<EOF" | "<<'EOF'" | "<<\"EOF\"")) {
        first = lines.next();
    }
    if first != Some("*** Begin Patch") {
        return false;
    }
    lines.next().is_some_and(|l| {
        ["*** Add File:", "*** Update File:", "*** Delete File:"]
            .iter()
            .any(|h| l.starts_with(h))
            || l == "*** End Patch"
    })
}

impl Dialect {
    /// Every dialect, in the order the CLI lists them.
    pub const ALL: [Dialect; 6] = [
        Dialect::Auto,
        Dialect::Hashline,
        Dialect::HashJson,
        Dialect::LineidJson,
        Dialect::StrReplace,
        Dialect::ApplyPatch,
    ];

    /// The name `--dialect` takes (`auto`, `hashline`, `hash-json`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Auto => "auto",
            Dialect::Hashline => "hashline",
            Dialect::HashJson => "hash-json",
            Dialect::LineidJson => "lineid-json",
            Dialect::StrReplace => "str-replace",
            Dialect::ApplyPatch => "apply-patch",
        }
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown dialect `{s}`: use auto, hashline, hash-json, lineid-json, str-replace or apply-patch"
                )
            })
    }
}

/// The anchors a `read` (or the auto-read after `write`) shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Anchors {
    /// `¶PATH#TAG` then `N:TEXT` (seed `000`).
    #[default]
    Tag,
    /// `HASH:TEXT` (seed `001`).
    Hash,
    /// `N#ID|TEXT` (seed `004`).
    Lineid,
}

impl FromStr for Anchors {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "tag" => Ok(Anchors::Tag),
            "hash" => Ok(Anchors::Hash),
            "lineid" => Ok(Anchors::Lineid),
            _ => Err(format!("unknown anchors `{s}`: use tag, hash or lineid")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn detects_each_dialect() {
        assert_eq!(Dialect::detect("\n¶a.ts#1A2B\ndelete 1"), Dialect::Hashline);
        assert_eq!(
            Dialect::detect("*** Begin Patch\n¶a.ts#1A2B"),
            Dialect::Hashline
        );
        assert_eq!(
            Dialect::detect(r#"{"filePath":"a","edits":[]}"#),
            Dialect::LineidJson
        );
        assert_eq!(
            Dialect::detect(r#" {"path":"a","edits":[]}"#),
            Dialect::HashJson
        );
        assert_eq!(
            Dialect::detect(r#"{"command":"view","path":"a"}"#),
            Dialect::StrReplace
        );
        assert_eq!(Dialect::detect("garbage"), Dialect::Hashline);
        assert_eq!(
            Dialect::detect("*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch"),
            Dialect::ApplyPatch
        );
        assert_eq!(
            Dialect::detect("<<'EOF'\n*** Begin Patch\n  *** Add File: b\n+x\n*** End Patch\nEOF"),
            Dialect::ApplyPatch
        );
        assert_eq!(
            Dialect::detect("*** Begin Patch\n*** End Patch\n"),
            Dialect::ApplyPatch
        );
        assert_eq!(Dialect::detect("{not json"), Dialect::Hashline);
    }
}
