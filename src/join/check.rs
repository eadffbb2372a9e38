//! What the join gives the checks of its counts (`count --double-check`, `audit`,
//! `selftest`): a task counted the second way ([`Way::Second`]: the same pairs through other
//! buckets, groups and pieces, so that every sum inside it differs), and a whole unit's work
//! described row by row for the search kept to those rows' columns
//! (`search::restricted`), which shares none of the join's code.

use super::count::unit::Here;
use super::plan::cuts::Way;
use super::plan::layout::{allowed_columns, jobs_of};
use super::plan::partition::Partition;
use super::plan::tasks::Plan;
use crate::search::restricted;

impl Plan {
    /// The value of part `part` of task `index`, counted the second way: its index takes
    /// other cut diagonals first and its pieces are three quarters the size
    /// (`Way::Second`), so that no bucket, group or piece sum of it is the first way's;
    /// only the total must agree.
    pub fn run_part_second_way(&self, index: usize, part: usize) -> u128 {
        let table = self.table();
        let (unit, partition) = self.work(index, part);
        let work = (self.units[unit], partition, Way::Second);
        self.count_with(table, work, None, &mut Here)
    }

    /// The value of task `index`, counted the second way ([`Plan::run_part_second_way`]).
    pub fn run_second_way(&self, index: usize) -> u128 {
        (0..self.parts(index))
            .map(|part| self.run_part_second_way(index, part))
            .sum()
    }

    /// The value of part `part` of task `index` counted by the search kept to each row's
    /// columns ([`Plan::run_restricted`]); for measurements. Panics on a partition (n = 26
    /// on).
    #[doc(hidden)]
    pub fn run_part_restricted(&self, index: usize, part: usize) -> u128 {
        let (unit, partition) = self.work(index, part);
        assert_eq!(
            partition,
            Partition::WHOLE,
            "a partition has no rows' columns"
        );
        self.restricted_unit(self.units[unit])
    }

    /// The value of the unit on `west` counted by the search kept to its rows' columns,
    /// layout by layout, times what each layout's pairs are worth (and, where the join
    /// weighs its pairs by the transposition, each solution by its weight).
    fn restricted_unit(&self, west: u32) -> u128 {
        let mut jobs = Vec::new();
        jobs_of(self.shape, &self.layouts, west, &mut jobs);
        jobs.iter()
            .map(|job| {
                let layout = &self.layouts[job.layout as usize];
                let allowed = allowed_columns(self.shape, layout, west);
                let plain = i128::from(restricted::count(&allowed));
                let weighed = if self.transposed() {
                    plain + transposition_surplus(&allowed)
                } else {
                    plain
                };
                u128::try_from(weighed).expect("a count") * u128::from(job.multiplicity)
            })
            .sum()
    }

    /// The value of task `index` counted by the search kept to each row's columns, unit by
    /// unit and layout by layout (each row's queen in the west or the east half, the middle
    /// queens of an odd board in their squares), times what each layout's pairs are worth:
    /// the same value by code the join does not share. `None` for a task of a partitioned
    /// unit (n = 24 on), whose parts are no such sets of columns: a search of those sizes
    /// would take far longer than the join anyway.
    pub fn run_restricted(&self, index: usize) -> Option<u128> {
        let mut total = 0u128;
        for part in 0..self.parts(index) {
            let (unit, partition) = self.work(index, part);
            if partition != Partition::WHOLE {
                return None;
            }
            total += self.restricted_unit(self.units[unit]);
        }
        Some(total)
    }
}

