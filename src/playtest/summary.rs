//! `herald playtest summarize`: tables from result lines, as text, JSON and
//! an SVG plot of win rate by seat with intervals.

use super::stats::{elo, spread, wilson, Pair, Rate, Spread};
use super::Record;
use crate::board::svg::{esc, num, seat_colour, Svg, INK};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The records of one kind of game (same game, options and seat count).
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub game: String,
    pub rules: Option<String>,
    pub options: BTreeMap<String, String>,
    pub seats: usize,
    pub games: u64,
    pub unfinished: u64,
    /// Games won by some seat (not drawn, not unfinished).
    pub decisive: Rate,
    pub draws: u64,
    /// Win rate of each seat, whatever bot sat there.
    pub by_seat: Vec<Rate>,
    pub by_bot: Vec<BotLine>,
    /// Win rate of each bot in each seat.
    pub by_bot_seat: Vec<BotSeat>,
    /// Two-seat games between different bots: the first bot's results.
    pub head_to_head: Vec<HeadToHead>,
    pub length: Spread,
    pub lead_changes: Spread,
    pub margin: Spread,
    /// Bot strength on the Elo scale (Bradley–Terry), the first bot at 0.
    pub elo: Vec<(String, f64)>,
    /// How the games ended: the result's reason (the text after the
    /// winner, numbers as `#`), most frequent first.
    pub endings: Vec<(String, u64)>,
}

/// The reason part of a result line: after the first `: `, without what
/// stands in brackets (the pieces that made it so), digits as `#`.
pub fn ending(result: &str) -> String {
    let reason = result.split_once(": ").map_or(result, |(_, r)| r);
    let mut out = String::new();
    let mut last_hash = false;
    let mut depth = 0;
    for c in reason.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ => {}
        }
        if depth > 0 || c == ')' {
            continue;
        }
        if c.is_ascii_digit() {
            if !last_hash {
                out.push('#');
            }
            last_hash = true;
        } else {
            out.push(c);
            last_hash = false;
        }
    }
    out.trim_end().to_string()
}

#[derive(Debug, Clone, Serialize)]
pub struct BotLine {
    pub bot: String,
    /// Seats played (a bot in two seats of one game counts twice).
    pub played: u64,
    pub wins: Rate,
    pub draws: u64,
    pub length: Spread,
}

#[derive(Debug, Clone, Serialize)]
pub struct BotSeat {
    pub bot: String,
    pub seat: usize,
    pub wins: Rate,
}

#[derive(Debug, Clone, Serialize)]
pub struct HeadToHead {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub a_wins: Rate,
    pub b_wins: u64,
    pub draws: u64,
}

