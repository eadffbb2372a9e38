//! What a count would cost, from a timed sample of its work: `count --estimate`.
//!
//! The tasks are laid end to end in decreasing order of weight ([`Plan::weight`]), each task
//! as its parts ([`Plan::parts`]: the join engine's units), so that the line is as long as
//! the total weight. A round of `k` points spaced evenly along it, from a seeded offset, picks
//! `k` parts, each with a chance in proportion to its weight (a systematic sample with
//! probability proportional to size), and times each. Every timed part gives a rate, its
//! seconds per unit of weight, and the total weight times their mean is the estimate of the
//! whole: unbiased whatever the weights, and the better the weights predict times the
//! smaller its error. Neighbouring points have neighbouring weights, so the error is
//! estimated from successive differences of the rates (the usual estimator for a systematic
//! sample), and rounds of twice the points follow until the 95 % error bar is within a
//! target or the time budget is spent.
//!
//! A part of the join engine that comes in many pieces (units of millions of half-boards a
//! side, from n = 23 on; at n = 26 a median unit takes half a minute, at 28 far more) is not
//! run whole: its pieces are generated and counted, one pair of them is drawn (the west
//! piece with odds mostly in proportion to its half-boards, the east one to what querying it
//! is expected to cost) and joined, and the part's time is
//! that pair's divided by its odds, plus the generation ([`Plan::time_part`]): still
//! unbiased, and a sample of n = 28 fits in minutes. A task of
//! the search (one part; at n = 29 it takes days) is timed likewise from one subtree of a
//! few milliseconds, reached by a random walk down its rows and scaled by the choices on the
//! way (`search::sample`), so a part of either engine takes at most a second or so, and the
//! same task drawn twice is timed from two subtrees.
//!
//! The budget is looked at before every part: a round that would pass it is cut short (its
//! parts run in a shuffled order, so that what it timed is a random part of it) and the
//! sample ends there. The share of the run is looked at between rounds, each round sized to
//! fit what is left of it at the pace so far: with parts of milliseconds a round overruns it
//! by little. (A check inside the round would judge the share by the rates timed so far,
//! and stopping when those happen to run low biases the estimate low.)
//!
//! Each timed part is unbiased, but when to stop is not decided blind: the sample stops once
//! its own error bar is small, and with rates skewed to the right (the search's subtree
//! draws: most small, a few large) a sample that has not yet met a large one shows both a low
//! mean and a small spread, so it stops early a little more often than one that has. The
//! least sample time ([`MIN_SAMPLE`]) and rounds of at least 32 parts (unless the budget cuts
//! one short) keep that lean
//! small; it is not zero, and the error bar does not include it.
//!
//! Parts run on the job's threads, one per thread at a time, each timed by a clock of the
//! thread that runs it: the wall clock by default, which on a machine doing nothing else is
//! the core's time, or the caller's clock ([`Job::estimate_with_clock`]: the command line
//! passes the thread's processor time, which other work on the machine barely changes). The
//! counts they make are thrown away (there is nothing to check them against).

use super::driver;
use super::job::Job;
use crate::engine::Plan;
use crate::error::Error;
use crate::join::splitmix;
use std::time::{Duration, Instant};

/// The first round's points.
const FIRST_ROUND: usize = 32;

/// The sample stops when it has taken more than this fraction's inverse of the run it
/// predicts: 20 means a twentieth.
const SHARE_OF_RUN: f64 = 20.0;

/// The time a sample may always take, up to [`SHORT_RUNS`] times the run it predicts: a
/// twentieth of a count of 0.1 s is a few milliseconds, over which the machine's pace moves
/// all the parts together, so that the error bar, made of their differences, missed it (n =
/// 16's estimates came out 0.7 to 1.7 times the count, each within a few % by its own bar).
const LEAST_SHARE: f64 = 1.0;

/// How many times a short run (under a tenth of [`LEAST_SHARE`]) its sample may take: a
/// count of microseconds is not worth a second of sampling.
const SHORT_RUNS: f64 = 10.0;

/// The least time a sample takes before a small error bar stops it (unless a twentieth of
/// the predicted run is less): on a machine whose speed drifts from one second to the next
/// (a shared virtual machine), the same parts timed twice for a second each differed by a
/// third; a longer sample averages the drift.
const MIN_SAMPLE: Duration = Duration::from_secs(5);

/// The error bar (95 %, relative) at which sampling stops.
pub const TARGET_ERROR: f64 = 0.03;

