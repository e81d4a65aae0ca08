//! The text-editor tool corpus (`../shared/conformance/str-replace`, recorded from
//! openhands-aci 0.3.3's `OHEditor`) through the real binary: each request of a case goes to
//! `hashline edit --dialect str-replace` on standard input, in order, in one session (one state
//! directory), `--root` = the case's root (input modes and empty directories from
//! `manifest.json`), `input_outside/` beside it. Each request must print the oracle's text (paths
//! as the request gave them: the corpus's `{ROOT}/` dropped) and exit 0 on the oracle's success,
//! 1 on its refusal; the root and the files beside it must equal `expected/`
//! (`expected_outside/`). An edit of a file the session never viewed carries `[W_UNREAD]`
//! after the oracle's text (DEVIATIONS §27), and only then.
//!
//! Where `DEVIATIONS.md` §22–26 departs from the oracle, the case is checked against the rule
//! instead, with the rule's property verified from the case's own data (never from its name).
//! Cases listed in `str-replace-open.txt` are run and reported as `open`, not asserted.

mod support;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::cli::{hashline, Run};
use support::corpus::{apply_manifest, beside_root, same_trees};
use support::tree::{self, Entry};

/// The oracle's clipping notice of a directory listing.
const DIR_CLIPPED: &str = "<response clipped><NOTE>Due to the max output limit";
/// The oracle clips views at this many characters.
const MAX_CHARS: usize = 16_000;

/// One request of a case, as sent and as answered.
struct Step {
    req: Value,
    want: Value,
    run: Run,
    /// Our text with the coded warnings taken off.
    text: String,
    /// The `[W_…]` paragraphs after the text.
    warnings: Vec<String>,
}

/// One case, prepared and run.
struct Case {
    name: String,
    dir: PathBuf,
    steps: Vec<Step>,
    input: BTreeMap<String, Entry>,
    input_outside: BTreeMap<String, Entry>,
    modes_in: BTreeMap<String, u32>,
    after: BTreeMap<String, Entry>,
    after_outside: BTreeMap<String, Entry>,
    modes_after: BTreeMap<String, u32>,
}

/// The permission bits of every regular file below `root`.
fn modes(root: &Path) -> BTreeMap<String, u32> {
    tree::snapshot(root)
        .into_iter()
        .filter(|(_, e)| matches!(e, Entry::File { .. }))
        .filter_map(|(p, _)| {
            let m = fs::symlink_metadata(root.join(&p)).ok()?;
            Some((p, m.permissions().mode() & 0o7777))
        })
        .collect()
}

/// The oracle's text as hashline prints it: `{ROOT}/` dropped, the root itself `.`.
fn ours(oracle: &str) -> String {
    oracle
        .replace("{ROOT}/\n", "./\n")
        .replace("{ROOT}/", "")
        .replace("{ROOT}", ".")
}

/// Splits off the trailing `\n\n[W_…]` paragraphs of a text.
fn split_warnings(text: &str) -> (String, Vec<String>) {
    let mut body = text.trim_end_matches('\n').to_owned();
    let mut warnings = Vec::new();
    while let Some(at) = body.rfind("\n\n[W_") {
        warnings.insert(0, body[at + 2..].to_owned());
        body.truncate(at);
    }
    (body, warnings)
}

fn json(dir: &Path, f: &str) -> Value {
    serde_json::from_slice(&fs::read(dir.join(f)).expect(f)).expect("json")
}

