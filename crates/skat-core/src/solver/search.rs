//! The alpha-beta search (fail-soft, declarer maximises) and the MTD(f) driver.
//!
//! Values are *marginal*: in suit and grand games the declarer's card points from the cards
//! still in play (hands and the current trick); in null the time-to-live score: the number of
//! the first trick the declarer takes, 11 if she takes none. The root adds the points already
//! won.

use super::bounds;
use super::endgame::{EgCache, EgKey};
use super::layout::{m3, Layout, MAX_GROUPS};
use super::order::{collapse, representatives};
use super::tables;
use super::tt::{fine_split, spread, Key, PartKey, Tt};
use super::SolverOptions;

/// FCF weight: score units per legal reply of the child (heuristic scores are in card points).
const FCF_WEIGHT: i32 = 3;
/// Lead score of a declarer's trump in a suit game while the defenders still hold trumps.
const LEAD_TRUMP: i32 = 5;
/// Lead scores of a card above every other card of its suit still out: a trump, and a plain
/// card that no opponent can ruff (was 20 and 15; 5 and 25 save 1.7% of analyze nodes on 9 x
/// 40 positions and 1.8% on 5 other seeds, every seed fewer; 0-30 and 8-35 tried).
const TOP_TRUMP_LEAD: i32 = 5;
const TOP_PLAIN_LEAD: i32 = 25;
/// Lead scores of a defender's plain-suit card that the partner can ruff (bonus) or the
/// declarer can ruff (penalty). Measured on 9 x 40 positions at 30 cards (analyze nodes):
/// -0.2% to -4.1%, -1.9% in all; bonuses of 3-40 and penalties of 3-15 tried.
const PARTNER_RUFF_LEAD: i32 = 20;
const DECLARER_RUFF_LEAD: i32 = 8;
/// Lead score penalty of the declarer's plain-suit card below the suit's top card when a
/// defender can ruff it: -1.4% analyze nodes on 5 x 100 positions (seeds 1-3, 11, 12), -1.0%
/// on 5 others (seeds 21-25), every seed but one fewer; 15-80 measure alike, 5 gains less.
const DECLARER_LEAD_RUFFED: i32 = 20;
/// Lead score of a defender's plain-suit card when the partner holds the suit's top card
/// (and the declarer cannot ruff): -1.0% to -6.1% analyze nodes on 9 x 40 positions, -2.9% in
/// all; 4, 10, 15, 20, 30 and -5 tried.
const PARTNER_TOP_LEAD: i32 = 12;
/// Score of a second-hand card that takes the lead of the trick while an opponent is still to
/// play, before its points (was 2; 11 saves 6.0% of analyze nodes on 5 fresh seeds, 9 x 40
/// tuning positions -4.7%; 4-20 tried). Found with the partner-ruff lead at 20 (was 15) and no
/// penalty for leading a trump that is not the top one (was 4) by coordinate descent on 9 x 40
/// positions: -4.7% there, -6.3% on seeds 31-35.
const BEAT_SECOND: i32 = 11;
// the order of the second cards (`Searcher::second_cards`) is written out for this value
const _: () = assert!(BEAT_SECOND == 11);
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

/// Smallest hand size at which null trick starts use the partition table (smaller ones are
/// searched directly: the two-trick tables know no lowest winning ranks).
pub const PARTITION_MIN_CARDS: u32 = 3;

/// Whether a search of this game type uses lowest-winning-rank partition search.
pub fn partitioned(opt: &SolverOptions, gt: crate::rules::GameType) -> bool {
    gt.is_null() && opt.partition_search && opt.transposition_table
}

/// The lowest-winning-rank word (a nibble per slot: the relative rank among the remaining
/// cards `all` of the slot's suit `perm[slot]`, 8: none) of a set of relevant cards (null
/// layout).
fn lwr_of_rel(rel: u32, all: u32, perm: &[u8; MAX_GROUPS]) -> u32 {
    let mut w = 0;
    for (slot, &g) in perm.iter().enumerate().take(4) {
        let s = g as u32;
        let m = rel >> (8 * s) & 0xFF;
        let l = if m == 0 {
            8
        } else {
            let below = (m & m.wrapping_neg()) - 1;
            (all >> (8 * s) & below).count_ones()
        };
        w |= l << (4 * slot);
    }
    w
}

/// The relevant cards of a lowest-winning-rank word: for each slot, the remaining card of
/// that relative rank in the slot's suit.
fn rel_of_lwr(lwr: u32, all: u32, perm: &[u8; MAX_GROUPS]) -> u32 {
    let mut rel = 0;
    for (slot, &g) in perm.iter().enumerate().take(4) {
        let s = g as u32;
        let l = lwr >> (4 * slot) & 0xF;
        let mut rem = all >> (8 * s) & 0xFF;
        if l >= 8 || l >= rem.count_ones() {
            continue;
        }
        for _ in 0..l {
            rem &= rem - 1;
        }
        rel |= (rem & rem.wrapping_neg()) << (8 * s);
    }
    rel
}

/// The bounds `[lo, hi]` of a node narrowed by the result `best` of a search of its moves
/// with the window `(a, b)`.
#[inline]
fn searched_bounds(lo: i32, hi: i32, a: i32, b: i32, best: i32) -> (i32, i32) {
    let (nlo, nhi) = if best <= a {
        (lo, hi.min(best))
    } else if best >= b {
        (lo.max(best), hi)
    } else {
        (best, best)
    };
    debug_assert!(nlo <= nhi, "inconsistent bounds {nlo} {nhi}");
    (nlo, nhi)
}

/// The value to return at once when the bounds `[lo, hi]` of a node decide the window
/// `(alpha, beta)` (or meet), else `None`.
#[inline]
fn decided(lo: i32, hi: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lo >= beta || lo >= hi {
        Some(lo)
    } else if hi <= alpha {
        Some(hi)
    } else {
        None
    }
}

/// The fail-soft value returned for the narrowed bounds of [`searched_bounds`].
#[inline]
fn fail_soft(nlo: i32, nhi: i32, best: i32, a: i32) -> i32 {
    if nlo >= nhi {
        nlo
    } else if best <= a {
        nhi
    } else {
        nlo
    }
}

/// The identity slot -> group permutation of exact keys.
const IDENTITY: [u8; MAX_GROUPS] = [0, 1, 2, 3, 4];

/// What the null move scores of a follow (second or third card of a trick) share: the
/// current winning card and seat.
#[derive(Default)]
struct FollowCtx {
    wc: u8,
    ws: usize,
}

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
    /// With `part`: the relevant cards of the subtree just searched (cards that won a trick
    /// by rank, and the lowest card of each collapsed group of equivalent cards); only each
    /// suit's lowest one matters.
    rel: u32,
    pub nodes: u64,
}

/// The cards to search among `legal` (a subset of `hand`; `live`: every card in the hands and
/// the current trick): one per group of equivalent cards with the option.
#[inline(always)]
fn searched_cards(lay: &Layout, opt: &SolverOptions, legal: u32, hand: u32, live: u32) -> u32 {
    if legal & legal.wrapping_sub(1) != 0 && opt.collapse_equivalent {
        collapse(lay, legal, hand, live)
    } else {
        legal
    }
}

/// Appends the cards of `m` to `cards[..n]`, highest first (the search order of a card loop).
#[inline(always)]
fn push_cards(cards: &mut [u8; 10], n: &mut usize, mut m: u32) {
    while m != 0 {
        let c = hi_bit(m);
        m &= !(1 << c);
        cards[*n] = c as u8;
        *n += 1;
    }
}

