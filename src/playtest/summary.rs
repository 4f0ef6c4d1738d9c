//! `herald playtest summarize`: tables from result lines, as text, JSON and
//! an SVG plot of win rate by seat with intervals.

pub use super::measures::ending;
use super::measures::{self, ChoiceMeasures, CoverageMeasures, Endings, EvalMeasures};
use super::stats::{
    binomial_p, chi_square_equal, chi_square_homogeneity, elo, elo_intervals, mean_difference,
    spread, verdict, wilson, Pair, Rate, Spread, Verdict, BALANCE_MARGIN,
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
    /// Each rating's 95% interval, in the order of `elo` (Wald, from the
    /// fit's information: docs/playtest/README.md); `None` where it cannot
    /// be told.
    pub elo_95: Vec<Option<(f64, f64)>>,
    /// The games the strengths are fitted on (each pair of different bots
    /// in a finished game one result).
    pub elo_results: u64,
    /// How the games ended, each ending by the winner's seat and bot.
    pub endings_by: Vec<EndingBy>,
    /// How the games ended: the result's reason (the text after the
    /// winner, numbers as `#`), most frequent first.
    pub endings: Vec<(String, u64)>,
    /// Whether the games were played under today's rules.
    pub rules_check: RulesCheck,
    /// The seats' shares of the games with one winner against the fair
    /// share, tested; `None` when no game had one winner.
    pub balance: Option<Balance>,
    /// Ludii's Balance: 1 − the widest gap between two seats' win rates.
    pub balance_index: f64,
    /// How the games ended: in play, at the rules' turn limit, unfinished.
    pub ended: Endings,
    /// Measures on the evaluations (`--evals`), if the records carry them.
    pub evals: Option<EvalMeasures>,
    /// Measures on the choice counts (`--choices`), if the records carry them.
    pub choices: Option<ChoiceMeasures>,
    /// Ludii's Board Coverage Default (`--coverage`), if the records carry
    /// it (absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<CoverageMeasures>,
    /// Each game's length and how it ended (0 won in play, 1 won at the
    /// turn limit, 2 drawn, 3 unfinished), for the length plot.
    #[serde(skip)]
    pub lengths: Vec<(u32, u8)>,
    /// The seats' evaluations by phase, for the evaluation plot.
    #[serde(skip)]
    pub evals_by_phase: Vec<measures::PhaseEvals>,
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

/// One way games ended, counted by who won it: each seat's wins this way
/// (from seat 1), each bot's (in the order bots first appear).
#[derive(Debug, Clone, Serialize)]
pub struct EndingBy {
    pub ending: String,
    pub games: u64,
    pub by_seat: Vec<u64>,
    pub by_bot: Vec<(String, u64)>,
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
    let bots = bots_in_order(rs);
    let pairs = results(rs, &bots, n);
    let ratings = strength(&pairs, bots.len());
    let elo_95 = elo_intervals(bots.len(), &pairs, &ratings);
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
        by_bot: by_bot(rs, &bots),
        by_bot_seat: by_bot_seat(rs, &bots, n),
        head_to_head: if n == 2 {
            head_to_head(rs, &bots)
        } else {
            Vec::new()
        },
        length: spread(&lengths),
        lead_changes: spread(&leads),
        margin: spread(&margins),
        elo_95,
        elo_results: pairs.len() as u64,
        endings_by: endings_by(rs, &bots, n),
        elo: bots.into_iter().zip(ratings).collect(),
        endings: endings(rs),
        rules_check: rules_check(rs),
        balance: balance(rs, n),
        balance_index: measures::balance_index(rs, n),
        ended: measures::endings(rs),
        evals: measures::eval_measures(rs),
        choices: measures::choice_measures(rs),
        coverage: measures::coverage_measures(rs),
        lengths: length_classes(rs),
        evals_by_phase: measures::evals_by_phase(rs, n),
    }
}

/// The bots of the records, in order of first appearance.
fn bots_in_order(rs: &[&Record]) -> Vec<String> {
    let mut bots: Vec<String> = Vec::new();
    for r in rs {
        for b in &r.bots {
            if !bots.contains(b) {
                bots.push(b.clone());
            }
        }
    }
    bots
}

/// Each bot's results over every seat it played.
fn by_bot(rs: &[&Record], bots: &[String]) -> Vec<BotLine> {
    bots.iter()
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
        .collect()
}

/// Each bot's win rate in each seat it sat in.
fn by_bot_seat(rs: &[&Record], bots: &[String], n: usize) -> Vec<BotSeat> {
    let mut by_bot_seat = Vec::new();
    for b in bots {
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
    by_bot_seat
}

/// Every two different bots' games against each other (two-seat games).
fn head_to_head(rs: &[&Record], bots: &[String]) -> Vec<HeadToHead> {
    let mut head_to_head = Vec::new();
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
                    verdict: verdict(&decided, 0.5, binomial_p(aw, aw + bw, 0.5), 1),
                });
            }
        }
    }
    head_to_head
}

/// The pairwise results the strength fit is made on: a winner beats every
/// loser; in a draw every two different bots draw. Two seats of one bot
/// in one game tell nothing about strength.
fn results(rs: &[&Record], bots: &[String], n: usize) -> Vec<Pair> {
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
    pairs
}

