"""A few cases of two dialects' conformance corpora (`../shared/conformance`), through the
binding: the hashline language and the V4A apply-patch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hashline import Session

HASHLINE = [
    "002-bare-numeric-range-rejected",
    "003-canonical-replace-range",
    "005-canonical-insert-before",
    "006-canonical-insert-after",
    "007-canonical-insert-head",
    "008-canonical-insert-tail",
]

APPLY_PATCH = [
    "001-scenario-001_add_file",
    "002-scenario-002_multiple_operations",
    "004-scenario-004_move_to_new_directory",
    "005-scenario-005_rejects_empty_patch",
    "007-scenario-007_rejects_missing_file_delete",
]


@pytest.mark.parametrize("name", HASHLINE)
def test_hashline_case(name: str, conformance: Path, tree: Path) -> None:
    case = conformance / "hashline" / "cases" / name
    meta = json.loads((case / "meta.json").read_text())
    assert meta["kind"] == "apply" and meta["tag"] == "live", meta
    path = meta["path"]
    before = (case / "before.txt").read_bytes()
    (tree / path).write_bytes(before)
    session = Session(tree)
    read = session.read(path)
    tag = read.text.splitlines()[0].rsplit("#", 1)[1]
    patch = (case / "patch.txt").read_text().replace("{TAG}", tag)
    result = session.edit(patch, "hashline")
    expect = meta["expect"]
    if "after" in expect:
        assert result.ok, result.text
        assert (tree / path).read_bytes() == (case / expect["after"]).read_bytes()
    else:
        assert not result.ok and result.code, result.text
        for needle in expect["error_substrings"]:
            assert needle in result.text
        assert (tree / path).read_bytes() == before


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("name", APPLY_PATCH)
def test_apply_patch_case(name: str, conformance: Path, tree: Path) -> None:
    case = conformance / "apply-patch" / "cases" / name
    # Copied without the modes: the shared data is read-only, and so would the copies be.
    for source in sorted((case / "input").rglob("*")):
        target = tree / source.relative_to(case / "input")
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    oracle = json.loads((case / "result.json").read_text())
    before = snapshot(tree)
    result = Session(tree).edit((case / "patch.txt").read_text(), "apply-patch")
    for key in ("stdout", "stderr"):
        oracle[key] = oracle[key].replace("{ROOT}", str(tree))
    if oracle["exit"] == 0:
        assert result.ok, result.text
        assert result.text.rstrip("\n") == oracle["stdout"].rstrip("\n")
        expected = case / "expected"
        assert snapshot(tree) == (snapshot(expected) if expected.is_dir() else {})
    else:
        assert not result.ok and result.code, result.text
        assert result.text.rstrip("\n") == oracle["stderr"].rstrip("\n")
        assert snapshot(tree) == before
