//! The join engine's vocabulary of geometry, which every file of it shares: the diagonals a
//! set of queens holds, and the shape of the board's split into quarters.

/// The diagonals a set of queens occupies: bit `r + c` of `anti`, bit `r - c + n - 1` of
/// `main`, in whole-board coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Diagonals {
    pub(super) anti: u64,
    pub(super) main: u64,
}

impl Diagonals {
    pub(super) fn meets(self, other: Diagonals) -> bool {
        (self.anti & other.anti) | (self.main & other.main) != 0
    }

    pub(super) fn join(self, other: Diagonals) -> Diagonals {
        Diagonals {
            anti: self.anti | other.anti,
            main: self.main | other.main,
        }
    }
}

/// The shape of the split: quarters of `h` rows and columns, the south and east ones starting
/// at `far` (`h` on even boards; `h + 1` on odd ones, past the middle row and column).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) n: u32,
    pub(super) h: u32,
    pub(super) far: u32,
}

impl Shape {
    pub(super) fn new(n: u32) -> Shape {
        let h = n / 2;
        Shape { n, h, far: n - h }
    }

    /// The number of diagonals of each direction that both halves can reach.
    pub(super) fn shared(self) -> u32 {
        self.n + self.h - 1 - self.far
    }

    /// The diagonals of a half-board that the other half can reach, as one word: the
    /// anti-diagonals `far..` in the low bits, the main diagonals `far..` above them.
    pub(super) fn pattern(self, d: Diagonals) -> u64 {
        let len = self.shared();
        let mask = (1u64 << len) - 1;
        ((d.anti >> self.far) & mask) | (((d.main >> self.far) & mask) << len)
    }
}
