//! How often a unit's west half-boards hold each pattern of its partition bits, all cuts at
//! once: the odds of the west partitions' sizes, which set their indexes' cuts and most of
//! their weights ([`super::shares::Shares`]).
//!
//! The cuts are the central diagonals, neighbours of each direction, and a half-board's
//! queens never share a diagonal: a half-board that holds one cut holds its neighbour less
//! often than the two cuts' odds multiplied would say, and one cut of each direction can
//! be held by one queen. Taken as independent, the cuts' odds made the west partitions of
//! 131 parts of n = 28 from 11.6 times too few to too many (the log of estimate / made
//! varied with a standard deviation of 0.34); with the odds of this file, 3.2 times (0.18).

use super::holds::CutOdds;
use super::partition::{MAX_BITS, odds_f32};

/// The rounds that bring the patterns' odds of holding each cut to the cut's own odds
/// ([`west_patterns`]): on 516 parts of n = 26 to 28, two left the standard deviation of
/// the west partitions' errors within 0.001 of thirty rounds', one within 0.015.
const ROUNDS: usize = 2;

/// Patterns are worked on in chunks of this many, whose lanes are the three lowest bits.
const LANES: usize = 8;

/// The odds, for each pattern `p` of the first `bits` cuts (bit `i` for cut `i`), that a
/// half-board of the side on board rows `rows` holds exactly the cuts of `p` among them
/// (`2^bits` of them, summing to one).
///
/// Every row's queen stands on one of the row's free squares, drawn at random and apart
/// from the other rows', and only the draws where no two queens stand on one cut count:
/// a row at a time, the odds of each pattern held so far are carried to the patterns its
/// squares on the cuts add. That alone holds each cut less often than its own odds, which
/// follow the side's real half-boards (`holds.rs`'s test), so each cut's patterns are then
/// scaled by one factor per cut, all at once, in [`ROUNDS`] rounds that bring their odds
/// close to those (a cut's factor multiplies every pattern holding it: the draws that hold
/// a cut hold it once).
///
/// In `f32`, whose additions, multiplications and divisions every machine rounds alike
/// (sums are taken in a fixed order, lane by lane, and Rust never fuses a multiplication
/// and an addition unasked): every machine deals the same shards. For n = 28's ten million
/// units, in chunks of [`LANES`] patterns that the compiler turns into vector instructions.
pub(in crate::join) fn west_patterns(cuts: &CutOdds, rows: u64, bits: u8) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_avx2() {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { west_patterns_avx2(cuts, rows, bits) };
    }
    west_patterns_in(cuts, rows, bits)
}

/// [`west_patterns`] in vectors of eight lanes where the processor has them: the same
/// operations in the same order, so the same odds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn west_patterns_avx2(cuts: &CutOdds, rows: u64, bits: u8) -> Vec<f32> {
    west_patterns_in(cuts, rows, bits)
}

/// [`west_patterns`], built for each instruction set that calls it.
#[inline(always)]
fn west_patterns_in(cuts: &CutOdds, rows: u64, bits: u8) -> Vec<f32> {
    let bits = usize::from(bits.min(MAX_BITS));
    let Patterns {
        mut odds, mut next, ..
    } = carried(cuts, rows, bits);
    let held = cuts.holds(rows);
    for _ in 0..ROUNDS {
        let now = holding(&odds, bits);
        let mut factors = [1f32; MAX_BITS as usize];
        for (cut, factor) in factors.iter_mut().enumerate().take(bits) {
            let (now, wanted) = (now[cut], odds_f32(held[cut]));
            // Odds ratios; a cut held always or never (placed, or off every square) stays.
            if now > 0.0 && now < 1.0 && wanted > 0.0 && wanted < 1.0 {
                *factor = (wanted / (1.0 - wanted)) / (now / (1.0 - now));
            }
        }
        scale(&mut odds, &mut next, &factors[..bits]);
    }
    let total: f32 = lane_sums(&odds).iter().sum();
    odds.truncate(1 << bits);
    for odds in &mut odds {
        *odds /= total;
    }
    odds
}

