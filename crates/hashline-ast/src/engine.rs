//! [`preview`]: one ast_edit call from request to [`Preview`], without writing anything.

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::compile::{compile_rule, Compiled, CompiledRule};
use crate::error::AstError;
use crate::files::{self, Candidate};
use crate::gaps;
use crate::lang::{self, LangSpec, CATALOG};
use crate::preview::{FileRewrite, MatchEdit, ParseIssue, Preview, SkippedMatch};
use crate::request::RewriteRequest;
use crate::rewrite::{rewrite_file, splice, staged_pairs, FileOutcome, Staged};
use crate::syntax;
use crate::tree::{self, SourceTree};

/// How a candidate's bytes are read: from the disk, or from a [`SourceTree`].
type Reader<'r> = dyn Fn(&Candidate) -> std::io::Result<Vec<u8>> + Sync + 'r;

/// A candidate with the language it is parsed as.
struct Job<'a> {
    candidate: &'a Candidate,
    spec: &'static LangSpec,
}

/// Plan an ast_edit call: validate the rules, collect and parse the files, match every rule on
/// each file's original tree and return what would change. Never writes.
///
/// Refuses (nothing planned) on: no/empty/duplicate rules, a template variable the pattern does
/// not capture, bad or missing paths, an unsupported explicit `lang`, no parseable file, and
/// overlapping matches of two different rules. Patterns that do not compile, files with syntax
/// errors and unreadable files are listed in [`Preview::parse_issues`] instead.
pub fn preview(req: &RewriteRequest) -> Result<Preview, AstError> {
    preview_with_progress(req, &|_, _| {})
}

