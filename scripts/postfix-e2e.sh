#!/usr/bin/env bash
# The admin's path, for real (issues 22 and 34): installs Postfix, sets pbem up by the README's own
# blocks ("Installing on a server", read from README.md, with play@example.org made play@localhost),
# sends mail over SMTP to localhost:25 and checks that every reply reaches the players' mailboxes
# exactly once: first through `pbem ingest` (Postfix's pipe), then through `pbem lmtp`, which is
# killed with SIGKILL mid-traffic, each kill while a sendmail hand-off runs, and started again as its
# systemd unit would (dist/systemd/pbem-lmtp.service: its ExecStartPre and ExecStart lines, as its
# User). On both routes two players play a Limit and a Hex game by bare replies to their board
# mails' reply addresses, also sent as a Bcc (the address only in the envelope). A relay that
# answers 4xx then 5xx, and an address Postfix refuses (error:5.2.1), come back as delivery reports
# to pbem's signed bounce addresses and are recorded; a naive autoresponder gets a handful of
# answers, then none. Then the README's procmail recipe against a pbem that must defer (exit 75),
# the cron line of dist/cron.d/pbem, and `systemd-analyze verify` of the units.
#
#   scripts/postfix-e2e.sh           the run; root on Debian (apt-get) only, else it says "skipped"
#   scripts/postfix-e2e.sh --check   only checks that README.md still has the blocks the run uses
#
# It rewrites Postfix's configuration and /etc/pbem, /var/lib/pbem: it runs only where it installed
# Postfix itself (a CI machine), marked by /etc/postfix/pbem-e2e.marker. It starts from whatever an
# earlier run or the README's lines left (a configured host): each setting they make is taken out
# by name first, so a second run passes as the first. PBEM_BIN names the binary (default: a debug
# build, `cargo build --locked`). Test-only Postfix settings, not the README's: a log file, retries
# after 1 s instead of 5 minutes, and transport entries for the relay and the refusing address;
# test-only pbem setting: a sendmail that takes 0.3 s, so that kills land in its hand-off.
set -euo pipefail
cd "$(dirname "$0")/.."

ADDRESS=play@localhost
PLAYERS=(e2e-p1 e2e-p2 e2e-p3 e2e-p4 e2e-p5 e2e-p6)
# Mails per player through LMTP (after the signup and one help through the pipe) and SIGKILLs of
# pbem lmtp among them; keep the mails under the 30 replies an hour an address gets.
LMTP_MAILS=${PBEM_E2E_MAILS:-8}
KILLS=${PBEM_E2E_KILLS:-3}
MARK=/etc/postfix/pbem-e2e.marker
BLOCKS=(install postfix-pipe postfix-lmtp services procmail)

# readme_block NAME: the lines of the fenced block that follows "<!-- e2e: NAME -->" in README.md.
readme_block() {
    awk -v name="$1" '
        $0 == "<!-- e2e: " name " -->" { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }
    ' README.md
}

# The blocks as this run uses them: the README's address made this machine's.
local_block() { readme_block "$1" | sed 's/example\.org/localhost/g'; }

# check_readme: every block is there and is valid shell; the units and the cron file it names exist.
check_readme() {
    local b text bad=0
    for b in "${BLOCKS[@]}"; do
        text=$(readme_block "$b")
        if [ -z "$text" ]; then
            echo "README.md has no block \"<!-- e2e: $b -->\" followed by a fenced block" >&2
            bad=1
        elif [ "$b" != procmail ] && ! bash -n <<<"$text"; then
            echo "README.md block $b is not valid shell" >&2
            bad=1
        else
            echo "README block $b: $(wc -l <<<"$text") lines"
        fi
    done
    for f in $(readme_block services | grep -o 'dist/[^ ]*'); do
        [ -f "$f" ] || { echo "README block services names $f, which does not exist" >&2; bad=1; }
    done
    return $bad
}

if [ "${1:-}" = --check ]; then
    check_readme
    exit
fi

WORK=
LOG=/var/log/pbem-e2e-postfix.log
skip() {
    echo "postfix-e2e: skipped: $*"
    exit 0
}
say() { echo "postfix-e2e: $*"; }
# PBEM_E2E_KEEP_GOING=1 (for the "before" figures of an older binary): a failed check is counted
# and the run goes on; the exit status is still 1.
failures=0
fail() {
    say "FAILED: $*"
    if [ -n "${PBEM_E2E_KEEP_GOING:-}" ] && [ -n "$WORK" ]; then
        failures=$((failures + 1))
        return 0
    fi
    [ -z "$WORK" ] || say "logs kept: $WORK (pbem), $LOG (Postfix)"
    exit 1
}
check_readme >/dev/null || fail "README.md lacks a block this run uses (scripts/postfix-e2e.sh --check)"
[ "$(id -u)" = 0 ] || skip "not root (it installs Postfix and adds users)"
command -v apt-get >/dev/null || skip "no apt-get (it is written for Debian)"
if command -v postfix >/dev/null && [ ! -e "$MARK" ]; then
    skip "Postfix is installed here, and not by this script, which rewrites its configuration; on a \
throwaway machine, touch $MARK to let it"
fi
need=()
command -v postfix >/dev/null || need+=(postfix)
command -v python3 >/dev/null || need+=(python3)
command -v procmail >/dev/null || need+=(procmail)
command -v setpriv >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
    echo "postfix-e2e: apt-get install ${need[*]}"
    echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
    echo "postfix postfix/mailname string $(hostname)" | debconf-set-selections
    if ! { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 \
        apt-get install -y -qq "${need[@]}"; } >/tmp/pbem-e2e-apt.log 2>&1; then
        skip "apt-get could not install ${need[*]} (see /tmp/pbem-e2e-apt.log)"
    fi
    [[ " ${need[*]} " == *" postfix "* ]] && touch "$MARK"
