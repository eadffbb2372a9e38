// The join engine's pair count: one workgroup counts one item, a group of up to 512 indexed
// half-boards against queries (half-boards of the other side: those of every bucket that can
// pair with the group), the same test the CPU's hot loop makes (`count_groups` in
// src/join/count/hot.rs).
//
// A group's table has one row of 512 bits (four vec4<u32>) for each value of each chunk of a
// pattern's rest: the members free of the diagonals that value holds. A query reads one row
// per chunk, the one of its rest's bits there; the members it pairs with are the AND of
// those rows, counted by popcount. Each
// invocation takes whole queries, every 64th of the item (on lavapipe this ran 1.5 times
// faster than four invocations a query, a vec4 each); the rows a workgroup reads are one
// group's table, a few KB, shared through the cache.
//
// Per item the workgroup reports the pairs it counted and how many queries it went through;
// the host refuses the whole result unless that is the item's number of queries (a driver
// that stops loops early, as lavapipe does after 65,535 iterations, leaves it short). Items
// hold at most 8,192 queries in at most 256 runs: at most 128 queries an invocation, 8 chunks
// each, and 256 steps from run to run (some 1,300 loop iterations), and at most 8,192 x 512
// pairs, far below 2^32.

struct Params {
    // Items in this dispatch.
    count: u32,
    // Workgroups per row of the grid (it is two-dimensional past 65,535 workgroups).
    row_width: u32,
    pad0: u32,
    pad1: u32,
}

struct Item {
    // The group's first row in `tables` (rows of four vec4<u32>).
    table: u32,
    // The item's runs of queries start at `runs[first_run]` and hold `count` queries.
    first_run: u32,
    count: u32,
    // The chunks a query's rest is cut into (bits 0 to 7), the rest's bits (8 to 15), and
    // the quarters of a row its group's members reach (1 to 4; bits 16 and up): the others
    // are zero.
    shape: u32,
}

struct Run {
    // The run's first query's rest in `rests` (two words a query, the low one first), and
    // how many queries.
    rests: u32,
    queries: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<Item>;
@group(0) @binding(2) var<storage, read> runs: array<Run>;
@group(0) @binding(3) var<storage, read> tables: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> rests: array<u32>;
// Per item: the pairs counted, and the queries gone through.
@group(0) @binding(5) var<storage, read_write> results: array<vec2<u32>>;

// Zeroed at the start of every workgroup.
var<workgroup> pairs: atomic<u32>;
var<workgroup> seen: atomic<u32>;

// The `width` bits of a rest (`low`, `high`) from bit `shift` on (width at most 8). The same
// shift for every invocation: no branch that one takes and another does not.
fn bits(low: u32, high: u32, shift: u32, width: u32) -> u32 {
    let mask = (1u << width) - 1u;
    if shift >= 32u {
        return (high >> (shift - 32u)) & mask;
    }
    if shift == 0u {
        return low & mask;
    }
    return ((low >> shift) | (high << (32u - shift))) & mask;
}

@compute @workgroup_size(64)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // The same for the whole workgroup, so the barrier below is reached by all of it.
    let index = group.y * params.row_width + group.x;
    if index < params.count {
        let item = items[index];
        let chunks = item.shape & 0xffu;
        let width = (item.shape >> 8u) & 0xffu;
        let quarters = item.shape >> 16u;
        var total = 0u;
        var done = 0u;
        // Every 64th query of the item, its runs end to end: a query a pass for every
        // invocation but the last pass's. `run` is the run of query `q`, `before` the
        // queries of the runs before it.
        var run = item.first_run;
        var before = 0u;
        for (var q = lane; q < item.count; q += 64u) {
            while q >= before + runs[run].queries {
                before += runs[run].queries;
                run += 1u;
            }
            let at = runs[run].rests + (q - before) * 2u;
            let low = rests[at];
            let high = rests[at + 1u];
            // Quarters past the group's members are zero: not read. The same for the whole
            // workgroup, so no invocation waits for another at these branches.
            var a = vec4<u32>(0xffffffffu);
            var b = vec4<u32>(select(0u, 0xffffffffu, quarters > 1u));
            var c = vec4<u32>(select(0u, 0xffffffffu, quarters > 2u));
            var d = vec4<u32>(select(0u, 0xffffffffu, quarters > 3u));
            // The chunks as the index cuts them (`Chunking`): the first `width % chunks` a
            // bit wider, the lowest bits first, each chunk's rows after the one before.
            var shift = 0u;
            var first = item.table;
            for (var k = 0u; k < chunks; k += 1u) {
                let bits_here = width / chunks + select(0u, 1u, k < width % chunks);
                let row = (first + bits(low, high, shift, bits_here)) * 4u;
                a &= tables[row];
                if quarters > 1u { b &= tables[row + 1u]; }
                if quarters > 2u { c &= tables[row + 2u]; }
                if quarters > 3u { d &= tables[row + 3u]; }
                shift += bits_here;
                first += 1u << bits_here;
            }
            let ones = countOneBits(a) + countOneBits(b) + countOneBits(c) + countOneBits(d);
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
