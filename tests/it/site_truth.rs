//! A replay site's numbers and its whole truth (issue 34), without a
//! browser: every frame is named by the turn its board's caption says and
//! the `herald report --turn N` the page tells the reader to run prints
//! the same turn; the omniscient view of a finished game belongs to no
//! seat (nothing drawn as anyone's own, no fog, no "you").

use crate::common::{herald, scratch};
use std::path::{Path, PathBuf};

const NOW: &str = "2026-11-24T10:00:00+00:00";

const GAMES: [(&str, &str); 5] = [
    ("norse-wars", "red"),
    ("war-of-the-dukes", "orfburg"),
    ("stack-wars", "black"),
    ("hexwar", "white"),
    ("unfought-battle", "north"),
];

fn demo(game: &str) -> PathBuf {
    let dir = scratch(&format!("site-truth-{game}"));
    let out = dir.join("demo");
    let (code, _, err) = herald(&["demo", game, "--out", out.to_str().unwrap(), "--now", NOW]);
    assert_eq!(code, 0, "{err}");
    out.join("game")
}

fn frames(game: &Path, who: Option<&str>) -> Vec<herald::site::Frame> {
    let (_, g) = herald::pipeline::open(game).unwrap();
    let seed = g.head().seed.clone().unwrap();
    let who = match who {
        Some(p) => herald::site::Who::Player(g.seat_of(p).unwrap()),
        None => herald::site::Who::Everything,
    };
    herald::site::frames(&g, &seed, who).unwrap()
}

/// The board's title, XML escapes undone.
fn title(board: &str) -> String {
    let at = board.find("<title").expect("a title");
    let from = at + board[at..].find('>').unwrap() + 1;
    let to = from + board[from..].find("</title>").unwrap();
    board[from..to].replace("&apos;", "'").replace("&amp;", "&")
}

/// The turn a board's title says: "Game, turn N: …".
fn said_turn(board: &str) -> u32 {
    let t = title(board);
    let at = t
        .find(", turn ")
        .unwrap_or_else(|| panic!("no turn in {t:?}"))
        + 7;
    let digits: String = t[at..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number in {t:?}"))
}

/// Every frame's name, anchor, board caption and report command say one
/// turn, for the whole truth and for a player's own site; and the report
/// the page points to is of that turn and that phase.
#[test]
fn every_frame_is_named_by_the_turn_its_board_and_report_say() {
    for (game, player) in GAMES {
        let folder = demo(game);
        for who in [None, Some(player)] {
            let list = frames(&folder, who);
            assert!(list.len() > 2, "{game}: a whole game");
            for (k, f) in list.iter().enumerate() {
                let n = f.turn;
                assert!(
                    f.name.starts_with(&format!("turn {n}: ")),
                    "{game} {who:?} frame {k}: named {:?} at turn {n}",
                    f.name
                );
                assert_eq!(f.anchor, format!("turn-{n}"));
                assert_eq!(herald::site::page::frame_name(f), f.name);
                let board = f.board.as_ref().expect("a finished game's board");
                assert_eq!(
                    said_turn(board),
                    n,
                    "{game} {who:?} frame {k} {:?}: the caption says another turn: {}",
                    f.name,
                    title(board)
                );
                assert!(
                    f.report.ends_with(&format!(" --turn {n}")),
                    "{game} frame {k}: {}",
                    f.report
                );
                if k > 0 {
                    assert_eq!(list[k - 1].turn + 1, n, "{game}: one turn a phase");
                    let after = f.after.as_ref().unwrap();
                    assert!(after.starts_with(&format!("turn {}: ", n - 1)), "{after}");
                } else {
                    assert_eq!(n, 0);
                    assert!(f.after.is_none());
                }
            }
            // the report the page names is of the same turn and phase
            // (a few frames: each call replays the game)
            let last = list.len() - 1;
            for k in [1, 2, last / 2, last - 1] {
                let f = &list[k];
                let cmd = &f.report;
                assert!(cmd.contains("herald report GAME --player "), "{cmd}");
                let p = who.unwrap_or(player);
                let (code, text, err) = herald(&[
                    "report",
                    folder.to_str().unwrap(),
                    "--player",
                    p,
                    "--turn",
                    &f.turn.to_string(),
                ]);
                assert_eq!(code, 0, "{game}: {cmd}: {err}");
                let head = format!("Turn {}, phase: {}.", f.turn, f.phase);
                assert!(
                    text.contains(&head),
                    "{game} frame {k} ({}): the report does not say {head:?}:\n{}",
                    f.name,
                    &text[..text.len().min(400)]
                );
            }
        }
        let _ = std::fs::remove_dir_all(folder.parent().unwrap().parent().unwrap());
    }
}

/// The whole truth of a finished game is no seat's: no piece carries the
/// viewer's mark, no hex is shaded as out of someone's sight, no word
/// names a viewer; every side is drawn in its own colour and named.
#[test]
fn the_whole_truth_belongs_to_no_seat() {
    for (game, _) in GAMES {
        let folder = demo(game);
        let list = frames(&folder, None);
        let mut owners = std::collections::BTreeSet::new();
        for (k, f) in list.iter().enumerate() {
            let board = f.board.as_ref().unwrap();
            for bad in [
                "data-yours",
                "class=\"yours\"",
                "(you)",
                ", you)",
                "hex fog",
                "your ",
                "yours",
                " sees it",
                " saw it",
            ] {
                assert!(
                    !board.contains(bad),
                    "{game} frame {k} ({}): the whole truth holds {bad:?}",
                    f.name
                );
            }
            // every event told once, from no side: never as the reader's
            // own, never as what one side was told (issue 49)
            for e in &f.events {
                let second_person = e.contains("you") || e.contains("your ");
                assert!(
                    !second_person && !e.contains(" was told: "),
                    "{game} frame {k} ({}): {e:?} read as someone's own",
                    f.name
                );
            }
            let mut told = f.events.clone();
            told.sort();
            told.dedup();
            assert_eq!(
                told.len(),
                f.events.len(),
                "{game} frame {k}: an event told twice"
            );
            for (at, _) in board.match_indices("data-owner=\"") {
                let rest = &board[at + 12..];
                owners.insert(rest[..rest.find('"').unwrap()].to_string());
            }
        }
        // both sides' pieces were drawn, each under its owner
        assert!(owners.len() >= 2, "{game}: pieces of {owners:?} only");
        if game == "unfought-battle" {
            let end = list.last().unwrap().board.as_ref().unwrap();
            let caption = end
                .split(r#"<text class="legend-caption""#)
                .skip(1)
                .map(|c| &c[c.find('>').unwrap() + 1..c.find("</text>").unwrap()])
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                caption.contains("north has ") && caption.contains(", south has "),
                "the caption names both sides: {caption}"
            );
            assert!(!caption.contains("Shih"), "a seat's Shih: {caption}");
            // Each side's Sovereign is crowned, the second side's too,
            // while it lives: after deployment both are on the board.
            let deployed = list
                .iter()
                .find(|f| f.turn == 1)
                .and_then(|f| f.board.as_ref())
                .expect("a frame at turn 1");
            let crowned: std::collections::BTreeSet<&str> = deployed
                .split("<g ")
                .filter(|g| g.contains(r#"class="sovereign""#) && g.contains("data-owner=\""))
                .filter_map(|g| g.split("data-owner=\"").nth(1)?.split('"').next())
                .collect();
            assert_eq!(
                crowned.len(),
                2,
                "both Sovereigns crowned after deployment: {crowned:?}"
            );
        }
        let _ = std::fs::remove_dir_all(folder.parent().unwrap().parent().unwrap());
    }
}
