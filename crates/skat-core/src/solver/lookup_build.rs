//! Building the endgame lookup tables ([`crate::solver::lookup`]).
//!
//! # Rows
//!
//! [`rows`] lists every row of a class and hand size `k` in a fixed order: the splits (cards
//! left per group, each at most the group's width, the counts of interchangeable suits non-
//! increasing, summing to `3k`), and for each split every assignment of its cards to the
//! three seats (leader first) with `k` cards each and every declarer seat, kept once per
//! canonical key. A row is given by one concrete position of it.
//!
//! # Tentpoles
//!
//! [`build_row`] enumerates the row's valuations (per group, one rank set per distinct
//! vector of card points in power order: rank sets with equal point vectors are isomorphic
//! and have the same value), ordered by their card points from both ends (the lowest, the
//! highest, the second lowest, ...: extreme valuations bound the most others). A valuation
//! whose bounds from the tentpoles found so far (and the trivial bounds 0 and the points in
//! play) do not meet is solved exactly inside those bounds; the ends of the two hard-edge
//! walks from it ([`crate::solver::lookup_walk`]) become tentpoles, and the valuation itself
//! too if they do not close its bounds. At the end every valuation's bounds meet: the
//! invariant the lookup relies on. Without the walks ([`Builder::walk`] false) the open
//! valuations themselves are the tentpoles: 10-20 times as many. Last, a row is stored as
//! its low half ([`crate::solver::lookup_half`], [`Builder::half`]) where that has fewer
//! tentpoles: about half as many.
//!
//! Rows are independent: a build is split into shards of consecutive rows, which run in
//! parallel and can be resumed; [`crate::solver::lookup::ClassTable::from_rows`] joins them.
//! The suit and grand builders' searches do not read smaller tables: at three cards per hand
//! a lookup costs more time than the search it replaces. Null rows, one search each, are
//! built faster with the smaller null tables (the null-6 build in `benchmarks/RESULTS.md`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use super::endgame::EgCache;
use super::layout::{Layout, MAX_GROUPS};
use super::lookup::{ClassTable, LookupRef, MAX_K, MIN_K};
use super::lookup_dense::DenseNull;
use super::lookup_half::low_half;
use super::lookup_walk::{Combo, Lattice, Walker};
use super::null_rank::{null_index, null_key};
use super::search::key::canonical_key;
use super::search::Searcher;
use super::tt::Tt;
use super::SolverOptions;
use crate::rules::GameType;

/// The layout of a table class (suit games share one: their internal layouts are
/// isomorphic).
pub fn class_layout(class: u8) -> &'static Layout {
    Layout::get(match class {
        0 => GameType::Clubs,
        1 => GameType::Grand,
        _ => GameType::Null,
    })
}

/// One row: its canonical key and a concrete position of it (hands rotated so that the
/// leader, seat 0, comes first; the declarer's seat relative to the leader).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowSpec {
    pub key: u64,
    pub hands: [u32; 3],
    pub decl: u8,
}

/// Groups whose suits are interchangeable (sorted in canonical keys): the plain suits.
fn interchangeable(lay: &Layout) -> usize {
    if lay.game_type.is_null() {
        lay.ngroups
    } else {
        lay.trump_group.min(lay.ngroups)
    }
}

