//! A recorded agent session: 30+ calls of the real `hashline` binary, the way a coding agent
//! drives it, printing the bytes the agent received per call and asserting each step.
//!
//! 1. A 5,000-line file read in pages (`read big.js`, then the `PATH:N` continuation each page
//!    names, to the end).
//! 2. Chained edits in every dialect without reading the file again:
//!    * hashline: each patch's `¶PATH#TAG` is the tag the previous reply printed; then an edit
//!      with the first (stale) tag on a changed line is refused with fresh anchors;
//!    * hash-json: each request's hashes come from the `--- Anchors ---` rows of the previous
//!      reply;
//!    * lineid-json: the reply is the seed's `Updated PATH` (no anchors, in plain text or in
//!      `--json`, whose `files[]` carry the tag only), so the chained requests use the IDs of
//!      the one read; the session recorded that read, and the stale-anchor merge carries them
//!      onto the file the earlier edits changed (lines shifted by an insert included);
//!    * str-replace: a `view`, then `str_replace` / `insert` requests in a row;
//!    * apply-patch: V4A patches whose context lines are the previous patch's `+` lines.
//! 3. A structural rewrite: `ast-edit` previews (match ids shown), `resolve apply --only`
//!    applies some matches, `resolve` lists the rest, `resolve discard` drops it.
//!
//! Run it with `cargo run -p hashline --example agent_session` after `cargo build -p hashline`
//! (it runs `target/<profile>/hashline`, or `$HASHLINE_BIN`); `cargo test` runs it through
//! `tests/agent_session.rs`.

use std::error::Error;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// Lines of the large file: several pages of the default read budget.
const BIG_LINES: usize = 5_000;

fn main() -> Result<()> {
    let bin = match std::env::var_os("HASHLINE_BIN") {
        Some(path) => PathBuf::from(path),
        None => sibling_binary()?,
    };
    let transcript = run(&bin)?;
    print!("{transcript}");
    Ok(())
}

/// `hashline` beside this example's directory (`target/<profile>/examples/..`).
fn sibling_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("cannot locate the target directory")?;
    let bin = dir.join("hashline");
    if !bin.is_file() {
        return Err(format!(
            "{} not found: run `cargo build -p hashline` first, or set HASHLINE_BIN",
            bin.display()
        )
        .into());
    }
    Ok(bin)
}

/// What one call returned.
struct Reply {
    stdout: String,
    code: i32,
}

/// The agent: one root, one state directory, one session; every call logged.
struct Agent<'a> {
    bin: &'a Path,
    root: tempfile::TempDir,
    state: tempfile::TempDir,
    calls: usize,
    received: usize,
    log: String,
}

impl<'a> Agent<'a> {
    fn new(bin: &'a Path) -> Result<Agent<'a>> {
        Ok(Agent {
            bin,
            root: tempfile::tempdir()?,
            state: tempfile::tempdir()?,
            calls: 0,
            received: 0,
            log: String::new(),
        })
    }

    fn write(&self, name: &str, content: &str) -> Result<()> {
        let path = self.root.path().join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, content)?;
        Ok(())
    }

    fn file(&self, name: &str) -> Result<String> {
        Ok(std::fs::read_to_string(self.root.path().join(name))?)
    }

