//! The command line as a user meets it: bad input gets one line on stderr,
//! a non-zero exit, and leaves the disk as it was.

use std::path::Path;
use std::process::{Command, Output};

use tictactoe_book::assets::{COVERS, is_required};
use tictactoe_book::site;

fn xtask(args: &[&str]) -> Output {
    small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args(args))
        .output()
        .unwrap()
}

/// The chess challenges with no spare move, for every build here that
/// names no chess flag: a few hundred chess pages, not thousands, so the
/// many builds of these tests stay quick (the site tests build the
/// default chess books).
const SMALL_CHESS: [&str; 4] = ["--kqk-spare", "0", "--krk-spare", "0"];

/// `cmd` with [`SMALL_CHESS`] after its arguments, if it builds a site
/// and names no chess flag itself.
fn small_chess(cmd: &mut Command) -> &mut Command {
    let args: Vec<String> = (cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let builds = args
        .first()
        .is_some_and(|a| ["build-site", "bench", "screenshots"].contains(&a.as_str()));
    let chess = args
        .iter()
        .any(|a| a.starts_with("--kqk") || a.starts_with("--krk") || a == "--help");
    if builds && !chess {
        cmd.args(SMALL_CHESS);
    }
    cmd
}

fn one_error_line(out: &Output) -> String {
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    err
}

/// Runs the command line, which must succeed.
fn succeeds(args: &[&str]) -> Output {
    let out = xtask(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn an_unknown_flag_is_one_line() {
    let out = xtask(&["build-site", "--colour"]);
    let err = one_error_line(&out);
    assert!(err.contains("--colour"), "{err}");
    assert_eq!(out.status.code(), Some(2));
    // It sends you to the help that lists the flags.
    assert!(err.contains("see `cargo xtask build-site --help`"), "{err}");
    let help = String::from_utf8(succeeds(&["build-site", "--help"]).stdout).unwrap();
    assert!(help.contains("--games") && help.contains("--out"), "{help}");
    let err = one_error_line(&xtask(&["build-site", "--level", "expert"]));
    assert!(err.contains("easy, medium, hard or perfect"), "{err}");
    let err = one_error_line(&xtask(&["build-site", "--games", "0"]));
    assert!(err.contains("--games"), "{err}");
}

/// A command line that stops before naming a command names the commands
/// it needs one of, where clap's words were only the command's about.
#[test]
fn a_missing_command_names_the_commands() {
    for (args, said) in [
        (&[][..], "`cargo xtask` needs a command: build-site, bench,"),
        (
            &["record"][..],
            "`cargo xtask record` needs a command: encode, decode",
        ),
    ] {
        let out = xtask(args);
        let err = one_error_line(&out);
        assert!(err.starts_with("error: ") && err.contains(said), "{err}");
        assert_eq!(out.status.code(), Some(2));
    }
}

/// A number of discs out of 3 to 7, or not a number, is one line and
/// exit 2, and the last site stays as it was.
#[test]
fn a_bad_number_of_hanoi_discs_is_one_line_and_the_site_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    succeeds(&["build-site", "--out", out_arg, "--hanoi-discs", "3"]);
    let before = std::fs::read(out.join("index.html")).unwrap();
    let names_before = names(&out.join("hanoi"));
    for bad in ["0", "2", "8", "-1", "x"] {
        let o = xtask(&["build-site", "--out", out_arg, "--hanoi-discs", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = one_error_line(&o);
        assert!(err.contains("--hanoi-discs"), "{bad}: {err}");
    }
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), before);
    assert_eq!(names(&out.join("hanoi")), names_before);
    // 3 discs: 27 positions, each with its lifted pages.
    assert_eq!(
        names_before.iter().filter(|n| n.ends_with(".html")).count(),
        83
    );
    // 7 discs outgrow the default EPUB and MOBI budgets: one line says
    // which book and which flag raises it, and the site stays; raised, it
    // builds.
    let err = one_error_line(&xtask(&[
        "build-site",
        "--out",
        out_arg,
        "--hanoi-discs",
        "7",
    ]));
    assert!(
        err.contains("towers-hanoi")
            && (err.contains("--epub-budget") || err.contains("--mobi-budget")),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), before);
    succeeds(&[
        "build-site",
        "--out",
        out_arg,
        "--hanoi-discs",
        "7",
        "--epub-budget",
        "550",
        "--mobi-budget",
        "1400",
    ]);
}

/// KQK from Ka1 Qb2 kf5: the longest mate of KQK, in 10.
const KQK_MATE_IN_10: &str = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";

/// A chess challenge's start or spare moves that cannot be (a FEN that
/// does not parse, has other pieces, Black to move, the kings touching,
/// or is the other ending; a start whose mate and spare moves are more
/// than 31): one line on stderr naming the flag (both, for a start with
/// its spare moves) and what is wrong, exit 2, at once, without the
/// value echoed, and the last site stays as it was.
#[test]
fn a_bad_chess_start_is_one_line_and_the_site_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    let small = [
        "build-site",
        "--out",
        out_arg,
        "--games",
        "1",
        "--hanoi-discs",
        "3",
    ];
    // The most moves a start takes (31) is accepted: `flags.rs` tests it
    // without building millions of pages.
    succeeds(&small);
    let before = std::fs::read(out.join("index.html")).unwrap();
    let names_before = names(&out);
    let long = "/".repeat(100_000);
    let cases: &[(&[&str], &str)] = &[
        (
            &["--kqk-start", "garbage"],
            "the FEN's board has 1 rank, not 8",
        ),
        (
            &["--kqk-start", "4k3/8/8/8/8/8/P7/3QK3 w - - 0 1"],
            "not KQK or KRK",
        ),
        (
            &["--krk-start", "4k3/8/8/8/8/8/8/R1B1K3 w - - 0 1"],
            "not KQK or KRK",
        ),
        (
            &["--kqk-start", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"],
            "Black to move",
        ),
        (
            &["--krk-start", "8/8/8/8/8/8/4k3/R3K3 w - - 0 1"],
            "kings stand next to each other",
        ),
        (
            &["--kqk-start", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"],
            "a KRK position, not KQK",
        ),
        (
            &["--krk-start", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"],
            "a KQK position, not KRK",
        ),
        (&["--krk-start", ""], "the FEN is empty"),
        (&["--kqk-start", &long], "100001 ranks"),
        (
            &["--kqk-start", "4k3/8/8/8/8/8/8/3QK\u{202e}2 w"],
            "is not a piece",
        ),
        (
            &["--kqk-start", "4k3/8/8/8/8/8/8/3QK3 w\n\n- - 0 1 x"],
            "more than 6 fields",
        ),
        (&["--kqk-spare", "31"], "31 is not in 0..=30"),
        (&["--krk-spare", "-1"], "-1 is not in 0..=30"),
        (
            &["--krk-spare", "30"],
            "'--krk-start <FEN>' and '--krk-spare <N>': 42 moves to mate in is more than 31; \
             this start takes at most 19 spare moves",
        ),
        (
            &["--kqk-start", KQK_MATE_IN_10, "--kqk-spare", "22"],
            "'--kqk-start <FEN>' and '--kqk-spare <N>': 32 moves to mate in is more than 31; \
             this start takes at most 21 spare moves",
        ),
    ];
    for (flags, says) in cases {
        let mut args = small.to_vec();
        args.extend(*flags);
        let start = std::time::Instant::now();
        let o = xtask(&args);
        let took = start.elapsed();
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        assert!(o.stdout.is_empty(), "{flags:?}");
        let err = one_error_line(&o);
        assert!(err.contains(says), "{flags:?}: {err}");
        let named = flags[flags.len() - 2];
        assert!(err.contains(&format!("'{named} <")), "{flags:?}: {err}");
        assert!(err.len() < 300, "the value is not echoed: {err}");
        assert!(took.as_secs_f64() < 1.0, "{flags:?} took {took:?}");
    }
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), before);
    assert_eq!(names(&out), names_before);
}

#[test]
fn a_pdf_longer_than_the_pdf_budget_is_left_out_and_not_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    // The gamebook takes 286 pages and the Towers of Hanoi's PDFs 276.
    let o = succeeds(&[
        "build-site",
        "--out",
        out.to_str().unwrap(),
        "--pdf-budget",
        "280",
    ]);
    let said = String::from_utf8(o.stdout).unwrap();
    assert!(
        said.lines()
            .any(|l| l.contains("tictactoe-gamebook.pdf") && l.contains("left out")),
        "{said}"
    );
    assert!(!out.join("ebooks/tictactoe-gamebook.pdf").exists());
    assert!(out.join("ebooks/towers-hanoi.pdf").is_file());
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        !home.contains("gamebook.pdf"),
        "the home page lists a PDF left out"
    );
    assert!(home.contains("towers-hanoi.pdf"));
}

