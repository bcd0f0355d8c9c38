#!/usr/bin/env bash
# Issue "Trust", item 8 ("sent twice"): replays the kill series per transport and counts the mails
# delivered twice and the mails lost.
#
# For each transport (file; sendmail with a fake sendmail that, like the real ones, delivers only after
# it has read the whole message; smtp to a small SMTP sink over TCP on 127.0.0.1), DOUBLESEND_RUNS
# chat mails (default 520; each costs a password check and mails both players of the game) are fed to
# `pbem ingest`, each killed with SIGKILL at a random moment of 0 to 1.5 times an un-killed run. A
# killed one is delivered again until it exits 0, as an MTA does. Then one `pbem outbox flush` at the
# same clock (no waiting for claims to grow stale) sends what the killed ones left. Every mail queued
# must arrive exactly once.
#
#   scripts/abuse/doublesend.sh                    all three transports
#   DOUBLESEND_RUNS=100 scripts/abuse/doublesend.sh sendmail smtp
#   DOUBLESEND_FLUSH_AFTER=700 ...   flush 700 s later instead (past the 10-minute stale-claim rule,
#                                    for a pbem that cannot tell a dead claimer from a live one)
#
# Prints one line per transport: mails, lost, doubled (%). Fails if a mail was lost or more than 1%
# were doubled. PBEM_BIN names the binary (scripts/abuse.sh sets it); else the release build is used.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PBEM_BIN:-}" ]; then
    cargo build --release --locked --quiet
    PBEM_BIN="$PWD/target/release/pbem"
fi
export PBEM_BIN
exec python3 - "$@" <<'PY'
import json, os, random, re, shutil, signal, socket, sqlite3, subprocess, sys, tempfile, threading, time

PBEM = os.environ["PBEM_BIN"]
RUNS = int(os.environ.get("DOUBLESEND_RUNS", "520"))
SEED = int(os.environ.get("DOUBLESEND_SEED", "20251123"))
NOW = "1795000000"
FLUSH_AFTER = int(os.environ.get("DOUBLESEND_FLUSH_AFTER", "0"))
ENV = dict(os.environ, PBEM_NOW=NOW, PBEM_SEED="7")
ENV.pop("PBEM_CONFIG", None)
MSGID = re.compile(rb"^Message-ID:\s*(<[^>\r\n]+>)", re.I | re.M)


class Sink:
    """A small SMTP server: a message counts as delivered when its final dot has arrived, just
    before the 250 answer, as a real relay commits it. A client that vanishes mid-DATA delivered
    nothing."""

    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.session, args=(conn,), daemon=True).start()

    def session(self, conn):
        try:
            f = conn.makefile("rb")
            conn.sendall(b"220 sink ESMTP\r\n")
            while True:
                line = f.readline()
                if not line:
                    return
                verb = line.strip().upper()[:4]
                if verb in (b"EHLO", b"HELO"):
                    conn.sendall(b"250 sink\r\n")
                elif verb == b"DATA":
                    conn.sendall(b"354 go on\r\n")
                    data = []
                    while True:
                        l = f.readline()
                        if not l:
                            return
                        if l == b".\r\n":
                            break
                        data.append(l[1:] if l.startswith(b"..") else l)
                    with self.lock:
                        self.messages.append(b"".join(data))
                    conn.sendall(b"250 queued\r\n")
                elif verb == b"QUIT":
                    conn.sendall(b"221 bye\r\n")
                    return
                else:
                    conn.sendall(b"250 ok\r\n")
        except OSError:
            return
        finally:
            conn.close()


def eml(sender, subject, msgid, body=""):
    return (
        f"From: {sender}@example.org\r\nTo: pbem@localhost\r\nSubject: {subject}\r\n"
        f"Date: Wed, 18 Nov 2026 10:00:00 +0000\r\nMessage-ID: <{msgid}>\r\n\r\n{body}\r\n"
    ).encode()


def run(args, data=b""):
    return subprocess.run([PBEM] + args, input=data, env=ENV, capture_output=True)


