#!/usr/bin/env bash
# Subscribes a listener to part of a KnobLink server's tree (Docs/PROTOCOL.md section 3), then
# changes values as another peer would, and shows the feedback the listener gets.
#
#   knoblink serve &
#   Examples/scripts/server-subscribe.sh      # LISTEN=9100: the listener's port
set -euo pipefail
# shellcheck source=server-lib.sh
source "$(dirname "$0")/server-lib.sh"
listen_port="${LISTEN:-9100}"
listen "$listen_port"
url="osc.udp://127.0.0.1:$listen_port/"

echo "# /amp/* at most 10 times a second, flags 7: normalised (1), display text (2), raw (4)."
echo "# The current values come at once, between /sys/update 1 and 0."
step /sys/subscribe ssfi "$url" "/amp/*" 10 7
echo "# Another peer changes a value: the listener gets it in the three forms."
step /amp/attack/raw f 0.3
echo "# Outside the pattern: nothing."
step /knob/gain f 0.25
echo "# A burst of 100 changes reaches the listener coalesced: only the latest value, at most 10 a second."
printf '/amp/sustain f %s\n' $(seq 0.01 0.01 1.00) | "${KNOBLINK:-knoblink}" send "$host" "$port" -
sleep 0.3
tail -n +"$((shown_lines + 1))" "$dump_file" | cut -d' ' -f2- | sed 's/^/  /'
shown_lines=$(wc -l <"$dump_file")
echo "# Everything again, on demand."
step /sys/refresh s "$url"
step /sys/unsubscribe s "$url"
step /amp/attack/raw f 0.5
