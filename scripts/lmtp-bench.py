#!/usr/bin/env python3
"""Speed and memory of `pbem lmtp` (issue "Speed at scale", item 1).

    scripts/lmtp-bench.py [--pbem target/release/pbem] [--games 300] [--samples 50]
                          [--mails 1000] [--connections 4] [--rss-mails 10000]
    scripts/lmtp-bench.py --socket /var/lib/pbem/lmtp.sock --eml-dir DIR [--pid PID]

By default it makes a fresh database in a temporary folder, starts `pbem lmtp` on a Unix socket there
(default argon2 cost, file transport) and sets up 2 x GAMES players and GAMES games over LMTP. Then:

1. a move over LMTP: the time from MAIL FROM to the reply after the message, median of SAMPLES
   (each a legal move in another game);
2. a `limit show` over LMTP, the same way;
3. MAILS mixed mails over CONNECTIONS connections at once (40% moves, 25% shows, 15% chats, 10%
   `limit games`, 5% `help`, 5% wrong passwords), each connection on its own games: mails per second;
4. with --rss-mails N, N more mixed mails the same way (`--mails 1000 --rss-mails 4000`: the 5,000-mail
   mix of issue 35; `scripts/lmtp-rss.sh` runs it several times and takes the median);
5. with --reply, SAMPLES pairs of moves, each pair a move with the password in the Subject and a
   reply move (issue 25: just the move, sent to the player's signed Reply-To, which is also the
   RCPT TO, as Postfix delivers it), on other games: the median of each;
and the peak resident memory of the lmtp process (VmHWM of /proc/PID/status) after 3 and after 4.

The replies-per-address cap is raised (limits.replies_per_address_per_hour) so that it does not
silence the players of the run and change the work done; everything else is the default.

With --socket, it talks to a running server instead and only replays the .eml files of --eml-dir over
CONNECTIONS connections (throughput; --pid for its memory).

The LMTP client is written here: Python's smtplib.LMTP reads one reply after DATA, not one per
recipient.
"""

import argparse
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Client:
    """A minimal LMTP client over a Unix socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")
        self.reply()
        self.cmd("LHLO bench.example")

    def reply(self):
        while True:
            line = self.file.readline()
            if not line:
                raise RuntimeError("connection closed")
            if line[3:4] != b"-":
                return line.decode().rstrip()

    def cmd(self, line):
        self.sock.sendall(line.encode() + b"\r\n")
        return self.reply()

    def send(self, raw, rcpts=("pbem@localhost",)):
        """One message, pipelined as Postfix does: the replies, one per recipient."""
        body = b"".join(
            (b"." + l if l.startswith(b".") else l) for l in raw.splitlines(keepends=True)
        )
        if not body.endswith(b"\n"):
            body += b"\r\n"
        head = b"MAIL FROM:<bench@example.org>\r\n" + b"".join(
            b"RCPT TO:<%s>\r\n" % r.encode() for r in rcpts
        )
        self.sock.sendall(head + b"DATA\r\n")
        for _ in range(1 + len(rcpts)):
            r = self.reply()
            assert r.startswith("250"), r
        r = self.reply()
        assert r.startswith("354"), r
        self.sock.sendall(body + b".\r\n")
        return [self.reply() for _ in rcpts]

    def close(self):
        try:
            self.cmd("QUIT")
        finally:
            self.sock.close()


_ids = iter(range(10**9))


def eml(sender, subject, body=""):
    n = next(_ids)
    return (
        f"From: {sender}\r\nTo: pbem@localhost\r\nSubject: {subject}\r\n"
        f"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <bench-{os.getpid()}-{n}@client.example>\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def reply_eml(sender, to, board, text):
    """A reply to a board mail's signed Reply-To: the move above the quoted board."""
    n = next(_ids)
    return (
        f"From: {sender}\r\nTo: <{to}>\r\nSubject: Re: Limit Board {board}\r\n"
        f"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <bench-{os.getpid()}-{n}@client.example>\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n\r\n"
        f"On Mon, 23 Nov 2026 pbem <pbem@localhost> wrote:\r\n> Summary of Limit Board {board}\r\n"
    ).encode()