/// What the error bar adds, beside the sample's own spread, for what no sample of parts can
/// see: the machine's pace moves between the sample and the count (on a 2-core virtual
/// machine, two timings of n = 14 to 18's tasks a few seconds apart differed by up to 11 %),
/// and a count runs its tasks in order of weight, so neighbours share some data in the
/// caches that parts timed apart do not. Added in quadrature: of 30 estimates of n = 14 to 18
/// on one thread, each compared with the count's tasks timed just before and after it, none
/// was further from both than 8.7 %, with the sample's own bars of 1 to 5 %.
pub const SYSTEMATIC_ERROR: f64 = 0.08;

/// What a count would cost on this machine, from a sample ([`Job::estimate`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Estimate {
    /// The tasks of the count.
    pub tasks: usize,
    /// The predicted time of every task, in seconds of one core of this machine.
    pub core_seconds: f64,
    /// Half the width of the 95 % confidence interval, relative to `core_seconds` (0.05 for
    /// plus or minus 5 %): the sample's own, and [`SYSTEMATIC_ERROR`] beside it.
    pub error: f64,
    /// The parts that were timed.
    pub sampled: usize,
    /// The parts in all.
    pub parts: usize,
    /// The wall-clock seconds the sample took.
    pub sample_seconds: f64,
    /// What a worker thread's first tasks cost besides their work, in seconds: the first
    /// touch of its buffers' pages (some milliseconds; with transparent huge pages a page
    /// can take 5 ms). A count's threads pay it once each, at the same time; it matters only
    /// to counts of a second or less (n = 14 takes 6 ms of work and 6 ms of it).
    pub thread_start_seconds: f64,
    /// The longest time of one part that was timed (whole, or scaled from a pair of its
    /// pieces), in seconds of one core: how large the work a task hands out can be. `None`
    /// for the search, whose parts are timed from one random subtree each, scaled up by the
    /// choices on the way down: such a figure is unbiased over many draws, but one draw
    /// can be thousands of times a task's time (n = 29's came out above the whole count's).
    pub longest_part_seconds: Option<f64>,
    /// How far the weights are from the times: the largest time per unit of weight among
    /// the timed parts over the least (1 with fewer than two timed parts). The error bar
    /// grows with it, and so does the imbalance of shards dealt by weight. `None` for the
    /// search, as above: its draws' spread is the estimator's, not the weights'.
    pub rate_spread: Option<f64>,
    /// Every part timed, round by round, each round in the order of its points along the
    /// line: what the figures above are made of.
    pub timed: Vec<TimedPart>,
}

/// A part timed by [`Job::estimate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimedPart {
    /// Its task.
    pub task: usize,
    /// Which part of the task.
    pub part: usize,
    /// Its weight.
    pub weight: u64,
    /// Its time in seconds of one core (whole, or scaled from a piece of it).
    pub seconds: f64,
}

impl Job {
    /// Estimates what counting every task would cost, by timing a sample of its parts (see
    /// the module's documentation) for about `budget` at most, in rounds: it stops once the
    /// error bar is within [`TARGET_ERROR`], every part of the join engine has been timed,
    /// the sample has taken a twentieth of the time it predicts for the run on the job's
    /// threads, or the budget is spent (a part that has started runs to its end:
    /// milliseconds for the search). Estimates the weights first.
    pub fn estimate(&mut self, budget: Duration) -> Result<Estimate, Error> {
        let epoch = Instant::now();
        self.estimate_with_clock(budget, &move || epoch.elapsed())
    }