/// The bots' strengths on the Elo scale, in the order the bots are
/// numbered in `pairs`.
fn strength(pairs: &[Pair], bots: usize) -> Vec<f64> {
    if bots > 1 && !pairs.is_empty() {
        elo(bots, pairs)
    } else {
        vec![0.0; bots]
    }
}

/// Each ending with the winners' seats and bots (a game with several
/// winners counts for each).
fn endings_by(rs: &[&Record], bots: &[String], n: usize) -> Vec<EndingBy> {
    let mut by: BTreeMap<String, EndingBy> = BTreeMap::new();
    for r in rs {
        let e = ending(&r.result);
        let line = by.entry(e.clone()).or_insert_with(|| EndingBy {
            ending: e,
            games: 0,
            by_seat: vec![0; n],
            by_bot: bots.iter().map(|b| (b.clone(), 0)).collect(),
        });
        line.games += 1;
        for &w in &r.winners {
            if let Some(s) = line.by_seat.get_mut(w) {
                *s += 1;
            }
            if let Some(b) = r.bots.get(w) {
                if let Some(x) = line.by_bot.iter_mut().find(|(x, _)| x == b) {
                    x.1 += 1;
                }
            }
        }
    }
    let mut out: Vec<EndingBy> = by.into_values().collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then(a.ending.cmp(&b.ending)));
    out
}

/// The games' endings (the result's reason), most frequent first.
fn endings(rs: &[&Record]) -> Vec<(String, u64)> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for r in rs {
        *counts.entry(ending(&r.result)).or_default() += 1;
    }
    let mut endings: Vec<(String, u64)> = counts.into_iter().collect();
    endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    endings
}

