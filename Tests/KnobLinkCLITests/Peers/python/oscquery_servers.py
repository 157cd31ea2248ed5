"""OSCQuery servers of other kinds, for `knoblink surface http://` and its RemoteParameterTree mirror.

    oscquery_servers.py python-oscquery   (system python3: python-oscquery 0.4.0 and python-osc)
    oscquery_servers.py websocket         (a venv with `websockets`)

python-oscquery: the library's own HTTP server (HTTP/1.0, no Content-Length, no WebSocket, no
RANGE) on a port of its own, and a python-osc UDP server as its OSC_PORT. Tree: /synth/freq f 440,
/synth/on T, /synth/level i 3, /synth/name s (not a number: a mirror skips it).

websocket: an OSCQuery server written on the `websockets` library, HTTP and WebSocket on one port
like ossia's: /mixer/cutoff f 20..20000 time.hz, /mixer/mute F, /mixer/steps i 0..8,
/mixer/label s. LISTEN of a method sends its value at once and every change after, as binary OSC;
binary OSC from a client sets the value and goes to the other listeners.

Both print `ready HTTP_PORT` and, for each OSC message received, `recv PATH VALUE`, and `listen
PATH` for each LISTEN. Commands on stdin: `set PATH VALUE` (a change made on the server) and, for
websocket, `add PATH` (a new float method, announced with PATH_ADDED).
"""
import json
import struct
import sys
import threading


def say(line):
    print(line, flush=True)


def parse_value(text, kind):
    if kind == "i":
        return int(float(text))
    if kind in ("T", "F"):
        return text.lower() in ("1", "true", "t")
    return float(text)


def python_oscquery():
    from pythonosc.dispatcher import Dispatcher
    from pythonosc.osc_server import ThreadingOSCUDPServer
    from pythonoscquery.osc_query_service import OSCQueryHTTPHandler, OSCQueryHTTPServer
    from pythonoscquery.shared.osc_access import OSCAccess
    from pythonoscquery.shared.osc_address_space import OSCAddressSpace
    from pythonoscquery.shared.osc_host_info import OSCHostInfo
    from pythonoscquery.shared.osc_path_node import OSCPathNode
    from pythonoscquery.shared.oscquery_spec import OSCQueryAttribute

    space = OSCAddressSpace()
    kinds = {"/synth/freq": "f", "/synth/on": "T", "/synth/level": "i"}
    space.add_node(OSCPathNode("/synth/freq", OSCAccess.READWRITE_VALUE, [440.0], "Frequency"))
    space.add_node(OSCPathNode("/synth/on", OSCAccess.READWRITE_VALUE, [True], "On"))
    space.add_node(OSCPathNode("/synth/level", OSCAccess.READWRITE_VALUE, [3], "Level"))
    space.add_node(OSCPathNode("/synth/name", OSCAccess.READWRITE_VALUE, ["x"], "Name"))

    def store(path, value):
        with space.lock:
            node = space.find_node(path)
            if node is not None:
                node._attributes[OSCQueryAttribute.VALUE] = [value]

    def received(address, *args):
        say("recv %s %s" % (address, " ".join(repr(a) for a in args)))
        if args:
            store(address, args[0])

    dispatcher = Dispatcher()
    dispatcher.set_default_handler(received)
    osc = ThreadingOSCUDPServer(("127.0.0.1", 0), dispatcher)
    threading.Thread(target=osc.serve_forever, daemon=True).start()
    info = OSCHostInfo(
        "python-oscquery peer", {"ACCESS": True, "VALUE": True, "TYPE": True, "RANGE": False},
        "127.0.0.1", osc.server_address[1], "UDP")
    http = OSCQueryHTTPServer(space, info, ("127.0.0.1", 0), OSCQueryHTTPHandler)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    say("ready %d" % http.server_address[1])
    for line in sys.stdin:
        words = line.split()
        if len(words) == 3 and words[0] == "set":
            store(words[1], parse_value(words[2], kinds.get(words[1], "f")))
            say("set %s" % words[1])


def osc_message(path, kind, value):
    def pad(data):
        return data + b"\0" * (4 - len(data) % 4)

    if kind in ("T", "F"):
        return pad(path.encode()) + pad(b"," + (b"T" if value else b"F"))
    if kind == "i":
        return pad(path.encode()) + pad(b",i") + struct.pack(">i", value)
    return pad(path.encode()) + pad(b",f") + struct.pack(">f", value)


