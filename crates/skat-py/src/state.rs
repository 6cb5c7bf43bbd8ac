//! Python classes for what a seat sees (`View`) and the game itself (`Game`): conversions
//! only; the rules live in `skat_core::game`, the learning environments' observation and
//! action indices in `skat_core::encoding`.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};
use skat_core::game::{Actor, Move};
use skat_core::{encoding, record, Action, Game, Record, Variants, View};

use crate::args::Text;
use crate::cards::{hands_tuple, PyCard, PyCards, PyGameType};
use crate::error::IntoPyResult;
use crate::game::{actions, ActionArg, PyAction, PyContract, PyDeal, PyGameResult, PyPhase};

fn actor_obj(py: Python<'_>, a: Actor) -> PyResult<PyObject> {
    Ok(match a {
        Actor::Seat(s) => s.into_pyobject(py)?.into_any().unbind(),
        Actor::World => "w".into_pyobject(py)?.into_any().unbind(),
    })
}

fn history_list<'py>(py: Python<'py>, h: &[Move]) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    h.iter()
        .map(|m| {
            PyTuple::new(
                py,
                [
                    actor_obj(py, m.actor)?,
                    PyAction(m.action).into_pyobject(py)?.into_any().unbind(),
                ],
            )
        })
        .collect()
}

fn tricks_list(tricks: &[skat_core::Trick]) -> Vec<(u8, Vec<PyCard>, u8)> {
    tricks
        .iter()
        .map(|t| {
            (
                t.leader,
                t.cards.iter().map(|&c| PyCard(c)).collect(),
                t.winner,
            )
        })
        .collect()
}

/// The action-space indices of `legal` (`skat_core::encoding`), ascending; an action without
/// an index raises IllegalActionError naming it.
fn legal_indices(legal: &[Action]) -> PyResult<Vec<usize>> {
    encoding::legal_indices(legal).map_err(|a| {
        crate::error::IllegalActionError::new_err(format!(
            "action {a} has no index in the action space"
        ))
    })
}

/// What one seat may know; given to players instead of the game.
#[pyclass(name = "View", module = "skat", frozen)]
pub struct PyView(pub View);

#[pymethods]
impl PyView {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    #[getter]
    fn phase(&self) -> PyPhase {
        self.0.phase.into()
    }
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.0.to_move
    }
    /// This seat's current cards.
    #[getter]
    fn hand(&self) -> PyCards {
        PyCards(self.0.hand)
    }
    /// The highest bid so far.
    #[getter]
    fn bid(&self) -> u16 {
        self.0.bid
    }
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.declarer
    }
    /// The declared contract (None before the declaration).
    #[getter]
    fn contract(&self) -> Option<PyContract> {
        self.0.contract.map(PyContract)
    }
    #[getter]
    fn picked_up(&self) -> bool {
        self.0.picked_up
    }
    /// The seat that led the current trick.
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader
    }
    /// Cards of the current trick in order.
    #[getter]
    fn trick(&self) -> Vec<PyCard> {
        self.0.trick.iter().map(|&c| PyCard(c)).collect()
    }
    /// Finished tricks as (leader, [cards], winner).
    #[getter]
    fn tricks(&self) -> Vec<(u8, Vec<PyCard>, u8)> {
        tricks_list(&self.0.tricks)
    }
    /// Every card played so far, in order.
    #[getter]
    fn played(&self) -> Vec<PyCard> {
        self.0.played.iter().map(|&(_, c)| PyCard(c)).collect()
    }
    /// Every card played so far with its seat: (seat, card).
    #[getter]
    fn plays(&self) -> Vec<(u8, PyCard)> {
        self.0.played.iter().map(|&(s, c)| (s, PyCard(c))).collect()
    }
    /// The skat as found: only for the declarer after a pick-up.
    #[getter]
    fn skat(&self) -> Option<PyCards> {
        self.0.skat.map(PyCards)
    }
    /// The declarer's own discard (declarer only).
    #[getter]
    fn discard(&self) -> Option<PyCards> {
        self.0.discard.map(PyCards)
    }
    /// The declarer's remaining cards when the contract is ouvert.
    #[getter]
    fn open_hand(&self) -> Option<PyCards> {
        self.0.open_hand.map(PyCards)
    }
    /// The declarer's card points so far, where this seat can know them.
    #[getter]
    fn declarer_points(&self) -> Option<u32> {
        self.0.declarer_points
    }
    /// Public history as (actor, Action) pairs (the discard only for the declarer).
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        history_list(py, &self.0.history)
    }
    #[getter]
    fn result(&self) -> Option<PyGameResult> {
        self.0.result.map(PyGameResult)
    }
    /// The table variants in record form (`"kontra bock"`; empty: the International Skat Order).
    #[getter]
    fn variants(&self) -> String {
        self.0.variants.to_string()
    }
    /// Kontra and Re said so far (0, 1 or 2).
    #[getter]
    fn kontra(&self) -> u8 {
        self.0.kontra
    }
    /// The deal is played as a Ramsch (all passed at a table with that variant).
    #[getter]
    fn ramsch(&self) -> bool {
        self.0.ramsch
    }
    /// The actions this seat may take now (empty when it is not this seat's turn).
    fn legal_actions(&self) -> Vec<PyAction> {
        actions(self.0.legal.clone())
    }
    /// The indices of `legal_actions()` in the action space of `skat.encoding`, ascending
    /// (raises IllegalActionError when one of them, Kontra or Re, has no index).
    fn legal_action_indices(&self) -> PyResult<Vec<usize>> {
        legal_indices(&self.0.legal)
    }
    /// The observation vector of `skat.encoding` (512 float32 numbers in native byte
    /// order), as the bytes of a new bytearray.
    fn observation_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let obs = encoding::observation(&self.0);
        let mut bytes = Vec::with_capacity(4 * obs.len());
        for x in obs {
            bytes.extend_from_slice(&x.to_ne_bytes());
        }
        PyByteArray::new(py, &bytes)
    }

    fn __repr__(&self) -> String {
        format!(
            "<View seat={} phase={} hand=\"{}\">",
            self.0.seat, self.0.phase, self.0.hand
        )
    }
}

