// The GPU search: one invocation counts the completions of one partial board (an item) by the
// bitmask depth-first search, with an explicit stack in private memory, down to the last row.
//
// Each item names a rule: the squares blocked in each row (the full-symmetry engine's border
// constraints; none for the mirror split) and what a completion is worth, by how many "ties"
// it has (queens on the side columns in `side_row`, on the bottom row in `bottom_mask`).
//
// Every invocation runs at most `params.budget` loop iterations. One that has not finished by
// then reports status 2 and the host splits its item further; one that finishes reports 1. A
// driver that stops the loop early on its own (lavapipe does after 65,535 iterations, without
// a word) leaves the status at 0, and the host refuses the whole result.

struct Params {
    // Items in this dispatch.
    count: u32,
    // Loop iterations one invocation may run.
    budget: u32,
    // The board size.
    n: u32,
    // Invocations per row of workgroups (the grid is two-dimensional past 65,535 groups).
    row_width: u32,
}

struct Item {
    // The columns still open, the diagonal attacks on the next row.
    open: u32,
    left: u32,
    right: u32,
    // The board row the next queen goes in.
    row: u32,
    // Index into `rules`.
    rule: u32,
    // Ties among the queens placed already.
    ties: u32,
    pad0: u32,
    pad1: u32,
}

struct Rule {
    blocked: array<u32, 32>,
    // Units a completion is worth with 0, 1 or 2 ties (the fourth is unused).
    units: vec4<u32>,
    side_row: u32,
    side_mask: u32,
    bottom_mask: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<Item>;
@group(0) @binding(2) var<storage, read> rules: array<Rule>;
// Per item: the summed value of its completions, and the status (0 stopped, 1 done, 2 over budget).
@group(0) @binding(3) var<storage, read_write> results: array<vec2<u32>>;

// One stack level: the board before a queen of this row was placed, its untried squares and
// the ties so far.
struct Level {
    taken: u32,
    left: u32,
    right: u32,
    free: u32,
    ties: u32,
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.y * params.row_width + id.x;
    if index >= params.count {
        return;
    }
    let item = items[index];
    let n = params.n;
    let last = n - 1u;
    let rule_index = item.rule;
    // Read once: storage reads in the loop are slow on software devices.
    let side_row = rules[rule_index].side_row;
    let side_mask = rules[rule_index].side_mask;
    let bottom_mask = rules[rule_index].bottom_mask;
    let units = rules[rule_index].units;

    var stack: array<Level, 32>;
    var depth = 0u;
    // `taken` has every bit outside the board set, so that `~(taken | ...)` is the free squares.
    var taken = ~item.open;
    var left = item.left;
    var right = item.right;
    var ties = item.ties;
    var row = item.row;
    var free = ~(taken | left | right | rules[rule_index].blocked[row & 31u]);
    var total = 0u;
    var status = 0u;
    var iterations = 0u;

    loop {
        if iterations == params.budget {
            status = 2u;
            break;
        }
        iterations += 1u;
        if free == 0u {
            if depth == 0u {
                status = 1u;
                break;
            }
            depth -= 1u;
            let level = stack[depth];
            taken = level.taken;
            left = level.left;
            right = level.right;
            free = level.free;
            ties = level.ties;
            row -= 1u;
            continue;
        }
        // The lowest free square (no unary minus on u32 in WGSL).
        let bit = free & (~free + 1u);
        free ^= bit;
        var placed_ties = ties;
        if row == side_row && (bit & side_mask) != 0u {
            placed_ties += 1u;
        }
        if row == last {
            // Only an item with one row left gets here: the queen completes the board.
            if (bit & bottom_mask) != 0u {
                placed_ties += 1u;
            }
            total += units[placed_ties];
            continue;
        }
        let next_taken = taken | bit;
        let next_left = (left | bit) << 1u;
        let next_right = (right | bit) >> 1u;
        let next_free = ~(next_taken | next_left | next_right | rules[rule_index].blocked[(row + 1u) & 31u]);
        if row + 1u == last {
            // The last row has one open column: a completion where it is free.
            if next_free != 0u {
                if (next_free & bottom_mask) != 0u {
                    placed_ties += 1u;
                }
                total += units[placed_ties];
            }
            continue;
        }
        if next_free != 0u {
            stack[depth] = Level(taken, left, right, free, ties);
            depth += 1u;
            taken = next_taken;
            left = next_left;
            right = next_right;
            free = next_free;
            ties = placed_ties;
            row += 1u;
        }
    }
    results[index] = vec2<u32>(total, status);
}
