//! `cargo run --release --example solver_bench -p skat-core -- [N] [seed] [ablation N]`
//! Prints the solver benchmark tables.

use skat_core::solver::bench;
use skat_core::solver::SolverOptions;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let abl: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(n);
    let r = bench::run(n, seed, SolverOptions::default(), abl).expect("benchmark tables");
    println!(
        "solver benchmark: {} positions, seed {}, single thread",
        r.positions, r.seed
    );
    println!(
        "{:<6} {:>4} | {:>9} {:>9} {:>9} {:>10} | {:>9} {:>9} {:>10} | {:>9} {:>10} {:>9}",
        "class",
        "n",
        "solve med",
        "mean",
        "p95",
        "nodes med",
        "reach med",
        "p95",
        "nodes med",
        "anlz mean",
        "nodes med",
        "worlds/s"
    );
    for row in &r.rows {
        println!(
            "{:<6} {:>4} | {:>7.2}ms {:>7.2}ms {:>7.2}ms {:>10.0} | {:>7.3}ms {:>7.2}ms {:>10.0} | {:>7.2}ms {:>10.0} {:>9.1}",
            row.class,
            row.solve.count,
            row.solve.median_us / 1e3,
            row.solve.mean_us / 1e3,
            row.solve.p95_us / 1e3,
            row.solve.median_nodes,
            row.reaches.median_us / 1e3,
            row.reaches.p95_us / 1e3,
            row.reaches.median_nodes,
            row.analyze.mean_us / 1e3,
            row.analyze.median_nodes,
            row.worlds_per_sec
        );
    }
    if !r.ablations.is_empty() {
        println!("\nablations (solve, totals; saved = what the enhancement saves)");
        println!(
            "{:<20} {:<6} {:>12} {:>10} {:>8} {:>8}",
            "switched off", "class", "nodes", "ms", "nodes%", "time%"
        );
        for a in &r.ablations {
            println!(
                "{:<20} {:<6} {:>12} {:>10.1} {:>7.1}% {:>7.1}%",
                a.name,
                a.class,
                a.nodes,
                a.micros as f64 / 1e3,
                a.nodes_saved_pct,
                a.time_saved_pct
            );
        }
    }
    println!("\nsignature: {}", r.signature);
}
