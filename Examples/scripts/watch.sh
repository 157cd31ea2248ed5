#!/usr/bin/env bash
# Prints "address value" for every message that arrives on PORT (9000, where a KnobLink server
# sends its feedback), live. It reads the output format of oscdump, so either tool can feed it:
#
#   Examples/scripts/watch.sh                      # knoblink dump 9000
#   DUMP="oscdump -L" Examples/scripts/watch.sh    # liblo's oscdump, same output
#
# Each line of the dump is: TIMETAG ADDRESS TYPES VALUES...; strings are printed in double quotes.
set -euo pipefail

port="${1:-9000}"
dump="${DUMP:-${KNOBLINK:-knoblink} dump}"

# A shell loop rather than awk: mawk, Debian's awk, reads a pipe in blocks and would hold lines back.
# shellcheck disable=SC2086  # $dump is a command with its options
$dump "$port" | while read -r _timetag address _types values; do
    printf '%s %s\n' "$address" "$values"
done
