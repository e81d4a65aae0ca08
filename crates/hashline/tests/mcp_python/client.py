"""The MCP end-to-end scenario through the Python `mcp` package (PyPI), as an agent meets the
server: every tool, every edit dialect, the fixes replies propose, a bounded ast_edit over a big
tree, a cancelled ast_edit, undo, a fenced patch and malformed messages. The same session as
tests/mcp_node/client.cjs (the TypeScript SDK).

Usage: client.py HASHLINE ROOT STATE SESSION. Exits non-zero (with a traceback) when any check
fails; prints one line per step. Run by crates/hashline/tests/mcp_python.rs.
"""

import asyncio
import json
import os
import re
import subprocess
import sys

import anyio
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

# What no reply text may show: a command line or a CLI flag (as tests/mcp_fixes.rs).
CLI_MARKS = ["`hashline ", "(CLI)", "--as-sent", "--allow-syntax-errors", "--only",
             "--overwrite", "Use :", "Use offset="]
BIG = 3000  # files under big/ (tests/support/agent.rs)
MAX_TEXT = 64 * 1024
DIALECTS = ["hashline", "hash-json", "lineid-json", "str-replace", "apply-patch"]

OUTPUTS = {}
STATS = {"replies": 0, "largest": 0}


def dump(result):
    """A result as its wire JSON (camelCase), whatever the package version."""
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


class Answer:
    def __init__(self, text, structured, is_error):
        self.text = text
        self.structured = structured
        self.is_error = is_error
        self.code = structured.get("code")


async def call(session, name, arguments, timeout=60):
    result = dump(await asyncio.wait_for(session.call_tool(name, arguments), timeout))
    text = "".join(c.get("text", "") for c in result.get("content", []))
    structured = result.get("structuredContent") or {}
    errors = sorted(OUTPUTS[name].iter_errors(structured), key=str)
    assert not errors, f"{name}: not valid against its outputSchema: {errors[0]}\n{text}"
    assert "text" not in structured, "structuredContent repeats the text"
    for mark in CLI_MARKS:
        assert mark not in text, f"{name}: the reply shows `{mark}`:\n{text}"
    STATS["replies"] += 1
    STATS["largest"] = max(STATS["largest"], len(text.encode()))
    return Answer(text, structured, bool(result.get("isError")))


def ok(answer):
    assert not answer.is_error, f"refused: {answer.text}"
    return answer


def refused(answer, code):
    assert answer.is_error, f"not an error result: {answer.text}"
    assert answer.code == code, f"{answer.code} != {code}: {answer.text}"
    return answer


def proposals(text, tool):
    """Every JSON object that follows "`tool` with " in `text` (the calls a reply proposes)."""
    found = []
    decoder = json.JSONDecoder()
    marker = f"`{tool}` with "
    at = text.find(marker)
    while at >= 0:
        rest = text[at + len(marker):]
        if rest.startswith("{"):
            found.append(decoder.raw_decode(rest)[0])
        at = text.find(marker, at + 1)
    return found


def proposed(text, tool):
    found = proposals(text, tool)
    assert found, f"no `{tool}` call proposed:\n{text}"
    return found[0]


def first_line(text):
    return text.split("\n")[0]


