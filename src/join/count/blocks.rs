//! The groups' tables made a block at a time, as the walk enters each block of indexed
//! buckets (`walk.rs`), and counted there by the hot loop (`hot.rs`).
//!
//! A group's table takes some 28 to 56 bytes a member, several times the member's own 8:
//! made for a whole index at once, 2^22 members' tables went out to memory (some 200 MB)
//! and came back when the walk reached them. Made where the walk enters their block, they
//! are written into the second-level cache, in a buffer the size of a block, and read from
//! there.

use super::bits::Gather;
use super::chunking::Chunking;
use super::group::fill_group;
use super::hot::{CountHere, GROUPS_AT_ONCE, Row, Run};
use super::walk::Pairing;
use std::ops::Range;

/// An index's members as its groups hold them: group `g`'s are `members[first[g] as
/// usize..first[g + 1] as usize]`, cut into chunks by `chunking`.
#[derive(Clone, Copy)]
pub(in crate::join) struct Groups<'a> {
    pub(in crate::join) members: &'a [u64],
    pub(in crate::join) first: &'a [u32],
    pub(in crate::join) chunking: &'a Chunking,
    /// A vector lane stuck at zero, for the tests of the checks that catch one: this bit of
    /// the first row of every group's table cleared.
    #[cfg(test)]
    pub(in crate::join) stuck: Option<usize>,
}

impl Groups<'_> {
    /// Fills the tables of `groups` into `tables`, end to end from its start: grown to hold
    /// them (exactly: a doubling vector could hold twice what a memory limit allowed for),
    /// never shrunk.
    #[inline(always)]
    pub(in crate::join) fn fill<G: Gather>(
        &self,
        gather: G,
        tables: &mut Vec<Row>,
        groups: Range<usize>,
    ) {
        let rows = self.chunking.rows();
        let len = groups.len() * rows;
        if tables.len() < len {
            tables.reserve_exact(len - tables.len());
            tables.resize(len, Row::default());
        }
        for (table, g) in tables.chunks_exact_mut(rows).zip(groups) {
            let members = &self.members[self.first[g] as usize..self.first[g + 1] as usize];
            fill_group(gather, table, members, self.chunking);
            #[cfg(test)]
            if let Some(bit) = self.stuck {
                table[0].0[bit / 64] &= !(1 << (bit % 64));
            }
        }
    }
}

/// Counts the prepared queries against an index's groups, filling each block's tables as
/// the walk enters it ([`Pairing::enter_block`]).
pub(in crate::join) struct BlockCount<'a, G, const CHUNKS: usize> {
    gather: G,
    groups: Groups<'a>,
    /// The tables of the block entered last, its first group's first.
    tables: &'a mut Vec<Row>,
    /// That block's first group.
    first: usize,
    /// The queries' row numbers, `CHUNKS` to a query.
    rows: &'a [u16],
    /// The pairs counted so far, each times its weight.
    pub(in crate::join) total: u64,
    /// What the pairings count for now ([`Pairing::weigh`]).
    weight: u64,
}

impl<'a, G: Gather, const CHUNKS: usize> BlockCount<'a, G, CHUNKS> {
    /// A count of the queries whose row numbers are `rows` against `groups`, with `tables`
    /// to fill a block's tables into.
    ///
    /// # Safety
    ///
    /// Every row number in `rows` is below `groups.chunking.rows()`: the hot loop reads them
    /// unchecked ([`CountHere::trusting`]).
    pub(in crate::join) unsafe fn trusting(
        gather: G,
        groups: Groups<'a>,
        tables: &'a mut Vec<Row>,
        rows: &'a [u16],
    ) -> Self {
        BlockCount {
            gather,
            groups,
            tables,
            first: 0,
            rows,
            total: 0,
            weight: 1,
        }
    }
}

impl<G: Gather, const CHUNKS: usize> Pairing for BlockCount<'_, G, CHUNKS> {
    #[inline(always)]
    fn pair(&mut self, group: usize, first: usize, last: usize) {
        self.pair_runs(&[group], &[[first as u32, last as u32]]);
    }

    #[inline(always)]
    fn pair_runs(&mut self, groups: &[usize], runs: &[Run]) {
        // The groups' places among the block's tables (one outside the block wraps around
        // and is refused where its table is read).
        let mut local = [0; GROUPS_AT_ONCE];
        for (place, &g) in local.iter_mut().zip(groups) {
            *place = g.wrapping_sub(self.first);
        }
        let per_group = self.groups.chunking.rows();
        // SAFETY: every row number is below `per_group` (the promise of `trusting`).
        let mut here = unsafe { CountHere::<CHUNKS>::trusting(self.tables, self.rows, per_group) };
        here.count(&local[..groups.len()], runs);
        self.total += self.weight * here.total;
    }

    #[inline(always)]
    fn weigh(&mut self, weight: u64) {
        self.weight = weight;
    }

    #[inline(always)]
    fn enter_block(&mut self, groups: Range<usize>) {
        self.first = groups.start;
        self.groups.fill(self.gather, self.tables, groups);
    }
}