/// Number of jacks in a 4-bit jack pattern.
const JACK_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Signed distances of two 7-card valuations `a`, `b` of one suit (bits 7 8 9 Q K T A, points
/// 0 0 0 3 4 10 11) with equally many cards, pairing the i-th most powerful card of `a` with
/// the i-th of `b`: the low byte is the sum of `max(0, v_a - v_b)` over the pairs, the high
/// byte the sum of `max(0, v_b - v_a)`. Where power order is value order each is a sum over
/// the point thresholds of the positive part of the difference of the counts at or above it.
static DIST7: [u16; 128 * 128] = dist7_table();

const fn count_excess(a: u32, b: u32, m: u32) -> u32 {
    let d = (a & m).count_ones() as i32 - (b & m).count_ones() as i32;
    if d > 0 {
        d as u32
    } else {
        0
    }
}

const fn dist7_table() -> [u16; 128 * 128] {
    let mut t = [0u16; 128 * 128];
    let mut a = 0u32;
    while a < 128 {
        let mut b = 0u32;
        while b < 128 {
            let up = 3 * count_excess(a, b, 0x78)
                + count_excess(a, b, 0x70)
                + 6 * count_excess(a, b, 0x60)
                + count_excess(a, b, 0x40);
            let down = 3 * count_excess(b, a, 0x78)
                + count_excess(b, a, 0x70)
                + 6 * count_excess(b, a, 0x60)
                + count_excess(b, a, 0x40);
            t[(a << 7 | b) as usize] = (up | down << 8) as u16;
            b += 1;
        }
        a += 1;
    }
    t
}

#[inline]
fn hi_bit(m: u32) -> u32 {
    31 - m.leading_zeros()
}

/// `PEXT7[m << 7 | x]`: the bits of `x` at the positions of `m`, moved to the lowest bits in
/// order (a 7-bit parallel bit extract).
static PEXT7: [u8; 128 * 128] = pext7_table();

const fn pext7_table() -> [u8; 128 * 128] {
    let mut t = [0u8; 128 * 128];
    let mut m = 0usize;
    while m < 128 {
        let mut x = 0usize;
        while x < 128 {
            let (mut out, mut j, mut b) = (0u8, 0, 0);
            while b < 7 {
                if m >> b & 1 == 1 {
                    out |= ((x >> b & 1) as u8) << j;
                    j += 1;
                }
                b += 1;
            }
            t[m << 7 | x] = out;
            x += 1;
        }
        m += 1;
    }
    t
}

/// The bits of `x` at the positions of `m` (`m` below 2^14), moved to the lowest bits.
#[inline]
fn compress(x: u32, m: u32) -> u32 {
    let lo = PEXT7[((m & 0x7F) << 7 | (x & 0x7F)) as usize] as u32;
    let hm = m >> 7 & 0x7F;
    if hm == 0 {
        return lo;
    }
    let hi = PEXT7[(hm << 7 | (x >> 7 & 0x7F)) as usize] as u32;
    lo | hi << (m & 0x7F).count_ones()
}

/// `CODE7[lo | hi << 7]`: the canonical code of a group of at most seven cards whose owners
/// are given in two bits per card (`lo`, `hi`: 0 out, 1 the leader, 2 the next player, 3 the
/// last): `3^n` plus the owners' digits (leader 0, next 1, last 2) of the `n` remaining cards,
/// lowest card first, in base 3; what [`compress`] and [`BASE3`] compute in several steps.
static CODE7: [u16; 1 << 14] = code7_table();

const fn code7_table() -> [u16; 1 << 14] {
    let mut t = [0u16; 1 << 14];
    let mut idx = 0usize;
    while idx < 1 << 14 {
        let (mut d, mut pow, mut b) = (0usize, 1usize, 0);
        while b < 7 {
            let owner = (idx >> b & 1) + 2 * (idx >> (7 + b) & 1);
            if owner != 0 {
                d += (owner - 1) * pow;
                pow *= 3;
            }
            b += 1;
        }
        t[idx] = (pow + d) as u16;
        idx += 1;
    }
    t
}

/// The canonical code of the (at most seven) cards at bits `base..base + 7` of the owner
/// masks `lo_m`, `hi_m` (see [`CODE7`]).
#[inline(always)]
fn code7(lo_m: u32, hi_m: u32, base: u32) -> u32 {
    CODE7[((lo_m >> base & 0x7F) | (hi_m >> base & 0x7F) << 7) as usize] as u32
}

/// `BASE3[x]`: the sum of `3^i` over the set bits `i` of `x` (11 bits).
static BASE3: [u32; 1 << 11] = base3_table();

const fn base3_table() -> [u32; 1 << 11] {
    let mut t = [0u32; 1 << 11];
    let mut x = 1usize;
    while x < 1 << 11 {
        let low = x.trailing_zeros();
        t[x] = t[x & (x - 1)] + POW3[low as usize];
        x += 1;
    }
    t
}

const POW3: [u32; 12] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049, 177147];

