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
use super::identity::most_units;
use super::record::fnv1a;
use crate::engine::{Engine, Plan};
use crate::error::Error;
use crate::run::job::Job;
use crate::search::full;
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
///
/// Nothing a file says is trusted with memory or arithmetic: what merge holds grows with the
/// files it is given (their shard numbers and task lists), never with the sizes they claim
/// (a `shards` of 2^40 once allocated 23 GB); the run they name is checked against the plan
/// of that run, and the values are added in checked `u128`, each shard and the sum bounded
/// by what the whole board holds (past it is an error, not a count that no known count could
/// catch from n = 28 on).
pub fn merge(results: &[(String, ShardResult)]) -> Result<Merged, Error> {
    let Some((first_name, first)) = results.first() else {
        return Err(Error::Shard("no shard results to merge".into()));
    };
    // Each file alone first: one that is not a shard result of this version is named as such
    // (`Error::ShardFile`), before the set is compared.
    for (name, r) in results {
        check_file(name, r)?;
    }
    let fail = |message: String| Err(Error::Shard(message));
    for (name, r) in results {
        if r.run() != first.run() || r.units_per_solution != first.units_per_solution {
            return fail(format!(
                "{name} is a shard of another run ({}) than {first_name} ({})",
                r.run(),
                first.run()
            ));
        }
    }
    check_shards(results)?;
    check_tasks(results)?;
    // Every task once in the set: `tasks` is now the number of task numbers the files list,
    // and one plan checks them all.
    check_run(first_name, first)?;
    // Every task once, each shard within the board: the sum too, or one shard claims what
    // another holds.
    let most = most_units(first.n, first.engine());
    let mut units: u128 = 0;
    for (name, r) in results {
        units = units
            .checked_add(r.units)
            .filter(|&units| units <= most)
            .ok_or_else(|| {
                Error::Shard(format!(
                    "the shards add up to more than a board of n = {} can hold (at most {} \
                     solutions): {name} or a shard before it is wrong",
                    first.n,
                    most / first.units_per_solution
                ))
            })?;
    }
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

/// Checks one file as a shard result of this version: its format, engine, checksum, shard
/// number and version, and its value against what the board can hold ([`most_units`]): a
/// checksum guards against damage, not forgery, so a recomputed one does not make 10^36
/// solutions of n = 30 a count.
fn check_file(name: &str, r: &ShardResult) -> Result<(), Error> {
    let fail = |message: String| Err(Error::ShardFile(format!("{name}: {message}")));
    if r.format == FORMAT_V1 {
        return fail(
            "a shard result of nqueens 0.1.0, which named engines and numbered the join \
             engine's tasks otherwise: merge it with 0.1.0, or count the shard again"
                .into(),
        );
    }
    if r.format != FORMAT {
        return fail("not a shard result".into());
    }
    if r.engine() == Engine::Auto {
        return fail(format!("unknown engine {:?}", r.engine));
    }
    if r.checksum != r.expected_checksum() {
        return fail("checksum mismatch (the file was edited or damaged)".into());
    }
    if r.shard >= r.shards {
        return fail(format!("shard {} of {} does not exist", r.shard, r.shards));
    }
    // Every run has at least one task per shard (`Job::shard` refuses more shards).
    if r.shards > r.tasks {
        return fail(format!(
            "{} shards of {} tasks: a run has at most one shard per task (the file was edited \
             or damaged)",
            r.shards, r.tasks
        ));
    }
    let ours = env!("CARGO_PKG_VERSION");
    if r.version != ours {
        return fail(format!(
            "a shard result of nqueens {}, whose tasks may be numbered otherwise (this is \
             {ours}): merge that run's shards with nqueens {}",
            r.version, r.version
        ));
    }
    let most = most_units(r.n, r.engine());
    if r.units > most {
        return fail(format!(
            "it claims {} units, more than a whole board of n = {} holds ({most} at most): the \
             file was edited or damaged",
            r.units, r.n
        ));
    }
    Ok(())
}

/// The most missing shards an error lists by number; the rest are counted.
const LISTED: usize = 8;

/// Checks that the set holds each of its run's shards once, naming one given twice or those
/// missing; holds a sorted list of the shard numbers given, never one entry per shard of the
/// run.
fn check_shards(results: &[(String, ShardResult)]) -> Result<(), Error> {
    let shards = results[0].1.shards;
    let mut given: Vec<(usize, &str)> = results
        .iter()
        .map(|(name, r)| (r.shard, name.as_str()))
        .collect();
    given.sort_unstable();
    if let Some(pair) = given.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(Error::Shard(format!(
            "shard {}/{shards} is given twice ({} and {})",
            pair[0].0, pair[0].1, pair[1].1
        )));
    }
    // The numbers absent from the sorted list (every one below `shards`): the gaps before,
    // between and after them.
    let mut missing = Vec::new();
    let mut next = 0;
    for shard in given.iter().map(|&(s, _)| s).chain([shards]) {
        missing.extend((next..shard).take(LISTED - missing.len().min(LISTED)));
        next = shard + 1;
    }
    if missing.is_empty() {
        return Ok(());
    }
    let named: Vec<String> = missing.iter().map(|s| format!("{s}/{shards}")).collect();
    let more = shards - given.len() - missing.len();
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    Err(Error::Shard(format!(
        "shard {}{more} missing",
        named.join(", ")
    )))
}

