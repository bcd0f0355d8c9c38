#!/usr/bin/env bash
# Do two pbem builds write the same Go documents byte for byte? Plays the same moves with each
# binary's `pbem engine go` (the spec's rules and -scoring=agreement, 9x9 and 19x19 with handicap
# and komi, through the scoring step, resigned, drawn, to the end) and compares every document
# written, then each fixture of crates/games/tests/documents/8096aec/go-* read and written back
# (`play` with no move). Exit 0 when all are the same, 1 when one differs (the diff is printed).
#
#   scripts/go-same-documents.sh OLD_PBEM NEW_PBEM
set -euo pipefail
OLD=$(realpath "$1")
NEW=$(realpath "$2")
FIXTURES=$(dirname "$(realpath "$0")")/../crates/games/tests/documents/8096aec
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
same=0
# NAME NEW-OPTIONS -- MOVES...: the documents after each move, by both binaries.
run() {
    local name=$1
    shift
    local opts=()
    while [[ $1 != -- ]]; do
        opts+=("$1")
        shift
    done
    shift
    for b in OLD NEW; do
        local bin=${!b} doc
        doc=$("$bin" engine go new "${opts[@]}")
        printf '%s\n' "$doc" >"$WORK/$name.$b"
        for m in "$@"; do
            doc=$(printf '%s' "$doc" | "$bin" engine go play "$m" 2>&1) || true
            printf '%s\n' "$doc" >>"$WORK/$name.$b"
        done
    done
    if diff -u "$WORK/$name.OLD" "$WORK/$name.NEW" >/dev/null; then
        echo "same  $name ($(grep -c '"game"' "$WORK/$name.NEW") documents)"
    else
        echo "DIFF  $name"
        diff -u "$WORK/$name.OLD" "$WORK/$name.NEW" | head -40
        same=1
    fi
}
run area-9 -size=9 -komi=5.5 -- e5 c3 g7 c7 g3 d4 f5 pass d6 pass pass
run area-19 -size=19 -handicap=4 -komi=0.5 -- q10 c10 k3 k17 pass r14 pass pass
run agreement-9 -size=9 -komi=6 -scoring=agreement -- e5 c3 g7 c7 d3 d4 f5 pass pass "dead c3" \
    accept "alive c3" "dead e5" resume d2 pass pass accept accept
run agreement-19 -size=19 -handicap=3 -komi=2.5 -scoring=agreement -- q10 d10 k3 k17 pass pass \
    "dead k3" accept accept
run resigned -size=9 -- e5 c3 "resign 0"
for f in "$FIXTURES"/go-*.json; do
    name=$(basename "$f" .json)
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["document"])' "$f" >"$WORK/doc"
    for b in OLD NEW; do
        "${!b}" engine go play <"$WORK/doc" >"$WORK/$name.$b" 2>&1 || true
    done
    if diff -u "$WORK/$name.OLD" "$WORK/$name.NEW" >/dev/null; then
        echo "same  $name (read and written back)"
    else
        echo "DIFF  $name"
        diff -u "$WORK/$name.OLD" "$WORK/$name.NEW" | head -40
        same=1
    fi
done
exit $same