/// Sorts `slots` (group numbers) by descending `keys[group]` (at most four slots).
#[inline]
fn sort_desc(slots: &mut [u8], keys: &[u32; MAX_GROUPS]) {
    for i in 1..slots.len() {
        let g = slots[i];
        let kg = keys[g as usize];
        let mut j = i;
        while j > 0 && keys[slots[j - 1] as usize] < kg {
            slots[j] = slots[j - 1];
            j -= 1;
        }
        slots[j] = g;
    }
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
    ) -> Searcher<'a> {
        let mut t = [0u8; 3];
        t[..trick.len()].copy_from_slice(trick);
        Searcher {
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
        }
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

    /// MTD(f): zero-window probes until the bounds meet. Returns the marginal value. The
    /// first probe tests the guess; after a failing probe the next tests its fail-soft upper
    /// bound, after a successful one [`CLIMB_STEP`] points above its fail-soft lower bound
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
            let v = self.ab(b - 1, b);
            probes += 1;
            if v >= b {
                lo = v;
            } else {
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

    /// The key of the current start-of-trick position with `k` cards per hand, and the
    /// slot -> group permutation.
    fn key(&self, k: u32) -> (Key, [u8; MAX_GROUPS]) {
        let lay = self.lay;
        let l = self.leader;
        let rot = [self.hands[l], self.hands[m3(l + 1)], self.hands[m3(l + 2)]];
        let drel = m3(self.decl + 3 - l) as u64;
        let class = self.class as u64;
        if k < self.similarity_min {
            // the owner of each card in two bits (0: out; 1, 2, 3: the leader, the next,
            // the last); the tag's top bit keeps it apart from every valuation
            let key = Key {
                a: spread(rot[0] | rot[2]) | spread(rot[1] | rot[2]) << 1,
                val: 0x8000_0000 | (drel | class << 2) as u32,
                canonical: false,
            };
            return (key, IDENTITY);
        }
        let tag = drel | class << 2;
        if !self.null {
            return Self::key_suit_grand(lay, rot, tag);
        }
        // canonical (null; suit and grand above): per group, owners (relative to the leader)
        // of the remaining cards, highest first, as base-3 digits behind a leading 1; the
        // owners of the remaining cards are compressed to consecutive bits, whose base-3
        // values come from a table
        let all = rot[0] | rot[1] | rot[2];
        let mut sortkeys = [0u32; MAX_GROUPS];
        let mut codes = [0u32; MAX_GROUPS];
        let mut rems = [0u32; MAX_GROUPS];
        let mut perm = IDENTITY;
        for g in 0..lay.ngroups {
            let base = lay.group_base[g] as u32;
            let rem = (all & lay.group_mask[g]) >> base;
            let r1 = compress(rot[1] >> base, rem);
            let r2 = compress(rot[2] >> base, rem);
            let code =
                POW3[rem.count_ones() as usize] + BASE3[r1 as usize] + 2 * BASE3[r2 as usize];
            codes[g] = code;
            rems[g] = rem;
            // plain groups have at most 8 cards: code < 2 * 3^8 < 2^14
            sortkeys[g] = code << 8 | rem;
        }
        // the suits of a null game are interchangeable: sort them (by code, then valuation)
        sort_desc(&mut perm[..lay.ngroups], &sortkeys);
        // fixed width per slot: 2 * 3^size < 2^width (plain 7: 13 bits, null 8: 14, trumps
        // 11: 19, jacks 4: 8); at most 60 bits in all, plus 4 bits of seat and class
        let mut k: u64 = 0;
        let mut val: u32 = 0;
        for (slot, &g) in perm.iter().enumerate().take(lay.ngroups) {
            let g = g as usize;
            k = k << lay.key_width[slot] | codes[g] as u64;
            val |= rems[g] << lay.group_base[slot];
        }
        k = k << 4 | tag;
        (
            Key {
                a: k,
                val,
                canonical: true,
            },
            perm,
        )
    }

    /// [`Searcher::key`]'s canonical key of a suit or grand position (the hands rotated so
    /// that the leader comes first, `tag`: seat and class), with the fixed layouts of those
    /// games unrolled: plain suits of seven cards at bits 0, 7, 14 (and 21 in grand), sorted by
    /// a stable sorting network; the trumps of a suit game at 21 (the trump suit's seven
    /// cards, then the jacks), the jacks of a grand at 28. The same key and slot permutation
    /// as the general loop.
    #[inline]
    fn key_suit_grand(lay: &Layout, rot: [u32; 3], tag: u64) -> (Key, [u8; MAX_GROUPS]) {
        let all = rot[0] | rot[1] | rot[2];
        let lo_m = rot[0] | rot[2];
        let hi_m = rot[1] | rot[2];
        // a plain slot packed for sorting: code (13 bits), remaining cards (7), and 3 - group
        // (2), so that equal codes and valuations keep the lower group first (a stable sort)
        let plain = |g: u32| code7(lo_m, hi_m, 7 * g) << 9 | (all >> (7 * g) & 0x7F) << 2 | (3 - g);
        // descending compare-exchange, branch-free
        let cx = |s: &mut [u32], i: usize| {
            let (a, b) = (s[i], s[i + 1]);
            s[i] = a.max(b);
            s[i + 1] = a.min(b);
        };
        let code = |x: u32| (x >> 9) as u64;
        let rem = |x: u32| x >> 2 & 0x7F;
        let group = |x: u32| 3 - (x & 3) as u8;
        if lay.trump_group == 3 {
            let mut s = [plain(0), plain(1), plain(2)];
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 0);
            let trem = all >> 21;
            let low = code7(lo_m, hi_m, 21);
            let jacks = code7(lo_m, hi_m, 28);
            let tcode = low + POW3[(trem & 0x7F).count_ones() as usize] * (jacks - 1);
            let k = ((((code(s[0]) << 13 | code(s[1])) << 13 | code(s[2])) << 19) | tcode as u64)
                << 4
                | tag;
            let val = rem(s[0]) | rem(s[1]) << 7 | rem(s[2]) << 14 | trem << 21;
            let key = Key {
                a: k,
                val,
                canonical: true,
            };
            (key, [group(s[0]), group(s[1]), group(s[2]), 3, 4])
        } else {
            let mut s = [plain(0), plain(1), plain(2), plain(3)];
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 2);
            cx(&mut s, 0);
            cx(&mut s, 1);
            cx(&mut s, 0);
            let jrem = all >> 28;
            let jcode = code7(lo_m, hi_m, 28);
            let k = (((((code(s[0]) << 13 | code(s[1])) << 13 | code(s[2])) << 13 | code(s[3]))
                << 8
                | jcode as u64)
                << 4)
                | tag;
            let val = rem(s[0]) | rem(s[1]) << 7 | rem(s[2]) << 14 | rem(s[3]) << 21 | jrem << 28;
            let key = Key {
                a: k,
                val,
                canonical: true,
            };
            (key, [group(s[0]), group(s[1]), group(s[2]), group(s[3]), 4])
        }
    }

    /// How far the declarer's marginal points can differ between two payoff-similar positions
    /// (same canonical key) with valuations `v1` and `v2`: `(dlo, dhi)` with
    /// `P(v1) - P(v2)` in `[dlo, dhi]`. The i-th most powerful remaining card of a slot is
    /// paired with the i-th; in every pair of corresponding leaves the declarer's points
    /// differ by the value differences of the cards she wins, so by at most the sum of the
    /// positive differences (`up`) and at least minus the sum of the negative ones (`down`).
    /// (Thesis ch. 7 bounds the point *difference* of the two sides by the L1 distance
    /// `up + down`; on the declarer's points that is the same bound.)
    ///
    /// `run` refines this (thesis ch. 7, "if the team that will win card i is certain, add
    /// its value directly"): in suit games the top `|run|` trumps, each above every trump of
    /// the other side, are won by the side that holds them (the declarer for `run > 0`, the
    /// defenders for `run < 0`) in every line of play. Their pairs then shift the difference
    /// by exactly their value difference (declarer) or not at all (defenders) instead of
    /// widening it. `run` is a function of the canonical key, so it is the same for every
    /// valuation of the key.
    ///
    /// Where power order is value order (plain suits: 7 8 9 Q K T A = 0 0 0 3 4 10 11) each
    /// part is one look-up in [`DIST7`] per suit; jacks are all worth 2.
    #[inline]
    pub fn dist(lay: &Layout, v1: u32, v2: u32, run: i32) -> (i32, i32) {
        if v1 == v2 || lay.game_type.is_null() {
            return (0, 0);
        }
        if run == 0 || lay.trump_group != 3 {
            let (up, down) = Self::spread_of(lay, v1, v2);
            return (-down, up);
        }
        let jacks = JACK_COUNT[(v1 >> 28) as usize];
        if run.unsigned_abs() <= jacks as u32 && jacks == JACK_COUNT[(v2 >> 28) as usize] {
            // the certain winners are jacks on both sides, paired with each other (all worth
            // 2): they shift nothing, and the rest pair as without them
            let (up, down) = Self::spread_of(lay, v1, v2);
            return (-down, up);
        }
        // suit: the trump group (trump suit and jacks) at bits 21..32
        let top1 = bounds::top_n(v1 >> 21, run.unsigned_abs()) << 21;
        let top2 = bounds::top_n(v2 >> 21, run.unsigned_abs()) << 21;
        let shift = if run > 0 {
            lay.points_of(top1) - lay.points_of(top2)
        } else {
            0
        };
        let (up, down) = Self::spread_of(lay, v1 & !top1, v2 & !top2);
        (shift - down, shift + up)
    }

    /// The sums `(up, down)` of the positive and negative value differences of the paired
    /// cards of two valuations with equally many cards per slot.
    #[inline]
    fn spread_of(lay: &Layout, v1: u32, v2: u32) -> (i32, i32) {
        // suit: three plain suits of 7 at bits 0, 7, 14, the trump suit's 7 at 21, the jacks
        // at 28; grand: four plain suits of 7 at 0, 7, 14, 21, the jacks at 28 (all worth 2,
        // equally many in both: no distance)
        let d7 = |shift: u32| DIST7[((v1 >> shift & 0x7F) << 7 | (v2 >> shift & 0x7F)) as usize];
        let mut d = d7(0) as u32 + d7(7) as u32 + d7(14) as u32;
        if lay.trump_group == 3 {
            let (j1, j2) = (
                JACK_COUNT[(v1 >> 28) as usize] as u32,
                JACK_COUNT[(v2 >> 28) as usize] as u32,
            );
            if j1 != j2 {
                // jack counts differ: the side with more jacks pairs its extra ones with the
                // other side's top trump-suit cards, the rest pair in order
                let (l1, l2) = (v1 >> 21 & 0x7F, v2 >> 21 & 0x7F);
                let (u, w) = if j1 > j2 {
                    Self::extra_jacks(l1, l2, j1 - j2)
                } else {
                    let (u, w) = Self::extra_jacks(l2, l1, j2 - j1);
                    (w, u)
                };
                return ((d & 0xFF) as i32 + u, (d >> 8) as i32 + w);
            }
        }
        d += d7(21) as u32;
        // the low bytes sum to at most 4 * 28 < 256: no carry into the high byte
        ((d & 0xFF) as i32, (d >> 8) as i32)
    }

    /// The `(up, down)` spread of the trump groups of a suit game when the first holds `extra`
    /// more jacks (worth 2) than the second: `a` and `b` are their trump suits' seven cards
    /// (bits 7 8 9 Q K T A, points 0 0 0 3 4 10 11). The extra jacks pair with `b`'s top
    /// `extra` cards, the rest of `b` with all of `a`, in order.
    #[inline]
    fn extra_jacks(a: u32, b: u32, extra: u32) -> (i32, i32) {
        let top = bounds::top_n(b, extra);
        let d = DIST7[(a << 7 | (b & !top)) as usize] as i32;
        // a jack against a 7, 8 or 9 gains 2; against a Q, K, T or A it loses the difference
        let zeros = (top & 0b111).count_ones() as i32;
        let rest = top & !0b111;
        let rest_pts = 3 * (rest >> 3 & 1) as i32
            + 4 * (rest >> 4 & 1) as i32
            + 10 * (rest >> 5 & 1) as i32
            + 11 * (rest >> 6 & 1) as i32;
        let up = (d & 0xFF) + 2 * zeros;
        let down = (d >> 8) + rest_pts - 2 * rest.count_ones() as i32;
        (up, down)
    }

    /// The certain-winner run of a suit-game position (see [`Searcher::dist`]): the number
    /// of the declarer's trumps above every defender trump, or minus the number of defender
    /// trumps above every trump of the declarer; 0 in grand and null (no point differences
    /// among the jacks) and without trumps.
    #[inline]
    fn trump_run(lay: &Layout, hands: &[u32; 3], decl: usize) -> i32 {
        if lay.trump_group != 3 {
            return 0;
        }
        let t = lay.trumps;
        let hd = hands[decl] & t;
        let def = (hands[0] | hands[1] | hands[2]) & t & !hd;
        if hd == 0 && def == 0 {
            return 0;
        }
        if hd > def {
            // the declarer holds the highest trump
            let stop = if def == 0 { 0 } else { 2u32 << hi_bit(def) };
            (hd & !stop.wrapping_sub(1)).count_ones() as i32
        } else {
            let stop = if hd == 0 { 0 } else { 2u32 << hi_bit(hd) };
            -((def & !stop.wrapping_sub(1)).count_ones() as i32)
        }
    }

    /// Reference implementation of [`Searcher::dist`] (for tests): pairs card by card.
    pub fn dist_reference(lay: &Layout, v1: u32, v2: u32, run: i32) -> (i32, i32) {
        let (mut lo, mut hi) = (0, 0);
        for g in 0..lay.ngroups {
            let width = lay.group_mask[g].count_ones();
            let base = lay.group_base[g] as usize;
            let order = |v: u32| -> Vec<i32> {
                (0..width as usize)
                    .rev()
                    .filter(|&b| v >> (base + b) & 1 == 1)
                    .map(|b| lay.points[base + b] as i32)
                    .collect()
            };
            let certain = if g == lay.trump_group && lay.trump_group == 3 {
                run.unsigned_abs() as usize
            } else {
                0
            };
            for (i, (x, y)) in order(v1).into_iter().zip(order(v2)).enumerate() {
                let d = x - y;
                if i < certain {
                    if run > 0 {
                        lo += d;
                        hi += d;
                    }
                } else if d > 0 {
                    hi += d;
                } else {
                    lo += d;
                }
            }
        }
        (lo, hi)
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
        let (nlo, nhi) = searched_bounds(lo, hi, a, b, best);
        if let Some((kk, perm)) = key {
            let mv = self.encode_move(best_mv, &perm);
            self.tt.store(&kk, nlo, nhi, mv, k as u8);
        }
        fail_soft(nlo, nhi, best, a)
    }

    /// A null trick start under partition search (thesis ch. 4): the table entry of a
    /// position serves every position with the same owners of the cards at or above each
    /// suit's lowest winning rank and the same fine split (cards per suit and hand). Sets
    /// `self.rel` to the relevant cards of the result.
    fn ab_partition(&mut self, alpha: i32, beta: i32, k: u32) -> i32 {
        if k < PARTITION_MIN_CARDS {
            return self.children(alpha, beta, 0xFF).0;
        }
        // the owners of each suit's remaining cards by relative rank (played cards dropped):
        // one 16-bit lane of two-bit owner fields per suit
        let l = self.leader;
        let rot = [self.hands[l], self.hands[m3(l + 1)], self.hands[m3(l + 2)]];
        let all = rot[0] | rot[1] | rot[2];
        let mut lanes = [0u32; MAX_GROUPS];
        for (s, lane) in lanes.iter_mut().enumerate().take(4) {
            let rem = all >> (8 * s) & 0xFF;
            let r0 = compress(rot[0] >> (8 * s), rem);
            let r1 = compress(rot[1] >> (8 * s), rem);
            let r2 = compress(rot[2] >> (8 * s), rem);
            *lane = (spread(r0 | r2) | spread(r1 | r2) << 1) as u32;
        }
        // the four suits are interchangeable in null: slots in descending lane order
        let mut perm = IDENTITY;
        sort_desc(&mut perm[..4], &lanes);
        let mut a = 0u64;
        for (slot, &g) in perm.iter().enumerate().take(4) {
            a |= (lanes[g as usize] as u64) << (16 * slot);
        }
        let split = fine_split(a);
        // the tag: the declarer's seat relative to the leader and a 14-bit fingerprint of
        // the fine split (entries of another split are passed over without decoding them)
        let fp = split.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50;
        let tag = m3(self.decl + 3 - l) as u32 | (fp as u32) << 2;
        let key = PartKey {
            a,
            split,
            tag,
            bucket: split ^ (tag as u64 & 3) << 62,
        };
        self.tt.prefetch_partition(&key);
        let (mut lo, mut hi) = self.trivial_bounds();
        let mut prel = 0;
        let mut ttmv = 0xFF;
        if let Some((plo, phi, mv, used)) = self.tt.probe_partition(&key, lo, hi) {
            (lo, hi, prel) = (plo, phi, rel_of_lwr(used, all, &perm));
            if mv != 0xFF {
                ttmv = self.decode_move(mv, &perm);
            }
        }
        if lo >= beta || lo >= hi {
            self.rel = prel;
            return lo;
        }
        if hi <= alpha {
            self.rel = prel;
            return hi;
        }
        let (a, b) = (alpha.max(lo), beta.min(hi));
        let (best, best_mv) = self.children(a, b, ttmv);
        let rel = self.rel | prel;
        let (nlo, nhi) = searched_bounds(lo, hi, a, b, best);
        let mv = self.encode_move(best_mv, &perm);
        self.tt
            .store_partition(&key, lwr_of_rel(rel, all, &perm), nlo, nhi, mv, k as u8);
        self.rel = rel;
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

    fn encode_move(&self, c: u8, perm: &[u8; MAX_GROUPS]) -> u8 {
        if c == 0xFF {
            return 0xFF;
        }
        let g = self.lay.group_of[c as usize];
        let slot = perm.iter().position(|&x| x == g).unwrap_or(0) as u32;
        let all = self.hands[0] | self.hands[1] | self.hands[2];
        let above = all & self.lay.group_mask[g as usize] & !(2u32 << c).wrapping_sub(1);
        (slot * 16 + above.count_ones()) as u8
    }

    fn decode_move(&self, mv: u8, perm: &[u8; MAX_GROUPS]) -> u8 {
        let slot = (mv / 16) as usize;
        let t = (mv % 16) as u32;
        if slot >= self.lay.ngroups {
            return 0xFF;
        }
        let g = perm[slot] as usize;
        let mut rem = (self.hands[0] | self.hands[1] | self.hands[2]) & self.lay.group_mask[g];
        for _ in 0..t {
            if rem == 0 {
                return 0xFF;
            }
            rem &= !(1 << hi_bit(rem));
        }
        if rem == 0 {
            return 0xFF;
        }
        let c = hi_bit(rem);
        if self.hands[self.leader] & (1 << c) != 0 {
            c as u8
        } else {
            0xFF
        }
    }

    /// Searches the moves of the player to move. Returns (value, best move). Suit and grand
    /// go to one loop per card of the trick; the loop below serves null games (with or
    /// without partition search).
    fn children(&mut self, alpha: i32, beta: i32, ttmv: u8) -> (i32, u8) {
        if !self.null {
            return match self.tlen {
                0 => self.leads(alpha, beta, ttmv),
                1 => self.second_cards(alpha, beta),
                _ => self.last_cards(alpha, beta),
            };
        }
        let p = self.to_move();
        let lead = if self.tlen > 0 {
            Some(self.trick[0])
        } else {
            None
        };
        let mut moves = [(0i32, 0u32); 10];
        let n = self.ordered_moves(p, lead, ttmv, &mut moves);
        let moves = &moves[..n];
        let mut cards = [0u8; 10];
        for (card, m) in cards.iter_mut().zip(moves) {
            *card = m.1 as u8;
        }
        let maximizing = p == self.decl;
        // partition search: a cut needs only the cutting (last searched) move's relevant
        // cards, otherwise every move's
        let (mut rel_all, mut rel_last) = (0u32, 0u32);
        let (best, best_mv) =
            self.search_moves(&cards[..n], maximizing, alpha, beta, |s, c, alpha, beta| {
                let v = s.play_and_search(p, c, alpha, beta);
                rel_last = s.rel;
                rel_all |= s.rel;
                v
            });
        if self.part {
            let cut = if maximizing {
                best >= beta
            } else {
                best <= alpha
            };
            let rel = if cut { rel_last } else { rel_all };
            self.rel = rel | self.collapsed_rel(p, lead, moves);
        }
        (best, best_mv)
    }

    /// Fills `moves` with the cards to search among `legal` (a subset of `hand`; `live`: every
    /// card in the hands and the current trick), one per group of equivalent cards with the
    /// option, in descending card order; returns how many.
    #[inline(always)]
    fn move_list(&self, legal: u32, hand: u32, live: u32, moves: &mut [(i32, u32); 10]) -> usize {
        let mask = searched_cards(self.lay, self.opt, legal, hand, live);
        let mut n = 0;
        let mut m = mask;
        while m != 0 {
            let c = hi_bit(m);
            m &= !(1 << c);
            moves[n].1 = c;
            n += 1;
        }
        n
    }

    /// The fail-soft alpha-beta loop of the suit and grand card loops: `child(self, c, alpha,
    /// beta)` plays card `c`, searches on and takes it back; the moves come in order, the
    /// first that reaches the far side of the window ends the loop. Returns (value, best
    /// move).
    #[inline(always)]
    fn search_moves(
        &mut self,
        cards: &[u8],
        maximizing: bool,
        alpha: i32,
        beta: i32,
        child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
    ) -> (i32, u8) {
        let none = if maximizing { i32::MIN } else { i32::MAX };
        self.search_moves_after(cards, maximizing, alpha, beta, child, (none, 0xFF))
    }

    /// [`Searcher::search_moves`] continued after moves already searched, whose best value
    /// and move are `(best, best_mv)` (the window already narrowed by it).
    #[inline(always)]
    fn search_moves_after(
        &mut self,
        cards: &[u8],
        maximizing: bool,
        mut alpha: i32,
        mut beta: i32,
        mut child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
        (mut best, mut best_mv): (i32, u8),
    ) -> (i32, u8) {
        for &c in cards {
            let v = child(self, c, alpha, beta);
            if maximizing {
                if v > best {
                    best = v;
                    best_mv = c;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            } else if v < best {
                best = v;
                best_mv = c;
                if v < beta {
                    beta = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_mv)
    }

    /// The fail-soft loop with the first move searched on its own: the rest of the move list
    /// is built by `rest` (the cards after `first`, in order; returns how many) only when
    /// `first` does not cut, which saves the ordering work at most cut nodes. Returns (value,
    /// best move), as [`Searcher::search_moves`] over `first` and the rest would.
    #[inline(always)]
    fn search_first_then(
        &mut self,
        first: u8,
        maximizing: bool,
        mut alpha: i32,
        mut beta: i32,
        mut child: impl FnMut(&mut Self, u8, i32, i32) -> i32,
        rest: impl FnOnce(&Self, &mut [u8; 10]) -> usize,
    ) -> (i32, u8) {
        let v = child(self, first, alpha, beta);
        if maximizing {
            alpha = alpha.max(v);
        } else {
            beta = beta.min(v);
        }
        if alpha >= beta {
            return (v, first);
        }
        let mut cards = [0u8; 10];
        let n = rest(self, &mut cards);
        self.search_moves_after(&cards[..n], maximizing, alpha, beta, child, (v, first))
    }

    /// Plays `c` for `p` as card `pos` (0 or 1) of the current trick, counts the node (what
    /// `ab` does there), runs `next` (the next card's loop) and takes the card back.
    #[inline(always)]
    fn play_within_trick(
        &mut self,
        p: usize,
        c: u8,
        pos: usize,
        next: impl FnOnce(&mut Self) -> i32,
    ) -> i32 {
        self.hands[p] &= !(1 << c);
        self.trick[pos] = c;
        self.tlen = pos + 1;
        self.nodes += 1;
        let v = next(self);
        self.tlen = pos;
        self.hands[p] |= 1 << c;
        v
    }

    /// [`Searcher::children`] for the lead of a trick in suit and grand: the table move
    /// `ttmv` first, then by [`Searcher::score_lead`] less the fastest-cut-first term (the
    /// next player's legal replies).
    fn leads(&mut self, alpha: i32, beta: i32, ttmv: u8) -> (i32, u8) {
        let lay = self.lay;
        let p = self.leader;
        let hand = self.hands[p];
        let maximizing = p == self.decl;
        let reps = searched_cards(
            lay,
            self.opt,
            hand,
            hand,
            self.hands[0] | self.hands[1] | self.hands[2],
        );
        let child = |s: &mut Self, c: u8, alpha: i32, beta: i32| {
            s.play_within_trick(p, c, 0, |s| s.second_cards(alpha, beta).0)
        };
        if !self.opt.move_ordering || reps & reps.wrapping_sub(1) == 0 {
            let (mut cards, mut n) = ([0u8; 10], 0);
            push_cards(&mut cards, &mut n, reps);
            return self.search_moves(&cards[..n], maximizing, alpha, beta, child);
        }
        // each card's score and the card packed in one word (the higher card first among
        // equal scores, as generated), sorted descending
        let order = move |s: &Self, set: u32, cards: &mut [u8; 10]| {
            let fcf = s.opt.fastest_cut_first;
            let next = s.hands[m3(p + 1)];
            let mut keys = [0i32; 10];
            let mut n = 0;
            let mut m = set;
            while m != 0 {
                let c = hi_bit(m);
                m &= !(1 << c);
                let mut sc = s.score_lead(p, c as u8);
                if fcf {
                    sc -= FCF_WEIGHT * lay.legal(next, Some(c as u8)).count_ones() as i32;
                }
                keys[n] = sc * 32 + c as i32;
                n += 1;
            }
            let keys = &mut keys[..n];
            keys.sort_unstable_by(|a, b| b.cmp(a));
            for (card, &k) in cards.iter_mut().zip(keys.iter()) {
                *card = (k & 31) as u8;
            }
            n
        };
        if ttmv != 0xFF && reps >> ttmv & 1 != 0 {
            // the table's move first, on its own: when it cuts (as it mostly does when the
            // node is searched again) the other leads need no scores
            let rest = reps & !(1 << ttmv);
            self.search_first_then(ttmv, maximizing, alpha, beta, child, |s, cards| {
                order(s, rest, cards)
            })
        } else {
            let mut cards = [0u8; 10];
            let n = order(self, reps, &mut cards);
            self.search_moves(&cards[..n], maximizing, alpha, beta, child)
        }
    }

    /// [`Searcher::children`] for the second card of a trick in suit and grand. A card scores
    /// as a settled trick when nobody left can beat the trick's winner, or when a defender
    /// second to play beats the declarer's lead with the partner still to come: 10 plus the
    /// trick's points if its side wins, minus twice its points if not; otherwise minus its
    /// points, plus [`BEAT_SECOND`] for a card that takes the lead of the trick with an
    /// opponent still to play. The cards are not scored one by one: each kind of card (by
    /// whether it beats the lead and whether its trick is settled) is taken from the point
    /// classes in the order those scores give.
    fn second_cards(&mut self, alpha: i32, beta: i32) -> (i32, u8) {
        let lay = self.lay;
        let p = m3(self.leader + 1);
        let third = m3(p + 1);
        let lead = self.trick[0];
        let hand = self.hands[p];
        let legal = lay.legal(hand, Some(lead));
        let maximizing = p == self.decl;
        let live = self.hands[0] | self.hands[1] | self.hands[2] | 1 << lead;
        let reps = searched_cards(lay, self.opt, legal, hand, live);
        let (mut cards, mut n) = ([0u8; 10], 0);
        let mut push = |m: u32| push_cards(&mut cards, &mut n, m);
        if self.opt.move_ordering && reps & reps.wrapping_sub(1) != 0 {
            // The scores, by kind of card (pts: the card's points, lp: the lead's):
            // settled, the trick ours: 10 + lp + pts; beats the lead, not settled:
            // BEAT_SECOND - pts = 11 - pts; does not beat it, not settled: -pts; settled, the
            // trick theirs: -2 pts. Cards come out in descending score, equal scores in
            // descending card order (what the sort by score gave).
            let ours = |s: usize| (s == self.decl) == maximizing;
            let (ours_third, ours_leader) = (ours(third), ours(self.leader));
            let cont = lay.contenders(lead);
            let l3c = lay.legal(self.hands[third], Some(lead)) & cont;
            let above = |c: u32| !(2u32 << c).wrapping_sub(1);
            let beat = reps & cont & above(lead as u32);
            let others = reps & !beat;
            // a beating card is settled when the third player cannot beat it (or is ours)
            let settled_beat = if ours_third || l3c == 0 {
                beat
            } else {
                beat & above(hi_bit(l3c))
            };
            let open_beat = beat & !settled_beat;
            let others_settled =
                l3c & above(lead as u32) == 0 || lead == 31 || (ours_third && ours_leader);
            let (won, rest) = if others_settled && ours_leader {
                (settled_beat | others, 0)
            } else {
                (settled_beat, others)
            };
            let [c0, c2, c3, c4, c10, c11] = lay.point_classes;
            if won & !c0 != 0 {
                for class in [c11, c10, c4, c3, c2] {
                    push(won & class);
                }
            }
            if open_beat == 0 {
                push(won & c0);
            } else {
                // 10 + lp for a settled zero-point card: below 11 (an open beating 7 8 9)
                // when the lead is worth nothing
                if lay.pts(lead as u32) != 0 {
                    push(won & c0);
                    push(open_beat & c0);
                } else {
                    push(open_beat & c0);
                    push(won & c0);
                }
                for class in [c2, c3, c4, c10] {
                    push(open_beat & class);
                }
            }
            // score 0: an open beating ace and the rest's zero-point cards
            push(open_beat & c11 | rest & c0);
            if rest & !c0 != 0 {
                for class in [c2, c3, c4, c10, c11] {
                    push(rest & class);
                }
            }
        } else {
            push(reps);
        }
        self.search_moves(&cards[..n], maximizing, alpha, beta, |s, c, alpha, beta| {
            s.play_within_trick(p, c, 1, |s| s.last_cards(alpha, beta).0)
        })
    }

    /// [`Searcher::children`] for the last card of a trick in suit and grand, where each
    /// card's outcome is known before it is played: the trick's winner and points order the
    /// moves (10 plus the trick's points for a card whose side wins the trick, minus twice
    /// its points otherwise: taken from the point classes in that order, not sorted) and lead
    /// into the next trick start without recomputing them.
    fn last_cards(&mut self, alpha: i32, beta: i32) -> (i32, u8) {
        let lay = self.lay;
        let p = m3(self.leader + 2);
        let lead = self.trick[0];
        let hand = self.hands[p];
        let legal = lay.legal(hand, Some(lead));
        let cont = lay.contenders(lead);
        // the trick so far: its winning card and seat, its points
        let (t0, t1) = (self.trick[0], self.trick[1]);
        let (wc, ws) = if cont >> t1 & 1 != 0 && t1 > t0 {
            (t1, m3(self.leader + 1))
        } else {
            (t0, self.leader)
        };
        let tp = lay.pts(t0 as u32) + lay.pts(t1 as u32);
        let maximizing = p == self.decl;
        let ours = |s: usize| (s == self.decl) == maximizing;
        let live = self.hands[0] | self.hands[1] | self.hands[2] | 1 << t0 | 1 << t1;
        let old_leader = self.leader;
        let child = |s: &mut Self, c: u8, alpha: i32, beta: i32| {
            let w = if cont >> c & 1 != 0 && c > wc { p } else { ws };
            let won = tp + lay.pts(c as u32);
            let gain = if w == s.decl { won } else { 0 };
            s.hands[p] &= !(1 << c);
            s.trick[2] = c;
            s.leader = w;
            s.tlen = 0;
            s.in_play -= won;
            let v = gain + s.ab(alpha - gain, beta - gain);
            s.in_play += won;
            s.leader = old_leader;
            s.trick = [t0, t1, c];
            s.tlen = 2;
            s.hands[p] |= 1 << c;
            v
        };
        if !self.opt.move_ordering || legal & legal.wrapping_sub(1) == 0 {
            let reps = searched_cards(lay, self.opt, legal, hand, live);
            let (mut cards, mut n) = ([0u8; 10], 0);
            push_cards(&mut cards, &mut n, reps);
            return self.search_moves(&cards[..n], maximizing, alpha, beta, child);
        }
        // the cards whose side wins the trick first, the most valuable first, then those that
        // lose it, the cheapest first; equal points in descending card order (what sorting by
        // 10 plus the trick's points, or minus twice the card's points, gave). The first of
        // them is searched before the others are listed (it cuts in most nodes), and before
        // equivalent cards are collapsed: it is the highest of its point class among the
        // legal cards that win (or lose) the trick, which is never a collapsed card (the card
        // above it in its run would have the same points and outcome)
        let winning_ours = ours(ws);
        let split = move |set: u32| {
            let beat = set & cont & !(2u32 << wc).wrapping_sub(1);
            if winning_ours {
                (set, 0)
            } else {
                (beat, set & !beat)
            }
        };
        let (win, lose) = split(legal);
        let classes = &lay.point_classes;
        let first = if win != 0 {
            classes.iter().rev().map(|&c| win & c).find(|&m| m != 0)
        } else {
            classes.iter().map(|&c| lose & c).find(|&m| m != 0)
        }
        .map_or(0, hi_bit) as u8;
        debug_assert!(searched_cards(lay, self.opt, legal, hand, live) >> first & 1 != 0);
        self.search_first_then(first, maximizing, alpha, beta, child, |s, cards| {
            let reps = searched_cards(lay, s.opt, legal, hand, live) & !(1 << first);
            let (win, lose) = split(reps);
            let mut n = 0;
            if win != 0 {
                for &class in classes.iter().rev() {
                    push_cards(cards, &mut n, win & class);
                }
            }
            if lose != 0 {
                for &class in classes {
                    push_cards(cards, &mut n, lose & class);
                }
            }
            n
        })
    }

    /// Partition search: where equivalent cards were collapsed into one move, the group's
    /// cards must keep their owners (thesis ch. 4.4); the lowest legal card of each such
    /// suit is marked relevant (at or below the collapsed group's lowest card).
    fn collapsed_rel(&self, p: usize, lead: Option<u8>, moves: &[(i32, u32)]) -> u32 {
        let legal = self.lay.legal(self.hands[p], lead);
        let searched = moves.iter().fold(0u32, |m, &(_, c)| m | 1 << c);
        let collapsed = legal & !searched;
        let mut rel = 0;
        if collapsed != 0 {
            for g in 0..self.lay.ngroups {
                let gm = self.lay.group_mask[g];
                if collapsed & gm != 0 {
                    let lg = legal & gm;
                    rel |= lg & lg.wrapping_neg();
                }
            }
        }
        rel
    }

    /// The moves of player `p` in a null game (equivalent cards collapsed), best first by the
    /// heuristic order (the table move `ttmv` first), with their scores. (Suit and grand
    /// order their moves in [`Searcher::leads`], [`Searcher::second_cards`] and
    /// [`Searcher::last_cards`].)
    fn ordered_moves(
        &self,
        p: usize,
        lead: Option<u8>,
        ttmv: u8,
        moves: &mut [(i32, u32); 10],
    ) -> usize {
        let hand = self.hands[p];
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask();
        let n = self.move_list(self.lay.legal(hand, lead), hand, live, moves);
        let ms = &mut moves[..n];
        if self.opt.move_ordering && n > 1 {
            // what the scores of a follow share is computed once per node
            let ctx = if self.tlen > 0 {
                let (wc, ws) = self.partial_winner();
                FollowCtx { wc, ws }
            } else {
                FollowCtx::default()
            };
            // the reply count (fastest-cut-first) only differs between leads: after the
            // first card the next player's legal cards, after the second the winner's hand
            // size (k - 1), are the same for every move
            let fcf = self.opt.fastest_cut_first && self.tlen == 0;
            for mv in ms.iter_mut() {
                let mut s = self.score_null(p, mv.1 as u8, &ctx);
                if fcf {
                    s -= FCF_WEIGHT * self.child_branching(p, mv.1 as u8) as i32;
                }
                if mv.1 == ttmv as u32 {
                    s += 100_000;
                }
                mv.0 = s;
            }
            ms.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        }
        n
    }

    /// Plays `c` for `p` in a null game, searches on and takes it back (suit and grand go
    /// through their own card loops).
    #[inline]
    fn play_and_search(&mut self, p: usize, c: u8, alpha: i32, beta: i32) -> i32 {
        debug_assert!(self.null);
        self.hands[p] &= !(1 << c);
        self.trick[self.tlen] = c;
        self.tlen += 1;
        let v;
        if self.tlen == 3 {
            let wi = self.lay.winner(&self.trick);
            let w = m3(self.leader + wi);
            let old_leader = self.leader;
            let saved = self.trick;
            self.leader = w;
            self.tlen = 0;
            if w == self.decl {
                self.nodes += 1;
                self.rel = 0;
                v = 10 - self.hands[0].count_ones() as i32;
            } else {
                v = self.ab(alpha, beta);
            }
            if self.part {
                // the winner won by rank if another card of the led suit is in the trick
                let lg = self.lay.follow_mask(saved[0] as u32);
                let led = (1u32 << saved[0] | 1 << saved[1] | 1 << saved[2]) & lg;
                if led & (led - 1) != 0 {
                    self.rel |= 1 << saved[wi];
                }
            }
            self.leader = old_leader;
            self.trick = saved;
            self.tlen = 3;
        } else {
            v = self.ab(alpha, beta);
        }
        self.tlen -= 1;
        self.hands[p] |= 1 << c;
        v
    }

    /// Number of legal replies after `p` plays `c` (the FCF size estimate).
    #[inline]
    fn child_branching(&self, p: usize, c: u8) -> u32 {
        if self.tlen == 2 {
            let t = [self.trick[0], self.trick[1], c];
            let w = m3(self.leader + self.lay.winner(&t));
            let h = if w == p {
                self.hands[w] & !(1 << c)
            } else {
                self.hands[w]
            };
            h.count_ones()
        } else {
            let q = m3(p + 1);
            let lead = if self.tlen == 0 { c } else { self.trick[0] };
            self.lay.legal(self.hands[q], Some(lead)).count_ones()
        }
    }

    /// Current winner (card, seat) of the partial trick.
    #[inline]
    fn partial_winner(&self) -> (u8, usize) {
        let w = self.lay.winner(&self.trick[..self.tlen]);
        (self.trick[w], m3(self.leader + w))
    }

    /// The heuristic score of leading `c` in suit and grand (the follows are scored in
    /// [`Searcher::second_cards`] and [`Searcher::last_cards`]).
    fn score_lead(&self, p: usize, c: u8) -> i32 {
        let lay = self.lay;
        let pts = lay.pts(c as u32);
        let decl_side = p == self.decl;
        let ours = |s: usize| (s == self.decl) == decl_side;
        let gm = lay.follow_mask(c as u32);
        let others = (self.hands[0] | self.hands[1] | self.hands[2]) & !self.hands[p];
        let top = others & gm & !((2u32 << c).wrapping_sub(1)) == 0 || c == 31;
        let trump = gm == lay.trumps;
        if top {
            if trump {
                return TOP_TRUMP_LEAD + pts;
            }
            let mut ruff = false;
            for o in 0..3 {
                if !ours(o) && self.hands[o] & gm == 0 && self.hands[o] & lay.trumps != 0 {
                    ruff = true;
                }
            }
            return if ruff { -pts } else { TOP_PLAIN_LEAD + pts };
        }
        if trump && decl_side && lay.trumps.count_ones() == 11 && others & lay.trumps != 0 {
            return LEAD_TRUMP - pts;
        }
        if decl_side && !trump {
            // the declarer's plain-suit lead below the suit's top that a defender can ruff
            for o in 0..3 {
                if o != p && self.hands[o] & gm == 0 && self.hands[o] & lay.trumps != 0 {
                    return -DECLARER_LEAD_RUFFED - pts;
                }
            }
        }
        if !decl_side && !trump {
            // a defender's plain-suit lead: good into the partner's ruff while the declarer
            // must follow, poor into the declarer's ruff, good towards the partner's top card
            let hd = self.hands[self.decl];
            let hp = self.hands[3 - self.decl - p];
            if hp & gm == 0 && hp & lay.trumps != 0 && hd & gm != 0 {
                return PARTNER_RUFF_LEAD - pts;
            }
            if hd & gm == 0 && hd & lay.trumps != 0 {
                return -DECLARER_RUFF_LEAD - pts;
            }
            if hp & gm != 0 && hi_bit(others & gm) == hi_bit(hp & gm) {
                // the partner holds the suit's top card
                return PARTNER_TOP_LEAD - pts;
            }
        }
        -pts
    }

    fn score_null(&self, p: usize, c: u8, ctx: &FollowCtx) -> i32 {
        let lay = self.lay;
        let g = lay.group_of[c as usize] as usize;
        let rank = (c - lay.group_base[g]) as i32;
        if p == self.decl {
            if self.tlen == 0 {
                // a lead is safe if some defender must overtake it
                for o in 0..3 {
                    if o == p {
                        continue;
                    }
                    let og = self.hands[o] & lay.group_mask[g];
                    if og != 0 && og.trailing_zeros() > c as u32 {
                        return 30 - rank;
                    }
                }
                return -rank;
            }
            let wc = ctx.wc;
            let follows = lay.group_of[self.trick[0] as usize] as usize == g;
            if !follows {
                return 20 + rank; // discard a high card
            }
            if c < wc {
                10 + rank // duck with the highest card that ducks
            } else {
                -rank
            }
        } else {
            if self.tlen > 0 {
                let (wc, ws) = (ctx.wc, ctx.ws);
                if ws == self.decl {
                    let follows = lay.group_of[self.trick[0] as usize] as usize == g;
                    if follows && c < wc {
                        return 20 - rank;
                    }
                    if !follows {
                        return 5 + rank;
                    }
                    return -10 - rank;
                }
            }
            -rank
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::GameType;

    /// The canonical key of a suit or grand position by the general per-group loop: each
    /// group's owners in base 3 behind a leading 1, the plain groups sorted by code, then
    /// valuation (stable), the trump group last.
    fn key_reference(lay: &Layout, rot: [u32; 3], tag: u64) -> (u64, u32, [u8; MAX_GROUPS]) {
        let all = rot[0] | rot[1] | rot[2];
        let mut codes = [0u32; MAX_GROUPS];
        let mut rems = [0u32; MAX_GROUPS];
        let mut sortkeys = [0u32; MAX_GROUPS];
        for g in 0..lay.ngroups {
            let base = lay.group_base[g] as u32;
            let rem = (all & lay.group_mask[g]) >> base;
            let r1 = compress(rot[1] >> base, rem);
            let r2 = compress(rot[2] >> base, rem);
            codes[g] =
                POW3[rem.count_ones() as usize] + BASE3[r1 as usize] + 2 * BASE3[r2 as usize];
            rems[g] = rem;
            sortkeys[g] = codes[g] << 8 | rem;
        }
        let mut perm = IDENTITY;
        sort_desc(&mut perm[..lay.trump_group], &sortkeys);
        let (mut k, mut val) = (0u64, 0u32);
        for (slot, &g) in perm.iter().enumerate().take(lay.ngroups) {
            k = k << lay.key_width[slot] | codes[g as usize] as u64;
            val |= rems[g as usize] << lay.group_base[slot];
        }
        (k << 4 | tag, val, perm)
    }

    #[test]
    fn unrolled_key_matches_the_general_loop() {
        let mut rng = Rng::new(11);
        for gt in GameType::ALL.into_iter().filter(|g| !g.is_null()) {
            let lay = Layout::get(gt);
            for _ in 0..20_000 {
                let mut cards: Vec<u32> = (0..32).collect();
                rng.shuffle(&mut cards);
                let k = 1 + rng.below(10) as usize;
                let mut rot = [0u32; 3];
                for (i, h) in rot.iter_mut().enumerate() {
                    for &c in &cards[i * k..(i + 1) * k] {
                        *h |= 1 << c;
                    }
                }
                let tag = rng.below(16);
                let (key, perm) = Searcher::key_suit_grand(lay, rot, tag);
                assert_eq!(
                    (key.a, key.val, perm),
                    key_reference(lay, rot, tag),
                    "{gt} {rot:x?}"
                );
            }
        }
    }

    #[test]
    fn fast_distance_matches_pairwise_distance() {
        let mut rng = Rng::new(5);
        for gt in GameType::ALL {
            let lay = Layout::get(gt);
            for _ in 0..20000 {
                // two valuations with equal counts per group
                let mut v1 = 0u32;
                let mut v2 = 0u32;
                for g in 0..lay.ngroups {
                    let base = lay.group_base[g] as u32;
                    let width = lay.group_mask[g].count_ones();
                    let n = rng.below(width as u64 + 1) as u32;
                    for v in [&mut v1, &mut v2] {
                        let mut bits: Vec<u32> = (0..width).collect();
                        rng.shuffle(&mut bits);
                        for &b in &bits[..n as usize] {
                            *v |= 1 << (base + b);
                        }
                    }
                }
                let trumps = (v1 & lay.trumps).count_ones() as i32;
                let run = rng.below(2 * trumps as u64 + 1) as i32 - trumps;
                let want = if gt.is_null() {
                    (0, 0)
                } else {
                    Searcher::dist_reference(lay, v1, v2, run)
                };
                assert_eq!(
                    Searcher::dist(lay, v1, v2, run),
                    want,
                    "{gt} {v1:x} {v2:x} {run}"
                );
            }
        }
    }
}