def series(transport, rng):
    d = tempfile.mkdtemp(prefix=f"doublesend-{transport}-")
    db = os.path.join(d, "pbem.sqlite")
    setup = ["--db", db, "--outbox", os.path.join(d, "setup")]
    for i, (who, subject) in enumerate(
        [("alice", "signup alice pw-alice"), ("bob", "signup bob pw-bob"),
         ("alice", "limit challenge alice bob")]
    ):
        r = run(setup + ["ingest"], eml(who, subject, f"setup{i}@client.example"))
        assert r.returncode == 0, r.stderr
    conn = sqlite3.connect(db)
    setup_rows = conn.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0]
    conn.close()

    delivered_dir = os.path.join(d, "delivered")
    os.makedirs(delivered_dir)
    cfg = "[limits]\nreplies_per_address_per_hour = 1000000\n[mail]\n"
    sink = None
    if transport == "file":
        cfg += f'transport = "file"\noutbox_dir = "{delivered_dir}"\n'
    elif transport == "sendmail":
        fake = os.path.join(d, "fake-sendmail")
        with open(fake, "w") as f:
            f.write(
                "#!/bin/sh\n"
                "# Reads the whole message, then delivers it in one step (a rename), as a real\n"
                "# sendmail delivers only after the end of its input.\n"
                f"tmp='{d}/tmp.'$$\n"
                'cat > "$tmp" || exit 75\n'
                f"exec mv \"$tmp\" '{delivered_dir}/'$$.$(date +%s%N).eml\n"
            )
        os.chmod(fake, 0o755)
        cfg += f'transport = "sendmail"\nsendmail_command = "{fake}"\n'
    else:
        sink = Sink()
        cfg += (f'transport = "smtp"\n[mail.smtp]\nhost = "127.0.0.1"\nport = {sink.port}\n'
                'tls = "none"\ntimeout_secs = 10\n')
    config = os.path.join(d, "pbem.toml")
    with open(config, "w") as f:
        f.write(cfg)
    base = ["--config", config, "--db", db]

    def ingest(data, delay):
        """Runs one ingest; kills it after `delay` seconds unless it ended. None when killed."""
        p = subprocess.Popen([PBEM] + base + ["ingest"], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        start = time.monotonic()
        try:
            p.stdin.write(data)
            p.stdin.close()
        except BrokenPipeError:
            pass
        if delay is None:
            return p.wait()
        left = start + delay - time.monotonic()
        if left > 0:
            time.sleep(left)
        if p.poll() is not None:
            return p.returncode
        p.send_signal(signal.SIGKILL)
        p.wait()
        return None

    n = 0

    def chat():
        nonlocal n
        n += 1
        return eml("alice", "limit chat 101 alice pw-alice", f"chat{n}@client.example",
                   f"chat number {n}")

    # An un-killed run, for the range of kill moments.
    times = []
    for _ in range(5):
        t = time.monotonic()
        assert ingest(chat(), None) == 0
        times.append(time.monotonic() - t)
    typical = sorted(times)[2]

    killed = redeliveries = 0
    for _ in range(RUNS):
        data = chat()
        code = ingest(data, rng.uniform(0, 1.5 * typical))
        if code is None:
            killed += 1
        while code != 0:
            if code not in (None, 75):
                sys.exit(f"{transport}: ingest exited {code}")
            redeliveries += 1
            code = ingest(data, None)

    # The file transport writes one file per Message-ID, so a second send replaces the first: the
    # files the flush rewrites are the mails another transport would have sent twice.
    before = {e.name: e.inode() for e in os.scandir(delivered_dir)}
    r = subprocess.run([PBEM] + base + ["outbox", "flush"], capture_output=True,
                       env=dict(ENV, PBEM_NOW=str(int(NOW) + FLUSH_AFTER)))
    flush_line = r.stdout.decode().strip()
    rewritten = sum(1 for e in os.scandir(delivered_dir)
                    if e.name in before and before[e.name] != e.inode())

    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT mail, sent_at FROM outbox WHERE id > ?", (setup_rows,)).fetchall()
    conn.close()
    queued = [json.loads(m)["message_id"] for m, _ in rows]
    unsent = sum(1 for _, s in rows if s is None)
    if transport == "smtp":
        blobs = list(sink.messages)
    else:
        blobs = []
        for e in os.scandir(delivered_dir):
            if e.name.endswith(".eml"):
                with open(e.path, "rb") as f:
                    blobs.append(f.read())
    seen = {}
    for b in blobs:
        m = MSGID.search(b)
        key = m.group(1).decode() if m else "?"
        seen[key] = seen.get(key, 0) + 1
    lost = sum(1 for q in queued if seen.get(q, 0) == 0)
    doubled = sum(seen.get(q, 0) - 1 for q in queued if seen.get(q, 0) > 1)
    mails = len(queued)
    pct = 100.0 * doubled / mails if mails else 0.0
    print(f"{transport:8}  mails {mails}, lost {lost}, doubled {doubled} ({pct:.2f}%)"
          f"   [{RUNS} ingests + 5 timing runs, {killed} killed, {redeliveries} redelivered; "
          f"typical ingest {typical * 1000:.1f} ms; final flush: {flush_line}; unsent {unsent}"
          + (f"; {rewritten} files rewritten by the flush" if transport == "file" else "") + "]",
          flush=True)
    shutil.rmtree(d)
    return lost == 0 and unsent == 0 and pct <= 1.0


rng = random.Random(SEED)
ok = True
print(f"kill series: {RUNS} chat mails per transport, each `pbem ingest` killed at a random moment "
      f"(seed {SEED}), then one `outbox flush` "
      + (f"{FLUSH_AFTER} s later" if FLUSH_AFTER else "at the same clock"), flush=True)
for t in sys.argv[1:] or ["file", "sendmail", "smtp"]:
    ok = series(t, rng) and ok
sys.exit(0 if ok else 1)
PY
