//! The merge on its own (line map, carry, readings) and a proptest of its soundness; the attacks
//! on each dialect are in `attacks.rs`.

use hashline_core::{splice, Edit, EditKind, TextFile};

use super::*;

fn lines(text: &str) -> Vec<&str> {
    text.split('\n').collect()
}

fn edit(kind: EditKind) -> Edit {
    Edit {
        kind,
        rows: vec!["NEW".into()],
        origin: 0,
    }
}

fn carry_one(recorded: &str, disk: &str, kind: EditKind) -> Result<EditKind, Vec<Stale>> {
    let map = LineMap::new(&lines(recorded), &lines(disk));
    carry(&map, &[edit(kind)], &[]).map(|e| e[0].kind)
}

#[test]
fn unchanged_lines_move_with_the_disk() {
    let r = "a\nb\nc\n";
    let d = "new\na\nb\nc\n";
    let replace = EditKind::Replace { start: 2, end: 3 };
    assert_eq!(
        carry_one(r, d, replace),
        Ok(EditKind::Replace { start: 3, end: 4 })
    );
    assert_eq!(
        carry_one("a\nb\n", "z\na\nb\n", EditKind::InsertAfter(1)),
        Ok(EditKind::InsertAfter(2))
    );
    assert_eq!(
        carry_one(r, r, EditKind::InsertBefore(1)),
        Ok(EditKind::InsertBefore(1))
    );
    assert_eq!(carry_one(r, d, EditKind::Tail), Ok(EditKind::Tail));
    // A reversed range keeps its shape (the dialect refuses it in its own words).
    assert_eq!(
        carry_one(r, d, EditKind::Replace { start: 3, end: 2 }),
        Ok(EditKind::Replace { start: 4, end: 3 })
    );
}

#[test]
fn an_edit_that_touches_what_changed_is_stale() {
    // The replaced line changed.
    let err = carry_one(
        "a\nb\nc\n",
        "a\nB\nc\n",
        EditKind::Replace { start: 2, end: 2 },
    )
    .expect_err("changed line");
    assert_eq!((err[0].line, err[0].near), (2, 2));
    // A range split by an insertion.
    assert!(carry_one(
        "a\nb\n",
        "a\nX\nb\n",
        EditKind::Replace { start: 1, end: 2 }
    )
    .is_err());
    // A neighbour of the insert point changed, or lines were inserted at it.
    assert!(carry_one("a\nb\n", "a\nB\n", EditKind::InsertAfter(1)).is_err());
    assert!(carry_one("a\nb\n", "A\nb\n", EditKind::InsertBefore(2)).is_err());
    assert!(carry_one("a\nb\n", "a\nX\nb\n", EditKind::InsertAfter(1)).is_err());
    assert!(carry_one("a\nb", "X\na\nb", EditKind::InsertBefore(1)).is_err());
    assert!(carry_one("a\nb", "a\nb\nX", EditKind::InsertAfter(2)).is_err());
    // A wider footprint (a repair looked at line 3) that changed.
    let map = LineMap::new(&lines("a\nb\nc\n"), &lines("a\nb\nC\n"));
    let e = [edit(EditKind::Replace { start: 2, end: 2 })];
    assert!(carry(&map, &e, &[]).is_ok());
    assert!(carry(&map, &e, &[Footprint::Lines { lo: 2, hi: 3 }]).is_err());
}

/// The hashline attack: `a\nb\n` read, the disk became `a\nX\na\nb\n`. Line 1 has two
/// copies now; which one is the old line is not provable.
#[test]
fn a_line_whose_copies_changed_is_ambiguous() {
    let map = LineMap::new(&lines("a\nb\n"), &lines("a\nX\na\nb\n"));
    assert_eq!(map.image(1), None);
    assert_eq!(map.image(2), Some(4));
    assert!(carry_one(
        "a\nb\n",
        "a\nX\na\nb\n",
        EditKind::Replace { start: 1, end: 1 }
    )
    .is_err());
    // Which of two `  }` was replaced, or deleted, is a tie.
    let r = "a\n  }\n  }\nb\n";
    for d in ["a\n  }\nX\nb\n", "a\nX\n  }\nb\n", "a\n  }\nb\n"] {
        for l in [2, 3] {
            let kind = EditKind::Replace { start: l, end: l };
            assert!(carry_one(r, d, kind).is_err(), "{d:?} line {l}");
        }
    }
    // A copy of a block inserted next to it: every line it can slide over is ambiguous.
    let r = "x\n  }\n  y\n  }\nz\n";
    let d = "x\n  }\n  y\n  }\n  y\n  }\nz\n";
    for l in 2..=4 {
        let kind = EditKind::Replace { start: l, end: l };
        assert!(carry_one(r, d, kind).is_err(), "line {l}");
    }
    assert_eq!(
        carry_one(r, d, EditKind::Replace { start: 5, end: 5 }),
        Ok(EditKind::Replace { start: 7, end: 7 })
    );
}

