"""The engine runs with the GIL released: Python threads run while a call works, and two
threads edit two files of one session at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from hashline import Session


def test_two_threads_edit_two_files_at_once(tree: Path) -> None:
    session = Session(tree)
    for name in ("a.txt", "b.txt"):
        (tree / name).write_text("".join(f"{name} {i}\n" for i in range(1, 201)))
    errors: list[str] = []

    def work(name: str) -> None:
        for i in range(1, 41):
            read = session.read(name, offset=i, limit=1)
            head = read.text.splitlines()[0]
            result = session.edit(f"{head}\nreplace {i}..{i}:\n+{name} edited {i}\n")
            if not result.ok:
                errors.append(result.text)

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a.txt", "b.txt")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for name in ("a.txt", "b.txt"):
        lines = (tree / name).read_text().splitlines()
        assert lines[:40] == [f"{name} edited {i}" for i in range(1, 41)]
        assert lines[40] == f"{name} 41"


def test_python_threads_run_during_a_call(tree: Path) -> None:
    """A counting thread keeps ticking while a slow call works: held, the GIL would stop it
    for the whole call."""
    rows = "".join(f"value_{i} = compute({i}, {i + 1})\n" for i in range(60_000))
    (tree / "big.py").write_text(rows)
    session = Session(tree)
    ticks: list[float] = []
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    start = time.perf_counter()
    result = session.ast_edit([("compute($A, $B)", "compute($B, $A)")], ["big.py"])
    end = time.perf_counter()
    stop.set()
    counter.join()
    assert result.ok, result.text
    during = [t for t in ticks if start <= t <= end]
    took = end - start
    assert took > 0.2, f"the call took {took:.3f}s: too quick to tell"
    # Ticks all along the call: the longest pause is a small part of it.
    gaps = [b - a for a, b in zip([start] + during, during + [end])]
    assert max(gaps) < took / 3, (max(gaps), took, len(during))
