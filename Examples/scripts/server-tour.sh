#!/usr/bin/env bash
# A tour of a KnobLink server's parameter messages (Docs/PROTOCOL.md section 2), with liblo's
# oscsend, printing what the server answers on its feedback port, as oscdump prints it.
#
#   knoblink serve &                  # in another terminal: the default tree on port 8000
#   Examples/scripts/server-tour.sh   # HOST=... PORT=... FEEDBACK=... to point it elsewhere
#
# Answers go to the sender's IP at the server's feedback port (9000 unless --feedback-port), so
# this script listens there; stop anything else on that port first (a TouchOSC on this machine).
set -euo pipefail
# shellcheck source=server-lib.sh
source "$(dirname "$0")/server-lib.sh"
listen "${FEEDBACK:-9000}"

echo "# The first message makes this machine a subscriber: it gets every current value."
step /knob/gain f 0.5
echo "# A value outside 0...1 is clamped, and the sender gets the applied value back (a correction)."
step /knob/gain f 1.7
echo "# Queries: normalised, in the parameter's own units, as display text."
step /knob/gain
step /knob/gain/raw f -6
step /knob/gain/raw
step /knob/gain/str s "-12 dB"
step /knob/gain/str
echo "# A boolean is quantised: 0.7 becomes 1, and the sender is told."
step /toggle/retrigger f 0.7
echo "# Back to the default value; no answer."
step /knob/gain/reset
step /knob/gain/str
echo "# What the parameter is: name, unit, min, max, default (in its units), taper, flags."
step /knob/frequency/info
echo "# Errors name the address and the reason."
step /knob/nope f 0.5
sleep 1 # a peer gets at most one /sys/error a second; the rest are counted
step /knob/gain/str s loud
echo "# Is anybody there?"
step /sys/ping
