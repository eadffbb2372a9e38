//! The bucket an index files a pattern in: its hard cuts, squeezed out of the rest, above its
//! soft cuts, kept in it (`index.rs` builds with them, `walk.rs` pairs buckets by them).

use super::bits::Gather;
use super::squeeze::{MAX_CUTS, Squeeze};
use super::transpose::LongBits;
use crate::join::plan::cuts::CutPlan;

/// The bucket of a pattern: its hard cuts (squeezed out of the rest; a query skips the
/// indexed buckets that hold one of its own) above its soft cuts (kept in the rest; they
/// only order a hard bucket's members, so that its groups are filled whole and a query skips
/// a group when no member's soft cuts are clear of its own).
#[derive(Clone, Copy)]
pub(in crate::join) struct Keys {
    pub(in crate::join) hard: Squeeze,
    soft: Squeeze,
    pub(in crate::join) soft_count: usize,
    /// Where the long diagonals are among the hard bits, where pairs are weighed by the
    /// transposition (`transpose.rs`).
    pub(in crate::join) long: LongBits,
}

impl Keys {
    pub(in crate::join) fn new(plan: &CutPlan, hard: usize, soft: usize) -> Keys {
        let hard_positions = &plan.order[..hard];
        let hard_squeeze = Squeeze::dropping(hard_positions, plan.dropped, plan.width);
        // A soft cut's place in the rest: below it, the hard cuts and the dropped bits are
        // squeezed out.
        let mut soft_positions = [0u32; MAX_CUTS];
        for (place, &p) in soft_positions
            .iter_mut()
            .zip(&plan.order[hard..hard + soft])
        {
            let below = (1u64 << p) - 1;
            *place = p - (!hard_squeeze.rest_mask & below).count_ones();
        }
        // A hard cut's bucket bit: the hard cuts below its position (`PEXT`'s order).
        let bucket_bit = |p: u32| (hard_squeeze.cut_mask & ((1u64 << p) - 1)).count_ones();
        let long = if plan.transposed {
            assert!(hard >= 2, "the long diagonals are hard cuts");
            // The first cut is the long anti-diagonal, the second the long main one
            // (`CutPlan::new`).
            LongBits::at(bucket_bit(plan.order[1]), bucket_bit(plan.order[0]))
        } else {
            LongBits::NONE
        };
        Keys {
            soft: Squeeze::from_positions(&soft_positions[..soft], hard_squeeze.rest_width()),
            hard: hard_squeeze,
            soft_count: soft,
            long,
        }
    }

    /// (bucket, rest): the hard cuts' bits above the soft cuts' bits, and the pattern without
    /// its hard cuts and the bits a partition fixes ([`CutPlan::dropped`](crate::join::plan::cuts::CutPlan)).
    #[inline(always)]
    pub(in crate::join) fn split<G: Gather>(&self, gather: G, pattern: u64) -> (usize, u64) {
        let (hard, rest) = gather.split(&self.hard, pattern);
        let (soft, _) = gather.split(&self.soft, rest);
        ((hard << self.soft_count) | soft, rest)
    }

    /// How many buckets: hard and soft.
    pub(in crate::join) fn buckets(&self) -> usize {
        1 << (self.hard.count + self.soft_count)
    }
}