fn run_case(dir: &Path) -> Case {
    let tmp = tempfile::tempdir().expect("temp dir");
    let base = fs::canonicalize(tmp.path()).expect("canonical temp");
    let sandbox = base.join("sandbox");
    let root = sandbox.join("root");
    fs::create_dir_all(&root).expect("root");
    let manifest = json(dir, "manifest.json");
    if dir.join("input").is_dir() {
        tree::copy_tree(&dir.join("input"), &root);
    }
    apply_manifest(&root, &manifest["input"]);
    if dir.join("input_outside").is_dir() {
        tree::copy_tree(&dir.join("input_outside"), &sandbox);
    }
    apply_manifest(&sandbox, &manifest["input_outside"]);
    let (root_s, sandbox_s) = (root.display().to_string(), sandbox.display().to_string());
    let meta = json(dir, "meta.json");
    let mut args = vec!["edit".to_owned(), "--dialect".into(), "str-replace".into()];
    if let Some(mb) = meta["editor"]["max_file_size_mb"].as_u64() {
        args.extend(["--max-file-mb".into(), mb.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let input = tree::snapshot(&root);
    let input_outside = beside_root(&sandbox);
    let modes_in = modes(&root);
    let results = json(dir, "results.json");
    let mut steps = Vec::new();
    for (i, req) in json(dir, "requests.json")
        .as_array()
        .expect("requests")
        .iter()
        .enumerate()
    {
        let mut sent = req.clone();
        if let Some(obj) = sent.as_object_mut() {
            obj.retain(|k, _| !k.starts_with('_'));
            if req["_raw_path"] == true {
                if let Some(p) = req["path"].as_str() {
                    obj.insert(
                        "path".into(),
                        p.replace("{ROOT}", &root_s)
                            .replace("{SANDBOX}", &sandbox_s)
                            .into(),
                    );
                }
            }
        }
        let run = hashline(
            &root,
            &base.join("state"),
            &args,
            sent.to_string().as_bytes(),
        );
        let shown = run
            .stdout
            .replace(&format!("{root_s}/"), "")
            .replace(&root_s, ".")
            .replace(&sandbox_s, "{SANDBOX}");
        let (text, warnings) = split_warnings(&shown);
        steps.push(Step {
            req: req.clone(),
            want: results[i].clone(),
            run,
            text,
            warnings,
        });
    }
    Case {
        name: dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        dir: dir.to_path_buf(),
        steps,
        input,
        input_outside,
        modes_in,
        after: tree::snapshot(&root),
        after_outside: beside_root(&sandbox),
        modes_after: modes(&root),
    }
}

impl Step {
    fn oracle_ok(&self) -> bool {
        self.want["ok"] == true
    }
    fn oracle_text(&self) -> String {
        let key = if self.oracle_ok() { "output" } else { "error" };
        ours(self.want[key].as_str().unwrap_or_default())
    }
    fn ok(&self) -> bool {
        self.run.code == 0
    }
    fn command(&self) -> &str {
        self.req["command"].as_str().unwrap_or_default()
    }
    fn path(&self) -> String {
        display(self.req["path"].as_str().unwrap_or_default())
    }
    fn str(&self, key: &str) -> Option<&str> {
        self.req[key].as_str()
    }
    /// The warnings other than `[W_UNREAD]`.
    fn other_warnings(&self) -> Vec<&String> {
        self.warnings
            .iter()
            .filter(|w| !w.starts_with("[W_UNREAD]"))
            .collect()
    }
    /// Exit and text as the oracle's (coded warnings apart).
    fn conforms(&self) -> Result<(), String> {
        if self.ok() != self.oracle_ok() || (!self.ok() && self.run.code != 1) {
            return Err(format!(
                "{} {}: exit {} (oracle ok: {}): {}",
                self.command(),
                self.path(),
                self.run.code,
                self.oracle_ok(),
                self.run.stdout
            ));
        }
        let want = self.oracle_text();
        if self.text != want.trim_end_matches('\n') {
            return Err(format!(
                "{} {}: text {:?}, oracle {want:?}",
                self.command(),
                self.path(),
                self.text
            ));
        }
        if self.oracle_ok() && !self.other_warnings().is_empty() {
            return Err(format!("warned: {:?}", self.other_warnings()));
        }
        Ok(())
    }
}

/// The path as the oracle prints it: `.` and empty components dropped, the root `.`.
fn display(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    match (parts.is_empty(), path.starts_with('/')) {
        (true, _) => ".".into(),
        (false, true) => format!("/{}", parts.join("/")),
        (false, false) => parts.join("/"),
    }
}

fn file(t: &BTreeMap<String, Entry>, path: &str) -> Option<Vec<u8>> {
    match t.get(path) {
        Some(Entry::File { bytes, .. }) => Some(bytes.clone()),
        _ => None,
    }
}

impl Case {
    fn expected(&self) -> BTreeMap<String, Entry> {
        tree::snapshot(&self.dir.join("expected"))
    }
    fn expected_outside(&self) -> BTreeMap<String, Entry> {
        tree::snapshot(&self.dir.join("expected_outside"))
    }
    fn untouched(&self) -> Result<(), String> {
        same_trees(
            (&self.input, &self.input_outside),
            (&self.after, &self.after_outside),
            "files changed",
        )
    }
    fn tree_conforms(&self) -> Result<(), String> {
        same_trees(
            (&self.expected(), &self.expected_outside()),
            (&self.after, &self.after_outside),
            "tree differs",
        )
    }
    /// Whether step `i` edits a path no earlier step of the session viewed or edited.
    fn unread(&self, i: usize) -> bool {
        let path = self.steps[i].path();
        !self.steps[..i]
            .iter()
            .any(|s| s.ok() && s.path() == path && s.command() != "undo_edit")
    }
    /// §27: `[W_UNREAD]` on exactly the successful edits of files the session had not read.
    fn unread_warned(&self) -> Result<(), String> {
        for (i, s) in self.steps.iter().enumerate() {
            let edit = matches!(s.command(), "str_replace" | "insert");
            let want = s.ok() && edit && self.unread(i);
            let got = s.warnings.iter().any(|w| w.starts_with("[W_UNREAD]"));
            if want != got {
                return Err(format!(
                    "step {} ({} {}): [W_UNREAD] {}",
                    i + 1,
                    s.command(),
                    s.path(),
                    if got { "given" } else { "missing" }
                ));
            }
        }
        Ok(())
    }
    /// Every file that was there before and still is keeps its mode (§22: the oracle's
    /// `insert` leaves 0600).
    fn modes_kept(&self) -> Result<(), String> {
        for (p, m) in &self.modes_after {
            if let Some(before) = self.modes_in.get(p) {
                if before != m {
                    return Err(format!("{p}: mode {m:o}, was {before:o}"));
                }
            }
        }
        Ok(())
    }
    /// The contract: every step's exit and text, and the trees.
    fn conforms(&self) -> Result<(), String> {
        for s in &self.steps {
            s.conforms()?;
        }
        self.tree_conforms()
    }
}

/// A failed check or, when the rule does not concern the case, `None`.
type Check = Option<Result<(), String>>;

fn ensure(ok: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(why())
    }
}

/// Checks every step: those the rule concerns by `rule`, the others by the contract. The rule
/// concerns the case when it concerns at least one step.
fn per_step(c: &Case, rule: impl Fn(&Case, usize) -> Check) -> Check {
    let mut concerned = false;
    for i in 0..c.steps.len() {
        match rule(c, i) {
            Some(Ok(())) => concerned = true,
            Some(Err(e)) => return Some(Err(format!("step {}: {e}", i + 1))),
            None => {
                if let Err(e) = c.steps[i].conforms() {
                    if concerned {
                        return Some(Err(format!("step {}: {e}", i + 1)));
                    }
                    return None;
                }
            }
        }
    }
    concerned.then_some(Ok(()))
}

/// The oracle's numbered view of a whole file.
fn numbered(text: &str, path: &str) -> String {
    let mut out = format!("Here's the result of running `cat -n` on {path}:\n");
    for (i, line) in text.split('\n').enumerate() {
        out.push_str(&format!("{:6}\t{line}\n", i + 1));
    }
    out
}

/// Paths relative to `--root`: a relative path the oracle refuses ("should be an absolute
/// path") is our ordinary path; a `view` of it shows the file.
fn relative_path(c: &Case) -> Check {
    per_step(c, |c, i| {
        let s = &c.steps[i];
        let raw = s.str("path")?;
        if s.req["_raw_path"] != true
            || raw.starts_with('/')
            || !s.oracle_text().contains("should be an absolute path")
        {
            return None;
        }
        Some((|| {
            ensure(s.ok(), || format!("refused: {}", s.run.stdout))?;
            if s.command() == "view" {
                let bytes = file(&c.input, &s.path()).ok_or("no such input file")?;
                let want = numbered(&String::from_utf8_lossy(&bytes), &s.path());
                ensure(s.text == want.trim_end_matches('\n'), || {
                    format!("view {:?}, want {want:?}", s.text)
                })?;
            }
            c.untouched()
        })())
    })
}

/// Whether `path` (as sent, `{ROOT}`/`{SANDBOX}` unresolved) names something outside the root.
fn leaves_root(c: &Case, raw: &str, is_raw: bool) -> bool {
    let rel = if is_raw {
        match raw.strip_prefix("{ROOT}") {
            Some(r) => r.trim_start_matches('/'),
            None => return raw.starts_with('/') || raw.starts_with("{SANDBOX}"),
        }
    } else {
        raw
    };
    let mut depth = 0i32;
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => depth += 1,
        }
    }
    // A symlink of the input that points out of the root.
    c.input.iter().any(|(p, e)| {
        matches!(e, Entry::Link(t) if (t.is_absolute() || t.starts_with(".."))
            && (rel == p || rel.starts_with(&format!("{p}/"))))
    })
}

