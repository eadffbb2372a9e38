//! What `nqueens serve`'s page explores: solution k of a board and its neighbours
//! ([`browse`]), the completions of queens placed by hand ([`partial`]), and the search as a
//! stream of events ([`trace`]).
//!
//! It may use solution sets (`solutions/`), the search, the driver and the base.

pub mod browse;
pub mod partial;
pub mod trace;

/// What the tests of this folder share.
#[cfg(test)]
mod testing {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// Runs `work` with a flag that is set 200 ms in, and checks that it returned within
    /// `seconds`: its result.
    pub(crate) fn stopped_after_200ms<T: Send>(
        seconds: u64,
        work: impl FnOnce(&AtomicBool) -> T + Send,
    ) -> T {
        let cancel = AtomicBool::new(false);
        let started = Instant::now();
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                cancel.store(true, Ordering::Relaxed);
            });
            work(&cancel)
        });
        assert!(
            started.elapsed() < Duration::from_secs(seconds),
            "{:?}",
            started.elapsed()
        );
        result
    }
}
