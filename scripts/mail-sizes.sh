#!/usr/bin/env bash
# What a board mail weighs as it leaves (issue 37, section 2; goal: mean <= 25 KB, max <= 40 KB,
# picture included): whole games by mail through the real binary, on each game's default board
# (and Go on 9x9 too, which ends through the scoring step). The moves come from the engine
# (`pbem engine GAME match A B --games 1 --seed 7 --moves`: the server's seed, so Limit's layout
# is the same; the search at a few hundred playouts a side, so the games are about as long as
# people's); alice and bob send them one mail
# each to the server (`GAME move 101 userid password MOVE`), and every board mail written to the
# outbox folder (the file transport: the message exactly as it would go out) is measured.
# Go's two players then `accept` the scoring step's marking until the game is over.
#
#   scripts/mail-sizes.sh [PBEM_BINARY] [GAME...]
#     PBEM_BINARY  default: target/release/pbem, built here when no binary is named
#     GAME         default: every game, as `hex`, or with options as `go:-size=9`
#
# Prints one line a game: the board mails of the game (both players' and the moves' replies),
# their size in bytes as median, mean and max, the largest mail of the last move (the longest
# move list and the fullest board), and the mean bytes of the picture in them (the PNG as base64,
# the part helper `pics` makes lighter; the rest is the text and HTML parts and the headers). Sizes do not depend on the build's profile, only on
# its code; the clock and seed are fixed (PBEM_NOW, PBEM_SEED), so runs give the same figures.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ge 1 && ( -x "$1" || "$1" == */* ) ]]; then
    bin=$(realpath "$1")
    shift
else
    cargo build --release --locked --quiet
    bin=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")
fi
games=("$@")
if [[ ${#games[@]} -eq 0 ]]; then
    games=(limit hex chameleon y unlur go:-size=9 go ataxx hexxagon cups)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "${games[@]}" <<'EOF'
import email, os, re, statistics, subprocess, sys

binary, work, games = sys.argv[1], sys.argv[2], sys.argv[3:]
NOW = 1795000000
# The search at a few hundred playouts: games of a length people play, in seconds.
PLAYERS = ("playouts=300", "playouts=300")
CONFIG = """[passwords]
memory_kib = 8
iterations = 1
parallelism = 1
[limits]
replies_per_address_per_hour = 100000
replies_per_new_address_per_day = 100000
error_answers_before_quiet = 0
"""


def run(d, args, stdin=b""):
    env = dict(os.environ, PBEM_NOW=str(NOW), PBEM_SEED="7")
    env.pop("PBEM_CONFIG", None)
    return subprocess.run(
        [binary, "--config", f"{d}/pbem.toml", "--db", f"{d}/db.sqlite", "--outbox", f"{d}/out"]
        + args,
        input=stdin, env=env, capture_output=True, check=False,
    )


count = 0


def mail(d, sender, subject):
    global count
    count += 1
    msg = (f"From: {sender}@example.org\r\nTo: pbem@localhost\r\nSubject: {subject}\r\n"
           f"Message-ID: <m{count}@sizes.example>\r\n\r\n\r\n")
    out = run(d, ["ingest"], msg.encode())
    if out.returncode != 0:
        sys.exit(f"ingest failed: {out.stderr.decode()}")


def status(d, game):
    """(over, userid to move) from `GAME show 101` at the shell (mails nothing)."""
    text = run(d, [game, "show", "101"]).stdout.decode()
    summary = text[text.find("Summary of"):]
    lines = summary.splitlines()
    line = lines[2] if len(lines) > 2 else ""
    if line.startswith("Game over"):
        return True, None
    m = re.search(r"\((\w+)\) to move", line)
    return False, m.group(1) if m else None


def board_mails(d, seen):
    """The new board mails in the outbox: (file name, bytes), the answers that are not board
    mails (errors, confirmations) left out."""
    out = []
    folder = f"{d}/out"
    for name in sorted(os.listdir(folder)):
        if name in seen or not name.endswith(".eml"):
            continue
        seen.add(name)
        raw = open(f"{folder}/{name}", "rb").read()
        head = raw.split(b"\r\n\r\n", 1)[0]
        if b"\r\nThread-Topic:" not in head or b"Your command was not carried out" in raw:
            continue
        out.append(len(raw))
        picture = 0
        for part in email.message_from_bytes(raw).walk():
            if part.get_content_type() == "image/png":
                picture += len(part.get_payload())
        pictures.append(picture)
    return out


def engine_moves(game, options):
    out = subprocess.run(
        [binary, "engine", game, "match", *PLAYERS, "--games", "1", "--seed", "7", "--moves",
         *options],
        capture_output=True, check=True,
    ).stdout.decode()
    for line in out.splitlines():
        m = re.match(r"game \d+ moves (.*)", line)
        if m:
            return m.group(1).split()
    sys.exit(f"no moves from the engine for {game}: {out}")


print(f"{'game':<14} {'moves':>5} {'mails':>5} {'median':>7} {'mean':>7} {'max':>7} {'last':>7}"
      f" {'picture':>8}")
for spec in games:
    game, _, opts = spec.partition(":")
    options = opts.split(",") if opts else []
    d = f"{work}/{spec.replace(':', '_').replace('=', '')}"
    os.makedirs(f"{d}/out")
    open(f"{d}/pbem.toml", "w").write(CONFIG)
    for who in ("alice", "bob"):
        mail(d, who, f"signup {who} pw-{who}")
    seen = set()
    pictures = []
    board_mails(d, seen)
    pictures.clear()
    mail(d, "alice", f"{game} challenge {' '.join(options)} alice bob")
    sizes = board_mails(d, seen)
    last = sizes
    played = 0
    for mv in engine_moves(game, options):
        over, who = status(d, game)
        if over or who is None:
            break
        mail(d, who, f"{game} move 101 {who} pw-{who} {mv}")
        new = board_mails(d, seen)
        if new:
            played += 1
            sizes += new
            last = new
    # Go's scoring step: both players accept the marking.
    for _ in range(6):
        over, who = status(d, game)
        if over or who is None:
            break
        mail(d, who, f"{game} move 101 {who} pw-{who} accept")
        new = board_mails(d, seen)
        sizes += new
        last = new or last
    over, _ = status(d, game)
    if not over:
        sys.exit(f"{spec}: the game did not end (played {played} moves)")
    print(f"{spec:<14} {played:>5} {len(sizes):>5} {int(statistics.median(sizes)):>7} "
          f"{int(statistics.mean(sizes)):>7} {max(sizes):>7} {max(last):>7}"
          f" {int(statistics.mean(pictures)):>8}")
EOF
