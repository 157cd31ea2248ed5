#!/usr/bin/env bash
# Starts a KnobLink server of its own (default tree, a temporary presets folder) and runs the
# other server-*.sh scripts against it, then stops it. Needs knoblink on PATH, or KNOBLINK=path.
#
#   Examples/scripts/server-demo.sh            # server on port 8000, answers on 9000
#   PORT=8100 FEEDBACK=9200 Examples/scripts/server-demo.sh
set -euo pipefail
here="$(dirname "$0")"
knoblink="${KNOBLINK:-knoblink}"
export PORT="${PORT:-8000}" FEEDBACK="${FEEDBACK:-9000}" HOST=localhost KNOBLINK="$knoblink"
presets="$(mktemp -d)"
log="$(mktemp)"
"$knoblink" serve --port "$PORT" --feedback-port "$FEEDBACK" --presets "$presets" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$presets" "$log"' EXIT
for _ in $(seq 50); do
    grep -q '^Listening' "$log" && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if ! grep -q '^Listening' "$log"; then
    # Port taken, or a bad option: say so instead of running the scripts against nothing.
    echo "server-demo.sh: the server did not start:" >&2
    sed 's/^/  /' "$log" >&2
    exit 1
fi
head -n 1 "$log"

echo; echo "## server-tour.sh"; bash "$here/server-tour.sh"
echo; echo "## server-subscribe.sh"; bash "$here/server-subscribe.sh"
echo; echo "## server-presets.sh"; bash "$here/server-presets.sh"
echo; echo "## the server's log"; cat "$log"