#[test]
fn out_naming_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    let err = one_error_line(&xtask(&["build-site", "--out", file.to_str().unwrap()]));
    assert!(err.contains("not a folder"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
}

#[test]
fn out_in_a_place_that_cannot_be_written_is_refused() {
    let err = one_error_line(&xtask(&["build-site", "--out", "/proc/self/site"]));
    assert!(err.contains("/proc/self"), "{err}");
}

#[test]
fn a_missing_static_folder_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let err = one_error_line(&xtask(&[
        "build-site",
        "--out",
        out.to_str().unwrap(),
        "--static",
        tmp.path().join("none").to_str().unwrap(),
    ]));
    assert!(err.contains("not found"), "{err}");
    assert!(!Path::new(&out).exists());
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn a_build_prints_its_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let run = succeeds(&["build-site", "--out", out.to_str().unwrap()]);
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("5478 pages"), "{text}");
    assert!(text.contains("vs-computer/16"), "{text}");
    assert!(text.contains("largest page"), "{text}");
    assert!(out.join("index.html").is_file());
}

/// A reader that stops reading (`cargo xtask build-site | head -1`) is no
/// error: the build ends as it would, its site whole, and nothing panics
/// (`println!` did, after the site was written). Stdout that cannot be
/// written for another reason is one error line and exit code 1.
#[test]
fn a_reader_that_goes_away_is_no_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let mut child = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
        "build-site",
        "--out",
        out.to_str().unwrap(),
    ]))
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    // Gone before the build prints a line.
    drop(child.stdout.take());
    let run = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success() && err.is_empty(),
        "{:?}: {err}",
        run.status
    );
    assert!(out.join("index.html").is_file());
    if !Path::new("/dev/full").exists() {
        skip("/dev/full is missing, so a stdout that cannot be written is not tried");
    } else {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let run = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["endgame", "kqk"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1));
        let err = String::from_utf8(run.stderr).unwrap();
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(
            errors,
            ["error: cannot write to stdout: No space left on device (os error 28)"]
        );
    }
}

#[test]
fn a_rebuild_touches_nothing_unless_something_changed() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    let build = |seed: &str| {
        let run = succeeds(&[
            "build-site",
            "--out",
            out_arg,
            "--seed",
            seed,
            "--games",
            "2",
        ]);
        String::from_utf8(run.stdout).unwrap()
    };
    // Every path's inode, modification and change times.
    let stamps = || -> Vec<_> {
        walkdir::WalkDir::new(&out)
            .sort_by_file_name()
            .into_iter()
            .map(|e| {
                let m = e.unwrap().metadata().unwrap();
                (m.ino(), m.mtime_nsec(), m.ctime_nsec())
            })
            .collect()
    };
    assert!(build("1").contains("site written to"));
    let (before, files) = (stamps(), tree(&out));
    let text = build("1");
    assert!(
        text.contains("already held exactly this site: left as it was"),
        "{text}"
    );
    assert_eq!(
        stamps(),
        before,
        "no file or folder was replaced or touched"
    );
    assert_eq!(tree(&out), files);
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    // A page edited in place, to the same length, right after the build:
    // the rebuild reads it (its inode changed after the marker was
    // written), finds it changed and puts the build's page back.
    let page = out.join("two-player/0.html");
    let mine = std::fs::read(&page)
        .unwrap()
        .iter()
        .map(|b| b.to_ascii_uppercase())
        .collect::<Vec<_>>();
    std::fs::write(&page, &mine).unwrap();
    assert!(build("1").contains("site written to"));
    assert_eq!(tree(&out), files);
    // Another seed changes the games against the computer.
    assert!(build("2").contains("site written to"));
    assert_ne!(tree(&out), files);
}

/// Every file below `dir` with its bytes, sorted by path; of the marker,
/// only its list, as its time and check differ from build to build.
fn tree(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
            let bytes = std::fs::read(e.path()).unwrap();
            match listed(&bytes) {
                Some(list) if rel == Path::new(".tictactoe-book") => (rel, list.to_vec()),
                _ => (rel, bytes),
            }
        })
        .collect()
}

#[test]
fn a_build_killed_at_any_moment_leaves_a_whole_site() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    // Two different sites: seed 1 is the old one, seed 2 the new.
    let old = {
        assert!(
            xtask(&["build-site", "--out", out_arg, "--seed", "2"])
                .status
                .success()
        );
        let t = tree(&out);
        assert!(
            xtask(&["build-site", "--out", out_arg, "--seed", "1"])
                .status
                .success()
        );
        (tree(&out), t)
    };
    let (old_tree, new_tree) = old;
    assert_ne!(old_tree, new_tree);
    let mut outcomes = std::collections::BTreeSet::new();
    for delay_ms in [5, 40, 120, 250, 400, 700, 1000, 1500] {
        let mut child = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
            "build-site",
            "--out",
            out_arg,
            "--seed",
            "2",
        ]))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = tree(&out);
        if now == old_tree {
            outcomes.insert("old");
        } else if now == new_tree {
            outcomes.insert("new");
            // Put the old site back for the next attempt.
            assert!(
                xtask(&["build-site", "--out", out_arg, "--seed", "1"])
                    .status
                    .success()
            );
        } else {
            panic!("after a kill at {delay_ms} ms the site is neither the old nor the new one");
        }
    }
    assert!(
        outcomes.contains("old"),
        "no kill landed mid-build: {outcomes:?}"
    );
    // Leftover staging folders are cleared by the next build.
    assert!(
        xtask(&["build-site", "--out", out_arg, "--seed", "1"])
            .status
            .success()
    );
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
}

