//! `read PATH:N` and `read PATH:N-M`: the line range a read's continuation hint names
//! (`[… Use :N to continue]`), given as a suffix of the path.
//!
//! A path is first read as written (a file may be named `notes:2`); only when no such file
//! exists is a `:N` or `:N-M` suffix taken as the first line (and last line) to show.

use hashline_core::ErrorCode;

use crate::{Outcome, ReadOptions};

/// A path with a `:N` or `:N-M` suffix split off: the file, the first line and the last one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ranged<'a> {
    /// The path without its suffix.
    pub path: &'a str,
    /// The first line to show (as written).
    pub first: &'a str,
    /// The last line to show, for `:N-M`.
    pub last: Option<&'a str>,
}

/// Splits a `:N` / `:N-M` suffix (ASCII digits) off `path`, if it has one and a path before it.
pub(crate) fn split(path: &str) -> Option<Ranged<'_>> {
    let (file, range) = path.rsplit_once(':')?;
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (first, last) = match range.split_once('-') {
        Some((first, last)) => (first, Some(last)),
        None => (range, None),
    };
    (!file.is_empty() && numeric(first) && last.is_none_or(numeric)).then_some(Ranged {
        path: file,
        first,
        last,
    })
}

/// The read options of a ranged path: `--offset N` and, for `N-M`, `--limit M-N+1`. Refused
/// when `--offset`/`--limit` are given too, or when `M` is before `N`.
pub(crate) fn options(ranged: &Ranged<'_>, given: &ReadOptions) -> Result<ReadOptions, Outcome> {
    let suffix = match ranged.last {
        Some(last) => format!("{}:{}-{last}", ranged.path, ranged.first),
        None => format!("{}:{}", ranged.path, ranged.first),
    };
    if given.has_range() {
        return Err(Outcome::refused(
            ErrorCode::BadShape,
            format!(
                "`{suffix}` names lines and --offset/--limit are given too: use one of them, e.g. `read {suffix}` alone."
            ),
        ));
    }
    let limit = match ranged.last {
        None => None,
        Some(last) => {
            let (first, last) = (
                ranged.first.parse::<u128>().unwrap_or(u128::MAX),
                last.parse::<u128>().unwrap_or(u128::MAX),
            );
            if last < first {
                return Err(Outcome::refused(
                    ErrorCode::BadShape,
                    format!(
                        "`{suffix}` ends before it starts: write the first line, then the last (`{}:{last}-{first}`).",
                        ranged.path
                    ),
                ));
            }
            Some((last - first).saturating_add(1).to_string())
        }
    };
    Ok(ReadOptions::new()
        .anchors(given.anchors)
        .typed(Some(ranged.first.to_string()), limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_split_only_when_numeric() {
        let r = split("big.js:7").expect("ranged");
        assert_eq!((r.path, r.first, r.last), ("big.js", "7", None));
        let r = split("a b/c#d.txt:10-20").expect("ranged");
        assert_eq!((r.path, r.first, r.last), ("a b/c#d.txt", "10", Some("20")));
        for plain in [
            "big.js", ":7", "a:", "a:x", "a:7-", "a:-7", "a:7-x", "a:1.5",
        ] {
            assert_eq!(split(plain), None, "{plain}");
        }
    }

    #[test]
    fn ranges_become_offset_and_limit() {
        let given = ReadOptions::default();
        let o = options(&split("f:10-12").expect("ranged"), &given).expect("valid");
        assert_eq!(
            (o.offset_text().as_deref(), o.limit_text().as_deref()),
            (Some("10"), Some("3"))
        );
        assert!(options(&split("f:12-10").expect("ranged"), &given).is_err());
        let with_offset = ReadOptions::new().offset(3);
        assert!(options(&split("f:7").expect("ranged"), &with_offset).is_err());
    }
}
