//! Counting a job's tasks again, a second way, to check a count: the double check of a whole
//! count (`count --double-check`) and the recount of a sample of recorded tasks (`nqueens
//! audit`).
//!
//! The second way of the join engine counts each task's pairs through other buckets, groups
//! and pieces ([`Plan::run_second_way`]): every sum inside it differs from the first way's,
//! and only the task's value must agree, so a fault in a table, a group's count or a piece's
//! sum shows as a task whose two values differ, and it is named. (The search kept to each
//! row's columns, which shares no code with the join at all, is the third way `selftest`
//! uses at small sizes; it is hundreds of times slower than the join at n = 20, so no check
//! of a record size can afford it.) The search's tasks have no second way task by task: its
//! double check counts the whole board again with the other symmetry's split (other tasks,
//! other weights), and compares the totals.

use super::counter::Counter;
use super::driver;
use super::job::Job;
use crate::engine::{Engine, Plan, Symmetry};
use crate::error::Error;
use crate::join::splitmix;
use std::collections::BTreeMap;

/// How a double check counted the second time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecondWay {
    /// Every task of the join engine again, through other buckets, groups and pieces,
    /// compared task by task.
    OtherBuckets,
    /// The whole board again with the search's other symmetry, compared in total.
    OtherSymmetry(Symmetry),
}

impl SecondWay {
    /// What it is, in a few words, for a report.
    pub fn describe(self) -> &'static str {
        match self {
            SecondWay::OtherBuckets => "every task again through other buckets, groups and pieces",
            SecondWay::OtherSymmetry(Symmetry::Mirror) => {
                "the whole board again with the mirror split"
            }
            SecondWay::OtherSymmetry(Symmetry::Full) => {
                "the whole board again with the full-symmetry split"
            }
        }
    }
}

/// What a double check found ([`Counter::double_check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DoubleCheck {
    /// How it counted.
    pub way: SecondWay,
    /// The solutions the second way counted.
    pub solutions: u128,
    /// The tasks whose two values differ (the join's, task by task; empty for a check in
    /// total).
    pub differing: Vec<usize>,
}

impl DoubleCheck {
    /// Whether the second way agrees with the first's `solutions`.
    pub fn agrees(&self, solutions: u128) -> bool {
        self.solutions == solutions && self.differing.is_empty()
    }
}

impl Counter<'_> {
    /// Counts the tasks of `job` whose first values are `values` a second way, and compares
    /// ([`SecondWay`]): the join's task by task, on this counter's threads; the search's by
    /// counting the board again with the other symmetry.
    pub fn double_check(
        &self,
        job: &Job,
        values: &BTreeMap<usize, u128>,
    ) -> Result<DoubleCheck, Error> {
        if let Plan::Join(_) = job.plan {
            let ids: Vec<usize> = values.keys().copied().collect();
            // Without progress: a count's bar has ended with its first way.
            let second = self.recount_then(job, &ids, &|_| {})?;
            let differing = ids
                .iter()
                .zip(&second)
                .filter(|&(id, value)| values[id] != *value)
                .map(|(&id, _)| id)
                .collect();
            let units: u128 = second.iter().sum();
            return Ok(DoubleCheck {
                way: SecondWay::OtherBuckets,
                solutions: units / job.plan.units_per_solution(),
                differing,
            });
        }
        let other = match job.engine.symmetry() {
            Some(Symmetry::Mirror) => Symmetry::Full,
            _ => Symmetry::Mirror,
        };
        let count = Counter::new()
            .engine(Engine::Search(other))
            .threads(job.threads)
            .count(job.n)?;
        Ok(DoubleCheck {
            way: SecondWay::OtherSymmetry(other),
            solutions: count.solutions,
            differing: Vec::new(),
        })
    }

    /// The values of the tasks `ids` of `job` counted again, on this counter's threads: the
    /// second way where the plan has one (the join's), else the first (the search's). The
    /// progress callback follows these tasks.
    pub fn recount(&self, job: &Job, ids: &[usize]) -> Result<Vec<u128>, Error> {
        self.recount_then(job, ids, &self.progress_of(job, ids))
    }

    /// [`Counter::recount`], calling `on_done` with each task as it finishes.
    fn recount_then(
        &self,
        job: &Job,
        ids: &[usize],
        on_done: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<u128>, Error> {
        for &id in ids {
            job.plan.check_task(id)?;
        }
        let plan = &job.plan;
        let value = |id: usize| match plan.run_second_way(id) {
            Ok(Some(value)) => value,
            // Checked above: a task of the plan, counted the first way.
            _ => plan.task_value(id),
        };
        driver::run_some(job.threads, ids, value, |id, _| on_done(id))
    }
}

