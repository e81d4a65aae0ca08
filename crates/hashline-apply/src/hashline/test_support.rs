//! Helpers of this dialect's unit tests.

use std::path::Path;

use hashline_syntax::hashline::{Hunk, HunkOp};

use super::lower::BlockCtx;

/// A parsed hunk `op` with `rows`, as if on the patch's first line.
pub(crate) fn hunk(op: HunkOp, rows: &[&str]) -> Hunk {
    Hunk {
        op,
        rows: rows.iter().map(|s| s.to_string()).collect(),
        header_line: 1,
        header_span: 0..0,
    }
}

/// The lowering context of a TypeScript file, without a block resolver or syntax check.
pub(crate) fn ctx() -> BlockCtx<'static> {
    BlockCtx {
        resolver: None,
        path: Path::new("a.ts"),
    }
}