fn options_text(o: &BTreeMap<String, String>) -> String {
    if o.is_empty() {
        "default options".to_string()
    } else {
        o.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Read result lines; `name` for errors.
pub fn read(name: &str, text: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: Record = serde_json::from_str(line).map_err(|e| {
            format!(
                "{name}:{}: not a playtest result line ({e}); `herald playtest GAME --out FILE` writes them",
                i + 1
            )
        })?;
        out.push(r);
    }
    Ok(out)
}

/// Tables of the records, one per game, options and seat count. Records of
/// the same game number and seed given twice (overlapping shards) are an
/// error: they would be counted twice.
pub fn tables(records: &[Record]) -> Result<Vec<Table>, String> {
    let mut seen = BTreeMap::new();
    for r in records {
        let key = (
            r.game.clone(),
            r.rules.clone(),
            r.seed.clone(),
            r.index,
            options_text(&r.options),
        );
        if seen.insert(key, ()).is_some() {
            return Err(format!(
                "game {} of {} (seed {}) is given twice: are two shards the same?",
                r.index, r.game, r.seed
            ));
        }
    }
    let mut groups: BTreeMap<(String, Option<String>, String, usize), Vec<&Record>> =
        BTreeMap::new();
    for r in records {
        groups
            .entry((
                r.game.clone(),
                r.rules.clone(),
                options_text(&r.options),
                r.seats,
            ))
            .or_default()
            .push(r);
    }
    Ok(groups.into_values().map(|g| table(&g)).collect())
}

fn table(rs: &[&Record]) -> Table {
    let first = rs[0];
    let n = first.seats;
    let games = rs.len() as u64;
    let finished: Vec<&&Record> = rs.iter().filter(|r| r.finished).collect();
    let decisive = finished.iter().filter(|r| !r.winners.is_empty()).count() as u64;
    let draws = rs.iter().filter(|r| r.draw).count() as u64;
    let by_seat = (0..n)
        .map(|s| {
            let w = rs.iter().filter(|r| r.winners.contains(&s)).count() as u64;
            wilson(w, games)
        })
        .collect();
    // Bots in order of first appearance.
    let mut bots: Vec<String> = Vec::new();
    for r in rs {
        for b in &r.bots {
            if !bots.contains(b) {
                bots.push(b.clone());
            }
        }
    }
    let by_bot = bots
        .iter()
        .map(|b| {
            let mut played = 0;
            let mut wins = 0;
            let mut d = 0;
            let mut lengths = Vec::new();
            for r in rs {
                for (s, rb) in r.bots.iter().enumerate() {
                    if rb == b {
                        played += 1;
                        lengths.push(r.length as f64);
                        if r.winners.contains(&s) {
                            wins += 1;
                        }
                        if r.draw {
                            d += 1;
                        }
                    }
                }
            }
            BotLine {
                bot: b.clone(),
                played,
                wins: wilson(wins, played),
                draws: d,
                length: spread(&lengths),
            }
        })
        .collect();
    let mut by_bot_seat = Vec::new();
    for b in &bots {
        for s in 0..n {
            let of: Vec<&&Record> = rs.iter().filter(|r| r.bots.get(s) == Some(b)).collect();
            if of.is_empty() {
                continue;
            }
            let w = of.iter().filter(|r| r.winners.contains(&s)).count() as u64;
            by_bot_seat.push(BotSeat {
                bot: b.clone(),
                seat: s,
                wins: wilson(w, of.len() as u64),
            });
        }
    }
    let mut head_to_head = Vec::new();
    if n == 2 {
        for (i, a) in bots.iter().enumerate() {
            for b in &bots[i + 1..] {
                let mut g = 0;
                let mut aw = 0;
                let mut bw = 0;
                let mut d = 0;
                for r in rs {
                    let sa = r.bots.iter().position(|x| x == a);
                    let sb = r.bots.iter().position(|x| x == b);
                    if let (Some(sa), Some(sb)) = (sa, sb) {
                        g += 1;
                        if r.winners.contains(&sa) {
                            aw += 1;
                        } else if r.winners.contains(&sb) {
                            bw += 1;
                        } else if r.draw {
                            d += 1;
                        }
                    }
                }
                if g > 0 {
                    head_to_head.push(HeadToHead {
                        a: a.clone(),
                        b: b.clone(),
                        games: g,
                        a_wins: wilson(aw, g),
                        b_wins: bw,
                        draws: d,
                    });
                }
            }
        }
    }
    // Pairwise results for the strength fit: a winner beats every loser;
    // in a draw every two different bots draw. Two seats of one bot in
    // one game tell nothing about strength.
    let mut pairs = Vec::new();
    for r in rs.iter().filter(|r| r.finished) {
        let ix: Vec<usize> = r
            .bots
            .iter()
            .map(|b| bots.iter().position(|x| x == b).expect("listed"))
            .collect();
        for s in 0..n {
            for t in (s + 1)..n {
                if ix[s] == ix[t] {
                    continue;
                }
                let (ws, wt) = (r.winners.contains(&s), r.winners.contains(&t));
                let score = match (ws, wt) {
                    (true, false) => 1.0,
                    (false, true) => 0.0,
                    _ if r.draw => 0.5,
                    _ => continue,
                };
                pairs.push(Pair {
                    a: ix[s],
                    b: ix[t],
                    score,
                });
            }
        }
    }
    let ratings = if bots.len() > 1 && !pairs.is_empty() {
        elo(bots.len(), &pairs)
    } else {
        vec![0.0; bots.len()]
    };
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for r in rs {
        *counts.entry(ending(&r.result)).or_default() += 1;
    }
    let mut endings: Vec<(String, u64)> = counts.into_iter().collect();
    endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let lengths: Vec<f64> = rs.iter().map(|r| r.length as f64).collect();
    let leads: Vec<f64> = rs.iter().map(|r| r.lead_changes as f64).collect();
    let margins: Vec<f64> = rs.iter().map(|r| r.margin as f64).collect();
    Table {
        game: first.game.clone(),
        rules: first.rules.clone(),
        options: first.options.clone(),
        seats: n,
        games,
        unfinished: rs.iter().filter(|r| !r.finished).count() as u64,
        decisive: wilson(decisive, games),
        draws,
        by_seat,
        by_bot,
        by_bot_seat,
        head_to_head,
        length: spread(&lengths),
        lead_changes: spread(&leads),
        margin: spread(&margins),
        elo: bots.into_iter().zip(ratings).collect(),
        endings,
    }
}

fn label(t: &Table) -> String {
    match &t.rules {
        Some(r) => format!("{}, rules {r}, {}", t.game, options_text(&t.options)),
        None => format!("{} ({})", t.game, options_text(&t.options)),
    }
}

fn spread_text(s: &Spread) -> String {
    format!(
        "mean {:.1}, sd {:.1}, min {:.0}, max {:.0}",
        s.mean, s.sd, s.min, s.max
    )
}

/// The tables as text (fixed formats: the same records give the same bytes).
pub fn text(tables: &[Table]) -> String {
    let mut o = String::new();
    for t in tables {
        let _ = writeln!(
            o,
            "{}, {} seats: {} games, {} unfinished",
            label(t),
            t.seats,
            t.games,
            t.unfinished
        );
        let _ = writeln!(o, "  win rates with 95% Wilson intervals");
        let _ = writeln!(o, "  by seat:");
        for (s, r) in t.by_seat.iter().enumerate() {
            let _ = writeln!(
                o,
                "    seat {}  {}  {:>4} of {}",
                s + 1,
                r.text(),
                r.hits,
                r.of
            );
        }
        let _ = writeln!(o, "  by bot:");
        for b in &t.by_bot {
            let _ = writeln!(
                o,
                "    {:<22} {}  {:>4} of {}, {} drawn",
                b.bot,
                b.wins.text(),
                b.wins.hits,
                b.played,
                b.draws
            );
        }
        if t.by_bot_seat.len() > t.by_seat.len() {
            let _ = writeln!(o, "  by bot and seat:");
            for b in &t.by_bot_seat {
                let _ = writeln!(
                    o,
                    "    {:<22} seat {}  {}  {:>4} of {}",
                    b.bot,
                    b.seat + 1,
                    b.wins.text(),
                    b.wins.hits,
                    b.wins.of
                );
            }
        }
        for h in &t.head_to_head {
            let _ = writeln!(
                o,
                "  {} against {}: {} games, {} wins {}, {} losses, {} draws",
                h.a,
                h.b,
                h.games,
                h.a,
                h.a_wins.text(),
                h.b_wins,
                h.draws
            );
        }
        let _ = writeln!(
            o,
            "  decisive (not drawn, finished): {}; draws {}",
            t.decisive.text(),
            t.draws
        );
        let _ = writeln!(o, "  length in phases: {}", spread_text(&t.length));
        let _ = writeln!(o, "  lead changes: {}", spread_text(&t.lead_changes));
        let _ = writeln!(o, "  final score margin: {}", spread_text(&t.margin));
        let _ = writeln!(o, "  endings:");
        for (e, k) in &t.endings {
            let _ = writeln!(o, "    {k:>5}  {e}");
        }
        if t.elo.len() > 1 {
            let _ = writeln!(o, "  strength (Elo scale, Bradley-Terry fit, first bot 0):");
            let mut e = t.elo.clone();
            e.sort_by(|a, b| b.1.total_cmp(&a.1));
            for (b, r) in e {
                let _ = writeln!(o, "    {:<22} {:+7.0}", b, r);
            }
        }
        o.push('\n');
    }
    o
}

/// The tables as JSON.
pub fn json(tables: &[Table]) -> String {
    serde_json::to_string_pretty(tables).expect("tables serialise") + "\n"
}

/// Win rate by seat with 95% intervals, as an SVG bar chart: one group per
/// seat, one bar per bot that sat there (or one bar for all), whiskers for
/// the interval, a dashed line at the fair share (1 / seats).
pub fn plot(t: &Table) -> String {
    let bars: Vec<(usize, String, Rate)> = if t.by_bot.len() > 1 {
        t.by_bot_seat
            .iter()
            .map(|b| (b.seat, b.bot.clone(), b.wins))
            .collect()
    } else {
        t.by_seat
            .iter()
            .enumerate()
            .map(|(s, r)| (s, t.by_bot[0].bot.clone(), *r))
            .collect()
    };
    let bots: Vec<String> = t.by_bot.iter().map(|b| b.bot.clone()).collect();
    let per = bots.len().max(1) as f64;
    let (left, top, ph) = (70.0, 60.0, 300.0);
    let bar = 34.0;
    let gap = 30.0;
    let group = per * bar + gap;
    let width = left + t.seats as f64 * group + 40.0;
    let width = width.max(420.0);
    let height = top + ph + 90.0 + 18.0 * bots.len() as f64;
    let title = format!(
        "{}: win rate by seat, {} games, 95% Wilson intervals",
        label(t),
        t.games
    );
    let mut svg = Svg::new(width, height, &title);
    svg.text_start(
        (12.0, 22.0),
        13.0,
        INK,
        &format!("{} ({})", t.game, options_text(&t.options)),
    );
    svg.text_start(
        (12.0, 40.0),
        11.0,
        INK,
        &format!("win rate by seat, {} games, 95% Wilson intervals", t.games),
    );
    let y = |p: f64| top + ph * (1.0 - p);
    for k in 0..=4 {
        let p = k as f64 / 4.0;
        svg.line((left, y(p)), (width - 20.0, y(p)), "#c9bfa5", 1.0, "");
        svg.text((left - 26.0, y(p)), 11.0, INK, &format!("{}%", k * 25));
    }
    let fair = 1.0 / t.seats as f64;
    svg.line(
        (left, y(fair)),
        (width - 20.0, y(fair)),
        INK,
        1.5,
        r#" stroke-dasharray="6 4""#,
    );
    for s in 0..t.seats {
        let x0 = left + 15.0 + s as f64 * group;
        svg.text(
            (x0 + per * bar / 2.0, top + ph + 18.0),
            12.0,
            INK,
            &format!("seat {}", s + 1),
        );
    }
    for (s, b, r) in &bars {
        let bi = bots.iter().position(|x| x == b).unwrap_or(0);
        let x = left + 15.0 + *s as f64 * group + bi as f64 * bar;
        let colour = seat_colour(bi);
        svg.raw(&format!(
            r#"<rect class="bar" data-seat="{}" data-bot="{}" data-rate="{:.4}" data-low="{:.4}" data-high="{:.4}" x="{}" y="{}" width="{}" height="{}" fill="{colour}" fill-opacity="0.75"/>"#,
            s + 1,
            esc(b),
            r.rate,
            r.low,
            r.high,
            num(x + 3.0),
            num(y(r.rate)),
            num(bar - 6.0),
            num(ph * r.rate)
        ));
        let cx = x + bar / 2.0;
        svg.line((cx, y(r.low)), (cx, y(r.high)), INK, 1.5, "");
        svg.line((cx - 6.0, y(r.low)), (cx + 6.0, y(r.low)), INK, 1.5, "");
        svg.line((cx - 6.0, y(r.high)), (cx + 6.0, y(r.high)), INK, 1.5, "");
        svg.text(
            (cx, y(r.high) - 9.0),
            10.0,
            INK,
            &format!("{:.0}%", r.rate * 100.0),
        );
    }
    for (i, b) in bots.iter().enumerate() {
        let yy = top + ph + 40.0 + 18.0 * i as f64;
        svg.rect(left, yy - 6.0, 12.0, 12.0, seat_colour(i), "none", "");
        svg.text_start((left + 18.0, yy), 11.0, INK, b);
    }
    svg.text_start(
        (width / 2.0, top + ph + 40.0),
        11.0,
        INK,
        &format!("dashed: fair share {:.0}%", fair * 100.0),
    );
    svg.finish()
}
