"""A TCP peer that breaks the framing limits, then reports whether the server closed it.

Modes:
    length  OSC 1.0: a length prefix of 2**31 - 1, then 2 MiB of junk
    slip    OSC 1.1: an END, then 2 MiB without another END (a frame over 1 MiB)
    junk    neither framing: random bytes that do not start with 0xC0 or 0x00
Prints `CLOSED` if the server closed the connection within 10 s, else `OPEN`.
Usage: hostile_tcp_peer.py PORT MODE
"""

import os
import socket
import struct
import sys
import time

port = int(sys.argv[1])
mode = sys.argv[2]

sock = socket.create_connection(("127.0.0.1", port))
sock.settimeout(10)
if mode == "length":
    payload = struct.pack(">i", 2**31 - 1) + b"\x2f" * (2 << 20)
elif mode == "slip":
    payload = b"\xc0" + b"\x2f" * (2 << 20)
else:
    payload = b"\x7f" + os.urandom(64 << 10)
closed = False
try:
    sock.sendall(payload)
except OSError:
    closed = True
deadline = time.monotonic() + 10
while not closed and time.monotonic() < deadline:
    try:
        data = sock.recv(65536)
        if not data:
            closed = True
    except socket.timeout:
        break
    except OSError:
        closed = True
print("CLOSED" if closed else "OPEN", flush=True)
