//! The rules of card play and valuation: game types, contracts, which cards may follow,
//! who wins a trick, matadors, game values and the legal bids (`docs/rules.md`).
//!
//! Trick-taking is table driven: for each game type every card has a *power*; trumps are above
//! every plain card, and a plain card only counts when it belongs to the led suit. All sets of
//! cards are [`Cards`] bit sets.

use std::fmt;

use crate::cards::{Card, Cards, Rank, Suit};
use crate::error::SkatError;

/// The six game types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum GameType {
    Diamonds = 0,
    Hearts = 1,
    Spades = 2,
    Clubs = 3,
    Grand = 4,
    Null = 5,
}

impl GameType {
    pub const ALL: [GameType; 6] = [
        GameType::Diamonds,
        GameType::Hearts,
        GameType::Spades,
        GameType::Clubs,
        GameType::Grand,
        GameType::Null,
    ];

    pub fn from_index(i: u8) -> Option<GameType> {
        GameType::ALL.get(i as usize).copied()
    }

    pub fn from_suit(s: Suit) -> GameType {
        GameType::ALL[s as usize]
    }

    /// The trump suit of a suit game.
    pub fn trump_suit(self) -> Option<Suit> {
        match self {
            GameType::Diamonds => Some(Suit::Diamonds),
            GameType::Hearts => Some(Suit::Hearts),
            GameType::Spades => Some(Suit::Spades),
            GameType::Clubs => Some(Suit::Clubs),
            _ => None,
        }
    }

    pub fn is_null(self) -> bool {
        self == GameType::Null
    }

    pub fn is_suit(self) -> bool {
        (self as u8) < 4
    }

