//! The op-header grammar (hashline.md §b "Op header grammar accepted by the hand parser"),
//! parsed with chumsky over the [`OpTok`] stream.
//!
//! ```text
//! header  := replace S block S N colon?    | replace S range colon?
//!          | delete S block S N            | delete S range          (no colon)
//!          | insert S (before|after) S N colon? | insert S (head|tail) colon?
//! range   := N (sep N)?        sep := (S | "-" | "…" | "..")+
//! colon   := S? ":"
//! ```
//! The line is trimmed of ASCII white space first, so nothing may surround the header.

use chumsky::prelude::*;

use super::ast::HunkOp;
use super::js_text::is_ascii_space;
use super::lexer::{op_tokens, OpTok};

/// Parse `line` as an op header; `None` when it is not exactly one.
pub(crate) fn parse_op_header(line: &str) -> Option<HunkOp> {
    let trimmed = line.trim_matches(is_ascii_space);
    let tokens = op_tokens(trimmed)?;
    // Bound to a local so the parser temporary is dropped before `tokens` (edition 2021).
    let op = grammar().parse(tokens.as_slice()).into_result().ok();
    op
}

fn grammar<'src>() -> Boxed<'src, 'src, &'src [OpTok], HunkOp, extra::Default> {
    let space = just(OpTok::Space);
    let number = select! { OpTok::Number(n) => n };
    let colon = space.or_not().then(just(OpTok::Colon)).or_not().ignored();
    let separator = choice((
        just(OpTok::Space),
        just(OpTok::Dash),
        just(OpTok::Ellipsis),
        just(OpTok::DotDot),
    ))
    .repeated()
    .at_least(1);
    let range = number
        .then(separator.ignore_then(number).or_not())
        .map(|(start, end)| (start, end.unwrap_or(start)));
    let block_number = just(OpTok::Block).then(space).ignore_then(number);

    let replace_block = just(OpTok::Replace)
        .then(space)
        .ignore_then(block_number)
        .then_ignore(colon)
        .map(|line| HunkOp::ReplaceBlock { line });
    let replace = just(OpTok::Replace)
        .then(space)
        .ignore_then(range)
        .then_ignore(colon)
        .map(|(start, end)| HunkOp::Replace { start, end });
    let delete_block = just(OpTok::Delete)
        .then(space)
        .ignore_then(block_number)
        .map(|line| HunkOp::DeleteBlock { line });
    let delete = just(OpTok::Delete)
        .then(space)
        .ignore_then(range)
        .map(|(start, end)| HunkOp::Delete { start, end });
    let anchored = choice((
        just(OpTok::Before)
            .then(space)
            .ignore_then(number)
            .map(HunkOp::InsertBefore),
        just(OpTok::After)
            .then(space)
            .ignore_then(number)
            .map(HunkOp::InsertAfter),
        just(OpTok::Head).to(HunkOp::InsertHead),
        just(OpTok::Tail).to(HunkOp::InsertTail),
    ));
    let insert = just(OpTok::Insert)
        .then(space)
        .ignore_then(anchored)
        .then_ignore(colon);

    choice((replace_block, replace, delete_block, delete, insert))
        .then_ignore(end())
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use HunkOp::*;

    fn check(line: &str, expected: Option<HunkOp>) {
        assert_eq!(parse_op_header(line), expected, "header {line:?}");
    }

    #[test]
    fn canonical_headers() {
        check("replace 2..3:", Some(Replace { start: 2, end: 3 }));
        check("replace block 4:", Some(ReplaceBlock { line: 4 }));
        check("delete 2..3", Some(Delete { start: 2, end: 3 }));
        check("delete block 7", Some(DeleteBlock { line: 7 }));
        check("insert before 5:", Some(InsertBefore(5)));
        check("insert after 5:", Some(InsertAfter(5)));
        check("insert head:", Some(InsertHead));
        check("insert tail:", Some(InsertTail));
    }

    #[test]
    fn tolerated_shapes() {
        check("replace 2:", Some(Replace { start: 2, end: 2 }));
        check("replace 2", Some(Replace { start: 2, end: 2 }));
        check("delete 4", Some(Delete { start: 4, end: 4 }));
        check("replace 2..3", Some(Replace { start: 2, end: 3 }));
        check("insert before 2", Some(InsertBefore(2)));
        check("insert head", Some(InsertHead));
        check("replace block 4", Some(ReplaceBlock { line: 4 }));
        for sep in ["-", " ", "…", " - ", " .. ", "\t", "....", "-..…", ".. -"] {
            check(
                &format!("replace 2{sep}3:"),
                Some(Replace { start: 2, end: 3 }),
            );
            check(
                &format!("delete 2{sep}3"),
                Some(Delete { start: 2, end: 3 }),
            );
        }
        check("  replace 2..3 :  ", Some(Replace { start: 2, end: 3 }));
        check("replace 2 :", Some(Replace { start: 2, end: 2 }));
        check("insert  after\t9 :", Some(InsertAfter(9)));
        check("replace 5..2:", Some(Replace { start: 5, end: 2 }));
        check(
            "replace 99999999999999999999..99999999999999999999:",
            Some(Replace {
                start: u64::MAX,
                end: u64::MAX,
            }),
        );
    }

    #[test]
    fn rejected_shapes() {
        for line in [
            "replace2..3:",
            "insert before2:",
            "replace 2...3:",
            "replace 2,3:",
            "replace 2..:",
            "replace 0:",
            "replace 02:",
            "replace -2:",
            "replace +2:",
            "replace 2..2: x",
            "replace 2..2::BBB",
            "delete 2:",
            "delete 2..3 :",
            "delete block 2:",
            "replace block 2..3:",
            "Replace 2:",
            "REPLACE 2:",
            "replace:",
            "replace",
            "insert",
            "insert:head",
            "insert head:=NEW",
            "insert middle:",
            "insert before:",
            "replace 2-:",
            "replace 2x:",
            "replace-2:",
            "replace 2:\u{a0}",
            "replaced 2:",
            "delete",
            "delete block",
        ] {
            check(line, None);
        }
    }
}
