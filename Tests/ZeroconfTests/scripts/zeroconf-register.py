"""Publishes one DNS-SD service with python zeroconf, as another host on the network would.

    zeroconf-register.py NAME TYPE PORT SECONDS [HOST ADDRESS]
        e.g.  "Studio" _osc._udp.local. 9000 6
              "Usurper" _osc._udp.local. 9000 6 klmdns.local. 127.0.0.2

Run it inside the tests' network namespace (`ip netns exec klmdns ...`): it answers mDNS itself,
on 127.0.0.1 only, so to the Avahi daemon there it is a remote responder. Prints "registered"
once the service is announced, keeps it SECONDS seconds, then withdraws it. The service's host
is `klmdns-python.local.` at 127.0.0.1 unless HOST and ADDRESS are given: naming the daemon's own
host with another address claims its host name, as a second machine of the same name would.
"""
import socket
import sys
import time

from zeroconf import IPVersion, ServiceInfo, Zeroconf

name, service_type, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
host, address = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else ("klmdns-python.local.", "127.0.0.1")
zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
info = ServiceInfo(
    service_type, f"{name}.{service_type}", port=port, properties={"txtvers": "1"},
    addresses=[socket.inet_aton(address)], server=host)
try:
    zc.register_service(info)
    print("registered", flush=True)
    time.sleep(seconds)
    zc.unregister_service(info)
finally:
    zc.close()
