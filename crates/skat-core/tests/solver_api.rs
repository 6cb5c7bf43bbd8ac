//! The solver's API: positions from games, errors, threads, determinism, memory, null
//! `reaches` semantics, the benchmark signature.

mod common;

use skat_core::solver::{self, bench, null_survival, solve_many, Position, Solver, SolverOptions};
use skat_core::{Action, Card, Cards, Contract, Deal, Game, GameType, Rng, SkatError};

/// Plays a game to its card play: seat 1 bids 18, seat 0 passes, seat 2 passes; seat 1
/// declares `contract` as a hand game; then `plays` cards are played (lowest legal card).
fn game_in_play(seed: u64, gt: GameType, plays: usize) -> Game {
    let mut g = Game::new(Deal::random(seed));
    g.apply(Action::Bid(18)).unwrap();
    g.apply(Action::Pass).unwrap();
    g.apply(Action::Pass).unwrap();
    let k = Contract::new(gt, true, false, false, false).unwrap();
    g.apply(Action::Declare(k, None)).unwrap();
    for _ in 0..plays {
        if g.is_over() {
            break;
        }
        let c = g.legal_cards().lowest().unwrap();
        g.apply(Action::Play(c)).unwrap();
    }
    g
}

#[test]
fn positions_from_games() {
    for (i, gt) in GameType::ALL.iter().enumerate() {
        for plays in [0, 1, 2, 3, 17, 22] {
            let g = game_in_play(i as u64 + 10, *gt, plays);
            if g.is_over() {
                assert!(Position::from_game(&g).is_err());
                continue;
            }
            let p = Position::from_game(&g).unwrap();
            assert_eq!(p.to_move(), g.to_move().unwrap());
            assert_eq!(p.legal_cards(), g.legal_cards());
            assert_eq!(
                p.declarer_points(),
                if gt.is_null() { 0 } else { g.declarer_points() }
            );
            if plays >= 17 {
                assert_eq!(solver::solve(&p), common::oracle(&p));
            }
        }
    }
    let fresh = Game::new(Deal::random(1));
    assert!(matches!(
        Position::from_game(&fresh),
        Err(SkatError::InvalidPosition(_))
    ));
}

#[test]
fn invalid_positions_are_errors() {
    let d = Deal::random(3);
    let k = Contract::plain(GameType::Hearts);
    let bad = [
        Position::new([d.hands[0], d.hands[0], d.hands[2]], k, 0, 0, &[], 0, 0),
        Position::new([d.hands[0], d.hands[1], Cards::EMPTY], k, 0, 0, &[], 0, 0),
        Position::new(d.hands, k, 5, 0, &[], 0, 0),
        Position::new(d.hands, k, 0, 0, &[], 200, 0),
        Position::new(d.hands, Contract::plain(GameType::Null), 0, 0, &[], 0, 1),
    ];
    for b in bad {
        assert!(matches!(b, Err(SkatError::InvalidPosition(_))), "{b:?}");
    }
    let p = Position::new(d.hands, k, 0, 0, &[], 0, 0).unwrap();
    let illegal = d.hands[1].lowest().unwrap();
    assert!(p.play(illegal).is_err());
}

#[test]
fn finished_positions() {
    let p = Position::new(
        [Cards::EMPTY; 3],
        Contract::plain(GameType::Grand),
        1,
        2,
        &[],
        77,
        6,
    )
    .unwrap();
    assert_eq!(solver::solve(&p), 77);
    assert!(solver::reaches(&p, 61));
    assert!(solver::analyze(&p).is_empty());
    let n = Position::new(
        [Cards::EMPTY; 3],
        Contract::plain(GameType::Null),
        1,
        2,
        &[],
        0,
        0,
    )
    .unwrap();
    assert_eq!(solver::solve(&n), 0);
    assert!(solver::reaches(&n, 11));
}

#[test]
fn null_reaches_is_on_the_survival_scale() {
    let mut rng = Rng::new(99);
    let mut s = Solver::new(SolverOptions {
        tt_mb: 2,
        ..SolverOptions::default()
    });
    for _ in 0..300 {
        let mid = rng.below(3) as usize;
        let p = common::random_position(&mut rng, 5, GameType::Null, mid);
        let v = s.solve(&p).value;
        assert!(v == 0 || (1..=10).contains(&v));
        for t in 0..=12 {
            assert_eq!(s.reaches(&p, t).0, null_survival(v) >= t);
        }
    }
}

#[test]
fn solve_many_matches_sequential_and_is_thread_independent() {
    let mut rng = Rng::new(5);
    let pos: Vec<Position> = (0..60)
        .map(|i| common::random_position(&mut rng, 5, GameType::ALL[i % 6], i % 3))
        .collect();
    let o = SolverOptions {
        tt_mb: 2,
        ..SolverOptions::default()
    };
    let one = solve_many(&pos, o, 1).unwrap();
    let two = solve_many(&pos, o, 2).unwrap();
    let three = solve_many(&pos, o, 3).unwrap();
    for i in 0..pos.len() {
        assert_eq!(one[i].value, common::oracle(&pos[i]));
        assert_eq!(one[i].value, two[i].value);
        assert_eq!(one[i].stats.nodes, two[i].stats.nodes);
        assert_eq!(one[i].stats.nodes, three[i].stats.nodes);
    }
    assert!(solve_many(&[], o, 4).unwrap().is_empty());
}

#[test]
fn deterministic_and_bounded_memory() {
    let pos = bench::signature_positions();
    assert!(pos.len() >= 20);
    let a = bench::signature();
    assert_eq!(a, bench::signature());
    assert_eq!(a, bench::signature_threads(2));
    let s = Solver::new(SolverOptions {
        tt_mb: 3,
        ..SolverOptions::default()
    });
    assert!(s.table_bytes() <= 3 * 1024 * 1024);
    let s = Solver::new(SolverOptions::plain());
    assert!(s.table_bytes() <= 64 * 1024);
}

#[test]
fn tables_that_cannot_be_allocated_are_an_error_not_an_abort() {
    for tt_mb in [usize::MAX, 1 << 40] {
        let o = SolverOptions {
            tt_mb,
            ..SolverOptions::default()
        };
        let e = Solver::try_new(o).err().expect("refused");
        assert!(matches!(e, skat_core::SkatError::OutOfMemory(_)));
        assert!(e
            .to_string()
            .contains(&format!("{tt_mb} MB transposition table")));
        assert!(solver::check_table_memory(&o, 1).is_err());
        let pos = bench::signature_positions();
        assert!(solve_many(&pos, o, 2).is_err());
        assert!(bench::run(2, 1, o, 0).is_err());
    }
    let small = SolverOptions {
        tt_mb: 1,
        ..SolverOptions::default()
    };
    assert!(solver::check_table_memory(&small, 2).is_ok());
    assert!(solver::check_table_memory(&small, usize::MAX).is_err());
}

#[test]
fn analyze_lists_every_legal_card() {
    let mut rng = Rng::new(8);
    for i in 0..60 {
        let p = common::random_position(&mut rng, 6, GameType::ALL[i % 6], i % 3);
        let (moves, stats) = Solver::new(SolverOptions {
            tt_mb: 2,
            ..SolverOptions::default()
        })
        .analyze(&p);
        let listed: Cards = moves.iter().map(|m| m.0).collect();
        assert_eq!(listed, p.legal_cards());
        assert!(stats.micros < 60_000_000);
        let c: Card = moves[0].0;
        assert_eq!(moves[0].1, solver::solve(&p.play(c).unwrap()));
    }
}
