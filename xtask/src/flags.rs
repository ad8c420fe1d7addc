//! Every flag of every command, parsed by clap in one place. Numbers are
//! range-checked here, so a bad value is one line from clap and exit 2;
//! every number takes a negative value as its value (`--seed -1` is out
//! of range, not an unknown flag), every path may be any name the system
//! allows (not only UTF-8), and any other value that is not UTF-8 is
//! refused naming its flag ([`Utf8`]). A chess challenge's start is a FEN
//! checked here too ([`Start`]), and what no one flag can say alone (a
//! start's mate with its spare moves) is checked right after clap
//! ([`Cli::try_parse_checked`]), refused the same way.

use std::ffi::{OsStr, OsString};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use tictactoe_book::games::chess::challenge::{self, Challenge, StartError};
use tictactoe_book::games::chess::{Ending, Position};

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{CommandFactory as _, Parser, Subcommand};
use tictactoe_book::editions::vs_computer;
use tictactoe_book::games::hanoi;
use tictactoe_book::games::tictactoe::record;
use tictactoe_book::opponent::Level;
use tictactoe_book::site::{Budgets, Options};

/// The command line.
#[derive(Parser)]
#[command(name = "cargo xtask", about = "Build and check the tic-tac-toe book")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The largest book budget a flag takes: a gigabyte, far past any book.
pub const MAX_BUDGET_KB: i64 = 1_000_000;

/// The most spare moves a chess challenge's flag takes: a mate takes at
/// least one move, and a challenge at most [`challenge::MAX_LEFT`] (the
/// start's own mate is checked with the start, by [`BuildArgs::check`]).
const MAX_SPARE: u8 = challenge::MAX_LEFT - 1;

/// The longest mate of `ending` with White to move, in moves: the issue's
/// known answers, which `games::chess`'s tests check and a test here
/// holds to the tablebase. With no more spare moves than
/// [`challenge::MAX_LEFT`] less this, every start of the ending is a
/// challenge (no position with White to move is a draw), so
/// [`BuildArgs::check`] solves a tablebase, a twentieth of a second, only
/// past it.
const fn longest_mate(ending: Ending) -> u8 {
    match ending {
        Ending::Kqk => 10,
        Ending::Krk => 16,
    }
}

impl Cli {
    /// This process's command line, parsed by clap, then checked for what
    /// no one flag can say alone ([`BuildArgs::check`]): an error either
    /// way is clap's, so it prints as one line and exits 2.
    pub fn try_parse_checked() -> Result<Cli, clap::Error> {
        let cli = Cli::try_parse()?;
        match &cli.command {
            Command::BuildSite(args) | Command::Bench(args) | Command::Screenshots(args) => {
                args.check()?
            }
            _ => {}
        }
        Ok(cli)
    }
}

/// `--out`, refused at once (exit 2, before anything is built) if it
/// names no folder of its own, and otherwise as the build takes it:
/// `site/.` and `site/` are `site`. Any name the system allows, UTF-8 or
/// not.
fn out_dir() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().try_map(|s: OsString| {
        tictactoe_book::output::out_path(Path::new(&s)).map_err(|e| e.to_string())
    })
}

/// A value parser that refuses a value that is not UTF-8 naming its flag
/// (clap's own parsers of text say only "invalid UTF-8 was detected in
/// one or more arguments"), then hands it to the parser it wraps.
#[derive(Clone)]
pub struct Utf8<P>(pub P);

impl<P: TypedValueParser> TypedValueParser for Utf8<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        if value.to_str().is_none() {
            let arg = arg.map_or_else(|| "a value".to_string(), |a| format!("'{a}'"));
            let message = format!(
                "invalid value '{}' for {arg}: not UTF-8",
                value.to_string_lossy()
            );
            return Err(
                clap::Error::raw(clap::error::ErrorKind::InvalidUtf8, message).with_cmd(cmd),
            );
        }
        self.0.parse_ref(cmd, arg, value)
    }
}

