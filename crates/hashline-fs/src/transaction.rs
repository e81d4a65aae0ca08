//! [`Transaction`]: the changes of one request, validated together and landed all or nothing.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::attrs::Attrs;
use super::content::Content;
use super::disk::Written;
use super::stage::{self, Existing, Found, Op};
use super::workspace::{Target, Workspace};
use super::FsError;

/// One requested change.
#[derive(Debug)]
enum Change<'a> {
    Write {
        target: Target,
        expected: Option<Cow<'a, [u8]>>,
        bytes: Content<'a>,
        /// Permission bits to give the file (`None`: keep the old file's, or the default).
        mode: Option<u32>,
    },
    Delete {
        target: Target,
        expected: Cow<'a, [u8]>,
    },
    Rename {
        from: Target,
        expected: Cow<'a, [u8]>,
        to: Target,
        bytes: Content<'a>,
        overwrite: bool,
    },
}

/// Several file changes that land all or nothing.
///
/// `commit` first validates every change against the disk (the bytes each caller read must
/// still be there; a create or non-overwriting rename needs a free destination), then stages a
/// temp file per written file (`.hashline-*.tmp` beside its target, flushed to disk), then
/// moves them into place. Any failure undoes what was already done and removes every temp.
#[derive(Debug, Default)]
pub struct Transaction<'a> {
    changes: Vec<Change<'a>>,
    /// Not recorded in the workspace's undo log (an undo itself).
    unlogged: bool,
}

