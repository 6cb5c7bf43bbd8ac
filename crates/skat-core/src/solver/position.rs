//! A card-play position as the solver sees it: the three remaining hands, the contract, the
//! declarer, the leader of the current trick and the cards already in it, and what the
//! declarer has won so far. Construction checks the position completely, so the search never
//! meets an inconsistent state.

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::game::{Game, Phase};
use crate::rules::{legal_cards, trick_winner, Contract, GameType};

/// A position in the card play of one game (start of a trick or in the middle of one).
///
/// `declarer_points` already includes the skat (or the discard). In null games
/// `declarer_points` is ignored and `declarer_tricks` must be 0 (the game ends at the
/// declarer's first trick); positions reached by [`Position::play`] after such a trick are
/// *over* and carry the number of that trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    hands: [Cards; 3],
    contract: Contract,
    declarer: u8,
    leader: u8,
    trick: [Option<Card>; 2],
    declarer_points: u32,
    declarer_tricks: u32,
    /// Null only: the trick (1..=10) the declarer has already taken, 0 if none.
    null_lost: u8,
}

fn invalid(msg: String) -> SkatError {
    SkatError::InvalidPosition(msg)
}

impl Position {
    /// Builds and checks a position. `trick` holds the cards already played to the current
    /// trick, in order, the first one by `leader`.
    pub fn new(
        hands: [Cards; 3],
        contract: Contract,
        declarer: u8,
        leader: u8,
        trick: &[Card],
        declarer_points: u32,
        declarer_tricks: u32,
    ) -> Result<Position, SkatError> {
        if declarer > 2 {
            return Err(invalid(format!(
                "declarer seat {declarer} is not 0, 1 or 2"
            )));
        }
        if leader > 2 {
            return Err(invalid(format!("leader seat {leader} is not 0, 1 or 2")));
        }
        if trick.len() > 2 {
            return Err(invalid(format!(
                "a trick in progress holds at most 2 cards, got {} (a complete trick must be resolved first)",
                trick.len()
            )));
        }
        // every card at most once
        let mut seen = Cards::EMPTY;
        for (i, h) in hands.iter().enumerate() {
            let both = seen & *h;
            if !both.is_empty() {
                return Err(invalid(format!("cards in two hands (seat {i}): {both}")));
            }
            seen = seen | *h;
        }
        for &c in trick {
            if seen.contains(c) {
                return Err(invalid(format!("card {c} of the trick appears twice")));
            }
            seen = seen.with(c);
        }
        // hand sizes: k cards per hand at the start of the trick
        let tlen = trick.len();
        let k = hands[leader as usize].len() as usize + usize::from(tlen > 0);
        if k > 10 {
            return Err(invalid(format!("seat {leader} holds more than 10 cards")));
        }
        for i in 0..3usize {
            let seat = (leader as usize + i) % 3;
            let want = if i < tlen { k - 1 } else { k };
            let have = hands[seat].len() as usize;
            if have != want {
                return Err(invalid(format!(
                    "seat {seat} holds {have} cards, expected {want} (leader {leader} with {} cards, {tlen} in the trick)",
                    hands[leader as usize].len()
                )));
            }
        }
        // the trick must have been played legally
        let gt = contract.game_type;
        for i in 1..tlen {
            let seat = (leader as usize + i) % 3;
            let follow = gt.follow_group(trick[0]);
            if !follow.contains(trick[i]) && !(hands[seat] & follow).is_empty() {
                return Err(invalid(format!(
                    "seat {seat} played {} to a trick led with {} while holding {}",
                    trick[i],
                    trick[0],
                    hands[seat] & follow
                )));
            }
        }
        let in_play = seen.points();
        if gt.is_null() {
            if declarer_tricks > 0 {
                return Err(invalid(
                    "null declarer has already taken a trick: the game is over".to_string(),
                ));
            }
        } else if declarer_points.saturating_add(in_play) > 120 {
            return Err(invalid(format!(
                "declarer_points {declarer_points} plus the {in_play} points still in play exceed 120"
            )));
        }
        let done = 10 - k as u32;
        if declarer_tricks > done {
            return Err(invalid(format!(
                "declarer_tricks {declarer_tricks} but only {done} tricks are complete"
            )));
        }
        let mut t = [None, None];
        for (i, &c) in trick.iter().enumerate() {
            t[i] = Some(c);
        }
        Ok(Position {
            hands,
            contract,
            declarer,
            leader,
            trick: t,
            declarer_points: if gt.is_null() { 0 } else { declarer_points },
            declarer_tricks,
            null_lost: 0,
        })
    }