/// [`preview`], calling `progress(done, total)` from the worker threads after each candidate
/// file is parsed (`total` = files to parse), so a caller can show a progress bar.
pub fn preview_with_progress(
    req: &RewriteRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Preview, AstError> {
    preview_cancellable(req, progress, &|| false)
}

/// [`preview_with_progress`] that stops early when `cancelled()` turns true: no file is parsed
/// after that (each worker asks before it starts a file) and the call is refused with
/// [`AstError::Cancelled`], also when it turned true after the last file.
pub fn preview_cancellable(
    req: &RewriteRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<Preview, AstError> {
    let order = rule_order(req)?;
    let explicit = explicit_lang(req.lang.as_deref())?;
    let candidates = files::collect(
        &req.root,
        &req.paths,
        req.glob.as_deref(),
        req.walk(),
        &req.exclude,
    )?;
    plan(
        req,
        &order,
        explicit,
        &candidates,
        &|c| std::fs::read(&c.abs),
        progress,
        cancelled,
    )
}

/// [`preview_cancellable`] over `tree` instead of the directory `req.root`: `req.paths` name
/// files, directories and globs of the tree (see [`SourceTree`] for what a walk visits), and
/// every file is read from it. Each [`FileRewrite::abs`] is then the tree's name of the file.
pub fn preview_in(
    req: &RewriteRequest,
    tree: &dyn SourceTree,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<Preview, AstError> {
    let order = rule_order(req)?;
    let explicit = explicit_lang(req.lang.as_deref())?;
    let candidates = tree::collect_in(tree, &req.paths, req.glob.as_deref(), req.walk())?;
    plan(
        req,
        &order,
        explicit,
        &candidates,
        &|c| tree.read(&c.display),
        progress,
        cancelled,
    )
}

/// The preview of `candidates`, each read through `read`.
fn plan(
    req: &RewriteRequest,
    order: &[usize],
    explicit: Option<&'static LangSpec>,
    candidates: &[Candidate],
    read: &Reader<'_>,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<Preview, AstError> {
    let mut issues = Issues::default();
    let mut jobs = Vec::new();
    for candidate in candidates {
        // Two names of one file are previewed once, as the first: the apply writes each
        // file through one name.
        if let Some(first) = &candidate.same_file {
            issues.push(
                Some(&candidate.display),
                format!(
                    "{}: the same file as {first} (a hard link); previewed once, as {first}",
                    candidate.display
                ),
            );
            continue;
        }
        // A name that could forge rows of the preview is never shown or rewritten
        // (`hashline_core::name`); it is listed escaped.
        if let Err(unsafe_name) = hashline_core::name::check(&candidate.display) {
            issues.push(
                None,
                format!(
                    "{}: file name holds a control character; skipped (rename it to rewrite it)",
                    unsafe_name.shown
                ),
            );
            continue;
        }
        match explicit.or_else(|| lang::spec_for_path(&candidate.abs)) {
            Some(spec) if spec.enabled => jobs.push(Job { candidate, spec }),
            Some(spec) if candidate.explicit => issues.push(
                Some(&candidate.display),
                format!(
                    "{}: language {} is not built into this hashline; skipped",
                    candidate.display, spec.name
                ),
            ),
            None if candidate.explicit => issues.push(
                Some(&candidate.display),
                format!(
                    "{}: cannot infer the language from the file name; pass `lang`",
                    candidate.display
                ),
            ),
            _ => {}
        }
    }
    if jobs.is_empty() && explicit.is_none() {
        return Err(AstError::NoSupportedFiles {
            available: lang::enabled_list(),
        });
    }

    let compiled = compile_all(req, order, &jobs, &mut issues)?;
    let patterns: Vec<String> = req.rules.iter().map(|r| r.pattern.clone()).collect();

    let done = AtomicUsize::new(0);
    let total = jobs.len();
    let one = |job: &Job| {
        if cancelled() {
            return Err(AstError::Cancelled);
        }
        let rules: Vec<&CompiledRule> = compiled
            .iter()
            .filter(|(lang, _)| *lang == job.spec.lang)
            .flat_map(|(_, rules)| rules.iter())
            .collect();
        // The search's tree leaves the outcome here: the guard reparses from it (and drops
        // it), so no file's tree outlives its own processing while the other files run.
        let outcome = process(job, &rules, &patterns, read).and_then(|mut outcome| {
            let tree = outcome.take_tree();
            if req.allow_syntax_errors {
                Ok(outcome)
            } else {
                syntax_guard(job, outcome, tree)
            }
        });
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        outcome
    };
    let outcomes: Vec<Result<FileOutcome, AstError>> = match pool() {
        Some(pool) => pool.install(|| jobs.par_iter().map(one).collect()),
        None => jobs.iter().map(one).collect(),
    };
    if cancelled() {
        return Err(AstError::Cancelled);
    }

    let mut preview = Preview::default();
    let mut gap_notes = Vec::new();
    let max_files = req.max_files.max(1);
    // A file whose rewrite would not parse is left out and listed; the others are queued. Only
    // when every file with a match is refused does the whole call refuse (with the first).
    let mut refused = None;
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let display = &job.candidate.display;
        let outcome = match outcome {
            Err(e @ AstError::SyntaxIntroduced { .. }) => {
                preview.files_searched += 1;
                if let AstError::SyntaxIntroduced {
                    line, column, what, ..
                } = &e
                {
                    issues.push(
                        Some(display),
                        format!(
                            "[E_SYNTAX_INTRODUCED] {display}: the rewrite would add a syntax error at {line}:{column} ({what}); this file was left out of the preview"
                        ),
                    );
                }
                refused.get_or_insert(e);
                continue;
            }
            other => other?,
        };
        let (original, edits, nested, gap) = match outcome {
            FileOutcome::Issue(message) => {
                preview.files_searched += 1;
                issues.push(Some(display), message);
                continue;
            }
            FileOutcome::Rewrite {
                original,
                edits,
                nested,
                gap,
                ..
            } => (original, edits, nested, gap),
        };
        if !edits.is_empty() && preview.files.len() >= max_files {
            preview.limit_reached = true;
            break;
        }
        preview.files_searched += 1;
        gap_notes.extend(gap.map(|g| (display.clone(), g)));
        preview
            .skipped
            .extend(nested.into_iter().map(|n| SkippedMatch {
                path: display.clone(),
                rule: n.rule,
                pattern: patterns.get(n.rule).cloned().unwrap_or_default(),
                line: n.line,
                outer_line: n.outer_line,
            }));
        if edits.is_empty() {
            continue;
        }
        let number = preview.files.len() + 1;
        preview
            .files
            .push(file_rewrite(number, job.candidate, original, edits));
    }
    if let (Some(e), true) = (refused, preview.files.is_empty()) {
        return Err(e);
    }
    preview.parse_issues = issues.list;
    preview.warnings.extend(gaps::warning(&gap_notes));
    Ok(preview)
}

/// Rule indices in application order (byte-wise pattern order, as the seed sorts them), after
/// checking that there is at least one rule and no pattern is empty or repeated.
fn rule_order(req: &RewriteRequest) -> Result<Vec<usize>, AstError> {
    if req.rules.is_empty() {
        return Err(AstError::NoRules);
    }
    let mut seen = HashSet::new();
    for (index, rule) in req.rules.iter().enumerate() {
        if rule.pattern.is_empty() {
            return Err(AstError::EmptyPattern { index });
        }
        if !seen.insert(rule.pattern.as_str()) {
            return Err(AstError::DuplicatePattern {
                pattern: rule.pattern.clone(),
            });
        }
    }
    let mut order: Vec<usize> = (0..req.rules.len()).collect();
    order.sort_by(|&a, &b| req.rules[a].pattern.cmp(&req.rules[b].pattern));
    Ok(order)
}

/// The compiled-in language an explicit `lang` names.
fn explicit_lang(name: Option<&str>) -> Result<Option<&'static LangSpec>, AstError> {
    let Some(name) = name else { return Ok(None) };
    match lang::spec_for_name(name) {
        Some(spec) if spec.enabled => Ok(Some(spec)),
        _ => Err(AstError::UnsupportedLanguage {
            name: name.to_string(),
            available: lang::enabled_list(),
        }),
    }
}

/// Every rule compiled for every language that occurs, in application order; failures become
/// issues (one per rule: for all languages at once when it compiles in none).
fn compile_all(
    req: &RewriteRequest,
    order: &[usize],
    jobs: &[Job<'_>],
    issues: &mut Issues,
) -> Result<Vec<(ast_grep_language::SupportLang, Vec<CompiledRule>)>, AstError> {
    let specs: Vec<&'static LangSpec> = CATALOG
        .iter()
        .filter(|s| jobs.iter().any(|j| j.spec.lang == s.lang))
        .collect();
    let mut compiled: Vec<(ast_grep_language::SupportLang, Vec<CompiledRule>)> =
        specs.iter().map(|s| (s.lang, Vec::new())).collect();
    for &index in order {
        let rule = &req.rules[index];
        let mut failures = Vec::new();
        for (slot, spec) in compiled.iter_mut().zip(&specs) {
            match compile_rule(index, rule, spec, req.strictness)? {
                Compiled::Ok(c) => slot.1.push(c),
                Compiled::Failed(why) => failures.push((spec.name, why)),
            }
        }
        if failures.is_empty() {
            continue;
        }
        let detail: Vec<String> = failures
            .iter()
            .map(|(name, why)| format!("{name}: {why}"))
            .collect();
        // A pattern that compiles for no language searched is a bad request (E_BAD_PATTERN);
        // one that fails for some languages only is listed and those files skip the rule.
        if failures.len() == specs.len() {
            return Err(AstError::PatternDoesNotCompile {
                pattern: rule.pattern.clone(),
                detail: detail.join("; "),
            });
        }
        let message = format!(
            "pattern `{}` does not compile for some languages ({}); those files skipped for this rule",
            rule.pattern,
            detail.join("; ")
        );
        issues.push(None, message);
    }
    Ok(compiled)
}

/// Read and rewrite one file; a panic inside the parser or matcher becomes an issue.
fn process(
    job: &Job<'_>,
    rules: &[&CompiledRule],
    patterns: &[String],
    read: &Reader<'_>,
) -> Result<FileOutcome, AstError> {
    let display = &job.candidate.display;
    let original = match read(job.candidate) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Ok(FileOutcome::Issue(format!(
                "{display}: cannot read ({e}); skipped"
            )))
        }
    };
    if rules.is_empty() {
        return Ok(FileOutcome::untouched(original));
    }
    let lang = job.spec.lang;
    catch_unwind(AssertUnwindSafe(|| {
        rewrite_file(display, original, lang, rules, patterns)
    }))
    .unwrap_or_else(|_| {
        Ok(FileOutcome::Issue(format!(
            "{display}: internal matcher error; skipped"
        )))
    })
}

