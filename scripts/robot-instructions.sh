#!/usr/bin/env bash
# Instructions one robot move costs, counted by valgrind's callgrind (independent of the machine's
# load), for each game with two pbem builds: `pbem engine GAME best --playouts N --seed 1` in the
# position after the first third of a random game (`match random random --games 1 --seed 7 --moves`,
# played by the OLD binary), Limit at -size=8. Prints one table row per game: the old and new counts in
# millions of instructions (the whole process: startup and reading the position are a few million) and
# the new count as a share of the old.
#
#   scripts/robot-instructions.sh OLD_PBEM NEW_PBEM [GAME[:OPTION,...]...]   (default: every game
#                                                   with a robot, Go at -size=9)
#
# Environment: PLAYOUTS (default 3000). Runs under `nice -n 19`. WALL_PLAYOUTS=N: instead, the wall-clock
# seconds of one `best --playouts N` run of each binary in the same positions, old then new (a note
# only: on a loaded machine these vary with the load). OTHER_MOVES=1: a change meant to change the
# robot's play (a new playout policy) is counted too; the move column then shows old/new.
set -euo pipefail

. "$(dirname "$0")/lib/two-builds.sh"
two_builds robot-instructions.sh "$@"
command -v valgrind >/dev/null || {
    echo "robot-instructions.sh: needs valgrind (callgrind)" >&2
    exit 69
}
PLAYOUTS=${PLAYOUTS:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions (Ir) of one run of `best` on the position in $work/pos.json.
count() {
    local bin=$1 game=$2
    nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
        "$bin" engine "$game" best --playouts "$PLAYOUTS" --seed 1 <"$work/pos.json" >"$work/move" 2>"$work/vg.log"
    grep -E '^summary:' "$work/cg.out" | awk '{print $2}'
}

# One run's wall-clock seconds.
wall() {
    local bin=$1 game=$2 t0 t1
    t0=$(date +%s.%N)
    nice -n 19 "$bin" engine "$game" best --playouts "$WALL_PLAYOUTS" --seed 1 <"$work/pos.json" >"$work/move"
    t1=$(date +%s.%N)
    bc -l <<<"$t1 - $t0"
}

if [[ -n ${WALL_PLAYOUTS:-} ]]; then
    printf '%-10s %-10s %12s %12s %7s\n' game move "old s" "new s" new/old
else
    printf '%-10s %-10s %12s %12s %7s\n' game move "old Mi" "new Mi" new/old
fi
for spec in "${GAMES[@]}"; do
    game_spec "$spec"
    game=$GAME_NAME
    opts=("${GAME_OPTS[@]}")
    moves=$("$OLD" engine "$game" match random random --games 1 --seed 7 --players 2 --moves "${opts[@]}" |
        grep -E '^game [0-9]+ moves' | cut -d' ' -f4-)
    read -ra list <<<"$moves"
    third=("${list[@]:0:$((${#list[@]} / 3))}")
    "$OLD" engine "$game" new --seed 7 --players 2 "${opts[@]}" |
        "$OLD" engine "$game" play "${third[@]}" >"$work/pos.json"
    if [[ -n ${WALL_PLAYOUTS:-} ]]; then
        old=$(wall "$OLD" "$game")
        old_move=$(cat "$work/move")
        new=$(wall "$NEW" "$game")
        new_move=$(cat "$work/move")
        if [[ $old_move != "$new_move" ]]; then
            echo "robot-instructions.sh: $game: the builds chose different moves ($old_move, $new_move)" >&2
            exit 1
        fi
        printf '%-10s %-10s %12.2f %12.2f %7.3f\n' "$spec" "$new_move" "$old" "$new" "$(bc -l <<<"$new / $old")"
        continue
    fi
    old=$(count "$OLD" "$game")
    old_move=$(cat "$work/move")
    new=$(count "$NEW" "$game")
    new_move=$(cat "$work/move")
    if [[ $old_move != "$new_move" ]]; then
        if [[ -z ${OTHER_MOVES:-} ]]; then
            echo "robot-instructions.sh: $game: the builds chose different moves ($old_move, $new_move)" >&2
            exit 1
        fi
        new_move="$old_move/$new_move"
    fi
    printf '%-10s %-10s %12.1f %12.1f %7.3f\n' "$spec" "$new_move" \
        "$(bc -l <<<"$old / 1000000")" "$(bc -l <<<"$new / 1000000")" "$(bc -l <<<"$new / $old")"
done
