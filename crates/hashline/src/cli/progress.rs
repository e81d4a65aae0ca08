//! The ast-edit progress bar: on standard error, only when it is a terminal and the scan has
//! run longer than [`DELAY`]; hidden (and never drawn) otherwise.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a scan runs before the bar appears.
pub const DELAY: Duration = Duration::from_millis(200);

/// A file-count progress bar that stays hidden for quick scans.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    terminal: bool,
    shown: AtomicBool,
}

impl Progress {
    /// A hidden bar; it becomes visible on an update after [`DELAY`] if stderr is a terminal.
    pub fn new() -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} ast-edit: {pos}/{len} files parsed [{bar:30}] {elapsed}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// `done` of `total` files parsed (called from worker threads).
    pub fn update(&self, done: usize, total: usize) {
        if !self.terminal {
            return;
        }
        self.bar
            .set_length(u64::try_from(total).unwrap_or(u64::MAX));
        self.bar
            .set_position(u64::try_from(done).unwrap_or(u64::MAX));
        if self.start.elapsed() >= DELAY && !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(100));
        }
    }

    /// Remove the bar (if it was drawn).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
