#!/usr/bin/env bash
# Sends every message of a file (one a line: ADDRESS TYPES VALUES..., shell quoting, # comments)
# in one OSC bundle, so that the receiver applies them together; an optional time tag delays
# the bundle (+SECONDS from now, or SSSSSSSS.FFFFFFFF as oscdump prints time tags).
#
#   Examples/scripts/send-preset.sh Examples/scripts/preset.osc
#   HOST=studio.local TIME_TAG=+2 Examples/scripts/send-preset.sh my-preset.osc
set -euo pipefail

file="${1:?usage: send-preset.sh FILE}"
host="${HOST:-localhost}"
port="${PORT:-8000}"
knoblink="${KNOBLINK:-knoblink}"

"$knoblink" send --time-tag "${TIME_TAG:-immediately}" "$host" "$port" - <"$file"