/// One deal's state machine: auction, skat, declaration and ten tricks.
///
/// >>> g = Game(Deal.random(1)); g.phase, g.to_move
/// (Phase.BIDDING, 1)
#[pyclass(name = "Game", module = "skat")]
#[derive(Clone)]
pub struct PyGame(pub Game);

#[pymethods]
impl PyGame {
    /// `variants`: the table variants as in a record's `VA[...]` field, e.g. `"kontra"` or
    /// `"kontra bock"` (default: none, the International Skat Order).
    #[new]
    #[pyo3(signature = (deal, variants = Text::default()), text_signature = "(deal, variants='')")]
    fn new(deal: PyDeal, variants: Text) -> PyResult<Self> {
        let v = Variants::parse(&variants).py_err()?;
        Ok(PyGame(Game::with_variants(deal.0, v)))
    }

    /// Replays an ISS record line through the rules (raises RecordError on any illegal move).
    /// A record without a result leaves the game where the record stops.
    #[staticmethod]
    fn from_iss(line: Text) -> PyResult<Self> {
        let rec = Record::parse(&line).py_err()?;
        Ok(PyGame(rec.replay().py_err()?))
    }

    /// Writes the game as one ISS record line.
    fn to_iss(&self) -> String {
        record::write(&self.0)
    }

