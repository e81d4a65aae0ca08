//! How a run ended, and the table of all runs per dialect and per code.

use std::collections::BTreeMap;

/// How one case ended in one dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// The file is the after file, and nothing warned.
    Correct,
    /// The file is the after file, with this `[W_…]` warning: a false alarm.
    Warned(String),
    /// Refused with this code: a false alarm (real commits carry no defect to refuse).
    Refused(String),
    /// Applied, but the file differs from the after file.
    Wrong,
    /// An exit other than 0/1, a reply that is not JSON, a read that does not spell the file,
    /// or a call over the time limit.
    Crash,
    /// The dialect cannot express this change.
    Excluded,
}

impl Class {
    /// Whether this run is anything but correct or excluded.
    pub fn is_failure(&self) -> bool {
        !matches!(self, Class::Correct | Class::Excluded)
    }

    /// The class and its code, for the list of failures.
    pub fn label(&self) -> String {
        match self {
            Class::Correct => "correct".into(),
            Class::Warned(c) => format!("warned {c}"),
            Class::Refused(c) => format!("refused {c}"),
            Class::Wrong => "WRONG".into(),
            Class::Crash => "CRASH".into(),
            Class::Excluded => "excluded".into(),
        }
    }
}

/// The code a warning starts with (`[W_…]`), or `W_?` for one without.
pub fn warning_code(text: &str) -> String {
    text.strip_prefix('[')
        .and_then(|t| t.split_once(']'))
        .map(|(code, _)| code.to_string())
        .filter(|c| c.starts_with("W_"))
        .unwrap_or_else(|| "W_?".to_string())
}

/// Counts of one dialect's runs.
#[derive(Default)]
struct Row {
    correct: usize,
    warned: usize,
    refused: usize,
    wrong: usize,
    crash: usize,
    excluded: usize,
    codes: BTreeMap<String, usize>,
}

/// Every run's class, per dialect.
#[derive(Default)]
pub struct Tally {
    rows: BTreeMap<String, Row>,
}

impl Tally {
    /// Counts one run.
    pub fn add(&mut self, dialect: &str, class: &Class) {
        let row = self.rows.entry(dialect.to_string()).or_default();
        match class {
            Class::Correct => row.correct += 1,
            Class::Warned(c) => {
                row.warned += 1;
                *row.codes.entry(c.clone()).or_default() += 1;
            }
            Class::Refused(c) => {
                row.refused += 1;
                *row.codes.entry(c.clone()).or_default() += 1;
            }
            Class::Wrong => row.wrong += 1,
            Class::Crash => row.crash += 1,
            Class::Excluded => row.excluded += 1,
        }
    }

    /// Runs not excluded, false alarms (warned + refused), wrong, crash.
    pub fn totals(&self) -> (usize, usize, usize, usize) {
        self.rows.values().fold((0, 0, 0, 0), |(n, f, w, c), r| {
            (
                n + r.correct + r.warned + r.refused + r.wrong + r.crash,
                f + r.warned + r.refused,
                w + r.wrong,
                c + r.crash,
            )
        })
    }

    /// The table: one row per dialect, then the codes that fired.
    pub fn table(&self, dialects: &[&str]) -> String {
        let mut out = String::from(
            "| dialect | correct | warned | refused | wrong | crash | excluded | codes |\n|---|---|---|---|---|---|---|---|\n",
        );
        for d in dialects {
            let Some(r) = self.rows.get(*d) else { continue };
            let codes: Vec<String> = r.codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
            out.push_str(&format!(
                "| {d} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.correct,
                r.warned,
                r.refused,
                r.wrong,
                r.crash,
                r.excluded,
                codes.join(", ")
            ));
        }
        let (runs, fa, wrong, crash) = self.totals();
        out.push_str(&format!(
            "runs {runs}, false alarms {fa} ({:.2} %), wrong {wrong}, crash {crash}\n",
            if runs == 0 {
                0.0
            } else {
                fa as f64 * 100.0 / runs as f64
            }
        ));
        out
    }
}
