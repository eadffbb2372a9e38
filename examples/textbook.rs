//! The textbook counter as a program, the denominator of `scripts/bench.sh`:
//! `cargo run --release --example textbook -- 16` prints 14772512.

#[path = "../benches/support/textbook.rs"]
mod textbook;

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse::<u32>().ok());
    match n {
        Some(n) if (1..=32).contains(&n) => println!("{}", textbook::count(n)),
        _ => {
            eprintln!("usage: textbook N   (1 <= N <= 32)");
            std::process::exit(2);
        }
    }
}
