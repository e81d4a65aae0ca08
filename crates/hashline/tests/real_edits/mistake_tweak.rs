//! The changes of a built request that its edits cannot say (str-replace's `old_str` and
//! `new_str`, apply-patch's context, `-` lines and chunk order), and str-replace applied as
//! written.

use super::request::{self, Edit};

/// A change of the built request that the edits cannot say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tweak {
    /// None: the edits say it all.
    None,
    /// The read's anchors pasted in front of the rows of edit `hunk` (hashline `N:`, hash-json
    /// `HASH:`, lineid-json `N#ID|`; str-replace: `cat -n`'s `     N\t` on every row of
    /// `new_str`, the context rows included).
    PasteAnchors,
    /// str-replace: `new_str` one indent level less, context rows included.
    DedentNewStr,
    /// str-replace: `old_str` and `new_str` cut to the changed lines, which occur more than
    /// once in the file.
    AmbiguousOldStr,
    /// str-replace: the leading spaces and tabs of `old_str` stripped (`new_str` keeps its
    /// own).
    LstripOldStr,
    /// apply-patch: the context lines of the edit's chunk one indent level less.
    DedentContext,
    /// apply-patch: the edit's first `-` line no longer matches the file.
    MinusMismatch,
    /// apply-patch: the edit's chunk and its neighbour sent in the wrong order.
    SwapChunks,
}

/// The file's indent unit: a tab where most indented lines start with one, else the least
/// indentation of two or more spaces (two when there is none).
pub fn indent_unit(lines: &[String]) -> String {
    let tabs = lines.iter().filter(|l| l.starts_with('\t')).count();
    let spaces = lines.iter().filter(|l| l.starts_with("  ")).count();
    if tabs > spaces {
        return "\t".to_string();
    }
    let least = lines
        .iter()
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .filter(|&n| n >= 2)
        .min()
        .unwrap_or(2);
    " ".repeat(least.min(8))
}

/// `line` one indent level less (unchanged where it does not start with the unit).
pub fn dedent(line: &str, unit: &str) -> String {
    line.strip_prefix(unit).unwrap_or(line).to_string()
}

/// The str-replace calls applied as written: each `old_str` must occur once in the text then
/// (else `None`, a refusal), and is replaced by its `new_str`.
pub fn str_replace_as_written(
    old: &[String],
    final_newline: bool,
    calls: &[Vec<u8>],
) -> Option<Vec<String>> {
    let mut text = old.join("\n") + if final_newline { "\n" } else { "" };
    for call in calls {
        let v: serde_json::Value = serde_json::from_slice(call).ok()?;
        let (o, n) = (v["old_str"].as_str()?, v["new_str"].as_str()?);
        if o.is_empty() || text.matches(o).count() != 1 {
            return None;
        }
        text = text.replacen(o, n, 1);
    }
    let body = text.strip_suffix('\n').unwrap_or(&text);
    Some(if text.is_empty() {
        Vec::new()
    } else {
        body.split('\n').map(str::to_string).collect()
    })
}

