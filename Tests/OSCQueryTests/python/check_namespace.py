"""Reads KnobLink's OSCQuery answers the way python-oscquery 0.4.0's client does.

Usage: check_namespace.py HOST_INFO.json NODE.json...

Each file is parsed with Python's json module (NaN and Infinity refused, as RFC 8259 has no such
numbers), then given to python-oscquery: the host info as OSCQueryClient.get_host_info builds it,
each node with OSCPathNode.from_json, the parser behind OSCQueryClient.query_node. Prints one line
per node file, "<FULL_PATH> <nodes> <methods>", so the caller can check what was read; exits 1
with the reason on the first failure.
"""

import json
import sys

from pythonoscquery.shared.osc_access import OSCAccess
from pythonoscquery.shared.osc_host_info import OSCHostInfo
from pythonoscquery.shared.osc_path_node import OSCPathNode


def refuse_constant(name):
    raise ValueError(f"not JSON: {name}")


def load(path):
    with open(path, "rb") as handle:
        return json.loads(handle.read().decode("utf-8"), parse_constant=refuse_constant)


def main(arguments):
    host = load(arguments[0])
    info = OSCHostInfo(host["NAME"], host["EXTENSIONS"])
    if not isinstance(info.extensions, dict) or not all(value is True for value in info.extensions.values()):
        raise ValueError(f"EXTENSIONS is not an object of true values: {info.extensions!r}")
    print(f"host {info.name} {host['OSC_PORT']} {host['OSC_TRANSPORT']}")
    for path in arguments[1:]:
        root = OSCPathNode.from_json(load(path))
        nodes = list(root)
        methods = [node for node in nodes if not node.is_container]
        for node in methods:
            if node.access not in (OSCAccess.READONLY_VALUE, OSCAccess.READWRITE_VALUE):
                raise ValueError(f"{node.full_path}: access {node.access!r}")
            if len(node.value) != 1 or not isinstance(node.value[0], float):
                raise ValueError(f"{node.full_path}: value {node.value!r} is not one float")
            if not 0.0 <= node.value[0] <= 1.0:
                raise ValueError(f"{node.full_path}: value {node.value[0]} is not normalised")
        print(f"{root.full_path} {len(nodes)} {len(methods)}")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Exception as error:  # the caller shows the reason
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
