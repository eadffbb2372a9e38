//! The eight symmetries of the square, canonical forms, and the count of unique solutions;
//! and which of them the counting search exploits ([`Symmetry`]).
//!
//! The group of the square (four rotations, each with or without a reflection) maps solutions
//! to solutions. Counting classes needs no search of canonical boards: by Burnside's lemma the
//! number of classes is the average number of solutions each symmetry leaves in place. For
//! n >= 2 no solution is its own mirror image or transpose (its queens would share a row, a
//! column or a diagonal), so only the rotations fix any, and
//!
//! ```text
//! unique = (Q + S180 + 2 * S90) / 8
//! ```
//!
//! where S180 and S90 count the solutions unchanged by a half turn and by a quarter turn.
//! Those are found by a search that places a queen together with its rotated images, which is
//! far smaller than the full search. The same three numbers give the class sizes: a solution
//! fixed by a quarter turn lies in a class of 2, one fixed by a half turn only in a class of 4,
//! any other in a class of 8.

/// Which symmetry the counting search exploits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// The first row halved by the mirror image: the textbook method, kept as a second,
    /// independent search.
    Mirror,
    /// All eight symmetries of the square: about one board per class of eight is searched
    /// (`src/search/full.rs`). The default; boards below 8 x 8 use the mirror split.
    #[default]
    Full,
}

impl Symmetry {
    /// The symmetry's name: `full` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
        }
    }

    /// The symmetry of a name as [`Symmetry::name`] spells it.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        [Symmetry::Full, Symmetry::Mirror]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transform {
    /// Leaves every square in place.
    Identity,
    /// A quarter turn clockwise: (row, column) -> (column, n-1-row).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns clockwise.
    Rotate270,
    /// Left and right swapped: (row, column) -> (row, n-1-column).
    MirrorColumns,
    /// Top and bottom swapped: (row, column) -> (n-1-row, column).
    MirrorRows,
    /// Reflection in the main diagonal: (row, column) -> (column, row).
    Transpose,
    /// Reflection in the other diagonal: (row, column) -> (n-1-column, n-1-row).
    AntiTranspose,
}

impl Transform {
    /// All eight, the identity first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate90,
        Transform::Rotate180,
        Transform::Rotate270,
        Transform::MirrorColumns,
        Transform::MirrorRows,
        Transform::Transpose,
        Transform::AntiTranspose,
    ];

    /// Where the square (row, column) of an n x n board goes.
    pub fn apply(self, n: u32, (row, column): (u32, u32)) -> (u32, u32) {
        let last = n - 1;
        match self {
            Transform::Identity => (row, column),
            Transform::Rotate90 => (column, last - row),
            Transform::Rotate180 => (last - row, last - column),
            Transform::Rotate270 => (last - column, row),
            Transform::MirrorColumns => (row, last - column),
            Transform::MirrorRows => (last - row, column),
            Transform::Transpose => (column, row),
            Transform::AntiTranspose => (last - column, last - row),
        }
    }

    /// The image of a solution given as its column list (row i holds its queen in column
    /// `columns[i]`).
    pub fn apply_to_columns(self, columns: &[u8]) -> Vec<u8> {
        let n = columns.len() as u32;
        let mut image = vec![0u8; columns.len()];
        for (row, &column) in columns.iter().enumerate() {
            let (r, c) = self.apply(n, (row as u32, u32::from(column)));
            image[r as usize] = c as u8;
        }
        image
    }
}

/// The least of the eight images of a solution (in lexicographic order of column lists): the
/// same for every member of a class.
pub fn canonical(columns: &[u8]) -> Vec<u8> {
    Transform::ALL
        .iter()
        .map(|t| t.apply_to_columns(columns))
        .min()
        .unwrap_or_default()
}

/// How many distinct boards the class of a solution holds (1, 2, 4 or 8).
pub fn class_size(columns: &[u8]) -> usize {
    let mut images: Vec<Vec<u8>> = Transform::ALL
        .iter()
        .map(|t| t.apply_to_columns(columns))
        .collect();
    images.sort();
    images.dedup();
    images.len()
}

/// The solutions unchanged by rotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RotationFixed {
    /// Solutions unchanged by a half turn (those unchanged by a quarter turn among them).
    pub half_turn: u128,
    /// Solutions unchanged by a quarter turn.
    pub quarter_turn: u128,
}

/// Counts the solutions of the n x n board that a half turn and a quarter turn leave
/// unchanged.
pub fn rotation_fixed(n: u32) -> RotationFixed {
    assert!((1..=32).contains(&n), "board size {n} out of range");
    let mut search = OrbitSearch {
        n,
        rows: 0,
        columns: 0,
        sums: 0,
        differences: 0,
    };
    RotationFixed {
        half_turn: u128::from(search.count(&[Transform::Rotate180])),
        // A quarter turn moves the queens in orbits of four, except one on the centre of an
        // odd board, so n = 4k or 4k + 1; the search would find none otherwise.
        quarter_turn: if n % 4 < 2 {
            u128::from(search.count(&[
                Transform::Rotate90,
                Transform::Rotate180,
                Transform::Rotate270,
            ]))
        } else {
            0
        },
    }
}

/// A search that places each queen together with its images under a group of rotations.
struct OrbitSearch {
    n: u32,
    /// Rows holding a queen.
    rows: u32,
    /// Columns holding a queen.
    columns: u32,
    /// Diagonals row + column holding a queen.
    sums: u64,
    /// Diagonals row - column + n - 1 holding a queen.
    differences: u64,
}

