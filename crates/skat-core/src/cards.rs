//! Cards, suits, ranks and the 32-bit card set.
//!
//! A card is a number 0..32: `suit * 8 + rank`, suits ordered diamonds < hearts < spades <
//! clubs and ranks in face order 7 8 9 T J Q K A. A set of cards is a `u32` bit set
//! ([`Cards`]); bit `i` holds card `i`, so each suit is one byte. Everything above this module
//! (rules, game, solver, sampling) works on these bit sets.

use std::fmt;
use std::str::FromStr;

use crate::error::SkatError;

/// The four suits, in ascending Skat order (clubs is highest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    Diamonds = 0,
    Hearts = 1,
    Spades = 2,
    Clubs = 3,
}

impl Suit {
    /// All suits from clubs down to diamonds (display order).
    pub const DESCENDING: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    pub fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Diamonds,
            1 => Suit::Hearts,
            2 => Suit::Spades,
            _ => Suit::Clubs,
        }
    }

    /// The ISS letter: `C`, `S`, `H` or `D`.
    pub fn letter(self) -> char {
        ['D', 'H', 'S', 'C'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c {
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// The eight cards of this suit (jacks included).
    pub fn cards(self) -> Cards {
        Cards(0xFF << (8 * self as u32))
    }
}

/// The eight ranks in face order (the order of null games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    Seven = 0,
    Eight = 1,
    Nine = 2,
    Ten = 3,
    Jack = 4,
    Queen = 5,
    King = 6,
    Ace = 7,
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    pub fn from_index(i: u8) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    /// The ISS letter: `A T K Q J 9 8 7`.
    pub fn letter(self) -> char {
        ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<Rank> {
        match c {
            '7' => Some(Rank::Seven),
            '8' => Some(Rank::Eight),
            '9' => Some(Rank::Nine),
            'T' => Some(Rank::Ten),
            'J' => Some(Rank::Jack),
            'Q' => Some(Rank::Queen),
            'K' => Some(Rank::King),
            'A' => Some(Rank::Ace),
            _ => None,
        }
    }

    /// Card points: A 11, T 10, K 4, Q 3, J 2, others 0.
    pub fn points(self) -> u8 {
        [0, 0, 0, 10, 2, 3, 4, 11][self as usize]
    }

    /// The four cards of this rank.
    pub fn cards(self) -> Cards {
        Cards(0x0101_0101 << self as u32)
    }
}

/// One of the 32 cards, `suit * 8 + rank`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 8 + rank as u8)
    }

    /// The card with index `i` (0..32).
    pub fn from_index(i: u8) -> Card {
        debug_assert!(i < 32);
        Card(i & 31)
    }

    pub fn index(self) -> u8 {
        self.0
    }

    pub fn suit(self) -> Suit {
        Suit::from_index(self.0 >> 3)
    }

    pub fn rank(self) -> Rank {
        Rank::from_index(self.0 & 7)
    }

    pub fn points(self) -> u8 {
        self.rank().points()
    }

    pub fn bit(self) -> u32 {
        1 << self.0
    }

    /// Parses `CJ`, `HA`, `D7` ... (suit letter then rank letter, as on ISS).
    pub fn parse(s: &str) -> Result<Card, SkatError> {
        let mut chars = s.chars();
        let (Some(sc), Some(rc), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(SkatError::parse("card", s));
        };
        match (Suit::from_letter(sc), Rank::from_letter(rc)) {
            (Some(suit), Some(rank)) => Ok(Card::new(suit, rank)),
            _ => Err(SkatError::parse("card", s)),
        }
    }

    /// All 32 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..32).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit().letter(), self.rank().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl FromStr for Card {
    type Err = SkatError;
    fn from_str(s: &str) -> Result<Card, SkatError> {
        Card::parse(s)
    }
}

/// A set of cards as a 32-bit set. Iterates from the highest index down (clubs ace first).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Cards(pub u32);

impl Cards {
    pub const EMPTY: Cards = Cards(0);
    pub const ALL: Cards = Cards(u32::MAX);
    /// The four jacks.
    pub const JACKS: Cards = Cards(0x1010_1010);

