#!/usr/bin/env bash
# Issue 22, "the admin's path": the README's installation ("Installing on a server") tried literally
# on Debian with a real Postfix, by scripts/postfix-e2e.sh: the address refused before the README's
# local_recipient_maps line and taken after it, a relative database path's deferral naming the
# setting, the socket folder Postfix may or may not enter, every reply once through the pipe and
# through `pbem lmtp` killed with SIGKILL mid-traffic, the old and new cron line and procmail recipe,
# the systemd units verified. Root on Debian only (it installs Postfix); elsewhere it says "skipped".
# PBEM_BIN (set by scripts/abuse.sh) is the binary it installs.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/postfix-e2e.sh
