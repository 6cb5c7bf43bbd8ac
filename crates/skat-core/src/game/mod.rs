//! The state machine of one deal: auction, skat (pick-up or hand), discard, declaration, ten
//! tricks, result. Every change goes through [`Game::apply`], which checks the action first and
//! changes nothing when it is illegal.
//!
//! Invariants: the three hands, the trick in progress, the cards taken and the skat always
//! partition the 32 cards; `to_move` is the only seat whose normal actions are accepted.

use std::fmt;

use crate::action::Action;
use crate::cards::{Card, Cards, Rank};
use crate::deal::Deal;
use crate::error::SkatError;
use crate::result::{EndReason, GameResult, IssResult, PlayOutcome};
use crate::rules::{is_legal_bid, legal_cards, trick_winner, Contract, GameType, BIDS};
use crate::variants::Variants;

mod ramsch;
mod view;

pub use ramsch::seat_totals;

pub use view::View;

/// The phases of a deal, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Bids, holds and passes.
    Bidding,
    /// The declarer picks up the skat or declares a hand game.
    SkatDecision,
    /// After a pick-up: put two cards away.
    Discarding,
    /// After the discard: name the contract.
    Declaring,
    /// Ten tricks.
    Playing,
    /// Finished: see [`Game::result`].
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::SkatDecision => "skat",
            Phase::Discarding => "discard",
            Phase::Declaring => "declare",
            Phase::Playing => "play",
            Phase::Over => "over",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who made a move: a seat, or the table ("w" in ISS records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    Seat(u8),
    World,
}

/// One entry of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub actor: Actor,
    pub action: Action,
}

/// A finished trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trick {
    pub leader: u8,
    pub cards: [Card; 3],
    pub winner: u8,
}

impl Trick {
    pub fn points(&self) -> u32 {
        self.cards.iter().map(|c| c.points() as u32).sum()
    }
}

/// Where the auction stands. Stage 1: middlehand bids to forehand; stage 2: rearhand bids to
/// the survivor; stage 3: forehand may play at 18 after two passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Auction {
    stage: u8,
    bidder: u8,
    responder: u8,
    awaiting_response: bool,
}

/// One deal's state.
#[derive(Clone, Debug)]
pub struct Game {
    deal: Deal,
    phase: Phase,
    to_move: Option<u8>,
    auction: Auction,
    bid: u16,
    declarer: Option<u8>,
    /// Current hands (the declarer's includes the skat between pick-up and discard).
    hands: [Cards; 3],
    picked_up: bool,
    /// The cards in the skat: the dealt skat, nothing during the discard, then the discard.
    skat: Cards,
    contract: Option<Contract>,
    leader: u8,
    trick: Vec<Card>,
    tricks: Vec<Trick>,
    declarer_points: u32,
    declarer_tricks: u32,
    claim_pending: bool,
    conceded: [bool; 3],
    hidden_play: bool,
    history: Vec<Move>,
    result: Option<GameResult>,
    /// The table variants (none: the International Skat Order).
    variants: Variants,
    /// Kontra and Re said so far (0, 1 or 2).
    kontra: u8,
    /// After a Kontra, until the declarer plays her next card: she may say Re.
    re_open: bool,
    /// The deal is played as a Ramsch (all passed at a table with that variant).
    ramsch: bool,
    /// Every skat picked up, in order, as it was found (records show it after the `s`).
    found: Vec<Cards>,
    /// Schieberamsch: per seat, the skat it found and the two cards it pushed on.
    looked: [Option<Cards>; 3],
    pushed: [Option<Cards>; 3],
    /// Header fields of the ISS record this game was read from (ID, players, ...), written
    /// back by `to_iss`.
    pub header: Vec<(String, String)>,
    /// The result the record states, if the game was read from a complete record.
    pub recorded_result: Option<IssResult>,
}

impl Game {
    pub fn new(deal: Deal) -> Game {
        Game::with_variants(deal, Variants::NONE)
    }