/// What the transposition's weights (`count/transpose.rs`) add to a plain count of the
/// placements whose row `r` holds its queen in `allowed[r]` (an even board): each placement
/// with a queen on both long diagonals counts once more where the two stand in the same half
/// of the columns, once less where they do not. Counted by the same search with the two
/// queens placed first, row `r`'s on the long main diagonal and row `s`'s on the long
/// anti-diagonal, for each pair of rows: none of the join's code, nor its half-boards.
fn transposition_surplus(allowed: &[u32]) -> i128 {
    let n = allowed.len();
    let mut surplus = 0i128;
    let mut fixed = allowed.to_vec();
    for r in 0..n {
        for s in (0..n).filter(|&s| s != r) {
            let (main, anti) = (r, n - 1 - s);
            if allowed[r] >> main & 1 == 0 || allowed[s] >> anti & 1 == 0 {
                continue;
            }
            fixed[r] = 1 << main;
            fixed[s] = 1 << anti;
            let placements = i128::from(restricted::count(&fixed));
            // The same half: both west (main < n/2, anti < n/2) or both east.
            if (main < n / 2) == (anti < n / 2) {
                surplus += placements;
            } else {
                surplus -= placements;
            }
            fixed[r] = allowed[r];
            fixed[s] = allowed[s];
        }
    }
    surplus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::count::unit::Pairs;

    /// Every task of n = 12 and 13 (even, odd), and every 40th of n = 16 and 17: the second
    /// way and the restricted search give each task's value, and the tasks add up to the
    /// known count.
    #[test]
    fn three_ways_give_every_task_s_value() {
        for (n, step) in [(12, 1), (13, 1), (16, 40), (17, 40)] {
            let plan = Plan::new(n, crate::join::auto_depth(n));
            let (mut first, mut second, mut search) = (0u128, 0u128, 0u128);
            for index in (0..plan.len()).step_by(step) {
                let value = plan.run(index);
                assert_eq!(plan.run_second_way(index), value, "n = {n}, task {index}");
                assert_eq!(
                    plan.run_restricted(index),
                    Some(value),
                    "n = {n}, task {index}"
                );
                first += value;
                second += plan.run_second_way(index);
                search += plan.run_restricted(index).unwrap();
            }
            if step == 1 {
                let known = crate::known::total(n).unwrap();
                assert_eq!(first, known, "n = {n}");
                assert_eq!((second, search), (known, known), "n = {n}");
            }
        }
    }

    /// What a fault that stays at one place of the tables does (a vector lane stuck at zero:
    /// bit 5 of every group's first row cleared in every index built, as if that member of
    /// each group were not there): it changes the first way's count one way and the second
    /// way's another, or not at all, since the two fill their groups otherwise; so the two
    /// disagree, and the check catches it (most times: see below).
    #[test]
    fn a_fault_at_one_place_of_the_tables_makes_the_two_ways_disagree() {
        struct StuckBit;
        impl Pairs for StuckBit {
            fn count<G: crate::join::count::bits::Gather>(
                &mut self,
                gather: G,
                index: &mut crate::join::count::index::Index,
                east: &[u64],
                multiplicity: u32,
            ) -> u128 {
                index.clear_table_bit_for_test(5);
                Here.count(gather, index, east, multiplicity)
            }
        }
        let plan = Plan::new(16, crate::join::auto_depth(16));
        let table = plan.table();
        let (mut caught, mut faulty) = (0, 0);
        for index in (0..plan.len()).step_by(97) {
            let value = plan.run(index);
            let [first, second] = [Way::First, Way::Second].map(|way| {
                (0..plan.parts(index))
                    .map(|part| {
                        let (unit, partition) = plan.work(index, part);
                        let work = (plan.units[unit], partition, way);
                        plan.count_with(table, work, None, &mut StuckBit)
                    })
                    .sum::<u128>()
            });
            if first != value || second != value {
                faulty += 1;
                caught += usize::from(first != second);
            }
        }
        // Not every one: a member at the same place both ways (the sixth of eleven) or two
        // members with as many partners leave the two totals equal.
        assert!(faulty >= 5, "the fault changed {faulty} tasks' counts");
        assert!(
            2 * caught > faulty,
            "{faulty} faulty tasks, {caught} caught"
        );
    }
}
