//! The learned prior of the searches (issue 53): a linear model over a
//! game's features of a candidate set of orders, with integer weights kept
//! in a file beside the game's ruleset (`games/<game>.weights`).
//!
//! A candidate's logit is `Σ weight × feature / scale`, computed in
//! integers; its prior is the softmax of the logits among the candidates
//! of one decision. The searches read it as PUCT (AlphaZero's selection:
//! the mean reward plus `c × prior × √(visits) / (1 + arm visits)`, in the
//! open- and closed-loop trees) and as the distribution the per-piece
//! bandits draw new options from (docs/bots.md, "The learned prior").
//! The exponential is herald's own ([`exp`], + − × ÷ only, each correctly
//! rounded), so a search with a prior takes the same decision on every
//! machine.
//!
//! The weights are learned from self-play by `herald playtest train`
//! (`crate::playtest::train`): the searches' visit counts at the root are
//! the targets, the prior is fitted to them (Expert Iteration's apprentice,
//! a linear one), and the command that wrote a file is written at its top.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The weight file format this herald reads and writes.
pub const FORMAT: u32 = 1;

/// A game's learned weights, as read from its weight file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// The game the file is for (`hexwar`, …).
    pub game: String,
    /// A logit is the weighted sum of the features divided by this.
    pub scale: i32,
    /// One weight per feature, in the order of the game's
    /// [`crate::games::BotSupport::FEATURES`].
    pub prior: Vec<i32>,
    /// sha256 of the file's text: what a result line records.
    pub sha256: String,
}

/// Where a bot's weights come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The game's own file, built into herald (`games/<game>.weights`).
    BuiltIn,
    /// A file given to the lab (`herald playtest --weights FILE`) or made
    /// by the training in memory.
    Given(Arc<Weights>),
}

/// Why a weight file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Not TOML of the expected shape: the parser's words.
    Syntax(String),
    /// A format this herald does not read.
    Format(u32),
    /// The file is for another game.
    Game { file: String, wanted: String },
    /// `scale` is not a positive number.
    Scale(i32),
    /// A feature of the game's has no weight in the file.
    Missing(String),
    /// A weight for a feature the game does not have (the file was
    /// trained for other features: train again).
    Unknown(String),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Syntax(e) => write!(f, "not a weight file: {e}"),
            Refused::Format(n) => write!(
                f,
                "weight file format {n}; this herald reads format {FORMAT}"
            ),
            Refused::Game { file, wanted } => {
                write!(f, "the weights are for `{file}`, not `{wanted}`")
            }
            Refused::Scale(s) => write!(f, "scale {s}: it must be at least 1"),
            Refused::Missing(n) => write!(
                f,
                "no weight for the feature `{n}` (the file was trained for other features: train again)"
            ),
            Refused::Unknown(n) => write!(
                f,
                "a weight for `{n}`, which is not one of the game's features (train again)"
            ),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: u32,
    game: String,
    scale: i32,
    prior: BTreeMap<String, i64>,
}

/// The largest weight a file may hold (a feature is a small integer, so a
/// logit stays far inside `i64`).
pub const MAX_WEIGHT: i64 = 1_000_000;

impl Weights {
    /// Read a weight file's `text` for `game`, whose features are `names`.
    pub fn parse(text: &str, game: &str, names: &[&str]) -> Result<Weights, Refused> {
        let file: File = toml::from_str(text).map_err(|e| Refused::Syntax(e.message().into()))?;
        if file.format != FORMAT {
            return Err(Refused::Format(file.format));
        }
        if file.game != game {
            return Err(Refused::Game {
                file: file.game,
                wanted: game.into(),
            });
        }
        if file.scale < 1 {
            return Err(Refused::Scale(file.scale));
        }
        if let Some(k) = file.prior.keys().find(|k| !names.contains(&k.as_str())) {
            return Err(Refused::Unknown(k.clone()));
        }
        let mut prior = Vec::with_capacity(names.len());
        for n in names {
            let w = *file
                .prior
                .get(*n)
                .ok_or_else(|| Refused::Missing((*n).into()))?;
            prior.push(w.clamp(-MAX_WEIGHT, MAX_WEIGHT) as i32);
        }
        Ok(Weights {
            game: game.into(),
            scale: file.scale,
            prior,
            sha256: sha256_hex(text.as_bytes()),
        })
    }

    /// The file's text for these weights: `header` (each line made a
    /// comment), then the format, the game, the scale and one weight per
    /// feature named by `names`, in that order.
    pub fn text(game: &str, scale: i32, names: &[&str], prior: &[i32], header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            s.push_str(if l.is_empty() { "#" } else { "# " });
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&format!(
            "format = {FORMAT}\ngame = \"{game}\"\nscale = {scale}\n\n[prior]\n"
        ));
        for (n, w) in names.iter().zip(prior) {
            s.push_str(&format!("{n} = {w}\n"));
        }
        s
    }

    /// A candidate's logit times the scale: the weighted sum of its
    /// features (`features` has one entry per weight).
    pub fn score(&self, features: &[i32]) -> i64 {
        self.prior
            .iter()
            .zip(features)
            .map(|(&w, &f)| w as i64 * f as i64)
            .sum()
    }

    /// The candidates' priors, unnormalised: `exp(logit)` of each row of
    /// `features` (rows of `self.prior.len()` integers), the logit clamped
    /// to ±[`MAX_LOGIT`] so that any sum of them stays finite. A search
    /// divides each by the sum over the candidates it chooses among.
    pub fn priors(&self, features: &[i32]) -> Vec<f64> {
        let k = self.prior.len().max(1);
        features
            .chunks(k)
            .map(|f| {
                let l = self.score(f) as f64 / self.scale as f64;
                exp(l.clamp(-MAX_LOGIT, MAX_LOGIT))
            })
            .collect()
    }
}

