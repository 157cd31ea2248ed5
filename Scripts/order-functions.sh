#!/usr/bin/env bash
# Writes Scripts/knoblink.order, the functions that `knoblink` runs in its common commands, which
# Scripts/build-release.sh hands to the linker (`--symbol-ordering-file`) so that they sit together
# at the start of the binary's code (Docs/ARCHITECTURE.md, "A smaller footprint").
#
# Each run below goes under valgrind's callgrind, which records every function that executes:
# `--version` and a help text (the start), `waveform` to .dat, .json and .png, `serve` on its
# default tree with OSC, HTTP and WebSocket peers, and `serve` with the 1,000-parameter tree and
# 64 subscribed peers that the memory benchmark drives (ServerBenchmarks --only memory). Functions
# that none of them runs keep the linker's order, after these. A stale list costs nothing but
# locality: names it lacks are laid out as before, names the binary lacks are skipped.
#
# Run it after changes that move the hot paths; it takes 20-80 s (more when it builds the benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "order-functions: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

knoblink="$(KNOBLINK_ORDER=none bash Scripts/build-release.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The function names left mangled: the linker's names. Each run records into $work/NAME.cg.
callgrind=(valgrind -q --tool=callgrind --demangle=no --dump-instr=no)
profile() {
    local name="$1"
    shift
    "${callgrind[@]}" --callgrind-out-file="$work/$name.cg" "$@"
}
step() { echo "order-functions: $*" >&2; }

step "the start"
profile version "$knoblink" --version >/dev/null
profile help "$knoblink" serve --help >/dev/null

step "waveform"
python3 - "$work/tone.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(44100)
    w.writeframes(b"".join(struct.pack("<hh", int(20000 * math.sin(i / 10)), int(20000 * math.sin(i / 7)))
                           for i in range(44100 * 5)))
PY
for format in dat json png; do
    profile "wave-$format" "$knoblink" waveform "$work/tone.wav" -o "$work/tone.$format" 2>/dev/null
done

step "serve, the default tree, with OSC, HTTP and WebSocket peers"
# Started directly, not through `profile`, so that `$!` is valgrind itself, which passes SIGINT on.
"${callgrind[@]}" --callgrind-out-file="$work/serve.cg" "$knoblink" serve --port 0 --bind 127.0.0.1 --no-zeroconf 2>"$work/serve.log" &
server=$!
port=""
for _ in $(seq 100); do
    port="$(grep -o 'Listening on UDP and TCP port [0-9]*' "$work/serve.log" | grep -o '[0-9]*$' || true)"
    [ -n "$port" ] && break
    sleep 0.2
done
[ -n "$port" ] || { echo "order-functions: the server did not start: $(cat "$work/serve.log")" >&2; exit 1; }
for path in / /ui "/?HOST_INFO" /knob/gain; do
    curl -s -o /dev/null "http://127.0.0.1:$port$path"
done
python3 - "$port" <<'PY'
import base64, os, socket, struct, sys, time
port = int(sys.argv[1])
def osc(address, tags, *values):
    pad = lambda b: b + b"\0" * (4 - len(b) % 4)
    body = pad(address.encode()) + pad(("," + tags).encode())
    for tag, value in zip(tags, values):
        body += struct.pack(">f", value) if tag == "f" else pad(value.encode())
    return body
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(("127.0.0.1", 0))
udp.settimeout(0.5)
url = "osc.udp://127.0.0.1:%d/" % udp.getsockname()[1]
for message in (osc("/sys/subscribe", "ss", url, "/knob/*"), osc("/knob/gain", "f", 0.25), osc("/sys/list", "s", url),
                osc("/sys/ping", "s", url), osc("/knob/gain", "f", 0.75)):
    udp.sendto(message, ("127.0.0.1", port))
    time.sleep(0.2)
# A WebSocket (RFC 6455) that asks to LISTEN, as the web page does.
ws = socket.create_connection(("127.0.0.1", port), timeout=2)
key = base64.b64encode(os.urandom(16)).decode()
ws.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
ws.recv(4096)
text = b'{"COMMAND":"LISTEN","DATA":"/knob/gain"}'
mask = os.urandom(4)
ws.sendall(bytes([0x81, 0x80 | len(text)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text)))
udp.sendto(osc("/knob/gain", "f", 0.5), ("127.0.0.1", port))
time.sleep(1)
ws.close()
PY
kill -INT "$server"
wait "$server" || true

step "serve, 1,000 parameters and 64 peers (ServerBenchmarks --only memory)"
# As in bench.sh: SwiftPM's plan of the benchmarks can miss a change in the main package's targets.
rm -f Benchmarks/.build/release.yaml Benchmarks/.build/*/release/description.json
(cd Benchmarks && swift build -c release --product ServerBenchmarks >&2)
cat >"$work/knoblink-profiled" <<SH
#!/bin/sh
exec ${callgrind[*]} --callgrind-out-file="$work/serve-1000.cg" "$knoblink" "\$@"
SH
chmod +x "$work/knoblink-profiled"
"$(cd Benchmarks && swift build -c release --show-bin-path)/ServerBenchmarks" --only memory \
    --knoblink "$work/knoblink-profiled" >/dev/null

python3 Scripts/order-functions.py "$knoblink" \
    "$work"/version.cg "$work"/serve-1000.cg "$work"/serve.cg "$work"/wave-*.cg "$work"/help.cg >Scripts/knoblink.order
step "wrote Scripts/knoblink.order: $(wc -l <Scripts/knoblink.order) functions"
