//! Null solver totals at 30 cards with lowest-winning-rank partition search on or off: `N`
//! random null deals (random declarer, forehand to lead, seed 5), each solved and analysed on
//! a cleared 8 MB table. Prints the total nodes and microseconds. The measurement behind the
//! `partition_search` default:
//!
//! `cargo run --release --example null_probe -p skat-core -- [N] [on|off]`

use skat_core::solver::{bench, Solver, SolverOptions};
use skat_core::{Deal, GameType, Rng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let part = args.get(2).map(|s| s == "on").unwrap_or(true);
    let mut s = Solver::new(SolverOptions {
        partition_search: part,
        tt_mb: 8,
        ..SolverOptions::default()
    });
    let mut rng = Rng::new(5);
    let positions: Vec<_> = (0..n)
        .map(|_| {
            let deal = Deal::random(rng.next_u64());
            let declarer = rng.below(3) as u8;
            bench::start_position(&deal, declarer, GameType::Null)
        })
        .collect();
    let (mut sn, mut st, mut an, mut at) = (0u64, 0u64, 0u64, 0u64);
    for p in &positions {
        s.clear();
        let o = s.solve(p);
        sn += o.stats.nodes;
        st += o.stats.micros;
        s.clear();
        let (_, a) = s.analyze(p);
        an += a.nodes;
        at += a.micros;
    }
    println!(
        "partition search {}: solve {sn} nodes {st} us; analyze {an} nodes {at} us",
        if part { "on" } else { "off" }
    );
}
