//! Every record in `tests/data/iss/` (see its `SOURCE` file) is read without error, and every complete game replays
//! with exactly the recorded result.

use std::path::PathBuf;

use skat_core::{record, Record};

fn data_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/iss");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

#[test]
fn every_record_replays_with_its_result() {
    let mut complete = 0;
    let mut mismatches = Vec::new();
    for path in data_files() {
        for line in std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            let rec = Record::parse(line).unwrap();
            let game = rec.replay().unwrap_or_else(|e| panic!("{e}"));
            if let Some(recorded) = &rec.result {
                complete += 1;
                let ours = game
                    .result()
                    .unwrap_or_else(|| panic!("record {} did not finish", rec.id()));
                let d = recorded.differences(ours);
                if !d.is_empty() {
                    mismatches.push(format!("{}: {}", rec.id(), d.join("; ")));
                }
            }
            // writing and reading again gives the same game
            let again = Record::parse(&record::write(&game))
                .unwrap()
                .replay()
                .unwrap();
            assert_eq!(again.history(), game.history());
            assert_eq!(again.result(), game.result());
        }
    }
    assert!(complete >= 50);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
