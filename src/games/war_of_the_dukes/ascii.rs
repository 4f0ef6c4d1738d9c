//! The report's map: the area around a player's pieces as flat-topped CCRR
//! hexes, each drawn as its terrain symbol followed by the piece on it.
//!
//! Columns run west to east three characters apart; a column's hexes sit
//! on every other text line, and neighbouring columns are offset by one
//! line, so the honeycomb keeps its shape: north is up, the hex to the
//! upper right is the north-east neighbour. Odd-numbered columns (01, 03,
//! …) sit half a hex higher than even ones, as on the printed map. An area
//! wider than [`PANEL`] columns is drawn in several panels, west to east.

use super::map::Label;
use super::ruleset::Ruleset;

/// The widest panel, in columns (3 characters each).
pub const PANEL: u8 = 20;

/// One piece to draw: where, and its two- to four-character code.
pub struct Mark {
    pub at: Label,
    pub code: String,
}

/// Draw the hexes of columns `c0..=c1`, rows `r0..=r1` (0-based).
fn panel(rules: &Ruleset, marks: &[Mark], c0: u8, c1: u8, r0: u8, r1: u8) -> String {
    let width = 6 + 3 * (c1 - c0) as usize + 8;
    let lines = 2 * (r1 - r0 + 1) as usize;
    let mut grid: Vec<Vec<char>> = vec![vec![' '; width]; lines];
    let x0 = 4usize;
    for r in r0..=r1 {
        let line = 2 * (r - r0) as usize;
        for (i, ch) in format!("{:02}", r + 1).chars().enumerate() {
            grid[line][i] = ch;
        }
        for c in c0..=c1 {
            let l = Label { col: c, row: r };
            let Some(ix) = rules.map.ix(l) else { continue };
            let y = line + (c % 2) as usize;
            let x = x0 + 3 * (c - c0) as usize;
            let mut token = String::new();
            token.push(rules.map.cell(ix).terrain.symbol());
            if let Some(m) = marks.iter().find(|m| m.at == l) {
                token.push_str(&m.code);
            }
            for (k, ch) in token.chars().take(5).enumerate() {
                grid[y][x + k] = ch;
            }
        }
    }
    let mut head = " ".repeat(x0);
    for c in c0..=c1 {
        head.push_str(&format!("{:02} ", c + 1));
    }
    let mut out = String::new();
    out.push_str(head.trim_end());
    out.push('\n');
    for line in grid {
        let s: String = line.into_iter().collect();
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out
}

/// The area around `focus` (two hexes of margin), in panels.
pub fn area(rules: &Ruleset, marks: &[Mark], focus: &[Label]) -> String {
    let (cols, rows) = (rules.map.columns, rules.map.rows);
    let (mut c0, mut c1, mut r0, mut r1) = (cols - 1, 0u8, rows - 1, 0u8);
    for l in focus {
        c0 = c0.min(l.col);
        c1 = c1.max(l.col);
        r0 = r0.min(l.row);
        r1 = r1.max(l.row);
    }
    if focus.is_empty() {
        (c0, c1, r0, r1) = (0, cols - 1, 0, rows - 1);
    }
    let c0 = c0.saturating_sub(2);
    let r0 = r0.saturating_sub(2);
    let c1 = (c1 + 2).min(cols - 1);
    let r1 = (r1 + 2).min(rows - 1);
    let span = c1 - c0 + 1;
    let panels = span.div_ceil(PANEL);
    let per = span.div_ceil(panels);
    let mut out = String::new();
    let mut c = c0;
    while c <= c1 {
        let end = (c + per - 1).min(c1);
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&panel(rules, marks, c, end, r0, r1));
        c = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::war_of_the_dukes::map::Label;
    use crate::games::war_of_the_dukes::ruleset::Ruleset;
    use crate::games::war_of_the_dukes::WarOfTheDukes;

    #[test]
    fn the_corner_of_the_map_is_drawn_as_a_honeycomb() {
        let rules = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
        let marks = vec![Mark {
            at: Label::parse("0101").unwrap(),
            code: "I3".into(),
        }];
        let pic = panel(&rules, &marks, 0, 3, 0, 1);
        // 0101 (a city) holds I3; 0201 sits half a hex lower, a line down.
        let want = concat!(
            "    01 02 03 04\n",
            "01  #I3   #\n",
            "       #     .\n",
            "02  #     #\n",
            "       #     .\n",
        );
        assert_eq!(pic, want, "\n{pic}");
    }
}
