//! Simulated better estimators for ProbCut research: how good must an estimator be for
//! ProbCut to reach a given speed at a given decision agreement?
//!
//! [`SharperEstimates`] turns the shipped estimate `n` of a position into the estimate of a
//! model whose error is `scale` times the shipped one's, as if a second, independent
//! measurement of the position had been combined with `n`. The shipped model is taken as
//! calibrated with the slot's error deviation `s` (the true value is `y = n + eps`, eps of
//! deviation `s` and independent of `n`); the measurement is `m = y + s_m * g`, `g` standard
//! normal, with `s_m^2 = scale^2 s^2 / (1 - scale^2)`, and the combined estimate
//! `n + (1 - scale^2) (m - n)` is again calibrated, with error deviation `scale * s`
//! ([`sharpened`]). Scale 1 leaves the shipped estimate alone, scale 0 is the exact value.
//! ProbCut then uses the interval half-width `z * scale * s`: the confidence means the same
//! for the better model as for the shipped one.
//!
//! Invariants: the exact values come from a separate exact solver, are kept by position (hands,
//! declarer, leader, class) until [`SharperEstimates::forget`], and their cost is counted in
//! [`SharperEstimates::micros`] so that a solver can leave it out of its own time; the
//! measurement noise `g` is a fixed function of the position, so a node revisited by the search
//! gets the same estimate. Nothing here is used unless a solver is built with
//! [`super::Solver::with_sharper_estimates`].

use std::collections::HashMap;
use std::time::Instant;

use super::layout::Layout;
use super::{Position, Solver, SolverOptions};
use crate::rules::Contract;
use crate::SkatError;

/// The combined estimate: `net` the shipped estimate, `exact` the true value, `sigma` the
/// shipped model's error deviation, `g` a standard normal draw. `scale` in `0..=1`.
pub fn sharpened(net: f32, exact: f32, sigma: f32, scale: f32, g: f32) -> f32 {
    if scale >= 1.0 {
        return net;
    }
    let noise = scale * sigma / (1.0 - scale * scale).sqrt();
    let measured = exact + noise * g;
    net + (1.0 - scale * scale) * (measured - net)
}

/// A standard normal number that depends only on `key` (splitmix64 and Box-Muller).
pub fn position_normal(key: u64) -> f32 {
    let mut x = key;
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let unit = 1.0 / (1u64 << 53) as f64;
    let u1 = ((next() >> 11) as f64 + 0.5) * unit;
    let u2 = (next() >> 11) as f64 * unit;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// The exact values and the error scale of one solver's simulated estimator.
pub struct SharperEstimates {
    scale: f32,
    exact: Box<Solver>,
    /// Exact values by (hands, tag): the tag packs declarer, leader and game type.
    values: HashMap<([u32; 3], u8), i32>,
    micros: u64,
}

impl SharperEstimates {
    /// A simulated estimator with `scale` (0..1) times the shipped error; its exact solver
    /// has the options of the searching one, without ProbCut ([`SkatError::OutOfMemory`]
    /// when its table cannot be had).
    pub fn new(scale: f32, options: SolverOptions) -> Result<SharperEstimates, SkatError> {
        Ok(SharperEstimates {
            scale: scale.clamp(0.0, 1.0),
            exact: Box::new(Solver::try_new(SolverOptions { pcut: 0, ..options })?),
            values: HashMap::new(),
            micros: 0,
        })
    }

    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Changes the error scale (0..1); the exact values found so far stay valid, since they
    /// depend only on the positions.
    pub fn set_scale(&mut self, scale: f32) {
        self.scale = scale.clamp(0.0, 1.0);
    }

    /// Microseconds spent finding exact values so far.
    pub fn micros(&self) -> u64 {
        self.micros
    }

    /// Forgets the exact values found so far.
    pub fn forget(&mut self) {
        self.values.clear();
    }

    /// The better model's estimate at a trick start (`hands` in the layout's bits), given the
    /// shipped estimate `net` and its deviation `sigma`.
    pub fn estimate(
        &mut self,
        net: f32,
        sigma: f32,
        lay: &Layout,
        hands: &[u32; 3],
        decl: usize,
        leader: usize,
    ) -> f32 {
        if self.scale >= 1.0 {
            return net;
        }
        let tag = (decl * 3 + leader) as u8 | (lay.game_type as u8) << 4;
        let exact = self.exact_value(lay, *hands, tag) as f32;
        let key = (hands[0] as u64 | (hands[1] as u64) << 32) ^ (hands[2] as u64).rotate_left(19);
        let g = position_normal(key ^ (tag as u64) << 56);
        sharpened(net, exact, sigma, self.scale, g)
    }

    /// The exact value of the trick start `hands` whose declarer and leader `tag` packs.
    fn exact_value(&mut self, lay: &Layout, hands: [u32; 3], tag: u8) -> i32 {
        if let Some(&v) = self.values.get(&(hands, tag)) {
            return v;
        }
        let start = Instant::now();
        let (decl, leader) = ((tag & 15) / 3, (tag & 15) % 3);
        let cards = hands.map(|h| lay.to_external(h));
        let contract = Contract::plain(lay.game_type);
        let pos = Position::new(cards, contract, decl, leader, &[], 0, 0)
            .expect("a trick start of the search is a valid position");
        let v = self.exact.solve(&pos).value;
        self.values.insert((hands, tag), v);
        self.micros += start.elapsed().as_micros() as u64;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_ends_of_the_scale_are_the_shipped_and_the_exact_value() {
        assert_eq!(sharpened(40.0, 55.0, 4.0, 1.0, 0.7), 40.0);
        assert_eq!(sharpened(40.0, 55.0, 4.0, 0.0, 0.7), 55.0);
    }

    #[test]
    fn a_sharpened_estimate_is_calibrated_with_the_scaled_error() {
        // true values y = n + eps with eps independent of n: the combined estimate's error
        // has deviation scale * sigma and does not correlate with the estimate
        let mut rng = Rng::new(11);
        let sigma = 4.0f32;
        for scale in [0.8f32, 0.5, 0.2] {
            let (mut se, mut see, mut sec) = (0f64, 0f64, 0f64);
            let (mut sum_e, n) = (0f64, 100_000);
            for i in 0..n {
                let net = 20.0 + rng.below(60) as f32;
                let y = net + sigma * position_normal(2 * i as u64);
                let e = sharpened(net, y, sigma, scale, position_normal(2 * i as u64 + 1));
                let err = (y - e) as f64;
                se += err;
                see += err * err;
                sec += err * e as f64;
                sum_e += e as f64;
            }
            let n = n as f64;
            let mean = se / n;
            let sd = (see / n - mean * mean).sqrt();
            let cov = sec / n - mean * sum_e / n;
            assert!(
                (sd / (scale * sigma) as f64 - 1.0).abs() < 0.02,
                "{scale}: {sd}"
            );
            assert!(
                mean.abs() < 0.05 && cov.abs() < 0.5,
                "{scale}: {mean} {cov}"
            );
        }
    }

    #[test]
    fn position_normals_are_standard() {
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|i| position_normal(i as u64) as f64).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        let within = xs.iter().filter(|x| x.abs() <= 1.0).count() as f64 / n as f64;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.02,
            "{mean} {var}"
        );
        assert!((within - 0.6827).abs() < 0.005, "{within}");
    }
}