/// The odds of each pattern of the first `bits` cuts from the rows' draws alone (summing to
/// less than one: the draws where two queens share a cut are left out).
#[inline(always)]
fn carried(cuts: &CutOdds, rows: u64, bits: usize) -> Patterns {
    // A row whose squares meet the cuts of one direction only (the rows of the north half
    // meet only main cuts, those of the south half anti ones, but for a few beside the
    // middle) is carried in that direction's patterns alone, `2^(bits / 2)` of them; the
    // two directions' patterns are then multiplied, and the other rows carried in those.
    let mut directions = [0, 1].map(|direction| {
        Patterns::new(
            (bits + 1 - direction) / 2,
            gather(cuts.placed as usize, direction),
        )
    });
    let mut both = 0u64;
    let mut rest = rows;
    while rest != 0 {
        let row = rest.trailing_zeros();
        rest &= rest - 1;
        let squares = cuts.squares(row as usize, bits as u8);
        let on = squares.cuts[..squares.len]
            .iter()
            .fold(0, |all, &on| all | on as usize);
        let square = odds_f32(squares.odds);
        match (on & EVEN != 0, on & !EVEN != 0) {
            (false, false) => {}
            (true, true) => both |= 1 << row,
            (_, main) => {
                let direction = usize::from(main);
                let mut squares = squares;
                for on in &mut squares.cuts[..squares.len] {
                    *on = gather(*on as usize, direction) as u32;
                }
                directions[direction].carry_row(&squares.cuts[..squares.len], square);
            }
        }
    }
    let [anti, main] = &directions;
    let mut patterns = Patterns::new(bits, 0);
    let spread_main: [usize; 1 << (MAX_BITS / 2)] = std::array::from_fn(|m| spread(m, 1));
    for (a, &anti) in anti.odds[..anti.len()].iter().enumerate() {
        let a = spread(a, 0);
        for (&m, &main) in spread_main[..main.len()].iter().zip(&main.odds) {
            patterns.odds[a | m] = anti * main;
        }
    }
    let mut rest = both;
    while rest != 0 {
        let row = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let squares = cuts.squares(row, bits as u8);
        let square = odds_f32(squares.odds);
        patterns.carry_row(&squares.cuts[..squares.len], square);
    }
    patterns
}

/// The even bits: the anti-diagonals' among the cuts.
const EVEN: usize = 0x5555_5555;

/// Bits `direction`, `direction + 2`, ... of `pattern`, side by side: its cuts of one
/// direction.
fn gather(pattern: usize, direction: usize) -> usize {
    (0..MAX_BITS as usize / 2).fold(0, |out, j| out | (pattern >> (direction + 2 * j) & 1) << j)
}

/// The inverse of [`gather`]: a direction's cuts back in their places among all cuts.
fn spread(pattern: usize, direction: usize) -> usize {
    (0..MAX_BITS as usize / 2).fold(0, |out, j| out | (pattern >> j & 1) << (direction + 2 * j))
}

/// The odds of each pattern of `bits` cuts carried so far, and room for the next row's.
struct Patterns {
    bits: usize,
    /// At least a chunk of [`LANES`]; patterns past `2^bits` keep odds of zero.
    odds: Vec<f32>,
    next: Vec<f32>,
}

impl Patterns {
    /// Patterns of `bits` cuts, `held` held before any row's queen stands (placed queens').
    fn new(bits: usize, held: usize) -> Patterns {
        let size = (1usize << bits).max(LANES);
        let mut odds = vec![0f32; size];
        odds[held & ((1 << bits) - 1)] = 1.0;
        Patterns {
            bits,
            odds,
            next: vec![0f32; size],
        }
    }

    fn len(&self) -> usize {
        1 << self.bits
    }

    /// Carries the odds to the patterns that a row's queen adds, standing on one of its
    /// squares on the cuts (`squares`, each the cuts it meets) with odds `square` each, or
    /// elsewhere.
    #[inline(always)]
    fn carry_row(&mut self, squares: &[u32], square: f32) {
        if squares.is_empty() {
            return;
        }
        let elsewhere = 1.0 - square * squares.len() as f32;
        for (next, odds) in self.next.iter_mut().zip(&self.odds) {
            *next = odds * elsewhere;
        }
        for &on in squares {
            carry(&self.odds, &mut self.next, on as usize, square);
        }
        std::mem::swap(&mut self.odds, &mut self.next);
    }
}

/// Adds to `next` the odds of the patterns of `odds` clear of `on` (a square's cuts), times
/// `square`, at those patterns with `on` set: the square's queen holds its cuts.
#[inline(always)]
fn carry(odds: &[f32], next: &mut [f32], on: usize, square: f32) {
    match on % LANES {
        0 => carry_with::<0>(odds, next, on, square),
        1 => carry_with::<1>(odds, next, on, square),
        2 => carry_with::<2>(odds, next, on, square),
        3 => carry_with::<3>(odds, next, on, square),
        4 => carry_with::<4>(odds, next, on, square),
        5 => carry_with::<5>(odds, next, on, square),
        6 => carry_with::<6>(odds, next, on, square),
        _ => carry_with::<7>(odds, next, on, square),
    }
}

