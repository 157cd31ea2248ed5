#!/usr/bin/env bash
# Sweeps one parameter from 0 to 1 and back, one message every STEP_SECONDS, through a single
# `knoblink send` that reads the messages from its standard input (each line is sent as soon as
# it is read, so the sweep runs in real time without starting a process per value).
#
#   Examples/scripts/sweep.sh /knob/gain              # localhost:8000, 50 steps each way
#   HOST=10.0.0.5 PORT=8000 STEPS=100 STEP_SECONDS=0.01 Examples/scripts/sweep.sh /knob/frequency
#
# To see it move on the same machine, run Examples/scripts/watch.sh: a `knoblink dump 9000` here
# shows nothing, because this machine is one peer at the feedback port 9000 and the server does
# not echo a peer's own changes back to it (watch.sh subscribes a port of its own).
set -euo pipefail

address="${1:?usage: sweep.sh ADDRESS}"
host="${HOST:-localhost}"
port="${PORT:-8000}"
steps="${STEPS:-50}"
step_seconds="${STEP_SECONDS:-0.02}"
knoblink="${KNOBLINK:-knoblink}"
echo "sweep.sh: $address on $host:$port; Examples/scripts/watch.sh shows it (a dump at port 9000 of this" \
    "machine does not: the server sends no peer its own changes)" >&2

{
    for ((i = 0; i <= steps; i++)); do
        printf '%s f %s\n' "$address" "$(awk -v i="$i" -v n="$steps" 'BEGIN { printf "%.4f", i / n }')"
        sleep "$step_seconds"
    done
    for ((i = steps - 1; i >= 0; i--)); do
        printf '%s f %s\n' "$address" "$(awk -v i="$i" -v n="$steps" 'BEGIN { printf "%.4f", i / n }')"
        sleep "$step_seconds"
    done
} | "$knoblink" send "$host" "$port" -
