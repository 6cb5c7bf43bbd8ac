//! A deal: three hands of ten cards (forehand, middlehand, rearhand) and the two-card skat.

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pub hands: [Cards; 3],
    pub skat: Cards,
}

impl Deal {
    /// Checks sizes (10, 10, 10, 2) and that no card is dealt twice.
    pub fn new(hands: [Cards; 3], skat: Cards) -> Result<Deal, SkatError> {
        for (i, h) in hands.iter().enumerate() {
            if h.len() != 10 {
                return Err(SkatError::InvalidCards(format!(
                    "hand {i} has {} cards, not 10: {h}",
                    h.len()
                )));
            }
        }
        if skat.len() != 2 {
            return Err(SkatError::InvalidCards(format!(
                "the skat has {} cards, not 2: {skat}",
                skat.len()
            )));
        }
        let parts = [hands[0], hands[1], hands[2], skat];
        for i in 0..4 {
            for j in i + 1..4 {
                let both = parts[i] & parts[j];
                if !both.is_empty() {
                    return Err(SkatError::InvalidCards(format!(
                        "cards dealt twice: {both}"
                    )));
                }
            }
        }
        Ok(Deal { hands, skat })
    }

    /// A uniformly random deal from a seed.
    pub fn random(seed: u64) -> Deal {
        let mut rng = Rng::new(seed);
        Deal::random_with(&mut rng)
    }

    pub fn random_with(rng: &mut Rng) -> Deal {
        let mut cards: Vec<Card> = Card::all().collect();
        rng.shuffle(&mut cards);
        Deal::from_order(&cards).expect("a shuffled deck is a deal")
    }

    /// Deals 32 cards in ISS order: forehand 10, middlehand 10, rearhand 10, skat 2.
    pub fn from_order(cards: &[Card]) -> Result<Deal, SkatError> {
        if cards.len() != 32 {
            return Err(SkatError::InvalidCards(format!(
                "a deal has 32 cards, not {}",
                cards.len()
            )));
        }
        let set = |s: &[Card]| -> Cards { s.iter().copied().collect() };
        Deal::new(
            [set(&cards[0..10]), set(&cards[10..20]), set(&cards[20..30])],
            set(&cards[30..32]),
        )
    }

    /// Parses the ISS deal token `C7.SA....` (32 cards separated by dots).
    pub fn parse_iss(token: &str) -> Result<Deal, SkatError> {
        let cards: Result<Vec<Card>, SkatError> = token.split('.').map(Card::parse).collect();
        Deal::from_order(&cards?)
    }

    /// The ISS deal token, each hand in the card set's iteration order.
    pub fn to_iss(&self) -> String {
        let parts: Vec<String> = [self.hands[0], self.hands[1], self.hands[2], self.skat]
            .iter()
            .map(|h| h.to_tokens("."))
            .collect();
        parts.join(".")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_deals_are_valid_and_reproducible() {
        for seed in 0..200 {
            let d = Deal::random(seed);
            assert_eq!(d, Deal::random(seed));
            assert_eq!(d.hands[0] | d.hands[1] | d.hands[2] | d.skat, Cards::ALL);
            assert_eq!(Deal::parse_iss(&d.to_iss()).unwrap(), d);
        }
        assert_ne!(Deal::random(1), Deal::random(2));
    }

    #[test]
    fn rejects_bad_deals() {
        let d = Deal::random(3);
        assert!(Deal::new([d.hands[0], d.hands[0], d.hands[2]], d.skat).is_err());
        assert!(Deal::parse_iss("CJ.SJ").is_err());
        let mut tok = d.to_iss();
        tok.replace_range(0..2, "XX");
        assert!(Deal::parse_iss(&tok).is_err());
    }
}