#[test]
fn readings_must_agree() {
    let old = lines("k\nitem\nitem\n");
    let new = lines("x\nk\nitem\nitem\n");
    let e = [edit(EditKind::Replace { start: 2, end: 2 })];
    let reading = |l| Reading {
        lines: l,
        edits: &e,
        footprints: &[],
        optional: false,
    };
    // One reading: carried.
    let out = settle(&[reading(&old)], &new).expect("one reading");
    assert_eq!(out[0].kind, EditKind::Replace { start: 3, end: 3 });
    // The same numbers read on the disk land elsewhere: refused.
    match settle(&[reading(&old), reading(&new)], &new) {
        Err(Unsettled::Differ {
            reading,
            edit,
            lines,
        }) => {
            assert_eq!((reading, edit), (1, Some(0)));
            assert_eq!(lines, (vec![3], vec![2]));
        }
        other => panic!("{other:?}"),
    }
    // Two readings that name different lines give different texts…
    let same = lines("k\nitem\nitem\n");
    let e4 = [edit(EditKind::Replace { start: 2, end: 2 })];
    let e5 = [edit(EditKind::Replace { start: 3, end: 3 })];
    let a = Reading {
        lines: &same,
        edits: &e4,
        footprints: &[],
        optional: false,
    };
    let b = Reading {
        lines: &same,
        edits: &e5,
        footprints: &[],
        optional: false,
    };
    assert!(matches!(
        settle(&[a, b], &same),
        Err(Unsettled::Differ { .. })
    ));
    // …unless both land on the same boundary.
    let twice = lines("k\nitem\n");
    let ins = [edit(EditKind::InsertAfter(1))];
    let ins2 = [edit(EditKind::InsertBefore(2))];
    let a = Reading {
        lines: &twice,
        edits: &ins,
        footprints: &[],
        optional: false,
    };
    let b = Reading {
        lines: &twice,
        edits: &ins2,
        footprints: &[],
        optional: false,
    };
    assert!(settle(&[a, b], &twice).is_ok(), "same text, same result");
    // A reading that cannot be carried is reported as such.
    let gone = lines("x\nitem\n");
    assert!(matches!(
        settle(&[reading(&old)], &gone),
        Err(Unsettled::Stale { reading: 0, .. })
    ));
    // An older view whose lines did not survive is dropped when optional, refuses when not.
    let older = |optional| Reading {
        optional,
        ..reading(&old)
    };
    let out = settle(&[reading(&gone), older(true)], &gone).expect("dropped");
    assert_eq!(out[0].kind, EditKind::Replace { start: 2, end: 2 });
    assert!(matches!(
        settle(&[reading(&gone), older(false)], &gone),
        Err(Unsettled::Stale { reading: 1, .. })
    ));
}

proptest::proptest! {
    /// Random edit, random disk change: the merge refuses, or its result is the edit applied to
    /// the recorded text with the disk change replayed — whenever the two do not touch.
    #[test]
    fn merge_is_sound(
        words in proptest::collection::vec(0u8..4, 1..24),
        kind in 0u8..3,
        at in 0usize..24,
        len in 0usize..3,
        change_at in 0usize..25,
        deleted in 0usize..3,
        inserted in proptest::collection::vec(0u8..5, 0..4),
    ) {
        let vocab = ["a", "}", "", "b", "x"];
        let recorded: Vec<&str> = words.iter().map(|w| vocab[*w as usize]).collect();
        let n = recorded.len();
        let at = at % n;
        let kind = match kind {
            0 => EditKind::Replace { start: at + 1, end: (at + 1 + len).min(n) },
            1 => EditKind::InsertAfter(at + 1),
            _ => EditKind::InsertBefore(at + 1),
        };
        // The change: `deleted` lines at 0-based `p` replaced by `inserted`.
        let p = change_at % (n + 1);
        let d = deleted.min(n - p);
        let ins: Vec<&str> = inserted.iter().map(|w| vocab[*w as usize]).collect();
        if d == 0 && ins.is_empty() {
            return Ok(());
        }
        let mut disk = recorded.clone();
        disk.splice(p..p + d, ins.iter().copied());
        // The footprint as 0-based lines [a, b] (a boundary: the two lines around it).
        let (a, b) = match kind {
            EditKind::Replace { start, end } => (start as isize - 1, end as isize - 1),
            EditKind::InsertAfter(l) => (l as isize - 1, l as isize),
            EditKind::InsertBefore(l) => (l as isize - 2, l as isize - 1),
            _ => return Ok(()),
        };
        let (pi, di) = (p as isize, d as isize);
        let touches = (pi < b + 1 && pi + di > a) || (a < pi && pi <= b);
        let e = Edit { kind, rows: vec!["NEW".into()], origin: 0 };
        let map = LineMap::new(&recorded, &disk);
        let Ok(carried) = carry(&map, std::slice::from_ref(&e), &[]) else {
            return Ok(());
        };
        if touches {
            // The diff may explain the change another way that leaves the footprint alone; no
            // single expected result then.
            return Ok(());
        }
        let shift = |l: usize| if l > p + d { l + ins.len() - d } else { l };
        let expected_kind = match kind {
            EditKind::Replace { start, end } => EditKind::Replace { start: shift(start), end: shift(end) },
            EditKind::InsertAfter(l) => EditKind::InsertAfter(shift(l)),
            EditKind::InsertBefore(l) => EditKind::InsertBefore(shift(l)),
            k => k,
        };
        let expected = Edit { kind: expected_kind, ..e };
        let file = TextFile::from_text(&disk.join("\n"));
        let want = splice(&disk, &[expected]).map(|o| file.render_text(&o));
        let got = splice(&disk, &carried).map(|o| file.render_text(&o));
        proptest::prop_assert_eq!(got, want, "{:?} → {:?}, {:?}", recorded, disk, kind);
    }
}
