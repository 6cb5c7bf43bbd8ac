//! The outcome of a deal: valuation by the rules, Seeger-Fabian scores, and the ISS `R[...]`
//! result string in both directions.

use std::fmt;

use crate::cards::Cards;
use crate::error::SkatError;
use crate::ramsch::RamschOutcome;
use crate::rules::{matadors, Contract};
use crate::variants::doubling;

/// How a deal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Played out (or stopped once the result was certain: a null declarer's trick, a lost
    /// schwarz announcement).
    Played,
    /// All three passed.
    Passed,
    /// Both defenders conceded (after a claim or on their own): the rest went to the declarer.
    Conceded,
    /// The declarer resigned: the rest went to the defenders.
    Resigned,
    /// A seat ran out of time.
    TimeOut(u8),
    /// A seat left the table.
    Left(u8),
}

impl EndReason {
    pub fn name(&self) -> &'static str {
        match self {
            EndReason::Played => "played",
            EndReason::Passed => "passed",
            EndReason::Conceded => "conceded",
            EndReason::Resigned => "resigned",
            EndReason::TimeOut(_) => "timeout",
            EndReason::Left(_) => "left",
        }
    }
}

/// The valued result of one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Declarer seat; `None` when the deal was passed in or ended with a penalty before play.
    pub declarer: Option<u8>,
    pub contract: Option<Contract>,
    pub won: bool,
    /// Signed game value as in ISS `v:` (negative when lost: minus twice the value; 0 passed).
    pub value: i32,
    /// Signed matadors (with n: +n, without n: -n; 0 in null).
    pub matadors: i32,
    /// Card points of the declarer including the skat (or her discard).
    pub declarer_points: u32,
    pub declarer_tricks: u32,
    /// Schneider reached in play by either party (announcements are not counted here).
    pub schneider: bool,
    /// Schwarz reached in play by either party.
    pub schwarz: bool,
    pub overbid: bool,
    /// The final bid of the auction (0 when passed).
    pub bid: u16,
    /// Seeger-Fabian list points per seat.
    pub scores: [i32; 3],
    pub end: EndReason,
    /// The seat penalised for leaving or timing out before the declaration.
    pub penalty: Option<u8>,
    /// Kontra and Re said: 0 none, 1 Kontra, 2 Kontra and Re (`crate::variants`).
    pub kontra: u8,
    /// A Bock game (value doubled).
    pub bock: bool,
    /// A Ramsch (no declarer; `value` is the loser's score, or +120 for a Durchmarsch).
    pub ramsch: Option<RamschOutcome>,
}

/// What play produced, the input to [`GameResult::value_game`].
#[derive(Clone, Copy, Debug)]
pub struct PlayOutcome {
    pub declarer_points: u32,
    pub declarer_tricks: u32,
    pub defender_tricks: u32,
    /// Play stopped early because the result was certain (schneider/schwarz not evaluated).
    pub stopped_early: bool,
    /// The declarer lost regardless of points (she resigned, timed out or left).
    pub forced_loss: bool,
    /// Null only: the defenders conceded, so the declarer wins.
    pub forced_win: bool,
}

impl GameResult {
    /// A deal that all three passed.
    pub fn passed() -> GameResult {
        GameResult {
            declarer: None,
            contract: None,
            won: false,
            value: 0,
            matadors: 0,
            declarer_points: 0,
            declarer_tricks: 0,
            schneider: false,
            schwarz: false,
            overbid: false,
            bid: 0,
            scores: [0; 3],
            end: EndReason::Passed,
            penalty: None,
            kontra: 0,
            bock: false,
            ramsch: None,
        }
    }

    /// A deal that ended before the declaration because `seat` timed out or left.
    pub fn penalty(seat: u8, end: EndReason, bid: u16) -> GameResult {
        GameResult {
            penalty: Some(seat),
            end,
            bid,
            ..GameResult::passed()
        }
    }

