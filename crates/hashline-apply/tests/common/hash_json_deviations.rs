//! What we do instead of the peer's recorded result, where `../shared/conformance/DEVIATIONS.md`
//! makes us do better: the one table both hash-json conformance runs assert, the library-level
//! `hashline-apply/tests/hash_json_conformance.rs` and the binary-level
//! `hashline/tests/conformance_hash_json.rs` (through the CLI the outcome must not change). Both
//! include this file with `#[path]`.
#![allow(dead_code)]

use hashline_core::ErrorCode;

/// Which setup a deviation applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Every run of the case.
    Always,
    /// Only when the case's `anchors_from.txt` was recorded by a `read` first (DEVIATIONS §1:
    /// without a recorded read the peer's result stands).
    Recorded,
}

/// What we assert instead of the peer's recorded result.
pub enum Ours {
    /// Applied: the file bytes and the exact response.
    Applied {
        after: &'static [u8],
        response: &'static str,
    },
    /// Refused: the code and the full message.
    Refused {
        code: ErrorCode,
        message: &'static str,
    },
}

/// One deviation: (case, DEVIATIONS.md rule, when it applies, what we assert).
pub type Deviation = (&'static str, &'static str, When, Ours);

/// Every hash-json case whose peer result we deliberately do not reproduce.
pub const DEVIATIONS: &[Deviation] = &[
    (
        "034-boundary-duplication-warning-before",
        "§4a: the first row repeats the line before the range, so the repeats-line notice joins the warnings",
        When::Always,
        Ours::Applied {
            after: b"before\nbefore\nnew one\nnew two\nafter",
            response: "--- Anchors ---\neFfO:before\n0Ibr:before\nPlRV:new one\n4F4w:new two\nH4YZ:after\n\nWarnings:\n[W_REPEATED_LINE] Potential boundary duplication before replace 98RN-8_XA: the replacement starts with a line that matches the preceding surviving line after trim.\n[W_REPEATED_LINE] row 1 of replace 98RN-8_XA repeats line 1 (\"before\") just before it; if that was not meant, remove the duplicate",
        },
    ),
    (
        "042-range-replace-plus-boundary-append-no-autocorrect",
        "§3: the append after the replaced range's last line lands after the whole replacement; §4a: `}` repeats the next line",
        When::Always,
        Ours::Applied {
            after: b"a\nB\nC\n}\nX\n}",
            response: "--- Anchors ---\nhrLI:a\nVZ6K:B\niU8P:C\nrrvW:}\nRg3w:X\nEKAV:}\n\nWarnings:\n[W_REPEATED_LINE] row 3 of replace gCp1-rVBO repeats line 4 (\"}\") just after it; if that was not meant, remove the duplicate",
        },
    ),
    (
        "059-symbol-boundary-lines-no-warning",
        "§4a: the last row `}` repeats the line after the range (the peer's own check skips lone braces)",
        When::Always,
        Ours::Applied {
            after: b"if (ok) {\n  runSafe();\n}\n}\nafter();",
            response: "--- Anchors ---\nb0Gj:if (ok) {\nMSz3:  runSafe();\n_zlP:}\nrrvW:}\nzOHi:after();\n\nWarnings:\n[W_REPEATED_LINE] row 3 of replace b0Gj-C9cC repeats line 3 (\"}\") just after it; if that was not meant, remove the duplicate",
        },
    ),
    (
        "061-trailing-boundary-duplication-warning",
        "§4a: the last row repeats the line after the range, so the repeats-line notice joins the warnings",
        When::Always,
        Ours::Applied {
            after: b"aaa\nBBB\nccc\nccc\n",
            response: "--- Anchors ---\n0CFv:aaa\nSG3v:BBB\nY0yQ:ccc\nFwCH:ccc\n\nWarnings:\n[W_REPEATED_LINE] Potential boundary duplication after replace 0WIr-0WIr: the replacement ends with a line that matches the next surviving line after trim.\n[W_REPEATED_LINE] row 2 of replace 0WIr-0WIr repeats line 3 (\"ccc\") just after it; if that was not meant, remove the duplicate",
        },
    ),
    (
        "063-literal-uDDDD-warning",
        "§30: the seed's warning, led by its code",
        When::Always,
        Ours::Applied {
            after: b"aaa\n\\uDDDD\nccc",
            response: "--- Anchors ---\n0CFv:aaa\n1XlU:\\uDDDD\nY0yQ:ccc\n\nWarnings:\n[W_LITERAL_ESCAPE] Detected literal \\uDDDD in edit content; no autocorrection applied. Verify whether this should be a real Unicode escape or plain text.",
        },
    ),
    (
        "073-bare-hash-prefix-no-file-match",
        "§28: a bare `word:` row whose prefix no read showed as a line hash is content: applied as written, no warning",
        When::Always,
        Ours::Applied {
            after: b"ZZZZ:one\nZZZP:two\nbeta\ngamma\ndelta",
            response: "--- Anchors ---\n33TK:ZZZZ:one\n5t4y:ZZZP:two\nP-cP:beta\nfqFi:gamma",
        },
    ),
    (
        "074-bare-hash-prefix-python-warns",
        "§28: a bare `word:` row whose prefix no read showed as a line hash is content: applied as written, no warning",
        When::Always,
        Ours::Applied {
            after: b"else: do_something\n    pass\nelse:\n    x = 1",
            response: "--- Anchors ---\npMuK:else: do_something\nKeM6:    pass\n-LOw:else:",
        },
    ),
    (
        "078-bare-prefix-false-positive-indented-yaml-key",
        "§28: a bare `word:` row whose prefix no read showed as a line hash is content: applied as written, no warning",
        When::Always,
        Ours::Applied {
            after: b"data:\n  init: true\n",
            response: "--- Anchors ---\nTitb:data:\nm9k7:  init: true",
        },
    ),
    (
        "080-bare-prefix-checked-even-when-noop",
        "§28: a bare `word:` row whose prefix no read showed as a line hash is content: applied as written, no warning (here a no-op)",
        When::Always,
        Ours::Applied {
            after: b"name: demo\ndata: 1\n",
            response: "No changes made to config.yaml\nClassification: noop\nEdit 0: replacement for YmbI is identical to current content:\n  YmbI: data: 1",
        },
    ),
    (
        "081-bare-prefix-also-applies-to-append",
        "§28: a bare `word:` row whose prefix no read showed as a line hash is content: applied as written, no warning",
        When::Always,
        Ours::Applied {
            after: b"a\ntodo: x\nb\n",
            response: "--- Anchors ---\nhrLI:a\nW6ic:todo: x\ngCp1:b",
        },
    ),
    (
        "098-legacy-oldtext-newtext",
        "§12: the E_LEGACY_SHAPE message spells the second placeholder `\"<HASH>\"`",
        When::Always,
        Ours::Refused {
            code: ErrorCode::LegacyShape,
            message: "[E_LEGACY_SHAPE] \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}.",
        },
    ),
    (
        "108-edit-item-legacy-replace_text",
        "§12: `op: \"replace_text\"` with `oldText` is E_LEGACY_SHAPE, as the tool's README promises",
        When::Always,
        Ours::Refused {
            code: ErrorCode::LegacyShape,
            message: "[E_LEGACY_SHAPE] Edit 0 field \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}.",
        },
    ),
    (
        "128-mixed-endings-lf-first-becomes-all-lf",
        "§2: untouched lines keep their CRLF endings",
        When::Always,
        Ours::Applied {
            after: b"ALPHA\nbeta\r\ngamma\r\n",
            response: "--- Anchors ---\nFWg3:ALPHA\nP-cP:beta\nfqFi:gamma",
        },
    ),
    (
        "129-cr-only-file-rewritten-as-lf",
        "§2: a CR-only file stays CR-only",
        When::Always,
        Ours::Applied {
            after: b"old\rMAC\rline\r",
            response: "--- Anchors ---\nvCvs:old\nxKf6:MAC\nzLmF:line",
        },
    ),
    (
        "130-bom-dropped-on-write",
        "§2: the BOM survives",
        When::Always,
        Ours::Applied {
            after: b"\xEF\xBB\xBFFIRST\nsecond\n",
            response: "--- Anchors ---\nLE-L:FIRST\neEsQ:second",
        },
    ),
    (
        "135-invalid-utf8-rewritten-as-utf8-with-warning",
        "§2: the untouched line keeps its invalid bytes instead of becoming U+FFFD, and the warning says so",
        When::Always,
        Ours::Applied {
            after: b"\xC3(\nlong\n",
            response: "--- Anchors ---\nrj60:\u{FFFD}(\nc-DH:long\n\nWarnings:\nNon-UTF-8 bytes were shown as U+FFFD; lines this edit did not touch keep their original bytes.",
        },
    ),
    (
        "157-duplicate-anchor-retargets-after-earlier-duplicate-removed",
        "§1: the recorded read shows the anchor named the deleted first `foo`; refused instead of retargeted",
        When::Recorded,
        Ours::Refused {
            code: ErrorCode::StaleAnchor,
            message: "[E_STALE_ANCHOR] 1 stale anchor: \"7C3P\". The file changed on disk since the read these anchors came from, and the lines they name changed or moved, so the edit cannot be placed with certainty. Re-read the file to refresh.\n\nCurrent state (around the edit):\n>>> Hy4n:bar\n>>> 7C3P:foo",
        },
    ),
    (
        "163-prepend-after-deleted-range-misplaced-PEER-BUG",
        "§3: the prepend before the line after a deleted range lands before that line",
        When::Always,
        Ours::Applied {
            after: b"a\nX\nd\n",
            response: "--- Anchors ---\nhrLI:a\nRg3w:X\nHGSv:d",
        },
    ),
];

/// Our code for the peer's messages that carry no bracketed code.
pub fn code_for_plain_message(message: &str) -> ErrorCode {
    if message.starts_with("File not found") {
        ErrorCode::FileNotFound
    } else if message.starts_with("Path is a directory") {
        ErrorCode::IsDirectory
    } else if message.starts_with("Path is a binary file")
        || message.starts_with("Path is an image file")
    {
        ErrorCode::Binary
    } else if message.starts_with("No edits provided") || message.starts_with("Read request field")
    {
        ErrorCode::BadShape
    } else {
        panic!("no code mapping for the plain message {message:?}")
    }
}
