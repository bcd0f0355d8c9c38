#!/usr/bin/env bash
# The long kill -9 series: `pbem ingest` and `pbem outbox flush` killed at random moments, KILL_RUNS
# moves (default 60), each killed ingest delivered again until it exits 0.
#
#   scripts/killnine.sh                 KILL_RUNS=60, KILL_SEED=20251121
#   KILL_RUNS=100 KILL_SEED=7 scripts/killnine.sh
#
# Prints one line of counts; fails if a move was lost or doubled, the database failed
# `PRAGMA integrity_check`, or a queued mail was never sent.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test it crash::killed_ingest_and_flush_lose_nothing_long -- --ignored --nocapture 2>&1 |
    grep -E "kill -9 series|test result|panicked|assert" 
