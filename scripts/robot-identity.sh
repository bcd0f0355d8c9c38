#!/usr/bin/env bash
# Do two pbem builds play exactly the same robot moves? For each game at its default options (Limit at
# -size=8), plays `pbem engine GAME match robot2 robot1 --games 2 --seed 1000 --players 2 --moves` and
# `... match robot3 robot2 --games 1 ...` with each binary and compares the games' move lists and
# results (the times per move are left out). Exit 0 when every game is the same move for move, 1 when one
# differs (the first differing lines are printed), 64 on bad arguments.
#
#   scripts/robot-identity.sh OLD_PBEM NEW_PBEM [GAME[:OPTION,...]...]   (default: every game with
#                                               a robot, Go at -size=9)
#   scripts/robot-identity.sh old/pbem new/pbem chameleon y go:-size=9,-komi=7
#
# Environment:
#   PAIRS   the matches, "A B GAMES" each, ';'-separated (default "robot2 robot1 2;robot3 robot2 1")
#   PLAYERS the players of each game (default 2; Limit takes 3: A plays one seat, B the others)
#   OUT     where each binary's records go (default /tmp/robot-identity): OUT/<sha256 of the binary>/,
#           one file a game and match; a record already there for that binary is reused, so the old
#           binary's games are played once
#
# Each record keeps beside it the whole output (.out: a new binary's says how large its largest search
# tree was) and, with GNU time installed, the match process's peak resident memory in KB (.rss); the
# line of each comparison shows both for the old and the new binary ("-" where a record has none).
#
# Both binaries need `match --moves` (added with this script: build the old commit with it cherry-picked).
# Runs under `nice -n 19`; the robots play without a time cap, so the load changes no move.
set -euo pipefail

. "$(dirname "$0")/lib/two-builds.sh"
two_builds robot-identity.sh "$@"
PAIRS=${PAIRS:-"robot2 robot1 2;robot3 robot2 1"}
PLAYERS=${PLAYERS:-2}
OUT=${OUT:-/tmp/robot-identity}

# One binary's record of one match: the move lines and the results, without the times.
record() {
    local bin=$1 spec=$2 a=$3 b=$4 n=$5
    game_spec "$spec"
    local game=$GAME_NAME opts=("${GAME_OPTS[@]}")
    local dir
    dir="$OUT/$(sha256sum "$bin" | cut -c1-16)"
    mkdir -p "$dir"
    local file="$dir/$spec-$a-$b-$n.txt"
    [[ $PLAYERS != 2 ]] && file="$dir/$spec-p$PLAYERS-$a-$b-$n.txt"
    if [[ ! -s $file ]]; then
        # A record is written whole or not at all, so an interrupted run leaves nothing half made.
        local timer=()
        [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -f %M -o "$file.rss")
        nice -n 19 "${timer[@]}" "$bin" engine "$game" match "$a" "$b" --games "$n" --seed 1000 \
            --players "$PLAYERS" --moves "${opts[@]}" >"$file.out"
        grep -E '^game ' "$file.out" | sed -E 's/ a-ms .*//' >"$file.part"
        mv "$file.part" "$file"
    fi
    echo "$file"
}

# The peak memory of a record's match and its largest tree, "-" where unknown.
memory() {
    local rss tree mb=-
    rss=$(tail -1 "$1.rss" 2>/dev/null || true)
    [[ $rss =~ ^[0-9]+$ ]] && mb=$((rss / 1024))
    tree=$(sed -nE 's/^largest tree ([0-9.]+) MB.*/\1/p' "$1.out" 2>/dev/null || true)
    echo "peak $mb MB, largest tree ${tree:--} MB"
}

status=0
IFS=';' read -ra pairs <<<"$PAIRS"
for game in "${GAMES[@]}"; do
    for pair in "${pairs[@]}"; do
        read -r a b n <<<"$pair"
        start=$(date +%s)
        old=$(record "$OLD" "$game" "$a" "$b" "$n")
        new=$(record "$NEW" "$game" "$a" "$b" "$n")
        moves=$(grep -E '^game [0-9]+ moves' "$new" | awk '{print NF - 3}' | paste -sd+ | bc)
        if [[ $(grep -c -E '^game [0-9]+ moves' "$old") -ne $n ]]; then
            echo "FAIL $game $a-$b: the old binary's record holds no move lines (no --moves?)"
            status=1
        elif cmp -s "$old" "$new"; then
            echo "same $game $a-$b ($n games, $moves moves, $(($(date +%s) - start)) s;" \
                "old: $(memory "$old"); new: $(memory "$new"))"
        else
            echo "DIFFERENT $game $a-$b: $old against $new"
            # head may close the pipe first: under pipefail diff's SIGPIPE ended the whole run here.
            diff <(tr ' ' '\n' <"$old") <(tr ' ' '\n' <"$new") | head -5 || true
            status=1
        fi
    done
done
exit $status
