//! Precomputed endgame lookup tables (thesis ch. 8): exact values of start-of-trick
//! positions with few cards per hand, read by the search instead of searching them.
//!
//! # Contents
//!
//! A table holds one game class (suit, grand or null) and one hand size `k`. Its *rows* are
//! the canonical states of the payoff-similarity transposition table
//! ([`crate::solver::search::key::canonical_key`]): the split (cards left per group,
//! interchangeable suits sorted), the owner of every remaining card by power rank (hands
//! rotated so that the leader comes first) and the declarer's seat relative to the leader.
//! Every row of the class and size is present. A row stores a few *tentpoles*: valuations
//! (which ranks remain, hence the card points of the canonical cards) with the exact marginal
//! value of the position (the declarer's points from the cards still in play; null: the
//! time-to-live score of the remaining tricks, the same for every valuation).
//!
//! # Invariant
//!
//! The tentpoles of a row determine the value of *every* valuation of the row exactly: the
//! search bounds a valuation `y` by `v_i + dist(y, x_i)` over the tentpoles `(x_i, v_i)`
//! (the signed payoff-similarity distance, [`crate::solver::search::Searcher::dist`]), and
//! the builder ([`crate::solver::lookup_build`]) adds a tentpole wherever those bounds do
//! not meet, so lower and upper bound coincide for every valuation of every row. A lookup
//! therefore never changes a value; where bounds would not meet (a damaged or foreign file)
//! the search just narrows its window and searches on.
//!
//! # Half rows
//!
//! A *low half* row keeps only tentpoles whose lower bounds `v_i + dist_lo(y, x_i)` reach
//! every valuation's value (where the trivial lower bound 0 does not): the best lower bound
//! is then the value, so the upper bounds are not needed (thesis ch. 8.5). The builder
//! ([`crate::solver::lookup_half`]) stores a row as its low half when that has fewer
//! tentpoles. Every value of a low half row carries the flag [`LOW_HALF`].
//!
//! # File format (`{class}-{k}.skt`, little endian)
//!
//! `SKLT`, version 2 (version 1: no half rows), class (0 suit, 1 grand, 2 null), k, one zero byte; the row count and
//! the entry count (u64 each); the sorted row keys (u64), the row offsets into the entries
//! (u32, one more than the rows), the entries' valuations (u32) and values (u8, the top bit
//! [`LOW_HALF`] on every entry of a low half row); then the FNV-1a 64 checksum of everything
//! before it.
//!
//! Null tables are written in version 3 instead, dense: the values of consecutive rows
//! numbered by [`crate::solver::null_rank`], four bits each, without keys
//! ([`crate::solver::lookup_dense`]). Version 2 null files (keyed records) are still read.
//!
//! Loaded tables live for the rest of the process ([`load_dir`] leaks them once per
//! directory), so that [`LookupRef`] is a plain `'static` reference the `Copy` solver
//! options can carry.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::huge::HugeBuf;
use super::lookup_build::BuiltRow;
use super::lookup_dense::{DenseNull, DENSE_VERSION};

/// Game classes in table keys and file names.
pub const CLASS_NAMES: [&str; 3] = ["suit", "grand", "null"];
/// Largest hand size a table can have (the file and the null index allow up to this; the
/// suit and grand builders list their rows and stop earlier).
pub const MAX_K: u8 = 7;
/// Smallest useful hand size: two-card trick starts are solved directly.
pub const MIN_K: u8 = 3;

pub(super) const MAGIC: &[u8; 4] = b"SKLT";
/// Marks a record whose tentpoles are stored with an earlier row.
const SHARED: u32 = 1 << 31;
const VERSION: u8 = 2;
/// The flag on the values of a low half row (values are at most 120).
pub const LOW_HALF: u8 = 0x80;

