//! The weights of a unit's partitions, all of them at once (n = 28 has billions of
//! partitions, and every plan weighs each one), and the runs of them that make its tasks:
//! per partition, its unit's join times its west pattern's odds (`patterns.rs`) to the
//! power 3/4 and the east factors of its set bits, times what its index keeps by its west
//! half-boards ([`Pruning`]), plus the work every partition does.

use super::partition::{ONE, Pruning, UnitParts, odds_f32};
use std::ops::Range;

/// The weights of a unit's partitions by its first `bits` cuts.
pub(in crate::join) struct Shares {
    /// Each partition's weight (at least 1).
    weights: Vec<u64>,
}

impl Shares {
    /// The partitions' weights of `unit` split by `bits` cuts (at most the unit's cuts),
    /// from the odds of its west half-boards holding each pattern of them, `patterns`
    /// (`2^bits` of them, [`super::patterns::west_patterns`]).
    pub(in crate::join) fn new(unit: &UnitParts, bits: u8, mut patterns: Vec<f32>) -> Shares {
        let bits = bits.min(unit.cuts);
        let size = 1usize << bits;
        patterns.resize(size, 0.0);
        // Each partition's join before its index's cuts: the unit's join times the east
        // factors' products, doubling cut by cut (one for a clear bit, the odds of not
        // holding it for a set one: the east odds of its set bits taken one by one).
        let mut join = vec![unit.join as f32; size];
        for cut in 0..usize::from(bits) {
            let clear = odds_f32(ONE - unit.held[1][cut]);
            let (low, high) = join.split_at_mut(1 << cut);
            for (high, low) in high[..1 << cut].iter_mut().zip(low.iter()) {
                *high = low * clear;
            }
        }
        let weighing = Weighing {
            join: &join,
            odds: &patterns,
            pruning: Pruning::new(unit, bits),
            west: unit.west as f32,
            fixed: unit.fixed,
        };
        Shares {
            weights: weighing.weights(),
        }
    }

    /// The weight of partition `value` (at least 1).
    #[inline]
    pub(in crate::join) fn of(&self, value: u32) -> u64 {
        self.weights[value as usize]
    }

    /// The runs of the partitions that make the unit's tasks, in order, each with its
    /// weight: a run grows while its weight stays within `task_cap` (a partition over the
    /// cap is a run alone).
    pub(in crate::join) fn runs(&self, task_cap: u64) -> Vec<(Range<u32>, u64)> {
        let mut runs = Vec::new();
        let (mut start, mut held) = (0u32, 0u64);
        for (value, &weight) in (0u32..).zip(&self.weights) {
            if value > start && held.saturating_add(weight) > task_cap {
                runs.push((start..value, held));
                (start, held) = (value, 0);
            }
            held = held.saturating_add(weight);
        }
        runs.push((start..self.weights.len() as u32, held));
        runs
    }
}

/// What the partitions' weights are made of: per partition its join before its index's
/// cuts and its west pattern's odds, and the unit's west half-boards, index and fixed work.
struct Weighing<'a> {
    join: &'a [f32],
    odds: &'a [f32],
    pruning: Pruning,
    west: f32,
    fixed: u64,
}

impl Weighing<'_> {
    /// Every partition's weight, in vectors where the processor has them (a partition at a
    /// time, weighing took a fifth of n = 28's plan): the same operations in the same
    /// order in every build, so the same weights, and the same shards, on every machine.
    fn weights(&self) -> Vec<u64> {
        let mut weights = vec![0u64; self.join.len()];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if crate::cpu::allows_avx512()
                && has!("avx512f")
                && has!("avx512dq")
                && has!("avx512vl")
            {
                // SAFETY: the processor has these features, checked just above.
                unsafe { self.avx512(&mut weights) };
                return weights;
            }
            if crate::cpu::has_avx2() {
                // SAFETY: the processor has AVX2, checked just above.
                unsafe { self.avx2(&mut weights) };
                return weights;
            }
        }
        self.weigh(&mut weights);
        weights
    }

    /// The weights: the join times the west odds to the power 3/4 (square roots, which
    /// IEEE 754 rounds exactly), times what an index of the partition's west half-boards
    /// keeps, plus the fixed work.
    #[inline(always)]
    fn weigh(&self, weights: &mut [u64]) {
        let (west, fixed) = (self.west, self.fixed);
        for ((weight, &join), &odds) in weights.iter_mut().zip(self.join).zip(self.odds) {
            let root = odds.sqrt();
            let kept = self.pruning.at(west * odds);
            *weight = whole(join * (root * root.sqrt()) * kept)
                .saturating_add(fixed)
                .max(1);
        }
    }

    /// [`Weighing::weigh`] built for AVX-512 (vectors of float-to-integer conversions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512vl")]
    fn avx512(&self, weights: &mut [u64]) {
        self.weigh(weights);
    }

    /// [`Weighing::weigh`] built for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2(&self, weights: &mut [u64]) {
        self.weigh(weights);
    }
}

