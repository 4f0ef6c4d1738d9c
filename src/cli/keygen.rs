use crate::chain::Signer;
use crate::error::Result;
use crate::store::write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where to write the key (created 0600; it must not exist).
    #[arg(long)]
    pub out: PathBuf,
}

/// A moderator's Ed25519 key for `new --key`: one key for every game of a
/// host, so players see the same key in every game's reports.
pub fn run(a: Args) -> Result<String> {
    if std::fs::symlink_metadata(&a.out).is_ok() {
        return Err(crate::error::Error::usage(format!(
            "{} exists; herald never overwrites a key",
            a.out.display()
        )));
    }
    let k = Signer::generate();
    write::outside(&a.out, k.to_file().as_bytes())?;
    Ok(format!(
        "wrote {} (secret, mode 0600)\npublic key: {}\n",
        a.out.display(),
        k.public()
    ))
}