/// The start of `ending`'s chess challenge, as FEN: a legal position of
/// that ending with White to move ([`Position::from_fen`]). A refused one
/// is one line naming the flag and the fault, without the value itself
/// (it may be long, or hold line breaks): [`tictactoe_book::games::chess::FenError`]
/// names the fault.
#[derive(Clone)]
pub struct Start(pub Ending);

impl TypedValueParser for Start {
    type Value = Position;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Position, clap::Error> {
        let Some(fen) = value.to_str() else {
            return Err(clap::Error::new(ErrorKind::InvalidUtf8).with_cmd(cmd));
        };
        let why = match Position::from_fen(fen) {
            Ok(p) if p.ending() == self.0 => return Ok(p),
            Ok(p) => format!(
                "the FEN is a {} position, not {} (--{}-start takes it)",
                p.ending().name(),
                self.0.name(),
                p.ending().name().to_ascii_lowercase()
            ),
            Err(e) => e.to_string(),
        };
        let arg = arg.map_or_else(|| "a value".to_string(), |a| format!("'{a}'"));
        Err(clap::Error::raw(
            ErrorKind::ValueValidation,
            format!("invalid value for {arg}: {why}"),
        )
        .with_cmd(cmd))
    }
}

/// A whole number in `range`, where clap's own parser of `u64` cannot say
/// a range: a negative number or one past `u64::MAX` is out of it.
fn u64_in(range: RangeInclusive<u64>) -> impl TypedValueParser<Value = u64> {
    Utf8(move |s: &str| -> Result<u64, String> {
        let n: i128 = s.parse().map_err(|e| format!("{e}"))?;
        u64::try_from(n)
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| format!("{s} is not in {}..={}", range.start(), range.end()))
    })
}

/// A path, any name the system allows; an empty one is refused.
fn path() -> clap::builder::PathBufValueParser {
    clap::builder::PathBufValueParser::new()
}

