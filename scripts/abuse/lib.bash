# Shared by the attack scripts of scripts/abuse/ (sourced, not run: scripts/abuse.sh runs *.sh only).
# Sets up a work folder with a database and an outbox, and gives: pbem, msg, deliver, sql, mails_to.

BIN=${PBEM_BIN:?set PBEM_BIN to the pbem binary (scripts/abuse.sh does)}
WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
unset PBEM_CONFIG
export PBEM_SEED=7 PBEM_NOW=${PBEM_NOW:-1795000000}
START=$PBEM_NOW
DAY=86400

pbem() { "$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" "$@"; }

# msg FROM SUBJECT [BODY] [EXTRA-HEADER]: a plain-text message with a Message-ID of its own.
msg() {
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\n%sMessage-ID: <abuse-%s-%s@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%b\r\n' \
        "$1" "$2" "${4:+$4$'\r\n'}" "${EPOCHREALTIME/./}" "$RANDOM" "${3:-}"
}
deliver() { msg "$@" | pbem ingest >/dev/null 2>&1; }

# sql QUERY: one value from the database.
sql() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$WORK/pbem.sqlite" "$1"; }

# mails: every mail in the outbox folder, decoded, as "TO<tab>SUBJECT<tab>BODY-ON-ONE-LINE" lines.
mails() {
    python3 - "$WORK/outbox" <<'PY'
import email, email.policy, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    body = m.get_body(("plain",))
    text = body.get_content() if body else ""
    print("\t".join([str(m["To"]), str(m["Subject"]), " ".join(text.split())]))
PY
}
