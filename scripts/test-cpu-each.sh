#!/usr/bin/env bash
# What each test costs, in CPU seconds (user + sys of its process and of every process it waits for),
# each test alone in its own run of its test binary, `--test-threads=1`, under `nice`: the server's
# unit tests, the games crate's unit tests and the end-to-end tests (tests/it), as `cargo test` runs
# them. Builds first (`cargo test --no-run`, not counted).
#   scripts/test-cpu-each.sh [OUT.tsv] [JOBS] [FILTER]
# OUT.tsv (default test-cpu-each.tsv in a temporary folder) gets one line a test: cpu s, wall s,
# binary (lib, games, it), test name. JOBS tests run at once (default 1). FILTER, a substring,
# keeps only the tests whose name holds it. Prints the 40 dearest and the sum by binary. The sum is a
# little more than a whole `cargo test` (each test pays one start of its binary, a few ms).
# ONLY="games it" (say) runs only those binaries' tests.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/pbem-test-each.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=${1:-$work/test-cpu-each.tsv}
jobs=${2:-1}
filter=${3:-}
cargo test --locked --no-run > "$work/build.log" 2>&1 || {
    tail -20 "$work/build.log"
    exit 1
}
exe() { sed -n "s|.*Executable $1 (\(.*\))|$PWD/\1|p" "$work/build.log"; }
lib=$(exe 'unittests src/lib.rs' | grep '/pbem-' || true)
games=$(exe 'unittests src/lib.rs' | grep '/pbem_games-' || true)
it=$(exe 'tests/it/main.rs')
: > "$work/todo"
for pair in "lib $lib" "games $games" "it $it"; do
    read -r kind bin <<< "$pair"
    [[ " ${ONLY:-lib games it} " == *" $kind "* ]] || continue
    [[ -n $bin ]] || { echo "no test binary for $kind" >&2; exit 1; }
    # The games crate's tests read files relative to its own folder, as cargo runs them.
    dir=.
    [[ $kind == games ]] && dir=crates/games
    "$bin" --list --format terse 2>/dev/null | sed -n 's/: test$//p' |
        grep -F -- "$filter" | sed "s|^|$kind $bin $dir |" >> "$work/todo" || true
done
one() {
    local kind=$1 bin=$2 dir=$3 name=$4 t
    t=$(mktemp)
    (cd "$dir" && nice /usr/bin/time -f "%U %S %e" -o "$t" "$bin" --exact "$name" --test-threads=1 \
        > /dev/null 2>&1) || echo "FAILED $kind $name" >&2
    # A failing test's first line is time's "Command exited with non-zero status".
    read -r user sys wall < <(tail -1 "$t")
    rm -f "$t"
    printf '%s\t%s\t%s\t%s\n' "$(echo "$user + $sys" | bc)" "$wall" "$kind" "$name"
}
export -f one
echo "$(wc -l < "$work/todo") tests, $jobs at a time, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
xargs -P "$jobs" -L1 bash -c 'one "$@"' _ < "$work/todo" > "$out" || true
echo "cpu s, wall s, binary, test: the 40 dearest (load now $(cut -d' ' -f1-3 /proc/loadavg))"
sort -rn "$out" | head -40
awk -F'\t' '{ s[$3] += $1; n[$3]++; t += $1 } END {
    for (k in s) printf "%s: %d tests, %.1f s\n", k, n[k], s[k]; printf "all: %.1f s\n", t }' "$out"