    /// `hashline ARGS` with `stdin`, which must exit `want`; the reply is logged.
    fn call(&mut self, args: &[&str], stdin: &str, want: i32) -> Result<Reply> {
        let mut child = Command::new(self.bin)
            .arg("--root")
            .arg(self.root.path())
            .arg("--state")
            .arg(self.state.path())
            .args(["--session", "agent"])
            .args(args)
            .env_remove("HASHLINE_SESSION")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        if let Some(mut pipe) = child.stdin.take() {
            pipe.write_all(stdin.as_bytes())?;
        }
        let out = child.wait_with_output()?;
        let reply = Reply {
            stdout: String::from_utf8(out.stdout)?,
            code: out.status.code().unwrap_or(-1),
        };
        self.calls += 1;
        self.received += reply.stdout.len();
        writeln!(
            self.log,
            "=== call {}: hashline {} ({} bytes sent) -> exit {}, {} bytes received",
            self.calls,
            args.join(" "),
            stdin.len(),
            reply.code,
            reply.stdout.len()
        )?;
        self.log.push_str(&shown(&reply.stdout));
        if reply.code != want {
            return Err(format!(
                "call {} ({args:?}) exited {}, wanted {want}:\n{}\n{}",
                self.calls,
                reply.code,
                reply.stdout,
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        Ok(reply)
    }
}

/// The reply as logged: whole when short, else its first and last lines around a count.
fn shown(text: &str) -> String {
    const HEAD: usize = 6;
    const TAIL: usize = 4;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    if lines.len() <= HEAD + TAIL + 2 {
        for line in &lines {
            out.push_str(line);
            out.push('\n');
        }
        return out;
    }
    for line in &lines[..HEAD] {
        out.push_str(line);
        out.push('\n');
    }
    let hidden = &lines[HEAD..lines.len() - TAIL];
    let bytes: usize = hidden.iter().map(|l| l.len() + 1).sum();
    out.push_str(&format!("… {} lines ({bytes} bytes) …\n", hidden.len()));
    for line in &lines[lines.len() - TAIL..] {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Check `cond`, or fail the session with `what`.
fn check(cond: bool, what: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(what.into())
    }
}

/// The first line of a tagged reply: `¶PATH#TAG`.
fn header(reply: &Reply) -> Result<String> {
    let first = reply.stdout.lines().next().unwrap_or_default();
    check(
        first.starts_with('¶'),
        "a tagged reply starts with ¶PATH#TAG",
    )?;
    Ok(first.to_owned())
}

/// Run the whole session with `bin`; the transcript of every call.
pub fn run(bin: &Path) -> Result<String> {
    let mut agent = Agent::new(bin)?;
    let first_header = read_in_pages(&mut agent)?;
    hashline_chain(&mut agent, &first_header)?;
    hash_json_chain(&mut agent)?;
    lineid_chain(&mut agent)?;
    str_replace_chain(&mut agent)?;
    apply_patch_chain(&mut agent)?;
    rewrite_partly(&mut agent)?;
    check(agent.calls >= 30, "the session makes 30 calls or more")?;
    writeln!(
        agent.log,
        "=== {} calls, {} bytes received in all",
        agent.calls, agent.received
    )?;
    Ok(agent.log)
}

fn big_line(n: usize) -> String {
    format!("export function f{n}(x) {{ return x + {n}; }}")
}

/// `read big.js`, then each page's `Use :N to continue` until the last line; the first page's
/// `¶big.js#TAG` header.
fn read_in_pages(agent: &mut Agent) -> Result<String> {
    let big: String = (1..=BIG_LINES).map(|n| big_line(n) + "\n").collect();
    agent.write("big.js", &big)?;
    let mut target = "big.js".to_owned();
    let mut seen = 0;
    let mut first_header = None;
    for _ in 0..20 {
        let page = agent.call(&["read", &target], "", 0)?;
        let head = header(&page)?;
        check(
            *first_header.get_or_insert_with(|| head.clone()) == head,
            "every page carries the same whole-file tag",
        )?;
        let rows: Vec<(usize, &str)> = page
            .stdout
            .lines()
            .filter_map(|l| {
                let (n, text) = l.split_once(':')?;
                Some((n.parse().ok()?, text))
            })
            .collect();
        let first = rows.first().ok_or("a page shows rows")?.0;
        check(
            first == seen + 1,
            "each page starts where the last one ended",
        )?;
        for &(n, text) in &rows {
            if n <= BIG_LINES {
                check(text == big_line(n), "a row shows its line")?;
            }
        }
        seen = rows
            .iter()
            .map(|r| r.0)
            .max()
            .unwrap_or(seen)
            .min(BIG_LINES);
        match page.stdout.split("Use :").nth(1) {
            Some(rest) => {
                let next: String = rest.chars().take_while(char::is_ascii_digit).collect();
                check(
                    next.parse::<usize>()? == seen + 1,
                    "the hint names the next line",
                )?;
                target = format!("big.js:{next}");
            }
            None => break,
        }
    }
    check(seen == BIG_LINES, "the pages cover the whole file")?;
    first_header.ok_or_else(|| "no page".into())
}

/// Three hashline patches, the first on the first page's header, each next one on the tag the
/// previous reply printed; then one with the first (now stale) tag.
fn hashline_chain(agent: &mut Agent, tag0: &str) -> Result<()> {
    let patch = format!("{tag0}\nreplace 2..2:\n+export function f2(x) {{ return x * 2; }}\n");
    let one = agent.call(&["edit"], &patch, 0)?;
    let tag1 = header(&one)?;
    check(tag1 != tag0, "the reply carries the new tag")?;
    check(
        one.stdout
            .contains("+2:export function f2(x) { return x * 2; }"),
        "the reply shows the changed row",
    )?;

    let patch = format!("{tag1}\ninsert after 4000:\n+// checkpoint\n");
    let two = agent.call(&["edit"], &patch, 0)?;
    let tag2 = header(&two)?;
    check(
        two.stdout.contains("+4001:// checkpoint"),
        "the insert's row, numbered",
    )?;

    // Line 4002 is old line 4001 now: the agent reads the number off the reply's rows.
    check(
        two.stdout.contains(&format!(" 4002:{}", big_line(4001))),
        "the reply shows the shifted neighbour",
    )?;
    let patch = format!("{tag2}\ndelete 4002..4002\n");
    let three = agent.call(&["edit"], &patch, 0)?;
    header(&three)?;
    let text = agent.file("big.js")?;
    check(
        text.contains("// checkpoint\nexport function f4002"),
        "edits landed",
    )?;
    check(!text.contains(&big_line(4001)), "line 4001 deleted")?;

    // The first tag again, on line 2 that the session changed since: refused, nothing written.
    let patch = format!("{tag0}\nreplace 2..2:\n+export function f2() {{}}\n");
    let stale = agent.call(&["edit"], &patch, 1)?;
    check(
        stale
            .stdout
            .contains("2:export function f2(x) { return x * 2; }"),
        "the refusal shows the line as it is now",
    )?;
    check(agent.file("big.js")? == text, "a refusal writes nothing")
}

/// The `HASH` of the row showing `text` in a hash-json reply or read.
fn hash_of<'r>(reply: &'r Reply, text: &str) -> Result<&'r str> {
    reply
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix(text)?.strip_suffix(':'))
        .ok_or_else(|| format!("no row `{text}` in:\n{}", reply.stdout).into())
}

/// Three hash-json requests, each on hashes the previous reply's `--- Anchors ---` printed.
fn hash_json_chain(agent: &mut Agent) -> Result<()> {
    agent.write(
        "conf.py",
        "DEBUG = False\nPORT = 8080\nHOST = 'localhost'\nWORKERS = 2\n",
    )?;
    let read = agent.call(&["read", "--anchors", "hash", "conf.py"], "", 0)?;
    let port = hash_of(&read, "PORT = 8080")?.to_owned();
    let request = serde_json::json!({"path": "conf.py", "edits": [
        {"op": "replace", "start": port, "end": port, "lines": ["PORT = 9090"]}
    ]});
    let one = agent.call(&["edit", "--dialect", "hash-json"], &request.to_string(), 0)?;
    check(
        one.stdout.contains("--- Anchors ---"),
        "the reply has anchors",
    )?;
    let host = hash_of(&one, "HOST = 'localhost'")?.to_owned();

    let request = serde_json::json!({"path": "conf.py", "edits": [
        {"op": "append", "pos": host, "lines": ["TIMEOUT = 30"]}
    ]});
    let two = agent.call(&["edit", "--dialect", "hash-json"], &request.to_string(), 0)?;
    let timeout = hash_of(&two, "TIMEOUT = 30")?.to_owned();

    let request = serde_json::json!({"path": "conf.py", "edits": [
        {"op": "replace", "start": timeout, "end": timeout, "lines": ["TIMEOUT = 60"]}
    ]});
    agent.call(&["edit", "--dialect", "hash-json"], &request.to_string(), 0)?;
    check(
        agent.file("conf.py")?
            == "DEBUG = False\nPORT = 9090\nHOST = 'localhost'\nTIMEOUT = 60\nWORKERS = 2\n",
        "the hash-json chain landed",
    )
}

/// The `N#ID` of the row showing `text` in a lineid read.
fn lineid_of<'r>(reply: &'r Reply, text: &str) -> Result<&'r str> {
    reply
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix(text)?.strip_suffix('|'))
        .ok_or_else(|| format!("no row `{text}` in:\n{}", reply.stdout).into())
}