/// The splits of `3k` cards over the groups (interchangeable groups non-increasing).
fn splits(lay: &Layout, k: u32) -> Vec<Vec<u32>> {
    fn rec(lay: &Layout, g: usize, left: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if g == lay.ngroups {
            if left == 0 {
                out.push(cur.clone());
            }
            return;
        }
        let mut top = (lay.group_width[g] as u32).min(left);
        if g > 0 && g < interchangeable(lay) {
            top = top.min(cur[g - 1]);
        }
        for n in 0..=top {
            cur.push(n);
            rec(lay, g + 1, left - n, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(lay, 0, 3 * k, &mut Vec::new(), &mut out);
    out
}

/// The top `n` cards of group `g`.
fn top_cards(lay: &Layout, g: usize, n: u32) -> u32 {
    let mut m = lay.group_mask[g];
    while m.count_ones() > n {
        m &= m - 1;
    }
    m
}

/// A built row: its key and its tentpoles (valuation, exact marginal value).
pub type BuiltRow = (u64, Vec<(u32, u8)>);

/// Row lists already enumerated, by (class, hand size).
type RowCache = Mutex<Vec<((u8, u32), Arc<Vec<RowSpec>>)>>;

/// Every row of a class and hand size, in the fixed order described above (enumerated once
/// per process).
///
/// # Panics
/// When the list cannot be allocated (see [`try_rows`]).
pub fn rows(class: u8, k: u32) -> Arc<Vec<RowSpec>> {
    try_rows(class, k).unwrap_or_else(|e| panic!("{e}"))
}

/// [`rows`], or an error when the list (24 bytes a row: about 4 GB for the 5-card suit table)
/// does not fit in the memory the allocator gives.
pub fn try_rows(class: u8, k: u32) -> Result<Arc<Vec<RowSpec>>, String> {
    static CACHE: OnceLock<RowCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, r)) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(ck, _)| *ck == (class, k))
    {
        return Ok(r.clone());
    }
    let r = Arc::new(enumerate_rows(class, k).ok_or_else(|| {
        format!(
            "cannot allocate the list of the {}-{k} table's rows (24 bytes a row)",
            super::lookup::CLASS_NAMES[class as usize]
        )
    })?);
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    c.push(((class, k), r.clone()));
    Ok(r)
}

/// The rows, or None when an allocation fails (every growth is fallible).
fn enumerate_rows(class: u8, k: u32) -> Option<Vec<RowSpec>> {
    assert!((MIN_K as u32..=MAX_K as u32).contains(&k) && class < 3);
    let lay = class_layout(class);
    let mut out: Vec<RowSpec> = Vec::new();
    for split in splits(lay, k) {
        let mut cards: Vec<u32> = Vec::new();
        for (g, &n) in split.iter().enumerate() {
            let m = top_cards(lay, g, n);
            cards.extend((0..32).filter(|b| m >> b & 1 == 1));
        }
        let mut seen = HashSet::new();
        let mut hands = [0u32; 3];
        let mut counts = [0u32; 3];
        let whole = assign(&cards, 0, k, &mut hands, &mut counts, &mut |h| {
            for d in 0..3u8 {
                let (key, _) = canonical_key(lay, *h, d as u64 | (class as u64) << 2);
                if seen.try_reserve(1).is_err() || out.try_reserve(1).is_err() {
                    return false;
                }
                if seen.insert(key.a) {
                    out.push(RowSpec {
                        key: key.a,
                        hands: *h,
                        decl: d,
                    });
                }
            }
            true
        });
        if !whole {
            return None;
        }
    }
    Some(out)
}

/// Every assignment of `cards[i..]` to the three seats, `k` cards each, given to `f` until it
/// returns false (then false: the walk stopped).
fn assign(
    cards: &[u32],
    i: usize,
    k: u32,
    hands: &mut [u32; 3],
    counts: &mut [u32; 3],
    f: &mut impl FnMut(&[u32; 3]) -> bool,
) -> bool {
    if i == cards.len() {
        return f(hands);
    }
    for s in 0..3 {
        if counts[s] < k {
            counts[s] += 1;
            hands[s] |= 1 << cards[i];
            let go_on = assign(cards, i + 1, k, hands, counts, f);
            hands[s] &= !(1 << cards[i]);
            counts[s] -= 1;
            if !go_on {
                return false;
            }
        }
    }
    true
}

