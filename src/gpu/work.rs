//! The host side of the GPU search: the numbered tasks of a [`Plan`] turned into items (partial
//! boards a few rows from the bottom), items batched into dispatches, their results summed
//! back into one value per task.
//!
//! A task's value is the same number [`Plan::run`] gives: the GPU only searches the task's
//! subtree in smaller pieces. An item that runs out of its iteration budget is split by one
//! more row on the host and sent again, so no invocation ever runs longer than the budget
//! (lavapipe's silent loop cap, watchdogs), whatever the board.

use super::device::{Device, Submitted};
use super::layout::{DONE, Item, OVER_BUDGET, Rule};
use crate::engine::Plan;
use crate::error::Error;
use crate::search::kernel::{Rules, Subboard};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

/// The tasks of a plan as items and rules.
pub(crate) struct Tasks {
    n: u32,
    rules: Vec<Rule>,
    /// Per task: its root item.
    roots: Vec<Item>,
}

impl Tasks {
    /// The root item and rule of every task of `plan`, a plan of the search ([`Plan::Mirror`]
    /// or [`Plan::Full`]); the join engine's plan has no prefixes: an error.
    pub(crate) fn new(n: u32, plan: &Plan) -> Result<Tasks, Error> {
        let mut table = RuleTable::default();
        let roots = match plan {
            Plan::Mirror(tasks) => tasks
                .iter()
                .map(|task| {
                    let units = u32::from(task.multiplicity);
                    let rule = Rule {
                        blocked: [0; 32],
                        units: [units, units, units, 0],
                        side_row: u32::MAX,
                        side_mask: 0,
                        bottom_mask: 0,
                        pad: 0,
                    };
                    root(task.board, task.prefix.len(), table.index(rule))
                })
                .collect(),
            Plan::Full(tasks) => tasks
                .iter()
                .map(|task| {
                    let first = task.prefix.len();
                    let mut blocked = [0u32; 32];
                    for (i, slot) in blocked[first..n as usize].iter_mut().enumerate() {
                        *slot = task.rules.blocked(i);
                    }
                    let ties = task.rules.ties(n);
                    let units = ties
                        .units
                        .map(|u| u32::try_from(u).expect("units per completion fit"));
                    let rule = Rule {
                        blocked,
                        units: [units[0], units[1], units[2], 0],
                        side_row: ties.side_row.unwrap_or(u32::MAX),
                        side_mask: ties.side_columns,
                        bottom_mask: ties.bottom_columns,
                        pad: 0,
                    };
                    root(task.board, first, table.index(rule))
                })
                .collect(),
            Plan::Join(_) => {
                return Err(Error::Engine(
                    "the GPU engine runs the search's tasks, not the join engine's".into(),
                ));
            }
        };
        Ok(Tasks {
            n,
            rules: table.rules,
            roots,
        })
    }

    /// The rule table, for the device.
    pub(crate) fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Appends to `out` the items below `item` with at most `rows_left` rows left (the item
    /// itself if it has no more), and returns the value of the completions found on the way
    /// (items with no row left are complete boards, valued here).
    fn expand(&self, item: Item, rows_left: u32, out: &mut Vec<Item>) -> u128 {
        let rule = &self.rules[item.rule as usize];
        if item.open == 0 {
            return rule.units(item.ties);
        }
        if item.open.count_ones() <= rows_left {
            out.push(item);
            return 0;
        }
        let mut free = item.open & !(item.left | item.right | rule.blocked[item.row as usize]);
        let mut value = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let next = Subboard {
                open: item.open,
                left: item.left,
                right: item.right,
            }
            .place(bit);
            let child = Item {
                open: next.open,
                left: next.left,
                right: next.right,
                row: item.row + 1,
                ties: item.ties + rule.ties_of(item.row, bit, self.n),
                ..item
            };
            value += self.expand(child, rows_left, out);
        }
        value
    }
}

/// A task's first item: the board after its prefix.
fn root(board: Subboard, prefix_rows: usize, rule: u32) -> Item {
    Item {
        open: board.open,
        left: board.left,
        right: board.right,
        row: prefix_rows as u32,
        rule,
        ties: 0,
        pad: [0; 2],
    }
}

/// Rules, each stored once.
#[derive(Default)]
struct RuleTable {
    rules: Vec<Rule>,
    index: HashMap<Rule, u32>,
}

