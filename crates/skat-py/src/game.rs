//! Python classes for contracts, actions, deals, games, views and results: conversions only.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use skat_core::{Action, Contract, Deal, GameResult, Phase};

use crate::args::{text, Text};
use crate::cards::{hands_tuple, CardsArg, HandsArg, PyCard, PyCards, PyGameType};
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
    fn parse(token: Text) -> PyResult<Self> {
        Ok(PyContract(Contract::parse(&token).py_err()?))
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
    fn value(
        &self,
        #[pyo3(from_py_with = "crate::args::matadors_arg")] matadors: i32,
        schneider: bool,
        schwarz: bool,
    ) -> i32 {
        self.0.value(matadors, schneider, schwarz)
    }

    /// What the game is charged when lost as overbid at `bid`: the smallest multiple of the
    /// base value that reaches the bid (suit and grand; 0..=264).
    fn overbid_value(&self, #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16) -> i32 {
        self.0.overbid_value(bid)
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
    fn new(token: Text) -> PyResult<Self> {
        Ok(PyAction(Action::parse(&token).py_err()?))
    }

    /// Parses an ISS move token.
    #[staticmethod]
    fn parse(token: Text) -> PyResult<Self> {
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
            return Ok(ActionArg(Action::parse(&text(s)?).py_err()?));
        }
        Err(PyTypeError::new_err(format!(
            "expected an Action or an ISS move token like \"18\" or \"CJ\", got {}",
            ob.get_type().name()?
        )))
    }
}

pub(crate) fn actions(v: Vec<Action>) -> Vec<PyAction> {
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
    fn new(hands: HandsArg, skat: CardsArg) -> PyResult<Self> {
        Ok(PyDeal(Deal::new(hands.0, skat.0).py_err()?))
    }

    /// A uniformly random deal, reproducible from the seed.
    #[staticmethod]
    fn random(#[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64) -> Self {
        PyDeal(Deal::random(seed))
    }

    /// Parses the ISS deal token (32 dotted cards: forehand, middlehand, rearhand, skat).
    #[staticmethod]
    fn parse(token: Text) -> PyResult<Self> {
        Ok(PyDeal(Deal::parse_iss(&token).py_err()?))
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
