//! `cargo xtask screenshots`: builds a site and retakes the README's
//! pictures with Chromium.

use anyhow::Context as _;
use tictactoe_book::site;

use crate::flags::{BuildArgs, repo_root};

pub fn run(args: &BuildArgs) -> anyhow::Result<()> {
    let root = repo_root();
    let mut options = args.options();
    if args.out.is_none() {
        options.out = root.join("target/screenshots-site");
    }
    site::build(&options).context("build failed")?;
    let status = std::process::Command::new("node")
        .arg(root.join("tests/e2e/screenshots.mjs"))
        .env("SITE_DIR", &options.out)
        .env("OUT_DIR", root.join("docs"))
        .status()
        .context("cannot run node")?;
    anyhow::ensure!(status.success(), "the screenshot script failed");
    Ok(())
}
