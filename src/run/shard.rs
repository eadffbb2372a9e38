//! Shards: a count split over machines that share nothing, and the merge of their results.
//!
//! The tasks of a plan are dealt to K shards by weight (heaviest first, each to the lightest
//! shard so far; ties by task number and shard number), so the partition depends on nothing
//! but the plan: every machine computes the same one. A shard's result is a small JSON
//! document naming the run, the shard, the tasks it covered and their summed value, with a
//! checksum. [`merge`] adds results up and refuses a set with a shard missing, twice, of
//! another run, or damaged, naming which. Results of nqueens 0.1.0 (format `nqueens-shard`)
//! are refused with the reason: that version named engines and numbered the join engine's
//! tasks otherwise.

pub use super::deal::partition;
use super::record::fnv1a;
use crate::engine::Engine;
use crate::error::Error;
use crate::run::job::Job;
use serde::{Deserialize, Serialize};

/// One shard's result, as written to a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// The program version that computed it.
    pub version: String,
    /// Board size.
    pub n: u32,
    /// Engine name ([`Engine::name`]).
    pub engine: String,
    /// The search's symmetry ([`crate::Symmetry::name`]); absent for the join engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<String>,
    /// Split depth.
    pub split_depth: u32,
    /// Tasks of the whole plan.
    pub tasks: usize,
    /// This shard's number, 0-based.
    pub shard: usize,
    /// How many shards the plan was dealt to.
    pub shards: usize,
    /// The tasks this shard covered.
    pub task_ids: Vec<usize>,
    /// Their summed value, in units of `units_per_solution`.
    pub units: u128,
    /// What one solution is worth in `units`.
    pub units_per_solution: u128,
    /// FNV-1a of all the fields above, in hexadecimal.
    pub checksum: String,
}

/// The `format` of a shard result of this version.
pub const FORMAT: &str = "nqueens-shard-2";
/// The `format` of nqueens 0.1.0's shard results, refused with the reason.
const FORMAT_V1: &str = "nqueens-shard";

impl ShardResult {
    /// The result of shard `shard` of `shards` of `job`: the tasks `task_ids`, whose values add
    /// up to `units`; with its checksum filled in.
    pub fn new(
        job: &Job,
        shard: usize,
        shards: usize,
        task_ids: Vec<usize>,
        units: u128,
    ) -> ShardResult {
        let mut result = ShardResult {
            format: FORMAT.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            n: job.n,
            engine: job.engine.name().into(),
            symmetry: job.engine.symmetry().map(|s| s.name().into()),
            split_depth: job.split_depth,
            tasks: job.plan.len(),
            shard,
            shards,
            task_ids,
            units,
            units_per_solution: job.plan.units_per_solution(),
            checksum: String::new(),
        };
        result.checksum = result.expected_checksum();
        result
    }

    fn expected_checksum(&self) -> String {
        let ids: Vec<String> = self.task_ids.iter().map(usize::to_string).collect();
        format!(
            "{:016x}",
            fnv1a(&format!(
                "{}|{}|{}|{}{}|{}|{}|{}|{}|{}|{}|{}",
                self.format,
                self.version,
                self.n,
                self.engine,
                self.symmetry
                    .as_deref()
                    .map(|s| format!("/{s}"))
                    .unwrap_or_default(),
                self.split_depth,
                self.tasks,
                self.shard,
                self.shards,
                ids.join(","),
                self.units,
                self.units_per_solution
            ))
        )
    }

    /// The run it belongs to, for comparing shards.
    fn run(&self) -> String {
        format!(
            "n = {}, engine {}, split depth {}, {} tasks in {} shards, version {}",
            self.n,
            self.engine(),
            self.split_depth,
            self.tasks,
            self.shards,
            self.version
        )
    }

    /// The engine the result names; [`Engine::Auto`] for names this version does not know
    /// (such a result is refused by [`merge`]).
    fn engine(&self) -> Engine {
        Engine::from_names(&self.engine, self.symmetry.as_deref()).unwrap_or(Engine::Auto)
    }
}

/// The merged count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Board size.
    pub n: u32,
    /// The engine that counted.
    pub engine: Engine,
    /// The number of solutions.
    pub solutions: u128,
    /// How many shards were merged.
    pub shards: usize,
}

