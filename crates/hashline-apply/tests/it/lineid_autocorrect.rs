//! The autocorrect fixtures of `tests/data/lineid/autocorrect/` (see its README): each runs one
//! `lineid_json::edit` call and checks the file, the result text and the exact warnings.

use std::fs;
use std::path::{Path, PathBuf};

use hashline_apply::fs::Workspace;
use hashline_apply::lineid_json::{edit, EditOptions};
use hashline_state::MemoryStore;

fn run(case: &Path) -> Result<(), String> {
    let read = |name: &str| fs::read(case.join(name)).ok();
    let text = |name: &str| read(name).map(|b| String::from_utf8_lossy(&b).into_owned());
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let target = dir.path().join("file.txt");
    let before = read("before.txt").ok_or("no before.txt")?;
    fs::write(&target, &before).map_err(|e| e.to_string())?;
    let ws = Workspace::new(dir.path()).map_err(|e| e.to_string())?;
    let store = MemoryStore::new();
    let out = edit(
        &ws,
        &store,
        &text("request.json").ok_or("no request.json")?,
        &EditOptions::default(),
    );
    let on_disk = fs::read(&target).map_err(|e| e.to_string())?;
    if let Some(error) = text("error.txt") {
        if out.ok || out.text != error {
            return Err(format!(
                "expected error {error:?}, got (ok={}) {:?}",
                out.ok, out.text
            ));
        }
        if on_disk != before {
            return Err("file changed by a refused call".into());
        }
    } else {
        let result = text("result.txt").ok_or("no result.txt")?;
        if !out.ok || out.text != result {
            return Err(format!(
                "expected {result:?}, got (ok={}) {:?}",
                out.ok, out.text
            ));
        }
        let after = read("after.txt").ok_or("no after.txt")?;
        if on_disk != after {
            return Err(format!(
                "file differs:\n  expected {:?}\n  got      {:?}",
                String::from_utf8_lossy(&after),
                String::from_utf8_lossy(&on_disk)
            ));
        }
    }
    let expected: Vec<String> = text("warnings.txt")
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    if out.warnings != expected {
        return Err(format!(
            "warnings differ:\n  expected {expected:?}\n  got      {:?}",
            out.warnings
        ));
    }
    Ok(())
}

#[test]
fn autocorrect_fixtures() {
    let root = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/lineid/autocorrect"
    ));
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let names: Vec<String> = cases
        .iter()
        .map(|c| c.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    for kind in [
        "merged-expand",
        "indent-restore",
        "prefix-strip",
        "diff-marker",
        "boundary-echo",
        "bom-crlf",
    ] {
        for side in ["helps", "declines"] {
            let want = format!("{kind}-{side}");
            assert!(names.contains(&want), "missing fixture {want}");
        }
    }
    let failures: Vec<String> = cases
        .iter()
        .zip(&names)
        .filter_map(|(c, n)| run(c).err().map(|e| format!("{n}: {e}")))
        .collect();
    println!(
        "lineid autocorrect fixtures: {} passed, {} failed",
        cases.len() - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
