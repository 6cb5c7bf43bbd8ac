//! Hard-edge walks: choosing tentpoles that bound many valuations of a row.
//!
//! A valuation is a vector of card points per *slot* (the i-th most powerful remaining
//! card of a group), given per group by the index of one of the group's candidate rank
//! sets ([`super::lookup_build::candidates`]). A tentpole `(x, V(x))` bounds a valuation
//! `y` from above by `V(x) + up(y, x)` (the sum of the slots' increases from `x` to `y`)
//! and from below by `V(x) - down(y, x)` (their decreases). The upper bound is tight when
//! the declarer wins, in the lines that matter, every card whose value rises from `x` to
//! `y` and none whose value falls; the thesis calls such pairs *hard edges*.
//!
//! When a valuation `y` is open, the builder walks from it one slot step at a time, each
//! step moving a slot further away from `y` and kept only when a null-window search shows
//! the step is a hard edge in the wanted sense:
//!
//! * the *source* walk keeps `V(y) = V(z) + up(y, z)`: a slot at or below `y` goes down and
//!   the declarer's value falls by the whole step, or a slot at or above `y` goes up and
//!   her value stays;
//! * the *sink* walk keeps `V(y) = V(z) - down(y, z)`: a slot at or above `y` goes up and
//!   her value rises by the whole step, or a slot at or below `y` goes down and it stays.
//!
//! (Each invariant carries over a step because a slot never moves back towards `y`, so the
//! step's increase or decrease adds to the distance from `y`.) The two ends bound `y`
//! exactly, and with it every valuation the walks passed and much around them: far fewer
//! tentpoles than taking `y` itself. The walk only proposes tentpoles: their values are
//! exact, and whether a valuation's bounds meet is still decided by the distance bounds of
//! the search ([`Searcher::dist`]), so the table's invariant does not depend on the walk.

use super::endgame::EgCache;
use super::layout::{Layout, MAX_GROUPS};
use super::lookup_build::position_of;
use super::search::Searcher;
use super::tt::Tt;
use super::SolverOptions;

/// Null-window searches one walk may spend.
const WALK_BUDGET: u32 = 64;

/// A valuation: per group, the index of its candidate rank set.
pub(crate) type Combo = [u8; MAX_GROUPS];

/// Per group: each candidate's card points per slot, and each candidate's neighbours (the
/// candidates whose points differ in exactly one slot), as `(neighbour, slot, step)`.
pub(crate) struct Lattice {
    points: Vec<Vec<Vec<u8>>>,
    next: Vec<Vec<Vec<(u8, u8, i8)>>>,
}

impl Lattice {
    /// The lattice of the candidates `per_group[g]` of each group.
    pub(crate) fn new(lay: &Layout, per_group: &[Vec<u32>]) -> Lattice {
        let points: Vec<Vec<Vec<u8>>> = per_group
            .iter()
            .map(|cands| {
                cands
                    .iter()
                    .map(|&m| {
                        (0..32)
                            .rev()
                            .filter(|b| m >> b & 1 == 1)
                            .map(|b| lay.points[b as usize])
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let next = points
            .iter()
            .map(|pts: &Vec<Vec<u8>>| {
                (0..pts.len())
                    .map(|a| {
                        (0..pts.len())
                            .filter_map(|b| {
                                let diff: Vec<usize> = (0..pts[a].len())
                                    .filter(|&i| pts[a][i] != pts[b][i])
                                    .collect();
                                (diff.len() == 1).then(|| {
                                    let i = diff[0];
                                    (b as u8, i as u8, pts[b][i] as i8 - pts[a][i] as i8)
                                })
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Lattice { points, next }
    }
}

/// The solver state the walks search with.
pub(crate) struct Walker<'a> {
    pub lay: &'static Layout,
    pub opt: &'a SolverOptions,
    pub tt: &'a mut Tt,
    pub eg: &'a mut EgCache,
    pub hands: &'a [u32; 3],
    pub decl: usize,
    pub per_group: &'a [Vec<u32>],
    pub lattice: &'a Lattice,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl Walker<'_> {
    /// The position of a valuation.
    pub(crate) fn position(&self, z: &Combo) -> [u32; 3] {
        position_of(self.lay, self.hands, self.per_group, z)
    }

    /// Is the value of valuation `z` at least `t`?
    fn test(&mut self, z: &Combo, t: i32) -> bool {
        let h = self.position(z);
        let mut s = Searcher::new(
            self.lay,
            self.opt,
            self.tt,
            self.eg,
            h,
            &[],
            0,
            self.decl,
            None,
        );
        let r = s.test(t);
        self.nodes += s.nodes;
        r
    }

    /// Walks from `y` (value `vy`) to a source (`sink` false) or a sink (see the module
    /// documentation): the end and its exact value.
    pub(crate) fn walk(&mut self, y: &Combo, vy: i32, sink: bool) -> (Combo, i32) {
        let (mut z, mut vz) = (*y, vy);
        let mut budget = WALK_BUDGET;
        'step: loop {
            for g in 0..self.lay.ngroups {
                let (zi, yi) = (z[g] as usize, y[g] as usize);
                for k in 0..self.lattice.next[g][zi].len() {
                    let (b, slot, step) = self.lattice.next[g][zi][k];
                    let pts = &self.lattice.points[g];
                    let (zc, yc) = (pts[zi][slot as usize], pts[yi][slot as usize]);
                    let up = step > 0;
                    // never back towards y
                    if up && zc < yc || !up && zc > yc {
                        continue;
                    }
                    if budget == 0 {
                        break 'step;
                    }
                    budget -= 1;
                    let mut z2 = z;
                    z2[g] = b;
                    let step = step as i32;
                    // the value after the step, if it is the wanted hard edge
                    let (ok, v2) = match (sink, up) {
                        // her value falls by the whole step: V <= vz + step
                        (false, false) => (!self.test(&z2, vz + step + 1), vz + step),
                        // her value stays: V <= vz
                        (false, true) => (!self.test(&z2, vz + 1), vz),
                        // her value rises by the whole step: V >= vz + step
                        (true, true) => (self.test(&z2, vz + step), vz + step),
                        // her value stays: V >= vz
                        (true, false) => (self.test(&z2, vz), vz),
                    };
                    if ok {
                        z = z2;
                        vz = v2;
                        continue 'step;
                    }
                }
            }
            break;
        }
        (z, vz)
    }
}