/// sha256 of `bytes` in lower-case hex (as `chain::canon::sha256_hex`,
/// which `bots`, below `chain` in the import order, cannot use).
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One decision as the training sees it: each candidate's features (rows
/// of the game's feature count) and how often the search visited it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    pub features: Vec<i32>,
    pub visits: Vec<u32>,
}

/// The exploration constant of PUCT, for rewards scaled to 0..1.
pub const C_PUCT: f64 = 1.5;

/// PUCT's choice among arms given as (visits, reward in millipoints,
/// unnormalised prior): the mean reward (for an arm never visited, the
/// mean of the others, ½ before any) plus `C_PUCT × prior × √(visits of
/// all) / (1 + visits)`; ties to the first. `None` for no arms.
pub fn puct(arms: impl Iterator<Item = (u32, u64, f64)> + Clone) -> Option<usize> {
    let (mut n, mut r, mut total) = (0u64, 0u64, 0.0f64);
    for (v, w, p) in arms.clone() {
        n += v as u64;
        r += w;
        total += p;
    }
    let fpu = if n > 0 {
        r as f64 / (n as f64 * 1000.0)
    } else {
        0.5
    };
    let sq = (n.max(1) as f64).sqrt();
    let total = if total > 0.0 { total } else { 1.0 };
    let mut best: Option<(usize, f64)> = None;
    for (i, (v, w, p)) in arms.enumerate() {
        let q = if v > 0 {
            w as f64 / (v as f64 * 1000.0)
        } else {
            fpu
        };
        let u = q + C_PUCT * (p / total) * sq / (1.0 + v as f64);
        if best.is_none_or(|(_, b)| u > b) {
            best = Some((i, u));
        }
    }
    best.map(|(i, _)| i)
}

/// The largest logit a prior takes (e^40 ≈ 2.4e17: a thousand of them
/// sum far inside `f64`, and a candidate 40 below another has no weight).
pub const MAX_LOGIT: f64 = 40.0;

/// `e^x` with + − × ÷ only (each correctly rounded by IEEE 754), so a
/// search takes the same decisions on every machine whatever its maths
/// library: `x = k ln 2 + r` with |r| ≤ ½ ln 2, `e^r` by its series,
/// times `2^k` built from its bits. Exact enough for a prior (relative
/// error about 1e-15); 0 below −700, infinity above 700.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < -700.0 {
        return 0.0;
    }
    if x > 700.0 {
        return f64::INFINITY;
    }
    let ln2 = std::f64::consts::LN_2;
    // Round x / ln 2 to the nearest integer without the maths library.
    let q = x / ln2;
    let k = if q >= 0.0 {
        (q + 0.5) as i64
    } else {
        -((-q + 0.5) as i64)
    };
    let r = x - k as f64 * ln2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for i in 1..=20 {
        term = term * r / i as f64;
        sum += term;
    }
    let two_k = f64::from_bits(((k + 1023) as u64) << 52);
    sum * two_k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_agrees_with_the_maths_library() {
        for i in -400..=400 {
            let x = i as f64 / 7.0;
            let want = x.exp();
            let got = exp(x);
            assert!(
                ((got - want) / want).abs() < 1e-13,
                "exp({x}) = {got}, not {want}"
            );
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
    }

    #[test]
    fn a_weight_file_round_trips_and_refuses_what_does_not_fit() {
        let names = ["capture", "pass"];
        let text = Weights::text(
            "hexwar",
            100,
            &names,
            &[250, -40],
            "made by hand\n\nfor a test",
        );
        assert!(text.starts_with("# made by hand\n#\n# for a test\nformat = 1\n"));
        let w = Weights::parse(&text, "hexwar", &names).unwrap();
        assert_eq!(w.prior, vec![250, -40]);
        assert_eq!(w.scale, 100);
        assert_eq!(w.score(&[2, 1]), 460);
        let p = w.priors(&[1, 0, 0, 1]);
        assert!((p[0] - 2.5f64.exp()).abs() < 1e-12);
        assert!((p[1] - (-0.4f64).exp()).abs() < 1e-12);
        assert_eq!(
            Weights::parse(&text, "norse-wars", &names),
            Err(Refused::Game {
                file: "hexwar".into(),
                wanted: "norse-wars".into()
            })
        );
        assert_eq!(
            Weights::parse(&text, "hexwar", &["capture", "pass", "rotate"]),
            Err(Refused::Missing("rotate".into()))
        );
        assert_eq!(
            Weights::parse(&text, "hexwar", &["capture"]),
            Err(Refused::Unknown("pass".into()))
        );
        let bad = text.replace("format = 1", "format = 9");
        assert_eq!(
            Weights::parse(&bad, "hexwar", &names),
            Err(Refused::Format(9))
        );
        assert!(matches!(
            Weights::parse("format = ", "hexwar", &names),
            Err(Refused::Syntax(_))
        ));
    }
}
