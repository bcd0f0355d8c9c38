#!/usr/bin/env bash
# The robot ladder of docs/robot.md for one game: robot1 against random, robot2 against robot1, robot3
# against robot2 (PAIRS may name others), two players, sides swapped game by game, with the release
# binary. Prints the table (win rates with their 95% Wilson intervals, the median time per move of each
# level).
#
#   scripts/robot-ladder.sh [GAMES] [GAME [OPTION...]]   (default 200 games per pairing, limit -size=8)
#   scripts/robot-ladder.sh 20 limit -move_or_remove
#
# Environment:
#   PAIRS        the pairings, "A B" each, ';'-separated (default "robot1 random;robot2 robot1;robot3 robot2")
#   LADDER_DIR   where the game records go (default target/robot-ladder); one file per pairing, one line
#                per game, as `pbem engine limit match` prints them
#   DEADLINE     a Unix time: start no new chunk after it (the pairings then hold what fitted)
#   CHUNK        games per `match` run (default 10)
#   TABLE_ONLY=1 print the table from the records there, play nothing
#   SEED         the seed of game 0 (default 1000). To give one pairing a second core, run a second
#                ladder with another LADDER_DIR, SEED=1000+K and GAMES=200-K while the first runs with
#                GAMES=K; the two files together are then games 0 to 199 (concatenate them)
#   PBEM         play with this pbem binary instead of building the release one (so that a ladder of
#                several games plays one binary throughout while the sources change)
#
# Resumable: game k of a pairing is the game with seed SEED+k (SEED=1000), fixed by its seed whichever run
# plays it, so a later run continues each pairing where the records stop, and the pairings are played a
# chunk at a time in turn, so a run cut short by DEADLINE leaves every pairing with a share of the games.
set -euo pipefail

GAMES=${1:-200}
if ! [[ $GAMES =~ ^[1-9][0-9]*$ ]]; then
    echo "robot-ladder.sh: GAMES must be a whole number above 0, like 200; it is '$GAMES'" >&2
    exit 64
fi
shift || true
GAME=${1:-limit}
shift || true
OPTIONS=("$@")
if [[ ${#OPTIONS[@]} -eq 0 && $GAME == limit ]]; then
    OPTIONS=(-size=8)
fi
CHUNK=${CHUNK:-10}
if ! [[ $CHUNK =~ ^[1-9][0-9]*$ ]]; then
    echo "robot-ladder.sh: CHUNK must be a whole number above 0, like 10; it is '$CHUNK'" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
# One folder per game and option set, so that ladders of different games never mix their records.
TAG=$(echo "$GAME ${OPTIONS[*]:-}" | tr -c 'A-Za-z0-9_=\n-' '_' | sed 's/_*$//')
DIR=${LADDER_DIR:-$TARGET/robot-ladder/$TAG}
SEED=${SEED:-1000}
mkdir -p "$DIR"

IFS=';' read -r -a PAIRS <<<"${PAIRS:-robot1 random;robot2 robot1;robot3 robot2}"


played() { # played FILE: games recorded in FILE
    if [[ -f $1 ]]; then grep -c '^game ' "$1" || true; else echo 0; fi
}

if [[ -z ${TABLE_ONLY:-} ]]; then
    if [[ -z ${PBEM:-} ]]; then
        cargo build --release --quiet --bin pbem
        PBEM=$TARGET/release/pbem
    fi
    # A copy, so that a rebuild while the ladder runs cannot change the player halfway.
    cp "$PBEM" "$DIR/pbem"
    BIN=$(realpath "$DIR/pbem")
    while :; do
        progress=0
        for pair in "${PAIRS[@]}"; do
            read -r a b <<<"$pair"
            file="$DIR/$a-vs-$b.games"
            have=$(played "$file")
            ((have < GAMES)) || continue
            if [[ -n ${DEADLINE:-} ]] && (($(date +%s) >= DEADLINE)); then
                echo "robot-ladder.sh: deadline reached; the table holds the games played so far" >&2
                break 2
            fi
            n=$((GAMES - have < CHUNK ? GAMES - have : CHUNK))
            "$BIN" engine "$GAME" match "$a" "$b" --games "$n" --seed $((SEED + have)) "${OPTIONS[@]}" --players 2 |
                grep '^game ' >>"$file"
            echo "$a vs $b: $((have + n)) of $GAMES games" >&2
            progress=1
        done
        ((progress)) || break
    done
fi

# The table. Score = (wins + draws/2) / games; the interval is Wilson's at 95% on that score.
echo "| A | B | games | A wins | A losses | draws | A score | 95% interval |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for pair in "${PAIRS[@]}"; do
    read -r a b <<<"$pair"
    file="$DIR/$a-vs-$b.games"
    [[ -f $file ]] || continue
    awk -v a="$a" -v b="$b" '
        $1 == "game" { n++; if ($5 == "win") w++; else if ($5 == "draw") d++; else l++ }
        END {
            if (n == 0) exit
            p = (w + d / 2) / n; z = 1.959964
            den = 1 + z * z / n; c = (p + z * z / (2 * n)) / den
            h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
            lo = c - h; hi = c + h; if (lo < 0) lo = 0; if (hi > 1) hi = 1
            printf "| %s | %s | %d | %d | %d | %d | %.3f | %.3f to %.3f |\n", a, b, n, w, l, d, p, lo, hi
        }' "$file"
done
echo
echo "| level | moves timed | median ms per move | 90th percentile ms | max ms | median ms of its first move |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
# quantiles: reads numbers, one a line, sorted; prints count, median, 90th percentile, max.
quantiles() {
    awk '{ v[NR] = $1 }
        END {
            if (NR == 0) { print 0, 0, 0, 0; exit }
            m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            print NR, m, v[int(0.9 * (NR - 1)) + 1], v[NR]
        }'
}
for level in robot1 robot2 robot3; do
    files=("$DIR/$level"-vs-*.games)
    [[ -f ${files[0]} ]] || continue
    # Field 9 is A's move times (A is always the level here), comma-separated; the first is the move
    # from the fullest board, the slowest as a rule.
    read -r n m q x < <(awk '$1 == "game" && $9 != "-" { n = split($9, t, ","); for (i = 1; i <= n; i++) print t[i] }' \
        "${files[@]}" | sort -g | quantiles)
    read -r _ f _ _ < <(awk '$1 == "game" && $9 != "-" { split($9, t, ","); print t[1] }' "${files[@]}" |
        sort -g | quantiles)
    printf "| %s | %d | %.1f | %.1f | %.1f | %.1f |\n" "$level" "$n" "$m" "$q" "$x" "$f"
done