/// Three lineid-json requests after one read: the replies carry no IDs, so each uses the read's.
fn lineid_chain(agent: &mut Agent) -> Result<()> {
    agent.write(
        "util.ts",
        "export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\n",
    )?;
    let read = agent.call(&["read", "--anchors", "lineid", "util.ts"], "", 0)?;
    let a = lineid_of(&read, "export const a = 1;")?.to_owned();
    let c = lineid_of(&read, "export const c = 3;")?.to_owned();
    let d = lineid_of(&read, "export const d = 4;")?.to_owned();

    let request = serde_json::json!({"filePath": "util.ts", "edits": [
        {"op": "append", "pos": a, "lines": ["export const a2 = 10;"]}
    ]});
    let one = agent.call(
        &["edit", "--dialect", "lineid-json"],
        &request.to_string(),
        0,
    )?;
    check(one.stdout.trim() == "Updated util.ts", "the seed's reply")?;

    // `c` is line 4 now; its ID from the read (line 3) is carried over by the session.
    let request = serde_json::json!({"filePath": "util.ts", "edits": [
        {"op": "replace", "pos": c, "lines": ["export const c = 30;"]}
    ]});
    let two = agent.call(
        &["--json", "edit", "--dialect", "lineid-json"],
        &request.to_string(),
        0,
    )?;
    let json: serde_json::Value = serde_json::from_str(&two.stdout)?;
    check(
        json["files"][0]["tag"].is_string(),
        "--json carries the tag",
    )?;
    check(
        json["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("carried")),
        "--json says the read's anchors were carried over",
    )?;

    let request = serde_json::json!({"filePath": "util.ts", "edits": [
        {"op": "replace", "pos": d, "lines": ["export const d = 40;"]}
    ]});
    agent.call(
        &["edit", "--dialect", "lineid-json"],
        &request.to_string(),
        0,
    )?;
    check(
        agent.file("util.ts")?
            == "export const a = 1;\nexport const a2 = 10;\nexport const b = 2;\nexport const c = 30;\nexport const d = 40;\n",
        "the lineid chain landed",
    )
}

/// A `view`, then four text-editor requests in a row.
fn str_replace_chain(agent: &mut Agent) -> Result<()> {
    agent.write(
        "NOTES.md",
        "# Notes\n\nTODO: write intro.\n\n## Usage\n\nRun it.\n",
    )?;
    let view = serde_json::json!({"command": "view", "path": "NOTES.md"});
    let shown = agent.call(&["edit", "--dialect", "str-replace"], &view.to_string(), 0)?;
    check(shown.stdout.contains("TODO: write intro."), "the view")?;
    let requests = [
        serde_json::json!({"command": "str_replace", "path": "NOTES.md",
            "old_str": "TODO: write intro.", "new_str": "hashline edits files by anchor."}),
        serde_json::json!({"command": "str_replace", "path": "NOTES.md",
            "old_str": "Run it.", "new_str": "Run `hashline read FILE`."}),
        serde_json::json!({"command": "insert", "path": "NOTES.md",
            "insert_line": 7, "new_str": "Then `hashline edit`."}),
        serde_json::json!({"command": "str_replace", "path": "NOTES.md",
            "old_str": "## Usage", "new_str": "## How to use it"}),
    ];
    for request in requests {
        let done = agent.call(
            &["edit", "--dialect", "str-replace"],
            &request.to_string(),
            0,
        )?;
        check(
            done.stdout.contains("has been edited"),
            "each request lands",
        )?;
    }
    check(
        agent.file("NOTES.md")?
            == "# Notes\n\nhashline edits files by anchor.\n\n## How to use it\n\nRun `hashline read FILE`.\nThen `hashline edit`.\n",
        "the str-replace chain landed",
    )
}

/// Three V4A patches, each with the previous patch's new lines as context.
fn apply_patch_chain(agent: &mut Agent) -> Result<()> {
    agent.write("src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n")?;
    agent.call(&["read", "src/main.rs"], "", 0)?;
    let patches = [
        "*** Begin Patch\n*** Update File: src/main.rs\n@@ fn main() {\n-    println!(\"hello\");\n+    let name = \"world\";\n+    println!(\"hello {name}\");\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: src/main.rs\n@@\n     let name = \"world\";\n-    println!(\"hello {name}\");\n+    greet(name);\n }\n+\n+fn greet(name: &str) {\n+    println!(\"hello {name}\");\n+}\n*** End Patch\n",
        "*** Begin Patch\n*** Add File: src/lib.rs\n+pub const NAME: &str = \"world\";\n*** Update File: src/main.rs\n@@ fn main() {\n-    let name = \"world\";\n+    let name = hello::NAME;\n*** End Patch\n",
    ];
    for patch in patches {
        let done = agent.call(&["edit", "--dialect", "apply-patch"], patch, 0)?;
        check(done.stdout.starts_with("Success."), "each patch lands")?;
    }
    check(
        agent.file("src/main.rs")?
            == "fn main() {\n    let name = hello::NAME;\n    greet(name);\n}\n\nfn greet(name: &str) {\n    println!(\"hello {name}\");\n}\n",
        "the apply-patch chain landed",
    )?;
    check(
        agent.file("src/lib.rs")? == "pub const NAME: &str = \"world\";\n",
        "the added file",
    )
}

/// `ast-edit` previews five matches; two are applied with `--only`, the rest discarded.
fn rewrite_partly(agent: &mut Agent) -> Result<()> {
    agent.write(
        "web/a.js",
        "console.log(\"a1\");\nrun();\nconsole.log(\"a2\");\nconsole.log(\"a3\");\n",
    )?;
    agent.write("web/b.js", "console.log(\"b1\");\nconsole.log(\"b2\");\n")?;
    let preview = agent.call(
        &[
            "ast-edit",
            "--pat",
            "console.log($A)",
            "--out",
            "logger.info($A)",
            "web",
        ],
        "",
        0,
    )?;
    check(
        preview.stdout.contains("Staged as preview 1"),
        "the preview is queued",
    )?;
    check(
        agent.file("web/a.js")?.matches("console.log").count() == 3,
        "a preview writes nothing",
    )?;
    let applied = agent.call(&["resolve", "apply", "1", "--only", "1:2,2:1"], "", 0)?;
    check(
        applied
            .stdout
            .contains("Still pending in preview 1: 3 replacements"),
        "the rest stays queued, and the reply says so",
    )?;
    let listed = agent.call(&["resolve"], "", 0)?;
    check(listed.stdout.contains("1 pending preview"), "listed")?;
    let dropped = agent.call(&["resolve", "discard", "1"], "", 0)?;
    check(dropped.stdout.contains("Discarded"), "discarded")?;
    agent.call(&["resolve", "apply", "1"], "", 1)?;
    check(
        agent.file("web/a.js")?
            == "console.log(\"a1\");\nrun();\nlogger.info(\"a2\");\nconsole.log(\"a3\");\n",
        "only 1:2 applied in a.js",
    )?;
    check(
        agent.file("web/b.js")? == "logger.info(\"b1\");\nconsole.log(\"b2\");\n",
        "only 2:1 applied in b.js",
    )
}
