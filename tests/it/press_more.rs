//! Press (issue 33), the rest: muting a player by mail (also for grey
//! press), press in a finished game's site only where its rules reveal
//! it, and the press section of `herald report --format html`.

use crate::common::{herald, scratch};
use crate::host_mail::{at, bot_files, text};
use crate::host_safety::{maildir_host, put, settled};
use crate::mailservers::{servers, Account};
use crate::press::{files_under, norse3, password_of, press_mail, reply_to};
use std::path::{Path, PathBuf};

/// A host reading its own Maildir (`host.toml` with the lines `config`
/// added) with the 3-player Norse Wars game `id` begun with `extra`, red,
/// blue and white at three new accounts.
struct Norse3 {
    h: crate::host_mail::Host,
    maildir: PathBuf,
    accts: Vec<Account>,
    /// The passwords, by player.
    pw: Vec<(String, String)>,
    folder: PathBuf,
    /// The game's address.
    to: String,
}

fn norse3_by_maildir(config: &str, id: &str, extra: &[&str]) -> Norse3 {
    let s = servers();
    let (h, maildir) = maildir_host(s, config);
    let accts: Vec<Account> = (0..3).map(|_| s.account()).collect();
    let pw = norse3(&h, &accts, id, extra);
    let folder = h.dir.join(id);
    let to = h.game_addr(id);
    Norse3 {
        h,
        maildir,
        accts,
        pw,
        folder,
        to,
    }
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Every text of every file under `dir`.
fn contents(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut all = Vec::new();
    files_under(dir, &[], &mut all);
    all.into_iter()
        .map(|f| {
            let t = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
            (f, t)
        })
        .collect()
}

/// The kept press whose text is `t`, as JSON.
fn kept_with(folder: &Path, t: &str) -> serde_json::Value {
    let mut all = Vec::new();
    files_under(&folder.join("press"), &[], &mut all);
    all.iter()
        .filter(|f| f.file_stem().is_some_and(|n| n.len() == 32))
        .map(|f| {
            serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(f).unwrap()).unwrap()
        })
        .find(|k| k["text"].as_str().is_some_and(|x| x.contains(t)))
        .unwrap_or_else(|| panic!("no kept press holds `{t}`"))
}

