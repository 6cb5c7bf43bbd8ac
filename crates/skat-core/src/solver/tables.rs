//! Endgames: the last two tricks are solved directly by a tiny exhaustive search (no
//! transposition table, no ordering), which is cheaper than a table probe at that size.
//! Exact values on the marginal scale of the search: every legal first trick in three
//! nested loops, then the forced last trick (a test holds it to the general recursive
//! search, which costs about 2.5x the instructions at this size).

use super::layout::{m3, Layout};

/// Exact marginal value of a start-of-trick position with `k` (1 or 2) cards per hand.
pub fn solve_small(
    lay: &Layout,
    hands: &[u32; 3],
    leader: usize,
    decl: usize,
    null: bool,
    k: u32,
) -> i32 {
    if k == 1 {
        last_trick(lay, hands, leader, decl, null)
    } else {
        two_tricks(lay, hands, leader, decl, null)
    }
}

/// Seat offset (0, 1, 2 from the leader) of the winner of the trick `a, b, c` (led by `a`)
/// when only `cont` (trumps and the led group) can win: [`Layout::winner`] for three cards,
/// unrolled.
#[inline(always)]
fn winner3(cont: u32, a: u32, b: u32, c: u32) -> usize {
    let mut best = a;
    let mut w = 0;
    if cont >> b & 1 != 0 && b > best {
        best = b;
        w = 1;
    }
    if cont >> c & 1 != 0 && c > best {
        w = 2;
    }
    w
}

/// The marginal value of the last trick, one card in each hand, `leader` to lead.
#[inline(always)]
fn last_trick(lay: &Layout, h: &[u32; 3], leader: usize, decl: usize, null: bool) -> i32 {
    let x = h[leader].trailing_zeros();
    let y = h[m3(leader + 1)].trailing_zeros();
    let z = h[m3(leader + 2)].trailing_zeros();
    let cont = lay.trumps | lay.follow_mask(x);
    let w = m3(leader + winner3(cont, x, y, z));
    match (null, w == decl) {
        (true, true) => 10,
        (true, false) => 11,
        (false, true) => lay.points_of(1 << x | 1 << y | 1 << z),
        (false, false) => 0,
    }
}

/// The last two tricks, two cards per hand: every legal first trick, then the forced last
/// one. Seats are offsets from the leader; the declarer's share of the six cards' points is
/// the first trick's points, the rest, both or neither.
fn two_tricks(lay: &Layout, h: &[u32; 3], leader: usize, decl: usize, null: bool) -> i32 {
    let (ha, hb, hc) = (h[leader], h[m3(leader + 1)], h[m3(leader + 2)]);
    let d = m3(decl + 3 - leader);
    let total = if null { 0 } else { lay.points_of(ha | hb | hc) };
    let pts = |x: u32| lay.pts(x);
    // the range of values: a player who reaches his end of it needs to look no further
    let (vmin, vmax) = if null { (9, 11) } else { (0, total) };
    let done = |max: bool, best: i32| if max { best == vmax } else { best == vmin };
    let mut best0 = if d == 0 { i32::MIN } else { i32::MAX };
    let mut ma = ha;
    while ma != 0 {
        let a = ma.trailing_zeros();
        ma &= ma - 1;
        let gm = lay.follow_mask(a);
        let cont = lay.trumps | gm;
        let lb = if hb & gm != 0 { hb & gm } else { hb };
        let lc = if hc & gm != 0 { hc & gm } else { hc };
        let xa = (ha & !(1 << a)).trailing_zeros();
        let mut best1 = if d == 1 { i32::MIN } else { i32::MAX };
        let mut mb = lb;
        while mb != 0 {
            let b = mb.trailing_zeros();
            mb &= mb - 1;
            let xb = (hb & !(1 << b)).trailing_zeros();
            let ab = pts(a) + pts(b);
            let mut best2 = if d == 2 { i32::MIN } else { i32::MAX };
            let mut mc = lc;
            while mc != 0 {
                let c = mc.trailing_zeros();
                mc &= mc - 1;
                let xc = (hc & !(1 << c)).trailing_zeros();
                let w1 = winner3(cont, a, b, c);
                // the last trick, led by the first trick's winner: won by the highest of its
                // cards that can win (trumps and the led group)
                let led = [xa, xb, xc][w1];
                let top = 31
                    - ((1u32 << xa | 1 << xb | 1 << xc) & (lay.trumps | lay.follow_mask(led)))
                        .leading_zeros();
                let w2 = if top == xa {
                    0
                } else if top == xb {
                    1
                } else {
                    2
                };
                let v = if null {
                    if w1 == d {
                        9
                    } else if w2 == d {
                        10
                    } else {
                        11
                    }
                } else {
                    let first = ab + pts(c);
                    (if w1 == d { first } else { 0 }) + (if w2 == d { total - first } else { 0 })
                };
                best2 = if d == 2 { best2.max(v) } else { best2.min(v) };
                if done(d == 2, best2) {
                    break;
                }
            }
            best1 = if d == 1 {
                best1.max(best2)
            } else {
                best1.min(best2)
            };
            if done(d == 1, best1) {
                break;
            }
        }
        best0 = if d == 0 {
            best0.max(best1)
        } else {
            best0.min(best1)
        };
        if done(d == 0, best0) {
            break;
        }
    }
    best0
}

