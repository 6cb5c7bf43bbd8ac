//! The alpha-beta search (fail-soft, declarer maximises) and the MTD(f) driver.
//!
//! Values are *marginal*: in suit and grand games the declarer's card points from the cards
//! still in play (hands and the current trick); in null the time-to-live score: the number of
//! the first trick the declarer takes, 11 if she takes none. The root adds the points already
//! won.
//!
//! This module holds the [`Searcher`] (the position, searched in place: every move is played
//! on `hands`/`trick` and taken back before its caller continues, so the state is the same
//! before and after every call), the MTD(f) driver and the trick start (bounds, table, then
//! the moves). Its submodules add the other parts of the search as further `impl Searcher`
//! blocks: `key` table keys and the encoding of table moves, `distance` the valuation
//! distances of payoff-similar positions, `window` the arithmetic of bounds and windows,
//! `moves` the fail-soft move loop, `suit_grand` the card loops and move order of suit
//! and grand, `null` the move loop and order of null games, `partition` null partition
//! search. No part changes a value; together they fix the node count, so a change to any move
//! order, bound or key shows in the solver's node signature.

mod distance;
pub(crate) mod key;
mod moves;
mod null;
mod partition;
mod suit_grand;
mod window;

use super::bounds;
use super::endgame::{EgCache, EgKey};
use super::estimator::ProbCut;
use super::estimator_sim::SharperEstimates;
use super::layout::{m3, Layout};
use super::lookup::LookupTables;
use super::order::representatives;
use super::tables;
use super::tt::{Key, Tt};
use super::SolverOptions;
pub use partition::{partitioned, PARTITION_MIN_CARDS};
use window::{decided, fail_soft, searched_bounds};

/// MTD(f): after a successful probe the next one tests this many points above its fail-soft
/// value (1 is plain MTD(f)). Measured on 5 x 40 positions at 30 cards: analyze nodes -2.4% to
/// -6.8% with 4; 2, 3, 5, 6, 8 and 16 gain less, steps growing with repeated successes, a
/// step to the middle of the open interval, and steps below a fail-soft bound do not help.
const CLIMB_STEP: i32 = 4;
/// Largest number of cards per hand whose trick starts are solved exactly through the
/// endgame cache.
pub const ENDGAME_CACHE_K: u32 = 4;
/// Default of `SolverOptions::similarity_min_cards`: payoff-similarity keys for trick starts
/// with at least this many cards per hand, exact keys below. The thesis (ch. 7) found the
/// canonical key not worth it at four cards or fewer; here, with the signed distance bounds,
/// it pays down to three (40 positions at 30 cards, analyze: K = 5 / 4 / 3 cost 0.51 / 0.42 /
/// 0.40 s on seed 1 and 0.69 / 0.57 / 0.54 s on seed 2). Two-card trick starts are solved
/// directly by [`tables`].
pub const SIMILARITY_MIN_CARDS: u32 = 3;

/// The highest set bit of a non-empty mask.
#[inline]
fn hi_bit(m: u32) -> u32 {
    31 - m.leading_zeros()
}