impl RuleTable {
    fn index(&mut self, rule: Rule) -> u32 {
        *self.index.entry(rule).or_insert_with(|| {
            self.rules.push(rule);
            (self.rules.len() - 1) as u32
        })
    }
}

/// How the work is cut for one device.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Loop iterations an invocation may run per dispatch.
    pub budget: u32,
    /// Rows left below each item a task is first cut into.
    pub rows_left: u32,
    /// Items per dispatch, at most.
    pub batch: usize,
}

impl Shape {
    /// For software devices: under lavapipe's cap of 65,535 iterations with room to spare
    /// (items of eleven rows take at most about 42,000 at n = 15 to 17); they run invocations
    /// a few at a time, so small batches cost nothing.
    pub const SOFTWARE: Shape = Shape {
        budget: 60_000,
        rows_left: 11,
        batch: 1 << 14,
    };

    /// For hardware GPUs, not yet measured on one: items of thirteen rows (about 120,000
    /// iterations on average at n = 16 and 17, a million at most), a budget well above that,
    /// batches of a million items (32 MiB).
    pub const HARDWARE: Shape = Shape {
        budget: 1 << 22,
        rows_left: 13,
        batch: 1 << 20,
    };
}

/// Runs the tasks `ids` of `tasks` on `device` and returns their values in the order of
/// `ids`; `on_task(id, value)` is called as each task's last item comes back.
pub(crate) fn run(
    device: &Device,
    tasks: &Tasks,
    shape: Shape,
    ids: &[usize],
    on_task: &mut dyn FnMut(usize, u128),
    cancel: &AtomicBool,
) -> Result<Vec<u128>, Error> {
    let rules = device.rules_buffer(tasks.rules())?;
    let mut values = vec![0u128; ids.len()];
    // Items of each task not yet back from the device.
    let mut outstanding = vec![0usize; ids.len()];
    let mut queue: VecDeque<(Item, u32)> = VecDeque::new();
    let mut next_task = 0;
    let mut in_flight: Option<(Submitted, Vec<(Item, u32)>)> = None;
    let mut scratch = Vec::new();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        // Fill the next batch: split items first, then new tasks.
        while queue.len() < shape.batch && next_task < ids.len() {
            let slot = next_task;
            next_task += 1;
            scratch.clear();
            values[slot] += tasks.expand(tasks.roots[ids[slot]], shape.rows_left, &mut scratch);
            outstanding[slot] = scratch.len();
            queue.extend(scratch.iter().map(|&item| (item, slot as u32)));
            if outstanding[slot] == 0 {
                on_task(ids[slot], values[slot]);
            }
        }
        let take = queue.len().min(shape.batch);
        let batch: Vec<(Item, u32)> = queue.drain(..take).collect();
        let submitted = if batch.is_empty() {
            None
        } else {
            let items: Vec<Item> = batch.iter().map(|&(item, _)| item).collect();
            Some((device.submit(tasks.n, shape.budget, &items, &rules)?, batch))
        };
        // While the device runs the new batch, take in the previous one.
        if let Some((pending, batch)) = in_flight.take() {
            let results = device.wait(pending)?;
            for (&(item, slot), &[value, status]) in batch.iter().zip(&results) {
                let slot = slot as usize;
                match status {
                    DONE => values[slot] += u128::from(value),
                    OVER_BUDGET => {
                        // One more row on the host; the pieces go to the front of the queue.
                        scratch.clear();
                        let rows = item.open.count_ones() - 1;
                        values[slot] += tasks.expand(item, rows, &mut scratch);
                        outstanding[slot] += scratch.len();
                        for &piece in scratch.iter().rev() {
                            queue.push_front((piece, slot as u32));
                        }
                    }
                    _ => {
                        return Err(Error::Gpu(format!(
                            "{} stopped a search before it finished (a driver limit on loop \
                             iterations?); the result is refused",
                            device.name()
                        )));
                    }
                }
                outstanding[slot] -= 1;
                if outstanding[slot] == 0 {
                    on_task(ids[slot], values[slot]);
                }
            }
        }
        in_flight = submitted;
        if in_flight.is_none() && queue.is_empty() && next_task == ids.len() {
            return Ok(values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Symmetry};
    use crate::known;

    /// The shader's loop, line by line, on the CPU: the reference the rules are tested with
    /// where no Vulkan device exists. Returns (value, status, iterations).
    fn emulate(tasks: &Tasks, item: Item, budget: u32) -> (u32, u32, u32) {
        let n = tasks.n;
        let last = n - 1;
        let rule = &tasks.rules[item.rule as usize];
        let mut stack = [(0u32, 0u32, 0u32, 0u32, 0u32); 32];
        let mut depth = 0;
        let (mut taken, mut left, mut right) = (!item.open, item.left, item.right);
        let (mut ties, mut row) = (item.ties, item.row);
        let mut free = !(taken | left | right | rule.blocked[(row & 31) as usize]);
        let (mut total, mut iterations) = (0u32, 0u32);
        loop {
            if iterations == budget {
                return (total, OVER_BUDGET, iterations);
            }
            iterations += 1;
            if free == 0 {
                if depth == 0 {
                    return (total, DONE, iterations);
                }
                depth -= 1;
                (taken, left, right, free, ties) = stack[depth];
                row -= 1;
                continue;
            }
            let bit = free & (!free).wrapping_add(1);
            free ^= bit;
            let mut placed = ties + u32::from(row == rule.side_row && bit & rule.side_mask != 0);
            if row == last {
                placed += u32::from(bit & rule.bottom_mask != 0);
                total += rule.units[placed as usize];
                continue;
            }
            let (nt, nl, nr) = (taken | bit, (left | bit) << 1, (right | bit) >> 1);
            let nf = !(nt | nl | nr | rule.blocked[((row + 1) & 31) as usize]);
            if row + 1 == last {
                if nf != 0 {
                    placed += u32::from(nf & rule.bottom_mask != 0);
                    total += rule.units[placed as usize];
                }
                continue;
            }
            if nf != 0 {
                stack[depth] = (taken, left, right, free, ties);
                depth += 1;
                (taken, left, right, free, ties) = (nt, nl, nr, nf, placed);
                row += 1;
            }
        }
    }

    /// A task's value by expansion and emulation, with splits where the budget runs out.
    fn task_value(tasks: &Tasks, id: usize, shape: Shape) -> u128 {
        let mut pending = Vec::new();
        let mut value = tasks.expand(tasks.roots[id], shape.rows_left, &mut pending);
        while let Some(item) = pending.pop() {
            let (total, status, _) = emulate(tasks, item, shape.budget);
            if status == DONE {
                value += u128::from(total);
            } else {
                value += tasks.expand(item, item.open.count_ones() - 1, &mut pending);
            }
        }
        value
    }

    #[test]
    fn emulated_items_give_every_task_its_cpu_value() {
        // A tiny budget and shallow items: splits happen all the time.
        let shape = Shape {
            budget: 40,
            rows_left: 6,
            batch: 0,
        };
        for n in 1..=12 {
            for method in [
                Engine::Search(Symmetry::Mirror),
                Engine::Search(Symmetry::Full),
            ] {
                for depth in [1, 3] {
                    let plan = Plan::new(n, method, depth).unwrap();
                    let tasks = Tasks::new(n, &plan).unwrap();
                    let mut units = 0;
                    for id in 0..plan.len() {
                        let value = task_value(&tasks, id, shape);
                        assert_eq!(
                            value,
                            plan.run(id).unwrap(),
                            "n {n} {method:?} depth {depth} task {id}"
                        );
                        units += value;
                    }
                    let total = units / plan.units_per_solution();
                    assert_eq!(Some(total), known::total(n), "n {n} {method:?}");
                }
            }
        }
    }

    #[test]
    fn software_items_fit_their_budget_so_none_is_sent_twice() {
        // Measured with the emulation: n = 15, 16, 17 gave at most 42,209, 39,130 and 37,809
        // iterations for items of eleven rows (232,045, 195,502, 160,556 for twelve).
        let shape = Shape::SOFTWARE;
        for symmetry in [Symmetry::Full, Symmetry::Mirror] {
            let plan = Plan::new(15, Engine::Search(symmetry), 3).unwrap();
            let tasks = Tasks::new(15, &plan).unwrap();
            let mut items = Vec::new();
            for id in 0..plan.len() {
                tasks.expand(tasks.roots[id], shape.rows_left, &mut items);
            }
            let most = items
                .iter()
                .map(|&item| emulate(&tasks, item, u32::MAX).2)
                .max()
                .unwrap();
            assert!(most < shape.budget, "{symmetry:?}: {most} iterations");
        }
    }
}