/// `mute` and `unmute` by mail, through the real Postfix: a muted
/// player's press (also anonymous) is not relayed to the player who muted
/// them; its sender is told plainly when they wrote by name, and the game
/// file names only the players it reached; an answer to anonymous press
/// whose sender muted the answerer is kept and not relayed, and its
/// writer is told nothing that names the anonymous sender. The mutes are
/// kept in press/mutes.json (0600); a wrong password, a player who is not
/// one, and oneself are refused and change nothing; `unmute all` takes the
/// mutes back. Muted press is in no mail, page or export of the muting
/// player.
#[test]
fn a_muted_players_press_does_not_reach_the_player_who_muted_them() {
    let s = servers();
    let id = "nwm";
    let Norse3 {
        h,
        maildir,
        accts,
        pw,
        folder,
        to,
    } = norse3_by_maildir("", id, &["--deadline-every", "48h", "--press", "grey"]);
    let (red, blue, white) = (&accts[0], &accts[1], &accts[2]);
    let mutes = folder.join("press").join("mutes.json");
    let cmd = |who: &Account, player: &str, mid: &str, minute: i64, first: &str, password: &str| {
        crate::host_mail::mail(
            &who.address,
            &to,
            first,
            mid,
            minute,
            &format!("{first}\nplayer = \"{player}\"\npassword = \"{password}\"\n"),
        )
    };
    // Pass A: blue mutes red; refused: an unknown player, a wrong
    // password, oneself.
    put(
        &maildir,
        "a1",
        &cmd(
            blue,
            "blue",
            "a1@p.test",
            5,
            "mute red",
            password_of(&pw, "blue"),
        ),
    );
    put(
        &maildir,
        "a2",
        &cmd(
            white,
            "white",
            "a2@p.test",
            6,
            "mute green",
            password_of(&pw, "white"),
        ),
    );
    put(
        &maildir,
        "a3",
        &cmd(red, "red", "a3@p.test", 7, "mute blue", "not-it"),
    );
    put(
        &maildir,
        "a4",
        &cmd(
            red,
            "red",
            "a4@p.test",
            8,
            "mute red",
            password_of(&pw, "red"),
        ),
    );
    h.pass_ok(&at(10));
    settled(s, red, 3);
    settled(s, blue, 2);
    settled(s, white, 2);
    assert_eq!(mode(&mutes), 0o600);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mutes).unwrap()).unwrap();
    assert_eq!(
        m,
        serde_json::json!({"game": id, "mutes": {"blue": ["red"]}})
    );
    let mails = |a: &Account| -> Vec<String> { s.mails(a).iter().map(|m| text(m)).collect() };
    assert!(
        mails(blue).iter().any(|m| m.contains("You have muted red")),
        "{:#?}",
        mails(blue)
    );
    assert!(mails(white)
        .iter()
        .any(|m| m.contains("REFUSED") && m.contains("`green` is not a player")));
    assert!(mails(red)
        .iter()
        .any(|m| m.contains("REFUSED") && m.contains("password for red is not right")));
    assert!(mails(red)
        .iter()
        .any(|m| m.contains("REFUSED") && m.contains("red is you")));

    // Pass B: red writes to all (blue muted red: white only), red writes
    // to blue anonymously (refused, said plainly), white writes to red
    // anonymously, then white mutes red.
    let t1 = "MUTE-T1 red to all: the ford is mine";
    let t2 = "MUTE-T2 red to blue in grey: guess who";
    let t3 = "MUTE-T3 white to red in grey: watch blue";
    put(
        &maildir,
        "b1",
        &press_mail(
            red,
            &to,
            "b1@p.test",
            11,
            "press to all",
            password_of(&pw, "red"),
            t1,
        ),
    );
    put(
        &maildir,
        "b2",
        &press_mail(
            red,
            &to,
            "b2@p.test",
            12,
            "press to blue anonymous",
            password_of(&pw, "red"),
            t2,
        ),
    );
    put(
        &maildir,
        "b3",
        &press_mail(
            white,
            &to,
            "b3@p.test",
            13,
            "press to red anonymous",
            password_of(&pw, "white"),
            t3,
        ),
    );
    put(
        &maildir,
        "b4",
        &cmd(
            white,
            "white",
            "b4@p.test",
            14,
            "mute red",
            password_of(&pw, "white"),
        ),
    );
    let out = h.pass_ok(&at(20));
    assert!(out.contains("2 press relayed"), "{out}");
    settled(s, red, 6);
    settled(s, white, 5);
    let red_mails = mails(red);
    let ack1 = red_mails
        .iter()
        .find(|m| m.contains(t1) && m.contains("RELAYED"))
        .unwrap();
    assert!(
        ack1.contains("to white is RELAYED") && ack1.contains("Not relayed to blue, who muted you"),
        "{ack1}"
    );
    assert!(
        red_mails
            .iter()
            .any(|m| m.contains("REFUSED") && m.contains("blue has muted you")),
        "{red_mails:#?}"
    );
    // The entry names only white; the kept press notes blue withheld.
    let k1 = kept_with(&folder, t1);
    assert_eq!(k1["entry"]["to"], serde_json::json!(["white"]));
    assert_eq!(k1["withheld"], serde_json::json!(["blue"]));
    // Nothing of t2 was recorded.
    let mut kept = Vec::new();
    files_under(&folder.join("press"), &[], &mut kept);
    assert!(kept
        .iter()
        .all(|f| !std::fs::read_to_string(f).unwrap().contains(t2)));

    // Pass C: red answers the anonymous press (its sender, white, muted
    // red since): kept, not relayed, red told nothing of it. Blue unmutes
    // all and red writes to blue: it arrives.
    let anon = s
        .mails(red)
        .into_iter()
        .find(|m| text(m).contains(t3) && !text(m).contains("RELAYED"))
        .unwrap();
    let t4 = "MUTE-T4 red answers the grey one";
    put(
        &maildir,
        "c1",
        &reply_to(
            red,
            &anon,
            "c1@p.test",
            21,
            &format!(
                "press reply\npassword = \"{}\"\n\n{t4}",
                password_of(&pw, "red")
            ),
        ),
    );
    put(
        &maildir,
        "c2",
        &cmd(
            blue,
            "blue",
            "c2@p.test",
            22,
            "unmute all",
            password_of(&pw, "blue"),
        ),
    );
    let t5 = "MUTE-T5 red to blue, heard again";
    put(
        &maildir,
        "c3",
        &press_mail(
            red,
            &to,
            "c3@p.test",
            23,
            "press to blue",
            password_of(&pw, "red"),
            t5,
        ),
    );
    let out = h.pass_ok(&at(30));
    assert!(out.contains("2 press relayed"), "{out}");
    settled(s, red, 8);
    settled(s, blue, 4);
    let ack4 = mails(red).into_iter().find(|m| m.contains(t4)).unwrap();
    assert!(ack4.contains("is RELAYED"), "{ack4}");
    let lower = ack4.to_lowercase();
    assert!(
        !lower.contains("white") && !lower.contains("muted"),
        "{ack4}"
    );
    let k4 = kept_with(&folder, t4);
    assert_eq!(k4["entry"]["to"], serde_json::json!([]));
    assert_eq!(k4["withheld"], serde_json::json!(["white"]));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mutes).unwrap()).unwrap();
    assert_eq!(
        m,
        serde_json::json!({"game": id, "mutes": {"white": ["red"]}})
    );
    assert!(mails(blue).iter().any(|m| m.contains(t5)));
    assert!(mails(blue)
        .iter()
        .any(|m| m.contains("You have muted nobody")));

    // Muted press reached no mail, page or export of the muting player.
    let exports = scratch("mute-export");
    let export = |p: &str| -> Vec<(PathBuf, String)> {
        let out = exports.join(p);
        let (code, o, e) = herald(&[
            "export",
            &folder.display().to_string(),
            "--player",
            p,
            "--out",
            &out.display().to_string(),
        ]);
        assert_eq!(code, 0, "{o}{e}");
        contents(&out)
    };
    let (blue_x, white_x, red_x) = (export("blue"), export("white"), export("red"));
    for (who, acct, never) in [("blue", blue, [t1, t2]), ("white", white, [t4, t2])] {
        let page =
            std::fs::read_to_string(folder.join(format!("reports/turn-0000/{who}.html"))).unwrap();
        let x = if who == "blue" { &blue_x } else { &white_x };
        for t in never {
            assert!(
                s.mails(acct)
                    .iter()
                    .all(|m| !String::from_utf8_lossy(m).contains(t) && !text(m).contains(t)),
                "{who} got `{t}`"
            );
            assert!(!page.contains(t), "{who}'s page lists `{t}`");
            assert!(
                x.iter().all(|(_, b)| !b.contains(t)),
                "{who}'s export holds `{t}`"
            );
        }
    }
    // What did arrive is in the pages and exports.
    assert!(blue_x.iter().any(|(_, b)| b.contains(t5)));
    assert!(white_x.iter().any(|(_, b)| b.contains(t1)));
    assert!(
        red_x.iter().any(|(_, b)| b.contains(t4)),
        "the sender keeps their answer"
    );
    let white_page = std::fs::read_to_string(folder.join("reports/turn-0000/white.html")).unwrap();
    assert!(white_page.contains(t1));
    let (code, o, e) = herald(&["verify", &folder.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("ok: 4 press entries"), "{o}");
    // A mutes file changed by hand to name a stranger is refused, naming
    // it, not read as "nobody muted": the press waits.
    std::fs::write(
        &mutes,
        format!("{{\"game\":\"{id}\",\"mutes\":{{\"blue\":[\"mallory\"]}}}}\n"),
    )
    .unwrap();
    put(
        &maildir,
        "d1",
        &press_mail(
            red,
            &to,
            "d1@p.test",
            31,
            "press to blue",
            password_of(&pw, "red"),
            "MUTE-T6",
        ),
    );
    let out = h.pass_ok(&at(40));
    assert!(out.contains("0 press relayed"), "{out}");
    let log = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
    assert_eq!(log.matches("\"kind\":\"press\"").count(), 4);
    let _ = std::fs::remove_dir_all(&exports);
}

