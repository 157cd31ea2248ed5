"""Browses for one DNS-SD service with python zeroconf, as a controller would, and prints it.

    zeroconf-browse.py NAME TYPE TIMEOUT      e.g.  "Studio" _oscjson._tcp.local. 5

Run it inside the tests' network namespace (`ip netns exec klmdns ...`): it speaks mDNS itself,
on 127.0.0.1 only. Prints one JSON object (name, port, addresses, txt) once the browser has
seen the service and resolved it; exits 1 when it has not within TIMEOUT seconds.
"""
import json
import sys
import threading

from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

name, service_type, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
wanted = f"{name}.{service_type}"
seen = threading.Event()


def on_change(zeroconf, service_type, name, state_change):
    if name == wanted and state_change is not ServiceStateChange.Removed:
        seen.set()


zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
try:
    browser = ServiceBrowser(zc, service_type, handlers=[on_change])
    if not seen.wait(timeout):
        print(f"not seen: {wanted}", file=sys.stderr)
        sys.exit(1)
    info = zc.get_service_info(service_type, wanted, timeout=int(timeout * 1000))
    if info is None:
        print(f"seen but not resolved: {wanted}", file=sys.stderr)
        sys.exit(1)
    txt = sorted(f"{k.decode()}={(v or b'').decode()}" for k, v in info.properties.items())
    print(json.dumps({"name": info.name, "port": info.port, "addresses": info.parsed_addresses(), "txt": txt}))
    browser.cancel()
finally:
    zc.close()
