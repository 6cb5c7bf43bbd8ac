//! Python classes for suits, ranks, game types, cards and card sets.

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyString, PyTuple};
use skat_core::{Card, Cards, GameType, Rank, Suit};

use crate::args::{text, Text};
use crate::error::{IntoPyResult, InvalidCardsError};

#[pyclass(name = "Suit", module = "skat", eq, eq_int, frozen, hash, ord)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PySuit {
    #[pyo3(name = "DIAMONDS")]
    Diamonds = 0,
    #[pyo3(name = "HEARTS")]
    Hearts = 1,
    #[pyo3(name = "SPADES")]
    Spades = 2,
    #[pyo3(name = "CLUBS")]
    Clubs = 3,
}

impl From<Suit> for PySuit {
    fn from(s: Suit) -> Self {
        match s {
            Suit::Diamonds => PySuit::Diamonds,
            Suit::Hearts => PySuit::Hearts,
            Suit::Spades => PySuit::Spades,
            Suit::Clubs => PySuit::Clubs,
        }
    }
}

impl From<PySuit> for Suit {
    fn from(s: PySuit) -> Self {
        Suit::from_index(s as u8)
    }
}

#[pymethods]
impl PySuit {
    /// The ISS letter (`C`, `S`, `H`, `D`).
    #[getter]
    fn letter(&self) -> String {
        Suit::from(*self).letter().to_string()
    }

    /// The eight cards of this suit.
    fn cards(&self) -> PyCards {
        PyCards(Suit::from(*self).cards())
    }

    fn __str__(&self) -> String {
        self.letter()
    }
}

#[pyclass(name = "Rank", module = "skat", eq, eq_int, frozen, hash, ord)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PyRank {
    #[pyo3(name = "SEVEN")]
    Seven = 0,
    #[pyo3(name = "EIGHT")]
    Eight = 1,
    #[pyo3(name = "NINE")]
    Nine = 2,
    #[pyo3(name = "TEN")]
    Ten = 3,
    #[pyo3(name = "JACK")]
    Jack = 4,
    #[pyo3(name = "QUEEN")]
    Queen = 5,
    #[pyo3(name = "KING")]
    King = 6,
    #[pyo3(name = "ACE")]
    Ace = 7,
}

impl From<Rank> for PyRank {
    fn from(r: Rank) -> Self {
        [
            PyRank::Seven,
            PyRank::Eight,
            PyRank::Nine,
            PyRank::Ten,
            PyRank::Jack,
            PyRank::Queen,
            PyRank::King,
            PyRank::Ace,
        ][r as usize]
    }
}

impl From<PyRank> for Rank {
    fn from(r: PyRank) -> Self {
        Rank::from_index(r as u8)
    }
}

#[pymethods]
impl PyRank {
    /// The ISS letter (`A T K Q J 9 8 7`).
    #[getter]
    fn letter(&self) -> String {
        Rank::from(*self).letter().to_string()
    }

    /// Card points of this rank.
    #[getter]
    fn points(&self) -> u8 {
        Rank::from(*self).points()
    }

    fn __str__(&self) -> String {
        self.letter()
    }
}

#[pyclass(name = "GameType", module = "skat", eq, eq_int, frozen, hash, ord)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PyGameType {
    #[pyo3(name = "DIAMONDS")]
    Diamonds = 0,
    #[pyo3(name = "HEARTS")]
    Hearts = 1,
    #[pyo3(name = "SPADES")]
    Spades = 2,
    #[pyo3(name = "CLUBS")]
    Clubs = 3,
    #[pyo3(name = "GRAND")]
    Grand = 4,
    #[pyo3(name = "NULL")]
    Null = 5,
}

impl From<GameType> for PyGameType {
    fn from(g: GameType) -> Self {
        [
            PyGameType::Diamonds,
            PyGameType::Hearts,
            PyGameType::Spades,
            PyGameType::Clubs,
            PyGameType::Grand,
            PyGameType::Null,
        ][g as usize]
    }
}

impl From<PyGameType> for GameType {
    fn from(g: PyGameType) -> Self {
        GameType::from_index(g as u8).expect("enum values match")
    }
}

#[pymethods]
impl PyGameType {
    /// The ISS letter (`D H S C G N`).
    #[getter]
    fn letter(&self) -> String {
        GameType::from(*self).letter().to_string()
    }

    /// Base value: 9/10/11/12 for suits, 24 grand, 23 null.
    #[getter]
    fn base_value(&self) -> u32 {
        GameType::from(*self).base_value()
    }

    /// The game class: `suit`, `grand` or `null`.
    #[getter]
    fn class_name(&self) -> &'static str {
        GameType::from(*self).class_name()
    }

    /// The trump cards of this game type (empty for null).
    fn trumps(&self) -> PyCards {
        PyCards(GameType::from(*self).trumps())
    }

    /// Parses an ISS game letter.
    #[staticmethod]
    fn parse(letter: Text) -> PyResult<PyGameType> {
        let mut it = letter.chars();
        match (it.next().and_then(GameType::from_letter), it.next()) {
            (Some(g), None) => Ok(g.into()),
            _ => Err(skat_core::SkatError::parse(
                "game type letter (D H S C G N)",
                &letter,
            ))
            .py_err(),
        }
    }

    fn __str__(&self) -> &'static str {
        GameType::from(*self).name()
    }
}

