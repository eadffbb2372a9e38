//! Half-board generation: the half-boards of one side of a unit, each a north quarter entry
//! beside a south one on the other columns, written out as the patterns of diagonals the
//! other side can reach.

use super::quarter::{Quarter, View};
use super::{Diagonals, Shape};

/// The subset of `set` after `subset` in increasing order, `None` after `set` itself: the
/// column sets a side's north quarter can take, walked by [`Side::fill`] and [`Side::bound`].
pub(super) fn next_subset(subset: u32, set: u32) -> Option<u32> {
    (subset != set).then(|| subset.wrapping_sub(set) & set)
}

/// Where [`Side::fill`] goes on: the north columns and the north entry.
#[derive(Default)]
pub(super) struct Cursor {
    north_cols: u32,
    north_at: usize,
}

/// One side of a unit: the quarters its half-boards come from, its rows and columns, and the
/// queens placed before the join (whose diagonals its patterns carry).
pub(super) struct Side<'t> {
    pub(super) shape: Shape,
    pub(super) quarter: &'t Quarter,
    pub(super) north: View,
    pub(super) south: View,
    /// The side's first column on the board.
    pub(super) first_column: u32,
    pub(super) north_rows: u32,
    pub(super) south_rows: u32,
    pub(super) columns: u32,
    pub(super) blocked: Diagonals,
}

impl Side<'_> {
    /// The diagonals where this side's north and south queens can meet, as one word: `h`
    /// anti-diagonals from the south quarter's first one, then `h` main diagonals likewise.
    #[inline(always)]
    fn key(&self, d: Diagonals) -> u64 {
        let Shape { h, far, .. } = self.shape;
        let window = (1u64 << h) - 1;
        let anti = (d.anti >> (far + self.first_column)) & window;
        let main = (d.main >> (2 * far - self.first_column)) & window;
        anti | main << h
    }

    /// Appends the patterns of this side's half-boards to `out`, from `cursor` on, until
    /// `out` holds `piece` or more; returns whether the side is done. `souths` is scratch.
    #[inline(always)]
    pub(super) fn fill(
        &self,
        out: &mut Vec<u64>,
        souths: &mut Vec<[u64; 2]>,
        piece: usize,
        cursor: &mut Cursor,
    ) -> bool {
        let k = self.north_rows.count_ones();
        loop {
            let north_cols = cursor.north_cols;
            if north_cols.count_ones() == k {
                let south_cols = self.columns ^ north_cols;
                // The south entries clear of the placed queens, once per column split, as
                // (key, pattern): the key holds the diagonals a north entry could share.
                souths.clear();
                let (entries, flipped) = self.south.get(self.quarter, self.south_rows, south_cols);
                // Whether entries are stored upside down is known per run of them: a
                // constant in each loop, so that a table stored whole pays nothing for it.
                if flipped {
                    self.place_souths::<true>(entries, souths);
                } else {
                    self.place_souths::<false>(entries, souths);
                }
                let (norths, flipped) = self.north.get(self.quarter, self.north_rows, north_cols);
                if souths.is_empty() {
                    cursor.north_at = norths.len();
                }
                let full = if flipped {
                    self.join_norths::<true>(norths, souths, out, piece, cursor)
                } else {
                    self.join_norths::<false>(norths, souths, out, piece, cursor)
                };
                if full {
                    return false;
                }
            }
            cursor.north_at = 0;
            match next_subset(north_cols, self.columns) {
                Some(next) => cursor.north_cols = next,
                None => return true,
            }
        }
    }

    /// Appends the south `entries` clear of the placed queens to `souths`, as (key,
    /// pattern): the key holds the diagonals a north entry could share.
    #[inline(always)]
    fn place_souths<const FLIPPED: bool>(&self, entries: &[[u32; 2]], souths: &mut Vec<[u64; 2]>) {
        for &entry in entries {
            let s = self.south.place::<FLIPPED>(self.shape, entry);
            if !s.meets(self.blocked) {
                souths.push([self.key(s), self.shape.pattern(s)]);
            }
        }
    }

    /// Appends the half-boards of the north entries from `cursor` on beside `souths` to
    /// `out`; returns whether `out` holds a piece before the entries run out.
    #[inline(always)]
    fn join_norths<const FLIPPED: bool>(
        &self,
        norths: &[[u32; 2]],
        souths: &[[u64; 2]],
        out: &mut Vec<u64>,
        piece: usize,
        cursor: &mut Cursor,
    ) -> bool {
        while cursor.north_at < norths.len() {
            let n = self
                .north
                .place::<FLIPPED>(self.shape, norths[cursor.north_at]);
            cursor.north_at += 1;
            if n.meets(self.blocked) {
                continue;
            }
            let key = self.key(n);
            let pattern = self.shape.pattern(n.join(self.blocked));
            // Written without a branch on the data: every candidate is stored, and the end
            // moves past it only when it fits.
            out.reserve(souths.len());
            let slots = &mut out.spare_capacity_mut()[..souths.len()];
            let mut kept = 0;
            for &[south_key, south_pattern] in souths.iter() {
                slots[kept].write(pattern | south_pattern);
                kept += usize::from(key & south_key == 0);
            }
            // SAFETY: the first `kept` spare slots were written just above (each candidate
            // writes the slot at `kept` before `kept` moves past it), and `reserve` made room
            // for all of them.
            unsafe { out.set_len(out.len() + kept) };
            if out.len() >= piece {
                return true;
            }
        }
        false
    }

    /// An upper bound of the half-boards of this side (pairs of quarter entries).
    pub(super) fn bound(&self) -> u64 {
        let k = self.north_rows.count_ones();
        std::iter::successors(Some(0), |&cols| next_subset(cols, self.columns))
            .filter(|cols| cols.count_ones() == k)
            .map(|north_cols| {
                let south_cols = self.columns ^ north_cols;
                let (norths, _) = self.north.get(self.quarter, self.north_rows, north_cols);
                let (souths, _) = self.south.get(self.quarter, self.south_rows, south_cols);
                norths.len() as u64 * souths.len() as u64
            })
            .sum()
    }
}