/// Each game's length and how it ended, as [`Table::lengths`] holds them.
fn length_classes(rs: &[&Record]) -> Vec<(u32, u8)> {
    rs.iter()
        .map(|r| {
            let class = if !r.finished {
                3
            } else if r.winners.is_empty() {
                2
            } else if measures::at_turn_limit(&r.game, &r.result) {
                1
            } else {
                0
            };
            (r.length, class)
        })
        .collect()
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
    // With two seats the two tests are one (the shares add up to all);
    // with more, each seat's test is one of n read together.
    let tests = if n == 2 { 1 } else { n };
    let seats = counts
        .iter()
        .map(|&c| {
            let r = wilson(c, games);
            (r, verdict(&r, fair, binomial_p(c, games, fair), tests))
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

fn verdict_text(v: Verdict, r: &Rate, fair: f64, seats: usize) -> String {
    let pts = BALANCE_MARGIN * 100.0;
    let fair = fair * 100.0;
    let (low, high) = (r.low * 100.0, r.high * 100.0);
    // What the binomial test was read against: 5%, or 5% shared among the
    // seats of a table of three or more (stats::verdict).
    let agrees = if seats > 2 {
        format!(
            "and its own binomial test agrees at 5% shared among {seats} seats, p < {:.4}",
            0.05 / seats as f64
        )
    } else {
        "and its own binomial test agrees".to_string()
    };
    match v {
        Verdict::Favoured => {
            format!("favoured: the interval is above the fair {fair:.1}% ({agrees})")
        }
        Verdict::Disfavoured => {
            format!("disfavoured: the interval is below the fair {fair:.1}% ({agrees})")
        }
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

/// How the games ended, Ludii's Completion and Balance.
fn ended_text(o: &mut String, t: &Table) {
    let e = &t.ended;
    let _ = writeln!(o, "  how the games ended:");
    for (what, r) in [
        ("won in play", &e.won_in_play),
        ("won at the rules' turn limit", &e.won_at_limit),
        ("drawn at the rules' turn limit", &e.drawn_at_limit),
        ("drawn in play", &e.drawn_in_play),
        ("unfinished at --max-phases", &e.unfinished),
    ] {
        if r.hits > 0 {
            let _ = writeln!(o, "    {what:<31} {}  {:>4} of {}", r.text(), r.hits, r.of);
        }
    }
    let _ = writeln!(
        o,
        "  completion (Ludii: games with a winner): {}; balance index (Ludii: 1 - widest gap between seats' win rates): {:.3}",
        e.completion.text(),
        t.balance_index
    );
}

fn evals_text(o: &mut String, e: &EvalMeasures) {
    let _ = writeln!(
        o,
        "  on the evaluations ({} games carry them; evaluation units: 0 even, about 1000 decided):",
        e.games
    );
    let _ = writeln!(
        o,
        "    lead changes: {}; per phase (Ludii Lead Change) {:.3}",
        spread_text(&e.lead_changes),
        e.lead_change
    );
    if e.decided == 0 {
        let _ = writeln!(o, "    no game with a winner: no decisiveness or drama");
        return;
    }
    let _ = writeln!(
        o,
        "    over the {} games with a winner: decisiveness threshold (Ludii: best evaluation of a seat that did not win): {}",
        e.decided,
        spread_text(&e.threshold)
    );
    let _ = writeln!(
        o,
        "    decisive after phase: {}; as a share of the game (Ludii Decisiveness Moves) {:.3}",
        spread_text(&e.decisive_phase),
        e.decisiveness.mean
    );
    let _ = writeln!(
        o,
        "    drama (Ludii Drama Average: the winner's mean deficit below the best evaluation): mean {:.1}, sd {:.1}, max {:.1}; phases the winner was behind {:.1}%",
        e.drama.mean,
        e.drama.sd,
        e.drama.max,
        e.behind.mean * 100.0
    );
}

fn choices_text(o: &mut String, c: &ChoiceMeasures) {
    let _ = writeln!(
        o,
        "  choices ({} decisions in {} games): the bots chose among {}",
        c.decisions, c.games, c.what
    );
    if c.exact {
        let _ = writeln!(
            o,
            "    branching factor (Ludii Branching Factor Average, Max): {:.1}, {:.0}; decisions with a choice (Ludii Decision Moves) {:.1}%",
            c.per_game.mean,
            c.per_decision.max,
            c.decision_moves.mean * 100.0
        );
    } else {
        let _ = writeln!(
            o,
            "    branching factor: cannot be counted in this game; the sample held {:.1} order sets on average (max {:.0})",
            c.per_game.mean, c.per_decision.max
        );
    }
    let _ = writeln!(o, "    by phase:");
    for (a, b, s) in &c.by_phase {
        let range = if a == b {
            format!("{a}")
        } else {
            format!("{a}-{b}")
        };
        let _ = writeln!(
            o,
            "      {range:>9}  mean {:>7.1}, min {:>4.0}, max {:>5.0}  over {} decisions",
            s.mean, s.min, s.max, s.n
        );
    }
}

/// The board's sites: `61`, or `41 to 81` where boards differed.
fn sites_text(s: &Spread) -> String {
    if s.min == s.max {
        format!("{:.0}", s.min)
    } else {
        format!("{:.0} to {:.0}", s.min, s.max)
    }
}

fn coverage_text(o: &mut String, c: &CoverageMeasures) {
    let _ = writeln!(
        o,
        "  board coverage (Ludii Board Coverage Default: the share of the board's {} sites that held a piece at some point, the start included; {} games):",
        sites_text(&c.sites),
        c.games
    );
    let _ = writeln!(
        o,
        "    mean {:.1}% [{:.1}, {:.1}] (95%), sd {:.1}, min {:.1}%, max {:.1}%; sites held: {}",
        c.share.mean * 100.0,
        c.share_interval.0 * 100.0,
        c.share_interval.1 * 100.0,
        c.share.sd * 100.0,
        c.share.min * 100.0,
        c.share.max * 100.0,
        spread_text(&c.covered)
    );
}

/// The tables as text (fixed formats: the same records give the same bytes).
pub fn text(tables: &[Table]) -> String {
    let mut o = String::new();
    for t in tables {
        table_text(&mut o, t);
        o.push('\n');
    }
    o
}

/// One table as text.
fn table_text(o: &mut String, t: &Table) {
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
        balance_text(o, b);
    }
    bots_text(o, t);
    for h in &t.head_to_head {
        head_to_head_text(o, h);
    }
    ended_text(o, t);
    let _ = writeln!(o, "  length in phases: {}", spread_text(&t.length));
    let _ = writeln!(
        o,
        "  lead changes on the score: {}",
        spread_text(&t.lead_changes)
    );
    let _ = writeln!(o, "  final score margin: {}", spread_text(&t.margin));
    if let Some(e) = &t.evals {
        evals_text(o, e);
    }
    if let Some(c) = &t.choices {
        choices_text(o, c);
    }
    if let Some(c) = &t.coverage {
        coverage_text(o, c);
    }
    endings_text(o, t);
    strength_text(o, t);
}

/// How the games ended, each ending with the seats that won it that way
/// and, where more than one bot played, the bots.
fn endings_text(o: &mut String, t: &Table) {
    let _ = writeln!(o, "  endings (won that way by seat; by bot):");
    for e in &t.endings_by {
        let seats: Vec<String> = e
            .by_seat
            .iter()
            .enumerate()
            .map(|(s, k)| format!("seat {} {k}", s + 1))
            .collect();
        let mut line = format!("    {:>5}  {}", e.games, e.ending);
        if e.by_seat.iter().any(|&k| k > 0) {
            let _ = write!(line, "  [{}", seats.join(", "));
            if e.by_bot.len() > 1 {
                let bots: Vec<String> = e.by_bot.iter().map(|(b, k)| format!("{b} {k}")).collect();
                let _ = write!(line, "; {}", bots.join(", "));
            }
            line.push(']');
        }
        let _ = writeln!(o, "{line}");
    }
}

/// The bots' strengths with their 95% intervals and the method.
fn strength_text(o: &mut String, t: &Table) {
    if t.elo.len() < 2 {
        return;
    }
    let _ = writeln!(
        o,
        "  strength (Elo scale: Bradley-Terry fit with one virtual draw a pair, first bot 0; 95% Wald interval from the fit's information; {} results):",
        t.elo_results
    );
    let mut e: Vec<(&(String, f64), &Option<(f64, f64)>)> = t.elo.iter().zip(&t.elo_95).collect();
    e.sort_by(|a, b| b.0 .1.total_cmp(&a.0 .1));
    for ((b, r), ci) in e {
        let ci = match ci {
            Some((lo, hi)) if lo == hi => "(the reference)".to_string(),
            Some((lo, hi)) => format!("(95%: {lo:+.0} to {hi:+.0})"),
            None => "(interval: too few results)".to_string(),
        };
        let _ = writeln!(o, "    {:<22} {:+7.0}  {ci}", b, r);
    }
}

/// Each bot's results, and by seat where bots changed seats.
fn bots_text(o: &mut String, t: &Table) {
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
}

/// The seat-balance test's lines.
fn balance_text(o: &mut String, b: &Balance) {
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
            verdict_text(*v, r, b.fair, b.seats.len())
        );
    }
}

/// Two bots' games against each other.
fn head_to_head_text(o: &mut String, h: &HeadToHead) {
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
    let chart = RateChart {
        left,
        top,
        ph,
        width,
    };
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
    let fair = 1.0 / t.seats as f64;
    chart.grid(&mut svg, fair);
    chart.seat_labels(&mut svg, t.seats, group, per * bar);
    for (s, b, r) in &bars {
        let bi = bots.iter().position(|x| x == b).unwrap_or(0);
        let x = left + 15.0 + *s as f64 * group + bi as f64 * bar;
        let data = format!(r#"data-seat="{}" data-bot="{}""#, s + 1, esc(b));
        chart.bar(&mut svg, x, bar, r, &data, seat_colour(bi));
    }
    chart.legend(&mut svg, 40.0, &bots, fair);
    svg.finish()
}

/// Where a win-rate chart ([`plot`], [`plot_against`]) draws: the plot
/// area's left edge, top and height, and the picture's width.
#[derive(Clone, Copy)]
struct RateChart {
    left: f64,
    top: f64,
    ph: f64,
    width: f64,
}

impl RateChart {
    /// The height of a win rate `p`.
    fn y(&self, p: f64) -> f64 {
        self.top + self.ph * (1.0 - p)
    }

    /// Grid lines at every quarter, labelled, and the fair share dashed.
    fn grid(&self, svg: &mut Svg, fair: f64) {
        let (left, width) = (self.left, self.width);
        for k in 0..=4 {
            let p = k as f64 / 4.0;
            svg.line(
                (left, self.y(p)),
                (width - 20.0, self.y(p)),
                "#c9bfa5",
                1.0,
                "",
            );
            svg.text((left - 26.0, self.y(p)), 11.0, INK, &format!("{}%", k * 25));
        }
        svg.line(
            (left, self.y(fair)),
            (width - 20.0, self.y(fair)),
            INK,
            1.5,
            r#" stroke-dasharray="6 4""#,
        );
    }

    /// "seat N" under each seat's group of bars, `span` wide.
    fn seat_labels(&self, svg: &mut Svg, seats: usize, group: f64, span: f64) {
        for s in 0..seats {
            let x0 = self.left + 15.0 + s as f64 * group;
            svg.text(
                (x0 + span / 2.0, self.top + self.ph + 18.0),
                12.0,
                INK,
                &format!("seat {}", s + 1),
            );
        }
    }

    /// One win rate's bar at `x`, its interval's whiskers and its rate
    /// above; `data` the bar's own data attributes.
    fn bar(&self, svg: &mut Svg, x: f64, bar: f64, r: &Rate, data: &str, colour: &str) {
        let y = |p: f64| self.y(p);
        let ph = self.ph;
        svg.raw(&format!(
            r#"<rect class="bar" {data} data-rate="{:.4}" data-low="{:.4}" data-high="{:.4}" x="{}" y="{}" width="{}" height="{}" fill="{colour}" fill-opacity="0.75"/>"#,
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

    /// A swatch and name a line from `below` under the plot area, in the
    /// colours of the bars, and the fair share's dashed line named.
    fn legend(&self, svg: &mut Svg, below: f64, names: &[String], fair: f64) {
        let (left, top, ph) = (self.left, self.top, self.ph);
        for (i, name) in names.iter().enumerate() {
            let yy = top + ph + below + 18.0 * i as f64;
            svg.rect(left, yy - 6.0, 12.0, 12.0, seat_colour(i), "none", "");
            svg.text_start((left + 18.0, yy), 11.0, INK, name);
        }
        svg.text_start(
            (self.width / 2.0, top + ph + below),
            11.0,
            INK,
            &format!("dashed: fair share {:.0}%", fair * 100.0),
        );
    }
}

/// What tells tables apart, for a message: each one's label, and which of
/// game, rules, options and seat count differ.
pub fn differences(tables: &[Table]) -> String {
    let mut differ = Vec::new();
    let all_same = |f: &dyn Fn(&Table) -> String| tables.iter().all(|t| f(t) == f(&tables[0]));
    if !all_same(&|t| t.game.clone()) {
        differ.push("game");
    }
    if !all_same(&|t| t.rules.clone().unwrap_or_else(|| "built-in".into())) {
        differ.push("rules");
    }
    if !all_same(&|t| options_text(&t.options)) {
        differ.push("options");
    }
    if !all_same(&|t| t.seats.to_string()) {
        differ.push("seat count");
    }
    let labels: Vec<String> = tables
        .iter()
        .map(|t| format!("{}, {} seats", label(t), t.seats))
        .collect();
    format!(
        "{} (they differ in their {})",
        labels.join("; "),
        if differ.is_empty() {
            "nothing".to_string()
        } else {
            differ.join(" and ")
        }
    )
}

/// Two tables side by side: a variant's games (`a`) against another set,
/// the standard rules' say (`b`).
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: Table,
    pub b: Table,
    /// Pearson's chi-square test that the seats' shares of the games with
    /// one winner are the same under both: (statistic, df, p).
    pub seat_shares: Option<(f64, u64, f64)>,
    /// Mean length of `a` minus `b`, with its 95% interval.
    pub length_difference: (f64, f64, f64),
}

/// `a` against `b`: refused when they are not games of one game with one
/// seat count (their figures would not line up).
// A String error: the lab's refusal to the designer, printed as is by `herald playtest`.
pub fn compare(a: &Table, b: &Table) -> Result<Comparison, String> {
    if a.game != b.game || a.seats != b.seats {
        return Err(format!(
            "--against compares games of one game with one seat count: {}",
            differences(&[a.clone(), b.clone()])
        ));
    }
    let shares = |t: &Table| -> Vec<u64> {
        t.balance
            .as_ref()
            .map(|b| b.seats.iter().map(|(r, _)| r.hits).collect())
            .unwrap_or_else(|| vec![0; t.seats])
    };
    Ok(Comparison {
        a: a.clone(),
        b: b.clone(),
        seat_shares: chi_square_homogeneity(&shares(a), &shares(b)),
        length_difference: mean_difference(&a.length, &b.length),
    })
}

/// The comparison as text: one row per measure, the two sides in columns.
// Long: one row a measure, in the order a designer reads them.
pub fn compare_text(c: &Comparison) -> String {
    let (a, b) = (&c.a, &c.b);
    let mut o = String::new();
    let _ = writeln!(o, "A: {}, {} seats: {} games", label(a), a.seats, a.games);
    let _ = writeln!(o, "   rules: {}", rules_text(&a.rules_check));
    let _ = writeln!(o, "B: {}, {} seats: {} games", label(b), b.seats, b.games);
    let _ = writeln!(o, "   rules: {}", rules_text(&b.rules_check));
    let row = |o: &mut String, what: &str, x: String, y: String| {
        let _ = writeln!(o, "  {what:<34} {x:<40} {y}");
    };
    row(&mut o, "", "A".into(), "B".into());
    let one = |t: &Table, s: usize| {
        t.by_seat.get(s).map_or("-".to_string(), |r| {
            format!("{}  {:>4} of {}", r.text(), r.hits, r.of)
        })
    };
    for s in 0..a.seats {
        row(
            &mut o,
            &format!("seat {} wins", s + 1),
            one(a, s),
            one(b, s),
        );
    }
    match c.seat_shares {
        Some((x, df, p)) => {
            let _ = writeln!(
                o,
                "  the seats' shares of the games with one winner, A against B: chi-square test of homogeneity, chi-square({df}) = {x:.2}, {}: {}",
                p_text(p),
                if p < 0.05 {
                    "they differ"
                } else {
                    "no difference shown"
                }
            );
        }
        None => {
            let _ = writeln!(
                o,
                "  the seats' shares of the games with one winner, A against B: too few to test"
            );
        }
    }
    row(
        &mut o,
        "balance index (Ludii)",
        format!("{:.3}", a.balance_index),
        format!("{:.3}", b.balance_index),
    );
    for (what, f) in [
        (
            "completion (Ludii)",
            (|e: &Endings| e.completion) as fn(&Endings) -> Rate,
        ),
        ("won in play", |e: &Endings| e.won_in_play),
        ("won at the rules' turn limit", |e: &Endings| e.won_at_limit),
        ("drawn at the rules' turn limit", |e: &Endings| {
            e.drawn_at_limit
        }),
        ("drawn in play", |e: &Endings| e.drawn_in_play),
        ("unfinished at --max-phases", |e: &Endings| e.unfinished),
    ] {
        let (x, y) = (f(&a.ended), f(&b.ended));
        if x.hits + y.hits > 0 || what.starts_with("completion") {
            row(&mut o, what, x.text(), y.text());
        }
    }
    let ms = |s: &Spread| format!("mean {:.1}, sd {:.1}", s.mean, s.sd);
    row(&mut o, "length in phases", ms(&a.length), ms(&b.length));
    let (d, lo, hi) = c.length_difference;
    let _ = writeln!(
        o,
        "  length, A - B: {d:+.1} phases [{lo:+.1}, {hi:+.1}] (95%): {}",
        if lo > 0.0 {
            "A's games are longer"
        } else if hi < 0.0 {
            "A's games are shorter"
        } else {
            "no difference shown"
        }
    );
    row(
        &mut o,
        "lead changes on the score",
        ms(&a.lead_changes),
        ms(&b.lead_changes),
    );
    row(&mut o, "final score margin", ms(&a.margin), ms(&b.margin));
    if let (Some(x), Some(y)) = (&a.evals, &b.evals) {
        row(
            &mut o,
            "lead changes on the evaluation",
            ms(&x.lead_changes),
            ms(&y.lead_changes),
        );
        row(
            &mut o,
            "decisiveness (Ludii, share)",
            format!("{:.3}", x.decisiveness.mean),
            format!("{:.3}", y.decisiveness.mean),
        );
        row(
            &mut o,
            "decisive after phase",
            ms(&x.decisive_phase),
            ms(&y.decisive_phase),
        );
        row(
            &mut o,
            "drama (Ludii Drama Average)",
            format!("{:.1}", x.drama.mean),
            format!("{:.1}", y.drama.mean),
        );
    }
    if let (Some(x), Some(y)) = (&a.choices, &b.choices) {
        row(
            &mut o,
            if x.exact {
                "branching factor (Ludii)"
            } else {
                "order sets in the bots' sample"
            },
            format!("{:.1}", x.per_game.mean),
            format!("{:.1}", y.per_game.mean),
        );
    }
    if let (Some(x), Some(y)) = (&a.coverage, &b.coverage) {
        coverage_rows(&mut o, x, y);
    }
    let mut endings: Vec<(String, u64, u64)> = Vec::new();
    for (side, t) in [a, b].into_iter().enumerate() {
        for (e, k) in &t.endings {
            let i = match endings.iter().position(|x| x.0 == *e) {
                Some(i) => i,
                None => {
                    endings.push((e.clone(), 0, 0));
                    endings.len() - 1
                }
            };
            if side == 0 {
                endings[i].1 = *k;
            } else {
                endings[i].2 = *k;
            }
        }
    }
    endings.sort_by(|x, y| (y.1 + y.2).cmp(&(x.1 + x.2)).then(x.0.cmp(&y.0)));
    let _ = writeln!(o, "  endings (games):");
    for (e, x, y) in &endings {
        let _ = writeln!(o, "    {x:>5}  {y:>5}  {e}");
    }
    let bots: Vec<&String> = a.by_bot.iter().map(|l| &l.bot).collect();
    for bot in bots {
        if let Some(y) = b.by_bot.iter().find(|l| l.bot == *bot) {
            let x = a.by_bot.iter().find(|l| l.bot == *bot).expect("listed");
            row(
                &mut o,
                &format!("{bot} win rate"),
                x.wins.text(),
                y.wins.text(),
            );
        }
    }
    o
}

/// Board coverage of A and B, and the difference of the means with its
/// 95% interval (Welch).
fn coverage_rows(o: &mut String, x: &CoverageMeasures, y: &CoverageMeasures) {
    let pc = |c: &CoverageMeasures| {
        format!(
            "mean {:.1}% [{:.1}, {:.1}] of {}",
            c.share.mean * 100.0,
            c.share_interval.0 * 100.0,
            c.share_interval.1 * 100.0,
            sites_text(&c.sites)
        )
    };
    let _ = writeln!(
        o,
        "  {:<34} {:<40} {}",
        "board coverage (Ludii)",
        pc(x),
        pc(y)
    );
    let (d, lo, hi) = mean_difference(&x.share, &y.share);
    let _ = writeln!(
        o,
        "  board coverage, A - B: {:+.1} points [{:+.1}, {:+.1}] (95%): {}",
        d * 100.0,
        lo * 100.0,
        hi * 100.0,
        if lo > 0.0 {
            "A's games cover more of the board"
        } else if hi < 0.0 {
            "A's games cover less of the board"
        } else {
            "no difference shown"
        }
    );
}

/// Win rate by seat of two sets of games, side by side: A's bar and B's
/// in each seat's group, whiskers for the 95% intervals, the fair share
/// dashed.
pub fn plot_against(a: &Table, b: &Table) -> String {
    let (left, top, ph) = (70.0, 60.0, 300.0);
    let (bar, gap) = (34.0, 30.0);
    let group = 2.0 * bar + gap;
    let width = (left + a.seats as f64 * group + 40.0).max(680.0);
    let height = top + ph + 110.0;
    let chart = RateChart {
        left,
        top,
        ph,
        width,
    };
    let title = format!(
        "{} against {}: win rate by seat, 95% Wilson intervals",
        label(a),
        label(b)
    );
    let mut svg = Svg::new(width, height, &title);
    svg.text_start((12.0, 22.0), 13.0, INK, &format!("A: {}", label(a)));
    svg.text_start((12.0, 40.0), 13.0, INK, &format!("B: {}", label(b)));
    let fair = 1.0 / a.seats as f64;
    chart.grid(&mut svg, fair);
    for (side, t) in [a, b].into_iter().enumerate() {
        for (s, r) in t.by_seat.iter().enumerate() {
            let x = left + 15.0 + s as f64 * group + side as f64 * bar;
            let data = format!(
                r#"data-side="{}" data-seat="{}""#,
                if side == 0 { "A" } else { "B" },
                s + 1
            );
            chart.bar(&mut svg, x, bar, r, &data, seat_colour(side));
        }
    }
    chart.seat_labels(&mut svg, a.seats, group, 2.0 * bar);
    let names = [
        format!("A: {} games", a.games),
        format!("B: {} games", b.games),
    ];
    chart.legend(&mut svg, 44.0, &names, fair);
    svg.finish()
}

/// How the games ended, by class of [`Table::lengths`]: name and colour.
const ENDED: [(&str, &str); 4] = [
    ("won in play", "#3b6ea5"),
    ("won at the rules' turn limit", "#d08c2a"),
    ("drawn", "#8a8a8a"),
    ("unfinished at --max-phases", "#a33b3b"),
];

/// Game length as a histogram, each bar stacked by how the games ended;
/// two tables (--against) side by side in each bin.
pub fn plot_length(ts: &[&Table]) -> String {
    let (width_of_bin, bins, counts) = length_bins(ts);
    let most = counts
        .iter()
        .zip(ts)
        .flat_map(|(c, t)| {
            c.iter()
                .map(move |b| b.iter().sum::<u64>() as f64 / t.games.max(1) as f64)
        })
        .fold(0.0f64, f64::max)
        .max(0.01);
    // Four grid steps of 1, 2, 5 or 10 … points.
    let step = nice_step(most / 4.0);
    let top_share = step * (most / step).ceil().max(1.0);
    let (left, top, ph, pw) = (70.0, 84.0, 300.0, 640.0);
    let width = left + pw + 30.0;
    let height = top + ph + 70.0 + 18.0 * 4.0;
    let names: Vec<String> = ts.iter().map(|t| label(t)).collect();
    let title = format!(
        "{}: game length in phases, by how the games ended",
        names.join(" against ")
    );
    let mut svg = Svg::new(width, height, &title);
    for (i, t) in ts.iter().enumerate() {
        let side = if ts.len() > 1 {
            format!("{}: ", if i == 0 { "A" } else { "B" })
        } else {
            String::new()
        };
        svg.text_start(
            (12.0, 22.0 + 16.0 * i as f64),
            12.0,
            INK,
            &format!("{side}{}, {} games", label(t), t.games),
        );
    }
    let y = |share: f64| top + ph * (1.0 - share / top_share);
    let lines = (top_share / step).round() as u32;
    for k in 0..=lines {
        let share = step * k as f64;
        svg.line((left, y(share)), (left + pw, y(share)), "#c9bfa5", 1.0, "");
        let pct = share * 100.0;
        let text = if (pct - pct.round()).abs() < 1e-9 {
            format!("{pct:.0}%")
        } else {
            format!("{pct:.1}%")
        };
        svg.text((left - 28.0, y(share)), 11.0, INK, &text);
    }
    let bw = pw / bins as f64;
    let sub = bw / ts.len() as f64;
    for (i, c) in counts.iter().enumerate() {
        let games = ts[i].games.max(1) as f64;
        for (b, classes) in c.iter().enumerate() {
            let x = left + b as f64 * bw + i as f64 * sub;
            let from = b as u32 * width_of_bin;
            let span = (from, (b as u32 + 1) * width_of_bin - 1);
            length_bar(&mut svg, (i, span, x, sub), classes, games, &y);
        }
    }
    svg.text_start((12.0, top - 16.0), 11.0, INK, "share of the games");
    length_legend(
        &mut svg,
        (left, top, ph, pw),
        bins,
        width_of_bin,
        ts.len() > 1,
    );
    svg.finish()
}

/// The length histogram's bins: their width in phases, their number, and
/// `counts[table][bin][class]`, the games of each table in each bin by
/// how they ended.
fn length_bins(ts: &[&Table]) -> (u32, u32, Vec<Vec<[u64; 4]>>) {
    let longest = ts
        .iter()
        .flat_map(|t| t.lengths.iter().map(|l| l.0))
        .max()
        .unwrap_or(0)
        .max(1);
    let bins = 20u32.min(longest);
    let width_of_bin = longest.div_ceil(bins);
    let bins = longest.div_ceil(width_of_bin) + u32::from(longest % width_of_bin == 0);
    let counts: Vec<Vec<[u64; 4]>> = ts
        .iter()
        .map(|t| {
            let mut c = vec![[0u64; 4]; bins as usize];
            for &(len, class) in &t.lengths {
                c[(len / width_of_bin) as usize][class as usize] += 1;
            }
            c
        })
        .collect();
    (width_of_bin, bins, counts)
}

/// The length histogram's phases under its bins, and what its colours
/// say.
fn length_legend(
    svg: &mut Svg,
    (left, top, ph, pw): (f64, f64, f64, f64),
    bins: u32,
    width_of_bin: u32,
    against: bool,
) {
    let bw = pw / bins as f64;
    for k in 0..=4 {
        let b = (bins * k).div_ceil(4);
        let x = left + b as f64 * bw;
        svg.text(
            (x, top + ph + 16.0),
            11.0,
            INK,
            &format!("{}", b * width_of_bin),
        );
    }
    svg.text(
        (left + pw / 2.0, top + ph + 34.0),
        11.0,
        INK,
        &format!(
            "phases (bins of {width_of_bin}){}",
            if against {
                "; in each bin A's bar, then B's (paler)"
            } else {
                ""
            }
        ),
    );
    for (k, (name, colour)) in ENDED.iter().enumerate() {
        let yy = top + ph + 56.0 + 18.0 * k as f64;
        svg.rect(left, yy - 6.0, 12.0, 12.0, colour, "none", "");
        svg.text_start((left + 18.0, yy), 11.0, INK, name);
    }
}

/// One table's bar in one bin of the length histogram, stacked by how
/// the games ended, as shares of its `games`: `i` the table, `span` the
/// bin's first and last phase, `x` and `sub` where the bar stands and
/// how wide its place is.
fn length_bar(
    svg: &mut Svg,
    (i, span, x, sub): (usize, (u32, u32), f64, f64),
    classes: &[u64; 4],
    games: f64,
    y: &dyn Fn(f64) -> f64,
) {
    let mut base = 0.0;
    for (k, &n) in classes.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let share = n as f64 / games;
        svg.raw(&format!(
            r#"<rect class="bin" data-table="{i}" data-from="{}" data-to="{}" data-ended="{}" data-games="{n}" x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="{}"/>"#,
            span.0,
            span.1,
            ENDED[k].0,
            num(x + 1.0),
            num(y(base + share)),
            num((sub - 2.0).max(1.0)),
            num(y(base) - y(base + share)),
            ENDED[k].1,
            if i == 0 { "0.85" } else { "0.45" }
        ));
        base += share;
    }
}

/// Each seat's evaluation over the game: the mean over the games still
/// running at each phase, with the band between the quartiles; two
/// tables (--against) as solid and dashed lines. Refused when the records
/// carry no evaluations.
// A String error: the lab's refusal to the designer, printed as is by `herald playtest`.
pub fn plot_evals(ts: &[&Table]) -> Result<String, String> {
    if let Some(t) = ts.iter().find(|t| t.evals_by_phase.is_empty()) {
        return Err(format!(
            "{}: the result lines carry no evaluations; play them with `--evals`",
            label(t)
        ));
    }
    let longest = ts
        .iter()
        .map(|t| t.evals_by_phase.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let (lo, hi) = ts
        .iter()
        .flat_map(|t| t.evals_by_phase.iter().flat_map(|(s, _)| s.iter()))
        .fold((0.0f64, 0.0f64), |(lo, hi), (_, q1, q3)| {
            (lo.min(*q1), hi.max(*q3))
        });
    let step = nice_step((hi - lo).max(1.0) / 4.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let (left, top, ph, pw) = (80.0, 70.0, 300.0, 640.0);
    let seats = ts[0].seats;
    let width = left + pw + 30.0;
    let height = top + ph + 60.0 + 18.0 * (seats as f64 / 3.0).ceil() + 18.0 * ts.len() as f64;
    let names: Vec<String> = ts.iter().map(|t| label(t)).collect();
    let title = format!(
        "{}: each seat's evaluation over the game",
        names.join(" against ")
    );
    let mut svg = Svg::new(width, height, &title);
    evals_heads(&mut svg, ts);
    let x = |k: usize| left + pw * k as f64 / (longest - 1) as f64;
    let y = |v: f64| top + ph * (hi - v) / (hi - lo);
    let mut v = lo;
    while v <= hi + step / 2.0 {
        svg.line(
            (left, y(v)),
            (left + pw, y(v)),
            if v == 0.0 { INK } else { "#c9bfa5" },
            1.0,
            "",
        );
        svg.text((left - 32.0, y(v)), 11.0, INK, &format!("{v:.0}"));
        v += step;
    }
    for (i, t) in ts.iter().enumerate() {
        for s in 0..seats {
            let pts: Vec<(f64, f64, f64)> = t.evals_by_phase.iter().map(|(p, _)| p[s]).collect();
            if pts.is_empty() {
                continue;
            }
            eval_line(&mut svg, (i, s), &pts, &x, &y);
        }
    }
    for k in 0..=4 {
        let at = (longest - 1) * k / 4;
        svg.text((x(at), top + ph + 16.0), 11.0, INK, &format!("{}", at + 1));
    }
    svg.text(
        (left + pw / 2.0, top + ph + 34.0),
        11.0,
        INK,
        "phase (up to the last one a tenth of the games reached)",
    );
    for s in 0..seats {
        let (col, row) = (s % 3, s / 3);
        let (xx, yy) = (
            left + 150.0 * col as f64,
            top + ph + 54.0 + 18.0 * row as f64,
        );
        svg.rect(xx, yy - 6.0, 12.0, 12.0, seat_colour(s), "none", "");
        svg.text_start((xx + 18.0, yy), 11.0, INK, &format!("seat {}", s + 1));
    }
    Ok(svg.finish())
}

/// The evaluation plot's line of each table: which line is which.
fn evals_heads(svg: &mut Svg, ts: &[&Table]) {
    for (i, t) in ts.iter().enumerate() {
        svg.text_start(
            (12.0, 22.0 + 16.0 * i as f64),
            12.0,
            INK,
            &format!(
                "{}{}, {} games: mean evaluation by phase, quartiles shaded",
                if ts.len() > 1 {
                    if i == 0 {
                        "A (solid): "
                    } else {
                        "B (dashed): "
                    }
                } else {
                    ""
                },
                label(t),
                t.evals.as_ref().map_or(0, |e| e.games)
            ),
        );
    }
}

/// Seat `s`'s mean evaluation by phase in table `i` (of `pts`: mean,
/// first and third quartile), and for the first table the band between
/// the quartiles.
fn eval_line(
    svg: &mut Svg,
    (i, s): (usize, usize),
    pts: &[(f64, f64, f64)],
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(f64) -> f64,
) {
    let colour = seat_colour(s);
    if i == 0 {
        let mut d = String::new();
        for (k, p) in pts.iter().enumerate() {
            let _ = write!(
                d,
                "{}{},{} ",
                if k == 0 { "M" } else { "L" },
                num(x(k)),
                num(y(p.2))
            );
        }
        for (k, p) in pts.iter().enumerate().rev() {
            let _ = write!(d, "L{},{} ", num(x(k)), num(y(p.1)));
        }
        svg.raw(&format!(
            r#"<path class="band" data-seat="{}" d="{}Z" fill="{colour}" fill-opacity="0.15" stroke="none"/>"#,
            s + 1,
            d
        ));
    }
    let line: Vec<String> = pts
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{},{}", num(x(k)), num(y(p.0))))
        .collect();
    svg.raw(&format!(
        r#"<polyline class="mean" data-table="{i}" data-seat="{}" points="{}" fill="none" stroke="{colour}" stroke-width="2"{}/>"#,
        s + 1,
        line.join(" "),
        if i == 0 { "" } else { r#" stroke-dasharray="6 4""# }
    ));
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}
