#!/usr/bin/env python3
"""Reads a running `knoblink serve` as OSCQuery clients do, and prints one line per check.

  oscquery_clients.py PORT oscquery    python-oscquery's OSCQueryClient: HOST_INFO, the tree, a node
  oscquery_clients.py PORT websocket   the `websockets` library: LISTEN, a set over UDP seen on
                                       the WebSocket, binary OSC both ways, IGNORE

Each line is `ok WHAT` or `FAIL WHAT: why`; the exit status is 1 if any check failed.
"""
import asyncio
import socket
import struct
import sys

failures = 0


def check(ok, what, why=""):
    global failures
    print(("ok " if ok else "FAIL ") + what + ("" if ok else ": " + why), flush=True)
    if not ok:
        failures += 1


def osc_string(text):
    data = text.encode() + b"\0"
    return data + b"\0" * (-len(data) % 4)


def osc_message(address, tags="", *arguments):
    data = osc_string(address) + osc_string("," + tags)
    for tag, argument in zip(tags, arguments):
        if tag == "f":
            data += struct.pack(">f", argument)
        elif tag == "s":
            data += osc_string(argument)
    return data


def read_message(data):
    """(address, [float arguments]) of a bare OSC message."""
    end = data.index(b"\0")
    address = data[:end].decode()
    offset = (end + 4) & ~3
    tags_end = data.index(b"\0", offset)
    tags = data[offset + 1:tags_end].decode()
    offset = (tags_end + 4) & ~3
    values = []
    for tag in tags:
        if tag == "f":
            values.append(struct.unpack(">f", data[offset:offset + 4])[0])
            offset += 4
        elif tag == "i":
            values.append(struct.unpack(">i", data[offset:offset + 4])[0])
            offset += 4
    return address, values


def oscquery(port):
    from pythonoscquery.osc_query_client import OSCQueryClient
    from zeroconf import ServiceInfo

    info = ServiceInfo(
        "_oscjson._tcp.local.", "knoblink._oscjson._tcp.local.",
        addresses=[socket.inet_aton("127.0.0.1")], port=port)
    client = OSCQueryClient(info)
    host = client.get_host_info()
    check(host is not None and host.osc_port == port, "host info", repr(host and vars(host)))
    root = client.query_node("/")
    found = [root is not None and root.find_subnode(path) is not None for path in ("/knob/gain", "/toggle/retrigger")]
    check(all(found), "the tree", repr(found))
    gain = client.query_node("/knob/gain")
    check(gain is not None and gain.description == "Gain" and len(gain.value) == 1, "a node",
          repr(gain and vars(gain)))
    check(client.query_node("/no/such/node") is None, "an unknown node is None")


async def websocket(port):
    import websockets

    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=1 << 20) as ws:
        await ws.send('{"COMMAND":"LISTEN","DATA":"/knob/gain"}')
        first = await asyncio.wait_for(ws.recv(), 5)
        address, values = read_message(first)
        check(isinstance(first, bytes) and address == "/knob/gain" and len(values) == 1,
              "LISTEN sends the value at once", repr(first))
        udp.sendto(osc_message("/knob/gain", "f", 0.25), ("127.0.0.1", port))
        echo = await asyncio.wait_for(ws.recv(), 5)
        address, values = read_message(echo)
        check(address == "/knob/gain" and abs(values[0] - 0.25) < 1e-6, "a UDP set reaches the WebSocket",
              repr(echo))
        await ws.send(osc_message("/sys/ping"))
        pong = await asyncio.wait_for(ws.recv(), 5)
        check(read_message(pong)[0] == "/sys/pong", "binary OSC both ways", repr(pong))
        await ws.send('{"COMMAND":"IGNORE","DATA":"/knob/gain"}')
        udp.sendto(osc_message("/knob/gain", "f", 0.5), ("127.0.0.1", port))
        await ws.send(osc_message("/sys/ping"))
        after = await asyncio.wait_for(ws.recv(), 5)
        check(read_message(after)[0] == "/sys/pong", "IGNORE stops the values", repr(after))


def main():
    port, mode = int(sys.argv[1]), sys.argv[2]
    if mode == "oscquery":
        oscquery(port)
    else:
        asyncio.run(websocket(port))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
