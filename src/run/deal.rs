//! Dealing numbered tasks to K shards by weight: heaviest first, each to the lightest shard so
//! far (ties by task number and shard number), so the partition depends on nothing but the
//! weights and every machine computes the same one.

/// The tasks of shard `index` of `shards`, in increasing order, for tasks of these weights.
pub fn partition(weights: &[u64], index: usize, shards: usize) -> Vec<usize> {
    assert!(index < shards, "shard {index} of {shards}");
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let mut load = vec![0u128; shards];
    let mut mine = Vec::new();
    for task in order {
        let lightest = (0..shards)
            .min_by_key(|&s| (load[s], s))
            .expect("at least one shard");
        load[lightest] += u128::from(weights[task]);
        if lightest == index {
            mine.push(task);
        }
    }
    mine.sort_unstable();
    mine
}