/// [`carry`] for a square whose cuts in the lanes' bits are `LOW`: known when compiled, so
/// that moving odds between lanes is a fixed shuffle.
#[inline(always)]
fn carry_with<const LOW: usize>(odds: &[f32], next: &mut [f32], on: usize, square: f32) {
    let high = on / LANES;
    // Per lane: the odds it receives (from the lane without the square's bits), or none.
    let factor: [f32; LANES] =
        std::array::from_fn(|lane| if lane & LOW == LOW { square } else { 0.0 });
    for (chunk, from) in odds.chunks_exact(LANES).enumerate() {
        if chunk & high != 0 {
            continue;
        }
        let to = &mut next[(chunk | high) * LANES..][..LANES];
        for lane in 0..LANES {
            to[lane] += from[lane ^ LOW] * factor[lane];
        }
    }
}

/// Each cut's odds of being held: the odds of the patterns holding it summed, over their
/// total (the first `bits` cuts). Lane by lane, and then the lanes in order: the same sums
/// on every machine.
#[inline(always)]
fn holding(odds: &[f32], bits: usize) -> [f32; MAX_BITS as usize] {
    let all = lane_sums(odds);
    // Per cut past the lanes' bits, the chunks holding it, in order: the runs of `2^cut`
    // chunks that start at every odd multiple of `2^cut` (a test per chunk and cut took a
    // tenth of n = 28's plan).
    let mut by_chunk = [[0f32; LANES]; MAX_BITS as usize];
    for (cut, sums) in by_chunk.iter_mut().enumerate().take(bits.saturating_sub(3)) {
        let run = LANES << cut;
        for odds in odds.chunks_exact(2 * run) {
            add_lanes(sums, &odds[run..]);
        }
    }
    let total: f32 = all.iter().sum();
    let mut held = [0f32; MAX_BITS as usize];
    for (cut, held) in held.iter_mut().enumerate().take(bits) {
        let sum: f32 = if cut < 3 {
            all.iter()
                .enumerate()
                .filter(|(lane, _)| lane >> cut & 1 == 1)
                .map(|(_, s)| s)
                .sum()
        } else {
            by_chunk[cut - 3].iter().sum()
        };
        *held = sum / total;
    }
    held
}

/// The odds of every chunk summed, lane by lane (in order: the same on every machine).
#[inline(always)]
fn lane_sums(odds: &[f32]) -> [f32; LANES] {
    let mut lanes = [0f32; LANES];
    add_lanes(&mut lanes, odds);
    lanes
}

/// Adds the odds of every chunk of `odds` to `lanes`, lane by lane, chunk after chunk.
#[inline(always)]
fn add_lanes(lanes: &mut [f32; LANES], odds: &[f32]) {
    for odds in odds.chunks_exact(LANES) {
        for (sum, odds) in lanes.iter_mut().zip(odds) {
            *sum += odds;
        }
    }
}