#[test]
fn the_committed_book_images_are_what_draw_images_draws() {
    let tmp = tempfile::tempdir().unwrap();
    succeeds(&["draw-images", "--out", tmp.path().to_str().unwrap()]);
    let static_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static");
    // Every GIF the books use, and the analysis squares' SVGs.
    let drawn = names(tmp.path());
    // Each book's cover and its thumbnail, which the build needs from
    // static/.
    let gifs: Vec<String> = site::images()
        .iter()
        .map(|n| format!("{n}.gif"))
        .chain(
            COVERS
                .iter()
                .flat_map(|c| [format!("{}.gif", c.name), format!("{}-thumb.gif", c.name)]),
        )
        .collect();
    for file in &gifs[site::images().len()..] {
        assert!(is_required(file, &[]), "{file} is not required");
    }
    for file in &gifs {
        assert!(drawn.contains(file), "{file} is not drawn");
    }
    // The analysis squares' and the Hanoi cells' SVGs (the lifted discs
    // framed too), the base under a Hanoi board, and the chess squares
    // (77 contents, each on a light and a dark square), file letters, and
    // the a-file's squares with their rank's digit (77 contents, 8 ranks).
    assert_eq!(
        drawn.iter().filter(|f| f.ends_with(".svg")).count(),
        14 + 32 + 1 + 2 * 77 + 8 + 77 * 8
    );
    // Every raster in static/ is one draw-images renders: none is drawn
    // by hand or left over.
    for file in names(&static_dir).iter().filter(|f| f.ends_with(".gif")) {
        assert!(
            drawn.contains(file),
            "static/{file} is not drawn by draw-images"
        );
    }
    for file in drawn {
        let bytes = std::fs::read(tmp.path().join(&file)).unwrap();
        assert_eq!(
            bytes,
            std::fs::read(static_dir.join(&file)).unwrap(),
            "static/{file} differs from `cargo xtask draw-images`"
        );
    }
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Says why a test that needs root or a kernel feature did not run; under
/// `.ci/run` (`TTT_REQUIRE_TOOLS=1`, as root) that is a failure instead.
fn skip(why: &str) {
    use std::io::Write as _;
    assert!(
        std::env::var_os("TTT_REQUIRE_TOOLS").is_none(),
        "{why}, and TTT_REQUIRE_TOOLS is set"
    );
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

/// The repository's `static/`.
fn repo_static() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../static")
}

/// A copy of the repository's `static/` that a test may spoil.
fn static_copy(dir: &Path) -> std::path::PathBuf {
    let s = dir.join("static");
    std::fs::create_dir(&s).unwrap();
    for e in std::fs::read_dir(repo_static()).unwrap().flatten() {
        std::fs::copy(e.path(), s.join(e.file_name())).unwrap();
    }
    s
}

#[test]
fn numeric_flags_out_of_range_are_one_line() {
    for flag in ["--mobi-budget", "--epub-budget", "--pdf-budget"] {
        for value in ["18446744073709551615", "99999999999999999999999", "0", "-1"] {
            let out = xtask(&["build-site", &format!("{flag}={value}")]);
            let err = one_error_line(&out);
            assert!(err.contains(flag), "{flag} {value}: {err}");
            assert_eq!(out.status.code(), Some(2));
        }
    }
    for value in ["257", "99999999999", "x"] {
        let err = one_error_line(&xtask(&["build-site", "--games", value]));
        assert!(err.contains("--games"), "{err}");
    }
    let err = one_error_line(&xtask(&["build-site", "--seed=-3"]));
    assert!(err.contains("--seed"), "{err}");
}

#[test]
fn out_naming_no_folder_of_its_own_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    for odd in [".", "..", "/", "sub/..", ""] {
        let out = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
            "build-site",
            "--out",
            odd,
        ]))
        .current_dir(tmp.path())
        .output()
        .unwrap();
        let err = one_error_line(&out);
        assert!(err.contains("names no folder of its own"), "{odd}: {err}");
        // The name as given, an empty one quoted.
        let shown = if odd.is_empty() { "''" } else { odd };
        assert!(
            err.contains(&format!("output {shown} names")),
            "{odd}: {err}"
        );
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn corrupt_static_files_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    let out = tmp.path().join("site");
    // The build's one error line, with the spoiled static folder.
    let refused = || {
        one_error_line(&xtask(&[
            "build-site",
            "--out",
            out.to_str().unwrap(),
            "--static",
            s.to_str().unwrap(),
        ]))
    };
    let noise: Vec<u8> = (0..600u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for (file, what) in [
        ("x.gif", "not a GIF"),
        ("tictactoe-two-player-cover.gif", "not a GIF"),
        ("x.svg", "not"),
        ("e.svg", "not"),
    ] {
        let good = std::fs::read(s.join(file)).unwrap();
        std::fs::write(s.join(file), &noise).unwrap();
        let err = refused();
        assert!(err.contains(file) && err.contains(what), "{file}: {err}");
        std::fs::write(s.join(file), good).unwrap();
    }
    // Well-formed XML that is not an SVG, and a GIF cut short.
    std::fs::write(s.join("o.svg"), "<html/>").unwrap();
    let err = refused();
    assert!(err.contains("o.svg") && err.contains("<html>"), "{err}");
    std::fs::copy(s.join("x.svg"), s.join("o.svg")).unwrap();
    let gif = std::fs::read(s.join("e.gif")).unwrap();
    std::fs::write(s.join("e.gif"), &gif[..gif.len() / 2]).unwrap();
    let err = refused();
    assert!(err.contains("e.gif"), "{err}");
    std::fs::write(s.join("e.gif"), &gif).unwrap();
    // An SVG of no size, in pixels or in millimetres: usvg, which the
    // PDFs draw it with, reads neither.
    let x = std::fs::read_to_string(s.join("x.svg")).unwrap();
    for size in ["width=\"0\"", "width=\"0mm\""] {
        std::fs::write(s.join("x.svg"), x.replacen("width=\"100\"", size, 1)).unwrap();
        let err = refused();
        assert!(err.contains("x.svg is corrupt: not an SVG image"), "{err}");
    }
    assert!(!out.exists());
}

