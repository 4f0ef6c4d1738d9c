//! `herald playtest summarize`: tables from result lines, as text, JSON and
//! an SVG plot of win rate by seat with intervals.

use super::stats::{
    binomial_p, chi_square_equal, elo, spread, verdict, wilson, Pair, Rate, Spread, Verdict,
    BALANCE_MARGIN,
};
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
    /// Whether the games were played under today's rules.
    pub rules_check: RulesCheck,
    /// The seats' shares of the games with one winner against the fair
    /// share, tested; `None` when no game had one winner.
    pub balance: Option<Balance>,
}

/// What the records say of the ruleset they were played with, against the
/// built-in one of today.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum RulesCheck {
    /// Every game was played with today's built-in ruleset.
    Current { sha256: String },
    /// Some games were played with another ruleset text than today's:
    /// the figures may not describe the rules any more.
    Stale {
        games: u64,
        played: Vec<String>,
        today: String,
    },
    /// Some games do not record their ruleset (files written before
    /// records kept it).
    Unrecorded { games: u64 },
    /// A variant ruleset (`--rules FILE`): its text's sha256 as played.
    Variant { file: String, sha256: Vec<String> },
}

/// The seat-balance test of one table.
#[derive(Debug, Clone, Serialize)]
pub struct Balance {
    /// Games with exactly one winner (the test's sample).
    pub games: u64,
    /// 1 / seats.
    pub fair: f64,
    /// "exact binomial test" (2 seats) or "chi-square goodness of fit".
    pub test: String,
    /// The chi-square statistic and its degrees of freedom (3+ seats).
    pub chi_square: Option<(f64, u64)>,
    pub p: f64,
    /// Each seat's share of the sample with its verdict (its interval
    /// and its own exact binomial test against the fair share).
    pub seats: Vec<(Rate, Verdict)>,
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
    /// `a`'s share of the games one of the two won, against half.
    pub decided: Rate,
    /// Exact binomial test of that share against half.
    pub p: f64,
    pub verdict: Verdict,
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
                    let decided = wilson(aw, aw + bw);
                    head_to_head.push(HeadToHead {
                        a: a.clone(),
                        b: b.clone(),
                        games: g,
                        a_wins: wilson(aw, g),
                        b_wins: bw,
                        draws: d,
                        decided,
                        p: binomial_p(aw, aw + bw, 0.5),
                        verdict: verdict(&decided, 0.5, binomial_p(aw, aw + bw, 0.5)),
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
        rules_check: rules_check(rs),
        balance: balance(rs, n),
    }
}

/// The ruleset the records were played with, against today's.
fn rules_check(rs: &[&Record]) -> RulesCheck {
    let first = rs[0];
    let mut played: Vec<String> = rs.iter().filter_map(|r| r.ruleset_sha256.clone()).collect();
    played.sort();
    played.dedup();
    if let Some(file) = &first.rules {
        return RulesCheck::Variant {
            file: file.clone(),
            sha256: played,
        };
    }
    let unrecorded = rs.iter().filter(|r| r.ruleset_sha256.is_none()).count() as u64;
    let today = match crate::games::find(&first.game) {
        Some(e) => crate::chain::canon::sha256_hex(e.ruleset.as_bytes()),
        None => String::new(),
    };
    let other: Vec<String> = played.iter().filter(|h| **h != today).cloned().collect();
    if !other.is_empty() {
        let games = rs
            .iter()
            .filter(|r| r.ruleset_sha256.as_ref().is_some_and(|h| *h != today))
            .count() as u64;
        RulesCheck::Stale {
            games,
            played: other,
            today,
        }
    } else if unrecorded > 0 {
        RulesCheck::Unrecorded { games: unrecorded }
    } else {
        RulesCheck::Current { sha256: today }
    }
}

/// The seats' shares of the games with one winner, tested against equal
/// shares: exactly (binomial) for two seats, by Pearson's chi-square for
/// three or more; and each seat's Wilson interval read against the fair
/// share.
fn balance(rs: &[&Record], n: usize) -> Option<Balance> {
    let mut counts = vec![0u64; n];
    for r in rs.iter().filter(|r| r.finished && r.winners.len() == 1) {
        if let Some(c) = counts.get_mut(r.winners[0]) {
            *c += 1;
        }
    }
    let games: u64 = counts.iter().sum();
    if games == 0 || n < 2 {
        return None;
    }
    let fair = 1.0 / n as f64;
    let (test, chi_square, p) = if n == 2 {
        (
            "exact binomial test".to_string(),
            None,
            binomial_p(counts[0], games, 0.5),
        )
    } else {
        let (x, df, p) = chi_square_equal(&counts)?;
        ("chi-square goodness of fit".to_string(), Some((x, df)), p)
    };
    let seats = counts
        .iter()
        .map(|&c| {
            let r = wilson(c, games);
            (r, verdict(&r, fair, binomial_p(c, games, fair)))
        })
        .collect();
    Some(Balance {
        games,
        fair,
        test,
        chi_square,
        p,
        seats,
    })
}

/// `p = 0.0064`, `p < 0.0001`.
fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "p < 0.0001".into()
    } else {
        format!("p = {p:.4}")
    }
}