    /// Values a played deal by the rules (`docs/rules.md`).
    /// `twelve` are the declarer's ten dealt cards plus the skat (for matadors).
    pub fn value_game(
        declarer: u8,
        contract: Contract,
        bid: u16,
        twelve: Cards,
        play: PlayOutcome,
        end: EndReason,
    ) -> GameResult {
        let gt = contract.game_type;
        let p = play.declarer_points;
        let (won, value, mats, schneider, schwarz, overbid);
        if gt.is_null() {
            mats = 0;
            schneider = false;
            schwarz = false;
            overbid = false;
            won = !play.forced_loss && (play.forced_win || play.declarer_tricks == 0);
            value = contract.base_value() as i32;
        } else {
            mats = matadors(gt, twelve);
            let evaluated = !play.stopped_early;
            schneider = evaluated && (p >= 90 || p <= 30);
            schwarz = evaluated && (play.declarer_tricks == 10 || play.defender_tricks == 10);
            let raw = contract.value(mats, schneider, schwarz);
            let mut ok = p >= 61 && !play.forced_loss;
            if contract.schneider && p < 90 {
                ok = false;
            }
            if contract.schwarz && play.declarer_tricks < 10 {
                ok = false;
            }
            overbid = raw < bid as i32;
            if overbid {
                won = false;
                value = contract.overbid_value(bid);
            } else {
                won = ok;
                value = raw;
            }
        }
        let signed = if won { value } else { -2 * value };
        let scores = seeger_fabian(declarer, won, signed);
        GameResult {
            declarer: Some(declarer),
            contract: Some(contract),
            won,
            value: signed,
            matadors: mats,
            declarer_points: p,
            declarer_tricks: play.declarer_tricks,
            schneider,
            schwarz,
            overbid,
            bid,
            scores,
            end,
            penalty: None,
            kontra: 0,
            bock: false,
            ramsch: None,
        }
    }

    /// The same result with Kontra/Re (`level`: 0, 1 or 2) and Bock applied: the value is
    /// doubled per level and once more in a Bock game; the Seeger-Fabian 50 and 40 are not.
    pub fn with_doubling(self, level: u8, bock: bool) -> GameResult {
        let Some(d) = self.declarer else {
            return self;
        };
        let value = self.value * doubling(level, bock);
        GameResult {
            value,
            scores: seeger_fabian(d, self.won, value),
            kontra: level,
            bock,
            ..self
        }
    }

    /// The ISS `R[...]` text.
    pub fn to_iss(&self) -> String {
        if self.end == EndReason::Passed {
            return "passed".to_string();
        }
        if let Some(r) = &self.ramsch {
            let bock = if self.bock { " bo:1" } else { "" };
            return format!("ramsch v:{} {}{bock}", self.value, r.iss_fields());
        }
        let pen = |s: u8| u8::from(self.penalty == Some(s));
        let left = match self.end {
            EndReason::Left(s) => s as i32,
            _ => -1,
        };
        let to = match self.end {
            EndReason::TimeOut(s) => s as i32,
            _ => -1,
        };
        let resigned = u8::from(matches!(
            self.end,
            EndReason::Conceded | EndReason::Resigned
        ));
        let (d, outcome) = match self.declarer {
            None => (-1, "penalty"),
            Some(d) => (d as i32, if self.won { "win" } else { "loss" }),
        };
        let mut doubling = String::new();
        if self.kontra > 0 {
            doubling.push_str(&format!(" ko:{}", self.kontra));
        }
        if self.bock {
            doubling.push_str(" bo:1");
        }
        format!(
            "d:{d} {outcome} v:{} m:{} {} p:{} t:{} s:{} z:{} p0:{} p1:{} p2:{} l:{left} to:{to} r:{resigned}{doubling}",
            self.value,
            self.matadors,
            if self.overbid { "overbid" } else { "bidok" },
            self.declarer_points,
            self.declarer_tricks,
            u8::from(self.schneider),
            u8::from(self.schwarz),
            pen(0),
            pen(1),
            pen(2),
        )
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_iss())
    }
}

