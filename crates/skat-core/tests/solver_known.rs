//! Known answers for 6-cards-per-hand positions (start and mid-trick, all game types),
//! computed by the plain minimax oracle (`generate_known_answers`, ignored: run it with
//! `cargo test --release -p skat-core --test solver_known -- --ignored` to regenerate
//! `tests/data/solver_k6.txt`). The normal test compares the solver with the file.

mod common;

use common::{oracle, random_position};
use skat_core::solver::{null_survival, Position, Solver, SolverOptions};
use skat_core::{Card, Cards, Contract, GameType, Rng};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/solver_k6.txt");

fn cards_token(c: Cards) -> String {
    if c.is_empty() {
        "-".into()
    } else {
        c.to_tokens(".")
    }
}

fn parse_cards(s: &str) -> Cards {
    if s == "-" {
        Cards::EMPTY
    } else {
        Cards::parse(s).unwrap()
    }
}

fn to_line(p: &Position, v: i32) -> String {
    let trick: Vec<String> = p.trick().iter().map(|c| c.to_string()).collect();
    format!(
        "{} {} {} {} {} {} {} {} {} {}",
        p.game_type().letter(),
        p.declarer(),
        p.leader(),
        cards_token(p.hands()[0]),
        cards_token(p.hands()[1]),
        cards_token(p.hands()[2]),
        if trick.is_empty() {
            "-".to_string()
        } else {
            trick.join(".")
        },
        p.declarer_points(),
        p.declarer_tricks(),
        v
    )
}

fn from_line(line: &str) -> (Position, i32) {
    let f: Vec<&str> = line.split_whitespace().collect();
    let gt = GameType::from_letter(f[0].chars().next().unwrap()).unwrap();
    let trick: Vec<Card> = if f[6] == "-" {
        vec![]
    } else {
        f[6].split('.').map(|c| Card::parse(c).unwrap()).collect()
    };
    let p = Position::new(
        [parse_cards(f[3]), parse_cards(f[4]), parse_cards(f[5])],
        Contract::plain(gt),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        &trick,
        f[7].parse().unwrap(),
        f[8].parse().unwrap(),
    )
    .unwrap();
    (p, f[9].parse().unwrap())
}

#[test]
#[ignore]
fn generate_known_answers() {
    let mut rng = Rng::new(6_000_006);
    let mut out = String::from("# game declarer leader hand0 hand1 hand2 trick declarer_points declarer_tricks value (minimax oracle)\n");
    for i in 0..510 {
        let gt = GameType::ALL[i % 6];
        let mid = (i / 6) % 3;
        let p = random_position(&mut rng, 6, gt, mid);
        let v = oracle(&p);
        out.push_str(&to_line(&p, v));
        out.push('\n');
    }
    std::fs::write(FILE, out).unwrap();
}

#[test]
fn solver_matches_known_answers_with_six_cards() {
    let text = std::fs::read_to_string(FILE).expect("known-answer file");
    let mut solver = Solver::new(SolverOptions {
        tt_mb: 8,
        ..SolverOptions::default()
    });
    let mut plain = Solver::new(SolverOptions {
        tt_mb: 8,
        ..SolverOptions::plain()
    });
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (p, want) = from_line(line);
        solver.clear();
        assert_eq!(solver.solve(&p).value, want, "{line}");
        let (moves, _) = solver.analyze(&p);
        assert_eq!(common::best_of(&p, &moves), want, "analyze {line}");
        if n % 5 == 0 {
            // every enhancement off (slower): a fifth of the file
            plain.clear();
            assert_eq!(plain.solve(&p).value, want, "plain {line}");
        }
        if p.game_type().is_null() {
            for t in [5, 8, 11] {
                assert_eq!(
                    solver.reaches(&p, t).0,
                    null_survival(want) >= t,
                    "{line} reaches {t}"
                );
            }
        } else {
            for t in [31, 61, 90, 120] {
                assert_eq!(solver.reaches(&p, t).0, want >= t, "{line} reaches {t}");
            }
        }
        n += 1;
    }
    assert!(n >= 500, "only {n} known answers");
}
