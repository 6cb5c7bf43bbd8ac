//! Python classes for contracts, actions, deals, games, views and results: conversions only.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use skat_core::game::{Actor, Move};
use skat_core::{record, Action, Contract, Deal, Game, GameResult, Phase, Record, Variants, View};

use crate::cards::{hands_tuple, CardArg, CardsArg, PyCard, PyCards, PyGameType};
use crate::error::IntoPyResult;

#[pyclass(name = "Phase", module = "skat", eq, eq_int, frozen, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum PyPhase {
    #[pyo3(name = "BIDDING")]
    Bidding = 0,
    #[pyo3(name = "SKAT")]
    Skat = 1,
    #[pyo3(name = "DISCARD")]
    Discard = 2,
    #[pyo3(name = "DECLARE")]
    Declare = 3,
    #[pyo3(name = "PLAY")]
    Play = 4,
    #[pyo3(name = "OVER")]
    Over = 5,
}

impl From<Phase> for PyPhase {
    fn from(p: Phase) -> Self {
        match p {
            Phase::Bidding => PyPhase::Bidding,
            Phase::SkatDecision => PyPhase::Skat,
            Phase::Discarding => PyPhase::Discard,
            Phase::Declaring => PyPhase::Declare,
            Phase::Playing => PyPhase::Play,
            Phase::Over => PyPhase::Over,
        }
    }
}

#[pymethods]
impl PyPhase {
    fn __str__(&self) -> &'static str {
        ["bidding", "skat", "discard", "declare", "play", "over"][*self as usize]
    }
}

/// A contract: game type plus hand / schneider / schwarz / ouvert. The implications of the
/// rules are added (suit or grand ouvert: hand and schwarz; schwarz: schneider).
///
/// >>> str(Contract(GameType.GRAND, ouvert=True))
/// 'GO'
#[pyclass(name = "Contract", module = "skat", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyContract(pub Contract);

#[pymethods]
impl PyContract {
    #[new]
    #[pyo3(signature = (game_type, hand=false, schneider=false, schwarz=false, ouvert=false))]
    fn new(
        game_type: PyGameType,
        hand: bool,
        schneider: bool,
        schwarz: bool,
        ouvert: bool,
    ) -> PyResult<Self> {
        Ok(PyContract(
            Contract::new(game_type.into(), hand, schneider, schwarz, ouvert).py_err()?,
        ))
    }

    /// Parses an ISS declaration token such as `"G"`, `"CHZ"`, `"NOH"`.
    #[staticmethod]
    fn parse(token: &str) -> PyResult<Self> {
        Ok(PyContract(Contract::parse(token).py_err()?))
    }

    #[getter]
    fn game_type(&self) -> PyGameType {
        self.0.game_type.into()
    }
    #[getter]
    fn hand(&self) -> bool {
        self.0.hand
    }
    #[getter]
    fn schneider(&self) -> bool {
        self.0.schneider
    }
    #[getter]
    fn schwarz(&self) -> bool {
        self.0.schwarz
    }
    #[getter]
    fn ouvert(&self) -> bool {
        self.0.ouvert
    }
    /// Base value (9..24) or the fixed null value (23/35/46/59).
    #[getter]
    fn base_value(&self) -> u32 {
        self.0.base_value()
    }

    /// The game value with `matadors` (signed) and the levels reached (announced levels
    /// always count); null: the fixed value. No overbid check.
    #[pyo3(signature = (matadors, schneider=false, schwarz=false))]
    fn value(&self, matadors: i32, schneider: bool, schwarz: bool) -> i32 {
        self.0.value(matadors, schneider, schwarz)
    }

    fn __str__(&self) -> String {
        self.0.token()
    }

    fn __repr__(&self) -> String {
        let k = self.0;
        let mut args = vec![format!("GameType.{}", k.game_type.name().to_uppercase())];
        for (name, on) in [
            ("hand", k.hand),
            ("schneider", k.schneider),
            ("schwarz", k.schwarz),
            ("ouvert", k.ouvert),
        ] {
            if on {
                args.push(format!("{name}=True"));
            }
        }
        format!("Contract({})", args.join(", "))
    }
}

/// A move; `str(action)` is its ISS token (`"18"`, `"y"`, `"p"`, `"s"`, `"ST.H8"`, `"GH"`,
/// `"D.ST.H8"`, `"CJ"`, `"SC"`, `"RE"`, ...). Compares equal to its token text.
#[pyclass(name = "Action", module = "skat", frozen)]
#[derive(Clone, Copy)]
pub struct PyAction(pub Action);

#[pymethods]
impl PyAction {
    #[new]
    fn new(token: &str) -> PyResult<Self> {
        Ok(PyAction(Action::parse(token).py_err()?))
    }