/// The built request with `t` applied: `calls` as built from `edits`, edit `hunk` the
/// mistaken one (str-replace sends it as call `hunk`; apply-patch in the chunk that holds it).
pub fn tweak(
    t: &Tweak,
    dialect: &str,
    old: &[&str],
    edits: &[Edit],
    hunk: usize,
    calls: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let mut calls = calls.to_vec();
    let old_owned: Vec<String> = old.iter().map(|l| l.to_string()).collect();
    let unit = indent_unit(&old_owned);
    match dialect {
        "str-replace" if hunk < calls.len() => {
            let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&calls[hunk]) else {
                return calls;
            };
            let o = v["old_str"].as_str().unwrap_or_default().to_string();
            let n = v["new_str"].as_str().unwrap_or_default().to_string();
            let (o, n) = match t {
                Tweak::PasteAnchors => {
                    // The line `old_str` starts at in the text the call applies to.
                    let now = str_replace_as_written(&old_owned, false, &calls[..hunk])
                        .unwrap_or_default()
                        .join("\n");
                    let at = now.find(&o).map_or(0, |i| now[..i].matches('\n').count());
                    let rows: Vec<String> = n
                        .split('\n')
                        .enumerate()
                        .map(|(i, r)| format!("{:>6}\t{r}", at + 1 + i))
                        .collect();
                    (o, rows.join("\n"))
                }
                Tweak::DedentNewStr => {
                    let rows: Vec<String> = n.split('\n').map(|r| dedent(r, &unit)).collect();
                    (o, rows.join("\n"))
                }
                Tweak::LstripOldStr => (o.trim_start_matches([' ', '\t']).to_string(), n),
                Tweak::AmbiguousOldStr => {
                    let e = &edits[hunk];
                    let full = old[e.old.clone()].join("\n");
                    let lead = &full[..full.len() - full.trim_start().len()];
                    let new = e.lines.join("\n");
                    let new = new
                        .strip_prefix(lead)
                        .unwrap_or(new.trim_start())
                        .to_string();
                    (full[lead.len()..].to_string(), new)
                }
                _ => (o, n),
            };
            v["old_str"] = o.into();
            v["new_str"] = n.into();
            calls[hunk] = v.to_string().into_bytes();
        }
        "apply-patch" if calls.len() == 1 => {
            let text = String::from_utf8_lossy(&calls[0]).into_owned();
            let Some((head, rest)) = text.split_once("@@\n") else {
                return calls;
            };
            let body = rest.strip_suffix("*** End Patch\n").unwrap_or(rest);
            let mut chunks = vec![String::new()];
            for row in body.split_inclusive('\n') {
                match row {
                    "@@\n" => chunks.push(String::new()),
                    _ => chunks.last_mut().expect("a chunk").push_str(row),
                }
            }
            let groups = request::groups(edits, 2 * request::CONTEXT);
            let Some(c) = groups.iter().position(|g| g.contains(&edits[hunk])) else {
                return calls;
            };
            if c >= chunks.len() {
                return calls;
            }
            match t {
                Tweak::DedentContext => {
                    chunks[c] = map_rows(&chunks[c], |r| match r.strip_prefix(' ') {
                        Some(body) => format!(" {}", dedent(body, &unit)),
                        None => r.to_string(),
                    });
                }
                Tweak::MinusMismatch => {
                    let mut done = false;
                    chunks[c] = map_rows(&chunks[c], |r| match r.strip_prefix('-') {
                        Some(body) if !done => {
                            done = true;
                            format!("-{}", outside(body))
                        }
                        _ => r.to_string(),
                    });
                }
                // The chunk and its neighbour trade places (`*** End of File` stays with its
                // chunk).
                Tweak::SwapChunks if chunks.len() >= 2 => {
                    let other = if c + 1 < chunks.len() { c + 1 } else { c - 1 };
                    chunks.swap(c, other);
                }
                _ => {}
            }
            calls[0] = format!("{head}@@\n{}*** End Patch\n", chunks.join("@@\n")).into_bytes();
        }
        _ => {}
    }
    calls
}

/// A line as changed by someone else: `_outside_` put in the middle of its text, so that
/// neither the line nor any prefix or suffix of it (a `old_str` may start or end mid-line)
/// still matches (a blank line becomes `outside`).
pub fn outside(line: &str) -> String {
    let body = line.trim_start();
    if body.is_empty() {
        return "outside".to_string();
    }
    let lead = line.len() - body.len();
    let mut mid = lead + body.len() / 2;
    while !line.is_char_boundary(mid) {
        mid += 1;
    }
    format!("{}_outside_{}", &line[..mid], &line[mid..])
}

/// Each `\n`-ended row of `chunk` through `f`.
fn map_rows(chunk: &str, mut f: impl FnMut(&str) -> String) -> String {
    chunk
        .split_inclusive('\n')
        .map(|r| f(r.strip_suffix('\n').unwrap_or(r)) + "\n")
        .collect()
}
