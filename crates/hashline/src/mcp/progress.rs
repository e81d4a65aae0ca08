//! `notifications/progress` while `ast_edit` parses files, when the client sent a
//! `_meta.progressToken` with the call (MCP 2025-11-25, "Progress"). The engine reports from
//! its blocking thread; the notifications go out from the runtime, at most one per percent.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use rmcp::RoleServer;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// The engine's `progress(done, total)` calls, thinned to at most about 100 per call.
pub(crate) struct Throttle {
    sender: Option<UnboundedSender<(usize, usize)>>,
    last: std::sync::atomic::AtomicUsize,
}

impl Throttle {
    /// A throttle sending to `sender` (nothing when `None`).
    pub(crate) fn new(sender: Option<UnboundedSender<(usize, usize)>>) -> Throttle {
        Throttle {
            sender,
            last: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Send `(done, total)` when it is the end or at least a percent past the last one sent.
    pub(crate) fn send(&self, done: usize, total: usize) {
        let Some(sender) = &self.sender else { return };
        let step = (total / 100).max(1);
        let last = self.last.load(std::sync::atomic::Ordering::Relaxed);
        if done == total || done >= last + step {
            self.last.store(done, std::sync::atomic::Ordering::Relaxed);
            let _ = sender.send((done, total));
        }
    }
}

/// Forward every `(done, total)` from `receiver` to `peer` as a progress notification for
/// `token`, until the sender is dropped. A client gone away ends nothing else.
pub(crate) async fn forward(
    peer: Peer<RoleServer>,
    token: ProgressToken,
    mut receiver: UnboundedReceiver<(usize, usize)>,
) {
    let mut last = None;
    while let Some((done, total)) = receiver.recv().await {
        if last.is_some_and(|l| done <= l) {
            continue;
        }
        last = Some(done);
        let param = ProgressNotificationParam::new(token.clone(), done as f64)
            .with_total(total as f64)
            .with_message(format!("ast_edit: {done} of {total} files parsed"));
        if peer.notify_progress(param).await.is_err() {
            break;
        }
    }
}