/// `x as u64`, written so that vectors convert it (Rust's saturating conversion is made
/// one lane at a time): not a number or below zero 0, from 2^64 on the largest `u64`, and
/// in between `x` without its fraction.
#[inline(always)]
fn whole(x: f32) -> u64 {
    // The largest float below 2^64, and 2^64.
    const BELOW: f32 = 18_446_742_974_197_923_840.0;
    const PAST: f32 = 18_446_744_073_709_551_616.0;
    // `max` takes 0 over not a number (`clamp` would keep it).
    #[allow(clippy::manual_clamp)]
    let within = x.max(0.0).min(BELOW);
    // SAFETY: `within` is a number from 0 to below 2^64, whose whole part a `u64` holds.
    let whole = unsafe { within.to_int_unchecked::<u64>() };
    if x >= PAST { u64::MAX } else { whole }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::index::BUCKET_TARGET;
    use crate::join::count::squeeze::MAX_CUTS;
    use crate::join::count::walk::SOFT_CUTS;
    use crate::join::plan::partition::{MAX_BITS, Policy};

    /// The shares of `unit` by `bits` cuts, each cut held by its west half-boards apart
    /// from the others.
    fn shares_apart(unit: &UnitParts, bits: u8) -> Shares {
        let bits = bits.min(unit.cuts);
        let held = &unit.held[0][..usize::from(bits)];
        Shares::new(unit, bits, crate::join::plan::patterns::independent(held))
    }

    /// What an index keeps of a partition's join falls with the west half-boards it is
    /// built on: past its soft cuts, each power of two adds a hard cut, the next after the
    /// partition's bits, and its share of the pairs; between powers of two it is
    /// interpolated. A partition's weight is its join's share times what its own west
    /// half-boards' index keeps.
    #[test]
    fn an_index_of_more_west_half_boards_keeps_less_of_the_join() {
        let mut unit = UnitParts::with_odds(1 << 40, 5, [[ONE / 2; 2]; 2]);
        // Every cut leaves half the pairs (held by every east half-board and half the west
        // ones), cut 3 a quarter.
        unit.held = [[ONE / 2; MAX_CUTS], [ONE; MAX_CUTS]];
        unit.held[0][3] = ONE * 3 / 4;
        let pruning = Pruning::new(&unit, 2);
        let bucket = BUCKET_TARGET as f32;
        let kept = |west: f32| f64::from(pruning.at(west));
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
        // Up to SOFT_CUTS cuts, all soft: nothing pruned.
        assert_eq!(kept(0.0), 1.0);
        assert_eq!(kept(bucket * (1 << SOFT_CUTS) as f32), 1.0);
        // One hard cut (cut 2, the first after the bits), then two (cuts 2 and 3).
        let (one, two) = (0.5f64.powf(0.75), 0.125f64.powf(0.75));
        assert!(near(kept(bucket * 8.0), one), "{}", kept(bucket * 8.0));
        assert!(near(kept(bucket * 16.0), two));
        assert!(near(kept(bucket * 12.0), (one + two) / 2.0));
        let mut last = 1.0;
        for i in 0..60 {
            let west = bucket * (1u64 << (i / 3)) as f32 * (1.0 + (i % 3) as f32 / 3.0);
            assert!(pruning.at(west) <= last, "{west}");
            last = pruning.at(west);
        }
        // Past every cut: all 18 hard ones after the bits (cut 3 a quarter, the rest halves).
        assert!(near(kept(1e30), 0.5f64.powi(19).powf(0.75)));
        // Two partitions by one cut (which no east half-board holds), each of half the west
        // half-boards: 8 buckets each, and half the west ones to the power 3/4 of the join.
        unit.west = BUCKET_TARGET as u64 * 16;
        unit.held[1][0] = 0;
        let shares = shares_apart(&unit, 1);
        let kept = f64::from(Pruning::new(&unit, 1).at(bucket * 8.0));
        let join = (1u64 << 40) as f64 * 0.5f64.powf(0.75) * kept;
        for value in 0..2 {
            let weight = (shares.of(value) - 5) as f64;
            assert!(
                (weight - join).abs() < 1e-6 * weight,
                "{value}: {weight} {join}"
            );
        }
    }

    /// With each cut held apart from the others, a partition weighs its unit's join times
    /// its cuts' factors, plus the fixed part (within rounding, for every number of bits),
    /// the heaviest is the largest of them and the quick total about their sum.
    #[test]
    fn shares_are_the_products_of_their_cuts_factors() {
        let (half, third) = (ONE / 2, ONE / 3);
        let unit = UnitParts::with_odds(1 << 40, 7, [[half, third], [ONE - third, half / 3]]);
        for bits in 0..=MAX_BITS {
            let shares = shares_apart(&unit, bits);
            let mut most = 0;
            for value in 0..1u32 << bits {
                let exact = (0..u32::from(bits)).fold(unit.join as f64, |join, cut| {
                    let f = unit.factors[cut as usize][(value >> cut & 1) as usize];
                    join * f as f64 / ONE as f64
                });
                let weight = shares.of(value);
                most = most.max(weight);
                let error = (weight as f64 - 7.0 - exact).abs();
                assert!(error <= exact * 1e-5 + 2.0, "bits {bits} value {value}");
            }
            assert!(unit.heaviest(bits).abs_diff(most) <= 2 + most / 100_000);
        }
        assert!(shares_apart(&unit, 4).of(0) > shares_apart(&unit, 4).of(0b0101));
        assert_eq!(
            shares_apart(&UnitParts::with_odds(0, 0, [[0; 2]; 2]), 3).of(5),
            1
        );
    }

    /// Runs cover every partition once, in order, each with the sum of its partitions'
    /// weights, and stay within the cap unless a run is one partition; a unit under the cap
    /// whose sides are small is not split.
    #[test]
    fn runs_cover_the_partitions_within_the_cap() {
        let policy = Policy {
            partition_pairs: 1000,
            task_cap: 5_000,
        };
        let odds = [[ONE * 3 / 4, ONE / 5], [ONE / 2, ONE / 3]];
        for (west_pairs, join, fixed) in [
            (10, 90, 10),
            (4000, 3_000, 0),
            (1 << 20, 80_000, 3),
            (9, 1 << 40, 1),
        ] {
            let unit = UnitParts {
                west_pairs,
                ..UnitParts::with_odds(join, fixed, odds)
            };
            let bits = policy.bits_for(&unit).unwrap();
            assert!(west_pairs >> bits <= 1000 || bits == MAX_BITS);
            let heaviest = unit.heaviest(bits);
            assert!(heaviest <= 5_000 || bits == MAX_BITS || heaviest - fixed <= fixed);
            let shares = shares_apart(&unit, bits);
            let runs = shares.runs(policy.task_cap);
            assert_eq!(runs[0].0.start, 0);
            assert_eq!(runs.last().unwrap().0.end, 1 << bits);
            for pair in runs.windows(2) {
                assert_eq!(pair[0].0.end, pair[1].0.start);
            }
            for (run, weight) in &runs {
                let held: u64 = run.clone().map(|v| shares.of(v)).sum();
                assert_eq!(held, *weight);
                assert!(held <= 5_000 || run.len() == 1, "{run:?}: {held}");
            }
        }
        // A unit whose fixed part alone passes the cap is not split for it.
        let reads = UnitParts {
            west_pairs: 10,
            ..UnitParts::with_odds(4_000, 6_000, odds)
        };
        assert_eq!(policy.bits_for(&reads), Some(0));
        let small = UnitParts::with_odds(90, 10, odds);
        assert_eq!(
            policy.bits_for(&UnitParts {
                west_pairs: 10,
                ..small
            }),
            Some(0)
        );
        assert_eq!(
            shares_apart(&small, 0).runs(policy.task_cap),
            vec![(0..1, 100)]
        );
        // More bits than the cuts worked out: none.
        let few = UnitParts {
            cuts: 1,
            ..UnitParts::with_odds(1 << 40, 0, odds)
        };
        assert_eq!(policy.bits_for(&few), None);
    }

    /// Every build weighs as Rust's own conversions do, a partition at a time: random
    /// joins, odds and units, with edges among the odds (none, all, not a number, below
    /// zero, past one: weights past 2^64), weighed by each build the processor has.
    #[test]
    fn every_build_weighs_the_same() {
        let mut state = 7u64;
        let mut draw = || {
            state = crate::join::sampler::splitmix(state);
            state
        };
        for round in 0..200 {
            let unit = UnitParts::with_odds(
                draw() >> (draw() % 40),
                draw() % 1000,
                [[draw() % ONE; 2]; 2],
            );
            let size = 1 + (draw() % 300) as usize;
            let join: Vec<f32> = (0..size)
                .map(|_| (draw() >> (draw() % 64)) as f32)
                .collect();
            let odds: Vec<f32> = (0..size)
                .map(|i| match (round + i) % 50 {
                    0 => 0.0,
                    1 => 1.0,
                    2 => f32::NAN,
                    3 => -0.5,
                    4 => f32::INFINITY,
                    5 => 3.9,
                    _ => (draw() % ONE) as f32 / ONE as f32,
                })
                .collect();
            let weighing = Weighing {
                join: &join,
                odds: &odds,
                pruning: Pruning::new(&unit, (draw() % 13) as u8),
                west: (draw() >> (draw() % 64)) as f32,
                fixed: unit.fixed,
            };
            // Rust's own conversion, a partition at a time.
            let plain: Vec<u64> = (0..size)
                .map(|i| {
                    let root = odds[i].sqrt();
                    let kept = weighing.pruning.at(weighing.west * odds[i]);
                    ((join[i] * (root * root.sqrt()) * kept) as u64)
                        .saturating_add(weighing.fixed)
                        .max(1)
                })
                .collect();
            let mut portable = vec![0; size];
            weighing.weigh(&mut portable);
            assert_eq!(portable, plain, "round {round}");
            assert_eq!(weighing.weights(), plain, "round {round}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut avx2 = vec![0; size];
                // SAFETY: the processor has AVX2, checked just above.
                unsafe { weighing.avx2(&mut avx2) };
                assert_eq!(avx2, plain, "round {round}");
            }
        }
    }
}
