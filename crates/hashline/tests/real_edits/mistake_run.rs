//! Sending one mistake through the real binary and classing the result as
//! `../shared/mistakes/README.md` does, plus the table of every run.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use hashline_ast::TreeSitterSyntax;
use hashline_core::SyntaxCheck;

use super::mistake_tweak::{self, Tweak};
use super::mistakes::{self, Mistake};
use super::read;
use super::request::{self, Edit, Request};
use super::support::sandbox::Sandbox;
use super::support::tree;
use super::Case;

/// How one mistaken request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Exit 0, the file is what the model meant.
    Correct,
    /// Exit 1, the root byte-identical to before the call.
    Refused,
    /// Exit 0, the file differs, and the reply carries a `[W_…]` warning.
    WarnedWrong,
    /// Exit 0, the file differs, nothing warned; `true` when the file no longer parses
    /// around the change while what the model meant does (silent-broken).
    SilentWrong(bool),
    /// Anything else: another exit, a reply that is not JSON, a refusal that changed the
    /// root, a failed read, a call over the time limit.
    Broken,
}

/// One run's class and its log (requests, replies, the file got and wanted).
pub struct Outcome {
    pub class: Class,
    pub log: String,
    /// The codes the replies carried (a refusal's `E_…`, every warning's `[W_…]`).
    pub codes: Vec<String>,
}

/// Sends mistake `m` of `case` in `dialect`: fresh root, read as the dialect's model would,
/// build the request from the read and the mistaken edits, write the outside change (if any),
/// send, compare. `None` where the dialect cannot say the mistaken edits.
pub fn run(case: &Case, dialect: &str, m: &Mistake) -> Option<Outcome> {
    let broken = |log: String| {
        Some(Outcome {
            class: Class::Broken,
            log,
            codes: Vec::new(),
        })
    };
    let sb = Sandbox::new();
    sb.put(&case.path, case.before.as_bytes());
    let old: Vec<&str> = super::diff::lines(&case.before);
    let final_newline = case.before.ends_with('\n');
    let read = match read::as_model(&sb, &case.path, &case.before, dialect) {
        Ok(read) => read,
        Err(e) => return broken(e),
    };
    let mut edits = m.edits.clone();
    if let (Tweak::PasteAnchors, Some(read)) = (&m.tweak, &read) {
        paste(&mut edits[m.hunk], dialect, &read.anchors);
    }
    let request = request::build(
        dialect,
        &case.path,
        read.as_ref(),
        &old,
        final_newline,
        &edits,
    );
    let Request::Calls(built) = request else {
        return None;
    };
    let calls = mistake_tweak::tweak(&m.tweak, dialect, &old, &m.edits, m.hunk, &built);
    let ending = if final_newline { "\n" } else { "" };
    if let Some(disk) = &m.disk {
        sb.put(&case.path, (disk.join("\n") + ending).as_bytes());
    }
    let start_text = fs::read_to_string(sb.root.join(&case.path)).unwrap_or_default();
    let mut warned = false;
    let mut log = String::new();
    let mut codes = Vec::new();
    for call in &calls {
        let before = tree::snapshot(&sb.root);
        let Some(r) = super::send(&sb, dialect, call, &mut log) else {
            return broken(log);
        };
        let reply = serde_json::from_str::<serde_json::Value>(&r.stdout).ok();
        codes.extend(reply.as_ref().map(reply_codes).unwrap_or_default());
        match r.code {
            0 if reply.is_some() => {
                warned |= r.stdout.contains("[W_");
            }
            1 if tree::snapshot(&sb.root) == before => {
                return Some(Outcome {
                    class: Class::Refused,
                    log,
                    codes,
                })
            }
            _ => return broken(log),
        }
    }
    let now = fs::read(sb.root.join(&case.path)).unwrap_or_default();
    let after_ending = if case.after.ends_with('\n') || case.after.is_empty() {
        ending
    } else {
        ""
    };
    let want = m
        .intended
        .as_ref()
        .map(|lines| lines.join("\n") + after_ending);
    if want.as_deref().map(str::as_bytes) == Some(&now[..]) {
        return Some(Outcome {
            class: Class::Correct,
            log,
            codes,
        });
    }
    let landed = String::from_utf8_lossy(&now).into_owned();
    log.push_str(&format!(
        "--- got ---\n{landed}\n--- wanted ---\n{}\n",
        want.as_deref().unwrap_or("(a refusal)")
    ));
    if warned {
        return Some(Outcome {
            class: Class::WarnedWrong,
            log,
            codes,
        });
    }
    // What the model meant, or (where only a refusal is right) the file it did not refuse.
    let meant = want.as_deref().unwrap_or(&start_text);
    let unparsed = TreeSitterSyntax
        .introduced(Path::new(&case.path), meant, &landed)
        .is_some();
    Some(Outcome {
        class: Class::SilentWrong(unparsed),
        log,
        codes,
    })
}

