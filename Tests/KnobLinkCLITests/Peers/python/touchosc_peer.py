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
import socket
import sys
import threading

from pythonosc.dispatcher import Dispatcher
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.osc_server import BlockingOSCUDPServer

host = sys.argv[1]
listen_port = int(sys.argv[2])
lock = threading.Lock()


def tagged(value):
    if isinstance(value, bool):
        return ["T" if value else "F", value]
    if isinstance(value, int):
        return ["i", value]
    if isinstance(value, float):
        return ["f", value]
    if isinstance(value, str):
        return ["s", value]
    return ["?", repr(value)]


def feedback(address, *args):
    with lock:
        print(json.dumps({"address": address, "args": [tagged(a) for a in args]}), flush=True)


dispatcher = Dispatcher()
dispatcher.set_default_handler(feedback)
server = BlockingOSCUDPServer((host, listen_port), dispatcher)
threading.Thread(target=server.serve_forever, daemon=True).start()

sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sender.bind((host, 0))
target = None
with lock:
    print("LISTEN", server.server_address[1], flush=True)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    if words[0] == "target":
        target = ("127.0.0.1", int(words[1]))
    elif words[0] == "send" and target:
        builder = OscMessageBuilder(address=words[1])
        pairs = words[2:]
        for tag, text in zip(pairs[0::2], pairs[1::2]):
            if tag == "f":
                builder.add_arg(float(text), "f")
            elif tag == "i":
                builder.add_arg(int(text), "i")
            else:
                builder.add_arg(text, "s")
        sender.sendto(builder.build().dgram, target)
server.shutdown()