/// Refuse a file's rewrite when it adds a syntax error ([`crate::syntax`]; the original parsed
/// without errors, or it would be an issue instead of a rewrite). `tree` is the search's parse
/// of the original, when it can seed an incremental reparse; it is consumed.
fn syntax_guard(
    job: &Job<'_>,
    outcome: FileOutcome,
    tree: Option<tree_sitter::Tree>,
) -> Result<FileOutcome, AstError> {
    let FileOutcome::Rewrite {
        original, edits, ..
    } = &outcome
    else {
        return Ok(outcome);
    };
    if edits.is_empty() {
        return Ok(outcome);
    }
    let rewritten = splice(original, staged_pairs(edits));
    let mut windowed = true;
    // Dense rewrites (more than one edit in every `DENSE` lines) touch most of the tree: the
    // reparse from it would hold the search's tree and a nearly whole new one at once. The
    // windowed check parses the new text alone, once the search's tree is gone.
    let lines = memchr::memchr_iter(b'\n', original).count() + 1;
    let dense = edits.len().saturating_mul(DENSE) > lines && original.len() <= syntax::MAX_BYTES;
    let tree = tree.filter(|_| !dense);
    if let Some(tree) = tree {
        // The search's tree, edited and reparsed: no error in it, none added. An error in it
        // is one the windows around the edits could only hide (they read each window on its
        // own, not in the state the file's text leaves the parser in): the whole check names it.
        match reparsed_clean(job.spec.lang, tree, original, &rewritten, edits) {
            Some(true) => return Ok(outcome),
            Some(false) => windowed = false,
            None => {}
        }
    }
    let (before, after) = (lf_text(original), lf_text(&rewritten));
    let changes = if windowed {
        crate::stretches::line_changes(original, edits)
    } else {
        Vec::new()
    };
    match syntax::introduced_at_in(job.spec.lang, &before, &after, &changes) {
        None => Ok(outcome),
        Some(issue) => Err(AstError::SyntaxIntroduced {
            path: job.candidate.display.clone(),
            excerpt: syntax::excerpt(&after, issue.line),
            line: issue.line,
            column: issue.column,
            what: issue.what,
        }),
    }
}