    /// As [`Job::estimate`], with each part timed by `clock`: the time of the calling thread
    /// so far, as a duration from any fixed start (a thread's processor time, say).
    pub fn estimate_with_clock(
        &mut self,
        budget: Duration,
        clock: &(dyn Fn() -> Duration + Sync),
    ) -> Result<Estimate, Error> {
        self.estimate_weights()?;
        let started = Instant::now();
        let line = Line::new(&self.plan, &self.weights);
        let plan = &self.plan;
        // What reading the clock adds to a part's time: a thread's processor time is a
        // system call of some 0.3 us, where a part at n = 14 takes 2 us.
        let reading = clock_reading(clock);
        let on_cpu = |task: usize, part: usize, draw: u64| {
            Ok(plan
                .task_time_part(task, part, draw, clock)
                .saturating_sub(reading))
        };
        // On a GPU, one part at a time, each timed whole by the wall clock (the device's
        // time is no thread's).
        #[cfg(feature = "gpu")]
        let on_gpu = self
            .gpu
            .as_ref()
            .map(|gpu| move |task: usize, part: usize, _: u64| gpu.time_part(plan, task, part));
        #[cfg(feature = "gpu")]
        let (timer, workers): (&Timer, usize) = match &on_gpu {
            Some(on_gpu) => (on_gpu, 1),
            None => (&on_cpu, self.threads),
        };
        #[cfg(not(feature = "gpu"))]
        let (timer, workers): (&Timer, usize) = (&on_cpu, self.threads);
        #[cfg(feature = "gpu")]
        let on_gpu = on_gpu.is_some();
        #[cfg(not(feature = "gpu"))]
        let on_gpu = false;
        // A CPU thread runs its parts once untimed before timing them ([`Round::time`]); a
        // device's buffers are its own.
        let warm = |task: usize, part: usize| {
            if !on_gpu {
                plan.warm_part(task, part);
            }
        };
        // One pool for every round: its threads keep what they have built up.
        let pool = driver::pool(workers.max(1))?;
        let thread_start = if on_gpu {
            Duration::ZERO
        } else {
            line.thread_start(&pool, clock)
        };
        let sampling = Sampling {
            line: &line,
            pool: &pool,
            warm: &warm,
            timer,
            threads: workers.max(1) as f64,
            started,
            budget,
        };
        let rounds = sampling.rounds(plan.parts_timed_whole())?;
        Ok(summary(plan, &line, rounds, started, thread_start, reading))
    }
}

/// What a sample's rounds run with.
struct Sampling<'a> {
    line: &'a Line<'a>,
    pool: &'a rayon::ThreadPool,
    warm: &'a Warm<'a>,
    timer: &'a Timer<'a>,
    /// The threads the run is predicted on.
    threads: f64,
    started: Instant,
    budget: Duration,
}

impl Sampling<'_> {
    /// Rounds of timed parts, twice the points each, until the error bar is within the
    /// target (after the least sample time), every part has been timed where `whole` (the
    /// parts are timed whole), the budget is spent or the sample has taken its share of the
    /// run it predicts.
    fn rounds(&self, whole: bool) -> Result<Vec<Vec<TimedPart>>, Error> {
        let (line, started) = (self.line, self.started);
        let mut rounds: Vec<Vec<TimedPart>> = Vec::new();
        let mut points = FIRST_ROUND;
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        loop {
            seed = splitmix(seed);
            let picks = line.pick(points, seed);
            let round = Round {
                picks: &picks,
                seed,
                started,
                budget: self.budget,
            };
            let (round, complete) = round.time(self.pool, self.warm, self.timer)?;
            if !round.is_empty() {
                rounds.push(round);
            }
            let sampled: usize = rounds.iter().map(Vec::len).sum();
            let (core_seconds, error) = combine(&rounds, line.total);
            // The sample stays within a twentieth of the run it predicts.
            let run = core_seconds / self.threads;
            let share = (run / SHARE_OF_RUN).max((run * SHORT_RUNS).min(LEAST_SHARE));
            let long_enough = started.elapsed() >= MIN_SAMPLE;
            if !complete
                || (error <= TARGET_ERROR && long_enough)
                || (sampled >= line.parts && whole)
                || started.elapsed() > self.budget
                || started.elapsed().as_secs_f64() > share
            {
                return Ok(rounds);
            }
            // Twice the points, or as many as the time left within the run's twentieth
            // allows at the pace so far (a round, once started, runs whole within the budget).
            let pace = started.elapsed().as_secs_f64() / sampled.max(1) as f64;
            let fit = ((share - started.elapsed().as_secs_f64()) / pace.max(1e-9)) as usize;
            points = (2 * points).min(fit.max(FIRST_ROUND));
        }
    }
}

/// How many readings of the clock a part must take at the least to count in the spread of
/// the rates: a part of a few readings is timed mostly by the clock's own noise, and made
/// a spread of 60 at n = 16 where parts took 2 to 100 us.
const LEAST_READINGS: f64 = 20.0;

