//! The `pbem` binary: parses its flags, hands over to [`pbem::cli::run`], and turns the outcome into an
//! exit status.

use clap::Parser;

fn main() {
    let args = pbem::cli::Args::parse();
    let status = pbem::cli::run(args);
    pbem::cli::report_rss();
    std::process::exit(status);
}
