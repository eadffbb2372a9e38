//! What the processor offers beyond the baseline instruction set, checked at run time by the
//! engines that keep a second build of their hot loop.

/// Whether the processor has the instructions of the engines' second build (popcnt, BMI1,
/// BMI2, lzcnt): nearly every x86-64 processor since 2013.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_bmi() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
}
