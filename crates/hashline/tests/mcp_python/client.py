"""The MCP end-to-end scenario through the Python `mcp` package (PyPI).

Usage: client.py HASHLINE ROOT STATE SESSION. Exits non-zero (with a traceback) when any check
fails; prints one line per step. Run by crates/hashline/tests/mcp_python.rs.
"""

import asyncio
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def dump(result):
    """A result as its wire JSON (camelCase), whatever the package version."""
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def call(session, name, arguments):
    result = dump(await asyncio.wait_for(session.call_tool(name, arguments), 60))
    text = "".join(c.get("text", "") for c in result.get("content", []))
    return text, result.get("structuredContent") or {}, bool(result.get("isError"))


def refused(answer, code):
    text, structured, is_error = answer
    assert is_error, f"not an error result: {text}"
    assert structured.get("code") == code, f"{structured.get('code')} != {code}: {text}"
    assert "text" not in structured, "structuredContent repeats the text"


async def main(binary, root, state, session_name):
    params = StdioServerParameters(
        command=binary,
        args=["--root", root, "--state", state, "--session", session_name, "mcp"],
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), 60)

            tools = dump(await session.list_tools())["tools"]
            names = sorted(t["name"] for t in tools)
            assert names == ["ast_edit", "edit", "read", "resolve", "undo", "write"], names
            for tool in tools:
                assert tool["inputSchema"]["type"] == "object"
                assert tool["annotations"]["readOnlyHint"] == (tool["name"] == "read")
            print("list_tools ok")

            text, structured, is_error = await call(session, "read", {"path": "b.txt"})
            assert not is_error and structured["ok"] is True, text
            header = text.splitlines()[0]
            print("read ok:", header)

            text, structured, is_error = await call(
                session, "edit", {"patch": f"{header}\nreplace 2..2:\n+TWO\n"}
            )
            assert not is_error, text
            with open(os.path.join(root, "b.txt")) as f:
                assert f.read() == "one\nTWO\nthree\n"
            print("edit ok")

            with open(os.path.join(root, "b.txt"), "w") as f:
                f.write("one\nzwei\nthree\n")
            stale = await call(session, "edit", {"patch": f"{header}\nreplace 2..2:\n+deux\n"})
            refused(stale, "E_STALE_ANCHOR")
            assert "zwei" in stale[0], stale[0]
            print("stale edit refused ok")

            text, structured, is_error = await call(
                session,
                "ast_edit",
                {"ops": [{"pat": "console.log($A)", "out": "logger.info($A)"}], "paths": ["a.js"]},
            )
            assert not is_error and "logger.info(name)" in text, text
            preview_id = structured["preview"]["id"]
            text, structured, is_error = await call(
                session, "resolve", {"action": "apply", "id": preview_id}
            )
            assert not is_error and text.startswith("Applied 1 replacement"), text
            with open(os.path.join(root, "a.js")) as f:
                assert "logger.info(name);" in f.read()
            print("ast_edit + resolve ok")

            bad = await call(session, "read", {})
            refused(bad, "E_BAD_SHAPE")
            assert "missing field `path`" in bad[0], bad[0]
            refused(await call(session, "write", {"path": "../x", "content": "x"}), "E_OUTSIDE_ROOT")
            refused(await call(session, "resolve", {"action": "apply", "id": 999}), "E_NO_PREVIEW")
            print("refusals ok")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