fi
if ! command -v systemd-analyze >/dev/null; then
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq systemd >/dev/null 2>&1 || true
fi

BIN=${PBEM_BIN:-}
if [ -z "$BIN" ]; then
    command -v cargo >/dev/null || skip "no PBEM_BIN and no cargo to build pbem"
    cargo build --locked --quiet
    BIN=${CARGO_TARGET_DIR:-target}/debug/pbem
fi
BIN=$(realpath "$BIN")

WORK=$(mktemp -d /tmp/pbem-e2e.XXXXXX)
chmod 755 "$WORK"
LMTP_PID=
started=$SECONDS
cleanup() {
    [ -z "$LMTP_PID" ] || kill "$LMTP_PID" 2>/dev/null || true
    pkill_ours /run/pbem-e2e-relay.pid
    postfix stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# A clean start from whatever is configured (an earlier run, the README's lines run by hand): every
# setting the README's blocks and this run make is taken out by name, so that Postfix is as Debian
# installed it for what this run checks. (Until issue 34 the first main.cf seen was saved and put
# back, so a host configured before the first run failed the "before" check below.)
postfix stop >/dev/null 2>&1 || true
pkill_ours() { [ ! -s "$1" ] || kill "$(cat "$1")" 2>/dev/null || true; rm -f "$1"; }
pkill_ours /run/pbem-e2e-relay.pid
configured=$( (postconf -n; postconf -M) 2>/dev/null | grep -c 'pbem\|transport_maps' || true)
postconf -X transport_maps local_recipient_maps pbem_destination_recipient_limit maillog_file \
    queue_run_delay minimal_backoff_time maximal_backoff_time defer_transports 2>/dev/null || true
postconf -MX pbem/unix 2>/dev/null || true
rm -f /etc/postfix/transport /etc/postfix/transport.db
rm -rf /var/lib/pbem /var/spool/postfix/pbem /etc/pbem /run/pbem-e2e
install -d -m 1777 /run/pbem-e2e
: >"$LOG"
postconf -e "maillog_file = $LOG" 'queue_run_delay = 1s' 'minimal_backoff_time = 1s' \
    'maximal_backoff_time = 2s'
for p in "${PLAYERS[@]}" e2e-r1 e2e-r2 e2e-g1 e2e-auto e2e-vac; do
    id "$p" >/dev/null 2>&1 || useradd -m -s /usr/sbin/nologin "$p"
    rm -f "/var/mail/$p"
done
# Without systemd, as on CI: Postfix started directly.
timeout 60 postfix start >"$WORK/postfix-start.log" 2>&1 ||
    skip "Postfix could not start: $(tail -1 "$WORK/postfix-start.log")"
postsuper -d ALL >/dev/null 2>&1 || true
for _ in $(seq 50); do
    python3 -c 'import socket; socket.create_connection(("127.0.0.1", 25), 1).close()' 2>/dev/null && break
    sleep 0.2
done
python3 -c 'import socket; socket.create_connection(("127.0.0.1", 25), 1).close()' 2>/dev/null ||
    skip "Postfix does not listen on localhost:25"
say "Postfix $(postconf -h mail_version) running; pbem binary $BIN; \
$([ "$configured" -gt 0 ] && echo "started on a configured host ($configured pbem settings taken out first)" || echo "started on an untouched Postfix")"

# Step 1 of the README, with this checkout's binary, then the two settings it says to set.
local_block install | sed "s|target/release/pbem|$BIN|" | bash -e >"$WORK/install.log" 2>&1 ||
    fail "README block install: $(tail -3 "$WORK/install.log")"
sed -i "s|^name = \"pbem\"|name = \"Limit games (e2e)\"|; s|^address = \"pbem@localhost\"|address = \"$ADDRESS\"|" \
    /etc/pbem/pbem.toml
grep -q "^address = \"$ADDRESS\"" /etc/pbem/pbem.toml || fail "could not set [server] address"

# send.py PHASE SUBJECT...: for every player, one mail per subject over SMTP to localhost:25, the
# players in turn; each line of $WORK/sent.tsv is phase, player, Message-ID.
cat >"$WORK/send.py" <<'PY'
import smtplib, sys, time, uuid
phase, players, subjects = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
address, out = "play@localhost", open(sys.argv[0].rsplit("/", 1)[0] + "/sent.tsv", "a")
smtp = smtplib.SMTP("127.0.0.1", 25, timeout=30)
for subject in subjects:
    for p in players:
        mid = f"{phase}.{uuid.uuid4().hex}@e2e.client"
        user = p.removeprefix("e2e-")
        text = (f"From: {p}@localhost\r\nTo: {address}\r\nSubject: {subject.format(user=user)}\r\n"
                f"Message-ID: <{mid}>\r\n\r\nsent by postfix-e2e\r\n")
        smtp.sendmail(f"{p}@localhost", [address], text.encode())
        print(phase, p, mid, sep="\t", file=out, flush=True)
        time.sleep(0.02)
smtp.quit()
PY

# check.py [--wait SECONDS]: reads every player's mailbox and compares with sent.tsv. Prints
# "replies R of S, missing M, doubled D, stray X"; with --wait, polls until nothing is missing.
cat >"$WORK/check.py" <<'PY'
import collections, email, email.policy, mailbox, os, sys, time
work = os.path.dirname(sys.argv[0])
wait = float(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--wait" else 0
deadline = time.time() + wait
while True:
    sent = {}
    for line in open(os.path.join(work, "sent.tsv")):
        phase, player, mid = line.rstrip("\n").split("\t")
        sent[mid] = player
    got, stray, froms = collections.Counter(), 0, set()
    for player in set(sent.values()) | set(sys.argv[3:]):
        path = f"/var/mail/{player}"
        if not os.path.exists(path):
            continue
        parse = lambda f: email.message_from_binary_file(f, policy=email.policy.default)
        for m in mailbox.mbox(path, factory=parse):
            irt = (m["In-Reply-To"] or "").strip().strip("<>")
            froms.add(str(m["From"]))
            if sent.get(irt) == player:
                got[irt] += 1
            else:
                stray += 1
    missing = [m for m in sent if got[m] == 0]
    doubled = [m for m in sent if got[m] > 1]
    if not missing or time.time() > deadline:
        break
    time.sleep(0.5)
print(f"replies {sum(got.values())} of {len(sent)}, missing {len(missing)}, "
      f"doubled {len(doubled)}, stray {stray}")
print("From: " + " | ".join(sorted(froms)))
for m in missing[:5]:
    print("missing: reply to", m)
sys.exit(0 if not missing and not doubled and not stray else 1)
PY
# rcpt.py ADDRESS: what Postfix answers to RCPT TO:<ADDRESS> ("550 5.1.1 ...").
cat >"$WORK/rcpt.py" <<'PY'
import smtplib, sys
smtp = smtplib.SMTP("127.0.0.1", 25, timeout=30)
smtp.ehlo()
smtp.mail("e2e-p1@localhost")
code, text = smtp.rcpt(sys.argv[1])
print(code, text.decode())
smtp.quit()
PY
: >"$WORK/sent.tsv"
send() { python3 "$WORK/send.py" "$@" >>"$WORK/send.log" 2>&1 || fail "sending over SMTP: $(tail -2 "$WORK/send.log")"; }
replies() { cat /var/mail/e2e-* 2>/dev/null | grep -c '^In-Reply-To: <lmtp\.' || true; }

# log_wait PATTERN: waits (30 s at most) for a line of Postfix's log, prints the last one. The queue
# is flushed every second: right after a reload Postfix may leave new mail alone for a while.
log_wait() {
    for i in $(seq 300); do
        grep -q "$1" "$LOG" && break
        [ $((i % 10)) != 0 ] || postqueue -f
        sleep 0.1
    done
    grep "$1" "$LOG" | tail -1 || true
}

# Before (the README until issue 22): the pipe service and the transport entry alone. Postfix refuses
# the address at RCPT, as it refuses every address that is no Unix user or alias.
echo "$ADDRESS  pbem:" >/etc/postfix/transport
postmap /etc/postfix/transport
postconf -e 'transport_maps = hash:/etc/postfix/transport'
postfix reload >/dev/null 2>&1
sleep 1
answer=$(python3 "$WORK/rcpt.py" "$ADDRESS")
say "before: transport_maps alone: RCPT TO:<$ADDRESS> is answered: $answer"
[[ $answer == 550* ]] || fail "the old lines were expected to get 550"
: >/etc/postfix/transport

# Phase 1: step 2 of the README, Postfix's pipe to `pbem ingest`.
local_block postfix-pipe | bash -e >"$WORK/pipe.log" 2>&1 || fail "README block postfix-pipe: $(tail -3 "$WORK/pipe.log")"
say "after: the README's lines: RCPT TO:<$ADDRESS> is answered: $(python3 "$WORK/rcpt.py" "$ADDRESS")"
send pipe "${PLAYERS[*]}" "signup {user} pw-{user}-e2e"
python3 "$WORK/check.py" --wait 60 >"$WORK/check-signup.txt" || fail "signups: $(cat "$WORK/check-signup.txt")"
send pipe "${PLAYERS[*]}" "help"
python3 "$WORK/check.py" --wait 60 >"$WORK/check-pipe.txt" || fail "pipe: $(cat "$WORK/check-pipe.txt")"
say "pipe to pbem ingest: $(head -1 "$WORK/check-pipe.txt"); Postfix deferred \
$(grep -c 'relay=pbem, .*status=deferred' "$LOG" || true)"
say "  $(sed -n 2p "$WORK/check-pipe.txt")"

# A relative [database] path (the example configuration until issue 22): under Postfix's pipe it lies
# in the queue folder. pbem defers (75) and its line names the setting; with the README's line
# back, the mail waiting in Postfix's queue is answered once.
sed 's|^path = .*|path = "pbem.sqlite"|' /etc/pbem/pbem.toml >/etc/pbem/relative.toml
chgrp pbem /etc/pbem/relative.toml && chmod 640 /etc/pbem/relative.toml
pipe_service=$(local_block postfix-pipe | grep '^postconf -M')
eval "${pipe_service//pbem.toml/relative.toml}"
postfix reload >/dev/null 2>&1
sleep 1
send relative e2e-p1 "help"
line=$(log_wait 'relay=pbem, .*status=deferred')
say "relative [database] path: Postfix deferred the mail: ${line#*Command output: }"
grep -q 'set \[database\] path' <<<"$line" || fail "the deferral does not name [database] path: $line"
eval "$pipe_service"
postfix reload >/dev/null 2>&1
sleep 1
postqueue -f
python3 "$WORK/check.py" --wait 30 >"$WORK/check-relative.txt" || fail "after the fix: $(cat "$WORK/check-relative.txt")"
say "  the README's line back: $(head -1 "$WORK/check-relative.txt")"
rm -f /etc/pbem/relative.toml

# Reply just works (issues 25 and 34): two more players start a Limit and a Hex game; the one to
# move answers his board mail's signed Reply-To (play+<token>@localhost) with the bare move, in To
# ("to") or only in the envelope, as a Bcc or a forward does ("bcc": To: play@localhost). Postfix
# takes that address only with the README's recipient_delimiter; pbem finds the token in RCPT TO
# over LMTP, and through the pipe in the Delivered-To and X-Original-To that flags=DO add.
cat >"$WORK/game.py" <<'PY'
import email, email.policy, mailbox, os, smtplib, sqlite3, subprocess, sys, time, uuid
address, db = "play@localhost", "/var/lib/pbem/pbem.sqlite"

def send(sender, rcpt, subject, body, to=address):
    text = (f"From: {sender}\r\nTo: <{to}>\r\nSubject: {subject}\r\n"
            f"Message-ID: <game.{uuid.uuid4().hex}@e2e.client>\r\n\r\n{body}\r\n")
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as smtp:
        smtp.sendmail(sender, [rcpt], text.encode())

def mails(user):
    path = f"/var/mail/{user}"
    if not os.path.exists(path):
        return []
    parse = lambda f: email.message_from_binary_file(f, policy=email.policy.default)
    return list(mailbox.mbox(path, factory=parse))

def wait(what, ok, secs=40):
    deadline = time.time() + secs
    while time.time() < deadline:
        found = ok()
        if found:
            return found
        subprocess.run(["postqueue", "-f"], capture_output=True)
        time.sleep(0.3)
    sys.exit(f"timed out waiting for {what}")

def game(kind):
    """The latest game of this kind: its row, board, the userid to move and the state's text."""
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT g.id, g.board, u.userid, st.state FROM games g "
            "JOIN game_states st ON st.game_id = g.id "
            "JOIN seats s ON s.game_id = g.id AND s.seat = g.to_move JOIN users u ON u.id = s.user_id "
            "WHERE g.game_type = ? ORDER BY g.id DESC LIMIT 1", (kind,)).fetchone()

if sys.argv[1] == "setup":
    for u in ("r1", "r2"):
        send(f"e2e-{u}@localhost", address, f"signup {u} pw-{u}-e2e", "sent by postfix-e2e")
    wait("the signups' answers", lambda: all(mails(f"e2e-{u}") for u in ("r1", "r2")))
    for kind in sys.argv[2:]:
        send("e2e-r1@localhost", address, f"{kind} challenge r1 r2", "sent by postfix-e2e")
        wait(f"the {kind} game", lambda: game(kind))
    print("r1 and r2 play", " and ".join(sys.argv[2:]))
    sys.exit(0)

# reply KIND MODE EXPECT: the player to move answers his board mail; EXPECT is "played" or "not".
kind, mode, expect = sys.argv[2:5]
gid, board, userid, state = game(kind)
user = f"e2e-{userid}"
topic = f"{kind.capitalize()} Board {board}"
board_mail = wait(f"{user}'s board mail", lambda: [
    m for m in mails(user) if m["Reply-To"] and str(m["Thread-Topic"] or "") == topic])[-1]
reply_to = board_mail["Reply-To"].addresses[0].addr_spec
move = subprocess.run(["/usr/local/bin/pbem", "engine", kind, "moves"], input=state,
                      capture_output=True, text=True, check=True).stdout.split()[0]
quoted = "".join(f"> {l}\n" for l in board_mail.get_body(("plain",)).get_content().splitlines())
before = len(mails(user))
send(f"{user}@localhost", reply_to, f"Re: {board_mail['Subject']}",
     f"{move}\r\n\r\nOn a day, pbem wrote:\r\n{quoted}", to=reply_to if mode == "to" else address)
shown = f"{reply_to.split('+')[0]}+<token>@{reply_to.split('@')[1]}"
where = "in To" if mode == "to" else "in the envelope only (To: play@localhost)"
if expect == "played":
    wait(f"the {kind} move {move}", lambda: game(kind)[3] != state)
    print(f"{kind}: {user} replied {move} to {shown} {where}: played on board {board}")
else:
    answer = wait("the answer", lambda: mails(user)[before:])
    text = answer[-1].get_body(("plain",)).get_content()
    played = game(kind)[3] != state
    said = next((l for l in text.splitlines() if "no command" in l), text.strip().splitlines()[0])
    print(f"{kind}: {user} replied {move} to {shown} {where}: {'PLAYED' if played else 'not played'}, "
          f"answered \"{said.strip()}\"")
    sys.exit(1 if played or "holds no command" not in text else 0)
PY
game() { timeout 120 python3 "$WORK/game.py" "$@" 2>&1; }
out=$(game setup limit hex) || fail "the games: $out"
say "$out"
out=$(game reply limit to played) || fail "reply in To: $out"
say "pipe: $out"
# Before (the README until issue 34): flags=Rq writes neither Delivered-To nor X-Original-To, so
# the token of a Bcc'd reply is nowhere in the mail.
old_service=$(local_block postfix-pipe | grep '^postconf -M' | sed 's/flags=DORq/flags=Rq/')
eval "$old_service"
postfix reload >/dev/null 2>&1
sleep 1
out=$(game reply limit bcc not) || fail "before: the old flags=Rq was expected to lose the token: $out"
say "before: the pipe with flags=Rq: $out"
local_block postfix-pipe | bash -e >>"$WORK/pipe.log" 2>&1 || fail "README block postfix-pipe again"
postfix reload >/dev/null 2>&1
sleep 1
out=$(game reply limit bcc played) || fail "after: the README's flags=DORq: $out"
say "after: the README's flags=DORq: $out"
out=$(game reply hex to played) || fail "hex through the pipe: $out"
say "pipe: $out"
out=$(game reply hex bcc played) || fail "hex through the pipe, Bcc'd: $out"
say "pipe: $out"
# The README's pipe block run a second time (a configured host) adds nothing.
[ "$(grep -c 'pbem:' /etc/postfix/transport)" = 1 ] || fail "the pipe block, run twice, doubled its transport line"

# A relay that answers 451 to a recipient, then 550 (a test-only transport entry sends the domain
# relay.test to it): Postfix retries, gives up, and mails its delivery report to the envelope
# sender, pbem's signed bounce address, through the pipe. pbem records the refusal.
cat >"$WORK/relay.py" <<'PY'
import socket, socketserver, sys
seen = set()
class H(socketserver.StreamRequestHandler):
    def handle(self):
        say = lambda s: self.wfile.write(s.encode() + b"\r\n")
        say("220 relay.test ESMTP")
        while True:
            line = self.rfile.readline().decode(errors="replace").strip()
            verb = line.split(" ", 1)[0].upper()
            if not line or verb == "QUIT":
                say("221 bye"); return
            if verb in ("EHLO", "HELO"):
                say("250 relay.test")
            elif verb == "RCPT":
                rcpt = line.split(":", 1)[1].strip().strip("<>").lower()
                if rcpt in seen:
                    say("550 5.1.1 <%s>: Recipient address rejected: User unknown" % rcpt)
                else:
                    seen.add(rcpt)
                    say("451 4.3.0 <%s>: Temporary lookup failure" % rcpt)
                with open(sys.argv[2], "a") as f:
                    print(rcpt, file=f)
            elif verb == "DATA":
                say("554 5.5.1 no valid recipients")
            else:
                say("250 ok")
socketserver.ThreadingTCPServer.allow_reuse_address = True
socketserver.ThreadingTCPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$WORK/relay.py" 2526 "$WORK/relay.log" >"$WORK/relay.err" 2>&1 &
echo $! >/run/pbem-e2e-relay.pid
printf 'relay.test  smtp:[127.0.0.1]:2526\n' >>/etc/postfix/transport
postmap /etc/postfix/transport
postfix reload >/dev/null 2>&1
sleep 1
as_pbem() { (cd / && setpriv --reuid=pbem --regid=pbem --init-groups -- /usr/local/bin/pbem --config /etc/pbem/pbem.toml "$@"); }
python3 - "$ADDRESS" <<'PY'
import smtplib, sys, uuid
text = (f"From: rx@relay.test\r\nTo: {sys.argv[1]}\r\nSubject: signup rx pw-rx-e2e\r\n"
        f"Message-ID: <relay.{uuid.uuid4().hex}@e2e.client>\r\n\r\nsent by postfix-e2e\r\n")
with smtplib.SMTP("127.0.0.1", 25, timeout=30) as s:
    s.sendmail("rx@relay.test", [sys.argv[1]], text.encode())
PY
line=$(log_wait 'to=<rx@relay.test>.*status=bounced')
[ -n "$line" ] || fail "Postfix did not bounce the mail to rx@relay.test: $(grep 'rx@relay.test' "$LOG" | tail -2)"
say "relay: Postfix: $(grep -c 'to=<rx@relay.test>.*status=deferred' "$LOG") deferral(s) (451), then ${line#*status=}"
for _ in $(seq 100); do
    list=$(as_pbem outbox list 2>&1)
    grep -q $'bounces\trx@relay.test' <<<"$list" && break
    postqueue -f
    sleep 0.2
done
row=$(grep 'rx@relay.test' <<<"$list" | grep -v '^bounces' | head -1 || true)
say "relay: pbem outbox list: ${row:-nothing about rx@relay.test}"
grep -q $'bounces\trx@relay.test' <<<"$list" ||
    fail "the delivery report of the 550 was not recorded: $(grep 'relay=pbem' "$LOG" | tail -1)"
grep -q 'sent, then refused for good.*5\.1\.1' <<<"$row" || fail "the refused mail is not listed: $row"

# Phase 2: step 3 of the README, LMTP, with pbem lmtp run as its unit runs it.
sed -i '/[[:space:]]pbem:$/d' /etc/postfix/transport
local_block postfix-lmtp | bash -e >"$WORK/lmtp-setup.log" 2>&1 ||
    fail "README block postfix-lmtp: $(tail -3 "$WORK/lmtp-setup.log")"
unit=dist/systemd/pbem-lmtp.service
unit_user=$(sed -n 's/^User=//p' "$unit")
unit_dir=$(sed -n 's/^WorkingDirectory=//p' "$unit")
unit_pre=$(sed -n 's/^ExecStartPre=-\{0,1\}//p' "$unit")
unit_start=$(sed -n 's/^ExecStart=//p' "$unit")
as_unit() { (cd "$unit_dir" && exec setpriv --reuid="$unit_user" --regid="$unit_user" --init-groups -- "$@"); }
socket=/var/spool/postfix/pbem/lmtp.sock
start_lmtp() {
    # shellcheck disable=SC2086 # the unit's command lines, split into words as systemd does
    as_unit $unit_pre >>"$WORK/flush-on-start.log" 2>&1 || true
    # shellcheck disable=SC2086
    (cd "$unit_dir" && exec setpriv --reuid="$unit_user" --regid="$unit_user" --init-groups -- $unit_start) \
        >>"$WORK/lmtp.log" 2>&1 &
    LMTP_PID=$!
    for _ in $(seq 100); do [ -S "$socket" ] && python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' "$socket" 2>/dev/null && return; sleep 0.1; done
    fail "pbem lmtp did not listen on $socket: $(tail -2 "$WORK/lmtp.log")"
}
start_lmtp

# The socket's folder with the rights of /var/lib/pbem (0750 pbem:pbem, what the README left open
# until issue 22): Postfix may not enter it. Then the README's rights (group postfix).
chgrp pbem /var/spool/postfix/pbem
send socket e2e-p1 "help"
line=$(log_wait 'postfix/lmtp\[.*status=deferred')
say "before: socket folder 0750 pbem:pbem: Postfix deferred the mail: ${line#*status=deferred }"
grep -q 'Permission denied' <<<"$line" || fail "expected Permission denied: $line"
chgrp postfix /var/spool/postfix/pbem
postqueue -f
python3 "$WORK/check.py" --wait 30 >"$WORK/check-socket.txt" || fail "socket: $(cat "$WORK/check-socket.txt")"
say "after: 0750 pbem:postfix: $(head -1 "$WORK/check-socket.txt")"

# Bare replies over LMTP: the token in RCPT TO, whatever the headers say.
for r in "limit to" "limit bcc" "hex bcc" "hex to"; do
    # shellcheck disable=SC2086 # game, mode
    out=$(game reply $r played) || fail "LMTP reply ($r): $out"
    say "lmtp: $out"
done

# A sendmail that takes 0.3 s (test-only) and leaves a file while it runs: the kills below wait
# for one, so each lands while pbem's hand-off to sendmail is under way.
cat >/run/pbem-e2e/sendmail <<'SH'
#!/bin/sh
f=/run/pbem-e2e/handoff.$$
: >"$f"
sleep 0.3
/usr/sbin/sendmail "$@"
s=$?
rm -f "$f"
exit $s
SH
chmod 755 /run/pbem-e2e/sendmail
sed -i 's|^sendmail_command = .*|sendmail_command = "/run/pbem-e2e/sendmail"|' /etc/pbem/pbem.toml
kill "$LMTP_PID" && wait "$LMTP_PID" 2>/dev/null || true
start_lmtp
deferred_before=$(grep -c 'postfix/lmtp\[.*status=deferred' "$LOG" || true)

subjects=()
for i in $(seq "$LMTP_MAILS"); do
    case $((i % 4)) in
        0) subjects+=("help") ;;
        1) subjects+=("help limit") ;;
        2) subjects+=("limit help") ;;
        3) subjects+=("help signup") ;;
    esac
