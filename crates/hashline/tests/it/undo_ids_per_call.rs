//! The undo id of a call travels with the call's own result: one [`Session`] shared by 8
//! threads, each making 200 edits of its own file, gets 1,600 distinct ids; every call the undo
//! log holds names the file of the thread that got its id, and undoing the newest puts back
//! exactly that thread's file. (The id once went through one slot per workspace, where threads
//! lost ids or took each other's.)

use std::collections::BTreeSet;
use std::sync::Arc;

use hashline::{Dialect, EditOptions, EngineConfig, Session};

const THREADS: usize = 8;
const EDITS: usize = 200;

fn version(n: usize) -> String {
    format!("value {n}\n")
}

/// A V4A patch that turns version `n` of `file` into version `n + 1`.
fn bump(file: &str, n: usize) -> String {
    format!(
        "*** Begin Patch\n*** Update File: {file}\n@@\n-{}+{}*** End Patch\n",
        version(n),
        version(n + 1)
    )
}

#[test]
fn eight_threads_each_get_their_own_undo_ids() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    for t in 0..THREADS {
        std::fs::write(root.path().join(format!("f{t}.txt")), version(0)).expect("write");
    }
    let config = EngineConfig::persistent(root.path(), state.path(), "threads");
    let session = Arc::new(Session::open(config).expect("session"));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let session = Arc::clone(&session);
            std::thread::spawn(move || {
                let file = format!("f{t}.txt");
                let mut ids = Vec::with_capacity(EDITS);
                for n in 0..EDITS {
                    let patch = bump(&file, n);
                    let done = session
                        .edit(&patch, Dialect::ApplyPatch, &EditOptions::new())
                        .unwrap_or_else(|r| panic!("{file} edit {n}: {r}"));
                    let id = done.undo();
                    assert_eq!(done.report()["undo"].as_u64(), id, "the same id in JSON");
                    ids.push(id.unwrap_or_else(|| panic!("{file} edit {n} lost its undo id")));
                }
                ids
            })
        })
        .collect();
    let ids: Vec<Vec<u64>> = workers
        .into_iter()
        .map(|w| w.join().expect("worker"))
        .collect();

    let distinct: BTreeSet<u64> = ids.iter().flatten().copied().collect();
    assert_eq!(distinct.len(), THREADS * EDITS, "an undo id was shared");
    for (t, own) in ids.iter().enumerate() {
        // A thread's ids grow: each was given when its own call committed.
        assert!(own.windows(2).all(|w| w[0] < w[1]), "thread {t}: {own:?}");
    }

    // Every call the undo log still holds (the newest 100) names the file of the thread that
    // got its id; undoing the newest puts back that thread's file, and no other.
    let owner = |id: u64| ids.iter().position(|own| own.contains(&id));
    let listed = session.undo_list().expect("the undo list");
    let mut newest = None;
    for line in listed.text().lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let id: u64 = fields[0].parse().expect("an undo id");
        let t = owner(id).unwrap_or_else(|| panic!("id {id} was given to no call"));
        assert!(
            fields[3].starts_with(&format!("f{t}.txt ")),
            "id {id} of thread {t} lists {line}"
        );
        newest = newest.max(Some((id, t)));
    }
    let (last, t) = newest.expect("the undo log holds calls");
    if let Err(refusal) = session.undo(Some(last)) {
        panic!("undo {last}: {refusal}");
    }
    for u in 0..THREADS {
        let text = std::fs::read_to_string(root.path().join(format!("f{u}.txt"))).expect("read");
        let expected = if u == t { EDITS - 1 } else { EDITS };
        assert_eq!(
            text,
            version(expected),
            "f{u}.txt after undoing call {last}"
        );
    }
}
