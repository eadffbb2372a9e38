//! The join's hot loop: runs of queries counted against the tables of one to
//! [`GROUPS_AT_ONCE`] groups of an index (`index.rs` builds the tables, `walk.rs` walks the
//! pairs of groups and runs of queries that can share no diagonal).
//!
//! What it reads is a run of queries' row numbers, streaming past a bucket's groups, whose
//! tables stay in the first-level cache. So the row numbers are 16 bits, and a query's are
//! read once for every group of the bucket it pairs with, not once per group. Twelve n = 26
//! parts (`join_partition sample 26 12 7`, one thread, rows read unchecked) took 17.1-17.3 s
//! with 16-bit row numbers against 18.1-18.6 s with 32-bit ones (18.5-20.2 s with every row
//! read checked). Where those row numbers come from is the walk's concern: tiled, mostly
//! from the second-level cache.

/// A run of prepared queries, `[first, last)`: a hard bucket's queries of a class of soft
/// values (`walk.rs`).
pub(in crate::join) type Run = [u32; 2];

/// Words in a row of a group: one bit per half-board, 512 half-boards to a group, one
/// AVX-512 vector (two AVX2 ones) per row.
pub(in crate::join) const GROUP: usize = 8;

/// One row of a group's table: bit `j` of word `k` stands for member `64 k + j`.
///
/// Aligned to a cache line, so that the hot loop reads a row with one load of one line. As a
/// plain `[u64; 8]` a table started wherever the allocator put it (16 bytes past a line for
/// glibc's large blocks): every read of a row then touched two lines.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Row(pub(crate) [u64; GROUP]);

// SAFETY: eight `u64`s, 64 bytes at an alignment of 64: no padding, and every bit pattern
// is a row.
#[cfg(feature = "gpu")]
unsafe impl bytemuck::Zeroable for Row {}
#[cfg(feature = "gpu")]
unsafe impl bytemuck::Pod for Row {}

/// The most groups a run of queries is counted against at once.
pub(in crate::join) const GROUPS_AT_ONCE: usize = 4;

/// Counts runs of prepared queries against groups' tables, adding up the pairs: the row
/// numbers of every query (`CHUNKS` each, in `rows`) index every table.
pub(in crate::join) struct CountHere<'a, const CHUNKS: usize> {
    tables: &'a [Row],
    rows: &'a [u16],
    per_group: usize,
    /// The pairs counted so far.
    pub(in crate::join) total: u64,
}

impl<'a, const CHUNKS: usize> CountHere<'a, CHUNKS> {
    /// A count over groups of `per_group` rows each, laid end to end in `tables`, with the
    /// queries' row numbers `rows`.
    ///
    /// Panics unless every row number is below `per_group`: the hot loop reads rows without
    /// checking each against its table, on this check. It is made by the caller's chunking
    /// (every chunk's first row plus its value, [`super::chunking::Chunking::places`]).
    /// It is one pass over the numbers: for counts whose numbers are known to be in range
    /// from how they were made, [`CountHere::trusting`].
    #[cfg(test)]
    pub(in crate::join) fn new(tables: &'a [Row], rows: &'a [u16], per_group: usize) -> Self {
        assert!(
            rows.iter().all(|&row| usize::from(row) < per_group),
            "a query's row number is past its group's table"
        );
        // SAFETY: every row number was checked just above.
        unsafe { Self::trusting(tables, rows, per_group) }
    }

    /// [`CountHere::new`] without the pass over the row numbers. An index makes them from
    /// its chunking, which bounds every one at once (`Index::query_rows_with`): the pass
    /// took 4.9 % of a count of n = 20 (whose units make many small counts).
    ///
    /// # Safety
    ///
    /// Every row number in `rows` is below `per_group`.
    pub(in crate::join) unsafe fn trusting(
        tables: &'a [Row],
        rows: &'a [u16],
        per_group: usize,
    ) -> Self {
        assert_eq!(
            rows.len() % CHUNKS.max(1),
            0,
            "a query is CHUNKS row numbers"
        );
        CountHere {
            tables,
            rows,
            per_group,
            total: 0,
        }
    }

    /// Group `group`'s table: exactly `per_group` rows (checked).
    #[inline(always)]
    fn table(&self, group: usize) -> &'a [Row] {
        &self.tables[group * self.per_group..][..self.per_group]
    }

    /// Adds the pairs of the queries of every run in `runs` and the `groups` (at most
    /// [`GROUPS_AT_ONCE`]).
    #[inline(always)]
    pub(in crate::join) fn count(&mut self, groups: &[usize], runs: &[Run]) {
        let rows = self.rows;
        // SAFETY: every row number is below `per_group` (checked in `new`), the length of
        // every table `table` returns.
        self.total += unsafe {
            match *groups {
                [a] => count_groups::<CHUNKS, 1>([self.table(a)], rows, runs),
                [a, b] => count_groups::<CHUNKS, 2>([self.table(a), self.table(b)], rows, runs),
                [a, b, c] => count_groups::<CHUNKS, 3>(
                    [self.table(a), self.table(b), self.table(c)],
                    rows,
                    runs,
                ),
                [a, b, c, d] => count_groups::<CHUNKS, 4>(
                    [self.table(a), self.table(b), self.table(c), self.table(d)],
                    rows,
                    runs,
                ),
                _ => unreachable!("one to GROUPS_AT_ONCE groups at once"),
            }
        };
    }
}