/// §24: a path out of the root is refused (`E_OUTSIDE_ROOT`) and nothing is touched, inside or
/// beside the root.
fn outside_root(c: &Case) -> Check {
    per_step(c, |c, i| {
        let s = &c.steps[i];
        if !leaves_root(c, s.str("path")?, s.req["_raw_path"] == true) {
            return None;
        }
        Some(
            ensure(s.run.code == 1, || {
                format!("exit {}: {}", s.run.code, s.run.stdout)
            })
            .and_then(|()| {
                ensure(s.text.contains("outside the workspace root"), || {
                    format!("not an outside-root refusal: {}", s.text)
                })
            })
            .and_then(|()| c.untouched()),
        )
    })
}

/// §24: no command is run while listing a directory; a name with a space or shell syntax is
/// listed as a name (the oracle's `find` printed errors instead).
fn listing_runs_nothing(c: &Case) -> Check {
    per_step(c, |c, i| {
        let s = &c.steps[i];
        let err = s.want["error"].as_str().unwrap_or_default();
        if s.command() != "view" || !s.oracle_ok() || !err.starts_with("find:") {
            return None;
        }
        let dir = s.path();
        Some((|| {
            ensure(s.ok() && !s.text.contains("find:"), || {
                format!("listing failed: {}", s.run.stdout)
            })?;
            let names: Vec<&String> = c
                .input
                .keys()
                .filter(|p| p.starts_with(&format!("{dir}/")))
                .collect();
            ensure(!names.is_empty(), || "nothing to list".into())?;
            for p in names {
                ensure(s.text.lines().any(|l| l == p), || {
                    format!("{p} not listed in {:?}", s.text)
                })?;
            }
            ensure(c.after == c.input, || "listing changed the tree".into())
        })())
    })
}