class Scenario:
    def __init__(self, binary, root, state, session_name):
        self.binary = binary
        self.root = root
        self.state = state
        self.session_name = session_name

    def disk(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as f:
            return f.read()

    def put(self, rel, text):
        with open(os.path.join(self.root, rel), "w", encoding="utf-8") as f:
            f.write(text)

    async def read_row(self, session, rel, dialect, n):
        read = ok(await call(session, "read", {"path": rel, "dialect": dialect}))
        rows = [line for line in read.text.split("\n") if not line.startswith("\u00b6")]
        return first_line(read.text), rows[n - 1]

    async def list_tools(self, session):
        tools = dump(await session.list_tools())["tools"]
        names = sorted(t["name"] for t in tools)
        assert names == ["ast_edit", "edit", "read", "resolve", "undo", "write"], names
        for tool in tools:
            assert tool["inputSchema"]["type"] == "object"
            assert tool["annotations"]["readOnlyHint"] == (tool["name"] == "read")
            schema = tool["outputSchema"]
            jsonschema.Draft202012Validator.check_schema(schema)
            OUTPUTS[tool["name"]] = jsonschema.Draft202012Validator(schema)
        print("list_tools ok")

    async def read_edit_stale(self, session):
        read = ok(await call(session, "read", {"path": "b.txt"}))
        assert read.structured["ok"] is True, read.text
        header = first_line(read.text)
        print("read ok:", header)

        edit = ok(await call(session, "edit", {"patch": f"{header}\nreplace 2..2:\n+TWO\n"}))
        assert self.disk("b.txt") == "one\nTWO\nthree\n"
        fresh = ok(await call(session, "read", {"path": "b.txt"}))
        assert first_line(fresh.text) in edit.text and "2:TWO" in edit.text, edit.text
        print("edit ok")

        self.put("b.txt", "one\nzwei\nthree\n")
        stale = refused(
            await call(session, "edit", {"patch": f"{header}\nreplace 2..2:\n+deux\n"}),
            "E_STALE_ANCHOR",
        )
        assert "zwei" in stale.text, stale.text
        assert self.disk("b.txt") == "one\nzwei\nthree\n"
        print("stale edit refused ok")

    async def dialects(self, session):
        for d in DIALECTS:
            rel = f"d/{d}.txt"
            new = f"BETA-{d}"
            header, row = await self.read_row(session, rel, d, 2)
            hash_, lineid = row.split(":")[0], row.split("|")[0]
            args = {
                "hashline": {"patch": f"{header}\nreplace 2..2:\n+{new}\n"},
                "hash-json": {"request": {"path": rel, "edits": [
                    {"op": "replace", "start": hash_, "end": hash_, "lines": [new]}]}},
                "lineid-json": {"request": {"filePath": rel, "edits": [
                    {"op": "replace", "pos": lineid, "lines": [new]}]}},
                "str-replace": {"request": {"command": "str_replace", "path": rel,
                                            "old_str": "beta", "new_str": new}},
                "apply-patch": {"patch": f"*** Begin Patch\n*** Update File: {rel}\n@@\n alpha\n"
                                         f"-beta\n+{new}\n gamma\n*** End Patch\n"},
            }[d]
            answer = ok(await call(session, "edit", args))
            assert self.disk(rel) == f"alpha\n{new}\ngamma\n", d
            rows = [r for region in answer.structured["files"][0].get("anchors", [])
                    for r in region.get("rows", [])]
            changed = next((r for r in rows if new in r), None)
            assert changed, f"{d}: no structured anchor of the new line: {rows}"
            assert any(line.endswith(changed) for line in answer.text.split("\n")), \
                f"{d}: the reply text lacks the fresh anchor `{changed}`:\n{answer.text}"
            fresh_header, fresh_row = await self.read_row(session, rel, d, 2)
            lines = answer.text.split("\n")
            if d == "hashline":
                assert fresh_header in answer.text and fresh_row in answer.text, answer.text
            elif d in ("hash-json", "lineid-json"):
                assert fresh_row in lines, f"{d}: {fresh_row}\n{answer.text}"
            elif d == "str-replace":
                assert f"2\t{new}" in answer.text, answer.text
            else:
                assert new in lines, answer.text
        print("dialects ok")

    async def fixes(self, session):
        read = ok(await call(session, "read", {"path": "a.js"}))
        args = {"patch": f"{first_line(read.text)}\nreplace 2..2:\n+  console.log((name);\n"}
        broken = refused(await call(session, "edit", args), "E_SYNTAX_INTRODUCED")
        assert '"allowSyntaxErrors": true' in broken.text, broken.text
        assert "othing was" in broken.text, broken.text
        ok(await call(session, "edit", {**args, "allowSyntaxErrors": True}))
        assert "console.log((name);" in self.disk("a.js")
        self.put("a.js", "function greet(name) {\n  console.log(name);\n}\n")

        unseen = refused(
            await call(session, "write", {"path": "unseen.txt", "content": "seen\n"}), "E_NOT_READ"
        )
        assert '"overwrite": true' in unseen.text, unseen.text
        ok(await call(session, "write",
                      {"path": "unseen.txt", "content": "seen\n", "overwrite": True}))
        assert self.disk("unseen.txt") == "seen\n"

        page = ok(await call(session, "read", {"path": "c.txt", "limit": 2}))
        offset = re.search(r'`read` with "offset": (\d+)', page.text)
        assert offset, f"no offset proposed:\n{page.text}"
        more = ok(await call(session, "read", {"path": "c.txt", "offset": int(offset[1])}))
        assert "3:three" in more.text, more.text

        missing = refused(
            await call(session, "resolve", {"action": "apply", "id": 999}), "E_NO_PREVIEW"
        )
        ok(await call(session, "resolve", proposed(missing.text, "resolve")))
        print("fixes ok")

    async def ast_edit_and_resolve(self, session):
        preview = ok(await call(session, "ast_edit", {
            "ops": [{"pat": "console.log($A)", "out": "logger.info($A)"}], "paths": ["a.js"]}))
        assert "logger.info(name)" in preview.text, preview.text
        apply = proposed(preview.text, "resolve")
        assert apply == {"action": "apply", "id": preview.structured["preview"]["id"]}, apply
        applied = ok(await call(session, "resolve", apply))
        assert applied.text.startswith("Applied 1 replacement"), applied.text
        assert "logger.info(name);" in self.disk("a.js")
        print("ast_edit + resolve ok")

    async def pending(self, session):
        listed = ok(await call(session, "resolve", {"action": "list"}))
        return [p["id"] for p in listed.structured["resolve"]["pending"]]

    async def big_ast_edit(self, session):
        loop = asyncio.get_running_loop()
        started = loop.time()
        preview = ok(await call(session, "ast_edit", {
            "ops": [{"pat": "console.log($A)", "out": "logger.log($A)"}], "paths": ["big"]},
            timeout=600))
        seconds = loop.time() - started
        text_bytes = len(preview.text.encode())
        structured_bytes = len(json.dumps(preview.structured, separators=(",", ":")).encode())
        assert text_bytes <= MAX_TEXT, text_bytes
        counts = {k: v for k, v in preview.structured["preview"].items() if k != "matches"}
        assert counts["total_replacements"] == BIG, counts
        assert preview.structured["preview"]["limit_reached"] is False
        shown = preview.structured["leftOut"]["nextOffset"]
        assert 0 < shown < BIG, preview.structured["leftOut"]
        pid = preview.structured["preview"]["id"]
        nxt = next(p for p in proposals(preview.text, "resolve") if p["action"] == "list")
        assert nxt == {"action": "list", "id": pid, "offset": shown}, nxt
        page = ok(await call(session, "resolve", nxt))
        assert len(page.text.encode()) <= MAX_TEXT
        assert page.structured["page"]["offset"] == shown
        ok(await call(session, "resolve", {"action": "discard", "id": pid}))
        print(f"big ast_edit ok: {BIG} files, text {text_bytes} bytes, structured "
              f"{structured_bytes} bytes, {seconds:.1f} s")

    async def cancelled(self, session):
        """The same ast_edit, abandoned (the SDK sends `notifications/cancelled`) when the first
        progress notification arrives: nothing is queued, no file changed, the server goes on."""
        before = await self.pending(session)
        sample = self.disk("big/m0/f0.ts")
        seen = []
        with anyio.CancelScope() as scope:
            async def on_progress(progress, total, message):
                seen.append(progress)
                scope.cancel()

            await session.call_tool(
                "ast_edit",
                {"ops": [{"pat": "console.log($A)", "out": "logger.log($A)"}], "paths": ["big"]},
                progress_callback=on_progress,
            )
        assert scope.cancelled_caught and seen, "the call was not cancelled on progress"
        assert await self.pending(session) == before, "a cancelled ast_edit queued a preview"
        assert self.disk("big/m0/f0.ts") == sample
        print(f"cancel ok: cancelled at {seen[0]:.0f} of {BIG} files")

    async def fence_and_undo(self, session):
        read = ok(await call(session, "read", {"path": "e.txt"}))
        patch = f"```diff\n{first_line(read.text)}\nreplace 1..1:\n+FENCED\n```\n"
        fenced = ok(await call(session, "edit", {"patch": patch}))
        assert "[W_FENCE_STRIPPED]" in fenced.text, fenced.text
        assert any(w.startswith("[W_FENCE_STRIPPED]") for w in fenced.structured["warnings"])
        assert self.disk("e.txt") == "FENCED\nsecond\n"
        print("fenced patch ok")

        listed = ok(await call(session, "undo", {}))
        assert "e.txt" in listed.text, listed.text
        undone = ok(await call(session, "undo", {"action": "undo"}))
        assert self.disk("e.txt") == "first\nsecond\n", undone.text
        again = ok(await call(session, "read", {"path": "e.txt"}))
        assert "1:first" in again.text, again.text
        print("undo ok")

    async def refusals(self, session):
        bad = refused(await call(session, "read", {}), "E_BAD_SHAPE")
        assert "missing field `path`" in bad.text, bad.text
        refused(await call(session, "write", {"path": "../x", "content": "x"}), "E_OUTSIDE_ROOT")
        refused(await call(session, "resolve", {"action": "apply", "id": 999}), "E_NO_PREVIEW")
        print("refusals ok")

    def malformed(self):
        """Every malformed message of docs/ERRORS.md (as tests/mcp_protocol.rs), as raw lines to
        a second server: each is answered, and the server goes on."""
        child = subprocess.Popen(
            [self.binary, "--root", self.root, "--state", self.state, "--session",
             self.session_name, "mcp"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )

        def ask(line):
            child.stdin.write(line + b"\n")
            child.stdin.flush()
            return json.loads(child.stdout.readline())

        def call_line(id_, params):
            return b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}' % (id_, params)

        init = ask(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}).encode())
        assert init["result"]["serverInfo"]["name"] == "hashline", init
        child.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        deep = b'{"name":"read","arguments":{"path":%s1%s}}' % (b"[" * 200, b"]" * 200)
        big = call_line(7, b'{"name":"write","arguments":{"path":"big.txt","content":"%s"}}'
                        % (b"x" * (16 * 1024 * 1024)))
        cases = [
            (b"this is not json", None, -32700, "not JSON"),
            (call_line(3, rb'{"name":"read","arguments":{"path":"\ud800"}}'), 3, -32600,
             "lone surrogate"),
            (call_line(4, deep), 4, -32600, "deeper than 128"),
            (big, 7, -32600, "16777216 bytes (16 MiB)"),
            (call_line(5, rb'{"name":"read","arguments":"{\"path\":\"b.txt\"}"}'), 5,
             "E_BAD_SHAPE", "`arguments` is a string"),
            (call_line(6, b'{"name":"read","arguments":["b.txt"]}'), 6, "E_BAD_SHAPE",
             "`arguments` is an array"),
            (call_line(8, b'{"arguments":{"path":"b.txt"}}'), 8, "E_BAD_SHAPE",
             "`name` is missing"),
        ]
        for line, id_, code, words in cases:
            answer = ask(line)
            assert answer["id"] == id_, answer
            if isinstance(code, str):
                assert answer["result"]["isError"] is True, answer
                assert answer["result"]["structuredContent"]["code"] == code, answer
                message = answer["result"]["content"][0]["text"]
            else:
                assert answer["error"]["code"] == code, answer
                message = answer["error"]["message"]
            assert words in message, f"{words}: {message}"
        read = ask(call_line(9, b'{"name":"read","arguments":{"path":"b.txt"}}'))
        assert read["result"]["structuredContent"]["ok"] is True, read
        assert not os.path.exists(os.path.join(self.root, "big.txt"))
        child.stdin.close()
        stderr = child.stderr.read().decode()
        assert child.wait() == 0, stderr
        logged = [l for l in stderr.split("\n") if l.startswith("hashline mcp: answered a malformed")]
        assert len(logged) == len(cases), stderr
        print(f"malformed messages ok: {len(cases)} answered")

    async def run(self):
        params = StdioServerParameters(
            command=self.binary,
            args=["--root", self.root, "--state", self.state, "--session", self.session_name,
                  "mcp"],
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), 60)
                await self.list_tools(session)
                await self.read_edit_stale(session)
                await self.dialects(session)
                await self.fixes(session)
                await self.ast_edit_and_resolve(session)
                await self.big_ast_edit(session)
                await self.cancelled(session)
                await self.fence_and_undo(session)
                await self.refusals(session)
        self.malformed()
        print(f"session ok: {STATS['replies']} replies checked, largest text "
              f"{STATS['largest']} bytes")


if __name__ == "__main__":
    asyncio.run(Scenario(*sys.argv[1:5]).run())
