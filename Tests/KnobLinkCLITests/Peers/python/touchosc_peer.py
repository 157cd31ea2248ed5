"""A TouchOSC-like control surface written with python-osc, driven over stdin by the tests.

It listens for feedback on HOST:LISTEN_PORT (TouchOSC listens on 9000) and sends from a socket of
its own on HOST with an ephemeral port, as TouchOSC does. Every message it receives is printed on
stdout as one JSON line: {"address": ..., "args": [[tag, value], ...]}.

Commands on stdin, one a line:
    target PORT                     where the server listens
    send ADDRESS [TAG VALUE]...     e.g. `send /knob/gain f 0.5`, `send /knob/gain/z f 1`
    quit
Usage: touchosc_peer.py HOST LISTEN_PORT (0 picks a free port; printed as `LISTEN PORT`).
"""

import json
import sys
import threading

import stdin_peer
from stdin_peer import tagged

host = sys.argv[1]
listen_port = int(sys.argv[2])
lock = threading.Lock()


def feedback(address, *args):
    with lock:
        print(json.dumps({"address": address, "args": [tagged(a) for a in args]}), flush=True)


stdin_peer.run(host, listen_port, feedback, lock)
