//! Training positions for the card-point estimators: random start-of-trick positions of one
//! class and hand size, each with its active features, the exact marginal value (the
//! declarer's card points from the cards still in the hands, by the exact solver) and the
//! static bounds the search would clamp an estimate to.
//!
//! A position is [`super::bench::random_position`]: a random deal with a random declarer (and
//! trump suit), the skat as her discard, played on by uniformly random legal cards until `k`
//! cards are left per hand. The sample depends only on the seed.

use super::bench::{check_positions, random_position};
use super::bounds::static_bounds;
use super::estimator::{class_of, features, MAX_ACTIVE};
use super::layout::Layout;
use super::{Solver, SolverOptions};
use crate::rng::Rng;
use crate::SkatError;

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The leader's role relative to the declarer (0 her, 1 left, 2 right).
    pub role: u8,
    /// Active feature indices (see [`features`]).
    pub features: Vec<u32>,
    /// The exact marginal value.
    pub value: i32,
    /// Static bounds on it: trivial, unbeatable trumps and quick tricks.
    pub lo: i32,
    pub hi: i32,
}

/// `count` samples of class `class` (0 suit, 1 grand) with `k` cards per hand; an error for
/// more than [`MAX_POSITIONS`](crate::solver::bench::MAX_POSITIONS) samples.
///
/// # Panics
/// For another class or a `k` outside 1..=10.
pub fn samples(seed: u64, count: usize, class: u8, k: u32) -> Result<Vec<Sample>, SkatError> {
    assert!(class <= 1 && (1..=10).contains(&k));
    check_positions("samples", count)?;
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(SolverOptions {
        tt_mb: 16,
        ..SolverOptions::default()
    });
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        // suit and grand games never end early: the draws are those of a plain random deal
        let pos = random_position(&mut rng, class, k);
        let (gt, decl) = (pos.game_type(), pos.declarer());
        let lay = Layout::get(gt);
        debug_assert_eq!(class_of(lay), Some(class));
        let ext = pos.hands();
        let hands = [
            lay.to_internal(ext[0]),
            lay.to_internal(ext[1]),
            lay.to_internal(ext[2]),
        ];
        let (d, l) = (decl as usize, pos.leader() as usize);
        let mut f = [0u32; MAX_ACTIVE];
        let n = features(lay, &hands, d, &mut f);
        let (lo, hi) = static_bounds(lay, &hands, d, l);
        let value = solver.solve(&pos).value - pos.declarer_points() as i32;
        out.push(Sample {
            role: ((l + 3 - d) % 3) as u8,
            features: f[..n].to_vec(),
            value,
            lo,
            hi,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_deterministic_and_their_bounds_hold() {
        for class in 0..2 {
            let a = samples(3, 40, class, 6).unwrap();
            assert_eq!(a, samples(3, 40, class, 6).unwrap());
            for s in &a {
                assert!(s.lo <= s.value && s.value <= s.hi, "{s:?}");
            }
            assert!(a.iter().any(|s| s.role == 0) && a.iter().any(|s| s.role != 0));
        }
    }
}