    pub fn bits(self) -> u32 {
        self.0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    pub fn with(self, card: Card) -> Cards {
        Cards(self.0 | card.bit())
    }

    pub fn without(self, card: Card) -> Cards {
        Cards(self.0 & !card.bit())
    }

    pub fn union(self, other: Cards) -> Cards {
        Cards(self.0 | other.0)
    }

    pub fn intersection(self, other: Cards) -> Cards {
        Cards(self.0 & other.0)
    }

    pub fn difference(self, other: Cards) -> Cards {
        Cards(self.0 & !other.0)
    }

    pub fn is_disjoint(self, other: Cards) -> bool {
        self.0 & other.0 == 0
    }

    pub fn is_subset(self, other: Cards) -> bool {
        self.0 & !other.0 == 0
    }

    /// The highest card (by index), if any.
    pub fn highest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(31 - self.0.leading_zeros() as u8))
        }
    }

    /// The lowest card (by index), if any.
    pub fn lowest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// Sum of card points.
    pub fn points(self) -> u32 {
        // Per rank: T 10, J 2, Q 3, K 4, A 11.
        let count = |r: Rank| (self.0 & r.cards().0).count_ones();
        count(Rank::Ten) * 10
            + count(Rank::Jack) * 2
            + count(Rank::Queen) * 3
            + count(Rank::King) * 4
            + count(Rank::Ace) * 11
    }

    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// Parses space- or dot-separated card tokens: `"CJ SJ HA"` or `"CJ.SJ.HA"`.
    /// Duplicates are an error.
    pub fn parse(s: &str) -> Result<Cards, SkatError> {
        let mut set = Cards::EMPTY;
        for tok in s.split(|c: char| c.is_whitespace() || c == '.' || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let card = Card::parse(tok)?;
            if set.contains(card) {
                return Err(SkatError::InvalidCards(format!(
                    "card {card} appears twice in {s:?}"
                )));
            }
            set = set.with(card);
        }
        Ok(set)
    }

    /// Space-separated tokens in iteration order.
    pub fn to_tokens(self, sep: &str) -> String {
        self.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Cards {
        let mut set = Cards::EMPTY;
        for c in iter {
            set = set.with(c);
        }
        set
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_tokens(" "))
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({:?})", self.to_tokens(" "))
    }
}

impl std::ops::BitOr for Cards {
    type Output = Cards;
    fn bitor(self, o: Cards) -> Cards {
        Cards(self.0 | o.0)
    }
}

impl std::ops::BitAnd for Cards {
    type Output = Cards;
    fn bitand(self, o: Cards) -> Cards {
        Cards(self.0 & o.0)
    }
}

impl std::ops::Sub for Cards {
    type Output = Cards;
    fn sub(self, o: Cards) -> Cards {
        Cards(self.0 & !o.0)
    }
}

impl std::ops::Not for Cards {
    type Output = Cards;
    fn not(self) -> Cards {
        Cards(!self.0)
    }
}

impl IntoIterator for Cards {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

/// Iterates a card set from the highest index to the lowest.
#[derive(Clone)]
pub struct CardIter(u32);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = 31 - self.0.leading_zeros();
        self.0 &= !(1 << i);
        Some(Card(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_every_card() {
        for c in Card::all() {
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
        }
        assert_eq!(
            Card::parse("CJ").unwrap(),
            Card::new(Suit::Clubs, Rank::Jack)
        );
        assert!(Card::parse("XJ").is_err());
        assert!(Card::parse("C1").is_err());
        assert!(Card::parse("CJJ").is_err());
        assert!(Card::parse("").is_err());
    }

    #[test]
    fn points_total_120() {
        assert_eq!(Cards::ALL.points(), 120);
        let sum: u32 = Card::all().map(|c| c.points() as u32).sum();
        assert_eq!(sum, 120);
    }

    #[test]
    fn iteration_is_descending() {
        let s = Cards::parse("D7 CJ HA").unwrap();
        assert_eq!(s.to_tokens(" "), "CJ HA D7");
        assert_eq!(s.len(), 3);
        assert!(Cards::parse("CJ CJ").is_err());
    }

    #[test]
    fn jacks_mask() {
        let j: Cards = Suit::DESCENDING
            .iter()
            .map(|s| Card::new(*s, Rank::Jack))
            .collect();
        assert_eq!(j, Cards::JACKS);
        assert_eq!(Rank::Jack.cards(), Cards::JACKS);
    }
}
