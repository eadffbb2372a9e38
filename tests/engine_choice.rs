//! `Request::choose`, the one place a count's engine and its fallbacks are decided: one test
//! a row of the decision table in its doc, with the GPU's answer given by the test (a GPU that
//! opens is `Ok(())`, one that fails an `Error::Gpu`), so no device is needed.

use nqueens::join::{
    AUTO_FROM, DEFAULT_PIECE, DEVICE_BATCH_BYTES, DEVICE_PIECE, MAX_N, MIN_N, least_bytes,
};
use nqueens::{Choice, Engine, Error, Reason, Request, Symmetry};
use std::cell::Cell;

const MIRROR: Engine = Engine::Search(Symmetry::Mirror);

fn request(engine: Engine, n: u32) -> Request {
    Request::new(engine, n)
}

/// `request` with `max_memory` set and four threads.
fn limited(engine: Engine, n: u32, max_memory: u64) -> Request {
    Request {
        max_memory: Some(max_memory),
        threads: 4,
        ..Request::new(engine, n)
    }
}

fn named(engine: Engine, n: u32) -> Request {
    Request {
        gpu_named: true,
        ..Request::new(engine, n)
    }
}

fn gpu_opens() -> Result<(), Error> {
    Ok(())
}

fn gpu_fails() -> Result<(), Error> {
    Err(Error::Gpu("no adapter".into()))
}

/// The engine, whether a GPU counts, and the reasons of a choice.
fn outcome(choice: Result<Choice<()>, Error>) -> Result<(Engine, bool, Vec<Reason>), Error> {
    choice.map(|c| (c.engine, c.gpu.is_some(), c.reasons))
}

#[test]
fn the_search_counts_as_asked_at_any_size_and_any_memory() {
    for n in [1, 12, 20, 30] {
        for request in [request(MIRROR, n), limited(MIRROR, n, 1)] {
            assert_eq!(
                outcome(request.choose(gpu_opens)),
                Ok((MIRROR, false, vec![Reason::Asked]))
            );
        }
    }
}

#[test]
fn the_join_engine_asked_for_outside_its_sizes_is_an_engine_error() {
    for n in [MIN_N - 1, MAX_N + 1] {
        let error = request(Engine::Join, n).choose(gpu_opens).unwrap_err();
        assert!(matches!(error, Error::Engine(_)), "{error:?}");
    }
}

#[test]
fn the_join_engine_asked_for_counts_in_the_pieces_its_memory_holds() {
    let choice = request(Engine::Join, 16).choose(gpu_opens).unwrap();
    assert_eq!((choice.engine, choice.piece), (Engine::Join, DEFAULT_PIECE));
    assert_eq!(choice.reasons, [Reason::Asked]);
    let least = least_bytes(16, 4);
    let choice = limited(Engine::Join, 16, least).choose(gpu_opens).unwrap();
    assert_eq!(
        (choice.engine, choice.piece),
        (Engine::Join, nqueens::join::MIN_PIECE)
    );
}

#[test]
fn the_join_engine_asked_for_under_too_little_memory_is_a_memory_error() {
    let least = least_bytes(16, 4);
    let error = limited(Engine::Join, 16, least - 1)
        .choose(gpu_opens)
        .unwrap_err();
    assert!(
        matches!(error, Error::Memory { needed, .. } if needed == least),
        "{error:?}"
    );
}

#[test]
fn a_gpu_asked_for_with_a_symmetry_counts_the_searchs_tasks_with_it() {
    for symmetry in [Symmetry::Full, Symmetry::Mirror] {
        for n in [8, 18] {
            assert_eq!(
                outcome(limited(Engine::Gpu(Some(symmetry)), n, 1).choose(gpu_opens)),
                Ok((Engine::Search(symmetry), true, vec![Reason::Asked]))
            );
        }
    }
}

