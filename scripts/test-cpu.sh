#!/usr/bin/env bash
# What running `cargo test` costs after the build, in CPU seconds (user + sys of the test binaries and
# every process they wait for: the `pbem` binaries they start, gnugo, chromium). Builds first
# (`cargo test --no-run`, not counted), then runs the unit tests (`--lib`) and the end-to-end tests
# (`--test it`) one after the other, ROUNDS times (default 1), and prints each run's CPU and wall time
# and the machine's load. CPU time hardly moves with the load of a shared machine; the wall time does.
#   scripts/test-cpu.sh [ROUNDS]
# With PER_TEST=N it then runs every end-to-end test alone, in its own run of the test binary (two at
# a time), and prints the N that cost the most CPU with the sum of all (a little more than the whole
# run: each run starts the binary again).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/pbem-test-cpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
cargo test --locked --no-run > "$work/build.log" 2>&1 || {
    tail -20 "$work/build.log"
    exit 1
}
cpu() { # FILE with "user sys wall": prints "cpu wall"
    read -r user sys wall < "$1"
    echo "$(echo "$user + $sys" | bc) $wall"
}
for round in $(seq "$rounds"); do
    for part in --lib "--test it"; do
        # shellcheck disable=SC2086 # $part is two words
        /usr/bin/time -f "%U %S %e" -o "$work/time" cargo test --locked $part > "$work/run.log" 2>&1 || {
            tail -30 "$work/run.log"
            exit 1
        }
        read -r c w < <(cpu "$work/time")
        echo "round $round, cargo test $part: cpu $c s, wall $w s," \
            "$(grep -o '[0-9]* passed' "$work/run.log" | head -1)," \
            "load $(cut -d' ' -f1-3 /proc/loadavg)"
    done
done
[[ -n ${PER_TEST:-} ]] || exit 0
bin=$(sed -n 's/.*Executable tests\/it\/main.rs (\(.*\))/\1/p' "$work/build.log")
"$bin" --list --format terse 2>/dev/null | sed -n 's/: test$//p' > "$work/names"
one() {
    local t
    t=$(mktemp)
    /usr/bin/time -f "%U %S %e" -o "$t" "$bin" --exact "$1" --test-threads=1 > /dev/null 2>&1 || echo "FAILED $1" >&2
    read -r user sys wall < "$t"
    rm -f "$t"
    echo "$(echo "$user + $sys" | bc) $wall $1"
}
export -f one
export bin
xargs -P2 -I{} bash -c 'one "$@"' _ {} < "$work/names" > "$work/per-test"
echo "cpu s, wall s, test (each alone): the $PER_TEST most expensive"
sort -rn "$work/per-test" | head -n "$PER_TEST"
awk '{ s += $1 } END { printf "sum of %d tests: %.1f s\n", NR, s }' "$work/per-test"
