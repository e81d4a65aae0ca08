//! Which dialect a request speaks, and which anchors a read shows: [`Dialect`] is the handle
//! of `hashline_apply`'s dialect registry (`auto`, or one of
//! [`hashline_apply::registry::DIALECTS`]), each dialect a [`hashline_apply::Dialect`].

pub use hashline_apply::{Anchors, DialectId as Dialect};

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn detects_each_dialect() {
        assert_eq!(Dialect::detect("\n¶a.ts#1A2B\ndelete 1"), Dialect::Hashline);
        assert_eq!(
            Dialect::detect("*** Begin Patch\n¶a.ts#1A2B"),
            Dialect::Hashline
        );
        assert_eq!(
            Dialect::detect(r#"{"filePath":"a","edits":[]}"#),
            Dialect::LineidJson
        );
        assert_eq!(
            Dialect::detect(r#" {"path":"a","edits":[]}"#),
            Dialect::HashJson
        );
        assert_eq!(
            Dialect::detect(r#"{"command":"view","path":"a"}"#),
            Dialect::StrReplace
        );
        assert_eq!(Dialect::detect("garbage"), Dialect::Hashline);
        assert_eq!(
            Dialect::detect("*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch"),
            Dialect::ApplyPatch
        );
        assert_eq!(
            Dialect::detect("<<'EOF'\n*** Begin Patch\n  *** Add File: b\n+x\n*** End Patch\nEOF"),
            Dialect::ApplyPatch
        );
        assert_eq!(
            Dialect::detect("*** Begin Patch\n*** End Patch\n"),
            Dialect::ApplyPatch
        );
        assert_eq!(Dialect::detect("{not json"), Dialect::Hashline);
    }
}
