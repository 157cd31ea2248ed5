"""Finds a KnobLink server the way VRChat's and Chataigne's OSCQuery libraries do: python-oscquery's
OSCQueryBrowser (Zeroconf) discovers `_oscjson._tcp` services, and OSCQueryClient reads the host
info and a node of each until one is the server named NAME.

    oscquery_discovery.py NAME TIMEOUT

Run it in the tests' network namespace (`ip netns exec klmdns ...`), beside the server and the
Avahi daemon. Prints one JSON object (the service's port, HOST_INFO's name and OSC port, and
/knob/gain's path and value) once found; exits 1 when the server was not found in TIMEOUT seconds.
"""
import json
import sys
import time

from pythonoscquery.osc_query_browser import OSCQueryBrowser
from pythonoscquery.osc_query_client import OSCQueryClient

name, timeout = sys.argv[1], float(sys.argv[2])
browser = OSCQueryBrowser()
deadline = time.monotonic() + timeout
seen = []
try:
    while time.monotonic() < deadline:
        for service in browser.get_discovered_oscquery():
            client = OSCQueryClient(service)
            info = client.get_host_info()
            # Services of earlier runs may still be in a cache with nothing behind them.
            if info is None or info.name != name:
                seen.append(service.name)
                continue
            node = client.query_node("/knob/gain")
            print(json.dumps({
                "port": service.port, "name": info.name, "oscPort": info.osc_port,
                "path": node.full_path if node else None, "value": node.value if node else None,
            }))
            sys.exit(0)
        time.sleep(0.2)
    print(f"not found: {name}; seen {sorted(set(seen))}", file=sys.stderr)
    sys.exit(1)
finally:
    browser.zc.close()