/// Seeger-Fabian list points per seat for a declarer's signed value (doublings included): won,
/// the value + 50; lost, the (negative) value - 50 and 40 for each defender.
fn seeger_fabian(declarer: u8, won: bool, signed: i32) -> [i32; 3] {
    let mut scores = [0i32; 3];
    if won {
        scores[declarer as usize] = signed + 50;
    } else {
        scores[declarer as usize] = signed - 50;
        for s in 0..3u8 {
            if s != declarer {
                scores[s as usize] = 40;
            }
        }
    }
    scores
}

/// A result as the server recorded it in `R[...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssResult {
    pub passed: bool,
    /// Declarer seat, or -1 (penalty).
    pub declarer: i32,
    /// "win", "loss" or "penalty".
    pub outcome: String,
    pub value: i32,
    pub matadors: i32,
    pub overbid: bool,
    pub points: u32,
    pub tricks: u32,
    pub schneider: bool,
    pub schwarz: bool,
    pub penalties: [i32; 3],
    /// Kontra/Re level (`ko:`) and Bock (`bo:`), 0 when absent.
    pub kontra: i32,
    pub bock: bool,
    /// Every `key:value` pair as written.
    pub fields: Vec<(String, String)>,
    /// The text as recorded.
    pub text: String,
}

impl IssResult {
    pub fn parse(text: &str) -> Result<IssResult, SkatError> {
        let t = text.trim();
        let mut r = IssResult {
            passed: false,
            declarer: -1,
            outcome: String::new(),
            value: 0,
            matadors: 0,
            overbid: false,
            points: 0,
            tricks: 0,
            schneider: false,
            schwarz: false,
            penalties: [0; 3],
            kontra: 0,
            bock: false,
            fields: Vec::new(),
            text: t.to_string(),
        };
        if t == "passed" {
            r.passed = true;
            r.outcome = "passed".into();
            return Ok(r);
        }
        let bad = || SkatError::parse("ISS result", text);
        let num = |v: &str| v.parse::<i32>().map_err(|_| bad());
        let mut seen_d = false;
        for tok in t.split_whitespace() {
            match tok {
                "win" | "loss" | "penalty" | "ramsch" => r.outcome = tok.to_string(),
                "bidok" => r.overbid = false,
                "overbid" => r.overbid = true,
                _ => {
                    let (k, v) = tok.split_once(':').ok_or_else(bad)?;
                    r.fields.push((k.to_string(), v.to_string()));
                    match k {
                        "d" => {
                            r.declarer = num(v)?;
                            seen_d = true;
                        }
                        "v" => r.value = num(v)?,
                        "m" => r.matadors = num(v)?,
                        "p" => r.points = num(v)?.max(0) as u32,
                        "t" => r.tricks = num(v)?.max(0) as u32,
                        "s" => r.schneider = num(v)? != 0,
                        "z" => r.schwarz = num(v)? != 0,
                        "ko" => r.kontra = num(v)?,
                        "bo" => r.bock = num(v)? != 0,
                        "p0" | "p1" | "p2" => {
                            let i = (k.as_bytes()[1] - b'0') as usize;
                            r.penalties[i] = num(v)?;
                        }
                        _ => {}
                    }
                }
            }
        }
        if r.outcome == "ramsch" {
            return Ok(r);
        }
        if !seen_d || r.outcome.is_empty() {
            return Err(bad());
        }
        Ok(r)
    }

