//! ASCII pictures of hexagon boards for text reports.
//!
//! Each hex is a two-character token. Columns (files) run west to east, three
//! characters apart; neighbouring columns are offset by one text line, so the
//! picture keeps the flat-topped honeycomb: north is up, NE is up and right.

use super::hex::{Hex, HexagonLabels};

/// Draw a hexagon board of `radius`. `token` gives the two characters for a
/// hex on the board. File letters are printed above and below; each column's
/// rank 1 is its southernmost hex, and the ranks of the western- and
/// easternmost columns are printed at the sides.
pub fn hexagon(radius: i32, token: &dyn Fn(Hex) -> String) -> String {
    let labels = HexagonLabels { radius };
    let width = (2 * radius + 1) as usize * 3 + 8;
    let lines = (4 * radius + 1) as usize;
    let mut grid: Vec<Vec<char>> = vec![vec![' '; width]; lines];
    let x0 = 4usize;
    for h in Hex::spiral_area(radius) {
        let x = x0 + ((h.q + radius) as usize) * 3;
        let y = (2 * h.r + h.q + 2 * radius) as usize;
        let t: Vec<char> = token(h).chars().collect();
        for (i, c) in t.iter().take(2).enumerate() {
            grid[y][x + i] = *c;
        }
    }
    // ranks of the west and east columns
    for (q, left) in [(-radius, true), (radius, false)] {
        for r in -radius..=radius {
            let h = Hex::new(q, r);
            if h.length() > radius {
                continue;
            }
            let label = labels.label(h);
            let rank = &label[1..];
            let y = (2 * h.r + h.q + 2 * radius) as usize;
            if left {
                let s = format!("{:>3}", rank);
                for (i, c) in s.chars().enumerate() {
                    grid[y][i] = c;
                }
            } else {
                let x = x0 + ((2 * radius) as usize) * 3 + 3;
                for (i, c) in rank.chars().enumerate() {
                    grid[y][x + i] = c;
                }
            }
        }
    }
    let mut files = String::new();
    files.push_str(&" ".repeat(x0));
    for q in -radius..=radius {
        files.push(labels.file_letter(q));
        files.push_str("  ");
    }
    let mut out = String::new();
    out.push_str(files.trim_end());
    out.push('\n');
    for line in grid {
        let s: String = line.into_iter().collect();
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out.push_str(files.trim_end());
    out.push('\n');
    out
}
