//! What the processor offers beyond the baseline instruction set, checked at run time by the
//! engines that keep a second build of their hot loop, and the cap on what they may use
//! ([`cap_instruction_sets`]): every build of every engine runs on one machine that has the
//! most, for tests and benchmarks (the binary's `NQUEENS_ISA`).

use crate::error::Error;
use std::sync::atomic::{AtomicU8, Ordering};

/// The instruction sets the engines' builds may use, the fewest first: a cap
/// ([`cap_instruction_sets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstructionSets {
    /// The baseline instruction set alone: the builds that run on every processor.
    Portable,
    /// Up to AVX2, with BMI2, BMI1, POPCNT and LZCNT: the join's `avx2` build, the search's
    /// `bmi2` build.
    Avx2,
    /// Up to AVX-512 (F, CD, BW, DQ, VL, VPOPCNTDQ) and GFNI: every build.
    Avx512,
}

/// Every cap, the fewest sets first.
const ALL: [InstructionSets; 3] = [
    InstructionSets::Portable,
    InstructionSets::Avx2,
    InstructionSets::Avx512,
];

/// Each feature named, and whether this processor has it: `is_x86_feature_detected!` takes
/// its name as a literal, so the names are written once, here.
#[cfg(target_arch = "x86_64")]
macro_rules! detected {
    ($($feature:tt),*) => {
        vec![$(($feature, std::is_x86_feature_detected!($feature))),*]
    };
}

/// The features each cap adds to the one below it, each with whether this processor has it.
#[cfg(target_arch = "x86_64")]
fn features_added(sets: InstructionSets) -> Vec<(&'static str, bool)> {
    match sets {
        InstructionSets::Portable => Vec::new(),
        InstructionSets::Avx2 => detected!("popcnt", "bmi1", "bmi2", "lzcnt", "avx2"),
        InstructionSets::Avx512 => detected!(
            "avx512f",
            "avx512cd",
            "avx512bw",
            "avx512dq",
            "avx512vl",
            "avx512vpopcntdq",
            "gfni"
        ),
    }
}

impl InstructionSets {
    /// The cap's name: `portable`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            InstructionSets::Portable => "portable",
            InstructionSets::Avx2 => "avx2",
            InstructionSets::Avx512 => "avx512",
        }
    }

    /// The cap of that name ([`InstructionSets::name`]), if any.
    pub fn from_name(name: &str) -> Option<InstructionSets> {
        ALL.into_iter().find(|sets| sets.name() == name)
    }

    /// The features of these sets this processor lacks (empty: it has them all).
    pub fn missing(self) -> Vec<&'static str> {
        #[cfg(target_arch = "x86_64")]
        {
            let wanted = ALL.into_iter().filter(|sets| *sets <= self);
            let wanted = wanted.flat_map(features_added);
            wanted
                .filter(|(_, has)| !has)
                .map(|(feature, _)| feature)
                .collect()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            match self {
                InstructionSets::Portable => Vec::new(),
                _ => vec!["x86-64"],
            }
        }
    }
}

/// The cap, as an `InstructionSets` number: none at first.
static CAP: AtomicU8 = AtomicU8::new(InstructionSets::Avx512 as u8);

/// Caps the instruction sets every engine's builds may use, for the rest of the process: at
/// `Portable` the engines run the builds that run on every processor, at `Avx2` none that
/// needs AVX-512. Call it before the first count (the search checks its build once). An
/// error, and no cap, where the processor lacks some of the sets: the message names them.
pub fn cap_instruction_sets(sets: InstructionSets) -> Result<(), Error> {
    let missing = sets.missing();
    if !missing.is_empty() {
        return Err(Error::Engine(format!(
            "instruction sets up to {} need {}, which this processor lacks",
            sets.name(),
            missing.join(", ")
        )));
    }
    CAP.store(sets as u8, Ordering::Relaxed);
    Ok(())
}

/// Whether the cap lets the engines use `sets`: a check made where a build is chosen, never
/// in a hot loop.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn allows(sets: InstructionSets) -> bool {
    CAP.load(Ordering::Relaxed) >= sets as u8
}

/// Whether the processor has the instructions of the engines' second build (popcnt, BMI1,
/// BMI2, lzcnt), and the cap allows them: nearly every x86-64 processor since 2013.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_bmi() -> bool {
    allows(InstructionSets::Avx2)
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
}

/// Whether the processor has POPCNT and the cap allows it (above `Portable`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_popcnt() -> bool {
    allows(InstructionSets::Avx2) && std::is_x86_feature_detected!("popcnt")
}

/// Whether the processor has AVX2 and the cap allows it.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx2() -> bool {
    allows(InstructionSets::Avx2) && std::is_x86_feature_detected!("avx2")
}

/// Whether the cap allows AVX-512 and GFNI: each build that uses them checks the features
/// it needs beside this.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn allows_avx512() -> bool {
    allows(InstructionSets::Avx512)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_are_named_and_ordered() {
        for sets in ALL {
            assert_eq!(InstructionSets::from_name(sets.name()), Some(sets));
        }
        assert_eq!(InstructionSets::from_name("sse2"), None);
        assert!(InstructionSets::Portable < InstructionSets::Avx2);
        assert!(InstructionSets::Avx2 < InstructionSets::Avx512);
        assert!(InstructionSets::Portable.missing().is_empty());
        // A cap lacks at least what a lower one lacks.
        let avx2 = InstructionSets::Avx2.missing();
        let avx512 = InstructionSets::Avx512.missing();
        assert!(avx2.iter().all(|f| avx512.contains(f)));
    }
}