done
send lmtp "${PLAYERS[*]}" "${subjects[@]}" &
sender=$!
total=$((${#PLAYERS[@]} * LMTP_MAILS))
kills=0
handoff_kills=0
for k in $(seq "$KILLS"); do
    want=$((total * k / (KILLS + 1)))
    for _ in $(seq 300); do [ "$(replies)" -ge "$want" ] && break; sleep 0.1; done
    inflight=no
    for _ in $(seq 300); do
        compgen -G '/run/pbem-e2e/handoff.*' >/dev/null && { inflight=yes; break; }
        sleep 0.01
    done
    kill -9 "$LMTP_PID"
    wait "$LMTP_PID" 2>/dev/null || true
    kills=$((kills + 1))
    [ $inflight = no ] || handoff_kills=$((handoff_kills + 1))
    echo "kill -9 after $(replies) of $total replies ($([ $inflight = yes ] && echo "in a sendmail hand-off" || echo "no hand-off running"))" >>"$WORK/kills.log"
    sleep 1
    start_lmtp
    postqueue -f
done
wait "$sender" || fail "the SMTP sender failed: $(tail -2 "$WORK/send.log")"
for _ in $(seq 10); do
    python3 "$WORK/check.py" --wait 6 >"$WORK/check-lmtp.txt" && break
    postqueue -f
done
python3 "$WORK/check.py" >"$WORK/check-lmtp.txt" || fail "after the kills: $(cat "$WORK/check-lmtp.txt")"
say "LMTP to pbem lmtp, killed $kills times mid-traffic ($handoff_kills in a sendmail hand-off): \
$(head -1 "$WORK/check-lmtp.txt")"
[ "$handoff_kills" -gt 0 ] || [ "$KILLS" = 0 ] || fail "no kill landed in a sendmail hand-off"
say "  kills: $(paste -sd';' "$WORK/kills.log")"
deferrals=$(grep 'postfix/lmtp\[.*status=deferred' "$LOG" | tail -n +$((deferred_before + 1)) || true)
say "  Postfix deferred and retried: $(grep -c 'while sending end of data' <<<"$deferrals" || true) mails in \
flight at a kill (\"may be sent more than once\"), $(grep -c 'Connection refused' <<<"$deferrals" || true) \
tries while it was down, $(grep -vc 'while sending end of data\|Connection refused' <<<"$deferrals" || true) other"
say "  pbem took $(grep -c 'already processed' "$WORK/lmtp.log" || true) of them again as duplicates; \
the unit's ExecStartPre flush at the $((kills + 1)) starts sent \
$(awk '{ s += $2 } END { print s + 0 }' "$WORK/flush-on-start.log") mail(s) committed but not sent by a killed \
pbem and recorded $(grep -o '[0-9]* delivered by' "$WORK/flush-on-start.log" | awk '{ s += $1 } END { print s + 0 }') \
that its sendmail hand-off had delivered"
waiting=$(as_unit /usr/local/bin/pbem --config /etc/pbem/pbem.toml outbox list 2>&1 >/dev/null | head -1)
say "  $waiting"
[[ $waiting == "outbox: 0 waiting"* ]] || fail "mail left in the outbox: $waiting"
grep -q '"Limit games (e2e)" <play@localhost>\|Limit games (e2e) <play@localhost>' "$WORK/check-lmtp.txt" ||
    fail "the From header lacks [server] name: $(sed -n 2p "$WORK/check-lmtp.txt")"
sed -i 's|^sendmail_command = .*|sendmail_command = "/usr/sbin/sendmail"|' /etc/pbem/pbem.toml
kill "$LMTP_PID" && wait "$LMTP_PID" 2>/dev/null || true
start_lmtp

# An address Postfix refuses (test-only transport entry error:5.2.1, as for a closed mailbox): r1
# starts three games with g1 at once; the board mails to g1 are taken by sendmail and bounced, the
# reports come back over LMTP to their bounce addresses, and pbem stops mailing g1.
out=$(timeout 60 python3 - <<'PY' 2>&1
import smtplib, uuid
text = ("From: e2e-g1@localhost\r\nTo: play@localhost\r\nSubject: signup g1 pw-g1-e2e\r\n"
        f"Message-ID: <g1.{uuid.uuid4().hex}@e2e.client>\r\n\r\nsent by postfix-e2e\r\n")
with smtplib.SMTP("127.0.0.1", 25, timeout=30) as s:
    s.sendmail("e2e-g1@localhost", ["play@localhost"], text.encode())
PY
) || fail "g1's signup: $out"
for _ in $(seq 100); do [ -s /var/mail/e2e-g1 ] && break; postqueue -f; sleep 0.2; done
[ -s /var/mail/e2e-g1 ] || fail "g1's welcome did not arrive"
printf 'e2e-g1@localhost  error:5.2.1 mailbox disabled\n' >>/etc/postfix/transport
postmap /etc/postfix/transport
postfix reload >/dev/null 2>&1
sleep 1
challenge_g1() {
    timeout 60 python3 - "$1" <<'PY'
import smtplib, sys, uuid
with smtplib.SMTP("127.0.0.1", 25, timeout=30) as s:
    for _ in range(int(sys.argv[1])):
        text = ("From: e2e-r1@localhost\r\nTo: play@localhost\r\nSubject: limit challenge r1 g1\r\n"
                f"Message-ID: <g1.{uuid.uuid4().hex}@e2e.client>\r\n\r\nsent by postfix-e2e\r\n")
        s.sendmail("e2e-r1@localhost", ["play@localhost"], text.encode())
PY
}
# The error transport held (defer_transports, test-only) until pbem has handed all three board
# mails over: otherwise the first report may come back before the third game starts.
postconf -e 'defer_transports = error'
postfix reload >/dev/null 2>&1
sleep 1
challenge_g1 3 || fail "r1's challenges"
for _ in $(seq 150); do
    [ "$(grep -c 'to=<e2e-g1@localhost>.*status=deferred' "$LOG")" -ge 3 ] && break
    sleep 0.2
done
postconf -X defer_transports
postfix reload >/dev/null 2>&1
sleep 1
postqueue -f
for _ in $(seq 150); do
    list=$(as_pbem outbox list 2>&1)
    [ "$(grep -c 'sent, then refused for good.*e2e-g1@localhost' <<<"$list")" -ge 3 ] && break
    grep -q $'bounces\te2e-g1@localhost' <<<"$list" &&
        [ "$(grep -c 'to=<e2e-g1@localhost>.*status=bounced' "$LOG")" -ge 3 ] && break
    postqueue -f
    sleep 0.2
done
bounced=$(grep -c 'to=<e2e-g1@localhost>.*status=bounced' "$LOG" || true)
refused=$(grep -c 'sent, then refused for good.*e2e-g1@localhost' <<<"$list" || true)
say "error:5.2.1: $bounced board mails to g1 bounced by Postfix, $refused recorded by pbem as refused from \
the reports: $(grep 'e2e-g1@localhost' <<<"$list" | grep -v '^bounces' | head -1 | cut -f2)"
grep -q $'bounces\te2e-g1@localhost' <<<"$list" || fail "the reports were not recorded: $list"
[ "$refused" -ge 1 ] || fail "no mail listed as refused: $list"
seen_before=$(grep -c 'to=<e2e-g1@localhost>.*status=' "$LOG" || true)
challenge_g1 1 || fail "r1's fourth challenge"
for _ in $(seq 50); do grep -q '1 mail(s) not sent to it since' <<<"$(as_pbem outbox list 2>&1)" && break; sleep 0.2; done
list=$(as_pbem outbox list 2>&1)
sleep 1
after=$(grep -c 'to=<e2e-g1@localhost>.*status=' "$LOG" || true)
say "error:5.2.1: a fourth game: $(grep $'^bounces\te2e-g1' <<<"$list" | grep -o '[0-9]* mail(s) not sent to it since'); \
Postfix saw $((after - seen_before)) more mail(s) to g1"
[ "$after" = "$seen_before" ] || fail "g1 was mailed after the reports"
grep -q '[1-9][0-9]* mail(s) not sent to it since' <<<"$(grep $'^bounces\te2e-g1' <<<"$list")" ||
    fail "the fourth game's board mail to g1 was not held: $list"

# Two players' naive autoresponders (no Auto-Submitted, no Precedence): each answers every mail
# pbem sends it, by its From ("auto") or by its envelope sender, as vacation(1) does ("vac"), from
# the welcome on. pbem answers "auto" with a handful of error mails, then no more (issue 22); the
# envelope sender is pbem's bounce address, where "vac"'s answers are read as no report and not
# answered.
out=$(timeout 90 python3 - <<'PY' 2>&1
import email, email.policy, mailbox, os, smtplib, time, uuid
def mails(user):
    path = f"/var/mail/{user}"
    if not os.path.exists(path):
        return []
    parse = lambda f: email.message_from_binary_file(f, policy=email.policy.default)
    return list(mailbox.mbox(path, factory=parse))
def send(user, to, subject, body):
    text = (f"From: {user}@localhost\r\nTo: <{to}>\r\nSubject: {subject}\r\n"
            f"Message-ID: <auto.{uuid.uuid4().hex}@e2e.client>\r\n\r\n{body}\r\n")
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as s:
        s.sendmail(f"{user}@localhost", [to], text.encode())
users = {"e2e-auto": "From", "e2e-vac": "Return-Path"}
for u in users:
    send(u, "play@localhost", f"signup {u[4:]} pw-{u[4:]}-e2e", "sent by postfix-e2e")
answered = {u: 0 for u in users}
last_new, start = time.time(), time.time()
while time.time() - last_new < 8 and time.time() - start < 75:
    for u, by in users.items():
        got = mails(u)
        for m in got[answered[u]:]:
            to = m[by].addresses[0].addr_spec if by == "From" else str(m["Return-Path"]).strip("<> ")
            send(u, to, "Out of office", "I am away until Monday.")
        if len(got) > answered[u]:
            answered[u] = len(got)
            last_new = time.time()
    os.system("postqueue -f >/dev/null 2>&1")
    time.sleep(0.3)
print(f"pbem sent the autoresponder answering From {answered['e2e-auto']} mails, the one answering "
      f"the envelope sender {answered['e2e-vac']}, then nothing for 8 s ({time.time() - start:.0f} s)")
ok = 1 <= answered["e2e-auto"] <= 7 and 1 <= answered["e2e-vac"] <= 2
raise SystemExit(0 if ok else 1)
PY
) || fail "autoresponder: $out"
say "autoresponder: $out"
kill "$LMTP_PID" && wait "$LMTP_PID" 2>/dev/null || true
LMTP_PID=

# The cron line of dist/cron.d/pbem, as its user.
cron_line=$(grep -E '^[^#A-Z].* pbem +/' dist/cron.d/pbem | head -1)
cron_user=$(awk '{print $6}' <<<"$cron_line")
cron_cmd=$(cut -d' ' -f7- <<<"$(tr -s ' ' <<<"$cron_line")")
# shellcheck disable=SC2086
out=$(cd / && env -i PATH=/usr/bin:/bin setpriv --reuid="$cron_user" --regid="$cron_user" --init-groups -- $cron_cmd 2>&1) ||
    fail "dist/cron.d/pbem's line failed: $out"
say "dist/cron.d/pbem as $cron_user (cron's PATH): $out"
status=0
out=$(cd / && env -i PATH=/usr/bin:/bin sh -c 'pbem --config /etc/pbem/pbem.toml cron' 2>&1) || status=$?
say "before: the README's old cron line (bare pbem) on cron's PATH: exit $status, $out"
[ "$status" = 127 ] || fail "expected 'not found' (127)"

# The README's procmail recipe, against a pbem that must defer (its database folder is missing):
# procmail must exit 75 (the MTA retries) and file nothing; with the right configuration, 0.
sed 's|^path = .*|path = "/var/lib/pbem/missing/pbem.sqlite"|' /etc/pbem/pbem.toml >/etc/pbem/broken.toml
chgrp pbem /etc/pbem/broken.toml && chmod 640 /etc/pbem/broken.toml
install -d -o pbem -g pbem "$WORK/procmail"
printf ':0 w\n| /usr/local/bin/pbem --config /etc/pbem/pbem.toml ingest\n' >"$WORK/procmail-old"
for cfg in old broken pbem; do
    if [ "$cfg" = old ]; then
        # The recipe of the README until issue 22, against the pbem that must defer.
        sed 's|pbem.toml|broken.toml|' "$WORK/procmail-old" >"$WORK/procmailrc.$cfg"
    else
        readme_block procmail | sed "s|/etc/pbem/pbem.toml|/etc/pbem/$cfg.toml|" >"$WORK/procmailrc.$cfg"
    fi
    chmod 644 "$WORK/procmailrc.$cfg"
    rm -f "$WORK/procmail/mbox"
    printf 'From: e2e-p1@localhost\nTo: %s\nSubject: help\nMessage-ID: <procmail.%s.%s@e2e.client>\n\nhi\n' \
        "$ADDRESS" "$cfg" "$RANDOM" >"$WORK/procmail.eml"
    status=0
    (cd / && setpriv --reuid=pbem --regid=pbem --init-groups -- procmail -m \
        "DEFAULT=$WORK/procmail/mbox" "$WORK/procmailrc.$cfg") <"$WORK/procmail.eml" \
        2>>"$WORK/procmail.err" || status=$?
    filed=$([ -s "$WORK/procmail/mbox" ] && echo "filed in the pbem user's mailbox" || echo "nothing filed")
    case $cfg in
        old) say "before: the old procmail recipe, pbem deferring: procmail exit $status, $filed" ;;
        broken) say "after: the README's recipe, pbem deferring: procmail exit $status, $filed" ;;
        pbem) say "after: the README's recipe, pbem working: procmail exit $status, $filed" ;;
    esac
    case $cfg in
        old) [ "$status" = 0 ] && [ "$filed" != "nothing filed" ] || fail "the old recipe was expected to file it" ;;
        broken) [ "$status" = 75 ] && [ "$filed" = "nothing filed" ] || fail "want exit 75, nothing filed" ;;
        pbem) [ "$status" = 0 ] && [ "$filed" = "nothing filed" ] || fail "want exit 0, nothing filed" ;;
    esac
done
rm -f /etc/pbem/broken.toml

# The systemd units, checked by systemd itself (any line it prints is a fault it found).
if command -v systemd-analyze >/dev/null; then
    out=$(systemd-analyze verify dist/systemd/*.service dist/systemd/*.timer 2>&1) ||
        fail "systemd-analyze verify: $out"
    [ -z "$out" ] || fail "systemd-analyze verify: $out"
    say "systemd-analyze verify dist/systemd/*: no finding"
else
    say "systemd-analyze verify: skipped (not installed)"
fi
[ "$failures" = 0 ] || { say "$failures check(s) FAILED in $((SECONDS - started)) s; logs in $WORK"; exit 1; }
say "passed in $((SECONDS - started)) s; logs in $WORK"
