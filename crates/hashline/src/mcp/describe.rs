//! The tools' model-facing descriptions, after the seeds' prompts (`000` hashline, `001`
//! hash-json, `002` ast_edit/resolve, `004` lineid-json): what the anchors are, that numbers
//! refer to the read, when to re-read, how to write literal `+`/`-` lines.

use hashline_apply::anchors::AnchorForm;

use crate::Dialect;

/// `read`, for a server whose dialect is `dialect`.
pub(crate) fn read(dialect: Dialect) -> String {
    let shape = match dialect.get().map(|d| d.read_form()) {
        Some(AnchorForm::Hash) => {
            "Each line is returned as `HASH:content`: the HASH is the 4 characters before the \
             first `:` (its alphabet includes `-` and `_`), the content after it is the line \
             verbatim. Pass the bare 4-character HASH to `edit` (`start`/`end`/`pos`), never \
             the `HASH:content` form."
        }
        Some(AnchorForm::Lineid) => {
            "Each line is returned as `LINE#ID|content`. Copy the `LINE#ID` part (e.g. `12#VK`) \
             into `edit` anchors exactly; never include the `|content` part."
        }
        Some(AnchorForm::View | AnchorForm::Plain) => {
            "The output is a `¶PATH#TAG` header then one `N:TEXT` row per line; the `edit` \
             requests of this server quote text, not anchors: copy lines from the TEXT part \
             only, never the `N:` prefixes."
        }
        None | Some(AnchorForm::Tag) => {
            "The output is a `¶PATH#TAG` header (TAG: four hex digits naming this version of \
             the file) then one `N:TEXT` row per line. Copy the header into your `edit` patch \
             and only the line numbers into hunk headers; never copy the `N:` prefixes into \
             content."
        }
    };
    format!(
        "Read a text file with anchors and record the version shown in the session, so an edit \
         made against it can be checked and, if the file changed meanwhile, carried over \
         safely. {shape} Line numbers and anchors refer to this read. Read a file before \
         editing it; read it again before another edit of a region whose anchors you do not \
         have from the last edit's result, and after any refusal that does not show fresh \
         anchors. `offset`/`limit` show part of a long file."
    )
}

/// `edit`, for a server whose dialect is `dialect`.
pub(crate) fn edit(dialect: Dialect) -> String {
    // `auto`: the registry's first dialect, the one it falls back to.
    let language = dialect
        .get()
        .unwrap_or(hashline_apply::registry::DIALECTS[0])
        .prompt();
    format!(
        "Apply one anchored patch, all or nothing (every file of it, or none). {language}\n\n\
         A refused edit writes nothing and its text starts with what to do next. When an \
         anchor is stale the result shows the changed lines with fresh anchors: patch again \
         with those, or read the file again; never guess anchors. A successful result shows \
         the fresh anchors of the changed lines in the same form (a `--- Anchors PATH lines \
         A-B ---` block where the dialect's own reply has none): the next edit may use them \
         without a read. `dryRun` shows the diff \
         without writing. The patch's form is detected (`dialect` names it instead): a \
         patch of any dialect the `dialect` property lists also works, \
         and a JSON request may be sent as the object `request` instead of a string."
    )
}

/// `write`, for a server whose dialect is `dialect`.
pub(crate) fn write(dialect: Dialect) -> String {
    let anchors = match dialect.read_anchors() {
        crate::Anchors::Hash => "`HASH:content` anchors",
        crate::Anchors::Lineid => "`LINE#ID|content` anchors",
        crate::Anchors::Tag => "its `¶PATH#TAG` header and `N:TEXT` rows",
    };
    format!(
        "Create a file, or replace a whole file, with `content` (written byte for byte; \
         missing directories are created). The result shows the written file with {anchors}, \
         recorded in the session: edit it with those anchors without reading it again. Prefer \
         `edit` for changes to an existing file; an existing file is replaced only after this \
         session read it (otherwise E_NOT_READ: `read` it first)."
    )
}

/// `ast_edit`.
pub(crate) const AST_EDIT: &str = "\
Preview structural rewrites (ast-grep) over files, directories or globs. Writes nothing: the \
result shows each change as `-LINE:before` / `+LINE:after` under a `¶PATH#TAG` header and \
queues the preview with an id; call `resolve` with action \"apply\" to write it (or \
\"discard\"). Each op is {\"pat\": pattern, \"out\": rewrite}: metavariables are uppercase and \
stand for whole nodes ($NAME one node, $$$ARGS several, $_ any); captures of `pat` are \
substituted into `out`; an empty `out` deletes the match. A rewrite that would add a syntax \
error is refused unless `allowSyntaxErrors` is set. A result over 64 KiB shows a summary per \
file and the first matches, says how many were left out and how to see them (`resolve` with \
{\"action\": \"list\", \"id\": N, \"offset\": K}); the queued preview holds every match. \
Every file under `paths` is previewed (no file cap unless `maxFiles` is given).";

/// `resolve`.
pub(crate) const RESOLVE: &str = "\
Apply or discard a preview that `ast_edit` queued; with no action (or \"list\"), list the \
pending previews; \"list\" with an `id` shows that preview's matches from the 0-based \
`offset` on (default 0), a page at a time. \"apply\" writes the preview with `id` (default: the newest), only the \
matches in `only` if given (FILE:MATCH ids), and refuses, writing nothing, if any previewed \
file changed since the preview: run `ast_edit` again then. The result shows the new \
`¶PATH#TAG` headers of the written files. Annotated destructive because \"apply\" overwrites \
files; \"list\" and \"discard\" change no file.";

/// `undo`.
pub(crate) const UNDO: &str = "\
Put back the files of a call that wrote (`edit`, `write`, `resolve` apply), byte for byte, all \
or nothing: {\"action\": \"undo\"} undoes this session's last such call (repeat to walk back), \
{\"id\": N} the call whose result carried `undo` id N; a file the call created is removed. \
With no arguments (or {\"action\": \"list\"}) it writes nothing and lists this root's recent \
calls: id, age, session, files. A file changed since that call is refused, not overwritten. \
Annotated destructive because an undo overwrites or removes files; the list changes none.";