    /// The position of a game in its play phase.
    pub fn from_game(game: &Game) -> Result<Position, SkatError> {
        if game.phase() != Phase::Playing {
            return Err(invalid(format!(
                "the game is in phase {}, not in card play",
                game.phase()
            )));
        }
        let contract = game
            .contract()
            .ok_or_else(|| invalid("no contract".to_string()))?;
        let declarer = game
            .declarer()
            .ok_or_else(|| invalid("no declarer".to_string()))?;
        Position::new(
            game.hands(),
            contract,
            declarer,
            game.leader(),
            game.current_trick(),
            game.declarer_points(),
            game.declarer_tricks(),
        )
    }

    pub fn hands(&self) -> [Cards; 3] {
        self.hands
    }
    pub fn contract(&self) -> Contract {
        self.contract
    }
    pub fn game_type(&self) -> GameType {
        self.contract.game_type
    }
    pub fn declarer(&self) -> u8 {
        self.declarer
    }
    pub fn leader(&self) -> u8 {
        self.leader
    }
    pub fn declarer_points(&self) -> u32 {
        self.declarer_points
    }
    pub fn declarer_tricks(&self) -> u32 {
        self.declarer_tricks
    }

    /// The cards already played to the current trick, in order.
    pub fn trick(&self) -> Vec<Card> {
        self.trick.iter().flatten().copied().collect()
    }

    /// The cards already played to the current trick, as a set (no allocation).
    pub fn trick_cards(&self) -> crate::cards::Cards {
        self.trick.iter().flatten().copied().collect()
    }

    pub(crate) fn trick_len(&self) -> usize {
        self.trick.iter().flatten().count()
    }

    /// Cards per hand at the start of the current trick (0 when all cards are played).
    pub fn cards_per_hand(&self) -> u32 {
        self.hands[self.leader as usize].len() + u32::from(self.trick_len() > 0)
    }

    /// The number (1..=10, counted from the game's first trick) of the current trick.
    pub fn trick_number(&self) -> u32 {
        11 - self.cards_per_hand()
    }

    /// Null only: the trick the declarer has taken (the game is over), 0 if none.
    pub fn null_lost_at(&self) -> u32 {
        self.null_lost as u32
    }

    /// True when no card is left to play, or a null declarer has taken a trick.
    pub fn is_over(&self) -> bool {
        self.null_lost > 0 || self.cards_per_hand() == 0
    }

    /// The seat to move.
    pub fn to_move(&self) -> u8 {
        (self.leader + self.trick_len() as u8) % 3
    }

    /// The cards the seat to move may play (empty when the game is over).
    pub fn legal_cards(&self) -> Cards {
        if self.is_over() {
            return Cards::EMPTY;
        }
        legal_cards(
            self.game_type(),
            self.hands[self.to_move() as usize],
            self.trick[0],
        )
    }

    /// Card points still in play (hands and the current trick).
    pub fn points_in_play(&self) -> u32 {
        let t: Cards = self.trick.iter().flatten().copied().collect();
        (self.hands[0] | self.hands[1] | self.hands[2] | t).points()
    }

    /// The position after the seat to move plays `card`.
    pub fn play(&self, card: Card) -> Result<Position, SkatError> {
        if !self.legal_cards().contains(card) {
            return Err(invalid(format!(
                "{card} is not a legal card for seat {} here (legal: {})",
                self.to_move(),
                self.legal_cards()
            )));
        }
        let mut p = *self;
        let seat = self.to_move() as usize;
        p.hands[seat] = p.hands[seat].without(card);
        let tlen = self.trick_len();
        if tlen < 2 {
            p.trick[tlen] = Some(card);
            return Ok(p);
        }
        let cards = [self.trick[0].unwrap(), self.trick[1].unwrap(), card];
        let gt = self.game_type();
        let winner = (self.leader as usize + trick_winner(gt, &cards)) % 3;
        let trick_no = self.trick_number();
        p.trick = [None, None];
        p.leader = winner as u8;
        if winner == self.declarer as usize {
            p.declarer_tricks += 1;
            if gt.is_null() {
                p.null_lost = trick_no as u8;
            } else {
                p.declarer_points += cards.iter().map(|c| c.points() as u32).sum::<u32>();
            }
        }
        Ok(p)
    }