impl Plan {
    /// The value of task `index` counted a second way, for the checks of a count
    /// (`count --double-check`, `audit`): the join's tasks through other buckets, groups
    /// and pieces, so that no inner sum is the first way's (`join::Plan::run_second_way`);
    /// `None` for the search's, which a double check counts again whole with the other
    /// symmetry. An error for a task the plan does not have.
    pub fn run_second_way(&self, index: usize) -> Result<Option<u128>, Error> {
        self.check_task(index)?;
        Ok(match self {
            Plan::Join(plan) => Some(plan.run_second_way(index)),
            Plan::Mirror(_) | Plan::Full(_) => None,
        })
    }

    /// The value of task `index` counted by the search kept to each row's columns
    /// (`search::restricted`), which shares no code with the join: the join's tasks of
    /// whole units (to n = 25); `None` for other tasks. For `selftest`: slow past n = 17.
    pub fn run_restricted(&self, index: usize) -> Result<Option<u128>, Error> {
        self.check_task(index)?;
        Ok(match self {
            Plan::Join(plan) => plan.run_restricted(index),
            Plan::Mirror(_) | Plan::Full(_) => None,
        })
    }
}

/// `count` of `tasks` drawn at random without repeats, from `seed` (the same draw for the
/// same seed on every machine), in increasing order: every task has the same chance,
/// `count / tasks.len()`, to be drawn.
pub fn audit_sample(tasks: &[usize], count: usize, seed: u64) -> Vec<usize> {
    let mut pool = tasks.to_vec();
    let count = count.min(pool.len());
    let mut state = seed;
    // The first `count` places of a Fisher-Yates shuffle.
    for i in 0..count {
        state = splitmix(state);
        let j = i + (state % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(count);
    pool.sort_unstable();
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over many seeds, every task is drawn about as often as the share says (1 %: 33 of
    /// 3,300), never twice in one draw.
    #[test]
    fn every_task_has_its_share_of_the_draws() {
        let tasks: Vec<usize> = (0..3300).collect();
        let mut drawn = vec![0u32; tasks.len()];
        let seeds = 3000;
        for seed in 0..seeds {
            let sample = audit_sample(&tasks, 33, seed);
            assert_eq!(sample.len(), 33);
            assert!(sample.windows(2).all(|w| w[0] < w[1]), "seed {seed}");
            for id in sample {
                drawn[id] += 1;
            }
        }
        // Each task expects 30 draws in 3,000 (1 %); the binomial's spread is about 5.5.
        let expected = f64::from(seeds as u32) * 33.0 / 3300.0;
        let (least, most) = (drawn.iter().min().unwrap(), drawn.iter().max().unwrap());
        assert!(f64::from(*least) > expected * 0.3, "{least} {expected}");
        assert!(f64::from(*most) < expected * 2.2, "{most} {expected}");
        let mean = drawn.iter().map(|&d| f64::from(d)).sum::<f64>() / drawn.len() as f64;
        assert!((mean - expected).abs() < 1e-9, "{mean}");
        assert_eq!(audit_sample(&tasks, 5, 7), audit_sample(&tasks, 5, 7));
        assert_eq!(audit_sample(&[4, 8], 9, 1), vec![4, 8]);
    }

    /// The double check of a join count agrees, task by task; the search's in total.
    #[test]
    fn a_double_check_agrees_with_a_right_count() {
        for (engine, n) in [(Engine::Join, 15), (Engine::Auto, 11)] {
            let counter = Counter::new().engine(engine).threads(2);
            let job = counter.prepare(n).unwrap();
            let ids: Vec<usize> = (0..job.plan.len()).collect();
            let values: BTreeMap<usize, u128> = ids
                .iter()
                .map(|&id| (id, job.plan.run(id).unwrap()))
                .collect();
            let check = counter.double_check(&job, &values).unwrap();
            let known = crate::known::total(n).unwrap();
            assert!(check.agrees(known), "n = {n}: {check:?}");
            // A value changed is named.
            if engine == Engine::Join {
                let mut wrong = values.clone();
                *wrong.get_mut(&7).unwrap() += 1;
                let check = counter.double_check(&job, &wrong).unwrap();
                assert_eq!(check.differing, vec![7]);
                assert_eq!(check.solutions, known);
            }
        }
    }
}
