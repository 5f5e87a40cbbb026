//! Files written whole or not at all: a crash or a full disk leaves the old file or the new one, never half of one.
//! The skill library, the memory stream's index, the goal book, the checkpoint and the reply cache all write so.

use std::{io::Write, path::Path};

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = tempfile::NamedTempFile::new_in(folder_of(path))?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Flushes `temporary` (a file another library wrote, beside `path`) to disk and renames it over `path`.
pub fn replace_with(temporary: &Path, path: &Path) -> std::io::Result<()> {
    std::fs::File::open(temporary)?.sync_all()?;
    std::fs::rename(temporary, path)
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.json");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new and longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new and longer");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["book.json"]);
        // A folder that is not there is an error, and nothing is written.
        let missing = dir.path().join("no/such/folder/x.json");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
    }
}
