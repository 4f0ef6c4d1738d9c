//! Anonymous means anonymous (issue 47, item 1): an attacker holding
//! everything a recipient holds — every mail every other player got
//! through the real Postfix and Dovecot, their reports, exports and sites,
//! the game file — and trying every player id against every value they
//! hold names no grey press sender, in either game of a 6-player run with
//! 100 anonymous press mails. The same attacker names the sender of the
//! anonymous press the herald of format 4 relayed (its fixture), so it is
//! an attacker that works. With `--press-reveal end` the finished game's
//! site opens every sender, checkably.

use crate::common::herald;
use crate::host_mail::{at, mail, text};
use crate::host_safety::{drain, maildir_host, put};
use crate::mailservers::{servers, Account};
use crate::store::{ok, s};
use herald::chain::canon::sha256_lines;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What an attacker holds, as text: every file and mail, decoded.
#[derive(Default)]
pub(crate) struct Holdings {
    pub texts: Vec<String>,
}

impl Holdings {
    pub(crate) fn add(&mut self, t: String) {
        self.texts.push(t);
    }

    pub(crate) fn add_mail(&mut self, m: &[u8]) {
        self.add(String::from_utf8_lossy(m).into_owned());
        self.add(text(m));
        // Every part of the mail, decoded (a report's page and view.json).
        if let Some(msg) = mail_parser::MessageParser::default().parse(m) {
            for a in msg.attachments() {
                self.add(String::from_utf8_lossy(a.contents()).into_owned());
            }
        }
    }

    pub(crate) fn add_tree(&mut self, dir: &Path) {
        let mut files = Vec::new();
        crate::press::files_under(dir, &[], &mut files);
        for f in files {
            if let Ok(b) = std::fs::read(&f) {
                self.add(String::from_utf8_lossy(&b).into_owned());
            }
        }
    }

    /// Every hex string of 32 or 64 digits in what is held: each a
    /// candidate secret (a nonce, an opening, a salt, a hash).
    fn tokens(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for t in &self.texts {
            let b = t.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_hexdigit() {
                    let j = (i..b.len())
                        .find(|&j| !b[j].is_ascii_hexdigit())
                        .unwrap_or(b.len());
                    let run = &t[i..j];
                    for n in [32, 64] {
                        if run.len() >= n {
                            for k in 0..=(run.len() - n) {
                                out.insert(run[k..k + n].to_ascii_lowercase());
                            }
                        }
                    }
                    i = j;
                } else {
                    i += 1;
                }
            }
        }
        out
    }
}

/// One anonymous press entry of a game file: its number, recipients and
/// the digest that stands for its sender.
#[derive(Debug, Clone)]
pub(crate) struct Grey {
    pub n: u64,
    pub to: Vec<String>,
    pub digest: String,
}

pub(crate) fn grey_entries(game_file: &str) -> Vec<Grey> {
    game_file
        .lines()
        .skip(1)
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let b = &v["body"];
            if b["kind"] != "press" || b.get("from").is_some() {
                return None;
            }
            let digest = b["sender_commitment"]
                .as_str()
                .or(b["sender_sha256"].as_str())?
                .to_string();
            Some(Grey {
                n: b["n"].as_u64()?,
                to: b["to"]
                    .as_array()?
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                digest,
            })
        })
        .collect()
}

/// The attacker: for each anonymous press, every player id tried against
/// its digest with every value held as the secret (and no secret), the
/// recipients' list read for the one player it leaves out, and every text
/// held read for a line naming the press's sender. Returns, for each
/// press it names, the player it names; a press it cannot name is absent.
pub(crate) fn attack(
    held: &Holdings,
    game_file: &str,
    players: &[String],
) -> BTreeMap<u64, String> {
    let greys = grey_entries(game_file);
    attack_with(&[&Clues::of(held, &greys, players)], &greys, players)
}

/// The two domains a sender's digest was made in (format 4's and today's).
const DOMAINS: [&[u8]; 2] = [b"herald/press sender", b"herald/press"];

/// What the attacker finds in one holding, worked out once: which digest
/// each of its candidate secrets opens for which player, and which texts
/// name a press's sender. `attack_with` on a list of them answers exactly
/// as `attack` on their texts joined in that order, so a test that asks
/// for many combinations of the same holdings (every press, with all but
/// its sender's) reads each holding once instead of once a press.
pub(crate) struct Clues {
    /// (player, candidate secret, domain, press) for every digest opened.
    opened: Vec<(usize, String, usize, u64)>,
    /// (press, player) for every text naming a press's sender, in the
    /// order of the texts, then the players.
    said: Vec<(u64, usize)>,
}

