//! The options of [`Session::read`](crate::Session::read) and
//! [`Session::edit`](crate::Session::edit): `#[non_exhaustive]`, built with
//! `ReadOptions::new().offset(10).limit(20)` and `EditOptions::new().dry_run(true)`, so an
//! option added later breaks no caller.

use std::borrow::Cow;

use crate::Anchors;

/// Options of [`Engine::read`](crate::Engine::read): which anchors, and which lines.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Which anchors to show.
    pub anchors: Anchors,
    offset: Option<Count>,
    limit: Option<Count>,
}

/// A line count as the caller gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Count {
    /// A number (the library's setters).
    Number(usize),
    /// Text as a user typed it (`--offset 1.5`): each read mode validates it in its seed's
    /// words.
    Text(String),
}

impl ReadOptions {
    /// Tag anchors, the whole file (one page of the read budget at most).
    pub fn new() -> ReadOptions {
        ReadOptions::default()
    }

    /// Show `anchors`.
    pub fn anchors(mut self, anchors: Anchors) -> ReadOptions {
        self.anchors = anchors;
        self
    }

    /// Start at line `line` (1-based; 0 is refused as the read mode's seed refuses it).
    pub fn offset(mut self, line: usize) -> ReadOptions {
        self.offset = Some(Count::Number(line));
        self
    }

    /// Show at most `lines` lines.
    pub fn limit(mut self, lines: usize) -> ReadOptions {
        self.limit = Some(Count::Number(lines));
        self
    }

    /// The offset and limit as a user typed them (the CLI's `--offset`/`--limit`, a
    /// `read PATH:N-M` range): a value that is not a count is refused in the words of the read
    /// mode's seed tool rather than by the caller.
    pub fn typed(mut self, offset: Option<String>, limit: Option<String>) -> ReadOptions {
        self.offset = offset.map(Count::Text);
        self.limit = limit.map(Count::Text);
        self
    }

    /// Whether an offset or a limit was given.
    pub(crate) fn has_range(&self) -> bool {
        self.offset.is_some() || self.limit.is_some()
    }

    /// The offset as text (what every read mode validates).
    pub(crate) fn offset_text(&self) -> Option<Cow<'_, str>> {
        self.offset.as_ref().map(Count::text)
    }

    /// The limit as text.
    pub(crate) fn limit_text(&self) -> Option<Cow<'_, str>> {
        self.limit.as_ref().map(Count::text)
    }
}

impl Count {
    fn text(&self) -> Cow<'_, str> {
        match self {
            Count::Number(n) => Cow::Owned(n.to_string()),
            Count::Text(t) => Cow::Borrowed(t),
        }
    }
}

/// Options of [`Engine::edit_with`](crate::Engine::edit_with).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct EditOptions {
    /// Validate everything and report what would change; write nothing.
    pub dry_run: bool,
    /// Let an edit that adds a syntax error land (`--allow-syntax-errors`; a JSON request's
    /// `"allowSyntaxErrors": true` does the same for that request).
    pub allow_syntax_errors: bool,
    /// Refuse files larger than this many MiB, for a dialect with such a bound (`None`: its
    /// own default; the text-editor tool's is 10).
    pub max_file_mb: Option<u64>,
    /// Let a patch that adds a file, or moves one, replace an existing file (`--overwrite`;
    /// refused with E_FILE_EXISTS otherwise; the V4A patch's `*** Add File:`/`*** Move to:`).
    pub overwrite: bool,
    /// The reply carries the fresh anchors of every changed region in `files[].anchors` (on
    /// by default; the MCP server and `--json` show them). For lineid-json, whose seed reply
    /// shows none, it also makes the result a version the session has seen (recorded), so the
    /// next edit may use those anchors; the plain CLI turns it off unless `--show-anchors`.
    pub fresh_anchors: bool,
    /// `edit --show-anchors`: where the dialect's text shows no fresh anchors
    /// ([`hashline_apply::Dialect::shows_anchors_in_reply`]), append them
    /// ([`hashline_apply::anchors::render_block`]). Implies `fresh_anchors`.
    pub show_anchors: bool,
}

impl Default for EditOptions {
    fn default() -> EditOptions {
        EditOptions {
            dry_run: false,
            allow_syntax_errors: false,
            max_file_mb: None,
            overwrite: false,
            fresh_anchors: true,
            show_anchors: false,
        }
    }
}

impl EditOptions {
    /// The defaults: write, refuse a new syntax error, fresh anchors in the reply.
    pub fn new() -> EditOptions {
        EditOptions::default()
    }

    /// See [`EditOptions::dry_run`](#structfield.dry_run).
    pub fn dry_run(mut self, on: bool) -> EditOptions {
        self.dry_run = on;
        self
    }

    /// See [`EditOptions::allow_syntax_errors`](#structfield.allow_syntax_errors).
    pub fn allow_syntax_errors(mut self, on: bool) -> EditOptions {
        self.allow_syntax_errors = on;
        self
    }

    /// See [`EditOptions::max_file_mb`](#structfield.max_file_mb).
    pub fn max_file_mb(mut self, mib: u64) -> EditOptions {
        self.max_file_mb = Some(mib);
        self
    }

    /// See [`EditOptions::overwrite`](#structfield.overwrite).
    pub fn overwrite(mut self, on: bool) -> EditOptions {
        self.overwrite = on;
        self
    }

    /// See [`EditOptions::fresh_anchors`](#structfield.fresh_anchors).
    pub fn fresh_anchors(mut self, on: bool) -> EditOptions {
        self.fresh_anchors = on;
        self
    }

    /// See [`EditOptions::show_anchors`](#structfield.show_anchors).
    pub fn show_anchors(mut self, on: bool) -> EditOptions {
        self.show_anchors = on;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_typed_text_read_the_same() {
        let numbers = ReadOptions::new().offset(10).limit(3);
        let typed = ReadOptions::new().typed(Some("10".into()), Some("3".into()));
        for o in [&numbers, &typed] {
            assert_eq!(o.offset_text().as_deref(), Some("10"));
            assert_eq!(o.limit_text().as_deref(), Some("3"));
            assert!(o.has_range());
        }
        assert!(!ReadOptions::new().has_range());
        let e = EditOptions::new().dry_run(true).max_file_mb(2);
        assert!(e.dry_run && e.fresh_anchors && e.max_file_mb == Some(2));
    }
}
