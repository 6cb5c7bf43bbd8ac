//! Dense null tables: the values of a run of consecutive null rows, numbered by
//! [`NullIndex`], four bits each, with no keys.
//!
//! A null row has one value (the time-to-live score of the remaining tricks, at most 11), so
//! a keyed record of 12 bytes and an index slot held 4 bits of information; a dense table of
//! all rows of a hand size holds half a byte per row (null-5: 24 MB instead of 1.06 GB in
//! memory). A lookup numbers the key ([`NullIndex::rank`], a few table reads) and reads the
//! nibble.
//!
//! # Invariant
//!
//! `values` holds the value of rows `first..first + count` in rank order, row `first + i` in
//! the low nibble of byte `i / 2` for even `i` and the high one for odd `i`; a table built
//! whole has `first == 0` and `count` = every row of its size. Shards of one size join in
//! rank order without gaps or overlaps ([`DenseNull::merge`]).
//!
//! # File format (`null-{k}.skt`, version 3, little endian)
//!
//! `SKLT`, 3, class 2, k, one zero byte; `first` and `count` (u64 each); the nibbles
//! (`count.div_ceil(2)` bytes); the FNV-1a 64 checksum of everything before it.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::huge::HugeBuf;
use super::layout::Layout;
use super::lookup::{fnv1a, fnv1a_from, MAX_K, MIN_K};
use super::null_rank::{null_index, null_key, NullIndex};
use crate::rules::GameType;

/// The file version of dense null tables.
pub const DENSE_VERSION: u8 = 3;
const MAGIC: &[u8; 4] = b"SKLT";

/// A huge-page copy of `b`.
fn huge(b: &[u8]) -> HugeBuf<u8> {
    let mut h = HugeBuf::zeroed(b.len());
    h[..b.len()].copy_from_slice(b);
    h
}

fn rd8(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"))
}

/// Values of consecutive null rows of one hand size (see the module documentation), in a
/// buffer of huge pages (lookups read it at random).
pub struct DenseNull {
    pub k: u8,
    pub first: u64,
    pub count: u64,
    values: HugeBuf<u8>,
    index: &'static NullIndex,
    lay: &'static Layout,
}

impl Clone for DenseNull {
    fn clone(&self) -> DenseNull {
        DenseNull {
            values: huge(self.packed()),
            index: self.index,
            lay: self.lay,
            ..*self
        }
    }
}

impl DenseNull {
    /// The rows `first..first + values.len()` with these values (each at most 15).
    pub fn from_values(k: u8, first: u64, values: &[u8]) -> DenseNull {
        let mut packed = vec![0u8; values.len().div_ceil(2)];
        for (i, &v) in values.iter().enumerate() {
            debug_assert!(v < 16);
            packed[i / 2] |= (v & 15) << (4 * (i % 2));
        }
        DenseNull {
            k,
            first,
            count: values.len() as u64,
            values: huge(&packed),
            index: null_index(k as u32),
            lay: Layout::get(GameType::Null),
        }
    }

    /// Every row of the size present.
    pub fn complete(&self) -> bool {
        self.first == 0 && self.count == self.index.len()
    }

