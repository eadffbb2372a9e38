//! Which diagonals cut a side's half-boards into buckets and partitions: the central ones,
//! which most half-boards hold, in the order the index (`index.rs`) and the partitioned
//! joins (`partition.rs`) take them.

use crate::join::count::squeeze::MAX_CUTS;
use crate::join::count::walk::SOFT_CUTS;
use crate::join::shape::Shape;

/// Which bits of the patterns file half-boards in buckets: the central diagonals, the ones
/// most half-boards hold, alternating anti and main, nearest the centre first.
pub(in crate::join) struct CutPlan {
    /// Bit positions, best first: `order[..usable]` are distinct.
    pub(in crate::join) order: [u32; MAX_CUTS],
    pub(in crate::join) usable: usize,
    /// The pattern's width.
    pub(in crate::join) width: u32,
    /// Bits that decide no pair an index counts: the positions of the cuts a partition fixes
    /// ([`CutPlan::skipping`]). A west half-board of the partition holds exactly its bits
    /// there, and an east one none of those it holds, so the index leaves them out of its
    /// rests.
    pub(in crate::join) dropped: u64,
    /// The way a unit is counted with these cuts ([`Way`]): the second files each bucket's
    /// half-boards in reverse and takes one cut more.
    pub(in crate::join) way: Way,
    /// Whether pairs are weighed by the transposition ([`CutPlan::transposing`]): the first
    /// two cuts, the long diagonals, are then the first two hard cuts of every index.
    pub(in crate::join) transposed: bool,
}

impl CutPlan {
    pub(in crate::join) fn new(shape: Shape) -> CutPlan {
        let len = shape.shared();
        // The longest diagonals, r + c = n - 1 and r - c = 0, sit at bit n - 1 - far of each.
        let centre = i64::from(shape.n - 1 - shape.far);
        let mut order = [0u32; MAX_CUTS];
        let mut usable = 0;
        // Outward from the centre (0, +1, -1, +2, ...), an anti-diagonal then a main one,
        // while they lie within the shared diagonals.
        for step in 0..2 * i64::from(len) {
            let offset = if step % 2 == 0 {
                -step / 2
            } else {
                step / 2 + 1
            };
            let pos = centre + offset;
            if !(0..i64::from(len)).contains(&pos) {
                continue;
            }
            for half in [0, len] {
                if usable < MAX_CUTS {
                    order[usable] = pos as u32 + half;
                    usable += 1;
                }
            }
        }
        CutPlan {
            order,
            usable,
            width: 2 * len,
            dropped: 0,
            way: Way::First,
            transposed: false,
        }
    }

    /// This plan, its pairs weighed by the transposition where `on` (an even board's:
    /// `count/transpose.rs`): its first two cuts are the long diagonals, and every index
    /// takes them as its first two hard cuts, whatever its size, way or partition, so that
    /// the walk sees on which of them each side holds a queen; a partition fixes the cuts
    /// after them.
    pub(in crate::join) fn transposing(self, on: bool) -> CutPlan {
        assert!(
            !on || (self.dropped == 0 && self.usable >= 2 + SOFT_CUTS),
            "the long diagonals are cuts of a whole unit"
        );
        CutPlan {
            transposed: on,
            ..self
        }
    }
}

impl CutPlan {
    /// The first `k` cut positions a partition fixes, best first (a partitioned join's
    /// partition bits): after the long diagonals where pairs are weighed by the
    /// transposition, which stay its index's first cuts ([`CutPlan::transposing`]).
    pub(in crate::join) fn first(&self, k: usize) -> &[u32] {
        let kept = self.kept();
        &self.order[kept..(kept + k).min(self.usable)]
    }

    /// The cuts at the head of `order` that every index takes first and no partition fixes:
    /// the two long diagonals where pairs are weighed by the transposition, none elsewhere.
    fn kept(&self) -> usize {
        if self.transposed { 2 } else { 0 }
    }

    /// The plan without the `k` cuts a partition fixes ([`CutPlan::first`]), and those
    /// dropped from the rests: what a partition whose `k` cut bits are fixed is indexed on
    /// (the long diagonals still first where pairs are weighed by the transposition).
    pub(in crate::join) fn skipping(&self, k: usize) -> CutPlan {
        let kept = self.kept();
        let k = k.min(self.usable - kept);
        let mut order = [0u32; MAX_CUTS];
        order[..kept].copy_from_slice(&self.order[..kept]);
        order[kept..self.usable - k].copy_from_slice(&self.order[kept + k..self.usable]);
        let fixed = self.first(k).iter().fold(0u64, |m, &b| m | 1 << b);
        CutPlan {
            order,
            usable: self.usable - k,
            width: self.width,
            dropped: self.dropped | fixed,
            way: self.way,
            transposed: self.transposed,
        }
    }
}

