// The join engine's pair count: one workgroup counts one item, a group of up to 512 indexed
// half-boards against a run of queries (half-boards of the other side), the same test the
// CPU's hot loop makes (`count_group` in src/join/index.rs).
//
// A group's table has one row of 512 bits (16 words) for each value of each chunk of a
// pattern's rest: the members free of the diagonals that value holds. A query names one row
// per chunk; the members it pairs with are the AND of those rows, counted by popcount.
// Sixteen invocations share a query, one word each, so a row is read as 64 contiguous bytes;
// the rows a workgroup reads are one group's table, shared through the cache.
//
// Per item the workgroup reports the pairs it counted and how many queries it went through;
// the host refuses the whole result unless that is the item's number of queries (a driver
// that stops loops early, as lavapipe does after 65,535 iterations, leaves it short). Items
// hold at most 8,192 queries: at most 2,048 a quarter of the workgroup, 2,048 x 8 loop
// iterations an invocation (the most chunks is 8), and at most 8,192 x 512 pairs, far below
// 2^32.

struct Params {
    // Items in this dispatch.
    count: u32,
    // Workgroups per row of the grid (it is two-dimensional past 65,535 workgroups).
    row_width: u32,
    pad0: u32,
    pad1: u32,
}

struct Item {
    // The group's first row in `tables` (rows of 16 words).
    table: u32,
    // The item's first query's first row number in `rows`.
    rows: u32,
    // How many queries, and how many row numbers each (the index's chunks).
    queries: u32,
    chunks: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<Item>;
@group(0) @binding(2) var<storage, read> tables: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> rows: array<u32>;
// Per item: the pairs counted, and the queries gone through (16 for each: once a word).
@group(0) @binding(4) var<storage, read_write> results: array<vec2<u32>>;

// Zeroed at the start of every workgroup.
var<workgroup> pairs: atomic<u32>;
var<workgroup> seen: atomic<u32>;

@compute @workgroup_size(64)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // The same for the whole workgroup, so the barrier below is reached by all of it.
    let index = group.y * params.row_width + group.x;
    if index < params.count {
        let item = items[index];
        // Four invocations to a query, 128 of its 512 bits each: a row is read as 64 bytes
        // side by side, and sixteen queries go at once.
        let part = lane & 3u;
        var total = 0u;
        var done = 0u;
        for (var q = lane >> 2u; q < item.queries; q += 16u) {
            let first = item.rows + q * item.chunks;
            var free = tables[(item.table + rows[first]) * 4u + part];
            for (var k = 1u; k < item.chunks; k += 1u) {
                free &= tables[(item.table + rows[first + k]) * 4u + part];
            }
            let ones = countOneBits(free);
            total += ones.x + ones.y + ones.z + ones.w;
            done += 1u;
        }
        atomicAdd(&pairs, total);
        atomicAdd(&seen, done);
    }
    workgroupBarrier();
    if lane == 0u && index < params.count {
        results[index] = vec2<u32>(atomicLoad(&pairs), atomicLoad(&seen));
    }
}
