#!/usr/bin/env bash
# Checks a build of knoblink on this machine: starts `knoblink dump` on a free port, sends it a
# message of every type with `knoblink send` (and with liblo's oscsend when it is installed),
# prints what the dump printed, and stops it.
#
#   Examples/scripts/loopback-check.sh                      # the knoblink on PATH
#   KNOBLINK=.build/debug/knoblink Examples/scripts/loopback-check.sh
set -euo pipefail

knoblink="${KNOBLINK:-knoblink}"
errors="$(mktemp)"
output="$(mktemp)"
trap 'rm -f "$errors" "$output"' EXIT

"$knoblink" dump 0 >"$output" 2>"$errors" &
dump_pid=$!
for _ in $(seq 50); do
    grep -q 'port' "$errors" && break
    sleep 0.1
done
port="$(awk '/port/ { print $NF; exit }' "$errors")"
[ -n "$port" ] || { echo "knoblink dump did not start" >&2; kill "$dump_pid"; exit 1; }

"$knoblink" send localhost "$port" /knoblink ihfdsScmTFNI -5 1234567890123 0.5 0.25 'a b' sym x 0a0b0c0d
"$knoblink" send localhost "$port" /knoblink/extra btr 01ff now ff000080
printf '/bundled i 1\n/bundled s "two words"\n' | "$knoblink" send --bundle localhost "$port" -
if command -v oscsend >/dev/null; then
    oscsend localhost "$port" /oscsend ihfdsScmTFNI -5 1234567890123 0.5 0.25 'a b' sym x 0a0b0c0d
fi
sleep 0.3
kill -INT "$dump_pid"
wait "$dump_pid"
cat "$output"