def reply_address(db, board, who):
    """The signed Reply-To of a board mail the server queued for `who` on `board`."""
    with sqlite3.connect(db) as c:
        (game_id,) = c.execute(
            "SELECT id FROM games WHERE game_type = 'limit' AND board = ?", (board,)
        ).fetchone()
        for (mail,) in c.execute("SELECT mail FROM outbox ORDER BY id DESC"):
            m = json.loads(mail)
            to = m.get("reply_to") or ""
            if m["to"] == [f"{who}@example.org"] and to.startswith(f"pbem+g{game_id}-"):
                return to
    raise RuntimeError(f"no signed Reply-To for {who} on board {board}")


def move_count(db, board):
    """The stored game's move number: one more after each move played."""
    with sqlite3.connect(db) as c:
        (state,) = c.execute(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id "
            "WHERE g.game_type = 'limit' AND g.board = ?",
            (board,),
        ).fetchone()
    return json.loads(state)["move_number"]


def user(g, seat):
    return f"u{g:05d}{'ab'[seat]}"


class Games:
    """The games of the run, followed locally with `pbem engine` so that every move sent is legal."""

    def __init__(self, pbem, db):
        self.pbem, self.db = pbem, db
        self.state = {}

    def load(self, board):
        with sqlite3.connect(self.db) as c:
            (s,) = c.execute(
                "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id "
                "WHERE g.game_type = 'limit' AND g.board = ?",
                (board,),
            ).fetchone()
        self.state[board] = s

    def engine(self, *args, stdin):
        return subprocess.run(
            [self.pbem, "engine", "limit", *args], input=stdin, capture_output=True, text=True, check=True
        ).stdout

    def next_move(self, board, rng):
        """(userid, move, number) of a legal move, and advances the local copy; None at the end."""
        state = self.state[board]
        doc = json.loads(state)
        if doc["to_move"] is None:
            return None
        seat = [s["side"] for s in doc["sides"]].index(doc["to_move"])
        mv = rng.choice(self.engine("moves", stdin=state).split())
        self.state[board] = self.engine("play", mv, stdin=state)
        return user(board - 101, seat), mv, doc["move_number"]