/// Multiplies each pattern's odds by the factors of the cuts it holds (`products` is room
/// for their products, one per pattern).
#[inline(always)]
fn scale(odds: &mut [f32], products: &mut [f32], factors: &[f32]) {
    products[0] = 1.0;
    for (cut, &factor) in factors.iter().enumerate() {
        let half = 1usize << cut;
        let (clear, set) = products.split_at_mut(half);
        for (set, clear) in set[..half].iter_mut().zip(&clear[..half]) {
            *set = clear * factor;
        }
    }
    for (odds, product) in odds.iter_mut().zip(products.iter()) {
        *odds *= product;
    }
}
/// The odds of each pattern of the cuts `held` lists (in 2^-32), each held with its own
/// odds apart from the others: the shares of partitions before [`west_patterns`], for tests.
#[cfg(test)]
pub(in crate::join) fn independent(held: &[u64]) -> Vec<f32> {
    let mut odds = vec![1f32];
    for &held in held {
        let held = odds_f32(held);
        let clear = odds.iter().map(|&odds| odds * (1.0 - held));
        let set = odds.iter().map(|&odds| odds * held);
        odds = clear.chain(set).collect();
    }
    odds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::quarter::Quarter;
    use crate::join::plan::holds::board_rows;
    use crate::join::plan::tasks::Plan;

    /// Every pattern's odds carried a row at a time through all the cuts: what
    /// [`west_patterns`] does before its factors, without splitting rows by direction.
    fn carried_whole(cuts: &CutOdds, rows: u64, bits: usize) -> Vec<f32> {
        let mut patterns = Patterns::new(bits, cuts.placed as usize);
        for row in (0..64).filter(|row| rows >> row & 1 == 1) {
            let squares = cuts.squares(row, bits as u8);
            let square = odds_f32(squares.odds);
            patterns.carry_row(&squares.cuts[..squares.len], square);
        }
        patterns.odds.truncate(1 << bits);
        patterns.odds
    }

    /// The west sides' patterns of the first `bits` cuts, made and counted beside their
    /// odds, both estimates' and independent ones: for each west side of the n x n board
    /// with `min` half-boards or more, (half-boards per pattern, odds, independent odds).
    fn real_patterns(n: u32, bits: usize, min: usize) -> Vec<(Vec<u64>, Vec<f32>, Vec<f32>)> {
        let plan = Plan::new(n, 8);
        let h = plan.shape.h;
        let whole = Quarter::build_with(h, false);
        let positions = plan.cut_plan().first(bits).to_vec();
        let mut sides = Vec::new();
        for &west in &plan.units {
            plan.each_side(west, |place, odds, east| {
                if east {
                    return;
                }
                let north = whole.rows(place.north.table_rows(h, place.north_rows));
                let south = whole.rows(place.south.table_rows(h, place.south_rows));
                let side = plan.side(place, north, south);
                let out = side.all_patterns();
                if out.len() < min {
                    return;
                }
                let mut counts = vec![0u64; 1 << bits];
                for half in &out {
                    let pattern = (0..bits).fold(0, |p, i| p | (half >> positions[i] & 1) << i);
                    counts[pattern as usize] += 1;
                }
                let rows = board_rows(plan.shape, place);
                let held = odds.cuts.holds(rows);
                let patterns = west_patterns(&odds.cuts, rows, bits as u8);
                sides.push((counts, patterns, independent(&held[..bits])));
            });
        }
        sides
    }

    /// Carrying the rows of one direction apart and multiplying the two directions'
    /// patterns is carrying every row through all the patterns, but for rounding.
    #[test]
    fn rows_of_one_direction_are_carried_apart_exactly() {
        for n in [16u32, 17, 20] {
            let plan = Plan::new(n, 8);
            let odds = &plan.odds().west.cuts;
            for &west in plan.units.iter().step_by(97) {
                let rows = board_rows(plan.shape, plan.west(west));
                for bits in [1usize, 4, 7, 8] {
                    let whole = carried_whole(odds, rows, bits);
                    let total: f32 = whole.iter().sum();
                    let mut apart = carried(odds, rows, bits).odds;
                    apart.truncate(1 << bits);
                    for (a, b) in apart.iter().zip(&whole) {
                        assert!((a - b).abs() <= 1e-5 * total, "n = {n} bits {bits}");
                    }
                }
            }
        }
    }

    /// The odds of the patterns follow the share of a west side's real half-boards holding
    /// each (n = 16 and 17, every west side of 2,000 half-boards or more, the first eight
    /// cuts, patterns of 20 half-boards or more) closer than each cut's odds multiplied:
    /// the root mean square of the log of odds / share, weighted by half-boards, was 0.55
    /// against 0.73 at n = 16, 0.48 against 0.64 at n = 17.
    #[test]
    fn pattern_odds_follow_the_real_half_boards() {
        for n in [16u32, 17] {
            let bits = 8;
            let (mut joint, mut apart, mut weight) = (0f64, 0f64, 0f64);
            for (counts, odds, independent) in real_patterns(n, bits, 2000) {
                let total: u64 = counts.iter().sum();
                for (pattern, &count) in counts.iter().enumerate() {
                    if count < 20 {
                        continue;
                    }
                    let share = count as f64 / total as f64;
                    let error = |odds: f32| (f64::from(odds).max(1e-9) / share).ln().powi(2);
                    joint += count as f64 * error(odds[pattern]);
                    apart += count as f64 * error(independent[pattern]);
                    weight += count as f64;
                }
            }
            let (joint, apart) = ((joint / weight).sqrt(), (apart / weight).sqrt());
            assert!(joint < 0.85 * apart, "n = {n}: {joint} vs {apart}");
        }
    }
}
