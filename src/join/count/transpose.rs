//! Pairs weighed by the transposition: an even board's whole units count each solution 2, 1
//! or 0 times, by where its queens on the two long diagonals stand, so that the pairs that
//! weigh 0 are never tested.
//!
//! The units use four of the board's eight symmetries: the north-south flip (a unit's row
//! set reversed) and the east-west one (its complement), with the half-turn they make. The
//! reflection in the long main diagonal (the transposition) is not among them: it turns
//! rows into columns. It moves the queen of the long main diagonal nowhere, and the queen of
//! the long anti-diagonal from the north-east quarter to the south-west one or back. So of
//! a solution with a queen on each long diagonal and its transpose, exactly one has those
//! two queens in the same half of the columns (both west, or both east), and the other has
//! them in different halves. Counting the first kind twice and the second not at all
//! counts every solution once in all. Each of the four symmetries the units use keeps a
//! solution's kind (the flips swap the two long diagonals, the east-west one the halves too),
//! so a unit's weighed count is still its orbit's, and the units add up as before. Every
//! other solution (a long diagonal empty) counts once.
//!
//! A half-board holds the long diagonals' cells of its own half only: which long diagonals
//! each side holds says which kind a pair makes. The long diagonals are the first two hard
//! cuts of every index of an even board, whatever its size, way or partition (a partition
//! fixes the cuts after them: `CutPlan::transposing`), so their bits are in every bucket
//! number: the walk (`walk.rs`) weighs each pair of buckets and skips those that weigh 0.
//! Of the pairs an index would test, those are about a fifth (a half-board holds a given
//! long diagonal's cell about half the time).

/// The bits of the two long diagonals in an index's hard bucket numbers, where its pairs are
/// weighed by the transposition; none where they are not (every pair weighs 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::join) struct LongBits {
    /// One bit each, or both zero.
    main: usize,
    anti: usize,
}

impl LongBits {
    /// No weighing: every pair weighs 1.
    pub(in crate::join) const NONE: LongBits = LongBits { main: 0, anti: 0 };

    /// The long main diagonal at bucket bit `main`, the long anti-diagonal at bit `anti`.
    pub(in crate::join) fn at(main: u32, anti: u32) -> LongBits {
        assert_ne!(main, anti, "two bucket bits");
        LongBits {
            main: 1 << main,
            anti: 1 << anti,
        }
    }

    /// What a pair of half-boards from the hard buckets `x` and `y` weighs (the buckets share
    /// no hard cut): 1 unless the two hold both long diagonals between them; then 2 if one
    /// of them holds both (the two queens in one half of the columns), 0 if each holds one.
    /// The same whichever side either is.
    #[inline(always)]
    pub(in crate::join) fn weight(self, x: usize, y: usize) -> u64 {
        let (main, anti) = (self.main, self.anti);
        let held = x | y;
        if held & main == 0 || held & anti == 0 {
            return 1;
        }
        let both = |bucket: usize| bucket & main != 0 && bucket & anti != 0;
        if both(x) || both(y) { 2 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    /// Every solution of the n x n board, as each row's column (the library's own stream of
    /// them, which shares no code with the join).
    fn solutions(n: usize) -> Vec<Vec<usize>> {
        let all = crate::solutions(n as u32).expect("a board size");
        all.map(|s| s.columns().iter().map(|&c| c as usize).collect())
            .collect()
    }

    /// A solution's two half-boards as the walk sees them: for the west and the east half,
    /// a bucket with bit 0 where it holds the long main diagonal's cell, bit 1 the long
    /// anti-diagonal's.
    fn halves(solution: &[usize]) -> (usize, usize) {
        let n = solution.len();
        let (mut west, mut east) = (0, 0);
        for (r, &c) in solution.iter().enumerate() {
            let side = if c < n / 2 { &mut west } else { &mut east };
            if c == r {
                *side |= 1;
            }
            if c == n - 1 - r {
                *side |= 2;
            }
        }
        (west, east)
    }

    /// The weights of every solution of the even boards 4 to 12 add up to the known count,
    /// whichever side is the query; pairs weighing 0 are some of them (a rule that weighed
    /// every pair 1 would pass the first check, not the second).
    #[test]
    fn weighed_solutions_add_up_to_the_known_count() {
        let long = LongBits::at(0, 1);
        for n in [4usize, 6, 8, 10, 12] {
            let all = solutions(n);
            let known = known::total(n as u32).unwrap();
            assert_eq!(all.len() as u128, known, "n = {n}");
            let weighed: u64 = all
                .iter()
                .map(|s| halves(s))
                .map(|(west, east)| {
                    assert_eq!(long.weight(west, east), long.weight(east, west));
                    long.weight(west, east)
                })
                .sum();
            assert_eq!(u128::from(weighed), known, "n = {n}");
            let skipped = all
                .iter()
                .filter(|s| {
                    let (west, east) = halves(s);
                    long.weight(west, east) == 0
                })
                .count();
            assert!(n < 8 || skipped > 0, "n = {n}");
        }
    }

    /// The four symmetries the units use (north-south, east-west, the half-turn) keep a
    /// solution's weight: so each unit's weighed count is that of every unit of its orbit.
    #[test]
    fn the_units_symmetries_keep_a_solution_s_weight() {
        let long = LongBits::at(0, 1);
        for n in [8usize, 10] {
            for s in solutions(n) {
                let weight = |s: &[usize]| {
                    let (west, east) = halves(s);
                    long.weight(west, east)
                };
                let flipped: Vec<usize> = s.iter().rev().copied().collect();
                let mirrored: Vec<usize> = s.iter().map(|&c| n - 1 - c).collect();
                let turned: Vec<usize> = flipped.iter().map(|&c| n - 1 - c).collect();
                for other in [flipped, mirrored, turned] {
                    assert_eq!(weight(&other), weight(&s), "n = {n}: {s:?}");
                }
            }
        }
    }

    /// Off, every pair weighs 1.
    #[test]
    fn without_long_bits_every_pair_weighs_one() {
        for (x, y) in [(0, 0), (3, 0), (1, 2), (0b1100, 0b0011)] {
            assert_eq!(LongBits::NONE.weight(x, y), 1);
        }
        let long = LongBits::at(2, 3);
        assert_eq!(long.weight(0b1100, 0b0011), 2);
        assert_eq!(long.weight(0b0100, 0b1000), 0);
        assert_eq!(long.weight(0b0100, 0b0001), 1);
    }
}
