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
use super::lookup::{fnv1a, fnv1a_from, MAGIC, MAX_K, MIN_K};
use super::lookup_summary::FileHeader;
use super::null_rank::{null_index, null_key, NullIndex};
use crate::rules::GameType;

/// The file version of dense null tables.
pub const DENSE_VERSION: u8 = 3;

/// A huge-page copy of `b`.
fn huge(b: &[u8]) -> HugeBuf<u8> {
    let mut h = HugeBuf::zeroed(b.len());
    h[..b.len()].copy_from_slice(b);
    h
}

pub(super) fn rd8(b: &[u8], o: usize) -> u64 {
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
    /// The rows `first..first + values.len()` with these values (each at most 11).
    pub fn from_values(k: u8, first: u64, values: &[u8]) -> DenseNull {
        let mut packed = vec![0u8; values.len().div_ceil(2)];
        for (i, &v) in values.iter().enumerate() {
            debug_assert!(v <= 11, "a null value is at most 11");
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
        b.extend_from_slice(&header(self.k, self.first, self.count));
        b.extend_from_slice(self.packed());
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses a version 3 file (magic, version and checksum included).
    pub fn from_bytes(b: &[u8]) -> Result<DenseNull, String> {
        DenseNull::read_from(&mut &b[..], b.len() as u64)
    }

    /// Reads a version 3 file into memory once (null-7 takes 8.1 GB).
    pub fn read_file(path: &Path) -> Result<DenseNull, String> {
        let at = |e: String| format!("{}: {e}", path.display());
        let mut f = std::fs::File::open(path).map_err(|e| at(e.to_string()))?;
        let size = f.metadata().map_err(|e| at(e.to_string()))?.len();
        DenseNull::read_from(&mut f, size).map_err(at)
    }

    /// A table from `size` bytes of a version 3 file: header, values straight into the
    /// table's buffer, checksum; refused where anything does not fit.
    fn read_from(r: &mut impl Read, size: u64) -> Result<DenseNull, String> {
        let io = |e: std::io::Error| e.to_string();
        let mut head = [0u8; 24];
        if size < 32 {
            return Err("not a dense null table".into());
        }
        r.read_exact(&mut head).map_err(io)?;
        if &head[..4] != MAGIC || head[4] != DENSE_VERSION {
            return Err("not a dense null table".into());
        }
        let (class, k, first, count) = (head[5], head[6], rd8(&head, 8), rd8(&head, 16));
        if size - 32 != count.div_ceil(2) {
            return Err(format!(
                "size mismatch: {} bytes of values for {count} rows",
                size - 32
            ));
        }
        let bytes = count.div_ceil(2) as usize;
        let mut values = HugeBuf::<u8>::try_zeroed(bytes)
            .map_err(|_| format!("cannot allocate {bytes} bytes for the table in memory"))?;
        r.read_exact(&mut values[..bytes]).map_err(io)?;
        let mut tail = [0u8; 8];
        r.read_exact(&mut tail).map_err(io)?;
        if fnv1a_from(fnv1a(&head), &values) != u64::from_le_bytes(tail) {
            return Err("checksum mismatch (truncated or damaged file)".into());
        }
        if class != 2 || !(MIN_K..=MAX_K).contains(&k) {
            return Err(format!(
                "bad class {class} or hand size {k} for a dense null table"
            ));
        }
        let index = null_index(k as u32);
        if first.checked_add(count).is_none_or(|e| e > index.len()) {
            let all = index.len();
            return Err(format!(
                "rows {first}..{first}+{count} beyond the {all} of null-{k}"
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

    /// Joins the shard files of one size, which must follow each other in rank order, into
    /// the file `out`, one shard in memory at a time; returns the rows.
    pub fn merge_files(parts: &[PathBuf], out: &Path) -> Result<u64, String> {
        let mut shards = Vec::with_capacity(parts.len());
        for p in parts {
            let h = FileHeader::read(p)?;
            shards.push((h.first, h.rows, h.k, p));
        }
        shards.sort_by_key(|s| s.0);
        let (first, k) = shards
            .first()
            .map(|s| (s.0, s.2))
            .ok_or("no parts to merge")?;
        let count = shards.iter().map(|s| s.1).sum();
        let err = |e: std::io::Error| format!("{}: {e}", out.display());
        let mut w = std::io::BufWriter::new(std::fs::File::create(out).map_err(err)?);
        let loaded = shards.iter().map(|s| DenseNull::read_file(s.3));
        join((k, first, count), loaded, &mut w)?;
        w.flush().map_err(err)?;
        Ok(count)
    }

    /// Joins shards of one size, which must follow each other in rank order.
    pub fn merge(mut parts: Vec<DenseNull>) -> Result<DenseNull, String> {
        parts.sort_by_key(|p| p.first);
        let (first, k) = parts
            .first()
            .map(|p| (p.first, p.k))
            .ok_or("no parts to merge")?;
        let count = parts.iter().map(|p| p.count).sum();
        let mut b = Vec::new();
        join((k, first, count), parts.into_iter().map(Ok), &mut b)?;
        DenseNull::from_bytes(&b)
    }
}

/// The first 24 bytes of a version 3 file.
fn header(k: u8, first: u64, count: u64) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[..4].copy_from_slice(MAGIC);
    h[4..8].copy_from_slice(&[DENSE_VERSION, 2, k, 0]);
    h[8..16].copy_from_slice(&first.to_le_bytes());
    h[16..].copy_from_slice(&count.to_le_bytes());
    h
}

/// Writes the version 3 file of `count` rows from `first` of null-`k` from shards given in
/// rank order (each loaded only when its turn comes: one shard in memory at a time),
/// refusing shards of another size, gaps and overlaps.
fn join(
    (k, first, count): (u8, u64, u64),
    parts: impl Iterator<Item = Result<DenseNull, String>>,
    w: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let head = header(k, first, count);
    w.write_all(&head).map_err(io)?;
    let mut sum = fnv1a(&head);
    // the low nibble of a byte still to be written (an odd number of rows so far)
    let (mut next, mut odd) = (first, None::<u8>);
    for part in parts {
        let part = part?;
        if part.k != k {
            return Err("parts of another size".into());
        }
        if part.first != next {
            return Err(format!("parts leave a gap or overlap at row {next}"));
        }
        let mut bytes = Vec::with_capacity(part.packed().len() + 1);
        for i in 0..part.count {
            let v = part.nibble(i);
            match odd.take() {
                None => odd = Some(v),
                Some(lo) => bytes.push(lo | v << 4),
            }
        }
        sum = fnv1a_from(sum, &bytes);
        w.write_all(&bytes).map_err(io)?;
        next += part.count;
    }
    if next != first + count {
        return Err(format!("parts end at row {next}, not {}", first + count));
    }
    if let Some(lo) = odd {
        sum = fnv1a_from(sum, &[lo]);
        w.write_all(&[lo]).map_err(io)?;
    }
    w.write_all(&sum.to_le_bytes()).map_err(io)
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
