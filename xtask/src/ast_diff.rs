//! `cargo xtask ast-diff [--bench] [--reps N] [--only TEXT] [--show N]`: differential test of
//! `hashline ast-edit` + `resolve apply` against the ast-grep CLI 0.51.1 (`run --update-all`) on
//! third-party JS/TS sources from the npm registry; `--bench` times the preview of both instead.
//!
//! Setup (reproducible, outside the repository): `xtask/ast-diff/package.json` and its lock file
//! are copied to `$CARGO_TARGET_DIR/ast-diff/` and installed there with `npm ci --ignore-scripts`;
//! the corpus is built from the installed packages into `…/ast-diff/corpus/{ts,js}` (one
//! language per directory, so that `--lang` means the same file set for both tools).
//!
//! For every [`CASES`] entry the corpus is copied twice; ast-grep rewrites one copy, hashline
//! the other, and every file is compared byte for byte. A difference is *explained* only when
//! hashline refused the file for a documented reason (it lists it as a parse issue: ast-grep
//! rewrites files whose syntax tree has errors, hashline never does); anything else fails, and
//! so does a file (outside refused ones) where ast-grep lists a different number of matches than
//! hashline's replacements plus skipped nested matches (ast-grep lists nested matches and then
//! lets the outer one win on `--update-all`; hashline reports the inner ones as skipped).
//! A preview hashline refuses because the rewrite would add a syntax error to a file
//! (`E_SYNTAX_INTRODUCED`; ast-grep writes that file broken) is reported with the refusal's
//! first line and compared again with `--allow-syntax-errors`, where every byte must agree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::ast_tools::{self, Tools};

/// One rewrite of the differential test.
pub struct Case {
    /// Corpus directory and `--lang` value (`ts` or `js`).
    pub lang: &'static str,
    /// ast-grep pattern.
    pub pat: &'static str,
    /// Rewrite template.
    pub out: &'static str,
}

const fn case(lang: &'static str, pat: &'static str, out: &'static str) -> Case {
    Case { lang, pat, out }
}

/// The rewrites: realistic JS/TS codemods, including multi-line templates (re-indented
/// captures), nested matches (functions in functions, declarations in initializers) and
/// statement-level matches that end in `;`.
pub const CASES: &[Case] = &[
    case("js", "var $A = $B", "let $A = $B"),
    case("js", "$A == null", "$A === null || $A === undefined"),
    case("js", "require($M)", "await import($M)"),
    case(
        "js",
        "function $F($$$P) { $$$B }",
        "const $F = ($$$P) => {\n  $$$B\n};",
    ),
    case("js", "void 0", "undefined"),
    case(
        "js",
        "Object.prototype.hasOwnProperty.call($O, $K)",
        "Object.hasOwn($O, $K)",
    ),
    case("ts", "console.log($$$A)", "logger.debug(\n  $$$A\n)"),
    case("ts", "$A as any", "$A as unknown"),
    case("ts", "throw new Error($$$A)", "throw new TypeError($$$A)"),
    case(
        "ts",
        "function $F($$$P): $R { $$$B }",
        "const $F = ($$$P): $R => { $$$B };",
    ),
    case("ts", "if ($C) { return $V; }", "if ($C) return $V;"),
    case("ts", "$A == null", "$A === null || $A === undefined"),
];

/// Parsed command-line options.
struct Opts {
    bench: bool,
    reps: usize,
    only: Option<String>,
    show: usize,
}

fn opts(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        bench: false,
        reps: 5,
        only: None,
        show: 3,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--bench" => o.bench = true,
            "--reps" => o.reps = value("--reps")?.parse().map_err(|e| format!("--reps: {e}"))?,
            "--show" => o.show = value("--show")?.parse().map_err(|e| format!("--show: {e}"))?,
            "--only" => o.only = Some(value("--only")?),
            other => return Err(format!("ast-diff: unknown argument `{other}`; use --bench, --reps N, --only TEXT, --show N")),
        }
    }
    Ok(o)
}

/// Run the differential test (or the benchmark with `--bench`).
pub fn run(args: &[String]) -> Result<(), String> {
    let o = opts(args)?;
    let tools = ast_tools::setup()?;
    let cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| {
            o.only
                .as_deref()
                .is_none_or(|t| c.pat.contains(t) || c.lang == t)
        })
        .collect();
    if cases.is_empty() {
        return Err("--only matched no case".to_string());
    }
    if o.bench {
        return crate::ast_bench::run(&tools, &cases, o.reps);
    }
    let mut failures = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let report = diff_case(&tools, n, case, o.show)?;
        if report.unexplained > 0 || report.count_diffs > 0 || report.problem.is_some() {
            failures.push(format!("[{}] {}", case.lang, case.pat));
        }
    }
    if failures.is_empty() {
        println!("ast-diff: every rewritten file is byte-identical wherever neither tool refused");
        Ok(())
    } else {
        Err(format!(
            "unexplained differences (bytes or match counts) in: {}",
            failures.join("; ")
        ))
    }
}