/// §23: `old_str` is not in the file verbatim (the oracle stripped both strings and replaced):
/// refused with the oracle's not-found text and the file untouched, or applied with a `[W_…]`
/// warning when `new_str` has no surrounding white space to lose, its own text replacing the
/// stripped match.
fn no_silent_strip(c: &Case) -> Check {
    per_step(c, |c, i| {
        let s = &c.steps[i];
        let (old, path) = (s.str("old_str")?, s.path());
        let new = s.str("new_str").unwrap_or_default();
        let before = String::from_utf8(file(&c.input, &path)?).ok()?;
        if s.command() != "str_replace"
            || !s.oracle_ok()
            || before.contains(old)
            || c.steps.len() != 1
        {
            return None;
        }
        if !s.ok() {
            let want = format!(
                "No replacement was performed, old_str `{old}` did not appear verbatim in {path}."
            );
            return Some(
                ensure(s.run.code == 1 && s.text.starts_with(&want), || {
                    format!("not the not-found refusal: {}", s.text)
                })
                .and_then(|()| c.untouched()),
            );
        }
        let after = String::from_utf8(file(&c.after, &path)?).ok()?;
        Some(
            ensure(!s.other_warnings().is_empty(), || {
                "applied a stripped match without a warning".into()
            })
            .and_then(|()| ensure(new == new.trim(), || "new_str's white space lost".into()))
            .and_then(|()| {
                let want = before.replacen(old.trim(), new, 1);
                ensure(after == want, || format!("{after:?}, want {want:?}"))
            }),
        )
    })
}

