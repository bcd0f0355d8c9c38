#!/usr/bin/env bash
# Wall and CPU time (user + sys) of the tactics tests on the default boards in a debug build, as CI
# runs them: builds the end-to-end test binary, then runs `cargo test --test it FILTER` RUNS times
# (cargo's own check and start included) and prints each run and the medians, with the load average
# before and after.
#
#   scripts/tactics-time.sh [RUNS] [FILTER]    (default 3 runs of robot_tactics_boards::)
set -euo pipefail

RUNS=${1:-3}
FILTER=${2:-robot_tactics_boards::}
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "tactics-time.sh: RUNS is a whole number above 0, like 3; got '$RUNS'" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
cargo test --test it --no-run --quiet 2> /dev/null
out=$(mktemp "${TMPDIR:-/tmp}/tactics-time.XXXXXX")
trap 'rm -f "$out"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
walls=()
cpus=()
for run in $(seq 1 "$RUNS"); do
    /usr/bin/time -f "%e %U %S" -o "$out" cargo test --test it --quiet "$FILTER" > /dev/null 2>&1 || {
        echo "tactics-time.sh: run $run failed: cargo test --test it $FILTER" >&2
        exit 1
    }
    read -r wall user sys < "$out"
    cpu=$(echo "$user + $sys" | bc)
    echo "run $run: wall $wall s, cpu $cpu s"
    walls+=("$wall")
    cpus+=("$cpu")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "median of $RUNS: wall $(median "${walls[@]}") s, cpu $(median "${cpus[@]}") s ($FILTER)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