const NOW: &str = "2026-11-24T10:00:00Z";

/// Record press through the library's relay (what the host calls, under
/// the game's lock), at `now`.
fn relay(
    folder: &Path,
    sender: &str,
    to: &[&str],
    anonymous: bool,
    answers: Option<u32>,
    text: &str,
    now: &str,
) {
    let mut w = herald::pipeline::open_to_write(folder, std::time::Duration::ZERO, now).unwrap();
    let digest = herald::chain::canon::sha256_hex(format!("{sender}\n{text}").as_bytes());
    herald::pipeline::relay::record(
        &mut w,
        &herald::pipeline::relay::Relay {
            sender,
            to: to.iter().map(|s| s.to_string()).collect(),
            anonymous,
            answers,
            text,
            mail_sha256: &digest,
            withheld: Vec::new(),
        },
        now,
    )
    .unwrap();
}

/// A 2-player HEXWAR game with grey press and `reveal`, press relayed
/// during it (private, anonymous, an answer to it) and after its end, in
/// `dir/ID`: the texts, and the folder.
fn game_with_press(dir: &Path, id: &str, reveal: &str) -> (Vec<String>, PathBuf) {
    let folder = dir.join(id);
    let (code, o, e) = herald(&[
        "new",
        "hexwar",
        "--players",
        "black,white",
        "--id",
        id,
        "--out",
        &folder.display().to_string(),
        "--seed",
        "press-site-3",
        "--now",
        NOW,
        "--press",
        "grey",
        "--press-reveal",
        reveal,
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let pw: Vec<(String, String)> = ["black", "white"]
        .iter()
        .map(|p| {
            let line = o
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{p}: ")))
                .unwrap();
            (
                p.to_string(),
                line.trim().split_once(": ").unwrap().1.to_string(),
            )
        })
        .collect();
    let texts: Vec<String> = [
        "SITE-1 black to white: truce on the river",
        "SITE-2 grey to black: your king is exposed",
        "SITE-3 black answers the grey one",
        "SITE-4 after the end: well played",
    ]
    .iter()
    .map(|t| format!("{t} ({id})"))
    .collect();
    relay(
        &folder,
        "black",
        &["white"],
        false,
        None,
        &texts[0],
        "2026-11-24T10:01:00Z",
    );
    relay(
        &folder,
        "white",
        &["black"],
        true,
        None,
        &texts[1],
        "2026-11-24T10:02:00Z",
    );
    relay(
        &folder,
        "black",
        &[],
        false,
        Some(2),
        &texts[2],
        "2026-11-24T10:03:00Z",
    );
    let orders = dir.join(format!("{id}-orders"));
    std::fs::create_dir_all(&orders).unwrap();
    let mut turns = 0;
    // Played by the bots to the end; a site of the running game on the way.
    loop {
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        if g.head().outcome.is_some() {
            break;
        }
        assert!(turns < 300, "the game does not end");
        if turns == 2 {
            for extra in [&[][..], &["--player", "black"][..]] {
                let out = dir.join(format!("{id}-running-{}", extra.len()));
                let mut args = vec![
                    "site",
                    folder.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                ];
                args.extend_from_slice(extra);
                let (code, o, e) = herald(&args);
                assert_eq!(code, 0, "{o}{e}");
                assert!(
                    o.contains("3 press messages, whose texts this site does not show"),
                    "{o}"
                );
                for (f, b) in contents(&out) {
                    for t in &texts {
                        assert!(
                            !b.contains(t.as_str()),
                            "{} (a running game's site) holds `{t}`",
                            f.display()
                        );
                    }
                }
            }
        }
        let mut files = Vec::new();
        for (p, body) in bot_files(&folder, &pw) {
            let f = orders.join(format!("{turns}-{p}.toml"));
            std::fs::write(&f, body).unwrap();
            files.push(f.display().to_string());
        }
        let when = at(60 * (turns + 1));
        let mut args = vec!["resolve", folder.to_str().unwrap()];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--now", &when]);
        let (code, o, e) = herald(&args);
        assert_eq!(code, 0, "{o}{e}");
        turns += 1;
    }
    relay(
        &folder,
        "black",
        &["white"],
        false,
        None,
        &texts[3],
        &at(60 * (turns + 2)),
    );
    (texts, folder)
}

/// `herald site` of a finished game shows its press only where its rules
/// say `--press-reveal end`: then every text, and who sent the anonymous
/// one, with `press.txt` holding each nonce and opening to check them
/// against the game file (`verify --witness`); never
/// in a game whose rules say `never`, in a player's site, or in a site of
/// the running game (every file of each site scanned for each text). The
/// host's gallery follows the same rule.
#[test]
fn a_finished_games_site_shows_press_only_where_its_rules_reveal_it() {
    let dir = scratch("press-site");
    for reveal in ["end", "never"] {
        let id = format!("ps{reveal}");
        let (texts, folder) = game_with_press(&dir, &id, reveal);
        let kept: Vec<serde_json::Value> = {
            let mut all = Vec::new();
            files_under(&folder.join("press"), &[], &mut all);
            all.iter()
                .filter(|f| f.file_stem().is_some_and(|n| n.len() == 32))
                .map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap())
                .collect()
        };
        assert_eq!(kept.len(), 4);
        let nonces: Vec<String> = kept
            .iter()
            .map(|k| k["nonce"].as_str().unwrap().to_string())
            .collect();
        for (extra, shows) in [
            (&[][..], reveal == "end"),
            (&["--player", "white"][..], false),
        ] {
            let out = dir.join(format!("{id}-site-{}", extra.len()));
            let mut args = vec![
                "site",
                folder.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            let (code, o, e) = herald(&args);
            assert_eq!(code, 0, "{o}{e}");
            let files = contents(&out);
            for t in &texts {
                let holding: Vec<&PathBuf> = files
                    .iter()
                    .filter(|(_, b)| b.contains(t.as_str()))
                    .map(|(f, _)| f)
                    .collect();
                if shows {
                    // The page shows it; press.txt holds it with its proof.
                    assert_eq!(
                        holding,
                        vec![&out.join("index.html"), &out.join("press.txt")],
                        "`{t}`"
                    );
                } else {
                    assert!(
                        holding.is_empty(),
                        "{reveal} {extra:?}: {holding:?} hold `{t}`"
                    );
                }
            }
            // The nonces only in press.txt, where the rules reveal press:
            // with them, anyone checks each text against the game file.
            for (f, b) in &files {
                for n in &nonces {
                    assert!(
                        !b.contains(n.as_str()) || (shows && f.ends_with("press.txt")),
                        "{} holds a press nonce",
                        f.display()
                    );
                }
            }
            let index = std::fs::read_to_string(out.join("index.html")).unwrap();
            assert_eq!(index.contains("<section id=\"press\">"), shows);
            if shows {
                assert!(o.contains("with its 4 press messages"), "{o}");
                // The rules reveal the press at the end, its anonymous
                // senders too: the item names white, and press.txt opens
                // the commitment the game file holds.
                let item = index
                    .split("<li id=\"press-2\"")
                    .nth(1)
                    .unwrap()
                    .split("</li>")
                    .next()
                    .unwrap();
                assert!(
                    item.contains("from <b>white, sent anonymously</b>"),
                    "{item}"
                );
                let (code, v, e) = herald(&[
                    "verify",
                    folder.to_str().unwrap(),
                    "--witness",
                    out.join("press.txt").to_str().unwrap(),
                ]);
                assert_eq!(code, 0, "{v}{e}");
                assert!(
                    v.contains("press #2 of game psend was sent by white"),
                    "{v}"
                );
                let marker: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(out.join("site.json")).unwrap())
                        .unwrap();
                assert_eq!(marker["press"], 4);
            } else {
                assert!(
                    o.contains("4 press messages, whose texts this site does not show"),
                    "{o}"
                );
            }
        }
        // A published game file alone (no press/ beside it): no texts.
        let published = dir.join(format!("{id}-published"));
        std::fs::create_dir_all(&published).unwrap();
        std::fs::copy(folder.join("game.jsonl"), published.join("game.jsonl")).unwrap();
        let out = dir.join(format!("{id}-site-published"));
        let (code, o, e) = herald(&[
            "site",
            published.join("game.jsonl").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{o}{e}");
        for (_, b) in contents(&out) {
            assert!(texts.iter().all(|t| !b.contains(t.as_str())));
        }
    }
    // The gallery of the two games: press in the one whose rules reveal it.
    let (code, o, e) = herald(&["site", "--host", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{o}{e}");
    for (id, shows) in [("psend", true), ("psnever", false)] {
        let site = contents(&dir.join("gallery").join(id));
        let has = site
            .iter()
            .any(|(_, b)| b.contains(&format!("SITE-1 black to white: truce on the river ({id})")));
        assert_eq!(has, shows, "{id}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `herald report --format html` (and eml) carries the press section the
/// host's page does: the press the player got with its text, the sender as
/// the rules show it, and the box that writes press; never another
/// player's press.
#[test]
fn report_html_lists_the_press_the_player_got() {
    let dir = scratch("press-report");
    let folder = dir.join("pr");
    let (code, o, e) = herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue,white",
        "--id",
        "pr",
        "--out",
        &folder.display().to_string(),
        "--seed",
        "press-report-1",
        "--now",
        NOW,
        "--press",
        "grey",
        "--moderator",
        "herald+pr@example.org",
        "--email",
        "red=r@example.org",
        "--email",
        "blue=b@example.org",
        "--email",
        "white=w@example.org",
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let to_blue = "REPORT-1 red to blue: meet at the ford";
    let anon = "REPORT-2 someone to red: beware";
    relay(
        &folder,
        "red",
        &["blue"],
        false,
        None,
        to_blue,
        "2026-11-24T10:01:00Z",
    );
    relay(
        &folder,
        "white",
        &["red"],
        true,
        None,
        anon,
        "2026-11-24T10:02:00Z",
    );
    let report = |p: &str, f: &str| {
        let (code, o, e) = herald(&[
            "report",
            folder.to_str().unwrap(),
            "--player",
            p,
            "--format",
            f,
            "--now",
            "2026-11-24T11:00:00Z",
        ]);
        assert_eq!(code, 0, "{o}{e}");
        o
    };
    let blue = report("blue", "html");
    assert!(
        blue.contains(to_blue) && blue.contains("id=\"press-write\""),
        "blue's page"
    );
    assert!(
        blue.contains("from <b>red (") || blue.contains("from <b>red</b>"),
        "the sender by name"
    );
    assert!(!blue.contains(anon));
    let red = report("red", "html");
    assert!(red.contains(anon) && red.contains("from <b>anonymous</b>") && !red.contains(to_blue));
    // The host's page in the folder holds the same section.
    let kept = std::fs::read_to_string(folder.join("reports/turn-0000/red.html")).unwrap();
    let section = |h: &str| {
        h.split("id=\"press\"")
            .nth(1)
            .map(|s| s.split("</section>").next().unwrap().to_string())
    };
    assert_eq!(section(&red), section(&kept));
    assert!(section(&red).is_some());
    let white = report("white", "html");
    assert!(
        !white.contains(to_blue) && !white.contains(anon) && white.contains("id=\"press-write\"")
    );
    // The eml lists it above the report text.
    let eml = report("red", "eml");
    let m = mail_parser::MessageParser::default()
        .parse(eml.as_bytes())
        .unwrap();
    let body = m.body_text(0).unwrap();
    assert!(
        body.contains("PRESS YOU GOT") && body.contains(anon),
        "{body}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The host's limits and the game's rules in time, through the real
/// Postfix: a player's press mails beyond host.toml's `press_per_day` in
/// 24 hours and a text longer than `press_max_bytes` are refused, naming
/// the setting; an attachment is never relayed (only the text); a game
/// whose rules say `--press-while-resolving no` refuses press once the
/// turn's deadline has passed. Nothing refused is recorded.
#[test]
fn press_limits_and_the_rules_in_time_are_kept() {
    let s = servers();
    let id = "nwl";
    let Norse3 {
        h,
        maildir,
        accts,
        pw,
        folder,
        to,
    } = norse3_by_maildir(
        "press_per_day = 2\npress_max_bytes = 80",
        id,
        &[
            "--deadline-every",
            "48h",
            "--press",
            "private",
            "--press-while-resolving",
            "no",
        ],
    );
    let (red, blue, white) = (&accts[0], &accts[1], &accts[2]);
    for k in 0..3 {
        put(
            &maildir,
            &format!("l{k}"),
            &press_mail(
                red,
                &to,
                &format!("l{k}@p.test"),
                5 + k,
                "press to blue",
                password_of(&pw, "red"),
                &format!("LIMIT-{k} short"),
            ),
        );
    }
    let long = format!("LONG-{}", "x".repeat(100));
    put(
        &maildir,
        "l3",
        &press_mail(
            white,
            &to,
            "l3@p.test",
            9,
            "press to blue",
            password_of(&pw, "white"),
            &long,
        ),
    );
    // A press with an attachment: its text is relayed, the file is not.
    let attached = format!(
        "From: {w}\r\nTo: {to}\r\nSubject: press\r\nMessage-ID: <l4@p.test>\r\nDate: {d}\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         press to blue\r\npassword = \"{p}\"\r\n\r\nATTACH-TEXT see the map\r\n--b1\r\nContent-Type: text/plain; name=\"map.txt\"\r\n\
         Content-Disposition: attachment; filename=\"map.txt\"\r\n\r\nATTACHED-SECRET-FILE\r\n--b1--\r\n",
        w = white.address,
        d = crate::host_mail::date(10),
        p = password_of(&pw, "white")
    );
    put(&maildir, "l4", attached.as_bytes());
    let out = h.pass_ok(&at(20));
    assert!(out.contains("3 press relayed"), "{out}");
    settled(s, red, 4);
    settled(s, white, 3);
    settled(s, blue, 4);
    let texts = |a: &Account| -> Vec<String> { s.mails(a).iter().map(|m| text(m)).collect() };
    let red_got = texts(red);
    assert!(
        red_got
            .iter()
            .any(|m| m.contains("REFUSED") && m.contains("press_per_day = 2")),
        "{red_got:#?}"
    );
    let white_got = texts(white);
    assert!(
        white_got
            .iter()
            .any(|m| m.contains("REFUSED") && m.contains("press_max_bytes")),
        "{white_got:#?}"
    );
    let blue_raw: Vec<String> = s
        .mails(blue)
        .iter()
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect();
    assert!(texts(blue)
        .iter()
        .any(|m| m.contains("ATTACH-TEXT see the map")));
    assert!(blue_raw.iter().all(|m| !m.contains("ATTACHED-SECRET-FILE")
        && !m.contains("map.txt")
        && !m.contains(&long)
        && !m.contains("LIMIT-2")));
    for m in s.mails(blue) {
        let p = mail_parser::MessageParser::default().parse(&m[..]).unwrap();
        if text(&m).contains("ATTACH-TEXT") {
            assert_eq!(
                p.attachment_count(),
                0,
                "a relayed press carries no attachment"
            );
        }
    }
    // Past the deadline (48 h), the turn waiting: refused with the rule.
    put(
        &maildir,
        "l5",
        &press_mail(
            white,
            &to,
            "l5@p.test",
            48 * 60 + 5,
            "press to red",
            password_of(&pw, "white"),
            "LATE-after the deadline",
        ),
    );
    let out = h.pass_ok(&at(48 * 60 + 10));
    assert!(out.contains("0 press relayed"), "{out}");
    settled(s, white, 4);
    assert!(
        texts(white).iter().any(|m| m.contains("REFUSED")
            && m.contains("deadline of turn 0")
            && m.contains("not while a turn is being resolved")),
        "{:#?}",
        texts(white)
    );
    let log = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
    assert_eq!(log.matches("\"kind\":\"press\"").count(), 3);
    for (f, b) in contents(&folder) {
        assert!(
            !b.contains("LATE-after")
                && !b.contains("LIMIT-2")
                && !b.contains(&long)
                && !b.contains("ATTACHED-SECRET"),
            "{}",
            f.display()
        );
    }
}

/// The rules' `after_end`: press to a finished game is refused when its
/// rules say `--press-after-end no`, and allowed when they say yes.
#[test]
fn press_after_the_end_follows_the_rules() {
    let dir = scratch("press-after-end");
    let out = dir.join("d");
    let (code, _, err) = herald(&[
        "demo",
        "hexwar",
        "--out",
        out.to_str().unwrap(),
        "--now",
        NOW,
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, g) = herald::pipeline::open(&out.join("game")).unwrap();
    assert!(g.head().outcome.is_some());
    let players = g.players();
    let to = herald::pipeline::press::To::All;
    let mut rules = herald::pipeline::press::no_press();
    rules.kind = "private".into();
    rules.after_end = false;
    let why =
        herald::pipeline::press::allowed(&g, &rules, &players[0], &to, false, NOW).unwrap_err();
    assert!(
        why.contains("the game is over") && why.contains("not after the game ends"),
        "{why}"
    );
    rules.after_end = true;
    let to_all =
        herald::pipeline::press::allowed(&g, &rules, &players[0], &to, false, NOW).unwrap();
    assert_eq!(to_all, vec![players[1].clone()]);
    let _ = std::fs::remove_dir_all(&dir);
}