/// Per group and card count, one rank set (a mask of the group's cards) per distinct
/// vector of card points in power order (null: the top cards only: no points).
pub(crate) fn candidates(lay: &Layout, g: usize, n: u32) -> Vec<u32> {
    if lay.game_type.is_null() {
        return vec![top_cards(lay, g, n)];
    }
    let m = lay.group_mask[g];
    let base = lay.group_base[g] as u32;
    let w = lay.group_width[g] as u32;
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut out = Vec::new();
    for sub in 0u32..1 << w {
        if sub.count_ones() != n {
            continue;
        }
        let mask = sub << base & m;
        let sig: Vec<u8> = (0..32)
            .rev()
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| lay.points[b as usize])
            .collect();
        if !seen.contains(&sig) {
            seen.push(sig);
            out.push(mask);
        }
    }
    out
}

/// The row's position with the remaining cards of each group moved to other ranks:
/// `sets[g]` (as many cards as the row has in the group) take the owners of the row's
/// cards in power order.
pub(crate) fn revalue(lay: &Layout, hands: &[u32; 3], sets: &[u32]) -> [u32; 3] {
    let mut out = [0u32; 3];
    for (g, &set) in sets.iter().enumerate().take(lay.ngroups) {
        let m = lay.group_mask[g];
        let mut src = (hands[0] | hands[1] | hands[2]) & m;
        let mut dst = set;
        while src != 0 {
            let s = 31 - src.leading_zeros();
            let d = 31 - dst.leading_zeros();
            let owner = (0..3).find(|&p| hands[p] >> s & 1 == 1).unwrap_or(0);
            out[owner] |= 1 << d;
            src &= !(1 << s);
            dst &= !(1 << d);
        }
    }
    out
}

/// The row's position at valuation `z` (per group, the index of a candidate rank set in
/// `per_group`).
pub(crate) fn position_of(
    lay: &Layout,
    hands: &[u32; 3],
    per_group: &[Vec<u32>],
    z: &Combo,
) -> [u32; 3] {
    let mut sets = [0u32; MAX_GROUPS];
    for (g, set) in sets.iter_mut().enumerate().take(lay.ngroups) {
        *set = per_group[g][z[g] as usize];
    }
    revalue(lay, hands, &sets[..lay.ngroups])
}

/// A row's valuations, each once, in ascending order of (points in play, valuation): the
/// points, the valuation, a position of the row with it, and its rank set per group (an
/// index into `per_group`, the [`candidates`] of each group).
pub(crate) fn valuations(
    lay: &Layout,
    class: u8,
    row: &RowSpec,
    per_group: &[Vec<u32>],
) -> Vec<(i32, u32, [u32; 3], Combo)> {
    let mut vals: Vec<(i32, u32, [u32; 3], Combo)> = Vec::new();
    let mut combo: Combo = [0; MAX_GROUPS];
    let tag = row.decl as u64 | (class as u64) << 2;
    loop {
        let h = position_of(lay, &row.hands, per_group, &combo);
        let (key, _) = canonical_key(lay, h, tag);
        assert_eq!(key.a, row.key, "revalued position left its row");
        vals.push((lay.points_of(h[0] | h[1] | h[2]), key.val, h, combo));
        let mut g = 0;
        while g < lay.ngroups {
            combo[g] += 1;
            if (combo[g] as usize) < per_group[g].len() {
                break;
            }
            combo[g] = 0;
            g += 1;
        }
        if g == lay.ngroups {
            break;
        }
    }
    vals.sort_unstable_by_key(|v| (v.0, v.1));
    vals.dedup_by_key(|v| v.1);
    vals
}

/// Every valuation of [`valuations`] with its trivial bounds `0..points in play` (suit and
/// grand; null games have their own).
pub(crate) fn trivial_bounds(vals: &[(i32, u32, [u32; 3], Combo)]) -> Vec<(u32, i32, i32)> {
    vals.iter().map(|v| (v.1, 0, v.0)).collect()
}

/// The rank sets of each group of a row (see [`candidates`]).
pub(crate) fn rank_sets(lay: &Layout, row: &RowSpec) -> Vec<Vec<u32>> {
    let all = row.hands[0] | row.hands[1] | row.hands[2];
    (0..lay.ngroups)
        .map(|g| candidates(lay, g, (all & lay.group_mask[g]).count_ones()))
        .collect()
}

