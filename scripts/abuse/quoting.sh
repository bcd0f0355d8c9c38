#!/usr/bin/env bash
# Issue 34, item 3, "Answers quote only what they read; the server's own words are never masked".
# Replays two sets of mails from alice (a registered player, on board 101 with bob):
#   - the typo corpus: scripts/abuse/typos.sh's 23 typos, and the password glued to the move
#     (`limit move 101 alice PW4-1,3`), each under the comment "Sent from my phone";
#   - the issue's examples: a wrong password with a comment, a mangled userid with a wrong password,
#     a pasted `Subject: limit chat 101 alice PW` line under a wrong password, the glued password,
#     a wrong password typed in the userid's place, and a `mult` mail with a chat and a pasted
#     `Subject: limit chat 101` line (read as a command with `101` in its password's place).
# and counts, for each set, in what the server wrote:
#   - answers that hold a password the mail carried (right or wrong, anywhere, even inside a word);
#   - outbox rows and other database rows that hold one (ignoring case: the throttle lowercases);
#   - answers in which a word of the server's own text is masked (a mask, a run of exactly four `*`,
#     outside the quotes of the player's words and outside the "Your message" lines).
# With BEFORE_BIN set to an older pbem binary, both columns are printed (docs/reliability.md,
# section 12, says how its figures were made). SHOW=1 prints each hit on stderr.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

PW='Tr0ub4dor&3'
WRONG='WrongPw-Kx93Lm'
SECRETS=("$PW" "$WRONG" Sup3rSecret NewPass2x)

# replay BIN DIR: both sets through BIN into a fresh database in DIR; DIR/typos and DIR/examples list
# the outbox files each set's mails caused.
replay() {
    local bin=$1 dir=$2 now=$START
    mkdir -p "$dir"
    # Every mail answered: no quiet spell after a run of error answers, no daily allowance.
    printf '[limits]\nreplies_per_new_address_per_day = 100000\nerror_answers_before_quiet = 0\n' >"$dir/pbem.toml"
    run() { "$bin" --config "$dir/pbem.toml" --db "$dir/pbem.sqlite" --outbox "$dir/outbox" "$@"; }
    send() { # FROM SUBJECT [BODY]
        now=$((now + 150))
        msg "$@" | PBEM_NOW=$now run ingest >/dev/null 2>&1
    }
    send alice@example.org "signup alice $PW"
    send bob@example.org "signup bob pw-bob"
    send alice@example.org "limit challenge --password=$PW alice bob"
    local m
    m=$("$bin" engine limit new --seed 7 | "$bin" engine limit moves | head -n 1)
    mkdir -p "$dir/outbox"
    local seen
    seen=$(ls "$dir/outbox")
    local t
    for t in \
        "limit move alice $PW $m" "limit move 101 $PW $m" "move 101 alice $PW $m" "limit show 101 alice $PW" \
        "limit queue alice $PW $m" "signup Dan Smith Sup3rSecret dan@d.example" "limit mvoe 101 alice $PW $m" \
        "limit move 101 alice $m $PW" "limit move 101 $PW alice $m" "limit resign alice $PW" \
        "limit chat 101 $PW" "change password alice $PW" "change pasword alice $PW NewPass2x" "signoff $PW" \
        "vacation $PW 2026-12-01 2026-12-05" "limit subscribe alice $PW" "limit move 101 alice $PW acept" \
        "limit history 101 alice $PW" "limit games alice $PW" "limit preview 101 alice $PW $m" \
        "limit challenge --pasword=$PW alice bob" "Limit Move 101 Alice $PW $m" "limit move 10l alice $PW $m" \
        "limit move 101 alice $PW$m"; do
        send alice@example.org "$t" "Sent from my phone"
    done
    comm -13 <(echo "$seen") <(ls "$dir/outbox") >"$dir/typos"
    seen=$(ls "$dir/outbox")
    send alice@example.org "limit move 101 alice $WRONG $m" "Your move! Let's see you get out of that one."
    send alice@example.org "limit move 101 alice'-- $WRONG r1"
    send alice@example.org "limit chat 101 alice $WRONG" \
        "Subject: limit chat 101 alice $WRONG\nYour move! Let's see you get out of that one."
    send alice@example.org "limit move 101 alice $PW$m"
    send alice@example.org "limit move 101 $WRONG alice $m"
    send alice@example.org "mult" "limit chat 101 alice $PW\nSubject: limit chat 101"
    comm -13 <(echo "$seen") <(ls "$dir/outbox") >"$dir/examples"
}

