#!/usr/bin/env bash
# What a newcomer's first `cargo test` costs: clones the given commit (default HEAD) into a fresh folder,
# builds the tests with an empty target folder, then runs them, and prints the CPU time (user + system),
# the wall time and the size of target/ after each step. Crates must already be downloaded (~/.cargo);
# the network is not measured. The machine's load changes the wall time much more than the CPU time.
#   scripts/first-build.sh [COMMIT]
# With FIRST_BUILD_ONLY=1 it stops after the build (`cargo test --no-run`), for comparing layouts
# without running the whole suite each time.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:-HEAD}
work=$(mktemp -d "${TMPDIR:-/tmp}/pbem-first.XXXXXX")
git clone -q "$repo" "$work/pbem"
git -C "$work/pbem" checkout -q "$commit"
# The tests read the specs beside the checkout, as CI has them.
[[ -e $work/shared ]] || ln -s "$repo/../shared" "$work/shared"
cd "$work/pbem"
export CARGO_TARGET_DIR="$work/pbem/target"
step() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e" -o "$work/time" "$@" > "$work/$name.log" 2>&1 || {
        tail -20 "$work/$name.log"
        exit 1
    }
    read -r user sys wall < "$work/time"
    echo "$name: cpu $(echo "$user + $sys" | bc) s (user $user, sys $sys), wall $wall s," \
        "target $(du -sh target | cut -f1), load $(cut -d' ' -f1-3 /proc/loadavg)"
}
step build cargo test --locked --no-run
[[ ${FIRST_BUILD_ONLY:-} == 1 ]] || step run cargo test --locked
echo "units compiled: $(grep -c Compiling "$work/build.log"), test executables: $(grep -c Executable "$work/build.log")"
rm -rf "$work"
