//! The tools and the corpus of `cargo xtask ast-diff`: the pinned npm install (ast-grep CLI and
//! the third-party packages), the per-language corpus built from it, and the hashline binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::ast_diff::{output, Case, HlSummary};

/// The ast-grep release the reference must be.
const AST_GREP_VERSION: &str = "ast-grep 0.51.1";

/// Corpus parts: (language dir, source dir under `node_modules`, name in the corpus, extensions).
/// Declaration files (`.d.ts`) are left out: they are generated, not written.
const SOURCES: &[(&str, &str, &str, &[&str])] = &[
    ("ts", "zod/src", "zod", &["ts"]),
    ("ts", "rxjs/src", "rxjs", &["ts"]),
    ("js", "lodash-es", "lodash-es", &["js"]),
    ("js", "rxjs/dist/cjs", "rxjs-cjs", &["js"]),
    ("js", "rxjs/dist/esm5", "rxjs-esm5", &["js"]),
    ("js", "date-fns", "date-fns", &["cjs"]),
];

/// Bumped whenever [`SOURCES`] changes, so a stale corpus is rebuilt.
const CORPUS_LAYOUT: &str = "corpus-v1";

/// Large enough that the file cap never stops a corpus run.
pub const MAX_FILES: &str = "1000000";

/// Everything a case needs.
pub struct Tools {
    /// `$CARGO_TARGET_DIR/ast-diff`.
    pub cache: PathBuf,
    /// `…/corpus` with one directory per language.
    pub corpus: PathBuf,
    /// The native ast-grep binary.
    pub sg: PathBuf,
    /// The release `hashline` binary.
    pub hashline: PathBuf,
}

impl Tools {
    /// `hashline --root ROOT --state STATE`.
    pub fn hl(&self, root: &Path, state: &Path) -> Command {
        let mut cmd = Command::new(&self.hashline);
        cmd.arg("--root").arg(root).arg("--state").arg(state);
        cmd
    }

    /// `hashline … ast-edit --pat P --out R --lang L --max-files N .` over `root` (a preview).
    pub fn hl_preview(&self, case: &Case, root: &Path, state: &Path) -> Command {
        let mut cmd = self.hl(root, state);
        cmd.args([
            "ast-edit", "--pat", case.pat, "--out", case.out, "--lang", case.lang,
        ]);
        cmd.args(["--max-files", MAX_FILES, "."]);
        cmd
    }

    /// `ast-grep run --pattern P --rewrite R --lang L .` in `dir` (lists, writes nothing).
    pub fn sg_preview(&self, case: &Case, dir: &Path) -> Command {
        self.sg_run(case, dir, &[])
    }

    /// The same with `--update-all`: rewrites every match in place.
    pub fn sg_apply(&self, case: &Case, dir: &Path) -> Command {
        self.sg_run(case, dir, &["--update-all"])
    }

    fn sg_run(&self, case: &Case, dir: &Path, extra: &[&str]) -> Command {
        let mut cmd = Command::new(&self.sg);
        cmd.args([
            "run",
            "--pattern",
            case.pat,
            "--rewrite",
            case.out,
            "--lang",
            case.lang,
        ]);
        cmd.args(extra).arg(".").current_dir(dir);
        cmd
    }
}

/// Install (when the lock file changed) and locate everything.
pub fn setup() -> Result<Tools, String> {
    let cache = crate::ast_diff::cache_dir();
    std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    let pinned = Path::new(env!("CARGO_MANIFEST_DIR")).join("ast-diff");
    let mut lock = String::new();
    for name in ["package.json", "package-lock.json"] {
        let text = std::fs::read_to_string(pinned.join(name))
            .map_err(|e| format!("{}: {e}", pinned.join(name).display()))?;
        std::fs::write(cache.join(name), &text).map_err(|e| format!("{name}: {e}"))?;
        lock.push_str(&text);
    }
    let stamp = cache.join("node_modules/.hashline-ast-diff.stamp");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(lock.as_str()) {
        println!("ast-diff: npm ci in {} …", cache.display());
        crate::status(
            Command::new("npm")
                .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
                .current_dir(&cache),
        )?;
        std::fs::write(&stamp, &lock).map_err(|e| format!("{}: {e}", stamp.display()))?;
    }
    let sg = ast_grep_binary(&cache.join("node_modules"))?;
    let version = output(Command::new(&sg).arg("--version"))?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    if version != AST_GREP_VERSION {
        return Err(format!(
            "{} says `{version}`, expected `{AST_GREP_VERSION}`",
            sg.display()
        ));
    }
    let corpus = cache.join("corpus");
    let corpus_stamp = corpus.join(".stamp");
    let want = format!("{CORPUS_LAYOUT}\n{lock}");
    if std::fs::read_to_string(&corpus_stamp).ok().as_deref() != Some(want.as_str()) {
        build_corpus(&cache.join("node_modules"), &corpus)?;
        std::fs::write(&corpus_stamp, want)
            .map_err(|e| format!("{}: {e}", corpus_stamp.display()))?;
    }
    let hashline = hashline()?;
    Ok(Tools {
        cache,
        corpus,
        sg,
        hashline,
    })
}