/// The hot loop: for every query of every run (its `CHUNKS` row numbers in `rows`), the
/// members of each group it shares no diagonal with, ANDing one row per chunk and counting
/// the bits. No allocation, no branch on the data, and no check of a row number against its
/// table. The runs of one call are the hard buckets' queries that pair with the same groups
/// (`walk.rs`): one call for them all, as a call's own cost (the counts per word set up and
/// summed, the tables found) was some 6 % of the time at n = 24 with a call a run.
///
/// # Safety
///
/// Every row number in `rows` is below the length of every table in `tables`.
#[inline(always)]
unsafe fn count_groups<const CHUNKS: usize, const GROUPS: usize>(
    tables: [&[Row]; GROUPS],
    rows: &[u16],
    runs: &[Run],
) -> u64 {
    // Counts per word, summed once at the end.
    let mut lanes = [0u64; GROUP];
    for &[first, last] in runs {
        for query in rows[first as usize * CHUNKS..last as usize * CHUNKS].chunks_exact(CHUNKS) {
            let head = opaque(usize::from(query[0]));
            for table in tables {
                // SAFETY: the caller's promise, for every row number of `rows`.
                let mut free = unsafe { table.get_unchecked(head).0 };
                for &row in &query[1..] {
                    let row = unsafe { &table.get_unchecked(usize::from(row)).0 };
                    for (f, &w) in free.iter_mut().zip(row) {
                        *f &= w;
                    }
                }
                for (l, f) in lanes.iter_mut().zip(free) {
                    *l += u64::from(f.count_ones());
                }
            }
        }
    }
    lanes.iter().sum()
}

/// `x`, hidden from the optimiser at no cost. Without the bounds checks, LLVM vectorized the
/// loop over queries with gathers, eight queries a vector: a sample of n = 26 parts ran 2.2
/// times slower. A value it cannot see through keeps the loop one query at a time.
#[inline(always)]
fn opaque(mut x: usize) -> usize {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: an empty template: no instruction, no memory, no stack, no flags touched.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = std::hint::black_box(x);
    }
    x
}

/// Random words for tests, a xorshift from `seed` (not zero): this file's, the index's test
/// patterns (`index.rs`, which a device's tests share) and the splits' (`squeeze.rs`).
#[cfg(test)]
pub(in crate::join) fn test_words(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One to four groups at once count what a plain loop counts group by group, query by
    /// query, for every run of queries (the first and last queries included) and every
    /// list of runs.
    #[test]
    fn any_number_of_groups_at_once_counts_what_a_plain_loop_counts() {
        const CHUNKS: usize = 3;
        let (per_group, groups, queries) = (40, 6, 50);
        let mut next = test_words(0x1234_5678);
        // Rows with some 5/8 of their bits set (a | b & c): a query's three rows leave about
        // a quarter of the members free, so counts are neither none nor all.
        let tables: Vec<Row> = (0..per_group * groups)
            .map(|_| Row(std::array::from_fn(|_| next() | next() & next())))
            .collect();
        let rows: Vec<u16> = (0..queries * CHUNKS)
            .map(|_| (next() % per_group as u64) as u16)
            .collect();
        let plain = |g: usize, q: usize| -> u64 {
            let mut free = [!0u64; GROUP];
            for &row in &rows[q * CHUNKS..][..CHUNKS] {
                for (f, w) in free.iter_mut().zip(tables[g * per_group + row as usize].0) {
                    *f &= w;
                }
            }
            free.iter().map(|f| u64::from(f.count_ones())).sum()
        };
        let lists: [&[Run]; 8] = [
            &[[0, queries as u32]],
            &[[0, 1]],
            &[[17, 18]],
            &[[3, 41]],
            &[[49, 50]],
            &[],
            &[[0, 1], [17, 18], [49, 50]],
            &[[20, 30], [3, 9], [20, 30], [40, 50]],
        ];
        for runs in lists {
            for at_once in 1..=GROUPS_AT_ONCE {
                for start in 0..=groups - at_once {
                    let chosen: Vec<usize> = (start..start + at_once).rev().collect();
                    let mut here = CountHere::<CHUNKS>::new(&tables, &rows, per_group);
                    here.count(&chosen, runs);
                    let expected: u64 = (runs.iter())
                        .flat_map(|r| r[0] as usize..r[1] as usize)
                        .flat_map(|q| chosen.iter().map(move |&g| (g, q)))
                        .map(|(g, q)| plain(g, q))
                        .sum();
                    assert_eq!(here.total, expected, "{chosen:?}, runs {runs:?}");
                    assert!(expected > 0 || runs.is_empty(), "{chosen:?}");
                }
            }
        }
    }

    /// The hot loop reads rows unchecked: a row number past its group's table is refused
    /// before any is read.
    #[test]
    #[should_panic(expected = "past its group's table")]
    fn a_row_number_past_its_group_s_table_is_refused() {
        let tables = vec![Row::default(); 2 * 8];
        CountHere::<2>::new(&tables, &[3, 8], 8);
    }
}
