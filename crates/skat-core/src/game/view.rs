//! What one seat may know of a deal: [`Game::view`] and the [`View`] it builds.

use super::{Actor, Game, Move, Phase, Trick};
use crate::action::Action;
use crate::cards::{Card, Cards};
use crate::result::GameResult;
use crate::rules::{Contract, GameType};
use crate::variants::Variants;

impl Game {
    /// What `seat` may know: its own cards, the public history, an ouvert declarer's hand,
    /// and the skat only for the declarer after a pick-up.
    pub fn view(&self, seat: u8) -> View {
        let is_declarer = self.declarer == Some(seat);
        let open = self.contract.is_some_and(|k| k.ouvert) && self.phase != Phase::Over;
        let history = self
            .history
            .iter()
            .filter_map(|m| match m.action {
                Action::Discard(_) if m.actor != Actor::Seat(seat) => None,
                Action::Declare(k, Some(_)) if m.actor != Actor::Seat(seat) => Some(Move {
                    actor: m.actor,
                    action: Action::Declare(k, None),
                }),
                _ => Some(*m),
            })
            .collect();
        View {
            seat,
            phase: self.phase,
            to_move: self.to_move,
            hand: self.hands[seat as usize],
            bid: self.bid,
            declarer: self.declarer,
            contract: self.contract,
            picked_up: self.picked_up,
            leader: self.leader,
            trick: self.trick.clone(),
            tricks: self.tricks.clone(),
            played: self.played(),
            skat: if is_declarer && self.picked_up {
                Some(self.deal.skat)
            } else {
                self.looked[seat as usize]
            },
            discard: if is_declarer && self.picked_up && self.phase as u8 >= Phase::Declaring as u8
            {
                Some(self.skat)
            } else {
                self.pushed[seat as usize]
            },
            open_hand: match self.declarer {
                Some(d) if open => Some(self.hands[d as usize]),
                _ => None,
            },
            declarer_points: if is_declarer || self.phase == Phase::Over {
                Some(self.declarer_points)
            } else {
                None
            },
            history,
            legal: if self.to_move == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
            result: self.result,
            variants: self.variants,
            kontra: self.kontra,
            ramsch: self.ramsch,
        }
    }
}

/// What one seat knows. Built by [`Game::view`]; holds no hidden card of another seat.
#[derive(Clone, Debug)]
pub struct View {
    pub seat: u8,
    pub phase: Phase,
    pub to_move: Option<u8>,
    pub hand: Cards,
    pub bid: u16,
    pub declarer: Option<u8>,
    pub contract: Option<Contract>,
    pub picked_up: bool,
    pub leader: u8,
    pub trick: Vec<Card>,
    pub tricks: Vec<Trick>,
    pub played: Vec<(u8, Card)>,
    /// The skat as found, for the declarer after a pick-up.
    pub skat: Option<Cards>,
    /// The declarer's own discard.
    pub discard: Option<Cards>,
    /// An ouvert declarer's remaining cards.
    pub open_hand: Option<Cards>,
    /// The declarer's card points so far (only the declarer knows them during play: her
    /// discard counts).
    pub declarer_points: Option<u32>,
    pub history: Vec<Move>,
    pub legal: Vec<Action>,
    pub result: Option<GameResult>,
    /// The table variants.
    pub variants: Variants,
    /// Kontra and Re said so far (0, 1 or 2).
    pub kontra: u8,
    /// The deal is played as a Ramsch.
    pub ramsch: bool,
}

impl View {
    /// The game type that rules the card play: the declared contract's, grand in a Ramsch.
    pub fn game_type(&self) -> Option<GameType> {
        if self.ramsch {
            Some(GameType::Grand)
        } else {
            self.contract.map(|k| k.game_type)
        }
    }
}