    /// A deal played with table variants (Kontra and Re, Bock: [`crate::variants`]).
    pub fn with_variants(deal: Deal, variants: Variants) -> Game {
        Game {
            deal,
            phase: Phase::Bidding,
            to_move: Some(1),
            auction: Auction {
                stage: 1,
                bidder: 1,
                responder: 0,
                awaiting_response: false,
            },
            bid: 0,
            declarer: None,
            hands: deal.hands,
            picked_up: false,
            skat: deal.skat,
            contract: None,
            leader: 0,
            trick: Vec::with_capacity(3),
            tricks: Vec::with_capacity(10),
            declarer_points: 0,
            declarer_tricks: 0,
            claim_pending: false,
            conceded: [false; 3],
            hidden_play: false,
            history: Vec::with_capacity(48),
            result: None,
            variants,
            kontra: 0,
            re_open: false,
            ramsch: false,
            found: Vec::new(),
            looked: [None; 3],
            pushed: [None; 3],
            header: Vec::new(),
            recorded_result: None,
        }
    }

    // ----- accessors -------------------------------------------------------------------

    pub fn deal(&self) -> &Deal {
        &self.deal
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn to_move(&self) -> Option<u8> {
        self.to_move
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }
    pub fn variants(&self) -> Variants {
        self.variants
    }
    /// Kontra and Re said so far: 0 none, 1 Kontra, 2 Kontra and Re.
    pub fn kontra(&self) -> u8 {
        self.kontra
    }
    /// Whether the deal is played as a Ramsch.
    pub fn is_ramsch(&self) -> bool {
        self.ramsch
    }
    /// Every skat picked up so far, as found (one in a normal game, up to three in
    /// Schieberamsch).
    pub fn found_skats(&self) -> &[Cards] {
        &self.found
    }
    /// The game type that rules the card play: the contract's, grand in a Ramsch.
    pub fn play_type(&self) -> Option<GameType> {
        if self.ramsch {
            Some(GameType::Grand)
        } else {
            self.contract.map(|k| k.game_type)
        }
    }
    /// The highest bid so far (0 before the first bid).
    pub fn bid(&self) -> u16 {
        self.bid
    }
    pub fn declarer(&self) -> Option<u8> {
        self.declarer
    }
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    pub fn hand(&self, seat: u8) -> Cards {
        self.hands[seat as usize]
    }
    pub fn hands(&self) -> [Cards; 3] {
        self.hands
    }
    /// The cards that count for the declarer: the skat before/without a pick-up, her discard after.
    pub fn skat(&self) -> Cards {
        self.skat
    }
    pub fn picked_up(&self) -> bool {
        self.picked_up
    }
    pub fn leader(&self) -> u8 {
        self.leader
    }
    pub fn current_trick(&self) -> &[Card] {
        &self.trick
    }
    pub fn tricks(&self) -> &[Trick] {
        &self.tricks
    }
    pub fn history(&self) -> &[Move] {
        &self.history
    }
    pub fn declarer_points(&self) -> u32 {
        self.declarer_points
    }
    pub fn declarer_tricks(&self) -> u32 {
        self.declarer_tricks
    }
    /// All cards played so far, in order, with the seat that played them.
    pub fn played(&self) -> Vec<(u8, Card)> {
        let mut v = Vec::with_capacity(30);
        for t in &self.tricks {
            for (i, &c) in t.cards.iter().enumerate() {
                v.push(((t.leader + i as u8) % 3, c));
            }
        }
        for (i, &c) in self.trick.iter().enumerate() {
            v.push(((self.leader + i as u8) % 3, c));
        }
        v
    }

    // ----- legal actions ---------------------------------------------------------------

    /// The actions the seat to move may take (special moves such as resigning are accepted by
    /// [`Game::apply`] but never listed).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    pub fn legal_actions_into(&self, v: &mut Vec<Action>) {
        v.clear();
        match self.phase {
            Phase::Bidding => {
                let a = self.auction;
                if a.stage == 3 {
                    v.push(Action::Bid(18));
                    v.push(Action::Pass);
                } else if a.awaiting_response {
                    v.push(Action::Hold);
                    v.push(Action::Pass);
                } else {
                    v.extend(
                        BIDS.iter()
                            .filter(|&&b| b > self.bid)
                            .map(|&b| Action::Bid(b)),
                    );
                    v.push(Action::Pass);
                }
            }
            Phase::SkatDecision if self.ramsch => {
                v.push(Action::PickUp);
                v.push(Action::Pass);
            }
            Phase::Discarding if self.ramsch => {
                let cards: Vec<Card> = self.hands[self.to_move.unwrap() as usize]
                    .iter()
                    .filter(|c| c.rank() != Rank::Jack)
                    .collect();
                for i in 0..cards.len() {
                    for j in i + 1..cards.len() {
                        v.push(Action::Discard(Cards::EMPTY.with(cards[i]).with(cards[j])));
                    }
                }
            }
            Phase::SkatDecision => {
                v.push(Action::PickUp);
                v.extend(
                    self.declarable(true)
                        .into_iter()
                        .map(|k| Action::Declare(k, None)),
                );
            }
            Phase::Discarding => {
                let d = self.declarer.unwrap() as usize;
                let cards: Vec<Card> = self.hands[d].iter().collect();
                for i in 0..cards.len() {
                    for j in i + 1..cards.len() {
                        v.push(Action::Discard(Cards::EMPTY.with(cards[i]).with(cards[j])));
                    }
                }
            }
            Phase::Declaring => {
                v.extend(
                    self.declarable(false)
                        .into_iter()
                        .map(|k| Action::Declare(k, None)),
                );
            }
            Phase::Playing => {
                if self.hidden_play {
                    return;
                }
                let seat = self.to_move.unwrap() as usize;
                let gt = self.play_type().unwrap();
                let lead = self.trick.first().copied();
                v.extend(
                    legal_cards(gt, self.hands[seat], lead)
                        .iter()
                        .map(Action::Play),
                );
                if self.may_kontra(seat as u8) {
                    v.push(Action::Kontra);
                }
                if self.may_re(seat as u8) {
                    v.push(Action::Re);
                }
            }
            Phase::Over => {}
        }
    }