/// The platform package's native binary (the `.bin/ast-grep` wrapper starts node on every call).
fn ast_grep_binary(modules: &Path) -> Result<PathBuf, String> {
    let scope = modules.join("@ast-grep");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&scope)
        .map_err(|e| format!("{}: {e}", scope.display()))?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("cli-"))
        .map(|e| e.path().join("ast-grep"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found
        .pop()
        .or_else(|| Some(modules.join(".bin/ast-grep")).filter(|p| p.exists()))
        .ok_or_else(|| {
            format!(
                "no ast-grep binary under {}; delete the directory and rerun",
                scope.display()
            )
        })
}

/// (Re)build `corpus/{ts,js}` from the installed packages.
fn build_corpus(modules: &Path, corpus: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(corpus);
    for (lang, from, name, exts) in SOURCES {
        let src = modules.join(from);
        let keep: Vec<PathBuf> = list_files(&src)?
            .into_iter()
            .filter(|p| {
                let s = p.to_string_lossy();
                !s.ends_with(".d.ts") && p.extension().is_some_and(|e| exts.iter().any(|x| e == *x))
            })
            .collect();
        copy_tree(&src, &corpus.join(lang).join(name), &keep)?;
    }
    Ok(())
}

/// Build the release binary and check that it has `ast-edit`.
fn hashline() -> Result<PathBuf, String> {
    let bin = crate::dist::binary()?;
    if !output(Command::new(&bin).args(["ast-edit", "--help"]))?
        .status
        .success()
    {
        return Err(format!("{} has no `ast-edit` command", bin.display()));
    }
    Ok(bin)
}

/// Every regular file under `dir`, relative to it, sorted (symlinks are not followed).
pub fn list_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let entries = std::fs::read_dir(dir.join(&rel))
            .map_err(|e| format!("{}: {e}", dir.join(&rel).display()))?;
        for entry in entries.flatten() {
            let kind = entry.file_type().map_err(|e| e.to_string())?;
            let path = rel.join(entry.file_name());
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Copy `files` (relative to `src`) into `dst`.
pub fn copy_tree(src: &Path, dst: &Path, files: &[PathBuf]) -> Result<(), String> {
    for rel in files {
        let to = dst.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(src.join(rel), &to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    Ok(())
}

/// The [`HlSummary`] of hashline's `--json` preview (its `preview` object: `total_replacements`,
/// `skipped`, and `parse_issues` as `PATH: reason` lines).
pub fn summarize(v: &serde_json::Value) -> Result<HlSummary, String> {
    let preview = v
        .get("preview")
        .ok_or_else(|| format!("hashline --json has no `preview` object: {v}"))?;
    let matches = preview
        .get("total_replacements")
        .and_then(serde_json::Value::as_u64)
        .ok_or_else(|| format!("hashline --json has no `preview.total_replacements`: {v}"))?;
    let list = |key: &str| {
        preview
            .get(key)
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let issue_paths = list("parse_issues")
        .iter()
        .filter_map(serde_json::Value::as_str)
        .filter(|m| m.contains(": parse error"))
        .filter_map(|m| m.split_once(": ").map(|(path, _)| path.to_string()))
        .collect();
    let mut per_file = BTreeMap::new();
    for (items, key) in [(list("matches"), "file"), (list("skipped"), "path")] {
        for item in &items {
            if let Some(path) = item.get(key).and_then(serde_json::Value::as_str) {
                *per_file.entry(path.to_string()).or_insert(0) += 1;
            }
        }
    }
    Ok(HlSummary {
        matches: matches as usize,
        skipped: list("skipped").len(),
        issue_paths,
        per_file,
    })
}