    #[getter]
    fn deal(&self) -> PyDeal {
        PyDeal(*self.0.deal())
    }
    #[getter]
    fn phase(&self) -> PyPhase {
        self.0.phase().into()
    }
    /// The seat to move (None when the game is over).
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.0.to_move()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    /// The table variants in record form (`"kontra bock"`; empty: none).
    #[getter]
    fn variants(&self) -> String {
        self.0.variants().to_string()
    }
    /// Kontra and Re said so far (0, 1 or 2).
    #[getter]
    fn kontra(&self) -> u8 {
        self.0.kontra()
    }
    /// The deal is played as a Ramsch (all passed at a table with that variant).
    #[getter]
    fn ramsch(&self) -> bool {
        self.0.is_ramsch()
    }
    /// The game type that rules the card play: the contract's, grand in a Ramsch.
    #[getter]
    fn play_type(&self) -> Option<PyGameType> {
        self.0.play_type().map(PyGameType::from)
    }
    #[getter]
    fn result(&self) -> Option<PyGameResult> {
        self.0.result().copied().map(PyGameResult)
    }
    #[getter]
    fn bid(&self) -> u16 {
        self.0.bid()
    }
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.declarer()
    }
    #[getter]
    fn contract(&self) -> Option<PyContract> {
        self.0.contract().map(PyContract)
    }
    /// All three current hands (the referee's view; players get `view(seat)`).
    #[getter]
    fn hands(&self) -> (PyCards, PyCards, PyCards) {
        hands_tuple(self.0.hands())
    }
    /// The cards in the skat (they count for the declarer): the dealt skat, nothing while the
    /// declarer holds twelve cards after a pick-up, then her discard.
    #[getter]
    fn skat(&self) -> PyCards {
        PyCards(self.0.skat())
    }
    #[getter]
    fn picked_up(&self) -> bool {
        self.0.picked_up()
    }
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader()
    }
    #[getter]
    fn trick(&self) -> Vec<PyCard> {
        self.0.current_trick().iter().map(|&c| PyCard(c)).collect()
    }
    /// Finished tricks as (leader, [cards], winner).
    #[getter]
    fn tricks(&self) -> Vec<(u8, Vec<PyCard>, u8)> {
        tricks_list(self.0.tricks())
    }
    #[getter]
    fn played(&self) -> Vec<PyCard> {
        self.0.played().iter().map(|&(_, c)| PyCard(c)).collect()
    }
    #[getter]
    fn declarer_points(&self) -> u32 {
        self.0.declarer_points()
    }
    #[getter]
    fn declarer_tricks(&self) -> u32 {
        self.0.declarer_tricks()
    }
    /// Every move as (actor, Action); actor is a seat or "w" (the table).
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        history_list(py, self.0.history())
    }
    /// The record's header fields (ID, players, ...) when read from a record.
    #[getter]
    fn header(&self) -> Vec<(String, String)> {
        self.0.header.clone()
    }
    /// The record's ID, if any.
    #[getter]
    fn record_id(&self) -> Option<String> {
        self.0
            .header
            .iter()
            .find(|(k, _)| k == "ID")
            .map(|(_, v)| v.clone())
    }
    /// The result text `R[...]` the record states (None for a game not read from a complete record).
    #[getter]
    fn recorded_result(&self) -> Option<String> {
        self.0.recorded_result.as_ref().map(|r| r.text.clone())
    }

    /// Differences between the recorded result and the replayed one (empty: they agree).
    /// Raises nothing; a game not read from a complete record has no differences.
    fn check_record(&self) -> Vec<String> {
        self.0.record_differences()
    }

    /// The actions the seat to move may take.
    fn legal_actions(&self) -> Vec<PyAction> {
        actions(self.0.legal_actions())
    }

    /// The indices of `legal_actions()` in the action space of `skat.encoding`, ascending
    /// (raises IllegalActionError when one of them, Kontra or Re, has no index).
    fn legal_action_indices(&self) -> PyResult<Vec<usize>> {
        legal_indices(&self.0.legal_actions())
    }

    /// The cards the seat to move may play (empty outside card play).
    fn legal_cards(&self) -> PyCards {
        PyCards(self.0.legal_cards())
    }

    /// Applies an action (an Action, a Card or its ISS token). `seat` is needed only for
    /// special moves by a seat not to move (`"RE"`); a rejected action changes nothing.
    #[pyo3(signature = (action, seat=None))]
    fn apply(
        &mut self,
        action: ActionArg,
        #[pyo3(from_py_with = "crate::args::opt_u8_arg")] seat: Option<u8>,
    ) -> PyResult<()> {
        match seat {
            None => self.0.apply(action.0).py_err(),
            Some(s) if s < 3 => self.0.apply_by(Actor::Seat(s), action.0).py_err(),
            Some(s) => Err(crate::error::IllegalActionError::new_err(format!(
                "seat {s} is not 0, 1 or 2"
            ))),
        }
    }

    /// What `seat` may know (own cards, public history, ouvert hands, own skat).
    fn view(&self, #[pyo3(from_py_with = "crate::args::u8_arg")] seat: u8) -> PyResult<PyView> {
        if seat > 2 {
            return Err(crate::error::IllegalActionError::new_err(format!(
                "seat {seat} is not 0, 1 or 2"
            )));
        }
        Ok(PyView(self.0.view(seat)))
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let g = &self.0;
        format!(
            "<Game phase={} to_move={:?} declarer={:?} contract={} tricks={}>",
            g.phase(),
            g.to_move(),
            g.declarer(),
            g.contract().map_or("-".to_string(), |k| k.token()),
            g.tricks().len()
        )
    }
}
