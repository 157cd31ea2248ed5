#!/usr/bin/env bash
# Writes Docs/images/web-light.png and Docs/images/web-dark.png: `knoblink serve` on a free port,
# its page (/ui) in headless Chromium at 2x device pixel ratio, light and dark.
# Usage: Scripts/screenshots-web.sh [--url URL] [--out DIR]
#   --url URL  shoot a server that is already running instead of starting one
#   --out DIR  where the PNGs go (default Docs/images)
# Needs Scripts/install-deps.sh (chromium, chromium-driver, selenium in .build/venv-browser).
set -euo pipefail
cd "$(dirname "$0")/.."
url=""
out="Docs/images"
while [ $# -gt 0 ]; do
    case "$1" in
        --url) url="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "Usage: $0 [--url URL] [--out DIR]" >&2; exit 64 ;;
    esac
done
python=".build/venv-browser/bin/python"
[ -x "$python" ] || python="python3"

server_pid=""
log=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    [ -n "$log" ] && rm -f "$log"
}
trap cleanup EXIT

if [ -z "$url" ]; then
    swift build --product knoblink >&2
    log="$(mktemp)"
    .build/debug/knoblink serve --port 0 --name screenshots 2>"$log" &
    server_pid=$!
    for _ in $(seq 200); do
        port="$(sed -n 's/.*Listening on UDP and TCP port \([0-9]*\).*/\1/p' "$log" | head -1)"
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "${port:-}" ] || { echo "knoblink serve did not start:" >&2; cat "$log" >&2; exit 1; }
    url="http://127.0.0.1:$port"
    # Let the demo signal play, so that the playhead is somewhere in the middle.
    sleep 0.2
fi
"$python" Tests/WebSurfaceTests/browser/screenshots.py "$url" "$out"