    /// The ISS letter: `D H S C G N`.
    pub fn letter(self) -> char {
        ['D', 'H', 'S', 'C', 'G', 'N'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<GameType> {
        match c {
            'D' => Some(GameType::Diamonds),
            'H' => Some(GameType::Hearts),
            'S' => Some(GameType::Spades),
            'C' => Some(GameType::Clubs),
            'G' => Some(GameType::Grand),
            'N' => Some(GameType::Null),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        ["diamonds", "hearts", "spades", "clubs", "grand", "null"][self as usize]
    }

    /// The game class, as the solver, its tables and the reports group games: `suit` for the
    /// four suit games, `grand`, `null`.
    pub fn class_name(self) -> &'static str {
        match self {
            GameType::Grand => "grand",
            GameType::Null => "null",
            _ => "suit",
        }
    }

    /// Base value of suit and grand games (9/10/11/12/24); for null the plain value 23.
    pub fn base_value(self) -> u32 {
        [9, 10, 11, 12, 24, 23][self as usize]
    }

    /// All trump cards (empty in null).
    pub fn trumps(self) -> Cards {
        match self {
            GameType::Null => Cards::EMPTY,
            GameType::Grand => Cards::JACKS,
            _ => Cards::JACKS | self.trump_suit().unwrap().cards(),
        }
    }

    /// The cards that count as following a lead of `card` (its suit, or all trumps).
    pub fn follow_group(self, card: Card) -> Cards {
        let trumps = self.trumps();
        if trumps.contains(card) {
            trumps
        } else {
            card.suit().cards() - trumps
        }
    }

    /// The suit a card belongs to for following: `None` for trumps.
    pub fn effective_suit(self, card: Card) -> Option<Suit> {
        if self.trumps().contains(card) {
            None
        } else {
            Some(card.suit())
        }
    }

    /// Trick-taking power of `card` when the trick was led with a card of group `led`:
    /// trumps 16.., cards of the led group 1..8, other cards 0.
    pub fn power(self, card: Card, led: Cards) -> u8 {
        if self.trumps().contains(card) {
            16 + trump_rank(self, card)
        } else if led.contains(card) {
            1 + plain_rank(self, card)
        } else {
            0
        }
    }

    /// The trumps from highest to lowest (matador order).
    pub fn trump_order(self) -> Vec<Card> {
        let mut v: Vec<Card> = self.trumps().iter().collect();
        v.sort_by_key(|&c| std::cmp::Reverse(trump_rank(self, c)));
        v
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Rank of a trump, 0 = lowest. Jacks above the trump suit's A T K Q 9 8 7.
fn trump_rank(gt: GameType, card: Card) -> u8 {
    if card.rank() == Rank::Jack {
        8 + card.suit() as u8
    } else {
        debug_assert!(gt.is_suit());
        plain_rank(gt, card)
    }
}

/// Rank of a card inside its suit, 0 = lowest. Null: 7 8 9 T J Q K A; otherwise
/// 7 8 9 Q K T A (jacks are trumps and never reach here).
fn plain_rank(gt: GameType, card: Card) -> u8 {
    if gt.is_null() {
        card.rank() as u8
    } else {
        match card.rank() {
            Rank::Seven => 0,
            Rank::Eight => 1,
            Rank::Nine => 2,
            Rank::Queen => 3,
            Rank::King => 4,
            Rank::Ten => 5,
            Rank::Ace => 6,
            Rank::Jack => 7,
        }
    }
}

/// The cards of `hand` that may be played to a trick led with `lead` (`None`: any card).
pub fn legal_cards(gt: GameType, hand: Cards, lead: Option<Card>) -> Cards {
    match lead {
        None => hand,
        Some(l) => {
            let follow = hand & gt.follow_group(l);
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
    }
}

/// Index (0..len) of the card that wins the trick `cards` (led by `cards[0]`).
pub fn trick_winner(gt: GameType, cards: &[Card]) -> usize {
    let led = gt.follow_group(cards[0]);
    let mut best = 0;
    let mut best_power = gt.power(cards[0], led);
    for (i, &c) in cards.iter().enumerate().skip(1) {
        let p = gt.power(c, led);
        if p > best_power {
            best = i;
            best_power = p;
        }
    }
    best
}

/// A declared contract: the game type and its announcements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    pub game_type: GameType,
    pub hand: bool,
    pub schneider: bool,
    pub schwarz: bool,
    pub ouvert: bool,
}

impl Contract {
    /// Builds a contract, adding what the announcements imply (suit/grand ouvert: hand and
    /// schwarz; schwarz: schneider) and rejecting what the rules forbid (announcements in null,
    /// schneider/schwarz without hand).
    pub fn new(
        game_type: GameType,
        hand: bool,
        schneider: bool,
        schwarz: bool,
        ouvert: bool,
    ) -> Result<Contract, SkatError> {
        let mut c = Contract {
            game_type,
            hand,
            schneider,
            schwarz,
            ouvert,
        };
        if game_type.is_null() {
            if schneider || schwarz {
                return Err(SkatError::InvalidContract(
                    "null games have no schneider or schwarz announcements".into(),
                ));
            }
            return Ok(c);
        }
        if ouvert {
            c.hand = true;
            c.schwarz = true;
        }
        if c.schwarz {
            c.schneider = true;
        }
        if c.schneider && !c.hand {
            return Err(SkatError::InvalidContract(format!(
                "{} with {} announced must be a hand game",
                game_type,
                if c.schwarz { "schwarz" } else { "schneider" }
            )));
        }
        Ok(c)
    }

    pub fn plain(game_type: GameType) -> Contract {
        Contract {
            game_type,
            hand: false,
            schneider: false,
            schwarz: false,
            ouvert: false,
        }
    }

    /// Null value (23/35/46/59) or the base value of a suit or grand game.
    pub fn base_value(&self) -> u32 {
        if self.game_type.is_null() {
            match (self.hand, self.ouvert) {
                (false, false) => 23,
                (true, false) => 35,
                (false, true) => 46,
                (true, true) => 59,
            }
        } else {
            self.game_type.base_value()
        }
    }

    /// Suit or grand game value before any overbid check: base value times the multiplier
    /// (matadors + 1, hand, schneider reached or announced, schneider announced, schwarz reached
    /// or announced, schwarz announced, ouvert). `matadors` is signed (with or without).
    /// Null: the fixed value.
    #[inline]
    pub fn value(&self, matadors: i32, schneider: bool, schwarz: bool) -> i32 {
        if self.game_type.is_null() {
            return self.base_value() as i32;
        }
        let flags = [
            self.hand,
            schneider || self.schneider,
            self.schneider,
            schwarz || self.schwarz,
            self.schwarz,
            self.ouvert,
        ];
        let mult = matadors.unsigned_abs() as i32 + 1 + flags.iter().filter(|&&f| f).count() as i32;
        self.game_type.base_value() as i32 * mult
    }

    /// What an overbid game is charged: the smallest multiple of the base value that reaches
    /// the bid (suit and grand).
    pub fn overbid_value(&self, bid: u16) -> i32 {
        let base = self.base_value() as i32;
        (bid as i32 + base - 1) / base * base
    }

    /// The card points the declarer needs with `matadors` (signed) at `bid`: 61, or 90 / 120
    /// when that level is announced or is the first whose value reaches the bid; 121 when no
    /// level reaches it (the game is lost whatever happens). 0 for null.
    #[inline]
    pub fn points_needed(&self, matadors: i32, bid: u16) -> i32 {
        if self.game_type.is_null() {
            return 0;
        }
        let first = if self.schwarz {
            2
        } else if self.schneider {
            1
        } else {
            0
        };
        for (level, need) in [61, 90, 120].into_iter().enumerate().skip(first) {
            if self.value(matadors, level >= 1, level >= 2) >= bid as i32 {
                return need;
            }
        }
        121
    }

    /// The ISS declaration token without discards: `G`, `CHZ`, `GO`, `NOH`, `NH`, `NO` ...
    pub fn token(&self) -> String {
        let mut s = String::new();
        s.push(self.game_type.letter());
        if self.game_type.is_null() {
            if self.ouvert {
                s.push('O');
            }
            if self.hand {
                s.push('H');
            }
        } else if self.ouvert {
            s.push('O');
        } else {
            if self.hand {
                s.push('H');
            }
            if self.schwarz {
                s.push('Z');
            } else if self.schneider {
                s.push('S');
            }
        }
        s
    }

    /// Parses a declaration token (modifier letters in any order).
    pub fn parse(token: &str) -> Result<Contract, SkatError> {
        let mut chars = token.chars();
        let gt = chars
            .next()
            .and_then(GameType::from_letter)
            .ok_or_else(|| SkatError::parse("contract", token))?;
        let (mut h, mut s, mut z, mut o) = (false, false, false, false);
        for ch in chars {
            let flag = match ch {
                'H' => &mut h,
                'S' => &mut s,
                'Z' => &mut z,
                'O' => &mut o,
                _ => return Err(SkatError::parse("contract", token)),
            };
            if *flag {
                return Err(SkatError::parse("contract", token));
            }
            *flag = true;
        }
        Contract::new(gt, h, s, z, o)
    }

    /// Every contract that can be declared: after a pick-up (`hand == false`) or as a hand game.
    pub fn all(hand: bool) -> Vec<Contract> {
        let mut v = Vec::new();
        for gt in GameType::ALL {
            if gt.is_null() {
                v.push(Contract {
                    game_type: gt,
                    hand,
                    schneider: false,
                    schwarz: false,
                    ouvert: false,
                });
                v.push(Contract {
                    game_type: gt,
                    hand,
                    schneider: false,
                    schwarz: false,
                    ouvert: true,
                });
            } else if hand {
                for (s, z, o) in [
                    (false, false, false),
                    (true, false, false),
                    (true, true, false),
                    (true, true, true),
                ] {
                    v.push(Contract {
                        game_type: gt,
                        hand: true,
                        schneider: s,
                        schwarz: z,
                        ouvert: o,
                    });
                }
            } else {
                v.push(Contract::plain(gt));
            }
        }
        v
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.token())
    }
}

/// Cards in the order a player sorts a hand for `gt` (jacks and trumps first, then clubs,
/// spades, hearts, diamonds, each from high to low). Without a game type: as for grand.
pub fn display_order(gt: Option<GameType>, cards: Cards) -> Vec<Card> {
    let gt = gt.unwrap_or(GameType::Grand);
    let trumps = gt.trumps();
    let mut v: Vec<Card> = cards.iter().collect();
    v.sort_by_key(|&c| {
        let group = if trumps.contains(c) {
            4
        } else {
            c.suit() as u8
        };
        let rank = if trumps.contains(c) {
            trump_rank(gt, c)
        } else {
            plain_rank(gt, c)
        };
        std::cmp::Reverse((group, rank))
    });
    v
}

/// The 63 legal bids, 18 to 264.
pub const BIDS: [u16; 63] = [
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66, 70, 72,
    77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135, 140, 143,
    144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264,
];

pub fn is_legal_bid(v: u16) -> bool {
    BIDS.contains(&v)
}

/// The most matadors with or without: the four jacks and the seven other trumps of a suit game.
pub const MAX_MATADORS: i32 = 11;

/// Signed matadors of the declarer's twelve cards: with n (positive) or without n (negative),
/// at most [`MAX_MATADORS`] either way. Zero in null.
pub fn matadors(gt: GameType, cards: Cards) -> i32 {
    if gt.is_null() {
        return 0;
    }
    let order = gt.trump_order();
    let with = cards.contains(order[0]);
    let n = order
        .iter()
        .take_while(|&&c| cards.contains(c) == with)
        .count() as i32;
    if with {
        n
    } else {
        -n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }

    fn cs(s: &str) -> Vec<Card> {
        s.split_whitespace().map(c).collect()
    }

    #[test]
    fn game_classes_group_the_four_suits() {
        let classes: Vec<&str> = (0..6)
            .map(|i| GameType::from_index(i).unwrap().class_name())
            .collect();
        assert_eq!(classes, ["suit", "suit", "suit", "suit", "grand", "null"]);
    }

    #[test]
    fn bids_are_the_reachable_values() {
        // every bid is a multiple of a base value (suit/grand) or a null value
        let mut reachable = std::collections::BTreeSet::new();
        for base in [9u32, 10, 11, 12, 24] {
            for m in 2..=18 {
                if base * m <= 264 {
                    reachable.insert(base * m);
                }
            }
        }
        for v in [23, 35, 46, 59] {
            reachable.insert(v);
        }
        let expected: Vec<u16> = reachable
            .iter()
            .map(|&v| v as u16)
            .filter(|&v| v >= 18)
            .collect();
        assert_eq!(expected, BIDS.to_vec());
    }

    #[test]
    fn trick_winners_in_every_game_type() {
        let t = cs("HA HT HJ");
        assert_eq!(trick_winner(GameType::Clubs, &t), 2); // jack trumps
        assert_eq!(trick_winner(GameType::Grand, &t), 2);
        assert_eq!(trick_winner(GameType::Null, &t), 0); // null: A > T > J
        assert_eq!(trick_winner(GameType::Hearts, &t), 2); // HJ is the highest heart trump here
        let t = cs("HK HT D7");
        assert_eq!(trick_winner(GameType::Clubs, &t), 1); // T > K in suit games
        assert_eq!(trick_winner(GameType::Null, &t), 0); // K > T in null
        assert_eq!(trick_winner(GameType::Diamonds, &t), 2); // trump seven
        let t = cs("DJ CJ SJ");
        for gt in [
            GameType::Diamonds,
            GameType::Hearts,
            GameType::Spades,
            GameType::Clubs,
            GameType::Grand,
        ] {
            assert_eq!(trick_winner(gt, &t), 1);
        }
        assert_eq!(trick_winner(GameType::Null, &t), 0); // led diamonds, others discard
        let t = cs("S7 SA CA");
        assert_eq!(trick_winner(GameType::Hearts, &t), 1);
        assert_eq!(trick_winner(GameType::Clubs, &t), 2);
        let t = cs("C7 CJ CA");
        // in a suit game (hearts), CJ is trump, C7 led clubs, CA higher club
        assert_eq!(trick_winner(GameType::Hearts, &t), 1);
        assert_eq!(trick_winner(GameType::Clubs, &t), 1);
        assert_eq!(trick_winner(GameType::Null, &t), 2);
        let t = cs("DA DJ D7");
        assert_eq!(trick_winner(GameType::Diamonds, &t), 1);
        assert_eq!(trick_winner(GameType::Grand, &t), 1);
        assert_eq!(trick_winner(GameType::Hearts, &t), 1);
    }

    #[test]
    fn following_suit_with_jacks() {
        let hand: Cards = cs("CJ C7 HA S9").into_iter().collect();
        // clubs led in a hearts game: CJ is trump and cannot follow clubs
        assert_eq!(
            legal_cards(GameType::Hearts, hand, Some(c("CA"))),
            Cards::parse("C7").unwrap()
        );
        // trump led (a jack) in hearts: must play a trump: CJ or HA
        assert_eq!(
            legal_cards(GameType::Hearts, hand, Some(c("DJ"))),
            Cards::parse("CJ HA").unwrap()
        );
        // clubs led in null: the jack is a club
        assert_eq!(
            legal_cards(GameType::Null, hand, Some(c("CA"))),
            Cards::parse("CJ C7").unwrap()
        );
        // jack led in grand: only the jack follows
        assert_eq!(
            legal_cards(GameType::Grand, hand, Some(c("SJ"))),
            Cards::parse("CJ").unwrap()
        );
        // diamonds led: void, anything goes
        assert_eq!(legal_cards(GameType::Grand, hand, Some(c("D7"))), hand);
        assert_eq!(legal_cards(GameType::Clubs, hand, None), hand);
    }

    #[test]
    fn contract_implications() {
        let c = Contract::new(GameType::Grand, false, false, false, true).unwrap();
        assert!(c.hand && c.schneider && c.schwarz && c.ouvert);
        assert_eq!(c.token(), "GO");
        let c = Contract::new(GameType::Clubs, true, false, true, false).unwrap();
        assert!(c.schneider);
        assert_eq!(c.token(), "CHZ");
        assert!(Contract::new(GameType::Clubs, false, true, false, false).is_err());
        assert!(Contract::new(GameType::Null, true, true, false, false).is_err());
        let n = Contract::new(GameType::Null, true, false, false, true).unwrap();
        assert_eq!(n.token(), "NOH");
        assert_eq!(n.base_value(), 59);
        assert_eq!(Contract::parse("NHO").unwrap(), n);
        assert_eq!(Contract::parse("GHS").unwrap().token(), "GHS");
        assert!(Contract::parse("GHH").is_err());
        assert!(Contract::parse("X").is_err());
        assert_eq!(Contract::all(false).len(), 5 + 2);
        assert_eq!(Contract::all(true).len(), 5 * 4 + 2);
    }

    #[test]
    fn matador_counting() {
        let m = |gt, s: &str| matadors(gt, Cards::parse(s).unwrap());
        assert_eq!(m(GameType::Clubs, "CJ SJ HJ C7"), 3);
        assert_eq!(m(GameType::Clubs, "CJ SJ HJ DJ CA CT CK"), 7);
        assert_eq!(m(GameType::Clubs, "HJ DJ"), -2);
        assert_eq!(m(GameType::Grand, "CJ SJ HJ DJ"), 4);
        assert_eq!(m(GameType::Grand, "D7"), -4);
        assert_eq!(m(GameType::Hearts, "DJ HA"), -3);
        let all_trumps = GameType::Diamonds.trumps();
        assert_eq!(matadors(GameType::Diamonds, all_trumps), MAX_MATADORS);
        assert_eq!(matadors(GameType::Diamonds, Cards::EMPTY), -MAX_MATADORS);
        assert_eq!(m(GameType::Null, "CJ"), 0);
    }
}
