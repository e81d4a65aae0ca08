//! The bindings' row of `cargo xtask bench`: a 10-line `read` through the Python and the Node
//! package in-process, against the CLI call of the same read measured in the same run (issue
//! 29: at most a tenth). Each package is the one `cargo xtask bindings` last built and
//! installed (the fresh virtual environment, the staged npm package); a row says it was not
//! run when they are missing, and names a debug build.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::bench::{run_quiet, Row, Table};

/// The goal of issue 29.
const GOAL: &str = "<= 0.1x the CLI call";

/// Times `reps` reads of `small.rs` on one session (after one to record it); prints the median
/// in seconds.
const PYTHON: &str = r#"import statistics, sys, time
from hashline import Session
root, state, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
session = Session(root, state=state)
assert session.read("small.rs").ok
times = []
for _ in range(reps):
    start = time.perf_counter()
    result = session.read("small.rs")
    times.append(time.perf_counter() - start)
    assert result.ok
print(statistics.median(times))
"#;

/// The same for Node: `readSync`, then `await read()` (the libuv pool's hop included); prints
/// both medians in seconds.
const NODE: &str = r#"const [pkg, root, state, reps] = process.argv.slice(1);
const { Session } = require(pkg);
const session = new Session(root, { state });
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1] / 1e9;
(async () => {
  if (!session.readSync('small.rs').ok) throw new Error('read failed');
  const sync = [], promised = [];
  for (let i = 0; i < +reps; i++) {
    let start = process.hrtime.bigint();
    const a = session.readSync('small.rs');
    sync.push(Number(process.hrtime.bigint() - start));
    start = process.hrtime.bigint();
    const b = await session.read('small.rs');
    promised.push(Number(process.hrtime.bigint() - start));
    if (!a.ok || !b.ok) throw new Error('read failed');
  }
  console.log(median(sync), median(promised));
})();
"#;

/// Add the Python and the Node row for the 10-line file `root/small.rs`; `cli` is the median
/// CLI call of the same read.
pub fn rows(root: &Path, work: &Path, cli: Duration, reps: usize, table: &mut Table) {
    let reps = reps.max(200).to_string();
    let measure = "`read` of a 10-line file through the Python binding, vs a CLI call";
    let python = crate::bindings::installed_python();
    match python {
        None => table.unavailable(measure, GOAL, "not built: run `cargo xtask bindings`"),
        Some((python, build)) => {
            let state = work.join("state-python");
            let run = run_quiet(
                Command::new(python)
                    .args(["-c", PYTHON])
                    .arg(root)
                    .arg(&state)
                    .arg(&reps),
            );
            push(table, measure, &build, cli, run.map(|out| seconds(&out)));
        }
    }
    let measure = "`read` of a 10-line file through the Node binding, vs a CLI call";
    match crate::bindings_node::staged() {
        None => table.unavailable(measure, GOAL, "not built: run `cargo xtask bindings`"),
        Some((package, build)) => {
            let state = work.join("state-node");
            let run = run_quiet(
                Command::new("node")
                    .args(["-e", NODE])
                    .arg(&package)
                    .arg(root)
                    .arg(&state)
                    .arg(&reps),
            );
            push(table, measure, &build, cli, run.map(|out| seconds(&out)));
        }
    }
}

/// The numbers a driver printed, in seconds.
fn seconds(out: &[u8]) -> Vec<f64> {
    String::from_utf8_lossy(out)
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// The row of one binding: its last median (Node: the awaited read) against `cli`.
fn push(
    table: &mut Table,
    measure: &str,
    build: &str,
    cli: Duration,
    times: Result<Vec<f64>, String>,
) {
    let times = match times {
        Ok(t) if !t.is_empty() => t,
        Ok(_) => return table.unavailable(measure, GOAL, "the driver printed no time"),
        Err(e) => return table.unavailable(measure, GOAL, &e),
    };
    let labels = if times.len() == 2 {
        ["readSync ", "await read "]
    } else {
        ["", ""]
    };
    let shown: Vec<String> = times
        .iter()
        .zip(labels)
        .map(|(s, label)| format!("{label}{:.3} ms", s * 1e3))
        .collect();
    let last = times.last().copied().unwrap_or_default();
    let r = last / cli.as_secs_f64().max(1e-9);
    table.push(Row {
        measure: measure.to_string(),
        ours: format!("{} ({build} build)", shown.join(", ")),
        baseline: format!("CLI call {:.2} ms", cli.as_secs_f64() * 1e3),
        ratio: format!("{r:.3}x"),
        goal: GOAL,
        met: Some(r <= 0.1),
    });
}