    /// The cards the seat to move may play (empty outside card play).
    pub fn legal_cards(&self) -> Cards {
        if self.phase != Phase::Playing || self.hidden_play {
            return Cards::EMPTY;
        }
        let seat = self.to_move.unwrap() as usize;
        legal_cards(
            self.play_type().unwrap(),
            self.hands[seat],
            self.trick.first().copied(),
        )
    }

    /// Kontra: the variant is on, nobody has said it, `seat` is a defender in the first trick
    /// who has not played yet (the caller checks that it is her turn in card play).
    fn may_kontra(&self, seat: u8) -> bool {
        self.variants.kontra
            && !self.ramsch
            && self.kontra == 0
            && self.declarer != Some(seat)
            && self.tricks.is_empty()
            && self.hands[seat as usize].len() == 10
    }

    /// Re: after a Kontra, the declarer before her next card.
    fn may_re(&self, seat: u8) -> bool {
        self.kontra == 1 && self.re_open && self.declarer == Some(seat)
    }

    /// Contracts the declarer may name now. Null below the bid is not declarable (`docs/rules.md`).
    fn declarable(&self, hand: bool) -> Vec<Contract> {
        Contract::all(hand)
            .into_iter()
            .filter(|k| !k.game_type.is_null() || k.base_value() >= self.bid as u32)
            .collect()
    }

    fn is_legal(&self, action: &Action) -> bool {
        if self.ramsch && matches!(self.phase, Phase::SkatDecision | Phase::Discarding) {
            return self.legal_actions().contains(action);
        }
        match (self.phase, action) {
            (Phase::Bidding, Action::Bid(b)) => {
                if self.auction.stage == 3 {
                    *b == 18
                } else {
                    !self.auction.awaiting_response && *b > self.bid && is_legal_bid(*b)
                }
            }
            (Phase::Bidding, Action::Hold) => {
                self.auction.stage != 3 && self.auction.awaiting_response
            }
            (Phase::Bidding, Action::Pass) => true,
            (Phase::SkatDecision, Action::PickUp) => true,
            (Phase::SkatDecision, Action::Declare(k, None)) => {
                k.hand && self.declarable(true).contains(k)
            }
            (Phase::Discarding, Action::Discard(d)) => {
                d.len() == 2 && d.is_subset(self.hands[self.declarer.unwrap() as usize])
            }
            (Phase::Discarding, Action::Declare(k, Some(d))) => {
                self.is_legal(&Action::Discard(*d)) && !k.hand && self.declarable(false).contains(k)
            }
            (Phase::Declaring, Action::Declare(k, None)) => {
                !k.hand && self.declarable(false).contains(k)
            }
            (Phase::Playing, Action::Play(c)) => self.legal_cards().contains(*c),
            (Phase::Playing, Action::Kontra) => {
                !self.hidden_play && self.to_move.is_some_and(|s| self.may_kontra(s))
            }
            (Phase::Playing, Action::Re) => {
                !self.hidden_play && self.to_move.is_some_and(|s| self.may_re(s))
            }
            _ => false,
        }
    }

