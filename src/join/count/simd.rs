//! The instruction-set builds of the unit count and their one dispatch: AVX-512 (with BW,
//! VPOPCNTDQ and GFNI), AVX2 and portable. The processor is checked once, when a plan is made
//! ([`Build::best`]); the builds that gather bits with BMI2's `PEXT` carry the proof of that
//! check ([`Bmi2`]), so no safe code reaches an instruction the processor lacks.

#[cfg(target_arch = "x86_64")]
use super::bits::Queries;
use super::bits::{Gather, Portable};
use super::squeeze::Squeeze;

/// Work that a build runs with its bit gather: a unit's count ([`Build::run`]). This file
/// knows only the gather; the work (`unit.rs`) is inlined into each build.
pub(in crate::join) trait WithGather {
    /// Runs the work with `gather`.
    fn run<G: Gather>(self, gather: G) -> u128;
}

/// Proof that the processor has what the AVX2 build enables (AVX2, and BMI2 with POPCNT, BMI1
/// and LZCNT): made only in this file, after the run-time check of them all, so a value's
/// existence makes `PEXT` and the AVX2 build's hot loop sound.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Gather for Bmi2 {
    #[inline(always)]
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64) {
        use std::arch::x86_64::_pext_u64;
        // SAFETY: a `Bmi2` exists only where the processor has BMI2 (see the type). Inlined
        // into a build with `bmi2` enabled, this is one instruction per gather.
        unsafe {
            (
                _pext_u64(pattern, squeeze.cut_mask) as usize,
                _pext_u64(pattern, squeeze.rest_mask),
            )
        }
    }

    #[inline(always)]
    fn count_prepared<const CHUNKS: usize>(self, queries: &mut impl Queries) -> u64 {
        // SAFETY: a `Bmi2` exists only where the processor has what the AVX2 build enables.
        unsafe { count_prepared_avx2::<CHUNKS, _>(self, queries) }
    }
}

/// Proof that the processor has what the AVX-512 build enables (AVX-512 F, BW and
/// VPOPCNTDQ, GFNI, and all that [`Bmi2`] proves): made only in this file, after the
/// run-time check. Its gather splits with `PEXT`, and transposes and writes half-boards out
/// with AVX-512.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Avx512(Bmi2);

#[cfg(target_arch = "x86_64")]
impl Gather for Avx512 {
    #[inline(always)]
    fn split(self, squeeze: &Squeeze, pattern: u64) -> (usize, u64) {
        self.0.split(squeeze, pattern)
    }

    #[inline(always)]
    fn transpose(self, block: &mut [u64; 64]) {
        // SAFETY: an `Avx512` exists only where the processor has AVX-512 F and BW.
        unsafe { super::group::transpose_avx512(block) }
    }

    #[inline(always)]
    fn append_clear(self, key: u64, pattern: u64, souths: &[[u64; 2]], out: &mut Vec<u64>) {
        // SAFETY: an `Avx512` exists only where the processor has AVX-512 F.
        unsafe { super::half::append_clear_avx512(key, pattern, souths, out) }
    }

    #[inline(always)]
    fn count_prepared<const CHUNKS: usize>(self, queries: &mut impl Queries) -> u64 {
        // SAFETY: an `Avx512` exists only where the processor has what its build enables.
        unsafe { count_prepared_avx512::<CHUNKS, _>(self, queries) }
    }
}

/// One build of the unit count, checked against the processor: only this file makes one.
#[derive(Clone, Copy, Debug)]
pub(in crate::join) struct Build(Isa);

#[derive(Clone, Copy, Debug)]
enum Isa {
    Portable,
    /// AVX2 and BMI2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Bmi2),
    /// AVX-512 (F, BW, VPOPCNTDQ), GFNI, AVX2 and BMI2. GFNI turns the bit reversals that read
    /// the quarter table as the other quarters into one instruction each (odd boards, whose
    /// half-boards are generated for many layouts, counted 12 % faster at n = 19); every
    /// processor with VPOPCNTDQ but one has it.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

/// The instruction set the join engine's hot loop runs on this processor: `avx512`, `avx2`
/// or `portable` (what `nqueens bench` reports beside its figures).
pub fn instruction_set() -> &'static str {
    Build::best().name()
}

