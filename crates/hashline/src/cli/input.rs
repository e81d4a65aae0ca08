//! Reading a command's input from a file or standard input.

use std::io::Read;

/// The bytes of `file`, or of standard input when it is `None` or `-`.
pub fn read_bytes(file: Option<&str>) -> std::io::Result<Vec<u8>> {
    match file {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin().lock().read_to_end(&mut buf)?;
            Ok(buf)
        }
        Some(path) => {
            std::fs::read(path).map_err(|e| std::io::Error::new(e.kind(), format!("{path}: {e}")))
        }
    }
}
