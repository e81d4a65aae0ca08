"""The README's Python example runs as shown, in a scratch directory."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"


def example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use it from Python", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "the README's Python section has no example"
    return found.group(1)


def test_the_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = example()
    assert len(code.strip().splitlines()) <= 12
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    first, second = out.getvalue().splitlines()
    assert first.startswith("True "), first
    assert second == "False E_STALE_ANCHOR", second
    assert (tmp_path / "demo" / "a.py").read_text() == "def f():\n    return 2\n"
    assert os.getcwd() == str(tmp_path)