/// Which of two ways a unit is counted: the engine's own ([`Way::First`]), or the second,
/// which counts the same pairs through other buckets and groups, so that every sum inside
/// it differs (the double check and the audits): its index takes its cuts one place on (the
/// first of them, after a partition's fixed bits, moved to the end), one cut more (buckets
/// of half the size), each bucket's half-boards in reverse order (so that a half-board sits
/// at another place of its group's rows, even in a unit too small for any cut), and pieces
/// three quarters the size. A fault at one place of a table, or in one group's sum, falls
/// on other pairs in the two ways, so their totals disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// The engine's cuts and pieces.
    First,
    /// The cuts one place on, pieces of three quarters.
    Second,
}

impl Way {
    /// The piece size of this way, from the plan's.
    pub(in crate::join) fn piece(self, piece: usize) -> usize {
        match self {
            Way::First => piece,
            Way::Second => (piece * 3 / 4).max(64),
        }
    }
}

impl CutPlan {
    /// This plan as `way` takes it: itself, or its cuts one place on, the first moved to the
    /// end (its bits fixed by a partition stay where they are: they are not in `order`;
    /// where pairs are weighed by the transposition, the two long diagonals stay first and
    /// the cuts after them move on).
    pub(in crate::join) fn for_way(self, way: Way) -> CutPlan {
        match way {
            Way::First => self,
            Way::Second => {
                let mut order = self.order;
                order[self.kept()..self.usable].rotate_left(1);
                CutPlan { order, way, ..self }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::{MAX_N, MIN_N};

    /// The second way's cuts are the first's, one place on: the same positions, another
    /// order, so another set of hard cuts for any number of them.
    #[test]
    fn the_second_way_takes_the_cuts_one_place_on() {
        let plan = CutPlan::new(Shape::new(20)).skipping(2);
        let second = CutPlan::new(Shape::new(20))
            .skipping(2)
            .for_way(Way::Second);
        assert_eq!(second.usable, plan.usable);
        assert_eq!(second.dropped, plan.dropped);
        assert_eq!(
            &second.order[..plan.usable - 1],
            &plan.order[1..plan.usable]
        );
        assert_eq!(second.order[plan.usable - 1], plan.order[0]);
        assert_eq!(Way::Second.piece(1 << 22), 3 << 20);
        // Weighed by the transposition, the long diagonals stay first; the rest move on.
        let plan = CutPlan::new(Shape::new(20)).transposing(true);
        let second = CutPlan::new(Shape::new(20))
            .transposing(true)
            .for_way(Way::Second);
        assert_eq!(second.order[..2], plan.order[..2]);
        assert_eq!(
            &second.order[2..plan.usable - 1],
            &plan.order[3..plan.usable]
        );
        assert_eq!(second.order[plan.usable - 1], plan.order[2]);
        // A partition of three bits fixes the three cuts after the long diagonals, which
        // stay its index's first.
        let parted = plan.skipping(3);
        assert_eq!(plan.first(3), &plan.order[2..5]);
        assert_eq!(parted.order[..2], plan.order[..2]);
        assert_eq!(&parted.order[2..parted.usable], &plan.order[5..plan.usable]);
        assert_eq!(parted.usable, plan.usable - 3);
        let fixed = plan.order[2..5].iter().fold(0u64, |m, &b| m | 1 << b);
        assert_eq!(parted.dropped, fixed);
    }

    #[test]
    fn cut_positions_are_distinct_and_central() {
        for n in MIN_N..=MAX_N {
            let shape = Shape::new(n);
            let plan = CutPlan::new(shape);
            let cuts = &plan.order[..plan.usable];
            assert_eq!(
                plan.usable,
                MAX_CUTS.min(2 * shape.shared() as usize),
                "n = {n}"
            );
            let mut sorted = cuts.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), cuts.len(), "n = {n}: {cuts:?}");
            assert!(cuts.iter().all(|&c| c < plan.width), "n = {n}: {cuts:?}");
            // The first two are the longest anti-diagonal and the longest main diagonal.
            let centre = n - 1 - shape.far;
            assert_eq!(cuts[..2], [centre, centre + shape.shared()], "n = {n}");
        }
    }
}