/// Runs the command line, killing it and failing the test if it has not
/// finished within `secs` seconds: a hang is a failure, not a stuck run.
fn xtask_within(secs: u64, args: &[&str]) -> Output {
    let mut child = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args(args))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= secs {
            child.kill().unwrap();
            panic!("{args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// A FIFO where a required file belongs, or among the extra files, is
/// refused at once with one line naming it, and the last site stays.
#[test]
fn a_fifo_in_static_is_refused_at_once_and_the_site_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    let out = tmp.path().join("site");
    let args = [
        "build-site",
        "--out",
        out.to_str().unwrap(),
        "--static",
        s.to_str().unwrap(),
    ];
    succeeds(&args);
    let before = std::fs::read(out.join("index.html")).unwrap();
    let names_before = names(&out);
    let mkfifo = |p: &Path| {
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string and mode; mkfifo touches nothing else.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    };
    std::fs::remove_file(s.join("s.css")).unwrap();
    mkfifo(&s.join("s.css"));
    let err = one_error_line(&xtask_within(20, &args));
    assert!(
        err.contains("s.css") && err.contains("not a regular file"),
        "{err}"
    );
    std::fs::remove_file(s.join("s.css")).unwrap();
    std::fs::copy(repo_static().join("s.css"), s.join("s.css")).unwrap();
    mkfifo(&s.join("pipe"));
    let err = one_error_line(&xtask_within(20, &args));
    assert!(
        err.contains("pipe") && err.contains("not a regular file"),
        "{err}"
    );
    assert_eq!(names(&out), names_before);
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), before);
}

#[test]
fn files_the_user_adds_are_kept_or_refused_never_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    std::fs::write(s.join("CNAME"), "games.example.org\n").unwrap();
    std::fs::write(s.join(".nojekyll"), "").unwrap();
    let out = tmp.path().join("site");
    let args = [
        "build-site",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--static",
        s.to_str().unwrap(),
    ];
    assert!(xtask(&args).status.success());
    // static/'s own extras are copied to the root, and rebuilt each time.
    assert_eq!(
        std::fs::read_to_string(out.join("CNAME")).unwrap(),
        "games.example.org\n"
    );
    assert!(out.join(".nojekyll").is_file());
    assert!(xtask(&args).status.success());
    // What the user puts in the site by hand is refused, by name, and kept.
    for (extra, is_dir) in [
        ("robots.txt", false),
        ("blog", true),
        ("two-player/mine.html", false),
    ] {
        let path = out.join(extra);
        if is_dir {
            std::fs::create_dir(&path).unwrap();
            std::fs::write(path.join("post.html"), "mine").unwrap();
        } else {
            std::fs::write(&path, "mine").unwrap();
        }
        let err = one_error_line(&xtask(&args));
        assert!(
            err.contains(extra) && err.contains("not made by this tool"),
            "{err}"
        );
        assert!(path.exists());
        if is_dir {
            std::fs::remove_dir_all(&path).unwrap();
        } else {
            std::fs::remove_file(&path).unwrap();
        }
    }
    // A static file named like a page the build makes is refused.
    std::fs::write(s.join("index.html"), "mine").unwrap();
    let err = one_error_line(&xtask(&args));
    assert!(err.contains("static/index.html"), "{err}");
}

#[test]
fn twenty_builds_at_once_each_succeed_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    let children: Vec<_> = (0..20)
        .map(|i| {
            let games = if i % 2 == 0 { "1" } else { "2" };
            small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
                "build-site",
                "--out",
                out_arg,
                "--games",
                games,
            ]))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for child in children {
        let done = child.wait_with_output().unwrap();
        // Waiting for the lock, every build gets its turn.
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        assert!(
            done.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
    }
    let files = tree(&out);
    let pages = files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
        .count();
    let one_game = files.iter().any(|(p, _)| p.starts_with("vs-computer/2"));
    let marker = std::fs::read(out.join(".tictactoe-book")).unwrap();
    let list = String::from_utf8(listed(&marker).unwrap().to_vec()).unwrap();
    let listed = list.lines().filter(|l| !l.ends_with('/')).count();
    assert_eq!(
        listed,
        files.len() - 1,
        "the site is whole: every listed file is there"
    );
    assert!(pages > 5_478, "{pages} pages, vs-computer/2: {one_game}");
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
}

#[test]
fn an_undeletable_old_file_is_named_and_the_new_site_stands() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let out_arg = out.to_str().unwrap();
    assert!(
        xtask(&["build-site", "--out", out_arg, "--games", "1"])
            .status
            .success()
    );
    let stuck = out.join("two-player/0.html");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(&stuck)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") {
        return skip("chattr +i needs root and a filesystem with the immutable flag");
    }
    let run = xtask(&["build-site", "--out", out_arg, "--games", "2"]);
    let stuck_now = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.path().join("two-player/0.html"))
        .find(|p| p != &out.join("two-player/0.html") && p.exists());
    let restored = stuck_now.as_ref().map(|p| {
        Command::new("chattr")
            .arg("-i")
            .arg(p)
            .status()
            .unwrap()
            .success()
    });
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.starts_with("warning: cannot remove") && err.contains("0.html"),
        "{err}"
    );
    assert!(
        out.join("vs-computer/2").is_dir(),
        "the new site is in place"
    );
    assert_eq!(
        restored,
        Some(true),
        "the old file is where the warning says"
    );
    // The next build finishes the deletion.
    let again = xtask(&["build-site", "--out", out_arg, "--games", "2"]);
    assert!(again.status.success() && again.stderr.is_empty());
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 2);
}

#[test]
fn a_full_disk_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let mnt = tmp.path().join("small");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=512k", "tmpfs"])
        .arg(&mnt)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        return skip("mounting a small tmpfs needs root");
    }
    let out = mnt.join("new/deep/site");
    let run = xtask(&["build-site", "--out", out.to_str().unwrap(), "--games", "1"]);
    let left = std::fs::read_dir(&mnt).unwrap().count();
    let _ = Command::new("umount").arg(&mnt).status();
    let err = one_error_line(&run);
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(left, 0, "the parents it made are gone");
}

/// Every file and folder below `dir`, with its bytes: to show nothing moved.
fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Option<Vec<u8>>)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .map(|e| {
            let bytes = e
                .file_type()
                .is_file()
                .then(|| std::fs::read(e.path()).unwrap());
            (e.into_path(), bytes)
        })
        .collect()
}

/// `build-site --games 1 --out <out> --static <stat>`.
fn build_one_game(out: &Path, stat: &Path) -> Output {
    xtask(&[
        "build-site",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--static",
        stat.to_str().unwrap(),
    ])
}

#[test]
fn out_and_static_that_overlap_are_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    std::fs::create_dir(s.join("sub")).unwrap();
    let before = snapshot(tmp.path());
    for (out, says) in [
        (s.join("site"), "is inside --static"),
        (s.join("sub/deeper/site"), "is inside --static"),
        (s.join("sub/../site"), "names no folder of its own"),
        (s.clone(), "the same folder"),
    ] {
        let err = one_error_line(&build_one_game(&out, &s));
        assert!(err.contains(says), "{out:?}: {err}");
        assert_eq!(snapshot(tmp.path()), before, "{out:?}: nothing written");
    }
    // `--static` inside an output this tool made.
    let out = tmp.path().join("site");
    assert!(build_one_game(&out, &s).status.success());
    let before = snapshot(tmp.path());
    let err = one_error_line(&build_one_game(&out, &out.join("two-player")));
    assert!(err.contains("is inside --out"), "{err}");
    assert_eq!(snapshot(tmp.path()), before);
    // A link in static/ into the output: its files would be copied in.
    std::os::unix::fs::symlink(&out, s.join("old-site")).unwrap();
    let before = snapshot(&out);
    let err = one_error_line(&build_one_game(&out, &s));
    assert!(
        err.contains("old-site") && err.contains("leads into --out"),
        "{err}"
    );
    assert_eq!(snapshot(&out), before);
}

