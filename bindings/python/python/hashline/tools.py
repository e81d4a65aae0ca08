"""The MCP server's tools for function calling: the schemas and one handler.

``definitions(session, "openai")`` (or ``"anthropic"``) returns ``(tools, handler)``: the six
tools (read, edit, write, ast_edit, resolve, undo) with the descriptions and input schemas the
MCP server lists, in that API's format, and ``handler(name, arguments)`` running one call as
the server would. The handler answers a :class:`ToolOutput`: its ``text`` is what the model
reads; ``is_error`` marks a refusal (nothing was written).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Tuple, Union

from ._hashline import Session, tool_specs

Format = Literal["openai", "anthropic"]
Arguments = Union[Mapping[str, Any], str, None]


@dataclass(frozen=True)
class ToolOutput:
    """One tool call's answer."""

    text: str
    """The model-facing text (the tool result's content)."""
    is_error: bool
    """The call was refused: nothing was written."""
    structured: Dict[str, Any] = field(default_factory=dict)
    """The structured result (``ok``, ``code``, ``files``, ``undo`` …): the MCP structured content."""

    def anthropic(self, tool_use_id: str) -> Dict[str, Any]:
        """A ``tool_result`` content block of Anthropic's Messages API."""
        return {
            "type": "tool_result",
            "tool_use_id": tool_use_id,
            "content": self.text,
            "is_error": self.is_error,
        }

    def openai(self, tool_call_id: str) -> Dict[str, Any]:
        """A ``tool`` message of OpenAI's Chat Completions API."""
        return {"role": "tool", "tool_call_id": tool_call_id, "content": self.text}


Handler = Callable[[str, Arguments], ToolOutput]


def specs(dialect: Optional[str] = None) -> List[Dict[str, Any]]:
    """The tools as the MCP server lists them: ``name``, ``title``, ``description``, ``input_schema``."""
    loaded: List[Dict[str, Any]] = json.loads(tool_specs(dialect))
    return loaded


def definitions(
    session: Session, format: Format = "openai", dialect: Optional[str] = None
) -> Tuple[List[Dict[str, Any]], Handler]:
    """The tool schemas in ``format`` and the handler that runs a call on ``session``.

    ``dialect`` is the default dialect, as the server's ``--dialect``: it picks the read
    anchors and the edit language the descriptions teach (default: the hashline language).
    """
    listed = specs(dialect)
    if format == "openai":
        tools = [
            {
                "type": "function",
                "function": {
                    "name": s["name"],
                    "description": s["description"],
                    "parameters": s["input_schema"],
                },
            }
            for s in listed
        ]
    elif format == "anthropic":
        tools = [
            {
                "name": s["name"],
                "description": s["description"],
                "input_schema": s["input_schema"],
            }
            for s in listed
        ]
    else:
        from ._hashline import HashlineError

        error = HashlineError(f"[E_USAGE] unknown format {format!r}: use 'openai' or 'anthropic'")
        error.code = "E_USAGE"
        raise error

    def handler(name: str, arguments: Arguments = None) -> ToolOutput:
        """Run tool ``name``; ``arguments`` as a dict, or the JSON text a model produced."""
        text_args = arguments if isinstance(arguments, str) else json.dumps(arguments)
        text, is_error, structured = session.call_tool(name, text_args, dialect)
        return ToolOutput(text=text, is_error=is_error, structured=json.loads(structured))

    return tools, handler