/// One class and hand size. In memory the rows are packed records in key order, each
/// `[key low, key high, n, n valuations, the n values four to a word]`, in a buffer of huge
/// pages with an open-addressing index (slot of the key's hash, linear probing, at most half
/// full: record offset + 1, 0 empty), so that a lookup costs about two cache misses. A row
/// whose tentpoles are exactly those of an earlier row (about half of the rows' entries) is
/// `[key low, key high, SHARED | word of the earlier row's n]` instead. Null tables (one
/// tentpole a row, its valuation irrelevant) keep `[key low, key high, value]`; null tables
/// read from version 3 files are dense instead ([`crate::solver::lookup_dense`]).
pub struct ClassTable {
    pub class: u8,
    pub k: u8,
    rows: usize,
    entries: usize,
    store: Store,
}

/// Where a table's rows live.
enum Store {
    Keyed(Keyed),
    Dense(DenseNull),
}

/// The packed records and their index (see [`ClassTable`]).
struct Keyed {
    /// Records of `[key low, key high, value]` (null: one tentpole, valuation 0).
    compact: bool,
    data: HugeBuf<u32>,
    index: HugeBuf<u32>,
    shift: u32,
}

/// One row's tentpoles as stored.
#[derive(Clone, Copy, Debug)]
pub struct RowRef<'a> {
    pub vals: &'a [u32],
    packed: &'a [u32],
}

impl RowRef<'_> {
    /// The value of the `i`-th tentpole.
    #[inline]
    pub fn value(&self, i: usize) -> u8 {
        (self.packed[i / 4] >> (8 * (i % 4))) as u8 & !LOW_HALF
    }

    /// Whether the row is a low half (its best lower bound is exact).
    #[inline]
    pub fn low_half(&self) -> bool {
        self.packed[0] as u8 & LOW_HALF != 0
    }

    /// The tentpoles as built: `(valuation, value)`, every value of a low half flagged
    /// [`LOW_HALF`].
    pub fn entries(&self) -> Vec<(u32, u8)> {
        let flag = if self.low_half() { LOW_HALF } else { 0 };
        (0..self.vals.len())
            .map(|i| (self.vals[i], self.value(i) | flag))
            .collect()
    }
}

/// The valuation of a compact (null) table's one tentpole.
static NULL_VALUATION: [u32; 1] = [0];
/// The packed value words of a dense table's rows: `[v]` at `v`.
static DENSE_VALUES: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

#[inline]
fn slot_of(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

impl Keyed {
    /// The record at word `o` and the word after it.
    #[inline]
    fn record(&self, o: usize) -> (u64, RowRef<'_>, usize) {
        let key = self.data[o] as u64 | (self.data[o + 1] as u64) << 32;
        if self.compact {
            let r = RowRef {
                vals: &NULL_VALUATION,
                packed: &self.data[o + 2..o + 3],
            };
            return (key, r, o + 3);
        }
        let w = self.data[o + 2];
        // the word holding n: here, or with the earlier row that has the same tentpoles
        let (at, end) = if w & SHARED != 0 {
            ((w & !SHARED) as usize, o + 3)
        } else {
            let n = w as usize;
            (o + 2, o + 3 + n + n.div_ceil(4))
        };
        let n = self.data[at] as usize;
        let vals = &self.data[at + 1..at + 1 + n];
        let packed = &self.data[at + 1 + n..at + 1 + n + n.div_ceil(4)];
        (key, RowRef { vals, packed }, end)
    }

    #[inline]
    fn row(&self, key: u64) -> Option<RowRef<'_>> {
        let mask = self.index.len() - 1;
        let mut s = slot_of(key, self.shift);
        loop {
            let o = self.index[s] as usize;
            if o == 0 {
                return None;
            }
            let (k, r, _) = self.record(o - 1);
            if k == key {
                return Some(r);
            }
            s = (s + 1) & mask;
        }
    }
}