/// The lines of `text` and its line ending and final newline.
fn shape(text: &str) -> (Vec<String>, &'static str, bool) {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lf = text.replace("\r\n", "\n");
    let fin = lf.ends_with('\n');
    let body = lf.strip_suffix('\n').unwrap_or(&lf);
    let lines = if lf.is_empty() {
        Vec::new()
    } else {
        body.split('\n').map(str::to_owned).collect()
    };
    (lines, eol, fin)
}

/// §22: an edit the oracle applied is applied to the same lines, but the file keeps its line
/// ending, final newline and mode (the oracle writes LF, joins an inserted line onto a last line
/// without a newline, and leaves 0600).
fn bytes_survive(c: &Case) -> Check {
    if c.steps.len() != 1 {
        return shape_kept(c);
    }
    let s = &c.steps[0];
    let path = s.path();
    if !s.oracle_ok() || !matches!(s.command(), "str_replace" | "insert") {
        return None;
    }
    let before = String::from_utf8(file(&c.input, &path)?).ok()?;
    let after = String::from_utf8(file(&c.after, &path)?).ok()?;
    let (lines, eol, fin) = shape(&before);
    let new = s.str("new_str").unwrap_or_default();
    let want_lines = if s.command() == "insert" {
        let at = usize::try_from(s.req["insert_line"].as_u64()?).ok()?;
        let mut l = lines.clone();
        let rows: Vec<String> = new.split('\n').map(str::to_owned).collect();
        l.splice(at.min(l.len())..at.min(l.len()), rows);
        l
    } else {
        let (lf, _, _) = shape(
            &before
                .replace("\r\n", "\n")
                .replacen(s.str("old_str")?, new, 1),
        );
        lf
    };
    let (got, got_eol, got_fin) = shape(&after);
    if got
        == shape(&ours(&String::from_utf8_lossy(&file(
            &c.expected(),
            &path,
        )?)))
        .0
        && got_eol == "\n"
        && eol == "\n"
        && got_fin == fin
        && c.modes_kept().is_ok()
    {
        // Nothing this rule is about differs.
        return None;
    }
    Some(
        ensure(s.ok(), || format!("refused: {}", s.run.stdout))
            .and_then(|()| {
                ensure(got == want_lines, || {
                    format!("lines {got:?}, want {want_lines:?}")
                })
            })
            .and_then(|()| {
                ensure(got_eol == eol, || {
                    format!("line ending {got_eol:?}, was {eol:?}")
                })
            })
            .and_then(|()| {
                ensure(got_fin == fin, || {
                    format!("final newline {got_fin}, was {fin}")
                })
            })
            .and_then(|()| c.modes_kept()),
    )
}

/// §22 over several requests: every answer is the oracle's, and each file differs from the
/// oracle's only in keeping its own line ending and final newline.
fn shape_kept(c: &Case) -> Check {
    if c.steps.iter().any(|s| s.conforms().is_err()) {
        return None;
    }
    let expected = c.expected();
    if expected.keys().ne(c.after.keys()) {
        return None;
    }
    for (path, want) in &expected {
        if c.after.get(path) == Some(want) {
            continue;
        }
        let text =
            |t: &BTreeMap<String, Entry>| file(t, path).and_then(|b| String::from_utf8(b).ok());
        let (want, got, before) = (text(&expected)?, text(&c.after)?, text(&c.input)?);
        let ((wl, _, _), (gl, ge, gf), (_, be, bf)) = (shape(&want), shape(&got), shape(&before));
        if wl != gl {
            return None;
        }
        if ge != be || gf != bf {
            return Some(Err(format!(
                "{path}: line ending {ge:?}/{gf}, was {be:?}/{bf}"
            )));
        }
    }
    Some(c.modes_kept())
}

