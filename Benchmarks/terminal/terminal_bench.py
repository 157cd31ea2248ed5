#!/usr/bin/env python3
"""The terminal surface as a user runs it (issue 13): `knoblink serve --surface` in a pseudo-
terminal of 200×60 that this script reads, timestamping every byte the surface writes.

    terminal_bench.py KNOBLINK [--sets N] [--idle SECONDS]

1. Idle: once the first frames are drawn, the CPU time the process uses over --idle seconds
   (from /proc/PID/stat), and the bytes it writes meanwhile (an idle surface should write none).
2. Latency: N sets of /knob/gain/raw over UDP from a plain socket, 30 ms apart (more than the
   surface's 1/60 s between frames, so that no set waits for the previous frame), each timed
   from just before `sendto` to the first byte of the frame that follows. Nothing else writes
   meanwhile, so the first bytes after a set are its frame.
Prints both, with p50/p99 of the latency. Standard library only.
"""
import argparse
import fcntl
import os
import pty
import re
import signal
import socket
import struct
import sys
import tempfile
import termios
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("knoblink")
parser.add_argument("--sets", type=int, default=500)
parser.add_argument("--idle", type=float, default=10.0)
options = parser.parse_args()

log_path = os.path.join(tempfile.mkdtemp(prefix="knoblink-terminal-bench-"), "serve.log")
pid, master = pty.fork()
if pid == 0:
    # The child: a 200×60 terminal that speaks truecolor, then the server with its surface.
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    os.environ.update(TERM="xterm-256color", COLORTERM="truecolor")
    os.environ.pop("NO_COLOR", None)
    os.execv(options.knoblink, [
        options.knoblink, "serve", "--surface", "--port", "0", "--bind", "127.0.0.1", "--no-zeroconf",
        "--summary", "0", "--log-file", log_path,
    ])

# Everything the surface writes, with the time it was read (the reader never lets the pty fill).
chunks = []
lock = threading.Lock()
arrived = threading.Condition(lock)


def read_all():
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            return
        if not data:
            return
        now = time.perf_counter()
        with arrived:
            chunks.append((now, len(data)))
            arrived.notify_all()


threading.Thread(target=read_all, daemon=True).start()


def stop(status):
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
    sys.exit(status)


port = None
deadline = time.monotonic() + 20
while port is None and time.monotonic() < deadline:
    try:
        match = re.search(r"Listening on UDP and TCP port (\d+)", open(log_path).read())
        port = int(match.group(1)) if match else None
    except OSError:
        pass
    time.sleep(0.05)
if port is None:
    print("the server did not start", file=sys.stderr)
    stop(1)


def cpu_ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, fields 14 and 15 of the file


def written_since(start):
    with lock:
        return sum(size for when, size in chunks if when >= start)


# 1. Idle.
time.sleep(2)  # the first frames, and the status line's first peer count
idle_start = time.perf_counter()
ticks_before = cpu_ticks()
time.sleep(options.idle)
ticks = cpu_ticks() - ticks_before
idle_bytes = written_since(idle_start)
idle_cpu = ticks / os.sysconf("SC_CLK_TCK") / options.idle * 100


# 2. Latency.
def osc_float(address, value):
    def padded(text):
        raw = text.encode() + b"\0"
        return raw + b"\0" * (-len(raw) % 4)
    return padded(address) + padded(",f") + struct.pack(">f", value)


sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
target = ("127.0.0.1", port)
latencies = []
missed = 0
for index in range(options.sets + 10):
    value = -55.0 + (index * 37 % 60)  # dB, each far from the one before
    with lock:
        before = len(chunks)
    sent = time.perf_counter()
    sender.sendto(osc_float("/knob/gain/raw", value), target)
    with arrived:
        got = arrived.wait_for(lambda: len(chunks) > before, timeout=2)
        first = chunks[before][0] if got else None
    if first is None:
        missed += 1
    elif index >= 10:  # the first sets make a new peer, which the status line counts
        latencies.append(first - sent)
    time.sleep(0.03)

latencies.sort()


def percentile(p):
    return latencies[min(len(latencies) - 1, int(round(p / 100 * len(latencies) + 0.5)) - 1)] * 1000


print(f"Terminal surface, knoblink serve --surface in a 200x60 pseudo-terminal (pid {pid})")
print(f"  idle over {options.idle:g} s: {idle_cpu:.2f} % of a core ({ticks} ticks), {idle_bytes} bytes written"
      f"  (target: under 0.5 %)")
if latencies:
    print(f"  UDP set -> first byte of its frame, {len(latencies)} sets: p50 {percentile(50):.2f} ms,"
          f" p99 {percentile(99):.2f} ms (min {latencies[0] * 1000:.2f}, max {latencies[-1] * 1000:.2f}),"
          f" {missed} without a frame")
stop(0 if latencies and not missed else 1)
