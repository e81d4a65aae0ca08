//! Two pieces of work at once, on two threads where a second thread can be had, one after the
//! other where not (a process or memory limit): the work is the same either way, and a call
//! never panics for want of a thread.

use std::sync::{Mutex, PoisonError};

/// `here()` on this thread while `there()` runs on another; both results. When no thread can
/// be started, `there()` runs after `here()` on this one, so `here` must never wait for
/// `there` (telling it to stop early through a flag is fine). A panic in `there` is resumed
/// on this thread.
pub fn both<H, T: Send>(here: impl FnOnce() -> H, there: impl FnOnce() -> T + Send) -> (H, T) {
    // Whichever thread runs `there` takes it from the slot: the other one, or this one after
    // `here` when the other could not be started.
    let slot = Mutex::new(Some(there));
    let run = || {
        let taken = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        taken.map(|there| there())
    };
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new().spawn_scoped(scope, run);
        let mine = here();
        let theirs = match other {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        };
        let theirs = match theirs {
            Some(theirs) => theirs,
            // `there` is still in the slot exactly when no thread took it.
            None => run().expect("`there` runs on one thread or the other"),
        };
        (mine, theirs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_results_come_back_in_order() {
        let (a, b) = both(|| 1 + 1, || "two".len());
        assert_eq!((a, b), (2, 3));
    }
}