/// Checks that every task of the run is in exactly one shard, naming one out of range, twice
/// or in none. Holds a flag per task the files list (and one more), never one per task they
/// claim: with fewer listed than claimed, one among the first of them is in no shard.
fn check_tasks(results: &[(String, ShardResult)]) -> Result<(), Error> {
    let tasks = results[0].1.tasks;
    let listed: usize = results.iter().map(|(_, r)| r.task_ids.len()).sum();
    let mut covered = vec![false; tasks.min(listed.saturating_add(1))];
    for (name, r) in results {
        for &id in &r.task_ids {
            let twice = covered.get(id).copied().unwrap_or(false);
            if id >= tasks || twice {
                return Err(Error::Shard(format!(
                    "{name}: task {id} is out of range or in two shards"
                )));
            }
            if let Some(seen) = covered.get_mut(id) {
                *seen = true;
            }
        }
    }
    match covered.iter().position(|&c| !c) {
        Some(id) => Err(Error::Shard(format!("task {id} is in no shard"))),
        None => Ok(()),
    }
}

/// Checks the run `result` names (of this version) against that run's plan: the board size,
/// the engine, the split depth as the engine takes it, the number of tasks and the units of a
/// solution. The plan is built, which is bounded whatever the file says: a search plan holds
/// at most [`Plan::MAX_TASKS`] tasks (a deeper split is lowered), and the join engine's are
/// bounded by its board sizes (n <= 28) and their depths. A result of another version is
/// refused before ([`check_file`]): its numbering is its own, and no plan here is its plan.
fn check_run(name: &str, result: &ShardResult) -> Result<(), Error> {
    let fail = |why: String| {
        Err(Error::ShardFile(format!(
            "{name}: {why} (the file was edited or damaged)"
        )))
    };
    if let Err(e) = Error::check_board_size(result.n) {
        return fail(e.to_string());
    }
    if !matches!(result.units_per_solution, 1 | full::UNITS_PER_SOLUTION) {
        return fail(format!(
            "it counts {} units per solution, which no engine does",
            result.units_per_solution
        ));
    }
    let (n, engine, depth) = (result.n, result.engine(), result.split_depth);
    if let Err(e) = engine.settle(n) {
        return fail(e.to_string());
    }
    // The depth recorded is the one asked for (the automatic one may be below what the
    // board allows); the plan is split at the depth the engine takes from it.
    let deepest = match engine {
        Engine::Join => crate::join::MAX_DEPTH,
        _ => crate::limits::MAX_SPLIT_DEPTH,
    };
    if !(1..=deepest).contains(&depth) {
        return fail(format!(
            "it names split depth {depth}, where the {engine} engine splits at 1 to {deepest} \
             rows"
        ));
    }
    // A plan holds at most `Plan::MAX_TASKS` tasks (a deeper split is lowered), so building
    // the run's plan to check the file against it is bounded whatever the file says.
    let plan = Plan::effective_depth(n, engine, depth)
        .and_then(|depth| Ok((depth, Plan::new(n, engine, depth)?)));
    let (depth, plan) = match plan {
        Ok(plan) => plan,
        Err(e) => return fail(e.to_string()),
    };
    let claimed = result.tasks;
    let (tasks, units_per_solution) = (plan.len(), plan.units_per_solution());
    if tasks != claimed {
        return fail(format!(
            "it names {claimed} tasks, where n = {n} split at {depth} rows by the {engine} \
             engine makes {tasks}"
        ));
    }
    if units_per_solution != result.units_per_solution {
        return fail(format!(
            "it counts {} units per solution, where the {engine} engine counts \
             {units_per_solution}",
            result.units_per_solution
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_covers_every_task_once_and_balances() {
        let weights: Vec<u64> = (0..100).map(|i| (i * 37 % 101) as u64 + 1).collect();
        for shards in 1..=5 {
            let mut all: Vec<usize> = (0..shards)
                .flat_map(|s| partition(&weights, s, shards).unwrap())
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..100).collect::<Vec<_>>());
            let loads: Vec<u64> = (0..shards)
                .map(|s| {
                    partition(&weights, s, shards)
                        .unwrap()
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
        results_of(crate::Counter::new().engine(Engine::SEARCH), n, shards)
    }

    /// Shard results of a real count by `counter` of the n x n board, split into `shards`.
    fn results_of(counter: crate::Counter, n: u32, shards: usize) -> Vec<(String, ShardResult)> {
        let counter = counter.threads(1);
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

    /// `results` with `edit` made to every one of them and their checksums recomputed: a
    /// set edited with care, which only the checks past the checksum can refuse.
    fn edited(
        mut results: Vec<(String, ShardResult)>,
        edit: impl Fn(&mut ShardResult),
    ) -> Vec<(String, ShardResult)> {
        for (_, r) in &mut results {
            edit(r);
            r.checksum = r.expected_checksum();
        }
        results
    }

    fn refusal(results: &[(String, ShardResult)]) -> String {
        merge(results).unwrap_err().to_string()
    }

    /// Regression: a shard file whose `shards` was 2^40 (its checksum recomputed) grew merge
    /// to 23 GB, a flag for each shard. It is refused, and when the file's `tasks` allows that
    /// many shards, the missing ones are listed without a flag for each.
    #[test]
    fn a_shard_count_of_2_to_the_40_is_refused_without_allocating_it() {
        let huge = 1usize << 40;
        let error = refusal(&edited(results(8, 2), |r| r.shards = huge));
        assert!(error.contains("at most one shard per task"), "{error}");
        let error = refusal(&edited(results(8, 2), |r| {
            r.shards = huge;
            r.tasks = huge;
        }));
        assert_eq!(
            error,
            format!(
                "shard 2/{huge}, 3/{huge}, 4/{huge}, 5/{huge}, 6/{huge}, 7/{huge}, 8/{huge}, 9/{huge} and {} more missing",
                huge - 10
            )
        );
    }

    /// Regression: the same with `tasks`: a flag for each task the file claimed.
    #[test]
    fn a_task_count_of_2_to_the_40_is_refused_without_allocating_it() {
        let tasks = results(8, 2)[0].1.tasks;
        let error = refusal(&edited(results(8, 2), |r| r.tasks = 1 << 40));
        assert_eq!(error, format!("task {tasks} is in no shard"));
    }

    /// Regression: `units` near 2^128 wrapped the sum silently (caught at n = 15 by the known
    /// count, where one is known; from n = 28 on, none is). Each shard is bounded by the board.
    #[test]
    fn shard_units_near_2_to_the_128_are_refused_not_wrapped() {
        let mut results = results(8, 2);
        results[0].1.units = u128::MAX - 1;
        results[0].1.checksum = results[0].1.expected_checksum();
        let error = merge(&results).unwrap_err();
        assert!(matches!(error, Error::ShardFile(_)), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("more than a whole board of n = 8")
        );
    }

    /// Regression (edges VI): a shard whose checksum was recomputed, claiming 10^36 solutions
    /// of n = 30 or 2^127 of n = 28, was merged and printed with exit 0. Each shard is bounded
    /// by what the whole board can hold (n! past the known counts), and so is their sum.
    #[test]
    fn merge_refuses_a_count_no_board_can_hold() {
        for (n, units) in [
            (30, 10u128.pow(36)),
            (28, 1u128 << 127),
            (27, 3 * (1u128 << 60)),
        ] {
            let error = merge(&edited(results(8, 2), |r| {
                r.n = n;
                r.units = units;
            }))
            .unwrap_err();
            assert!(matches!(error, Error::ShardFile(_)), "n = {n}: {error:?}");
            assert!(
                error
                    .to_string()
                    .contains(&format!("whole board of n = {n} holds")),
                "{error}"
            );
        }
        // Each shard within the board, the two together past it: one claims what the other
        // holds.
        let most = most_units(8, Engine::SEARCH);
        let mut results = results(8, 2);
        for (_, r) in &mut results {
            r.units = most;
            r.checksum = r.expected_checksum();
        }
        let error = merge(&results).unwrap_err();
        assert!(matches!(error, Error::Shard(_)), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("add up to more than a board of n = 8 can hold (at most 92"),
            "{error}"
        );
    }

    /// Regression (edges VI): a shard of another version was checked only by what holds for
    /// every version, not against the plan it names: it is refused, naming the version.
    #[test]
    fn a_shard_of_another_version_is_refused() {
        let error = merge(&edited(results(8, 2), |r| r.version = "0.11.0".into())).unwrap_err();
        assert!(matches!(error, Error::ShardFile(_)), "{error:?}");
        assert!(error.to_string().contains("nqueens 0.11.0"), "{error}");
    }

    /// Regression: zero units per solution, with zero units, divided by zero (a panic).
    #[test]
    fn zero_units_per_solution_is_refused_not_divided_by() {
        let error = refusal(&edited(results(8, 2), |r| {
            r.units = 0;
            r.units_per_solution = 0;
        }));
        assert!(error.contains("0 units per solution"), "{error}");
        let error = refusal(&edited(results(8, 2), |r| r.units_per_solution = 1));
        assert!(
            error.contains("the search (full symmetry) engine counts 3"),
            "{error}"
        );
    }

    /// Regression: the sizes were never checked against the run the files name: a set that
    /// left the last task out of `tasks` and of its shard merged into a count short of it.
    #[test]
    fn a_set_naming_fewer_tasks_than_its_run_has_is_refused() {
        for counter in [
            crate::Counter::new().engine(Engine::SEARCH),
            crate::Counter::new().engine(Engine::Search(crate::Symmetry::Mirror)),
            crate::Counter::new().engine(Engine::Join),
        ] {
            let mut results = results_of(counter, 8, 2);
            let last = results[0].1.tasks - 1;
            for (_, r) in &mut results {
                r.tasks = last;
                r.task_ids.retain(|&id| id != last);
                r.units = 0;
                r.checksum = r.expected_checksum();
            }
            let error = refusal(&results);
            assert!(error.contains(&format!("it names {last} tasks")), "{error}");
            assert!(
                error.ends_with(&format!(
                    "makes {} (the file was edited or damaged)",
                    last + 1
                )),
                "{error}"
            );
        }
    }

    /// Regression: a run no count could plan (n = 28 searched at a split of 8 rows, some 10^9
    /// tasks: the plan alone filled the memory) is checked against its plan as the run makes
    /// it, lowered to the deepest split within `Plan::MAX_TASKS`, in seconds; and a split
    /// depth no engine takes is refused.
    #[test]
    fn a_run_too_large_to_plan_is_refused_without_planning_it() {
        let started = std::time::Instant::now();
        let error = refusal(&edited(results(8, 2), |r| {
            r.n = 28;
            r.split_depth = 8;
        }));
        assert!(error.contains("n = 28 split at"), "{error}");
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
        for depth in [0, 9] {
            let error = refusal(&edited(results(8, 2), |r| r.split_depth = depth));
            assert!(error.contains("splits at 1 to 8 rows"), "{error}");
        }
        let error = refusal(&edited(results(8, 2), |r| r.n = 40));
        assert!(error.contains("board size 40"), "{error}");
    }

    /// Real sets of every engine and split pass the checks against their run, the automatic
    /// split too (recorded as chosen: 1 for the mirror split of n = 13, which takes 2).
    #[test]
    fn real_shards_of_every_engine_and_split_merge() {
        for engine in [
            Engine::SEARCH,
            Engine::Search(crate::Symmetry::Mirror),
            Engine::Join,
        ] {
            for n in [1, 5, 8, 11, 13] {
                for depth in [None, Some(1), Some(2), Some(3), Some(4)] {
                    let counter = crate::Counter::new().engine(engine);
                    let counter = match depth {
                        Some(depth) => counter.split_depth(depth),
                        None => counter,
                    };
                    if counter.prepare(n).is_err() {
                        continue; // the join engine below n = 4
                    }
                    let results = results_of(counter, n, 2.min(n as usize));
                    let merged = merge(&results).unwrap();
                    assert_eq!(
                        Some(merged.solutions),
                        crate::known::total(n),
                        "{engine}, n = {n}, depth {depth:?}"
                    );
                }
            }
        }
    }
}