impl ClassTable {
    /// A table from rows `(key, tentpoles)`; rows are sorted by key here.
    pub fn from_rows(class: u8, k: u8, mut rows: Vec<(u64, Vec<(u32, u8)>)>) -> ClassTable {
        rows.sort_unstable_by_key(|r| r.0);
        // null values do not depend on the valuation: one tentpole a row, its valuation dropped
        let compact = class == 2 && rows.iter().all(|r| r.1.len() == 1);
        // per row, the earlier row with the same tentpoles (one hashing pass)
        let mut first: HashMap<&[(u32, u8)], usize> = HashMap::new();
        let earlier: Vec<Option<usize>> = if compact {
            Vec::new()
        } else {
            (rows.iter().enumerate())
                .map(|(i, r)| match first.entry(&r.1[..]) {
                    Entry::Occupied(e) => Some(*e.get()),
                    Entry::Vacant(e) => {
                        e.insert(i);
                        None
                    }
                })
                .collect()
        };
        drop(first);
        let words: usize = if compact {
            3 * rows.len()
        } else {
            (rows.iter().zip(&earlier))
                .map(|(r, e)| {
                    3 + if e.is_none() {
                        r.1.len() + r.1.len().div_ceil(4)
                    } else {
                        0
                    }
                })
                .sum()
        };
        assert!(words < u32::MAX as usize, "a table of more than 16 GB");
        let mut data = HugeBuf::<u32>::zeroed(words);
        let bits = (2 * rows.len().max(1)).next_power_of_two().trailing_zeros();
        let mut index = HugeBuf::<u32>::zeroed(1 << bits);
        let shift = 64 - bits;
        let mask = (1usize << bits) - 1;
        let mut o = 0;
        let mut entries = 0;
        // per row, the word of its tentpole count (for the rows that share it)
        let mut n_word = vec![0u32; earlier.len()];
        for (r, (key, poles)) in rows.iter().enumerate() {
            let mut sl = slot_of(*key, shift);
            while index[sl] != 0 {
                sl = (sl + 1) & mask;
            }
            index[sl] = o as u32 + 1;
            data[o] = *key as u32;
            data[o + 1] = (*key >> 32) as u32;
            if compact {
                data[o + 2] = poles[0].1 as u32;
                o += 3;
                entries += 1;
                continue;
            }
            entries += poles.len();
            if let Some(e) = earlier[r] {
                data[o + 2] = SHARED | n_word[e];
                o += 3;
                continue;
            }
            n_word[r] = o as u32 + 2;
            data[o + 2] = poles.len() as u32;
            o += 3;
            for (i, &(v, _)) in poles.iter().enumerate() {
                data[o + i] = v;
            }
            o += poles.len();
            for (i, &(_, x)) in poles.iter().enumerate() {
                data[o + i / 4] |= (x as u32) << (8 * (i % 4));
            }
            o += poles.len().div_ceil(4);
        }
        ClassTable {
            class,
            k,
            rows: rows.len(),
            entries,
            store: Store::Keyed(Keyed {
                compact,
                data,
                index,
                shift,
            }),
        }
    }

    /// A dense null table (see [`crate::solver::lookup_dense`]).
    pub fn from_dense(d: DenseNull) -> ClassTable {
        ClassTable {
            class: 2,
            k: d.k,
            rows: d.count as usize,
            entries: d.count as usize,
            store: Store::Dense(d),
        }
    }

    /// The dense null table, if this is one.
    pub fn dense(&self) -> Option<&DenseNull> {
        match &self.store {
            Store::Dense(d) => Some(d),
            Store::Keyed(_) => None,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Bytes held in memory (records and index).
    pub fn bytes(&self) -> usize {
        match &self.store {
            Store::Dense(d) => d.bytes(),
            Store::Keyed(t) => (t.data.len() + t.index.len()) * 4,
        }
    }

    /// The tentpoles of the row with this key.
    #[inline]
    pub fn row(&self, key: u64) -> Option<RowRef<'_>> {
        match &self.store {
            Store::Keyed(t) => t.row(key),
            Store::Dense(d) => {
                let v = d.value(key)? as usize;
                Some(RowRef {
                    vals: &NULL_VALUATION,
                    packed: &DENSE_VALUES[v..v + 1],
                })
            }
        }
    }

    /// Every row in key order (dense: in rank order): `(key, tentpoles)` (for tools and
    /// tests).
    pub fn iter_rows(&self) -> Box<dyn Iterator<Item = BuiltRow> + '_> {
        match &self.store {
            Store::Dense(d) => Box::new(d.iter_rows().map(|(key, v)| (key, vec![(0, v)]))),
            Store::Keyed(t) => {
                let mut o = 0;
                Box::new(std::iter::from_fn(move || {
                    if o >= t.data.len() {
                        return None;
                    }
                    let (key, r, next) = t.record(o);
                    o = next;
                    Some((key, r.entries()))
                }))
            }
        }
    }

