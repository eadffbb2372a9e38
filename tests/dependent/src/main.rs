//! A dependent of the nqueens library. With no arguments, it runs the README's library
//! example; with `ENGINE N` (`join` or `search`), it counts the n x n board on one thread with
//! that engine and prints the count and the seconds it took, for `scripts/library-speed.sh`.

use nqueens::{Counter, Engine, Symmetry};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => readme_example()?,
        [engine, n] => {
            let engine = match engine.as_str() {
                "join" => Engine::Join,
                "search" => Engine::Search(Symmetry::Full),
                other => return Err(format!("unknown engine {other} (join or search)").into()),
            };
            let start = Instant::now();
            let count = Counter::new().engine(engine).threads(1).count(n.parse()?)?;
            println!("{} {:.3}", count.solutions, start.elapsed().as_secs_f64());
        }
        _ => return Err("usage: nqueens-dependent [join|search N]".into()),
    }
    Ok(())
}

/// The README's library example, as a dependent writes it: the README's lines as it shows
/// them (tests/dependent_crate.rs compares them), so not as rustfmt would break them.
#[rustfmt::skip]
fn readme_example() -> Result<(), nqueens::Error> {
    assert_eq!(nqueens::count(10)?, 724);
    let count = Counter::new().threads(2).split_depth(3).count(12)?;
    assert_eq!(count.solutions, 14_200);
    let join = Counter::new().engine(Engine::Join).max_memory(1 << 30).count(16)?;
    assert_eq!((join.solutions, join.engine), (14_772_512, Engine::Join));
    let mirror = Counter::new().engine(Engine::Search(Symmetry::Mirror)).count(11)?;
    assert_eq!(mirror.solutions, 2_680);
    // Every solution of a board, in parallel, as its column list:
    nqueens::for_each_solution(8, Some(2), |columns: &[u32]| assert_eq!(columns.len(), 8))?;
    println!("the README's example ran");
    Ok(())
}
