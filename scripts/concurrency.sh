#!/usr/bin/env bash
# The long concurrency runs (release build): 16 processes at once, on one game (CONC_MOVES moves,
# default 100, played as games of 20) and on 16 games (CONC_GAME_MOVES each, default 20). Prints the
# counts: moves succeeded, lost, duplicated, refused; exit 75 retried; failures.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test it concurrency:: -- --ignored --nocapture --test-threads=1 2>&1 |
    grep -E "same game|16 games|one game, long|test result|panicked"