    /// The file name of a class and hand size.
    pub fn file_name(class: u8, k: u8) -> String {
        format!("{}-{}.skt", CLASS_NAMES[class as usize], k)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        if let Some(d) = self.dense() {
            return d.to_bytes();
        }
        let b = Vec::with_capacity(24 + self.rows * 12 + self.entries * 5 + 12);
        write_keyed(b, self.class, self.k, self.rows, self.entries, || {
            self.iter_rows()
        })
        .expect("writing to memory does not fail")
    }

    pub fn from_bytes(b: &[u8]) -> Result<ClassTable, String> {
        if b.len() >= 5 && &b[..4] == MAGIC && b[4] == DENSE_VERSION {
            return DenseNull::from_bytes(b).map(ClassTable::from_dense);
        }
        let f = KeyedFile::parse(b)?;
        let rows = (0..f.rows)
            .map(|i| {
                let (a, z) = (f.offset(i) as usize, f.offset(i + 1) as usize);
                (
                    f.key(i),
                    (a..z).map(|e| (f.valuation(e), f.values[e])).collect(),
                )
            })
            .collect();
        Ok(ClassTable::from_rows(f.class, f.k, rows))
    }
}

/// The entries of one row as [`write_keyed`] writes them: valuations, then values.
pub(super) trait RowEntries {
    fn count(&self) -> usize;
    fn valuations(&self) -> impl Iterator<Item = u32>;
    fn values(&self) -> impl Iterator<Item = u8>;
}

impl RowEntries for Vec<(u32, u8)> {
    fn count(&self) -> usize {
        self.len()
    }
    fn valuations(&self) -> impl Iterator<Item = u32> {
        self.iter().map(|e| e.0)
    }
    fn values(&self) -> impl Iterator<Item = u8> {
        self.iter().map(|e| e.1)
    }
}

impl RowEntries for (&[u32], &[u8]) {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn valuations(&self) -> impl Iterator<Item = u32> {
        self.0.iter().copied()
    }
    fn values(&self) -> impl Iterator<Item = u8> {
        self.1.iter().copied()
    }
}

/// Writes a keyed table file (version 2, the layout [`KeyedFile::parse`] reads) of `n` rows
/// and `entries` entries to `w` and returns it: `rows()` gives the rows in key order, afresh
/// for each of the file's four sections (keys, offsets, valuations, values); the trailing
/// checksum hashes every byte written before it.
pub(super) fn write_keyed<W: std::io::Write, E: RowEntries, R: Iterator<Item = (u64, E)>>(
    w: W,
    class: u8,
    k: u8,
    n: usize,
    entries: usize,
    rows: impl Fn() -> R,
) -> std::io::Result<W> {
    struct Hashed<W> {
        w: W,
        hash: u64,
    }
    impl<W: std::io::Write> Hashed<W> {
        fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
            self.hash = fnv1a_from(self.hash, b);
            self.w.write_all(b)
        }
    }
    let mut w = Hashed {
        w,
        hash: fnv1a(&[]),
    };
    w.put(MAGIC)?;
    w.put(&[VERSION, class, k, 0])?;
    w.put(&(n as u64).to_le_bytes())?;
    w.put(&(entries as u64).to_le_bytes())?;
    for (key, _) in rows() {
        w.put(&key.to_le_bytes())?;
    }
    let mut off = 0u32;
    w.put(&off.to_le_bytes())?;
    for (_, e) in rows() {
        off += e.count() as u32;
        w.put(&off.to_le_bytes())?;
    }
    for (_, e) in rows() {
        for v in e.valuations() {
            w.put(&v.to_le_bytes())?;
        }
    }
    for (_, e) in rows() {
        for v in e.values() {
            w.put(&[v])?;
        }
    }
    let h = w.hash;
    w.put(&h.to_le_bytes())?;
    w.w.flush()?;
    Ok(w.w)
}

