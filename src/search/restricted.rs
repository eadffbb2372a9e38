//! The search with each row's queen kept to a given set of columns: how many placements of n
//! non-attacking queens put row `r`'s queen in `allowed[r]`. A join task is exactly such
//! counts (its rows' queens in the west or the east half, the middle queens of an odd board
//! fixed), so this counts the same work a second way that shares no code with the join:
//! no quarter tables, no half-boards, no index, no hot loop (`selftest` compares them task by
//! task, and the tests check both against the known counts).
//!
//! A plain bitmask depth-first search, row by row, with the textbook's diagonal masks; its
//! speed is that of a search of the rows the sets leave open, so it is for checking, not for
//! record sizes (the join is hundreds of times faster at n = 20 and the gap grows).

/// The most rows a board has here: the masks are 32 columns wide.
pub const MAX_ROWS: usize = 32;

/// The placements of `allowed.len()` queens, one a row, row `r`'s in a column of `allowed[r]`
/// (bit `c` for column `c`), no two sharing a column or a diagonal.
///
/// Panics with more than [`MAX_ROWS`] rows.
pub fn count(allowed: &[u32]) -> u64 {
    assert!(allowed.len() <= MAX_ROWS, "at most {MAX_ROWS} rows");
    let n = allowed.len();
    if n == 0 {
        return 1;
    }
    let board = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    // An explicit stack: the free columns left to try in each row, and the masks above it.
    let mut free = [0u32; MAX_ROWS];
    let mut cols = [0u32; MAX_ROWS + 1];
    // Diagonals as seen from each row: `down` moves one column right a row, `up` one left.
    let mut down = [0u32; MAX_ROWS + 1];
    let mut up = [0u32; MAX_ROWS + 1];
    let mut total = 0u64;
    let mut row = 0;
    free[0] = allowed[0] & board;
    loop {
        if free[row] == 0 {
            if row == 0 {
                return total;
            }
            row -= 1;
            continue;
        }
        let bit = free[row] & free[row].wrapping_neg();
        free[row] ^= bit;
        if row + 1 == n {
            total += 1;
            continue;
        }
        cols[row + 1] = cols[row] | bit;
        down[row + 1] = ((down[row] | bit) << 1) & board;
        up[row + 1] = (up[row] | bit) >> 1;
        row += 1;
        free[row] = allowed[row] & board & !(cols[row] | down[row] | up[row]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column allowed in every row: the whole count.
    #[test]
    fn with_every_column_allowed_it_is_the_whole_count() {
        for n in 1..=11u32 {
            let board = (1u32 << n) - 1;
            let allowed = vec![board; n as usize];
            assert_eq!(
                u128::from(count(&allowed)),
                crate::known::total(n).unwrap(),
                "n = {n}"
            );
        }
    }

    /// Rows kept to halves of the columns add up, over every choice of halves, to the whole
    /// count; and a row's queen fixed to one column counts the placements through it.
    #[test]
    fn halves_of_the_columns_add_up_to_the_whole_count() {
        let n = 8usize;
        let (west, east) = (0x0fu32, 0xf0u32);
        let mut total = 0;
        for sides in 0u32..1 << n {
            let allowed: Vec<u32> = (0..n)
                .map(|r| if sides >> r & 1 == 1 { east } else { west })
                .collect();
            total += count(&allowed);
        }
        assert_eq!(total, 92);
        let mut through = 0;
        for c in 0..n {
            let mut allowed = vec![0xffu32; n];
            allowed[0] = 1 << c;
            through += count(&allowed);
        }
        assert_eq!(through, 92);
        // A row with no column allowed leaves no placement.
        let mut none = vec![0xffu32; n];
        none[3] = 0;
        assert_eq!(count(&none), 0);
    }
}
