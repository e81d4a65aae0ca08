//! Reading a file as each dialect's model would: every page, following the continuation
//! hints, and checking that the rows read spell the file exactly.

use super::support::sandbox::Sandbox;

/// What an anchored read showed.
pub struct Read {
    /// The whole-file tag of the `¶PATH#TAG` header (tag mode), else empty.
    pub tag: String,
    /// Each row's anchor, in order: `N` (tag), `HASH` (hash), `N#ID` (lineid).
    pub anchors: Vec<String>,
}

/// One row of a read page: its anchor and text, or `None` for a header, hint or blank line.
fn row<'a>(mode: &str, line: &'a str) -> Option<(&'a str, &'a str)> {
    match mode {
        "hash" => {
            let (hash, text) = line.split_at_checked(4)?;
            let text = text.strip_prefix(':')?;
            hash.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                .then_some((hash, text))
        }
        "lineid" => {
            let (anchor, text) = line.split_once('|')?;
            let (n, id) = anchor.split_once('#')?;
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !id.is_empty())
                .then_some((anchor, text))
        }
        _ => {
            let (n, text) = line.split_once(':')?;
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some((n, text))
        }
    }
}

/// The line a continuation hint names (`Use offset=K` / `Use :K`), from a page's non-row lines.
fn next_line(hints: &[&str]) -> Option<usize> {
    hints.iter().rev().find_map(|h| {
        let at = h.find("Use offset=").map(|i| i + "Use offset=".len());
        let at = at.or_else(|| h.find("Use :").map(|i| i + "Use :".len()))?;
        let digits: String = h[at..].chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// `read PATH --anchors MODE`, every page; the rows must spell `text`.
pub fn anchored(sb: &Sandbox, path: &str, mode: &str, text: &str) -> Result<Read, String> {
    let mut read = Read {
        tag: String::new(),
        anchors: Vec::new(),
    };
    let mut rows: Vec<String> = Vec::new();
    let mut offset = 1;
    loop {
        let offset_arg = offset.to_string();
        let r = sb.run(
            &["read", path, "--anchors", mode, "--offset", &offset_arg],
            b"",
        );
        if r.code != 0 {
            return Err(format!(
                "read {path} at {offset} failed: {}{}",
                r.stdout, r.stderr
            ));
        }
        let mut hints = Vec::new();
        let before = rows.len();
        for line in r.stdout.lines() {
            if let Some(header) = line.strip_prefix('¶') {
                if let Some((_, tag)) = header.rsplit_once('#') {
                    read.tag = tag.to_string();
                }
                continue;
            }
            match row(mode, line) {
                Some((anchor, text)) => {
                    read.anchors.push(anchor.to_string());
                    rows.push(text.to_string());
                }
                None => hints.push(line),
            }
        }
        match next_line(&hints) {
            Some(next) if rows.len() > before && next > offset => offset = next,
            Some(_) => return Err(format!("read of {path} does not move on: {}", r.stdout)),
            None => break,
        }
    }
    let joined = rows.join("\n");
    if joined != text && joined.clone() + "\n" != text {
        return Err(format!("the rows read do not spell {path}"));
    }
    Ok(read)
}

/// str-replace's `view` of `path`, with `view_range` pages where the view is clipped; the
/// `cat -n` rows must spell `text`.
pub fn view(sb: &Sandbox, path: &str, text: &str) -> Result<(), String> {
    let mut rows: Vec<String> = Vec::new();
    let total = text.lines().count().max(1);
    let mut from = 1;
    loop {
        let req = if from == 1 {
            serde_json::json!({"command": "view", "path": path})
        } else {
            serde_json::json!({"command": "view", "path": path, "view_range": [from, -1]})
        };
        let r = sb.run(
            &["edit", "--dialect", "str-replace"],
            req.to_string().as_bytes(),
        );
        if r.code != 0 {
            return Err(format!("view {path} failed: {}{}", r.stdout, r.stderr));
        }
        let before = rows.len();
        for line in r.stdout.lines() {
            let Some((n, body)) = line.split_once('\t') else {
                continue;
            };
            if n.trim().parse::<usize>().is_ok_and(|n| n == rows.len() + 1) {
                rows.push(body.to_string());
            }
        }
        let clipped = r.stdout.contains("<response clipped>");
        if !clipped || rows.len() >= total {
            break;
        }
        if rows.len() == before {
            return Err(format!("view of {path} does not move on"));
        }
        // The last row of a clipped view may be cut short: view it again.
        rows.pop();
        from = rows.len() + 1;
    }
    let joined = rows.join("\n");
    if joined != text && joined.clone() + "\n" != text {
        return Err(format!("the rows viewed do not spell {path}"));
    }
    Ok(())
}

/// Reads `path` (its text `text`) as `dialect`'s model would: an anchored read in the
/// dialect's mode (its anchors returned), a `view` for str-replace, nothing for apply-patch
/// (Codex reads with the shell).
pub fn as_model(
    sb: &Sandbox,
    path: &str,
    text: &str,
    dialect: &str,
) -> Result<Option<Read>, String> {
    match dialect {
        "apply-patch" => Ok(None),
        "str-replace" => view(sb, path, text).map(|()| None),
        _ => {
            let mode = match dialect {
                "hash-json" => "hash",
                "lineid-json" => "lineid",
                _ => "tag",
            };
            anchored(sb, path, mode, text).map(Some)
        }
    }
}
