//! Anchors of every dialect: pure functions from text to tags, hashes and IDs, and the
//! renderers of `read` output.
//!
//! * [`tag`]: the hashline language's 4-hex whole-file tag (seed `000`).
//! * [`hash_json`]: 4-character occurrence-aware line hashes (seed `001`).
//! * [`lineid`]: two-letter `LINE#ID` line IDs (seed `004`).
//! * [`page`]: the read budget (lines and bytes per page) of the `tag` and `lineid` modes.
//!
//! ```
//! use hashline_anchor::{lineid, tag};
//!
//! let text = "fn main() {}\n";
//! let tag = tag::file_tag(text);
//! assert_eq!(tag.len(), 4); // four hex digits, a function of the whole text
//! let shown = tag::render_read("src/main.rs", text, None, None);
//! assert!(shown.starts_with(&format!("¶src/main.rs#{tag}\n1:fn main() {{}}")));
//!
//! let id = lineid::line_id(1, "fn main() {}"); // two letters
//! assert_eq!(lineid::render_row(1, "fn main() {}"), format!("1#{id}|fn main() {{}}"));
//! assert!(lineid::id_matches(1, "fn main() {}", &id));
//! assert!(!lineid::id_matches(1, "fn main() { run() }", &id));
//! ```

pub mod hash_json;
pub mod lineid;
pub mod page;
pub mod tag;
