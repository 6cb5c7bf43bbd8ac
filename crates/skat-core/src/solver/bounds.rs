//! Static bounds ("quick tricks", thesis ch. 5) for suit and grand games at the start of a
//! trick, on the marginal scale (declarer's points from the cards still in play).
//!
//! * Declarer to lead: she cashes her trumps that are above every defender trump (each trump
//!   lead strips one trump from each defender that has one), then in each plain suit her cards
//!   above every defender card of that suit, as long as each defender either still holds a
//!   card of the suit or has no trump left. Those tricks are certain whatever the defenders
//!   do, so she gets the cashed cards plus, from each defender, at least the sum of its `n`
//!   cheapest cards (`n` = certain tricks).
//! * A defender to lead: the same with the declarer as the only opponent; the partner is
//!   simulated card by card (he plays under the led card when he can, otherwise the trick is
//!   still the defenders' but the run ends). This gives a lower bound on the defenders'
//!   points, i.e. an upper bound on the declarer's.
//!
//! The "jack fix" of the thesis (jacks outrank A/T/K/Q but are worth less, so a monotone
//! revaluation of defender cards is wrong) is built in: the defenders' contribution is the sum
//! of their `n` cheapest cards by actual value, which is a valid lower bound for any choice of
//! `n` cards, whatever their ranks.

use super::layout::{m3, Layout};

#[inline]
fn highest(m: u32) -> u32 {
    31 - m.leading_zeros()
}

/// Cards of `m` strictly above the highest card of `other` (all of `m` when `other` is empty).
#[inline]
fn above_all(m: u32, other: u32) -> u32 {
    if other == 0 {
        m
    } else {
        let h = highest(other);
        if h == 31 {
            0
        } else {
            m & !((2u32 << h) - 1)
        }
    }
}

/// The `s` highest cards of `m`.
#[inline]
pub fn top_n(mut m: u32, s: u32) -> u32 {
    let mut out = 0;
    for _ in 0..s {
        if m == 0 {
            break;
        }
        let b = 1u32 << highest(m);
        out |= b;
        m &= !b;
    }
    out
}

/// Lower bound on the declarer's marginal points, declarer to lead at the start of a trick.
pub fn declarer_lower(lay: &Layout, h: &[u32; 3], decl: usize) -> i32 {
    let d1 = m3(decl + 1);
    let d2 = m3(decl + 2);
    let hd = h[decl];
    let def = h[d1] | h[d2];
    let t = lay.trumps;
    // the cashed cards and their number
    let mut sure = above_all(hd & t, def & t);
    let r = sure.count_ones();
    let mut n = r;
    let t1 = (h[d1] & t).count_ones().saturating_sub(r);
    let t2 = (h[d2] & t).count_ones().saturating_sub(r);
    if t1 == 0 && t2 == 0 {
        // the defenders have no trump left once those are cashed: all of hers win
        let rest = hd & t & !sure;
        sure |= rest;
        n += rest.count_ones();
    }
    // the plain groups lie below the trump group (all groups in a layout without trumps)
    for &gm in &lay.group_mask[..lay.trump_group.min(lay.ngroups)] {
        let mine = above_all(hd & gm, def & gm);
        if mine == 0 {
            continue;
        }
        let c = mine.count_ones();
        let mut s = c;
        if t1 != 0 {
            s = s.min((h[d1] & gm).count_ones());
        }
        if t2 != 0 {
            s = s.min((h[d2] & gm).count_ones());
        }
        sure |= if s == c { mine } else { top_n(mine, s) };
        n += s;
        if t1 == 0 && t2 == 0 && (h[d1] & gm).count_ones() <= c && (h[d2] & gm).count_ones() <= c {
            // without trumps the defenders are out of the suit after her top cards: the rest
            // of hers in it win too
            let rest = hd & gm & !mine;
            sure |= rest;
            n += rest.count_ones();
        }
    }
    if n == 0 {
        return 0;
    }
    lay.points_of(sure) + lay.min_points(h[d1], n) + lay.min_points(h[d2], n)
}

/// The card the partner plays under `c` (led group `gm`), and whether the run must stop
/// after this trick (partner had to win it).
#[inline]
fn partner_card(lay: &Layout, hp: u32, c: u32, gm: u32) -> (u32, bool) {
    let pg = hp & gm;
    if pg != 0 {
        let below = pg & ((1u32 << c) - 1);
        if below != 0 {
            (highest(below), false)
        } else {
            (highest(pg), true)
        }
    } else {
        // void: discard a plain card of another group (never wins); only trumps: ruffs
        let plain = hp & !lay.trumps & !gm;
        if plain != 0 {
            (most_valuable(lay, plain), false)
        } else if hp != 0 {
            (highest(hp), gm != lay.trumps)
        } else {
            (32, true)
        }
    }
}

/// The most valuable card of the non-empty `m`: its highest card if that is worth the most,
/// else the lowest of the cards worth the most.
#[inline]
fn most_valuable(lay: &Layout, m: u32) -> u32 {
    let top = highest(m);
    let best = lay
        .point_classes
        .iter()
        .rev()
        .map(|&class| m & class)
        .find(|&b| b != 0)
        .unwrap_or(m);
    if best >> top & 1 != 0 {
        top
    } else {
        best.trailing_zeros()
    }
}