/// A rewrite with more than one edit in every `DENSE` lines of its file is checked without
/// the search's tree (see `syntax_guard`).
const DENSE: usize = 16;

/// [`syntax::clean_after_edits`] of a rewrite whose search parsed the BOM-free `original` as
/// `tree`.
fn reparsed_clean(
    lang: ast_grep_language::SupportLang,
    tree: tree_sitter::Tree,
    original: &[u8],
    rewritten: &[u8],
    edits: &[Staged],
) -> Option<bool> {
    let bom = if original.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let before = std::str::from_utf8(original.get(bom..)?).ok()?;
    let after = std::str::from_utf8(rewritten.get(bom..)?).ok()?;
    let pairs: Vec<(std::ops::Range<usize>, &str)> = edits
        .iter()
        .map(|e| {
            Some((
                e.range.start.checked_sub(bom)?..e.range.end.checked_sub(bom)?,
                e.after.as_str(),
            ))
        })
        .collect::<Option<_>>()?;
    syntax::clean_after_edits(lang, tree, before, after, &pairs)
}

/// A file's bytes as text the way the hashline tag sees it: lossy UTF-8, no BOM, LF endings.
fn lf_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// The [`FileRewrite`] of file number `number` (1-based) from its staged edits.
fn file_rewrite(
    number: usize,
    candidate: &Candidate,
    original: Vec<u8>,
    edits: Vec<Staged>,
) -> FileRewrite {
    let rewritten = splice(&original, staged_pairs(&edits));
    let lf = lf_text(&original);
    let matches = edits
        .into_iter()
        .enumerate()
        .map(|(n, e)| MatchEdit {
            id: format!("{number}:{}", n + 1),
            rule: e.rule,
            byte_range: e.range,
            line: e.line,
            column: e.column,
            before: e.before,
            after: e.after,
        })
        .collect();
    FileRewrite {
        path: candidate.display.clone(),
        abs: candidate.abs.clone(),
        tag: hashline_anchor::tag::file_tag(&lf),
        original,
        rewritten,
        matches,
    }
}

/// Parse issues, deduplicated, in discovery order.
#[derive(Default)]
struct Issues {
    seen: HashSet<String>,
    list: Vec<ParseIssue>,
}

impl Issues {
    fn push(&mut self, path: Option<&String>, message: String) {
        if self.seen.insert(message.clone()) {
            self.list.push(ParseIssue {
                path: path.cloned(),
                message,
            });
        }
    }
}

/// The threads the files of a rewrite are processed on, one per core (built once per process);
/// `None` when they cannot be started (a process or memory limit): the files are then
/// processed in turn on the calling thread, with the same results.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().build().ok())
        .as_ref()
}
