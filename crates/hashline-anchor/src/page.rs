//! The read budget of the `tag` and `lineid` anchor modes: how much of a file one `read` shows.
//!
//! A read with no `--limit` would print a whole file, however large; an agent hands that text to
//! a model. So a page holds at most [`MAX_LINES`] rows and [`MAX_BYTES`] bytes of rows (the
//! caps of seed 001's `read`, which the `hash` mode keeps in its own texts), ends at a whole row,
//! and is followed by a hint naming the next line. A single row longer than the byte budget is
//! shown alone and whole: a row is never cut, since a model may copy it into an edit.

/// At most this many rows per page.
pub const MAX_LINES: usize = 2000;

/// At most this many bytes of rows per page (each row counted as rendered, with its `\n`).
pub const MAX_BYTES: usize = 51200;

/// Tracks a page being filled: call [`Budget::admit`] before each row.
#[derive(Debug, Default)]
pub struct Budget {
    rows: usize,
    bytes: usize,
}

impl Budget {
    /// A budget with nothing shown yet.
    pub fn new() -> Budget {
        Budget::default()
    }

    /// Whether a row of `row_bytes` rendered bytes still fits; counts it when it does. The
    /// first row of a page always fits.
    pub fn admit(&mut self, row_bytes: usize) -> bool {
        let fits = self.rows == 0
            || (self.rows < MAX_LINES && self.bytes.saturating_add(row_bytes) <= MAX_BYTES);
        if fits {
            self.rows += 1;
            self.bytes = self.bytes.saturating_add(row_bytes);
        }
        fits
    }
}

/// Decimal digits of `n` (the width of a line number as rendered).
pub fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_stops_at_lines_or_bytes_but_admits_a_first_long_row() {
        let mut b = Budget::new();
        assert!(b.admit(MAX_BYTES * 3), "a first row is always shown");
        assert!(!b.admit(1));
        let mut b = Budget::new();
        assert_eq!((0..MAX_LINES + 5).filter(|_| b.admit(2)).count(), MAX_LINES);
        let mut b = Budget::new();
        assert_eq!((0..100).filter(|_| b.admit(1024)).count(), 50);
        assert_eq!(
            (digits(0), digits(9), digits(10), digits(12345)),
            (1, 1, 2, 5)
        );
    }
}
