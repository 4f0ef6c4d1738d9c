use clap::Parser;

fn main() {
    let cli = herald::cli::Cli::parse();
    match herald::cli::run(cli) {
        Ok(out) => print!("{out}"),
        Err(e) => {
            eprintln!("herald: {}", e.problems.join("\nherald: "));
            std::process::exit(e.exit_code());
        }
    }
}
