//! Table files summarised without loading them: a file's header checked against its size
//! ([`FileHeader`]), and a directory's tables as `skat tables info` lists them
//! ([`summarise_dir`]).
//!
//! # Invariant
//!
//! A summary never reads a dense null table's body (null-7 is 8 GB): its rows, entries and
//! memory follow from the header, which must agree with the file's size. Keyed tables (suit
//! and grand, at most a few hundred MB) are loaded, since their size in memory depends on
//! their index. Nothing here verifies a checksum: loading a table does.

use std::path::Path;

use super::lookup::{table_files, ClassTable, MAGIC, MAX_K, MIN_K};
use super::lookup_build::try_row_count;
use super::lookup_dense::{rd8, DENSE_VERSION};

/// What a table file (or a build's shard) says of itself in its first 24 bytes, checked
/// against the file's size: read without the body, so that a summary of an 8 GB table does
/// not load it (nor verify its checksum: loading does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileHeader {
    pub version: u8,
    pub class: u8,
    pub k: u8,
    /// The first row of a dense shard (0 for keyed files and whole tables).
    pub first: u64,
    pub rows: u64,
    /// Tentpoles (a dense null file: one value per row).
    pub entries: u64,
}

impl FileHeader {
    pub fn read(path: &Path) -> Result<FileHeader, String> {
        use std::io::Read;
        let at = |e: String| format!("{}: {e}", path.display());
        let mut f = std::fs::File::open(path).map_err(|e| at(e.to_string()))?;
        let size = f.metadata().map_err(|e| at(e.to_string()))?.len();
        let mut h = [0u8; 24];
        if size < 32 || f.read_exact(&mut h).is_err() || &h[..4] != MAGIC {
            return Err(at("not a lookup table file".into()));
        }
        let (version, class, k) = (h[4], h[5], h[6]);
        if !(1..=DENSE_VERSION).contains(&version) || class > 2 || !(MIN_K..=MAX_K).contains(&k) {
            return Err(at(format!(
                "unknown version {version}, class {class} or hand size {k}"
            )));
        }
        let (a, b) = (rd8(&h, 8), rd8(&h, 16));
        let (first, rows, entries, body) = if version == DENSE_VERSION {
            (a, b, b, Some(b.div_ceil(2)))
        } else {
            // keys (u64) and offsets (u32, one more) per row, valuation (u32) and value (u8)
            // per entry
            let body = (a.checked_mul(12).and_then(|x| x.checked_add(4)))
                .and_then(|x| x.checked_add(b.checked_mul(5)?));
            (0, a, b, body)
        };
        if body.and_then(|b| b.checked_add(32)) != Some(size) {
            return Err(at(format!(
                "size mismatch: {size} bytes for {rows} rows and {entries} entries"
            )));
        }
        Ok(FileHeader {
            version,
            class,
            k,
            first,
            rows,
            entries,
        })
    }
}

/// One table of a directory as a summary shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSummary {
    pub class: u8,
    pub k: u8,
    pub rows: u64,
    pub entries: u64,
    /// Bytes the table takes once loaded.
    pub memory_bytes: u64,
    /// Whether it holds every row of its class and size.
    pub complete: bool,
}

/// The tables [`LookupTables::read_dir`] would load, summarised: dense null tables from their
/// headers alone (null-7 is 8 GB), keyed ones loaded (their size in memory depends on their
/// index).
pub fn summarise_dir(dir: &Path) -> Result<Vec<TableSummary>, String> {
    let mut out = Vec::new();
    for (class, k, p) in table_files(dir)? {
        let h = FileHeader::read(&p)?;
        if h.class != class || h.k != k {
            return Err(format!("{}: holds another class or size", p.display()));
        }
        let (rows, entries, memory_bytes) = if h.version == DENSE_VERSION {
            (h.rows, h.entries, h.rows.div_ceil(2))
        } else {
            let t = ClassTable::read_file(&p)?;
            (t.rows() as u64, t.entries() as u64, t.bytes() as u64)
        };
        out.push(TableSummary {
            class,
            k,
            rows,
            entries,
            memory_bytes,
            complete: rows == try_row_count(class, k as u32)? as u64,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lookup::LookupTables;
    use crate::solver::lookup_build::{build_shard, Method};

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("skat-summary-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("a scratch directory");
        d
    }

    #[test]
    fn headers_and_summaries_agree_with_the_loaded_tables() {
        let d = scratch("agree");
        // a complete dense null-3, a keyed suit shard and a dense null-4 shard
        let (null3, _) = build_shard(2, 3, 0, usize::MAX, Method::default(), None).unwrap();
        std::fs::write(d.join("null-3.skt"), null3.to_bytes()).unwrap();
        let (suit, _) = build_shard(0, 3, 0, 300, Method::default(), None).unwrap();
        let (null4, _) = build_shard(2, 4, 1000, 1500, Method::default(), None).unwrap();
        for (name, t, first) in [("a.part", &suit, 0), ("b.part", &null4, 1000)] {
            std::fs::write(d.join(name), t.to_bytes()).unwrap();
            let h = FileHeader::read(&d.join(name)).unwrap();
            assert_eq!((h.class, h.k, h.first), (t.class, t.k, first));
            assert_eq!((h.rows, h.entries), (t.rows() as u64, t.entries() as u64));
        }
        let loaded = LookupTables::read_dir(&d).unwrap();
        let summary = summarise_dir(&d).unwrap();
        assert_eq!(summary.len(), 1);
        let (s, t) = (summary[0], loaded.table(2, 3).unwrap());
        assert_eq!((s.class, s.k), (2, 3));
        assert_eq!((s.rows, s.entries), (t.rows() as u64, t.entries() as u64));
        assert_eq!(s.memory_bytes, t.bytes() as u64);
        assert!(s.complete);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn truncated_or_foreign_files_are_refused() {
        let d = scratch("refused");
        let (null3, _) = build_shard(2, 3, 0, 2000, Method::default(), None).unwrap();
        let (suit, _) = build_shard(0, 3, 0, 50, Method::default(), None).unwrap();
        for (i, t) in [null3, suit].iter().enumerate() {
            let b = t.to_bytes();
            let p = d.join(format!("{i}.part"));
            for cut in [1, 8, b.len() - 31] {
                std::fs::write(&p, &b[..b.len() - cut]).unwrap();
                assert!(FileHeader::read(&p).is_err());
            }
            let mut longer = b.clone();
            longer.push(0);
            std::fs::write(&p, &longer).unwrap();
            assert!(FileHeader::read(&p).unwrap_err().contains("size mismatch"));
            let mut foreign = b.clone();
            foreign[0] = b'X';
            std::fs::write(&p, &foreign).unwrap();
            assert!(FileHeader::read(&p)
                .unwrap_err()
                .contains("not a lookup table"));
        }
        assert!(summarise_dir(&d.join("missing")).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
