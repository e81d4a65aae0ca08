"""A 10-line `read` through the binding and through the CLI binary, same run.

Usage: python read10.py PATH/TO/hashline [REPS]. Both read the same file with a state
directory (the CLI opens it per call, the session once); prints the median per call and the
ratio (issue 29: the binding's call at most a tenth of the CLI's).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hashline import Session


def main() -> None:
    binary = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        (root / "a.py").write_text("".join(f"line_{i} = {i}\n" for i in range(1, 11)))
        cli_state, py_state = Path(tmp) / "cli-state", Path(tmp) / "py-state"
        command = [binary, "--root", str(root), "--state", str(cli_state), "read", "a.py"]
        subprocess.run(command, check=True, capture_output=True)
        cli = []
        for _ in range(reps):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            cli.append(time.perf_counter() - start)
        session = Session(root, state=py_state)
        assert session.read("a.py").ok
        binding = []
        for _ in range(reps):
            start = time.perf_counter()
            result = session.read("a.py")
            binding.append(time.perf_counter() - start)
            assert result.ok
    c, b = statistics.median(cli), statistics.median(binding)
    print(f"read of a 10-line file, median of {reps}: CLI {c * 1e3:.3f} ms, binding {b * 1e3:.3f} ms, ratio {b / c:.3f}")


if __name__ == "__main__":
    main()