/// Work counters of a build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    pub rows: u64,
    pub valuations: u64,
    pub tentpoles: u64,
    /// Rows stored as their low half ([`crate::solver::lookup_half`]).
    pub half_rows: u64,
    pub nodes: u64,
}

/// A builder: the solver state reused from row to row.
pub struct Builder {
    opt: SolverOptions,
    tt: Tt,
    eg: EgCache,
    /// Remove redundant tentpoles after building a row ([`prune`]).
    pub prune: bool,
    /// Replace an open valuation by the ends of its hard-edge walks
    /// ([`crate::solver::lookup_walk`]).
    pub walk: bool,
    /// Store a row as its low half where that is smaller ([`crate::solver::lookup_half`]).
    pub half: bool,
    pub stats: BuildStats,
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

impl Builder {
    /// A builder (the default solver options, a 16 MB table).
    pub fn new() -> Builder {
        Builder {
            opt: SolverOptions::default(),
            tt: Tt::with_bytes(16 << 20),
            eg: EgCache::tiny(),
            prune: false,
            walk: true,
            half: true,
            stats: BuildStats::default(),
        }
    }

    /// A null row's value: its one valuation solved within the trivial bounds (what the
    /// general loop below does for a null row, without its bookkeeping).
    fn null_value(&mut self, row: &RowSpec) -> u8 {
        let lay = class_layout(2);
        let (tt, eg) = (&mut self.tt, &mut self.eg);
        let decl = row.decl as usize;
        let mut s = Searcher::new(lay, &self.opt, tt, eg, row.hands, &[], 0, decl, None);
        let (lo, hi) = s.trivial_bounds();
        let (v, _) = s.mtdf_in(lo, hi, (lo + hi) / 2);
        self.stats.nodes += s.nodes;
        self.stats.rows += 1;
        self.stats.valuations += 1;
        self.stats.tentpoles += 1;
        v as u8
    }

    /// Lets the builder's searches read these tables (of smaller hand sizes than the rows
    /// built: tables never change a value).
    pub fn set_lookup(&mut self, tables: Option<LookupRef>) {
        self.opt.lookup = tables;
    }

