//! The request shape of the text-editor tool dialect (`--dialect str-replace`): Anthropic's
//! `str_replace_based_edit_tool` input as OpenHands' `OHEditor` (openhands-aci 0.3.3) takes it.
//!
//! [`parse_request`] reads the JSON object (`command`, `path` and the other keys kept raw);
//! [`RawRequest::command`] then checks the parameters of its command with the oracle's texts.
//! The two steps are apart because the oracle checks the path (it exists, it is a file) before
//! the parameters: the front end does the same between them.

mod repr;

pub use repr::{py_literal, py_repr};

use serde_json::{Map, Value};

/// The commands of the tool, in the order the oracle lists them.
pub const COMMANDS: [&str; 5] = ["view", "create", "str_replace", "insert", "undo_edit"];

/// A request before its parameters are checked.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRequest {
    /// The command as sent.
    pub command: String,
    /// The path as sent (relative to the root).
    pub path: String,
    fields: Map<String, Value>,
}

/// A checked command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Show a file (`view_range`: first and last line, `-1` for the end) or list a directory.
    View {
        /// The requested lines, `None` for the whole file.
        range: Option<(i64, i64)>,
        /// `view_range` as sent was not `null` (a directory refuses it).
        range_sent: Option<String>,
    },
    /// Create a file that does not exist.
    Create {
        /// Its text.
        file_text: String,
    },
    /// Replace the one occurrence of `old_str`.
    StrReplace {
        /// The text to find.
        old_str: String,
        /// Its replacement (absent: delete the match).
        new_str: String,
    },
    /// Insert after line `insert_line` (0: at the start).
    Insert {
        /// The line after which `new_str` goes.
        insert_line: i64,
        /// The inserted text.
        new_str: String,
    },
    /// Undo the session's last edit of the file.
    UndoEdit,
}

/// A request error is refused as a bad shape, in the oracle's words.
impl From<RequestError> for hashline_core::Refusal {
    fn from(e: RequestError) -> hashline_core::Refusal {
        hashline_core::Refusal::new(hashline_core::ErrorCode::BadShape, e.to_string())
    }
}

/// A request the tool cannot run, worded as the oracle words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// Not a JSON object with string `command` and `path`.
    #[error("Invalid request: {0}. Send one JSON object with string fields `command` and `path`, e.g. {{\"command\": \"view\", \"path\": \"src/main.rs\"}}.")]
    Shape(String),
    /// A parameter the command needs is missing or `null`.
    #[error("Parameter `{param}` is required for command: {command}.")]
    Missing {
        /// The command.
        command: String,
        /// The parameter.
        param: &'static str,
    },
    /// A parameter has a value the command cannot use.
    #[error("Invalid `{param}` parameter: {value}. {why}")]
    Invalid {
        /// The parameter.
        param: &'static str,
        /// Its value, as Python prints it.
        value: String,
        /// What is wrong and what it should be.
        why: String,
    },
    /// A command the tool does not have.
    #[error("Unrecognized command {0}. The allowed commands for the oh_editor tool are: view, create, str_replace, insert, undo_edit")]
    UnknownCommand(String),
}

/// Parse the request object (`command` and `path` are required strings).
pub fn parse_request(text: &str) -> Result<RawRequest, RequestError> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| RequestError::Shape(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(RequestError::Shape("not a JSON object".into()));
    };
    let string = |key: &str| match fields.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(RequestError::Shape(format!(
            "`{key}` is {}, not a string",
            py_repr(other)
        ))),
        None => Err(RequestError::Shape(format!("`{key}` is missing"))),
    };
    Ok(RawRequest {
        command: string("command")?,
        path: string("path")?,
        fields,
    })
}

impl RawRequest {
    /// Field `key` unless absent or `null`.
    fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key).filter(|v| !v.is_null())
    }

    /// Whether the request sets `key` to `true` (an extension flag such as `enable_linting`).
    pub fn flag(&self, key: &str) -> bool {
        self.get(key).and_then(Value::as_bool).unwrap_or(false)
    }

    /// A string parameter: `Ok(None)` when absent or `null`.
    fn text(&self, key: &'static str) -> Result<Option<String>, RequestError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(RequestError::Invalid {
                param: key,
                value: py_repr(other),
                why: "It should be a string.".into(),
            }),
        }
    }

    fn missing(&self, param: &'static str) -> RequestError {
        RequestError::Missing {
            command: self.command.clone(),
            param,
        }
    }

    /// Whether the command is one of [`COMMANDS`].
    pub fn is_known(&self) -> bool {
        COMMANDS.contains(&self.command.as_str())
    }

    /// Check the command's parameters, in the oracle's order.
    pub fn command(&self) -> Result<Command, RequestError> {
        match self.command.as_str() {
            "view" => {
                let Some(raw) = self.get("view_range") else {
                    return Ok(Command::View {
                        range: None,
                        range_sent: None,
                    });
                };
                let repr = py_repr(raw);
                let pair = match raw {
                    Value::Array(items) if items.len() == 2 => {
                        match (items[0].as_i64(), items[1].as_i64()) {
                            (Some(a), Some(b)) => Some((a, b)),
                            _ => None,
                        }
                    }
                    // Python's `if view_range` treats an empty list as absent.
                    Value::Array(items) if items.is_empty() => {
                        return Ok(Command::View {
                            range: None,
                            range_sent: None,
                        })
                    }
                    _ => None,
                };
                match pair {
                    Some(range) => Ok(Command::View {
                        range: Some(range),
                        range_sent: Some(repr),
                    }),
                    None => Err(RequestError::Invalid {
                        param: "view_range",
                        value: repr,
                        why: "It should be a list of two integers.".into(),
                    }),
                }
            }
            "create" => Ok(Command::Create {
                file_text: self.text("file_text")?.ok_or(self.missing("file_text"))?,
            }),
            "str_replace" => {
                let old_str = self.text("old_str")?.ok_or(self.missing("old_str"))?;
                let new_str = self.text("new_str")?;
                if new_str.as_deref() == Some(old_str.as_str()) {
                    return Err(RequestError::Invalid {
                        param: "new_str",
                        value: old_str,
                        why: "No replacement was performed. `new_str` and `old_str` must be different.".into(),
                    });
                }
                Ok(Command::StrReplace {
                    old_str,
                    new_str: new_str.unwrap_or_default(),
                })
            }
            "insert" => {
                let line = self.get("insert_line").ok_or(self.missing("insert_line"))?;
                let new_str = self.text("new_str")?.ok_or(self.missing("new_str"))?;
                let insert_line = line.as_i64().ok_or_else(|| RequestError::Invalid {
                    param: "insert_line",
                    value: py_literal(line),
                    why: "It should be an integer line number: 0 inserts at the start of the file, N after line N.".into(),
                })?;
                Ok(Command::Insert {
                    insert_line,
                    new_str,
                })
            }
            "undo_edit" => Ok(Command::UndoEdit),
            other => Err(RequestError::UnknownCommand(other.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests;