/// Runs the command line to its end: whether it succeeded, and its peak
/// resident memory in bytes, as its summary gives it (`VmHWM`, its own
/// address space's high-water mark). `wait4`'s `ru_maxrss` would not do:
/// a child's counts the memory of the process it was spawned from, and
/// this one holds the other tests' sites (it read 200 MB once).
fn peak_memory(args: &[&str]) -> (bool, u64) {
    let out = xtask(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let peak = stdout
        .split_once(" MB peak memory")
        .and_then(|(before, _)| before.rsplit(' ').next()?.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no peak memory in the summary: {stdout}"));
    (out.status.success(), (peak * 1e6) as u64)
}

#[test]
fn a_one_gigabyte_extra_is_streamed_not_read_into_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    let big = std::fs::File::create(s.join("big.iso")).unwrap();
    big.set_len(1 << 30).unwrap(); // sparse: no blocks
    drop(big);
    let out = tmp.path().join("site");
    let (ok, peak) = peak_memory(&[
        "build-site",
        "--out",
        out.to_str().unwrap(),
        "--static",
        s.to_str().unwrap(),
    ]);
    assert!(ok, "the build failed");
    assert_eq!(
        std::fs::metadata(out.join("big.iso")).unwrap().len(),
        1 << 30
    );
    assert!(
        peak < 200 << 20,
        "peak memory {} MB, over 200 MB",
        peak >> 20
    );
}

#[test]
fn static_at_a_large_tree_without_the_images_fails_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let wrong = tmp.path().join("project");
    for d in 0..40 {
        let dir = wrong.join(format!("target/debug/deps/d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..50 {
            std::fs::write(dir.join(format!("f{f}.o")), "object").unwrap();
        }
    }
    let big = std::fs::File::create(wrong.join("target/big.rlib")).unwrap();
    big.set_len(4 << 30).unwrap();
    drop(big);
    let start = std::time::Instant::now();
    let run = xtask(&[
        "build-site",
        "--out",
        tmp.path().join("site").to_str().unwrap(),
        "--static",
        wrong.to_str().unwrap(),
    ]);
    let took = start.elapsed();
    let err = one_error_line(&run);
    assert!(err.contains("is missing"), "{err}");
    assert!(took.as_secs_f64() < 1.0, "took {took:?}");
    assert!(!tmp.path().join("site").exists());
}

#[test]
fn record_encodes_and_decodes_the_seeds_example() {
    // The seed's game goes on after O wins on move 8: a played game stops
    // there, and `encode` says so.
    let out = xtask(&[
        "record", "encode", "1", "5", "7", "4", "3", "8", "6", "2", "9",
    ]);
    let err = one_error_line(&out);
    assert!(
        err.contains("ends on move 8 (O wins)") && err.contains("square 9"),
        "{err}"
    );
    let out = succeeds(&["record", "encode", "1", "5", "7", "4", "3", "8", "6", "2"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().next(),
        Some("2155058")
    );
    let out = succeeds(&["record", "decode", "2155058"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("1 5 7 4 3 8 6 2\n") && !text.contains("ended on"),
        "{text}"
    );
    // The seed's own record still reads, the move past the end named.
    let out = succeeds(&["record", "decode", "4310116"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "1 5 7 4 3 8 6 2 9");
    assert_eq!(&lines[1..4], ["X O X", "O O X", "X O ."]);
    assert!(text.contains("Result: O wins"), "{text}");
    assert!(
        text.contains("ended on move 8; the move after it is not played."),
        "{text}"
    );
    assert!(text.contains("Page: two-player/"), "{text}");
    let state = lines
        .iter()
        .find_map(|l| l.strip_prefix("bit-tac-toe state: 0x"))
        .unwrap();
    assert_eq!(state.len(), 8, "{state}");
    // The board after eight moves: X to move, eight marks.
    let bits = u32::from_str_radix(state, 16).unwrap();
    assert_eq!((bits >> 18) & 0xf, 8);
    // A short game.
    let out = xtask(&["record", "decode", &(0b1_0100u32).to_string()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("5\n. . .\n. X .\n. . .\nResult: O to move\n"),
        "{text}"
    );
}

#[test]
fn bad_records_are_one_line_and_nothing_on_stdout() {
    let bad: [&[&str]; 13] = [
        &["record", "encode"],
        &["record", "encode", "0"],
        &["record", "encode", "10"],
        &["record", "encode", "1", "1"],
        &[
            "record", "encode", "1", "2", "3", "4", "5", "6", "7", "8", "9", "1",
        ],
        &["record", "encode", "x"],
        &["record", "decode", "0"],
        &["record", "decode", "1"],
        &["record", "decode", "8388608"],
        &["record", "decode", "8"],
        &["record", "decode", "25"],
        &["record", "decode", "-3"],
        &["record", "decode", "ten"],
    ];
    for args in bad {
        let out = xtask(args);
        one_error_line(&out);
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn tree_writes_the_scored_tree_and_refuses_bad_roots() {
    let out = succeeds(&["tree", "--depth", "2"]);
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(
        json.starts_with("{\"id\":\"r\",\"name\":\"X to move: draw\""),
        "{json}"
    );
    assert_eq!(json.matches("\"id\":").count(), 1 + 9 + 72);
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("82 nodes"), "{summary}");
    // From X in the top left corner, to a file.
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("tree.json");
    let out = xtask(&[
        "tree",
        "--from",
        "19a1",
        "--depth",
        "1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success() && out.stdout.is_empty());
    let json = std::fs::read_to_string(&file).unwrap();
    assert!(json.contains("\"name\":\"centre: draw\""), "{json}");
    assert_eq!(json.matches("loss in").count(), 7, "{json}");
    // From a finished board: its one node, named once, and said so.
    let out = succeeds(&["tree", "--from", "1004"]);
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(
        json.starts_with("{\"id\":\"r\",\"name\":\"O wins\","),
        "{json}"
    );
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("1 node: the game is over"), "{summary}");
    for bad in [
        &["tree", "--from", "zz"][..],
        &["tree", "--from", "4ce3"],
        &["tree", "--from", "2"],
        &["tree", "--depth", "10"],
        &["tree", "--depth=-1"],
    ] {
        let out = xtask(bad);
        let err = one_error_line(&out);
        assert!(err.contains("--from") || err.contains("--depth"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// The list in a marker's text: what follows its `made:` line.
fn listed(marker: &[u8]) -> Option<&[u8]> {
    let at = marker.windows(7).position(|w| w == b"\nmade:\n")?;
    Some(&marker[at + 7..])
}

/// A default one-game site in `tmp/site`, with the path of its marker.
fn site_with_marker(tmp: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let out = tmp.join("site");
    succeeds(&["build-site", "--games", "1", "--out", out.to_str().unwrap()]);
    let marker = out.join(".tictactoe-book");
    (out, marker)
}

/// Rebuilds `out` (one game, with `seed`), which must refuse with one line
/// naming the damaged marker and leave everything beside `out` as it was.
fn refuses_for_its_marker(out: &Path, seed: &str) {
    let parent = out.parent().unwrap();
    let before = (names(parent), snapshot(out));
    let args = ["build-site", "--games", "1", "--seed", seed];
    let run = xtask(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    let err = one_error_line(&run);
    assert!(
        err.contains(".tictactoe-book is damaged") && err.contains("move the folder aside"),
        "{err}"
    );
    assert_eq!((names(parent), snapshot(out)), before, "nothing changed");
}

#[test]
fn an_emptied_marker_refuses_the_build_and_keeps_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, marker) = site_with_marker(tmp.path());
    std::fs::write(out.join("two-player/KEEP"), "mine").unwrap();
    std::fs::write(&marker, "").unwrap();
    refuses_for_its_marker(&out, "1");
    assert!(out.join("two-player/KEEP").is_file());
}

#[test]
fn a_marker_cut_short_refuses_the_build_and_leaves_no_hidden_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, marker) = site_with_marker(tmp.path());
    let text = std::fs::read(&marker).unwrap();
    std::fs::write(&marker, &text[..text.len() / 2]).unwrap();
    refuses_for_its_marker(&out, "1");
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
}

#[test]
fn a_touched_marker_neither_moves_a_users_file_nor_keeps_an_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, marker) = site_with_marker(tmp.path());
    let touch = || {
        assert!(
            Command::new("touch")
                .arg(&marker)
                .status()
                .unwrap()
                .success()
        )
    };
    // A file of the user's, then the marker touched: refused, by name.
    let keep = out.join("two-player/KEEP");
    std::fs::write(&keep, "mine").unwrap();
    touch();
    let args = ["build-site", "--games", "1", "--seed", "2"];
    let err = one_error_line(&xtask(
        &[&args[..], &["--out", out.to_str().unwrap()]].concat(),
    ));
    assert!(
        err.contains("two-player/KEEP") && err.contains("not made by this tool"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "mine");
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
    std::fs::remove_file(&keep).unwrap();
    // A page edited, then the marker touched: the edit is found and mended.
    let page = out.join("two-player/0.html");
    let built = std::fs::read(&page).unwrap();
    std::fs::write(&page, built.to_ascii_uppercase()).unwrap();
    touch();
    succeeds(&["build-site", "--games", "1", "--out", out.to_str().unwrap()]);
    assert_eq!(std::fs::read(&page).unwrap(), built);
}

#[test]
fn a_marker_cut_or_changed_anywhere_refuses_the_build() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, marker) = site_with_marker(tmp.path());
    let text = std::fs::read(&marker).unwrap();
    // xorshift64, seeded: the same cuts and changes on every run.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    for round in 0..16 {
        let damaged = if round % 2 == 0 {
            text[..next(text.len())].to_vec()
        } else {
            let mut lines: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let at = next(lines.len() - 1);
            let line = &mut lines[at];
            match next(3) {
                0 if !line.is_empty() => {
                    let i = next(line.len());
                    line[i] = if line[i] == b'0' { b'1' } else { b'0' };
                }
                1 => line.push(b'x'),
                _ => *line = format!("two-player/KEEP-{round}").into_bytes(),
            }
            lines.join(&b'\n')
        };
        std::fs::write(&marker, &damaged).unwrap();
        refuses_for_its_marker(&out, if round % 4 < 2 { "1" } else { "2" });
    }
}

#[test]
fn an_older_versions_marker_is_still_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, marker) = site_with_marker(tmp.path());
    // What the first version wrote: it replaced the whole folder.
    std::fs::write(
        &marker,
        "Made by tictactoe-book: `cargo xtask build-site` may replace this folder.\n",
    )
    .unwrap();
    // A file of the user's is refused by name, and kept: that marker
    // lists nothing, so only the paths the new build writes count as made,
    // even inside the folders it writes.
    let refused = |extra: &str| {
        let path = out.join(extra);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "mine").unwrap();
        let args = ["build-site", "--games", "1", "--out", out.to_str().unwrap()];
        let err = one_error_line(&xtask(&args));
        assert!(
            err.contains(extra) && err.contains("not made by this tool"),
            "{err}"
        );
        std::fs::remove_file(out.join(extra)).unwrap();
    };
    refused("CNAME");
    refused("two-player/notes.txt");
    refused("analysis/drafts/plan.txt");
    std::fs::remove_dir(out.join("analysis/drafts")).unwrap();
    succeeds(&["build-site", "--games", "1", "--out", out.to_str().unwrap()]);
    succeeds(&["build-site", "--games", "2", "--out", out.to_str().unwrap()]);
    assert!(out.join("vs-computer/2").is_dir());
    let text = std::fs::read_to_string(&marker).unwrap();
    assert!(
        text.contains("\ncheck: ") && text.contains("\nwritten: "),
        "rewritten as now"
    );
    // What the versions after it wrote: the list, without a check.
    let list = text.split_once("made:\n").unwrap().1;
    let older = format!(
        "Made by tictactoe-book: `cargo xtask build-site` may delete the paths listed below, \
         and nothing else, when it replaces this folder.\nmade:\n{list}"
    );
    std::fs::write(&marker, older).unwrap();
    refused("two-player/KEEP");
    succeeds(&["build-site", "--games", "1", "--out", out.to_str().unwrap()]);
    assert_eq!(names(tmp.path()), [".site.lock", "site"]);
}

/// Copies the folder `from` to `to` with `cp` and `flags`.
fn cp(flags: &str, from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg(flags)
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// What a build says when it takes a copied site.
const TAKEN: &str = "was copied or restored from another folder, and holds exactly what its \
marker lists: taken as this tool's output";

/// A whole site copied with its project, with `cp -a` (times kept) or
/// `cp -r` (times new), is taken with one line saying so: the rebuilt site
/// is what a fresh build makes, its marker names its new folder (the next
/// build keeps it as it is), and the original is untouched.
#[test]
fn a_whole_copied_site_is_taken_and_rebuilt_as_a_fresh_build() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = site_with_marker(tmp.path());
    let (fresh, original) = (tree(&out), snapshot(&out));
    for flags in ["-a", "-r"] {
        let copy = tmp.path().join(format!("copy{flags}"));
        cp(flags, &out, &copy);
        let args = [
            "build-site",
            "--games",
            "1",
            "--out",
            copy.to_str().unwrap(),
        ];
        let run = succeeds(&args);
        let said = String::from_utf8(run.stdout).unwrap();
        let taken: Vec<&str> = said.lines().filter(|l| l.contains(TAKEN)).collect();
        assert_eq!(taken, [format!("{} {TAKEN}", copy.display())], "{said}");
        assert!(run.stderr.is_empty(), "{flags}");
        assert_eq!(tree(&copy), fresh, "{flags}");
        let marker = std::fs::read_to_string(copy.join(".tictactoe-book")).unwrap();
        let ino = std::fs::metadata(&copy).unwrap().ino();
        assert!(marker.contains(&format!("\nfolder: {ino} ")), "{flags}");
        let again = String::from_utf8(succeeds(&args).stdout).unwrap();
        assert!(
            again.contains("already held exactly this site") && !again.contains(TAKEN),
            "{again}"
        );
    }
    assert_eq!(snapshot(&out), original);
}

/// A copied site that holds anything but exactly what its marker lists is
/// refused with one line naming the first path that differs, at once (a
/// FIFO is never opened), and nothing changes; a marker that fails its own
/// check is still damaged.
#[test]
fn a_copied_site_that_differs_is_refused_naming_the_path() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = site_with_marker(tmp.path());
    let elsewhere = tmp.path().join("elsewhere");
    cp("-a", &out.join("two-player"), &elsewhere);
    let page = "two-player/0.html";
    // A path, how it differs, and the change that makes it (in the copy,
    // with `elsewhere`).
    type Case = (&'static str, &'static str, fn(&Path, &Path));
    let cases: [Case; 7] = [
        (page, "does not hold the bytes its marker lists", |c, _| {
            let p = c.join("two-player/0.html");
            let mut bytes = std::fs::read(&p).unwrap();
            bytes[0] ^= 0x20;
            std::fs::write(&p, bytes).unwrap();
        }),
        ("index.html", "is missing", |c, _| {
            std::fs::remove_file(c.join("index.html")).unwrap()
        }),
        (
            "two-player/notes.txt",
            "was not made by this tool",
            |c, _| std::fs::write(c.join("two-player/notes.txt"), "mine").unwrap(),
        ),
        (page, "is not a regular file", |c, e| {
            std::fs::remove_file(c.join("two-player/0.html")).unwrap();
            symlink(e.join("0.html"), c.join("two-player/0.html")).unwrap();
        }),
        (page, "is not a regular file", |c, _| {
            let p = c.join("two-player/0.html");
            std::fs::remove_file(&p).unwrap();
            let p = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
            // SAFETY: a valid C string and mode; mkfifo touches nothing else.
            assert_eq!(unsafe { libc::mkfifo(p.as_ptr(), 0o644) }, 0);
        }),
        ("two-player", "is not a folder", |c, e| {
            std::fs::remove_dir_all(c.join("two-player")).unwrap();
            symlink(e, c.join("two-player")).unwrap();
        }),
        ("elsewhere", "was not made by this tool", |c, e| {
            symlink(e, c.join("elsewhere")).unwrap()
        }),
    ];
    // One copy, each change made and then undone: the path put back as
    // the original holds it.
    let copy = tmp.path().join("copy");
    cp("-a", &out, &copy);
    // The lock, which any build makes beside its output first.
    std::fs::write(tmp.path().join(".copy.lock"), "").unwrap();
    let args = [
        "build-site",
        "--games",
        "1",
        "--out",
        copy.to_str().unwrap(),
    ];
    for (path, why, change) in cases {
        change(&copy, &elsewhere);
        let before = (names(tmp.path()), snapshot(&copy), snapshot(&elsewhere));
        let err = one_error_line(&xtask_within(60, &args));
        let named = format!("{} {why}", copy.join(path).display());
        assert!(
            err.contains(&named) && err.contains("another folder"),
            "{err}"
        );
        let after = (names(tmp.path()), snapshot(&copy), snapshot(&elsewhere));
        assert!(after == before, "{path}: nothing changed");
        let p = copy.join(path);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&p).unwrap(),
            Ok(_) => std::fs::remove_file(&p).unwrap(),
            Err(_) => {}
        }
        if out.join(path).exists() {
            cp("-a", &out.join(path), &p);
        }
    }
    // A copy whose marker fails its own check is damaged, as anywhere.
    let marker = copy.join(".tictactoe-book");
    let text = std::fs::read_to_string(&marker).unwrap();
    let edited = text.replacen("two-player/0.html", "two-player/1.html", 1);
    std::fs::write(&marker, edited).unwrap();
    refuses_for_its_marker(&copy, "1");
    // Put back, the copy is whole again, and taken.
    std::fs::write(&marker, text).unwrap();
    let said = String::from_utf8(succeeds(&args).stdout).unwrap();
    assert!(said.contains(TAKEN), "{said}");
}

