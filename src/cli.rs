//! The binary's own flags and subcommands (clap), and the one place where outcomes become exit statuses.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// `pbem`: a play-by-email game server.
#[derive(Debug, Parser)]
#[command(name = "pbem", version, about)]
pub struct Args {
    /// TOML configuration file (default: built-in defaults).
    #[arg(long, env = "PBEM_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// The SQLite database file, overriding the configuration.
    #[arg(long, global = true)]
    pub db: Option<PathBuf>,
    /// Use the file transport into this folder, overriding the configuration.
    #[arg(long, global = true)]
    pub outbox: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Drive a rules engine from the shell: `pbem engine limit new|moves|play|status|show|perft|playout`.
    Engine {
        /// The game and the engine command with its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Any command line of the mail language, run as the admin: `pbem limit show 101`.
    #[command(external_subcommand)]
    Mail(Vec<String>),
}

/// Runs the command and returns the exit status.
pub fn run(args: Args) -> i32 {
    match args.command {
        Command::Engine { args } => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            let stderr = std::io::stderr();
            crate::engine_cli::run(
                &args,
                &mut stdin.lock(),
                &mut stdout.lock(),
                &mut stderr.lock(),
            )
        }
        Command::Mail(words) => {
            eprintln!("pbem: not yet: {}", words.join(" "));
            2
        }
    }
}
