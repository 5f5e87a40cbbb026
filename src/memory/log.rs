//! The memory stream's log: one JSON entry per line, appended as things happen (`memories.jsonl`). Read back at
//! start, a line cut off by a crash (no newline at its end) is dropped and cut from the file, so a torn log loses at
//! most its last entry; a damaged line in the middle loses only itself. Rewritten whole (temporary file, rename)
//! when most of it no longer describes a live memory.

use std::{
    fs::{File, OpenOptions},
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};

use super::{Memory, MemoryError};

/// One change to the stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    Add(Memory),
    /// Memories recalled at `at`.
    Touch {
        ids: Vec<u64>,
        at: u64,
    },
    Forget {
        ids: Vec<u64>,
    },
    /// Importance ratings given by the LLM.
    Rate {
        ratings: Vec<(u64, u8)>,
    },
    /// A reflection happened at `at`: importance gathered before it no longer counts towards the next.
    Reflected {
        at: u64,
    },
    /// Where the bot first joined: places are named from it.
    Spawn {
        pos: [i32; 3],
    },
}

pub struct Log {
    path: PathBuf,
    file: BufWriter<File>,
    /// Entries in the file.
    pub entries: usize,
    /// Bytes in the file.
    pub bytes: u64,
}

/// What reading a log found besides its entries.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Damage {
    /// A last line cut off by a crash was dropped.
    pub torn: bool,
    /// Lines that did not parse, by line number.
    pub bad_lines: Vec<usize>,
}

impl Log {
    /// Opens (or creates) the log at `path` and reads its entries back.
    pub fn open(path: &Path) -> Result<(Self, Vec<Entry>, Damage), MemoryError> {
        let io = |cause| MemoryError::Io { path: path.to_owned(), cause };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(err) => return Err(io(err)),
        };
        let mut damage = Damage::default();
        // Everything after the last newline was being written when the process stopped.
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        if whole < bytes.len() {
            damage.torn = true;
            let file = OpenOptions::new().write(true).open(path).map_err(io)?;
            file.set_len(whole as u64).map_err(io)?;
        }
        let mut entries = Vec::new();
        for (n, line) in bytes[..whole].split(|b| *b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => entries.push(entry),
                Err(_) => damage.bad_lines.push(n + 1),
            }
        }
        let file = OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        let log =
            Log { path: path.to_owned(), file: BufWriter::new(file), entries: entries.len(), bytes: whole as u64 };
        Ok((log, entries, damage))
    }

    /// Appends `entry` and writes it through to the file.
    pub fn append(&mut self, entry: &Entry) -> Result<(), MemoryError> {
        let mut line = serde_json::to_vec(entry).map_err(|e| MemoryError::Encode(e.to_string()))?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.flush())
            .map_err(|cause| MemoryError::Io { path: self.path.clone(), cause })?;
        self.entries += 1;
        self.bytes += line.len() as u64;
        Ok(())
    }

    /// Replaces the whole log with `entries` (temporary file, flush, rename), then appends to the new file.
    pub fn rewrite(&mut self, entries: &[Entry]) -> Result<(), MemoryError> {
        let io = |cause| MemoryError::Io { path: self.path.clone(), cause };
        let temporary = self.path.with_extension("jsonl.tmp");
        let mut bytes = 0u64;
        {
            let mut out = BufWriter::new(File::create(&temporary).map_err(io)?);
            for entry in entries {
                let mut line = serde_json::to_vec(entry).map_err(|e| MemoryError::Encode(e.to_string()))?;
                line.push(b'\n');
                out.write_all(&line).map_err(io)?;
                bytes += line.len() as u64;
            }
            let file = out.into_inner().map_err(|e| io(e.into_error()))?;
            file.sync_all().map_err(io)?;
        }
        std::fs::rename(&temporary, &self.path).map_err(io)?;
        let file = OpenOptions::new().append(true).open(&self.path).map_err(io)?;
        self.file = BufWriter::new(file);
        self.entries = entries.len();
        self.bytes = bytes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Subject;

    fn dir(tag: &str) -> crate::TestDir {
        crate::test_dir(&format!("memlog-{tag}"))
    }

    fn add(id: u64) -> Entry {
        Entry::Add(Memory::new(id, format!("memory {id}"), Subject::Died, id, 9))
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut() {
        let dir = dir("torn");
        let path = dir.join("memories.jsonl");
        let (mut log, entries, _) = Log::open(&path).unwrap();
        assert!(entries.is_empty());
        for id in 0..3 {
            log.append(&add(id)).unwrap();
        }
        drop(log);
        // A crash in the middle of the fourth line.
        let mut text = std::fs::read(&path).unwrap();
        let fourth = serde_json::to_vec(&add(3)).unwrap();
        text.extend_from_slice(&fourth[..fourth.len() / 2]);
        std::fs::write(&path, &text).unwrap();

        let (mut log, entries, damage) = Log::open(&path).unwrap();
        assert_eq!(entries, [add(0), add(1), add(2)]);
        assert_eq!(damage, Damage { torn: true, bad_lines: vec![] });
        log.append(&add(4)).unwrap();
        drop(log);
        let (_, entries, damage) = Log::open(&path).unwrap();
        assert_eq!(entries, [add(0), add(1), add(2), add(4)], "the next entry starts on a line of its own");
        assert_eq!(damage, Damage::default());
    }

    #[test]
    fn a_damaged_line_loses_only_itself_and_rewrite_replaces_all() {
        let dir = dir("damaged");
        let path = dir.join("memories.jsonl");
        let (mut log, _, _) = Log::open(&path).unwrap();
        log.append(&add(0)).unwrap();
        drop(log);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"add\": garbage}\n");
        std::fs::write(&path, text).unwrap();
        let (mut log, entries, damage) = Log::open(&path).unwrap();
        assert_eq!((entries.len(), damage.bad_lines), (1, vec![2]));
        log.append(&Entry::Forget { ids: vec![0] }).unwrap();
        log.rewrite(&[add(7)]).unwrap();
        log.append(&Entry::Reflected { at: 9 }).unwrap();
        drop(log);
        let (log, entries, _) = Log::open(&path).unwrap();
        assert_eq!(entries, [add(7), Entry::Reflected { at: 9 }]);
        assert_eq!(log.entries, 2);
    }
}