/// The estimate a sample's `rounds` make, on `line` of `plan`'s parts.
fn summary(
    plan: &Plan,
    line: &Line,
    rounds: Vec<Vec<TimedPart>>,
    started: Instant,
    thread_start: Duration,
    reading: Duration,
) -> Estimate {
    let (core_seconds, sampled_error) = combine(&rounds, line.total);
    let error = sampled_error.hypot(SYSTEMATIC_ERROR);
    let timed = || rounds.iter().flatten();
    let least_time = reading.as_secs_f64() * LEAST_READINGS;
    let rates = timed()
        .filter(|t| t.seconds > least_time)
        .map(|t| t.seconds / t.weight as f64);
    let (least, most) = rates.fold((f64::INFINITY, 0f64), |(l, m), r| (l.min(r), m.max(r)));
    // A part's own time is known where it is timed whole or from its pieces (the join
    // engine's), not from one random subtree (the search's).
    let whole = plan.parts_timed_whole();
    Estimate {
        tasks: plan.len(),
        core_seconds,
        error,
        sampled: rounds.iter().map(Vec::len).sum(),
        parts: line.parts,
        sample_seconds: started.elapsed().as_secs_f64(),
        thread_start_seconds: thread_start.as_secs_f64(),
        longest_part_seconds: whole.then(|| timed().map(|t| t.seconds).fold(0.0, f64::max)),
        rate_spread: whole.then_some(if most > least { most / least } else { 1.0 }),
        timed: rounds.into_iter().flatten().collect(),
    }
}

/// What times a part: (task, part, a random draw) to its time, or the error that ends the
/// estimate.
type Timer<'a> = dyn Fn(usize, usize, u64) -> Result<Duration, Error> + Sync + 'a;

/// One round of parts to time: `picks` (task, part, weight), run in an order shuffled by
/// `seed`, none started past `budget` from `started`.
struct Round<'a> {
    picks: &'a [(usize, usize, u64)],
    seed: u64,
    started: Instant,
    budget: Duration,
}

/// What readies a thread to time a part (task, part): [`Plan::warm_part`], or nothing.
type Warm<'a> = dyn Fn(usize, usize) + Sync + 'a;

impl Round<'_> {
    /// Times the round's parts on the threads of `pool`, each by `time`: the parts are dealt
    /// to the threads in an order shuffled by the seed, so that a round the budget cuts
    /// short is a random part of its points, not the heaviest tasks' alone, and a part not
    /// started within the budget is left out. Each thread first runs `warm` on each of its
    /// parts, then times them in turn: a part's buffers have grown before it is timed, and
    /// other parts ran between its warm run and its timed one, as other tasks do in a count.
    /// Returns the parts timed, in the order of the picks, and whether that is all of them.
    fn time(
        &self,
        pool: &rayon::ThreadPool,
        warm: &Warm,
        time: &Timer,
    ) -> Result<(Vec<TimedPart>, bool), Error> {
        let Round {
            picks,
            seed,
            started,
            budget,
        } = *self;
        let order = shuffled(picks.len(), seed);
        let late = || started.elapsed() > budget;
        // Each thread's share: every k-th of the shuffled picks, as (pick, nanoseconds).
        let shares = pool.broadcast(|thread| {
            let mine: Vec<usize> = (thread.index()..picks.len())
                .step_by(thread.num_threads())
                .map(|k| order[k])
                .collect();
            for &i in &mine {
                if late() {
                    break;
                }
                warm(picks[i].0, picks[i].1);
            }
            let mut timed = Vec::with_capacity(mine.len());
            for i in mine {
                if late() {
                    break;
                }
                let (task, part, _) = picks[i];
                let draw = splitmix(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                timed.push((i, time(task, part, draw)?.as_nanos()));
            }
            Ok::<_, Error>(timed)
        });
        // Back in the order of the points along the line.
        let mut by_point = vec![None; picks.len()];
        for share in shares {
            for (i, nanos) in share? {
                by_point[i] = Some(nanos);
            }
        }
        let round: Vec<TimedPart> = picks
            .iter()
            .zip(&by_point)
            .filter_map(|(&(task, part, weight), &nanos)| {
                Some(TimedPart {
                    task,
                    part,
                    weight,
                    seconds: nanos? as f64 * 1e-9,
                })
            })
            .collect();
        let complete = round.len() == picks.len();
        Ok((round, complete))
    }
}

/// The tasks in decreasing order of weight, end to end.
struct Line<'p> {
    plan: &'p Plan,
    /// Task numbers, heaviest first, and where each one ends on the line.
    order: Vec<usize>,
    ends: Vec<u128>,
    total: u128,
    parts: usize,
}

