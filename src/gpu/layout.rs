//! The data the host and the shaders share, laid out as they read it: for `search.wgsl` an
//! item (a partial board for one invocation), a rule (what the search below it obeys), and the
//! statuses an invocation reports; for `join.wgsl` a work item of the pair count.

use bytemuck::{Pod, Zeroable};

/// Status of an item the device searched to the end.
pub(crate) const DONE: u32 = 1;
/// Status of an item that ran out of its budget.
pub(crate) const OVER_BUDGET: u32 = 2;

/// One partial board for one invocation (the shader's `Item`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct Item {
    pub(crate) open: u32,
    pub(crate) left: u32,
    pub(crate) right: u32,
    /// The board row the next queen goes in.
    pub(crate) row: u32,
    /// Index into the rule table.
    pub(crate) rule: u32,
    /// Ties among the queens placed so far.
    pub(crate) ties: u32,
    pub(crate) pad: [u32; 2],
}

/// What the search below an item obeys and what a completion is worth (the shader's `Rule`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Pod, Zeroable)]
pub(crate) struct Rule {
    /// Blocked squares by board row.
    pub(crate) blocked: [u32; 32],
    /// Units per completion with 0, 1 or 2 ties; the fourth is padding.
    pub(crate) units: [u32; 4],
    /// The board row whose queen is a tie on a side column (`u32::MAX`: none).
    pub(crate) side_row: u32,
    pub(crate) side_mask: u32,
    /// The columns where a last-row queen is a tie.
    pub(crate) bottom_mask: u32,
    pub(crate) pad: u32,
}

impl Rule {
    /// A completion's value with `ties` ties.
    pub(crate) fn units(&self, ties: u32) -> u128 {
        u128::from(self.units[ties as usize])
    }

    /// The ties a queen on `bit` of board `row` adds.
    pub(crate) fn ties_of(&self, row: u32, bit: u32, n: u32) -> u32 {
        u32::from(row == self.side_row && bit & self.side_mask != 0)
            + u32::from(row == n - 1 && bit & self.bottom_mask != 0)
    }
}

/// One work item of the join's pair count (the shader `join.wgsl`'s `Item`): a group of
/// indexed half-boards against runs of queries.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct JoinItem {
    /// The group's first row in the batch's tables (rows of 512 bits).
    pub(crate) table: u32,
    /// The item's runs start at `runs[first_run]` of the batch and hold `count` queries.
    pub(crate) first_run: u32,
    pub(crate) count: u32,
    /// How a query's rest is cut into chunks, a row number each: the chunks (bits 0 to 7)
    /// and the rest's bits (8 to 15; [`crate::join::Index::query_rests`]); and the quarters
    /// of each row of 512 bits that the group's members reach, 1 to 4 (bits 16 and up): the
    /// shader reads no more.
    pub(crate) shape: u32,
}

impl JoinItem {
    /// The [`JoinItem::shape`] of an item whose queries' rests of `width` bits are cut into
    /// `chunks`, against a group of `members` half-boards.
    pub(crate) fn shape(chunks: usize, width: u32, members: usize) -> u32 {
        chunks as u32 | width << 8 | (members.div_ceil(128) as u32) << 16
    }
}

/// A run of queries of a join item (the shader's `Run`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct JoinRun {
    /// The first query's rest in the batch's rests (two words a query, the low one first).
    pub(crate) rests: u32,
    /// How many queries.
    pub(crate) queries: u32,
}
