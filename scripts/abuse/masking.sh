#!/usr/bin/env bash
# Issue 22, "Nothing but the password is masked, and the password never comes back": replays typos,
# forwarded board mails and comments, then counts in everything the server wrote (mails, the admin
# shell's output, ingest's stderr):
#   - mails, and lines of the shell's output or ingest's stderr, that quote a password (anywhere,
#     even inside a word; goal 0);
#   - ordinary words masked: words of the lines the players wrote, as the answers quote or relay
#     them (error mails' "Your message", comments under "bob writes:", Subjects, the board mail's
#     example line), shown as a mask although they hold no password (goal 0).
# With BEFORE_BIN set to an older pbem binary, the same mails go through it too and both columns are
# printed (docs/reliability.md, section 11, says how the figures there were made), with the argon2
# runs all the ingests made (what checking words against passwords costs). SHOW=1 lists on stderr
# each line with a masked ordinary word and each password found.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

PW_A='Tr0ub4dor&3'
PW_B='secret'
# Every password the mails use, and the new ones mistyped signups and changes meant to set.
SECRETS=("$PW_A" "$PW_B" Sup3rSecret NewPass2x secrte)

# replay BIN DIR: every mail of the corpus through BIN into a fresh database in DIR. Writes DIR/lines
# (each line a player wrote, one a line) and DIR/shell (the admin's output and ingest's stderr).
replay() {
    local bin=$1 dir=$2 now=$START
    mkdir -p "$dir"
    : >"$dir/lines"
    : >"$dir/shell"
    run() { "$bin" --db "$dir/pbem.sqlite" --outbox "$dir/outbox" "$@"; }
    send() { # FROM SUBJECT [BODY]
        now=$((now + 150))
        printf '%s\n' "$2" >>"$dir/lines"
        [[ -n ${3:-} ]] && printf '%b\n' "$3" >>"$dir/lines"
        msg "$@" | PBEM_NOW=$now PBEM_REPORT_RSS=1 run ingest 2>>"$dir/shell" >/dev/null
    }
    send alice@example.org "signup alice $PW_A"
    send bob@example.org "signup bob $PW_B"
    send alice@example.org "limit challenge --password=$PW_A alice bob"
    local m1 m2
    m1=$("$bin" engine limit new --seed 7 | "$bin" engine limit moves | head -n 1)
    m2=$("$bin" engine limit new --seed 7 | "$bin" engine limit play "$m1" | "$bin" engine limit moves | head -n 1)
    send alice@example.org "limit move 101 alice $PW_A $m1"
    # Forwarded board mails ("VB:" is Dutch Outlook's forward, which no client strips) and comments.
    send bob@example.org "VB: Limit Board 101 bob **" \
        "limit move 101 bob $PW_B $m2\nC1: Move 12 was a surprise for you\nC2: thank you, see you tomorrow"
    send alice@example.org "Fwd: Limit Board 101 alice **" "limit move 101 alice $PW_A 8-19,8#10"
    send alice@example.org "VB: Limit Board 101 alice **" "limit move 101 alice $PW_A 8-19,8#10\nC3: nice one, you got me"
    # The board's Subject with the password written into it, and no command.
    send bob@example.org "Re: Limit Board 101 bob $PW_B 1-2,3"
    send alice@example.org "Re: Limit Board 101 alice $PW_A $m1"
    # Typos, placeholders, unknown userids, a wrong password, a stranger.
    send bob@example.org "limit mvoe 101 bob $PW_B 1-2,3"
    send bob@example.org "limit move 101 bob <password> 1-2,3"
    send bob@example.org "limit move 101 bobb $PW_B 1-2,3"
    send bob@example.org "limit move 101 bob secrte 1-2,3"
    send bob@example.org "limit move 101 $PW_B bob 1-2,3"
    send mallory@evil.example "limit mvoe 101 bob $PW_B 1-2,3"
    send bob@example.org "limit shwo 101" "C4: see you at the club on friday"
    # scripts/abuse/typos.sh's typos of alice's.
    local t
    for t in \
        "limit move alice $PW_A $m1" "limit move 101 $PW_A $m1" "move 101 alice $PW_A $m1" \
        "limit show 101 alice $PW_A" "limit queue alice $PW_A $m1" \
        "signup Dan Smith Sup3rSecret dan@d.example" "limit mvoe 101 alice $PW_A $m1" \
        "limit move 101 alice $m1 $PW_A" "limit move 101 $PW_A alice $m1" "limit resign alice $PW_A" \
        "limit chat 101 $PW_A" "change password alice $PW_A" "change pasword alice $PW_A NewPass2x" \
        "signoff $PW_A" "vacation $PW_A 2026-12-01 2026-12-05" "limit subscribe alice $PW_A" \
        "limit move 101 alice $PW_A acept" "limit history 101 alice $PW_A" "limit games alice $PW_A" \
        "limit preview 101 alice $PW_A $m1" "limit challenge --pasword=$PW_A alice bob" \
        "Limit Move 101 Alice $PW_A $m1" "limit move 10l alice $PW_A $m1"; do
        send alice@example.org "$t" "C5: Sent from my phone"
    done
    # The admin at the shell.
    { PBEM_NOW=$now run limit move 101 "$PW_B" bob 1-2,3 || true; } >>"$dir/shell" 2>&1
    { PBEM_NOW=$now run limit mvoe 101 bob "$PW_B" 1-2,3 || true; } >>"$dir/shell" 2>&1
}

