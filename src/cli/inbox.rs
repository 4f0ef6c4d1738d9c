use crate::error::Result;
use crate::pipeline::inbox::{self, Fate};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// A Maildir folder (with new/ and cur/) or an mbox file.
    pub mailbox: PathBuf,
    /// The time to date the replies with (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// Read new mail: accepted order files are stored sealed in
/// orders/turn-NNNN/, and every mail gets a reply (.eml) in outbox/.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let read = inbox::run(&a.game, &a.mailbox, &now, wait)?;
    let replies = crate::pipeline::loaded::folder(&a.game)?.outbox();
    let mut s = String::new();
    let (mut ok, mut bad, mut old) = (0, 0, 0);
    for r in &read {
        let what = match &r.fate {
            Fate::Accepted { player, replaced } => {
                ok += 1;
                match replaced {
                    Some(t) => format!("accepted, orders of {player} (replacing {t})"),
                    None => format!("accepted, orders of {player}"),
                }
            }
            Fate::Superseded { player, kept } => {
                format!("valid but older than the orders of {player} already stored ({kept})")
            }
            Fate::Refused { problems } => {
                bad += 1;
                format!("refused: {}", problems.join("; "))
            }
            Fate::Throttled { player } => {
                bad += 1;
                format!("not read: too many password checks for {player} this hour")
            }
            Fate::AlreadyRead => {
                old += 1;
                "already read; skipped".into()
            }
        };
        s.push_str(&format!(
            "{} from {}: {what}\n",
            r.place,
            if r.from.is_empty() { "?" } else { &r.from }
        ));
    }
    s.push_str(&format!(
        "{} mails: {ok} accepted, {bad} refused, {old} already read; replies in {}\n",
        read.len(),
        replies.display()
    ));
    Ok(s)
}
