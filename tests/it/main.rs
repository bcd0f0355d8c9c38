//! Every end-to-end test, in one test binary: each file of this folder is a module, so `cargo test`
//! links one executable for them all instead of one per file (compile time and disk). Run one file
//! with `cargo test --test it abuse::` (its module path), one test by name as before.

mod common;

mod abuse;
mod architecture;
mod clock;
mod concurrency;
mod connection_games;
mod crash;
mod day;
mod decisions;
mod deploy;
mod digest;
mod engine_cli;
mod fuzz_regressions;
mod gnugo;
mod go_scoring;
mod hostile;
mod limit_board_snapshots;
mod limit_properties;
mod limit_robot;
mod limit_svg;
mod listing;
mod lmtp;
mod mail_html;
mod mail_in;
mod mail_pictures;
mod mail_shapes;
mod mail_snapshots;
mod mail_width;
mod maildir_outbox;
mod news;
mod proposals;
mod ratings;
mod records;
mod reply;
mod robot_hex_bridges;
mod robot_mail;
mod robot_mail_boards;
mod robot_move_or_remove;
mod robot_proposals;
mod robot_tactics;
mod robot_tactics_boards;
mod server_mail;
mod smtp;
mod social;
mod subject_setting;
mod test_game;
mod trust_auth;
mod trust_consent;
mod trust_mail;
mod trust_mta;
mod trust_relay;
mod trust_typos;
mod web;
