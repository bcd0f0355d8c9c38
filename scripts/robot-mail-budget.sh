#!/usr/bin/env bash
# How long one mail that gives robots many turns holds its process (an LMTP worker, over LMTP): alice
# has GAMES games of 19 x 19 Go against robot3 (made at the admin's shell), and one mail plays d4 in
# all of them, so robot3 is to answer GAMES times. Prints the mail's wall seconds, the robot moves
# played within it, then the seconds `pbem cron` takes to play the rest and the moves it played.
# Pictures are off (the same work in both builds, and not the robots').
#
#   scripts/robot-mail-budget.sh PBEM [GAMES]     (default 20 games, the most commands a mail runs)
#   scripts/robot-mail-budget.sh target/release/pbem 20
set -euo pipefail
BIN=${1:-}
GAMES=${2:-20}
if [[ -z $BIN || ! -x $BIN ]] || ! [[ $GAMES =~ ^[1-9][0-9]*$ ]]; then
    echo "robot-mail-budget.sh: give a pbem binary and a number of games, like target/release/pbem 20" >&2
    exit 64
fi
BIN=$(realpath "$BIN")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export PBEM_NOW=1795000000 PBEM_SEED=7
unset PBEM_CONFIG
printf '[mail]\npictures = false\n' >"$WORK/pbem.toml"
pbem() { "$BIN" --config "$WORK/pbem.toml" --db "$WORK/db.sqlite" --outbox "$WORK/out" "$@"; }
printf 'From: alice@example.org\r\nSubject: signup alice pw-alice\r\nMessage-ID: <s@x>\r\n\r\n' |
    pbem ingest 2>/dev/null
for ((i = 0; i < GAMES; i++)); do
    pbem go challenge alice robot3 >/dev/null
done
robot_moves() {
    sqlite3 "$WORK/db.sqlite" "SELECT count(*) FROM games g JOIN game_states st ON st.game_id = g.id
        WHERE g.game_type = 'go' AND json_array_length(json_extract(st.state, '\$.moves')) >= 2" 2>/dev/null ||
        echo '?'
}
{
    printf 'From: alice@example.org\r\nSubject: moves\r\nMessage-ID: <m@x>\r\n\r\n'
    for ((b = 101; b < 101 + GAMES; b++)); do printf 'go move %s alice pw-alice d4\r\n' "$b"; done
} >"$WORK/m.eml"
start=$(date +%s.%N)
pbem ingest <"$WORK/m.eml" 2>/dev/null
end=$(date +%s.%N)
echo "mail: $(echo "$end - $start" | bc) s, games with robot3's answer: $(robot_moves) of $GAMES (load $(cut -d' ' -f1 /proc/loadavg))"
start=$(date +%s.%N)
pbem cron 2>/dev/null | grep -o '[0-9]* robot moves played' || true
end=$(date +%s.%N)
echo "cron: $(echo "$end - $start" | bc) s, games with robot3's answer: $(robot_moves) of $GAMES"
