//! The [`Dialect`] trait every edit dialect implements, and [`DialectId`], the handle a caller
//! names one by (`auto` or a dialect of [`crate::registry::DIALECTS`]).
//!
//! A dialect is a value: its name, how `auto` recognises its input, which anchors its model
//! reads, its words for help and the MCP tools, and [`Dialect::edit`], which runs one request
//! through the dialect's own front end and the shared executor. It never touches the store or
//! the disk except through what it is handed. Adding one is a module that implements this
//! trait and one line in [`crate::registry::DIALECTS`].

use std::fmt;
use std::str::FromStr;

use hashline_core::BlockResolver;
use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::guard::GuardOptions;
use crate::{registry, Disk, Outcome};

/// One edit dialect: what the CLI, the MCP server, `auto` and the engine need of it.
pub trait Dialect: Sync {
    /// The value of `--dialect` and of the MCP `dialect` property (`hashline`, `hash-json`, …).
    fn name(&self) -> &'static str;

    /// Other names `--dialect` accepts for it (none by default).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// One line for `edit --help` and the MCP schemas: what the input looks like and how
    /// `auto` tells it.
    fn describe(&self) -> &'static str;

    /// The MCP `edit` tool's words for a server of this dialect: how to write a patch.
    fn prompt(&self) -> &'static str {
        self.describe()
    }

    /// How sure `auto` is that `input` speaks this dialect: 0 not at all; the highest score
    /// wins, a tie goes to the earlier registry entry, and with no score above 0 the first
    /// entry (the hashline language) is used.
    fn detect(&self, input: &Sniff<'_>) -> u8 {
        let _ = input;
        0
    }

    /// The rows its model reads, and its fresh anchors are rendered in.
    fn read_form(&self) -> AnchorForm;

    /// Whether the successful `reply`'s own text already shows the anchors the next edit
    /// needs (otherwise `edit --show-anchors` and MCP append them).
    fn shows_anchors_in_reply(&self, reply: &Outcome) -> bool {
        let _ = reply;
        false
    }

    /// The refusal of a patch that is not UTF-8 text (`E_PARSE`), in the seed's words.
    fn not_utf8(&self) -> &'static str {
        NOT_UTF8
    }

    /// Run one request: parse it, plan it with the shared executor, write (unless
    /// `dry_run`), record, and reply in the dialect's seed's words.
    fn edit(
        &self,
        disk: &dyn Disk,
        store: &dyn SnapshotStore,
        input: &str,
        options: &RunOptions<'_>,
    ) -> Outcome;
}

/// The refusal of a patch that is not UTF-8, for a dialect without its own words for it.
pub const NOT_UTF8: &str =
    "The patch is not valid UTF-8 text: send it as UTF-8. Nothing was written.";

/// What [`Dialect::detect`] looks at: the input without a leading BOM and white space, and
/// the JSON object it is, when it is one (parsed once for every dialect).
pub struct Sniff<'a> {
    /// The trimmed input.
    pub text: &'a str,
    /// The input as a JSON object, when it parses as one.
    pub object: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

/// The options of one [`Dialect::edit`] call; each dialect reads those it has.
#[derive(Clone, Copy, Default)]
pub struct RunOptions<'a> {
    /// Compute and report everything; write and record nothing.
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: GuardOptions<'a>,
    /// Resolves `replace block N:` (the hashline language); `None`: block ops are refused.
    pub resolver: Option<&'a dyn BlockResolver>,
    /// The reply keeps the fresh anchors of every changed region (`files[].anchors`).
    pub fresh_anchors: bool,
    /// Files larger than this many MiB are refused (`None`: the dialect's default).
    pub max_file_mb: Option<u64>,
    /// A patch that adds or moves onto an existing file may replace it.
    pub overwrite: bool,
}

/// `auto` or one dialect of the registry: what a caller passes to name a dialect.
///
/// The dialects' own modules add a constant each (`DialectId::Hashline`, …), so the handle
/// lists no dialect itself.
#[derive(Clone, Copy, Default)]
pub struct DialectId(Option<&'static dyn Dialect>);

impl DialectId {
    /// Detect from the input ([`DialectId::detect`]).
    #[allow(non_upper_case_globals)]
    pub const Auto: DialectId = DialectId(None);

    /// The handle of `dialect`.
    pub const fn of(dialect: &'static dyn Dialect) -> DialectId {
        DialectId(Some(dialect))
    }

    /// The dialect, `None` for `auto`.
    pub fn get(self) -> Option<&'static dyn Dialect> {
        self.0
    }

    /// The dialect `input` speaks, by the registry's scores ([`Dialect::detect`]).
    pub fn detect(input: &str) -> DialectId {
        DialectId::of(registry::detect(input))
    }

    /// Resolve [`DialectId::Auto`] against `input`.
    pub fn resolve(self, input: &str) -> DialectId {
        match self.0 {
            None => DialectId::detect(input),
            Some(_) => self,
        }
    }

    /// `auto`, then every dialect of the registry, in its order.
    pub fn all() -> impl Iterator<Item = DialectId> {
        std::iter::once(DialectId::Auto).chain(registry::DIALECTS.iter().map(|d| DialectId::of(*d)))
    }

    /// The name `--dialect` takes (`auto`, `hashline`, `hash-json`, …).
    pub fn as_str(self) -> &'static str {
        self.0.map_or("auto", |d| d.name())
    }

    /// The anchors a `read` shows for an agent that edits in this dialect: the JSON dialects'
    /// own; the tagged view for the others (the text-matching dialects name no anchors).
    pub fn read_anchors(self) -> Anchors {
        match self.0.map(|d| d.read_form()) {
            Some(AnchorForm::Hash) => Anchors::Hash,
            Some(AnchorForm::Lineid) => Anchors::Lineid,
            _ => Anchors::Tag,
        }
    }
}

impl PartialEq for DialectId {
    fn eq(&self, other: &DialectId) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for DialectId {}

impl fmt::Debug for DialectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DialectId({})", self.as_str())
    }
}

impl FromStr for DialectId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            return Ok(DialectId::Auto);
        }
        registry::find(s).map(DialectId::of).ok_or_else(|| {
            let names: Vec<&str> = DialectId::all().map(DialectId::as_str).collect();
            let (last, rest) = names.split_last().map_or(("", &[][..]), |(l, r)| (*l, r));
            format!("unknown dialect `{s}`: use {} or {last}", rest.join(", "))
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