    fn illegal(&self, action: &Action) -> SkatError {
        SkatError::IllegalAction {
            action: action.to_string(),
            phase: self.phase.name().to_string(),
            to_move: self.to_move,
            legal: self.legal_actions().iter().map(|a| a.to_string()).collect(),
        }
    }

    // ----- applying actions ------------------------------------------------------------

    /// Applies an action of the seat to move. Special actions (claim, resign, time-out, leave,
    /// hidden card) need their actor: use [`Game::apply_by`].
    pub fn apply(&mut self, action: Action) -> Result<(), SkatError> {
        match action {
            Action::TimeOut(_) | Action::Leave(_) => self.apply_by(Actor::World, action),
            _ => match self.to_move {
                Some(seat) => self.apply_by(Actor::Seat(seat), action),
                None => Err(self.illegal(&action)),
            },
        }
    }

    /// Applies an action by an explicit actor. Normal actions must come from the seat to move;
    /// `RE` may come from any seat during card play; `TI.n`/`LE.n` come from the table.
    pub fn apply_by(&mut self, actor: Actor, action: Action) -> Result<(), SkatError> {
        if action.is_special() {
            return self.apply_special(actor, action);
        }
        if actor != Actor::World && self.to_move.map(Actor::Seat) != Some(actor) {
            let mut e = self.illegal(&action);
            if let (SkatError::IllegalAction { action: a, .. }, Actor::Seat(s)) = (&mut e, actor) {
                *a = format!("{a} by seat {s}");
            }
            return Err(e);
        }
        if actor == Actor::World || !self.is_legal(&action) {
            return Err(self.illegal(&action));
        }
        let seat = self.to_move.unwrap();
        match action {
            Action::Declare(k, Some(d)) => {
                // the combined ISS token: discard, then declare
                self.push(seat, Action::Discard(d));
                self.do_discard(d);
                self.push(seat, Action::Declare(k, None));
                self.do_declare(k);
                return Ok(());
            }
            _ => self.push(seat, action),
        }
        match action {
            Action::Bid(b) => self.do_bid(b),
            Action::Hold => {
                self.auction.awaiting_response = false;
                self.to_move = Some(self.auction.bidder);
            }
            Action::Pass if self.ramsch => self.next_pusher(),
            Action::Pass => self.do_pass(),
            Action::PickUp => {
                let d = seat as usize;
                self.found.push(self.skat);
                if self.ramsch {
                    self.looked[d] = Some(self.skat);
                }
                self.hands[d] = self.hands[d] | self.skat;
                self.skat = Cards::EMPTY;
                self.picked_up = !self.ramsch;
                self.phase = Phase::Discarding;
            }
            Action::Discard(d) if self.ramsch => {
                let s = seat as usize;
                self.pushed[s] = Some(d);
                self.hands[s] = self.hands[s] - d;
                self.skat = d;
                self.next_pusher();
            }
            Action::Discard(d) => self.do_discard(d),
            Action::Declare(k, None) => self.do_declare(k),
            Action::Play(c) => self.do_play(c),
            Action::Kontra => {
                self.kontra = 1;
                self.re_open = true;
            }
            Action::Re => {
                self.kontra = 2;
                self.re_open = false;
            }
            _ => unreachable!("special actions are handled above"),
        }
        Ok(())
    }

    fn push(&mut self, seat: u8, action: Action) {
        self.history.push(Move {
            actor: Actor::Seat(seat),
            action,
        });
    }

    fn do_bid(&mut self, b: u16) {
        self.bid = b;
        if self.auction.stage == 3 {
            self.start_declarer(0);
        } else {
            self.auction.awaiting_response = true;
            self.to_move = Some(self.auction.responder);
        }
    }