    /// Bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.packed().len()
    }

    /// The packed values (the buffer may hold a byte more).
    fn packed(&self) -> &[u8] {
        &self.values[..self.count.div_ceil(2) as usize]
    }

    #[inline]
    fn nibble(&self, i: u64) -> u8 {
        self.values[(i / 2) as usize] >> (4 * (i % 2)) & 15
    }

    /// The value of the row with this canonical key, if the table holds it.
    #[inline]
    pub fn value(&self, key: u64) -> Option<u8> {
        let n = self.index.rank(key, self.lay)?;
        let i = n.checked_sub(self.first)?;
        (i < self.count).then(|| self.nibble(i))
    }

    /// Every row in rank order: `(key, value)` (for tools and tests).
    pub fn iter_rows(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        (0..self.count).map(move |i| {
            let (hands, drel) = self.index.unrank(self.first + i, self.lay).expect("a row");
            (null_key(self.lay, hands, drel), self.nibble(i))
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32 + self.packed().len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&[DENSE_VERSION, 2, self.k, 0]);
        b.extend_from_slice(&self.first.to_le_bytes());
        b.extend_from_slice(&self.count.to_le_bytes());
        b.extend_from_slice(self.packed());
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses a version 3 file (magic, version and checksum included).
    pub fn from_bytes(b: &[u8]) -> Result<DenseNull, String> {
        if b.len() < 32 {
            return Err("not a dense null table".into());
        }
        let body = b.len() - 8;
        let stored = u64::from_le_bytes(b[body..].try_into().expect("8 bytes"));
        if fnv1a(&b[..body]) != stored {
            return Err("checksum mismatch (truncated or damaged file)".into());
        }
        let (first, count) = (rd8(b, 8), rd8(b, 16));
        if (body - 24) as u64 != count.div_ceil(2) {
            return Err(format!(
                "size mismatch: {} bytes of values for {count} rows",
                body - 24
            ));
        }
        DenseNull::checked(&b[..24], first, count, huge(&b[24..body]))
    }

    /// A table from a checked header and its values, refused where they do not fit.
    fn checked(
        head: &[u8],
        first: u64,
        count: u64,
        values: HugeBuf<u8>,
    ) -> Result<DenseNull, String> {
        if &head[..4] != MAGIC || head[4] != DENSE_VERSION {
            return Err("not a dense null table".into());
        }
        let (class, k) = (head[5], head[6]);
        if class != 2 || !(MIN_K..=MAX_K).contains(&k) {
            return Err(format!(
                "bad class {class} or hand size {k} for a dense null table"
            ));
        }
        let index = null_index(k as u32);
        if first.checked_add(count).is_none_or(|e| e > index.len()) {
            return Err(format!(
                "rows {first}..{first}+{count} beyond the {} of null-{k}",
                index.len()
            ));
        }
        if values.iter().any(|&x| x & 15 > 11 || x >> 4 > 11) {
            return Err("a value above 11".into());
        }
        Ok(DenseNull {
            k,
            first,
            count,
            values,
            index,
            lay: Layout::get(GameType::Null),
        })
    }

    /// Reads a version 3 file without holding it twice (null-7 takes 8.1 GB).
    pub fn read_file(path: &Path) -> Result<DenseNull, String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut f = std::fs::File::open(path).map_err(err)?;
        let mut head = [0u8; 24];
        f.read_exact(&mut head).map_err(err)?;
        let size = f.metadata().map_err(err)?.len();
        let (first, count) = (rd8(&head, 8), rd8(&head, 16));
        if size < 32 || size - 32 != count.div_ceil(2) {
            return Err(format!(
                "{}: size mismatch for {count} rows",
                path.display()
            ));
        }
        let mut values = HugeBuf::<u8>::zeroed(count.div_ceil(2) as usize);
        f.read_exact(&mut values[..count.div_ceil(2) as usize])
            .map_err(err)?;
        let mut tail = [0u8; 8];
        f.read_exact(&mut tail).map_err(err)?;
        let sum = fnv1a_from(fnv1a(&head), &values);
        if sum != u64::from_le_bytes(tail) {
            return Err(format!(
                "{}: checksum mismatch (truncated or damaged file)",
                path.display()
            ));
        }
        DenseNull::checked(&head, first, count, values)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Joins the shard files of one size, which must follow each other in rank order, into
    /// the file `out`, one shard in memory at a time; returns the rows.
    pub fn merge_files(parts: &[PathBuf], out: &Path) -> Result<u64, String> {
        let mut shards = Vec::with_capacity(parts.len());
        for p in parts {
            let mut head = [0u8; 24];
            let mut f = std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
            f.read_exact(&mut head)
                .map_err(|e| format!("{}: {e}", p.display()))?;
            shards.push((rd8(&head, 8), rd8(&head, 16), head[6], p));
        }
        shards.sort_by_key(|s| s.0);
        let (start, k) = match shards.first() {
            Some(s) => (s.0, s.2),
            None => return Err("no parts to merge".into()),
        };
        let total: u64 = shards.iter().map(|s| s.1).sum();
        let err = |e: std::io::Error| format!("{}: {e}", out.display());
        let mut w = std::io::BufWriter::new(std::fs::File::create(out).map_err(err)?);
        let mut head = Vec::with_capacity(24);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&[DENSE_VERSION, 2, k, 0]);
        head.extend_from_slice(&start.to_le_bytes());
        head.extend_from_slice(&total.to_le_bytes());
        w.write_all(&head).map_err(err)?;
        let mut sum = fnv1a(&head);
        let (mut next, mut odd) = (start, None::<u8>);
        for &(first, count, sk, path) in &shards {
            if sk != k {
                return Err("parts of another size".into());
            }
            if first != next {
                return Err(format!("parts leave a gap or overlap at row {next}"));
            }
            let part = DenseNull::read_file(path)?;
            let mut bytes = Vec::with_capacity(part.packed().len() + 1);
            for i in 0..part.count {
                let v = part.nibble(i);
                match odd.take() {
                    None => odd = Some(v),
                    Some(lo) => bytes.push(lo | v << 4),
                }
            }
            sum = fnv1a_from(sum, &bytes);
            w.write_all(&bytes).map_err(err)?;
            next += count;
        }
        if let Some(lo) = odd {
            sum = fnv1a_from(sum, &[lo]);
            w.write_all(&[lo]).map_err(err)?;
        }
        w.write_all(&sum.to_le_bytes()).map_err(err)?;
        w.flush().map_err(err)?;
        Ok(total)
    }

    /// Joins shards of one size, which must follow each other in rank order.
    pub fn merge(mut parts: Vec<DenseNull>) -> Result<DenseNull, String> {
        parts.sort_by_key(|p| p.first);
        let first = parts.first().ok_or("no parts to merge")?;
        let (k, start) = (first.k, first.first);
        let total: u64 = parts.iter().map(|p| p.count).sum();
        let mut values = Vec::with_capacity(total.div_ceil(2) as usize);
        let mut next = start;
        for p in &parts {
            if p.k != k {
                return Err("parts of another size".into());
            }
            if p.first != next {
                return Err(format!("parts leave a gap or overlap at row {next}"));
            }
            for i in 0..p.count {
                let v = p.nibble(i);
                if (next - start + i) % 2 == 0 {
                    values.push(v);
                } else if let Some(last) = values.last_mut() {
                    *last |= v << 4;
                }
            }
            next += p.count;
        }
        Ok(DenseNull {
            k,
            first: start,
            count: total,
            values: huge(&values),
            index: null_index(k as u32),
            lay: Layout::get(GameType::Null),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_bytes_and_shards() {
        let vals: Vec<u8> = (0..1001u32).map(|i| (i * 7 % 12) as u8).collect();
        let whole = DenseNull::from_values(3, 0, &vals);
        let b = whole.to_bytes();
        let back = DenseNull::from_bytes(&b).expect("parses");
        assert_eq!((back.first, back.count), (0, 1001));
        assert!((0..1001).all(|i| back.nibble(i) == vals[i as usize]));
        let a = DenseNull::from_values(3, 0, &vals[..333]);
        let z = DenseNull::from_values(3, 333, &vals[333..]);
        let joined = DenseNull::merge(vec![z, a]).expect("adjacent");
        assert_eq!(joined.to_bytes(), b);
        let gap = DenseNull::merge(vec![
            DenseNull::from_values(3, 0, &vals[..10]),
            DenseNull::from_values(3, 11, &vals[11..20]),
        ]);
        assert!(gap.is_err());
        let mut bad = b.clone();
        bad[30] ^= 1;
        assert!(DenseNull::from_bytes(&bad).is_err());
        // the same through files, one shard at a time
        let dir = std::env::temp_dir().join(format!("skat-dense-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let parts: Vec<PathBuf> = [(0, 333), (333, 700), (700, 1001)]
            .iter()
            .map(|&(a, z)| {
                let p = dir.join(format!("{a}.part"));
                let shard = DenseNull::from_values(3, a as u64, &vals[a..z]);
                std::fs::write(&p, shard.to_bytes()).expect("written");
                p
            })
            .collect();
        let out = dir.join("null-3.skt");
        assert_eq!(DenseNull::merge_files(&parts, &out), Ok(1001));
        assert_eq!(std::fs::read(&out).expect("read"), b);
        assert_eq!(DenseNull::read_file(&out).expect("parses").to_bytes(), b);
        assert!(DenseNull::merge_files(&parts[1..], &out).is_ok());
        assert!(DenseNull::merge_files(&[parts[0].clone(), parts[2].clone()], &out).is_err());
        std::fs::write(&out, &bad).expect("written");
        assert!(DenseNull::read_file(&out).is_err());
        std::fs::remove_dir_all(&dir).expect("removed");
        // keys come back to their rows
        for (n, (key, v)) in whole.iter_rows().enumerate().step_by(97) {
            assert_eq!(whole.value(key), Some(v), "row {n}");
        }
    }
}