/// `--out` paths that name no folder of their own are refused by the flag
/// itself, exit 2, before anything is built or made; `site/.` and `site/`
/// are `site`.
#[test]
fn odd_out_paths_exit_2_at_once_and_leave_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    for odd in [
        ".",
        "..",
        "/",
        "sub/..",
        "ghost/../site",
        "ghost/../../site",
    ] {
        let out = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
            "build-site",
            "--out",
            odd,
        ]))
        .current_dir(tmp.path())
        .output()
        .unwrap();
        let err = one_error_line(&out);
        assert_eq!(out.status.code(), Some(2), "{odd}: {err}");
        assert!(err.contains("names no folder of its own"), "{odd}: {err}");
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    for given in ["site/.", "site/"] {
        let out = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args([
            "build-site",
            "--games",
            "1",
            "--hanoi-discs",
            "3",
            "--out",
            given,
        ]))
        .current_dir(tmp.path())
        .output()
        .unwrap();
        assert!(
            out.status.success(),
            "{given}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(names(tmp.path()), [".site.lock", "site"], "{given}");
    }
}

/// Names for `static/`: every byte but `/` and NUL turns up, in names of
/// one to twelve bytes, from a fixed seed.
fn odd_names(seed: u64, count: usize, utf8: bool) -> Vec<Vec<u8>> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let mut names = Vec::new();
    while names.len() < count {
        let len = 1 + next() as usize % 12;
        let name: Vec<u8> = if utf8 {
            let chars = (0..len).map(|_| match next() % 4 {
                // Control characters, tabs and newlines among them.
                0 => char::from(1 + (next() % 0x7f) as u8),
                1 => char::from_u32(0x80 + next() % 0x2000).unwrap_or('x'),
                _ => char::from(b' ' + (next() % 95) as u8),
            });
            chars.collect::<String>().into_bytes()
        } else {
            (0..len).map(|_| 1 + (next() % 255) as u8).collect()
        };
        let name: Vec<u8> = name.into_iter().filter(|&b| b != b'/').collect();
        let fits = !name.is_empty() && name != b"." && name != b".." && !names.contains(&name);
        if fits && std::str::from_utf8(&name).is_ok() == utf8 {
            names.push(name);
        }
    }
    names
}