/// A keyed (version 1 or 2) table file or shard in memory, checked, read in place.
pub(super) struct KeyedFile<'a> {
    pub class: u8,
    pub k: u8,
    pub rows: usize,
    pub entries: usize,
    keys: &'a [u8],
    offsets: &'a [u8],
    valuations: &'a [u8],
    /// One byte per entry: the value, with [`LOW_HALF`] on every entry of a low half row.
    pub values: &'a [u8],
}

impl<'a> KeyedFile<'a> {
    /// Checks the magic, version, class, size, checksum, sorted keys, offsets and half-row
    /// flags of a whole keyed file without copying it.
    pub fn parse(b: &'a [u8]) -> Result<KeyedFile<'a>, String> {
        if b.len() < 32 || &b[..4] != MAGIC {
            return Err("not a lookup table (bad magic)".into());
        }
        if b[4] != VERSION && b[4] != 1 {
            return Err(format!("unsupported lookup table version {}", b[4]));
        }
        let (class, k) = (b[5], b[6]);
        if class > 2 || !(MIN_K..=MAX_K).contains(&k) {
            return Err(format!("bad class {class} or hand size {k}"));
        }
        let body = b.len() - 8;
        let stored = u64::from_le_bytes(b[body..].try_into().unwrap());
        if fnv1a(&b[..body]) != stored {
            return Err("checksum mismatch (truncated or damaged file)".into());
        }
        let rd8 = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let (nrows, n) = (rd8(8) as usize, rd8(16) as usize);
        let need = 24usize
            .checked_add(nrows.checked_mul(12).ok_or("size overflow")?)
            .and_then(|x| x.checked_add(4))
            .and_then(|x| x.checked_add(n.checked_mul(5)?))
            .ok_or("size overflow")?;
        if need != body {
            return Err(format!("size mismatch: {body} bytes, header says {need}"));
        }
        let (keys, rest) = b[24..body].split_at(8 * nrows);
        let (offsets, rest) = rest.split_at(4 * (nrows + 1));
        let (valuations, values) = rest.split_at(4 * n);
        let f = KeyedFile {
            class,
            k,
            rows: nrows,
            entries: n,
            keys,
            offsets,
            valuations,
            values,
        };
        if (1..nrows).any(|i| f.key(i - 1) >= f.key(i))
            || f.offset(0) != 0
            || (1..=nrows).any(|i| f.offset(i - 1) > f.offset(i))
            || f.offset(nrows) as usize != n
            || (0..nrows).any(|i| f.key(i) & 0xC != (class as u64) << 2)
        {
            return Err("inconsistent rows (unsorted keys, offsets or another class)".into());
        }
        // a row is a low half with every entry flagged, or a full row with none
        if (0..nrows).any(|i| {
            let row = &values[f.offset(i) as usize..f.offset(i + 1) as usize];
            let flagged = row.iter().filter(|&&v| v & LOW_HALF != 0).count();
            flagged != 0 && (flagged != row.len() || class == 2 || b[4] == 1)
        }) {
            return Err("a row with some but not all entries flagged as a half row".into());
        }
        Ok(f)
    }

    /// The key of row `i`.
    pub fn key(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.keys[8 * i..8 * i + 8].try_into().unwrap())
    }

    /// Where row `i`'s entries start (`offset(rows)` is the entry count).
    pub fn offset(&self, i: usize) -> u32 {
        u32::from_le_bytes(self.offsets[4 * i..4 * i + 4].try_into().unwrap())
    }