    /// The tentpoles of one row (see the module documentation).
    pub fn build_row(&mut self, class: u8, row: &RowSpec) -> Vec<(u32, u8)> {
        let lay = class_layout(class);
        if lay.game_type.is_null() {
            return vec![(0, self.null_value(row))];
        }
        let per_group = rank_sets(lay, row);
        let vals = valuations(lay, class, row, &per_group);
        let tag = row.decl as u64 | (class as u64) << 2;
        // both ends first
        let n = vals.len();
        let order = (0..n).map(|i| if i % 2 == 0 { i / 2 } else { n - 1 - i / 2 });
        let run = Searcher::trump_run(lay, &row.hands, row.decl as usize);
        let (null, decl) = (lay.game_type.is_null(), row.decl as usize);
        let walk = self.walk && !null;
        let lattice = walk.then(|| Lattice::new(lay, &per_group));
        let mut poles: Vec<(u32, u8)> = Vec::new();
        // per tentpole: of how many valuations it gave one of the two bounds that closed them
        let mut closed: Vec<u32> = Vec::new();
        // per end of the order, the two tentpoles that gave the last closed valuation's
        // bounds: neighbouring valuations are usually closed by the same two, so they are
        // tried first and most valuations cost two distances instead of a scan
        let mut hints = [(usize::MAX, usize::MAX); 2];
        // the tentpoles in the order they are tried: by how many valuations they closed,
        // re-sorted now and then
        let mut scan: Vec<u32> = Vec::new();
        // every valuation's value (for the half row)
        let mut values = vec![0i32; n];
        self.stats.rows += 1;
        self.stats.valuations += n as u64;
        for (o, i) in order.enumerate() {
            let (points, val, h, combo) = vals[i];
            // the searcher is made only for a valuation that is solved (the trivial bounds
            // of suit and grand: 0 and the points in play)
            let (mut lo, mut hi) = if null {
                let (tt, eg) = (&mut self.tt, &mut self.eg);
                Searcher::new(lay, &self.opt, tt, eg, h, &[], 0, decl, None).trivial_bounds()
            } else {
                (0, points)
            };
            // the tentpoles giving the bounds so far (MAX: the trivial bounds)
            let (mut at_lo, mut at_hi) = (usize::MAX, usize::MAX);
            let mut tighten = |j: usize, lo: &mut i32, hi: &mut i32| {
                let (x, v) = poles[j];
                let (dlo, dhi) = Searcher::dist(lay, val, x, run);
                if v as i32 + dlo > *lo {
                    *lo = v as i32 + dlo;
                    at_lo = j;
                }
                if v as i32 + dhi < *hi {
                    *hi = v as i32 + dhi;
                    at_hi = j;
                }
            };
            let hint = hints[o % 2];
            for j in [hint.0, hint.1] {
                if j < poles.len() && lo < hi {
                    tighten(j, &mut lo, &mut hi);
                }
            }
            for &j in &scan {
                if lo >= hi {
                    break;
                }
                tighten(j as usize, &mut lo, &mut hi);
            }
            if lo >= hi {
                for j in [at_lo, at_hi] {
                    if j < closed.len() {
                        closed[j] += 1;
                    }
                }
                hints[o % 2] = (at_lo, at_hi);
                if o % 64 == 63 {
                    scan.sort_by_key(|&j| std::cmp::Reverse(closed[j as usize]));
                }
                values[i] = lo;
                continue;
            }
            let (tt, eg) = (&mut self.tt, &mut self.eg);
            let mut s = Searcher::new(lay, &self.opt, tt, eg, h, &[], 0, decl, None);
            debug_assert!(null || s.trivial_bounds() == (0, points));
            let (v, _) = s.mtdf_in(lo, hi, (lo + hi) / 2);
            self.stats.nodes += s.nodes;
            values[i] = v;
            if walk {
                // the ends of the hard-edge walks from this valuation first, then the
                // valuation itself if they do not close its bounds
                let mut w = Walker {
                    lay,
                    opt: &self.opt,
                    tt: &mut self.tt,
                    eg: &mut self.eg,
                    hands: &row.hands,
                    decl,
                    per_group: &per_group,
                    lattice: lattice.as_ref().expect("walks have a lattice"),
                    nodes: 0,
                };
                let ends = [w.walk(&combo, v, false), w.walk(&combo, v, true)];
                let ends = ends.map(|(z, vz)| {
                    let zval = canonical_key(lay, w.position(&z), tag).0.val;
                    (zval, vz)
                });
                self.stats.nodes += w.nodes;
                for (zval, vz) in ends {
                    if zval == val || poles.iter().any(|p| p.0 == zval) {
                        continue;
                    }
                    let (dlo, dhi) = Searcher::dist(lay, val, zval, run);
                    lo = lo.max(vz + dlo);
                    hi = hi.min(vz + dhi);
                    poles.push((zval, vz as u8));
                    closed.push(0);
                    scan.push(poles.len() as u32 - 1);
                }
                if lo >= hi {
                    continue;
                }
            }
            // null values do not depend on the valuation: stored as valuation 0
            poles.push((if null { 0 } else { val }, v as u8));
            closed.push(1);
            scan.push(poles.len() as u32 - 1);
        }
        // the lookup stops at the first tentpole that closes the bounds: the tentpoles
        // that closed the most valuations' bounds first (stable: ties keep build order)
        let mut order: Vec<usize> = (0..poles.len()).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(closed[j]));
        let mut poles: Vec<(u32, u8)> = order.iter().map(|&j| poles[j]).collect();
        if (self.prune || self.half) && !null {
            let bounds = trivial_bounds(&vals);
            if self.prune {
                poles = prune(lay, &bounds, poles, run);
            }
            if self.half {
                if let Some(h) = low_half(lay, &bounds, &values, &poles, run) {
                    poles = h;
                    self.stats.half_rows += 1;
                }
            }
        }
        self.stats.tentpoles += poles.len() as u64;
        poles
    }
}