/// One cashed trick of the defenders' bound: the leader's sure winner `c` of group `group`
/// plus the card the partner adds (taken out of `hp`), both added to `won`. Returns whether
/// the count must stop (see [`partner_card`]).
#[inline]
fn cash(lay: &Layout, hp: &mut u32, won: &mut u32, c: u32, group: u32) -> bool {
    let (p, stop) = partner_card(lay, *hp, c, group);
    *won |= 1 << c;
    if p < 32 {
        *won |= 1 << p;
        *hp &= !(1 << p);
    }
    stop
}

/// The defenders' cashing run of [`defender_lower`]: the partner's remaining cards, the cards
/// the defenders won and the tricks cashed.
struct Run {
    hp: u32,
    won: u32,
    n: u32,
}

impl Run {
    /// Cashes the cards of `cand` (group `group`) highest first, at most `limit` of them;
    /// returns how many it cashed and whether the run must stop (the partner had to win).
    #[inline]
    fn cash_from(&mut self, lay: &Layout, mut cand: u32, group: u32, limit: u32) -> (u32, bool) {
        let mut k = 0;
        while cand != 0 && k < limit {
            let c = highest(cand);
            cand &= !(1 << c);
            k += 1;
            self.n += 1;
            if cash(lay, &mut self.hp, &mut self.won, c, group) {
                return (k, true);
            }
        }
        (k, false)
    }
}

/// Lower bound on the defenders' marginal points, defender `lead` to lead.
pub fn defender_lower(lay: &Layout, h: &[u32; 3], decl: usize, lead: usize) -> i32 {
    let hd = h[decl];
    let hl = h[lead];
    let t = lay.trumps;
    let mut run = Run {
        hp: h[3 - decl - lead],
        won: 0,
        n: 0,
    };
    let (_, mut stop) = run.cash_from(lay, above_all(hl & t, hd & t), t, u32::MAX);
    if !stop && (hd & t).count_ones() <= run.n {
        // the declarer has no trump left: the leader's other trumps win too
        stop = run.cash_from(lay, hl & t & !run.won, t, u32::MAX).1;
    }
    let td = (hd & t).count_ones().saturating_sub(run.n);
    // the plain groups lie below the trump group (all groups in a layout without trumps)
    for &gm in &lay.group_mask[..lay.trump_group.min(lay.ngroups)] {
        if stop {
            break;
        }
        let dg = hd & gm;
        let cd = dg.count_ones();
        // with trumps the declarer ruffs once she is out of the suit
        let limit = if td > 0 { cd } else { u32::MAX };
        let (k, s) = run.cash_from(lay, above_all(hl & gm, dg), gm, limit);
        stop = s;
        if !stop && td == 0 && cd <= k {
            // the declarer, without trumps, is out of the suit: the leader's other cards of
            // it win too
            stop = run.cash_from(lay, hl & gm & !run.won, gm, u32::MAX).1;
        }
    }
    if run.n == 0 {
        return 0;
    }
    lay.points_of(run.won) + lay.min_points(hd, run.n)
}

/// Lower bounds from trumps that cannot be beaten, valid whoever leads: a trump above every
/// trump of the other side wins (for its side) every trick it is played to. Returns (the
/// declarer's certain points, the defenders' certain points). The declarer's `n` such trumps
/// fall in `n` different tricks, each with a card of both defenders; the defenders' such
/// trumps fill at least as many tricks as the larger of their two shares, each with one card
/// of the declarer.
#[inline]
pub fn trump_lower(lay: &Layout, h: &[u32; 3], decl: usize) -> (i32, i32) {
    let t = lay.trumps;
    let (d1, d2) = (m3(decl + 1), m3(decl + 2));
    let hd = h[decl] & t;
    let (t1, t2) = (h[d1] & t, h[d2] & t);
    let def = t1 | t2;
    // only the side holding the highest trump has trumps above all of the other side's
    if hd > def {
        let mine = above_all(hd, def);
        let n = mine.count_ones();
        let dl = lay.points_of(mine) + lay.min_points(h[d1], n) + lay.min_points(h[d2], n);
        (dl, 0)
    } else if def != 0 {
        let theirs = above_all(def, hd);
        let m = (theirs & t1).count_ones().max((theirs & t2).count_ones());
        (0, lay.points_of(theirs) + lay.min_points(h[decl], m))
    } else {
        (0, 0)
    }
}

/// The static bounds of a start-of-trick position (internal hands), as the search has them
/// before its table: `0..points in play`, the unbeatable trumps, the leader's quick tricks.
pub fn static_bounds(lay: &Layout, hands: &[u32; 3], decl: usize, leader: usize) -> (i32, i32) {
    let in_play = lay.points_of(hands[0] | hands[1] | hands[2]);
    let (dl, fl) = trump_lower(lay, hands, decl);
    let (mut lo, mut hi) = (dl.max(0), in_play - fl);
    if leader == decl {
        lo = lo.max(declarer_lower(lay, hands, decl));
    } else {
        hi = hi.min(in_play - defender_lower(lay, hands, decl, leader));
    }
    (lo, hi.max(lo))
}
