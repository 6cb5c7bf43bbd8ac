//! Joining the keyed shards of one class and hand size into a table file.
//!
//! The builder cuts a table into shards of consecutive row numbers; each shard is a keyed
//! file ([`crate::solver::lookup`], version 2) with its rows in key order, but row numbers
//! and keys follow different orders, so the shards' key ranges overlap and the table is
//! their merge by key. The merge holds the rows in flat arrays (keys, where each row's
//! entries start and a key order: 20 bytes a row; the entries' valuations and values: 5 bytes
//! an entry), the finished file's size plus 8 bytes a row, and reads one shard file at a
//! time, so a table merges in about a third of the memory [`ClassTable::merge`] takes. Every
//! allocation is fallible: a merge that does not fit the memory is an error, never an abort.
//!
//! Invariant: the file written is byte for byte the one [`ClassTable::merge`] followed by
//! [`ClassTable::to_bytes`] gives (tested; both write through `lookup::write_keyed`), and a row
//! present in two shards, or shards of different classes or sizes, are refused before anything
//! is written.

use std::path::{Path, PathBuf};

#[cfg(doc)]
use super::lookup::ClassTable;
use super::lookup::{write_keyed, KeyedFile};

/// A vector of `n` elements' capacity, or an error naming what did not fit.
fn reserve<T>(n: usize, what: &str) -> Result<Vec<T>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        format!(
            "cannot allocate {} bytes for the merge's {what}",
            n.saturating_mul(std::mem::size_of::<T>())
        )
    })?;
    Ok(v)
}

/// The rows of every shard, in shard order, and the key order over them.
struct Rows {
    class: u8,
    k: u8,
    keys: Vec<u64>,
    /// Where each row's entries start in `valuations`/`values` (one more than the rows).
    starts: Vec<u64>,
    valuations: Vec<u32>,
    values: Vec<u8>,
}

impl Rows {
    /// Reads the shard files one at a time (each checked like a table file).
    fn read(parts: &[PathBuf]) -> Result<Rows, String> {
        let mut heads = Vec::new();
        for p in parts {
            heads.push(super::lookup_summary::FileHeader::read(p)?);
        }
        let first = heads.first().ok_or("no parts to merge")?;
        let (class, k) = (first.class, first.k);
        if heads.iter().any(|h| (h.class, h.k) != (class, k)) {
            return Err("parts of another class or size".into());
        }
        let rows: u64 = heads.iter().map(|h| h.rows).sum();
        let entries: u64 = heads.iter().map(|h| h.entries).sum();
        if entries > u32::MAX as u64 || rows >= u32::MAX as u64 {
            return Err(format!(
                "{rows} rows and {entries} entries are beyond the file format"
            ));
        }
        let (rows, entries) = (rows as usize, entries as usize);
        let mut r = Rows {
            class,
            k,
            keys: reserve(rows, "keys")?,
            starts: reserve(rows + 1, "row offsets")?,
            valuations: reserve(entries, "valuations")?,
            values: reserve(entries, "values")?,
        };
        for p in parts {
            let at = |e: String| format!("{}: {e}", p.display());
            let b = std::fs::read(p).map_err(|e| at(e.to_string()))?;
            let f = KeyedFile::parse(&b).map_err(at)?;
            if (f.class, f.k) != (class, k) || r.keys.len() + f.rows > rows {
                return Err(at("changed while the parts were merged".into()));
            }
            let base = r.values.len() as u64;
            for i in 0..f.rows {
                r.keys.push(f.key(i));
                r.starts.push(base + f.offset(i) as u64);
            }
            r.valuations.extend((0..f.entries).map(|e| f.valuation(e)));
            r.values.extend_from_slice(f.values);
        }
        if r.keys.len() != rows || r.values.len() != entries {
            return Err("the parts changed while they were merged".into());
        }
        r.starts.push(entries as u64);
        Ok(r)
    }