/// Any name the file system allows in `static/` is copied, listed in the
/// marker and read back exactly, so the next build takes the output as
/// its own; a name that is not UTF-8 is refused with one line before
/// anything is written.
#[test]
fn any_name_in_static_builds_twice_or_is_refused_before_anything_is_written() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let s = static_copy(tmp.path());
    let out = tmp.path().join("site");
    let args = [
        "build-site",
        "--games",
        "1",
        "--hanoi-discs",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--static",
        s.to_str().unwrap(),
    ];
    for seed in 1..=3 {
        let names = odd_names(seed, 40, true);
        for n in &names {
            std::fs::write(s.join(std::ffi::OsStr::from_bytes(n)), n).unwrap();
        }
        succeeds(&args);
        for n in &names {
            assert_eq!(
                std::fs::read(out.join(std::ffi::OsStr::from_bytes(n))).unwrap(),
                *n
            );
        }
        let again = succeeds(&args);
        let said = String::from_utf8_lossy(&again.stdout);
        assert!(said.contains("already held exactly this site"), "{said}");
        for n in &names {
            std::fs::remove_file(s.join(std::ffi::OsStr::from_bytes(n))).unwrap();
        }
    }
    let before = names(&out);
    for name in odd_names(4, 5, false) {
        let path = s.join(std::ffi::OsStr::from_bytes(&name));
        std::fs::write(&path, "x").unwrap();
        let err = one_error_line(&xtask(&args));
        assert!(err.contains("not UTF-8"), "{err}");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(names(&out), before);
    }
}

