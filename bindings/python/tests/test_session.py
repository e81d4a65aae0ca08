"""A recorded agent session replayed through the binding: read, edit with the read's anchors,
a stale resend refused, a structural rewrite previewed and applied, then undone."""

from __future__ import annotations

from pathlib import Path

import pytest

import hashline
from hashline import HashlineError, Session

SOURCE = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"


def header(result: hashline.Result) -> str:
    first = result.text.splitlines()[0]
    assert first.startswith("¶"), result.text
    return first


def test_an_agent_session_replays(tree: Path, tmp_path: Path) -> None:
    (tree / "shapes.py").write_text(SOURCE)
    session = Session(tree, state=tmp_path / "state", session="agent")

    read = session.read("shapes.py")
    assert read.ok and read.code is None and bool(read)
    assert read.text.splitlines()[1] == "1:def area(w, h):"
    assert [f.op for f in read.files] == ["read"]

    patch = f"{header(read)}\nreplace 2..2:\n+    return float(w * h)\n"
    edit = session.edit(patch)
    assert edit.ok, edit.text
    assert edit.undo is not None
    assert edit.files[0].written and edit.files[0].op == "update"
    assert edit.anchors and edit.anchors[0].path == "shapes.py"
    assert any("return float(w * h)" in row for row in edit.anchors[0].rows)
    assert "    return float(w * h)\n" in (tree / "shapes.py").read_text()

    # The same patch again: line 2 changed since that read, so its anchor is stale.
    (tree / "shapes.py").write_text(SOURCE.replace("w * h", "h * w"))
    before = (tree / "shapes.py").read_bytes()
    stale = session.edit(patch)
    assert not stale.ok
    assert stale.code == "E_STALE_ANCHOR", stale.text
    assert stale.undo is None
    assert (tree / "shapes.py").read_bytes() == before

    preview = session.ast_edit([("2 * ($A + $B)", "2 * $A + 2 * $B")], ["shapes.py"])
    assert preview.ok, preview.text
    assert preview.preview is not None
    assert (tree / "shapes.py").read_bytes() == before, "a preview writes nothing"

    listed = session.resolve()
    assert listed.ok and str(preview.preview) in listed.text

    applied = session.resolve("apply", preview.preview)
    assert applied.ok, applied.text
    assert applied.undo is not None
    assert "return 2 * w + 2 * h" in (tree / "shapes.py").read_text()

    undone = session.undo(applied.undo)
    assert undone.ok, undone.text
    assert (tree / "shapes.py").read_bytes() == before


def test_a_session_in_memory_shares_nothing_with_another(tree: Path) -> None:
    (tree / "a.txt").write_text("one\ntwo\n")
    first = Session(tree)
    read = first.read("a.txt", offset=2, limit=1)
    assert read.text.endswith("\n2:two"), read.text
    second = Session(tree)
    wrote = second.write("a.txt", "new\n")
    assert not wrote.ok and wrote.code == "E_NOT_READ", wrote.text
    replaced = first.write("a.txt", b"bytes\n")
    assert replaced.ok, replaced.text
    assert (tree / "a.txt").read_bytes() == b"bytes\n"


def test_the_dialect_chooses_the_anchors_and_a_dict_is_a_json_request(tree: Path) -> None:
    (tree / "a.txt").write_text("x\n")
    session = Session(tree)
    read = session.read("a.txt", dialect="lineid-json")
    assert read.text.startswith("1#"), read.text
    edit = session.edit(
        {"filePath": "a.txt", "edits": [{"op": "append", "lines": ["y"]}]},
        "lineid-json",
    )
    assert edit.ok, edit.text
    assert (tree / "a.txt").read_text() == "x\ny\n"


def test_warnings_carry_their_codes(tree: Path) -> None:
    (tree / "a.py").write_text("def f():\n    return 1\n")
    session = Session(tree)
    read = session.read("a.py")
    # A row copied with its `N:` prefix into the content: the guard warns or refuses.
    edit = session.edit(f"{header(read)}\nreplace 2..2:\n+2:    return 2\n")
    coded = [w.code for w in edit.warnings] + ([edit.code] if edit.code else [])
    assert coded, edit.text
    assert all(c and c[:2] in ("W_", "E_") for c in coded), coded


def test_misuse_raises_one_error_with_a_code(tree: Path) -> None:
    session = Session(tree)
    with pytest.raises(HashlineError) as raised:
        session.edit("x", dialect="yaml")
    assert raised.value.code == "E_USAGE"
    assert "yaml" in str(raised.value)
    with pytest.raises(HashlineError) as raised:
        Session(tree / "missing")
    assert raised.value.code == "E_USAGE"
    with pytest.raises(HashlineError) as raised:
        session.resolve("redo")
    assert raised.value.code == "E_USAGE"
    with pytest.raises(HashlineError):
        session.edit(42)  # type: ignore[arg-type]
    # A refusal of the engine is a result, not an exception.
    missing = session.read("nope.txt")
    assert not missing.ok and missing.code is not None and missing.code.startswith("E_")
