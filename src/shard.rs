//! Shards: a count split over machines that share nothing, and the merge of their results.
//!
//! The tasks of a plan are dealt to K shards by weight (heaviest first, each to the lightest
//! shard so far; ties by task number and shard number), so the partition depends on nothing
//! but the plan: every machine computes the same one. A shard's result is a small JSON
//! document naming the run, the shard, the tasks it covered and their summed value, with a
//! checksum. [`merge`] adds results up and refuses a set with a shard missing, twice, of
//! another run, or damaged, naming which.

use crate::checkpoint::fnv1a;
use crate::error::Error;
use serde::{Deserialize, Serialize};

/// The tasks of shard `index` of `shards`, in increasing order, for tasks of these weights.
pub fn partition(weights: &[u64], index: usize, shards: usize) -> Vec<usize> {
    assert!(index < shards, "shard {index} of {shards}");
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let mut load = vec![0u128; shards];
    let mut mine = Vec::new();
    for task in order {
        let lightest = (0..shards)
            .min_by_key(|&s| (load[s], s))
            .expect("at least one shard");
        load[lightest] += u128::from(weights[task]);
        if lightest == index {
            mine.push(task);
        }
    }
    mine.sort_unstable();
    mine
}

/// One shard's result, as written to a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always `nqueens-shard`.
    pub format: String,
    /// The program version that computed it.
    pub version: String,
    /// Board size.
    pub n: u32,
    /// Engine name.
    pub engine: String,
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

impl ShardResult {
    /// A result with its checksum filled in.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        n: u32,
        engine: &str,
        split_depth: u32,
        tasks: usize,
        shard: usize,
        shards: usize,
        task_ids: Vec<usize>,
        units: u128,
        units_per_solution: u128,
    ) -> ShardResult {
        let mut result = ShardResult {
            format: "nqueens-shard".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            n,
            engine: engine.into(),
            split_depth,
            tasks,
            shard,
            shards,
            task_ids,
            units,
            units_per_solution,
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
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
                self.format,
                self.version,
                self.n,
                self.engine,
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
            self.n, self.engine, self.split_depth, self.tasks, self.shards, self.version
        )
    }
}

/// The merged count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Board size.
    pub n: u32,
    /// Engine name.
    pub engine: String,
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
        if r.format != "nqueens-shard" {
            return fail(format!("{name}: not a shard result"));
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
    if units % first.units_per_solution != 0 {
        return fail("the shards add up to a fraction of a solution: a shard is wrong".into());
    }
    Ok(Merged {
        n: first.n,
        engine: first.engine.clone(),
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

    fn results(shards: usize) -> Vec<(String, ShardResult)> {
        let weights = vec![5, 1, 9, 3];
        (0..shards)
            .map(|s| {
                let ids = partition(&weights, s, shards);
                let units = ids.iter().map(|&i| weights[i] as u128 * 3).sum();
                let r = ShardResult::new(8, "full", 2, 4, s, shards, ids, units, 3);
                (format!("s{s}.json"), r)
            })
            .collect()
    }

    #[test]
    fn merge_adds_up_and_refuses_bad_sets() {
        assert_eq!(merge(&results(3)).unwrap().solutions, 18);
        let mut missing = results(3);
        missing.remove(1);
        assert_eq!(
            merge(&missing).unwrap_err().to_string(),
            "shard 1/3 missing"
        );
        let mut twice = results(3);
        twice.push(twice[0].clone());
        assert!(
            merge(&twice)
                .unwrap_err()
                .to_string()
                .contains("given twice")
        );
        let mut edited = results(2);
        edited[0].1.units += 3;
        assert!(merge(&edited).unwrap_err().to_string().contains("checksum"));
        let mut other = results(2);
        other[1].1 = ShardResult::new(9, "full", 2, 4, 1, 2, vec![1, 3], 3, 3);
        assert!(
            merge(&other)
                .unwrap_err()
                .to_string()
                .contains("another run")
        );
    }
}
