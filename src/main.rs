//! The `pbem` binary: parses its flags, hands over to [`pbem::cli::run`], and turns the outcome into an
//! exit status.

use clap::Parser;

fn main() {
    let args = pbem::cli::Args::parse();
    std::process::exit(pbem::cli::run(args));
}
