//! Splice, guard, encode: one file's resolved edits turned into the bytes to write.

use hashline_core::{
    splice, splice_runs, Edit, LineChange, OutLine, Pieces, SpliceError, TextFile,
};

use super::new_text::NewText;

use crate::guard::{self, GuardOptions, Refusal};

/// The warning of an edit whose written text reads back differently (a new line holding a
/// carriage return, a file that now starts with U+FEFF): the tag and lines reported are those of
/// the file as the next read will show it.
pub const REREAD_DIFFERS: &str = "A new line contained a carriage return (\\r) or the file now \
starts with U+FEFF; a read shows these as a line break and a byte-order mark, so the tag and \
line numbers above are those of the file as it will be read.";

/// The warning of an edit of a file read in a legacy code page whose written bytes read back as
/// different text (the detector now guesses another code page, or a new line holds a carriage
/// return): the tag and lines reported are those of the file as the next read will show it.
pub const REREAD_CHARSET: &str = "This file was read and written in a legacy code page, but a \
read of the bytes written shows different text (the code page is now guessed differently, or a \
new line holds a carriage return), so the tag and line numbers above are those of the file as it \
will be read. View it again before the next edit.";

/// What a front end tells the guard about its dialect: the path as the request named it, how
/// its seed renders line `N` with a read anchor, and how it names an edit.
pub(crate) struct Front<'a> {
    /// The file's path as the request named it (for the language and for messages).
    pub path: &'a str,
    /// Renders 1-based line `n` of the text before with the dialect's read anchor.
    pub anchor: &'a dyn Fn(usize) -> String,
    /// Names an edit the way the request did (`replace 5..7`, `edits[0]`).
    pub label: &'a dyn Fn(&Edit) -> String,
    /// The request's own `allowSyntaxErrors` (added to the call's guard options).
    pub allow_syntax_errors: bool,
    /// The dialect sends one hunk per call by design (the text-editor tool).
    pub one_hunk_per_call: bool,
}

/// One file's edits spliced in memory.
#[derive(Debug, Clone)]
pub(crate) struct Spliced {
    /// The output lines, in terms of the original lines (empty for a
    /// [plain](TextFile::is_plain) file, whose new bytes are its new text).
    pub out: Vec<OutLine>,
    /// The new LF text (a plain file's: spliced from its text, not joined).
    pub text: NewText,
}

/// Splice `edits` (in the numbering of `lines`, the lines of `file`) into `file`.
pub(crate) fn splice_file(
    file: &TextFile,
    lines: &[&str],
    edits: &[Edit],
) -> Result<Spliced, SpliceError> {
    // A plain file's bytes are its text: no output lines are needed to encode it, only the
    // runs of kept lines between the edits, and its new text is held as ranges of the old.
    if let Some(text) = file.splice_pieces(lines, &splice_runs(lines, edits)?) {
        return Ok(Spliced {
            out: Vec::new(),
            text: NewText::Spliced(text),
        });
    }
    let out = splice(lines, edits)?;
    let text = file.render_text(&out).into();
    Ok(Spliced { out, text })
}

/// One file's spliced edits, passed by the guard and encoded.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// The new LF text as spliced (see [`Encoded::reread`] for what a read will show).
    pub text: NewText,
    /// The bytes to write and what encoding them found.
    pub encoded: Encoded,
    /// The guard's `[W_…]` warnings.
    pub warnings: Vec<String>,
    /// The stretches of lines the edits changed (the guard's [`guard::Subject::changes`]).
    pub changes: Vec<LineChange>,
}

/// Run the edit guard on `spliced` (the result of `edits`, in the numbering of `lines`, the
/// lines of `file`) and encode it. The front end splices first ([`splice_file`]) so that its
/// own checks of the spliced text (a no-op, an emptied file) keep their seed's place.
pub(crate) fn guard_and_encode(
    front: &Front<'_>,
    file: &TextFile,
    lines: &[&str],
    edits: &[Edit],
    spliced: Spliced,
    opts: &GuardOptions<'_>,
) -> Result<Checked, Refusal> {
    let opts = opts.allowing_syntax_errors(front.allow_syntax_errors);
    // Encoded before the guard runs (its refusal still comes after the guard's) so that the
    // output lines are gone while the guard holds both texts.
    let Spliced { out, text } = spliced;
    let pieces = text.pieces(file.text());
    let encoded = encode(front.path, file, &out, &pieces);
    drop(out);
    let (warnings, changes) = guard(front, file.text(), lines, edits, &pieces, &opts)?;
    Ok(Checked {
        text,
        encoded: encoded?,
        warnings,
        changes,
    })
}

/// Run the edit guard on `edits` (in the numbering of `lines`, the lines of `before`) whose
/// result is `after`. `Ok` carries the guard's `[W_…]` warnings and the stretches the edits
/// changed.
fn guard(
    front: &Front<'_>,
    before: &str,
    lines: &[&str],
    edits: &[Edit],
    after: &Pieces<'_>,
    opts: &GuardOptions<'_>,
) -> Result<(Vec<String>, Vec<LineChange>), Refusal> {
    let mut subject = guard::Subject::new(
        front.path,
        lines,
        edits,
        (before, after),
        front.anchor,
        front.label,
    );
    subject.one_hunk_per_call = front.one_hunk_per_call;
    let warnings = guard::check(&subject, opts)?;
    Ok((warnings, subject.into_changes()))
}

