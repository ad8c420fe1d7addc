//! The command line: parses flags (all in `flags.rs`) and calls the
//! library, one module per command. Nothing here knows how a page is made.

use std::process::ExitCode;

use clap::Parser as _;

mod bench;
mod build;
mod flags;
mod images;
mod record;
mod screenshots;
mod tree;

use flags::{Cli, Command, repo_root};

/// Parses the command line. A usage error is one line on stderr (clap's
/// first line, which names the problem) and exit code 2.
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        if !e.use_stderr() {
            // --help and --version: print as clap would, and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.to_string();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("error");
        eprintln!("{first} (see `cargo xtask --help`)");
        ExitCode::from(2)
    })
}

/// Hands every buffer of a megabyte or more (a book, a single-file
/// edition) back to the system as soon as it is freed. By default glibc
/// raises that threshold each time such a buffer is freed, so later books
/// come from the heap and stay resident after they are written: 60 MB at
/// the peak of a default build instead of 56, for 1% of its time.
///
/// The heaps below that size are kept, up to 32 MB free at their top,
/// rather than trimmed back at 128 KB: each thread's heap otherwise gives
/// its pages back between one edition's screens and the next and faults
/// them in again. That is a fifth of the page faults of a default build
/// and 4% of its CPU time, for 3 MB more at its peak.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters, before any thread
    // starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
    }
}

fn main() -> ExitCode {
    tune_allocator();
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match &cli.command {
        Command::BuildSite(args) => build::run(args),
        Command::Bench(args) => bench::run(args),
        Command::DrawImages { out } => {
            images::draw(&out.clone().unwrap_or_else(|| repo_root().join("static")))
        }
        Command::Screenshots(args) => screenshots::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Record(cmd) => record::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
