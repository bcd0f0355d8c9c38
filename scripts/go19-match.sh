#!/usr/bin/env bash
# robot3 against robot2 on Go at the server's cap (issue 35, item 6): `pbem engine go match
# robot3@MS robot2 --cpu-clock`, one game a process (game k has seed SEED+k; robot3 takes Black in
# even-seeded games, White in odd ones), each game's line appended to a record that a later run
# continues. The caps and times per move are read on the match thread's CPU time (--cpu-clock): on
# this shared, loaded machine a 2 s wall-clock cap gave a niced robot3 a fraction of its playouts,
# while robot2's budget is in playouts; CPU time gives each move what a free core gives the server's
# robot in 2 s. Runs under `nice -n 19`. Prints A's wins, losses, draws, its score and the one-sided
# binomial p-value of as many wins or more if robot3 and robot2 were even (draws counted as half a
# win each way, i.e. left out with half their number added to wins), the CPU seconds a game cost
# (median), and the median CPU ms a move of each side, from /usr/bin/time and the records.
#
#   scripts/go19-match.sh [GAMES] [SIZE] [MS]        (default 40 19 2000)
#
# Environment:
#   PBEM      the binary to play (default: the release build, copied beside the records first so that a
#             rebuild meanwhile changes nothing)
#   OUT       the records' folder (default target/go-match/SIZE-MS); OUT/games.txt, one line a game as
#             `match` prints it, then " cpu-s S" (the process's user+system CPU seconds); OUT/moves.txt
#             each game's moves (`match --moves`)
#   SEED      the seed of game 0 (default 1000)
#   DEADLINE  a Unix time: start no game after it
#   A, B      the players (default robot3@MS and robot2)
#   TABLE_ONLY=1  print the summary of the records, play nothing
set -euo pipefail
GAMES=${1:-40}
SIZE=${2:-19}
MS=${3:-2000}
for v in "$GAMES" "$SIZE" "$MS"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "go19-match.sh: GAMES, SIZE and MS are whole numbers above 0, like 40 19 2000; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
OUT=${OUT:-${CARGO_TARGET_DIR:-target}/go-match/$SIZE-$MS}
SEED=${SEED:-1000}
A=${A:-robot3@$MS}
B=${B:-robot2}
mkdir -p "$OUT"
REC=$OUT/games.txt
touch "$REC"
if [[ -z ${TABLE_ONLY:-} ]]; then
    if [[ ! -x $OUT/pbem ]]; then
        if [[ -z ${PBEM:-} ]]; then
            cargo build --release --quiet --bin pbem
            PBEM=${CARGO_TARGET_DIR:-target}/release/pbem
        fi
        cp "$PBEM" "$OUT/pbem"
    fi
    echo "playing $A against $B on go ${SIZE}x${SIZE} with $OUT/pbem; records in $REC" >&2
    while :; do
        k=$(grep -c '^game ' "$REC" || true)
        ((k < GAMES)) || break
        if [[ -n ${DEADLINE:-} ]] && (($(date +%s) >= DEADLINE)); then
            echo "go19-match.sh: DEADLINE reached after $k games" >&2
            break
        fi
        seed=$((SEED + k))
        tmp=$(mktemp)
        /usr/bin/time -f '%U %S' -o "$tmp.time" nice -n 19 "$OUT/pbem" engine go match "$A" "$B" \
            --games 1 --seed "$seed" --cpu-clock --moves -size="$SIZE" >"$tmp"
        cpu=$(awk '{printf "%.1f", $1 + $2}' "$tmp.time")
        grep -E '^game [0-9]+ moves ' "$tmp" >>"$OUT/moves.txt"
        line=$(grep -E '^game [0-9]+ a ' "$tmp")
        echo "$line cpu-s $cpu" >>"$REC"
        echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg): $(sed -E 's/ a-ms .*//' <<<"$line") cpu-s $cpu" >&2
        rm -f "$tmp" "$tmp.time"
    done
fi
python3 - "$REC" "$A" "$B" "$SIZE" <<'EOF'
import sys, math, statistics
rec, a, b, size = sys.argv[1:]
wins = losses = draws = 0
cpu, moves, a_ms, b_ms = [], [], [], []
for line in open(rec):
    f = line.split()
    if not f or f[0] != "game":
        continue
    # `game SEED a COLOUR RESULT moves N ...`
    r = next(x for x in f if x in ("win", "loss", "draw"))
    wins += r == "win"
    losses += r == "loss"
    draws += r == "draw"
    moves.append(int(f[f.index("moves") + 1]))
    cpu.append(float(f[f.index("cpu-s") + 1]))
    for key, into in (("a-ms", a_ms), ("b-ms", b_ms)):
        v = f[f.index(key) + 1]
        if v != "-":
            into.extend(float(x) for x in v.split(","))
n = wins + losses + draws
if n == 0:
    print(f"{a} against {b}, go {size}x{size}: no games recorded yet")
    sys.exit(0)
score = (wins + draws / 2) / n
# One-sided binomial p-value: the chance of this many wins or more among the decided games if each
# were a coin toss (draws left out).
d = wins + losses
p = sum(math.comb(d, k) for k in range(wins, d + 1)) / 2**d if d else 1.0
print(f"{a} against {b}, go {size}x{size}: {n} games, {wins} wins, {losses} losses, {draws} draws, "
      f"score {score:.3f}, one-sided binomial p {p:.2g}")
print(f"moves a game: median {statistics.median(moves)} (min {min(moves)}, max {max(moves)}); "
      f"CPU s a game: median {statistics.median(cpu):.0f}, total {sum(cpu) / 60:.1f} CPU-min")
if a_ms and b_ms:
    print(f"CPU ms a move: {a} median {statistics.median(a_ms):.0f}, {b} median {statistics.median(b_ms):.0f}")
EOF
