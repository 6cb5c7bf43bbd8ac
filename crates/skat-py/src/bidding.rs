//! Bindings of the 10+2 bidding evaluation (`skat_core::bidding`).

use std::collections::HashMap;

use pyo3::prelude::*;
use skat_core::bidding::{self, BiddingModel, Declaration};
use skat_core::{Cards, SkatError as CoreError};

use crate::args::Text;
use crate::cards::{CardsArg, PyCards};
use crate::error::{ArgumentError, IntoPyResult, InvalidCardsError};
use crate::game::PyContract;

/// (context, [(suit, x*(s), x*(h))], trump cell, discard points).
type PyIndices = (usize, Vec<(usize, usize, usize)>, usize, u32);
type PyDeclaration = (Option<PyCards>, PyContract, f64, f64);

fn declaration(d: Declaration) -> PyDeclaration {
    (
        d.discard.map(PyCards),
        PyContract(d.contract),
        d.expected_score,
        d.win,
    )
}

/// The compiled 10+2 evaluation; `skat.bidding.BiddingModel` wraps it.
#[pyclass(name = "BiddingTables", module = "skat._core", frozen)]
pub struct PyBiddingTables(pub BiddingModel);

#[pymethods]
impl PyBiddingTables {
    /// Builds the evaluation from named little-endian float32 arrays (see `MODEL_PARTS`).
    #[new]
    fn new(parts: HashMap<Text, Vec<u8>>) -> PyResult<Self> {
        let mut floats = HashMap::new();
        for (name, bytes) in parts {
            if bytes.len() % 4 != 0 {
                return Err(InvalidCardsError::new_err(format!(
                    "bidding model: array {} is not float32 data",
                    name.0
                )));
            }
            let v: Vec<f32> = bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            floats.insert(name.0, v);
        }
        Ok(PyBiddingTables(BiddingModel::from_parts(&floats).py_err()?))
    }

    /// Names and lengths of the arrays the constructor needs.
    #[staticmethod]
    fn parts() -> Vec<(&'static str, usize)> {
        bidding::MODEL_PARTS.to_vec()
    }

    fn win_probability(
        &self,
        hand: CardsArg,
        discard: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] kind: usize,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
    ) -> PyResult<f64> {
        self.0
            .win_probability(hand.0, discard.0, kind, seat)
            .py_err()
    }

    /// Win probabilities of many candidates given as card bit sets.
    fn win_probabilities(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = "crate::args::u32_list_arg")] hands: Vec<u32>,
        #[pyo3(from_py_with = "crate::args::u32_list_arg")] discards: Vec<u32>,
        #[pyo3(from_py_with = "crate::args::usize_list_arg")] kinds: Vec<usize>,
        #[pyo3(from_py_with = "crate::args::usize_list_arg")] seats: Vec<usize>,
    ) -> PyResult<Vec<f64>> {
        let n = hands.len();
        if discards.len() != n || kinds.len() != n || seats.len() != n {
            return Err(ArgumentError::new_err(
                "hands, discards, kinds and seats must have the same length",
            ));
        }
        py.allow_threads(|| {
            (0..n)
                .map(|i| {
                    self.0
                        .win_probability(Cards(hands[i]), Cards(discards[i]), kinds[i], seats[i])
                })
                .collect::<Result<Vec<f64>, CoreError>>()
        })
        .py_err()
    }

    /// (win, schneider, schwarz) probabilities.
    fn probabilities(
        &self,
        hand: CardsArg,
        discard: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] kind: usize,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
    ) -> PyResult<(f64, f64, f64)> {
        let [w, s, z] = self
            .0
            .probabilities(hand.0, discard.0, kind, seat)
            .py_err()?;
        Ok((w, s, z))
    }

    /// (win probability, discard) of the best discard of twelve cards for a kind.
    fn best_discard(
        &self,
        twelve: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] kind: usize,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
    ) -> PyResult<(f64, PyCards)> {
        let (p, d) = self.0.best_discard(twelve.0, kind, seat).py_err()?;
        Ok((p, PyCards(d)))
    }

    /// (expected score, win probability), or None for a null below the bid.
    fn expected_score(
        &self,
        hand: CardsArg,
        discard: CardsArg,
        contract: &PyContract,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    ) -> PyResult<Option<(f64, f64)>> {
        self.0
            .expected_score(hand.0, discard.0, &contract.0, seat, bid)
            .py_err()
    }

    /// (root values per bid, leaves evaluated).
    fn evaluate(
        &self,
        py: Python<'_>,
        hand: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_list_arg")] bids: Vec<u16>,
    ) -> PyResult<(Vec<f64>, u64)> {
        let t = py
            .allow_threads(|| self.0.evaluate(hand.0, seat, &bids))
            .py_err()?;
        Ok((t.values, t.leaves))
    }

    fn best_pickup(
        &self,
        py: Python<'_>,
        twelve: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    ) -> PyResult<PyDeclaration> {
        Ok(declaration(
            py.allow_threads(|| self.0.best_pickup(twelve.0, seat, bid))
                .py_err()?,
        ))
    }

    fn pickup_declarations(
        &self,
        py: Python<'_>,
        twelve: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    ) -> PyResult<Vec<PyDeclaration>> {
        let all = py
            .allow_threads(|| self.0.pickup_declarations(twelve.0, seat, bid))
            .py_err()?;
        Ok(all.into_iter().map(declaration).collect())
    }

    fn best_hand(
        &self,
        py: Python<'_>,
        hand: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    ) -> PyResult<PyDeclaration> {
        Ok(declaration(
            py.allow_threads(|| self.0.best_hand(hand.0, seat, bid))
                .py_err()?,
        ))
    }

    fn pickup_value(
        &self,
        py: Python<'_>,
        hand: CardsArg,
        #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
        #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    ) -> PyResult<f64> {
        py.allow_threads(|| self.0.pickup_value(hand.0, seat, bid))
            .py_err()
    }
}

/// Table indices of a suit or grand game, for fitting: (context, [(suit, x*(s), x*(h)), ...],
/// trump cell, discard points).
#[pyfunction]
pub fn bidding_indices(
    hand: CardsArg,
    discard: CardsArg,
    #[pyo3(from_py_with = "crate::args::usize_arg")] kind: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] seat: usize,
) -> PyResult<PyIndices> {
    let ix = bidding::table_indices(hand.0, discard.0, kind, seat).py_err()?;
    Ok((
        ix.context,
        ix.sides[..ix.n_sides].to_vec(),
        ix.trump,
        ix.discard_points,
    ))
}