    /// Differences between this recorded result and a computed one (empty when they agree).
    pub fn differences(&self, g: &GameResult) -> Vec<String> {
        let mut diffs = Vec::new();
        let mut cmp = |name: &str, rec: String, ours: String| {
            if rec != ours {
                diffs.push(format!("{name}: recorded {rec}, replayed {ours}"));
            }
        };
        if self.passed {
            cmp("result", "passed".into(), g.end.name().into());
            return diffs;
        }
        if self.outcome == "ramsch" || g.ramsch.is_some() {
            cmp("ramsch", self.text.clone(), g.to_iss());
            return diffs;
        }
        if self.outcome == "penalty" {
            cmp(
                "declarer",
                "-1".into(),
                g.declarer.map_or(-1, |d| d as i32).to_string(),
            );
            let ours: [i32; 3] = [0, 1, 2].map(|s| i32::from(g.penalty == Some(s)));
            cmp(
                "penalties",
                format!("{:?}", self.penalties),
                format!("{ours:?}"),
            );
            return diffs;
        }
        cmp(
            "declarer",
            self.declarer.to_string(),
            g.declarer.map_or(-1, |d| d as i32).to_string(),
        );
        let ours_outcome = if g.declarer.is_none() {
            g.end.name()
        } else if g.won {
            "win"
        } else {
            "loss"
        };
        cmp("outcome", self.outcome.clone(), ours_outcome.into());
        cmp("value", self.value.to_string(), g.value.to_string());
        cmp(
            "matadors",
            self.matadors.to_string(),
            g.matadors.to_string(),
        );
        cmp("overbid", self.overbid.to_string(), g.overbid.to_string());
        cmp(
            "points",
            self.points.to_string(),
            g.declarer_points.to_string(),
        );
        cmp(
            "tricks",
            self.tricks.to_string(),
            g.declarer_tricks.to_string(),
        );
        cmp(
            "schneider",
            self.schneider.to_string(),
            g.schneider.to_string(),
        );
        cmp("schwarz", self.schwarz.to_string(), g.schwarz.to_string());
        cmp("kontra", self.kontra.to_string(), g.kontra.to_string());
        cmp("bock", self.bock.to_string(), g.bock.to_string());
        diffs
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::GameType;

    /// A card play played to the end: the declarer's points and tricks of ten.
    pub(crate) fn outcome(points: u32, tricks: u32) -> PlayOutcome {
        PlayOutcome {
            declarer_points: points,
            declarer_tricks: tricks,
            defender_tricks: 10 - tricks,
            stopped_early: false,
            forced_loss: false,
            forced_win: false,
        }
    }

    fn cards(s: &str) -> Cards {
        Cards::parse(s).unwrap()
    }

    #[test]
    fn overbid_example_from_the_rules() {
        // bid 36, diamonds with 1, game 2 = 18: overbid, charged 36, scores -72
        let c = Contract::plain(GameType::Diamonds);
        let r = GameResult::value_game(0, c, 36, cards("CJ HJ"), outcome(80, 7), EndReason::Played);
        assert!(r.overbid && !r.won);
        assert_eq!(r.value, -72);
        assert_eq!(r.scores, [-122, 40, 40]);
    }

    #[test]
    fn grand_ouvert_and_clubs_hand_schwarz() {
        let go = Contract::new(GameType::Grand, false, false, false, true).unwrap();
        let r = GameResult::value_game(
            1,
            go,
            18,
            cards("CJ HJ"),
            outcome(120, 10),
            EndReason::Played,
        );
        assert!(r.won);
        assert_eq!(r.value, 192);
        assert_eq!(r.scores, [0, 242, 0]);
        let chz = Contract::new(GameType::Clubs, true, false, true, false).unwrap();
        let r = GameResult::value_game(
            2,
            chz,
            18,
            cards("CJ SJ HJ"),
            outcome(120, 10),
            EndReason::Played,
        );
        assert_eq!(r.value, 108);
        // schwarz announced but one trick lost: lost with the same levels
        let r = GameResult::value_game(
            2,
            chz,
            18,
            cards("CJ SJ HJ"),
            outcome(115, 9),
            EndReason::Played,
        );
        assert!(!r.won);
        assert_eq!(r.value, -216);
    }

    #[test]
    fn schneider_either_way_and_schwarz_by_tricks() {
        let c = Contract::plain(GameType::Hearts);
        // declarer 95: schneider; with 1 -> (1+1+1) * 10 = 30
        let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(95, 8), EndReason::Played);
        assert!(r.won && r.schneider && !r.schwarz);
        assert_eq!(r.value, 30);
        // declarer 30: schneidered, lost -> -(3*10*2)
        let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(30, 3), EndReason::Played);
        assert!(!r.won && r.schneider);
        assert_eq!(r.value, -60);
        // declarer 31: no schneider
        let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(31, 3), EndReason::Played);
        assert!(!r.schneider);
        assert_eq!(r.value, -40);
        // all tricks but points from the skat are the defenders'? schwarz counts tricks
        let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(110, 10), EndReason::Played);
        assert!(r.schwarz && r.schneider);
        assert_eq!(r.value, 10 * (1 + 1 + 1 + 1));
        // declarer without a trick but 0 points: schwarz against her
        let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(0, 0), EndReason::Played);
        assert!(r.schwarz && !r.won);
    }

    #[test]
    fn hand_and_announcements() {
        let ch = Contract::new(GameType::Spades, true, false, false, false).unwrap();
        let r = GameResult::value_game(0, ch, 18, cards("SJ"), outcome(70, 6), EndReason::Played);
        // without 1, game, hand = 3 * 11
        assert_eq!(r.matadors, -1);
        assert_eq!(r.value, 33);
        let chs = Contract::new(GameType::Spades, true, true, false, false).unwrap();
        let r = GameResult::value_game(0, chs, 18, cards("SJ"), outcome(70, 6), EndReason::Played);
        // schneider announced, not reached: lost; levels: 1 + 1 + hand + schneider + announced = 5
        assert!(!r.won);
        assert_eq!(r.value, -2 * 55);
        let r = GameResult::value_game(0, chs, 18, cards("SJ"), outcome(90, 8), EndReason::Played);
        assert!(r.won);
        assert_eq!(r.value, 55);
    }

    #[test]
    fn null_values() {
        for (hand, ouvert, v) in [
            (false, false, 23),
            (true, false, 35),
            (false, true, 46),
            (true, true, 59),
        ] {
            let c = Contract::new(GameType::Null, hand, false, false, ouvert).unwrap();
            let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(0, 0), EndReason::Played);
            assert!(r.won);
            assert_eq!(r.value, v);
            assert_eq!(r.matadors, 0);
            let r = GameResult::value_game(0, c, 18, cards("CJ"), outcome(0, 1), EndReason::Played);
            assert!(!r.won);
            assert_eq!(r.value, -2 * v);
        }
    }

    #[test]
    fn iss_result_parse_and_compare() {
        let r = IssResult::parse(
            "d:2 loss v:-54 m:-2 bidok p:59 t:4 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0",
        )
        .unwrap();
        assert_eq!(r.declarer, 2);
        assert_eq!(r.value, -54);
        assert!(IssResult::parse("passed").unwrap().passed);
        assert!(IssResult::parse("nonsense").is_err());
        let c = Contract::plain(GameType::Diamonds);
        let g = GameResult::value_game(2, c, 18, cards("SJ"), outcome(59, 4), EndReason::Played);
        // diamonds without 2 (CJ SJ missing? SJ held -> without 1); value differs
        assert!(!r.differences(&g).is_empty());
        let g = GameResult::value_game(2, c, 18, cards("HJ"), outcome(59, 4), EndReason::Played);
        assert_eq!(r.differences(&g), Vec::<String>::new());
        assert_eq!(
            IssResult::parse(&g.to_iss()).unwrap().differences(&g),
            Vec::<String>::new()
        );
    }
}
