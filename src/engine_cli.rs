//! `pbem engine <game> ...`: drives a rules engine from the shell. (Being written.)

use std::io::{Read, Write};

/// Runs `pbem engine` with the words after `engine`; returns the exit status.
pub fn run(args: &[String], input: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let _ = (args, input, out);
    let _ = writeln!(err, "pbem engine: not yet");
    2
}