/// §25: where the oracle crashed, a clear refusal (exit 1, a message, no traceback) and nothing
/// touched.
fn no_crash(c: &Case) -> Check {
    per_step(c, |c, i| {
        let s = &c.steps[i];
        if s.want["crash"] != true {
            return None;
        }
        Some(
            ensure(s.run.code == 1 && !s.text.is_empty(), || {
                format!("exit {}: {}", s.run.code, s.run.stdout)
            })
            .and_then(|()| {
                ensure(
                    !s.text.contains("Error:") && !s.text.contains("Traceback"),
                    || format!("looks like a crash: {}", s.text),
                )
            })
            .and_then(|()| c.untouched()),
        )
    })
}

/// §26: `undo_edit` right after a successful `create` removes the created file and says so, or
/// is refused; a later `undo_edit` of it finds nothing to undo.
fn undo_create(c: &Case) -> Check {
    let created = c
        .steps
        .iter()
        .position(|s| s.command() == "create" && s.ok())?;
    let path = c.steps[created].path();
    let undo = created + 1;
    let s = c.steps.get(undo)?;
    if s.command() != "undo_edit" || s.path() != path || !s.oracle_ok() {
        return None;
    }
    let mut res = c.steps[..undo].iter().try_for_each(Step::conforms);
    if res.is_ok() {
        res = if s.ok() {
            ensure(
                file(&c.after, &path).is_none() && s.text.contains("removed"),
                || {
                    format!(
                        "undo of create: {:?}, file left: {}",
                        s.text,
                        c.after.contains_key(&path)
                    )
                },
            )
        } else {
            ensure(s.run.code == 1 && file(&c.after, &path).is_some(), || {
                format!("exit {}: {}", s.run.code, s.text)
            })
        };
    }
    for later in &c.steps[undo + 1..] {
        res = res.and_then(|()| {
            ensure(later.run.code == 1, || {
                format!("after the undo: exit {}: {}", later.run.code, later.text)
            })
        });
    }
    Some(res)
}

/// Paths relative to `--root` make texts shorter, so a listing the oracle clipped at 16,000
/// characters is clipped later: ours starts with the oracle's lines and is clipped at the same
/// length with the same notice.
fn clipped_later(c: &Case) -> Check {
    per_step(c, |c: &Case, i| {
        let s = &c.steps[i];
        let want = s.oracle_text();
        let at = want.find(DIR_CLIPPED)?;

        let full = want[..at].rsplit_once('\n').map_or("", |(a, _)| a);
        let got_at = s.text.find(DIR_CLIPPED);
        Some(
            ensure(s.ok(), || s.run.stdout.clone())
                .and_then(|()| ensure(got_at.is_some(), || "not clipped".into()))
                .and_then(|()| {
                    let text = &s.text[..got_at.unwrap_or_default()];
                    // The oracle clips the listing, not its heading line.
                    let body = text.split_once('\n').map_or("", |(_, b)| b);
                    ensure(
                        text.starts_with(full) && body.chars().count() == MAX_CHARS,
                        || format!("clipped at {} characters", body.chars().count()),
                    )
                })
                .and_then(|()| {
                    ensure(s.text[got_at.unwrap_or_default()..] == want[at..], || {
                        "notice differs".into()
                    })
                }),
        )
    })
}

/// The edit guard (every dialect) warned on what the oracle applied: the oracle's text and
/// tree, plus a `[W_…]` notice.
fn guard_warned(c: &Case) -> Check {
    if !c.steps.iter().any(|s| !s.other_warnings().is_empty()) {
        return None;
    }
    for s in &c.steps {
        if let Err(e) = s.conforms() {
            if !e.starts_with("warned:") {
                return None;
            }
        }
    }
    Some(c.tree_conforms())
}

/// Whether `ours` is `oracle` but for characters that are non-ASCII in both, one for one.
fn same_but_non_ascii(ours: &str, oracle: &str) -> bool {
    ours.chars().count() == oracle.chars().count()
        && ours
            .chars()
            .zip(oracle.chars())
            .all(|(a, b)| a == b || (!a.is_ascii() && !b.is_ascii()))
}