#[test]
fn a_gpu_asked_for_without_a_symmetry_counts_the_joins_tasks_where_auto_takes_the_join() {
    for n in [AUTO_FROM, 20, MAX_N] {
        let choice = request(Engine::Gpu(None), n).choose(gpu_opens).unwrap();
        assert_eq!(
            (choice.engine, choice.gpu, choice.piece),
            (Engine::Join, Some(()), DEVICE_PIECE)
        );
        assert_eq!(choice.reasons, [Reason::Asked]);
        assert_eq!(Engine::Gpu(None).tasks_engine(n), Engine::Join);
    }
    for n in [1, AUTO_FROM - 1, MAX_N + 1] {
        assert_eq!(
            outcome(request(Engine::Gpu(None), n).choose(gpu_opens)),
            Ok((Engine::SEARCH, true, vec![Reason::Asked]))
        );
        assert_eq!(Engine::Gpu(None).tasks_engine(n), Engine::SEARCH);
    }
}

/// The host holds the quarter table, and for each of its threads (four here) a piece and the
/// batches it fills for the device.
#[test]
fn a_gpu_join_needs_the_memory_of_its_host_threads_and_their_batches() {
    let least = least_bytes(18, 4) + 4 * DEVICE_BATCH_BYTES;
    let fits = limited(Engine::Gpu(None), 18, least).choose(gpu_opens);
    assert_eq!(outcome(fits), Ok((Engine::Join, true, vec![Reason::Asked])));
    let error = limited(Engine::Gpu(None), 18, least - 1)
        .choose(gpu_opens)
        .unwrap_err();
    assert!(
        matches!(error, Error::Memory { needed, .. } if needed == least),
        "{error:?}"
    );
}

#[test]
fn a_gpu_asked_for_that_fails_to_open_is_its_error_and_no_fallback() {
    assert_eq!(
        outcome(request(Engine::Gpu(None), 18).choose(gpu_fails)),
        Err(gpu_fails().unwrap_err())
    );
}

#[test]
fn auto_takes_the_join_engine_from_auto_from_to_max_n() {
    for n in [AUTO_FROM, MAX_N] {
        assert_eq!(
            outcome(request(Engine::Auto, n).choose(gpu_opens)),
            Ok((Engine::Join, false, vec![Reason::JoinBySize]))
        );
    }
}

#[test]
fn auto_takes_the_search_when_the_memory_holds_not_even_the_join_engines_smallest_pieces() {
    let least = least_bytes(18, 4);
    let (needed, table) = match limited(Engine::Join, 18, 0).choose(gpu_opens) {
        Err(Error::Memory { needed, table }) => (needed, table),
        other => panic!("{other:?}"),
    };
    assert_eq!(needed, least);
    let over = Reason::JoinOverMemory { needed, table };
    assert_eq!(
        outcome(limited(Engine::Auto, 18, least - 1).choose(gpu_opens)),
        Ok((Engine::SEARCH, false, vec![Reason::JoinBySize, over]))
    );
    let choice = limited(Engine::Auto, 18, least).choose(gpu_opens).unwrap();
    assert_eq!(choice.engine, Engine::Join);
}

#[test]
fn auto_takes_the_full_symmetry_search_below_and_past_the_join_engines_sizes() {
    for n in [1, AUTO_FROM - 1, MAX_N + 1] {
        assert_eq!(
            outcome(limited(Engine::Auto, n, 1).choose(gpu_opens)),
            Ok((Engine::SEARCH, false, vec![Reason::SearchBySize]))
        );
    }
}

#[test]
fn auto_with_a_gpu_named_counts_on_it_as_a_gpu_without_a_symmetry() {
    assert_eq!(
        outcome(named(Engine::Auto, 8).choose(gpu_opens)),
        Ok((Engine::SEARCH, true, vec![Reason::GpuNamed]))
    );
    assert_eq!(
        outcome(named(Engine::Auto, 18).choose(gpu_opens)),
        Ok((Engine::Join, true, vec![Reason::GpuNamed]))
    );
    // Too little memory for the join's table: the search, still on the GPU.
    let request = Request {
        max_memory: Some(1),
        ..named(Engine::Auto, 18)
    };
    let choice = request.choose(gpu_opens).unwrap();
    assert_eq!((choice.engine, choice.gpu), (Engine::SEARCH, Some(())));
    assert!(matches!(
        choice.reasons[..],
        [Reason::GpuNamed, Reason::JoinOverMemory { .. }]
    ));
}