impl Build {
    /// Every build this processor runs (within the cap, `cpu.rs`), the fastest first (the
    /// portable one last).
    pub(in crate::join) fn all() -> Vec<Build> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut builds = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            if crate::cpu::has_bmi() && crate::cpu::has_avx2() {
                let bmi2 = Bmi2(());
                let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx512vpopcntdq");
                if crate::cpu::allows_avx512() && avx512 && has!("gfni") {
                    builds.push(Build(Isa::Avx512(Avx512(bmi2))));
                }
                builds.push(Build(Isa::Avx2(bmi2)));
            }
        }
        builds.push(Build(Isa::Portable));
        builds
    }

    /// The fastest build this processor runs.
    pub(in crate::join) fn best() -> Build {
        Build::all()[0]
    }

    /// The build's name, for tests and messages.
    pub(in crate::join) fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512(_) => "avx512",
        }
    }

    /// Runs `work` (a unit's count) with this build: compiled for the build's instruction
    /// set, with its bit gather.
    pub(in crate::join) fn run<W: WithGather>(self, work: W) -> u128 {
        match self.0 {
            Isa::Portable => work.run(Portable),
            // SAFETY: `Isa::Avx2` and `Isa::Avx512` are made only by `Build::all`, after
            // checking every feature their functions enable.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(bmi2) => unsafe { run_avx2(bmi2, work) },
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512(avx512) => unsafe { run_avx512(avx512, work) },
        }
    }
}

/// # Safety
///
/// The processor has AVX-512 F, BW and VPOPCNTDQ, GFNI, AVX2, POPCNT, BMI1, BMI2 and LZCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512vpopcntdq,gfni")]
unsafe fn run_avx512<W: WithGather>(avx512: Avx512, work: W) -> u128 {
    work.run(avx512)
}

/// # Safety
///
/// The processor has AVX2, POPCNT, BMI1, BMI2 and LZCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn run_avx2<W: WithGather>(bmi2: Bmi2, work: W) -> u128 {
    work.run(bmi2)
}

/// The AVX-512 build's hot loop ([`Gather::count_prepared`]).
///
/// # Safety
///
/// As [`run_avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512vpopcntdq,gfni")]
#[inline(never)]
unsafe fn count_prepared_avx512<const CHUNKS: usize, Q: Queries>(
    avx512: Avx512,
    queries: &mut Q,
) -> u64 {
    queries.count_prepared::<CHUNKS>(avx512)
}

/// The AVX2 build's hot loop ([`Gather::count_prepared`]).
///
/// # Safety
///
/// As [`run_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
#[inline(never)]
unsafe fn count_prepared_avx2<const CHUNKS: usize, Q: Queries>(bmi2: Bmi2, queries: &mut Q) -> u64 {
    queries.count_prepared::<CHUNKS>(bmi2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The splits of `patterns` by `squeeze`, in a build's gather.
    struct Splits<'a> {
        squeeze: &'a Squeeze,
        patterns: &'a [u64],
        out: &'a mut Vec<(usize, u64)>,
    }

    impl WithGather for Splits<'_> {
        fn run<G: Gather>(self, gather: G) -> u128 {
            let splits = self.patterns.iter().map(|&p| gather.split(self.squeeze, p));
            self.out.extend(splits);
            0
        }
    }

    /// `PEXT` splits as the portable gather does, with dropped bits (a partition's) and
    /// without.
    #[test]
    fn every_build_splits_as_the_portable_gather_does() {
        let patterns = crate::join::count::index::test_patterns(2000, 0xb175);
        let width = 38;
        for (cuts, dropped) in [
            (vec![18, 19, 37, 0], 0),
            (vec![17, 36, 20], 1 << 18 | 1 << 19 | 1 << 37),
        ] {
            let squeeze = Squeeze::dropping(&cuts, dropped, width);
            let mut portable = Vec::new();
            Build(Isa::Portable).run(Splits {
                squeeze: &squeeze,
                patterns: &patterns,
                out: &mut portable,
            });
            for build in Build::all() {
                let mut splits = Vec::new();
                build.run(Splits {
                    squeeze: &squeeze,
                    patterns: &patterns,
                    out: &mut splits,
                });
                assert!(splits == portable, "{}: dropped {dropped:#x}", build.name());
            }
        }
    }
}
