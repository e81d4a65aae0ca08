//! The common prefix and suffix of two sequences: what an edit left alone at each end. The
//! syntax check of `hashline-ast` finds its changed byte span with them, the edit guard its
//! changed lines.

/// How many leading items `a` and `b` share.
///
/// ```
/// assert_eq!(hashline_core::affix::common_prefix(b"abcd", b"abxd"), 2);
/// ```
pub fn common_prefix<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// How many trailing items `a` and `b` share, without reaching into the first `prefix` items of
/// the shorter one (pass the common prefix, so that prefix and suffix never overlap).
///
/// ```
/// use hashline_core::affix::common_suffix;
/// assert_eq!(common_suffix(b"abcd", b"abxd", 2), 1);
/// // "ab" → "abab": the prefix "ab" leaves no room for a suffix.
/// assert_eq!(common_suffix(b"ab", b"abab", 2), 0);
/// ```
pub fn common_suffix<T: PartialEq>(a: &[T], b: &[T], prefix: usize) -> usize {
    let room = a.len().min(b.len()).saturating_sub(prefix);
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_and_suffix_never_overlap() {
        let (a, b) = (["x", "y", "x"], ["x", "y", "y", "x"]);
        let head = common_prefix(&a, &b);
        assert_eq!((head, common_suffix(&a, &b, head)), (2, 1));
        assert_eq!(common_prefix::<u8>(&[], b"a"), 0);
        assert_eq!(common_suffix(b"same", b"same", 4), 0);
        assert_eq!(common_suffix(b"same", b"same", 0), 4);
    }
}