/// One playing card. `Card("CJ")`, `Card.parse("CJ")`; `str(card) == "CJ"`.
#[pyclass(name = "Card", module = "skat", frozen)]
#[derive(Clone, Copy)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: Text) -> PyResult<Self> {
        Ok(PyCard(Card::parse(&text).py_err()?))
    }

    /// Parses an ISS card token such as `"CJ"` or `"H7"`.
    #[staticmethod]
    fn parse(text: Text) -> PyResult<Self> {
        Self::new(text)
    }

    /// The card with index 0..32 (`suit * 8 + rank`).
    #[staticmethod]
    fn from_index(#[pyo3(from_py_with = "crate::args::u8_arg")] index: u8) -> PyResult<Self> {
        if index >= 32 {
            return Err(InvalidCardsError::new_err(format!(
                "card index {index} is not in 0..32"
            )));
        }
        Ok(PyCard(Card::from_index(index)))
    }

    /// All 32 cards.
    #[staticmethod]
    fn all() -> Vec<PyCard> {
        Card::all().map(PyCard).collect()
    }

    #[getter]
    fn suit(&self) -> PySuit {
        self.0.suit().into()
    }

    #[getter]
    fn rank(&self) -> PyRank {
        self.0.rank().into()
    }

    #[getter]
    fn points(&self) -> u8 {
        self.0.points()
    }

    #[getter]
    fn index(&self) -> u8 {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card(\"{}\")", self.0)
    }

    fn __hash__(&self) -> u64 {
        self.0.index() as u64
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<PyObject> {
        let py = other.py();
        let Ok(o) = other.extract::<PyCard>() else {
            return Ok(match op {
                CompareOp::Eq => false.into_pyobject(py)?.to_owned().into_any().unbind(),
                CompareOp::Ne => true.into_pyobject(py)?.to_owned().into_any().unbind(),
                _ => py.NotImplemented(),
            });
        };
        Ok(op
            .matches(self.0.index().cmp(&o.0.index()))
            .into_pyobject(py)?
            .to_owned()
            .into_any()
            .unbind())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String,))> {
        Ok((
            py.get_type::<PyCard>().into_any().unbind(),
            (self.0.to_string(),),
        ))
    }
}

/// A card given as a `Card` or its text.
pub struct CardArg(pub Card);

impl<'py> FromPyObject<'py> for CardArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(c) = ob.extract::<PyCard>() {
            return Ok(CardArg(c.0));
        }
        if let Ok(s) = ob.downcast::<PyString>() {
            return Ok(CardArg(Card::parse(&text(s)?).py_err()?));
        }
        Err(PyTypeError::new_err(format!(
            "expected a Card or a card text like \"CJ\", got {}",
            ob.get_type().name()?
        )))
    }
}

/// A set of cards given as `Cards`, a text (`"CJ SJ"`), or an iterable of cards / card texts.
pub struct CardsArg(pub Cards);

impl<'py> FromPyObject<'py> for CardsArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(c) = ob.extract::<PyCards>() {
            return Ok(CardsArg(c.0));
        }
        if let Ok(s) = ob.downcast::<PyString>() {
            return Ok(CardsArg(Cards::parse(&text(s)?).py_err()?));
        }
        let Ok(iter) = PyIterator::from_object(ob) else {
            return Err(PyTypeError::new_err(format!(
                "expected Cards, a text like \"CJ SJ\" or an iterable of cards, got {}",
                ob.get_type().name()?
            )));
        };
        let mut set = Cards::EMPTY;
        for item in iter {
            let c = item?.extract::<CardArg>()?.0;
            if set.contains(c) {
                return Err(InvalidCardsError::new_err(format!(
                    "card {c} appears twice"
                )));
            }
            set = set.with(c);
        }
        Ok(CardsArg(set))
    }
}

/// An immutable set of cards (a 32-bit set). Iterates in a fixed order, clubs ace first.
///
/// >>> Cards("CJ SJ HA") | Cards("D7")
/// Cards("CJ SJ HA D7")
#[pyclass(name = "Cards", module = "skat", frozen)]
#[derive(Clone, Copy)]
pub struct PyCards(pub Cards);

#[pymethods]
impl PyCards {
    #[new]
    #[pyo3(signature = (cards=None))]
    fn new(cards: Option<CardsArg>) -> Self {
        PyCards(cards.map_or(Cards::EMPTY, |c| c.0))
    }

    /// Parses space- or dot-separated card texts; duplicates are an error.
    #[staticmethod]
    fn parse(text: Text) -> PyResult<Self> {
        Ok(PyCards(Cards::parse(&text).py_err()?))
    }