fn short(h: &str) -> &str {
    h.get(..12).unwrap_or(h)
}

fn rules_text(c: &RulesCheck) -> String {
    match c {
        RulesCheck::Current { sha256 } => {
            format!("today's built-in ruleset (sha256 {}…)", short(sha256))
        }
        RulesCheck::Stale {
            games,
            played,
            today,
        } => format!(
            "STALE: {games} games were played with ruleset sha256 {} but today's is {}…: \
             these figures may not describe today's rules; run the command that wrote the file \
             again (docs/playtest/regenerate.sh)",
            played
                .iter()
                .map(|h| format!("{}…", short(h)))
                .collect::<Vec<_>>()
                .join(", "),
            short(today)
        ),
        RulesCheck::Unrecorded { games } => format!(
            "not recorded in {games} games (a file written before results kept the ruleset's \
             sha256): run the command that wrote it again to know they describe today's rules"
        ),
        RulesCheck::Variant { file, sha256 } => format!(
            "variant {file} (sha256 {})",
            sha256
                .iter()
                .map(|h| format!("{}…", short(h)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn verdict_text(v: Verdict, r: &Rate, fair: f64) -> String {
    let pts = BALANCE_MARGIN * 100.0;
    let fair = fair * 100.0;
    let (low, high) = (r.low * 100.0, r.high * 100.0);
    match v {
        Verdict::Favoured => format!(
            "favoured: the interval is above the fair {fair:.1}% (and its own binomial test agrees)"
        ),
        Verdict::Disfavoured => format!(
            "disfavoured: the interval is below the fair {fair:.1}% (and its own binomial test agrees)"
        ),
        Verdict::Balanced => {
            format!("balanced: [{low:.1}, {high:.1}] lies within {fair:.1}% ± {pts:.0} points")
        }
        Verdict::Undecided => format!(
            "not shown either way: [{low:.1}, {high:.1}] holds {fair:.1}% but reaches past ± {pts:.0} points (more games would tell)"
        ),
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
        let _ = writeln!(o, "  rules: {}", rules_text(&t.rules_check));
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
        if let Some(b) = &t.balance {
            let stat = match b.chi_square {
                Some((x, df)) => format!("chi-square({df}) = {x:.2}, "),
                None => String::new(),
            };
            let _ = writeln!(
                o,
                "  seat balance, over the {} games with one winner (fair share {:.1}%): {}, {stat}{}: {}",
                b.games,
                b.fair * 100.0,
                b.test,
                p_text(b.p),
                if b.p < 0.05 {
                    "the seats' shares differ"
                } else {
                    "no difference between the seats shown"
                }
            );
            for (s, (r, v)) in b.seats.iter().enumerate() {
                let _ = writeln!(
                    o,
                    "    seat {}  {}  {}",
                    s + 1,
                    r.text(),
                    verdict_text(*v, r, b.fair)
                );
            }
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
            let said = match h.verdict {
                Verdict::Favoured => format!("{} is stronger than {}", h.a, h.b),
                Verdict::Disfavoured => format!("{} is stronger than {}", h.b, h.a),
                Verdict::Balanced => format!(
                    "{} and {} are even (within ± {:.0} points)",
                    h.a,
                    h.b,
                    BALANCE_MARGIN * 100.0
                ),
                Verdict::Undecided => format!("no difference shown between {} and {}", h.a, h.b),
            };
            let _ = writeln!(
                o,
                "    of the {} games one of them won, {} won {}: exact binomial test {}: {said}",
                h.decided.of,
                h.a,
                h.decided.text(),
                p_text(h.p),
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
