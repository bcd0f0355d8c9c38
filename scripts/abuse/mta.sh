#!/usr/bin/env bash
# Issue "Trust", item 9 ("what the MTA is told"): feeds one mail to `pbem ingest` under each condition
# an admin can fix and prints the exit status and the stderr line. Every one must be 75 (EX_TEMPFAIL:
# the MTA keeps the mail and tries again) with one line naming the path and the fix; the last line
# shows the warning for a configuration file that holds the SMTP password and others can read.
#
# Needs root (or unprivileged user namespaces) for the full disk and the read-only file system, which
# are a small tmpfs in a private mount namespace; as root the permission cases run pbem as nobody.
# PBEM_BIN names the binary (scripts/abuse.sh sets it); else the release build is used.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PBEM_BIN:-}" ]; then
    cargo build --release --locked --quiet
    PBEM_BIN="$PWD/target/release/pbem"
fi
export PBEM_BIN PBEM_NOW=1795000000
unset PBEM_CONFIG

work=$(mktemp -d /tmp/pbem-mta.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
export D="$work"

msg() { printf 'From: %s@example.org\r\nTo: pbem@localhost\r\nSubject: signup %s pw-%s\r\nMessage-ID: <%s.%s@client.example>\r\n\r\n' "$1" "$1" "$1" "$1" "$RANDOM"; }
export -f msg

if [ "$(id -u)" = 0 ]; then
    other=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    ns=(unshare -m)
else
    other=()
    ns=(unshare -rm)
fi

failed=0
# report NAME STATUS STDERR-FILE
report() {
    local lines
    lines=$(wc -l < "$3")
    printf '%-28s exit %s, %s stderr line(s): %s\n' "$1" "$2" "$lines" "$(head -c 400 "$3")"
    if [ "$2" != 75 ] || [ "$lines" != 1 ]; then failed=1; fi
}

# ingest NAME DB [WRAPPER...]: one signup mail through `pbem ingest`.
ingest() {
    local name=$1 db=$2 status=0
    shift 2
    msg "$name" | "$@" "$PBEM_BIN" --db "$db" --outbox "$work/outbox" ingest 2> "$work/$name.err" || status=$?
    report "$name" "$status" "$work/$name.err"
}

mkdir -p "$work/outbox" && chmod 777 "$work/outbox"

# A database the pbem user may not write (made by someone else, mode 644; as a plain user: 444).
mkdir "$work/a" && chmod 755 "$work/a"
msg setup | "$PBEM_BIN" --db "$work/a/pbem.sqlite" --outbox "$work/outbox" ingest 2>/dev/null
[ "$(id -u)" = 0 ] || chmod 444 "$work/a/pbem.sqlite"
ingest unwritable-file "$work/a/pbem.sqlite" "${other[@]}"

# The file is the pbem user's, its folder is not: SQLite cannot create pbem.sqlite-wal there.
if [ "$(id -u)" = 0 ]; then chown 65534 "$work/a/pbem.sqlite"; else chmod 644 "$work/a/pbem.sqlite"; chmod 555 "$work/a"; fi
ingest unwritable-folder "$work/a/pbem.sqlite" "${other[@]}"
chmod 755 "$work/a"

ingest missing-folder "$work/no/such/folder/pbem.sqlite"

# A file-size limit (ulimit -f 8 = 8 KiB in bash) that the write-ahead log grows past.
mkdir "$work/b"
msg setup | "$PBEM_BIN" --db "$work/b/pbem.sqlite" --outbox "$work/outbox" ingest 2>/dev/null
ingest file-size-limit "$work/b/pbem.sqlite" bash -c 'ulimit -f 8 && exec "$@"' limit

# A full disk and a read-only file system: a 1 MiB tmpfs in a private mount namespace.
if "${ns[@]}" true 2>/dev/null; then
    mkdir "$work/m" "$work/r"
    status=0
    "${ns[@]}" bash -c '
        mount -t tmpfs -o size=1m tmpfs "$D/m" || exit 99
        msg setup | "$PBEM_BIN" --db "$D/m/pbem.sqlite" --outbox "$D/m/outbox" ingest 2>/dev/null
        dd if=/dev/zero of="$D/m/filler" bs=4k 2>/dev/null || true
        msg full | "$PBEM_BIN" --db "$D/m/pbem.sqlite" --outbox "$D/m/outbox" ingest 2> "$D/full.err"
    ' || status=$?
    report disk-full "$status" "$work/full.err"
    status=0
    "${ns[@]}" bash -c '
        mount -t tmpfs -o size=1m tmpfs "$D/r" || exit 99
        msg setup | "$PBEM_BIN" --db "$D/r/pbem.sqlite" --outbox "$D/outbox" ingest 2>/dev/null
        mount -o remount,ro "$D/r" || exit 98
        msg ro | "$PBEM_BIN" --db "$D/r/pbem.sqlite" --outbox "$D/outbox" ingest 2> "$D/ro.err"
    ' || status=$?
    report read-only-file-system "$status" "$work/ro.err"
else
    echo "disk-full, read-only-file-system: skipped (no private mount namespace: run as root)"
fi

# A configuration file with the SMTP password that others can read: a warning, and the run goes on.
printf '[mail.smtp]\nhost = "localhost"\nusername = "pbem"\npassword = "relay secret"\n' > "$work/pbem.toml"
chmod 644 "$work/pbem.toml"
status=0
"$PBEM_BIN" --config "$work/pbem.toml" --db "$work/b/pbem.sqlite" outbox list > /dev/null 2> "$work/cfg.err" || status=$?
printf '%-28s exit %s, %s stderr line(s): %s\n' "readable-smtp-password" "$status" "$(wc -l < "$work/cfg.err")" "$(cat "$work/cfg.err")"
grep -q "chmod 600" "$work/cfg.err" || failed=1

exit $failed
