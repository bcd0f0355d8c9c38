#!/usr/bin/env python3
"""A small SMTP server for the attack scripts (standard library only).

usage: smtp_sink.py PORTFILE LOGFILE [--refuse ADDRESS] [--stuck]
Listens on 127.0.0.1 (a free port, written to PORTFILE), answers RCPT TO for ADDRESS with
550 5.1.1, takes every other message and writes one line per delivered message to LOGFILE (the
recipients, comma-separated) once its final dot arrived, and one "refused ADDRESS" line per refusal.
--stuck: takes connections and never answers (a relay that hangs).
"""
import socket, sys, threading

port_file, log_file = sys.argv[1], sys.argv[2]
refuse = sys.argv[sys.argv.index("--refuse") + 1].lower() if "--refuse" in sys.argv else None
stuck = "--stuck" in sys.argv
lock = threading.Lock()
held = []


def log(line):
    with lock, open(log_file, "a") as f:
        f.write(line + "\n")


def serve(conn):
    if stuck:
        held.append(conn)
        return
    f = conn.makefile("rb")
    send = lambda s: conn.sendall(s.encode() + b"\r\n")
    send("220 sink.example ESMTP")
    rcpts = []
    try:
        while True:
            line = f.readline()
            if not line:
                return
            cmd = line.decode(errors="replace").strip()
            verb = cmd.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                send("250-sink.example\r\n250 8BITMIME")
            elif verb == "MAIL":
                rcpts = []
                send("250 ok")
            elif verb == "RCPT":
                addr = cmd.split(":", 1)[1].strip().strip("<>").lower()
                if addr == refuse:
                    log("refused " + addr)
                    send(f"550 5.1.1 <{addr}>: Recipient address rejected: User unknown")
                else:
                    rcpts.append(addr)
                    send("250 ok")
            elif verb == "DATA":
                send("354 go on")
                while True:
                    l = f.readline()
                    if not l or l == b".\r\n":
                        break
                log(",".join(rcpts))
                send("250 queued")
            elif verb == "QUIT":
                send("221 bye")
                return
            else:
                send("250 ok")
    except OSError:
        return


s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
with open(port_file + ".tmp", "w") as p:
    p.write(str(s.getsockname()[1]))
import os
os.rename(port_file + ".tmp", port_file)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