    fn do_pass(&mut self) {
        let a = self.auction;
        if a.stage == 3 {
            if self.variants.ramsch {
                self.start_ramsch();
            } else {
                self.finish(GameResult::passed());
            }
            return;
        }
        // the one who passed leaves; the other survives this stage
        let survivor = if a.awaiting_response {
            a.bidder
        } else {
            a.responder
        };
        if a.stage == 1 {
            self.auction = Auction {
                stage: 2,
                bidder: 2,
                responder: survivor,
                awaiting_response: false,
            };
            self.to_move = Some(2);
        } else if self.bid == 0 {
            // middlehand and rearhand passed without a bid: forehand may play at 18
            self.auction = Auction {
                stage: 3,
                bidder: 0,
                responder: 0,
                awaiting_response: false,
            };
            self.to_move = Some(0);
        } else {
            self.start_declarer(survivor);
        }
    }

    fn start_declarer(&mut self, seat: u8) {
        self.declarer = Some(seat);
        self.phase = Phase::SkatDecision;
        self.to_move = Some(seat);
    }

    fn do_discard(&mut self, d: Cards) {
        let s = self.declarer.unwrap() as usize;
        self.hands[s] = self.hands[s] - d;
        self.skat = d;
        self.phase = Phase::Declaring;
    }

    fn do_declare(&mut self, k: Contract) {
        self.contract = Some(k);
        self.phase = Phase::Playing;
        self.leader = 0;
        self.to_move = Some(0);
        self.declarer_points = self.skat.points();
    }

    fn do_play(&mut self, c: Card) {
        let seat = self.to_move.unwrap();
        if Some(seat) == self.declarer {
            self.re_open = false;
        }
        self.hands[seat as usize] = self.hands[seat as usize].without(c);
        self.trick.push(c);
        if self.trick.len() < 3 {
            self.to_move = Some((seat + 1) % 3);
            return;
        }
        if self.ramsch {
            self.ramsch_trick();
            return;
        }
        let k = self.contract.unwrap();
        let gt = k.game_type;
        let cards = [self.trick[0], self.trick[1], self.trick[2]];
        let winner = (self.leader + trick_winner(gt, &cards) as u8) % 3;
        let t = Trick {
            leader: self.leader,
            cards,
            winner,
        };
        let declarer = self.declarer.unwrap();
        if winner == declarer {
            self.declarer_points += t.points();
            self.declarer_tricks += 1;
        }
        self.tricks.push(t);
        self.trick.clear();
        self.leader = winner;
        self.to_move = Some(winner);
        // play stops once the result is certain; after the tenth trick it is over anyway, and
        // a game played to the end has schneider and schwarz evaluated
        let decided = (gt.is_null() && winner == declarer) || (k.schwarz && winner != declarer);
        if self.tricks.len() == 10 {
            self.finish_play(EndReason::Played, false, false, false);
        } else if decided {
            self.finish_play(EndReason::Played, true, false, false);
        }
    }

    fn apply_special(&mut self, actor: Actor, action: Action) -> Result<(), SkatError> {
        let err = |g: &Game, why: &str| {
            let a = match actor {
                Actor::Seat(s) => format!("{action} by seat {s}"),
                Actor::World => format!("{action} by the table"),
            };
            SkatError::IllegalAction {
                action: format!("{a} ({why})"),
                phase: g.phase.name().to_string(),
                to_move: g.to_move,
                legal: g.legal_actions().iter().map(|x| x.to_string()).collect(),
            }
        };
        if self.phase == Phase::Over {
            return Err(err(self, "the game is over"));
        }
        match (action, actor) {
            (Action::TimeOut(s) | Action::Leave(s), Actor::World) => {
                let reason = if matches!(action, Action::TimeOut(_)) {
                    EndReason::TimeOut(s)
                } else {
                    EndReason::Left(s)
                };
                self.history.push(Move { actor, action });
                if self.ramsch {
                    self.finish(GameResult::penalty(s, reason, 0));
                } else if self.phase == Phase::Playing {
                    if Some(s) == self.declarer {
                        self.finish_play(reason, false, true, false);
                    } else {
                        self.concede_to_declarer(reason);
                    }
                } else {
                    self.finish(GameResult::penalty(s, reason, self.bid));
                }
                Ok(())
            }
            (Action::TimeOut(_) | Action::Leave(_), _) => {
                Err(err(self, "only the table reports time-outs"))
            }
            (_, Actor::World) => Err(err(self, "a seat must make this move")),
            (_, Actor::Seat(_)) if self.phase != Phase::Playing => Err(err(
                self,
                "claims, resignations and hidden cards belong to card play",
            )),
            (Action::Claim | Action::Resign, Actor::Seat(_)) if self.ramsch => {
                Err(err(self, "nobody claims or resigns in a Ramsch"))
            }
            (Action::Claim, Actor::Seat(s)) => {
                if Some(s) != self.declarer {
                    return Err(err(self, "only the declarer can claim"));
                }
                self.history.push(Move { actor, action });
                self.claim_pending = true;
                Ok(())
            }
            (Action::Resign, Actor::Seat(s)) => {
                self.history.push(Move { actor, action });
                if Some(s) == self.declarer {
                    self.finish_play(EndReason::Resigned, false, true, false);
                } else {
                    self.conceded[s as usize] = true;
                    if self.defenders_conceded() {
                        self.concede_to_declarer(EndReason::Conceded);
                    }
                }
                Ok(())
            }
            (Action::Hidden, Actor::Seat(s)) => {
                if self.to_move != Some(s) && !self.hidden_play {
                    return Err(err(self, "not this seat's turn"));
                }
                self.history.push(Move { actor, action });
                self.hidden_play = true;
                Ok(())
            }
            _ => Err(err(self, "not a special move")),
        }
    }

