//! Structured inputs: syntactically valid JSON requests built from the fuzzer's bytes, with keys
//! and values drawn mostly from a dialect's own vocabulary, so the fuzzer spends its time in the
//! request validation rather than in the JSON tokenizer. Duplicate keys are allowed on purpose.

use libfuzzer_sys::arbitrary::{Result, Unstructured};

/// Keys and string values a dialect knows.
pub struct Vocab {
    /// Object keys.
    pub keys: &'static [&'static str],
    /// String values (ops, modes, paths, payload lines).
    pub strings: &'static [&'static str],
    /// How anchors look in this dialect.
    pub anchor: AnchorStyle,
}

/// The anchor shape to generate.
#[derive(Clone, Copy)]
pub enum AnchorStyle {
    /// hash-json: four characters of `A-Za-z0-9-_`.
    Hash,
    /// lineid-json: `LINE#ID` with the 16 ID letters.
    LineId,
}

/// hash-json (seed `001`).
pub const HASH_JSON: Vocab = Vocab {
    keys: &[
        "path",
        "edits",
        "returnMode",
        "returnRanges",
        "file_path",
        "op",
        "pos",
        "start",
        "end",
        "lines",
        "oldText",
        "newText",
        "old_text",
        "new_text",
    ],
    strings: &[
        "",
        " ",
        "a.ts",
        "sample.txt",
        "replace",
        "append",
        "prepend",
        "replace_text",
        "changed",
        "full",
        "ranges",
        "[]",
        "[{\"op\":\"append\",\"lines\":[\"x\"]}]",
        "x",
        "  x",
        "\t}",
        "aB3x:",
        "aB3x:  return 1;",
        "12#VK",
        "\\u0041",
        "line\nbreak",
        "\r\n",
        "\u{FEFF}",
    ],
    anchor: AnchorStyle::Hash,
};

/// lineid-json (seed `004`).
pub const LINEID_JSON: Vocab = Vocab {
    keys: &[
        "filePath",
        "edits",
        "delete",
        "rename",
        "overwrite",
        "op",
        "pos",
        "end",
        "lines",
    ],
    strings: &[
        "",
        " ",
        "file.txt",
        "x.txt",
        "../up.txt",
        "replace",
        "append",
        "prepend",
        "set_line",
        "end",
        "x",
        "  x",
        "1#ZP|x",
        ">>> 2#XM|line2",
        "+ 3#KM",
        "- 1 # ZZ",
        "line1\nline2\n",
        "a\r\nb\rc",
        "1#ZP:x",
        "+1#ZP|added",
        "\t",
    ],
    anchor: AnchorStyle::LineId,
};

const HASH_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const ID_ALPHABET: &[u8] = b"ZPMQVRWSNKTXJBYH";
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "1.0",
    "1.5",
    "1e3",
    "1e400",
    "-0",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
];

/// A JSON text: an object (most of the time) whose values nest at most four levels.
pub fn request(u: &mut Unstructured<'_>, vocab: &Vocab) -> Result<String> {
    let mut out = String::new();
    if u.ratio(1, 16)? {
        value(u, vocab, 3, &mut out)?;
    } else {
        object(u, vocab, 3, &mut out)?;
    }
    Ok(out)
}

fn object(u: &mut Unstructured<'_>, vocab: &Vocab, depth: u32, out: &mut String) -> Result<()> {
    out.push('{');
    let n = u.int_in_range(0..=6)?;
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        let key = if u.ratio(7, 8)? {
            (*u.choose(vocab.keys)?).to_string()
        } else {
            u.arbitrary::<String>()?
        };
        push_string(&key, out);
        out.push(':');
        value(u, vocab, depth, out)?;
    }
    out.push('}');
    Ok(())
}

fn value(u: &mut Unstructured<'_>, vocab: &Vocab, depth: u32, out: &mut String) -> Result<()> {
    let kinds = if depth == 0 { 5 } else { 7 };
    match u.int_in_range(0..=kinds)? {
        0 => out.push_str("null"),
        1 => out.push_str(if u.arbitrary()? { "true" } else { "false" }),
        2 => out.push_str(u.choose(NUMBERS)?),
        3 | 4 => {
            let s = string(u, vocab)?;
            push_string(&s, out);
        }
        5 => {
            let s = anchor(u, vocab.anchor)?;
            push_string(&s, out);
        }
        6 => {
            out.push('[');
            let n = u.int_in_range(0..=4)?;
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                value(u, vocab, depth - 1, out)?;
            }
            out.push(']');
        }
        _ => object(u, vocab, depth - 1, out)?,
    }
    Ok(())
}

fn string(u: &mut Unstructured<'_>, vocab: &Vocab) -> Result<String> {
    Ok(match u.int_in_range(0..=3)? {
        0 | 1 => (*u.choose(vocab.strings)?).to_string(),
        2 => anchor(u, vocab.anchor)?,
        _ => u.arbitrary::<String>()?,
    })
}

/// A plausible anchor, sometimes decorated the way models decorate them.
fn anchor(u: &mut Unstructured<'_>, style: AnchorStyle) -> Result<String> {
    let mut s = String::new();
    if u.ratio(1, 4)? {
        s.push_str(u.choose(&[" ", ">>> ", "+", "-", "\t", "\u{FEFF}", "#"])?);
    }
    match style {
        AnchorStyle::Hash => {
            let len = if u.ratio(7, 8)? {
                4
            } else {
                u.int_in_range(0..=6)?
            };
            for _ in 0..len {
                s.push(*u.choose(HASH_ALPHABET)? as char);
            }
        }
        AnchorStyle::LineId => {
            let line: u32 = if u.ratio(3, 4)? {
                u.int_in_range(0..=20)?
            } else {
                u.arbitrary()?
            };
            s.push_str(&line.to_string());
            s.push_str(u.choose(&["#", "#", "#", " # ", ":", ""])?);
            for _ in 0..2 {
                let c = if u.ratio(15, 16)? {
                    *u.choose(ID_ALPHABET)?
                } else {
                    b'a' + u.int_in_range(0..=25)?
                };
                s.push(c as char);
            }
        }
    }
    if u.ratio(1, 4)? {
        s.push_str(u.choose(&[" ", "|x", "|  return 1;", ":x", "\n", "  "])?);
    }
    Ok(s)
}

fn push_string(s: &str, out: &mut String) {
    // Serializing a &str cannot fail.
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
}
