#!/usr/bin/env bash
# Where the first `cargo test --no-run` spends its CPU, unit by unit: clones the given commit (default
# HEAD) into a fresh folder, builds the tests with an empty target folder with this script as
# RUSTC_WRAPPER (which times every rustc run), and prints the CPU (user + sys) of the TOP (default 30)
# most expensive units, then the sum of all rustc runs and the whole build's CPU (the rest is build
# scripts running, e.g. the C compiler on SQLite, and cargo itself). Crates must already be downloaded.
#   scripts/unit-cpu.sh [COMMIT] [TOP]
# Extra cargo settings for a trial go in CARGO_ARGS, e.g.
#   CARGO_ARGS="--config profile.dev.package.tiny-skia.opt-level=1" scripts/unit-cpu.sh
set -euo pipefail
if [[ -n ${UNIT_CPU_LOG:-} ]]; then
    # Wrapper mode: cargo calls us as `unit-cpu.sh RUSTC ARGS...`.
    rustc=$1
    shift
    name=
    kind=lib
    prev=
    for a in "$@"; do
        [[ $prev == --crate-name ]] && name=$a
        [[ $prev == --crate-type ]] && kind=$a
        [[ $a == --test ]] && kind=test
        prev=$a
    done
    # Cargo's probes (`rustc -vV`, `rustc - --print ...`) name no crate: not timed.
    [[ -z $name ]] && exec "$rustc" "$@"
    exec /usr/bin/time -f "%U %S $name $kind" -a -o "$UNIT_CPU_LOG" "$rustc" "$@"
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:-HEAD}
top=${2:-30}
work=$(mktemp -d "${TMPDIR:-/tmp}/pbem-units.XXXXXX")
git clone -q "$repo" "$work/pbem"
git -C "$work/pbem" checkout -q "$commit"
cd "$work/pbem"
export CARGO_TARGET_DIR="$work/pbem/target" RUSTC_WRAPPER="$repo/scripts/unit-cpu.sh" UNIT_CPU_LOG="$work/units"
# shellcheck disable=SC2086 # CARGO_ARGS is a list of words
/usr/bin/time -f "%U %S" -o "$work/time" cargo test --locked --no-run ${CARGO_ARGS:-} > "$work/build.log" 2>&1 || {
    tail -20 "$work/build.log"
    exit 1
}
awk '{ printf "%6.1f s  %s (%s)\n", $1 + $2, $3, $4 }' "$work/units" | sort -rn | head -n "$top"
read -r user sys < "$work/time"
echo "rustc: $(awk '{ s += $1 + $2 } END { printf "%.1f", s }' "$work/units") s in $(wc -l < "$work/units") runs;" \
    "whole build: $(echo "$user + $sys" | bc) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$work"