    fn defenders_conceded(&self) -> bool {
        let d = self.declarer.unwrap();
        (0..3u8)
            .filter(|&s| s != d)
            .all(|s| self.conceded[s as usize])
    }

    /// Whether a defender has conceded (or the declarer has claimed) without the game ending.
    pub fn concession_pending(&self) -> bool {
        self.phase == Phase::Playing && (self.conceded.iter().any(|&c| c))
    }

    pub fn claim_pending(&self) -> bool {
        self.claim_pending
    }

    /// Ends card play with every remaining trick going to the declarer (the defenders
    /// conceded or a defender dropped out). In null the declarer simply wins.
    pub fn concede_to_declarer(&mut self, reason: EndReason) {
        if self.phase != Phase::Playing {
            return;
        }
        let gt = self.contract.unwrap().game_type;
        if gt.is_null() {
            self.finish_play(reason, false, false, true);
            return;
        }
        let rest = self.hands[0] | self.hands[1] | self.hands[2];
        let in_trick: u32 = self.trick.iter().map(|c| c.points() as u32).sum();
        self.declarer_points += rest.points() + in_trick;
        self.declarer_tricks += 10 - self.tricks.len() as u32;
        self.finish_play(reason, false, false, false);
    }

    fn finish_play(
        &mut self,
        reason: EndReason,
        stopped_early: bool,
        forced_loss: bool,
        forced_win: bool,
    ) {
        let d = self.declarer.unwrap();
        let k = self.contract.unwrap();
        let played_tricks = if stopped_early || matches!(reason, EndReason::Played) {
            self.tricks.len() as u32
        } else {
            10
        };
        // after a declarer's resignation or drop-out every remaining trick is the defenders'
        let defender_tricks = played_tricks - self.declarer_tricks;
        let outcome = PlayOutcome {
            declarer_points: self.declarer_points,
            declarer_tricks: self.declarer_tricks,
            defender_tricks,
            stopped_early,
            forced_loss,
            forced_win,
        };
        let twelve = self.deal.hands[d as usize] | self.deal.skat;
        let r = GameResult::value_game(d, k, self.bid, twelve, outcome, reason)
            .with_doubling(self.kontra, self.variants.bock);
        self.finish(r);
    }

    fn finish(&mut self, r: GameResult) {
        self.result = Some(r);
        self.phase = Phase::Over;
        self.to_move = None;
    }

    /// Parses an ISS token and applies it (see [`Game::apply`]).
    pub fn apply_token(&mut self, token: &str) -> Result<(), SkatError> {
        let a = Action::parse(token)?;
        self.apply(a)
    }

    /// Differences between the result the record states and the replayed one (empty when
    /// they agree, or when the game was not read from a complete record).
    pub fn record_differences(&self) -> Vec<String> {
        match (&self.recorded_result, &self.result) {
            (None, _) => Vec::new(),
            (Some(_), None) => {
                vec!["the record states a result but the replayed game is not over".into()]
            }
            (Some(rec), Some(ours)) => rec.differences(ours),
        }
    }
}