/// A `--json` reply's codes: the refusal's, then each warning's leading `[W_…]`.
fn reply_codes(reply: &serde_json::Value) -> Vec<String> {
    let refusal = reply["code"].as_str().map(str::to_string);
    let warnings = reply["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str())
        .map(super::outcome::warning_code);
    refusal.into_iter().chain(warnings).collect()
}

/// The read's anchors pasted in front of `e`'s rows: row `i` takes the anchor of the line it
/// stands for in the read (line `start + i`, the last line past the end).
fn paste(e: &mut Edit, dialect: &str, anchors: &[String]) {
    let Some(last) = anchors.len().checked_sub(1) else {
        return;
    };
    for (i, row) in e.lines.iter_mut().enumerate() {
        let a = &anchors[(e.old.start + i).min(last)];
        *row = match dialect {
            "lineid-json" => format!("{a}|{row}"),
            _ => format!("{a}:{row}"),
        };
    }
}

/// Counts of one row of the table.
#[derive(Default, Clone, Copy)]
pub struct Row {
    sent: usize,
    correct: usize,
    refused: usize,
    warned_wrong: usize,
    silent_wrong: usize,
    silent_broken: usize,
    broken: usize,
}

impl Row {
    fn add(&mut self, class: Class) {
        self.sent += 1;
        match class {
            Class::Correct => self.correct += 1,
            Class::Refused => self.refused += 1,
            Class::WarnedWrong => self.warned_wrong += 1,
            Class::SilentWrong(unparsed) => {
                self.silent_wrong += 1;
                self.silent_broken += usize::from(unparsed);
            }
            Class::Broken => self.broken += 1,
        }
    }

    fn line(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {:.1} % |\n",
            self.sent,
            self.correct,
            self.refused,
            self.warned_wrong,
            self.silent_wrong,
            self.silent_broken,
            self.broken,
            percent(self.silent_wrong, self.sent)
        )
    }
}

fn percent(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 * 100.0 / of as f64
    }
}

/// Every run, per dialect and per kind.
#[derive(Default)]
pub struct Tally {
    cells: BTreeMap<(String, &'static str), Row>,
    /// Per dialect and code: the mistaken requests it refused or warned on.
    caught: BTreeMap<(String, String), usize>,
    /// Mistakes that could not be said in the dialect (not sent).
    pub excluded: usize,
}

impl Tally {
    /// Counts one run.
    pub fn add(&mut self, dialect: &str, kind: &'static str, class: Class) {
        self.cells
            .entry((dialect.to_string(), kind))
            .or_default()
            .add(class);
    }

    /// Counts the codes one mistaken request drew (each code once).
    pub fn add_codes(&mut self, dialect: &str, codes: &[String]) {
        let mut seen: Vec<&String> = Vec::new();
        for c in codes {
            if !seen.contains(&c) {
                seen.push(c);
                *self
                    .caught
                    .entry((dialect.to_string(), c.clone()))
                    .or_default() += 1;
            }
        }
    }

    /// Per code: how many mistaken requests it fired on, in each dialect (the recall side of
    /// docs/GUARD.md).
    pub fn code_table(&self, dialects: &[&str]) -> String {
        let mut codes: Vec<&String> = self.caught.keys().map(|(_, c)| c).collect();
        codes.sort();
        codes.dedup();
        let mut out = format!(
            "mistakes each code fired on\n\n| code | {} |\n|---{}|\n",
            dialects.join(" | "),
            "|---".repeat(dialects.len())
        );
        for c in codes {
            let cells: Vec<String> = dialects
                .iter()
                .map(|d| {
                    let n = self.caught.get(&(d.to_string(), c.clone())).copied();
                    n.map_or("·".to_string(), |n| n.to_string())
                })
                .collect();
            out.push_str(&format!("| {c} | {} |\n", cells.join(" | ")));
        }
        out
    }

    fn sum(&self, keep: impl Fn(&str, &str) -> bool) -> Row {
        let mut out = Row::default();
        for ((d, k), r) in &self.cells {
            if keep(d, k) {
                out.sent += r.sent;
                out.correct += r.correct;
                out.refused += r.refused;
                out.warned_wrong += r.warned_wrong;
                out.silent_wrong += r.silent_wrong;
                out.silent_broken += r.silent_broken;
                out.broken += r.broken;
            }
        }
        out
    }

    /// The whole run: sent, silent-wrong, broken.
    pub fn totals(&self) -> (usize, usize, usize) {
        let t = self.sum(|_, _| true);
        (t.sent, t.silent_wrong, t.broken)
    }

    /// The tables: per dialect, per kind, and silent-wrong per kind and dialect.
    pub fn table(&self, dialects: &[&str]) -> String {
        let head = "| sent | correct | refused | warned-wrong | silent-wrong | silent-broken | broken | silent-wrong % |\n";
        let rule = "|---|---|---|---|---|---|---|---|---|\n";
        let mut out = format!("| dialect {head}{rule}");
        for d in dialects {
            out.push_str(&self.sum(|x, _| x == *d).line(d));
        }
        out.push_str(&self.sum(|_, _| true).line("**total**"));
        out.push_str(&format!("\n| kind {head}{rule}"));
        for k in mistakes::KINDS {
            let row = self.sum(|_, x| x == k);
            if row.sent > 0 {
                out.push_str(&row.line(k));
            }
        }
        out.push_str(&format!(
            "\nsilent-wrong / sent per kind and dialect\n\n| kind | {} |\n|---{}|\n",
            dialects.join(" | "),
            "|---".repeat(dialects.len())
        ));
        for k in mistakes::KINDS {
            let cells: Vec<String> = dialects
                .iter()
                .map(|d| match self.cells.get(&(d.to_string(), k)) {
                    Some(r) => format!("{}/{}", r.silent_wrong, r.sent),
                    None => "·".to_string(),
                })
                .collect();
            out.push_str(&format!("| {k} | {} |\n", cells.join(" | ")));
        }
        let (sent, sw, broken) = self.totals();
        out.push_str(&format!(
            "\nsent {sent}, silent-wrong {sw} ({:.1} %), broken {broken}, not sayable (not sent) {}\n",
            percent(sw, sent),
            self.excluded
        ));
        out
    }
}