    /// The rows in key order; an error if a key is present twice.
    fn key_order(&self) -> Result<Vec<u32>, String> {
        let mut order: Vec<u32> = reserve(self.keys.len(), "key order")?;
        order.extend(0..self.keys.len() as u32);
        order.sort_unstable_by_key(|&i| self.keys[i as usize]);
        if order
            .windows(2)
            .any(|w| self.keys[w[0] as usize] == self.keys[w[1] as usize])
        {
            return Err("parts overlap (a row built twice)".into());
        }
        Ok(order)
    }

    /// The entries of row `i`.
    fn span(&self, i: u32) -> std::ops::Range<usize> {
        self.starts[i as usize] as usize..self.starts[i as usize + 1] as usize
    }
}

/// Joins the keyed shard files `parts` of one class and size into the table file `out`;
/// returns its rows and entries.
pub fn merge_keyed_files(parts: &[PathBuf], out: &Path) -> Result<(usize, usize), String> {
    let rows = Rows::read(parts)?;
    let order = rows.key_order()?;
    let (n, entries) = (rows.keys.len(), rows.values.len());
    let err = |e: std::io::Error| format!("{}: {e}", out.display());
    let file = std::io::BufWriter::new(std::fs::File::create(out).map_err(err)?);
    let in_key_order = || {
        order.iter().map(|&i| {
            let span = rows.span(i);
            let entries = (&rows.valuations[span.clone()], &rows.values[span]);
            (rows.keys[i as usize], entries)
        })
    };
    write_keyed(file, rows.class, rows.k, n, entries, in_key_order).map_err(err)?;
    Ok((n, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lookup::ClassTable;
    use crate::solver::lookup_build::{build_shard, Method};

    fn shards(class: u8, k: u32, cuts: &[usize], dir: &Path) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        for (j, w) in cuts.windows(2).enumerate() {
            let (t, _) = build_shard(class, k, w[0], w[1], Method::default(), None).unwrap();
            let p = dir.join(format!("{j:06}.part"));
            std::fs::write(&p, t.to_bytes()).unwrap();
            paths.push(p);
        }
        paths
    }

    #[test]
    fn the_merge_writes_the_bytes_of_the_table_in_memory() {
        let dir = std::env::temp_dir().join(format!("skat-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for class in [0u8, 1] {
            let parts = shards(class, 3, &[0, 300, 700, 701, 1000], &dir);
            let tables: Vec<ClassTable> = parts
                .iter()
                .map(|p| ClassTable::read_file(p).unwrap())
                .collect();
            let expected = ClassTable::merge(tables).unwrap().to_bytes();
            let out = dir.join("merged.skt");
            let (rows, entries) = merge_keyed_files(&parts, &out).unwrap();
            assert_eq!(std::fs::read(&out).unwrap(), expected);
            let t = ClassTable::read_file(&out).unwrap();
            assert_eq!((t.rows(), t.entries()), (rows, entries));
            assert_eq!(rows, 1000);
            // a row twice, a part of another class, nothing: refused
            let twice = [parts[0].clone(), parts[1].clone(), parts[0].clone()];
            assert!(merge_keyed_files(&twice, &out)
                .unwrap_err()
                .contains("overlap"));
            let elsewhere = dir.join("other");
            std::fs::create_dir_all(&elsewhere).unwrap();
            let other = shards(1 - class, 3, &[0, 10], &elsewhere)
                .into_iter()
                .chain(parts.iter().cloned())
                .collect::<Vec<_>>();
            assert!(merge_keyed_files(&other, &out)
                .unwrap_err()
                .contains("class"));
            assert!(merge_keyed_files(&[], &out).is_err());
            for p in parts {
                std::fs::remove_file(p).unwrap();
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_part_is_named() {
        let dir = std::env::temp_dir().join(format!("skat-merge-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let parts = shards(0, 3, &[0, 50, 100], &dir);
        let mut b = std::fs::read(&parts[1]).unwrap();
        let last = b.len() - 20;
        b[last] ^= 1;
        std::fs::write(&parts[1], b).unwrap();
        let e = merge_keyed_files(&parts, &dir.join("m.skt")).unwrap_err();
        assert!(e.contains("000001.part") && e.contains("checksum"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
