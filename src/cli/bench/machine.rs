//! The machine a benchmark ran on, as Linux describes it: the processor's model, its logical
//! and physical cores, the memory, and the instruction sets the engines chose. Read from
//! `/proc`; a field it cannot read is left out, never guessed.

use serde::{Deserialize, Serialize};

/// What the benchmark says of the machine and the build.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The processor's model name.
    pub model: Option<String>,
    /// Logical CPUs this process may run on.
    pub logical_cpus: usize,
    /// Physical cores (distinct core and package ids).
    pub physical_cores: Option<usize>,
    /// The memory, in bytes.
    pub memory_bytes: Option<u64>,
    /// The instruction set of the join engine's hot loop (`avx512`, `avx2`, `portable`).
    pub join_build: String,
    /// The instruction set of the search's hot loop (`avx512`, `bmi2`, `portable`).
    pub search_build: String,
}

impl Machine {
    /// This machine.
    pub fn this() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        Machine {
            model: field(&cpuinfo, "model name").map(str::to_string),
            logical_cpus: nqueens::default_threads(),
            physical_cores: physical_cores(&cpuinfo),
            memory_bytes: field(&meminfo, "MemTotal")
                .and_then(|kib| kib.trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|kib| kib * 1024),
            join_build: nqueens::join::instruction_set().to_string(),
            search_build: nqueens::search_instruction_set().to_string(),
        }
    }
}

/// The memory free for new work now (`MemAvailable`), in bytes, where Linux says.
pub fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = field(&meminfo, "MemAvailable")?
        .trim_end_matches("kB")
        .trim();
    Some(kib.parse::<u64>().ok()? * 1024)
}

/// The value of the first `name: value` line of a `/proc` file.
fn field<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim())
    })
}

/// The distinct (package, core) pairs of `/proc/cpuinfo`; `None` where it names none.
fn physical_cores(cpuinfo: &str) -> Option<usize> {
    let cores: std::collections::BTreeSet<(&str, &str)> = cpuinfo
        .split("\n\n")
        .filter_map(|cpu| Some((field(cpu, "physical id")?, field(cpu, "core id")?)))
        .collect();
    (!cores.is_empty()).then_some(cores.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cores_are_counted_by_package_and_core_not_by_cpu() {
        let two_threads_a_core = "processor\t: 0\nphysical id\t: 0\ncore id\t: 0\n\n\
             processor\t: 1\nphysical id\t: 0\ncore id\t: 0\n\n\
             processor\t: 2\nphysical id\t: 1\ncore id\t: 0\n";
        assert_eq!(physical_cores(two_threads_a_core), Some(2));
        assert_eq!(physical_cores("processor\t: 0\n"), None);
        assert_eq!(field("model name\t: Xeon\n", "model name"), Some("Xeon"));
    }
}
