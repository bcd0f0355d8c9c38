#!/usr/bin/env bash
# Wall and CPU time (user + sys) of the tactics tests on the default boards in a debug build, as CI
# runs them, with the load average before and after. Without BINs: builds the end-to-end test binary
# and runs `cargo test --test it FILTER` RUNS times (cargo's own check included). With BINs (test
# binaries copied aside, e.g. one built from main and one from a branch: each reads the fixtures of
# the checkout it was built in): runs `BIN FILTER` for each BIN in turn, RUNS rounds, so that they
# share the machine's load; prints each run and the medians per binary.
#
#   scripts/tactics-time.sh [RUNS] [FILTER] [BIN...]    (default 3 runs of robot_tactics_boards::)
set -euo pipefail

RUNS=${1:-3}
FILTER=${2:-robot_tactics_boards::}
shift $(( $# > 2 ? 2 : $# ))
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "tactics-time.sh: RUNS is a whole number above 0, like 3; got '$RUNS'" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
bins=("$@")
if [[ ${#bins[@]} -eq 0 ]]; then
    cargo test --test it --no-run --quiet 2> /dev/null
    bins=(cargo)
fi
out=$(mktemp "${TMPDIR:-/tmp}/tactics-time.XXXXXX")
trap 'rm -f "$out"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
declare -A walls cpus
for run in $(seq 1 "$RUNS"); do
    for bin in "${bins[@]}"; do
        if [[ $bin == cargo ]]; then
            cmd=(cargo test --test it --quiet "$FILTER")
        else
            cmd=("$bin" --quiet "$FILTER")
        fi
        /usr/bin/time -f "%e %U %S" -o "$out" "${cmd[@]}" > /dev/null 2>&1 || {
            echo "tactics-time.sh: run $run failed: ${cmd[*]}" >&2
            exit 1
        }
        read -r wall user sys < "$out"
        cpu=$(echo "$user + $sys" | bc)
        echo "run $run $bin: wall $wall s, cpu $cpu s"
        walls[$bin]+="$wall "
        cpus[$bin]+="$cpu "
    done
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for bin in "${bins[@]}"; do
    # shellcheck disable=SC2086 # the lists are space-separated numbers
    echo "median of $RUNS, $bin: wall $(median ${walls[$bin]}) s, cpu $(median ${cpus[$bin]}) s ($FILTER)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
