//! The `HASHLINE_*` environment variables of the file layer, checked before a command runs: a
//! value that is not a number, or out of range, is refused with a message that names the
//! variable and what it accepts, instead of being ignored (a typo silently keeping the default)
//! or overflowing (a lock wait of `1e30` seconds).

use std::time::Duration;

use super::lock::{LOCK_TIMEOUT_ENV, MAX_LOCK_TIMEOUT};
use super::undo_log::{UNDO_MAX_BYTES_ENV, UNDO_MAX_CALLS_ENV};
use super::MAX_FILE_BYTES_ENV;

/// What is wrong with each set `HASHLINE_*` variable of the file layer, one sentence each;
/// empty when every one is unset or valid.
pub fn env_problems() -> Vec<String> {
    let mut out = Vec::new();
    let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_string());
    if let Some(v) = var(LOCK_TIMEOUT_ENV) {
        let max = MAX_LOCK_TIMEOUT.as_secs();
        let ok = v
            .parse::<f64>()
            .is_ok_and(|s| s.is_finite() && (0.0..=max as f64).contains(&s));
        if !ok {
            out.push(format!(
                "{LOCK_TIMEOUT_ENV}={v:?} is not a number of seconds from 0 to {max}"
            ));
        }
    }
    for name in [UNDO_MAX_CALLS_ENV, UNDO_MAX_BYTES_ENV, MAX_FILE_BYTES_ENV] {
        if let Some(v) = var(name) {
            if v.parse::<u64>().is_err() {
                out.push(format!(
                    "{name}={v:?} is not a whole number from 0 to {}",
                    u64::MAX
                ));
            }
        }
    }
    out
}

/// A lock wait of `secs` seconds, held to [`MAX_LOCK_TIMEOUT`] (never an overflow).
pub(super) fn bounded_secs(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs)
        .unwrap_or(MAX_LOCK_TIMEOUT)
        .min(MAX_LOCK_TIMEOUT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_wait_never_overflows() {
        assert_eq!(bounded_secs(1e30), MAX_LOCK_TIMEOUT);
        assert_eq!(bounded_secs(1.5), Duration::from_millis(1500));
    }
}