    /// Parses an ISS move token.
    #[staticmethod]
    fn parse(token: &str) -> PyResult<Self> {
        Self::new(token)
    }

    /// One of `bid hold pass pickup discard declare play claim resign timeout leave hidden
    /// kontra re`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            Action::Bid(_) => "bid",
            Action::Hold => "hold",
            Action::Pass => "pass",
            Action::PickUp => "pickup",
            Action::Discard(_) => "discard",
            Action::Declare(..) => "declare",
            Action::Play(_) => "play",
            Action::Claim => "claim",
            Action::Resign => "resign",
            Action::TimeOut(_) => "timeout",
            Action::Leave(_) => "leave",
            Action::Hidden => "hidden",
            Action::Kontra => "kontra",
            Action::Re => "re",
        }
    }

    /// The bid value of a bid, else None.
    #[getter]
    fn bid(&self) -> Option<u16> {
        match self.0 {
            Action::Bid(b) => Some(b),
            _ => None,
        }
    }

    /// The card of a card play, else None.
    #[getter]
    fn card(&self) -> Option<PyCard> {
        match self.0 {
            Action::Play(c) => Some(PyCard(c)),
            _ => None,
        }
    }

    /// The two cards of a discard (also of a combined declaration), else None.
    #[getter]
    fn cards(&self) -> Option<PyCards> {
        match self.0 {
            Action::Discard(c) | Action::Declare(_, Some(c)) => Some(PyCards(c)),
            _ => None,
        }
    }

    /// The contract of a declaration, else None.
    #[getter]
    fn contract(&self) -> Option<PyContract> {
        match self.0 {
            Action::Declare(k, _) => Some(PyContract(k)),
            _ => None,
        }
    }

    /// The seat named by a time-out or leave report, else None.
    #[getter]
    fn seat(&self) -> Option<u8> {
        match self.0 {
            Action::TimeOut(s) | Action::Leave(s) => Some(s),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Action(\"{}\")", self.0)
    }

    fn __hash__(&self) -> u64 {
        // equal to the hash of the token text, since actions compare equal to their text
        let h = self.0.to_string();
        Python::with_gil(|py| PyString::new(py, &h).hash().map(|x| x as u64).unwrap_or(0))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(a) = other.extract::<PyAction>() {
            return a.0 == self.0;
        }
        if let Ok(s) = other.downcast::<PyString>() {
            return s.to_str().ok().and_then(|t| Action::parse(t).ok()) == Some(self.0);
        }
        false
    }
}

/// An action given as `Action`, `Card` or token text.
pub struct ActionArg(pub Action);

impl<'py> FromPyObject<'py> for ActionArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(a) = ob.extract::<PyAction>() {
            return Ok(ActionArg(a.0));
        }
        if let Ok(c) = ob.extract::<PyCard>() {
            return Ok(ActionArg(Action::Play(c.0)));
        }
        if let Ok(s) = ob.downcast::<PyString>() {
            return Ok(ActionArg(Action::parse(s.to_str()?).py_err()?));
        }
        Err(PyTypeError::new_err(format!(
            "expected an Action or an ISS move token like \"18\" or \"CJ\", got {}",
            ob.get_type().name()?
        )))
    }
}

fn actions(v: Vec<Action>) -> Vec<PyAction> {
    v.into_iter().map(PyAction).collect()
}

/// Three hands of ten cards (seats 0 forehand, 1 middlehand, 2 rearhand) and the skat.
///
/// >>> d = Deal.random(seed=7); len(d.hands[0]), len(d.skat)
/// (10, 2)
#[pyclass(name = "Deal", module = "skat", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyDeal(pub Deal);

#[pymethods]
impl PyDeal {
    #[new]
    fn new(hands: (CardsArg, CardsArg, CardsArg), skat: CardsArg) -> PyResult<Self> {
        Ok(PyDeal(
            Deal::new([hands.0 .0, hands.1 .0, hands.2 .0], skat.0).py_err()?,
        ))
    }

    /// A uniformly random deal, reproducible from the seed.
    #[staticmethod]
    fn random(seed: u64) -> Self {
        PyDeal(Deal::random(seed))
    }

    /// Parses the ISS deal token (32 dotted cards: forehand, middlehand, rearhand, skat).
    #[staticmethod]
    fn parse(token: &str) -> PyResult<Self> {
        Ok(PyDeal(Deal::parse_iss(token).py_err()?))
    }

    #[getter]
    fn hands(&self) -> (PyCards, PyCards, PyCards) {
        hands_tuple(self.0.hands)
    }

    #[getter]
    fn skat(&self) -> PyCards {
        PyCards(self.0.skat)
    }

    /// The ISS deal token.
    fn to_iss(&self) -> String {
        self.0.to_iss()
    }

