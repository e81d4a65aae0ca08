//! Reading a command's input from a file or standard input.

use std::io::Read;

use hashline::ErrorCode;

/// Why a command's input could not be read: `E_USAGE` for a named file (the command line
/// names something unreadable), `E_IO` for standard input.
pub struct InputError {
    /// `E_USAGE` or `E_IO`.
    pub code: ErrorCode,
    /// What failed, naming the file.
    pub message: String,
}

/// The bytes of `file`, or of standard input when it is `None` or `-`.
pub fn read_bytes(file: Option<&str>) -> Result<Vec<u8>, InputError> {
    match file {
        None | Some("-") => {
            let mut buf = Vec::new();
            match std::io::stdin().lock().read_to_end(&mut buf) {
                Ok(_) => Ok(buf),
                Err(e) => Err(InputError {
                    code: ErrorCode::Io,
                    message: format!("cannot read standard input: {e}"),
                }),
            }
        }
        Some(path) => std::fs::read(path).map_err(|e| InputError {
            code: ErrorCode::Usage,
            message: format!("cannot read {path}: {e}"),
        }),
    }
}
