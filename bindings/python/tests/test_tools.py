"""The function-calling definitions: the MCP server's descriptions and schemas, and a handler
that answers as the server does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hashline import HashlineError, Session
from hashline.tools import ToolOutput, definitions, specs

NAMES = ["read", "edit", "write", "ast_edit", "resolve", "undo"]


def test_both_formats_carry_the_servers_descriptions(tree: Path) -> None:
    session = Session(tree)
    listed = specs()
    assert [s["name"] for s in listed] == NAMES
    openai, _ = definitions(session, "openai")
    anthropic, _ = definitions(session, "anthropic")
    for spec, o, a in zip(listed, openai, anthropic):
        assert o["type"] == "function"
        assert o["function"]["name"] == a["name"] == spec["name"]
        assert o["function"]["description"] == a["description"] == spec["description"]
        assert o["function"]["parameters"] == a["input_schema"] == spec["input_schema"]
        assert a["input_schema"]["type"] == "object"
    assert "¶PATH#TAG" in listed[0]["description"]
    # Another dialect teaches other anchors.
    lineid = {s["name"]: s for s in specs("lineid-json")}
    assert "LINE#ID" in lineid["read"]["description"]
    with pytest.raises(HashlineError) as raised:
        definitions(session, "gemini")  # type: ignore[arg-type]
    assert raised.value.code == "E_USAGE"


def test_the_handler_runs_a_model_session(tree: Path, tmp_path: Path) -> None:
    (tree / "a.txt").write_text("one\ntwo\n")
    session = Session(tree, state=tmp_path / "state")
    _, handle = definitions(session, "anthropic")
    read = handle("read", {"path": "a.txt"})
    assert isinstance(read, ToolOutput) and not read.is_error, read.text
    assert read.structured["ok"] is True
    head = read.text.splitlines()[0]
    # OpenAI hands the arguments over as JSON text.
    edit = handle("edit", json.dumps({"patch": f"{head}\nreplace 2..2:\n+TWO\n"}))
    assert not edit.is_error, edit.text
    assert (tree / "a.txt").read_text() == "one\nTWO\n"
    undo_id = edit.structured["undo"]
    block = edit.anthropic("toolu_1")
    assert block["type"] == "tool_result" and block["is_error"] is False
    assert edit.openai("call_1")["content"] == edit.text

    stale = handle("edit", {"patch": f"{head}\nreplace 2..2:\n+2\n"})
    assert stale.is_error and stale.structured["code"] == "E_STALE_ANCHOR", stale.text
    assert "Nothing was written" in stale.text or "nothing was written" in stale.text

    bad = handle("read", {"path": "a.txt", "extra": 1})
    assert bad.is_error and bad.structured["code"] == "E_BAD_SHAPE"
    garbled = handle("read", "{not json")
    assert garbled.is_error and garbled.structured["code"] == "E_BAD_SHAPE"
    unknown = handle("frobnicate", {})
    assert unknown.is_error and "There is no tool" in unknown.text

    undone = handle("undo", {"id": undo_id})
    assert not undone.is_error, undone.text
    assert (tree / "a.txt").read_text() == "one\ntwo\n"
