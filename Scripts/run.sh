#!/usr/bin/env bash
# Builds KnobLink and runs it on its embedded default. Extra arguments go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
knoblink="$(bash Scripts/build-release.sh)"
if [ $# -eq 0 ]; then
    set -- serve
fi
exec "$knoblink" "$@"