/// A usage error: one line, exit 2, nothing on stdout.
fn usage_error(args: &[&std::ffi::OsStr]) -> String {
    let out = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args(args))
        .output()
        .unwrap();
    let err = one_error_line(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    err
}

fn os(args: &[&str]) -> Vec<std::ffi::OsString> {
    args.iter().map(std::ffi::OsString::from).collect()
}

/// `record encode` with no squares names what is missing, on its one line.
#[test]
fn a_missing_argument_is_named() {
    let err = usage_error(&["record".as_ref(), "encode".as_ref()]);
    assert!(
        err.contains("required arguments were not provided: <SQUARE>"),
        "{err}"
    );
    let err = usage_error(&["record".as_ref(), "decode".as_ref()]);
    assert!(err.contains("<CODE>"), "{err}");
}

/// A negative number given after a space is a value out of range, with
/// the range, for every number of every command (not "unexpected
/// argument '-1' found").
#[test]
fn a_negative_number_is_out_of_range_with_its_range() {
    let cases: [(&[&str], &str); 11] = [
        (&["build-site", "--seed", "-1"], "0..=18446744073709551615"),
        (&["build-site", "--games", "-1"], "1..=256"),
        (&["build-site", "--mobi-budget", "-1"], "1..=1000000"),
        (&["build-site", "--epub-budget", "-1"], "1..=1000000"),
        (&["build-site", "--pdf-budget", "-1"], "1..=1000000"),
        (&["bench", "--hanoi-discs", "-2"], "3..=7"),
        (&["build-site", "--kqk-spare", "-1"], "0..=30"),
        (&["screenshots", "--krk-spare", "-5"], "0..=30"),
        (&["tree", "--depth", "-1"], "0..=9"),
        (&["record", "encode", "5", "-1"], "1..=9"),
        (&["record", "decode", "-3"], "16..=8388607"),
    ];
    for (args, range) in cases {
        let args = os(args);
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let err = usage_error(&refs);
        let value = args.last().unwrap().to_str().unwrap();
        assert!(
            err.contains(&format!("{value} is not in {range}")),
            "{args:?}: {err}"
        );
        let named = args[args.len() - 2].to_str().unwrap();
        let named = match named.starts_with("--") {
            true => named,
            false if args[1] == "encode" => "<SQUARE>",
            false => "<CODE>",
        };
        assert!(err.contains(named), "{args:?}: {err}");
    }
    // A seed past the largest is out of range too.
    let err = usage_error(&[
        "build-site".as_ref(),
        "--seed=18446744073709551616".as_ref(),
    ]);
    assert!(
        err.contains("--seed") && err.contains("0..=18446744073709551615"),
        "{err}"
    );
}

/// A value that is not UTF-8 names its flag, for every flag that is not
/// a path.
#[test]
fn a_value_not_utf8_names_its_flag() {
    use std::os::unix::ffi::OsStrExt as _;
    let bad = std::ffi::OsStr::from_bytes(b"x\xff");
    for (args, named) in [
        (&["build-site", "--level"][..], "--level"),
        (&["build-site", "--games"], "--games"),
        (&["build-site", "--seed"], "--seed"),
        (&["screenshots", "--hanoi-discs"], "--hanoi-discs"),
        (&["build-site", "--kqk-start"], "--kqk-start"),
        (&["bench", "--krk-start"], "--krk-start"),
        (&["build-site", "--krk-spare"], "--krk-spare"),
        (&["tree", "--from"], "--from"),
        (&["tree", "--depth"], "--depth"),
        (&["record", "encode"], "<SQUARE>"),
        (&["record", "decode"], "<CODE>"),
    ] {
        let mut line: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        line.push(bad);
        let err = usage_error(&line);
        assert!(
            err.contains(named) && err.contains("not UTF-8"),
            "{args:?}: {err}"
        );
        assert!(err.contains("x\u{fffd}"), "the value, lossily: {err}");
    }
}

/// An empty value names its flag, exit 2, for the flags that took one
/// before the build started.
#[test]
fn an_empty_value_names_its_flag() {
    for (args, named) in [
        (&["tree", "--from", ""][..], "--from"),
        (&["build-site", "--out", ""], "--out"),
        (&["build-site", "--static", ""], "--static"),
        (&["build-site", "--level", ""], "--level"),
        (&["build-site", "--kqk-start", ""], "--kqk-start"),
        (&["bench", "--krk-spare", ""], "--krk-spare"),
        (&["tree", "--out", ""], "--out"),
        (&["draw-images", "--out", ""], "--out"),
    ] {
        let line: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        let err = usage_error(&line);
        assert!(err.contains(named), "{args:?}: {err}");
    }
}

/// `--out` may be any name the file system allows: one that is not UTF-8
/// is built into, and a rebuild takes it as its own; an error naming it
/// (here `--static` missing) prints it lossily on one line.
#[test]
fn an_out_that_is_not_utf8_is_built_into() {
    use std::os::unix::ffi::OsStrExt as _;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join(std::ffi::OsStr::from_bytes(b"site-\xff"));
    let args = |out: &Path| -> Vec<std::ffi::OsString> {
        let mut a = os(&["build-site", "--games", "1", "--hanoi-discs", "3", "--out"]);
        a.push(out.into());
        a
    };
    for _ in 0..2 {
        let run = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args(args(&out)))
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    assert!(out.join("index.html").is_file());
    let mut missing = args(&out);
    missing.push("--static".into());
    missing.push(
        tmp.path()
            .join(std::ffi::OsStr::from_bytes(b"none-\xfe"))
            .into(),
    );
    let run = small_chess(Command::new(env!("CARGO_BIN_EXE_xtask")).args(&missing))
        .output()
        .unwrap();
    let err = one_error_line(&run);
    assert!(err.contains("none-\u{fffd}"), "{err}");
}