/// The outcome of one case.
struct CaseReport {
    unexplained: usize,
    /// Files (outside refused ones) where the two tools found a different number of matches.
    count_diffs: usize,
    problem: Option<String>,
}

fn diff_case(tools: &Tools, n: usize, case: &Case, show: usize) -> Result<CaseReport, String> {
    let corpus = tools.corpus.join(case.lang);
    let work = tools.cache.join("work").join(n.to_string());
    let (sg_dir, hl_dir, state) = (work.join("sg"), work.join("hl"), work.join("state"));
    let _ = std::fs::remove_dir_all(&work);
    let files = ast_tools::list_files(&corpus)?;
    for dir in [&sg_dir, &hl_dir] {
        ast_tools::copy_tree(&corpus, dir, &files)?;
    }
    std::fs::create_dir_all(&state).map_err(|e| format!("{}: {e}", state.display()))?;

    // ast-grep: count the matches (nested ones included), then rewrite with --update-all.
    let listed = output(tools.sg_preview(case, &corpus).arg("--json=stream"))?;
    let sg_per_file = per_file_counts(&listed.stdout)?;
    let sg_matches: usize = sg_per_file.values().sum();
    let applied = output(&mut tools.sg_apply(case, &sg_dir))?;
    let sg_stderr = String::from_utf8_lossy(&applied.stderr).trim().to_string();

    // hashline: preview (JSON), then apply the queued preview. A preview refused because the
    // rewrite would break a file's syntax is run again with `--allow-syntax-errors`: when the
    // bytes then agree everywhere, the refusal was the only difference (ast-grep wrote the
    // broken file), and it is reported, not counted as a problem.
    let mut preview = output(tools.hl_preview(case, &hl_dir, &state).arg("--json"))?;
    let mut syntax_refusal = None;
    if let Some(text) = refused_for_syntax(&preview.stdout) {
        syntax_refusal = Some(text);
        preview = output(
            tools
                .hl_preview(case, &hl_dir, &state)
                .args(["--json", "--allow-syntax-errors"]),
        )?;
    }
    let mut problem = None;
    let summary = match preview.status.code() {
        Some(0) => summary(&preview.stdout)?,
        _ => {
            problem = Some(format!(
                "hashline ast-edit refused ({}): {}",
                preview.status,
                String::from_utf8_lossy(&preview.stdout).trim()
            ));
            Default::default()
        }
    };
    if problem.is_none() && summary.matches > 0 {
        let apply = output(tools.hl(&hl_dir, &state).args(["resolve", "apply"]))?;
        if !apply.status.success() {
            problem = Some(format!(
                "hashline resolve apply failed ({}): {}{}",
                apply.status,
                String::from_utf8_lossy(&apply.stdout).trim(),
                String::from_utf8_lossy(&apply.stderr).trim()
            ));
        }
    }

    // Byte-for-byte comparison of every file.
    let (mut identical, mut changed_both, mut sg_changed, mut hl_changed) = (0, 0, 0, 0);
    let mut explained: Vec<String> = Vec::new();
    let mut unexplained: Vec<String> = Vec::new();
    for rel in &files {
        let orig = read(&corpus.join(rel))?;
        let sg = read(&sg_dir.join(rel))?;
        let hl = read(&hl_dir.join(rel))?;
        sg_changed += usize::from(sg != orig);
        hl_changed += usize::from(hl != orig);
        if sg == hl {
            identical += 1;
            changed_both += usize::from(sg != orig);
            continue;
        }
        let rel_s = rel.to_string_lossy().replace('\\', "/");
        if hl == orig && summary.issue_paths.contains(&rel_s) {
            explained.push(rel_s);
        } else {
            if unexplained.len() < show {
                println!("    DIFF {rel_s}\n{}", first_diff(&sg, &hl));
            }
            unexplained.push(rel_s);
        }
    }
    println!(
        "[{}] `{}` → `{}`\n  files {} | ast-grep: {} matches listed (nested included), {} files rewritten | hashline: {} matches in {} files, {} nested skipped, {} parse issues\n  identical {} ({} rewritten identically) | different {} (explained by a hashline parse-error refusal: {}, unexplained: {})",
        case.lang,
        case.pat,
        case.out.replace('\n', "\\n"),
        files.len(),
        sg_matches,
        sg_changed,
        summary.matches,
        hl_changed,
        summary.skipped,
        summary.issue_paths.len(),
        identical,
        changed_both,
        explained.len() + unexplained.len(),
        explained.len(),
        unexplained.len(),
    );
    // Match counts per file (outside files hashline refused): ast-grep lists nested matches
    // too, hashline reports them as skipped; only rewrites that change nothing may differ.
    let count_diffs: Vec<String> = sg_per_file
        .keys()
        .chain(summary.per_file.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|f| !summary.issue_paths.contains(*f))
        .filter_map(|f| {
            let (a, b) = (
                sg_per_file.get(f).copied().unwrap_or(0),
                summary.per_file.get(f).copied().unwrap_or(0),
            );
            (a != b).then(|| format!("{f} (ast-grep {a}, hashline {b})"))
        })
        .collect();
    println!(
        "  match counts per file agree{}",
        if count_diffs.is_empty() {
            String::new()
        } else {
            format!(
                " except in {} files: {}",
                count_diffs.len(),
                count_diffs
                    .iter()
                    .take(show)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    if !explained.is_empty() {
        let list: Vec<&str> = explained.iter().take(5).map(String::as_str).collect();
        println!(
            "    refused by hashline (syntax errors), rewritten by ast-grep: {}{}",
            list.join(", "),
            if explained.len() > 5 { ", …" } else { "" }
        );
    }
    if !sg_stderr.is_empty() && !sg_stderr.starts_with("Applied") {
        println!(
            "    ast-grep stderr: {}",
            sg_stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        );
    }
    if let Some(refusal) = &syntax_refusal {
        println!(
            "    hashline refused this rewrite: {refusal}\n    (the comparison above ran with \
             --allow-syntax-errors: ast-grep writes that broken file)"
        );
    }
    if let Some(p) = &problem {
        println!("    PROBLEM: {p}");
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(CaseReport {
        unexplained: unexplained.len(),
        count_diffs: count_diffs.len(),
        problem,
    })
}

/// The first line of a `--json` preview refusal with `E_SYNTAX_INTRODUCED` (the rewrite would
/// break a file's syntax), if that is what `stdout` holds.
fn refused_for_syntax(stdout: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(stdout).ok()?;
    (v.get("code")?.as_str()? == "E_SYNTAX_INTRODUCED")
        .then(|| v.get("text")?.as_str()?.lines().next().map(str::to_string))
        .flatten()
}

/// Matches per file of `ast-grep run --json=stream` output (one JSON object per line).
fn per_file_counts(stream: &[u8]) -> Result<BTreeMap<String, usize>, String> {
    let mut out = BTreeMap::new();
    for line in String::from_utf8_lossy(stream)
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("ast-grep --json=stream: {e}: {line}"))?;
        let file = v
            .get("file")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("?");
        *out.entry(file.trim_start_matches("./").to_string())
            .or_insert(0) += 1;
    }
    Ok(out)
}

/// Run `cmd`, capturing its output; failing to start it is an error, a non-zero exit is not.
pub(crate) fn output(cmd: &mut Command) -> Result<Output, String> {
    cmd.stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The first differing line of two files, with one line of context, ast-grep's side first.
fn first_diff(sg: &[u8], hl: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(sg), String::from_utf8_lossy(hl));
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    let at = la
        .iter()
        .zip(&lb)
        .position(|(x, y)| x != y)
        .unwrap_or(la.len().min(lb.len()));
    let from = at.saturating_sub(1);
    let side = |lines: &[&str], mark: char| -> String {
        lines
            .iter()
            .enumerate()
            .skip(from)
            .take(4)
            .map(|(i, l)| {
                format!(
                    "      {mark}{}: {}",
                    i + 1,
                    l.chars().take(160).collect::<String>()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "      (ast-grep = -, hashline = +; first difference at line {})\n{}\n{}",
        at + 1,
        side(&la, '-'),
        side(&lb, '+')
    )
}

/// What hashline's preview reported, as far as the comparison needs it.
#[derive(Debug, Default)]
pub(crate) struct HlSummary {
    /// Replacements in the preview.
    pub matches: usize,
    /// Nested matches skipped (they yield to their outer match).
    pub skipped: usize,
    /// Display paths of the files listed as parse issues.
    pub issue_paths: BTreeSet<String>,
    /// Per file: replacements plus skipped nested matches (what ast-grep lists for it).
    pub per_file: BTreeMap<String, usize>,
}

/// The [`HlSummary`] of a `--json` preview.
fn summary(stdout: &[u8]) -> Result<HlSummary, String> {
    let v: serde_json::Value = serde_json::from_slice(stdout).map_err(|e| {
        format!(
            "hashline --json printed no JSON ({e}): {}",
            String::from_utf8_lossy(stdout)
        )
    })?;
    ast_tools::summarize(&v)
}

/// The directory `cargo xtask` keeps the npm install, the corpus and scratch copies in.
pub(crate) fn cache_dir() -> PathBuf {
    crate::bench::target_dir().join("ast-diff")
}