/// The flags of `build-site`, `bench` and `screenshots`.
#[derive(clap::Args, Clone)]
pub struct BuildArgs {
    /// Output folder, replaced whole [default: site/ in the repository]
    #[arg(long, value_name = "DIR", allow_negative_numbers = true, value_parser = out_dir())]
    pub out: Option<PathBuf>,
    /// Folder of images and the stylesheet [default: static/ in the repository]
    #[arg(long = "static", value_name = "DIR", allow_negative_numbers = true, value_parser = path())]
    pub static_dir: Option<PathBuf>,
    /// Games against the computer (odd-numbered ones start with the player's move), 1 to 256
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          default_value_t = vs_computer::Settings::default().games as u16,
          value_parser = Utf8(clap::value_parser!(u16).range(1..=256)))]
    pub games: u16,
    /// One level for every game: easy, medium, hard or perfect [default: an even mix]
    #[arg(long, value_name = "LEVEL", allow_negative_numbers = true, value_parser = Utf8(|s: &str| s.parse::<Level>()))]
    pub level: Option<Level>,
    /// Seeds every random choice, 0 to 18446744073709551615; the same seed gives the same site
    #[arg(long, value_name = "N", default_value_t = vs_computer::DEFAULT_SEED,
          allow_negative_numbers = true, value_parser = u64_in(0..=u64::MAX))]
    pub seed: u64,
    /// Largest allowed MOBI file, in KB (1,000 bytes), 1 to 1000000
    #[arg(long, value_name = "KB", allow_negative_numbers = true,
          default_value_t = (Budgets::default().mobi / 1000) as u32,
          value_parser = Utf8(clap::value_parser!(u32).range(1..=MAX_BUDGET_KB)))]
    pub mobi_budget: u32,
    /// Largest allowed EPUB file, in KB (1,000 bytes), 1 to 1000000
    #[arg(long, value_name = "KB", allow_negative_numbers = true,
          default_value_t = (Budgets::default().epub / 1000) as u32,
          value_parser = Utf8(clap::value_parser!(u32).range(1..=MAX_BUDGET_KB)))]
    pub epub_budget: u32,
    /// Largest allowed MOBI file of a chess ending, in KB (1,000 bytes),
    /// 1 to 1000000
    #[arg(long, value_name = "KB", allow_negative_numbers = true,
          default_value_t = (Budgets::default().large_mobi / 1000) as u32,
          value_parser = Utf8(clap::value_parser!(u32).range(1..=MAX_BUDGET_KB)))]
    pub large_mobi_budget: u32,
    /// Largest allowed EPUB file of a chess ending, in KB (1,000 bytes),
    /// 1 to 1000000
    #[arg(long, value_name = "KB", allow_negative_numbers = true,
          default_value_t = (Budgets::default().large_epub / 1000) as u32,
          value_parser = Utf8(clap::value_parser!(u32).range(1..=MAX_BUDGET_KB)))]
    pub large_epub_budget: u32,
    /// Most pages of a PDF, 1 to 1000000; a longer one is left out [default: 828, a paperback's most]
    #[arg(long, value_name = "PAGES", default_value_t = Budgets::default().pdf_pages as u32, hide_default_value = true,
          allow_negative_numbers = true,
          value_parser = Utf8(clap::value_parser!(u32).range(1..=1_000_000)))]
    pub pdf_budget: u32,
    /// End every game as soon as nobody can make three in a row
    #[arg(long)]
    pub early_draws: bool,
    /// Discs of the Towers of Hanoi, 3 to 7 (7 needs larger --epub-budget and --mobi-budget)
    #[arg(long, value_name = "N", default_value_t = hanoi::Rules::default().discs, allow_negative_numbers = true,
          value_parser = Utf8(clap::value_parser!(u8).range(i64::from(hanoi::MIN_DISCS)..=i64::from(hanoi::MAX_DISCS))))]
    pub hanoi_discs: u8,
    /// Start of the KQK challenge (mate in N with king and queen against king), as FEN, White to move
    #[arg(long, value_name = "FEN", default_value = challenge::Rules::start_fen(Ending::Kqk),
          allow_negative_numbers = true, value_parser = Utf8(Start(Ending::Kqk)))]
    pub kqk_start: Position,
    /// Moves the KQK challenge gives beyond its start's mate, 0 to 30 (the two together at most 31)
    #[arg(long, value_name = "N", default_value_t = challenge::Rules::default_spare(Ending::Kqk),
          allow_negative_numbers = true,
          value_parser = Utf8(clap::value_parser!(u8).range(0..=i64::from(MAX_SPARE))))]
    pub kqk_spare: u8,
    /// Start of the KRK challenge (mate in N with king and rook against king), as FEN, White to move
    #[arg(long, value_name = "FEN", default_value = challenge::Rules::start_fen(Ending::Krk),
          allow_negative_numbers = true, value_parser = Utf8(Start(Ending::Krk)))]
    pub krk_start: Position,
    /// Moves the KRK challenge gives beyond its start's mate, 0 to 30 (the two together at most 31)
    #[arg(long, value_name = "N", default_value_t = challenge::Rules::default_spare(Ending::Krk),
          allow_negative_numbers = true,
          value_parser = Utf8(clap::value_parser!(u8).range(0..=i64::from(MAX_SPARE))))]
    pub krk_spare: u8,
}

