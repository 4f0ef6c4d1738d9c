//! A piece packed into one byte: type (high nibble, plus one), side (bit 3),
//! facing (bits 0–2). Zero is an empty hex.

use crate::board::Dir;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece(pub u8);

impl Piece {
    pub fn new(kind: u8, side: u8, facing: Dir) -> Piece {
        Piece(((kind + 1) << 4) | (side << 3) | facing.index() as u8)
    }
    #[inline]
    pub fn kind(self) -> u8 {
        (self.0 >> 4) - 1
    }
    #[inline]
    pub fn side(self) -> u8 {
        (self.0 >> 3) & 1
    }
    #[inline]
    pub fn facing_index(self) -> usize {
        (self.0 & 7) as usize
    }
    pub fn facing(self) -> Dir {
        Dir::ALL[self.facing_index()]
    }
    pub fn with_facing(self, f: u8) -> Piece {
        Piece((self.0 & !7) | f)
    }
}