impl<'p> Line<'p> {
    fn new(plan: &'p Plan, weights: &[u64]) -> Line<'p> {
        let mut order: Vec<usize> = (0..weights.len()).collect();
        order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
        let mut total = 0u128;
        let ends = order
            .iter()
            .map(|&t| {
                total += u128::from(weights[t]);
                total
            })
            .collect();
        let parts = (0..plan.len()).map(|t| plan.task_parts(t)).sum();
        Line {
            plan,
            order,
            ends,
            total,
            parts,
        }
    }

    /// What a worker thread's first tasks cost besides their work ([`Estimate`]'s
    /// `thread_start_seconds`): the heaviest task's heaviest part readied twice on every
    /// thread of `pool` (`Plan::warm_part`), the first time less the second, the most of
    /// the threads.
    fn thread_start(
        &self,
        pool: &rayon::ThreadPool,
        clock: &(dyn Fn() -> Duration + Sync),
    ) -> Duration {
        let Some(&task) = self.order.first() else {
            return Duration::ZERO;
        };
        let part = (0..self.plan.task_parts(task))
            .max_by_key(|&part| self.plan.task_part_weight(task, part))
            .unwrap_or(0);
        let starts = pool.broadcast(|_| {
            let first = clock();
            self.plan.warm_part(task, part);
            let second = clock();
            self.plan.warm_part(task, part);
            let again = clock().saturating_sub(second);
            second.saturating_sub(first).saturating_sub(again)
        });
        starts.into_iter().max().unwrap_or_default()
    }

    /// `points` parts (task, part, the part's weight) at evenly spaced points from an offset
    /// drawn from `seed`.
    fn pick(&self, points: usize, seed: u64) -> Vec<(usize, usize, u64)> {
        if self.total == 0 {
            return Vec::new();
        }
        let step = self.total as f64 / points as f64;
        let offset = (seed >> 11) as f64 / (1u64 << 53) as f64 * step;
        (0..points)
            .map(|k| {
                let at = ((offset + k as f64 * step) as u128).min(self.total - 1);
                let slot = self.ends.partition_point(|&end| end <= at);
                let task = self.order[slot];
                let start = if slot == 0 { 0 } else { self.ends[slot - 1] };
                // The part of the task the point falls in, by the parts' weights, which sum
                // to the task's weight (at least 1 each); each weight is worked out once.
                let mut into = at - start;
                let mut found = (task, 0, 0);
                for part in 0..self.plan.task_parts(task) {
                    let weight = self.plan.task_part_weight(task, part);
                    found = (task, part, weight);
                    if into < u128::from(weight) {
                        break;
                    }
                    into -= u128::from(weight);
                }
                found
            })
            .filter(|&(task, _, _)| self.plan.task_parts(task) > 0)
            .collect()
    }
}

/// The estimate of the whole (seconds) and its relative 95 % error bar from rounds of timed
/// parts, on a line `total` long: each round's mean rate, weighted by its points, and the
/// rounds' variances from successive differences.
fn combine(rounds: &[Vec<TimedPart>], total: u128) -> (f64, f64) {
    let points: usize = rounds.iter().map(Vec::len).sum();
    if points == 0 {
        return (0.0, f64::INFINITY);
    }
    let rate = |t: &TimedPart| t.seconds / t.weight.max(1) as f64;
    let mean = rounds.iter().flatten().map(rate).sum::<f64>() / points as f64;
    // Var(mean) = sum over rounds of (k_r / K)^2 Var(mean_r), Var(mean_r) from successive
    // differences: sum (r_i - r_{i+1})^2 / (2 (k - 1)) / k.
    let mut variance = 0.0;
    for round in rounds {
        let k = round.len();
        let var_mean = if k < 2 {
            // One point says nothing of its spread: count it as wide as itself.
            rate(&round[0]).powi(2)
        } else {
            let squares: f64 = round
                .windows(2)
                .map(|w| (rate(&w[0]) - rate(&w[1])).powi(2))
                .sum();
            squares / (2.0 * (k - 1) as f64) / k as f64
        };
        variance += (k as f64 / points as f64).powi(2) * var_mean;
    }
    let seconds = mean * total as f64;
    if mean <= 0.0 {
        return (seconds, 0.0);
    }
    let within = 1.96 * variance.sqrt() / mean;
    // The rounds' own means, each a whole estimate: their spread also holds what the
    // machine's drift adds between rounds, which successive differences inside a round miss.
    let means: Vec<f64> = rounds
        .iter()
        .map(|round| round.iter().map(rate).sum::<f64>() / round.len() as f64)
        .collect();
    let between = if means.len() >= 2 {
        let r = means.len() as f64;
        let centre = means.iter().sum::<f64>() / r;
        let spread = means.iter().map(|m| (m - centre).powi(2)).sum::<f64>() / (r - 1.0);
        1.96 * (spread / r).sqrt() / mean
    } else {
        0.0
    };
    (seconds, within.max(between))
}

/// The time between two readings of `clock` one after the other (the median of 101): what
/// reading it adds to a time measured with it.
fn clock_reading(clock: &dyn Fn() -> Duration) -> Duration {
    let mut gaps: Vec<Duration> = (0..101)
        .map(|_| {
            let start = clock();
            clock().saturating_sub(start)
        })
        .collect();
    gaps.sort_unstable();
    gaps[gaps.len() / 2]
}

/// The numbers `0..len` in an order drawn from `seed` (Fisher-Yates).
fn shuffled(len: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut state = seed;
    for i in (1..len).rev() {
        state = splitmix(state);
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Counter, Engine};

    #[test]
    fn picks_fall_in_proportion_to_weight_and_cover_every_task_when_dense() {
        let mut job = Counter::new()
            .engine(Engine::Join)
            .threads(1)
            .prepare(16)
            .unwrap();
        job.estimate_weights().unwrap();
        let line = Line::new(&job.plan, job.weights());
        let picks = line.pick(100_000, 7);
        assert_eq!(picks.len(), 100_000);
        // The heaviest task is picked about as often as its share of the weight says.
        let heaviest = line.order[0];
        let share = job.weights()[heaviest] as f64 / line.total as f64;
        let hits = picks.iter().filter(|&&(t, _, _)| t == heaviest).count() as f64;
        assert!(
            (hits / 100_000.0 - share).abs() < 1e-4 + share * 0.01,
            "{hits} {share}"
        );
        for &(task, part, weight) in &picks {
            assert_eq!(Ok(weight), job.plan.part_weight(task, part));
            assert!(part < job.plan.parts(task).unwrap());
        }
    }

    #[test]
    fn combine_gives_the_total_of_a_constant_rate_with_no_error() {
        let round: Vec<TimedPart> = (1..=10)
            .map(|w| TimedPart {
                task: 0,
                part: w as usize,
                weight: w * 100,
                seconds: w as f64 * 2.0,
            })
            .collect();
        let (seconds, error) = combine(&[round], 1000);
        assert!((seconds - 20.0).abs() < 1e-9, "{seconds}");
        assert_eq!(error, 0.0);
    }

    #[test]
    fn an_estimate_of_a_small_count_times_parts_and_is_finite() {
        let mut job = Counter::new()
            .engine(Engine::Join)
            .threads(2)
            .prepare(15)
            .unwrap();
        let estimate = job.estimate(Duration::from_secs(5)).unwrap();
        assert_eq!(estimate.tasks, job.plan.len());
        assert!(estimate.sampled >= FIRST_ROUND.min(estimate.parts));
        assert!(estimate.core_seconds > 0.0 && estimate.core_seconds.is_finite());
        assert!(estimate.error.is_finite());
    }

    /// With every part taking the same time (a clock that moves one millisecond per
    /// reading on the workers), the whole is the parts times that: the estimator weighs each
    /// timed part by the chance it had to be picked, so parts of every weight count alike.
    /// On the calling thread, where the estimate measures what a reading of the clock adds
    /// to a time, the clock stands still: its readings add nothing.
    #[test]
    fn an_estimate_of_parts_of_equal_time_is_their_number_times_that_time() {
        use std::cell::Cell;
        thread_local! {
            static TICKS: Cell<u64> = const { Cell::new(0) };
        }
        let caller = std::thread::current().id();
        let clock = move || {
            if std::thread::current().id() == caller {
                return Duration::ZERO;
            }
            Duration::from_millis(TICKS.with(|t| {
                t.set(t.get() + 1);
                t.get()
            }))
        };
        let mut job = Counter::new()
            .engine(Engine::Join)
            .threads(2)
            .prepare(17)
            .unwrap();
        let estimate = job
            .estimate_with_clock(Duration::from_secs(60), &clock)
            .unwrap();
        let truth = estimate.parts as f64 * 1e-3;
        let off = (estimate.core_seconds / truth - 1.0).abs();
        assert!(off < 0.25, "{estimate:?}: {truth} s");
        assert!(off <= 2.0 * estimate.error, "{estimate:?}: {truth} s");
    }
}
