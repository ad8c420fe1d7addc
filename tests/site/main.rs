//! The one integration-test binary: builds whole sites into temporary
//! folders and reads them back as a browser or a reader would.

mod analysis;
mod browser;
mod common;
mod early_draws;
mod ebooks;
mod failures;
mod golden;
mod hanoi;
mod huff_readers;
mod kindlegen;
mod levels;
mod map;
mod pdf;
mod tidy;
mod tools;
mod toy_game;
mod two_player;
mod vs_computer;
mod words;
