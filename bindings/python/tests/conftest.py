"""Shared fixtures: a scratch tree per test and the conformance data beside the clone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """An empty project root."""
    root = tmp_path / "root"
    root.mkdir()
    return root


def conformance_dir() -> Path:
    """`../shared/conformance` beside the clone (or `$HASHLINE_SHARED/conformance`)."""
    env = os.environ.get("HASHLINE_SHARED")
    if env:
        return Path(env) / "conformance"
    repo = Path(__file__).resolve().parents[3]
    return repo.parent / "shared" / "conformance"


@pytest.fixture
def conformance() -> Path:
    """The conformance corpus; without it the test is skipped, or fails under `CI`."""
    path = conformance_dir()
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the conformance data is missing: {path}")
        pytest.skip(f"the conformance data is missing: {path}")
    return path
