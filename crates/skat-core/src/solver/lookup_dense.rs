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

use std::sync::OnceLock;

use super::layout::Layout;
use super::lookup::{fnv1a, MAX_K, MIN_K};
use super::null_rank::NullIndex;
use crate::rules::GameType;

/// The file version of dense null tables.
pub const DENSE_VERSION: u8 = 3;
const MAGIC: &[u8; 4] = b"SKLT";

/// The (lazily built) index of each null hand size up to 8.
pub fn null_index(k: u32) -> &'static NullIndex {
    static INDEX: [OnceLock<NullIndex>; 9] = [const { OnceLock::new() }; 9];
    INDEX[k as usize].get_or_init(|| NullIndex::new(k))
}

/// Values of consecutive null rows of one hand size (see the module documentation).
#[derive(Clone)]
pub struct DenseNull {
    pub k: u8,
    pub first: u64,
    pub count: u64,
    values: Vec<u8>,
    index: &'static NullIndex,
    lay: &'static Layout,
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
            values: packed,
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
        self.values.len()
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
            let tag = drel as u64 | 2 << 2;
            let key = super::search::key::canonical_key(self.lay, hands, tag).0.a;
            (key, self.nibble(i))
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32 + self.values.len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&[DENSE_VERSION, 2, self.k, 0]);
        b.extend_from_slice(&self.first.to_le_bytes());
        b.extend_from_slice(&self.count.to_le_bytes());
        b.extend_from_slice(&self.values);
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses a version 3 file (magic, version and checksum included).
    pub fn from_bytes(b: &[u8]) -> Result<DenseNull, String> {
        if b.len() < 32 || &b[..4] != MAGIC || b[4] != DENSE_VERSION {
            return Err("not a dense null table".into());
        }
        let (class, k) = (b[5], b[6]);
        if class != 2 || !(MIN_K..=MAX_K.max(8)).contains(&k) {
            return Err(format!(
                "bad class {class} or hand size {k} for a dense null table"
            ));
        }
        let body = b.len() - 8;
        let stored = u64::from_le_bytes(b[body..].try_into().expect("8 bytes"));
        if fnv1a(&b[..body]) != stored {
            return Err("checksum mismatch (truncated or damaged file)".into());
        }
        let rd8 = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        let (first, count) = (rd8(8), rd8(16));
        let index = null_index(k as u32);
        let n = count.div_ceil(2);
        if (body - 24) as u64 != n || first.checked_add(count).is_none_or(|e| e > index.len()) {
            return Err(format!(
                "size mismatch: {} bytes of values for {count} rows",
                body - 24
            ));
        }
        let values = b[24..body].to_vec();
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
            values,
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
        // keys come back to their rows
        for (n, (key, v)) in whole.iter_rows().enumerate().step_by(97) {
            assert_eq!(whole.value(key), Some(v), "row {n}");
        }
    }
}