    /// The valuation of entry `e`.
    pub fn valuation(&self, e: usize) -> u32 {
        u32::from_le_bytes(self.valuations[4 * e..4 * e + 4].try_into().unwrap())
    }
}

impl ClassTable {
    /// Reads one table file.
    pub fn read_file(path: &Path) -> Result<ClassTable, String> {
        if is_dense_file(path) {
            return DenseNull::read_file(path).map(ClassTable::from_dense);
        }
        let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        ClassTable::from_bytes(&b).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Joins shards (partial tables) of one class and size; refuses mixed classes or sizes
    /// and a row present twice.
    pub fn merge(parts: impl IntoIterator<Item = ClassTable>) -> Result<ClassTable, String> {
        let parts: Vec<ClassTable> = parts.into_iter().collect();
        if !parts.is_empty() && parts.iter().all(|t| t.dense().is_some()) {
            let dense = (parts.into_iter())
                .filter_map(|t| match t.store {
                    Store::Dense(d) => Some(d),
                    Store::Keyed(_) => None,
                })
                .collect();
            return DenseNull::merge(dense).map(ClassTable::from_dense);
        }
        let mut rows = Vec::new();
        let mut ck: Option<(u8, u8)> = None;
        for t in parts {
            if *ck.get_or_insert((t.class, t.k)) != (t.class, t.k) {
                return Err("parts of another class or size".into());
            }
            rows.extend(t.iter_rows());
        }
        let (c, k) = ck.ok_or("no parts to merge")?;
        let before = rows.len();
        rows.sort_unstable_by_key(|r| r.0);
        rows.dedup_by_key(|r| r.0);
        if rows.len() != before {
            return Err("parts overlap (a row built twice)".into());
        }
        Ok(ClassTable::from_rows(c, k, rows))
    }
}

/// Joins shard files of one class and size into the table file `out`; returns its rows and
/// entries. Dense null shards are joined one at a time, keyed ones by key
/// ([`super::lookup_merge`]).
pub fn merge_files(parts: &[PathBuf], out: &Path) -> Result<(usize, usize), String> {
    if parts.first().is_some_and(|p| is_dense_file(p)) {
        let rows = DenseNull::merge_files(parts, out)? as usize;
        return Ok((rows, rows));
    }
    super::lookup_merge::merge_keyed_files(parts, out)
}

/// Whether a file starts like a dense null table (version 3).
pub fn is_dense_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 5];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|_| &head[..4] == MAGIC && head[4] == DENSE_VERSION)
}

/// The class number of a class name (`"suit"`, `"grand"`, `"null"`).
pub fn class_by_name(name: &str) -> Option<u8> {
    CLASS_NAMES.iter().position(|&c| c == name).map(|i| i as u8)
}

impl Clone for ClassTable {
    fn clone(&self) -> ClassTable {
        if let Some(d) = self.dense() {
            return ClassTable::from_dense(d.clone());
        }
        ClassTable::from_rows(self.class, self.k, self.iter_rows().collect())
    }
}

impl PartialEq for ClassTable {
    fn eq(&self, o: &ClassTable) -> bool {
        (self.class, self.k, self.rows, self.entries) == (o.class, o.k, o.rows, o.entries)
            && self.iter_rows().eq(o.iter_rows())
    }
}
impl Eq for ClassTable {}

impl fmt::Debug for ClassTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ClassTable({}-{}: {} rows, {} tentpoles)",
            CLASS_NAMES[self.class as usize], self.k, self.rows, self.entries
        )
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a(b: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, b)
}