/// A spliced file encoded for the disk.
#[derive(Debug, Clone)]
pub(crate) struct Encoded {
    /// The bytes to write (untouched lines keep theirs); `None`: they are the spliced text's
    /// (a [plain](TextFile::is_plain) file: no copy is made).
    pub bytes: Option<Vec<u8>>,
    /// The warning naming new lines whose undecodable original bytes are gone, if any.
    pub lost_bytes: Option<String>,
    /// What the next read will show when that differs from the spliced text (a `\r` inside a
    /// new line, a leading U+FEFF, a legacy code page guessed differently): the text to report,
    /// tag and record instead.
    pub reread: Option<String>,
    /// The warning that goes with [`Encoded::reread`].
    pub reread_warning: &'static str,
}

/// Encode `out` (whose LF text is `text`) in `file`'s line endings (and legacy code page) and
/// apply the re-read rule (a plain file's text is joined for it only when a new line holds a
/// `\r` or the text starts with U+FEFF, the only cases a read shows differently). A new line the file's code page cannot hold refuses the edit
/// (`E_UNENCODABLE`): it is never written in another encoding or replaced.
fn encode(
    path: &str,
    file: &TextFile,
    out: &[OutLine],
    text: &Pieces<'_>,
) -> Result<Encoded, Refusal> {
    if let (Some(charset), Some((line, c))) = (file.charset(), file.unencodable(out)) {
        return Err(Refusal {
            code: hashline_core::ErrorCode::Unencodable,
            message: format!(
                "{path} is written in {name}, the code page it was read in, and line {line} of \
                 the result holds {c:?} (U+{code:04X}), which {name} cannot hold. Nothing was \
                 written. Spell that character with what {name} has (or an escape the file's \
                 language understands), or convert the file to UTF-8 first.",
                name = charset.name(),
                code = u32::from(c),
            ),
        });
    }
    let bytes = (!file.is_plain()).then(|| file.encode(out));
    let lost_bytes = file.lost_bytes_warning(out);
    let suspect = !file.is_plain() || text.contains('\r') || text.starts_with("\u{FEFF}");
    let reread = suspect
        .then(|| {
            let text = text.to_text();
            file.reread(&text, bytes.as_deref().unwrap_or(text.as_bytes()))
        })
        .flatten();
    let reread_warning = if file.charset().is_some() {
        REREAD_CHARSET
    } else {
        REREAD_DIFFERS
    };
    Ok(Encoded {
        bytes,
        lost_bytes,
        reread,
        reread_warning,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_core::EditKind;

    fn replace(line: usize, rows: &[&str]) -> Edit {
        Edit {
            kind: EditKind::Replace {
                start: line,
                end: line,
            },
            rows: rows.iter().map(|r| r.to_string()).collect(),
            origin: 0,
        }
    }

    /// The text read and what came of `edit`.
    fn run(bytes: &[u8], edit: Edit) -> Result<(String, Checked), Refusal> {
        let file = TextFile::decode(bytes.to_vec());
        let lines: Vec<&str> = file.line_slices();
        let edits = vec![edit];
        let spliced = splice_file(&file, &lines, &edits).expect("splice");
        let anchor = |n: usize| format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""));
        let front = Front {
            path: "a.txt",
            anchor: &anchor,
            label: &guard::op_label,
            allow_syntax_errors: false,
            one_hunk_per_call: false,
        };
        let checked = guard_and_encode(
            &front,
            &file,
            &lines,
            &edits,
            spliced,
            &GuardOptions::default(),
        )?;
        Ok((file.text().to_owned(), checked))
    }

    #[test]
    fn untouched_lines_keep_their_endings() {
        let (old, checked) = run(b"a\r\nb\r\nc\r\n", replace(2, &["B"])).expect("checked");
        assert!(checked.text.is(&old, "a\nB\nc\n"));
        assert_eq!(
            checked.encoded.bytes.as_deref(),
            Some(&b"a\r\nB\r\nc\r\n"[..])
        );
        assert_eq!(checked.encoded.reread, None);
    }

    #[test]
    fn a_plain_file_is_written_as_its_new_text() {
        let (old, checked) = run(b"a\nb\nc\n", replace(2, &["B"])).expect("checked");
        assert!(checked.text.is(&old, "a\nB\nc\n"));
        assert!(
            matches!(checked.text, NewText::Spliced(_)),
            "held as pieces of the old text"
        );
        assert_eq!(checked.encoded.bytes, None);
        let (old, bom) = run(b"a\nb\n", replace(1, &["\u{FEFF}a"])).expect("checked");
        assert_eq!(bom.encoded.bytes, None);
        assert!(bom.text.is(&old, "\u{FEFF}a\nb\n"));
        assert_eq!(bom.encoded.reread.as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn a_leading_feff_reads_back_as_a_bom() {
        let (_, checked) = run(b"a\nb\n", replace(1, &["\u{FEFF}a"])).expect("checked");
        assert_eq!(checked.encoded.reread.as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn the_guard_refuses_with_the_front_ends_anchors() {
        let refusal = run(b"a\nb\nc\n", replace(2, &["2:b"])).expect_err("refused");
        assert!(
            refusal.message.contains("replace 2..2"),
            "{}",
            refusal.message
        );
    }
}
