//! Geometry shared by games: axial hexes, directions, labels, ASCII drawing.

pub mod ascii;
pub mod hex;
pub mod picture;
pub mod raster;
pub mod svg;

pub use hex::{Dir, Hex, HexagonLabels};