/// Adds up shard results (`(name, result)`, the name for messages); refuses an incomplete,
/// duplicated, mismatched or damaged set.
pub fn merge(results: &[(String, ShardResult)]) -> Result<Merged, Error> {
    let fail = |message: String| Err(Error::Shard(message));
    let Some((first_name, first)) = results.first() else {
        return fail("no shard results to merge".into());
    };
    for (name, r) in results {
        if r.format == FORMAT_V1 {
            return fail(format!(
                "{name}: a shard result of nqueens 0.1.0, which named engines and numbered the \
                 join engine's tasks otherwise: merge it with 0.1.0, or count the shard again"
            ));
        }
        if r.format != FORMAT {
            return fail(format!("{name}: not a shard result"));
        }
        if r.engine() == Engine::Auto {
            return fail(format!("{name}: unknown engine {:?}", r.engine));
        }
        if r.checksum != r.expected_checksum() {
            return fail(format!(
                "{name}: checksum mismatch (the file was edited or damaged)"
            ));
        }
        if r.run() != first.run() {
            return fail(format!(
                "{name} is a shard of another run ({}) than {first_name} ({})",
                r.run(),
                first.run()
            ));
        }
    }
    let mut owner: Vec<Option<&str>> = vec![None; first.shards];
    for (name, r) in results {
        match owner.get(r.shard) {
            None => {
                return fail(format!(
                    "{name}: shard {} of {} does not exist",
                    r.shard, r.shards
                ));
            }
            Some(Some(other)) => {
                return fail(format!(
                    "shard {}/{} is given twice ({other} and {name})",
                    r.shard, r.shards
                ));
            }
            Some(None) => owner[r.shard] = Some(name),
        }
    }
    let missing: Vec<String> = owner
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_none())
        .map(|(s, _)| format!("{s}/{}", first.shards))
        .collect();
    if !missing.is_empty() {
        return fail(format!("shard {} missing", missing.join(", ")));
    }
    let mut covered = vec![false; first.tasks];
    for (name, r) in results {
        for &id in &r.task_ids {
            match covered.get_mut(id) {
                Some(seen) if !*seen => *seen = true,
                _ => {
                    return fail(format!(
                        "{name}: task {id} is out of range or in two shards"
                    ));
                }
            }
        }
    }
    if let Some(id) = covered.iter().position(|&c| !c) {
        return fail(format!("task {id} is in no shard"));
    }
    let units: u128 = results.iter().map(|(_, r)| r.units).sum();
    if !units.is_multiple_of(first.units_per_solution) {
        return fail("the shards add up to a fraction of a solution: a shard is wrong".into());
    }
    Ok(Merged {
        n: first.n,
        engine: first.engine(),
        solutions: units / first.units_per_solution,
        shards: first.shards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_covers_every_task_once_and_balances() {
        let weights: Vec<u64> = (0..100).map(|i| (i * 37 % 101) as u64 + 1).collect();
        for shards in 1..=5 {
            let mut all: Vec<usize> = (0..shards)
                .flat_map(|s| partition(&weights, s, shards))
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..100).collect::<Vec<_>>());
            let loads: Vec<u64> = (0..shards)
                .map(|s| {
                    partition(&weights, s, shards)
                        .iter()
                        .map(|&t| weights[t])
                        .sum()
                })
                .collect();
            let (min, max) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            assert!(max - min <= 101, "{loads:?}");
        }
    }

    /// Shard results of a real count of the n x n board, split into `shards`.
    fn results(n: u32, shards: usize) -> Vec<(String, ShardResult)> {
        let counter = crate::Counter::new().engine(Engine::SEARCH).threads(1);
        let mut job = counter.prepare(n).unwrap();
        (0..shards)
            .map(|s| {
                let ids = job.shard(s, shards).unwrap();
                let units = counter.run(&job, &ids, &|_, _| {}).unwrap().iter().sum();
                (
                    format!("s{s}.json"),
                    ShardResult::new(&job, s, shards, ids, units),
                )
            })
            .collect()
    }

    #[test]
    fn merge_adds_up_and_refuses_bad_sets() {
        let merged = merge(&results(8, 3)).unwrap();
        assert_eq!((merged.solutions, merged.engine), (92, Engine::SEARCH));
        let mut missing = results(8, 3);
        missing.remove(1);
        assert_eq!(
            merge(&missing).unwrap_err().to_string(),
            "shard 1/3 missing"
        );
        let mut twice = results(8, 3);
        twice.push(twice[0].clone());
        assert!(
            merge(&twice)
                .unwrap_err()
                .to_string()
                .contains("given twice")
        );
        let mut edited = results(8, 2);
        edited[0].1.units += 3;
        assert!(merge(&edited).unwrap_err().to_string().contains("checksum"));
        let mut other = results(8, 2);
        other[1] = results(9, 2).swap_remove(1);
        assert!(
            merge(&other)
                .unwrap_err()
                .to_string()
                .contains("another run")
        );
        let mut old = results(8, 2);
        old[0].1.format = FORMAT_V1.into();
        let error = merge(&old).unwrap_err().to_string();
        assert!(error.contains("nqueens 0.1.0"), "{error}");
    }
}