/// Removes redundant tentpoles: the last first, each as long as every valuation of the row
/// stays exact without it. A valuation `y` is exact when some tentpole's lower bound and
/// some tentpole's upper bound reach its value (the trivial bounds count as permanent
/// tentpoles); its value is the best lower bound over the full set, which is exact. So a
/// tentpole can go unless it is the last one left to support a bound of some valuation:
/// one pass of distance computations, then per removal a look at the valuations it
/// supports. The invariant of the table is kept; about 10x fewer tentpoles remain.
pub fn prune(
    lay: &Layout,
    valuations: &[(u32, i32, i32)],
    poles: Vec<(u32, u8)>,
    run: i32,
) -> Vec<(u32, u8)> {
    let p = poles.len();
    // per tentpole, the valuations whose lower (upper) bound it reaches
    let mut sup_lo: Vec<Vec<u32>> = vec![Vec::new(); p];
    let mut sup_hi: Vec<Vec<u32>> = vec![Vec::new(); p];
    let mut cnt_lo: Vec<u32> = Vec::with_capacity(valuations.len());
    let mut cnt_hi: Vec<u32> = Vec::with_capacity(valuations.len());
    let mut bounds = vec![(0i32, 0i32); p];
    for (yi, &(y, lo0, hi0)) in valuations.iter().enumerate() {
        let mut best = lo0;
        for (i, &(x, v)) in poles.iter().enumerate() {
            let (dlo, dhi) = Searcher::dist(lay, y, x, run);
            bounds[i] = (v as i32 + dlo, v as i32 + dhi);
            best = best.max(bounds[i].0);
        }
        let (mut cl, mut ch) = ((lo0 == best) as u32, (hi0 == best) as u32);
        for (i, &(l, h)) in bounds.iter().enumerate() {
            if l == best {
                sup_lo[i].push(yi as u32);
                cl += 1;
            }
            if h == best {
                sup_hi[i].push(yi as u32);
                ch += 1;
            }
        }
        debug_assert!(
            cl > 0 && ch > 0,
            "a valuation the tentpoles do not determine"
        );
        cnt_lo.push(cl);
        cnt_hi.push(ch);
    }
    let mut keep = vec![true; p];
    for i in (0..p).rev() {
        let needed = sup_lo[i].iter().any(|&y| cnt_lo[y as usize] == 1)
            || sup_hi[i].iter().any(|&y| cnt_hi[y as usize] == 1);
        if !needed {
            keep[i] = false;
            for &y in &sup_lo[i] {
                cnt_lo[y as usize] -= 1;
            }
            for &y in &sup_hi[i] {
                cnt_hi[y as usize] -= 1;
            }
        }
    }
    poles
        .into_iter()
        .zip(keep)
        .filter_map(|(e, k)| k.then_some(e))
        .collect()
}

/// How a build chooses a row's tentpoles: see [`Builder::prune`], [`Builder::walk`] and
/// [`Builder::half`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    pub prune: bool,
    pub walk: bool,
    pub half: bool,
}

impl Default for Method {
    fn default() -> Method {
        let b = Builder::new();
        Method {
            prune: b.prune,
            walk: b.walk,
            half: b.half,
        }
    }
}

impl Builder {
    /// A builder using `m`.
    pub fn with_method(m: Method) -> Builder {
        let mut b = Builder::new();
        (b.prune, b.walk, b.half) = (m.prune, m.walk, m.half);
        b
    }
}

