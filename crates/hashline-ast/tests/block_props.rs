//! Properties of the block resolver over arbitrary text: it never panics, and a span it returns
//! starts on the asked line and ends inside the text.

use std::path::Path;

use hashline_ast::TreeSitterBlocks;
use hashline_core::BlockResolver;
use proptest::prelude::*;

fn code() -> impl Strategy<Value = String> {
    // Mostly code-like characters so that real blocks occur, plus arbitrary text.
    prop_oneof![
        proptest::collection::vec(
            prop_oneof![
                Just("{".to_string()),
                Just("}".to_string()),
                Just("(".to_string()),
                Just(")".to_string()),
                Just("\n".to_string()),
                Just("  ".to_string()),
                Just("\t".to_string()),
                Just("if (a) ".to_string()),
                Just("function f() ".to_string()),
                Just("def g():\n    ".to_string()),
                Just("fn h() ".to_string()),
                Just("x = 1;".to_string()),
                Just("é".to_string()),
            ],
            0..40
        )
        .prop_map(|parts| parts.concat()),
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn spans_stay_on_the_line_and_inside_the_text(
        text in code(),
        line in 0usize..12,
        ext in prop_oneof![Just("ts"), Just("tsx"), Just("js"), Just("py"), Just("rs"), Just("go"), Just("txt")],
    ) {
        let path = format!("f.{ext}");
        if let Some(span) = TreeSitterBlocks::new().resolve(Path::new(&path), &text, line) {
            let lines = text.split('\n').count();
            prop_assert_eq!(span.start, line);
            prop_assert!(span.end >= span.start && span.end <= lines, "{:?} of {} lines", span, lines);
        }
    }
}
