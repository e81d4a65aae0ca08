//! The tools' model-facing descriptions, after the seeds' prompts (`000` hashline, `001`
//! hash-json, `002` ast_edit/resolve, `004` lineid-json): what the anchors are, that numbers
//! refer to the read, when to re-read, how to write literal `+`/`-` lines.

use crate::Dialect;

/// `read`, for a server whose dialect is `dialect`.
pub(crate) fn read(dialect: Dialect) -> String {
    let shape = match dialect {
        Dialect::HashJson => {
            "Each line is returned as `HASH:content`: the HASH is the 4 characters before the \
             first `:` (its alphabet includes `-` and `_`), the content after it is the line \
             verbatim. Pass the bare 4-character HASH to `edit` (`start`/`end`/`pos`), never \
             the `HASH:content` form."
        }
        Dialect::LineidJson => {
            "Each line is returned as `LINE#ID|content`. Copy the `LINE#ID` part (e.g. `12#VK`) \
             into `edit` anchors exactly; never include the `|content` part."
        }
        Dialect::StrReplace | Dialect::ApplyPatch => {
            "The output is a `¶PATH#TAG` header then one `N:TEXT` row per line; the `edit` \
             requests of this server quote text, not anchors: copy lines from the TEXT part \
             only, never the `N:` prefixes."
        }
        Dialect::Auto | Dialect::Hashline => {
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
    let language = match dialect {
        Dialect::HashJson => HASH_JSON,
        Dialect::LineidJson => LINEID_JSON,
        Dialect::StrReplace => STR_REPLACE,
        Dialect::ApplyPatch => APPLY_PATCH,
        Dialect::Auto | Dialect::Hashline => HASHLINE,
    };
    format!(
        "Apply one anchored patch, all or nothing (every file of it, or none). {language}\n\n\
         A refused edit writes nothing and its text starts with what to do next. When an \
         anchor is stale the result shows the changed lines with fresh anchors: patch again \
         with those, or read the file again; never guess anchors. A successful result shows \
         the fresh anchors of the changed lines in the same form (a `--- Anchors PATH lines \
         A-B ---` block where the dialect's own reply has none): the next edit may use them \
         without a read. `dryRun` shows the diff \
         without writing. The patch's form is detected (`dialect` names it instead): an \
         apply-patch (V4A) patch, a str-replace request or the other JSON dialects also work, \
         and a JSON request may be sent as the object `request` instead of a string."
    )
}

const HASHLINE: &str = "\
`patch` is hashline patch text: one section per file, each starting with the `¶PATH#TAG` \
header copied from the latest read (or from the last successful edit of that file), then hunks:
  replace N..M:      replace lines N..M with the `+` rows below
  delete N..M        delete lines N..M (no rows)
  insert before N:   insert the rows before line N (also `insert after N:`, `insert head:`, `insert tail:`)
  replace block N: / delete block N   the whole syntactic block that starts on line N
Every body row is `+TEXT`; `+` alone is a blank line. Line numbers refer to the file as you \
read it: do not renumber later hunks for the lines earlier hunks add or remove. There are no \
`-` rows and no context rows: to keep a line, leave it out of every range. A literal line \
that begins with `+` or `-` is written `++text` or `+-text`. Example:
¶src/a.ts#0A3B
replace 1..1:
+const X = \"b\";
insert after 5:
+console.log(X);";

const STR_REPLACE: &str = "\
`patch` is the text-editor tool's JSON request as one string: {\"command\": \"str_replace\", \
\"path\": \"src/a.ts\", \"old_str\": \"...\", \"new_str\": \"...\"} replaces the one \
occurrence of `old_str` (it must occur exactly once, white space included); \
{\"command\": \"insert\", \"path\": ..., \"insert_line\": N, \"new_str\": ...} inserts after \
line N (0: at the start); {\"command\": \"create\", \"path\": ..., \"file_text\": ...} \
creates a new file; {\"command\": \"view\", \"path\": ...} shows a file (and records it, so \
a later edit is checked against what you saw); {\"command\": \"undo_edit\", \"path\": ...} \
undoes this session's last edit of the file. Text is matched in the version you last \
viewed or read; if the file changed since, the edit is carried over or refused with the \
current lines.";

const APPLY_PATCH: &str = "\
`patch` is OpenAI's V4A patch text: `*** Begin Patch`, then per file `*** Add File: PATH` \
(every row `+TEXT`), `*** Delete File: PATH`, or `*** Update File: PATH` (optionally \
`*** Move to: NEW`) followed by chunks: an `@@` line (optionally `@@ CONTEXT` naming a line \
above the change, such as the enclosing function), then rows ` TEXT` (unchanged context, \
about three lines around each change), `-TEXT` (removed) and `+TEXT` (added); \
`*** End of File` after a chunk that ends the file; finally `*** End Patch`. Copy context \
lines exactly from the file as you last read it: context that matches more than once is \
refused, context found only after ignoring white space is applied with a warning. Every \
file of the patch lands, or none. Adding or moving onto an existing file is refused.";

const HASH_JSON: &str = "\
`patch` is the JSON request as one string: {\"path\": \"src/main.ts\", \"edits\": [...]}. Ops: \
{\"op\": \"replace\", \"start\": \"HASH\", \"end\": \"HASH\", \"lines\": [...]} replaces the \
inclusive range (single line: start = end; `lines: []` deletes, and so does `[\"\"]`: to leave one blank line, restate a neighbouring line beside it); {\"op\": \"append\", \"pos\": \
\"HASH\", \"lines\": [...]} inserts after pos (no pos: at the end); {\"op\": \"prepend\", ...} \
inserts before pos (no pos: at the start). Anchors are the bare 4-character HASHes of the \
latest read or of the `--- Anchors ---` block of the last edit; all edits of one call refer \
to that one version (do not adjust for earlier edits of the same call). `lines` is literal \
file content: no `HASH:` prefixes, no `+`/`-` diff markers.";

const LINEID_JSON: &str = "\
`patch` is the JSON request as one string: {\"filePath\": \"src/a.ts\", \"edits\": [...]}. Ops: \
{\"op\": \"replace\", \"pos\": \"LINE#ID\", \"end\": \"LINE#ID\", \"lines\": [...]} replaces \
pos..end inclusive (pos only: one line; `lines: []` or null deletes); {\"op\": \"append\", \
\"pos\": \"LINE#ID\", \"lines\": [...]} inserts after the anchor, {\"op\": \"prepend\", ...} \
before it; without anchors they insert at the end or start (and create a missing file). \
Anchors are `LINE#ID` copied exactly from the latest read, or from the `--- Anchors` block \
of the last edit's result; every edit of one call refers to that version (do not adjust line \
numbers for earlier edits of the call). `lines` is plain content: no `LINE#ID|` prefixes, no \
`+`/`-` diff markers. For lines outside the anchors shown, read the file again first.";

/// `write`, for a server whose dialect is `dialect`.
pub(crate) fn write(dialect: Dialect) -> String {
    let anchors = match dialect {
        Dialect::HashJson => "`HASH:content` anchors",
        Dialect::LineidJson => "`LINE#ID|content` anchors",
        Dialect::Auto | Dialect::Hashline | Dialect::StrReplace | Dialect::ApplyPatch => {
            "its `¶PATH#TAG` header and `N:TEXT` rows"
        }
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
{\"action\": \"list\", \"id\": N, \"offset\": K}); the queued preview holds every match.";

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