/// One search: the position (internal card layout `lay`, hands as bit masks, the current
/// trick), the options and the tables it reads and fills, and the node count.
pub struct Searcher<'a> {
    pub lay: &'static Layout,
    opt: &'a SolverOptions,
    tt: &'a mut Tt,
    eg: &'a mut EgCache,
    /// Trick starts with at most this many cards per hand are solved exactly (0: no cache).
    eg_k: u32,
    pub hands: [u32; 3],
    pub trick: [u8; 3],
    pub tlen: usize,
    pub leader: usize,
    pub decl: usize,
    /// The card points of the cards in the hands and the current trick (suit and grand): the
    /// trivial upper bound of the marginal value, kept up to date as tricks complete.
    in_play: i32,
    null: bool,
    use_tt: bool,
    /// The game class in table keys: 0 suit, 1 grand, 2 null.
    class: u8,
    /// Static bounds at trick starts (suit and grand with the option): the quick tricks, and
    /// the unbeatable trumps (with that option too).
    quick_tricks: bool,
    trump_tricks: bool,
    /// Trick starts with at least this many cards per hand get payoff-similarity keys
    /// (`u32::MAX` without payoff-similarity).
    similarity_min: u32,
    /// Lowest-winning-rank partition search (null with the option and the table).
    part: bool,
    /// ProbCut (`None`: exact search) and the cards per hand at the root's trick (only trick
    /// starts below it are cut).
    probcut: Option<ProbCut>,
    root_k: u32,
    /// MTD(f)'s probe window: `pcut_window` with ProbCut, else 1 (zero windows).
    window: i32,
    /// Research only: ProbCut's simulated better estimator.
    sharper: Option<&'a mut SharperEstimates>,
    /// Endgame lookup tables, and the largest hand size they hold for this game class (0:
    /// none).
    lookup: Option<&'static LookupTables>,
    lookup_k: u32,
    /// With `part`: the relevant cards of the subtree just searched (cards that won a trick
    /// by rank, and the lowest card of each collapsed group of equivalent cards); only each
    /// suit's lowest one matters.
    rel: u32,
    pub nodes: u64,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        lay: &'static Layout,
        opt: &'a SolverOptions,
        tt: &'a mut Tt,
        eg: &'a mut EgCache,
        hands: [u32; 3],
        trick: &[u8],
        leader: usize,
        decl: usize,
        probcut: Option<ProbCut>,
    ) -> Searcher<'a> {
        let mut t = [0u8; 3];
        t[..trick.len()].copy_from_slice(trick);
        // null games are never cut
        let probcut = probcut.filter(|_| !lay.game_type.is_null());
        let mut s = Searcher {
            probcut,
            root_k: 0,
            window: if probcut.is_some() {
                opt.pcut_window.max(1) as i32
            } else {
                1
            },
            sharper: None,
            lookup: opt.lookup.map(|r| r.0),
            lookup_k: 0,
            lay,
            opt,
            tt,
            eg,
            eg_k: if opt.endgame_cache && !partitioned(opt, lay.game_type) {
                ENDGAME_CACHE_K
            } else {
                0
            },
            hands,
            trick: t,
            tlen: trick.len(),
            leader,
            decl,
            in_play: lay.points_of(
                hands[0]
                    | hands[1]
                    | hands[2]
                    | t[..trick.len()].iter().fold(0, |m, &c| m | 1 << c),
            ),
            null: lay.game_type.is_null(),
            use_tt: opt.transposition_table,
            class: if lay.game_type.is_null() {
                2
            } else if lay.trump_group == 4 {
                1
            } else {
                0
            },
            quick_tricks: opt.static_bounds && !lay.game_type.is_null(),
            trump_tricks: opt.static_bounds && opt.trump_bounds && !lay.game_type.is_null(),
            similarity_min: if opt.payoff_similarity {
                opt.similarity_min_cards as u32
            } else {
                u32::MAX
            },
            part: partitioned(opt, lay.game_type),
            rel: 0,
            nodes: 0,
        };
        s.root_k = s.k_start();
        if let Some(t) = s.lookup {
            s.lookup_k = if s.part { 0 } else { t.max_k(s.class) };
        }
        s
    }

    /// ProbCut with the simulated better estimator `sharper` (research only).
    pub fn with_sharper_estimates(mut self, sharper: Option<&'a mut SharperEstimates>) -> Self {
        self.sharper = sharper;
        self
    }

    #[inline]
    fn to_move(&self) -> usize {
        m3(self.leader + self.tlen)
    }

    #[inline]
    fn trick_mask(&self) -> u32 {
        let mut m = 0;
        for &c in &self.trick[..self.tlen] {
            m |= 1 << c;
        }
        m
    }

    /// Cards per hand at the start of the current trick.
    #[inline]
    pub fn k_start(&self) -> u32 {
        (self.hands[0].count_ones()
            + self.hands[1].count_ones()
            + self.hands[2].count_ones()
            + self.tlen as u32)
            / 3
    }

    /// Trivial bounds of the marginal value at the current node.
    pub fn trivial_bounds(&self) -> (i32, i32) {
        if self.null {
            (11 - self.k_start() as i32, 11)
        } else {
            debug_assert_eq!(
                self.in_play,
                self.lay
                    .points_of(self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask())
            );
            (0, self.in_play)
        }
    }

    /// MTD(f): zero-window probes (with ProbCut: `pcut_window` wide) until the bounds meet;
    /// a value inside a wider window settles the search. Returns the marginal value. The
    /// first probe tests the guess; after a failing probe the next tests its fail-soft upper
    /// bound, after a successful one `CLIMB_STEP` points above its fail-soft lower bound
    /// (with the `bisect` option: the middle of the remaining interval, which bounds the
    /// probe count by about log2 of the point range).
    pub fn mtdf(&mut self, guess: i32) -> (i32, u32) {
        let (lo, hi) = self.trivial_bounds();
        self.mtdf_in(lo, hi, guess)
    }

    /// MTD(f) when the marginal value is already known to lie in `[lo, hi]` (the caller's
    /// bounds must be true bounds; they are intersected with the trivial ones).
    pub fn mtdf_in(&mut self, lo: i32, hi: i32, guess: i32) -> (i32, u32) {
        let (tlo, thi) = self.trivial_bounds();
        let mut lo = lo.max(tlo);
        let mut hi = hi.min(thi);
        let mut b = guess.clamp(lo, hi).max(lo + 1);
        let mut probes = 0;
        while lo < hi {
            // the probe's window (a, b): 1 point wide except with a wider ProbCut window
            let a = (b - self.window).max(lo);
            let v = self.ab(a, b);
            probes += 1;
            if v >= b {
                lo = v;
            } else if v <= a {
                hi = v;
            } else {
                // inside the window: the (estimated) value itself
                lo = v;
                hi = v;
            }
            b = if self.opt.bisect {
                lo + (hi - lo + 1) / 2
            } else if v >= b {
                // a success proves little above its threshold (the fail-soft value is rarely
                // above it) and successes are the expensive probes: step past it so that the
                // value is more often approached from above, by cheap failing probes
                (v + CLIMB_STEP).min(hi)
            } else {
                v
            };
            b = b.clamp(lo + 1, hi.max(lo + 1));
        }
        (lo, probes)
    }

    /// One null-window probe: is the marginal value >= `t`?
    pub fn test(&mut self, t: i32) -> bool {
        let (lo, hi) = self.trivial_bounds();
        if t <= lo {
            return true;
        }
        if t > hi {
            return false;
        }
        self.ab(t - 1, t) >= t
    }

    /// Value of every representative legal move at the root, then mapped to all legal cards.
    /// Returns (internal card, marginal value of the position after it) for each legal card.
    ///
    /// Each move's MTD(f) comes *from above*: the first at the trivial upper bound, the others
    /// one point above the previous move's value. A probe that fails (the declarer cannot
    /// reach the target) needs only one defender reply per node, one that succeeds needs every
    /// defender reply; from above, the only successful probe is usually the last one, at the
    /// exact value.
    pub fn analyze(&mut self) -> (Vec<(u8, i32)>, u32) {
        let p = self.to_move();
        let lead = if self.tlen > 0 {
            Some(self.trick[0])
        } else {
            None
        };
        let legal = self.lay.legal(self.hands[p], lead);
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
        let reps = if self.opt.collapse_equivalent {
            representatives(self.lay, legal, self.hands[p], live)
        } else {
            let mut r = [0xFFu8; 32];
            for (b, x) in r.iter_mut().enumerate() {
                if legal & (1 << b) != 0 {
                    *x = b as u8;
                }
            }
            r
        };
        let mut vals = [i32::MIN; 32];
        let mut probes = 0;
        // the first probe of each move: from above (see the method's documentation)
        let mut first = i32::MAX;
        let mut out = Vec::new();
        let mut m = legal;
        while m != 0 {
            let c = hi_bit(m);
            m &= !(1 << c);
            let r = reps[c as usize] as usize;
            if vals[r] == i32::MIN {
                let (v, pr) = self.value_after(c as u8, first);
                vals[r] = v;
                probes += pr;
                first = v + 1;
            }
            out.push((c as u8, vals[r]));
        }
        (out, probes)
    }

    /// Exact marginal value (from the current node's point of view) after playing `c`, by
    /// MTD(f) whose first probe tests `first` (clamped to the child's bounds).
    fn value_after(&mut self, c: u8, first: i32) -> (i32, u32) {
        let p = self.to_move();
        self.hands[p] &= !(1 << c);
        self.trick[self.tlen] = c;
        self.tlen += 1;
        let result;
        if self.tlen == 3 {
            let w = m3(self.leader + self.lay.winner(&self.trick));
            let won = self.lay.points_of(self.trick_mask());
            let gain = if w == self.decl { won } else { 0 };
            let old_leader = self.leader;
            let saved = self.trick;
            self.leader = w;
            self.tlen = 0;
            self.in_play -= won;
            if self.null && w == self.decl {
                result = (10 - self.hands[0].count_ones() as i32, 0);
            } else {
                let (v, pr) = self.mtdf(first.saturating_sub(gain));
                result = (v + gain, pr);
            }
            self.in_play += won;
            self.leader = old_leader;
            self.trick = saved;
            self.tlen = 3;
        } else {
            result = self.mtdf(first);
        }
        self.tlen -= 1;
        self.hands[p] |= 1 << c;
        result
    }

    /// Fail-soft alpha-beta on the marginal value.
    #[inline]
    pub fn ab(&mut self, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.tlen != 0 {
            return self.children(alpha, beta, 0xFF).0;
        }
        let l = self.leader;
        let k = self.hands[l].count_ones();
        if k == 0 {
            self.rel = 0;
            return if self.null { 11 } else { 0 };
        }
        if self.part {
            return self.ab_partition(alpha, beta, k);
        }
        if k <= 2 && self.opt.endgame_tables {
            return tables::solve_small(self.lay, &self.hands, l, self.decl, self.null, k);
        }
        self.trick_start(alpha, beta, k)
    }

    /// A trick start with `k` cards per hand (suit, grand and null without partition search;
    /// at least three cards per hand when the last two tricks are solved directly): bounds,
    /// table, then the moves. Kept out of line so that the far more frequent calls of
    /// [`Searcher::ab`] inside a trick do not pay for its stack frame.
    #[inline(never)]
    fn trick_start(&mut self, alpha: i32, beta: i32, k: u32) -> i32 {
        if k <= self.opt.oracle_k as u32 && k < self.root_k {
            return oracle_value(self.lay, self.hands, self.leader, self.decl);
        }
        let mut eg_key = None;
        if k <= self.eg_k {
            let ek = self.eg_key();
            if let Some(v) = self.eg.probe(&ek) {
                return v;
            }
            eg_key = Some(ek);
        }
        let (mut lo, mut hi) = self.trivial_bounds();
        let mut key = None;
        let mut ttmv = 0xFF;
        let mut revisit = false;
        // the cheap trump bounds first (a node they decide needs no key), then the table,
        // then the quick-trick bounds only when the table does not decide the node
        // at a trick start the trivial upper bound is the points still in play
        let in_play = hi;
        if self.trump_tricks {
            let (tlo, thi) = self.trump_bounds(in_play);
            lo = lo.max(tlo);
            hi = hi.min(thi);
            if let Some(v) = decided(lo, hi, alpha, beta) {
                return v;
            }
        }
        if self.use_tt {
            let kp = self.key(k);
            self.tt.prefetch(&kp.0);
            key = Some(kp);
        }
        let mut ttmv_raw = 0xFF;
        if let Some((kk, _)) = &key {
            let lay = self.lay;
            // the trump run is only needed for an entry of another valuation
            let hands = self.hands;
            let decl = self.decl;
            let mut run = None;
            let dist = |a, b| {
                let r = *run.get_or_insert_with(|| Self::trump_run(lay, &hands, decl));
                Self::dist(lay, a, b, r)
            };
            if let Some((tlo, thi, mv)) = self.tt.probe(kk, lo, hi, dist) {
                lo = tlo;
                hi = thi;
                revisit = true;
                ttmv_raw = mv;
            }
        }
        if let Some(v) = decided(lo, hi, alpha, beta) {
            return v;
        }
        if self.quick_tricks {
            let (slo, shi) = self.quick_trick_bounds(in_play);
            lo = lo.max(slo);
            hi = hi.min(shi);
            if let Some(v) = decided(lo, hi, alpha, beta) {
                return v;
            }
        }
        // the lookup tables where the transposition table and the static bounds do not decide
        // the node (asked first, the table saves more nodes, since a parent gains more from
        // an exact value than from a bound, but costs far more time: see lookup_bounds)
        if k <= self.lookup_k {
            let canonical = key.as_ref().map(|(kk, _)| *kk).filter(|kk| kk.canonical);
            (lo, hi) = self.lookup_bounds(k, canonical, lo, hi);
            if let Some(v) = decided(lo, hi, alpha, beta) {
                if lo == hi {
                    if let Some((kk, _)) = &key {
                        self.tt.store(kk, lo, hi, 0xFF, k as u8);
                    }
                }
                return v;
            }
        }
        if let Some(pc) = self.probcut {
            // not at the root's trick, nor inside the endgame cache's exact solutions
            if k < self.root_k && k > self.eg_k {
                let (h, d, l) = (&self.hands, self.decl, self.leader);
                let sh = self.sharper.as_deref_mut();
                if let Some(v) = pc.cut(self.lay, h, d, l, alpha, beta, lo, hi, sh) {
                    return v;
                }
            }
        }
        if ttmv_raw != 0xFF {
            if let Some((_, perm)) = &key {
                ttmv = self.decode_move(ttmv_raw, perm);
            }
        }
        // a small endgame searched again (the table knows it, but not well enough for this
        // window) is solved exactly: a window just outside the known bounds gives its exact
        // value, kept in the endgame cache (without a table: every small endgame)
        let exact = eg_key.is_some() && (revisit || !self.use_tt);
        let (a, b) = if exact {
            (lo - 1, hi + 1)
        } else {
            (alpha.max(lo), beta.min(hi))
        };
        let (best, best_mv) = self.children(a, b, ttmv);
        if exact {
            debug_assert!(a < best && best < b);
            self.eg.store(eg_key.as_ref().unwrap(), best, k);
        }
        // below ProbCut cuts the children's values are estimates that may contradict this
        // node's exact bounds: keep them inside (a no-op for the exact search)
        let best = if self.probcut.is_some() {
            best.clamp(lo, hi)
        } else {
            best
        };
        let (nlo, nhi) = searched_bounds(lo, hi, a, b, best);
        if let Some((kk, perm)) = key {
            let mv = self.encode_move(best_mv, &perm);
            self.tt.store(&kk, nlo, nhi, mv, k as u8);
        }
        fail_soft(nlo, nhi, best, a)
    }

    /// The unbeatable-trump static bounds `(lo, hi)` of the current start-of-trick position
    /// (suit and grand; valid whoever leads), `in_play` points still in the hands.
    #[inline]
    fn trump_bounds(&self, in_play: i32) -> (i32, i32) {
        let (dl, fl) = bounds::trump_lower(self.lay, &self.hands, self.decl);
        (dl, in_play - fl)
    }

    /// The quick-trick static bounds of the current start-of-trick position (suit and
    /// grand): a lower bound when the declarer leads, an upper bound when a defender does
    /// (`in_play` points still in the hands).
    #[inline]
    fn quick_trick_bounds(&self, in_play: i32) -> (i32, i32) {
        let l = self.leader;
        if l == self.decl {
            (
                bounds::declarer_lower(self.lay, &self.hands, self.decl),
                i32::MAX,
            )
        } else {
            (
                i32::MIN,
                in_play - bounds::defender_lower(self.lay, &self.hands, self.decl, l),
            )
        }
    }

    /// The bounds `lo..hi` of the current start-of-trick position (`k` cards per hand, a
    /// size the lookup tables hold; they include the trivial bounds) narrowed by its row's
    /// tentpoles: exact for a complete table (see [`crate::solver::lookup`]); unchanged if
    /// the row is missing. Asked only where the
    /// transposition table and the static bounds leave the node open. At 30 cards, with
    /// complete suit-3, grand-3 and grand-4 tables, that saves 12-15% of the suit nodes at
    /// -1% to -4% time and 42-47% of the grand nodes at -16% to -28% time. Asking first, before the
    /// transposition table, saves a little more (suit -14% to -16%, grand -44% to -48%) but
    /// takes more time (suit +3% to +5%, grand -25% to -32%): a lookup (a hash probe and a
    /// scan of tentpoles) costs more than the cheap tests it would pre-empt.
    #[inline(never)]
    fn lookup_bounds(&self, k: u32, canonical: Option<Key>, lo: i32, hi: i32) -> (i32, i32) {
        let Some(table) = self.lookup.and_then(|t| t.table(self.class, k)) else {
            return (lo, hi);
        };
        let key = canonical.unwrap_or_else(|| {
            let l = self.leader;
            let rot = [self.hands[l], self.hands[m3(l + 1)], self.hands[m3(l + 2)]];
            let tag = m3(self.decl + 3 - l) as u64 | (self.class as u64) << 2;
            key::canonical_key(self.lay, rot, tag).0
        });
        let Some(row) = table.row(key.a) else {
            return (lo, hi);
        };
        let run = Self::trump_run(self.lay, &self.hands, self.decl);
        let (mut tlo, mut thi) = (lo, hi);
        if row.low_half() {
            // the best lower bound, with the trivial one the node's bounds include, is exact
            for (i, &x) in row.vals.iter().enumerate() {
                tlo = tlo.max(row.value(i) as i32 + Self::dist(self.lay, key.val, x, run).0);
            }
            // (bounds that do not meet come from a foreign table: ignored)
            return if tlo <= hi { (tlo, tlo) } else { (lo, hi) };
        }
        for (i, &x) in row.vals.iter().enumerate() {
            let v = row.value(i) as i32;
            let (dlo, dhi) = Self::dist(self.lay, key.val, x, run);
            tlo = tlo.max(v + dlo);
            thi = thi.min(v + dhi);
            if tlo >= thi {
                break;
            }
        }
        (tlo, thi)
    }

    /// The endgame-cache key of the current start-of-trick position.
    #[inline]
    fn eg_key(&self) -> EgKey {
        let l = self.leader;
        let drel = m3(self.decl + 3 - l) as u8;
        EgKey {
            a: self.hands[l] as u64 | (self.hands[m3(l + 1)] as u64) << 32,
            b: self.hands[m3(l + 2)],
            tag: drel | self.class << 2,
        }
    }
}

thread_local! {
    /// The oracle's own search state (a table of its own, kept warm: its entries are exact
    /// bounds of marginal values, valid in any later search).
    static ORACLE: std::cell::RefCell<(Tt, EgCache)> =
        std::cell::RefCell::new((Tt::with_bytes(16 << 20), EgCache::tiny()));
}

/// The exact marginal value of a start-of-trick position by a separate default search
/// ([`SolverOptions::oracle_k`]; its nodes are not counted).
fn oracle_value(lay: &'static Layout, hands: [u32; 3], leader: usize, decl: usize) -> i32 {
    ORACLE.with(|o| {
        let mut o = o.borrow_mut();
        let (tt, eg) = &mut *o;
        let opt = SolverOptions::default();
        let mut s = Searcher::new(lay, &opt, tt, eg, hands, &[], leader, decl, None);
        // the oracle's own trick starts are searched, not asked again
        s.root_k = 0;
        s.mtdf(0).0
    })
}
