//! What a V4A patch says: its hunks (one file operation each) and an update's chunks.

/// A parsed patch: its hunks in order (possibly none).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Patch {
    /// The file operations, in patch order.
    pub hunks: Vec<Hunk>,
}

/// One file operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hunk {
    /// `*** Add File: PATH` and its `+` rows.
    Add {
        /// The path as written.
        path: String,
        /// The new file's lines (each written with a `\n` after it).
        lines: Vec<String>,
    },
    /// `*** Delete File: PATH`.
    Delete {
        /// The path as written.
        path: String,
    },
    /// `*** Update File: PATH`, an optional `*** Move to:` and at least one chunk.
    Update {
        /// The path as written.
        path: String,
        /// The destination of `*** Move to:`, as written.
        move_to: Option<String>,
        /// The chunks, in file order.
        chunks: Vec<Chunk>,
    },
}

impl Hunk {
    /// The path the hunk names (for an update, its source).
    pub fn path(&self) -> &str {
        match self {
            Hunk::Add { path, .. } | Hunk::Delete { path } | Hunk::Update { path, .. } => path,
        }
    }
}

/// One `@@` chunk of an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The text after `@@ ` (a line to find before the chunk's rows), if any.
    pub context: Option<String>,
    /// The chunk's rows in order.
    pub rows: Vec<Row>,
    /// `*** End of File`: the old rows end the file.
    pub end_of_file: bool,
}

impl Chunk {
    /// The lines the chunk expects in the file (context and removed rows).
    pub fn old_lines(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter_map(|r| match r {
                Row::Context(t) | Row::Remove(t) => Some(t.as_str()),
                Row::Add(_) => None,
            })
            .collect()
    }

    /// The lines the chunk leaves (context and added rows).
    pub fn new_lines(&self) -> Vec<&str> {
        self.rows
            .iter()
            .filter_map(|r| match r {
                Row::Context(t) | Row::Add(t) => Some(t.as_str()),
                Row::Remove(_) => None,
            })
            .collect()
    }
}

/// One row of a chunk, without its prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// ` text` (or an empty line): a line kept.
    Context(String),
    /// `-text`: a line removed.
    Remove(String),
    /// `+text`: a line added.
    Add(String),
}