# count DIR: "ANSWERS-WITH-A-PASSWORD ORDINARY-WORDS-MASKED MAILS" for what was written in DIR.
count() {
    python3 - "$1" "${SHOW:-0}" "${SECRETS[@]}" <<'PY'
import email, email.policy, pathlib, re, sys
d = pathlib.Path(sys.argv[1]); show = sys.argv[2] == "1"; secrets = sys.argv[3:]
lines = [l.split() for l in (d / "lines").read_text().splitlines() if l.strip()]
# A Subject is quoted without the "Re:", "Fwd:" a client put before it.
lines += [l[1:] for l in lines if l and l[0].lower() in ("re:", "fwd:", "vb:")]
MASK = re.compile(r"(?<![*#])([*#])\1{3}(?![*#])")
def held(word):
    return any(s in word for s in secrets)
def masked_ordinary(shown, source_lines):
    """Words of a shown line that are masks where the line written had a word with no password."""
    words = shown.split()
    best = None
    for src in source_lines:
        if len(src) != len(words):
            continue
        if all(MASK.search(w) or w.lower() == s.lower() for w, s in zip(words, src)):
            n = sum(1 for w, s in zip(words, src) if MASK.search(w) and not held(s))
            best = n if best is None else min(best, n)
    if best is None:  # no line written matches word for word: count every mask as ordinary
        best = len(MASK.findall(shown))
    return best
leaks = ordinary = mails = 0
for p in sorted((d / "outbox").glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    part = m.get_body(("plain",))
    body = part.get_content() if part else ""
    subject = str(m["Subject"])
    mails += 1
    if any(s in body or s in subject for s in secrets):
        leaks += 1
        if show:
            quoted = [l for l in body.splitlines() if any(s in l for s in secrets)]
            print(f"  password in a mail: {subject}: {quoted}", file=sys.stderr)
    n = len(MASK.findall(subject))
    if n and show:
        print(f"  {n} in Subject: {subject}", file=sys.stderr)
    ordinary += n
    quoting = False
    for line in body.splitlines():
        if line.startswith("----- Your message -----"):
            quoting = True
            continue
        text = line[2:] if quoting and line.startswith("> ") else line.strip()
        if quoting and line.startswith("> ") or re.match(r"C\d: ", text) or \
                re.match(r"(limit|Summary of) ", text, re.I):
            n = masked_ordinary(text, lines)
            if n and show:
                print(f"  {n} in: {text}", file=sys.stderr)
            ordinary += n
shell = (d / "shell").read_text()
for line in shell.splitlines():
    if any(s in line for s in secrets):
        leaks += 1
        if show:
            print(f"  password in the shell's output: {line}", file=sys.stderr)
runs = sum(int(n) for n in re.findall(r"argon2 hashes (\d+)", shell))
print(leaks, ordinary, mails, runs)
PY
}

after="$WORK/after"
replay "$BIN" "$after"
read -r a_leaks a_masked a_mails a_runs < <(count "$after")
if [[ -n ${BEFORE_BIN:-} ]]; then
    before="$WORK/before"
    replay "$BEFORE_BIN" "$before"
    read -r b_leaks b_masked b_mails b_runs < <(count "$before")
    printf '%-58s %8s %8s\n' "" before after
    printf '%-58s %8s %8s\n' "lines written by the players" "$(wc -l <"$before/lines")" "$(wc -l <"$after/lines")"
    printf '%-58s %8s %8s\n' "mails the server wrote" "$b_mails" "$a_mails"
    printf '%-58s %8s %8s\n' "mails, and shell or stderr lines, quoting a password" "$b_leaks" "$a_leaks"
    printf '%-58s %8s %8s\n' "ordinary words shown masked" "$b_masked" "$a_masked"
    printf '%-58s %8s %8s\n' "argon2 runs of all the ingests" "$b_runs" "$a_runs"
else
    echo "lines written by the players:                      $(wc -l <"$after/lines")"
    echo "mails the server wrote:                            $a_mails"
    echo "mails, and shell or stderr lines, quoting a password: $a_leaks"
    echo "ordinary words shown masked:                       $a_masked"
    echo "argon2 runs of all the ingests:                    $a_runs"
fi
