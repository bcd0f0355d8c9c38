#!/usr/bin/env bash
# Writes a game document as a given pbem binary stores it, for the stored-games tests (issue 36
# section 1: documents written by 8096aec still load). Plays PLIES moves (all: to the end), each
# the legal move of index (seed-driven) among `pbem engine GAME moves`, then adds the ENTRY
# (`resign 1`, `forfeit 0`, `draw`) if given, and prints a fixture: the document as the binary
# wrote it with the binary's own `status`, `moves` (the legal ones) and `show` beside it, so that a
# test compares what the new code reads with what the old one said.
#
#   scripts/stored-games.sh BIN GAME PLIES SEED [ENTRY] [-- OPTIONS...]
#   scripts/stored-games.sh /work/base/pbem-8096aec cups 30 7 "resign 1"
set -euo pipefail
bin=$1 game=$2 plies=$3 seed=$4 entry=${5:-}
[[ $entry == -- ]] && entry=
shift 4
[[ $# -gt 0 && $1 != -- ]] && shift
[[ ${1:-} == -- ]] && shift
doc=$("$bin" engine "$game" new --seed 1 "$@")
x=$seed
n=0
while [[ $plies == all || $n -lt $plies ]]; do
    mapfile -t moves < <(printf '%s' "$doc" | "$bin" engine "$game" moves)
    [[ ${#moves[@]} -eq 0 ]] && break
    x=$(((x * 1103515245 + 12345) % 2147483648))
    doc=$(printf '%s' "$doc" | "$bin" engine "$game" play "${moves[$((x % ${#moves[@]}))]}")
    n=$((n + 1))
done
if [[ -n $entry ]]; then
    doc=$(printf '%s' "$doc" | python3 -c '
import json, sys
d = json.load(sys.stdin)
d["moves"].append(sys.argv[1])
print(json.dumps(d, indent=2))' "$entry")
fi
# The old binary must read the document back (an added entry included).
status=$(printf '%s' "$doc" | "$bin" engine "$game" status)
legal=$(printf '%s' "$doc" | "$bin" engine "$game" moves)
show=$(printf '%s' "$doc" | "$bin" engine "$game" show)
python3 -c '
import json, sys
doc, status, legal, show, by = sys.argv[1:6]
print(json.dumps({"written_by": by, "document": doc, "status": status,
                  "legal": legal.split(), "show": show}, indent=1))' \
    "$doc" "$status" "$legal" "$show" "${WRITTEN_BY:-$(basename "$bin")}"
