use crate::auth;
use crate::engine::{self, Loaded};
use crate::error::{Error, Result};
use crate::file;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The player who gets a new password.
    #[arg(long)]
    pub player: String,
}

/// A new password for one player: the game file keeps its Argon2id hash,
/// the secrets file beside it the password; the old one stops working.
pub fn run(a: Args) -> Result<String> {
    let mut g = Loaded::open(&a.game)?;
    let seat = super::seat_of(&g, &a.player)?;
    let (pw, salt) = auth::new_secret(None);
    g.file.players[seat].password = auth::hash(&pw, &salt, auth::Cost::Standard);
    let secrets = engine::secrets_path(&a.game);
    let mut table: toml::Table = if secrets.exists() {
        toml::from_str(&file::read_text(&secrets)?).map_err(|e| {
            Error::refused(format!(
                "{}: not a herald secrets file ({e}); nothing changed",
                secrets.display()
            ))
        })?
    } else {
        toml::Table::new()
    };
    table
        .entry("passwords")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        .as_table_mut()
        .ok_or_else(|| {
            Error::refused(format!("{}: [passwords] is not a table", secrets.display()))
        })?
        .insert(a.player.clone(), toml::Value::String(pw.clone()));
    let text = format!(
        "# herald passwords for game {}.\n# Give each player their own password only; the game file keeps only salted hashes.\n{}",
        g.file.id,
        toml::to_string(&table).expect("a table serialises")
    );
    file::write_atomic(&a.game, g.file.to_text().as_bytes())?;
    file::write_atomic(&secrets, text.as_bytes())?;
    Ok(format!(
        "new password for {} in game {}: {pw}\n(the old one no longer works; also written to {})\n",
        a.player,
        g.file.id,
        secrets.display()
    ))
}