/// Builds rows `start..end` of a class and size: `(key, tentpoles)` per row; an error when
/// the rows cannot be listed ([`try_rows`]).
pub fn build_range(
    class: u8,
    k: u32,
    start: usize,
    end: usize,
    method: Method,
) -> Result<(Vec<BuiltRow>, BuildStats), String> {
    let all = try_rows(class, k)?;
    let end = end.min(all.len());
    let mut b = Builder::with_method(method);
    let out = all[start.min(end)..end]
        .iter()
        .map(|r| (r.key, b.build_row(class, r)))
        .collect();
    Ok((out, b.stats))
}

/// The rows of a class and size: null rows are counted by their index
/// ([`crate::solver::null_rank`]), the others listed ([`try_rows`]: an error when the list
/// cannot be allocated).
pub fn try_row_count(class: u8, k: u32) -> Result<usize, String> {
    if class == 2 {
        Ok(null_index(k).len() as usize)
    } else {
        Ok(try_rows(class, k)?.len())
    }
}

/// [`try_row_count`].
///
/// # Panics
/// When the rows cannot be listed.
pub fn row_count(class: u8, k: u32) -> usize {
    try_row_count(class, k).unwrap_or_else(|e| panic!("{e}"))
}

/// The null row numbered `n` ([`crate::solver::null_rank::NullIndex`]) as a row to build.
fn null_row(n: u64, k: u32) -> RowSpec {
    let lay = class_layout(2);
    let (hands, decl) = null_index(k).unrank(n, lay).expect("a row number in range");
    RowSpec {
        key: null_key(lay, hands, decl),
        hands,
        decl,
    }
}

/// Builds rows `start..end` of a class and size into a shard: a partial table, keyed for
/// suit and grand, dense ([`crate::solver::lookup_dense`]) for null, whose rows are built
/// in the order of their numbers without being listed. The null searches read `smaller`
/// (complete tables of smaller sizes); suit and grand searches read no tables.
pub fn build_shard(
    class: u8,
    k: u32,
    start: usize,
    end: usize,
    method: Method,
    smaller: Option<LookupRef>,
) -> Result<(ClassTable, BuildStats), String> {
    if class != 2 {
        let (rows, st) = build_range(class, k, start, end, method)?;
        return Ok((ClassTable::from_rows(class, k as u8, rows), st));
    }
    let end = end.min(row_count(2, k));
    let start = start.min(end);
    let mut b = Builder::with_method(method);
    let smaller = smaller.filter(|t| t.0.max_k(2) < k);
    // With the table of the next smaller size, every trick start below a row's first trick
    // is decided by a lookup, so the transposition table saves no search: it only costs a key
    // and a probe into memory at each of them (the values are the same without it).
    b.opt.transposition_table = smaller.is_none_or(|t| t.0.max_k(2) + 1 != k);
    b.set_lookup(smaller);
    let values: Vec<u8> = (start..end)
        .map(|n| b.build_row(2, &null_row(n as u64, k))[0].1)
        .collect();
    let d = DenseNull::from_values(k as u8, start as u64, &values);
    Ok((ClassTable::from_dense(d), b.stats))
}

/// What a full build of a class and size would cost, from `n` random rows built and thrown
/// away: (rows of the table, CPU seconds per row, tentpoles per row, valuations per row); an
/// error when the rows cannot be listed.
pub fn estimate(
    class: u8,
    k: u32,
    n: usize,
    seed: u64,
    method: Method,
) -> Result<(usize, f64, f64, f64), String> {
    let total = try_row_count(class, k)?;
    let all = (class != 2).then(|| rows(class, k));
    let mut rng = crate::rng::Rng::new(seed);
    let mut b = Builder::with_method(method);
    let start = std::time::Instant::now();
    for _ in 0..n {
        let i = rng.below(total as u64);
        let r = match &all {
            Some(all) => all[i as usize],
            None => null_row(i, k),
        };
        b.build_row(class, &r);
    }
    let per = start.elapsed().as_secs_f64() / n.max(1) as f64;
    let m = n.max(1) as f64;
    Ok((
        total,
        per,
        b.stats.tentpoles as f64 / m,
        b.stats.valuations as f64 / m,
    ))
}