# count DIR SET: "MAILS WITH-A-PASSWORD SERVER-WORDS-MASKED" for the mails of SET ("typos" or
# "examples") in DIR, and "DB-ROWS-WITH-A-PASSWORD" for the whole database.
count() {
    python3 - "$1" "$2" "${SHOW:-0}" "${SECRETS[@]}" <<'PY'
import email, email.policy, pathlib, re, sqlite3, sys
d = pathlib.Path(sys.argv[1]); which = sys.argv[2]; show = sys.argv[3] == "1"; secrets = sys.argv[4:]
MASK = re.compile(r"(?<![*])\*{4}(?![*])")
def masked_server_words(body):
    """Masks outside the player's quoted words: a server word masked."""
    n = 0; back = False
    for line in body.splitlines():
        if line.startswith("> "):
            continue
        for w in line.split():
            quoted = back or w[:1] in "'\"`" or w.rstrip(".,:;)")[-1:] in "'\"`"
            if MASK.search(w) and not quoted:
                n += 1
                if show:
                    print(f"  server word masked: {line.strip()}", file=sys.stderr)
            if w.count("`") % 2:
                back = not back
    return n
mails = leaks = masked = 0
for name in (d / which).read_text().split():
    m = email.message_from_bytes((d / "outbox" / name).read_bytes(), policy=email.policy.default)
    part = m.get_body(("plain",)); body = part.get_content() if part else ""
    mails += 1
    raw = (d / "outbox" / name).read_bytes().decode("utf-8", "replace")
    if any(s in body or s in str(m["Subject"]) or s in raw for s in secrets):
        leaks += 1
        if show:
            print(f"  password in: {[l for l in body.splitlines() if any(s in l for s in secrets)]}", file=sys.stderr)
    masked += 1 if masked_server_words(body) or MASK.search(str(m["Subject"])) else 0
rows = 0
con = sqlite3.connect(d / "pbem.sqlite")
for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
    for row in con.execute(f'SELECT * FROM "{t}"'):
        text = "|".join(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in row)
        if any(s.lower() in text.lower() for s in secrets):
            rows += 1
            if show:
                print(f"  password in a row of {t}", file=sys.stderr)
print(mails, leaks, masked, rows)
PY
}

report() { # LABEL DIR...
    local label=$1
    shift
    local d
    for d in "$@"; do
        read -r t_mails t_leaks t_masked rows < <(count "$d" typos)
        read -r e_mails e_leaks e_masked _ < <(count "$d" examples)
        echo "$t_mails $t_leaks $t_masked $e_mails $e_leaks $e_masked $rows"
    done
}

after="$WORK/after"
replay "$BIN" "$after"
read -r -a A < <(report after "$after")
if [[ -n ${BEFORE_BIN:-} ]]; then
    before="$WORK/before"
    replay "$BEFORE_BIN" "$before"
    read -r -a B < <(report before "$before")
else
    B=(- - - - - - -)
fi
printf '%-62s %8s %8s\n' "" before after
printf '%-62s %8s %8s\n' "typo corpus (24 typos): mails the server wrote" "${B[0]}" "${A[0]}"
printf '%-62s %8s %8s\n' "  answers holding a password" "${B[1]}" "${A[1]}"
printf '%-62s %8s %8s\n' "  answers with a server word masked" "${B[2]}" "${A[2]}"
printf '%-62s %8s %8s\n' "issue's examples (6 mails): mails the server wrote" "${B[3]}" "${A[3]}"
printf '%-62s %8s %8s\n' "  answers holding a password" "${B[4]}" "${A[4]}"
printf '%-62s %8s %8s\n' "  answers with a server word masked" "${B[5]}" "${A[5]}"
printf '%-62s %8s %8s\n' "database rows (outbox included) holding a password" "${B[6]}" "${A[6]}"
