#!/usr/bin/env python3
"""LMTP client pieces for the attack scripts (standard library only): imported, not run."""
import socket, time


class Lmtp:
    """One LMTP connection to HOST:PORT (or a Unix socket path), greeted and LHLO said."""

    def __init__(self, address, timeout=30):
        if address.startswith("unix:"):
            self.s = socket.socket(socket.AF_UNIX)
            self.s.settimeout(timeout)
            self.s.connect(address[5:])
        else:
            host, port = address[5:].rsplit(":", 1)
            self.s = socket.create_connection((host, int(port)), timeout=timeout)
        self.f = self.s.makefile("rb")
        self.greeting = self.reply()
        if self.greeting.startswith("220"):
            self.cmd("LHLO script.example")

    def reply(self):
        while True:
            line = self.f.readline().decode(errors="replace")
            if not line:
                return ""
            if line[3:4] != "-":
                return line.rstrip("\r\n")

    def cmd(self, line):
        self.s.sendall(line.encode() + b"\r\n")
        return self.reply()

    def send(self, sender, rcpt, raw):
        """MAIL, RCPT, DATA and the message (raw bytes, already dot-stuffed, ending in CRLF)."""
        self.cmd(f"MAIL FROM:<{sender}>")
        self.cmd(f"RCPT TO:<{rcpt}>")
        self.cmd("DATA")
        self.s.sendall(raw + b".\r\n")
        return self.reply()


def message(sender, subject, body=""):
    mid = f"{time.time_ns()}@script.example"
    return (f"From: {sender}\r\nTo: pbem@localhost\r\nSubject: {subject}\r\nMessage-ID: <{mid}>\r\n\r\n{body}\r\n").encode()