impl OrbitSearch {
    /// The number of ways to fill the board with queens closed under `group` (the identity
    /// left out).
    fn count(&mut self, group: &[Transform]) -> u64 {
        let all_rows = u32::MAX >> (32 - self.n);
        if self.rows == all_rows {
            return 1;
        }
        let row = (!self.rows).trailing_zeros();
        let mut total = 0;
        for column in 0..self.n {
            let saved = (self.rows, self.columns, self.sums, self.differences);
            // The orbit of the square: itself and its images, each square once (the centre
            // of an odd board is its own image).
            let mut orbit = [(row, column); 4];
            for (slot, t) in orbit[1..].iter_mut().zip(group) {
                *slot = t.apply(self.n, (row, column));
            }
            let orbit = &mut orbit[..=group.len()];
            orbit.sort_unstable();
            let mut fits = true;
            for (i, &square) in orbit.iter().enumerate() {
                if i > 0 && orbit[i - 1] == square {
                    continue;
                }
                fits = fits && self.try_place(square);
            }
            if fits {
                total += self.count(group);
            }
            (self.rows, self.columns, self.sums, self.differences) = saved;
        }
        total
    }

    /// Places a queen on `square` if nothing attacks it.
    fn try_place(&mut self, (row, column): (u32, u32)) -> bool {
        let (row_bit, column_bit) = (1u32 << row, 1u32 << column);
        let sum = 1u64 << (row + column);
        let difference = 1u64 << (row + self.n - 1 - column);
        if self.rows & row_bit != 0
            || self.columns & column_bit != 0
            || self.sums & sum != 0
            || self.differences & difference != 0
        {
            return false;
        }
        self.rows |= row_bit;
        self.columns |= column_bit;
        self.sums |= sum;
        self.differences |= difference;
        true
    }
}

/// How the solutions of a board fall into classes of equivalent boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classes {
    /// Classes of one board (only n = 1).
    pub of_1: u128,
    /// Classes of two boards (solutions unchanged by a quarter turn).
    pub of_2: u128,
    /// Classes of four boards (unchanged by a half turn only).
    pub of_4: u128,
    /// Classes of eight boards.
    pub of_8: u128,
}

impl Classes {
    /// The classes of a board with `total` solutions, `fixed` of them unchanged by rotations.
    pub fn from_counts(n: u32, total: u128, fixed: RotationFixed) -> Classes {
        if n == 1 {
            return Classes {
                of_1: total,
                of_2: 0,
                of_4: 0,
                of_8: 0,
            };
        }
        Classes {
            of_1: 0,
            of_2: fixed.quarter_turn / 2,
            of_4: (fixed.half_turn - fixed.quarter_turn) / 4,
            of_8: (total - fixed.half_turn) / 8,
        }
    }

    /// The number of classes: solutions counted once per set of equivalent boards.
    pub fn unique(&self) -> u128 {
        self.of_1 + self.of_2 + self.of_4 + self.of_8
    }

    /// The number of solutions the classes hold.
    pub fn total(&self) -> u128 {
        self.of_1 + 2 * self.of_2 + 4 * self.of_4 + 8 * self.of_8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known;

    /// Every solution of a small board, by plain recursion.
    fn solutions(n: u32) -> Vec<Vec<u8>> {
        fn go(n: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            let row = prefix.len() as i32;
            if row == n as i32 {
                out.push(prefix.clone());
                return;
            }
            for c in 0..n as i32 {
                let safe = prefix.iter().enumerate().all(|(r, &q)| {
                    let (r, q) = (r as i32, i32::from(q));
                    q != c && (q - c).abs() != row - r
                });
                if safe {
                    prefix.push(c as u8);
                    go(n, prefix, out);
                    prefix.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn transforms_form_a_group_acting_on_squares() {
        let n = 7;
        for t in Transform::ALL {
            for u in Transform::ALL {
                // The composition is again one of the eight.
                let composed: Vec<_> = (0..n * n)
                    .map(|i| u.apply(n, t.apply(n, (i / n, i % n))))
                    .collect();
                assert!(Transform::ALL.iter().any(|v| {
                    (0..n * n).all(|i| v.apply(n, (i / n, i % n)) == composed[i as usize])
                }));
            }
        }
    }

    #[test]
    fn brute_force_classes_match_the_rotation_formula() {
        for n in 1..=9 {
            let all = solutions(n);
            let mut by_size = [0u128; 9];
            let mut canon: Vec<Vec<u8>> = all.iter().map(|s| canonical(s)).collect();
            for s in &all {
                if canonical(s) == *s {
                    by_size[class_size(s)] += 1;
                }
            }
            canon.sort();
            canon.dedup();
            let classes = Classes::from_counts(n, all.len() as u128, rotation_fixed(n));
            assert_eq!(classes.of_1, by_size[1], "n {n}");
            assert_eq!(classes.of_2, by_size[2], "n {n}");
            assert_eq!(classes.of_4, by_size[4], "n {n}");
            assert_eq!(classes.of_8, by_size[8], "n {n}");
            assert_eq!(classes.unique(), canon.len() as u128);
            assert_eq!(classes.total(), all.len() as u128);
        }
    }

    #[test]
    fn quarter_turn_symmetry_needs_n_of_four_k_or_four_k_plus_one() {
        let mut search = OrbitSearch {
            n: 0,
            rows: 0,
            columns: 0,
            sums: 0,
            differences: 0,
        };
        for n in (2..=14).filter(|n| n % 4 >= 2) {
            search.n = n;
            let quarter = [
                Transform::Rotate90,
                Transform::Rotate180,
                Transform::Rotate270,
            ];
            assert_eq!(search.count(&quarter), 0, "n {n}");
        }
    }

    #[test]
    fn unique_counts_from_known_totals_match_oeis() {
        for n in 1..=20 {
            let classes = Classes::from_counts(n, known::total(n).unwrap(), rotation_fixed(n));
            assert_eq!(Some(classes.unique()), known::unique(n), "n {n}");
        }
    }
}
