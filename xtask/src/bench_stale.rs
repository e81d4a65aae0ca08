//! The stale-merge series of `cargo xtask bench --scale`, in every dialect: the model looks at
//! line `n` of a file (a read, or str_replace's `view`), someone else adds a line at the top,
//! and the model's edit of line `n` must be carried over onto the disk's text (line `n + 1`).
//! Only the edit is timed.

use std::path::Path;
use std::time::Duration;

use crate::bench::write;
use crate::bench::{hl, peak_rss, run_null, run_quiet, timed, Table};
use crate::bench_inputs as inputs;
use crate::bench_scale::med;

/// How a dialect's model looks at the file before it edits.
pub enum Look {
    /// `read e.ts --anchors A --offset n --limit 1`.
    Read(&'static str),
    /// `edit --dialect str-replace` with a `view` request (the whole file).
    View,
}

/// One dialect of the series: how it looks, and the request replacing line `n` (whose row the
/// look printed, or which is [`inputs::ts_line`]`(n)`) with `text`.
pub struct Stale {
    /// The dialect's name, as `--dialect` takes it.
    pub name: &'static str,
    /// How the model looks at the file.
    look: Look,
    /// The file sizes of the series, in lines.
    pub lines: [usize; 3],
    /// The request, from what the look printed.
    request: fn(row: &str, n: usize, text: &str) -> Option<String>,
}

/// The file sizes of most dialects' series, in lines.
const LINES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// Every dialect of the series.
pub const DIALECTS: &[Stale] = &[
    Stale {
        name: "hashline",
        look: Look::Read("tag"),
        lines: LINES,
        request: |header, n, text| {
            let tag = header.rsplit_once('#')?.1.trim();
            Some(format!("¶e.ts#{tag}\nreplace {n}..{n}:\n+{text}\n"))
        },
    },
    Stale {
        name: "lineid-json",
        look: Look::Read("lineid"),
        lines: LINES,
        request: |row, _, text| {
            let id = row.split_once('|')?.0;
            Some(format!(
                r#"{{"filePath":"e.ts","edits":[{{"op":"replace","pos":"{id}","lines":["{text}"]}}]}}"#
            ))
        },
    },
    Stale {
        name: "hash-json",
        look: Look::Read("hash"),
        lines: LINES,
        request: |row, _, text| {
            let hash = row.split_once(':')?.0;
            Some(format!(
                r#"{{"path":"e.ts","edits":[{{"op":"replace","start":"{hash}","end":"{hash}","lines":["{text}"]}}]}}"#
            ))
        },
    },
    Stale {
        name: "str-replace",
        look: Look::View,
        // The seed tool refuses files over 10 MB (and so does this dialect): 1M lines is 39 MB.
        lines: [1_000, 10_000, 100_000],
        request: |_, n, text| {
            let old = inputs::ts_line(n).replace('"', "\\\"");
            Some(format!(
                r#"{{"command":"str_replace","path":"e.ts","old_str":"{old}","new_str":"{text}"}}"#
            ))
        },
    },
    Stale {
        name: "apply-patch",
        look: Look::Read("tag"),
        lines: LINES,
        request: |_, n, text| {
            Some(format!(
                "*** Begin Patch\n*** Update File: e.ts\n@@\n {}\n-{}\n+{text}\n {}\n*** End Patch\n",
                inputs::ts_line(n - 1),
                inputs::ts_line(n),
                inputs::ts_line(n + 1),
            ))
        },
    },
];

/// The median time of dialect `d`'s edit of line `lines / 2` of a `lines`-line file, looked at
/// before a line was added at its top: it must land on the moved line.
pub fn stale(
    bin: &Path,
    work: &Path,
    d: &Stale,
    lines: usize,
    reps: usize,
) -> Result<Duration, String> {
    let root = work.join("stale");
    let file = root.join("e.ts");
    let original = inputs::ts_lines(lines);
    let changed = format!("// a line added by someone else\n{original}");
    let n = lines / 2;
    let text = "export const merged = 1;";
    let request = work.join("stale.req");
    let time = med(reps, |r| {
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-stale-{r}"));
        let row = look(bin, &root, &state, work, d, n)?;
        let req = (d.request)(&row, n, text)
            .ok_or_else(|| format!("{}: no anchor in the read `{row}`", d.name))?;
        write(&request, req.as_bytes())?;
        write(&file, changed.as_bytes())?;
        let t = timed(|| {
            run_null(
                hl(bin, &root, &state)
                    .args(["edit", "--dialect", d.name])
                    .arg(&request),
            )
        });
        let _ = std::fs::remove_dir_all(&state);
        t
    })?;
    let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    if edited.split('\n').nth(n) != Some(text) {
        return Err(format!(
            "{}: the stale edit of line {n} was not merged onto line {}",
            d.name,
            n + 1
        ));
    }
    Ok(time)
}

/// Look at line `n` as dialect `d`'s model does; the row (or header) the edit needs.
fn look(
    bin: &Path,
    root: &Path,
    state: &Path,
    work: &Path,
    d: &Stale,
    n: usize,
) -> Result<String, String> {
    let anchors = match d.look {
        Look::Read(anchors) => anchors,
        Look::View => {
            let view = work.join("view.req");
            write(&view, br#"{"command":"view","path":"e.ts"}"#)?;
            run_quiet(
                hl(bin, root, state)
                    .args(["edit", "--dialect", "str-replace"])
                    .arg(&view),
            )?;
            return Ok(String::new());
        }
    };
    let offset = n.to_string();
    let read = run_quiet(hl(bin, root, state).args([
        "read",
        "e.ts",
        "--anchors",
        anchors,
        "--offset",
        &offset,
        "--limit",
        "1",
    ]))?;
    let read = String::from_utf8_lossy(&read);
    let row = if anchors == "tag" {
        read.lines().next()
    } else {
        read.lines().find(|l| l.contains("export const"))
    };
    Ok(row.unwrap_or_default().to_string())
}

/// The memory rows of the other dialects (`--only memory`): the peak resident memory of each
/// JSON or apply-patch dialect's one-line edit (line `n`, in the middle) of a TypeScript file
/// of about `mb` MB that its model looked at first, as a multiple of the file (str-replace
/// refuses files over 10 MB, as its seed tool).
pub fn memory(bin: &Path, work: &Path, mb: usize, table: &mut Table) -> Result<(), String> {
    let root = work.join("stale");
    let file = root.join("e.ts");
    // `ts_lines` are about 40 bytes each.
    let lines = (mb << 20) / 40;
    let original = inputs::ts_lines(lines);
    let n = lines / 2;
    let text = "export const edited = 1;";
    let request = work.join("memory.req");
    for d in DIALECTS.iter().filter(|d| !matches!(d.look, Look::View)) {
        if d.name == "hashline" {
            continue; // the row of `edit_memory`
        }
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-memory-{}", d.name));
        let row = look(bin, &root, &state, work, d, n)?;
        let req = (d.request)(&row, n, text)
            .ok_or_else(|| format!("{}: no anchor in the read `{row}`", d.name))?;
        write(&request, req.as_bytes())?;
        let rss = peak_rss(
            hl(bin, &root, &state)
                .args(["edit", "--dialect", d.name])
                .arg(&request),
        );
        let _ = std::fs::remove_dir_all(&state);
        let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        if edited.split('\n').nth(n - 1) != Some(text) {
            return Err(format!("{}: the edit of line {n} did not land", d.name));
        }
        let measure = format!("the same, {} (a {mb} MB TypeScript file)", d.name);
        crate::bench_rows::memory_row(table, measure, rss, original.len() as u64);
    }
    Ok(())
}
