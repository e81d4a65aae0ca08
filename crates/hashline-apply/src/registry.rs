//! The one list of edit dialects. The CLI's `--dialect` values and help, the MCP tools'
//! dialect enum and descriptions, `auto` detection and `grammar`'s dialect list are all read
//! from [`DIALECTS`]; adding a dialect is a module implementing [`Dialect`] and one line here.

use crate::dialect::{Dialect, Sniff};

/// Every edit dialect, in the order the CLI and the MCP schemas list them. The first is what
/// `auto` falls back to.
pub static DIALECTS: &[&dyn Dialect] = &[
    &crate::hashline::DIALECT,
    &crate::hash_json::DIALECT,
    &crate::lineid_json::DIALECT,
    &crate::str_replace::DIALECT,
    &crate::apply_patch::DIALECT,
];

/// The dialect named `name` (its name or an alias).
pub fn find(name: &str) -> Option<&'static dyn Dialect> {
    DIALECTS
        .iter()
        .copied()
        .find(|d| d.name() == name || d.aliases().contains(&name))
}

/// The dialect `input` speaks: the highest [`Dialect::detect`] score, the earlier entry on a
/// tie, the first entry when none scores.
pub fn detect(input: &str) -> &'static dyn Dialect {
    let text = input.trim_start_matches('\u{feff}').trim_start();
    let parsed = text
        .starts_with('{')
        .then(|| serde_json::from_str::<serde_json::Value>(text).ok())
        .flatten();
    let sniff = Sniff {
        text,
        object: parsed.as_ref().and_then(serde_json::Value::as_object),
    };
    let mut best = DIALECTS[0];
    let mut best_score = 0;
    for dialect in DIALECTS {
        let score = dialect.detect(&sniff);
        if score > best_score {
            best = *dialect;
            best_score = score;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::DIALECTS;

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = DIALECTS
            .iter()
            .flat_map(|d| std::iter::once(d.name()).chain(d.aliases().iter().copied()))
            .collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
        assert!(!names.contains(&"auto"));
    }
}
