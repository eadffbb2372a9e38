//! The exact solution counts known from the literature, embedded so that tests and the
//! command line's self-check work on any machine.
//!
//! Source: OEIS A000170 (all solutions) and A002562 (solutions distinct under the eight
//! symmetries of the square), n = 1..=27. Q(27) was computed by the Q27 project (2016) and
//! confirmed independently in 2025; nothing beyond n = 27 is known.

/// `(all solutions, unique solutions)` for n = 1..=27; index 0 is n = 1.
const KNOWN: [(u128, u128); 27] = [
    (1, 1),
    (0, 0),
    (0, 0),
    (2, 1),
    (10, 2),
    (4, 1),
    (40, 6),
    (92, 12),
    (352, 46),
    (724, 92),
    (2_680, 341),
    (14_200, 1_787),
    (73_712, 9_233),
    (365_596, 45_752),
    (2_279_184, 285_053),
    (14_772_512, 1_846_955),
    (95_815_104, 11_977_939),
    (666_090_624, 83_263_591),
    (4_968_057_848, 621_012_754),
    (39_029_188_884, 4_878_666_808),
    (314_666_222_712, 39_333_324_973),
    (2_691_008_701_644, 336_376_244_042),
    (24_233_937_684_440, 3_029_242_658_210),
    (227_514_171_973_736, 28_439_272_956_934),
    (2_207_893_435_808_352, 275_986_683_743_434),
    (22_317_699_616_364_044, 2_789_712_466_510_289),
    (234_907_967_154_122_528, 29_363_495_934_315_694),
];

/// The largest n whose counts are known.
pub const MAX_KNOWN_N: u32 = KNOWN.len() as u32;

/// The known number of solutions of the n-queens puzzle (OEIS A000170), if n is in the table.
pub fn total(n: u32) -> Option<u128> {
    entry(n).map(|(all, _)| all)
}

/// The known number of solutions distinct under rotation and reflection (OEIS A002562).
pub fn unique(n: u32) -> Option<u128> {
    entry(n).map(|(_, unique)| unique)
}

/// Whether `solutions` can be the number of solutions of n by a rule proved for every n:
/// from n = 6 on the count is a multiple of 4 (H. M. Nielsen, 2026, arXiv 2601.05856: the
/// solutions that a quarter turn maps onto themselves, the only ones in classes of two, come
/// in pairs of classes). The check a count past the table still has, against a fault.
pub fn possible_total(n: u32, solutions: u128) -> bool {
    n < 6 || solutions.is_multiple_of(4)
}

fn entry(n: u32) -> Option<(u128, u128)> {
    let index = usize::try_from(n).ok()?.checked_sub(1)?;
    KNOWN.get(index).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_covers_one_to_twenty_seven() {
        assert_eq!(total(0), None);
        assert_eq!(total(1), Some(1));
        assert_eq!(total(8), Some(92));
        assert_eq!(unique(8), Some(12));
        assert_eq!(total(27), Some(234_907_967_154_122_528));
        assert_eq!(total(28), None);
    }

    #[test]
    fn every_known_count_keeps_the_rule_of_four() {
        for n in 1..=MAX_KNOWN_N {
            assert!(possible_total(n, total(n).unwrap()), "n = {n}");
        }
        // n = 5 is the last size the rule leaves out: 10 solutions.
        assert_eq!(total(5), Some(10));
        assert!(!possible_total(6, 6) && !possible_total(30, 2) && possible_total(30, 8));
    }

    #[test]
    fn unique_never_exceeds_total_and_bounds_it_from_below() {
        // Each class has at most eight members, so unique <= total <= 8 * unique.
        for n in 1..=MAX_KNOWN_N {
            let (t, u) = (total(n).unwrap(), unique(n).unwrap());
            assert!(u <= t && t <= 8 * u, "n = {n}");
        }
    }
}
