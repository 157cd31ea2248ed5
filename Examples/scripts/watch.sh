#!/usr/bin/env bash
# Prints "address value" for every change of a KnobLink server's parameters, live. It listens on
# PORT (9100) and subscribes that port to the server (HOST:SERVER_PORT, localhost:8000) with
# /sys/subscribe, so that it is a peer of its own, and unsubscribes when it ends:
#
#   Examples/scripts/watch.sh                      # knoblink dump 9100
#   DUMP="oscdump -L" Examples/scripts/watch.sh    # liblo's oscdump, same output
#
# Why not simply `knoblink dump 9000`: the server sends feedback to the sender's IP at port 9000,
# so every program of one machine is one peer, and the server does not echo a peer's own changes
# back to it. A dump at 9000 on the machine that runs sweep.sh shows nothing; a dump at a port
# that subscribed itself gets every change, whoever made it.
#
# Each line of the dump is: TIMETAG ADDRESS TYPES VALUES...; strings are printed in double quotes.
set -euo pipefail

port="${1:-9100}"
host="${HOST:-localhost}"
server_port="${SERVER_PORT:-8000}"
knoblink="${KNOBLINK:-knoblink}"
dump="${DUMP:-$knoblink dump}"
# The address at which the server reaches this machine: the loopback for a server on this one.
case "$host" in
localhost | 127.* | ::1) here=127.0.0.1 ;;
*) here="${HERE:-$(hostname -I | cut -d' ' -f1)}" ;;
esac
url="osc.udp://$here:$port/"

unsubscribe() { "$knoblink" send "$host" "$server_port" /sys/unsubscribe s "$url" 2>/dev/null || true; }
trap unsubscribe EXIT
# Subscribes once the dump below has had the time to bind its port.
(sleep 0.5 && "$knoblink" send "$host" "$server_port" /sys/subscribe s "$url") &

# A shell loop rather than awk: mawk, Debian's awk, reads a pipe in blocks and would hold lines back.
# shellcheck disable=SC2086  # $dump is a command with its options
$dump "$port" | while read -r _timetag address _types values; do
    printf '%s %s\n' "$address" "$values"
done
