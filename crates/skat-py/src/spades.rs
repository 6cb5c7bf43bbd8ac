//! Three-player Spades and soft-max^n for Python: conversions only. Games and the inference
//! experiment run with the GIL released.

use pyo3::prelude::*;
use skat_core::multiplayer::spades::{self, SpadesHand};
use skat_core::multiplayer::spades_play::{self, GameConfig, GameRecord, InferenceCounts, Player};
use skat_core::SkatError as CoreError;

use crate::args::Text;
use crate::error::IntoPyResult;

/// The end of one Spades game: final scores, carried overtricks, hands played, the winning
/// seats (several on a tie) and the nodes all players searched.
#[pyclass(name = "SpadesGame", module = "skat", frozen)]
pub struct PySpadesGame(GameRecord);

#[pymethods]
impl PySpadesGame {
    /// Final scores by seat.
    #[getter]
    fn scores(&self) -> Vec<i64> {
        self.0.scores.to_vec()
    }
    /// Overtricks carried at the end (below 10), by seat.
    #[getter]
    fn bags(&self) -> Vec<u32> {
        self.0.bags.to_vec()
    }
    /// Hands played.
    #[getter]
    fn hands(&self) -> u32 {
        self.0.hands
    }
    /// The seats with the highest score.
    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.0.winners.clone()
    }
    /// Search nodes expanded by all players.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    fn __repr__(&self) -> String {
        format!(
            "SpadesGame(scores={:?}, hands={}, winners={:?})",
            self.0.scores, self.0.hands, self.0.winners
        )
    }
}

/// Counts of the inference experiment (see `spades_inference`).
#[pyclass(name = "SpadesInference", module = "skat", frozen)]
pub struct PySpadesInference(InferenceCounts);

#[pymethods]
impl PySpadesInference {
    /// Hands played.
    #[getter]
    fn hands(&self) -> u32 {
        self.0.hands
    }
    /// Opponent decisions between at least two distinct cards that were checked.
    #[getter]
    fn decisions(&self) -> u32 {
        self.0.decisions
    }
    /// Inconsistent (decision, kind) pairs, repeats within a hand included.
    #[getter]
    fn inferences(&self) -> u32 {
        self.0.inferences
    }
    /// For MT, mOT and ML: the (hand, opponent) pairs in which the kind was ruled out.
    #[getter]
    fn ruled_out(&self) -> Vec<u32> {
        self.0.ruled_out.to_vec()
    }
    /// (hand, opponent) pairs in which at least one kind was ruled out.
    #[getter]
    fn hands_with_inference(&self) -> u32 {
        self.0.hands_with_inference
    }
    /// Times an opponent's true kind was ruled out (0 when inference is sound).
    #[getter]
    fn wrong(&self) -> u32 {
        self.0.wrong
    }
    fn __repr__(&self) -> String {
        let c = &self.0;
        format!(
            "SpadesInference(hands={}, inferences={}, ruled_out={:?}, wrong={})",
            c.hands, c.inferences, c.ruled_out, c.wrong
        )
    }
}

fn players<const N: usize>(names: Vec<Text>) -> Result<[Player; N], CoreError> {
    if names.len() != N {
        return Err(CoreError::parse(
            "list of Spades players (wrong length)",
            &names
                .iter()
                .map(|n| n.0.as_str())
                .collect::<Vec<_>>()
                .join(","),
        ));
    }
    let mut out = Vec::with_capacity(N);
    for n in &names {
        out.push(Player::parse(n)?);
    }
    Ok(out.try_into().expect("N players"))
}

/// The canonical name of a Spades player (`mOT_MT`, `mOT_g`, `soft:ML_MT`, `paranoid:MT`);
/// raises ParseError for anything else.
#[pyfunction]
pub fn spades_player(name: Text) -> PyResult<String> {
    Ok(Player::parse(&name).py_err()?.name())
}

/// Plays one game of three-player Spades between `players` (by seat) on the deals of `seed`.
#[pyfunction]
#[pyo3(signature = (players, seed, cards=7, target=300, max_hands=200))]
pub fn spades_game(
    py: Python<'_>,
    players: Vec<Text>,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::usize_arg")] cards: usize,
    #[pyo3(from_py_with = "crate::args::i64_arg")] target: i64,
    #[pyo3(from_py_with = "crate::args::u32_arg")] max_hands: u32,
) -> PyResult<PySpadesGame> {
    let p: [Player; 3] = self::players(players).py_err()?;
    let config = GameConfig {
        cards,
        target,
        max_hands,
    };
    let r = py
        .allow_threads(move || spades_play::play_game(&p, seed, &config))
        .py_err()?;
    Ok(PySpadesGame(r))
}

/// Plays `hands` hands with `observer` at seat 0 and `opponents` at seats 1 and 2, and counts
/// what the observer infers about the opponents' kinds (MT, mOT, ML) from their decisions.
#[pyfunction]
#[pyo3(signature = (observer, opponents, seed, hands, cards=7))]
pub fn spades_inference(
    py: Python<'_>,
    observer: Text,
    opponents: Vec<Text>,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::u32_arg")] hands: u32,
    #[pyo3(from_py_with = "crate::args::usize_arg")] cards: usize,
) -> PyResult<PySpadesInference> {
    let o = Player::parse(&observer).py_err()?;
    let opp: [Player; 2] = players(opponents).py_err()?;
    let c = py
        .allow_threads(move || spades_play::inference_hands(&o, &opp, seed, hands, cards))
        .py_err()?;
    Ok(PySpadesInference(c))
}

/// The rule-based bid of a hand (cards as text, e.g. "SA SK S5 HA DK D2 C3").
#[pyfunction]
pub fn spades_bid(hand: Text) -> PyResult<u8> {
    Ok(spades::rule_bid(spades::parse_hand(&hand).py_err()?))
}

/// One hand's points and the overtricks carried afterwards, given the bid, the tricks taken
/// and the overtricks carried before.
#[pyfunction]
pub fn spades_score(
    #[pyo3(from_py_with = "crate::args::u8_arg")] bid: u8,
    #[pyo3(from_py_with = "crate::args::u8_arg")] tricks: u8,
    #[pyo3(from_py_with = "crate::args::u32_arg")] bags: u32,
) -> (i64, u32) {
    spades::hand_score(bid, tricks, bags)
}

/// The card the leader plays first in a hand with these hands (text, by seat), bids and
/// leader, searched as `player` (e.g. `mOT_g`) would search it.
#[pyfunction]
pub fn spades_lead(
    hands: Vec<Text>,
    #[pyo3(from_py_with = "crate::args::u8_list_arg")] bids: Vec<u8>,
    #[pyo3(from_py_with = "crate::args::u8_arg")] leader: u8,
    player: Text,
) -> PyResult<String> {
    let p = Player::parse(&player).py_err()?;
    if hands.len() != 3 || bids.len() != 3 {
        return Err(CoreError::InvalidCards(
            "Spades needs three hands and three bids".to_string(),
        ))
        .py_err();
    }
    let mut h = [0u64; 3];
    for (i, t) in hands.iter().enumerate() {
        h[i] = spades::parse_hand(t).py_err()?;
    }
    let hand = SpadesHand::new(h, [bids[0], bids[1], bids[2]], leader).py_err()?;
    Ok(spades::card_name(spades_play::first_card(&hand, &p)))
}
