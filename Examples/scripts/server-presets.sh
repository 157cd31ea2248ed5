#!/usr/bin/env bash
# Saves, lists, loads and deletes presets on a KnobLink server started with a presets folder
# (Docs/PROTOCOL.md section 3).
#
#   knoblink serve --presets ~/knoblink-presets &
#   Examples/scripts/server-presets.sh
set -euo pipefail
# shellcheck source=server-lib.sh
source "$(dirname "$0")/server-lib.sh"
listen "${FEEDBACK:-9000}"

step /knob/gain/raw f -6
echo "# Saved as Lead.json in the presets folder; no answer."
step /sys/preset/save s Lead
step /knob/gain/raw f -30
echo "# Loading sends the changed values to every subscriber, this one included."
step /sys/preset/load s Lead
step /sys/preset/list
step /sys/preset/load s Missing
step /sys/preset/delete s Lead
step /sys/preset/list
