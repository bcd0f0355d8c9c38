//! The `pbem` binary: parses its flags, hands over to [`pbem::cli::run`], and turns the outcome into an
//! exit status.

fn main() {
    let status = match pbem::cli::parse_args() {
        Ok(args) => pbem::cli::run(args),
        Err(status) => status,
    };
    pbem::cli::report_rss();
    std::process::exit(status);
}