    /// The value of a finished position on the solver's scale (see [`crate::solver::solve`]).
    pub fn final_value(&self) -> Option<i32> {
        if self.game_type().is_null() {
            if self.null_lost > 0 {
                Some(self.null_lost as i32)
            } else if self.cards_per_hand() == 0 {
                Some(0)
            } else {
                None
            }
        } else if self.cards_per_hand() == 0 {
            Some(self.declarer_points as i32)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }

    /// `p` after the cards of `tokens` (space-separated) are played in order.
    fn after(p: Position, tokens: &str) -> Position {
        tokens.split(' ').fold(p, |p, t| p.play(c(t)).unwrap())
    }

    #[test]
    fn rejects_bad_positions() {
        let d = Deal::random(1);
        let k = Contract::plain(GameType::Grand);
        assert!(Position::new(d.hands, k, 0, 0, &[], 0, 0).is_ok());
        assert!(Position::new(d.hands, k, 3, 0, &[], 0, 0).is_err());
        assert!(Position::new(d.hands, k, 0, 3, &[], 0, 0).is_err());
        assert!(Position::new([d.hands[0], d.hands[0], d.hands[2]], k, 0, 0, &[], 0, 0).is_err());
        // wrong sizes
        let mut h = d.hands;
        h[1] = h[1].without(h[1].lowest().unwrap());
        assert!(Position::new(h, k, 0, 0, &[], 0, 0).is_err());
        // mid-trick: leader played one card
        let mut h = d.hands;
        let first = h[0].highest().unwrap();
        h[0] = h[0].without(first);
        assert!(Position::new(h, k, 0, 0, &[first], 0, 0).is_ok());
        assert!(Position::new(h, k, 0, 0, &[first], 120, 0).is_err());
        assert!(Position::new(h, k, 0, 0, &[first], 0, 1).is_err());
        // card both in hand and trick
        assert!(Position::new(d.hands, k, 0, 0, &[first], 0, 0).is_err());
        // three cards in the trick
        assert!(Position::new(h, k, 0, 0, &[first, first, first], 0, 0).is_err());
        // card points near u32::MAX wrapped around the check and were accepted
        for points in [u32::MAX, u32::MAX - 30, 1 << 31] {
            assert!(Position::new(d.hands, k, 0, 0, &[], points, 0).is_err());
        }
    }

    #[test]
    fn rejects_revoke() {
        // seat 1 holds a heart but discarded a spade on a heart lead
        let hands = [
            Cards::parse("CA").unwrap(),
            Cards::parse("H7").unwrap(),
            Cards::parse("D7 D8").unwrap(),
        ];
        let k = Contract::plain(GameType::Grand);
        assert!(Position::new(hands, k, 0, 0, &[c("HA"), c("S7")], 0, 0).is_err());
        let hands = [
            Cards::parse("CA").unwrap(),
            Cards::parse("C7").unwrap(),
            Cards::parse("D7 D8").unwrap(),
        ];
        assert!(Position::new(hands, k, 0, 0, &[c("HA"), c("S7")], 0, 0).is_ok());
    }

    #[test]
    fn play_resolves_tricks() {
        let hands = [
            Cards::parse("CA").unwrap(),
            Cards::parse("C7").unwrap(),
            Cards::parse("CT").unwrap(),
        ];
        let p = Position::new(hands, Contract::plain(GameType::Grand), 2, 0, &[], 5, 0).unwrap();
        let p = after(p, "CA C7");
        assert!(p.play(c("C7")).is_err());
        let p = p.play(c("CT")).unwrap();
        assert!(p.is_over());
        assert_eq!(p.final_value(), Some(5));
        let p = Position::new(hands, Contract::plain(GameType::Null), 1, 0, &[], 0, 0).unwrap();
        assert_eq!(after(p, "CA C7 CT").final_value(), Some(0));
        let p = Position::new(hands, Contract::plain(GameType::Null), 0, 0, &[], 0, 0).unwrap();
        assert_eq!(after(p, "CA C7 CT").final_value(), Some(10));
    }
}
