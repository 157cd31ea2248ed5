"""A TCP peer that asks for a lot and never reads: OSC 1.0 framing, a tiny receive buffer.

It queries a parameter (becoming an implicit subscriber), asks for `/sys/list` thousands of times,
prints `STALLED`, and then sleeps without reading, so the server's writes to it back up.
Usage: stalled_tcp_peer.py PORT
"""

import socket
import struct
import sys
import time

port = int(sys.argv[1])


def osc_string(text):
    data = text.encode() + b"\0"
    return data + b"\0" * ((4 - len(data) % 4) % 4)


def frame(address):
    packet = osc_string(address) + osc_string(",")
    return struct.pack(">i", len(packet)) + packet


sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
sock.connect(("127.0.0.1", port))
sock.settimeout(5)
try:
    sock.sendall(frame("/knob/gain"))
    for _ in range(4):
        sock.sendall(frame("/sys/list") * 1000)
        time.sleep(0.6)
except OSError as error:
    print("SEND", repr(error), flush=True)
print("STALLED", flush=True)
time.sleep(120)