/// FNV-1a 64 continued from the hash `h` of what came before `b` (files hashed in pieces).
pub fn fnv1a_from(mut h: u64, b: &[u8]) -> u64 {
    for &x in b {
        h ^= x as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The tables of one directory: per class, tables for consecutive hand sizes from
/// [`MIN_K`] (a gap ends the class: a size is used only with every smaller one present).
#[derive(Debug, Default)]
pub struct LookupTables {
    tables: [Vec<ClassTable>; 3],
    pub dir: PathBuf,
}

impl LookupTables {
    /// Tables from memory (tests and the builder): each class's sizes must run from
    /// [`MIN_K`] without gaps.
    pub fn from_tables(tables: Vec<ClassTable>) -> Result<LookupTables, String> {
        let mut lt = LookupTables::default();
        let mut sorted = tables;
        sorted.sort_by_key(|t| (t.class, t.k));
        for t in sorted {
            let v = &mut lt.tables[t.class as usize];
            if t.k != MIN_K + v.len() as u8 {
                return Err(format!(
                    "{} tables must run from {} cards per hand without gaps (got {})",
                    CLASS_NAMES[t.class as usize], MIN_K, t.k
                ));
            }
            v.push(t);
        }
        Ok(lt)
    }

    /// Reads every `{class}-{k}.skt` of a directory (consecutive sizes from [`MIN_K`]).
    pub fn read_dir(dir: &Path) -> Result<LookupTables, String> {
        let mut tables = Vec::new();
        for (class, k, p) in table_files(dir)? {
            let t = ClassTable::read_file(&p)?;
            if t.class != class || t.k != k {
                return Err(format!("{}: holds another class or size", p.display()));
            }
            tables.push(t);
        }
        let mut lt = LookupTables::from_tables(tables)?;
        lt.dir = dir.to_path_buf();
        Ok(lt)
    }

    /// Largest hand size with a table of this class (0: none).
    #[inline]
    pub fn max_k(&self, class: u8) -> u32 {
        let n = self.tables[class as usize].len();
        if n == 0 {
            0
        } else {
            MIN_K as u32 + n as u32 - 1
        }
    }

    #[inline]
    pub fn table(&self, class: u8, k: u32) -> Option<&ClassTable> {
        self.tables[class as usize].get(k.checked_sub(MIN_K as u32)? as usize)
    }

    pub fn all(&self) -> impl Iterator<Item = &ClassTable> {
        self.tables.iter().flatten()
    }

    pub fn bytes(&self) -> usize {
        self.all().map(|t| t.bytes()).sum()
    }
}

/// The table files of a directory that [`LookupTables::read_dir`] reads: per class, its
/// sizes from [`MIN_K`] up to the first one missing.
pub(super) fn table_files(dir: &Path) -> Result<Vec<(u8, u8, PathBuf)>, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mut out = Vec::new();
    for class in 0..3u8 {
        for k in MIN_K..=MAX_K {
            let p = dir.join(ClassTable::file_name(class, k));
            if !p.exists() {
                break;
            }
            out.push((class, k, p));
        }
    }
    Ok(out)
}

/// A loaded set of tables as the solver options carry it: compared and hashed by identity.
#[derive(Clone, Copy)]
pub struct LookupRef(pub &'static LookupTables);

impl PartialEq for LookupRef {
    fn eq(&self, o: &LookupRef) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for LookupRef {}
impl std::hash::Hash for LookupRef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.0 as *const LookupTables as usize).hash(h)
    }
}
impl fmt::Debug for LookupRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LookupRef({})", self.0.dir.display())
    }
}

static LOADED: Mutex<Option<HashMap<PathBuf, &'static LookupTables>>> = Mutex::new(None);

/// The tables of a directory, read once per process and kept for its lifetime.
pub fn load_dir(dir: &Path) -> Result<LookupRef, String> {
    let canon = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut g = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    if let Some(t) = map.get(&canon) {
        return Ok(LookupRef(t));
    }
    let t: &'static LookupTables = Box::leak(Box::new(LookupTables::read_dir(&canon)?));
    map.insert(canon, t);
    Ok(LookupRef(t))
}

/// Leaks tables built in memory (tests, the builder's smaller sizes) as a [`LookupRef`].
pub fn leak(t: LookupTables) -> LookupRef {
    LookupRef(Box::leak(Box::new(t)))
}
