//! `Workspace::lock`: exclusive, serializing, per open file description, deadlock-free.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use hashline_fs::{Workspace, LOCK_SLOTS};

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("root")).expect("mkdir");
    let ws = Workspace::new(dir.path().join("root"))
        .expect("workspace")
        .with_lock_dir(dir.path().join("locks"));
    (dir, ws)
}

#[test]
fn threads_locking_one_target_serialize() {
    let (_dir, ws) = workspace();
    let ws = Arc::new(ws);
    let inside = Arc::new(AtomicUsize::new(0));
    let overlaps = Arc::new(AtomicUsize::new(0));
    let entered = Arc::new(AtomicUsize::new(0));
    let start = Arc::new(Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (ws, inside, overlaps, entered, start) = (
                Arc::clone(&ws),
                Arc::clone(&inside),
                Arc::clone(&overlaps),
                Arc::clone(&entered),
                Arc::clone(&start),
            );
            std::thread::spawn(move || {
                // Each thread resolves on its own and opens its own lock file handle.
                let target = ws.resolve("f.txt").expect("resolve");
                start.wait();
                for _ in 0..5 {
                    let guard = ws.lock(&[&target]).expect("lock");
                    assert_eq!(guard.len(), 1);
                    if inside.fetch_add(1, Ordering::SeqCst) != 0 {
                        overlaps.fetch_add(1, Ordering::SeqCst);
                    }
                    entered.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    inside.fetch_sub(1, Ordering::SeqCst);
                    drop(guard);
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("thread");
    }
    assert_eq!(entered.load(Ordering::SeqCst), 20);
    assert_eq!(overlaps.load(Ordering::SeqCst), 0, "two holders at once");
}

#[test]
fn second_handle_waits_until_guard_drops() {
    let (_dir, ws) = workspace();
    let ws = Arc::new(ws);
    let target = ws.resolve("g.txt").expect("resolve");
    let guard = ws.lock(&[&target]).expect("lock");
    let acquired = Arc::new(AtomicUsize::new(0));
    let waiter = {
        let (ws, target, acquired) = (Arc::clone(&ws), target.clone(), Arc::clone(&acquired));
        std::thread::spawn(move || {
            let _second = ws.lock(&[&target]).expect("lock");
            acquired.store(1, Ordering::SeqCst);
        })
    };
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(acquired.load(Ordering::SeqCst), 0, "lock was not exclusive");
    drop(guard);
    waiter.join().expect("waiter");
    assert_eq!(acquired.load(Ordering::SeqCst), 1);
}

#[test]
fn duplicate_and_reordered_targets_do_not_deadlock() {
    let (_dir, ws) = workspace();
    let a = ws.resolve("a.txt").expect("resolve");
    let b = ws.resolve("b.txt").expect("resolve");
    let same_a = ws.resolve("./a.txt").expect("resolve");
    let guard = ws.lock(&[&a, &same_a]).expect("lock");
    assert_eq!(guard.len(), 1, "one lock per distinct target");
    drop(guard);
    // Two targets: their two slots, or one when they share it.
    let guard = ws.lock(&[&b, &a, &same_a]).expect("lock");
    assert!((1..=2).contains(&guard.len()), "{}", guard.len());
    drop(guard);
    // Opposite orders from two threads, many times: sorted acquisition never deadlocks.
    let ws = Arc::new(ws);
    let threads: Vec<_> = (0..2)
        .map(|i| {
            let (ws, a, b) = (Arc::clone(&ws), a.clone(), b.clone());
            std::thread::spawn(move || {
                for _ in 0..50 {
                    let targets = if i == 0 { [&a, &b] } else { [&b, &a] };
                    let _guard = ws.lock(&targets).expect("lock");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("thread");
    }
    assert!(ws.lock(&[]).expect("empty").is_empty());
}

/// Another process: this test binary re-run on one test that tries the lock without waiting.
#[test]
fn lock_excludes_another_process() {
    if let Ok(path) = std::env::var("HASHLINE_FS_LOCK_CHILD") {
        // Child: report whether the lock file is free right now.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .expect("open lock file");
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => println!("CHILD-LOCKED"),
            Err(_) => println!("CHILD-BLOCKED"),
        }
        return;
    }
    let (dir, ws) = workspace();
    let target = ws.resolve("p.txt").expect("resolve");
    let guard = ws.lock(&[&target]).expect("lock");
    let lock_file = std::fs::read_dir(dir.path().join("locks"))
        .expect("lock dir")
        .map(|entry| entry.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "lock"))
        .expect("a lock file exists");
    let run_child = || {
        let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args(["lock_excludes_another_process", "--exact", "--nocapture"])
            .env("HASHLINE_FS_LOCK_CHILD", &lock_file)
            .output()
            .expect("spawn child");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        run_child().contains("CHILD-BLOCKED"),
        "child got the lock we hold"
    );
    drop(guard);
    assert!(
        run_child().contains("CHILD-LOCKED"),
        "child could not lock after release"
    );
}

#[cfg(unix)]
#[test]
fn hard_links_of_one_file_share_a_lock() {
    let (dir, ws) = workspace();
    let root = dir.path().join("root");
    std::fs::write(root.join("a.txt"), "x\n").expect("write");
    std::fs::hard_link(root.join("a.txt"), root.join("b.txt")).expect("hard link");
    std::fs::write(root.join("solo.txt"), "y\n").expect("write");
    let a = ws.resolve("a.txt").expect("resolve");
    let b = ws.resolve("b.txt").expect("resolve");
    let solo = ws.resolve("solo.txt").expect("resolve");
    assert_ne!(a.key, b.key, "two names, two path locks");

    // A file with one link is replaced by a rename: its reader needs no lock.
    assert!(ws.lock_for_read(&solo).expect("lock").is_none());
    assert_eq!(ws.lock(&[&solo]).expect("lock").len(), 1);

    // Through either name, a hard-linked file also takes the lock of its inode.
    let guard = ws.lock(&[&a]).expect("lock");
    assert_eq!(guard.len(), 2, "the path's lock and the inode's");
    let inode_locks: Vec<_> = std::fs::read_dir(dir.path().join("locks"))
        .expect("lock dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("hashline-inode-"))
        .collect();
    assert_eq!(inode_locks.len(), 1, "{inode_locks:?}");
    let other = std::fs::File::open(&inode_locks[0]).expect("open lock file");
    assert!(
        fs4::FileExt::try_lock(&other).is_err(),
        "the inode lock is held while a.txt is locked"
    );
    drop(guard);
    fs4::FileExt::try_lock(&other).expect("free once the guard drops");
    fs4::FileExt::unlock(&other).expect("unlock");
    // The inode's lock file is removed by its holder: one per hard-linked file would pile up.
    assert!(!inode_locks[0].exists(), "the inode lock file is removed");

    // b.txt's lock set names the same inode lock, and a read of it takes it.
    let read_guard = ws.lock_for_read(&b).expect("lock").expect("hard-linked");
    assert_eq!(read_guard.len(), 2);
    let fresh = std::fs::File::open(&inode_locks[0]).expect("made again");
    assert!(fs4::FileExt::try_lock(&fresh).is_err());
    // A handle opened on the file its holder unlinks is no lock: whoever takes it next
    // finds the path gone and takes the file at the path instead.
    let stale = std::fs::File::open(&inode_locks[0]).expect("open");
    drop(read_guard);
    assert!(!inode_locks[0].exists());
    let again = ws.lock(&[&a]).expect("lock");
    let current = std::fs::File::open(&inode_locks[0]).expect("made again");
    assert!(fs4::FileExt::try_lock(&current).is_err());
    fs4::FileExt::try_lock(&stale).expect("the old inode is nobody's lock");
    drop(again);
}

#[test]
fn many_targets_share_a_bounded_set_of_lock_files_without_deadlock() {
    let (dir, ws) = workspace();
    let names: Vec<String> = (0..600).map(|i| format!("f{i}.txt")).collect();
    let targets: Vec<_> = names
        .iter()
        .map(|n| ws.resolve(n).expect("resolve"))
        .collect();
    let refs: Vec<_> = targets.iter().collect();
    let guard = ws.lock(&refs).expect("lock");
    assert!(guard.len() <= LOCK_SLOTS as usize, "{}", guard.len());
    assert!(
        guard.len() > 100,
        "600 names spread over the slots: {}",
        guard.len()
    );
    drop(guard);
    let files = std::fs::read_dir(dir.path().join("locks"))
        .expect("locks")
        .count();
    assert!(files <= LOCK_SLOTS as usize, "{files} lock files");
    // Overlapping sets in opposite orders from several threads: sorted slots never deadlock.
    let ws = Arc::new(ws);
    let targets = Arc::new(targets);
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let (ws, targets) = (Arc::clone(&ws), Arc::clone(&targets));
            std::thread::spawn(move || {
                for round in 0..20 {
                    let mut set: Vec<_> = targets
                        .iter()
                        .skip((i * 37 + round) % 50)
                        .step_by(7)
                        .collect();
                    if i % 2 == 1 {
                        set.reverse();
                    }
                    let _guard = ws.lock(&set).expect("lock");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread");
    }
}