impl Clues {
    pub(crate) fn of(held: &Holdings, greys: &[Grey], players: &[String]) -> Clues {
        let digests: BTreeMap<&str, u64> = greys.iter().map(|g| (g.digest.as_str(), g.n)).collect();
        let mut opened = Vec::new();
        for t in held.tokens() {
            for (i, p) in players.iter().enumerate() {
                for (d, domain) in DOMAINS.iter().enumerate() {
                    let h = sha256_lines(&[domain, t.as_bytes(), p.as_bytes()]);
                    if let Some(n) = digests.get(h.as_str()) {
                        opened.push((i, t.clone(), d, *n));
                    }
                }
            }
        }
        let mut said = Vec::new();
        for t in &held.texts {
            // Both lines that name a sender start so: a text with neither
            // names none.
            if !t.contains("press #") && !t.contains("press: ") {
                continue;
            }
            for g in greys {
                for (i, p) in players.iter().enumerate() {
                    let said_line = [
                        format!("press #{} from {p}", g.n),
                        format!("press: {}\nentry: ", g.n),
                    ];
                    if t.contains(&said_line[0])
                        || (t.contains(&said_line[1]) && t.contains(&format!("sender: {p}\n")))
                    {
                        said.push((g.n, i));
                    }
                }
            }
        }
        Clues { opened, said }
    }
}

/// The attack of `attack` on the holdings whose clues are `clues`, in
/// that order. Its steps, in attack's order: every player (in order), with
/// every candidate secret (sorted, then none), in both domains, a later
/// match replacing an earlier; then, for a press still unnamed, the one
/// player its recipients leave out; then the first text naming it.
pub(crate) fn attack_with(
    clues: &[&Clues],
    greys: &[Grey],
    players: &[String],
) -> BTreeMap<u64, String> {
    let digests: BTreeMap<&str, u64> = greys.iter().map(|g| (g.digest.as_str(), g.n)).collect();
    // The last match in attack's order is the one that stands: the
    // greatest (player, (no secret?, secret), domain).
    type Key<'a> = (usize, (bool, &'a str), usize);
    let mut last: BTreeMap<u64, Key> = BTreeMap::new();
    fn keep<'a>(last: &mut BTreeMap<u64, Key<'a>>, n: u64, key: Key<'a>) {
        let e = last.entry(n).or_insert(key);
        if key > *e {
            *e = key;
        }
    }
    for c in clues {
        for (i, t, d, n) in &c.opened {
            keep(&mut last, *n, (*i, (false, t.as_str()), *d));
        }
    }
    for (i, p) in players.iter().enumerate() {
        for (d, domain) in DOMAINS.iter().enumerate() {
            let h = sha256_lines(&[domain, b"", p.as_bytes()]);
            if let Some(n) = digests.get(h.as_str()) {
                keep(&mut last, *n, (i, (true, ""), d));
            }
        }
    }
    let mut named: BTreeMap<u64, String> = last
        .into_iter()
        .map(|(n, (i, _, _))| (n, players[i].clone()))
        .collect();
    for g in greys {
        let left: Vec<&String> = players.iter().filter(|p| !g.to.contains(p)).collect();
        if !g.to.is_empty() && left.len() == 1 {
            named.entry(g.n).or_insert_with(|| left[0].clone());
        }
    }
    for c in clues {
        for (n, i) in &c.said {
            named.entry(*n).or_insert_with(|| players[*i].clone());
        }
    }
    named
}

/// The attack works: on the format-4 fixture's game file and the mails its
/// recipients kept, it names the sender of the anonymous press #2 (the
/// nonce in the recipient's mail salts the sender's hash).
#[test]
fn the_attacker_names_the_sender_of_format_4_grey_press() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format4");
    let game = std::fs::read_to_string(f.join("lobby/game.jsonl")).unwrap();
    let mut held = Holdings::default();
    held.add(game.clone());
    held.add_mail(&std::fs::read(f.join("kept/press-anonymous.eml")).unwrap());
    let players: Vec<String> = (0..4).map(|i| format!("player{i}")).collect();
    let named = attack(&held, &game, &players);
    assert_eq!(
        named.get(&2).map(String::as_str),
        Some("player1"),
        "the attacker did not unmask format 4's grey press: {named:?}"
    );
}

