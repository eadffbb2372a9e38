//! Dealing numbered tasks to K shards by weight: heaviest first, each to the lightest shard so
//! far (ties by task number and shard number), so the partition depends on nothing but the
//! weights and every machine computes the same one.

use crate::error::Error;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The tasks of shard `index` of `shards`, in increasing order, for tasks of these weights;
/// an error ([`Error::Shard`]) for an `index` not below `shards`, or more shards than tasks
/// (a shard each costs memory before any task is dealt).
///
/// The shards' loads are kept in a heap ordered by (load, shard number), so each task goes to
/// the lightest shard so far, the lowest-numbered of equally light ones, in O(log K): the
/// whole deal takes O(T log T + K) for T tasks and K shards.
pub fn partition(weights: &[u64], index: usize, shards: usize) -> Result<Vec<usize>, Error> {
    if index >= shards {
        return Err(Error::Shard(format!(
            "shard {index}/{shards}: it must be below {shards}"
        )));
    }
    if shards > weights.len().max(1) {
        return Err(Error::Shard(format!(
            "{shards} shards of {} tasks: at most one shard a task",
            weights.len()
        )));
    }
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let mut lightest: BinaryHeap<Reverse<(u128, usize)>> =
        (0..shards).map(|s| Reverse((0, s))).collect();
    let mut mine = Vec::new();
    for task in order {
        let Some(Reverse((load, shard))) = lightest.pop() else {
            unreachable!("the heap holds every shard");
        };
        lightest.push(Reverse((load + u128::from(weights[task]), shard)));
        if shard == index {
            mine.push(task);
        }
    }
    mine.sort_unstable();
    Ok(mine)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule as it was first written, O(T x K): each task to the shard of least (load,
    /// number), found by scanning every shard. Shard files made by it must stay valid.
    fn quadratic(weights: &[u64], index: usize, shards: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..weights.len()).collect();
        order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
        let mut load = vec![0u128; shards];
        let mut mine = Vec::new();
        for task in order {
            let lightest = (0..shards).min_by_key(|&s| (load[s], s)).unwrap();
            load[lightest] += u128::from(weights[task]);
            if lightest == index {
                mine.push(task);
            }
        }
        mine.sort_unstable();
        mine
    }

    /// xorshift64*: random weights without a dependency.
    fn random(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    #[test]
    fn the_heap_deals_exactly_as_the_quadratic_rule() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for round in 0..300 {
            let tasks = 1 + (random(&mut state) % 200) as usize;
            // Narrow ranges make ties in weight and in load; wide ones (up to u64::MAX) make
            // sums beyond 64 bits.
            let range = [2, 5, 1000, u64::MAX][round % 4];
            let weights: Vec<u64> = (0..tasks)
                .map(|_| random(&mut state) % range.max(1))
                .collect();
            let shards = 1 + (random(&mut state) as usize % tasks);
            for index in 0..shards {
                assert_eq!(
                    partition(&weights, index, shards).unwrap(),
                    quadratic(&weights, index, shards),
                    "round {round}: {tasks} tasks, shard {index}/{shards}"
                );
            }
        }
    }
}