/// docs/DEVIATIONS.md "Legacy encodings": a file that is not UTF-8 is decoded in the single-byte
/// code page our detector names and written back in it. Where the oracle's detector named
/// another code page, each text differs from the oracle's only in characters that are non-ASCII
/// in both, one for one; exits, the bytes written and the modes are as the rule says.
fn other_code_page(c: &Case) -> Check {
    let legacy = c
        .input
        .values()
        .any(|e| matches!(e, Entry::File { bytes, .. } if std::str::from_utf8(bytes).is_err()));
    if !legacy {
        return None;
    }
    let steps = per_step(c, |c, i| {
        let s = &c.steps[i];
        if s.conforms().is_ok() {
            return None;
        }
        let want = s.oracle_text();
        Some(
            ensure(s.ok() == s.oracle_ok(), || {
                format!("exit {}: {}", s.run.code, s.run.stdout)
            })
            .and_then(|()| {
                ensure(
                    same_but_non_ascii(&s.text, want.trim_end_matches('\n')),
                    || format!("text {:?}, oracle {want:?}", s.text),
                )
            }),
        )
    })?;
    Some(
        steps
            .and_then(|()| c.tree_conforms())
            .and_then(|()| c.modes_kept()),
    )
}

type Rule = (&'static str, fn(&Case) -> Check);

const RULES: &[Rule] = &[
    ("paths relative to --root", relative_path),
    ("§24 nothing outside the root", outside_root),
    ("§24 no command run", listing_runs_nothing),
    ("§23 no silent strip", no_silent_strip),
    ("§22 bytes and modes survive", bytes_survive),
    ("§25 no crash", no_crash),
    ("§26 undo of create", undo_create),
    ("clipped later (shorter paths)", clipped_later),
    ("guard warning", guard_warned),
    ("legacy code page guessed differently", other_code_page),
];

/// The open cases: `NNN reason` per line of `str-replace-open.txt`.
fn open_cases() -> BTreeMap<String, String> {
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/str-replace-open.txt");
    fs::read_to_string(list)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(n, why)| (n.to_owned(), why.trim().to_owned()))
        .collect()
}

#[test]
fn str_replace_conformance() {
    let Some(corpus) = support::corpus::corpus("str-replace") else {
        return;
    };
    let cases = support::corpus::subdirs(&corpus.join("cases"));
    assert!(!cases.is_empty(), "no str-replace cases");
    let open = open_cases();
    let (mut passed, mut deviations, mut opened, mut failed) =
        (0, Vec::new(), Vec::new(), Vec::new());
    for dir in &cases {
        let c = run_case(dir);
        let verdict = c.unread_warned().and_then(|()| match c.conforms() {
            Ok(()) => c.modes_kept().map(|()| None),
            Err(why) => match RULES.iter().find_map(|(n, r)| r(&c).map(|res| (n, res))) {
                Some((rule, Ok(()))) => Ok(Some(*rule)),
                Some((rule, Err(e))) => Err(format!("({rule}): {e}")),
                None => Err(why),
            },
        });
        let number = c.name.split('-').next().unwrap_or_default();
        match (verdict, open.get(number)) {
            (_, Some(why)) => opened.push(format!("{} ({why})", c.name)),
            (Ok(None), None) => passed += 1,
            (Ok(Some(rule)), None) => deviations.push(format!("{} ({rule})", c.name)),
            (Err(e), None) => failed.push(format!(
                "{} {e}\nstderr: {}",
                c.name,
                c.steps
                    .iter()
                    .map(|s| s.run.stderr.as_str())
                    .collect::<String>()
            )),
        }
    }
    println!(
        "str-replace conformance: {passed} passed, {} deviations asserted, {} open, {} failed",
        deviations.len(),
        opened.len(),
        failed.len()
    );
    for d in &deviations {
        println!("  deviation: {d}");
    }
    for o in &opened {
        println!("  open: {o}");
    }
    assert!(failed.is_empty(), "failures:\n{}", failed.join("\n"));
}