/// A 6-player game of Norse Wars on a host reading a Maildir and sending
/// through the real Postfix, its players the accounts `accts`.
fn game6(
    h: &crate::host_mail::Host,
    accts: &[Account],
    id: &str,
    reveal: &str,
) -> Vec<(String, String)> {
    let players: Vec<(String, String)> = (0..6)
        .map(|i| (format!("p{i}"), accts[i].address.clone()))
        .collect();
    let pairs: Vec<(&str, &str)> = players
        .iter()
        .map(|(p, a)| (p.as_str(), a.as_str()))
        .collect();
    h.game(
        "norse-wars",
        id,
        &pairs,
        &[
            "--deadline-every",
            "720h",
            "--drop-after",
            "1",
            "--press",
            "grey",
            "--press-reveal",
            reveal,
            "--light-passwords",
        ],
    )
}

/// Long: two whole games of press by mail, then the attacker on each
/// press, then the reveal.
#[test]
fn no_recipient_names_a_grey_press_sender_and_a_reveal_opens_each() {
    let srv = servers();
    let (h, maildir) = maildir_host(srv, "press_per_day = 200");
    let accts: Vec<Account> = (0..12).map(|_| srv.account()).collect();
    let games = [
        ("grey-a", "end", &accts[0..6]),
        ("grey-b", "never", &accts[6..12]),
    ];
    let mut r = herald::rng::phase_rng("attack", "grey", 0, "press");
    let mut truths: BTreeMap<&str, BTreeMap<u64, String>> = BTreeMap::new();
    let mut total = 0;
    for (id, reveal, accts) in games {
        let pw = game6(&h, accts, id, reveal);
        let to = h.game_addr(id);
        let ids: Vec<String> = (0..6).map(|i| format!("p{i}")).collect();
        for k in 0..50 {
            let who = herald::rng::below(&mut r, 6) as usize;
            let others: Vec<&String> = ids.iter().filter(|p| **p != ids[who]).collect();
            let line = match herald::rng::below(&mut r, 20) {
                0..=7 => format!(
                    "press to {} anonymous",
                    others[herald::rng::below(&mut r, 5) as usize]
                ),
                8..=13 => {
                    let a = herald::rng::below(&mut r, 5) as usize;
                    let b = (a + 1 + herald::rng::below(&mut r, 4) as usize) % 5;
                    format!("press to {}, {} anonymous", others[a], others[b])
                }
                14..=17 => "press to all anonymous".to_string(),
                _ => format!(
                    "press to {} anonymous",
                    others
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let pass = &pw.iter().find(|(p, _)| *p == ids[who]).unwrap().1;
            let body = format!("{line}\npassword = \"{pass}\"\n\nGREY-{id}-{k}: the ford at dawn");
            put(
                &maildir,
                &format!("{id}-{k}"),
                &mail(
                    &accts[who].address,
                    &to,
                    "press",
                    &format!("{id}-{k}@players.test"),
                    1,
                    &body,
                ),
            );
            total += 1;
        }
        let out = h.pass_ok(&at(if id == "grey-a" { 2 } else { 3 }));
        assert!(out.contains("50 press relayed"), "{id}: {out}");
    }
    assert_eq!(total, 100);
    drain(&h, 4);
    let mut report = Vec::new();
    for (id, _, accts) in games {
        let folder = h.dir.join(id);
        let game = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
        let greys = grey_entries(&game);
        assert_eq!(greys.len(), 50, "{id}: every grey press is in the log");
        let ids: Vec<String> = (0..6).map(|i| format!("p{i}")).collect();
        // The sender of each entry, as the moderator knows it (the text
        // names it, in the press's kept file).
        let kept = herald::pipeline::press::all_kept(
            &herald::pipeline::open(&folder).unwrap().1,
            &herald::store::Store::reader(herald::store::GameDir::at(&folder)),
        )
        .unwrap();
        let truth: BTreeMap<u64, String> = kept
            .iter()
            .map(|(k, _)| (k.entry.n as u64, k.sender.clone()))
            .collect();
        assert_eq!(truth.len(), greys.len());
        truths.insert(id, truth.clone());
        // What each player may hold besides their mails: their export and
        // their site of the running game, the public site, the game file.
        let spot = crate::store::Spot::new(&format!("attack-{id}"));
        let mut common = Holdings::default();
        common.add(game.clone());
        let public = spot.join("public");
        ok(&["site", s(&folder), "--out", s(&public)]);
        common.add_tree(&public);
        let mut own: BTreeMap<String, Holdings> = BTreeMap::new();
        for (i, p) in ids.iter().enumerate() {
            let mut held = Holdings::default();
            for m in srv.mails(&accts[i]) {
                held.add_mail(&m);
            }
            let ex = spot.join(&format!("export-{p}"));
            ok(&["export", s(&folder), "--for", p, "--out", s(&ex)]);
            held.add_tree(&ex);
            let site = spot.join(&format!("site-{p}"));
            ok(&["site", s(&folder), "--out", s(&site), "--for", p]);
            held.add_tree(&site);
            own.insert(p.clone(), held);
        }
        // For each grey press: everything all but its sender hold (each
        // holding read once, its clues combined per press: the same answer
        // as attack on the joined texts, see Clues).
        let grey_list = grey_entries(&game);
        let common = Clues::of(&common, &grey_list, &ids);
        let own: BTreeMap<String, Clues> = own
            .iter()
            .map(|(p, h)| (p.clone(), Clues::of(h, &grey_list, &ids)))
            .collect();
        let mut unmasked = Vec::new();
        for (n, sender) in &truth {
            let mut held = vec![&common];
            for (p, c) in &own {
                if p != sender {
                    held.push(c);
                }
            }
            let named = attack_with(&held, &grey_list, &ids);
            if named.get(n) == Some(sender) {
                unmasked.push(format!("press #{n} of {id}: named {sender}"));
            }
        }
        assert!(unmasked.is_empty(), "{}", unmasked.join("\n"));
        report.push(format!(
            "{id}: 50 grey press, 0 senders named by the other 5 players' holdings"
        ));
        // The moderator opens every one.
        let v = ok(&["verify", s(&folder)]);
        assert!(
            v.contains("(50 anonymous, their commitments opened)"),
            "{v}"
        );
        // Each sender's own copy proves it was theirs.
        let i = ids.iter().position(|p| *p == truth[&1]).unwrap();
        let copy = srv
            .mails(&accts[i])
            .into_iter()
            .find(|m| text(m).contains("Your press #1 ") && text(m).contains("HERALD PRESS SENDER"))
            .expect("the sender's copy of press #1");
        let kept = spot.join("copy.eml");
        std::fs::write(&kept, &copy).unwrap();
        let v = ok(&["verify", s(&folder), "--witness", s(&kept)]);
        assert!(
            v.contains(&format!("press #1 of game {id} was sent by {}", truth[&1])),
            "{v}"
        );
    }
    // The reveal: game a (`reveal = end`) finished, its site shows every
    // sender and its press.txt opens each against the game file; game b's
    // (`never`) shows none.
    for (id, reveal, _) in games {
        let folder = h.dir.join(id);
        let mut t = 0;
        while !ok(&["status", s(&folder)]).contains("game over") {
            t += 1;
            assert!(t < 60, "{id} does not end");
            // Each past the deadline (every 720 h): stand-ins play, and
            // drop whoever misses one (--drop-after 1) until one is left.
            let when = chrono::DateTime::parse_from_rfc3339("2027-01-01T00:00:00Z").unwrap()
                + chrono::Duration::days(31 * t);
            ok(&["resolve", s(&folder), "--now", &when.to_rfc3339()]);
        }
        let site = crate::store::Spot::new(&format!("reveal-{id}")).join("site");
        ok(&["site", s(&folder), "--out", s(&site)]);
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        let press = site.join("press.txt");
        if reveal == "end" {
            assert_eq!(index.matches("sent anonymously").count(), 50, "{id}");
            let pub_dir = crate::store::Spot::new(&format!("reveal-{id}-pub")).join("g");
            std::fs::create_dir_all(&pub_dir).unwrap();
            std::fs::copy(folder.join("game.jsonl"), pub_dir.join("game.jsonl")).unwrap();
            let v = ok(&["verify", s(&pub_dir), "--witness", s(&press)]);
            let opened = v.lines().filter(|l| l.contains("was sent by")).count();
            assert_eq!(opened, 50, "{v}");
            for (n, sender) in &truths[id] {
                assert!(
                    v.contains(&format!("press #{n} of game {id} was sent by {sender} ")),
                    "press #{n}: {v}"
                );
            }
            // A changed opening is refused.
            let t = std::fs::read_to_string(&press).unwrap();
            let i = t.find("opening: ").unwrap() + 9;
            let mut b = t.into_bytes();
            b[i] = if b[i] == b'0' { b'1' } else { b'0' };
            std::fs::write(&press, b).unwrap();
            let (code, o, e) = herald(&["verify", s(&pub_dir), "--witness", s(&press)]);
            assert_eq!(code, 1, "{o}{e}");
            assert!(e.contains("does not open"), "{e}");
        } else {
            assert!(
                !index.contains("sent anonymously") && !press.exists(),
                "{id}"
            );
        }
    }
    eprintln!("{}", report.join("\n"));
}
