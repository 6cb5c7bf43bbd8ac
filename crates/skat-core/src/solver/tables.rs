//! Endgames: the last two tricks are solved directly by a tiny exhaustive search (no
//! transposition table, no ordering), which is cheaper than a table probe at that size.
//! Exact values on the marginal scale of the search.

use super::layout::Layout;

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
        let t = [
            hands[leader].trailing_zeros() as u8,
            hands[(leader + 1) % 3].trailing_zeros() as u8,
            hands[(leader + 2) % 3].trailing_zeros() as u8,
        ];
        let w = (leader + lay.winner(&t)) % 3;
        return if null {
            if w == decl {
                10
            } else {
                11
            }
        } else if w == decl {
            lay.points[t[0] as usize] as i32
                + lay.points[t[1] as usize] as i32
                + lay.points[t[2] as usize] as i32
        } else {
            0
        };
    }
    let mut h = *hands;
    let mut t = [0u8; 3];
    rec(lay, &mut h, &mut t, 0, leader, decl, null)
}

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
