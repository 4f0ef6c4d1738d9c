use clap::Parser;

fn main() {
    // Everything herald creates is its user's alone (folders 0700, files
    // 0600), whatever umask it was started with: game folders, the host's
    // state and outboxes hold passwords' hashes, addresses and mails.
    // SAFETY: umask only sets the process's file mode mask.
    unsafe {
        libc::umask(0o077);
    }
    let cli = herald::cli::Cli::parse();
    match herald::cli::run(cli) {
        Ok(out) => {
            print!("{out}");
            for w in herald::error::take_warnings() {
                eprintln!("herald: warning: {w}");
            }
        }
        Err(e) => {
            eprintln!("herald: {}", e.problems.join("\nherald: "));
            std::process::exit(e.exit_code());
        }
    }
}