/// The former general version of the two-trick search (kept for the tests).
#[cfg(test)]
fn two_tricks_reference(
    lay: &Layout,
    hands: &[u32; 3],
    leader: usize,
    decl: usize,
    null: bool,
) -> i32 {
    let mut h = *hands;
    let mut t = [0u8; 3];
    rec(lay, &mut h, &mut t, 0, leader, decl, null)
}

#[cfg(test)]
fn rec(
    lay: &Layout,
    h: &mut [u32; 3],
    t: &mut [u8; 3],
    tlen: usize,
    leader: usize,
    decl: usize,
    null: bool,
) -> i32 {
    let p = (leader + tlen) % 3;
    let lead = if tlen > 0 { Some(t[0]) } else { None };
    let mut m = lay.legal(h[p], lead);
    let maximizing = p == decl;
    let mut best = if maximizing { i32::MIN } else { i32::MAX };
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        h[p] &= !(1 << c);
        t[tlen] = c as u8;
        let v = if tlen == 2 {
            let w = (leader + lay.winner(t)) % 3;
            let left = h[0].count_ones();
            if null {
                if w == decl {
                    10 - left as i32
                } else if left == 0 {
                    11
                } else {
                    solve_small(lay, h, w, decl, true, left)
                }
            } else {
                let gain = if w == decl {
                    lay.points[t[0] as usize] as i32
                        + lay.points[t[1] as usize] as i32
                        + lay.points[t[2] as usize] as i32
                } else {
                    0
                };
                gain + if left == 0 {
                    0
                } else {
                    solve_small(lay, h, w, decl, false, left)
                }
            }
        } else {
            rec(lay, h, t, tlen + 1, leader, decl, null)
        };
        h[p] |= 1 << c;
        if maximizing {
            best = best.max(v);
        } else {
            best = best.min(v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::GameType;

    #[test]
    fn two_trick_search_matches_the_general_one() {
        let mut rng = Rng::new(12);
        for gt in GameType::ALL {
            let lay = Layout::get(gt);
            for _ in 0..20000 {
                let mut bits: Vec<u32> = (0..32).collect();
                rng.shuffle(&mut bits);
                let mut h = [0u32; 3];
                for (i, &b) in bits[..6].iter().enumerate() {
                    h[i / 2] |= 1 << b;
                }
                let leader = rng.below(3) as usize;
                let decl = rng.below(3) as usize;
                assert_eq!(
                    two_tricks(lay, &h, leader, decl, gt.is_null()),
                    two_tricks_reference(lay, &h, leader, decl, gt.is_null()),
                    "{gt} {h:?} {leader} {decl}"
                );
            }
        }
    }
}
