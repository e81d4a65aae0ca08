"""Type stubs of the native module (re-exported by ``hashline``)."""

import os
from typing import List, Mapping, Optional, Sequence, Tuple, Union, Any

__version__: str

class HashlineError(Exception):
    """Misuse of the API; ``code`` is a stable ``E_…`` code (``docs/ERRORS.md``)."""

    code: str

class Warning:
    """One warning: its ``W_…`` code (``None`` for an uncoded line) and its whole text."""

    @property
    def code(self) -> Optional[str]: ...
    @property
    def text(self) -> str: ...

class File:
    """What happened to one file."""

    @property
    def path(self) -> str: ...
    @property
    def new_path(self) -> Optional[str]: ...
    @property
    def op(self) -> str:
        """``read``, ``create``, ``update``, ``noop``, ``delete`` or ``rename``."""
    @property
    def tag(self) -> Optional[str]: ...
    @property
    def diff(self) -> str: ...
    @property
    def written(self) -> bool: ...
    @property
    def first_changed_line(self) -> Optional[int]: ...

class Anchors:
    """The fresh anchors of one changed region of a written file."""

    @property
    def path(self) -> str: ...
    @property
    def first(self) -> int: ...
    @property
    def last(self) -> int: ...
    @property
    def rows(self) -> List[str]: ...

class Result:
    """A call's answer; ``bool(result)`` is ``result.ok``."""

    @property
    def ok(self) -> bool: ...
    @property
    def code(self) -> Optional[str]:
        """The refusal's ``E_…`` code; ``None`` when ``ok``."""
    @property
    def text(self) -> str:
        """The model-facing text."""
    @property
    def warnings(self) -> List[Warning]: ...
    @property
    def files(self) -> List[File]: ...
    @property
    def anchors(self) -> List[Anchors]: ...
    @property
    def undo(self) -> Optional[int]:
        """The call's undo id, when it wrote and was recorded."""
    @property
    def preview(self) -> Optional[int]:
        """The preview id ``ast_edit`` queued (what ``resolve`` takes)."""
    @property
    def json(self) -> str:
        """The CLI's ``--json`` object."""
    def __bool__(self) -> bool: ...

class Session:
    """A session over the directory ``root``; snapshots in memory (``state=None``) or in the
    state directory ``state`` under the name ``session``."""

    def __init__(
        self,
        root: Union[str, "os.PathLike[str]"],
        state: Union[str, "os.PathLike[str]", None] = None,
        session: str = "default",
    ) -> None: ...
    def read(
        self,
        path: str,
        *,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
        dialect: Optional[str] = None,
    ) -> Result: ...
    def edit(
        self,
        request: Union[str, Mapping[str, Any]],
        dialect: Optional[str] = None,
        *,
        dry_run: bool = False,
        allow_syntax_errors: bool = False,
        overwrite: bool = False,
    ) -> Result: ...
    def write(
        self,
        path: str,
        content: Union[str, bytes],
        *,
        dialect: Optional[str] = None,
        overwrite: bool = False,
    ) -> Result: ...
    def ast_edit(
        self,
        rules: Sequence[Tuple[str, str]],
        paths: Sequence[str],
        *,
        lang: Optional[str] = None,
        max_files: Optional[int] = None,
        allow_syntax_errors: bool = False,
        hidden: bool = False,
        no_ignore: bool = False,
    ) -> Result: ...
    def resolve(
        self,
        action: str = "list",
        id: Optional[int] = None,
        only: Optional[Sequence[str]] = None,
    ) -> Result: ...
    def undo(self, id: Optional[int] = None) -> Result: ...
    def undo_list(self) -> Result: ...
    def call_tool(
        self, name: str, arguments: str, dialect: Optional[str] = None
    ) -> Tuple[str, bool, str]: ...

def tool_specs(dialect: Optional[str] = None) -> str: ...
