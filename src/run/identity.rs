//! What a run's files name: the run a journal, a shard's journal or a subtotals file belongs
//! to ([`RunIdentity`]), its fields as the headers write them and read them back, and the
//! most a task of it can hold.

use crate::engine::Engine;
use crate::run::job::Job;
use crate::search::full;
use std::collections::BTreeMap;

/// What a journal belongs to: a resumed run must match it field for field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity {
    /// Board size.
    pub n: u32,
    /// The engine that counts (settled: never [`Engine::Auto`]).
    pub engine: Engine,
    /// Split depth.
    pub split_depth: u32,
    /// Number of tasks of the whole plan.
    pub tasks: usize,
    /// `(I, K)` for shard I of K; `None` for the whole run.
    pub shard: Option<(usize, usize)>,
    /// The program version (task numbering may change between versions).
    pub version: String,
}

impl RunIdentity {
    /// The identity of `job`, or of its shard `shard`, in this version of the program.
    pub fn of(job: &Job, shard: Option<(usize, usize)>) -> RunIdentity {
        RunIdentity {
            n: job.n,
            engine: job.engine,
            split_depth: job.split_depth,
            tasks: job.plan.len(),
            shard,
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    /// The most units one task of this run can hold: the whole board's (`most_units`). A
    /// recorded value past it is damaged whatever its checksum says: the checksum guards
    /// against torn and mangled lines, not forged ones, and a sum that wraps past 2^128 would
    /// print a wrong count with no error.
    pub fn most_units(&self) -> u128 {
        most_units(self.n, self.engine)
    }

    /// The identity as the header writes it (without its checksum).
    pub(crate) fn fields(&self) -> String {
        let symmetry = self
            .engine
            .symmetry()
            .map(|s| format!(" symmetry={}", s.name()))
            .unwrap_or_default();
        let shard = self
            .shard
            .map_or_else(|| "all".to_string(), |(i, k)| format!("{i}/{k}"));
        format!(
            "n={} engine={}{symmetry} split={} tasks={} shard={shard} version={}",
            self.n,
            self.engine.name(),
            self.split_depth,
            self.tasks,
            self.version
        )
    }

    /// The identity a header's fields name (`n=16 engine=search symmetry=full split=2
    /// tasks=356 shard=all version=0.10.0`), or `None` when they are not such fields.
    pub fn parse(fields: &str) -> Option<RunIdentity> {
        let mut map = BTreeMap::new();
        for field in fields.split(' ') {
            let (key, value) = field.split_once('=')?;
            map.insert(key, value);
        }
        let engine = Engine::from_names(map.get("engine")?, map.get("symmetry").copied())?;
        let shard = match *map.get("shard")? {
            "all" => None,
            text => {
                let (i, k) = text.split_once('/')?;
                Some((i.parse().ok()?, k.parse().ok()?))
            }
        };
        let n: u32 = map.get("n")?.parse().ok()?;
        // A board no engine counts, or a shard no run has, is no run of this program.
        if !(1..=crate::limits::MAX_N).contains(&n) || shard.is_some_and(|(i, k)| i >= k) {
            return None;
        }
        let identity = RunIdentity {
            n,
            engine,
            split_depth: map.get("split")?.parse().ok()?,
            tasks: map.get("tasks")?.parse().ok()?,
            shard,
            version: map.get("version")?.to_string(),
        };
        // Only fields as this program writes them: read back whole.
        (identity.fields() == fields).then_some(identity)
    }
}

/// The most units a run of `engine` on a board of `n` can count, in the engine's units: the
/// whole board's solutions, by the published count where there is one and by n! beyond (each
/// queen in a row and a column of its own). A task, a shard and a sum of either holds no more:
/// journals, shard results and their sums are bounded by it before they are added.
pub fn most_units(n: u32, engine: Engine) -> u128 {
    let factorial = || {
        (1..=u128::from(n))
            .try_fold(1u128, u128::checked_mul)
            .unwrap_or(u128::MAX)
    };
    let solutions = crate::known::total(n).unwrap_or_else(factorial);
    solutions.saturating_mul(units_per_solution(engine.tasks_engine(n)))
}

/// What one solution is worth in the values of `engine`'s tasks: the plan's
/// [`units_per_solution`](crate::Plan::units_per_solution), known here from the engine
/// alone, before any plan is made (a test holds the two together).
fn units_per_solution(engine: Engine) -> u128 {
    if engine == Engine::SEARCH {
        full::UNITS_PER_SOLUTION
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Counter;
    use crate::engine::Symmetry;

    #[test]
    fn an_engine_s_units_per_solution_are_its_plan_s() {
        let engines = [
            Engine::SEARCH,
            Engine::Search(Symmetry::Mirror),
            Engine::Join,
        ];
        for engine in engines {
            for n in [8, 12, 16] {
                let job = Counter::new().engine(engine).prepare(n).unwrap();
                let identity = RunIdentity::of(&job, None);
                assert_eq!(
                    units_per_solution(identity.engine),
                    job.plan.units_per_solution(),
                    "{engine} n = {n}"
                );
                let known = crate::known::total(n).unwrap();
                assert_eq!(identity.most_units(), known * job.plan.units_per_solution());
            }
        }
    }
}