impl<'a> Transaction<'a> {
    /// An empty transaction.
    pub fn new() -> Transaction<'a> {
        Transaction::default()
    }

    /// An empty transaction that the undo log does not record (what `undo` commits).
    pub fn unlogged() -> Transaction<'a> {
        Transaction {
            unlogged: true,
            ..Transaction::default()
        }
    }

    /// Like [`Transaction::write`], giving the file permission bits `mode` when set.
    pub fn restore(
        &mut self,
        target: &Target,
        expected: Option<impl Into<Cow<'a, [u8]>>>,
        bytes: impl Into<Content<'a>>,
        mode: Option<u32>,
    ) {
        self.changes.push(Change::Write {
            target: target.clone(),
            expected: expected.map(Into::into),
            bytes: bytes.into(),
            mode,
        });
    }

    /// Create or replace `target` with `bytes`. `expected` = the bytes the caller read (`None`
    /// = must not exist: [`Transaction::create`] says so without naming a type); commit
    /// refuses with [`FsError::Changed`] if the file differs now ([`FsError::Exists`] when it
    /// was expected not to exist). Contents are lent or given (`&[u8]`, `Vec<u8>`, `Cow`; the
    /// new ones also as [`hashline_core::Pieces`]): nothing is copied.
    pub fn write(
        &mut self,
        target: &Target,
        expected: Option<impl Into<Cow<'a, [u8]>>>,
        bytes: impl Into<Content<'a>>,
    ) {
        self.restore(target, expected, bytes, None);
    }

    /// Create `target` with `bytes`; commit refuses with [`FsError::Exists`] if it exists.
    pub fn create(&mut self, target: &Target, bytes: impl Into<Content<'a>>) {
        self.restore(target, None::<&[u8]>, bytes, None);
    }

    /// Delete `target` (expected = the bytes the caller read).
    pub fn delete(&mut self, target: &Target, expected: impl Into<Cow<'a, [u8]>>) {
        self.changes.push(Change::Delete {
            target: target.clone(),
            expected: expected.into(),
        });
    }

    /// Move `from` to `to` writing `bytes` at `to`; refuses if `to` exists unless `overwrite`.
    /// The new file takes `from`'s permissions (and owner).
    pub fn rename(
        &mut self,
        from: &Target,
        expected: impl Into<Cow<'a, [u8]>>,
        to: &Target,
        bytes: impl Into<Content<'a>>,
        overwrite: bool,
    ) {
        self.changes.push(Change::Rename {
            from: from.clone(),
            expected: expected.into(),
            to: to.clone(),
            bytes: bytes.into(),
            overwrite,
        });
    }

    /// True when no change was added.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many changes were added.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// Validate every change, stage every temp file, then rename into place; on any failure,
    /// restore what was already replaced and remove every temp file. Keeps permissions, writes
    /// through symlinks (Target.real), rewrites hard-linked files in place (nlink > 1) so every
    /// link sees the change. No temp file is ever left behind.
    ///
    /// The caller should hold [`Workspace::lock`] on every target from its read to here.
    ///
    /// When the workspace has an undo log (and this is not [`Transaction::unlogged`]), the
    /// call's old bytes are kept there, and the returned [`Written`] carries its undo id.
    pub fn commit(self, ws: &Workspace) -> Result<Written, FsError> {
        let log = if self.unlogged {
            None
        } else {
            ws.undo.as_ref()
        };
        let ops = self.validate(ws)?;
        stage::run(ws.root(), &ws.journal_dir(), ops, log)
    }

    /// Checks every change against the disk and turns it into low-level operations.
    fn validate(self, ws: &Workspace) -> Result<Vec<Op<'a>>, FsError> {
        let mut seen: HashSet<&Path> = HashSet::new();
        for change in &self.changes {
            let targets: Vec<&Target> = match change {
                Change::Write { target, .. } | Change::Delete { target, .. } => vec![target],
                Change::Rename { from, to, .. } if from.real == to.real => vec![from],
                Change::Rename { from, to, .. } => vec![from, to],
            };
            for target in targets {
                if !target.real.starts_with(ws.root()) {
                    return Err(FsError::OutsideRoot {
                        path: target.display.clone(),
                    });
                }
                if !seen.insert(&target.real) {
                    return Err(FsError::Duplicate {
                        path: target.display.clone(),
                    });
                }
            }
        }
        drop(seen);

        let mut ops = Vec::with_capacity(self.changes.len() + 1);
        for change in self.changes {
            match change {
                Change::Write {
                    target,
                    expected: None,
                    bytes,
                    mode,
                } => {
                    if Existing::inspect(ws.root(), &target)?.is_some() {
                        return Err(FsError::Exists {
                            path: target.display,
                        });
                    }
                    stage::check_parent(&target)?;
                    ops.push(Op::create(target, bytes, mode.map(Attrs::from_mode)));
                }
                Change::Write {
                    target,
                    expected: Some(expected),
                    bytes,
                    mode,
                } => {
                    // Compared while read: the file's bytes are the caller's, never a copy.
                    let mut current = match Existing::holding(ws.root(), &target, expected)? {
                        Found::Missing => {
                            return Err(FsError::NotFound {
                                path: target.display,
                            })
                        }
                        Found::Differs => {
                            return Err(FsError::Changed {
                                path: target.display,
                            })
                        }
                        Found::Holds(current) => current,
                    };
                    writable(&target, &current)?;
                    if let Some(mode) = mode {
                        current.attrs = current.attrs.clone().with_mode(mode);
                    }
                    ops.push(Op::replace(target, bytes, current));
                }
                Change::Delete { target, expected } => {
                    let current = expect_bytes(ws.root(), &target, expected)?;
                    ops.push(Op::remove(target, current));
                }
                Change::Rename {
                    from,
                    expected,
                    to,
                    bytes,
                    overwrite,
                } => {
                    let source = expect_bytes(ws.root(), &from, expected)?;
                    if from.real == to.real {
                        // A rename onto itself is a rewrite.
                        ops.push(Op::replace(from, bytes, source));
                        continue;
                    }
                    let attrs = Some(source.attrs.clone());
                    match Existing::inspect(ws.root(), &to)? {
                        Some(_) if !overwrite => return Err(FsError::Exists { path: to.display }),
                        Some(old) => {
                            writable(&to, &old)?;
                            ops.push(Op::overwrite(to, bytes, old, attrs));
                        }
                        None => {
                            stage::check_parent(&to)?;
                            ops.push(Op::create(to, bytes, attrs));
                        }
                    }
                    ops.push(Op::remove(from, source));
                }
            }
        }
        same_file_check(&ops)?;
        Ok(ops)
    }
}

/// The current state of `target`, which must exist and hold exactly `expected`.
fn expect_bytes<'a>(
    root: &Path,
    target: &Target,
    expected: Cow<'a, [u8]>,
) -> Result<Existing<'a>, FsError> {
    match Existing::holding(root, target, expected)? {
        Found::Missing => Err(FsError::NotFound {
            path: target.display.clone(),
        }),
        Found::Differs => Err(FsError::Changed {
            path: target.display.clone(),
        }),
        Found::Holds(current) => writable(target, &current).map(|()| current),
    }
}

/// Refuses a change to a file nobody may write ([`FsError::ReadOnly`]).
fn writable(target: &Target, current: &Existing) -> Result<(), FsError> {
    if current.read_only {
        Err(FsError::ReadOnly {
            path: target.display.clone(),
        })
    } else {
        Ok(())
    }
}

/// Refuses two operations on one file (device and inode) under different names: hard links of
/// one file, or names that resolved apart but reach one inode.
fn same_file_check(ops: &[Op]) -> Result<(), FsError> {
    let mut seen: HashMap<(u64, u64), &Target> = HashMap::new();
    for op in ops {
        let (target, old) = op.parts();
        let Some(old) = old else { continue };
        if let Some(first) = seen.insert(old.identity(), target) {
            return Err(FsError::SameFile {
                path: target.display.clone(),
                other: first.display.clone(),
            });
        }
    }
    Ok(())
}
