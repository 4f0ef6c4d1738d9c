use crate::error::{Error, Result};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The host folder (the one `herald host` runs on).
    pub dir: PathBuf,
    /// Where to listen: ADDRESS:PORT (port 0 picks a free one, printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The address players reach the server at, for the sign-in links
    /// (e.g. https://play.example.org behind a proxy; default: http:// and
    /// the listening address). An https URL makes the session cookie Secure.
    #[arg(long)]
    pub url: Option<String>,
}

/// `herald serve DIR`: serve the host folder over HTTP until stopped.
pub fn run(a: Args) -> Result<String> {
    let listen = listen(&a.listen)?;
    if let Some(u) = &a.url {
        if !(u.starts_with("http://") || u.starts_with("https://")) {
            return Err(Error::usage(format!(
                "--url {u}: give the server's address as players reach it, http:// or https://"
            )));
        }
    }
    crate::web::serve(crate::web::Options {
        dir: a.dir,
        listen,
        url: a.url,
    })?;
    Ok(String::new())
}

/// A listening address, ADDRESS:PORT.
pub(crate) fn listen(s: &str) -> Result<SocketAddr> {
    s.parse().map_err(|_| {
        Error::usage(format!(
            "--listen {s}: not ADDRESS:PORT (e.g. 127.0.0.1:8080)"
        ))
    })
}
