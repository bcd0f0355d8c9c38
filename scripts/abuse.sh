#!/usr/bin/env bash
# Replays, at full size, the attacks of issue "Trust" against the release binary and prints the figures
# that docs/reliability.md ("What a stranger can do") quotes. Each attack is one script in
# scripts/abuse/; name some to run only those:  scripts/abuse.sh lockout relay
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --quiet
export PBEM_BIN="$PWD/target/release/pbem"

if [ $# -gt 0 ]; then
    scripts=()
    for name in "$@"; do scripts+=("scripts/abuse/$name.sh"); done
else
    scripts=(scripts/abuse/*.sh)
fi

failed=0
for s in "${scripts[@]}"; do
    echo "== $(basename "$s" .sh)"
    if ! bash "$s"; then
        echo "!! $s failed"
        failed=1
    fi
    echo
done
exit $failed
