"""A waveform visualiser written with python-osc, driven over stdin by the tests.

It listens on HOST:LISTEN_PORT for what a KnobLink server streams (PROTOCOL.md section 5) and
sends from a socket of its own on HOST with an ephemeral port, as a control surface does (run the
server with `--feedback-port LISTEN_PORT`, so that replies to HOST reach it). Every message it
receives is printed on stdout as one JSON line: {"address": ..., "args": [[tag, value], ...]},
a blob as ["b", "<hex>"]. Overview frames are reassembled as a visualiser must: messages with
the same seq and increasing offsets, until `total` bars have arrived; each complete frame is then
printed as {"address": "/overview", "args": [["i", seq], ["s", "blob" or "float"], ["i", total],
["f", bar]...]}.

Commands on stdin, one a line:
    target PORT                     where the server listens
    send ADDRESS [TAG VALUE]...     e.g. `send /wave/sub s osc.udp://127.0.0.2:9000/ i 128`
    quit
Usage: wave_visualiser.py HOST LISTEN_PORT (0 picks a free port; printed as `LISTEN PORT`).
"""

import json
import struct
import sys
import threading

import stdin_peer
from stdin_peer import tagged

host = sys.argv[1]
listen_port = int(sys.argv[2])
lock = threading.Lock()
frames = {}  # seq -> {"form": ..., "total": n, "bars": {index: value}}


def emit(address, args):
    print(json.dumps({"address": address, "args": args}), flush=True)


def collect(seq, offset, total, values, form):
    frame = frames.setdefault(seq, {"form": form, "total": total, "bars": {}})
    for index, value in enumerate(values):
        frame["bars"][offset + index] = value
    if len(frame["bars"]) == total:
        del frames[seq]
        bars = [frame["bars"][index] for index in range(total)]
        emit("/overview", [["i", seq], ["s", form], ["i", total]] + [["f", bar] for bar in bars])


def received(address, *args):
    with lock:
        emit(address, [tagged(a) for a in args])
        if address == "/wave/bars" and len(args) == 4:
            seq, offset, total, data = args
            count = len(data) // 4
            collect(seq, offset, total, struct.unpack(">%df" % count, data[: count * 4]), "blob")
        elif address == "/wave/bars/f" and len(args) >= 3:
            collect(args[0], args[1], args[2], [float(v) for v in args[3:]], "float")


stdin_peer.run(host, listen_port, received, lock)