    fn __str__(&self) -> String {
        self.0.to_iss()
    }

    fn __repr__(&self) -> String {
        format!("Deal.parse(\"{}\")", self.0.to_iss())
    }
}

/// The valued outcome of a deal.
#[pyclass(name = "GameResult", module = "skat", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyGameResult(pub GameResult);

#[pymethods]
impl PyGameResult {
    /// Declarer seat, or None when passed (or ended by a penalty before play).
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.declarer
    }
    #[getter]
    fn contract(&self) -> Option<PyContract> {
        self.0.contract.map(PyContract)
    }
    #[getter]
    fn won(&self) -> bool {
        self.0.won
    }
    /// Signed game value as in ISS `v:` (lost: minus twice the value; passed: 0).
    #[getter]
    fn value(&self) -> i32 {
        self.0.value
    }
    /// Signed matadors: with n is +n, without n is -n (0 in null).
    #[getter]
    fn matadors(&self) -> i32 {
        self.0.matadors
    }
    #[getter]
    fn declarer_points(&self) -> u32 {
        self.0.declarer_points
    }
    #[getter]
    fn declarer_tricks(&self) -> u32 {
        self.0.declarer_tricks
    }
    /// Schneider reached in play (either party); announcements are in `contract`.
    #[getter]
    fn schneider(&self) -> bool {
        self.0.schneider
    }
    /// Schwarz reached in play (either party).
    #[getter]
    fn schwarz(&self) -> bool {
        self.0.schwarz
    }
    #[getter]
    fn overbid(&self) -> bool {
        self.0.overbid
    }
    /// The final bid (0 when passed).
    #[getter]
    fn bid(&self) -> u16 {
        self.0.bid
    }
    /// Seeger-Fabian list points per seat.
    #[getter]
    fn scores(&self) -> [i32; 3] {
        self.0.scores
    }
    /// How the deal ended: played, passed, conceded, resigned, timeout, left.
    #[getter]
    fn end(&self) -> &'static str {
        self.0.end.name()
    }
    /// The seat penalised for a time-out or leaving before the declaration.
    #[getter]
    fn penalty(&self) -> Option<u8> {
        self.0.penalty
    }
    #[getter]
    fn passed(&self) -> bool {
        self.0.end == skat_core::EndReason::Passed
    }
    /// Kontra and Re said: 0 none, 1 Kontra, 2 Kontra and Re (the value is doubled per level).
    #[getter]
    fn kontra(&self) -> u8 {
        self.0.kontra
    }
    /// A Bock game (the value is doubled).
    #[getter]
    fn bock(&self) -> bool {
        self.0.bock
    }
    /// A Ramsch's outcome as a dict (``points`` and ``tricks`` per seat, the skat counted,
    /// ``losers``, ``jungfrau``, ``durchmarsch``, ``pushes``), else None.
    #[getter]
    fn ramsch<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.ramsch.map(|o| ramsch_dict(py, &o)).transpose()
    }
    /// The Bock events of this deal (`"60:60"`, `"re"`, `"value"`): each adds a round of three
    /// Bock games to a list played with the Bock variant.
    fn bock_events(&self) -> Vec<&'static str> {
        skat_core::variants::bock_events(&self.0)
    }

    /// The ISS `R[...]` text.
    fn to_iss(&self) -> String {
        self.0.to_iss()
    }

    /// All fields as a dict (JSON-friendly).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = &self.0;
        let d = PyDict::new(py);
        d.set_item("declarer", r.declarer)?;
        d.set_item("contract", r.contract.map(|k| k.token()))?;
        d.set_item("won", r.won)?;
        d.set_item("value", r.value)?;
        d.set_item("matadors", r.matadors)?;
        d.set_item("declarer_points", r.declarer_points)?;
        d.set_item("declarer_tricks", r.declarer_tricks)?;
        d.set_item("schneider", r.schneider)?;
        d.set_item("schwarz", r.schwarz)?;
        d.set_item("overbid", r.overbid)?;
        d.set_item("bid", r.bid)?;
        d.set_item("scores", r.scores.to_vec())?;
        d.set_item("end", r.end.name())?;
        d.set_item("penalty", r.penalty)?;
        d.set_item("kontra", r.kontra)?;
        d.set_item("bock", r.bock)?;
        d.set_item("ramsch", r.ramsch.map(|o| ramsch_dict(py, &o)).transpose()?)?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.0.to_iss()
    }

    fn __repr__(&self) -> String {
        format!("GameResult(\"{}\")", self.0.to_iss())
    }
}