    /// The set with the given 32-bit mask.
    #[staticmethod]
    fn from_bits(#[pyo3(from_py_with = "crate::args::u32_arg")] bits: u32) -> Self {
        PyCards(Cards(bits))
    }

    /// The set of all 32 cards.
    #[staticmethod]
    fn all() -> Self {
        PyCards(Cards::ALL)
    }

    #[getter]
    fn bits(&self) -> u32 {
        self.0.bits()
    }

    /// Total card points.
    #[getter]
    fn points(&self) -> u32 {
        self.0.points()
    }

    /// The cards sorted as a player holds them for a game type (default: grand order).
    #[pyo3(signature = (game_type=None))]
    fn sorted(&self, game_type: Option<PyGameType>) -> Vec<PyCard> {
        skat_core::rules::display_order(game_type.map(GameType::from), self.0)
            .into_iter()
            .map(PyCard)
            .collect()
    }

    fn issubset(&self, other: CardsArg) -> bool {
        self.0.is_subset(other.0)
    }

    fn isdisjoint(&self, other: CardsArg) -> bool {
        self.0.is_disjoint(other.0)
    }

    fn __len__(&self) -> usize {
        self.0.len() as usize
    }

    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __contains__(&self, card: CardArg) -> bool {
        self.0.contains(card.0)
    }

    fn __iter__(&self) -> CardsIter {
        CardsIter(self.0.iter())
    }

    fn __or__(&self, other: CardsArg) -> Self {
        PyCards(self.0 | other.0)
    }

    fn __ror__(&self, other: CardsArg) -> Self {
        PyCards(self.0 | other.0)
    }

    fn __and__(&self, other: CardsArg) -> Self {
        PyCards(self.0 & other.0)
    }

    fn __rand__(&self, other: CardsArg) -> Self {
        PyCards(self.0 & other.0)
    }

    fn __sub__(&self, other: CardsArg) -> Self {
        PyCards(self.0 - other.0)
    }

    fn __rsub__(&self, other: CardsArg) -> Self {
        PyCards(other.0 - self.0)
    }

    fn __xor__(&self, other: CardsArg) -> Self {
        PyCards(Cards(self.0.bits() ^ other.0.bits()))
    }

    fn __rxor__(&self, other: CardsArg) -> Self {
        PyCards(Cards(self.0.bits() ^ other.0.bits()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<PyCards>().is_ok_and(|o| o.0 == self.0)
    }

    fn __hash__(&self) -> u64 {
        self.0.bits() as u64
    }

    fn __str__(&self) -> String {
        self.0.to_tokens(" ")
    }

    fn __repr__(&self) -> String {
        format!("Cards(\"{}\")", self.0.to_tokens(" "))
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String,))> {
        Ok((
            py.get_type::<PyCards>().into_any().unbind(),
            (self.0.to_tokens(" "),),
        ))
    }
}

/// `ob` as a tuple of `len` items (`what` names them). Anything but a tuple raises `TypeError`,
/// a tuple of another length `InvalidCardsError` (PyO3's own tuple extraction raised a plain
/// `ValueError`).
pub fn tuple_of<'py>(
    ob: &Bound<'py, PyAny>,
    len: std::ops::RangeInclusive<usize>,
    what: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let t = ob.downcast::<PyTuple>()?;
    if !len.contains(&t.len()) {
        return Err(InvalidCardsError::new_err(format!(
            "expected {what}, got a tuple of {}",
            t.len()
        )));
    }
    Ok(t.clone())
}

/// Three hands (seats 0, 1, 2) given as a tuple of three card sets (each as for `CardsArg`).
pub struct HandsArg(pub [Cards; 3]);

impl<'py> FromPyObject<'py> for HandsArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let t = tuple_of(ob, 3..=3, "three hands (seats 0, 1, 2)")?;
        let hand = |i: usize| -> PyResult<Cards> { Ok(t.get_item(i)?.extract::<CardsArg>()?.0) };
        Ok(HandsArg([hand(0)?, hand(1)?, hand(2)?]))
    }
}

/// The world held in the first two items of `t`: `(hands, skat, ...)`.
pub fn world_of(t: &Bound<'_, PyTuple>) -> PyResult<skat_core::sampling::World> {
    let hands: HandsArg = t.get_item(0)?.extract()?;
    let skat: CardsArg = t.get_item(1)?.extract()?;
    Ok(skat_core::sampling::World {
        hands: hands.0,
        skat: skat.0,
    })
}

/// Three hands (seats 0, 1, 2) as a Python tuple of `Cards`.
pub fn hands_tuple(h: [Cards; 3]) -> (PyCards, PyCards, PyCards) {
    (PyCards(h[0]), PyCards(h[1]), PyCards(h[2]))
}

#[pyclass(name = "_CardsIter", module = "skat")]
pub struct CardsIter(skat_core::cards::CardIter);

#[pymethods]
impl CardsIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<PyCard> {
        self.0.next().map(PyCard)
    }
}
