"""Publishes one DNS-SD service with python zeroconf, as another host on the network would.

    zeroconf-register.py NAME TYPE PORT SECONDS      e.g.  "Studio" _osc._udp.local. 9000 6

Run it inside the tests' network namespace (`ip netns exec klmdns ...`): it answers mDNS itself,
on 127.0.0.1 only, so to the Avahi daemon there it is a remote responder. Prints "registered"
once the service is announced, keeps it SECONDS seconds, then withdraws it.
"""
import socket
import sys
import time

from zeroconf import IPVersion, ServiceInfo, Zeroconf

name, service_type, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
info = ServiceInfo(
    service_type, f"{name}.{service_type}", port=port, properties={"txtvers": "1"},
    addresses=[socket.inet_aton("127.0.0.1")], server="klmdns-python.local.")
try:
    zc.register_service(info)
    print("registered", flush=True)
    time.sleep(seconds)
    zc.unregister_service(info)
finally:
    zc.close()