#[test]
fn auto_with_a_gpu_named_that_fails_to_open_chooses_as_auto_with_none_named() {
    let unavailable = Reason::GpuUnavailable(gpu_fails().unwrap_err());
    assert_eq!(
        outcome(named(Engine::Auto, 8).choose(gpu_fails)),
        Ok((
            Engine::SEARCH,
            false,
            vec![unavailable.clone(), Reason::SearchBySize]
        ))
    );
    assert_eq!(
        outcome(named(Engine::Auto, 18).choose(gpu_fails)),
        Ok((
            Engine::Join,
            false,
            vec![unavailable.clone(), Reason::JoinBySize]
        ))
    );
    let request = Request {
        max_memory: Some(0),
        ..named(Engine::Auto, 18)
    };
    let reasons = request.choose(gpu_fails).unwrap().reasons;
    assert!(matches!(
        reasons[..],
        [
            Reason::GpuUnavailable(_),
            Reason::JoinBySize,
            Reason::JoinOverMemory { .. }
        ]
    ));
}

#[test]
fn the_gpu_is_opened_only_when_one_is_to_count() {
    let opened = Cell::new(0);
    let open = || {
        opened.set(opened.get() + 1);
        Ok(())
    };
    for engine in [Engine::Auto, Engine::Join, MIRROR] {
        request(engine, 16).choose(open).unwrap();
    }
    assert_eq!(opened.get(), 0);
    named(Engine::Auto, 16).choose(open).unwrap();
    request(Engine::Gpu(None), 16).choose(open).unwrap();
    assert_eq!(opened.get(), 2);
}

#[test]
fn a_gpu_failing_while_it_counts_falls_back_to_the_cpu_only_under_auto() {
    let error = gpu_fails().unwrap_err();
    assert_eq!(
        named(Engine::Auto, 18).after_gpu_failure(error.clone()),
        Ok(Reason::GpuFailed(error.clone()))
    );
    assert_eq!(
        request(Engine::Gpu(None), 18).after_gpu_failure(error.clone()),
        Err(error)
    );
}

/// Regression: a GPU failing mid-run under a search or join request (a job prepared with a
/// GPU, run by a counter asked for another engine) fell back to the CPU, or returned the join
/// engine's size error, where the count must end with the GPU's error.
#[test]
fn a_gpu_failing_under_a_search_or_join_request_ends_with_the_gpu_s_error() {
    let error = gpu_fails().unwrap_err();
    for engine in [Engine::Search(Symmetry::Full), Engine::Join] {
        for n in [8, 18, 30] {
            assert_eq!(
                request(engine, n).after_gpu_failure(error.clone()),
                Err(error.clone()),
                "{engine:?} n = {n}"
            );
        }
    }
}

#[test]
fn a_cancelled_gpu_count_ends_even_under_auto() {
    assert_eq!(
        named(Engine::Auto, 18).after_gpu_failure(Error::Cancelled),
        Err(Error::Cancelled)
    );
}

#[test]
fn settle_is_the_choice_for_the_size_alone_and_keeps_a_gpu_named() {
    for gpu in [Engine::Gpu(Some(Symmetry::Mirror)), Engine::Gpu(None)] {
        assert_eq!(gpu.settle(18), Ok(gpu));
    }
    for n in [8, 18, 30] {
        let chosen = request(Engine::Auto, n).choose(gpu_opens).unwrap().engine;
        assert_eq!(Engine::Auto.settle(n), Ok(chosen));
    }
    assert!(Engine::Join.settle(MAX_N + 1).is_err());
}

#[test]
fn a_prepared_job_keeps_the_reasons_its_engine_was_chosen_for() {
    let least = least_bytes(18, 2);
    let job = nqueens::Counter::new()
        .threads(2)
        .max_memory(least - 1)
        .prepare(18)
        .unwrap();
    assert_eq!(job.engine, Engine::SEARCH);
    assert!(matches!(
        job.reasons[..],
        [Reason::JoinBySize, Reason::JoinOverMemory { needed, .. }] if needed == least
    ));
    assert!(job.gpu_fallback.get().is_none());
}