/// The commands.
#[derive(Subcommand)]
pub enum Command {
    /// Write the whole site (web game, games against the computer, e-books).
    BuildSite(BuildArgs),
    /// Time the build and report pages per second and bytes per page.
    Bench(BuildArgs),
    /// Redraw the e-reader square images and cover in static/.
    DrawImages {
        /// Where to write them [default: static/ in the repository]
        #[arg(long, value_name = "DIR", allow_negative_numbers = true, value_parser = path())]
        out: Option<PathBuf>,
    },
    /// Build the site (into target/screenshots-site unless --out says
    /// otherwise) and take the README's screenshots into docs/ (needs node,
    /// Chromium and `npm ci --prefix tests/e2e`).
    #[command(mut_arg("out", |a| a.help(
        "Output folder, replaced whole [default: target/screenshots-site in the repository]"
    )))]
    Screenshots(BuildArgs),
    /// The scored game tree below a position, as JSON in the JavaScript
    /// InfoVis Toolkit's tree shape (what the Hive posts' viewer loaded).
    Tree(TreeArgs),
    /// 23-bit game records: encode squares, or decode a code.
    #[command(subcommand)]
    Record(RecordCommand),
    /// Solve a chess ending (kqk or krk) by our own retrograde analysis and
    /// print its positions at each distance to mate.
    Endgame(EndgameArgs),
}

/// The flags of `endgame`.
#[derive(clap::Args)]
pub struct EndgameArgs {
    /// The ending: kqk (king and queen against king) or krk (king and rook)
    #[arg(value_name = "ENDING", allow_negative_numbers = true, value_parser = Utf8(parse_ending))]
    pub ending: Ending,
}

/// `kqk` or `krk`, in either case.
fn parse_ending(s: &str) -> Result<Ending, String> {
    Ending::ALL
        .into_iter()
        .find(|e| e.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| format!("not an ending: '{s}' (kqk or krk)"))
}

/// The flags of `tree`.
#[derive(clap::Args)]
pub struct TreeArgs {
    /// The root: a board's page id in hex, as in `two-player/<id>.html` (0
    /// is the empty board)
    #[arg(long, value_name = "ID", default_value = "0", allow_negative_numbers = true,
          value_parser = Utf8(clap::builder::NonEmptyStringValueParser::new()))]
    pub from: String,
    /// How many moves below the root to go, 0 to 9
    #[arg(long, value_name = "N", default_value_t = 9, allow_negative_numbers = true,
          value_parser = Utf8(clap::value_parser!(u8).range(0..=9)))]
    pub depth: u8,
    /// Write the JSON here instead of to stdout
    #[arg(long, value_name = "FILE", allow_negative_numbers = true, value_parser = path())]
    pub out: Option<PathBuf>,
}

/// `record encode` and `record decode`.
#[derive(Subcommand)]
pub enum RecordCommand {
    /// Print the code of a game given as squares 1-9 in reading order (1
    /// top left, 9 bottom right), in play order.
    Encode {
        /// One to nine different squares, each 1 to 9
        #[arg(value_name = "SQUARE", required = true, allow_negative_numbers = true,
              value_parser = Utf8(clap::value_parser!(u8).range(1..=9)))]
        squares: Vec<u8>,
    },
    /// Print the squares of a code in play order, then the board, the
    /// result, its page and its bit-tac-toe state.
    Decode {
        /// A record code, such as 4310116, 16 to 8388607
        #[arg(value_name = "CODE", allow_negative_numbers = true,
              value_parser = u64_in(16..=u64::from(record::LIMIT) - 1))]
        code: u64,
    },
}

/// The repository root: xtask lives one folder below it.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent folder")
        .to_path_buf()
}