def vm_hwm(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None


def median_ms(samples):
    return statistics.median(samples) * 1000


def mixed(games, boards, rng):
    """One mixed mail for a connection that owns `boards`."""
    r = rng.random()
    board = rng.choice(boards)
    a, b = user(board - 101, 0), user(board - 101, 1)
    if r < 0.40:
        nxt = games.next_move(board, rng)
        if nxt is not None:
            who, mv, number = nxt
            return eml(f"{who}@example.org", f"limit move {board} {who} pw-{who} {mv}#{number}")
        r = 0.5
    if r < 0.65:
        return eml(f"{a}@example.org", f"limit show {board}")
    if r < 0.80:
        return eml(f"{a}@example.org", f"limit chat {board} {a} pw-{a}", "good game so far")
    if r < 0.90:
        return eml(f"{b}@example.org", f"limit games {b}")
    if r < 0.95:
        return eml(f"{b}@example.org", "help")
    return eml(f"{b}@example.org", f"limit move {board} {b} wrong-{b} 1-2,3")


def run_parallel(socket_path, per_connection):
    """Sends each list of mails over its own connection at once: (seconds, replies)."""
    replies = [None] * len(per_connection)

    def go(i, mails):
        c = Client(socket_path)
        out = [c.send(m)[0] for m in mails]
        c.close()
        replies[i] = out

    threads = [threading.Thread(target=go, args=(i, m)) for i, m in enumerate(per_connection)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, [r for rs in replies for r in rs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pbem", default=str(ROOT / "target/release/pbem"))
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--mails", type=int, default=1000)
    ap.add_argument("--connections", type=int, default=4)
    ap.add_argument("--rss-mails", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--cheap-argon2",
        action="store_true",
        help="argon2 at 8 KiB, 1 pass (not the default cost): what the mails cost besides argon2",
    )
    ap.add_argument(
        "--compare-ingest",
        action="store_true",
        help="also time the same kinds of move and show through `pbem ingest` (a process per mail)",
    )
    ap.add_argument(
        "--reply",
        action="store_true",
        help="also time reply moves (signed Reply-To, no password) against password moves",
    )
    ap.add_argument(
        "--no-pictures",
        action="store_true",
        help="board mails without their picture ([mail] pictures = false)",
    )
    ap.add_argument(
        "--keep",
        action="store_true",
        help="keep the temporary folder (database, outbox, log); by default it is removed at the end",
    )
    ap.add_argument("--socket")
    ap.add_argument("--eml-dir")
    ap.add_argument("--pid", type=int)
    args = ap.parse_args()

    if args.socket:
        files = sorted(Path(args.eml_dir).iterdir())
        per = [[f.read_bytes() for f in files[i :: args.connections]] for i in range(args.connections)]
        secs, replies = run_parallel(args.socket, per)
        print(f"{len(files)} mails over {args.connections} connections: {secs:.1f} s, {len(files) / secs:.0f} mails/s")
        print("replies:", {c: sum(r.startswith(c) for r in replies) for c in ("250", "451", "554")})
        if args.pid:
            print(f"peak RSS of pid {args.pid}: {vm_hwm(args.pid) / 1024:.1f} MiB")
        return

    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="lmtp-bench-"))
    db = tmp / "pbem.sqlite"
    cfg = tmp / "pbem.toml"
    cfg.write_text(
        f"[limits]\nreplies_per_address_per_hour = 1000000\n\n[lmtp]\nworkers = {args.workers}\n"
        + ("\n[passwords]\nmemory_kib = 8\niterations = 1\n" if args.cheap_argon2 else "")
        + ("\n[mail]\npictures = false\n" if args.no_pictures else "")
    )
    sock = tmp / "lmtp.sock"
    env = dict(os.environ, PBEM_CONFIG=str(cfg))
    env.pop("PBEM_NOW", None)
    log = open(tmp / "lmtp.log", "w")
    server = subprocess.Popen(
        [args.pbem, "--db", str(db), "--outbox", str(tmp / "outbox"), "lmtp", "--listen", f"unix:{sock}"],
        env=env,
        stderr=log,
    )
    try:
        for _ in range(600):
            if sock.exists():
                break
            time.sleep(0.05)
        print(f"pbem lmtp pid {server.pid}, {args.workers} workers, folder {tmp}; load {os.getloadavg()}")
        setup = Client(sock)
        t = time.perf_counter()
        for g in range(args.games):
            for seat in (0, 1):
                u = user(g, seat)
                setup.send(eml(f"{u}@example.org", f"signup {u} pw-{u}"))
            a, b = user(g, 0), user(g, 1)
            setup.send(eml(f"{a}@example.org", f"limit challenge --password=pw-{a} {a} {b}"))
        print(f"setup: {2 * args.games} players, {args.games} games in {time.perf_counter() - t:.1f} s")
        games = Games(args.pbem, db)
        boards = list(range(101, 101 + args.games))
        for b in boards:
            games.load(b)

        moves = []
        for i in range(args.samples):
            board = boards[i % len(boards)]
            who, mv, number = games.next_move(board, rng)
            m = eml(f"{who}@example.org", f"limit move {board} {who} pw-{who} {mv}#{number}")
            t = time.perf_counter()
            r = setup.send(m)
            moves.append(time.perf_counter() - t)
            assert r[0].endswith("handled"), r
        shows = []
        for i in range(args.samples):
            m = eml(f"{user(i, 0)}@example.org", f"limit show {boards[i % len(boards)]}")
            t = time.perf_counter()
            setup.send(m)
            shows.append(time.perf_counter() - t)
        if args.reply:
            timed = {"password": [], "reply": []}
            for i in range(args.samples):
                for k, kind in enumerate(("password", "reply")):
                    board = boards[(2 * (i + args.samples) + k) % len(boards)]
                    who, mv, number = games.next_move(board, rng)
                    before = move_count(db, board)
                    if kind == "password":
                        m, rcpts = eml(f"{who}@example.org", f"limit move {board} {who} pw-{who} {mv}#{number}"), ("pbem@localhost",)
                    else:
                        to = reply_address(db, board, who)
                        m, rcpts = reply_eml(f"{who}@example.org", to, board, f"{mv}#{number}"), (to,)
                    t = time.perf_counter()
                    r = setup.send(m, rcpts)
                    timed[kind].append(time.perf_counter() - t)
                    assert r[0].endswith("handled"), r
                    assert move_count(db, board) == before + 1, f"{kind} move on {board} not played"
            for kind, xs in timed.items():
                print(
                    f"{kind} move over LMTP: median {median_ms(xs):.2f} ms (min {min(xs) * 1000:.2f}, "
                    f"max {max(xs) * 1000:.2f}) over {len(xs)}"
                )
        setup.close()
        if args.compare_ingest:
            ingest = [args.pbem, "--db", str(db), "--outbox", str(tmp / "outbox"), "ingest"]
            by_ingest = {"move": [], "show": []}
            for i in range(args.samples):
                board = boards[(i + args.samples) % len(boards)]
                who, mv, number = games.next_move(board, rng)
                for kind, m in (
                    ("move", eml(f"{who}@example.org", f"limit move {board} {who} pw-{who} {mv}#{number}")),
                    ("show", eml(f"{who}@example.org", f"limit show {board}")),
                ):
                    t = time.perf_counter()
                    subprocess.run(ingest, input=m, env=env, check=True)
                    by_ingest[kind].append(time.perf_counter() - t)
            for kind, xs in by_ingest.items():
                print(f"{kind} by `pbem ingest` (a process per mail): median {median_ms(xs):.1f} ms over {len(xs)}")
        print(
            f"move over LMTP: median {median_ms(moves):.1f} ms (min {min(moves) * 1000:.1f}, "
            f"max {max(moves) * 1000:.1f}) over {len(moves)}"
        )
        print(
            f"limit show over LMTP: median {median_ms(shows):.2f} ms (min {min(shows) * 1000:.2f}, "
            f"max {max(shows) * 1000:.2f}) over {len(shows)}"
        )

        def throughput(n, label):
            own = [boards[i :: args.connections] for i in range(args.connections)]
            per = [[] for _ in range(args.connections)]
            kinds = 0
            for k in range(n):
                c = k % args.connections
                m = mixed(games, own[c], rng)
                kinds += b"limit move" in m and b"wrong-" not in m
                per[c].append(m)
            secs, replies = run_parallel(sock, per)
            codes = {c: sum(r.startswith(c) for r in replies) for c in ("250", "451", "554")}
            print(
                f"{label}: {n} mixed mails ({kinds} moves) over {args.connections} connections in "
                f"{secs:.1f} s: {n / secs:.0f} mails/s; replies {codes}; "
                f"peak RSS {vm_hwm(server.pid) / 1024:.1f} MiB"
            )

        throughput(args.mails, "throughput")
        if args.rss_mails:
            throughput(args.rss_mails, "memory run")
    finally:
        server.terminate()
        status = server.wait()
        log.close()
        if args.keep:
            print(f"pbem lmtp exit {status}; log: {tmp / 'lmtp.log'}")
        else:
            print(f"pbem lmtp exit {status}; log:")
            sys.stdout.write((tmp / "lmtp.log").read_text()[-2000:])
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
