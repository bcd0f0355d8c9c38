#!/usr/bin/env bash
# Issue 34, item 5: the Content-IDs of board pictures. alice and bob sign up, alice challenges bob to
# ten games (Limit, Hex, Ataxx, ...); every board mail's picture is counted with its Content-ID.
# Prints how many pictures there are and how many distinct Content-IDs they carry, and whether each
# mail's HTML names the picture it carries.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

deliver alice@example.org "signup alice pw-alice"
deliver bob@example.org "signup bob pw-bob"
for game in limit hex ataxx go cups y limit hex ataxx go; do
    deliver alice@example.org "$game challenge alice bob"
done
python3 - "$WORK/outbox" <<'PY'
import email, email.policy, pathlib, re, sys, urllib.parse
pictures, ids, own = 0, set(), 0
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    html = next((part.get_content() for part in m.walk() if part.get_content_type() == "text/html"), None)
    for part in m.walk():
        if part.get_content_maintype() == "image":
            pictures += 1
            cid = part["Content-ID"].strip().strip("<>")
            ids.add(cid)
            named = re.search(r'src="cid:([^"]+)"', html or "")
            own += bool(named) and urllib.parse.unquote(named.group(1)) == cid
print(f"{pictures} pictures, {len(ids)} distinct Content-IDs, {own} named by their own mail's HTML")
PY