impl BuildArgs {
    /// The same flags on a command line, every one written out (defaults
    /// too), with `out` and `static_dir` for the folders: what the bench
    /// hands the builds it times. A test holds it to this struct, so a new
    /// flag cannot miss the benchmarked builds.
    pub fn to_flags(&self, out: &Path, static_dir: &Path) -> Vec<OsString> {
        let mut flags: Vec<OsString> = vec![
            "--out".into(),
            out.into(),
            "--static".into(),
            static_dir.into(),
            format!("--games={}", self.games).into(),
            format!("--seed={}", self.seed).into(),
            format!("--mobi-budget={}", self.mobi_budget).into(),
            format!("--epub-budget={}", self.epub_budget).into(),
            format!("--large-mobi-budget={}", self.large_mobi_budget).into(),
            format!("--large-epub-budget={}", self.large_epub_budget).into(),
            format!("--pdf-budget={}", self.pdf_budget).into(),
            format!("--hanoi-discs={}", self.hanoi_discs).into(),
            format!("--kqk-start={}", self.kqk_start.fen()).into(),
            format!("--kqk-spare={}", self.kqk_spare).into(),
            format!("--krk-start={}", self.krk_start.fen()).into(),
            format!("--krk-spare={}", self.krk_spare).into(),
        ];
        if let Some(level) = self.level {
            flags.push(format!("--level={level}").into());
        }
        if self.early_draws {
            flags.push("--early-draws".into());
        }
        flags
    }

    /// The library's options for these flags.
    pub fn options(&self) -> Options {
        let root = repo_root();
        Options {
            static_dir: self
                .static_dir
                .clone()
                .unwrap_or_else(|| root.join("static")),
            out: self.out.clone().unwrap_or_else(|| root.join("site")),
            games: vs_computer::Settings {
                games: usize::from(self.games),
                level: self.level,
                seed: self.seed,
            },
            budgets: Budgets {
                mobi: self.mobi_budget as usize * 1000,
                epub: self.epub_budget as usize * 1000,
                large_mobi: self.large_mobi_budget as usize * 1000,
                large_epub: self.large_epub_budget as usize * 1000,
                pdf_pages: self.pdf_budget as usize,
            },
            early_draws: self.early_draws,
            hanoi_discs: self.hanoi_discs,
            kqk: self.rules(Ending::Kqk),
            krk: self.rules(Ending::Krk),
        }
    }

    /// The chess challenge of `ending` these flags ask for, its ties
    /// broken by the build's seed.
    fn rules(&self, ending: Ending) -> challenge::Rules {
        let (start, spare) = match ending {
            Ending::Kqk => (self.kqk_start, self.kqk_spare),
            Ending::Krk => (self.krk_start, self.krk_spare),
        };
        challenge::Rules {
            start,
            spare,
            seed: self.seed,
        }
    }

