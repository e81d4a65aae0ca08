"""hashline: read files with anchors and apply small anchored edits exactly, or refuse them.

An agent holds one :class:`Session` per tree. Every call returns a :class:`Result`: a refusal
of the engine (a stale anchor, a suspected model mistake) is ``ok=False`` with its stable
``code`` and a text saying what to do next, and nothing is written. Misuse of the API (an
unknown dialect, a root that cannot be opened) raises :class:`HashlineError` with a ``code``.
The engine runs with the GIL released. :mod:`hashline.tools` gives the same tools as the MCP
server in OpenAI's and Anthropic's function-calling formats.
"""

from ._hashline import (
    Anchors,
    File,
    HashlineError,
    Result,
    Session,
    Warning,
    __version__,
)

__all__ = [
    "Anchors",
    "File",
    "HashlineError",
    "Result",
    "Session",
    "Warning",
    "__version__",
]