def osc_parse(data):
    end = data.index(b"\0")
    path = data[:end].decode()
    at = (end + 4) & ~3
    tags_end = data.index(b"\0", at)
    tags = data[at + 1:tags_end].decode()
    at = (tags_end + 4) & ~3
    values = []
    for tag in tags:
        if tag == "f":
            values.append(struct.unpack(">f", data[at:at + 4])[0])
            at += 4
        elif tag == "i":
            values.append(struct.unpack(">i", data[at:at + 4])[0])
            at += 4
        elif tag in "TF":
            values.append(tag == "T")
    return path, tags, values


def websocket_server():
    import asyncio
    from http import HTTPStatus
    from websockets.asyncio.server import serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    nodes = {
        "/mixer/cutoff": {"TYPE": "f", "VALUE": [1000.0], "RANGE": [{"MIN": 20, "MAX": 20000}], "UNIT": "time.hz",
                          "DESCRIPTION": "Cutoff"},
        "/mixer/mute": {"TYPE": "F", "VALUE": [False], "DESCRIPTION": "Mute"},
        "/mixer/steps": {"TYPE": "i", "VALUE": [2], "RANGE": [{"MIN": 0, "MAX": 8}], "DESCRIPTION": "Steps"},
        "/mixer/label": {"TYPE": "s", "VALUE": ["x"]},
    }
    listeners = {}  # connection -> set of paths

    def namespace():
        contents = {}
        for path, node in nodes.items():
            contents[path.split("/")[2]] = dict(node, FULL_PATH=path, ACCESS=3)
        mixer = {"FULL_PATH": "/mixer", "ACCESS": 0, "DESCRIPTION": "Mixer", "CONTENTS": contents}
        return {"FULL_PATH": "/", "ACCESS": 0, "CONTENTS": {"mixer": mixer}}

    def kind(path):
        tag = nodes[path]["TYPE"]
        return "T" if tag in ("T", "F") else tag

    def respond(body):
        data = json.dumps(body).encode()
        headers = Headers({"Content-Type": "application/json", "Content-Length": str(len(data))})
        return Response(200, "OK", headers, data)

    def process_request(connection, request):
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if request.path == "/?HOST_INFO":
            return respond({"NAME": "websockets peer", "OSC_PORT": 9, "OSC_TRANSPORT": "UDP",
                            "EXTENSIONS": {"ACCESS": True, "VALUE": True, "RANGE": True, "UNIT": True,
                                           "LISTEN": True, "PATH_ADDED": True}})
        if request.path == "/":
            return respond(namespace())
        return connection.respond(HTTPStatus.NOT_FOUND, "no such path\n")

    async def send_value(ws, path):
        await ws.send(osc_message(path, kind(path), nodes[path]["VALUE"][0]))

    async def handler(ws):
        listeners[ws] = set()
        try:
            async for message in ws:
                if isinstance(message, str):
                    command = json.loads(message)
                    if command.get("COMMAND") == "LISTEN" and command.get("DATA") in nodes:
                        listeners[ws].add(command["DATA"])
                        say("listen %s" % command["DATA"])
                        await send_value(ws, command["DATA"])
                    continue
                path, tags, values = osc_parse(message)
                say("recv %s %s %s" % (path, tags, " ".join(repr(v) for v in values)))
                if path in nodes:
                    nodes[path]["VALUE"] = [values[0]] if values else [tags == "T"]
                    for other, paths in list(listeners.items()):
                        if other is not ws and path in paths:
                            await send_value(other, path)
        finally:
            listeners.pop(ws, None)

    async def commands():
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            words = line.split()
            if len(words) == 3 and words[0] == "set" and words[1] in nodes:
                nodes[words[1]]["VALUE"] = [parse_value(words[2], kind(words[1]))]
                for ws, paths in list(listeners.items()):
                    if words[1] in paths:
                        await send_value(ws, words[1])
                say("set %s" % words[1])
            elif len(words) == 2 and words[0] == "add":
                nodes[words[1]] = {"TYPE": "f", "VALUE": [0.5], "RANGE": [{"MIN": 0, "MAX": 1}]}
                for ws in list(listeners):
                    await ws.send(json.dumps({"COMMAND": "PATH_ADDED", "DATA": words[1]}))
                say("added %s" % words[1])

    async def main():
        async with serve(handler, "127.0.0.1", 0, process_request=process_request) as server:
            port = server.sockets[0].getsockname()[1]
            say("ready %d" % port)
            await commands()

    asyncio.run(main())


if __name__ == "__main__":
    if sys.argv[1] == "python-oscquery":
        python_oscquery()
    else:
        websocket_server()