    /// Refuses what no one flag can say alone, as clap refuses a value
    /// (one line, exit 2): a chess challenge whose start's mate and spare
    /// moves come to more than [`challenge::MAX_LEFT`], or whose start is
    /// drawn, naming both its flags. Solves an ending's tablebase (which
    /// the build shares) only for more spare moves than any start takes.
    pub fn check(&self) -> Result<(), clap::Error> {
        for ending in Ending::ALL {
            let rules = self.rules(ending);
            if rules.spare <= challenge::MAX_LEFT - longest_mate(ending) {
                continue;
            }
            let Err(e) = Challenge::new(rules) else {
                continue;
            };
            let hint = match e {
                StartError::TooLong(n) => format!(
                    "; this start takes at most {} spare moves",
                    challenge::MAX_LEFT.saturating_sub(n.saturating_sub(rules.spare))
                ),
                StartError::BlackToMove | StartError::Drawn | StartError::Ending(_) => {
                    String::new()
                }
            };
            let name = ending.name().to_ascii_lowercase();
            return Err(clap::Error::raw(
                ErrorKind::ValueValidation,
                format!(
                    "invalid values for '--{name}-start <FEN>' and '--{name}-spare <N>': {e}{hint}"
                ),
            )
            .with_cmd(&Cli::command()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_args(line: &[OsString]) -> BuildArgs {
        let argv = ["cargo xtask", "build-site"].map(OsString::from);
        match Cli::try_parse_from(argv.iter().chain(line))
            .unwrap()
            .command
        {
            Command::BuildSite(args) => args,
            _ => unreachable!("build-site"),
        }
    }

    /// Every flag of `build-site` survives `to_flags`, set to a value
    /// other than its default: the options are the same after the round
    /// trip, and `to_flags` writes each flag clap knows.
    #[test]
    fn to_flags_writes_every_flag_of_build_site() {
        let line: Vec<OsString> = [
            "--out=/tmp/o",
            "--static=/tmp/s",
            "--games=3",
            "--level=hard",
            "--seed=7",
            "--mobi-budget=9",
            "--epub-budget=8",
            "--pdf-budget=6",
            "--early-draws",
            "--hanoi-discs=5",
            "--kqk-start=8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
            "--kqk-spare=2",
            "--krk-start=7k/8/8/8/8/8/8/R6K w - - 3 9",
            "--krk-spare=3",
        ]
        .map(OsString::from)
        .to_vec();
        let args = build_args(&line);
        let again = build_args(&args.to_flags(Path::new("/tmp/o"), Path::new("/tmp/s")));
        assert_eq!(
            format!("{:?}", args.options()),
            format!("{:?}", again.options())
        );
        let written: Vec<String> = args
            .to_flags(Path::new("o"), Path::new("s"))
            .iter()
            .filter_map(|f| f.to_str()?.strip_prefix("--"))
            .map(|f| f.split('=').next().unwrap_or(f).to_string())
            .collect();
        let cli = Cli::command();
        let build = cli.find_subcommand("build-site").unwrap();
        for arg in build.get_arguments().filter_map(|a| a.get_long()) {
            if arg != "help" {
                assert!(
                    written.iter().any(|w| w == arg),
                    "--{arg} is not in to_flags"
                );
            }
        }
    }

    /// The default flags, written out by `to_flags` as the bench hands
    /// them on, read back to the same options: each chess challenge's
    /// default start as FEN and its default spare moves, its ties broken
    /// by the build's seed, a challenge that can be.
    #[test]
    fn the_default_flags_round_trip() {
        let args = build_args(&["--out=/tmp/o", "--static=/tmp/s"].map(OsString::from));
        let flags = args.to_flags(Path::new("/tmp/o"), Path::new("/tmp/s"));
        for ending in Ending::ALL {
            let name = ending.name().to_ascii_lowercase();
            for flag in [
                format!("--{name}-start={}", challenge::Rules::start_fen(ending)),
                format!("--{name}-spare={}", challenge::Rules::default_spare(ending)),
            ] {
                assert!(flags.contains(&OsString::from(&flag)), "{flag}: {flags:?}");
            }
        }
        let again = build_args(&flags);
        assert_eq!(
            format!("{:?}", args.options()),
            format!("{:?}", again.options())
        );
        let options = again.options();
        assert_eq!(
            [options.kqk, options.krk],
            Ending::ALL.map(|e| challenge::Rules::default_for(e, vs_computer::DEFAULT_SEED))
        );
        assert!(again.check().is_ok());
    }

    /// `longest_mate` is each ending's longest mate with White to move, and
    /// no position with White to move is a draw, so `check` may skip the
    /// tablebase up to `MAX_LEFT` less it; one spare move more is refused
    /// for the start that mates longest, and taken for any other.
    #[test]
    fn check_skips_the_tablebase_only_where_every_start_is_a_challenge() {
        use tictactoe_book::games::chess::Dtm;
        for ending in Ending::ALL {
            let mut longest = None;
            for (p, dtm) in challenge::tablebase(ending).positions() {
                if p.turn() == tictactoe_book::games::chess::Color::White && p.piece().is_some() {
                    let Dtm::Mate(n) = dtm else {
                        panic!("{} is a draw", p.fen())
                    };
                    longest = longest.max(Some((n, p)));
                }
            }
            let (n, p) = longest.unwrap();
            assert_eq!(n, longest_mate(ending), "{}", ending.name());
            let name = ending.name().to_ascii_lowercase();
            let spare = challenge::MAX_LEFT - n;
            for (fen, spare, ok) in [
                (p.fen(), spare, true),
                (p.fen(), spare + 1, false),
                (
                    challenge::Rules::start_fen(ending).to_string(),
                    spare + 1,
                    true,
                ),
            ] {
                let args = build_args(
                    &[
                        format!("--{name}-start={fen}"),
                        format!("--{name}-spare={spare}"),
                    ]
                    .map(OsString::from),
                );
                assert_eq!(args.check().is_ok(), ok, "{fen} {spare}");
            }
        }
    }

    /// Every command's leaves (`record` has its own), with the words that
    /// name each.
    fn leaves(cmd: &clap::Command, line: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
        if cmd.has_subcommands() {
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                let mut line = line.clone();
                line.push(sub.get_name().to_string());
                leaves(sub, line, out);
            }
        } else {
            out.push((line, cmd.clone()));
        }
    }

    /// Every flag and argument of every command that takes a value, given
    /// a negative number, an empty value or one that is not UTF-8: either
    /// takes it (a path may be any name) or refuses it with an error that
    /// names it, never "unexpected argument '-1'" nor clap's "invalid
    /// UTF-8 was detected" that names nothing.
    #[test]
    fn every_value_refused_names_its_flag() {
        use std::os::unix::ffi::OsStrExt as _;
        let mut all = Vec::new();
        leaves(&Cli::command(), vec!["cargo xtask".into()], &mut all);
        let mut checked = 0;
        for (line, cmd) in &all {
            for arg in cmd.get_arguments() {
                if !arg.get_action().takes_values() || arg.get_id() == "help" {
                    continue;
                }
                let name = match arg.get_long() {
                    Some(long) => format!("--{long}"),
                    None => format!("<{}>", arg.get_value_names().unwrap()[0]),
                };
                let bad = [
                    OsStr::new("-1"),
                    OsStr::new(""),
                    OsStr::from_bytes(b"x\xff"),
                ];
                for value in bad {
                    let mut argv: Vec<OsString> = line.iter().map(OsString::from).collect();
                    if arg.get_long().is_some() {
                        argv.push(name.clone().into());
                    }
                    argv.push(value.into());
                    if let Err(e) = Cli::try_parse_from(&argv) {
                        let text = e.to_string();
                        assert!(
                            e.kind() != clap::error::ErrorKind::UnknownArgument
                                && text.contains(&name),
                            "{argv:?}: {text}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        // build-site, bench and screenshots: 15 each; draw-images 1; tree
        // 3; record encode and decode 1 each; endgame 1.
        assert_eq!(checked, 3 * (3 * 15 + 1 + 3 + 2 + 1));
    }

    /// The README's table of flags gives each number `build-site` takes by
    /// default as clap does (it said 0 and 1 spare moves for the chess
    /// challenges, whose defaults are 1 and 2).
    #[test]
    fn the_readme_gives_each_flags_default() {
        let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
        let table = readme.split("## Flags").nth(1).expect("a section of flags");
        let command = Cli::command();
        let build = command.find_subcommand("build-site").expect("build-site");
        let mut checked = 0;
        for row in table.lines().take_while(|l| !l.starts_with("## ")) {
            let cells: Vec<&str> = row.split(" | ").collect();
            let Some(name) = cells[0]
                .strip_prefix("| `--")
                .and_then(|n| n.split([' ', '`']).next())
            else {
                continue;
            };
            let said = cells
                .last()
                .unwrap()
                .trim_end_matches(" |")
                .replace(',', "");
            let Ok(said) = said.parse::<u64>() else {
                continue;
            };
            let arg = (build.get_arguments())
                .find(|a| a.get_long() == Some(name))
                .unwrap_or_else(|| panic!("the README names --{name}, which build-site lacks"));
            let default: Vec<String> = (arg.get_default_values().iter())
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            assert_eq!(default, [said.to_string()], "--{name}");
            checked += 1;
        }
        assert!(checked >= 8, "{checked} numbers checked");
    }
}
