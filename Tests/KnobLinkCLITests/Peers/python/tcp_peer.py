"""A TCP peer written with python-osc's TCP client, in OSC 1.0 (length prefix) or 1.1 (SLIP) mode.

It connects to the server, and prints every message that comes back on the connection as one JSON
line, like touchosc_peer.py. Commands on stdin, one a line:
    send ADDRESS [TAG VALUE]...
    quit
Usage: tcp_peer.py PORT MODE (MODE is 1.0 or 1.1). Prints `CONNECTED` once connected.
"""

import json
import sys
import threading

from pythonosc.osc_packet import OscPacket
from pythonosc.tcp_client import SimpleTCPClient

from stdin_peer import message, tagged

port = int(sys.argv[1])
mode = sys.argv[2]
client = SimpleTCPClient("127.0.0.1", port, mode=mode)
lock = threading.Lock()
running = True


def show(address, args):
    with lock:
        print(json.dumps({"address": address, "args": [tagged(a) for a in args]}), flush=True)


def reader():
    while running:
        try:
            frames = client.receive(0.2)
        except Exception as error:  # the connection closed (1.0 mode reads an empty length)
            show("#closed", [repr(error)])
            return
        for frame in frames:
            if not frame:
                continue
            try:
                packet = OscPacket(frame)
            except Exception as error:
                show("#undecodable", [repr(error)])
                continue
            for timed in packet.messages:
                show(timed.message.address, timed.message.params)


threading.Thread(target=reader, daemon=True).start()
with lock:
    print("CONNECTED", flush=True)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    if words[0] == "send":
        client.send(message(words[1], words[2:]))
running = False
client.close()
