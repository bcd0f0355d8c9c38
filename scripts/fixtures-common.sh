# Sourced by the scripts that write stored documents as fixtures (match-fixtures.sh,
# limit-fixtures.sh, go-fixtures.sh) with their arguments PBEM OUTDIR: a scratch folder to work in
# (removed on exit), a fixed seed and clock, and `pbem` running the given binary on a database there.
# shellcheck shell=bash
BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
export PBEM_SEED=1
NOW=1795000000
pbem() { PBEM_NOW=$NOW "$BIN" --db db.sqlite --outbox out "$@" >/dev/null; }
