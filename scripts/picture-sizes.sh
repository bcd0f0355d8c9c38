#!/usr/bin/env bash
# The mail picture's size at every position of one whole game of every game's default board (the
# search player with PLAYOUTS playouts a move on both sides, seed SEED), and per game the mean and
# the largest PNG: what the picture adds to a board mail (issue 37, section 2; base64 in the mail
# adds a third). Lines `GAME MOVE BYTES WIDTH HEIGHT`; the summaries start with `#`.
#
#   scripts/picture-sizes.sh [PLAYOUTS] [SEED]        (default 200 1)
set -euo pipefail
cd "$(dirname "$0")/.."
nice cargo run --quiet --release --locked --features tools --example board_png -- --games "${1:-200}" "${2:-1}"
