//! The textbook counter as a program (`nqueens::textbook`), the denominator of the scripts'
//! tables: `cargo run --release --example textbook -- 16` prints 14772512.

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse::<u32>().ok());
    match n.and_then(nqueens::textbook::count) {
        Some(count) => println!("{count}"),
        None => {
            eprintln!("usage: textbook N   (1 <= N <= 32)");
            std::process::exit(2);
        }
    }
}