fn ramsch_dict<'py>(
    py: Python<'py>,
    o: &skat_core::ramsch::RamschOutcome,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    // as lists of ints (a Vec<u8> would become bytes)
    d.set_item("points", o.points.map(u32::from).to_vec())?;
    d.set_item("tricks", o.tricks.map(u32::from).to_vec())?;
    d.set_item(
        "losers",
        (0..3u32)
            .filter(|s| o.losers >> s & 1 != 0)
            .collect::<Vec<_>>(),
    )?;
    d.set_item("jungfrau", o.jungfrau)?;
    d.set_item("durchmarsch", o.durchmarsch)?;
    d.set_item("pushes", o.pushes)?;
    Ok(d)
}

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
    #[pyo3(signature = (deal, variants = ""))]
    fn new(deal: PyDeal, variants: &str) -> PyResult<Self> {
        let v = Variants::parse(variants).py_err()?;
        Ok(PyGame(Game::with_variants(deal.0, v)))
    }

    /// Replays an ISS record line through the rules (raises RecordError on any illegal move).
    /// A record without a result leaves the game where the record stops.
    #[staticmethod]
    fn from_iss(line: &str) -> PyResult<Self> {
        let rec = Record::parse(line).py_err()?;
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

    /// The cards the seat to move may play (empty outside card play).
    fn legal_cards(&self) -> PyCards {
        PyCards(self.0.legal_cards())
    }

    /// Applies an action (an Action, a Card or its ISS token). `seat` is needed only for
    /// special moves by a seat not to move (`"RE"`); a rejected action changes nothing.
    #[pyo3(signature = (action, seat=None))]
    fn apply(&mut self, action: ActionArg, seat: Option<u8>) -> PyResult<()> {
        match seat {
            None => self.0.apply(action.0).py_err(),
            Some(s) if s < 3 => self.0.apply_by(Actor::Seat(s), action.0).py_err(),
            Some(s) => Err(crate::error::IllegalActionError::new_err(format!(
                "seat {s} is not 0, 1 or 2"
            ))),
        }
    }

    /// What `seat` may know (own cards, public history, ouvert hands, own skat).
    fn view(&self, seat: u8) -> PyResult<PyView> {
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

/// Card-play sequences from a game in card play to its end, counted by the fast bit-set
/// recursion (`fast=True`) or by applying actions to copies of the game.
#[pyfunction]
#[pyo3(signature = (game, fast=true))]
pub fn perft(py: Python<'_>, game: &PyGame, fast: bool) -> u64 {
    let g = game.0.clone();
    py.allow_threads(move || {
        if fast {
            skat_core::perft::perft_fast(&g)
        } else {
            skat_core::perft::perft_slow(&g)
        }
    })
}

/// One game of uniformly random legal actions from a seed.
#[pyfunction]
pub fn random_game(seed: u64) -> PyGame {
    PyGame(skat_core::simulate::random_game(seed))
}

/// Plays `n` random games inside Rust (GIL released); returns the number of actions applied.
#[pyfunction]
#[pyo3(signature = (n, seed=0))]
pub fn random_games(py: Python<'_>, n: u64, seed: u64) -> u64 {
    py.allow_threads(move || skat_core::simulate::random_games(n, seed))
}

/// The cards a player may play from `hand` to a trick led with `lead` in `game_type`.
#[pyfunction]
#[pyo3(signature = (game_type, hand, lead=None))]
pub fn legal_cards(game_type: PyGameType, hand: CardsArg, lead: Option<CardArg>) -> PyCards {
    PyCards(skat_core::rules::legal_cards(
        game_type.into(),
        hand.0,
        lead.map(|c| c.0),
    ))
}

/// Index (0..3) of the winning card of a trick (led by the first card).
#[pyfunction]
pub fn trick_winner(game_type: PyGameType, cards: Vec<CardArg>) -> PyResult<usize> {
    if cards.is_empty() || cards.len() > 3 {
        return Err(crate::error::InvalidCardsError::new_err(
            "a trick has one to three cards",
        ));
    }
    let v: Vec<skat_core::Card> = cards.into_iter().map(|c| c.0).collect();
    Ok(skat_core::rules::trick_winner(game_type.into(), &v))
}

/// Trick-taking power of `card` in a trick led with `lead` (higher beats lower): trumps
/// 16 and up, cards of the led suit 1..8, other cards 0.
#[pyfunction]
pub fn card_power(game_type: PyGameType, card: CardArg, lead: CardArg) -> u8 {
    let gt: skat_core::GameType = game_type.into();
    gt.power(card.0, gt.follow_group(lead.0))
}

/// Signed matadors of a set of cards (with n: +n, without n: -n; 0 in null).
#[pyfunction]
pub fn matadors(game_type: PyGameType, cards: CardsArg) -> i32 {
    skat_core::rules::matadors(game_type.into(), cards.0)
}

/// The 63 legal bids.
#[pyfunction]
pub fn bids() -> Vec<u16> {
    skat_core::rules::BIDS.to_vec()
}
