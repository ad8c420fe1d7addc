//! The command line: parses flags (all in `flags.rs`) and calls the
//! library, one module per command. Nothing here knows how a page is made.

use std::io::Write as _;
use std::process::ExitCode;
use std::sync::OnceLock;

/// `println!`, onto a stdout whose reader may have gone: see [`out`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::out(format!("{}\n", format_args!($($arg)*)).as_bytes())
    };
}

mod bench;
mod build;
mod endgame;
mod flags;
mod images;
mod record;
mod screenshots;
mod tree;

use flags::{Cli, Command, repo_root};

/// Parses the command line. A usage error is one line on stderr (clap's
/// first paragraph, which names the problem, on one line: "the following
/// required arguments were not provided:" and the arguments under it, or,
/// for a line that stops before naming a command, the commands it needs
/// one of) and exit code 2; so is a refusal of flags that only together say
/// something wrong ([`Cli::try_parse_checked`]).
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse_checked().map_err(|e| {
        if !e.use_stderr() {
            // --help and --version: print as clap would, and succeed.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let first = match e.kind() {
            // Clap's own words are the command's about: say what is missing.
            clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            | clap::error::ErrorKind::MissingSubcommand => missing_command(),
            _ => first_paragraph(&e.to_string()),
        };
        // The help that lists the flags: the subcommand's own.
        let sub = std::env::args_os()
            .nth(1)
            .and_then(|a| a.into_string().ok())
            .filter(|a| {
                use clap::CommandFactory as _;
                Cli::command().get_subcommands().any(|c| c.get_name() == a)
            });
        match sub {
            Some(sub) => eprintln!("{first} (see `cargo xtask {sub} --help`)"),
            None => eprintln!("{first} (see `cargo xtask --help`)"),
        }
        ExitCode::from(2)
    })
}

/// The error of a command line that stops before naming a command: which
/// of the last command named (the top level's, or `record`'s) it needs.
fn missing_command() -> String {
    use clap::CommandFactory as _;
    let mut cmd = Cli::command();
    let mut named = vec!["cargo xtask".to_string()];
    for arg in std::env::args_os().skip(1) {
        let Some(sub) = arg.to_str().and_then(|a| cmd.find_subcommand(a)).cloned() else {
            break;
        };
        named.push(sub.get_name().to_string());
        cmd = sub;
    }
    let commands: Vec<&str> = (cmd.get_subcommands().map(|c| c.get_name()))
        .filter(|&n| n != "help")
        .collect();
    format!(
        "error: `{}` needs a command: {}",
        named.join(" "),
        commands.join(", ")
    )
}

/// The first paragraph of `text` (up to its first blank line), its lines
/// joined by spaces: clap's error without its usage and hints.
fn first_paragraph(text: &str) -> String {
    let lines = text.lines().skip_while(|l| l.trim().is_empty());
    let words: Vec<&str> = lines
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    match words.is_empty() {
        true => "error".to_string(),
        false => words.join(" "),
    }
}

/// Keeps the build's buffers, even the largest (a book's text, a few MB),
/// in the heap rather than in mappings of their own, and keeps up to
/// 32 MB free at the top of each heap rather than trimming it back at
/// 128 KB.
///
/// A buffer in a mapping of its own is handed back to the system when it
/// is freed, so every book's buffers are faulted in anew: with a 1 MB
/// threshold a default build took 15,000 page faults and 3% more CPU time
/// than with this 16 MB one, which takes 10,400, for a peak 6 MB higher
/// when the output is new (53 MB against 47) and about the same over a
/// rebuild (at most 57 MB against 56). glibc's own threshold starts at
/// 128 KB and rises with each large buffer freed, so the first books'
/// buffers would still be mapped each time.
///
/// Without the trim threshold each thread's heap gives its pages back
/// between one edition's screens and the next and faults them in again: a
/// fifth of the page faults of a default build and 4% of its CPU time.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters, before any thread
    // starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 16 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
    }
}

/// Why stdout could not be written, other than its reader going.
static STDOUT_FAILED: OnceLock<String> = OnceLock::new();

/// Writes `bytes` to stdout. A reader that has gone (`cargo xtask
/// build-site | head`) is no error: the command goes on and ends as it
/// would (its site written, its bench's folders removed), and what it
/// prints goes nowhere, as a C program's would (`println!` panicked,
/// after the site was written). Any other failure (`> /dev/full`) is
/// the command's one error line once it is done, and exit code 1.
pub fn out(bytes: &[u8]) {
    static GONE: OnceLock<()> = OnceLock::new();
    if GONE.get().is_some() {
        return;
    }
    if let Err(e) = std::io::stdout().lock().write_all(bytes) {
        let _ = GONE.set(());
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = STDOUT_FAILED.set(format!("cannot write to stdout: {e}"));
        }
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
        Command::Endgame(args) => endgame::run(args),
    };
    let result = result.and_then(|()| match STDOUT_FAILED.get() {
        Some(why) => Err(anyhow::anyhow!("{why}")),
        None => Ok(()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
