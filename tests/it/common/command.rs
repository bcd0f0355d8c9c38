//! A process to run with its input given up front and its output collected: the part of
//! `assert_cmd::Command` these tests used, on std alone (assert_cmd and its dependencies were a
//! tenth of the first build).

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::process::{Child, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// `std::process::Command` with the bytes to write to its standard input and a time limit.
pub struct Command {
    cmd: std::process::Command,
    stdin: Option<Vec<u8>>,
    timeout: Option<Duration>,
}

impl Command {
    /// The program at `program`, without arguments.
    pub fn new(program: impl AsRef<OsStr>) -> Command {
        Command::from_std(std::process::Command::new(program))
    }

    /// Wraps a command already set up.
    pub fn from_std(cmd: std::process::Command) -> Command {
        Command {
            cmd,
            stdin: None,
            timeout: None,
        }
    }

    /// Adds an argument.
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Command {
        self.cmd.arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(&mut self, args: I) -> &mut Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// Sets an environment variable.
    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Command {
        self.cmd.env(key, value);
        self
    }

    /// The bytes the process reads on its standard input (else it reads nothing: stdin is empty).
    pub fn write_stdin(&mut self, bytes: impl Into<Vec<u8>>) -> &mut Command {
        self.stdin = Some(bytes.into());
        self
    }

    /// Kills the process if it has not ended after `limit`; `output` then fails.
    pub fn timeout(&mut self, limit: Duration) -> &mut Command {
        self.timeout = Some(limit);
        self
    }

    /// Runs the process to its end and returns its exit status and output.
    pub fn output(&mut self) -> std::io::Result<Output> {
        let mut child = self
            .cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        // Writing, and reading both pipes, on their own threads: a process that writes much before
        // reading all its input would otherwise block us, and we it.
        let input = self.stdin.clone().unwrap_or_default();
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let writer = thread::spawn(move || {
            // A process may end without reading all its input: that is its business.
            let _ = pipe.write_all(&input);
        });
        let stdout = reader(child.stdout.take().expect("stdout is piped"));
        let stderr = reader(child.stderr.take().expect("stderr is piped"));
        let status = match self.timeout {
            None => child.wait()?,
            Some(limit) => wait_at_most(&mut child, limit)?,
        };
        writer.join().expect("the stdin writer panicked");
        Ok(Output {
            status,
            stdout: stdout.join().expect("the stdout reader panicked")?,
            stderr: stderr.join().expect("the stderr reader panicked")?,
        })
    }
}

fn reader(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<std::io::Result<Vec<u8>>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        pipe.read_to_end(&mut bytes)?;
        Ok(bytes)
    })
}

fn wait_at_most(child: &mut Child, limit: Duration) -> std::io::Result<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the process ran longer than {limit:?} and was killed"),
            ));
        }
        thread::sleep(Duration::from_millis(10));
    }
}
