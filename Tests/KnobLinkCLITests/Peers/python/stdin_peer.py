"""What the python-osc peers driven over stdin by the tests share.

`tagged` turns a received argument into [tag, value] for a JSON line, `message` builds what a
`send` command asks for, and `run` listens on
HOST:LISTEN_PORT with a python-osc server whose default handler is `handler`, prints
`LISTEN PORT`, and then follows the commands on stdin, one a line:
    target PORT                     where the server listens (on 127.0.0.1)
    send ADDRESS [TAG VALUE]...     TAG f, i or s; sent from a socket of the peer's own on HOST
    quit
"""

import socket
import sys
import threading

from pythonosc.dispatcher import Dispatcher
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.osc_server import BlockingOSCUDPServer


def tagged(value):
    if isinstance(value, bool):
        return ["T" if value else "F", value]
    if isinstance(value, int):
        return ["i", value]
    if isinstance(value, float):
        return ["f", value]
    if isinstance(value, str):
        return ["s", value]
    if isinstance(value, (bytes, bytearray)):
        return ["b", bytes(value).hex()]
    return ["?", repr(value)]


def message(address, pairs):
    """The message `send ADDRESS [TAG VALUE]...` asks for."""
    builder = OscMessageBuilder(address=address)
    for tag, text in zip(pairs[0::2], pairs[1::2]):
        if tag == "f":
            builder.add_arg(float(text), "f")
        elif tag == "i":
            builder.add_arg(int(text), "i")
        else:
            builder.add_arg(text, "s")
    return builder.build()


def run(host, listen_port, handler, lock):
    dispatcher = Dispatcher()
    dispatcher.set_default_handler(handler)
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
            sender.sendto(message(words[1], words[2:]).dgram, target)
    server.shutdown()
